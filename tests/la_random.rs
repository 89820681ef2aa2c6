//! Random chain problems in the manner of Linnea's random test problems: products of 4 to 7
//! operands with mixed properties, transposes and inverses, sometimes plus a further term.
//! Each must parse, solve, cost no more than naive evaluation, and agree numerically with
//! direct evaluation of the formula.

use std::time::Duration;

use polyscan_la::interp::{check, scaled, Rng};
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions};

/// One random problem as source text.
fn problem(rng: &mut Rng) -> String {
    let nsizes = 5;
    let mut src = String::new();
    for s in 0..nsizes {
        src += &format!("d{s} = {}\n", 150 + 50 * rng.below(40));
    }
    let k = 4 + rng.below(4);
    let mut decls = String::new();
    let mut factors = Vec::new();
    let mut cur = rng.below(nsizes);
    let first = cur;
    for i in 0..k {
        let square = rng.below(2) == 0;
        let last = i + 1 == k;
        if last && rng.below(3) == 0 {
            decls += &format!("ColumnVector v(d{cur}) <>\n");
            factors.push("v".to_string());
            break;
        }
        let name = format!("M{i}");
        if square {
            let (props, invertible) = match rng.below(8) {
                0 => ("SPD", true),
                1 => ("LowerTriangular, FullRank", true),
                2 => ("UpperTriangular, FullRank", true),
                3 => ("Diagonal, FullRank", true),
                4 => ("Symmetric", false),
                5 => ("Orthogonal", true),
                6 => ("FullRank", true),
                _ => ("", false),
            };
            decls += &format!("Matrix {name}(d{cur}, d{cur}) <{props}>\n");
            let mut f = name.clone();
            if rng.below(3) == 0 {
                f = format!("trans({f})");
            }
            if invertible && rng.below(2) == 0 {
                f = format!("inv({f})");
            }
            factors.push(f);
        } else {
            let next = rng.below(nsizes);
            if rng.below(2) == 0 {
                decls += &format!("Matrix {name}(d{next}, d{cur}) <FullRank>\n");
                factors.push(format!("trans({name})"));
            } else {
                decls += &format!("Matrix {name}(d{cur}, d{next}) <FullRank>\n");
                factors.push(name);
            }
            cur = next;
        }
    }
    let vector = factors.last().is_some_and(|f| f == "v");
    // Sometimes an inner product somewhere in the chain: a scalar factor.
    if rng.below(4) == 0 {
        let d = rng.below(nsizes);
        decls += &format!("ColumnVector p(d{d}) <>\nColumnVector q(d{d}) <>\n");
        let at = rng.below(factors.len() + 1);
        factors.insert(at, "trans(p) * q".to_string());
    }
    let mut rhs = factors.join(" * ");
    if rng.below(3) == 0 {
        if vector {
            decls += &format!("ColumnVector z(d{first}) <>\n");
        } else {
            decls += &format!("Matrix Z(d{first}, d{cur}) <>\n");
        }
        rhs = format!("{} - {rhs}", if vector { "z" } else { "Z" });
    }
    if vector {
        decls += &format!("ColumnVector X(d{first}) <>\n");
    } else {
        decls += &format!("Matrix X(d{first}, d{cur}) <>\n");
    }
    format!("{src}{decls}X = {rhs}\n")
}

#[test]
fn random_chains_solve_and_agree_numerically() {
    let mut rng = Rng::new(2024);
    for case in 0..100 {
        let src = problem(&mut rng);
        let p = parse(&src).unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        let opts = SearchOptions {
            time_limit: Duration::from_millis(50),
            ..SearchOptions::default()
        };
        let s = solve(&p, opts).unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        assert!(
            s.first_solution_s < 0.2,
            "case {case}: slow first solution\n{src}"
        );
        assert!(
            s.lowered.flops <= s.naive_flops * (1.0 + 1e-9),
            "case {case}: worse than naive\n{src}"
        );
        assert!(
            !s.lowered
                .steps
                .iter()
                .any(|k| k.kernel.is_explicit_inverse()),
            "case {case}: explicit inverse in a product\n{src}"
        );
        let small = scaled(&p, 50, 3);
        let rel = check(&small, &s.lowered.env, &s.lowered.steps, case)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        assert!(
            rel < 1e-8,
            "case {case}: relative difference {rel:e}\n{src}"
        );
    }
}

/// A random expression over square n x n operands (and a vector at the end), with sums,
/// differences, transposes, scalars and inverses of operands known to be invertible.
fn expression(rng: &mut Rng, depth: usize) -> String {
    const OPS: &[&str] = &["G", "S", "L", "U", "D", "Q", "Y"];
    const INVERTIBLE: &[&str] = &["G", "S", "L", "U", "D", "Q"];
    if depth == 0 {
        return match rng.below(4) {
            0 => format!("inv({})", INVERTIBLE[rng.below(INVERTIBLE.len())]),
            1 => format!("trans({})", OPS[rng.below(OPS.len())]),
            _ => OPS[rng.below(OPS.len())].to_string(),
        };
    }
    let a = expression(rng, depth - 1);
    let b = expression(rng, depth - 1);
    match rng.below(7) {
        0 => format!("({a} + {b})"),
        1 => format!("({a} - {b})"),
        2 => format!("trans({a})"),
        3 => format!("k * {a}"),
        4 => format!("inv(trans({a}) * {a} + k * I)"),
        _ => format!("{a} * {b}"),
    }
}

#[test]
fn random_expression_trees_agree_numerically() {
    let decls = "n = 300\nMatrix G(n, n) <FullRank>\nMatrix S(n, n) <SPD>\nMatrix L(n, n) <LowerTriangular, FullRank>\nMatrix U(n, n) <UpperTriangular, FullRank>\nMatrix D(n, n) <Diagonal, FullRank>\nMatrix Q(n, n) <Orthogonal>\nMatrix Y(n, n) <Symmetric>\nIdentityMatrix I(n, n)\nScalar k <Positive>\nColumnVector v(n) <>\nMatrix X(n, n) <>\nColumnVector x(n) <>\n";
    let mut rng = Rng::new(99);
    for case in 0..120 {
        let (d1, d2) = (1 + rng.below(4), 1 + rng.below(2));
        let e1 = expression(&mut rng, d1);
        let e2 = expression(&mut rng, d2);
        let src = format!("{decls}X = {e1}\nx = {e2} * X * v\n");
        let p = parse(&src).unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        let opts = SearchOptions {
            time_limit: Duration::from_secs(10),
            max_states: 40,
            ..SearchOptions::default()
        };
        let s = solve(&p, opts).unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        let small = scaled(&p, 50, 3);
        let rel = check(&small, &s.lowered.env, &s.lowered.steps, case)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        assert!(
            rel < 1e-8,
            "case {case}: relative difference {rel:e}\n{src}"
        );
    }
}
