//! `polyscan gen`: exact C loops for a polynomial domain.

use super::files::{input_diagnostic, load, write_atomically};
use super::tile::TileFlags;
use super::{Diagnostic, ExitCode};
use clap::{Args, ValueEnum};
use codegen::input::Problem;
pub use codegen::Outcome;
use codegen::{GenError, Generated, Order, Pipeline, PipelineError, Shape};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Emit {
    /// An isl-style fragment: parameters are int64_t variables in scope, statements are
    /// macro calls `S(i, j)`; uses the ps_* helpers of --emit c-function.
    C,
    /// Self-contained C99: helpers as static inline functions and `void scan(params...)`.
    CFunction,
    /// A Rust function `scan(params..., one closure per statement)`.
    Rust,
}

/// How to generate: shared by `gen` and `verify`.
#[derive(Args, Debug, Clone)]
pub struct Choices {
    /// Iterator order, outermost first, e.g. `--order j,i`, or `--order brown` for Brown's
    /// heuristic (lowest degree innermost). Default: file order.
    #[arg(long, value_delimiter = ',')]
    pub order: Option<Vec<String>>,
    /// Constraints on the parameters, e.g. `--context "n >= 1"`.
    #[arg(long)]
    pub context: Option<String>,
    /// Assert that the domain is convex: sections are then covered by the code of a
    /// neighbouring sector (inferred without the flag for polyhedra).
    #[arg(long)]
    pub convex: bool,
    #[command(flatten)]
    pub tiling: TileFlags,
    /// How loops are derived: `auto` scans affine domains and tiled domains whose
    /// constraints are linear in every loop variable by Fourier-Motzkin elimination
    /// (max/min bounds, no case splits), polynomial domains whose constraints each admit
    /// an interval of every loop variable in the compact shape (each loop from the max of
    /// its lower to the min of its upper roots; see --separate), clamps other tiled domains
    /// to tiles, and uses the CAD for everything else, with a budget (2000 cells,
    /// projection factors of total degree at most 31): past it, where the affine
    /// constraints bound every loop, the loops scan them and the polynomial constraints
    /// become `if` tests around each statement (the guarded scan; exact, but the tests'
    /// failures cost iterations). `cad` always uses the CAD, however long it takes.
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: Engine,
    /// Keep the decomposition's cells apart: one loop nest per CAD cell, with guard-free
    /// inner loops, instead of the compact shape (one loop per variable from the max of
    /// its lower to the min of its upper bounds, inner loops possibly empty for some
    /// outer values). Not to be confused with --no-separate, which is about full tiles.
    #[arg(long)]
    pub separate: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum Engine {
    #[default]
    Auto,
    Cad,
}

impl Choices {
    /// The library pipeline for `problem` with these choices.
    pub fn pipeline(&self, problem: Problem) -> Pipeline {
        let mut p = Pipeline::new(problem)
            .convex(self.convex)
            .engine(match self.engine {
                Engine::Auto => codegen::Engine::Auto,
                Engine::Cad => codegen::Engine::Cad,
            })
            .shape(if self.separate {
                Shape::Separate
            } else {
                Shape::Compact
            });
        if let Some(names) = &self.order {
            p = p.order(Order::from_names(names.clone()));
        }
        if let Some(c) = &self.context {
            p = p.context(c.clone());
        }
        if let Some(t) = self.tiling.tiling() {
            p = p.tiling(t);
        }
        p
    }
}

/// Resource limits of every command that runs a CAD.
#[derive(Args, Debug, Clone, Copy)]
pub struct Limits {
    /// Stop with exit code 3 after this many seconds of decomposition.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Stop with exit code 3 after building this many cells.
    #[arg(long, value_name = "N")]
    pub max_cells: Option<u64>,
}

impl Limits {
    /// The pipeline with these limits.
    pub fn apply(&self, mut p: Pipeline) -> Pipeline {
        if let Some(n) = self.max_cells {
            p = p.max_cells(n);
        }
        if let Some(d) = self.time_limit() {
            p = p.time_limit(d);
        }
        p
    }

    /// `--timeout` as a duration (a negative or non-finite value is no limit).
    pub fn time_limit(&self) -> Option<std::time::Duration> {
        self.timeout
            .filter(|t| t.is_finite() && *t >= 0.0)
            .map(|t| std::time::Duration::from_secs_f64(t.min(1e9)))
    }

    /// The limits of one decomposition, counted from now.
    pub fn cad_limits(&self) -> cad::Limits {
        cad::Limits::new(self.max_cells, self.timeout)
    }
}

/// Generate loops that visit every integer point of the domain once, in lexicographic
/// order, for every parameter value.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Input file: isl set syntax with polynomial terms, e.g.
    /// `[n] -> { S[i, j] : 1 <= i <= n and 0 <= j and i*j <= n }`.
    pub file: PathBuf,
    /// Write the output here (atomically) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "c")]
    pub emit: Emit,
    #[command(flatten)]
    pub choices: Choices,
    /// Print decomposition statistics, and the parameter range in which the code's integer
    /// arithmetic cannot overflow, to standard error (the range also heads the output).
    #[arg(long)]
    pub stats: bool,
    /// Checked arithmetic: every int64 operation of bounds, guards, statement arguments and
    /// loop increments reports an overflow on stderr (naming the expression and its line)
    /// and aborts (C) or panics (Rust) instead of wrapping. The output starts with the
    /// parameter range in which no overflow can occur.
    #[arg(long)]
    pub check_overflow: bool,
    #[command(flatten)]
    pub limits: Limits,
}

/// Maps generation errors to diagnostics and exit codes.
pub fn gen_diagnostic(origin: &str, e: GenError) -> Diagnostic {
    if let Some(r) = e.stop_reason() {
        return Diagnostic::new(
            ExitCode::Resource,
            format!("resource limit: {r}; no output written"),
        );
    }
    match e {
        GenError::Input(ie) => input_diagnostic(origin, &ie),
        other => Diagnostic::new(ExitCode::BadInput, other.to_string()),
    }
}

/// Maps pipeline errors to diagnostics and exit codes.
pub fn pipeline_diagnostic(origin: &str, e: PipelineError) -> Diagnostic {
    match e {
        PipelineError::Context(ie) => input_diagnostic("--context", &ie),
        PipelineError::Tiling(m) => Diagnostic::new(ExitCode::BadInput, m),
        PipelineError::Gen(e) => gen_diagnostic(origin, e),
    }
}

/// Generates for `file` with its options, within the limits (which stop the work where
/// it is: nothing keeps running after a limit).
pub fn generate_file(file: &Path, c: &Choices, limits: Limits) -> Result<Outcome, Diagnostic> {
    let (_, problem) = load(file)?;
    limits
        .apply(c.pipeline(problem))
        .run()
        .map_err(|e| pipeline_diagnostic(&file.display().to_string(), e))
}

/// The C text of a generated program.
pub fn emit(g: &Generated, emit: Emit) -> Result<String, Diagnostic> {
    let emitter = g.emitter();
    let text = match emit {
        Emit::C => emitter.fragment(&g.nodes),
        Emit::CFunction => emitter.function(&g.nodes, &[]),
        Emit::Rust => codegen::emit_rust::function(&emitter, &g.nodes),
    };
    text.map_err(|e| {
        Diagnostic::new(
            ExitCode::Resource,
            format!("cannot print the code in 64-bit C: {e}"),
        )
    })
}

/// The text of a generated program, with `--check-overflow` when `checked`, headed by
/// `header` (complete comment lines) when given.
pub fn emit_with(
    g: &Generated,
    emit: Emit,
    checked: bool,
    header: Option<&str>,
) -> Result<String, Diagnostic> {
    if !checked {
        let text = self::emit(g, emit)?;
        return Ok(match header {
            Some(h) => format!("{h}\n{text}"),
            None => text,
        });
    }
    let emitter = g.emitter();
    let header = header.map(|h| format!("{h}\n")).unwrap_or_default();
    let text = match emit {
        Emit::C => emitter.checked().with_header(header).fragment(&g.nodes),
        Emit::CFunction => emitter
            .checked()
            .with_header(header)
            .function(&g.nodes, &[]),
        Emit::Rust => codegen::emit_rust::function_checked(&emitter, &g.nodes, &header),
    };
    text.map_err(|e| Diagnostic::new(ExitCode::Resource, e.to_string()))
}

/// A safe range narrower than this is reported even unasked: parameters this small are
/// in every user's tests. Wider ranges that real sizes may still exceed (a tiled disc's
/// radius beyond 38968) are left to `--stats`, so that ordinary inputs stay quiet.
const WARN_BELOW: i64 = 1 << 12;

/// The warning for a safe parameter range narrower than [`WARN_BELOW`], if it is.
fn narrow_range_warning(range: &codegen::overflow::SafeRange, checked: bool) -> Option<String> {
    use codegen::overflow::SafeRange;
    let what = match range {
        SafeRange::Bound { bound, .. } if *bound < WARN_BELOW => {
            format!("only for parameters in [-{bound}, {bound}]")
        }
        SafeRange::Unsafe(_) => "at no parameter value".to_string(),
        _ => return None,
    };
    let advice = if checked {
        "the checked code stops with a message where it would overflow"
    } else {
        "beyond it the code may run wrong iterations; --check-overflow stops there with a message, --stats names the expression"
    };
    Some(format!(
        "warning: the generated code's int64_t arithmetic is proven safe {what}: {advice}"
    ))
}

pub fn run(args: GenArgs) -> Result<(), Diagnostic> {
    let Outcome {
        generated: g,
        stats,
        ..
    } = generate_file(&args.file, &args.choices, args.limits)?;
    // The range heads the output only when asked for, so default output stays as it was;
    // a narrow range is worth a warning on standard error either way.
    let range = codegen::overflow::safe_parameter_bound(&g);
    let asked = args.check_overflow || args.stats;
    let header = asked.then(|| range.comment());
    let text = emit_with(&g, args.emit, args.check_overflow, header.as_deref())?;
    if args.stats {
        eprintln!("{}", range.describe());
    } else if let Some(w) = narrow_range_warning(&range, args.check_overflow) {
        eprintln!("{w}");
    }
    if args.stats {
        match &g.cad {
            Some(cad) => eprintln!(
                "projection: {} factors ({:?} per level), {} restarts; {}",
                cad.projection.len(),
                cad.projection
                    .levels
                    .iter()
                    .map(Vec::len)
                    .collect::<Vec<_>>(),
                cad.restarts,
                cad::stats_summary(&stats)
            ),
            None => match &g.guarded {
                Some(why) => eprintln!(
                    "guarded scan: the CAD passed its budget ({}); loops from the affine constraints, the others as tests",
                    match why {
                        codegen::StopReason::CellLimit(m) => format!("more than {m} cells"),
                        other => other.to_string(),
                    }
                ),
                None => eprintln!("linear scanner (Fourier-Motzkin elimination): no decomposition"),
            },
        }
        let s = codegen::ast::shape(&g.nodes);
        eprintln!(
            "code: {} loops, {} ifs, {} statement calls",
            s.loops,
            s.guards + s.tests,
            s.statements
        );
    }
    match &args.output {
        None => {
            print!("{text}");
            Ok(())
        }
        Some(path) => write_atomically(path, &text),
    }
}
