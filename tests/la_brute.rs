//! polyscan's search against a brute force (issue 21): random problems made as the Linnea
//! thesis (chapter 10) describes its synthetic test problems (`common::linnea_random`),
//! priced by polyscan's search and by an oracle that enumerates every parenthesisation,
//! inverse split and kernel (`common::brute`). polyscan must never need more FLOPs than the
//! oracle's minimum, and every chosen sequence must agree with direct evaluation.

mod common;

use common::brute::{brute_force, brute_force_with, Skip};
use common::linnea_random::problem;
use polyscan_la::interp::{check, scaled, Rng};
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions};

/// Most algorithms the oracle enumerates for one problem.
const LIMIT: f64 = 5e6;

/// How many random problems, and the seed: 120 and 2110, or `LA_BRUTE=N,SEED` for a
/// longer exploratory run.
fn batch() -> (u64, u64) {
    std::env::var("LA_BRUTE")
        .ok()
        .and_then(|v| {
            let (n, seed) = v.split_once(',')?;
            Some((n.trim().parse().ok()?, seed.trim().parse().ok()?))
        })
        .unwrap_or((120, 2110))
}

/// The oracle's minimum for a problem given as text.
fn oracle(src: &str) -> f64 {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    brute_force(&p, LIMIT)
        .unwrap_or_else(|e| panic!("{e:?}\n{src}"))
        .flops
}

fn polyscan(src: &str) -> f64 {
    let p = parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    solve(&p, SearchOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{src}"))
        .lowered
        .flops
}

/// The oracle on hand-counted cases: it must find these minima, no more and no less.
#[test]
fn oracle_matches_hand_counts() {
    // 10x100 * 100x5 * 5x50: (AB)C costs 2*(10*100*5 + 10*5*50) = 15000.
    let src = "a = 10\nb = 100\nc = 5\nd = 50\nMatrix A(a, b) <>\nMatrix B(b, c) <>\nMatrix C(c, d) <>\nMatrix X(a, d) <>\nX = A * B * C\n";
    assert_eq!(oracle(src), 15000.0);
    // X^T X: one SYRK, k n^2.
    let src = "n = 300\nk = 40\nMatrix A(n, k) <FullRank>\nMatrix X(k, k) <>\nX = trans(A) * A\n";
    assert_eq!(oracle(src), 40.0 * 40.0 * 300.0);
    // inv(S) B, S SPD: POTRF n^3/3 and two TRSM n^2 m.
    let src = "n = 300\nm = 40\nMatrix S(n, n) <SPD>\nMatrix B(n, m) <>\nMatrix X(n, m) <>\nX = inv(S) * B\n";
    assert_eq!(
        oracle(src),
        300f64.powi(3) / 3.0 + 2.0 * 300.0 * 300.0 * 40.0
    );
    // B^T inv(S) B: POTRF, one TRSM for L^-1 B, SYRK of it.
    let src = "n = 300\nm = 40\nMatrix S(n, n) <SPD>\nMatrix B(n, m) <FullRank>\nMatrix X(m, m) <>\nX = trans(B) * inv(S) * B\n";
    assert_eq!(
        oracle(src),
        300f64.powi(3) / 3.0 + 300.0 * 300.0 * 40.0 + 40.0 * 40.0 * 300.0
    );
    // inv(L1) inv(L2) C, lower triangles, C wide: merged into inv(L2 L1), the triangle
    // L2 L1 by TRMM (n^3) and one TRSM (n^2 m) instead of two TRSMs.
    let src = "n = 100\nm = 1000\nMatrix L1(n, n) <LowerTriangular, FullRank>\nMatrix L2(n, n) <LowerTriangular, FullRank>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = inv(L1) * inv(L2) * C\n";
    assert_eq!(oracle(src), 1e6 + 1e7);
    // The thesis's example (section 10.4): M1 (M2^T M3 M4)^-1 M5 is cheapest with the
    // inverse split: Z = M2^T M3 (GEMM), LU of Z and of M4, four TRSMs on M1's side, GEMM.
    let src = "a = 650\nb = 1250\nc = 1700\nd = 1550\nMatrix M1(a, b) <>\nMatrix M2(c, b) <FullRank>\nMatrix M3(c, b) <FullRank>\nMatrix M4(b, b) <FullRank>\nMatrix M5(b, d) <>\nMatrix X(a, d) <>\nX = M1 * inv(trans(M2) * M3 * M4) * M5\n";
    let (a, b, c, d) = (650.0, 1250.0, 1700.0, 1550.0);
    let split = 2.0 * b * b * c + 2.0 * (2.0 * b * b * b / 3.0) + 4.0 * b * b * a + 2.0 * a * d * b;
    let whole = 2.0 * b * b * c
        + 2.0 * b * b * b
        + 2.0 * b * b * b / 3.0
        + 2.0 * b * b * a
        + 2.0 * a * d * b;
    assert!(whole > split);
    assert_eq!(oracle(src), split);
    // The thesis's second example: M1 M2^T + M3 M3^T + M4^T + M5^T. GEMM and SYRK each
    // absorb an addition; one addition of full matrices remains.
    let src = "n = 1100\nk = 1800\nl = 1150\nMatrix M1(n, k) <>\nMatrix M2(n, k) <>\nMatrix M3(n, l) <>\nMatrix M4(n, n) <UpperTriangular>\nMatrix M5(n, n) <UpperTriangular>\nMatrix X(n, n) <>\nX = M1 * trans(M2) + M3 * trans(M3) + trans(M4) + trans(M5)\n";
    let n = 1100.0;
    assert_eq!(oracle(src), 2.0 * n * n * 1800.0 + n * n * 1150.0 + n * n);
}

/// The oracle's answers on these hand-counted cases are also polyscan's.
#[test]
fn polyscan_matches_hand_counted_cases() {
    let src = "a = 650\nb = 1250\nc = 1700\nd = 1550\nMatrix M1(a, b) <>\nMatrix M2(c, b) <FullRank>\nMatrix M3(c, b) <FullRank>\nMatrix M4(b, b) <FullRank>\nMatrix M5(b, d) <>\nMatrix X(a, d) <>\nX = M1 * inv(trans(M2) * M3 * M4) * M5\n";
    assert!(polyscan(src) <= oracle(src) * (1.0 + 1e-9));
}

#[test]
fn random_problems_never_above_brute_force() {
    let (problems, seed) = batch();
    // `LA_BRUTE_SPD=1`: the oracle may also use SPD operands as L L^T anywhere (see
    // `brute_force_with`); polyscan is known to be above it then (docs/la-programs.md).
    let spd_factors = std::env::var("LA_BRUTE_SPD").is_ok_and(|v| v == "1");
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    let (mut above, mut skipped, mut equal, mut below) = (Vec::new(), Vec::new(), 0, 0);
    let mut worst: f64 = 1.0;
    for case in 0..problems {
        let src = problem(&mut rng);
        let p = parse(&src).unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        let s = solve(&p, SearchOptions::default())
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        let small = scaled(&p, 50, 3);
        let rel = check(&small, &s.lowered.env, &s.lowered.steps, case)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        assert!(
            rel < 1e-8,
            "case {case}: relative difference {rel:e}\n{src}"
        );
        let rhs = src.lines().last().unwrap_or_default().to_string();
        match brute_force_with(&p, LIMIT, spd_factors) {
            Ok(b) => {
                let ratio = s.lowered.flops / b.flops;
                worst = worst.max(ratio);
                if s.lowered.flops > b.flops * (1.0 + 1e-9) {
                    above.push((case, ratio, src.clone()));
                } else if s.lowered.flops < b.flops * (1.0 - 1e-9) {
                    below += 1;
                } else {
                    equal += 1;
                }
                rows.push(format!(
                    "{case:>4} {:>12.4e} {:>12.4e} {ratio:>7.4} {:>9} {rhs}",
                    s.lowered.flops, b.flops, b.algorithms
                ));
            }
            Err(Skip::TooMany(n)) => {
                skipped.push(case);
                rows.push(format!(
                    "{case:>4} {:>12.4e} {:>12} {:>7} {n:>9.2e} {rhs}",
                    s.lowered.flops, "skipped", "-"
                ));
            }
            Err(Skip::Unsupported(why)) => panic!("case {case}: generator made {why}\n{src}"),
        }
    }
    println!("case  polyscan      brute force  ratio  algorithms  formula");
    for r in &rows {
        println!("{r}");
    }
    let feasible = problems as usize - skipped.len();
    println!(
        "{feasible} of {problems} feasible ({} skipped: more than {LIMIT:e} algorithms); polyscan equal on {equal}, below on {below}, above on {}; largest ratio {worst:.4}",
        skipped.len(),
        above.len()
    );
    for (case, ratio, src) in &above {
        println!("ABOVE case {case} ratio {ratio}:\n{src}");
    }
    assert!(
        above.is_empty(),
        "polyscan above the brute force on {} problems",
        above.len()
    );
    assert!(
        feasible * 6 >= problems as usize * 5,
        "only {feasible} problems feasible for the oracle"
    );
}
