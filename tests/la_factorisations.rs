//! The orthogonal factorisations of `polyscan la` (issue 21): least squares by QR
//! (GEQRF, ORMQR, TRSM), solves by the symmetric eigendecomposition (SYEV) and by the SVD
//! (GESVD). For each: the sequence contains the kernel when asked for (`--stable`,
//! `--prefer`), its FLOPs equal a hand count from the catalogue's formulas, its numbers
//! agree with direct evaluation (the interpreter, and compiled programs and C APIs of the
//! blas and generated back ends, residual below 1e-8); by default the cheaper
//! factorisation wins, and none of the 25 application problems takes an orthogonal one.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use polyscan_la::interp::{check, scaled};
use polyscan_la::kernels::{cost, Kernel};
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, FactorChoice, Preferred, SearchOptions, Solution};

mod common;
use common::la::{kernels, openblas_available, polyscan, problems, run_capi_driver};

/// Least squares with a nearly square A and many right-hand sides (QR is cheaper).
const LS_SQUARE: &str = "n = 60\nm = 50\np = 40\nMatrix A(n, m) <FullRank>\nMatrix B(n, p) <>\nMatrix X(m, p) <>\nX = inv(trans(A) * A) * trans(A) * B\n";
/// Least squares with a tall A (the normal equations are cheaper).
const LS_TALL: &str = "n = 300\nm = 30\np = 4\nMatrix A(n, m) <FullRank>\nMatrix B(n, p) <>\nMatrix X(m, p) <>\nX = inv(trans(A) * A) * trans(A) * B\n";
/// A solve with a symmetric matrix not known SPD.
const SYM: &str = "n = 50\nk = 6\nMatrix S(n, n) <Symmetric, FullRank>\nMatrix B(n, k) <>\nMatrix X(n, k) <>\nX = inv(S) * B\n";
/// A solve with a general square matrix of full rank.
const GEN: &str = "n = 50\nk = 6\nMatrix A(n, n) <FullRank>\nMatrix B(n, k) <>\nMatrix X(n, k) <>\nX = inv(A) * B\n";

const STABLE: FactorChoice = FactorChoice {
    stable: true,
    prefer: None,
};
const EIGEN: FactorChoice = FactorChoice {
    stable: false,
    prefer: Some(Preferred::Eigen),
};
const SVD: FactorChoice = FactorChoice {
    stable: false,
    prefer: Some(Preferred::Svd),
};

/// The solution of `src` under `factor`, its sequence checked against direct evaluation
/// by the interpreter at the declared sizes and at a third of them (seeds 1 and 2).
fn solved(src: &str, factor: FactorChoice) -> Solution {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let opts = SearchOptions {
        factor,
        ..SearchOptions::default()
    };
    let s = solve(&p, opts).unwrap_or_else(|e| panic!("{e}"));
    for small in [p.clone(), scaled(&p, 3, 3)] {
        for seed in [1, 2] {
            let rel = check(&small, &s.lowered.env, &s.lowered.steps, seed)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(rel < 1e-8, "relative difference {rel:e}\n{src}");
        }
    }
    s
}

fn assert_flops(s: &Solution, want: f64) {
    let got = s.lowered.flops;
    assert!(
        (got - want).abs() <= 1e-9 * want,
        "{got} FLOPs, hand count {want}"
    );
}

/// GEQRF(m x n), ORMQR of an m x p right-hand side, TRSM n x n on n x p.
fn qr_flops(m: u64, n: u64, p: u64) -> f64 {
    cost::geqrf(m, n) + cost::ormqr(m, p, n) + cost::trsm(n, p)
}

/// SYRK, POTRF, GEMM (or GEMV) for A^T B, two TRSMs (or TRSVs).
fn normal_equations_flops(m: u64, n: u64, p: u64) -> f64 {
    cost::syrk(n, m) + cost::potrf(n) + cost::gemm(n, p, m) + 2.0 * cost::trsm(n, p)
}

/// A factorisation, two products with its orthogonal factor(s) and a diagonal solve.
fn spectral_flops(factorisation: f64, n: u64, k: u64) -> f64 {
    factorisation + 2.0 * cost::gemm(n, k, n) + cost::elementwise(n, k)
}

#[test]
fn least_squares_by_qr_where_cheaper_and_when_stable() {
    let s = solved(LS_SQUARE, FactorChoice::default());
    assert_eq!(kernels(&s), [Kernel::Geqrf, Kernel::Ormqr, Kernel::Trsm]);
    assert_flops(&s, qr_flops(60, 50, 40));
    assert!(qr_flops(60, 50, 40) < normal_equations_flops(60, 50, 40));

    let s = solved(LS_TALL, FactorChoice::default());
    assert_eq!(
        kernels(&s),
        [
            Kernel::Syrk,
            Kernel::Potrf,
            Kernel::Gemm,
            Kernel::Trsm,
            Kernel::Trsm
        ]
    );
    assert_flops(&s, normal_equations_flops(300, 30, 4));
    let s = solved(LS_TALL, STABLE);
    assert_eq!(kernels(&s), [Kernel::Geqrf, Kernel::Ormqr, Kernel::Trsm]);
    assert_flops(&s, qr_flops(300, 30, 4));
    let prefer_qr = FactorChoice {
        stable: false,
        prefer: Some(Preferred::Qr),
    };
    assert_eq!(
        kernels(&solved(LS_TALL, prefer_qr)),
        [Kernel::Geqrf, Kernel::Ormqr, Kernel::Trsm]
    );
}

#[test]
fn eigen_and_svd_solves_when_asked_lu_by_default() {
    for src in [SYM, GEN] {
        let s = solved(src, FactorChoice::default());
        assert_eq!(
            kernels(&s),
            [Kernel::Getrf, Kernel::Laswp, Kernel::Trsm, Kernel::Trsm]
        );
        assert_flops(&s, cost::getrf(50) + 2.0 * cost::trsm(50, 6));
    }
    let s = solved(SYM, EIGEN);
    assert_eq!(
        kernels(&s),
        [Kernel::Syev, Kernel::Gemm, Kernel::DiagSolve, Kernel::Gemm]
    );
    assert_flops(&s, spectral_flops(cost::syev(50), 50, 6));
    let s = solved(GEN, SVD);
    assert_eq!(
        kernels(&s),
        [Kernel::Gesvd, Kernel::Gemm, Kernel::DiagSolve, Kernel::Gemm]
    );
    assert_flops(&s, spectral_flops(cost::gesvd(50, 50), 50, 6));
}

#[test]
fn no_application_problem_takes_an_orthogonal_factorisation_by_default() {
    let orthogonal = [Kernel::Geqrf, Kernel::Ormqr, Kernel::Syev, Kernel::Gesvd];
    for f in problems() {
        let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        let p = parse(&src).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        let opts = SearchOptions {
            time_limit: Duration::from_secs(60),
            max_states: 300,
            ..SearchOptions::default()
        };
        let s = solve(&p, opts).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        let k = kernels(&s);
        assert!(!k.iter().any(|k| orthogonal.contains(k)), "{f:?}: {k:?}");
    }
}

/// Writes `src` to DIR/NAME.la.
fn problem_file(dir: &Path, name: &str, src: &str) -> String {
    let f = dir.join(format!("{name}.la"));
    std::fs::write(&f, src).expect("write problem");
    f.to_string_lossy().into_owned()
}

fn has_cc() -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    let c = dir.path().join("p.c");
    std::fs::write(&c, "int main(void) { return 0; }\n").is_ok()
        && Command::new("cc")
            .arg(&c)
            .arg("-o")
            .arg(dir.path().join("p"))
            .output()
            .is_ok_and(|o| o.status.success())
}

/// The problems with the flags that ask for their factorisation and its kernel.
const CASES: [(&str, &str, &[&str], &str); 3] = [
    ("ls_tall", LS_TALL, &["--stable"], "GEQRF ORMQR TRSM"),
    (
        "sym",
        SYM,
        &["--prefer", "eigen"],
        "SYEV GEMM DIAGSOLVE GEMM",
    ),
    (
        "gen",
        GEN,
        &["--prefer", "svd"],
        "GESVD GEMM DIAGSOLVE GEMM",
    ),
];

#[test]
fn command_line_flags_choose_the_factorisation() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, src, flags, seq) in CASES {
        let f = problem_file(dir.path(), name, src);
        let (code, out, err) = polyscan(&[&["la", f.as_str()][..], flags].concat());
        assert_eq!(code, 0, "{err}");
        let first = seq.split(' ').next().unwrap_or_default();
        assert!(out.starts_with(first), "{name}: {out}");
        // Without the flag, the default factorisation.
        let (_, out, _) = polyscan(&["la", &f]);
        assert!(!out.contains(first), "{name}: {out}");
    }
    let (code, out, _) = polyscan(&["la", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--stable") && out.contains("--prefer"),
        "{out}"
    );
    let f = problem_file(dir.path(), "x", LS_TALL);
    let (code, _, _) = polyscan(&["la", &f, "--prefer", "cholesky"]);
    assert_eq!(code, 2);
}

#[test]
fn compiled_programs_agree_with_direct_evaluation() {
    if !has_cc() {
        println!("skipped: no C compiler (cc)");
        return;
    }
    let mut backends = vec!["generated", "nests"];
    if openblas_available() {
        backends.push("blas");
    } else {
        println!("blas skipped: libopenblas not found");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, src, flags, seq) in CASES {
        let f = problem_file(dir.path(), name, src);
        for b in &backends {
            // At the declared sizes and at smaller ones.
            for scale in ["1", "0.3"] {
                let args = [
                    &["la", f.as_str(), "--run", "--backend", b, "--scale", scale][..],
                    flags,
                ]
                .concat();
                let (code, out, err) = polyscan(&args);
                assert_eq!(code, 0, "{name} {b} {scale}: {out}\n{err}");
                assert!(
                    out.contains(&format!("kernels: {seq}")),
                    "{name} {b}: {out}"
                );
                let r: f64 = out
                    .lines()
                    .find_map(|l| l.strip_prefix("residual X: "))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(f64::NAN);
                assert!(r < 1e-8, "{name} {b} {scale}: residual {r}\n{out}");
            }
        }
    }
}

#[test]
fn c_apis_agree_with_direct_evaluation() {
    if !has_cc() {
        println!("skipped: no C compiler (cc)");
        return;
    }
    let mut backends = vec!["generated", "nests"];
    if openblas_available() {
        backends.push("blas");
    }
    for (name, src, flags, seq) in CASES {
        for b in &backends {
            let dir = tempfile::tempdir().expect("tempdir");
            let f = problem_file(dir.path(), name, src);
            let c_file = dir.path().join(format!("{name}.c"));
            let c = c_file.to_string_lossy();
            let args = [
                &[
                    "la",
                    f.as_str(),
                    "--emit",
                    "c-api",
                    "--backend",
                    b,
                    "-o",
                    &c,
                ][..],
                flags,
            ]
            .concat();
            let (code, _, err) = polyscan(&args);
            assert_eq!(code, 0, "{name} {b}: {err}");
            let source = std::fs::read_to_string(&c_file).expect("NAME.c");
            let first = seq.split(' ').next().unwrap_or_default();
            assert!(source.contains(&format!("/* {first}")), "{name} {b}");
            let exe = dir.path().join("check");
            let (text, residuals) = run_capi_driver(&c_file, name, &exe, b, &format!("{name} {b}"));
            assert_eq!(residuals.len(), 2, "{name} {b}: {text}");
            assert!(residuals.iter().all(|r| *r < 1e-8), "{name} {b}: {text}");
        }
    }
}
