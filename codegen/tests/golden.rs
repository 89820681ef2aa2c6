//! Golden files: the generated C of the seed examples, so that every change in output is
//! reviewed. After an intended change, regenerate with
//! `POLYSCAN_BLESS=1 cargo test -p codegen --test golden` and review the diff.

use cad::LiftStats;
use codegen::input::parse_problem;
use codegen::{generate, GenOptions, Generated};
use std::path::PathBuf;

/// The C fragment `polyscan gen` prints for `g`.
fn fragment(g: &Generated) -> String {
    g.emitter().fragment(&g.nodes).unwrap()
}

#[test]
fn seed_examples_match_golden_files() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let bless = std::env::var_os("POLYSCAN_BLESS").is_some();
    let mut checked = 0;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join("examples/seed"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pset"))
        .collect();
    entries.sort();
    let mut stale = Vec::new();
    for path in entries {
        let src = std::fs::read_to_string(&path).unwrap();
        let problem = parse_problem(&src).unwrap();
        // The CAD's cells: what these files are for reviewing.
        let cad = GenOptions {
            linear: false,
            ..GenOptions::default()
        };
        let g = generate(&problem, &cad, &LiftStats::default()).unwrap();
        let text = fragment(&g);
        let golden = root
            .join("tests/golden")
            .join(path.file_stem().unwrap())
            .with_extension("c");
        if bless {
            std::fs::write(&golden, &text).unwrap();
        } else {
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            if want != text {
                stale.push(format!("{}:\n{text}", golden.display()));
            }
        }
        checked += 1;
    }
    assert!(checked >= 5);
    assert!(
        stale.is_empty(),
        "generated code changed (bless and review):\n{}",
        stale.join("\n")
    );
}

/// Golden files for affine examples as `polyscan gen` prints them (`linear: true`: the
/// union scanner), so that changes in the scanner's output are reviewed too.
#[test]
fn affine_examples_match_golden_files() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let bless = std::env::var_os("POLYSCAN_BLESS").is_some();
    let mut stale = Vec::new();
    for name in [
        "seed/two-statements",
        "domains/strict-ne",
        "domains/imperfect-schedule",
        "domains/shifted-fusion",
        "domains/three-ranges",
        "domains/ne-union",
    ] {
        let src =
            std::fs::read_to_string(root.join("examples").join(format!("{name}.pset"))).unwrap();
        let problem = parse_problem(&src).unwrap();
        let opts = GenOptions {
            linear: true,
            ..GenOptions::default()
        };
        let g = generate(&problem, &opts, &LiftStats::default()).unwrap();
        // The union scanner produced it (the CAD leaves a decomposition behind).
        assert!(g.cad.is_none(), "{name} went through the CAD");
        let text = fragment(&g);
        let stem = name.rsplit('/').next().unwrap();
        let golden = root.join("tests/golden/affine").join(format!("{stem}.c"));
        if bless {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &text).unwrap();
        } else {
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            if want != text {
                stale.push(format!("{}:\n{text}", golden.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated code changed (bless and review):\n{}",
        stale.join("\n")
    );
}
