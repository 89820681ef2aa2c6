//! The SYR2K "trick" (issue 21): `trans(A)*B + trans(B)*A` is one SYR2K, checked against
//! direct evaluation of the formula by the reference interpreter, and as a C program with
//! every back end (the program checks its residual against a naive evaluation).

mod common;
use common::la::{openblas_available, solved};
use polyscan_la::kernels::Kernel;
use polyscan_la::search::Solution;

use std::process::Command;

fn count(s: &Solution, k: Kernel) -> usize {
    s.lowered.steps.iter().filter(|st| st.kernel == k).count()
}

const AB: &str = "n = 100\nk = 40\nMatrix A(k, n) <>\nMatrix B(k, n) <>\nMatrix X(n, n) <>\n";

#[test]
fn transposed_pair_is_one_syr2k() {
    // Before: GEMM (2kn^2) and the addition of its transpose (n^2), 8.4e5 FLOPs.
    let s = solved(&format!("{AB}X = trans(A) * B + trans(B) * A\n"));
    assert_eq!(count(&s, Kernel::Syr2k), 1);
    assert_eq!(count(&s, Kernel::Gemm) + count(&s, Kernel::Axpy), 0);
    assert_eq!(s.lowered.flops, 2.0 * 40.0 * 100.0 * 100.0);
    let s = solved("n = 100\nk = 40\nMatrix A(n, k) <>\nMatrix B(n, k) <>\nMatrix X(n, n) <>\nX = A * trans(B) + B * trans(A)\n");
    assert_eq!(count(&s, Kernel::Syr2k), 1);
    assert_eq!(s.lowered.flops, 2.0 * 40.0 * 100.0 * 100.0);
}

#[test]
fn scaled_pairs_in_longer_sums() {
    // Coefficients and scalars become SYR2K's alpha; the rest of the sum is added to it.
    let s = solved(&format!(
        "{AB}Scalar a <Positive>\nMatrix C(n, n) <Symmetric>\nX = C - 2 * a * trans(A) * B - 2 * a * trans(B) * A\n"
    ));
    assert_eq!(count(&s, Kernel::Syr2k), 1);
    // A longer chain, split where SYR2K is cheapest: (A^T M) B + B^T (M^T A).
    let s = solved(&format!(
        "{AB}Matrix M(k, k) <>\nX = trans(A) * M * B + trans(B) * trans(M) * A\n"
    ));
    assert_eq!(count(&s, Kernel::Syr2k), 1);
}

#[test]
fn no_syr2k_where_it_does_not_apply() {
    // Not transposes of each other: two products.
    let s = solved(&format!("{AB}X = trans(A) * B + trans(A) * B\n"));
    assert_eq!(count(&s, Kernel::Syr2k), 0);
    // Different coefficients: t - t^T is skew, no SYR2K.
    let s = solved(&format!("{AB}X = trans(A) * B - trans(B) * A\n"));
    assert_eq!(count(&s, Kernel::Syr2k), 0);
    // t computed by an earlier statement: only the addition remains.
    let s = solved(&format!(
        "{AB}Matrix Y(n, n) <>\nY = trans(A) * B\nX = trans(A) * B + trans(B) * A\n"
    ));
    assert_eq!(count(&s, Kernel::Syr2k), 0);
    assert_eq!(count(&s, Kernel::Gemm), 1);
}

/// Runs `src` as a C program (`--run`) with every back end available and returns each
/// back end's output; the program exits 1 (and this fails) if an output disagrees with the
/// naive evaluation.
fn run_with_every_backend(src: &str, extra: &[&str]) -> Vec<(&'static str, String)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("problem.la");
    std::fs::write(&file, src).expect("write problem");
    let path = file.to_string_lossy().into_owned();
    let mut backends = vec!["generated", "nests"];
    if openblas_available() {
        backends.push("blas");
    }
    backends
        .into_iter()
        .map(|backend| {
            let mut args = vec!["la", path.as_str(), "--run", "--backend", backend];
            args.extend_from_slice(extra);
            let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
                .args(&args)
                .output()
                .expect("run polyscan");
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{backend}:\n{text}\n{err}");
            assert!(text.contains("result: ok"), "{backend}:\n{text}");
            (backend, text)
        })
        .collect()
}

/// The emitted program runs SYR2K with every back end, with alpha 1 and with a scalar
/// alpha, and its outputs agree with the naive evaluation.
#[test]
fn syr2k_programs_agree_with_naive_evaluation() {
    let src = "n = 37\nk = 13\nMatrix A(k, n) <>\nMatrix B(k, n) <>\nMatrix C(n, n) <Symmetric>\nMatrix D(k, k) <Symmetric>\nScalar a <Positive>\nMatrix X(n, n) <>\nMatrix Y(n, n) <>\nX = trans(A) * B + trans(B) * A\nY = C - a * trans(A) * D * B - a * trans(B) * D * A\n";
    for (backend, text) in run_with_every_backend(src, &["--time-limit", "0.5"]) {
        let syr2k = text
            .lines()
            .filter(|l| l.starts_with("kernel SYR2K"))
            .count();
        assert!(syr2k >= 2, "{backend}: {syr2k} SYR2K\n{text}");
    }
}

#[test]
fn congruence_with_definite_middle_uses_cholesky() {
    let (m, n) = (300.0_f64, 400.0_f64);
    for props in ["SPD", "SPSD"] {
        let s = solved(&format!(
            "m = 300\nn = 400\nMatrix A(m, n) <FullRank>\nMatrix S(n, n) <{props}>\nMatrix X(m, m) <>\nX = A * S * trans(A)\n"
        ));
        assert_eq!(
            common::la::kernels(&s),
            vec![Kernel::Potrf, Kernel::Trmm, Kernel::Syrk],
            "{props}"
        );
        // POTRF n^3/3, TRMM m n^2, SYRK m^2 n (against 2mn^2 + 2m^2n multiplied out).
        assert_eq!(s.lowered.flops, n * n * n / 3.0 + m * n * n + m * m * n);
        // The other side: trans(A) * S * A with A n x m.
        let s = solved(&format!(
            "m = 300\nn = 400\nMatrix A(n, m) <FullRank>\nMatrix S(n, n) <{props}>\nMatrix X(m, m) <>\nX = trans(A) * S * A\n"
        ));
        assert_eq!(count(&s, Kernel::Potrf), 1, "{props}");
        assert_eq!(count(&s, Kernel::Syrk), 1, "{props}");
    }
}

#[test]
fn no_congruence_where_it_does_not_pay_or_apply() {
    // A wide G with few rows: SYMM + GEMM (2e7 FLOPs) beat POTRF (3.3e8).
    let s = solved("m = 10\nn = 1000\nMatrix A(m, n) <>\nMatrix S(n, n) <SPD>\nMatrix X(m, m) <>\nX = A * S * trans(A)\n");
    assert_eq!(count(&s, Kernel::Potrf), 0);
    // Symmetric but not definite: no Cholesky factor exists.
    let s = solved("m = 300\nn = 400\nMatrix A(m, n) <>\nMatrix S(n, n) <Symmetric>\nMatrix X(m, m) <>\nX = A * S * trans(A)\n");
    assert_eq!(count(&s, Kernel::Potrf), 0);
    // Not mirrored: A S B^T.
    let s = solved("m = 300\nn = 400\nMatrix A(m, n) <>\nMatrix B(m, n) <>\nMatrix S(n, n) <SPD>\nMatrix X(m, m) <>\nX = A * S * trans(B)\n");
    assert_eq!(count(&s, Kernel::Potrf), 0);
    // The factor is reused: a solve with S elsewhere pays for it already.
    let s = solved("m = 30\nn = 400\nMatrix A(m, n) <>\nMatrix S(n, n) <SPD>\nMatrix B(n, n) <>\nMatrix X(m, m) <>\nMatrix Y(n, n) <>\nY = inv(S) * B\nX = A * S * trans(A)\n");
    assert_eq!(count(&s, Kernel::Potrf), 1);
    assert_eq!(count(&s, Kernel::Syrk), 1);
}

/// The congruence runs as a C program with every back end and agrees with the naive
/// evaluation.
#[test]
fn congruence_programs_agree_with_naive_evaluation() {
    let src = "m = 31\nn = 45\nMatrix A(m, n) <FullRank>\nMatrix S(n, n) <SPSD>\nMatrix C(m, m) <SPD>\nMatrix X(m, m) <>\nX = A * S * trans(A) + C\n";
    for (backend, text) in run_with_every_backend(src, &[]) {
        assert!(
            text.lines().any(|l| l.starts_with("kernel POTRF")),
            "{backend}:\n{text}"
        );
    }
}
