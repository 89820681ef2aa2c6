//! `polyscan la`: map a linear-algebra problem (Linnea's input language) to a kernel
//! sequence and print it, with its cost and the naive cost.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{Diagnostic, ExitCode};
use crate::la::{self, search::SearchOptions, LaError};

#[derive(Args, Debug)]
pub struct LaArgs {
    /// Problem file in Linnea's input language.
    pub file: PathBuf,
    /// Time for the search to improve on the first solution, in seconds.
    #[arg(long, default_value_t = 1.0)]
    pub time_limit: f64,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: LaArgs) -> Result<(), Diagnostic> {
    let src = std::fs::read_to_string(&args.file).map_err(|e| {
        Diagnostic::new(
            ExitCode::BadInput,
            format!("cannot read {}: {e}", args.file.display()),
        )
    })?;
    if !(args.time_limit.is_finite() && args.time_limit >= 0.0) {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            "--time-limit must be a non-negative number of seconds",
        ));
    }
    let opts = SearchOptions {
        time_limit: Duration::from_secs_f64(args.time_limit.min(1e6)),
        ..SearchOptions::default()
    };
    let (sol, regions) =
        la::compile_with_regions(&src, opts).map_err(|e| diagnostic(&args.file, &src, &e))?;
    let out = match (&regions, args.json) {
        (None, true) => la::report::json(&sol),
        (None, false) => la::report::text(&sol),
        (Some(r), true) => {
            // One JSON object: the solution's fields plus the regions.
            let mut base: serde_json::Value =
                serde_json::from_str(&la::report::json(&sol)).unwrap_or_default();
            let regions: serde_json::Value =
                serde_json::from_str(&la::report::regions_json(r)).unwrap_or_default();
            if let (Some(obj), Some(reg)) = (base.as_object_mut(), regions.as_object()) {
                for (k, v) in reg {
                    obj.insert(k.clone(), v.clone());
                }
            }
            base.to_string()
        }
        (Some(r), false) => format!(
            "{}\n{}",
            la::report::text(&sol),
            la::report::regions_text(r)
        ),
    };
    // A closed pipe (e.g. `| head`) is not an error of the problem.
    let _ = writeln!(std::io::stdout(), "{out}");
    Ok(())
}

fn diagnostic(file: &std::path::Path, src: &str, e: &LaError) -> Diagnostic {
    match e.position() {
        Some((line, column)) => {
            let text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
            Diagnostic::at(
                format!("{}:{line}", file.display()),
                text,
                column,
                e.to_string(),
            )
        }
        None if matches!(e, LaError::Resource(_)) => {
            Diagnostic::new(ExitCode::Resource, e.to_string())
        }
        None => Diagnostic::new(ExitCode::BadInput, e.to_string()),
    }
}
