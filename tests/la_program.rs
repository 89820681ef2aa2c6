//! `polyscan la --emit c` / `--run`: the 25 application problems compiled and run at small
//! sizes with both back ends (residual below 1e-8 each), a few of them against the naive
//! evaluation with OpenBLAS and LAPACK (`--naive blas`), a corrupted kernel or naive
//! evaluation caught by the program's residual check, and the command line's errors and
//! exit codes.
//!
//! The problems are split over a few tests so that cargo's test threads compile them in
//! parallel (one compile per problem and back end).

mod common;
use common::la::{openblas_available, polyscan, problems, scale_for};

use std::process::Command;

/// Runs every problem of `range` (indices into the sorted list) with `backend`.
fn run_problems(range: std::ops::Range<usize>, backend: &str) {
    run_problems_with(range, backend, "loops");
}

/// The same with the naive evaluation `naive` (`loops` or `blas`).
fn run_problems_with(range: std::ops::Range<usize>, backend: &str, naive: &str) {
    if (backend == "blas" || naive == "blas") && !openblas_available() {
        println!("skipped: libopenblas not found (install libopenblas-dev)");
        return;
    }
    let all = problems();
    let mut failures = Vec::new();
    for p in &all[range] {
        let scale = format!("{}", scale_for(p));
        let file = p.to_string_lossy();
        let (code, out, err) = polyscan(&[
            "la",
            &file,
            "--time-limit",
            "0.1",
            "--run",
            "--backend",
            backend,
            "--scale",
            &scale,
            "--naive",
            naive,
        ]);
        let residuals: Vec<f64> = out
            .lines()
            .filter_map(|l| l.strip_prefix("residual "))
            .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
            .collect();
        let name = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        println!(
            "{} {backend}, naive {naive}: exit {code}, residuals {residuals:?}",
            name.unwrap_or_default()
        );
        // The program names its naive evaluation: the residuals are against the one asked for.
        let how = if naive == "blas" {
            "naive evaluation: OpenBLAS"
        } else {
            "naive evaluation: loops"
        };
        if code != 0
            || !out.contains(how)
            || residuals.is_empty()
            || residuals.iter().any(|r| r.is_nan() || *r >= 1e-8)
        {
            failures.push(format!(
                "{file} ({backend}, naive {naive}): exit {code}\n{out}\n{err}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

#[test]
fn problems_a01_to_a09_generated() {
    run_problems(0..9, "generated");
}

#[test]
fn problems_a10_to_a17_generated() {
    run_problems(9..17, "generated");
}

#[test]
fn problems_a18_to_a25_generated() {
    run_problems(17..25, "generated");
}

/// Every kernel as its catalogue nest (the loop orders chosen for column-major storage
/// must respect the solves' and factorisations' dependences), on problems that together
/// use every kernel of the catalogue the search emits, both triangles and both sides.
#[test]
fn problems_with_catalogue_nests_only() {
    for i in [4, 5, 6, 8, 10, 13, 15, 19] {
        run_problems(i..i + 1, "nests");
    }
}

#[test]
fn problems_a01_to_a12_blas() {
    run_problems(0..12, "blas");
}

#[test]
fn problems_a13_to_a25_blas() {
    run_problems(12..25, "blas");
}

/// The naive evaluation with OpenBLAS products and LAPACK inverses (what the benchmark
/// uses at the declared sizes) agrees with both back ends: least squares (an inverse of a
/// product), the ensemble Kalman filter (inverses of sums, TRTRI and LAUUM in the
/// sequence), randomized inversion (an inverse inside a product of n x n matrices) and
/// the Kalman filter (three outputs).
#[test]
fn problems_against_the_blas_naive_evaluation_generated() {
    for i in [0, 6, 11, 24] {
        run_problems_with(i..i + 1, "generated", "blas");
    }
}

#[test]
fn problems_against_the_blas_naive_evaluation_blas() {
    for i in [0, 6, 11, 24] {
        run_problems_with(i..i + 1, "blas", "blas");
    }
}

fn example(name: &str) -> String {
    format!("{}/examples/la/{name}.la", env!("CARGO_MANIFEST_DIR"))
}

/// Emits a program for `problem` at small sizes, applies `corrupt` to its text, compiles and
/// runs it: (exit status, standard output).
fn run_edited(problem: &str, backend: &str, corrupt: &dyn Fn(&str) -> String) -> (i32, String) {
    run_edited_with(&example(problem), backend, false, corrupt)
}

/// `polyscan la PATH --emit c --backend BACKEND SIZING -o OUT`, which must succeed.
fn emit_program(path: &str, backend: &str, sizing: &[&str], out: &std::path::Path) {
    let out = out.to_string_lossy();
    let mut args = vec!["la", path, "--time-limit", "0.1", "--emit", "c"];
    args.extend(["--backend", backend]);
    args.extend(sizing);
    args.extend(["-o", &out]);
    let (code, _, err) = polyscan(&args);
    assert_eq!(code, 0, "{err}");
}

/// The same for the problem file `path`, with the naive evaluation by OpenBLAS and
/// LAPACK if `naive_blas`.
fn run_edited_with(
    path: &str,
    backend: &str,
    naive_blas: bool,
    corrupt: &dyn Fn(&str) -> String,
) -> (i32, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = dir.path().join("prog.c");
    emit_program(path, backend, &["--size", "n=60", "--size", "m=20"], &c);
    let text = std::fs::read_to_string(&c).expect("program written");
    std::fs::write(&c, corrupt(&text)).expect("write the edited program");
    let exe = dir.path().join("prog");
    let mut cc = Command::new("cc");
    cc.args(["-O2", "-march=native"]);
    if naive_blas {
        cc.arg("-DPS_NAIVE_BLAS");
    }
    cc.arg(&c).arg("-o").arg(&exe).arg("-lm");
    if backend == "blas" || naive_blas {
        cc.arg("-lopenblas");
    }
    let built = cc.output().expect("run cc");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = Command::new(&exe).output().expect("run the program");
    (
        ran.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&ran.stdout).into_owned(),
    )
}

/// The program exited with 1 and said why: its residual check caught a corruption.
fn assert_caught(code: i32, out: &str) {
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("RESIDUAL TOO LARGE"), "{out}");
}

/// `text` with the first call `call` (which passes alpha = 1.0) given alpha = 1.001.
fn perturb_alpha(text: &str, call: &str) -> String {
    let at = text.find(call).expect("the program makes the call");
    let rel = text[at..].find(", 1.0, ").expect("alpha = 1");
    format!("{}, 1.001, {}", &text[..at + rel], &text[at + rel + 7..])
}

/// SYRK's alpha in a01's generated sequence off by 0.1%: the residual check must fire
/// (and the untouched program must pass, so the check is not vacuous).
#[test]
fn a_wrong_generated_kernel_fails_the_residual_check() {
    let (code, out) = run_edited("a01_least_squares", "generated", &|t| t.to_string());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("result: ok"), "{out}");
    let (code, out) = run_edited("a01_least_squares", "generated", &|t| {
        perturb_alpha(t, "    polyscan_dsyrk(")
    });
    assert_caught(code, &out);
}

/// The Cholesky nest with its square roots off by 0.01%.
#[test]
fn a_wrong_catalogue_nest_fails_the_residual_check() {
    let (code, out) = run_edited("a01_least_squares", "nests", &|t| {
        assert!(t.contains("? sqrt("), "the POTRF nest takes square roots");
        t.replace("? sqrt(", "? 1.0001 * sqrt(")
    });
    assert_caught(code, &out);
}

/// The same with BLAS: SYRK's alpha perturbed.
#[test]
fn a_wrong_blas_call_fails_the_residual_check() {
    if !openblas_available() {
        println!("skipped: libopenblas not found (install libopenblas-dev)");
        return;
    }
    let (code, out) = run_edited("a01_least_squares", "blas", &|t| {
        perturb_alpha(t, "cblas_dsyrk(")
    });
    assert_caught(code, &out);
}

/// The naive evaluation with OpenBLAS is the reference the check trusts, so an error in it
/// must show too: DGEMM's alpha off by 0.1%, or one entry of the LAPACK inverse off by
/// 0.1%, in a01 (b = inv(X^T X) X^T y). The untouched program passes and says which
/// naive evaluation it ran.
#[test]
fn a_wrong_blas_naive_evaluation_fails_the_residual_check() {
    if !openblas_available() {
        println!("skipped: libopenblas not found (install libopenblas-dev)");
        return;
    }
    let (code, out) = run_edited_with(&example("a01_least_squares"), "generated", true, &|t| {
        t.into()
    });
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("naive evaluation: OpenBLAS"), "{out}");
    assert!(out.contains("result: ok"), "{out}");
    let (code, out) = run_edited_with(&example("a01_least_squares"), "generated", true, &|t| {
        let call = "(int)a.c, 1.0, a.d,";
        assert_eq!(t.matches(call).count(), 1, "one DGEMM call in nv_mul");
        t.replace(call, "(int)a.c, 1.001, a.d,")
    });
    assert_caught(code, &out);
    let (code, out) = run_edited_with(&example("a01_least_squares"), "generated", true, &|t| {
        let check = "if (info != 0) ps_fail(\"naive: dgetri\", info);";
        assert_eq!(t.matches(check).count(), 1, "one DGETRI call in nv_inv");
        t.replace(check, &format!("{check} x.d[0] *= 1.001;"))
    });
    assert_caught(code, &out);
}

#[test]
fn emitted_program_is_complete_c_on_standard_output() {
    let (code, out, err) = polyscan(&[
        "la",
        &example("a19_tikhonov"),
        "--time-limit",
        "0.1",
        "--emit",
        "c",
        "--scale",
        "0.1",
        "--seed",
        "7",
    ]);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "int main(void)",
        "ps_state = 7ull",
        "clock_gettime(CLOCK_MONOTONIC",
        "#define PS_TOL 1e-8",
        "static void ps_naive(",
        "nv_inv(",
        "polyscan_dsyrk(",
    ] {
        assert!(out.contains(needle), "missing {needle}");
    }
}

#[test]
fn bad_flags_exit_with_2() {
    let a19 = example("a19_tikhonov");
    for args in [
        vec!["--run", "--size", "n"],
        vec!["--run", "--size", "zz=3"],
        vec!["--run", "--size", "n=0"],
        vec!["--run", "--scale", "-1"],
        vec!["--run", "--tolerance", "0"],
        vec!["--backend", "blas"],
        vec!["--size", "n=4"],
        vec!["-o", "x.c"],
        vec!["--emit", "c", "--json"],
        vec!["--run", "--backend", "fortran"],
        vec!["--emit", "c", "--naive", "blas"],
        vec!["--run", "--naive", "fast"],
    ] {
        let mut all = vec!["la", &a19, "--time-limit", "0.05"];
        all.extend(args.iter().copied());
        let (code, out, err) = polyscan(&all);
        assert_eq!(code, 2, "{args:?}: {out}\n{err}");
        assert!(!err.is_empty(), "{args:?}: a message");
    }
}

#[test]
fn output_is_written_atomically_or_not_at_all() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no/such/dir/prog.c");
    let ms = missing.to_string_lossy().into_owned();
    let (code, _, err) = polyscan(&[
        "la",
        &example("a19_tikhonov"),
        "--time-limit",
        "0.05",
        "--emit",
        "c",
        "-o",
        &ms,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(!missing.exists());
    // A failing emission leaves an existing file untouched.
    let target = dir.path().join("prog.c");
    std::fs::write(&target, "old").expect("write");
    let ts = target.to_string_lossy().into_owned();
    let (code, _, _) = polyscan(&[
        "la",
        &example("a19_tikhonov"),
        "--time-limit",
        "0.05",
        "--emit",
        "c",
        "--size",
        "zz=3",
        "-o",
        &ts,
    ]);
    assert_eq!(code, 2);
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "old");
    let leftovers = std::fs::read_dir(dir.path()).expect("dir").count();
    assert_eq!(leftovers, 1, "no temporary file left behind");
}

#[test]
fn missing_compiler_exits_with_3() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args([
            "la",
            &example("a19_tikhonov"),
            "--time-limit",
            "0.05",
            "--run",
            "--scale",
            "0.1",
        ])
        .env("PATH", empty.path())
        .env_remove("CC")
        .output()
        .expect("run polyscan");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("compiler"), "{err}");
}

/// Triangular inverses (both triangles) and the inverse of an SPSD matrix run through the
/// blocked TRTRI kernel and, for LAUUM, the blocked LAUUM; an inverse off by 0.1% in one
/// entry must fail the check.
#[test]
fn triangular_inverses_and_lauum_use_blocked_kernels() {
    let path = format!("{}/tests/data/la/triangles.la", env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = polyscan(&["la", &path, "--run", "--time-limit", "0.5"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("result: ok"), "{out}");
    let trtri = out
        .lines()
        .filter(|l| l.starts_with("kernel TRTRI") && l.contains("polyscan_dtrtri"))
        .count();
    assert_eq!(trtri, 5, "{out}");
    let lauum = out
        .lines()
        .filter(|l| l.starts_with("kernel LAUUM") && l.contains("polyscan_dlauum"))
        .count();
    assert_eq!(lauum, 3, "{out}");
    let (code, out) = run_edited_with(&path, "generated", false, &|t| {
        // Scale the first inverse's (0, 0) entry after the kernel ran.
        let at = t.find("ps_fail(\"polyscan_dtrtri\"").expect("a TRTRI call");
        let end = at + t[at..].find('\n').expect("end of line");
        let call = &t[..at];
        let open = call.rfind("polyscan_dtrtri(").expect("the call");
        let args = &t[open + "polyscan_dtrtri(".len()..];
        let ptr = args
            .split(',')
            .nth(1)
            .expect("the matrix")
            .trim()
            .to_string();
        format!("{}\n      {ptr}[0] *= 1.001;{}", &t[..end], &t[end..])
    });
    assert_caught(code, &out);
}

/// `benches/la_programs.sh` times both back ends in one process: each program compiled with
/// `-DPS_PAIR=NAME` exports its set-up and one timed sample instead of `main`, and
/// `benches/la_pair.c` alternates them. Checks that the two programs link together (every
/// other name static) and that each sample runs its sequence (a positive time).
#[test]
fn programs_of_both_back_ends_link_into_one_timing_driver() {
    if !openblas_available() {
        println!("skipped: libopenblas not found (install libopenblas-dev)");
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut objects = Vec::new();
    for backend in ["generated", "blas"] {
        let c = dir.path().join(format!("{backend}.c"));
        emit_program(
            &example("a17_stochastic_newton"),
            backend,
            &["--scale", "0.05"],
            &c,
        );
        let o = dir.path().join(format!("{backend}.o"));
        let built = Command::new("cc")
            .args(["-O2", "-march=native", "-DPS_NO_NAIVE", "-c"])
            .arg(format!("-DPS_PAIR={backend}"))
            .arg(&c)
            .arg("-o")
            .arg(&o)
            .output()
            .expect("run cc");
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        objects.push(o);
    }
    let exe = dir.path().join("pair");
    let linked = Command::new("cc")
        .arg("-O2")
        .arg(format!("{root}/benches/la_pair.c"))
        .args(&objects)
        .arg("-o")
        .arg(&exe)
        .args(["-lm", "-lopenblas"])
        .output()
        .expect("run cc");
    assert!(
        linked.status.success(),
        "{}",
        String::from_utf8_lossy(&linked.stderr)
    );
    let ran = Command::new(&exe)
        .args(["3", "2", "0"])
        .env("OPENBLAS_NUM_THREADS", "1")
        .output()
        .expect("run the driver");
    let out = String::from_utf8_lossy(&ran.stdout);
    assert!(ran.status.success(), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("round ")).count(),
        3,
        "{out}"
    );
    for name in ["generated", "blas"] {
        let t: f64 = out
            .lines()
            .find_map(|l| l.strip_prefix(&format!("time {name}: ")))
            .and_then(|v| v.trim_end_matches(" s").parse().ok())
            .unwrap_or_else(|| panic!("no time for {name}: {out}"));
        assert!(t > 0.0 && t < 10.0, "{name}: {t}\n{out}");
    }
    let bad = Command::new(&exe)
        .args(["0", "1", "0"])
        .output()
        .expect("run");
    assert_eq!(bad.status.code(), Some(2));
}
