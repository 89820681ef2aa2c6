//! End-to-end tests of parametric tiling: every example under `examples/tiling/` is
//! generated, compiled, run for many tile sizes and parameter values, and compared with
//! a brute-force scan of the *original* domain ordered by tile and point coordinates
//! computed directly from `K^-1` (`polyscan verify` does that for tiled input). Also the
//! options that change the loop structure, and bad tile specifications.

use std::path::Path;
use std::process::Command;

fn polyscan(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(args)
        .output()
        .expect("the polyscan binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/tiling")
        .join(format!("{name}.pset"))
        .display()
        .to_string()
}

/// The `# tile-shape:` and `# tile-sizes:` header of an example, as CLI flags.
fn tile_flags(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(example(name)).expect("example exists");
    let mut flags = Vec::new();
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("# tile-shape:") {
            flags.extend(["--tile-shape".to_string(), s.trim().to_string()]);
        }
        if let Some(s) = line.strip_prefix("# tile-sizes:") {
            flags.extend(["--tile-sizes".to_string(), s.trim().to_string()]);
        }
    }
    assert!(!flags.is_empty(), "{name} has a tile-sizes header");
    flags
}

/// `--params` for every combination of the given values.
fn grid(names: &[&str], values: &[&[i64]]) -> Vec<String> {
    let mut sets: Vec<Vec<String>> = vec![Vec::new()];
    for (n, vs) in names.iter().zip(values) {
        sets = sets
            .into_iter()
            .flat_map(|s| {
                vs.iter().map(move |v| {
                    let mut s = s.clone();
                    s.push(format!("{n}={v}"));
                    s
                })
            })
            .collect();
    }
    sets.into_iter()
        .flat_map(|s| ["--params".to_string(), s.join(",")])
        .collect()
}

/// Verifies `name` with extra flags for all parameter sets; every set must agree.
fn verify(name: &str, extra: &[&str], params: &[String]) {
    let mut args = vec!["verify".to_string(), example(name)];
    args.extend(tile_flags(name));
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(params.iter().cloned());
    let (code, out, err) = polyscan(&args);
    let sets = params.len() / 2;
    let ok = out.lines().filter(|l| l.contains(": ok")).count();
    assert!(
        code == 0 && ok == sets,
        "{name} {extra:?}: exit {code}, {ok} of {sets} sets agree\n{out}\n{err}"
    );
}

const SIZES: &[i64] = &[1, 2, 3, 4, 5, 6];
const P: &[i64] = &[0, 1, 5, 12];

#[test]
fn seed_rectangle_cases_for_all_sizes() {
    for name in ["rect-rect", "rect-par", "rect-invpar"] {
        verify(name, &[], &grid(&["w", "h"], &[SIZES, SIZES]));
    }
}

#[test]
fn seed_triangle_cases_for_all_sizes_and_p() {
    for name in ["tri-rect", "tri-invpar"] {
        verify(name, &[], &grid(&["p", "w", "h"], &[P, SIZES, SIZES]));
    }
}

#[test]
fn without_separation_and_interleaved() {
    let params = grid(&["p", "w", "h"], &[&[0, 5, 12], &[1, 2, 5], &[1, 3, 6]]);
    for name in ["tri-rect", "tri-invpar"] {
        verify(name, &["--no-separate"], &params);
        verify(name, &["--tile-order", "interleaved"], &params);
    }
    verify(
        "rect-par",
        &["--tile-order", "interleaved"],
        &grid(&["w", "h"], &[SIZES, &[1, 4, 6]]),
    );
}

#[test]
fn three_dimensional_tetrahedron() {
    verify(
        "tetra-3d",
        &[],
        &grid(
            &["n", "a", "b", "c"],
            &[&[0, 1, 2, 5, 8], &[1, 2, 3], &[1, 2, 4], &[1, 3]],
        ),
    );
}

#[test]
fn disc_is_clamped_to_tiles() {
    verify(
        "disc",
        &[],
        &grid(&["r", "w", "h"], &[&[-2, 0, 1, 3, 6], SIZES, &[1, 2, 5]]),
    );
}

#[test]
fn fixed_sizes_and_parallelogram_disc() {
    let mut args = vec!["verify".to_string(), example("tri-invpar")];
    args.extend(
        ["--tile-shape", "[[1,-1],[0,1]]", "--tile-sizes", "4,3"]
            .iter()
            .map(|s| s.to_string()),
    );
    args.extend(grid(&["p"], &[&[0, 1, 5, 12, 20]]));
    let (code, out, err) = polyscan(&args);
    assert_eq!(code, 0, "{out}{err}");
    // A non-rectangular shape on a polynomial domain goes through clamping too.
    let mut args = vec!["verify".to_string(), example("disc")];
    args.extend(
        ["--tile-shape", "[[1,1],[0,1]]", "--tile-sizes", "w,h"]
            .iter()
            .map(|s| s.to_string()),
    );
    args.extend(grid(&["r", "w", "h"], &[&[0, 2, 5], &[1, 3], &[1, 2, 4]]));
    let (code, out, err) = polyscan(&args);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn full_tiles_have_constant_shaped_point_loops() {
    let mut args = vec!["gen".to_string(), example("rect-rect")];
    args.extend(tile_flags("rect-rect"));
    let (code, out, err) = polyscan(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("for (int64_t o1 = 0; o1 <= w - 1; o1 += 1)")
            && out.contains("for (int64_t o2 = 0; o2 <= h - 1; o2 += 1)"),
        "{out}"
    );
    args.push("--no-separate".into());
    let (_, plain, _) = polyscan(&args);
    assert_eq!(plain.matches("for (").count(), 4, "{plain}");
}

#[test]
fn tile_prints_a_problem_that_parses() {
    let mut args = vec!["tile".to_string(), example("tri-invpar")];
    args.extend(tile_flags("tri-invpar"));
    let (code, out, err) = polyscan(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("S[t1, t2, o1, o2]"), "{out}");
    assert!(out.contains("# S receives"), "{out}");
    let p = codegen::input::parse_problem(&out).expect("the tiled problem parses");
    assert_eq!(p.params, ["p", "w", "h"]);
}

#[test]
fn bad_tile_specifications_are_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--tile-sizes", "w"], "2 iterators"),
        (
            &["--tile-sizes", "w,h", "--tile-shape", "[[1,1],[1,1]]"],
            "singular",
        ),
        (
            &["--tile-sizes", "w,h", "--tile-shape", "[[1/2,0],[0,1]]"],
            "integer",
        ),
        (&["--tile-sizes", "w,0"], "at least 1"),
        (&["--tile-sizes", "p,h"], "already the name"),
        (
            &[
                "--tile-sizes",
                "w,h",
                "--tile-shape",
                "[[1,0,0],[0,1,0],[0,0,1]]",
            ],
            "3x3",
        ),
        (&["--tile-sizes", "w,w"], "twice"),
    ];
    for (flags, expected) in cases {
        let mut args = vec!["gen".to_string(), example("tri-rect")];
        args.extend(flags.iter().map(|s| s.to_string()));
        let (code, _, err) = polyscan(&args);
        assert_eq!(code, 2, "{flags:?}: {err}");
        assert!(err.contains(expected), "{flags:?}: {err}");
    }
}
