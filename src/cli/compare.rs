//! `polyscan compare`: polyscan's code against isl's AST generator on the same affine
//! domain and schedule: both programs, their generation times and sizes, and for each
//! parameter value whether the compiled programs run identical instance sequences.
//!
//! Exit codes: 0 identical everywhere, 1 a difference (or a program that fails to compile
//! or run), 2 bad input, including polynomial constraints (isl takes affine ones only),
//! 3 isl or a C compiler missing, or a resource limit.

use super::files::{input_diagnostic, load};
use super::gen::{pipeline_diagnostic, Limits};
use super::tile::TileFlags;
use super::verify::parse_params;
use super::{Diagnostic, ExitCode};
use clap::Args;
use codegen::input::{parse_problem, Problem};
use codegen::{Generated, Pipeline};
use polyscan_isl::harness::{self, HarnessError, RunOutput};
use polyscan_isl::{input, Isl, IslError, IslInput, NotAffine};
use std::path::PathBuf;
use std::time::Duration;

/// Compare with isl's AST generator (affine inputs).
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Input file (see `polyscan gen --help`); its constraints and schedule must be affine.
    pub file: PathBuf,
    /// Parameter values, e.g. `--params n=8,m=5`; repeat for several runs. Default: every
    /// parameter set to -1, 0, 1, 2, 5, 8, 13 and 30 in turn, and with several parameters
    /// ascending and descending vectors. Values outside the file's context are not run (both
    /// tools assume the context).
    #[arg(long = "params", value_name = "NAME=VALUE,...")]
    pub params: Vec<String>,
    /// Generation runs per tool; the median CPU time is shown.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub runs: usize,
    /// Stop a program after this many instances (the prefixes are still compared).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub max_instances: u64,
    /// Cell and time limits of polyscan's generation.
    #[command(flatten)]
    pub limits: Limits,
    /// Tiling with fixed sizes (isl cannot take parametric ones): isl gets the schedule
    /// that orders points by tile, then by point coordinates, as polyscan's loops do.
    #[command(flatten)]
    pub tiling: TileFlags,
}

/// How a comparison runs.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Generation runs per tool (the median time is reported).
    pub runs: usize,
    /// Instances after which a program is stopped (prefixes are compared).
    pub max_instances: u64,
    /// Per run of a compiled program.
    pub run_timeout: Duration,
    /// Limits of polyscan's generation.
    pub limits: Limits,
    /// Fixed-size tiling applied to both tools.
    pub tiling: TileFlags,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            runs: 20,
            max_instances: 1_000_000,
            run_timeout: Duration::from_secs(60),
            limits: Limits {
                timeout: None,
                max_cells: None,
            },
            tiling: TileFlags::default(),
        }
    }
}

/// Lines, loops and conditionals of a program's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Non-empty lines.
    pub lines: usize,
    /// `for (` occurrences.
    pub loops: usize,
    /// `if (` occurrences.
    pub ifs: usize,
}

/// Counted on the C text, the same way for both tools.
pub fn size_of(code: &str) -> Size {
    Size {
        lines: code.lines().filter(|l| !l.trim().is_empty()).count(),
        loops: code.matches("for (").count(),
        ifs: code.matches("if (").count(),
    }
}

/// One tool's program.
#[derive(Clone, Debug)]
pub struct Side {
    /// The generated C.
    pub code: String,
    /// Median generation time over the runs.
    pub median: Duration,
    /// Its size.
    pub size: Size,
}

/// The result of one parameter vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Identical sequences (prefixes of `instances` when both hit the instance cap).
    Identical {
        /// Instances compared.
        instances: usize,
        /// Both programs stopped at the instance cap.
        truncated: bool,
    },
    /// The sequences differ; the text says where.
    Different(String),
    /// The values violate the file's context: both programs assume it, so not run.
    OutsideContext,
}

/// The comparison at one parameter vector.
#[derive(Clone, Debug)]
pub struct Check {
    /// The parameter values.
    pub params: Vec<i64>,
    /// The same as `n=5,m=3`.
    pub shown: String,
    /// What the two programs did.
    pub outcome: Outcome,
}

/// A whole comparison: both programs and every check.
#[derive(Clone, Debug)]
pub struct Report {
    /// What isl was given.
    pub input: IslInput,
    /// Parameter names, in order.
    pub param_names: Vec<String>,
    /// polyscan's program.
    pub polyscan: Side,
    /// isl's program.
    pub isl: Side,
    /// One per parameter vector.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether every check found identical sequences (or was outside the context).
    pub fn all_identical(&self) -> bool {
        self.checks
            .iter()
            .all(|c| !matches!(c.outcome, Outcome::Different(_)))
    }
}

/// The diagnostic for an isl failure; a missing library is exit code 3 with the install
/// command.
pub fn isl_diagnostic(e: &IslError) -> Diagnostic {
    match e {
        IslError::Missing => Diagnostic::new(ExitCode::Resource, e.to_string()),
        _ => Diagnostic::new(ExitCode::Difference, e.to_string()),
    }
}

/// Polynomial input: exit code 2 (the input is outside what this command compares).
pub fn not_affine_diagnostic(e: &NotAffine) -> Diagnostic {
    Diagnostic::new(
        ExitCode::BadInput,
        format!("{e}; `polyscan compare` handles affine inputs only (check polynomial ones with `polyscan verify`)"),
    )
}

fn harness_diagnostic(e: HarnessError) -> Diagnostic {
    let code = match e {
        HarnessError::NoCompiler | HarnessError::Timeout { .. } | HarnessError::Io(_) => {
            ExitCode::Resource
        }
        _ => ExitCode::Difference,
    };
    Diagnostic::new(code, e.to_string())
}

/// Median process CPU time of `runs` calls (at least one), and the last result.
fn timed<T>(
    runs: usize,
    mut f: impl FnMut() -> Result<T, Diagnostic>,
) -> Result<(T, Duration), Diagnostic> {
    let mut times = Vec::with_capacity(runs.max(1));
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = polyscan_isl::process_cpu_time();
        let r = f()?;
        times.push(polyscan_isl::process_cpu_time().saturating_sub(t));
        last = Some(r);
    }
    times.sort();
    let median = times[times.len() / 2];
    // Invariant: the loop ran at least once, so `last` is set.
    let last = last.expect("at least one run");
    Ok((last, median))
}

/// Default parameter vectors: every parameter set to the same value, from degenerate ones
/// (negative, 0, 1) to values large enough for contexts such as `n >= 25`; with several
/// parameters also ascending and descending ones (`n < m` and `n > m`).
pub fn default_params(nparams: usize) -> Vec<Vec<i64>> {
    if nparams == 0 {
        return vec![vec![]];
    }
    let mut out: Vec<Vec<i64>> = [-1, 0, 1, 2, 5, 8, 13, 30]
        .iter()
        .map(|&v| vec![v; nparams])
        .collect();
    if nparams > 1 {
        for base in [1, 4, 10] {
            let up: Vec<i64> = (0..nparams as i64).map(|k| base + 3 * k).collect();
            let mut down = up.clone();
            down.reverse();
            out.push(up);
            out.push(down);
        }
    }
    out
}

fn polyscan_c(g: &Generated) -> Result<(String, String), Diagnostic> {
    let emitter = g.emitter();
    let print = |e: polys::CPrintError| {
        Diagnostic::new(
            ExitCode::Resource,
            format!("cannot print the code in 64-bit C: {e}"),
        )
    };
    Ok((
        emitter.fragment(&g.nodes).map_err(print)?,
        emitter.function(&g.nodes, &[]).map_err(print)?,
    ))
}

/// The isl input of a problem, or exit code 2 for polynomial terms.
pub fn isl_input(problem: &Problem) -> Result<IslInput, Diagnostic> {
    input::from_problem(problem).map_err(|e| not_affine_diagnostic(&e))
}

/// Compares polyscan and isl on the source text of an input file.
pub fn compare_source(
    src: &str,
    origin: &str,
    params: &[Vec<i64>],
    opts: &CompareOptions,
) -> Result<Report, Diagnostic> {
    let problem = parse_problem(src).map_err(|e| input_diagnostic(origin, &e))?;
    let mut isl_in = isl_input(&problem)?;
    let isl = Isl::new().map_err(|e| isl_diagnostic(&e))?;
    let tiled_isl = |base: &IslInput| -> Result<IslInput, Diagnostic> {
        let Some(t) = opts.tiling.apply(&problem)? else {
            return Ok(base.clone());
        };
        if t.order != tiling::TileOrder::TilesOutside {
            return Err(Diagnostic::new(
                ExitCode::BadInput,
                "compare runs tiled code with tile loops outside point loops only",
            ));
        }
        polyscan_isl::tile::polyscan_tiled_input(&problem, base, &t.spec).map_err(|e| {
            Diagnostic::new(
                ExitCode::BadInput,
                format!("{e}; isl cannot take parametric tile sizes (w*t1 is not affine): give integers, e.g. --tile-sizes 4,3"),
            )
        })
    };
    isl_in = tiled_isl(&isl_in)?;

    // polyscan: parse, decompose, lower and print, as `polyscan gen` does.
    let (g, poly_time) = timed(opts.runs, || {
        let p = parse_problem(src).map_err(|e| input_diagnostic(origin, &e))?;
        let mut pipeline = Pipeline::new(p);
        if let Some(t) = opts.tiling.tiling() {
            pipeline = pipeline.tiling(t);
        }
        let g = opts
            .limits
            .apply(pipeline)
            .run()
            .map_err(|e| pipeline_diagnostic(origin, e))?
            .generated;
        let text = polyscan_c(&g)?;
        Ok((g, text))
    })?;
    let (g, (poly_code, poly_function)) = g;
    // isl: build its input, read it, generate the AST and print it.
    let (isl_code, isl_time) = timed(opts.runs, || {
        let p = input::from_problem(&problem).map_err(|e| not_affine_diagnostic(&e))?;
        let p = tiled_isl(&p)?;
        isl.ast_c(&p).map_err(|e| isl_diagnostic(&e))
    })?;

    let poly_stmts = g.statements.clone();
    let isl_stmts: Vec<(String, usize)> = isl_in
        .statements
        .iter()
        .zip(&problem.statements)
        .map(|(n, s)| (n.clone(), s.iterators.len()))
        .collect();
    let nparams = problem.params.len();
    let poly_prog = harness::compile(
        "polyscan",
        &poly_function,
        &poly_stmts,
        nparams,
        opts.max_instances,
        opts.run_timeout,
    )
    .map_err(harness_diagnostic)?;
    let isl_prog = harness::compile(
        "isl",
        &harness::isl_scan_function(&isl_code, &isl_in.params),
        &isl_stmts,
        nparams,
        opts.max_instances,
        opts.run_timeout,
    )
    .map_err(harness_diagnostic)?;
    let names: Vec<String> = problem.statements.iter().map(|s| s.name.clone()).collect();
    let mut checks = Vec::new();
    for ps in params {
        let shown: Vec<String> = problem
            .params
            .iter()
            .zip(ps)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        let shown = if shown.is_empty() {
            "no parameters".to_string()
        } else {
            shown.join(",")
        };
        let point: Vec<polys::Int> = ps.iter().map(|&v| polys::Int::from(v)).collect();
        let outcome = if !problem.context.eval_int(&point) {
            Outcome::OutsideContext
        } else {
            let a = poly_prog.run(ps).map_err(harness_diagnostic)?;
            let b = isl_prog.run(ps).map_err(harness_diagnostic)?;
            outcome(&a, &b, &names)
        };
        checks.push(Check {
            params: ps.clone(),
            shown,
            outcome,
        });
    }
    Ok(Report {
        input: isl_in,
        param_names: problem.params.clone(),
        polyscan: Side {
            size: size_of(&poly_code),
            code: poly_code,
            median: poly_time,
        },
        isl: Side {
            size: size_of(&isl_code),
            code: isl_code,
            median: isl_time,
        },
        checks,
    })
}

fn outcome(a: &RunOutput, b: &RunOutput, names: &[String]) -> Outcome {
    // With a cap, only the common prefix is meaningful: compare the shorter prefix when
    // either side stopped early.
    let n = if a.truncated || b.truncated {
        a.instances.len().min(b.instances.len())
    } else {
        usize::MAX
    };
    let ai = &a.instances[..a.instances.len().min(n)];
    let bi = &b.instances[..b.instances.len().min(n)];
    match harness::first_difference(("polyscan", ai), ("isl", bi), names) {
        None if a.truncated != b.truncated => Outcome::Different(format!(
            "{} stops at the instance cap after {} instances, the other finishes",
            if a.truncated { "polyscan" } else { "isl" },
            ai.len()
        )),
        None => Outcome::Identical {
            instances: ai.len(),
            truncated: a.truncated,
        },
        Some(d) => Outcome::Different(d),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// The report as printed by the command.
pub fn render(r: &Report, runs: usize) -> String {
    let mut out = String::new();
    out.push_str("isl input (schedule with iterator and statement-index dimensions appended):\n");
    out.push_str(&format!("  domain:   {}\n", r.input.domain));
    out.push_str(&format!("  schedule: {}\n", r.input.schedule));
    out.push_str(&format!("  context:  {}\n\n", r.input.context));
    for (name, side) in [("polyscan", &r.polyscan), ("isl", &r.isl)] {
        out.push_str(&format!(
            "== {name}: {} CPU (median of {} runs), {} lines, {} loops, {} ifs\n{}\n",
            ms(side.median),
            runs.max(1),
            side.size.lines,
            side.size.loops,
            side.size.ifs,
            side.code.trim_end()
        ));
        out.push('\n');
    }
    let ratio = r.polyscan.median.as_secs_f64() / r.isl.median.as_secs_f64().max(1e-12);
    out.push_str(&format!(
        "generation time: polyscan {} / isl {} = {ratio:.2}\n",
        ms(r.polyscan.median),
        ms(r.isl.median)
    ));
    for c in &r.checks {
        match &c.outcome {
            Outcome::Identical {
                instances,
                truncated: false,
            } => out.push_str(&format!("{}: identical, {instances} instances\n", c.shown)),
            Outcome::Identical {
                instances,
                truncated: true,
            } => out.push_str(&format!(
                "{}: identical first {instances} instances (both stopped at --max-instances)\n",
                c.shown
            )),
            Outcome::Different(d) => out.push_str(&format!("{}: DIFFERENCE: {d}\n", c.shown)),
            Outcome::OutsideContext => {
                out.push_str(&format!("{}: outside the context, not run\n", c.shown))
            }
        }
    }
    out
}

/// `polyscan compare`.
pub fn run(args: CompareArgs) -> Result<(), Diagnostic> {
    // Without the library nothing can be compared: say how to get it first.
    if !polyscan_isl::available() {
        return Err(isl_diagnostic(&IslError::Missing));
    }
    let (src, problem) = load(&args.file)?;
    // Polynomial input is refused before any work (exit code 2).
    isl_input(&problem)?;
    let params = if args.params.is_empty() {
        default_params(problem.params.len())
    } else {
        args.params
            .iter()
            .map(|p| parse_params(p, &problem.params))
            .collect::<Result<Vec<_>, _>>()?
    };
    let opts = CompareOptions {
        runs: args.runs,
        max_instances: args.max_instances,
        limits: args.limits,
        tiling: args.tiling.clone(),
        ..CompareOptions::default()
    };
    let report = compare_source(&src, &args.file.display().to_string(), &params, &opts)?;
    print!("{}", render(&report, args.runs));
    if report
        .checks
        .iter()
        .all(|c| c.outcome == Outcome::OutsideContext)
    {
        eprintln!("note: no parameter values satisfy the context, nothing was run: give --params");
    }
    if report.all_identical() {
        Ok(())
    } else {
        Err(Diagnostic::new(
            ExitCode::Difference,
            "polyscan's and isl's programs run different instance sequences",
        ))
    }
}
