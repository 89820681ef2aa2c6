//! `polyscan la --emit c-api`: every application problem of examples/la, at reduced sizes
//! (largest size about 48, like tests/la_program.rs), emitted as NAME.h and NAME.c with
//! each back end, compiled with the generic checking driver la/src/program/c/capi_driver.c
//! (inputs with the declared properties, the formula evaluated directly, two calls with
//! one dirty workspace, packed and padded leading dimensions), residuals below 1e-8; plus
//! the command line's errors. Skipped without a C compiler; blas also without OpenBLAS.

use std::path::Path;
use std::process::Command;

mod common;
use common::la::{capi_driver_cc, polyscan, problems, residuals, scale_for};

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
        // An undeclared BLAS routine compiles with a warning only (an implicit `int f()`),
        // and is an error in C99 and later compilers' defaults (GCC 14).
        let out = capi_driver_cc(
            &[
                "-O2",
                "-std=gnu11",
                "-march=native",
                "-Werror=implicit-function-declaration",
            ],
            &c_file,
            &stem,
            &exe,
            backend,
        )
        .output()
        .expect("run cc");
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
        let residuals = residuals(&text);
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

/// Sizes declared `?`: a chain whose cheapest parenthesisation depends on both sizes, and
/// a solve with a general matrix (GETRF, pivots in the workspace) of bounded size beside a
/// declared one.
const CHAIN: &str =
    "n = ?\nm = ?\nMatrix A(n, m) <>\nMatrix B(m, n) <>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = A * B * C\n";
const LU: &str = "n = ? [1, 2000]\nm = 40\nMatrix A(n, n) <FullRank>\nMatrix B(n, m) <>\nMatrix C(m, n) <>\nMatrix X(n, m) <>\nX = inv(A) * B + trans(C)\n";

/// Writes `src` as STEM.la in `dir`, emits its C API with `backend` and compiles the
/// checking driver against it once, counting the allocations of the calls (GNU ld's
/// --wrap): the driver's path and NAME.c's text.
fn build_api(dir: &Path, stem: &str, src: &str, backend: &str) -> (std::path::PathBuf, String) {
    let la = dir.join(format!("{stem}.la"));
    std::fs::write(&la, src).expect("write problem");
    let c_file = dir.join(format!("{stem}.c"));
    let (code, _, err) = polyscan(&[
        "la",
        &la.to_string_lossy(),
        "--emit",
        "c-api",
        "--backend",
        backend,
        "-o",
        &c_file.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{stem} ({backend}): emit: {err}");
    let exe = dir.join(format!("check_{stem}"));
    let flags = [
        "-O2",
        "-std=gnu11",
        "-march=native",
        "-DPS_COUNT_ALLOC",
        "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc",
    ];
    let out = capi_driver_cc(&flags, &c_file, stem, &exe, backend)
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "{stem} ({backend}): does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let source = std::fs::read_to_string(&c_file).expect("NAME.c");
    (exe, source)
}

/// Runs the driver at `sets` (each `n=..,m=..`): exit code and standard output.
fn run_at(exe: &Path, sets: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(exe)
        .args(sets)
        .env("OPENBLAS_NUM_THREADS", "1")
        .output()
        .expect("run the driver");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The driver's report at every size set: two calls with residuals below 1e-8, declared
/// sizes off by one rejected, and the allocations counted in all calls.
fn check_sets(what: &str, exe: &Path, sets: &[&str]) -> (String, u64) {
    let (code, text, err) = run_at(exe, sets);
    assert_eq!(code, Some(0), "{what}: exit {code:?}\n{text}\n{err}");
    let blocks: Vec<&str> = text.split("sizes:").skip(1).collect();
    assert_eq!(
        blocks.len(),
        sets.len(),
        "{what}: one report per size set\n{text}"
    );
    for b in &blocks {
        for call in ["call 0: residual", "call 1: residual"] {
            assert!(b.contains(call), "{what}: {call} missing\n{b}");
        }
        assert!(
            !b.contains("NOT REJECTED"),
            "{what}: a wrong size accepted\n{b}"
        );
    }
    let residuals: Vec<f64> = text
        .lines()
        .filter(|l| l.contains("residual "))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .collect();
    assert!(
        !residuals.is_empty() && residuals.iter().all(|r| *r < 1e-8),
        "{what}: residuals {residuals:?}\n{text}"
    );
    let allocs = text
        .lines()
        .find_map(|l| l.strip_prefix("allocations in calls: ")?.parse().ok())
        .expect("the allocation count");
    println!("{what}: residuals {residuals:?}, allocations {allocs}");
    (text, allocs)
}

/// The emitter's own code (everything after the included blocked kernels: the sequences
/// and the API functions) allocates nothing: no malloc, calloc, realloc, ps_new or free.
fn assert_no_allocation(what: &str, source: &str) {
    let start = source
        .find("static void ps_seq_0(")
        .expect("the first kernel sequence");
    let own = &source[start..];
    for call in ["malloc(", "calloc(", "realloc(", "ps_new(", "free("] {
        assert!(
            !own.contains(call),
            "{what}: the sequence code calls {call}"
        );
    }
}

/// One C API for `?` sizes, compiled once and called at sizes it was not generated at
/// (1, 7, 23, 31, 133: the search saw 10, 100, 1000, 10000), twice each with one dirty
/// workspace; the variant that runs is the one `regions` assigns to those sizes (point
/// location in the decomposition, an independent computation of the C dispatch's cost
/// comparison).
fn open_chain(backend: &str) {
    if !toolchain(backend) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (exe, source) = build_api(dir.path(), "chain", CHAIN, backend);
    assert_no_allocation("chain", &source);
    let sets = [
        (1, 5),
        (5, 1),
        (7, 23),
        (23, 7),
        (31, 31),
        (133, 17),
        (17, 133),
    ];
    let args: Vec<String> = sets.iter().map(|(n, m)| format!("n={n},m={m}")).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (text, allocs) = check_sets(&format!("chain {backend}"), &exe, &args);
    assert_eq!(allocs, 0, "chain {backend}: the calls allocate\n{text}");
    // Which variant ran, against the regions' winner (matched by where it was chosen).
    let header = std::fs::read_to_string(dir.path().join("chain.h")).expect("chain.h");
    let chosen_at: Vec<String> = header
        .lines()
        .filter_map(|l| {
            let rest = l.trim().split_once(": ")?.1;
            Some(
                rest.split_once("(chosen at ")?
                    .1
                    .split_once(')')?
                    .0
                    .to_string(),
            )
        })
        .collect();
    assert!(chosen_at.len() >= 2, "two parenthesisations:\n{header}");
    let p = polyscan_la::parse::parse(CHAIN).expect("parse");
    let r = polyscan_la::regions::split(&p, polyscan_la::search::SearchOptions::default())
        .expect("regions");
    let ran: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("variant: ")?.parse().ok())
        .collect();
    assert_eq!(ran.len(), sets.len(), "{text}");
    let mut seen = std::collections::BTreeSet::new();
    for (&(n, m), &k) in sets.iter().zip(&ran) {
        let w = r.winner_at(&[n, m]).expect("inside the size space");
        let at: Vec<String> = r.candidates[w]
            .at
            .iter()
            .map(|(s, v)| format!("{s} = {v}"))
            .collect();
        assert_eq!(chosen_at[k], at.join(", "), "n={n} m={m}: variant {k}");
        seen.insert(k);
    }
    assert!(seen.len() >= 2, "both variants ran: {ran:?}");
}

#[test]
fn capi_open_sizes_generated() {
    open_chain("generated");
}

#[test]
fn capi_open_sizes_blas() {
    open_chain("blas");
}

/// GETRF on a bounded `?` size beside a declared one: n = 1 runs the sequence chosen at
/// 1 (a scalar inverse), the others the LU; the declared m off by one and n outside its
/// bounds are rejected. No allocation in the sequence code; with blas (whose kernels are
/// OpenBLAS's) none in the calls at all. The generated back end's blocked kernels still
/// allocate their own buffers (polyscan_kernels), which the count shows.
fn open_lu(backend: &str) {
    if !toolchain(backend) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (exe, source) = build_api(dir.path(), "lu", LU, backend);
    assert_no_allocation("lu", &source);
    assert!(source.contains("GETRF"), "the LU sequence is emitted");
    let (text, allocs) = check_sets(
        &format!("lu {backend}"),
        &exe,
        &["n=1", "n=7", "n=50", "n=133"],
    );
    if backend != "generated" {
        assert_eq!(allocs, 0, "lu {backend}: the calls allocate\n{text}");
    }
    let ran: Vec<i32> = text
        .lines()
        .filter_map(|l| l.strip_prefix("variant: ")?.parse().ok())
        .collect();
    assert!(ran[0] != ran[1], "n = 1 runs its own sequence: {ran:?}");
    let (code, _, err) = run_at(&exe, &["n=2001"]);
    assert_eq!(code, Some(2), "n above its bound: {err}");
    assert!(err.contains("sizes rejected"), "{err}");
}

#[test]
fn capi_open_lu_generated() {
    open_lu("generated");
}

#[test]
fn capi_open_lu_blas() {
    open_lu("blas");
}

#[test]
fn capi_open_lu_nests() {
    open_lu("nests");
}

/// A triangle of `?` shape n x m: the sequence chosen where n = m (TRMM) relies on the
/// square shape and runs only where n = m; elsewhere the general product chosen at
/// n != m runs. Checked by the variant each call reports and the residuals.
#[test]
fn capi_open_square_only_where_chosen_square() {
    if !toolchain("generated") {
        return;
    }
    let src = "n = ?\nm = ?\nMatrix A(n, m) <LowerTriangular>\nMatrix B(m, n) <>\nMatrix X(n, n) <>\nX = A * B\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let (exe, source) = build_api(dir.path(), "tri", src, "generated");
    assert_no_allocation("tri", &source);
    let header = std::fs::read_to_string(dir.path().join("tri.h")).expect("tri.h");
    let kernels: Vec<&str> = header
        .lines()
        .filter(|l| l.contains("(chosen at "))
        .collect();
    let trmm = kernels
        .iter()
        .position(|l| l.contains("TRMM"))
        .expect("a TRMM sequence");
    let sets = ["n=5,m=9", "n=9,m=5", "n=1,m=4", "n=12,m=12", "n=3,m=3"];
    let (text, _) = check_sets("tri", &exe, &sets);
    let ran: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("variant: ")?.parse().ok())
        .collect();
    for (set, k) in sets.iter().zip(&ran) {
        let (n, m) = set.split_once(',').expect("n=..,m=..");
        let square = n.trim_start_matches("n=") == m.trim_start_matches("m=");
        assert_eq!(*k == trmm, square, "{set}: variant {k}\n{header}");
    }
}
