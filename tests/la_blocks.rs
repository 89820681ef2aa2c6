//! Block-diagonal operands of `polyscan la` (issue 22): `BlockDiagonal(b)` inverses and
//! solves block by block (BDGETRI, BDGESV) and products with them (BDGEMM). For each: the
//! kernels chosen, their FLOPs against a hand count from the catalogue's formulas, the
//! interpreter against direct evaluation (dense inverses) at the declared sizes and at sizes
//! b does not divide (a smaller last block), and compiled programs and C APIs of every back
//! end against their own direct evaluation.

use std::path::Path;
use std::process::Command;

use polyscan_la::interp::{check, scaled};
use polyscan_la::kernels::{cost, Kernel};
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions, Solution};
use polyscan_la::symbolic::symbolic_cost;

mod common;
use common::la::{capi_driver_cc, kernels, openblas_available, polyscan};

/// `X = inv(T)` for ExaStencils' 15 x 15 block-diagonal matrix with blocks of 3.
const INV: &str = "n = 15\nMatrix T(n, n) <BlockDiagonal(3)>\nMatrix X(n, n) <>\nX = inv(T)\n";
/// Solves from the left and right (transposed), a product, an SPD block-diagonal sum.
const SOLVES: &str = "n = 60\nm = 7\nMatrix T(n, n) <BlockDiagonal(4)>\nMatrix S(n, n) <BlockDiagonal(4), SPD>\nMatrix B(n, m) <>\nMatrix C(m, n) <>\nMatrix X(n, m) <>\nMatrix Y(m, n) <>\nMatrix Z(n, m) <>\nMatrix W(n, m) <>\nX = inv(T) * B\nY = C * inv(trans(T))\nZ = T * B\nW = inv(S + T) * B\n";
/// Two inverses of block-diagonal matrices with blocks of 3 and of 6, applied from the
/// right and alone: the search merges them into the inverse of their product (blocks of 6).
const PAIR: &str = "n = 24\nm = 5\nMatrix T(n, n) <BlockDiagonal(3)>\nMatrix U(n, n) <BlockDiagonal(6)>\nMatrix B(m, n) <>\nMatrix X(m, n) <>\nMatrix Y(n, n) <>\nX = B * inv(T) * inv(U)\nY = inv(T) * inv(U)\n";

/// The solution of `src`, its sequence checked against direct evaluation by the
/// interpreter at the declared sizes and at smaller ones (seeds 1 and 2).
fn solved(src: &str) -> Solution {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let s = solve(&p, SearchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for small in [p.clone(), scaled(&p, 2, 3), scaled(&p, 3, 3)] {
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
    assert_eq!(
        kernels(&s),
        [
            Kernel::BdGesv,
            Kernel::BdGesv,
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
        3.0 * cost::bd_gesv(n, b, m) + cost::bd_gemm(n, b, m) + sum,
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

const CASES: [(&str, &str, usize); 3] = [("inv", INV, 1), ("solves", SOLVES, 4), ("pair", PAIR, 2)];

#[test]
fn compiled_programs_agree_with_direct_evaluation() {
    if !has_cc() {
        println!("skipped: no C compiler (cc)");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, src, outputs) in CASES {
        let f = problem_file(dir.path(), name, src);
        for b in backends() {
            // The declared sizes, and smaller ones the blocks do not divide.
            for scale in ["1", "0.45"] {
                let (code, out, err) =
                    polyscan(&["la", &f, "--run", "--backend", b, "--scale", scale]);
                assert_eq!(code, 0, "{name} {b} {scale}: {out}\n{err}");
                assert!(out.contains("kernels: BD"), "{name} {b}: {out}");
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
    for (name, src, outputs) in CASES {
        for b in backends() {
            let dir = tempfile::tempdir().expect("tempdir");
            let f = problem_file(dir.path(), name, src);
            let c_file = dir.path().join(format!("{name}.c"));
            let c = c_file.to_string_lossy();
            let (code, _, err) = polyscan(&["la", &f, "--emit", "c-api", "--backend", b, "-o", &c]);
            assert_eq!(code, 0, "{name} {b}: {err}");
            let source = std::fs::read_to_string(&c_file).expect("NAME.c");
            assert!(source.contains("/* BD"), "{name} {b}");
            let exe = dir.path().join("check");
            let out = capi_driver_cc(&["-O2", "-std=gnu11"], &c_file, name, &exe, b)
                .output()
                .expect("run cc");
            assert!(
                out.status.success(),
                "{name} {b}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let out = Command::new(&exe)
                .env("OPENBLAS_NUM_THREADS", "1")
                .output()
                .expect("run the driver");
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let r: Vec<f64> = text
                .lines()
                .filter(|l| l.contains("residual "))
                .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
                .collect();
            assert!(out.status.success(), "{name} {b}: {text}");
            // Two calls (packed and padded leading dimensions) per output.
            assert_eq!(r.len(), 2 * outputs, "{name} {b}: {text}");
            assert!(r.iter().all(|r| *r < 1e-10), "{name} {b}: {text}");
        }
    }
}
