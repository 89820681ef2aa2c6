//! Glue for `polyscan.plot` and `Set._repr_svg_`: what `polyscan plot` does between its
//! flags and `polyscan_plot` (`src/cli/plot.rs`), for text instead of a file: generate,
//! run the loops with the exact interpreter (the points and their order), trace the
//! constraint curves, the CAD's cells and the tiles, and render. The steps are the
//! command's; this copy exists because they live in the command-line crate (see the report
//! of issue 20: they belong in `polyscan-plot` as one `plot_problem` function).

use crate::error::Error;
use crate::options::{values_for, Choices};
use cad::formula::{Atom, Formula, Rel};
use cad::Cad;
use codegen::input::{parse_context, Problem};
use codegen::interp::{instances, RunError};
use codegen::Outcome;
use polys::{Coeff, Int, Poly};
use polyscan_plot::draw::render;
use polyscan_plot::geometry::{cad_lines, clip_window, int_f64, zero_set, PlaneFn};
use polyscan_plot::{Curve, Format, Instance, Scene, Window};
use tiling::{tile_key, TileOrder};

/// Instances the interpreter may run (all of the domain, before slicing).
const BUDGET: usize = 2_000_000;
/// Largest side of the plotted box, in integer steps.
const MAX_SIDE: i64 = 200;

/// What to draw.
pub struct Request {
    /// The set.
    pub problem: Problem,
    /// How its code is generated (the points drawn are that code's instances).
    pub choices: Choices,
    /// Parameter values, tile sizes named in `tile_sizes` included.
    pub params: Vec<(String, i64)>,
    /// Fixed iterators of a deeper domain.
    pub slice: Vec<(String, i64)>,
    /// SVG or PNG.
    pub format: Format,
    /// The heading; `None`: the statements, e.g. `S[x, y]`.
    pub title: Option<String>,
}

/// The picture's bytes (SVG text or PNG).
pub fn plot(req: &Request) -> Result<Vec<u8>, Error> {
    let original = &req.problem;
    if original
        .statements
        .iter()
        .any(|s| !s.existentials.is_empty())
    {
        return Err(Error::input(
            polyscan_plot::QUANTIFIED_NOT_DRAWN.to_string(),
        ));
    }
    let np = original.params.len();
    let depth = original.depth();
    let file_vars = original.vars();
    let iter_names: Vec<String> = (0..depth).map(|p| file_vars.name(np + p)).collect();
    // Check the plane before generating: a wrong slice should not wait for a CAD.
    let fixed = slice_values(&req.slice, &iter_names)?;
    let free: Vec<usize> = (0..depth).filter(|p| fixed[*p].is_none()).collect();
    if free.len() != 2 {
        let iters = format!(
            "the set has {depth} iterator{} ({})",
            if depth == 1 { "" } else { "s" },
            iter_names.join(", ")
        );
        let how = if free.len() > 2 {
            let rest: Vec<String> = free[2..]
                .iter()
                .map(|&p| format!("'{}': 0", iter_names[p]))
                .collect();
            format!(
                "; fix all but two with slice, e.g. slice={{{}}}",
                rest.join(", ")
            )
        } else if depth >= 2 {
            format!("; slice leaves {} free", free.len())
        } else {
            String::new()
        };
        return Err(Error::input(format!(
            "a plot needs a 2-D domain: {iters}{how}"
        )));
    }
    let out = req.choices.run(original.clone())?;
    let g = &out.generated;
    let names: Vec<String> = g.vars.names()[..g.nparams].to_vec();
    let params = values_for(&names, &req.params)?;

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
    let curves = curves(original, &fixed_values, np + px, np + py, &window);

    let mut prefix: Vec<Int> = params[..np].iter().map(|&v| Int::from(v)).collect();
    let stats = cad::LiftStats::default();
    let own;
    let cad: &Cad = match &g.cad {
        Some(c) if out.tiled.is_none() && free.len() == depth && c.nvars == g.nparams + 2 => c,
        _ => {
            own = slice_cad(original, &req.choices, &fixed, px, py, &stats)?;
            prefix.extend((0..depth).filter_map(|p| fixed[p]).map(Int::from));
            &own
        }
    };
    let cad_lines =
        cad_lines(cad, &prefix, &window, 96, &stats).map_err(|e| Error::gen(e.into()))?;

    let (tiles, tile_label) = match &out.tiled {
        None => (Vec::new(), String::new()),
        Some(t) => {
            let sizes = &params[np..];
            let shown: Vec<String> = size_values(&t.spec, sizes)
                .iter()
                .map(i64::to_string)
                .collect();
            let shape = req.choices.tile_shape.as_deref().unwrap_or("identity");
            (
                tile_outlines(&out, &instances, sizes, &fixed, px, py, &window),
                format!("tiles K={shape}, {}", shown.join("x")),
            )
        }
    };

    let mut title = req.title.clone().unwrap_or_else(|| {
        let heads: Vec<String> = original
            .statements
            .iter()
            .map(|s| format!("{}[{}]", s.name, s.iterators.join(", ")))
            .collect();
        heads.join("; ")
    });
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
    render(&scene, req.format).map_err(|e| Error::Tool(e.to_string()))
}

/// The slice's values against the iterator names: one value or none per position.
fn slice_values(given: &[(String, i64)], iters: &[String]) -> Result<Vec<Option<i64>>, Error> {
    let mut fixed = vec![None; iters.len()];
    for (name, v) in given {
        let k = iters.iter().position(|n| n == name).ok_or_else(|| {
            Error::input(format!(
                "slice: '{name}' is not an iterator ({})",
                iters.join(", ")
            ))
        })?;
        fixed[k] = Some(*v);
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
) -> Result<Vec<(Instance, Vec<Int>)>, Error> {
    let g = &out.generated;
    let values: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
    let all = instances(&g.nodes, &values, g.vars.len(), BUDGET).map_err(|e| match e {
        RunError::Budget => Error::Limit(format!(
            "the domain has more than {BUDGET} points for these parameter values: too large to plot; choose smaller values"
        )),
        other => Error::input(format!("cannot run the generated code: {other:?}")),
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
                .ok_or_else(|| Error::Limit("a point's coordinate is too large to plot".into()))
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
fn window_of(instances: &[(Instance, Vec<Int>)]) -> Result<Window, Error> {
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
        return Err(Error::Limit(format!(
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
/// positions pinned to 0), the context and the `context` option as pruning.
fn slice_cad(
    problem: &Problem,
    choices: &Choices,
    fixed: &[Option<i64>],
    px: usize,
    py: usize,
    stats: &cad::LiftStats,
) -> Result<Cad, Error> {
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
    if let Some(text) = &choices.context {
        let c = parse_context(text, &problem.params).map_err(|e| Error::parse("context", &e))?;
        pruning.push(c.tighten_strict());
    }
    Cad::with_limits(formulas, pruning, np + depth, stats, &choices.cad_limits())
        .map_err(|e| Error::gen(e.into()))
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
/// `K (d, .., d)` with `d = 1 / (2 |det K|)` so that no integer point lies on an outline.
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
