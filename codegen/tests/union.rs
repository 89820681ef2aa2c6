//! The scanner for unions of affine polyhedra (`codegen/src/union.rs`): every affine
//! example it takes, compiled and run at degenerate and large parameter values against
//! brute force; and random affine unions (several statements of different dimensions,
//! `!=`, `or`, `not`, equalities, optional shifted schedules) run by the exact interpreter
//! against brute force.
//!
//! `POLYSCAN_UNION_COUNT=5000` runs that many random unions instead of 400,
//! `POLYSCAN_UNION_START` shifts the first seed, `POLYSCAN_UNION_SEED=17` replays one and
//! prints its text and code.

mod grid;

use cad::LiftStats;
use codegen::input::parse_problem;
use codegen::verify::{box_around, brute_force, compile, first_difference};
use codegen::{generate, GenOptions, Generated};
use polys::{Coeff, Int};
use std::path::PathBuf;

fn linear() -> GenOptions {
    GenOptions {
        linear: true,
        ..GenOptions::default()
    }
}

fn generate_text(src: &str) -> Generated {
    let problem = parse_problem(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    generate(&problem, &linear(), &LiftStats::default()).unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn code(g: &Generated) -> String {
    g.emitter().fragment(&g.nodes).unwrap_or_default()
}

/// Every combination of negative, zero, one, two and large values.
fn degenerate(nparams: usize) -> Vec<Vec<i64>> {
    let values: &[i64] = match nparams {
        0 => return vec![vec![]],
        1 => &[-7, -1, 0, 1, 2, 3, 40, 150],
        _ => &[-3, 0, 1, 2, 25],
    };
    grid::cartesian(values, nparams)
}

/// The shipped examples written with affine constraints only, by name (`domains/plane`)
/// and text: the union scanner's inputs, derived from the files so that a new affine
/// example is tested without being listed.
fn affine_examples() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = Vec::new();
    for dir in ["domains", "seed"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pset"))
            .collect();
        paths.sort();
        for path in paths {
            let src = std::fs::read_to_string(&path).unwrap();
            let p = parse_problem(&src).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let affine = p
                .statements
                .iter()
                .map(|st| &st.domain)
                .chain([&p.context])
                .all(|f| f.polynomials().iter().all(|q| q.total_degree() <= 1));
            if affine {
                let stem = path.file_stem().unwrap().to_string_lossy();
                out.push((format!("{dir}/{stem}"), src));
            }
        }
    }
    out
}

#[test]
fn affine_examples_match_brute_force_at_degenerate_parameters() {
    let examples = affine_examples();
    // 13 bounded ones and domains/unbounded when this test was written.
    assert!(examples.len() >= 14, "{} affine examples", examples.len());
    for (name, src) in &examples {
        let problem = parse_problem(src).unwrap();
        let g = match generate(&problem, &linear(), &LiftStats::default()) {
            Ok(g) => g,
            // An unbounded domain is an error for every engine.
            Err(codegen::GenError::Unbounded { .. }) if name.contains("unbounded") => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        assert!(g.cad.is_none(), "{name}: went through the CAD");
        let prog = compile(&g).unwrap_or_else(|e| panic!("{name}: {e}"));
        for params in degenerate(g.nparams) {
            // Outside the context the code promises nothing (it assumes the context).
            let point: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
            if !problem.context.eval_int(&point) {
                continue;
            }
            let got = prog.run(&params).unwrap();
            let bx = box_around(&got, &g, 4);
            let expected = brute_force(&g, &params, &bx).unwrap();
            if let Some(d) = first_difference(&expected, &got, &g) {
                panic!("{name} at {params:?}: {d}\n{}", code(&g));
            }
        }
    }
}

/// The three inputs of issue 4 print isl's counts: strict-ne 5 loops, two-statements 3
/// loops and 1 if, imperfect-schedule 2 loops; plane 2 loops (the equality substituted).
#[test]
fn affine_examples_have_isl_shapes() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for (name, loops, guards) in [
        ("domains/strict-ne", 5, 0),
        ("seed/two-statements", 3, 1),
        ("domains/imperfect-schedule", 2, 0),
        ("domains/plane", 2, 0),
        ("domains/shifted-fusion", 1, 0),
    ] {
        let src = std::fs::read_to_string(root.join(format!("{name}.pset"))).unwrap();
        let g = generate_text(&src);
        let s = codegen::ast::shape(&g.nodes);
        assert!(
            s.loops <= loops && s.guards <= guards,
            "{name}: {} loops, {} ifs\n{}",
            s.loops,
            s.guards,
            code(&g)
        );
    }
}

/// A small deterministic generator (xorshift), so seeds replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

const ITERS: [&str; 3] = ["i", "j", "k"];
const PARAMS: [&str; 2] = ["n", "m"];

/// `c0 + sum c x` over the parameters and the first `depth` iterators.
fn affine(rng: &mut Rng, np: usize, depth: usize) -> String {
    let mut terms = Vec::new();
    for name in PARAMS[..np].iter().chain(&ITERS[..depth]) {
        let c = rng.range(-2, 2);
        if c != 0 && rng.chance(2, 3) {
            terms.push(format!("{c}*{name}"));
        }
    }
    terms.push(rng.range(-4, 4).to_string());
    terms.join(" + ")
}

fn atom(rng: &mut Rng, np: usize, depth: usize) -> String {
    let rel = ["<=", "<", ">=", ">", "=", "!="][rng.range(0, 5) as usize];
    format!(
        "{} {rel} {}",
        affine(rng, np, depth),
        affine(rng, np, depth)
    )
}

fn formula(rng: &mut Rng, np: usize, depth: usize, nesting: u32) -> String {
    if nesting == 0 || rng.chance(1, 2) {
        return atom(rng, np, depth);
    }
    let a = formula(rng, np, depth, nesting - 1);
    let b = formula(rng, np, depth, nesting - 1);
    match rng.range(0, 2) {
        0 => format!("({a} or {b})"),
        1 => format!("({a} and {b})"),
        _ => format!("not ({a})"),
    }
}

/// A bound `lo <= x` or `x <= hi`: a constant or a parameter plus a constant.
fn side(rng: &mut Rng, np: usize, lower: bool) -> String {
    let c = if lower {
        rng.range(-4, 1)
    } else {
        rng.range(0, 4)
    };
    if np > 0 && rng.chance(1, 2) {
        format!("{} + {c}", PARAMS[rng.range(0, np as i64 - 1) as usize])
    } else {
        c.to_string()
    }
}

/// A random affine union: its text and parameter values to try.
fn random_union(seed: u64) -> (String, Vec<Vec<i64>>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for _ in 0..4 {
        rng.next();
    }
    let np = rng.range(0, 2) as usize;
    let nstmts = rng.range(1, 3) as usize;
    let schedule = rng.chance(1, 3);
    let mut stmts = Vec::new();
    let mut times = Vec::new();
    let maxdepth = rng.range(1, 3) as usize;
    for s in 0..nstmts {
        // Statements of different dimension need a schedule.
        let depth = if schedule {
            rng.range(1, maxdepth as i64) as usize
        } else {
            maxdepth
        };
        let mut parts = Vec::new();
        for x in &ITERS[..depth] {
            parts.push(format!(
                "{} <= {x} <= {}",
                side(&mut rng, np, true),
                side(&mut rng, np, false)
            ));
        }
        for _ in 0..rng.range(0, 2) {
            parts.push(formula(&mut rng, np, depth, 2));
        }
        stmts.push(format!(
            "S{s}[{}] : {}",
            ITERS[..depth].join(", "),
            parts.join(" and ")
        ));
        // Time: the first iterator shifted, a random textual position, the others.
        let mut t = vec![
            format!("i + {}", rng.range(-1, 1)),
            rng.range(0, 2).to_string(),
        ];
        t.extend(ITERS[1..depth].iter().map(|x| x.to_string()));
        t.resize(maxdepth + 1, "0".into());
        times.push(format!(
            "S{s}[{}] -> [{}]",
            ITERS[..depth].join(", "),
            t.join(", ")
        ));
    }
    let head = if np > 0 {
        format!("[{}] -> ", PARAMS[..np].join(", "))
    } else {
        String::new()
    };
    let mut text = format!("{head}{{ {} }}\n", stmts.join("; "));
    if schedule {
        text.push_str(&format!("{{ {} }}\n", times.join("; ")));
    }
    let sets = (0..if np == 0 { 1 } else { 5 })
        .map(|_| (0..np).map(|_| rng.range(-3, 6)).collect())
        .collect();
    (text, sets)
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Checks one random union; `Err` with a message on a difference.
fn check_union(seed: u64, verbose: bool) -> Result<bool, String> {
    let (text, sets) = random_union(seed);
    if verbose {
        println!("seed {seed}:\n{text}");
    }
    // Where the scanner declines, the CAD may take long: bounded here, skipped then.
    let problem = parse_problem(&text).map_err(|e| format!("seed {seed}: {e}"))?;
    let opts = GenOptions {
        limits: cad::Limits::new(Some(20_000), Some(2.0)),
        ..linear()
    };
    let g = match generate(&problem, &opts, &LiftStats::default()) {
        Ok(g) => g,
        Err(_) => return Ok(false),
    };
    if verbose {
        println!("{}", code(&g));
    }
    let depth = g.vars.len() - g.nparams - g.ntime;
    // Bounds are within [-4, 4] of a constant or a parameter in [-3, 6].
    let bx = vec![(-8, 11); depth];
    for params in &sets {
        let expected = brute_force(&g, params, &bx).map_err(|e| e.to_string())?;
        let p: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
        let got = codegen::interp::instances(&g.nodes, &p, g.vars.len(), 1_000_000)
            .map_err(|e| format!("seed {seed} at {params:?}: {e:?}\n{text}\n{}", code(&g)))?;
        let got: Vec<(usize, Vec<i64>)> = got
            .into_iter()
            .map(|(s, a)| {
                (
                    s,
                    a.iter().map(|v| v.to_i64().unwrap_or(i64::MAX)).collect(),
                )
            })
            .collect();
        if let Some(d) = first_difference(&expected, &got, &g) {
            return Err(format!(
                "seed {seed} at {params:?}: {d}\n{text}\n{}",
                code(&g)
            ));
        }
    }
    Ok(g.cad.is_none())
}

#[test]
fn random_affine_unions_match_brute_force() {
    if let Some(seed) = env_u64("POLYSCAN_UNION_SEED") {
        check_union(seed, true).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    let start = env_u64("POLYSCAN_UNION_START").unwrap_or(0);
    let count = env_u64("POLYSCAN_UNION_COUNT").unwrap_or(400);
    let (mut scanned, mut failures) = (0, Vec::new());
    for seed in start..start + count {
        match check_union(seed, false) {
            Ok(true) => scanned += 1,
            Ok(false) => {}
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{count} random affine unions, {scanned} through the union scanner");
    assert!(
        failures.is_empty(),
        "{} failed; first:\n{}",
        failures.len(),
        failures[0]
    );
    // Most of them are the scanner's: the test tests it.
    assert!(
        scanned * 10 >= count * 8,
        "only {scanned} of {count} scanned"
    );
}

/// The instances the exact interpreter runs for `params` (at most a million).
fn interpreted(g: &Generated, params: &[i64]) -> Vec<(usize, Vec<i64>)> {
    let p: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
    codegen::interp::instances(&g.nodes, &p, g.vars.len(), 1_000_000)
        .unwrap()
        .into_iter()
        .map(|(s, a)| (s, a.iter().map(|v| v.to_i64().unwrap()).collect()))
        .collect()
}

/// Omega's lefur03 shape (scaled from 1000 to 10): Fourier–Motzkin on it exceeds its
/// limit unless constraints the others imply are dropped first; and isl's
/// `n <= 9223372036854775807`, true of every `int64_t`, which does not fit the scanner's
/// coefficients. Both, with a schedule (the union scanner's input), stay with the scanner
/// (no CAD) and run the brute-force instances.
#[test]
fn wide_polyhedra_and_int64_bounds_stay_with_the_scanner() {
    let lefur = "{ s0[x0, x1, x2, x3, x4, x5] : x3 >= 0 and x4 <= 10 and -1 + 10x2 <= 3x4 <= 8 + 10x2 \
                 and x5 >= 10x0 - x4 and x5 >= 2 + 10x3 - 2x4 and x4 <= x5 <= 1 + 2x4 \
                 and x5 <= 11 + 10x3 - 2x4 and x5 <= 9 + 10x0 - x4 and 10x1 + x4 <= 2x5 <= 9 + 10x1 + x4 }\n\
                 { s0[a, b, c, d, e, f] -> [a, b, c, d, e, f] }";
    let wide = "[n] -> { S[i] : 0 <= i <= n and n <= 9223372036854775807 and -9223372036854775808 <= i }\n\
                { S[i] -> [i] }";
    for (src, params, bx) in [
        (
            lefur,
            vec![],
            vec![(-3, 5), (-3, 5), (-3, 5), (-3, 5), (-3, 12), (-3, 25)],
        ),
        (wide, vec![7], vec![(-3, 10)]),
    ] {
        // The CAD would take minutes here: a limit makes a regression fail, not hang.
        let opts = GenOptions {
            limits: cad::Limits::new(Some(200_000), Some(20.0)),
            ..linear()
        };
        let g = generate(&parse_problem(src).unwrap(), &opts, &LiftStats::default())
            .unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(g.cad.is_none(), "{src}: went to the CAD");
        assert!(!code(&g).contains("9223372036854775807"), "{}", code(&g));
        let expected = brute_force(&g, &params, &bx).unwrap();
        let got = interpreted(&g, &params);
        assert!(!expected.is_empty(), "{src}");
        assert_eq!(got, expected, "{src}\n{}", code(&g));
    }
}

/// A disjunction the rest of the domain implies is `true` (CLooG's iftest: one loop, as
/// isl prints it, not three pieces), and a disjunct it excludes is dropped; the
/// instances still match brute force.
#[test]
fn implied_disjunctions_are_simplified() {
    has_loops_and_matches("[m, n] -> { S[i] : 0 < i <= n and (i >= m or i <= 2m) }", 1);
    // Only `i = 3` can hold: one loop (from 3 to min(n, 3)), not three pieces.
    has_loops_and_matches(
        "[n] -> { S[i] : 0 <= i <= n and (i <= -1 or i >= 2 * n + 1 or i = 3) }",
        1,
    );
}

/// Loops that run exactly once print their value, as isl does: CLooG's basic-bounds-5
/// (`S1(1, floord(M + 1, 2))`, no loop), nul_basic1 (a time dimension `2o = i` of a
/// schedule relation: one loop over o, the inner loop from c1 to c1 inlined) and tiling.
#[test]
fn single_iterations_print_their_value() {
    has_loops_and_matches("[M] -> { S1[i, j] : i = 1 and M <= 2j <= 1 + M }", 0);
    has_loops_and_matches(
        "[M] -> { S1[i, j] : 2j = i and 0 <= i <= M }\n[M] -> { S1[a, b] -> [a, o] : 2o = a }",
        1,
    );
    // CLooG's tiling: of `ii >= c0`/`ii <= c0` and `10ii >= i - 9`/`10ii <= i`, which
    // imply each other under the outer loops, the simpler stay: ii is c0, no loop.
    has_loops_and_matches(
        "[n] -> { S1[ii, i] : 10ii <= i <= 9 + 10ii and 0 <= i <= n }\n[n] -> { : n >= 0 }\n\
         [n] -> { S1[a, b] -> [a, b] }",
        2,
    );
}

/// `src`'s code has `loops` loops and runs the instances the problem's own brute force
/// finds (witnesses and times searched) at degenerate parameter values in its context.
fn has_loops_and_matches(src: &str, loops: usize) {
    let g = generate_text(src);
    let shape = codegen::ast::shape(&g.nodes);
    assert_eq!(shape.loops, loops, "{src}\n{}", code(&g));
    let problem = parse_problem(src).unwrap();
    for params in degenerate(g.nparams) {
        let point: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
        if !problem.context.eval_int(&point) {
            continue;
        }
        let got = interpreted(&g, &params);
        let bx = vec![(-200, 330); problem.depth()];
        let expected = codegen::oracle::brute_force_problem(&problem, &params, &bx, 400).unwrap();
        assert_eq!(got, expected, "{src} at {params:?}\n{}", code(&g));
    }
}
