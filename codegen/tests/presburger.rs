//! Presburger input (issue 19): `exists`, integer division, `mod` and `%`, alone and
//! mixed with polynomial constraints. Every domain is generated, compiled, run, and its
//! instance sequence compared with `oracle::brute_force_problem`, which searches the
//! quantified variables instead of using the witness loops. A fixed list covers each
//! construct; seeded random domains mix them.

use cad::LiftStats;
use codegen::input::parse_problem;
use codegen::oracle::brute_force_problem as brute_force;
use codegen::verify::{compile, compiler};
use codegen::{generate, GenOptions};

/// Generates `src`, runs it for each `n` (and `m = n + 2` if the problem has `m`) and
/// compares with brute force over `[-2, max(n, m) + 2]` per iterator.
fn check(src: &str, ns: &[i64]) {
    let problem = parse_problem(src).unwrap_or_else(|e| panic!("{src}\n{e}"));
    let g = generate(&problem, &GenOptions::default(), &LiftStats::default())
        .unwrap_or_else(|e| panic!("{src}\n{e}"));
    let prog = compile(&g).unwrap_or_else(|e| panic!("{src}\n{e}"));
    for &n in ns {
        let params: Vec<i64> = problem
            .params
            .iter()
            .map(|p| if p == "m" { n + 2 } else { n })
            .collect();
        let hi = 3 * params.iter().copied().max().unwrap_or(0) + 4;
        let bx = vec![(-2, hi); problem.depth()];
        let expected = brute_force(&problem, &params, &bx, 2 * hi + 8).expect("small box");
        let got = prog.run(&params).expect("runs");
        assert_eq!(
            got,
            expected,
            "{src}\nparams {params:?}\n{}",
            g.emitter().fragment(&g.nodes).unwrap()
        );
    }
}

#[test]
fn each_construct_matches_brute_force() {
    if compiler().is_none() {
        eprintln!("no C compiler: skipped");
        return;
    }
    for src in [
        // Strides: constant, parametric offset, depending on an outer loop.
        "[n] -> { S[i] : 0 <= i <= n and exists k : i = 4k + 1 }",
        "[n] -> { S[i] : 0 <= i <= 3n and exists k : i = 3k + n }",
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= n and exists k : j = 2k + i }",
        "[n] -> { S[i, j] : 0 <= i <= n and i <= j <= 2n and exists k : j = (i + 1)*k }",
        // Modulo and divisions in every isl spelling.
        "[n, m] -> { S[i, j] : 0 <= i <= n and 0 <= j <= m and (i + j) mod 3 = 0 }",
        "[n] -> { S[i] : 0 <= i <= n and i % 4 != 1 }",
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= floor(i/2) }",
        "[n] -> { S[i, j] : 0 <= i <= n and [i/3] <= j <= ceil(i/2) }",
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= n and floor((i + j)/4) = 1 }",
        "[n] -> { S[i] : 0 <= i <= n and (i mod 2 = 0 or i mod 3 = 0) }",
        "[n] -> { S[i] : 0 <= i <= n and not (i mod 2 = 0) }",
        "[n] -> { S[i] : 0 <= i <= n and floor(floor(i/2)/3) = 1 }",
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= n and 2*floor(i/3) >= j }",
        // Existentials: fixed by an equality, bound to a division, free in an interval.
        "[n] -> { S[i] : 0 <= i <= n and exists (e = floor(i/3) : 3e = i) }",
        "[n] -> { S[i] : 0 <= i <= n and exists k : 2k <= i <= 3k and k >= 1 }",
        "[n] -> { S[i, j] : 0 <= i, j <= n and exists k : i <= 3k <= j }",
        "[n] -> { S[i] : 0 <= i <= n and exists k, l : i = 2k and k = 3l + 1 }",
        "[n] -> { S[i] : exists k : 0 <= i <= n and (exists l : i = 5l) and k = i }",
        // `e = 2q + 1` substituted leaves q = floor((2q + 1)/2) free (its definition
        // holds for every q): it is the witness, not a division (once ran points twice).
        "[n] -> { S[i] : 0 <= i <= n and exists e : 0 <= e <= i and e mod 2 = 1 }",
        "[n] -> { S[i] : 0 <= i <= n and exists e : i - 5 <= e <= i and e mod 3 = 2 }",
        // Polynomial terms with strides and divisions.
        "[n] -> { S[i, j] : 1 <= i and 1 <= j and i*j <= n and exists k : j = 2k }",
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j and j*j <= i and i mod 3 = 1 }",
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= n and i*j mod 4 = 0 }",
        // Several statements, one without quantified variables, and a schedule.
        "[n] -> { S[i] : 0 <= i <= n and i % 2 = 0; T[i] : 0 <= i <= n and exists (e = floor(i/3) : 3e = i) }",
        "[n] -> { S[i] : 0 <= i <= n; T[i] : 0 <= i <= n and exists k : i = 2k + 1 }",
        "[n] -> { S[i] : 0 <= i <= n and i mod 3 = 0; T[i, j] : 0 <= i <= n and 0 <= j < i and j mod 2 = 1 }\n{ S[i] -> [i, 0, 0]; T[i, j] -> [i, 1, j] }",
        // Schedule relations: an output fixed by a stride, named outputs with divisions
        // (tiles), several pieces (a union: k = 2 of i = 2 once), a fixed coordinate.
        "[n] -> { S[i, j] : 0 <= i, j <= n }\n{ S[a, b] -> [a, o] : 2o = a }",
        "[n] -> { S[i, j] : 0 <= i, j <= n }\n[n] -> { S[i, j] -> [it, ip = i - it, j] : it mod 4 = 0 and i - 3 <= it <= i }",
        "[n] -> { S[i] : 0 <= i <= n }\n{ S[i] -> [i, k] : 0 <= k <= i; S[i] -> [i, k] : 2 <= k <= 3 }",
        "[n] -> { S[i, j] : 0 <= i, j <= n }\n[n] -> { S[i, 2] -> [i, 0] : i >= 1; S[i, j] -> [-i, j] : i = 0 }",
    ] {
        check(src, &[-1, 0, 1, 2, 5, 9, 14]);
    }
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

/// A random quantified constraint over `i`, `j` and `n`.
fn random_constraint(r: &mut Rng) -> String {
    let (a, b, c) = (r.below(3) + 1, r.below(5) - 2, r.below(7) - 3);
    let m = r.below(4) + 2;
    let rem = r.below(m as u64);
    let e = format!("{a}*i + {b}*j + {c}");
    match r.below(8) {
        0 => format!("({e}) mod {m} = {rem}"),
        1 => format!("({e}) % {m} != {rem}"),
        2 => format!("floor(({e})/{m}) <= j"),
        3 => format!("j >= ceil(({e})/{m}) - n"),
        4 => format!("exists k : {e} = {m}k"),
        5 => format!("exists k : {m}k <= {e} <= {m}k + {rem} and k >= {c}"),
        6 => format!("({e}) mod {m} = 0 or i*j <= n"),
        _ => format!("not (exists k : i = {m}k) or j mod {m} = {rem}"),
    }
}

#[test]
fn random_quantified_domains_match_brute_force() {
    if compiler().is_none() {
        eprintln!("no C compiler: skipped");
        return;
    }
    let mut r = Rng(19);
    let (mut checked, mut refused) = (0, 0);
    for _ in 0..40 {
        let extra = (0..1 + r.below(2))
            .map(|_| format!("({})", random_constraint(&mut r)))
            .collect::<Vec<_>>()
            .join(" and ");
        let src = format!("[n] -> {{ S[i, j] : 0 <= i <= n and 0 <= j <= n and {extra} }}");
        match parse_problem(&src) {
            // An `exists` under `not` is refused at parse time, with its position.
            Err(e) if e.message.contains("under 'not'") => {
                refused += 1;
                continue;
            }
            Err(e) => panic!("{src}\n{e}"),
            Ok(_) => {}
        }
        let problem = parse_problem(&src).expect("parsed above");
        match generate(&problem, &GenOptions::default(), &LiftStats::default()) {
            Err(codegen::GenError::Quantified(_)) => refused += 1,
            Err(e) => panic!("{src}\n{e}"),
            Ok(_) => {
                check(&src, &[0, 1, 4, 7]);
                checked += 1;
            }
        }
    }
    eprintln!("{checked} domains checked, {refused} refused");
    // The generator is meant to produce mostly supported domains: a change that refuses
    // them all must not pass unnoticed.
    assert!(checked >= 25, "only {checked} of 40 domains were checked");
}

#[test]
fn what_is_not_supported_is_refused_with_a_position() {
    let at = |src: &str| {
        let e = parse_problem(src).unwrap_err();
        (e.column, e.message)
    };
    let (col, msg) = at("[n] -> { S[i] : 0 <= i <= n and not exists k : i = 2k }");
    assert_eq!(col, 37, "{msg}");
    assert!(msg.contains("under 'not'"), "{msg}");
    let (col, msg) = at("[n] -> { S[i] : 0 <= i <= n and i mod n = 0 }");
    assert_eq!(col, 39, "{msg}");
    assert!(msg.contains("positive integer constant"), "{msg}");
    // A division in a schedule's tuple (a fixed coordinate) has no place for its variable.
    let (col, msg) = at("{ S[i] : 0 <= i <= 3 }\n{ S[floor(5/2)] -> [0] }");
    assert_eq!(col, 5, "{msg}");
    assert!(
        msg.contains("integer division is not supported here"),
        "{msg}"
    );
    let (_, msg) = at("[n] -> { S[i] : exists i : i = 2 }");
    assert!(msg.contains("already"), "{msg}");
    // Two variables no equality fixes: refused by generation, naming them.
    let p = parse_problem(
        "[n] -> { S[i] : 0 <= i <= n and exists k, l : k + l <= i and 0 <= k and 0 <= l }",
    )
    .unwrap();
    let e = generate(&p, &GenOptions::default(), &LiftStats::default()).unwrap_err();
    assert!(e.to_string().contains("k, l"), "{e}");
}

/// Strides print as loop steps with an exact first value, and witnesses that always run
/// once leave no loop (the code a person writes).
#[test]
fn strides_are_loop_steps() {
    let code = |src: &str| {
        let p = parse_problem(src).unwrap();
        let g = generate(&p, &GenOptions::default(), &LiftStats::default()).unwrap();
        g.emitter().fragment(&g.nodes).unwrap()
    };
    assert_eq!(
        code("[n] -> { S[i] : 0 <= i <= n and exists k : i = 4k + 1 }"),
        "for (int64_t i = 1; i <= n; i += 4)\n  S(i);\n"
    );
    assert_eq!(
        code("[n, m] -> { S[i] : n <= i <= m and exists k : i = 4k + 1 }"),
        "for (int64_t i = 4*ps_ceild(n - 1, 4) + 1; i <= m; i += 4)\n  S(i);\n"
    );
    // A stride depending on the outer loop.
    assert_eq!(
        code("[n] -> { S[i, j] : 0 <= i, j <= n and (j - i) mod 2 = 0 }"),
        "for (int64_t i = 0; i <= n; i += 1)\n  for (int64_t j = 2*ps_ceild(-i, 2) + i; j <= n; j += 2)\n    S(i, j);\n"
    );
    // The least witness of an interval existential always exists once: no loop.
    assert_eq!(
        code("[n] -> { S[i] : 0 <= i <= n and exists k : 2k <= i <= 3k and k >= 1 }"),
        "for (int64_t i = 2; i <= n; i += 1)\n  S(i);\n"
    );
}

/// A random constraint of the kinds the stride and division passes read: a class of `i`,
/// a division of the parameters alone as a bound, or a class of `i + j`.
fn random_class_or_division(r: &mut Rng) -> String {
    let m = r.below(3) + 2;
    let rem = r.below(m as u64);
    let (a, c) = (r.below(3) + 1, r.below(5) - 2);
    match r.below(5) {
        0 | 1 => format!("i mod {m} = {rem}"),
        2 => format!("{a}*floor((n + {c})/{m}) <= i"),
        3 => format!("j <= i - floor((m + {c})/{m})"),
        _ => format!("(i + j) mod {m} = {rem}"),
    }
}

/// Two statements with their own classes and divisions, under a schedule that is the
/// identity or interleaves them (`S1[i, j] -> [2i, j]`, `S2[i, j] -> [2i + 1, j]`): the shared
/// strides, the per-class copies and the parameter divisions against brute force.
#[test]
fn random_statement_pairs_match_brute_force() {
    if compiler().is_none() {
        eprintln!("no C compiler: skipped");
        return;
    }
    let mut r = Rng(23);
    for _ in 0..30 {
        let mut stmt = |name: &str| {
            format!(
                "{name}[i, j] : 0 <= i <= n and 0 <= j <= 2 and {}",
                random_class_or_division(&mut r)
            )
        };
        let (s1, s2) = (stmt("S1"), stmt("S2"));
        let schedule = if r.below(2) == 0 {
            "{ S1[i, j] -> [i, j, 0]; S2[i, j] -> [i, j, 1] }"
        } else {
            "{ S1[i, j] -> [2i, j]; S2[i, j] -> [2i + 1, j] }"
        };
        let src = format!("[n, m] -> {{ {s1}; {s2} }}\n{schedule}");
        check(&src, &[0, 1, 4, 7, 10]);
    }
}
