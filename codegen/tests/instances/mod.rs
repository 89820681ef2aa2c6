//! Shared by the isl-syntax tests: two inputs run the same instance sequence (the exact
//! interpreter over the generated tree) at every parameter value from -3 to 12, and a
//! malformed input is refused at its column.

use codegen::input::parse_problem;
use codegen::{generate, GenOptions, Generated};
use polys::Int;

fn generated(text: &str) -> Generated {
    let problem = parse_problem(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    generate(&problem, &GenOptions::default(), &cad::LiftStats::default())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn instances(g: &Generated, n: i64) -> Vec<(String, Vec<Int>)> {
    let mut p = vec![Int::from(n)];
    p.truncate(g.nparams);
    codegen::interp::instances(&g.nodes, &p, g.vars.len(), 100_000)
        .expect("runs within the budget")
        .into_iter()
        .map(|(s, a)| (g.statements[s].0.clone(), a))
        .collect()
}

/// The instance sequences of `isl` (the form under test) and `plain` agree for the
/// parameter (at most one, `n`) in -3..=12, and are not all empty.
pub fn same_instances(isl: &str, plain: &str) {
    let (a, b) = (generated(isl), generated(plain));
    let mut seen = 0;
    for n in -3..=12 {
        let (x, y) = (instances(&a, n), instances(&b, n));
        assert_eq!(x, y, "n = {n}:\n  {isl}\n  {plain}");
        seen += x.len();
    }
    assert!(seen > 0, "{isl}: no instances at all");
}

/// `src` is refused with a message containing `needle` at column `col`.
pub fn refused_at(src: &str, col: usize, needle: &str) {
    let e = parse_problem(src).expect_err(src);
    let text = e.to_string();
    assert!(text.contains(needle), "{src}: {text}");
    assert!(text.contains(&format!("column {col}:")), "{src}: {text}");
}
