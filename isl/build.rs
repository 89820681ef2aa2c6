//! Build script of polyscan-isl: finds the system isl (libisl-dev) with pkg-config when the
//! `isl` feature is on, links it, and sets `cfg(polyscan_has_isl)`; without the library the
//! crate still builds and `polyscan compare` explains how to install it.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(polyscan_has_isl)");
    println!("cargo::rerun-if-changed=build.rs");
    // Lets a developer check the "isl missing" build on a machine that has isl.
    println!("cargo::rerun-if-env-changed=POLYSCAN_NO_ISL");
    if std::env::var_os("CARGO_FEATURE_ISL").is_none()
        || std::env::var_os("POLYSCAN_NO_ISL").is_some()
    {
        return;
    }
    // 0.20 introduced the schedule-map AST builder interface used here (isl_ast_build_*).
    match pkg_config::Config::new()
        .atleast_version("0.20")
        .probe("isl")
    {
        Ok(_) => println!("cargo::rustc-cfg=polyscan_has_isl"),
        Err(e) => {
            // Without these a build made before `apt-get install libisl-dev` kept `compare`
            // disabled afterwards (cargo reran nothing: no file it watched had changed), and
            // the isl comparison tests skipped on a machine that had isl.
            for dir in pc_dirs() {
                println!("cargo::rerun-if-changed={dir}");
            }
            println!(
                "cargo::warning=isl not found ({}); `polyscan compare` is disabled: apt-get install -y libisl-dev pkg-config",
                e.to_string().lines().next().unwrap_or("pkg-config failed")
            );
        }
    }
}

/// The directories pkg-config searches for `.pc` files (its own list, `PKG_CONFIG_PATH`
/// and Debian's defaults, for when pkg-config itself is missing), those that exist: a
/// package installed later adds its `.pc` file to one of them.
fn pc_dirs() -> Vec<String> {
    println!("cargo::rerun-if-env-changed=PKG_CONFIG_PATH");
    let mut dirs: Vec<String> = std::env::var("PKG_CONFIG_PATH")
        .unwrap_or_default()
        .split(':')
        .map(String::from)
        .collect();
    if let Ok(out) = std::process::Command::new("pkg-config")
        .args(["--variable", "pc_path", "pkg-config"])
        .output()
    {
        dirs.extend(
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .split(':')
                .map(String::from),
        );
    }
    dirs.extend(
        [
            "/usr/lib/x86_64-linux-gnu/pkgconfig",
            "/usr/lib/pkgconfig",
            "/usr/share/pkgconfig",
        ]
        .map(String::from),
    );
    dirs.retain(|d| !d.is_empty() && std::path::Path::new(d).is_dir());
    dirs.sort();
    dirs.dedup();
    dirs
}
