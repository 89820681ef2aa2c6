//! `polyscan plot`: the SVG parses as XML, holds one marker per statement instance of the
//! plotted plane (counted against a brute-force scan of the formulas with exact
//! arithmetic) and one outline per non-empty tile (tiles from `tiling::tile_key`); PNG
//! output is a PNG; bad requests exit with code 2 and a message, never a panic. The
//! geometry (traced curves, clipping, CAD walls and sections) is checked on its own.

use codegen::input::{parse_problem, Problem};
use polys::Int;
use polyscan_plot::draw::{hex, statement_colour, STATEMENT_COLOURS, TILE_COLOUR};
use std::path::{Path, PathBuf};
use std::process::Command;
use tiling::{tile_key, TileOrder, TileSpec};

fn polyscan(args: &[&str]) -> (i32, String, String) {
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

fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path)
}

fn problem(path: &str) -> Problem {
    let src = std::fs::read_to_string(example(path)).expect("example exists");
    parse_problem(&src).expect("example parses")
}

/// Statement instances `(stmt, point)` of the problem in a box (one range per iterator),
/// with the iterators fixed by `slice` (position, value), by evaluating the formulas.
fn brute_force(
    p: &Problem,
    params: &[i64],
    bx: &[(i64, i64)],
    slice: &[(usize, i64)],
) -> Vec<(usize, Vec<i64>)> {
    let mut out = Vec::new();
    let mut point: Vec<i64> = bx.iter().map(|r| r.0).collect();
    loop {
        if slice.iter().all(|&(k, v)| point[k] == v) {
            let full: Vec<Int> = params.iter().chain(&point).map(|&v| Int::from(v)).collect();
            if p.context.eval_int(&full) {
                for (s, st) in p.statements.iter().enumerate() {
                    if st.domain.eval_int(&full) {
                        out.push((s, point.clone()));
                    }
                }
            }
        }
        let mut k = bx.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            if point[k] < bx[k].1 {
                point[k] += 1;
                break;
            }
            point[k] = bx[k].0;
        }
    }
}

/// Runs `plot` to an SVG file and parses it.
fn plot_svg(args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = dir.path().join("plot.svg");
    let out_s = out.display().to_string();
    let mut all = vec!["plot"];
    all.extend_from_slice(args);
    all.extend(["-o", &out_s]);
    let (code, _, err) = polyscan(&all);
    assert_eq!(code, 0, "plot {args:?} failed: {err}");
    std::fs::read_to_string(&out).expect("the SVG was written")
}

/// Point markers per statement and tile outlines in an SVG.
fn count(svg: &str, statements: usize) -> (Vec<usize>, usize) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut markers = vec![0; statements];
    let mut tiles = 0;
    let tile = hex(TILE_COLOUR);
    for n in doc.descendants().filter(|n| n.is_element()) {
        let attr = |a: &str| n.attribute(a).unwrap_or("").to_ascii_uppercase();
        match n.tag_name().name() {
            "circle" => {
                if let Some(k) = (0..statements).find(|&k| attr("fill") == hex(statement_colour(k)))
                {
                    markers[k] += 1;
                }
            }
            "polyline" | "polygon" if attr("stroke") == tile => tiles += 1,
            _ => {}
        }
    }
    (markers, tiles)
}

fn per_statement(points: &[(usize, Vec<i64>)], statements: usize) -> Vec<usize> {
    (0..statements)
        .map(|k| points.iter().filter(|(s, _)| *s == k).count())
        .collect()
}

#[test]
fn seed_domain_has_one_marker_per_point() {
    let p = problem("seed/nonconvex2.pset");
    let expected = brute_force(&p, &[], &[(-5, 20), (-5, 20)], &[]);
    let svg = plot_svg(&[example("seed/nonconvex2.pset")
        .to_str()
        .expect("utf-8 path")]);
    let (markers, tiles) = count(&svg, 1);
    assert_eq!(markers, per_statement(&expected, 1));
    assert_eq!(markers[0], 50);
    assert_eq!(tiles, 0);
    assert!(svg.contains("nonconvex2.pset"), "the title names the file");
}

#[test]
fn two_statements_are_counted_apart() {
    let p = problem("domains/two-statements-quadratic.pset");
    let n = p.statements.len();
    assert!((2..=STATEMENT_COLOURS.len()).contains(&n));
    for nv in [10, 3] {
        let expected = brute_force(&p, &[nv], &[(-6, 10), (-6, 10)], &[]);
        let params = format!("n={nv}");
        let path = example("domains/two-statements-quadratic.pset");
        let svg = plot_svg(&[path.to_str().expect("utf-8 path"), "--params", &params]);
        let (markers, _) = count(&svg, n);
        assert_eq!(markers, per_statement(&expected, n), "{params}");
        assert!(markers.iter().all(|&m| m > 0), "{params}: {markers:?}");
    }
}

#[test]
fn slice_of_a_ball() {
    let p = problem("seed/sphere.pset");
    for z in [0, 1, 2] {
        let expected = brute_force(&p, &[], &[(-4, 4), (-4, 4), (-4, 4)], &[(2, z)]);
        let slice = format!("z={z}");
        let svg = plot_svg(&[
            example("seed/sphere.pset").to_str().expect("utf-8 path"),
            "--slice",
            &slice,
        ]);
        let (markers, _) = count(&svg, 1);
        assert_eq!(markers, per_statement(&expected, 1), "slice {slice}");
    }
}

#[test]
fn tiled_domain_has_one_outline_per_tile() {
    let p = problem("tiling/tri-invpar.pset");
    let spec = TileSpec::parse(Some("[[1,-1],[0,1]]"), "w,h").expect("tile spec");
    for (pv, w, h) in [(12, 4, 3), (7, 2, 5)] {
        let expected = brute_force(&p, &[pv], &[(-3, 40), (-3, 40)], &[]);
        let mut tiles: Vec<Vec<Int>> = Vec::new();
        for (_, x) in &expected {
            let x: Vec<Int> = x.iter().map(|&v| Int::from(v)).collect();
            let key = tile_key(&spec, &[w, h], &x, TileOrder::TilesOutside);
            if !tiles.contains(&key[..2].to_vec()) {
                tiles.push(key[..2].to_vec());
            }
        }
        let params = format!("p={pv},w={w},h={h}");
        let svg = plot_svg(&[
            example("tiling/tri-invpar.pset")
                .to_str()
                .expect("utf-8 path"),
            "--tile-shape",
            "[[1,-1],[0,1]]",
            "--tile-sizes",
            "w,h",
            "--params",
            &params,
        ]);
        let (markers, outlines) = count(&svg, 1);
        assert_eq!(markers, per_statement(&expected, 1), "{params}");
        assert_eq!(outlines, tiles.len(), "{params}");
        assert!(outlines > 3, "{params}: several tiles");
    }
}

#[test]
fn png_output_is_a_png() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = dir.path().join("plot.png");
    let path = example("seed/nonconvex2.pset");
    let (code, _, err) = polyscan(&[
        "plot",
        path.to_str().expect("utf-8 path"),
        "--png",
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).expect("the PNG was written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "PNG signature");
}

#[test]
fn bad_requests_exit_with_code_2() {
    let sphere = example("seed/sphere.pset");
    let tri = example("tiling/tri-invpar.pset");
    let (sphere, tri) = (
        sphere.to_str().expect("utf-8 path"),
        tri.to_str().expect("utf-8 path"),
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["plot", sphere], "--slice"),
        (vec!["plot", sphere, "--slice", "q=1"], "not an iterator"),
        (vec!["plot", sphere, "--slice", "x=0,y=0"], "2-D"),
        (vec!["plot", tri], "--params"),
        (vec!["plot", tri, "--params", "q=3"], "not a parameter"),
        (vec!["plot", tri, "--params", "p=100000"], "too large"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = polyscan(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed no picture");
        assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    }
}

#[test]
fn geometry_traces_curves_and_clips() {
    use polyscan_plot::geometry::{clip_window, zero_set};
    use polyscan_plot::Window;
    let w = Window {
        x0: -3.0,
        x1: 3.0,
        y0: -3.0,
        y1: 3.0,
    };
    let lines = zero_set(&|x, y| x * x + y * y - 4.0, &w, 120, 120);
    assert_eq!(lines.len(), 1, "one closed curve");
    let circle = &lines[0];
    assert!(circle.len() > 100);
    assert_eq!(circle.first(), circle.last(), "closed");
    for &(x, y) in circle {
        assert!((x.hypot(y) - 2.0).abs() < 0.01, "({x}, {y}) off the circle");
    }
    let unit = Window {
        x0: 0.0,
        x1: 1.0,
        y0: 0.0,
        y1: 1.0,
    };
    let tri = clip_window(&unit, &[(1.0, 1.0, -1.0)]).expect("a triangle is left");
    assert_eq!(tri.len(), 4, "three corners, closed: {tri:?}");
    assert!(clip_window(&unit, &[(1.0, 1.0, -3.0)]).is_none());
}

#[test]
fn cad_lines_follow_the_decomposition() {
    use codegen::{generate, GenOptions};
    use polyscan_plot::geometry::cad_lines;
    use polyscan_plot::Window;
    let p = problem("seed/nonconvex2.pset");
    let stats = cad::LiftStats::default();
    let cad = GenOptions {
        linear: false,
        ..GenOptions::default()
    };
    let g = generate(&p, &cad, &stats).expect("generates");
    let cad = g.cad.expect("a CAD behind the code");
    let w = Window {
        x0: 0.0,
        x1: 8.0,
        y0: 0.0,
        y1: 10.0,
    };
    let lines = cad_lines(&cad, &[], &w, 40, &stats).expect("lines");
    // The x-level sections: x = 1, 4, 7 and 37/3 (the parabola meets y = 9).
    let mut walls = lines.walls.clone();
    walls.sort_by(f64::total_cmp);
    assert_eq!(walls.len(), 4, "{walls:?}");
    for (got, want) in walls.iter().zip([1.0, 4.0, 7.0, 37.0 / 3.0]) {
        assert!((got - want).abs() < 1e-9, "{walls:?}");
    }
    assert!(!lines.sections.is_empty());
    for &(x, y) in lines.sections.iter().flatten().chain(&lines.points) {
        let on_curve = [y - 1.0, y - 9.0, y * y - 8.0 * y - 3.0 * x + 28.0]
            .iter()
            .any(|v| v.abs() < 1e-6);
        assert!(on_curve, "({x}, {y}) is on no basis polynomial");
    }
}

/// Quantified variables are refused with exit 2 and a message, not drawn wrongly (or a
/// panic, as before the refusal).
#[test]
fn quantified_domains_are_refused() {
    let file = example("presburger/floor-bound.pset");
    let (code, out, err) = polyscan(&["plot", file.to_str().unwrap(), "--params", "n=3"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains(polyscan_plot::QUANTIFIED_NOT_DRAWN), "{err}");
}
