//! Glue for `polyscan.verify`: the steps of `polyscan verify` (`src/cli/verify.rs`) for
//! text instead of a file: generate, compile once with the system C compiler
//! (`codegen::verify`), run for each parameter set and compare with the instances
//! `codegen::oracle::expected_instances` finds by brute force, as the command does.

use crate::error::Error;
use crate::options::{values_for, Choices};
use codegen::input::Problem;
use codegen::verify::{compile_with, first_difference, VerifyError};
use std::time::Duration;

/// What one parameter set gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The parameter values, `n=5,m=3`.
    pub shown: String,
    /// Instances the generated code ran.
    pub instances: usize,
    /// The first difference from brute force, if any.
    pub difference: Option<String>,
    /// The values violate the context: the code promises nothing there, not checked.
    pub outside_context: bool,
}

/// Verifies `problem`'s code for each parameter set: `Ok(runs)`, or the error that kept a
/// check from running. A compile or run failure of the generated program is a difference
/// (the command's exit code 1), reported in the run.
pub fn verify(
    problem: Problem,
    choices: &Choices,
    sets: &[Vec<(String, i64)>],
    check_overflow: bool,
    run_timeout: f64,
) -> Result<Vec<Run>, Error> {
    if !(run_timeout.is_finite() && run_timeout > 0.0) {
        return Err(Error::input(format!(
            "run_timeout={run_timeout}: expected a positive number of seconds"
        )));
    }
    let out = choices.run(problem)?;
    let g = &out.generated;
    let names: Vec<String> = g.vars.names()[..g.nparams].to_vec();
    let sets: Vec<Vec<i64>> = if sets.is_empty() {
        if g.nparams > 0 {
            return Err(Error::input(format!(
                "give parameter values with params=[{{{}}}]",
                names
                    .iter()
                    .map(|n| format!("'{n}': ..."))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        vec![vec![]]
    } else {
        sets.iter()
            .map(|s| values_for(&names, s))
            .collect::<Result<_, _>>()?
    };
    let limit = Duration::from_secs_f64(run_timeout.min(1e9));
    let prog = match compile_with(g, check_overflow) {
        Ok(p) => p,
        Err(e @ VerifyError::Compile(_)) => {
            return Ok(vec![Run {
                shown: "all".into(),
                instances: 0,
                difference: Some(e.to_string()),
                outside_context: false,
            }])
        }
        Err(e) => return Err(Error::verify(e)),
    };
    let mut runs = Vec::new();
    for params in &sets {
        let shown = codegen::verify::params_label(&names, params);
        if !codegen::oracle::in_context(&out, params) {
            runs.push(Run {
                shown,
                instances: 0,
                difference: None,
                outside_context: true,
            });
            continue;
        }
        let got = match prog.run_with_timeout(params, Some(limit)) {
            Ok(got) => got,
            Err(e @ VerifyError::Run { .. }) => {
                runs.push(Run {
                    shown,
                    instances: 0,
                    difference: Some(e.to_string()),
                    outside_context: false,
                });
                continue;
            }
            Err(e) => return Err(Error::verify(e)),
        };
        let (expected, _) =
            codegen::oracle::expected_instances(&out, params, &got).map_err(Error::verify)?;
        runs.push(Run {
            shown,
            instances: got.len(),
            difference: first_difference(&expected, &got, g)
                .map(|d| format!("{d} ({} expected, {} generated)", expected.len(), got.len())),
            outside_context: false,
        });
    }
    Ok(runs)
}
