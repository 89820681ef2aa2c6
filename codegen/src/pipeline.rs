//! The one generation pipeline: a parsed problem and the choices a user makes (context,
//! iterator order, engine, code shape, tiling, limits) to a generated nest, or the reason
//! it stopped. The command line, the kernels' tiled nests and the tiling benchmark go
//! through it (untiled catalogue nests and most tests call [`crate::generate`] directly,
//! with the same defaults), and its defaults are `polyscan gen`'s.
//!
//! ```
//! use codegen::pipeline::Pipeline;
//! use codegen::input::parse_problem;
//! let p = parse_problem("[n] -> { S[i, j] : 1 <= i <= n and 0 <= j and i*j <= n }").unwrap();
//! let out = Pipeline::new(p).context("n >= 1").run().unwrap();
//! let c = out.generated.emitter().fragment(&out.generated.nodes).unwrap();
//! assert_eq!(c.matches("for").count(), 2);
//! ```

use crate::error::GenError;
use crate::generate::{generate, GenOptions};
use crate::generated::Generated;
use crate::input::{parse_context, InputError, Problem};
use crate::tile_problem::{tile_problem, TiledProblem, Tiling};
use cad::{LiftStats, Limits, StopReason};
use std::time::Duration;

/// The order of the loops, outermost first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The file's order of iterators.
    #[default]
    File,
    /// Brown's heuristic: the lowest degree innermost.
    Brown,
    /// Iterator names, outermost first (a permutation of the statements' positions).
    Names(Vec<String>),
}

impl Order {
    /// `["brown"]` is Brown's heuristic, any other list of names an explicit order (the
    /// command line's `--order`).
    pub fn from_names(names: Vec<String>) -> Order {
        if names.len() == 1 && names[0] == "brown" {
            Order::Brown
        } else {
            Order::Names(names)
        }
    }
}

/// How loops are derived.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The union and Fourier–Motzkin scanners for affine and tiled domains, the compact
    /// shape for polynomial domains whose constraints each give an interval, clamped tiles
    /// for other tiled domains, the CAD for the rest.
    #[default]
    Auto,
    /// Always the CAD.
    Cad,
}

/// The shape of the code for polynomial domains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// One loop per variable from the max of its lower to the min of its upper bounds.
    #[default]
    Compact,
    /// One loop nest per CAD cell, guard-free inner loops.
    Separate,
}

/// A problem and everything its generation needs; built by [`Pipeline`]'s methods.
#[derive(Clone, Debug)]
pub struct Pipeline {
    problem: Problem,
    context: Option<String>,
    order: Order,
    engine: Engine,
    shape: Shape,
    convex: bool,
    tiling: Option<Tiling>,
    max_cells: Option<u64>,
    time_limit: Option<Duration>,
}

/// What went wrong, or why generation stopped.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PipelineError {
    /// The context text does not parse; positions are within that text.
    #[error("{}", .0.message)]
    Context(InputError),
    /// The tiling does not apply to this problem.
    #[error("{0}")]
    Tiling(String),
    /// Generation refused the input or stopped at a limit.
    #[error(transparent)]
    Gen(#[from] GenError),
}

impl PipelineError {
    /// Why generation stopped early, when a limit (not the input) ended it.
    pub fn stop_reason(&self) -> Option<StopReason> {
        match self {
            PipelineError::Gen(e) => e.stop_reason(),
            _ => None,
        }
    }
}

/// A generated nest with what it came from.
#[derive(Debug)]
pub struct Outcome {
    /// The generated loop AST with its variables, statements and domains (print it with
    /// [`Generated::emitter`], check it with [`crate::verify`]).
    pub generated: Generated,
    /// What the decomposition built (cells, leaves, signs).
    pub stats: LiftStats,
    /// The problem as given (before tiling).
    pub original: Problem,
    /// The tiled problem, with tiling.
    pub tiled: Option<TiledProblem>,
}

impl Pipeline {
    /// The pipeline for `problem` with the defaults of `polyscan gen`.
    pub fn new(problem: Problem) -> Pipeline {
        Pipeline {
            problem,
            context: None,
            order: Order::File,
            engine: Engine::Auto,
            shape: Shape::Compact,
            convex: false,
            tiling: None,
            max_cells: None,
            time_limit: None,
        }
    }

    /// Constraints on the parameters, in the input language (`n >= 1 and m >= n`).
    pub fn context(mut self, text: impl Into<String>) -> Pipeline {
        self.context = Some(text.into());
        self
    }

    /// The loop order (not with a schedule or a tiling, which fix it).
    pub fn order(mut self, order: Order) -> Pipeline {
        self.order = order;
        self
    }

    /// How loops are derived.
    pub fn engine(mut self, engine: Engine) -> Pipeline {
        self.engine = engine;
        self
    }

    /// The shape of the code for polynomial domains.
    pub fn shape(mut self, shape: Shape) -> Pipeline {
        self.shape = shape;
        self
    }

    /// Asserts that the domain is convex: sections are then covered by a neighbouring
    /// sector's code (inferred without it for polyhedra).
    pub fn convex(mut self, convex: bool) -> Pipeline {
        self.convex = convex;
        self
    }

    /// Tiles the problem before generating.
    pub fn tiling(mut self, tiling: Tiling) -> Pipeline {
        self.tiling = Some(tiling);
        self
    }

    /// Stops after building this many cells.
    pub fn max_cells(mut self, cells: u64) -> Pipeline {
        self.max_cells = Some(cells);
        self
    }

    /// Stops after this long (counted from [`Pipeline::run`]).
    pub fn time_limit(mut self, limit: Duration) -> Pipeline {
        self.time_limit = Some(limit);
        self
    }

    /// The problem as given.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Generates. Limits stop the work where it is (projection, lifting, lowering, the
    /// scanners) and return [`StopReason`] through [`PipelineError::stop_reason`];
    /// nothing keeps running afterwards.
    pub fn run(&self) -> Result<Outcome, PipelineError> {
        let limits = Limits::new(self.max_cells, self.time_limit.map(|d| d.as_secs_f64()));
        let context = match &self.context {
            None => None,
            Some(text) => {
                Some(parse_context(text, &self.problem.params).map_err(PipelineError::Context)?)
            }
        };
        let tiled = match &self.tiling {
            None => None,
            Some(t) => Some(tile_problem(&self.problem, t).map_err(PipelineError::Tiling)?),
        };
        let order = match &self.order {
            Order::File => None,
            Order::Brown => Some(vec!["brown".to_string()]),
            Order::Names(names) => Some(names.clone()),
        };
        let mut opts = GenOptions {
            order,
            context,
            convex: self.convex,
            linear: self.engine == Engine::Auto,
            separate: self.shape == Shape::Separate,
            limits,
            ..GenOptions::default()
        };
        if let Some(t) = &tiled {
            if self.order != Order::File {
                return Err(PipelineError::Tiling(
                    "--order does not apply to tiled code; use --tile-order".into(),
                ));
            }
            opts.calls = Some(t.calls.clone());
            opts.pruning = t.pruning.clone();
            opts.separation = t.separation.clone();
            opts.clamp = t.clamp.clone();
        }
        let stats = LiftStats::default();
        let problem = tiled.as_ref().map_or(&self.problem, |t| &t.problem);
        let generated = generate(problem, &opts, &stats)?;
        Ok(Outcome {
            generated,
            stats,
            original: self.problem.clone(),
            tiled,
        })
    }
}
