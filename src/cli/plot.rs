//! `polyscan plot`: a picture of a 2-D domain (or a 2-D slice of a deeper one) with its
//! constraint curves, the CAD's cell boundaries, the integer points coloured by statement
//! in the order the generated code visits them, and tile outlines for tiled code.
//!
//! The points and their order are the instances of the generated loops, run by the exact
//! interpreter (`codegen::interp`) for the given parameter values; the picture itself is
//! drawn by `polyscan_plot`.

use super::files::{input_diagnostic, load, write_atomically};
use super::gen::{gen_diagnostic, generate_file, Choices};
use super::gen::{Limits, Outcome};
use super::verify::parse_params;
use super::{Diagnostic, ExitCode};
use cad::formula::{Atom, Formula, Rel};
use cad::Cad;
use clap::Args;
use codegen::input::{parse_context, Problem};
use codegen::interp::{instances, RunError};
use polys::{Coeff, Int, Poly};
use polyscan_plot::draw::render;
use polyscan_plot::geometry::{cad_lines, clip_window, int_f64, zero_set, PlaneFn};
use polyscan_plot::{Curve, Format, Instance, Scene, Window};
use std::io::Write;
use std::path::PathBuf;
use tiling::{tile_key, TileOrder};

/// Instances the interpreter may run (all of the domain, before slicing).
const BUDGET: usize = 2_000_000;
/// Largest side of the plotted box, in integer steps.
const MAX_SIDE: i64 = 200;

/// Draw a 2-D domain: constraint curves, CAD cells, points in execution order, tiles.
#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Input file (see `polyscan gen --help`).
    pub file: PathBuf,
    /// Parameter values (tile sizes named in --tile-sizes included), e.g. `--params r=3`;
    /// may be repeated, the lists are joined.
    #[arg(long = "params", value_name = "NAME=VALUE,...")]
    pub params: Vec<String>,
    /// Fix iterators to draw a 2-D slice of a deeper domain, e.g. `--slice z=0`.
    #[arg(long, value_name = "NAME=VALUE,...")]
    pub slice: Vec<String>,
    /// Write the picture here (atomically) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// PNG instead of SVG.
    #[arg(long)]
    pub png: bool,
    #[command(flatten)]
    pub choices: Choices,
    #[command(flatten)]
    pub limits: Limits,
}

fn bad(m: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ExitCode::BadInput, m)
}

pub fn run(args: PlotArgs) -> Result<(), Diagnostic> {
    let (_, original) = load(&args.file)?;
    if original
        .statements
        .iter()
        .any(|s| !s.existentials.is_empty())
    {
        return Err(bad(polyscan_plot::QUANTIFIED_NOT_DRAWN.to_string()));
    }
    let np = original.params.len();
    let depth = original.depth();
    let file_vars = original.vars();
    let iter_names: Vec<String> = (0..depth).map(|p| file_vars.name(np + p)).collect();
    // Check the plane before generating: a wrong --slice should not wait for a CAD.
    let fixed = parse_slice(&args.slice, &iter_names)?;
    let free: Vec<usize> = (0..depth).filter(|p| fixed[*p].is_none()).collect();
    if free.len() != 2 {
        let iters = format!(
            "{} has {depth} iterator{} ({})",
            args.file.display(),
            if depth == 1 { "" } else { "s" },
            iter_names.join(", ")
        );
        let how = if free.len() > 2 {
            let rest: Vec<String> = free[2..]
                .iter()
                .map(|&p| format!("{}=0", iter_names[p]))
                .collect();
            format!(
                "; fix all but two with --slice, e.g. --slice {}",
                rest.join(",")
            )
        } else if depth >= 2 {
            format!("; --slice leaves {} free", free.len())
        } else {
            String::new()
        };
        return Err(bad(format!("a plot needs a 2-D domain: {iters}{how}")));
    }
    let out = generate_file(&args.file, &args.choices, args.limits)?;
    let g = &out.generated;
    let names: Vec<String> = g.vars.names()[..g.nparams].to_vec();
    let joined = args.params.join(",");
    if g.nparams > 0 && joined.trim().is_empty() {
        return Err(bad(format!(
            "give parameter values with --params ({}=...)",
            names.join("=..., ")
        )));
    }
    let params = parse_params(&joined, &names)?;

    // Axes: the outer of the two free iterators in the generated loops goes on x.
    let loop_index = |p: usize| g.vars.index(&iter_names[p]).filter(|&v| v >= g.nparams);
    let (px, py) = match (loop_index(free[0]), loop_index(free[1])) {
        (Some(a), Some(b)) if b < a => (free[1], free[0]),
        _ => (free[0], free[1]),
    };

    let instances = run_instances(&out, &params, depth, &fixed, px, py)?;
    let window = window_of(&instances)?;

    let fixed_values: Vec<f64> = params[..np]
        .iter()
        .map(|&v| v as f64)
        .chain((0..depth).map(|p| fixed[p].unwrap_or(0) as f64))
        .collect();
    let curves = curves(&original, &fixed_values, np + px, np + py, &window);

    let mut prefix: Vec<Int> = params[..np].iter().map(|&v| Int::from(v)).collect();
    let stats = cad::LiftStats::default();
    let own;
    let cad: &Cad = match &g.cad {
        Some(c) if out.tiled.is_none() && free.len() == depth && c.nvars == g.nparams + 2 => c,
        _ => {
            own = slice_cad(
                &original,
                &args,
                &fixed,
                px,
                py,
                &stats,
                &args.limits.cad_limits(),
            )?;
            prefix.extend((0..depth).filter_map(|p| fixed[p]).map(Int::from));
            &own
        }
    };
    let cad_lines = cad_lines(cad, &prefix, &window, 96, &stats)
        .map_err(|e| gen_diagnostic(&args.file.display().to_string(), e.into()))?;

    let (tiles, tile_label) = match &out.tiled {
        None => (Vec::new(), String::new()),
        Some(t) => {
            let sizes = &params[np..];
            let shown: Vec<String> = size_values(&t.spec, sizes)
                .iter()
                .map(i64::to_string)
                .collect();
            let shape = args
                .choices
                .tiling
                .tile_shape
                .as_deref()
                .unwrap_or("identity");
            (
                tile_outlines(&out, &instances, sizes, &fixed, px, py, &window),
                format!("tiles K={shape}, {}", shown.join("x")),
            )
        }
    };

    let file_name = args.file.file_name().map_or_else(
        || args.file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut title = file_name;
    let shown: Vec<String> = names
        .iter()
        .zip(&params)
        .map(|(n, v)| format!("{n}={v}"))
        .chain((0..depth).filter_map(|p| fixed[p].map(|v| format!("{}={v}", iter_names[p]))))
        .collect();
    if !shown.is_empty() {
        title.push_str(&format!(" ({})", shown.join(", ")));
    }
    let scene = Scene {
        title,
        x_name: iter_names[px].clone(),
        y_name: iter_names[py].clone(),
        window,
        statements: g.statements.iter().map(|(n, _)| n.clone()).collect(),
        curves,
        cad: Some(cad_lines),
        instances: instances.iter().map(|(i, _)| *i).collect(),
        tiles,
        tile_label,
    };
    let format = if args.png { Format::Png } else { Format::Svg };
    let bytes = render(&scene, format).map_err(|e| bad(e.to_string()))?;
    match (&args.output, format) {
        (Some(path), Format::Svg) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("the SVG backend produced text that is not UTF-8"))?;
            write_atomically(path, &text)
        }
        (Some(path), Format::Png) => write_atomically(path, &bytes),
        (None, _) => std::io::stdout()
            .write_all(&bytes)
            .map_err(|e| bad(format!("cannot write to standard output: {e}"))),
    }
}

/// `--slice z=0,w=1` (repeatable) against the iterator names: one value or none per
/// iterator position.
fn parse_slice(texts: &[String], iters: &[String]) -> Result<Vec<Option<i64>>, Diagnostic> {
    let mut fixed = vec![None; iters.len()];
    for text in texts {
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| {
                bad(format!(
                    "--slice {text}: expected NAME=VALUE, found '{part}'"
                ))
            })?;
            let k = iters.iter().position(|n| n == name.trim()).ok_or_else(|| {
                bad(format!(
                    "--slice {text}: '{}' is not an iterator ({})",
                    name.trim(),
                    iters.join(", ")
                ))
            })?;
            let v: i64 = value.trim().parse().map_err(|_| {
                bad(format!(
                    "--slice {text}: '{}' is not a 64-bit integer",
                    value.trim()
                ))
            })?;
            fixed[k] = Some(v);
        }
    }
    Ok(fixed)
}

/// The instances of the generated code in the plotted plane, in execution order, each
/// with its original coordinates (all iterator positions).
fn run_instances(
    out: &Outcome,
    params: &[i64],
    depth: usize,
    fixed: &[Option<i64>],
    px: usize,
    py: usize,
) -> Result<Vec<(Instance, Vec<Int>)>, Diagnostic> {
    let g = &out.generated;
    let values: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
    let all = instances(&g.nodes, &values, g.vars.len(), BUDGET).map_err(|e| match e {
        RunError::Budget => bad(format!(
            "the domain has more than {BUDGET} points for these parameter values: too large to plot; choose smaller values"
        )),
        other => bad(format!("cannot run the generated code: {other:?}")),
    })?;
    let mut kept = Vec::new();
    for (stmt, mut args) in all {
        // Positions a shorter statement lacks are 0, as in the generated code.
        args.resize(depth, Int::from(0));
        let on_plane = fixed
            .iter()
            .zip(&args)
            .all(|(f, a)| f.is_none_or(|v| a.to_i64() == Some(v)));
        if !on_plane {
            continue;
        }
        let coord = |p: usize| {
            args[p]
                .to_i64()
                .filter(|v| v.abs() < 1 << 40)
                .ok_or_else(|| bad("a point's coordinate is too large to plot"))
        };
        let inst = Instance {
            stmt,
            x: coord(px)?,
            y: coord(py)?,
        };
        kept.push((inst, args));
    }
    Ok(kept)
}

/// The bounding box of the points widened by one step on every side (a small box around
/// the origin for an empty set); too large a box is refused.
fn window_of(instances: &[(Instance, Vec<Int>)]) -> Result<Window, Diagnostic> {
    let mut it = instances.iter().map(|(i, _)| (i.x, i.y));
    let Some((x, y)) = it.next() else {
        return Ok(Window::default());
    };
    let (mut x0, mut x1, mut y0, mut y1) = (x, x, y, y);
    for (x, y) in it {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x1 - x0 > MAX_SIDE || y1 - y0 > MAX_SIDE {
        return Err(bad(format!(
            "the plot box [{x0}, {x1}] x [{y0}, {y1}] is too large to draw (at most {MAX_SIDE} steps a side); choose smaller parameter values or a slice"
        )));
    }
    Ok(Window {
        x0: (x0 - 1) as f64,
        x1: (x1 + 1) as f64,
        y0: (y0 - 1) as f64,
        y1: (y1 + 1) as f64,
    })
}

/// The zero sets of the statements' constraint polynomials in the plotted plane.
fn curves(problem: &Problem, fixed: &[f64], x: usize, y: usize, w: &Window) -> Vec<Curve> {
    let vars = problem.vars();
    let mut seen: Vec<Poly> = Vec::new();
    let mut out = Vec::new();
    // About three grid steps per pixel-sized feature: 4 cells per unit at least, 240 on the
    // longer side at least.
    let per_unit = (240.0 / w.width().max(w.height())).max(4.0);
    let nx = (w.width() * per_unit).ceil() as usize;
    let ny = (w.height() * per_unit).ceil() as usize;
    for s in &problem.statements {
        for p in s.domain.polynomials() {
            // `x >= 0` and `-x <= 0` have one zero set: show it once, led by a `+`.
            let p = if p.to_text(&vars).starts_with('-') {
                p.neg()
            } else {
                p
            };
            if seen.contains(&p) {
                continue;
            }
            seen.push(p.clone());
            let f = PlaneFn::new(&p, fixed, x, y);
            if f.is_constant() {
                continue;
            }
            out.push(Curve {
                label: format!("{} = 0", p.to_text(&vars)),
                lines: zero_set(&|a, b| f.eval(a, b), w, nx, ny),
            });
        }
    }
    out
}

/// A CAD of the plotted plane: variables parameters, fixed iterators, then x and y; the
/// same formulas the generator decomposes (strict inequalities tightened, missing
/// positions pinned to 0), the context and `--context` as pruning.
fn slice_cad(
    problem: &Problem,
    args: &PlotArgs,
    fixed: &[Option<i64>],
    px: usize,
    py: usize,
    stats: &cad::LiftStats,
    limits: &cad::Limits,
) -> Result<Cad, Diagnostic> {
    let np = problem.params.len();
    let depth = problem.depth();
    let sliced: Vec<usize> = (0..depth).filter(|&p| fixed[p].is_some()).collect();
    let mut map: Vec<usize> = (0..np + depth).collect();
    for (k, &p) in sliced.iter().enumerate() {
        map[np + p] = np + k;
    }
    map[np + px] = np + sliced.len();
    map[np + py] = np + sliced.len() + 1;
    let formulas: Vec<Formula> = problem
        .statements
        .iter()
        .map(|s| {
            let mut parts = vec![s.domain.rename(&map).tighten_strict()];
            for q in s.iterators.len()..depth {
                parts.push(Formula::Atom(Atom::compare(
                    &Poly::var(map[np + q]),
                    Rel::Eq,
                    &Poly::zero(),
                )));
            }
            Formula::and(parts)
        })
        .collect();
    let mut pruning = vec![problem.context.tighten_strict()];
    if let Some(text) = &args.choices.context {
        let c =
            parse_context(text, &problem.params).map_err(|e| input_diagnostic("--context", &e))?;
        pruning.push(c.tighten_strict());
    }
    Cad::with_limits(formulas, pruning, np + depth, stats, limits)
        .map_err(|e| gen_diagnostic(&args.file.display().to_string(), e.into()))
}

/// The values of the tile sizes: parametric ones from `values` in order, fixed ones as
/// given.
fn size_values(spec: &tiling::TileSpec, values: &[i64]) -> Vec<i64> {
    let mut next = values.iter();
    spec.sizes
        .iter()
        .map(|s| match s {
            tiling::Size::Param(_) => next.next().copied().unwrap_or(0),
            tiling::Size::Fixed(v) => *v,
        })
        .collect()
}

/// One outline per non-empty tile, in the order the tiles are first visited: the tile
/// `K (diag(s) t + [0, s)^n)` cut by the plotted plane, drawn shifted back by
/// `K (d, .., d)` with `d = 1 / (2 |det K|)` so that no integer point lies on an outline
/// (the points of a tile have `K^-1`-coordinates that are multiples of `1 / |det K|`).
fn tile_outlines(
    out: &Outcome,
    instances: &[(Instance, Vec<Int>)],
    size_params: &[i64],
    fixed: &[Option<i64>],
    px: usize,
    py: usize,
    w: &Window,
) -> Vec<Vec<(f64, f64)>> {
    let Some(t) = &out.tiled else {
        return Vec::new();
    };
    let n = t.spec.sizes.len();
    let sizes = size_values(&t.spec, size_params);
    let mut seen: Vec<Vec<Int>> = Vec::new();
    for (_, coords) in instances {
        let key = tile_key(&t.spec, size_params, coords, t.order);
        let tile: Vec<Int> = match t.order {
            TileOrder::TilesOutside => key[..n].to_vec(),
            TileOrder::Interleaved => key.iter().step_by(2).cloned().collect(),
        };
        if !seen.contains(&tile) {
            seen.push(tile);
        }
    }
    let det = int_f64(&t.spec.shape.det());
    let adj: Vec<Vec<f64>> = t
        .spec
        .shape
        .adjugate()
        .iter()
        .map(|r| r.iter().map(int_f64).collect())
        .collect();
    let d = 0.5 / det.abs();
    let mut outlines = Vec::new();
    for tile in &seen {
        // u = K^-1 x = adj x / det, affine in the plotted (x, y) with the rest fixed.
        let mut halfplanes = Vec::with_capacity(2 * n);
        for i in 0..n {
            let a = adj[i][px] / det;
            let b = adj[i][py] / det;
            let c: f64 = (0..n)
                .filter(|&p| p != px && p != py)
                .map(|p| adj[i][p] * fixed[p].unwrap_or(0) as f64 / det)
                .sum();
            let lo = sizes[i] as f64 * int_f64(&tile[i]) - d;
            let hi = lo + sizes[i] as f64;
            halfplanes.push((a, b, c - lo));
            halfplanes.push((-a, -b, hi - c));
        }
        if let Some(poly) = clip_window(w, &halfplanes) {
            outlines.push(poly);
        }
    }
    outlines
}
