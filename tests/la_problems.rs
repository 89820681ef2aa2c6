//! The 25 application problems of the Linnea thesis (Appendix A, examples/la/): FLOPs of the
//! chosen sequence against Linnea's best, no explicit inverse where Linnea avoids one, and
//! a numerical check of every sequence against direct evaluation of the formula.

use std::sync::OnceLock;
use std::time::Duration;

use polyscan_la::interp::{check, scaled};
use polyscan_la::kernels::Kernel;
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions, Solution};

/// Where a reference value comes from.
#[derive(Clone, Copy, PartialEq)]
enum Ref {
    /// Measured with Linnea (shared/anchors.md section 5), rounded to 4 significant digits.
    Measured(f64),
    /// Best sequence derived by hand with Linnea's kernels and cost model (leading terms;
    /// additions folded into GEMM/GEMV where the product is computed for the sum; earlier
    /// outputs are opaque operands, as thesis section 3.1 describes; an explicit SPD
    /// inverse is POTRF + TRTRI + TRMM, Linnea having no LAUUM).
    Derived(f64),
}

/// (file, reference, explicit inverses the problem itself asks for).
//
// Derivations (sizes as in each file; leading terms):
// 04: DIAGSCALE, GEMM 2m^2n, POTRF, 3 GEMV, 4 TRSV.
// 05: 2 GETRF, 2 TRSM n^3, SYRK n^3, DIAGSCALE, GEMM 2n^2m, GEMV and TRSV.
// 06: TRSM n^2m, TRSM k^2m, TRSM m^2n, GEMM 2kmn, TRTRI m^3/3.
// 07, 08: POTRF(B), TRTRI, TRMM n^3, POTRF(R), TRSM m^2n, SYRK n^2m, POTRF, GEMM 2mnN,
//   TRSMs with N right-hand sides.
// 09: TRMM n^2m, SYRK m^2n, POTRF, GEMM 2mnN, 2 TRSM m^2N, GEMM 2nmN, TRMM n^2N.
// 10: SYRK, POTRF n^3/3, GEMV, 2 TRSV.
// 12, 13: Lambda (2 GEMM 2n^2q, GEMM, POTRF, TRSM, SYRK n^2q), then four GEMMs 2n^3.
// 14: Lambda, Theta (2 GEMM 2n^3), Mk (GEMM), five GEMMs 2n^3.
// 15: by hand with shared factors: AS, S^T(AS), POTRF, 2 TRSM, SYRK, 5 GEMM 2n^2q,
//   2 GEMM 2q^2n.
// 16: GEMM 2lmn, GEMM 2ln^2, GEMM 2l^2n, GETRF, 2 TRSM l^2n, GEMM 2n^2l.
// 17: GEMM 2lmn, SYRK, POTRF, TRSM, SYRK.
// 18: 2 SYRK, POTRF, GEMV, 2 TRSV.
// 20, 21: GEMM 2n^2m, GEMM 2m^2n, POTRF, GEMVs, TRSVs.
// 22: (measured; was GEMM 2mn^2, GEMM 2m^2n before congruences G M G^T used Cholesky of M)
// 23: POTRF(Cz), TRSM, SYRK, explicit inv(Cx) as in 07, POTRF, GEMVs.
// 24: as 22, 2 TRSM nm^2 for K, GEMM 2n^2m.
const PROBLEMS: &[(&str, Ref, usize)] = &[
    ("a01_least_squares", Ref::Measured(6.697e8), 0),
    ("a02_generalized_least_squares", Ref::Measured(9.009e9), 0),
    ("a03_optimization", Ref::Measured(4.341e9), 0),
    ("a04_optimization", Ref::Derived(4.3513e9), 0),
    ("a05_signal_processing", Ref::Derived(5.0691e10), 0),
    ("a06_triangular_inversion", Ref::Measured(3.283e9), 1),
    ("a07_ensemble_kalman", Ref::Derived(3.7867e10), 1),
    ("a08_ensemble_kalman", Ref::Derived(2.9453e11), 1),
    ("a09_ensemble_kalman", Ref::Derived(3.9733e10), 0),
    ("a10_image_restoration", Ref::Derived(6.6727e10), 0),
    ("a11_image_restoration", Ref::Measured(1.535e10), 0),
    ("a12_randomized_inversion", Ref::Derived(1.0663e12), 0),
    ("a13_randomized_inversion", Ref::Derived(1.0663e12), 0),
    ("a14_randomized_inversion", Ref::Derived(2.0663e12), 0),
    ("a15_randomized_inversion", Ref::Derived(1.7254e11), 0),
    ("a16_stochastic_newton", Ref::Derived(1.0475e10), 0),
    ("a17_stochastic_newton", Ref::Derived(7.7376e9), 0),
    ("a18_tikhonov", Ref::Derived(1.3195e8), 0),
    ("a19_tikhonov", Ref::Measured(1.239e8), 0),
    ("a20_generalized_tikhonov", Ref::Derived(3.8440e9), 0),
    ("a21_generalized_tikhonov", Ref::Derived(3.8451e9), 0),
    ("a22_lmmse", Ref::Measured(1.432e10), 0),
    ("a23_lmmse", Ref::Derived(2.7650e10), 1),
    ("a24_lmmse", Ref::Derived(4.3137e10), 0),
    ("a25_kalman", Ref::Measured(5.34e8), 0),
];

/// Targets below Linnea's own best, derived by hand with its kernels, that polyscan does not
/// reach yet: checked by the ignored test below. A.6 (3.2831e9 FLOPs, Linnea's sequence and
/// count): X21 = -inv(L22) L21 reuses the TRSM result of X20 and pays a SCAL (k*m) that a
/// TRSM with alpha = -1 and a GEMM with alpha -1 would avoid.
const STRICTER: &[(&str, Ref)] = &[("a06_triangular_inversion", Ref::Derived(3.2827e9))];

impl Ref {
    /// The largest FLOP count that is not worse than the reference.
    fn bound(self) -> f64 {
        match self {
            // Four significant digits: anything that rounds to the value ties.
            Ref::Measured(v) => v * (1.0 + 5e-4),
            // Derived values are rounded to five digits.
            Ref::Derived(v) => v * (1.0 + 5e-5),
        }
    }
}

fn source(name: &str) -> String {
    let path = format!("{}/examples/la/{name}.la", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Solutions of all problems, computed once for all tests. The search is bounded by a
/// number of examined forms, not by time, so results do not depend on machine load.
fn solutions() -> &'static Vec<(polyscan_la::ast::Program, Solution)> {
    static CELL: OnceLock<Vec<(polyscan_la::ast::Program, Solution)>> = OnceLock::new();
    CELL.get_or_init(|| {
        PROBLEMS
            .iter()
            .map(|&(name, _, _)| {
                let p = parse(&source(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
                let opts = SearchOptions {
                    time_limit: Duration::from_secs(60),
                    max_states: 300,
                    ..SearchOptions::default()
                };
                let s = solve(&p, opts).unwrap_or_else(|e| panic!("{name}: {e}"));
                (p, s)
            })
            .collect()
    })
}

fn run(name: &str) -> (polyscan_la::ast::Program, Solution) {
    let i = PROBLEMS
        .iter()
        .position(|p| p.0 == name)
        .unwrap_or_else(|| panic!("{name}"));
    solutions()[i].clone()
}

#[test]
fn flops_no_worse_than_linnea() {
    let mut failures = Vec::new();
    for &(name, reference, _) in PROBLEMS {
        let (_, s) = run(name);
        assert!(s.lowered.flops <= s.naive_flops, "{name}: worse than naive");
        if s.lowered.flops > reference.bound() {
            failures.push(format!(
                "{name}: {:.5e} > {:.5e}",
                s.lowered.flops,
                reference.bound()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// Known failing targets (see [`STRICTER`]); run with `--ignored` to see the ratios.
#[test]
#[ignore = "known failing target: A.6 costs 1.0001x the derived best"]
fn stricter_targets_are_reached() {
    for &(name, reference) in STRICTER {
        let (_, s) = run(name);
        assert!(
            s.lowered.flops <= reference.bound(),
            "{name}: {:.5e} > {:.5e}",
            s.lowered.flops,
            reference.bound()
        );
    }
}

#[test]
fn no_explicit_inverse_where_linnea_avoids_one() {
    for &(name, _, allowed) in PROBLEMS {
        let (_, s) = run(name);
        let n = s
            .lowered
            .steps
            .iter()
            .filter(|k| k.kernel.is_explicit_inverse())
            .count();
        assert!(n <= allowed, "{name}: {n} explicit inverses");
    }
}

#[test]
fn sequences_agree_with_the_formula_numerically() {
    for &(name, _, _) in PROBLEMS {
        let (p, s) = run(name);
        let small = scaled(&p, 50, 3);
        for seed in [1, 2] {
            let rel = check(&small, &s.lowered.env, &s.lowered.steps, seed)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(rel < 1e-8, "{name}: relative difference {rel:e}");
        }
    }
}

#[test]
fn first_solution_is_fast() {
    for &(name, _, _) in PROBLEMS {
        let (_, s) = run(name);
        // 50 ms is the target (issue 21) in release builds, where first solutions take 0.1
        // to 2 ms; debug test builds get some slack.
        let limit = if cfg!(debug_assertions) { 0.2 } else { 0.05 };
        assert!(
            s.first_solution_s < limit,
            "{name}: {} s",
            s.first_solution_s
        );
        assert!(s.lowered.steps.iter().any(|k| k.kernel != Kernel::Bind));
    }
}
