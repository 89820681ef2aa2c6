//! The 25 application problems of the Linnea thesis (Appendix A, examples/la/): FLOPs of the
//! chosen sequence against Linnea's best, no explicit inverse where Linnea avoids one, and
//! a numerical check of every sequence against direct evaluation of the formula.

use std::time::Duration;

use polyscan::la::interp::{check, scaled};
use polyscan::la::kernels::Kernel;
use polyscan::la::parse::parse;
use polyscan::la::search::{solve, SearchOptions, Solution};

/// (file, Linnea's best FLOPs or the best derived by hand with the thesis's cost model,
/// where it is known; explicit inverses the problem itself asks for).
///
/// Measured (shared/anchors.md section 5): 01, 02, 03, 11, 19, 25 (four significant
/// digits). Derived by hand (kernel by kernel, leading terms): 04 (DIAGSCALE, GEMM,
/// POTRF, 3 GEMV, 4 TRSV), 06 (TRSM L10/L00 2e3^2*200, TRSM L22\L21 and L11\L10, GEMM
/// 2*2000*200*2000, TRTRI 200^3/3), 09 (TRMM HX, SYRK, POTRF, GEMM H*Xb, 2 TRSM, GEMM,
/// TRMM), 10 (SYRK, POTRF 5000^3/3, GEMV, 2 TRSV), 17 (GEMM W^T A, SYRK, POTRF, TRSM,
/// SYRK), 18 (2 SYRK, POTRF, GEMV, 2 TRSV), 20/21 (GEMM P*A, GEMM A^T*(PA), POTRF, GEMVs,
/// TRSVs), 22 (GEMM A*Cx, GEMM, POTRF, GEMVs, TRSVs), 24 (as 22 plus 2 TRSM for K and
/// GEMM K*(A Ct)). Additions count 2mn. None: not derived yet.
const PROBLEMS: &[(&str, Option<f64>, usize)] = &[
    ("a01_least_squares", Some(6.697e8), 0),
    ("a02_generalized_least_squares", Some(9.009e9), 0),
    ("a03_optimization", Some(4.341e9), 0),
    ("a04_optimization", Some(4.3513e9), 0),
    ("a05_signal_processing", None, 0),
    ("a06_triangular_inversion", Some(3.2911e9), 1),
    ("a07_ensemble_kalman", None, 1),
    ("a08_ensemble_kalman", None, 1),
    ("a09_ensemble_kalman", Some(3.9736e10), 0),
    ("a10_image_restoration", Some(6.6727e10), 0),
    ("a11_image_restoration", Some(1.535e10), 0),
    ("a12_randomized_inversion", None, 0),
    ("a13_randomized_inversion", None, 0),
    ("a14_randomized_inversion", None, 0),
    ("a15_randomized_inversion", None, 0),
    ("a16_stochastic_newton", None, 0),
    ("a17_stochastic_newton", Some(7.7414e9), 0),
    ("a18_tikhonov", Some(1.3203e8), 0),
    ("a19_tikhonov", Some(1.239e8), 0),
    ("a20_generalized_tikhonov", Some(3.8441e9), 0),
    ("a21_generalized_tikhonov", Some(3.8442e9), 0),
    ("a22_lmmse", Some(2.2146e10), 0),
    ("a23_lmmse", None, 1),
    ("a24_lmmse", Some(4.3150e10), 0),
    ("a25_kalman", Some(5.34e8), 0),
];

/// Reference values are rounded to four or five significant digits.
const ROUNDING: f64 = 5e-4;

fn source(name: &str) -> String {
    let path = format!("{}/examples/la/{name}.la", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run(name: &str) -> (polyscan::la::ast::Program, Solution) {
    let p = parse(&source(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let opts = SearchOptions { time_limit: Duration::from_millis(300) };
    let s = solve(&p, opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    (p, s)
}

#[test]
fn flops_no_worse_than_linnea() {
    let mut failures = Vec::new();
    for &(name, best, _) in PROBLEMS {
        let (_, s) = run(name);
        if let Some(b) = best {
            if s.lowered.flops > b * (1.0 + ROUNDING) {
                failures.push(format!("{name}: {:.4e} > {b:.4e}", s.lowered.flops));
            }
        }
        assert!(s.lowered.flops <= s.naive_flops, "{name}: worse than naive");
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn no_explicit_inverse_where_linnea_avoids_one() {
    for &(name, _, allowed) in PROBLEMS {
        let (_, s) = run(name);
        let n = s.lowered.steps.iter().filter(|k| k.kernel.is_explicit_inverse()).count();
        assert!(n <= allowed, "{name}: {n} explicit inverses");
    }
}

#[test]
fn sequences_agree_with_the_formula_numerically() {
    for &(name, _, _) in PROBLEMS {
        let (p, s) = run(name);
        let small = scaled(&p, 50, 3);
        for seed in [1, 2] {
            let rel = check(&small, &s.lowered.env, &s.lowered.steps, seed).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(rel < 1e-8, "{name}: relative difference {rel:e}");
        }
    }
}

#[test]
fn first_solution_is_fast() {
    for &(name, _, _) in PROBLEMS {
        let (_, s) = run(name);
        // 50 ms is the target in release builds; debug test builds get some slack.
        assert!(s.first_solution_s < 0.2, "{name}: {} s", s.first_solution_s);
        assert!(s.lowered.steps.iter().any(|k| k.kernel != Kernel::Bind));
    }
}
