//! Block-diagonal operands of `polyscan la` (issue 22): `BlockDiagonal(b)` inverses and
//! solves block by block (BDGETRI, BDGESV) and products with them (BDGEMM). For each: the
//! kernels chosen, their FLOPs against a hand count from the catalogue's formulas, the
//! interpreter against direct evaluation (dense inverses) at the declared sizes and at sizes
//! b does not divide (a smaller last block), and compiled programs and C APIs of every back
//! end against their own direct evaluation.

use std::path::Path;
use std::process::Command;

use polyscan_la::interp::{check, evaluate, execute, inputs, scaled, Mat};
use polyscan_la::kernels::{cost, Kernel};
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions, Solution};
use polyscan_la::symbolic::symbolic_cost;

mod common;
use common::la::{kernels, openblas_available, polyscan, run_capi_driver};

/// `X = inv(T)` for ExaStencils' 15 x 15 block-diagonal matrix with blocks of 3.
const INV: &str = "n = 15\nMatrix T(n, n) <BlockDiagonal(3)>\nMatrix X(n, n) <>\nX = inv(T)\n";
/// Solves from the left and right (transposed), a product, an SPD block-diagonal sum.
const SOLVES: &str = "n = 60\nm = 7\nMatrix T(n, n) <BlockDiagonal(4)>\nMatrix S(n, n) <BlockDiagonal(4), SPD>\nMatrix B(n, m) <>\nMatrix C(m, n) <>\nMatrix X(n, m) <>\nMatrix Y(m, n) <>\nMatrix Z(n, m) <>\nMatrix W(n, m) <>\nX = inv(T) * B\nY = C * inv(trans(T))\nZ = T * B\nW = inv(S + T) * B\n";
/// Solves with one block-diagonal matrix on four right-hand sides, two from the left and
/// two from the right.
const REUSE: &str = "n = 30\nMatrix T(n, n) <BlockDiagonal(5)>\nMatrix B(n, 4) <>\nMatrix E(n, 2) <>\nMatrix C(3, n) <>\nRowVector F(n) <>\nMatrix X(n, 4) <>\nMatrix Y(n, 2) <>\nMatrix Z(3, n) <>\nRowVector W(n) <>\nX = inv(T) * B\nY = inv(T) * E\nZ = C * inv(T)\nW = F * inv(T)\n";
/// Two inverses of block-diagonal matrices with blocks of 3 and of 6, applied from the
/// right and alone: the search merges them into the inverse of their product (blocks of 6).
const PAIR: &str = "n = 24\nm = 5\nMatrix T(n, n) <BlockDiagonal(3)>\nMatrix U(n, n) <BlockDiagonal(6)>\nMatrix B(m, n) <>\nMatrix X(m, n) <>\nMatrix Y(n, n) <>\nX = B * inv(T) * inv(U)\nY = inv(T) * inv(U)\n";

/// The solution of `src`, its sequence checked against direct evaluation by the
/// interpreter at the declared sizes and at smaller ones (seeds 1 and 2).
fn solved(src: &str) -> Solution {
    solved_at(src, true)
}

/// [`solved`], at the declared sizes only unless `scale` (block matrices tie sizes by
/// sums, `n = m + d`, and keep sizes of 1, which scaling does not).
fn solved_at(src: &str, scale: bool) -> Solution {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let s = solve(&p, SearchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let sizes = if scale {
        vec![p.clone(), scaled(&p, 2, 3), scaled(&p, 3, 3)]
    } else {
        vec![p.clone()]
    };
    for small in sizes {
        for seed in [1, 2] {
            let rel = check(&small, &s.lowered.env, &s.lowered.steps, seed)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(rel < 1e-10, "relative difference {rel:e}\n{src}");
        }
    }
    s
}

/// The FLOPs of the sequence equal `want`, and so does its cost restated as a polynomial
/// in the sizes (`symbolic`, used for open sizes) at the declared sizes.
fn assert_flops(s: &Solution, src: &str, want: f64) {
    let got = s.lowered.flops;
    assert!(
        (got - want).abs() <= 1e-9 * want,
        "FLOPs {got} against {want}"
    );
    let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = p.sizes.iter().map(|(n, _)| n.clone()).collect();
    let sym = symbolic_cost(&p, &s.lowered, &names).unwrap_or_else(|e| panic!("{e}"));
    let at = sym.eval(&p.sizes);
    assert!(
        (at - want).abs() <= 1e-9 * want,
        "symbolic {at} against {want}"
    );
}

#[test]
fn inverses_solves_and_products_block_by_block() {
    let s = solved(INV);
    assert_eq!(kernels(&s), [Kernel::BdGetri]);
    // Five 3 x 3 blocks, 2 b^3 each, against 2 n^3 for the dense LU and inverse.
    assert_flops(&s, INV, 5.0 * 2.0 * 27.0);
    assert!(s.naive_flops > 20.0 * s.lowered.flops);

    let s = solved(SOLVES);
    // `C * inv(trans(T))` is `(inv(T) * C^T)^T`: a solve with T from the left, whose
    // blocks' factors the first solve kept.
    assert_eq!(
        kernels(&s),
        [
            Kernel::BdGesv,
            Kernel::BdGetrs,
            Kernel::BdGemm,
            Kernel::Axpy,
            Kernel::BdGesv
        ]
    );
    let (n, b, m) = (60, 4, 7);
    let sum = cost::elementwise(n, n);
    assert_flops(
        &s,
        SOLVES,
        2.0 * cost::bd_gesv(n, b, m) + cost::bd_getrs(n, b, m) + cost::bd_gemm(n, b, m) + sum,
    );

    // Two solves from each side: T's blocks are factored once per orientation (T for the
    // left solves, T^T for the right ones), each second solve only a BDGETRS.
    let s = solved(REUSE);
    assert_eq!(
        kernels(&s),
        [
            Kernel::BdGesv,
            Kernel::BdGetrs,
            Kernel::BdGesv,
            Kernel::BdGetrs
        ]
    );
    let (n, b) = (30, 5);
    let shared = cost::bd_gesv(n, b, 4)
        + cost::bd_getrs(n, b, 2)
        + cost::bd_gesv(n, b, 3)
        + cost::bd_getrs(n, b, 1);
    assert_flops(&s, REUSE, shared);
    // Below four factorisations.
    assert!(
        shared
            < cost::bd_gesv(n, b, 4)
                + cost::bd_gesv(n, b, 2)
                + cost::bd_gesv(n, b, 3)
                + cost::bd_gesv(n, b, 1)
    );

    let s = solved(PAIR);
    assert_eq!(
        kernels(&s),
        [Kernel::BdGemm, Kernel::BdGesv, Kernel::BdGetri]
    );
    // U T multiplied with T's smaller blocks.
    let merged = cost::bd_gemm(24, 3, 24) + cost::bd_gesv(24, 6, 5) + cost::bd_getri(24, 6);
    assert_flops(&s, PAIR, merged);
    // Below two solves for X and, for Y, T^-1 formed and U solved with from the right.
    let apart = cost::bd_gesv(24, 3, 5)
        + cost::bd_gesv(24, 6, 5)
        + cost::bd_getri(24, 3)
        + cost::bd_gesv(24, 6, 24);
    assert!(merged < apart);
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

fn backends() -> Vec<&'static str> {
    let mut v = vec!["generated", "nests"];
    if openblas_available() {
        v.push("blas");
    } else {
        println!("blas skipped: libopenblas not found");
    }
    v
}

/// Every `residual NAME: VALUE` of a program's output.
fn residuals(out: &str) -> Vec<f64> {
    out.lines()
        .filter(|l| l.starts_with("residual "))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .collect()
}

/// Name, problem, outputs, whether it may be scaled (block matrices tie sizes by sums,
/// `n = m + d`, which `--scale` does not keep).
const CASES: [(&str, &str, usize, bool); 9] = [
    ("inv", INV, 1, true),
    ("solves", SOLVES, 4, true),
    ("reuse", REUSE, 4, true),
    ("schur_solve", SCHUR_SOLVE, 1, false),
    ("pair", PAIR, 2, true),
    ("schur", SCHUR, 2, false),
    ("blocks", BLOCKS, 3, false),
    ("grid3", GRID3, 2, false),
    ("grid_last", GRID_LAST, 1, false),
];

#[test]
fn compiled_programs_agree_with_direct_evaluation() {
    if !has_cc() {
        println!("skipped: no C compiler (cc)");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, src, outputs, scalable) in CASES {
        let f = problem_file(dir.path(), name, src);
        for b in backends() {
            // The declared sizes, and smaller ones the blocks do not divide.
            let scales: &[&str] = if scalable { &["1", "0.45"] } else { &["1"] };
            for &scale in scales {
                let (code, out, err) =
                    polyscan(&["la", &f, "--run", "--backend", b, "--scale", scale]);
                assert_eq!(code, 0, "{name} {b} {scale}: {out}\n{err}");
                assert!(
                    out.contains("kernels: BD") || !scalable,
                    "{name} {b}: {out}"
                );
                let r = residuals(&out);
                assert_eq!(r.len(), outputs, "{name} {b}: {out}");
                assert!(r.iter().all(|r| *r < 1e-10), "{name} {b} {scale}: {out}");
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
    for (name, src, outputs, _) in CASES {
        for b in backends() {
            let dir = tempfile::tempdir().expect("tempdir");
            let f = problem_file(dir.path(), name, src);
            let c_file = dir.path().join(format!("{name}.c"));
            let c = c_file.to_string_lossy();
            let (code, _, err) = polyscan(&["la", &f, "--emit", "c-api", "--backend", b, "-o", &c]);
            assert_eq!(code, 0, "{name} {b}: {err}");
            let source = std::fs::read_to_string(&c_file).expect("NAME.c");
            assert!(
                source.contains("/* BD") || matches!(name, "blocks" | "grid_last"),
                "{name} {b}"
            );
            let exe = dir.path().join("check");
            let (text, r) = run_capi_driver(&c_file, name, &exe, b, &format!("{name} {b}"));
            // Two calls (packed and padded leading dimensions) per output.
            assert_eq!(r.len(), 2 * outputs, "{name} {b}: {text}");
            assert!(r.iter().all(|r| *r < 1e-10), "{name} {b}: {text}");
        }
    }
}

/// Block matrices: Schur-complement inverses and solves, blockwise products, transposes and
/// sums, against direct evaluation (which assembles the blocks and inverts the whole).
const SCHUR: &str = "m = 15\nd = 1\nn = 16\nMatrix A(m, m) <BlockDiagonal(3), FullRank>\nMatrix B(m, d) <>\nMatrix C(d, m) <>\nMatrix D(d, d) <>\nColumnVector f(m) <>\nColumnVector g(d) <>\nMatrix X(n, n) <>\nColumnVector x(n) <>\nX = inv([A, B; C, D])\nx = inv([A, B; C, D]) * [f; g]\n";
/// The seed's Schur solve alone (16 x 16, A with blocks of 3, D 1 x 1).
const SCHUR_SOLVE: &str = "m = 15\nd = 1\nn = 16\nMatrix A(m, m) <BlockDiagonal(3), FullRank>\nMatrix B(m, d) <>\nMatrix C(d, m) <>\nMatrix D(d, d) <>\nColumnVector f(m) <>\nColumnVector g(d) <>\nColumnVector x(n) <>\nx = inv([A, B; C, D]) * [f; g]\n";
/// A Schur solve with a 3 x 3 D and four right-hand sides.
const SCHUR_SOLVE_3: &str = "m = 15\nd = 3\nn = 18\nMatrix A(m, m) <BlockDiagonal(3), FullRank>\nMatrix B(m, d) <>\nMatrix C(d, m) <>\nMatrix D(d, d) <>\nMatrix F(m, 4) <>\nMatrix G(d, 4) <>\nMatrix x(n, 4) <>\nx = inv([A, B; C, D]) * [F; G]\n";
/// The Schur complement of D (diagonal) where A is general; of A where neither is cheap;
/// a transposed block product minus a block vector.
const BLOCKS: &str = "p = 6\nq = 4\nr = 5\nMatrix A(p, p) <FullRank>\nMatrix B(p, q) <>\nMatrix C(q, p) <>\nMatrix D(q, q) <Diagonal>\nMatrix E(p, r) <>\nMatrix F(q, r) <>\nMatrix G(p, p) <SPD>\nMatrix H(q, q) <SPD>\nMatrix X(10, 10) <>\nMatrix Y(10, 5) <>\nMatrix Z(10, 10) <>\nX = inv([A, B; C, D])\nY = trans([A, B; C, D]) * [E; F] - [E; F]\nZ = inv([G, B; trans(B), H])\n";

#[test]
fn block_matrices_by_block_rules() {
    let s = solved_at(SCHUR, false);
    let k = kernels(&s);
    // A's blocks are factored once (its inverse, formed for X, is then multiplied by
    // block by block); nothing of size 16 is factored.
    let factored = k
        .iter()
        .filter(|k| matches!(k, Kernel::BdGetri | Kernel::BdGesv))
        .count();
    assert_eq!(factored, 1, "{k:?}");
    assert!(k.contains(&Kernel::BdGemm), "{k:?}");
    assert!(
        !k.contains(&Kernel::Getrf) && !k.contains(&Kernel::Potrf),
        "{k:?}"
    );
    assert!(s.lowered.flops < s.naive_flops / 5.0);
    // The solve applies A^-1 to f and to B: A's blocks are factored by the first and the
    // second reuses the factors.
    let s = solved_at(SCHUR_SOLVE, false);
    let k = kernels(&s);
    let bd: Vec<Kernel> = k
        .iter()
        .copied()
        .filter(|k| k.is_block_diagonal())
        .collect();
    assert_eq!(bd, [Kernel::BdGesv, Kernel::BdGetrs], "{k:?}");
    let bd_flops: f64 = s
        .lowered
        .steps
        .iter()
        .filter(|st| st.kernel.is_block_diagonal())
        .map(|st| st.flops)
        .sum();
    assert_eq!(bd_flops, cost::bd_gesv(15, 3, 1) + cost::bd_getrs(15, 3, 1));
    // With a 3 x 3 D the complement S is factored by GETRF and applied once: the second
    // block row, `S^-1 (G - C A^-1 F)`, is the negated inner result of the first
    // (`A^-1 B S^-1 (C A^-1 F - G)`), shared because factored sums have one sign.
    let s = solved_at(SCHUR_SOLVE_3, false);
    let k = kernels(&s);
    let count = |x: Kernel| k.iter().filter(|&&y| y == x).count();
    assert_eq!(
        (
            count(Kernel::Getrf),
            count(Kernel::Laswp),
            count(Kernel::Trsm)
        ),
        (1, 1, 2),
        "{k:?}"
    );
    let s = solved_at(BLOCKS, false);
    // D^-1 is a diagonal solve; A (general) and G (SPD) are factored, not the 10 x 10.
    let k = kernels(&s);
    assert!(
        k.contains(&Kernel::DiagSolve) && k.contains(&Kernel::Potrf),
        "{k:?}"
    );
    let dense = cost::getrf(10) + cost::getri(10);
    assert!(s.lowered.flops < s.naive_flops && s.naive_flops > 2.0 * dense);
}

/// A 3 x 3 grid whose first diagonal block is block-diagonal (its inverse and a solve),
/// partitioned as `[[A], [B, C]; [D; G], [E, F; H, K]]`.
const GRID3: &str = "p = 6\nq = 3\nr = 2\nn = 11\nMatrix A(p, p) <BlockDiagonal(3), FullRank>\nMatrix B(p, q) <>\nMatrix C(p, r) <>\nMatrix D(q, p) <>\nMatrix E(q, q) <>\nMatrix F(q, r) <>\nMatrix G(r, p) <>\nMatrix H(r, q) <>\nMatrix K(r, r) <>\nColumnVector f(p) <>\nColumnVector g(q) <>\nColumnVector h(r) <>\nMatrix X(n, n) <>\nColumnVector x(n) <>\nX = inv([A, B, C; D, E, F; G, H, K])\nx = inv([A, B, C; D, E, F; G, H, K]) * [f; g; h]\n";
/// A 3 x 3 grid whose last diagonal block alone is cheap (diagonal): partitioned as
/// `[[A, B; D, E], [C; F]; [G, H], [K]]`, the Schur complement of K.
const GRID_LAST: &str = "p = 4\nq = 3\nr = 2\nn = 9\nMatrix A(p, p) <FullRank>\nMatrix B(p, q) <>\nMatrix C(p, r) <>\nMatrix D(q, p) <>\nMatrix E(q, q) <>\nMatrix F(q, r) <>\nMatrix G(r, p) <>\nMatrix H(r, q) <>\nMatrix K(r, r) <Diagonal, FullRank>\nMatrix X(n, n) <>\nX = inv([A, B, C; D, E, F; G, H, K])\n";
/// A 4 x 4 grid of 2 x 2 blocks with a triangular first block (searched without a time
/// limit: its many long statements make each state slow, and the limit is looked at only
/// between states).
const GRID4: &str = "r = 2\nm = 8\nMatrix L(r, r) <LowerTriangular, FullRank>\nMatrix M(r, r) <>\nMatrix N(r, r) <>\nMatrix P(r, r) <>\nMatrix Y(m, m) <>\nY = inv([L, M, N, P; N, P, M, L; M, L, P, N; P, N, L, M])\n";

/// No dense factorisation or explicit inverse in `s` is of a matrix larger than `most`
/// rows (the block-diagonal kernels factor only their blocks).
fn factors_at_most(s: &Solution, most: u64) {
    for st in &s.lowered.steps {
        if matches!(
            st.kernel,
            Kernel::Getrf | Kernel::Potrf | Kernel::Getri | Kernel::Trtri
        ) {
            let (r, _) = s.lowered.env.shape(st.out);
            assert!(r <= most, "{} of {r} rows", st.kernel.name());
        }
    }
}

#[test]
fn larger_grids_by_recursive_schur_complements() {
    // 3 x 3: the first block (blocks of 3) is solved with block by block, the 5 x 5
    // complement of the rest is inverted by the 2 x 2 rule; nothing of size 11 is factored.
    let s = solved_at(GRID3, false);
    let k = kernels(&s);
    assert!(
        k.iter()
            .any(|k| matches!(k, Kernel::BdGetri | Kernel::BdGesv)),
        "{k:?}"
    );
    factors_at_most(&s, 3);
    assert!(
        s.lowered.flops < s.naive_flops,
        "{} {}",
        s.lowered.flops,
        s.naive_flops
    );
    // 3 x 3 pivoting on the diagonal last block: K^-1 is a diagonal solve, the 7 x 7
    // complement a 2 x 2 grid inverted by the complement of its first block (4 x 4).
    let s = solved_at(GRID_LAST, false);
    factors_at_most(&s, 4);
    let k = kernels(&s);
    assert!(k.contains(&Kernel::DiagSolve), "{k:?}");
    // 4 x 4: L's inverse is triangular; the complements are 6 x 6 (a 3 x 3 grid), then
    // 4 x 4 (2 x 2) and 2 x 2; none of 8 x 8 is factored.
    let p = parse(GRID4).unwrap_or_else(|e| panic!("{e}"));
    let opts = SearchOptions {
        time_limit: std::time::Duration::ZERO,
        ..SearchOptions::default()
    };
    let s = solve(&p, opts).unwrap_or_else(|e| panic!("{e}"));
    for seed in [1, 2] {
        let rel =
            check(&p, &s.lowered.env, &s.lowered.steps, seed).unwrap_or_else(|e| panic!("{e}"));
        assert!(rel < 1e-10, "relative difference {rel:e}");
    }
    factors_at_most(&s, 2);
    // A 6 x 6 grid of general blocks: every complement is general, and the expansion
    // passes the node limit; refused with the statement's position.
    let g = 6;
    let mut src = String::from("r = 2\n");
    for i in 0..g {
        for j in 0..g {
            src += &format!("Matrix A{i}{j}(r, r) <>\n");
        }
    }
    let rows: Vec<String> = (0..g)
        .map(|i| {
            (0..g)
                .map(|j| format!("A{i}{j}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    src += &format!("Matrix X(12, 12) <>\nX = inv([{}])\n", rows.join("; "));
    // (The parser expands block formulas to check them, so it is the one that refuses.)
    let err = parse(&src)
        .and_then(|p| solve(&p, SearchOptions::default()).map(|_| ()))
        .err();
    let text = err.as_ref().map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("20000 nodes"), "{text}");
    // The assignment is the line after the sizes, the 36 blocks and X.
    assert_eq!(err.and_then(|e| e.position()), Some((g * g + 3, 5)));
}

#[test]
fn block_matrix_errors_have_positions() {
    let decls = "p = 6\nq = 4\nMatrix A(p, p) <>\nMatrix B(p, q) <>\nMatrix C(q, p) <>\nMatrix D(q, q) <>\nMatrix X(10, 10) <>\n";
    let cases = [
        ("X = [A, B; C]", 13, "block row 2 has 1 blocks"),
        ("X = [A, B; B, D]", 12, "4 columns"),
        ("X = [A; C, D]", 12, "more blocks than the first"),
        (
            "X = [[A, B], B; C, D]",
            6,
            "cannot itself be a block matrix",
        ),
        ("X = [A, B; C D]", 14, "expected `,`, `;` or `]`"),
        (
            "X = [A, B; C, D] * [D, C; B, A]",
            5,
            "blocks of columns [6, 4]",
        ),
        ("X = [A, B; C, D] + [D, C; B, A]", 5, "split differently"),
        // Nested inverses of block matrices grow geometrically: refused, not expanded.
        (
            "X = inv(inv(inv(inv(inv(inv([A, B; C, D]))))))",
            5,
            "more than 20000 nodes",
        ),
    ];
    for (stmt, col, msg) in cases {
        match parse(&format!("{decls}{stmt}\n")) {
            Err(polyscan_la::LaError::Input {
                line,
                column,
                message,
            }) => {
                assert_eq!((line, column), (8, col), "{stmt}: {message}");
                assert!(message.contains(msg), "{stmt}: {message}");
            }
            other => panic!("{stmt}: expected an input error, got {other:?}"),
        }
    }
}

/// Rows `r0..r0 + r` and columns `c0..c0 + c` of `m`.
fn block(m: &Mat, r0: usize, c0: usize, r: usize, c: usize) -> Mat {
    let mut data = Vec::with_capacity(r * c);
    for i in r0..r0 + r {
        for j in c0..c0 + c {
            data.push(m.at(i, j));
        }
    }
    Mat {
        rows: r,
        cols: c,
        data,
    }
}

/// The Kalman filter of examples/blocks, unblocked and with the state split in halves, on
/// the same numbers: the blocked program's inputs are the blocks of the unblocked one's.
#[test]
fn blocked_kalman_filter_gives_the_unblocked_outputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/blocks");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("example");
    let (plain, blocked) = (read("kalman.la"), read("kalman_blocked.la"));
    let zero = SearchOptions {
        time_limit: std::time::Duration::ZERO,
        ..SearchOptions::default()
    };
    for (divisor, opts) in [(10, zero), (5, zero), (10, SearchOptions::default())] {
        let pp = scaled(&parse(&plain).unwrap_or_else(|e| panic!("{e}")), divisor, 3);
        let pb = scaled(
            &parse(&blocked).unwrap_or_else(|e| panic!("{e}")),
            divisor,
            3,
        );
        let sp = solve(&pp, opts).unwrap_or_else(|e| panic!("{e}"));
        let sb = solve(&pb, opts).unwrap_or_else(|e| panic!("{e}"));
        let idx = |p: &polyscan_la::ast::Program, name: &str| {
            p.operands
                .iter()
                .position(|o| o.name == name)
                .unwrap_or_else(|| panic!("operand {name}"))
        };
        let ins = inputs(&pp, 7);
        let get = |name: &str| ins[idx(&pp, name)].clone().expect("an input");
        let h = pb.operands[idx(&pb, "S11")].rows as usize;
        let k = pb.operands[idx(&pb, "R")].rows as usize;
        let (mu, sigma, hm) = (get("mu"), get("Sigma"), get("H"));
        let mut bins: Vec<Option<Mat>> = vec![None; pb.operands.len()];
        for (name, m) in [
            ("mu1", block(&mu, 0, 0, h, 1)),
            ("mu2", block(&mu, h, 0, h, 1)),
            ("S11", block(&sigma, 0, 0, h, h)),
            ("S12", block(&sigma, 0, h, h, h)),
            ("S22", block(&sigma, h, h, h, h)),
            ("H1", block(&hm, 0, 0, k, h)),
            ("H2", block(&hm, 0, h, k, h)),
            ("R", get("R")),
            ("data", get("data")),
        ] {
            bins[idx(&pb, name)] = Some(m);
        }
        let vp =
            execute(&sp.lowered.env, &sp.lowered.steps, &ins).unwrap_or_else(|e| panic!("{e}"));
        let vb =
            execute(&sb.lowered.env, &sb.lowered.steps, &bins).unwrap_or_else(|e| panic!("{e}"));
        let direct = evaluate(&pp, &ins).unwrap_or_else(|e| panic!("{e}"));
        for out in ["newmu", "newSigma"] {
            let a = vp[idx(&pp, out)].as_ref().expect("computed");
            let b = vb[idx(&pb, out)].as_ref().expect("computed");
            let d = direct[idx(&pp, out)].as_ref().expect("evaluated");
            let rel = |x: &Mat, y: &Mat| x.add(y, -1.0).expect("same shape").norm() / y.norm();
            assert!(
                rel(b, a) < 1e-10,
                "{out}: blocked against unblocked {:e}",
                rel(b, a)
            );
            assert!(
                rel(a, d) < 1e-10,
                "{out}: unblocked against direct {:e}",
                rel(a, d)
            );
        }
    }
}

/// Both Kalman filters of examples/blocks as programs (`--run --scale 0.25`) with every back
/// end: each output against the program's own direct evaluation.
#[test]
fn kalman_programs_agree_with_direct_evaluation() {
    if !has_cc() {
        println!("skipped: no C compiler (cc)");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/blocks");
    for f in ["kalman.la", "kalman_blocked.la"] {
        let path = dir.join(f);
        let path = path.to_string_lossy();
        for b in backends() {
            let (code, out, err) = polyscan(&[
                "la",
                &path,
                "--time-limit",
                "0",
                "--run",
                "--scale",
                "0.25",
                "--backend",
                b,
            ]);
            assert_eq!(code, 0, "{f} {b}: {out}\n{err}");
            let r = residuals(&out);
            assert_eq!(r.len(), 2, "{f} {b}: {out}");
            assert!(r.iter().all(|r| *r < 1e-10), "{f} {b}: {out}");
        }
    }
}
