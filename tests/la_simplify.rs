//! Cancellation and simplification (issue 21, "How it is checked"): `inv(A)*A*B` costs
//! nothing beyond B's copy, `trans(Q)*Q*B` with orthogonal Q uses no SYRK (nor anything
//! else); each chosen sequence is also checked against direct evaluation of the formula,
//! which forms the inverses and products as written, so an unsound cancellation fails.

mod common;
use common::la::{kernels, solved};
use polyscan_la::kernels::Kernel;

const SIZES: &str = "n = 100\nk = 40\nMatrix B(n, k) <>\nMatrix X(n, k) <>\n";

#[test]
fn inverse_times_its_matrix_costs_nothing() {
    for (decl, rhs) in [
        ("Matrix A(n, n) <FullRank>", "inv(A) * A * B"),
        ("Matrix A(n, n) <FullRank>", "A * inv(A) * B"),
        ("Matrix A(n, n) <FullRank>", "trans(inv(A)) * trans(A) * B"),
        ("Matrix A(n, n) <SPD>", "inv(A) * A * B"),
        (
            "Matrix A(n, n) <LowerTriangular, FullRank>",
            "inv(A) * A * B",
        ),
    ] {
        let s = solved(&format!("{SIZES}{decl}\nX = {rhs}\n"));
        assert_eq!(s.lowered.flops, 0.0, "{rhs} with {decl}");
        assert!(kernels(&s).is_empty(), "{rhs}: {:?}", kernels(&s));
        // Before the rewrite: GETRF, GEMM, LASWP and two TRSM, 2.27e6 FLOPs.
        assert!(s.naive_flops > 1e6);
    }
}

#[test]
fn orthogonal_gram_products_are_identities() {
    for (decl, rhs) in [
        ("Matrix Q(n, n) <Orthogonal>", "trans(Q) * Q * B"),
        ("Matrix Q(n, n) <Orthogonal>", "Q * trans(Q) * B"),
        ("Matrix Q(n, n) <Permutation>", "trans(Q) * Q * B"),
        ("Matrix Q(n, n) <Orthogonal>", "trans(inv(Q)) * inv(Q) * B"),
    ] {
        let s = solved(&format!("{SIZES}{decl}\nX = {rhs}\n"));
        assert_eq!(s.lowered.flops, 0.0, "{rhs} with {decl}");
        assert!(kernels(&s).is_empty(), "{rhs}: {:?}", kernels(&s));
    }
    // Orthonormal columns: Q^T Q = I (k x k); before the rewrite SYRK and SYMM, 2.88e5.
    let src = "n = 100\nk = 40\nMatrix Q(n, k) <OrthogonalColumns>\nMatrix C(k, k) <>\nMatrix X(k, k) <>\nX = trans(Q) * Q * C\n";
    let s = solved(src);
    assert!(!kernels(&s).contains(&Kernel::Syrk), "{:?}", kernels(&s));
    assert_eq!(s.lowered.flops, 0.0);
    // Orthonormal rows: R R^T = I.
    let src = "n = 100\nk = 40\nMatrix R(k, n) <OrthogonalRows>\nMatrix C(k, k) <>\nMatrix X(k, k) <>\nX = R * trans(R) * C\n";
    assert_eq!(solved(src).lowered.flops, 0.0);
}

/// The other products are no identities: W W^T for W with orthonormal columns is a
/// projection, and inv(A) A^T is not I. They must be computed, and correctly.
#[test]
fn products_that_are_not_identities_are_kept() {
    let src = "n = 100\nk = 40\nMatrix W(n, k) <OrthogonalColumns>\nMatrix B(n, k) <>\nMatrix X(n, k) <>\nX = W * trans(W) * B\n";
    let s = solved(src);
    assert!(s.lowered.flops > 0.0);
    let src = format!("{SIZES}Matrix A(n, n) <FullRank>\nX = inv(A) * trans(A) * B\n");
    let s = solved(&src);
    assert!(kernels(&s).contains(&Kernel::Getrf), "{:?}", kernels(&s));
}

/// Cancellation inside longer products and after inlining an earlier output.
#[test]
fn cancellation_in_context() {
    let src = format!(
        "{SIZES}Matrix A(n, n) <FullRank>\nMatrix C(n, n) <>\nMatrix Y(n, k) <>\nY = C * inv(A) * A * B\nX = inv(A * C) * A * C * B + Y\n"
    );
    let s = solved(&src);
    // C B (GEMM 2n^2k) and the sum; no factorisation.
    assert!(!kernels(&s).contains(&Kernel::Getrf), "{:?}", kernels(&s));
    assert!(s.lowered.flops <= 2.0 * 100.0 * 100.0 * 40.0 + 100.0 * 40.0);
}

/// Identity factors vanish; zero matrices fold products to zero and drop out of sums; zero
/// coefficients drop their term.
#[test]
fn identities_and_zeros() {
    let src = format!(
        "{SIZES}IdentityMatrix I(n, n)\nZeroMatrix Z(n, n)\nMatrix A(n, n) <>\nX = I * A * I * B + Z * A * B + 0 * A * B\n"
    );
    let s = solved(&src);
    assert_eq!(kernels(&s), [Kernel::Gemm]);
    assert_eq!(s.lowered.flops, 2.0 * 100.0 * 100.0 * 40.0);
}
