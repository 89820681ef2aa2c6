//! Element-wise statements in `polyscan la` (issue 22): the SPORES examples optimised at the
//! seed's sizes, their C programs run at reduced sizes with a sparse X and checked against
//! direct evaluation (residual below 1e-8), and errors with their positions.

use std::process::Command;

use polyscan_la::elementwise;
use polyscan_la::parse::parse;
use polyscan_la::sumproduct::Limits;

fn polyscan(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(args)
        .output()
        .expect("run polyscan");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example(name: &str) -> String {
    let path = format!("{}/examples/spores/{name}.la", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// FLOPs (as written, chosen) of a problem's element-wise statements.
fn flops(src: &str) -> (f64, f64) {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let sols = elementwise::solve(&p, Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    sols.iter().fold((0.0, 0.0), |(b, a), s| {
        (b + s.optimised.before, a + s.optimised.after)
    })
}

#[test]
fn spores_examples_at_the_seeds_sizes() {
    // The loss: about nnz(X) (5e7) a few times plus U and V, not the 5e11 of U V^T.
    let (before, after) = flops(&example("loss"));
    assert!(before > 5e11, "{before:e}");
    assert!(after < 5.0 * 5e7 + 5e6, "{after:e}");
    // ALS: the sparse X V (2 nnz k) and U (V^T V), not the dense U V^T (2 m n k).
    let (before, after) = flops(&example("als"));
    assert!(before > 1e11 && after < 2e8, "{before:e} {after:e}");
    // PNMF: column and row sums, not W H.
    let (before, after) = flops(&example("pnmf"));
    assert!(before > 1e11 && after < 2e6, "{before:e} {after:e}");
    // MLR: one product with X instead of two.
    let (before, after) = flops(&example("mlr"));
    assert!(after < 0.3 * before, "{before:e} {after:e}");
}

/// Reduced-size problems whose programs must run and agree with direct evaluation.
const PROGRAMS: &[&str] = &[
    "m = 300\nn = 200\nMatrix X(m, n) <Sparse(0.02)>\nColumnVector U(m) <>\nColumnVector V(n) <>\nScalar loss <>\nloss = sum((X - U * trans(V)) .^ 2)\n",
    "m = 300\nn = 200\nk = 5\nMatrix X(m, n) <Sparse(600)>\nMatrix U(m, k) <>\nMatrix V(n, k) <>\nMatrix G(m, k) <>\nG = (U * trans(V) - X) * V\n",
    "m = 300\nn = 200\nk = 5\nMatrix W(m, k) <>\nMatrix H(k, n) <>\nScalar s <>\ns = sum(W * H)\n",
    "m = 300\nn = 20\nColumnVector P(m) <>\nMatrix X(m, n) <>\nMatrix Y(m, n) <>\nY = P .* X - P .* rowSums(P) .* X\n",
    "n = 40\nk = 30\nMatrix A(n, k) <>\nMatrix B(k, n) <>\nScalar t <>\nColumnVector d(n) <>\nt = trace(A * B)\nd = diag(A * B) + 2 * rowSums(abs(A))\n",
    "m = 50\nn = 40\nMatrix X(m, n) <Sparse(0.1)>\nMatrix Y(m, n) <>\nMatrix Z(m, n) <>\nRowVector c(n) <>\nZ = X ./ (Y .^ 2 + 1) .* exp(X) - colSums(Y) .* 0.5 + 2\nc = colSums(sqrt(abs(X)) .* Z)\n",
];

#[test]
fn programs_agree_with_direct_evaluation() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (k, src) in PROGRAMS.iter().enumerate() {
        let file = dir.path().join(format!("p{k}.la"));
        std::fs::write(&file, src).expect("write problem");
        let path = file.to_string_lossy().into_owned();
        let (code, out, err) = polyscan(&["la", &path, "--run", "--repeat", "2"]);
        assert_eq!(code, Some(0), "{src}\n{out}\n{err}");
        assert!(out.contains("result: ok"), "{src}\n{out}");
        let residuals = out.lines().filter(|l| l.starts_with("residual ")).count();
        assert!(residuals >= 1, "{out}");
        // The check is live: nothing passes a tolerance below rounding.
        let (code, out, _) = polyscan(&["la", &path, "--run", "--tolerance", "1e-300"]);
        let exact = out
            .lines()
            .filter(|l| l.starts_with("residual "))
            .all(|l| l.ends_with("0.000e+00"));
        assert!(exact || code == Some(1), "{src}\n{out}");
    }
}

fn error_at(src: &str, line: usize, column: usize, text: &str) {
    match parse(src) {
        Err(polyscan_la::error::LaError::Input {
            line: l,
            column: c,
            message,
        }) => {
            assert_eq!((l, c), (line, column), "{message}");
            assert!(message.contains(text), "{message}");
        }
        other => panic!("expected an error at {line}:{column}, got {other:?}"),
    }
}

#[test]
fn errors_have_positions() {
    let decl = "m = 3\nn = 4\nMatrix X(m, n) <>\nMatrix Y(n, m) <>\nMatrix Z(m, n) <>\n";
    error_at(&format!("{decl}Z = X .* Y\n"), 6, 7, "do not fit");
    error_at(&format!("{decl}Z = X .^ 0\n"), 6, 10, "exponent");
    error_at(&format!("{decl}Z = inv(X) .* X\n"), 6, 5, "inv");
    error_at(&format!("{decl}Z = X .* trace(X)\n"), 6, 10, "square");
    error_at(
        &format!("{decl}Z = X .* foo(X)\n"),
        6,
        10,
        "unknown function",
    );
    error_at("m = 3\nMatrix X(m, m) <Sparse(0)>\n", 2, 24, "Sparse");
    error_at("m = 3\nMatrix X(m, m) <Sparse(2.5)>\n", 2, 24, "Sparse");
    error_at("m = 3\nMatrix X(m, m) <Sparse>\n", 2, 17, "Sparse");
}

#[test]
fn unsupported_combinations_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("mixed.la");
    // An element-wise result computed from a matrix statement's, read by another matrix
    // statement: the two would interleave (refused at the reading statement).
    std::fs::write(
        &file,
        "n = 4\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nMatrix C(n, n) <>\nMatrix D(n, n) <>\nB = A * A\nC = B .* A\nD = C * A\n",
    )
    .expect("write");
    let path = file.to_string_lossy().into_owned();
    let (code, _, err) = polyscan(&["la", &path]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("interleaving") && err.contains(":8"), "{err}");
    // Back ends and sizes apply to programs only (`la_sumproduct_kernels` runs them).
    std::fs::write(
        &file,
        "n = 4\nMatrix A(n, n) <>\nMatrix C(n, n) <>\nC = A .* A\n",
    )
    .expect("write");
    let (code, _, err) = polyscan(&["la", &path, "--backend", "blas"]);
    assert_eq!(code, Some(2), "{err}");
}
