//! Pushing an inverse up (issue 21; thesis chapter 7): `inv(A)*inv(B)*C` computed as
//! `inv(B*A)*C` where that is cheaper, `inv(A*B)` split where that is cheaper, no split of
//! a product with non-square factors. FLOPs are checked against hand counts, and every
//! chosen sequence against direct evaluation of the formula (inverses formed as written),
//! so an unsound merge (e.g. a Cholesky of a product of SPD matrices) fails.

mod common;
use common::la::{kernels, solved};
use polyscan_la::kernels::Kernel;
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions};

const N: f64 = 100.0;
const M: f64 = 1000.0;

/// Lower triangles: inv(L1)*inv(L2)*C with C n x m, m > n. Split: two TRSM, 2 n^2 m.
/// Merged: TRMM for L2*L1 (a lower triangle, n^3), one TRSM n^2 m. The first solution
/// (no rewrite) is neither: the matrix-chain algorithm knows that inv(L1)*inv(L2) is a lower
/// triangle, so it inverts L1 (TRTRI n^3/3), solves with L2 from the right (TRSM n^3) and
/// multiplies C by the triangle (TRMM n^2 m).
#[test]
fn merging_triangular_inverses_when_the_right_side_is_wide() {
    let src = "n = 100\nm = 1000\nMatrix L1(n, n) <LowerTriangular, FullRank>\nMatrix L2(n, n) <LowerTriangular, FullRank>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = inv(L1) * inv(L2) * C\n";
    let s = solved(src);
    let merged = N * N * N + N * N * M;
    assert_eq!(s.lowered.flops, merged, "{:?}", kernels(&s));
    assert_eq!(s.first_flops, N * N * N / 3.0 + N * N * N + N * N * M);
    assert_eq!(kernels(&s), [Kernel::Trmm, Kernel::Trsm]);
}

/// General matrices: split is two GETRF and four TRSM (4/3 n^3 + 4 n^2 m); merged is GEMM
/// for B*A (2 n^3), one GETRF (2/3 n^3) and two TRSM (2 n^2 m); the row swaps cost nothing.
#[test]
fn merging_general_inverses_when_the_right_side_is_wide() {
    let src = "n = 100\nm = 1000\nMatrix A(n, n) <FullRank>\nMatrix B(n, n) <FullRank>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = inv(A) * inv(B) * C\n";
    let s = solved(src);
    let merged = 2.0 * N * N * N + 2.0 * N * N * N / 3.0 + 2.0 * N * N * M;
    assert!(
        (s.lowered.flops - merged).abs() < 1e-6 * merged,
        "{} against {merged}: {:?}",
        s.lowered.flops,
        kernels(&s)
    );
    assert!(s.lowered.flops < s.first_flops);
    let getrf = kernels(&s).iter().filter(|k| **k == Kernel::Getrf).count();
    assert_eq!(getrf, 1, "{:?}", kernels(&s));
}

/// SPD factors: S2*S1 is not SPD (not even symmetric), so a merged form must be factorised
/// by LU, never by Cholesky; the numerical check in `solved` catches a Cholesky of it.
#[test]
fn a_product_of_spd_matrices_is_not_factorised_as_spd() {
    let src = "n = 100\nm = 1000\nMatrix S1(n, n) <SPD>\nMatrix S2(n, n) <SPD>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = inv(S1) * inv(S2) * C\n";
    let s = solved(src);
    // Split: two POTRF (2/3 n^3) and four TRSM (4 n^2 m) = 4.0667e8; merged with LU:
    // GEMM 2 n^3, GETRF 2/3 n^3, two TRSM 2 n^2 m = 2.0267e8.
    let merged = 2.0 * N * N * N + 2.0 * N * N * N / 3.0 + 2.0 * N * N * M;
    assert!(
        (s.lowered.flops - merged).abs() < 1e-6 * merged,
        "{} against {merged}: {:?}",
        s.lowered.flops,
        kernels(&s)
    );
    assert!(!kernels(&s).contains(&Kernel::Potrf), "{:?}", kernels(&s));
}

/// inv(L1*L2)*C with lower triangles and a narrow C (m < n): two TRSM (2 n^2 m) instead of
/// the product (TRMM n^3) and one TRSM (n^2 m). Normalisation splits already; the search's
/// merge must not win here.
#[test]
fn splitting_a_triangular_product_when_the_right_side_is_narrow() {
    let (n, m) = (100.0, 10.0);
    let src = "n = 100\nm = 10\nMatrix L1(n, n) <LowerTriangular, FullRank>\nMatrix L2(n, n) <LowerTriangular, FullRank>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = inv(L1 * L2) * C\n";
    let s = solved(src);
    assert_eq!(s.lowered.flops, 2.0 * n * n * m);
    assert_eq!(kernels(&s), [Kernel::Trsm, Kernel::Trsm]);
    // General factors and a vector: 2 GETRF and 4 TRSV (4/3 n^3 + 4 n^2) beat GEMM, GETRF
    // and 2 TRSV (8/3 n^3 + 2 n^2).
    let src = "n = 100\nMatrix A(n, n) <FullRank>\nMatrix B(n, n) <FullRank>\nColumnVector c(n) <>\nColumnVector x(n) <>\nx = inv(A * B) * c\n";
    let s = solved(src);
    let split = 4.0 * n * n * n / 3.0 + 4.0 * n * n;
    assert!(
        (s.lowered.flops - split).abs() < 1e-6 * split,
        "{}",
        s.lowered.flops
    );
    assert!(!kernels(&s).contains(&Kernel::Gemm), "{:?}", kernels(&s));
}

/// inv(W^T W C) with W n x k: W^T W must stay one inverted factor (W has no inverse); the
/// only sound cut is between W^T W and C. Every sequence found is checked numerically.
#[test]
fn products_of_non_square_factors_are_not_split() {
    let src = "n = 100\nk = 20\nMatrix W(n, k) <FullRank>\nMatrix C(k, k) <FullRank>\nMatrix B(k, n) <>\nMatrix X(k, n) <>\nX = inv(trans(W) * W * C) * B\n";
    let s = solved(src);
    // SYRK W^T W (k^2 n), then either its Cholesky and C's LU with four TRSM, or GEMM
    // (W^T W) C, GETRF and two TRSM; nothing solves with W itself.
    let ks = kernels(&s);
    assert!(ks.contains(&Kernel::Syrk), "{ks:?}");
    assert!(s.lowered.flops <= s.first_flops);
    // Merging next to it: inv(W^T W) * inv(C) * B as inv(C W^T W) * B is sound as well.
    let src = "n = 100\nk = 20\nMatrix W(n, k) <FullRank>\nMatrix C(k, k) <FullRank>\nMatrix B(k, n) <>\nMatrix X(k, n) <>\nX = inv(trans(W) * W) * inv(C) * B\n";
    let s = solved(src);
    assert!(s.lowered.flops <= s.first_flops);
}

/// FLOPs of the 25 application problems before these rewrites (same search options as
/// tests/la_problems.rs); none may get dearer. None got cheaper when they were added.
const BEFORE: &[(&str, f64)] = &[
    ("a01_least_squares", 6.6966666667e+08),
    ("a02_generalized_least_squares", 9.0092500000e+09),
    ("a03_optimization", 4.3413353333e+09),
    ("a04_optimization", 4.3513353333e+09),
    ("a05_signal_processing", 5.0678664667e+10),
    ("a06_triangular_inversion", 3.2830666667e+09),
    ("a07_ensemble_kalman", 3.2533733333e+10),
    ("a08_ensemble_kalman", 2.1120000000e+11),
    ("a09_ensemble_kalman", 3.9733333333e+10),
    ("a10_image_restoration", 6.6726676667e+10),
    ("a11_image_restoration", 1.5353333333e+10),
    ("a12_randomized_inversion", 1.1879166667e+11),
    ("a13_randomized_inversion", 1.4379166667e+11),
    ("a14_randomized_inversion", 4.2379417167e+11),
    ("a15_randomized_inversion", 1.3004166667e+11),
    ("a16_stochastic_newton", 1.0475261045e+10),
    ("a17_stochastic_newton", 7.7376318343e+09),
    ("a18_tikhonov", 1.3194666667e+08),
    ("a19_tikhonov", 1.2394686667e+08),
    ("a20_generalized_tikhonov", 3.8440266667e+09),
    ("a21_generalized_tikhonov", 3.8441070667e+09),
    ("a22_lmmse", 2.2141500000e+10),
    ("a23_lmmse", 2.2313918667e+10),
    ("a24_lmmse", 3.7137000000e+10),
    ("a25_kalman", 4.6997333333e+08),
];

#[test]
fn application_problems_get_no_dearer() {
    let files = common::la::problems();
    assert_eq!(files.len(), BEFORE.len());
    let mut worse = Vec::new();
    for (path, &(name, before)) in files.iter().zip(BEFORE) {
        assert_eq!(path.file_stem().and_then(|s| s.to_str()), Some(name));
        let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = parse(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let opts = SearchOptions {
            time_limit: std::time::Duration::from_secs(60),
            max_states: 300,
            ..SearchOptions::default()
        };
        let s = solve(&p, opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        if s.lowered.flops > before * (1.0 + 1e-9) {
            worse.push(format!("{name}: {:.6e} > {before:.6e}", s.lowered.flops));
        }
    }
    assert!(worse.is_empty(), "{worse:?}");
}
