//! Every shipped example, generated, compiled with the system C compiler, run for several
//! parameter values (degenerate ones included) and compared with brute force.

mod grid;

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
    grid::cartesian(values, nparams)
}

#[test]
fn examples_match_brute_force() {
    let files = examples();
    assert!(files.len() >= 5, "examples found: {files:?}");
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let expect_error = src.contains("# expect: error");
        let problem = parse_problem(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The CAD, and what `polyscan gen` does by default (the linear scanner for
        // polyhedra).
        for linear in [false, true] {
            let opts = GenOptions {
                linear,
                ..GenOptions::default()
            };
            let result = generate(&problem, &opts, &LiftStats::default());
            if expect_error {
                assert!(result.is_err(), "{}: expected an error", path.display());
                continue;
            }
            let g = result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if linear && g.cad.is_some() {
                continue; // same code as the first round
            }
            let prog = compile(&g).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for params in parameter_sets(g.nparams) {
                // Outside the context the code promises nothing (it assumes the context).
                let point: Vec<polys::Int> = params.iter().map(|&v| polys::Int::from(v)).collect();
                if !problem.context.eval_int(&point) {
                    continue;
                }
                let got = prog.run(&params).unwrap();
                let bx = box_around(&got, &g, 4);
                let expected = brute_force(&g, &params, &bx).unwrap();
                if let Some(d) = first_difference(&expected, &got, &g) {
                    panic!(
                        "{} (linear: {linear}) with parameters {params:?}: {d}",
                        path.display()
                    );
                }
            }
        }
    }
}

/// The Rust emission runs the same instances as the C emission (seed examples, and the
/// Presburger ones for strided loops, several parameter values), compiled with the rustc
/// that builds this crate.
#[test]
fn rust_emission_matches_c() {
    use codegen::emit_rust::{closure_name, function};
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<PathBuf> = ["seed", "presburger"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pset"))
        .collect();
    files.sort();
    for path in files {
        let problem = parse_problem(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let g = generate(&problem, &GenOptions::default(), &LiftStats::default()).unwrap();
        let emitter = g.emitter();
        let mut src = function(&emitter, &g.nodes).unwrap();
        src.push_str("\nfn main() {\n    let a: Vec<i64> = std::env::args().skip(1).map(|s| s.parse().unwrap()).collect();\n");
        let mut call_args: Vec<String> = (0..g.nparams).map(|i| format!("a[{i}]")).collect();
        for (k, (name, arity)) in g.statements.iter().enumerate() {
            let ps: Vec<String> = (0..*arity).map(|i| format!("x{i}: i64")).collect();
            let fmt = vec!["{}"; *arity].join(" ");
            let xs: Vec<String> = (0..*arity).map(|i| format!("x{i}")).collect();
            src.push_str(&format!(
                "    let mut {c} = |{}| println!(\"{k} {fmt}\"{});\n",
                ps.join(", "),
                xs.iter().map(|x| format!(", {x}")).collect::<String>(),
                c = closure_name(name)
            ));
            call_args.push(format!("&mut {}", closure_name(name)));
        }
        src.push_str(&format!("    scan({});\n}}\n", call_args.join(", ")));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("scan.rs");
        std::fs::write(&file, &src).unwrap();
        let exe = dir.path().join("scan");
        let out = std::process::Command::new(&rustc)
            .args(["--edition", "2021", "-O", "-o"])
            .arg(&exe)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}\n{src}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let prog = compile(&g).unwrap();
        for params in parameter_sets(g.nparams).into_iter().take(4) {
            let c = prog.run(&params).unwrap();
            let r = std::process::Command::new(&exe)
                .args(params.iter().map(i64::to_string))
                .output()
                .unwrap();
            let rust: Vec<(usize, Vec<i64>)> = String::from_utf8_lossy(&r.stdout)
                .lines()
                .map(|l| {
                    let v: Vec<i64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
                    (v[0] as usize, v[1..].to_vec())
                })
                .collect();
            assert_eq!(rust, c, "{} with {params:?}", path.display());
        }
    }
}

/// The `--check-overflow` variant of every example runs exactly the instances of the
/// unchecked one at ordinary parameter values (which lie far inside the documented safe
/// range, so no check fires), and that range is computed for every example.
#[test]
fn checked_variant_matches_unchecked() {
    use codegen::overflow::{safe_parameter_bound, SafeRange};
    use codegen::verify::compile_with;
    for path in examples() {
        let src = std::fs::read_to_string(&path).unwrap();
        if src.contains("# expect: error") {
            continue;
        }
        let problem = parse_problem(&src).unwrap();
        let g = generate(&problem, &GenOptions::default(), &LiftStats::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let range = safe_parameter_bound(&g);
        eprintln!("{}: {range:?}", path.display());
        if let SafeRange::Bound { bound, .. } = range {
            assert!(bound >= 8, "{}: {range:?}", path.display());
        }
        let plain = compile(&g).unwrap();
        let checked = compile_with(&g, true).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for params in parameter_sets(g.nparams).into_iter().step_by(3) {
            let want = plain.run(&params).unwrap();
            let got = checked
                .run(&params)
                .unwrap_or_else(|e| panic!("{} with {params:?}: {e}", path.display()));
            assert_eq!(got, want, "{} with {params:?}", path.display());
        }
    }
}
