//! `polyscan compare` against isl: every affine example under examples/ must run the same
//! instance sequence as isl's code for many parameter values, degenerate ones included;
//! polynomial input and a missing isl map to their exit codes; and an ignored test runs
//! isl's own code generation corpus (see scripts/isl-corpus).

use polyscan::cli::compare::isl_diagnostic;
use polyscan::cli::ExitCode;
use polyscan_isl::compare::{
    compare_source, default_params, CompareError, CompareOptions, Outcome,
};
use polyscan_isl::{self as isl, input::from_problem as isl_input, IslError};
use std::path::{Path, PathBuf};
use std::process::Command;

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut out = Vec::new();
    for dir in ["seed", "domains"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pset") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn name(p: &Path) -> String {
    let dir = p.parent().unwrap().file_name().unwrap().to_string_lossy();
    format!("{dir}/{}", p.file_stem().unwrap().to_string_lossy())
}

/// Every combination of the values for up to two parameters, the diagonal beyond.
fn param_grid(nparams: usize) -> Vec<Vec<i64>> {
    let values = [-2, -1, 0, 1, 2, 3, 5, 8];
    match nparams {
        0 => vec![vec![]],
        1 => values.iter().map(|&v| vec![v]).collect(),
        2 => values
            .iter()
            .flat_map(|&a| values.iter().map(move |&b| vec![a, b]))
            .collect(),
        n => default_params(n),
    }
}

fn quick() -> CompareOptions {
    CompareOptions {
        runs: 1,
        max_instances: 200_000,
        ..CompareOptions::default()
    }
}

/// Which examples are affine is decided by the translation; the list pins the decision.
#[test]
fn the_affine_examples_are_the_expected_ones() {
    let mut affine = Vec::new();
    for p in examples() {
        let src = std::fs::read_to_string(&p).unwrap();
        let problem = codegen::input::parse_problem(&src).unwrap();
        match isl_input(&problem) {
            Ok(_) => affine.push(name(&p)),
            // Refused for a polynomial term, naming where it is.
            Err(e) => assert!(!e.place.is_empty(), "{}: {e}", name(&p)),
        }
    }
    assert_eq!(
        affine,
        [
            "domains/banded",
            "domains/context-assumed",
            "domains/equality",
            "domains/imperfect-schedule",
            "domains/ne-union",
            "domains/no-variables",
            "domains/ordered-statements",
            "domains/plane",
            "domains/shifted-fusion",
            "domains/strict-ne",
            "domains/syrk-lower",
            "domains/three-ranges",
            "domains/triangular",
            "domains/two-params",
            "domains/unbounded",
            "seed/two-statements",
        ]
    );
}

#[test]
fn affine_examples_run_the_same_instances_as_isl() {
    if !isl::available() {
        eprintln!("isl not linked: skipped ({})", isl::INSTALL_HINT);
        return;
    }
    let mut compared = 0;
    for p in examples() {
        let src = std::fs::read_to_string(&p).unwrap();
        if src.contains("# expect: error") {
            continue;
        }
        let problem = codegen::input::parse_problem(&src).unwrap();
        if isl_input(&problem).is_err() {
            continue;
        }
        let params = param_grid(problem.params.len());
        let r =
            compare_source(&src, &params, &quick()).unwrap_or_else(|d| panic!("{}: {d}", name(&p)));
        for c in &r.checks {
            assert!(
                matches!(
                    c.outcome,
                    Outcome::Identical {
                        truncated: false,
                        ..
                    } | Outcome::OutsideContext
                ),
                "{} at {}: {:?}\npolyscan:\n{}\nisl:\n{}",
                name(&p),
                c.shown,
                c.outcome,
                r.polyscan.code,
                r.isl.code
            );
        }
        // Something ran: the largest parameter values give instances.
        assert!(
            r.checks.iter().any(
                |c| matches!(c.outcome, Outcome::Identical { instances, .. } if instances > 0)
            ),
            "{}: no instances at all",
            name(&p)
        );
        compared += 1;
    }
    assert_eq!(compared, 15);
}

/// Issue 4: on affine inputs polyscan's code has no more loops and no more ifs than
/// isl's for the same schedule (counted on the C text, as `polyscan compare` does).
#[test]
fn affine_examples_have_no_more_loops_or_ifs_than_isl() {
    if !isl::available() {
        eprintln!("isl not linked: skipped ({})", isl::INSTALL_HINT);
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for name in [
        "domains/strict-ne",
        "seed/two-statements",
        "domains/imperfect-schedule",
        "domains/plane",
        "domains/shifted-fusion",
        "domains/three-ranges",
        "domains/ne-union",
        "domains/triangular",
        "domains/banded",
        "domains/syrk-lower",
    ] {
        let src = std::fs::read_to_string(root.join(format!("{name}.pset"))).unwrap();
        let problem = codegen::input::parse_problem(&src).unwrap();
        let params = vec![default_params(problem.params.len())[0].clone()];
        let r = compare_source(&src, &params, &quick()).unwrap_or_else(|d| panic!("{name}: {d}"));
        let (ours, theirs) = (r.polyscan.size, r.isl.size);
        assert!(
            ours.loops <= theirs.loops && ours.ifs <= theirs.ifs,
            "{name}: polyscan {} loops {} ifs, isl {} loops {} ifs\npolyscan:\n{}\nisl:\n{}",
            ours.loops,
            ours.ifs,
            theirs.loops,
            theirs.ifs,
            r.polyscan.code,
            r.isl.code
        );
    }
}

#[test]
fn unbounded_affine_input_is_refused_by_polyscan() {
    if !isl::available() {
        return;
    }
    let src = "[n] -> { S[i, j] : 0 <= i <= n and j >= i }";
    let e = compare_source(src, &[vec![1]], &quick()).unwrap_err();
    assert!(matches!(e, CompareError::Generation(_)), "{e}");
}

#[test]
fn a_missing_isl_is_exit_code_3_with_the_install_command() {
    let d = isl_diagnostic(&IslError::Missing);
    assert_eq!(d.code, ExitCode::Resource);
    assert!(
        d.to_string()
            .contains("apt-get install -y libisl-dev pkg-config"),
        "{d}"
    );
    if !isl::available() {
        assert_eq!(isl::Isl::new().err(), Some(IslError::Missing));
    }
}

#[test]
fn isl_errors_are_values() {
    let Ok(ctx) = isl::Isl::new() else {
        return;
    };
    let bad = polyscan_isl::IslInput {
        params: vec![],
        statements: vec!["S".into()],
        domain: "{ S[i] : 0 <= i <= 3 and i*i <= 2 }".into(),
        schedule: "{ S[i] -> [i] }".into(),
        context: "{ : }".into(),
    };
    let e = ctx.ast_c(&bad).unwrap_err();
    assert!(matches!(e, IslError::Isl { .. }), "{e}");
    assert!(ctx.union_map_text("{ S[i] -> [i, i").is_err());
    // The context stays usable after errors.
    let ok = polyscan_isl::IslInput {
        domain: "{ S[i] : 0 <= i <= 3 }".into(),
        ..bad
    };
    assert!(ctx.ast_c(&ok).unwrap().contains("S(c0)"));
}

#[test]
fn tiled_isl_schedule_runs_every_point_once() {
    let Ok(ctx) = isl::Isl::new() else {
        return;
    };
    let src = "[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }";
    let problem = codegen::input::parse_problem(src).unwrap();
    let base = isl::input::from_problem(&problem).unwrap();
    for shape in [vec![vec![1, 0], vec![0, 1]], vec![vec![1, -1], vec![0, 1]]] {
        let tiled = isl::tile::tiled_input(&problem, &base, &shape, &[4, 3]).unwrap();
        let code = ctx.ast_c(&tiled).unwrap();
        let stmts = vec![("S".to_string(), 2)];
        let run = |c: &str| {
            let prog = isl::harness::compile(
                "isl",
                &isl::harness::isl_scan_function(c, &base.params),
                &stmts,
                1,
                100_000,
                std::time::Duration::from_secs(30),
            )
            .unwrap();
            prog.run(&[13]).unwrap().instances
        };
        let mut tiled_points = run(&code);
        let plain = run(&ctx.ast_c(&base).unwrap());
        assert_ne!(tiled_points, plain, "tiling changes the order");
        tiled_points.sort();
        assert_eq!(tiled_points, plain, "{code}");
    }
}

fn polyscan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_polyscan"))
}

#[test]
fn cli_exit_codes() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    // Polynomial input: 2, whether or not isl is there (3 when it is not).
    let out = polyscan()
        .args(["compare", "--runs", "1"])
        .arg(ex.join("domains/hyperbolic.pset"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if isl::available() {
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("not affine"), "{err}");
    } else {
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(err.contains(isl::INSTALL_HINT), "{err}");
        return;
    }
    let out = polyscan()
        .args([
            "compare", "--runs", "2", "--params", "n=0", "--params", "n=7",
        ])
        .arg(ex.join("domains/triangular.pset"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("n=0: identical, 0 instances"), "{text}");
    assert!(text.contains("n=7: identical, 28 instances"), "{text}");
    assert!(text.contains("== isl:"), "{text}");
    // isl warns on stderr when a context is freed while objects still reference it.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("not freed"), "{err}");
    let out = polyscan()
        .args(["compare", "--params", "m=3"])
        .arg(ex.join("domains/triangular.pset"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// isl's code generation corpus (test_inputs/codegen of isl's sources, from CLooG and
/// Omega): converts every `.in` and `.st` file it can into a polyscan input file under
/// ISL_CORPUS_OUT; `scripts/isl-corpus` fetches the corpus, runs this test and then
/// `polyscan compare` on every converted file.
#[test]
#[ignore = "needs isl's test_inputs/codegen: run scripts/isl-corpus"]
fn convert_isl_codegen_corpus() {
    let (Some(dir), Some(out)) = (
        std::env::var_os("ISL_CORPUS"),
        std::env::var_os("ISL_CORPUS_OUT"),
    ) else {
        panic!("set ISL_CORPUS (isl's test_inputs/codegen) and ISL_CORPUS_OUT");
    };
    let ctx = isl::Isl::new().expect("isl is linked");
    let (dir, out) = (PathBuf::from(dir), PathBuf::from(out));
    std::fs::create_dir_all(&out).unwrap();
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "in" || x == "st") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut converted, mut failed) = (0, 0);
    let mut reasons = String::new();
    for f in &files {
        let rel = f
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('/', "__");
        match isl::corpus::convert_file(&ctx, f) {
            Ok(text) => match codegen::input::parse_problem(&text) {
                Ok(_) => {
                    let target = out.join(format!("{rel}.pset"));
                    std::fs::write(target, format!("# from isl's {rel}\n{text}")).unwrap();
                    converted += 1;
                }
                Err(e) => {
                    failed += 1;
                    reasons.push_str(&format!("{rel}: polyscan cannot parse: {}\n", e.message));
                }
            },
            Err(e) => {
                failed += 1;
                reasons.push_str(&format!("{rel}: {e}\n"));
            }
        }
    }
    std::fs::write(out.join("not-converted.txt"), &reasons).unwrap();
    println!(
        "{} corpus files: {converted} converted, {failed} not convertible (see not-converted.txt)",
        files.len()
    );
}

/// The five tiled seed cases with fixed sizes 4x3 (and 1x1, 5x2): polyscan's tiled code
/// and isl's code for the schedule that orders points by tile, then point coordinates,
/// run identical instance sequences.
#[test]
fn fixed_size_tiled_seed_cases_match_isl() {
    if !isl::available() {
        eprintln!("isl not linked: skipped ({})", isl::INSTALL_HINT);
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tiling");
    for case in [
        "rect-rect",
        "rect-par",
        "rect-invpar",
        "tri-rect",
        "tri-invpar",
    ] {
        let src = std::fs::read_to_string(dir.join(format!("{case}.pset"))).unwrap();
        let shape = src.lines().find_map(|l| {
            l.strip_prefix("# tile-shape:")
                .map(|s| s.trim().to_string())
        });
        for sizes in ["4,3", "1,1", "5,2"] {
            let opts = CompareOptions {
                tiling: Some(codegen::Tiling {
                    shape: shape.clone(),
                    ..codegen::Tiling::sizes(sizes)
                }),
                ..quick()
            };
            let problem = codegen::input::parse_problem(&src).unwrap();
            let params: Vec<Vec<i64>> = match problem.params.len() {
                0 => vec![vec![]],
                _ => [0, 1, 5, 12, 20].iter().map(|&p| vec![p]).collect(),
            };
            let r = compare_source(&src, &params, &opts)
                .unwrap_or_else(|d| panic!("{case} {sizes}: {d}"));
            for c in &r.checks {
                assert!(
                    matches!(
                        c.outcome,
                        Outcome::Identical {
                            truncated: false,
                            ..
                        }
                    ),
                    "{case} {sizes} {}: {:?}",
                    c.shown,
                    c.outcome
                );
            }
        }
    }
}
