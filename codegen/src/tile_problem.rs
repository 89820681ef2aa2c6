//! A parsed problem rewritten by a parametric tiling (through the `tiling` crate), with
//! what generation needs beyond the rewritten problem, and the instances tiled code must
//! run: the oracle `verify` compares tiled code with.

use crate::input::{Problem, Statement};
use crate::linear::Separation;
use crate::tiled::ClampTiling;
use crate::verify::Instance;
use cad::formula::Formula;
use polys::{Coeff, Int, Poly};
use tiling::{tile, tile_key, TileOrder, TileSpec};

/// How to tile: `x = K diag(sizes) t + o` with `0 <= K^-1 o < sizes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// One size per iterator: a name (a run-time parameter, appended to the parameters
    /// in this order) or a positive integer, e.g. `w,h` or `4,3`.
    pub sizes: String,
    /// The shape matrix K, rows outermost, e.g. `[[1,1],[0,1]]`; `None`: the identity.
    pub shape: Option<String>,
    /// Where the point loops go.
    pub order: TileOrder,
    /// Separate full tiles (point loops of constant shape) from partial ones.
    pub separate_full: bool,
    /// The variable order for the CAD of the tiled system (what `polyscan cad`
    /// decomposes; `gen` keeps the file's order): the parametric sizes before the original
    /// parameters ([`tiling::Tiled::sizes_first`]) and, unless `loop_order` says otherwise,
    /// the loops in [`tiling::Tiled::cad_loop_order`]. Each makes the seed's tiled systems
    /// decompose in several times fewer cells (BENCHMARKS.md, issue 23).
    pub cad_order: bool,
    /// The tiled loops in this order, outermost first ([`tiling::Tiled::with_loop_order`]):
    /// `polyscan cad --order` on a tiled system; `None`: as `order` places them.
    pub loop_order: Option<Vec<String>>,
}

impl Tiling {
    /// Rectangular tiles of the given sizes, tile loops outside, full tiles separated.
    pub fn sizes(sizes: impl Into<String>) -> Tiling {
        Tiling {
            sizes: sizes.into(),
            shape: None,
            order: TileOrder::TilesOutside,
            separate_full: true,
            cad_order: false,
            loop_order: None,
        }
    }
}

/// A problem rewritten by a tiling, with what the generator needs beyond the problem.
#[derive(Clone, Debug)]
pub struct TiledProblem {
    /// The tiled problem: parameters then sizes, tile and point loops.
    pub problem: Problem,
    /// The parsed tiling: shape matrix and sizes.
    pub spec: TileSpec,
    /// Where the point loops go relative to the tile loops.
    pub order: TileOrder,
    /// Per statement: the original coordinates its macro receives.
    pub calls: Vec<Vec<Poly>>,
    /// Redundant constraints that only prune the decomposition.
    pub pruning: Vec<Formula>,
    /// Full/partial tile separation for the linear scanner, when requested, the tile
    /// loops are outside and the domain allows it.
    pub separation: Option<Separation>,
    /// For domains the linear scanner cannot take: clamp the untiled loops to tiles.
    pub clamp: Option<ClampTiling>,
}

/// The tiled problem of `problem` under `how`; the error says, in a sentence, why the
/// tiling does not apply.
pub fn tile_problem(problem: &Problem, how: &Tiling) -> Result<TiledProblem, String> {
    let spec = TileSpec::parse(how.shape.as_deref(), &how.sizes).map_err(|e| e.to_string())?;
    if problem.schedule.is_some() {
        return Err(
            "tiling a problem with a schedule is not supported; tile the iterators of a problem without one".into(),
        );
    }
    if let Some(s) = problem
        .statements
        .iter()
        .find(|s| !s.existentials.is_empty())
    {
        return Err(format!(
            "tiling a statement with quantified variables or integer divisions ({}) is not supported yet",
            s.name
        ));
    }
    let n = spec.sizes.len();
    if let Some(s) = problem.statements.iter().find(|s| s.iterators.len() != n) {
        return Err(format!(
            "{} tile sizes given but statement {} has {} iterators",
            n,
            s.name,
            s.iterators.len()
        ));
    }
    let order = how.order;
    let domains: Vec<_> = problem
        .statements
        .iter()
        .map(|s| s.domain.clone())
        .collect();
    let t = tile(&problem.params, &domains, &problem.context, &spec, order)
        .map_err(|e| e.to_string())?;
    let t = if how.cad_order { t.sizes_first() } else { t };
    let loop_order = how
        .loop_order
        .clone()
        .or_else(|| how.cad_order.then(|| t.cad_loop_order()));
    let t = match &loop_order {
        Some(names) => t.with_loop_order(names)?,
        None => t,
    };
    let statements = problem
        .statements
        .iter()
        .zip(&t.domains)
        .map(|(s, d)| Statement {
            name: s.name.clone(),
            iterators: t.loops.clone(),
            domain: d.clone(),
            existentials: Vec::new(),
            span: s.span,
        })
        .collect();
    let tiled = Problem {
        params: t.params.clone(),
        statements,
        context: t.context.clone(),
        schedule: None,
    };
    // Separation and clamping assume the loops in `order`'s places.
    let placed = loop_order.is_none();
    let separation = match (&t.full_tile, order, how.separate_full && placed) {
        (Some(full), TileOrder::TilesOutside, true) => Some(Separation {
            tile_levels: n,
            full: full.clone(),
            tile: t.tile_constraints.clone(),
        }),
        _ => None,
    };
    let clamp = (order == TileOrder::TilesOutside && placed).then(|| ClampTiling {
        original: problem.clone(),
        size_params: spec.size_params(),
        sizes: t.sizes.clone(),
        shape: (0..n)
            .map(|i| (0..n).map(|j| spec.shape.get(i, j).clone()).collect())
            .collect(),
        t_names: t.t_var.iter().map(|&v| t.vars.name(v)).collect(),
        o_names: t.o_var.iter().map(|&v| t.vars.name(v)).collect(),
        tile: t.tile_constraints.clone(),
        domains: t.domains.clone(),
    });
    Ok(TiledProblem {
        clamp,
        problem: tiled,
        calls: vec![t.calls.clone(); problem.statements.len()],
        pruning: t.overapprox.clone(),
        separation,
        spec,
        order,
    })
}

/// Largest box [`tiled_brute_force`] enumerates.
pub const MAX_BOX_POINTS: u128 = 50_000_000;

/// The instances tiled code must run, from the original problem: every point of each
/// statement's domain inside the box `bx` (one range per original iterator), ordered by
/// its tile and point coordinates, statements in file order at the same point.
/// `params` holds the original parameters followed by the parametric sizes. `Err` with
/// the box's number of points when it has more than [`MAX_BOX_POINTS`].
pub fn tiled_brute_force(
    original: &Problem,
    tiled: &TiledProblem,
    params: &[i64],
    bx: &[(i64, i64)],
) -> Result<Vec<Instance>, u128> {
    let np = original.params.len();
    let volume: u128 = bx.iter().map(|(l, h)| (h - l + 1).max(0) as u128).product();
    if volume > MAX_BOX_POINTS {
        return Err(volume);
    }
    if bx.iter().any(|(l, h)| l > h) {
        return Ok(Vec::new());
    }
    let mut point: Vec<Int> = params[..np].iter().map(|&v| Int::from(v)).collect();
    point.extend(bx.iter().map(|(l, _)| Int::from(*l)));
    let mut found: Vec<(Vec<Int>, usize, Vec<i64>)> = Vec::new();
    loop {
        if original.context.eval_int(&point) {
            for (s, st) in original.statements.iter().enumerate() {
                if st.domain.eval_int(&point) {
                    let key = tile_key(&tiled.spec, &params[np..], &point[np..], tiled.order);
                    let args = point[np..]
                        .iter()
                        .map(|v| v.to_i64().unwrap_or(i64::MAX))
                        .collect();
                    found.push((key, s, args));
                }
            }
        }
        // Next point of the box, last coordinate fastest.
        let mut k = bx.len();
        loop {
            if k == 0 {
                found.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
                return Ok(found.into_iter().map(|(_, s, a)| (s, a)).collect());
            }
            k -= 1;
            if point[np + k] < Int::from(bx[k].1) {
                point[np + k] = point[np + k].add(&Int::from(1));
                break;
            }
            point[np + k] = Int::from(bx[k].0);
        }
    }
}
