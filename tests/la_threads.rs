//! `polyscan la --threads N`: five application problems at test sizes run with two threads
//! (`--run`) on the generated back end (OpenMP in the blocked kernels) and on the blas back
//! end (OpenBLAS's threads), each passing its residual check; the same programs built with
//! `-DPS_OMP_MIN=1` so that the parallel tile loops really fork at these sizes; the text
//! with `--threads 2` carrying the pragmas and thread settings, and with `--threads 1`
//! byte for byte the default output (programs and C API).
//!
//! Skipped where the machine lacks what a test needs: a C compiler `cc`, OpenMP
//! (`-fopenmp` with `omp.h`), OpenBLAS.
//!
//! In these tests `expect` marks a failure of the test's own setup (temporary directory,
//! files it writes, the binary cargo built): a panic is the report wanted there.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::la::{polyscan, scale_for};

/// The problems run: least squares (SYRK, POTRF, GEMV, TRSV), generalised least squares
/// (TRSM as well), LMMSE (SYMM, GEMM), LMMSE with the covariance update (SYMM of a
/// transposed operand, SYRK of `t t^T`, sums of two matrices) and the Kalman filter (TRSM,
/// GEMM twice).
const PROBLEMS: [&str; 5] = [
    "a01_least_squares",
    "a02_generalized_least_squares",
    "a22_lmmse",
    "a24_lmmse",
    "a25_kalman",
];

fn problem(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/la")
        .join(format!("{name}.la"))
}

/// Whether `cc FLAGS probe.c` builds `text`.
fn builds(text: &str, flags: &[&str]) -> bool {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = dir.path().join("p.c");
    std::fs::write(&c, text).expect("write probe");
    Command::new("cc")
        .args(flags)
        .arg(&c)
        .arg("-o")
        .arg(dir.path().join("p"))
        .output()
        .is_ok_and(|o| o.status.success())
}

fn openmp_available() -> bool {
    builds(
        "#include <omp.h>\nint main(void) { omp_set_num_threads(2); return omp_get_max_threads() == 2 ? 0 : 1; }\n",
        &["-fopenmp"],
    )
}

fn openblas_available() -> bool {
    builds(
        "double cblas_ddot(int, const double *, int, const double *, int);\n\
         int main(void) { double x = 1.0; return cblas_ddot(1, &x, 1, &x, 1) == 1.0 ? 0 : 1; }\n",
        &["-lopenblas"],
    )
}

/// `polyscan la PROBLEM --time-limit 0 --scale S` followed by `extra`.
fn la(name: &str, extra: &[&str]) -> (i32, String, String) {
    let path = problem(name);
    let scale = scale_for(&path).to_string();
    let path = path.to_string_lossy().into_owned();
    let mut args = vec!["la", path.as_str(), "--time-limit", "0", "--scale", &scale];
    args.extend_from_slice(extra);
    polyscan(&args)
}

/// Every problem run with `--run --threads 2 --backend backend`: exit 0 and residuals ok.
fn run_two_threads(backend: &str) {
    let mut failures = Vec::new();
    for name in PROBLEMS {
        let (code, out, err) = la(name, &["--run", "--threads", "2", "--backend", backend]);
        if code != 0 || !out.contains("result: ok") {
            failures.push(format!("{name}: exit {code}\n{out}\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn two_threads_generated_run_passes_residuals() {
    if !builds("int main(void) { return 0; }\n", &[]) || !openmp_available() {
        println!("skipped: no cc with OpenMP (-fopenmp, omp.h)");
        return;
    }
    run_two_threads("generated");
}

#[test]
fn two_threads_blas_run_passes_residuals() {
    if !openblas_available() {
        println!("skipped: no cc or libopenblas not found (install libopenblas-dev)");
        return;
    }
    run_two_threads("blas");
}

/// At test sizes the pragmas' `if(...)` keeps most loops serial; with `PS_OMP_MIN=1` every
/// independent tile loop forks (and with `PS_OMP_PASS_MIN=1` every element-wise pass), and
/// the results must still pass the residual check.
#[test]
fn two_threads_generated_forced_parallel_loops_pass_residuals() {
    if !openmp_available() {
        println!("skipped: no cc with OpenMP (-fopenmp, omp.h)");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for name in PROBLEMS {
        let c = dir.path().join(format!("{name}.c"));
        let c_arg = c.to_string_lossy().into_owned();
        let (code, _, err) = la(name, &["--emit", "c", "--threads", "2", "-o", &c_arg]);
        assert_eq!(code, 0, "{name}: {err}");
        let exe = dir.path().join(name);
        let built = Command::new("cc")
            .args([
                "-O2",
                "-march=native",
                "-fopenmp",
                "-DPS_OMP_MIN=1",
                "-DPS_OMP_PASS_MIN=1",
                "-Wall",
            ])
            .arg(&c)
            .arg("-o")
            .arg(&exe)
            .arg("-lm")
            .output()
            .expect("run cc");
        if !built.status.success() {
            failures.push(format!(
                "{name}: does not compile\n{}",
                String::from_utf8_lossy(&built.stderr)
            ));
            continue;
        }
        let ran = Command::new(&exe).output().expect("run the program");
        let out = String::from_utf8_lossy(&ran.stdout);
        if ran.status.code() != Some(0) || !out.contains("result: ok") {
            failures.push(format!("{name}: {:?}\n{out}", ran.status.code()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn two_threads_text_has_pragmas_and_thread_settings() {
    for name in PROBLEMS {
        let (code, generated, err) = la(name, &["--emit", "c", "--threads", "2"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(generated.contains("#pragma omp parallel for"), "{name}");
        assert!(generated.contains("omp_set_num_threads(2);"), "{name}");
        assert!(generated.contains("-fopenmp"), "{name}");
        let (code, blas, err) = la(
            name,
            &["--emit", "c", "--threads", "2", "--backend", "blas"],
        );
        assert_eq!(code, 0, "{name}: {err}");
        assert!(blas.contains("openblas_set_num_threads(2);"), "{name}");
        assert!(!blas.contains("openblas_set_num_threads(1);"), "{name}");
        assert!(!blas.contains("#pragma omp"), "{name}");
    }
}

#[test]
fn one_thread_is_the_default_text() {
    for name in PROBLEMS {
        for backend in ["generated", "blas", "nests"] {
            let (c0, default, e0) = la(name, &["--emit", "c", "--backend", backend]);
            let (c1, one, e1) = la(
                name,
                &["--emit", "c", "--backend", backend, "--threads", "1"],
            );
            assert_eq!((c0, c1), (0, 0), "{name} {backend}: {e0}{e1}");
            assert!(
                default == one,
                "{name} {backend}: --threads 1 changed the program"
            );
            assert!(!one.contains("#pragma omp"), "{name} {backend}");
        }
    }
}

#[test]
fn one_thread_is_the_default_c_api() {
    let dir = tempfile::tempdir().expect("tempdir");
    for backend in ["generated", "blas"] {
        let mut texts = Vec::new();
        for threads in [None, Some("1"), Some("2")] {
            let sub = dir
                .path()
                .join(format!("{backend}{}", threads.unwrap_or("0")));
            std::fs::create_dir(&sub).expect("create a directory");
            let c = sub.join("a01_least_squares.c");
            let c_arg = c.to_string_lossy().into_owned();
            let mut args = vec!["--emit", "c-api", "-o", &c_arg, "--backend", backend];
            if let Some(t) = threads {
                args.extend(["--threads", t]);
            }
            let (code, _, err) = la("a01_least_squares", &args);
            assert_eq!(code, 0, "{backend}: {err}");
            let h = std::fs::read_to_string(c.with_extension("h")).expect("read NAME.h");
            let src = std::fs::read_to_string(&c).expect("read NAME.c");
            texts.push((h, src));
        }
        assert!(
            texts[0] == texts[1],
            "{backend}: --threads 1 changed the C API"
        );
        let (_, two) = &texts[2];
        assert!(
            two.contains("Threads (2): the caller's setting"),
            "{backend}"
        );
        assert_eq!(
            two.contains("#pragma omp parallel for"),
            backend == "generated",
            "{backend}"
        );
    }
}

#[test]
fn threads_errors() {
    let (code, _, err) = la(
        "a01_least_squares",
        &["--emit", "c", "--threads", "2", "--backend", "nests"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nests"), "{err}");
    let (code, _, err) = la("a01_least_squares", &["--emit", "c", "--threads", "0"]);
    assert_eq!(code, 2, "{err}");
    let path = problem("a01_least_squares");
    let (code, _, err) = polyscan(&["la", &path.to_string_lossy(), "--threads", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--threads"), "{err}");
}
