//! Every shipped example, generated, compiled with the system C compiler, run for several
//! parameter values (degenerate ones included) and compared with brute force.

use cad::LiftStats;
use codegen::input::parse_problem;
use codegen::verify::{box_around, brute_force, compile, first_difference};
use codegen::{generate, GenOptions};
use std::path::PathBuf;

fn examples() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = Vec::new();
    for dir in ["seed", "domains"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "pset") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

/// Parameter values to try: small, degenerate and negative ones.
fn parameter_sets(nparams: usize) -> Vec<Vec<i64>> {
    let values: &[i64] = match nparams {
        0 => return vec![vec![]],
        1 => &[-2, -1, 0, 1, 2, 3, 5, 8],
        2 => &[-1, 0, 1, 3, 6],
        _ => &[0, 1, 4],
    };
    let mut sets = vec![vec![]];
    for _ in 0..nparams {
        sets = sets
            .into_iter()
            .flat_map(|s: Vec<i64>| {
                values.iter().map(move |&v| {
                    let mut t = s.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    sets
}

#[test]
fn examples_match_brute_force() {
    let files = examples();
    assert!(files.len() >= 5, "examples found: {files:?}");
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let expect_error = src.contains("# expect: error");
        let problem = parse_problem(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let result = generate(&problem, &GenOptions::default(), &LiftStats::default());
        if expect_error {
            assert!(result.is_err(), "{}: expected an error", path.display());
            continue;
        }
        let g = result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let prog = compile(&g).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for params in parameter_sets(g.nparams) {
            let got = prog.run(&params).unwrap();
            let bx = box_around(&got, &g, 4);
            let expected = brute_force(&g, &params, &bx).unwrap();
            if let Some(d) = first_difference(&expected, &got, &g) {
                panic!("{} with parameters {params:?}: {d}", path.display());
            }
        }
    }
}
