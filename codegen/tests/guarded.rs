//! The guarded scan (affine constraints as loops, polynomial ones as tests) where the CAD
//! passes its budget: every run is the brute-force instance sequence of the input, the
//! caller's own limits still stop the CAD, and the CAD keeps what is within its budget.

use codegen::input::{parse_problem, Problem};
use codegen::{Engine, Outcome, Pipeline, StopReason};
use polys::Int;

/// Degree-3 terms mixing parameters and iterators in a box (issue 23's kind): the CAD
/// needs minutes and thousands of cells.
const HARD: &str = "[n, m] -> { S[i, j, k] : -5 <= i <= 5 and -5 <= j <= 5 and -5 <= k <= 5 \
    and -3*j*i*n - 4*n*n - j*j*j + 4*j*i*k <= 4 and k*k*j - m*i*i + n*k*j*i >= 2 \
    and i*j*k*m + n*n*k - j*j*i <= 7 }";

/// Two statements, `or`, `!=`, a polynomial atom under `not` and one beside an affine
/// bound in a disjunction (which the relaxation must keep as `true`, not drop).
const MIXED: &str = "[n, m] -> { S0[i, j] : -4 <= i <= 6 and -3 <= j <= 7 \
    and (i*j*n - m*j*j >= 2 or i >= 5) and not (i*i*m + j*n*n <= 3); \
    S1[i, j] : -4 <= i <= 6 and -3 <= j <= 7 and 2*m*i*j - n*j*j*j != 1 \
    and (j <= 2 or i*i*n - m*m*j < 4) }";

/// Degree 3 at most and thousands of cells (hard domain 3 of the generator): the CAD
/// passes the budget's cells, not its degree.
const CELLS: &str = "[n, m] -> { S0[i, j, k] : -1 <= i <= 4 and -5 <= j <= 5 and -3 <= k <= 6 \
    and (-(m*j*j) - (4*j*n) + n*m - (3*j*m) >= 6 or -(k*j*j) - (k*k) < -4); \
    S1[i, j, k] : -1 <= i <= 4 and -5 <= j <= 5 and -3 <= k <= 6 \
    and 3*m*m + 2*m*m*m - (3*m*i*i) - (4*m) - 5 < -4 }";

/// `text` generated with a budget of one cell: the guarded scan wherever it applies.
fn with_tiny_budget(text: &str) -> codegen::Generated {
    let opts = codegen::GenOptions {
        budget: Some(codegen::Budget {
            max_cells: 1,
            max_degree: 31,
        }),
        ..codegen::GenOptions::default()
    };
    let problem = parse_problem(text).expect("parses");
    codegen::generate(&problem, &opts, &cad::LiftStats::default())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn run(text: &str, pipeline: impl Fn(Pipeline) -> Pipeline) -> Outcome {
    let problem = parse_problem(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    pipeline(Pipeline::new(problem))
        .run()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Every instance of `problem` at `params` in the box `lo..=hi` of each iterator, in
/// lexicographic order, statements in file order at the same point.
fn brute_force(problem: &Problem, params: &[i64], lo: i64, hi: i64) -> Vec<(usize, Vec<Int>)> {
    let depth = problem.depth();
    let mut out = Vec::new();
    let mut point = vec![lo; depth];
    loop {
        for (s, st) in problem.statements.iter().enumerate() {
            let mut at: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
            at.extend(point.iter().map(|&v| Int::from(v)));
            if st.domain.eval_int(&at) {
                out.push((s, point.iter().map(|&v| Int::from(v)).collect()));
            }
        }
        // The next point of the box, the last iterator fastest.
        let Some(d) = (0..depth).rev().find(|&d| point[d] < hi) else {
            return out;
        };
        point[d] += 1;
        point[d + 1..].iter_mut().for_each(|x| *x = lo);
    }
}

/// The generated tree's instances equal brute force (over a box larger than the input's)
/// for every `(n, m)` in -4..=4.
fn matches_brute_force(text: &str, out: &Outcome) {
    let g = &out.generated;
    let mut seen = 0;
    for n in -4..=4 {
        for m in -4..=4 {
            let params = [n, m];
            let p: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
            let got = codegen::interp::instances(&g.nodes, &p, g.vars.len(), 1_000_000)
                .expect("runs within the budget");
            let want = brute_force(&out.original, &params, -7, 9);
            assert_eq!(got, want, "n = {n}, m = {m}: {text}");
            seen += got.len();
        }
    }
    assert!(seen > 0, "{text}: no instance at all");
}

#[test]
fn past_the_budget_the_guarded_scan_runs_every_point_once_in_order() {
    for text in [HARD, MIXED, CELLS] {
        let out = run(text, |p| p);
        assert!(
            out.generated.guarded.is_some(),
            "{text}: expected the guarded scan"
        );
        let shape = codegen::ast::shape(&out.generated.nodes);
        assert!(shape.tests > 0, "{text}: no test");
        matches_brute_force(text, &out);
    }
}

#[test]
fn tests_on_outer_variables_leave_the_inner_loops() {
    // `i*i*n <= m` reads no `j`: tested once per `i`, around the `j` loop.
    let text = "[n, m] -> { S[i, j] : 0 <= i <= 9 and 0 <= j <= 9 and i*i*n <= m \
        and i*j*j*n - m*m*j*i >= 3*n*m*j - 2 }";
    let g = with_tiny_budget(text);
    assert!(g.guarded.is_some());
    let c = g.emitter().fragment(&g.nodes).expect("prints");
    let test_i = c.find("if (n*i*i").expect(&c);
    let loop_j = c.find("for (int64_t j").expect(&c);
    assert!(
        test_i < loop_j,
        "the test on i is not outside the j loop:\n{c}"
    );
}

#[test]
fn the_callers_limits_still_stop_the_cad() {
    let problem = parse_problem(CELLS).expect("parses");
    let err = Pipeline::new(problem)
        .max_cells(10)
        .run()
        .expect_err("10 cells are below the budget: the caller's limit stops it");
    assert_eq!(err.stop_reason(), Some(StopReason::CellLimit(10)), "{err}");
}

#[test]
fn the_cad_engine_has_no_budget() {
    // The guarded scan only under `Engine::Auto`: with the CAD engine the caller's limit
    // (here above the budget, below what the CAD needs) stops it.
    let problem = parse_problem(CELLS).expect("parses");
    let err = Pipeline::new(problem)
        .engine(Engine::Cad)
        .max_cells(2500)
        .run()
        .expect_err("the CAD needs more than 2500 cells");
    assert_eq!(
        err.stop_reason(),
        Some(StopReason::CellLimit(2500)),
        "{err}"
    );
}

#[test]
fn within_the_budget_the_cad_stays() {
    // 341 cells, factors of degree 3 (hard domain 31 of the generator).
    let text = "[n] -> { S0[i, j] : -5 <= i <= 3 and -4 <= j <= 5 \
        and (-(3*j*j) + 3*j*i >= 1 or -(n*j*n) - (4*j*j*j) <= -5) and -j + 4*j = -5; \
        S1[i, j] : -5 <= i <= 3 and -4 <= j <= 5 and -(i*j) + 2*n*n*j + 3*j*i = -4 }";
    let out = run(text, |p| p);
    assert!(out.generated.guarded.is_none());
    assert!(out.generated.cad.is_some());
    assert_eq!(codegen::ast::shape(&out.generated.nodes).tests, 0);
}

#[test]
fn an_unbounded_relaxation_keeps_the_cad() {
    // Without `i*i <= n` nothing bounds `i` above: no guarded scan, whatever the budget.
    let text = "[n] -> { S[i, j] : 0 <= i and 0 <= j <= 3 and i*i <= n and i*j*n >= 2 }";
    let g = with_tiny_budget(text);
    assert!(g.guarded.is_none());
    assert!(g.cad.is_some());
}
