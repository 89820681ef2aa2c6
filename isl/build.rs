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
        Err(e) => println!(
            "cargo::warning=isl not found ({}); `polyscan compare` is disabled: apt-get install -y libisl-dev pkg-config",
            e.to_string().lines().next().unwrap_or("pkg-config failed")
        ),
    }
}
