//! Tiling from the command line: the `--tile-*` flags shared by `gen` and `verify`, the
//! step that turns a parsed problem into its tiled problem (via the `tiling` crate), the
//! brute-force oracle for tiled code, and `polyscan tile`, which prints the tiled domain.

use super::gen::{load, write_atomically};
use super::{Diagnostic, ExitCode};
use clap::{Args, ValueEnum};
use codegen::input::{Problem, Statement};
use codegen::verify::Instance;
use codegen::{ClampTiling, Separation};
use polys::{Coeff, Int, Poly};
use std::path::PathBuf;
use tiling::{tile, tile_key, TileOrder, TileSpec};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum TileOrderArg {
    /// All tile loops outside all point loops: t1..tn, then o1..on.
    #[default]
    Outside,
    /// Each point loop right inside its tile loop: t1, o1, t2, o2, ... (Definition 3.1 of
    /// the seed thesis).
    Interleaved,
}

/// Parametric tiling: `x = K diag(sizes) t + o` with `0 <= K^-1 o < sizes`.
#[derive(Args, Debug, Clone, Default)]
pub struct TileFlags {
    /// Tile shape matrix K, rows outermost; its columns span a tile, e.g. "[[1,1],[0,1]]"
    /// for parallelograms. Default: the identity (rectangles).
    #[arg(long, value_name = "MATRIX", requires = "tile_sizes")]
    pub tile_shape: Option<String>,
    /// One tile size per iterator: a name (a run-time parameter, appended to scan(...)
    /// in this order) or a positive integer, e.g. `--tile-sizes w,h` or `4,3`.
    #[arg(long, value_name = "SIZES")]
    pub tile_sizes: Option<String>,
    /// Where the point loops go.
    #[arg(long, value_enum, default_value = "outside", requires = "tile_sizes")]
    pub tile_order: TileOrderArg,
    /// Do not separate full tiles (point loops of constant shape) from partial ones.
    #[arg(long, requires = "tile_sizes")]
    pub no_separate: bool,
}

/// A problem rewritten by a tiling, with what the generator needs beyond the problem.
pub struct TiledProblem {
    pub problem: Problem,
    pub spec: TileSpec,
    pub order: TileOrder,
    pub calls: Vec<Vec<Poly>>,
    pub pruning: Vec<cad::formula::Formula>,
    pub separation: Option<Separation>,
    /// For domains the linear scanner cannot take: clamp the untiled loops to tiles.
    pub clamp: Option<ClampTiling>,
}

impl TileFlags {
    /// The tiled problem, or `None` without `--tile-sizes`.
    pub fn apply(&self, problem: &Problem) -> Result<Option<TiledProblem>, Diagnostic> {
        let Some(sizes) = &self.tile_sizes else {
            return Ok(None);
        };
        let bad = |m: String| Diagnostic::new(ExitCode::BadInput, m);
        let spec =
            TileSpec::parse(self.tile_shape.as_deref(), sizes).map_err(|e| bad(e.to_string()))?;
        if problem.schedule.is_some() {
            return Err(bad(
                "tiling a problem with a schedule is not supported; tile the iterators of a problem without one".into(),
            ));
        }
        let n = spec.sizes.len();
        if let Some(s) = problem.statements.iter().find(|s| s.iterators.len() != n) {
            return Err(bad(format!(
                "{} tile sizes given but statement {} has {} iterators",
                n,
                s.name,
                s.iterators.len()
            )));
        }
        let order = match self.tile_order {
            TileOrderArg::Outside => TileOrder::TilesOutside,
            TileOrderArg::Interleaved => TileOrder::Interleaved,
        };
        let domains: Vec<_> = problem
            .statements
            .iter()
            .map(|s| s.domain.clone())
            .collect();
        let t = tile(&problem.params, &domains, &problem.context, &spec, order)
            .map_err(|e| bad(e.to_string()))?;
        let statements = problem
            .statements
            .iter()
            .zip(&t.domains)
            .map(|(s, d)| Statement {
                name: s.name.clone(),
                iterators: t.loops.clone(),
                domain: d.clone(),
                span: s.span,
            })
            .collect();
        let tiled = Problem {
            params: t.params.clone(),
            statements,
            context: t.context.clone(),
            schedule: None,
        };
        let separation = match (&t.full_tile, order, self.no_separate) {
            (Some(full), TileOrder::TilesOutside, false) => Some(Separation {
                tile_levels: n,
                full: full.clone(),
                tile: t.tile_constraints.clone(),
            }),
            _ => None,
        };
        let clamp = (order == TileOrder::TilesOutside).then(|| ClampTiling {
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
        Ok(Some(TiledProblem {
            clamp,
            problem: tiled,
            calls: vec![t.calls.clone(); problem.statements.len()],
            pruning: t.overapprox.clone(),
            separation,
            spec,
            order,
        }))
    }
}

/// The instances tiled code must run, from the original problem: every point of each
/// statement's domain inside the box `bx` (one range per original iterator), ordered by
/// its tile and point coordinates, statements in file order at the same point.
/// `params` holds the original parameters followed by the parametric sizes.
pub fn tiled_brute_force(
    original: &Problem,
    tiled: &TiledProblem,
    params: &[i64],
    bx: &[(i64, i64)],
) -> Result<Vec<Instance>, Diagnostic> {
    let np = original.params.len();
    let volume: u128 = bx.iter().map(|(l, h)| (h - l + 1).max(0) as u128).product();
    if volume > 50_000_000 {
        return Err(Diagnostic::new(
            ExitCode::Resource,
            format!("a box of {volume} points is too large to enumerate"),
        ));
    }
    let mut point: Vec<Int> = params[..np].iter().map(|&v| Int::from(v)).collect();
    point.resize(np + bx.len(), Int::from(0));
    let mut found: Vec<(Vec<Int>, usize, Vec<i64>)> = Vec::new();
    let mut idx = vec![0usize; bx.len()];
    if bx.iter().any(|(l, h)| l > h) {
        return Ok(Vec::new());
    }
    for (k, (l, _)) in bx.iter().enumerate() {
        point[np + k] = Int::from(*l);
        idx[k] = 0;
    }
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

/// Print the tiled domain of a problem in the input language.
#[derive(Args, Debug)]
pub struct TileArgs {
    /// Input file (see `polyscan gen --help`).
    pub file: PathBuf,
    #[command(flatten)]
    pub tiling: TileFlags,
    /// Write the tiled problem here (atomically) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: TileArgs) -> Result<(), Diagnostic> {
    let (_, problem) = load(&args.file)?;
    if args.tiling.tile_sizes.is_none() {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            "give the tile sizes with --tile-sizes (e.g. --tile-sizes w,h)",
        ));
    }
    let Some(t) = args.tiling.apply(&problem)? else {
        return Ok(());
    };
    let vars = t.problem.vars();
    let mut text = String::new();
    for (s, calls) in t.problem.statements.iter().zip(&t.calls) {
        let args: Vec<String> = calls.iter().map(|p| p.to_text(&vars)).collect();
        text.push_str(&format!("# {} receives ({})\n", s.name, args.join(", ")));
    }
    text.push_str(&t.problem.to_text());
    match &args.output {
        None => {
            print!("{text}");
            Ok(())
        }
        Some(p) => write_atomically(p, &text),
    }
}
