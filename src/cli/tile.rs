//! Tiling from the command line: the `--tile-*` flags shared by `gen` and `verify` (read
//! into codegen's [`Tiling`]), and `polyscan tile`, which prints the tiled domain.

use super::files::{load, write_atomically};
use super::{Diagnostic, ExitCode};
use clap::{Args, ValueEnum};
use codegen::input::Problem;
use codegen::tile_problem::tile_problem;
use codegen::verify::Instance;
use codegen::{TileOrder, TiledProblem, Tiling};
use std::path::PathBuf;

/// `--tile-order`: where the point loops go.
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
    /// Tile shape matrix K, rows outermost; its columns span a tile, e.g. `[[1,1],[0,1]]`
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
    /// The variable order for the CAD (set by `polyscan cad`, see
    /// [`Tiling::cad_order`]); not a flag.
    #[arg(skip)]
    pub cad_order: bool,
    /// The tiled loops' order (set by `polyscan cad --order`); not a flag.
    #[arg(skip)]
    pub loop_order: Option<Vec<String>>,
}

impl TileFlags {
    /// The library's tiling request, or `None` without `--tile-sizes`.
    pub fn tiling(&self) -> Option<Tiling> {
        Some(Tiling {
            sizes: self.tile_sizes.clone()?,
            shape: self.tile_shape.clone(),
            order: match self.tile_order {
                TileOrderArg::Outside => TileOrder::TilesOutside,
                TileOrderArg::Interleaved => TileOrder::Interleaved,
            },
            separate_full: !self.no_separate,
            cad_order: self.cad_order,
            loop_order: self.loop_order.clone(),
        })
    }

    /// The tiled problem, or `None` without `--tile-sizes`.
    pub fn apply(&self, problem: &Problem) -> Result<Option<TiledProblem>, Diagnostic> {
        self.tiling()
            .map(|t| tile_problem(problem, &t))
            .transpose()
            .map_err(|m| Diagnostic::new(ExitCode::BadInput, m))
    }
}

/// The instances tiled code must run (see [`codegen::tile_problem::tiled_brute_force`]).
pub fn tiled_brute_force(
    original: &Problem,
    tiled: &TiledProblem,
    params: &[i64],
    bx: &[(i64, i64)],
) -> Result<Vec<Instance>, Diagnostic> {
    codegen::tile_problem::tiled_brute_force(original, tiled, params, bx).map_err(|volume| {
        Diagnostic::new(
            ExitCode::Resource,
            format!("a box of {volume} points is too large to enumerate"),
        )
    })
}

/// Print the tiled domain of a problem in the input language.
#[derive(Args, Debug)]
pub struct TileArgs {
    /// Input file (see `polyscan gen --help`).
    pub file: PathBuf,
    /// The tiling to apply.
    #[command(flatten)]
    pub tiling: TileFlags,
    /// Write the tiled problem here (atomically) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// `polyscan tile`.
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
