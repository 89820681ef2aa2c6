//! `polyscan verify`: generate, compile with the system C compiler, run for parameter
//! values and compare the instance sequence with brute-force enumeration.

use super::gen::generate_file;
use super::{Diagnostic, ExitCode};
use clap::Args;
use codegen::verify::{compile_with, first_difference, VerifyError};
use std::path::PathBuf;

/// Check the generated code against brute force for concrete parameter values.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Input file (see `polyscan gen --help`).
    pub file: PathBuf,
    #[command(flatten)]
    pub limits: super::gen::Limits,
    /// Parameter values, e.g. `--params n=5,m=3`; repeat for several runs. Required when
    /// the domain has parameters. Values outside the context are reported and skipped:
    /// the code assumes the context, as isl's does, and promises nothing there.
    #[arg(long = "params", value_name = "NAME=VALUE,...")]
    pub params: Vec<String>,
    #[command(flatten)]
    pub choices: super::gen::Choices,
    /// Compile the `--check-overflow` variant: an overflow stops the run with its message
    /// (exit code 3) instead of producing wrong instances.
    #[arg(long)]
    pub check_overflow: bool,
    /// Kill a run of the generated program after this many seconds (exit code 3).
    #[arg(long, value_name = "SECS", default_value = "60")]
    pub run_timeout: f64,
}

/// Parses `n=5,m=3` against the parameter list.
pub fn parse_params(text: &str, names: &[String]) -> Result<Vec<i64>, Diagnostic> {
    let bad = |m: String| Diagnostic::new(ExitCode::BadInput, format!("--params {text}: {m}"));
    let mut values: Vec<Option<i64>> = vec![None; names.len()];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, value) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("expected NAME=VALUE, found '{part}'")))?;
        let k = names.iter().position(|n| n == name.trim()).ok_or_else(|| {
            bad(format!(
                "'{}' is not a parameter ({})",
                name.trim(),
                names.join(", ")
            ))
        })?;
        let v: i64 = value
            .trim()
            .parse()
            .map_err(|_| bad(format!("'{}' is not a 64-bit integer", value.trim())))?;
        values[k] = Some(v);
    }
    values
        .into_iter()
        .zip(names)
        .map(|(v, n)| v.ok_or_else(|| bad(format!("no value for parameter '{n}'"))))
        .collect()
}

fn verify_error(e: VerifyError) -> Diagnostic {
    let code = match e {
        VerifyError::NoCompiler
        | VerifyError::BoxTooLarge(_)
        | VerifyError::Print(_)
        | VerifyError::Timeout { .. }
        | VerifyError::Overflow { .. }
        | VerifyError::OutputTooLarge { .. } => ExitCode::Resource,
        _ => ExitCode::Difference,
    };
    Diagnostic::new(code, e.to_string())
}

pub fn run(args: VerifyArgs) -> Result<(), Diagnostic> {
    let out = generate_file(&args.file, &args.choices, args.limits)?;
    let g = &out.generated;
    let names: Vec<String> = g.vars.names()[..g.nparams].to_vec();
    let sets: Vec<Vec<i64>> = if args.params.is_empty() {
        if g.nparams > 0 {
            return Err(Diagnostic::new(
                ExitCode::BadInput,
                format!(
                    "give parameter values with --params ({}=...)",
                    names.join("=..., ")
                ),
            ));
        }
        vec![vec![]]
    } else {
        args.params
            .iter()
            .map(|p| parse_params(p, &names))
            .collect::<Result<_, _>>()?
    };
    if !(args.run_timeout.is_finite() && args.run_timeout > 0.0) {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            format!(
                "--run-timeout {}: expected a positive number of seconds",
                args.run_timeout
            ),
        ));
    }
    let limit = std::time::Duration::from_secs_f64(args.run_timeout.min(1e9));
    let prog = compile_with(g, args.check_overflow).map_err(verify_error)?;
    let mut failed = false;
    for params in &sets {
        let shown = codegen::verify::params_label(&names, params);
        if !codegen::oracle::in_context(&out, params) {
            println!("{shown}: outside the context, not checked (nothing is promised there)");
            continue;
        }
        let got = prog
            .run_with_timeout(params, Some(limit))
            .map_err(verify_error)?;
        let (expected, bx) =
            codegen::oracle::expected_instances(&out, params, &got).map_err(verify_error)?;
        match first_difference(&expected, &got, g) {
            None => println!(
                "{shown}: ok, {} instances (brute force over {:?})",
                got.len(),
                bx
            ),
            Some(d) => {
                failed = true;
                println!(
                    "{shown}: DIFFERENCE: {d} ({} expected, {} generated)",
                    expected.len(),
                    got.len()
                );
            }
        }
    }
    if failed {
        Err(Diagnostic::new(
            ExitCode::Difference,
            "the generated code differs from brute force",
        ))
    } else {
        Ok(())
    }
}
