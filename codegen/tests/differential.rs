//! Differential testing of the whole pipeline: random bounded domains (1 to 3 statements,
//! 2 to 4 iterators, 0 to 2 parameters, polynomial constraints of total degree up to 4
//! mixed with affine ones, equalities, `!=`, `or`, `not`) are written as input text,
//! generated, compiled with the system C compiler (many domains per C program, to keep
//! compiler time low) and run for random parameter values; every instance sequence must
//! equal the brute-force enumeration of an independent evaluation of the same formulas.
//!
//! - `cargo test -p codegen --test differential` runs 300 domains (seeds 0..300).
//! - `POLYSCAN_DIFF_COUNT=10000` runs that many instead; `POLYSCAN_DIFF_START` shifts the
//!   first seed.
//! - `POLYSCAN_DIFF_SEED=1234` replays one domain and prints its text and code.
//! - Domains of the harder kind (`common::hard`: degree-3 terms mixing parameters and
//!   iterators, a constant box, two statements): 40 per run (`POLYSCAN_HARD_COUNT`), 1,000
//!   in the long run; their seeds carry `common::HARD_BIT` and replay the same way.
//! - `POLYSCAN_HARD_DIR=DIR` makes `write_hard_domains` write hard domains 0..200
//!   (`POLYSCAN_HARD_COUNT`) as input files with their parameter values, for
//!   `benches/hard_domains.sh`.
//!
//! Even seeds generate with the linear scanner where it applies (the CLI's default engine),
//! odd seeds always with the CAD. Each domain is generated in a child process (this test
//! binary again) under a cell limit, a deadline and a memory limit, and killed after
//! twice the deadline, because the projection checks no deadline. Unsupported roots of
//! degree >= 3 and resource limits are allowed outcomes; they are counted and printed.
//! The regressions found this way live in `tests/regressions/` (`# params:` lines add
//! parameter values; `# ignore:` skips a known bug unless `POLYSCAN_REGRESSIONS_ALL` is
//! set).

mod common;
mod grid;

use common::{
    c_compiler, domain_of, equation_domain, first_difference, hard_domain, random_domain,
    run_domains, Domain, HARD_BIT,
};
use std::path::PathBuf;
use std::time::Instant;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().min(4))
}

/// The child mode of [`common::generate_in_child`]: does nothing unless the parent set
/// the child's environment variables.
#[test]
fn child_generate() {
    common::child_main();
}

#[test]
fn random_domains_match_brute_force() {
    let Some(cc) = c_compiler() else {
        eprintln!("no C compiler found (tried $CC, cc, gcc): skipping");
        return;
    };
    let seeds: Vec<u64> = match env_u64("POLYSCAN_DIFF_SEED") {
        Some(s) => vec![s],
        None => {
            let start = env_u64("POLYSCAN_DIFF_START").unwrap_or(0);
            let count = env_u64("POLYSCAN_DIFF_COUNT").unwrap_or(300);
            (start..start + count).collect()
        }
    };
    let t0 = Instant::now();
    let domains: Vec<Domain> = seeds.iter().map(|&s| domain_of(s)).collect();
    if seeds.len() == 1 {
        print_replay(&domains[0]);
    }
    let report = run_domains(&domains, &cc, threads(), 60);
    assert_passed(&report, "", t0);
}

/// Prints every failure with its replay line and the summary (prefixed `what`), and fails
/// if any domain failed.
fn assert_passed(report: &common::Report, what: &str, t0: Instant) {
    for (seed, text, msg) in &report.failures {
        eprintln!("FAILED seed {seed} (replay: POLYSCAN_DIFF_SEED={seed} cargo test -p codegen --test differential -- --nocapture)\n{text}{msg}\n");
    }
    eprintln!("{what}{} in {:.1?}", report.summary(), t0.elapsed());
    assert!(
        report.failures.is_empty(),
        "{} of {} {what}domains failed (seeds {:?})",
        report.failures.len(),
        report.total(),
        report.failures.iter().map(|f| f.0).collect::<Vec<_>>()
    );
}

/// Domains of the harder kind (`POLYSCAN_HARD_COUNT`, default 40), against brute force
/// like the ordinary ones; resource limits are allowed outcomes and counted.
#[test]
fn hard_domains_match_brute_force() {
    let Some(cc) = c_compiler() else {
        eprintln!("no C compiler found (tried $CC, cc, gcc): skipping");
        return;
    };
    let count = env_u64("POLYSCAN_HARD_COUNT").unwrap_or(40);
    let t0 = Instant::now();
    let domains: Vec<Domain> = (0..count).map(hard_domain).collect();
    let report = run_domains(&domains, &cc, threads(), 60);
    assert_passed(&report, "hard ", t0);
}

/// Domains with an equation fixing the innermost iterator (`POLYSCAN_EQ_COUNT`, default
/// 60), generated with the CAD, whose last level is projected against the equation only
/// (`cad::equational`), against brute force.
#[test]
fn equation_domains_match_brute_force() {
    let Some(cc) = c_compiler() else {
        eprintln!("no C compiler found (tried $CC, cc, gcc): skipping");
        return;
    };
    let count = env_u64("POLYSCAN_EQ_COUNT").unwrap_or(60);
    let t0 = Instant::now();
    let domains: Vec<Domain> = (0..count).map(equation_domain).collect();
    let report = run_domains(&domains, &cc, threads(), 60);
    assert_passed(&report, "equation ", t0);
    assert!(
        report.pass * 2 >= report.total(),
        "fewer than half of the equation domains generated: {}",
        report.summary()
    );
}

/// The benchmark's input: with `POLYSCAN_HARD_DIR` set, writes hard domains
/// `0..POLYSCAN_HARD_COUNT` (default 200) as `hard-NNN.pset`, each with a `# params:` line
/// of `NAME=VALUE,...` sets separated by `;` (the values the differential run uses).
/// Without the variable it does nothing.
#[test]
fn write_hard_domains() {
    let Ok(dir) = std::env::var("POLYSCAN_HARD_DIR") else {
        return;
    };
    let count = env_u64("POLYSCAN_HARD_COUNT").unwrap_or(200);
    std::fs::create_dir_all(&dir).expect("POLYSCAN_HARD_DIR can be created");
    for seed in 0..count {
        let d = hard_domain(seed);
        assert_eq!(d.seed, seed | HARD_BIT);
        let sets: Vec<String> = d
            .param_sets
            .iter()
            .map(|vals| {
                d.params
                    .iter()
                    .zip(vals)
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        let text = format!("{}# params: {}\n", d.text, sets.join(";"));
        let path = PathBuf::from(&dir).join(format!("hard-{seed:03}.pset"));
        std::fs::write(&path, text).expect("POLYSCAN_HARD_DIR is writable");
    }
}

/// The long mode: 10,000 domains and 1,000 of the harder kind (`cargo test -p codegen
/// --test differential -- --ignored`).
#[test]
#[ignore = "long: 10,000 random domains"]
fn ten_thousand_random_domains() {
    let Some(cc) = c_compiler() else {
        eprintln!("no C compiler found: skipping");
        return;
    };
    let start = env_u64("POLYSCAN_DIFF_START").unwrap_or(1_000_000);
    let count = env_u64("POLYSCAN_DIFF_COUNT").unwrap_or(10_000);
    let t0 = Instant::now();
    let mut total = common::Report::default();
    // In slices, so progress shows and memory stays flat; and a tenth as many of the
    // harder kind.
    let hard = count / 10;
    type Slices = (&'static str, u64, u64, fn(u64) -> Domain);
    let runs: [Slices; 2] = [
        ("seeds", start, start + count, random_domain),
        ("hard seeds", 0, hard, hard_domain),
    ];
    for (label, first, last, make) in runs {
        let mut s = first;
        while s < last {
            let end = (s + 500).min(last);
            let domains: Vec<Domain> = (s..end).map(make).collect();
            let r = run_domains(&domains, &cc, threads(), 60);
            for (seed, text, msg) in &r.failures {
                eprintln!("FAILED seed {seed}\n{text}{msg}\n");
            }
            total.pass += r.pass;
            total.degree += r.degree;
            total.limit += r.limit;
            total.runs += r.runs;
            total.failures.extend(r.failures);
            eprintln!(
                "{label} {s}..{end}: {} ({:.1?})",
                total.summary(),
                t0.elapsed()
            );
            s = end;
        }
    }
    assert!(
        total.failures.is_empty(),
        "failed seeds {:?}",
        total.failures.iter().map(|f| f.0).collect::<Vec<_>>()
    );
}

/// One domain in detail: its text, the generated code and the brute-force count.
fn print_replay(d: &Domain) {
    println!("seed {}:\n{}", d.seed, d.text);
    println!("parameter sets: {:?}", d.param_sets);
    println!(
        "engine: {}",
        if d.linear {
            "linear where it applies"
        } else {
            "CAD"
        }
    );
    // In a child process, like the run itself: a projection may not finish.
    let scratch = tempfile::tempdir().expect("scratch directory");
    match common::generate_in_child(d, scratch.path()) {
        Ok(c) => println!("{c}"),
        Err(o) => println!("not generated: {o:?}"),
    }
    for p in &d.param_sets {
        println!("{p:?}: {} instances expected", d.brute_force(p).len());
    }
}

/// Every reduced failure in `tests/regressions/*.pset`, generated, compiled, run for a
/// grid of parameter values and compared with brute force over a wide box around the
/// generated instances (the files keep their iterators boxed).
#[test]
fn regressions_match_brute_force() {
    use cad::LiftStats;
    use codegen::input::parse_problem;
    use codegen::verify::{box_around, brute_force, compile};
    use codegen::{generate, GenOptions};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "pset"));
    files.sort();
    if c_compiler().is_none() {
        eprintln!("no C compiler found: skipping");
        return;
    }
    for path in files {
        let src = std::fs::read_to_string(&path).expect("readable regression file");
        // `# ignore: reason` marks a known bug outside codegen (see the file).
        if src.contains("# ignore:") && std::env::var("POLYSCAN_REGRESSIONS_ALL").is_err() {
            eprintln!("{}: skipped (known bug, see the file)", path.display());
            continue;
        }
        let problem = parse_problem(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Both engines where the linear scanner applies (the CLI uses it by default).
        for linear in [false, true] {
            // A limit, so that a regression that makes a file slow fails instead of hanging.
            let opts = GenOptions {
                linear,
                limits: cad::Limits::new(None, Some(60.0)),
                ..GenOptions::default()
            };
            let g = generate(&problem, &opts, &LiftStats::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let prog = compile(&g).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for params in param_grid(&src, g.nparams) {
                let got = prog.run(&params).unwrap();
                let bx = box_around(&got, &g, 8);
                let expected = brute_force(&g, &params, &bx).unwrap();
                let as_vec = |v: &[(usize, Vec<i64>)]| v.to_vec();
                if let Some(d) = first_difference(&as_vec(&expected), &as_vec(&got)) {
                    panic!(
                        "{} with parameters {params:?} (linear: {linear}): {d}",
                        path.display()
                    );
                }
            }
        }
    }
}

/// `# params: 3 1; 0 2` lines of a regression file, or a small grid.
fn param_grid(src: &str, nparams: usize) -> Vec<Vec<i64>> {
    let mut sets: Vec<Vec<i64>> = src
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# params:"))
        .flat_map(|l| l.split(';'))
        .map(|s| {
            s.split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .filter(|v: &Vec<i64>| v.len() == nparams)
        .collect();
    sets.extend(grid::cartesian(&[-2, -1, 0, 1, 2, 3, 5], nparams));
    sets
}
