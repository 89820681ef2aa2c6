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
use polyscan_isl::compare::{
    compare_source, params_for, CompareError, CompareOptions, Outcome, Report,
};
use polyscan_isl::harness::HarnessError;
use polyscan_isl::{input, IslError, NotAffine};
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

/// A comparison that could not be made, as a diagnostic; `origin` names the input in
/// messages that point into it.
pub fn compare_diagnostic(origin: &str, e: CompareError) -> Diagnostic {
    match e {
        CompareError::Input(ie) => input_diagnostic(origin, &ie),
        CompareError::NotAffine(na) => not_affine_diagnostic(&na),
        CompareError::Isl(ie) => isl_diagnostic(&ie),
        CompareError::Generation(pe) => pipeline_diagnostic(origin, pe),
        CompareError::Harness(he) => harness_diagnostic(he),
        CompareError::Print(_) => Diagnostic::new(ExitCode::Resource, e.to_string()),
        CompareError::Tiling(_) | CompareError::TileOrder | CompareError::IslTiling(_) => {
            Diagnostic::new(ExitCode::BadInput, e.to_string())
        }
    }
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
    input::from_problem(&problem).map_err(|e| not_affine_diagnostic(&e))?;
    let params = if args.params.is_empty() {
        params_for(&problem)
    } else {
        args.params
            .iter()
            .map(|p| parse_params(p, &problem.params))
            .collect::<Result<Vec<_>, _>>()?
    };
    let opts = CompareOptions {
        runs: args.runs,
        max_instances: args.max_instances,
        max_cells: args.limits.max_cells,
        time_limit: args.limits.time_limit(),
        tiling: args.tiling.tiling(),
        ..CompareOptions::default()
    };
    let origin = args.file.display().to_string();
    let report =
        compare_source(&src, &params, &opts).map_err(|e| compare_diagnostic(&origin, e))?;
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
