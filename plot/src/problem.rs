//! From a generated problem to the parts of its picture: the instances in the plotted
//! plane (run by the exact interpreter), the window around them, the constraint curves, a
//! CAD of the plane for its cell lines, and tile outlines. `polyscan plot` and the Python
//! package's `plot` both assemble their [`Scene`] from these.

use crate::geometry::{clip_window, int_f64, zero_set, PlaneFn};
use crate::{Curve, Instance, Window};
use cad::formula::{Atom, Formula, Rel};
use cad::Cad;
use codegen::input::Problem;
use codegen::interp::{instances, RunError};
use codegen::pipeline::Outcome;
use polys::{Coeff, Int, Poly};
use thiserror::Error;
use tiling::{tile_key, TileOrder};

/// Instances the interpreter may run (all of the domain, before slicing).
pub const BUDGET: usize = 2_000_000;
/// Largest side of the plotted box, in integer steps.
pub const MAX_SIDE: i64 = 200;

/// Why a picture cannot be made for these parameter values.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlotError {
    /// The domain has more points than the interpreter may run.
    #[error("the domain has more than {BUDGET} points for these parameter values: too large to plot; choose smaller values")]
    TooManyPoints,
    /// The generated code could not be run (the text says why).
    #[error("cannot run the generated code: {0}")]
    Run(String),
    /// A point's coordinate is beyond what the picture's arithmetic takes.
    #[error("a point's coordinate is too large to plot")]
    CoordinateTooLarge,
    /// The points span more than [`MAX_SIDE`] steps on a side.
    #[error("the plot box [{x0}, {x1}] x [{y0}, {y1}] is too large to draw (at most {MAX_SIDE} steps a side); choose smaller parameter values or a slice")]
    BoxTooLarge {
        /// Smallest x.
        x0: i64,
        /// Largest x.
        x1: i64,
        /// Smallest y.
        y0: i64,
        /// Largest y.
        y1: i64,
    },
}

/// The instances of the generated code in the plotted plane, in execution order, each
/// with its original coordinates (all iterator positions).
pub fn run_instances(
    out: &Outcome,
    params: &[i64],
    depth: usize,
    fixed: &[Option<i64>],
    px: usize,
    py: usize,
) -> Result<Vec<(Instance, Vec<Int>)>, PlotError> {
    let g = &out.generated;
    let values: Vec<Int> = params.iter().map(|&v| Int::from(v)).collect();
    let all = instances(&g.nodes, &values, g.vars.len(), BUDGET).map_err(|e| match e {
        RunError::Budget => PlotError::TooManyPoints,
        other => PlotError::Run(format!("{other:?}")),
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
                .ok_or(PlotError::CoordinateTooLarge)
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
pub fn window_of(instances: &[(Instance, Vec<Int>)]) -> Result<Window, PlotError> {
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
        return Err(PlotError::BoxTooLarge { x0, x1, y0, y1 });
    }
    Ok(Window {
        x0: (x0 - 1) as f64,
        x1: (x1 + 1) as f64,
        y0: (y0 - 1) as f64,
        y1: (y1 + 1) as f64,
    })
}

/// The zero sets of the statements' constraint polynomials in the plotted plane.
pub fn curves(problem: &Problem, fixed: &[f64], x: usize, y: usize, w: &Window) -> Vec<Curve> {
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
/// positions pinned to 0), the context and the user's extra `context` as pruning.
pub fn slice_cad(
    problem: &Problem,
    context: Option<&Formula>,
    fixed: &[Option<i64>],
    px: usize,
    py: usize,
    stats: &cad::LiftStats,
    limits: &cad::Limits,
) -> Result<Cad, cad::CadError> {
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
    if let Some(c) = context {
        pruning.push(c.tighten_strict());
    }
    Cad::with_limits(formulas, pruning, np + depth, stats, limits)
}

/// The values of the tile sizes: parametric ones from `values` in order, fixed ones as
/// given.
pub fn size_values(spec: &tiling::TileSpec, values: &[i64]) -> Vec<i64> {
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
pub fn tile_outlines(
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
