//! `polyscan la --emit c-api`: every application problem of examples/la, at reduced sizes
//! (largest size about 48, like tests/la_program.rs), emitted as NAME.h and NAME.c with
//! each back end, compiled with the generic checking driver la/src/program/c/capi_driver.c
//! (inputs with the declared properties, the formula evaluated directly, two calls with
//! one dirty workspace, packed and padded leading dimensions), residuals below 1e-8; plus
//! the command line's errors. Skipped without a C compiler; blas also without OpenBLAS.

use std::path::Path;
use std::process::Command;

mod common;
use common::la::{polyscan, problems, scale_for};

fn compiles(dir: &Path, body: &str, libs: &[&str]) -> bool {
    let c = dir.join("probe.c");
    std::fs::write(&c, body).expect("write probe");
    Command::new("cc")
        .arg(&c)
        .arg("-o")
        .arg(dir.join("probe"))
        .args(libs)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the tests can run: a C compiler, and OpenBLAS for `blas`.
fn toolchain(backend: &str) -> bool {
    let dir = tempfile::tempdir().expect("tempdir");
    if !compiles(dir.path(), "int main(void) { return 0; }\n", &[]) {
        println!("skipped: no C compiler (cc)");
        return false;
    }
    if backend == "blas"
        && !compiles(
            dir.path(),
            "double cblas_ddot(int, const double *, int, const double *, int);\n\
             int main(void) { double x = 1.0; return cblas_ddot(1, &x, 1, &x, 1) == 1.0 ? 0 : 1; }\n",
            &["-lopenblas"],
        )
    {
        println!("skipped: libopenblas not found (install libopenblas-dev)");
        return false;
    }
    true
}

/// Emits, compiles and runs the checking driver for problems `range` with `backend`.
fn check_problems(range: std::ops::Range<usize>, backend: &str) {
    if !toolchain(backend) {
        return;
    }
    let driver_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("la/src/program/c");
    let all = problems();
    let mut failures = Vec::new();
    for p in &all[range] {
        let dir = tempfile::tempdir().expect("tempdir");
        let stem = p.file_stem().expect("a file name").to_string_lossy();
        let c_file = dir.path().join(format!("{stem}.c"));
        let scale = format!("{}", scale_for(p));
        let (code, _, err) = polyscan(&[
            "la",
            &p.to_string_lossy(),
            "--time-limit",
            "0.1",
            "--emit",
            "c-api",
            "--backend",
            backend,
            "--scale",
            &scale,
            "-o",
            &c_file.to_string_lossy(),
        ]);
        if code != 0 {
            failures.push(format!("{stem} ({backend}): emit exit {code}: {err}"));
            continue;
        }
        let header = std::fs::read_to_string(dir.path().join(format!("{stem}.h")))
            .expect("NAME.h written beside NAME.c");
        assert!(header.contains("_workspace("), "{header}");
        let exe = dir.path().join("check");
        let mut cc = Command::new("cc");
        cc.args(["-O2", "-std=gnu11", "-march=native"])
            .arg(format!("-I{}", driver_dir.display()))
            .arg(format!("-I{}", dir.path().display()))
            .arg(format!("-DPS_CAPI_HEADER=\"{stem}.h\""))
            .arg(driver_dir.join("capi_driver.c"))
            .arg(&c_file)
            .arg("-o")
            .arg(&exe)
            .arg("-lm");
        if backend == "blas" {
            cc.arg("-lopenblas");
        }
        let out = cc.output().expect("run cc");
        if !out.status.success() {
            failures.push(format!(
                "{stem} ({backend}): does not compile:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let mut run = Command::new(&exe);
        if backend == "blas" {
            run.env("OPENBLAS_NUM_THREADS", "1");
        }
        let out = run.output().expect("run the driver");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let residuals: Vec<f64> = text
            .lines()
            .filter(|l| l.contains("residual "))
            .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
            .collect();
        println!(
            "{stem} {backend}: exit {:?}, residuals {residuals:?}",
            out.status.code()
        );
        // Two calls, each with at least one output.
        let calls = ["call 0: residual", "call 1: residual"];
        if !out.status.success()
            || !calls.iter().all(|c| text.contains(c))
            || residuals.iter().any(|r| r.is_nan() || *r >= 1e-8)
        {
            failures.push(format!(
                "{stem} ({backend}): exit {:?}\n{text}\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

#[test]
fn capi_a01_to_a09_generated() {
    check_problems(0..9, "generated");
}

#[test]
fn capi_a10_to_a17_generated() {
    check_problems(9..17, "generated");
}

#[test]
fn capi_a18_to_a25_generated() {
    check_problems(17..25, "generated");
}

#[test]
fn capi_a01_to_a12_blas() {
    check_problems(0..12, "blas");
}

#[test]
fn capi_a13_to_a25_blas() {
    check_problems(12..25, "blas");
}

#[test]
fn capi_a01_to_a12_nests() {
    check_problems(0..12, "nests");
}

#[test]
fn capi_a13_to_a25_nests() {
    check_problems(12..25, "nests");
}

/// The header names the function after the problem file, with the sizes checked and
/// the workspace query; -o is required and must name a .c file (exit 2).
#[test]
fn capi_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/la/a01_least_squares.la");
    let file = p.to_string_lossy();
    let (code, _, err) = polyscan(&["la", &file, "--emit", "c-api"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-o NAME.c"), "{err}");
    let h = dir.path().join("x.h");
    let (code, _, err) = polyscan(&["la", &file, "--emit", "c-api", "-o", &h.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    let c = dir.path().join("api.c");
    let (code, _, err) = polyscan(&[
        "la",
        &file,
        "--emit",
        "c-api",
        "--size",
        "n=40",
        "--size",
        "m=7",
        "-o",
        &c.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{err}");
    let header = std::fs::read_to_string(dir.path().join("api.h")).expect("api.h");
    assert!(header.contains("int64_t a01_least_squares_workspace(int64_t n, int64_t m);"));
    assert!(header.contains(
        "int a01_least_squares(int64_t n, int64_t m, const double *X, int64_t ld_X, \
         const double *y, int64_t ld_y, double *b, int64_t ld_b, double *work);"
    ));
    let source = std::fs::read_to_string(&c).expect("api.c");
    assert!(source.contains("#include \"api.h\""));
    assert!(source.contains("if (n != 40 || m != 7) return A01_LEAST_SQUARES_ESIZE;"));
    assert!(!source.contains("main("));
    let (code, _, err) = polyscan(&[
        "la",
        &file,
        "--emit",
        "c-api",
        "--run",
        "-o",
        &c.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{err}");
}
