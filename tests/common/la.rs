//! Helpers the `polyscan la` program tests share: running the binary, the 25 application
//! problems of examples/la, the scale that brings them to test sizes, solving a problem
//! with its sequence checked against direct evaluation, and whether OpenBLAS links.

#![allow(dead_code)] // each test file uses its own subset

use polyscan_la::interp::{check, scaled};
use polyscan_la::kernels::Kernel;
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions, Solution};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit code, standard output and standard error of `polyscan ARGS`.
pub fn polyscan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(args)
        .output()
        .expect("run polyscan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The 25 application problems, sorted.
pub fn problems() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/la");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/la")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "la"))
        .collect();
    v.sort();
    assert_eq!(v.len(), 25, "the 25 problems of Linnea's Appendix A");
    v
}

/// The factor that brings the largest declared size down to about 48.
pub fn scale_for(path: &Path) -> f64 {
    let src = std::fs::read_to_string(path).expect("read problem");
    let largest = src
        .lines()
        .filter_map(|l| {
            let (name, value) = l.split_once('=')?;
            let name = name.trim();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            value.trim().parse::<u64>().ok()
        })
        .max()
        .unwrap_or(48);
    (48.0 / largest as f64).min(1.0)
}

/// The solution of `src`, after checking its sequence numerically at a tenth of the sizes
/// (seeds 1 and 2, relative difference below 1e-8 against direct evaluation).
pub fn solved(src: &str) -> Solution {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let s = solve(&p, SearchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for seed in [1, 2] {
        let rel = check(&scaled(&p, 10, 3), &s.lowered.env, &s.lowered.steps, seed)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(rel < 1e-8, "relative difference {rel:e}\n{src}");
    }
    s
}

/// The kernels of the sequence, without the final bindings of the outputs (copies).
pub fn kernels(s: &Solution) -> Vec<Kernel> {
    s.lowered
        .steps
        .iter()
        .map(|s| s.kernel)
        .filter(|k| *k != Kernel::Bind)
        .collect()
}

/// Whether a program calling CBLAS compiles and links with `cc ... -lopenblas`.
pub fn openblas_available() -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    let c = dir.path().join("p.c");
    let probe = "double cblas_ddot(int, const double *, int, const double *, int);\n\
         int main(void) { double x = 1.0; return cblas_ddot(1, &x, 1, &x, 1) == 1.0 ? 0 : 1; }\n";
    if std::fs::write(&c, probe).is_err() {
        return false;
    }
    Command::new("cc")
        .arg(&c)
        .arg("-o")
        .arg(dir.path().join("p"))
        .arg("-lopenblas")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The compiler command that builds the C API checking driver `la/src/program/c/capi_driver.c`
/// with `NAME.c` (`c_file`, whose header `stem.h` is beside it) into `exe`, linked with
/// OpenBLAS for the `blas` back end; `flags` go first (optimisation, defines, linker wraps).
pub fn capi_driver_cc(
    flags: &[&str],
    c_file: &Path,
    stem: &str,
    exe: &Path,
    backend: &str,
) -> Command {
    let driver_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("la/src/program/c");
    let dir = c_file.parent().unwrap_or(Path::new("."));
    let mut cc = Command::new("cc");
    cc.args(flags)
        .arg(format!("-I{}", driver_dir.display()))
        .arg(format!("-I{}", dir.display()))
        .arg(format!("-DPS_CAPI_HEADER=\"{stem}.h\""))
        .arg(driver_dir.join("capi_driver.c"))
        .arg(c_file)
        .arg("-o")
        .arg(exe)
        .arg("-lm");
    if backend == "blas" {
        cc.arg("-lopenblas");
    }
    cc
}

/// The numbers after "residual " in a program's or driver's report, in order.
pub fn residuals(text: &str) -> Vec<f64> {
    text.lines()
        .filter(|l| l.contains("residual "))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .collect()
}

/// Compiles `c_file` (a `--emit c-api` output named `stem`) with the generic driver into
/// `exe`, runs it on one BLAS thread and returns its report and residuals; compiling and
/// running must succeed (`what` names the case in the failure message).
pub fn run_capi_driver(
    c_file: &Path,
    stem: &str,
    exe: &Path,
    backend: &str,
    what: &str,
) -> (String, Vec<f64>) {
    let out = capi_driver_cc(&["-O2", "-std=gnu11"], c_file, stem, exe, backend)
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(exe)
        .env("OPENBLAS_NUM_THREADS", "1")
        .output()
        .expect("run the driver");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{what}: {text}");
    let r = residuals(&text);
    (text, r)
}
