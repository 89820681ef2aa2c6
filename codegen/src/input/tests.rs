//! Parser tests: accepted syntax, and errors with their positions.

use super::*;
use cad::formula::Formula;
use polys::{Int, Poly};

fn holds(p: &Problem, stmt: usize, point: &[i64]) -> bool {
    let pt: Vec<Int> = point.iter().map(|&v| Int::from(v)).collect();
    p.statements[stmt].domain.eval_int(&pt)
}

#[test]
fn isl_syntax_with_polynomials() {
    let src = "# two statements\n[n, m] -> { S1[i, j] : 0 <= i < n and 0 <= j and i*j <= m; \
               S2[a, b] : (a - 4)^2 + b^2 <= n or a = b }\n[n] -> { : n >= 1 }";
    let p = parse_problem(src).unwrap();
    assert_eq!(p.params, ["n", "m"]);
    assert_eq!(p.statements.len(), 2);
    assert_eq!(p.vars().names(), ["n", "m", "i", "j"]);
    // n = 5, m = 6: (i, j) = (2, 3) in S1; (4, 2) in S2 since 0 + 4 <= 5.
    assert!(holds(&p, 0, &[5, 6, 2, 3]));
    assert!(!holds(&p, 0, &[5, 6, 2, 4]));
    assert!(holds(&p, 1, &[5, 6, 4, 2]));
    assert!(holds(&p, 1, &[5, 6, 7, 7]));
    assert!(!holds(&p, 1, &[5, 6, 7, 6]));
    assert!(p.context.eval_int(&[Int::from(1), Int::from(0)]));
    assert!(!p.context.eval_int(&[Int::from(0), Int::from(0)]));
}

#[test]
fn chains_lists_negation_and_parentheses() {
    let p = parse_problem(
        "[n] -> { S[i, j] : 0 <= i, j < n and not (i = 2 or j = 2) and !(i + j == 3) and 2i != j }",
    )
    .unwrap();
    let inside: Vec<(i64, i64)> = (0..4)
        .flat_map(|i| (0..4).map(move |j| (i, j)))
        .filter(|&(i, j)| holds(&p, 0, &[4, i, j]))
        .collect();
    let expect: Vec<(i64, i64)> = (0..4)
        .flat_map(|i| (0..4).map(move |j| (i, j)))
        .filter(|&(i, j)| i != 2 && j != 2 && i + j != 3 && 2 * i != j)
        .collect();
    assert_eq!(inside, expect);
}

#[test]
fn whole_space_statement_and_schedule() {
    let p = parse_problem(
        "[n] -> { S1[i] : 0 <= i < n; S2[i, j] : 0 <= i < n and 0 <= j <= i }\n\
         { S1[i] -> [i, 0, 0]; S2[i, j] -> [i, 1, j] }",
    )
    .unwrap();
    let sch = p.schedule.as_ref().unwrap();
    assert_eq!(sch[1].time.len(), 3);
    let q = parse_problem("{ T[x] }").unwrap();
    assert_eq!(q.statements[0].domain, Formula::True);
}

#[test]
fn errors_have_positions() {
    for (src, line, col, needle) in [
        ("{ S[i] : i <= }", 1, 15, "expected"),
        ("[n] -> { S[i] : i <= k }", 1, 22, "unknown variable 'k'"),
        ("[n] -> { S[n] : n >= 0 }", 1, 12, "name of a parameter"),
        (
            "{ S[i] : i >= 0; S[i, j] : i < 3 }",
            1,
            18,
            "declared twice",
        ),
        ("{ S[i, i] : i >= 0 }", 1, 8, "declared twice"),
        (
            "{ S[i] : i >= 0;\n  T[i, j] : j >= 0 }",
            2,
            3,
            "need a schedule",
        ),
        ("{ S[i] : i >= 0 ", 1, 17, "';' or '}'"),
        // `i / 2` is a rational coefficient (isl's); a division by a variable is not.
        ("{ S[i] : i / i >= 0 }", 1, 14, "positive integer after '/'"),
        ("{ S[i] : i^-1 >= 0 }", 1, 12, "negative exponents"),
        (
            "{ S[i] : i >= 0 }\n{ S[i] -> [i]; T[j] -> [j] }",
            2,
            16,
            "unknown statement",
        ),
        ("{ S[i] : (i >= 0 }", 1, 18, "')'"),
        ("", 1, 1, "expected a set"),
        ("{ S[i] : i }", 1, 12, "comparison"),
        ("[n] -> { S[and] }", 1, 12, "keyword"),
    ] {
        let e = parse_problem(src).expect_err(src);
        assert_eq!((e.line, e.column), (line, col), "{src}: {e}");
        assert!(e.message.contains(needle), "{src}: {e}");
    }
}

#[test]
fn context_option_syntax() {
    let params = vec!["n".to_string(), "m".to_string()];
    let f = parse_context("n >= 1 and m >= n", &params).unwrap();
    assert!(f.eval_int(&[Int::from(1), Int::from(2)]));
    let g = parse_context("[m] -> { : m >= 3 }", &params).unwrap();
    assert!(!g.eval_int(&[Int::from(9), Int::from(2)]));
    assert!(parse_context("[k] -> { : k >= 3 }", &params).is_err());
}

#[test]
fn quantified_variables_print_back() {
    let p = parse_problem(
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= n and (i + j) mod 3 = 1 and exists k : i = 2k }",
    )
    .unwrap();
    let s = &p.statements[0];
    let names: Vec<&str> = s.existentials.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["e0", "k"]);
    assert!(s.existentials[0].division.is_some() && s.existentials[1].division.is_none());
    // Printed as `exists`: the division's defining constraints are in the domain, so the
    // text reads back to the same domain over the same variables.
    let text = p.to_text();
    assert!(text.contains("exists e0, k : "), "{text}");
    let again = parse_problem(&text).unwrap();
    assert_eq!(again.statements[0].domain, s.domain, "{text}");
    assert_eq!(again.statements[0].existentials.len(), 2);
}

#[test]
fn schedule_relations_fixed_coordinates_and_named_outputs() {
    let p = parse_problem(
        "[n] -> { S[i, j] : 0 <= i, j < n; T[k] : 0 <= k < n }\n\
         [n] -> { S[a, b = 3] -> [a, o, p = a - o] : 2o = a; S[a, 5] -> [a, 0, 0];\n\
                  T[k] -> [floor(k/2), 1, k] }",
    )
    .unwrap();
    let sch = p.schedule.as_ref().unwrap();
    assert_eq!(sch.len(), 3);
    assert_eq!(sch.iter().filter(|e| e.statement == 0).count(), 2);
    // Output `o` and the named output `p` are variables 3 and 4 (n, a, b, o, p).
    assert_eq!(sch[0].outputs[1], "o");
    assert_eq!(sch[0].time[1], Poly::var(4));
    assert!(!sch[0].is_function(1));
    // The fixed coordinate got a fresh name and an equality.
    assert_eq!(sch[1].iterators.len(), 2);
    assert_ne!(sch[1].iterators[1], "b");
    assert!(!p.schedule_is_function());
    // A division in a time expression is a quantified variable of the entry.
    assert_eq!(sch[2].existentials.len(), 1);
    // Printed and read again, the problem has the same instances in the same order.
    let again = parse_problem(&p.to_text()).unwrap();
    for n in [0, 1, 4, 7] {
        let bx = [(-2, 9), (-2, 9)];
        let want = crate::oracle::brute_force_problem(&p, &[n], &bx, 20).unwrap();
        let got = crate::oracle::brute_force_problem(&again, &[n], &bx, 20).unwrap();
        assert_eq!(got, want, "{}", p.to_text());
        assert!(n == 0 || !want.is_empty());
    }
}

#[test]
fn context_divisions_restrict_every_statement() {
    let p = parse_problem(
        "[n] -> { S[i] : 0 <= i <= n; T[i] : 0 <= i < n }\n[n] -> { : n >= 0 and n mod 2 = 0 }",
    )
    .unwrap();
    assert!(p.statements.iter().all(|s| s.existentials.len() == 1));
    assert!(p.context.polynomials().iter().all(|q| q.vars() == [0]));
    let e = super::parse_context("[n] -> { : n mod 2 = 0 }", &["n".to_string()]).unwrap_err();
    assert!(
        e.message.contains("put the context in the input file"),
        "{}",
        e.message
    );
}
