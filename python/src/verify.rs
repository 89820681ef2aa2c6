//! Glue for `polyscan.verify`: the steps of `polyscan verify` (`src/cli/verify.rs`) for
//! text instead of a file: generate, compile once with the system C compiler
//! (`codegen::verify`), run for each parameter set and compare with brute force over a box
//! around the instances (tiled code: the original domain ordered by tile,
//! `codegen::tile_problem::tiled_brute_force`). Only `original_box` is copied from the
//! command line; it belongs in `codegen::verify` beside `box_around`.

use crate::error::Error;
use crate::options::{values_for, Choices};
use codegen::input::Problem;
use codegen::verify::{box_around, brute_force, compile_with, first_difference, VerifyError};
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
            }])
        }
        Err(e) => return Err(Error::verify(e)),
    };
    let mut runs = Vec::new();
    for params in &sets {
        let shown: Vec<String> = names
            .iter()
            .zip(params)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        let shown = if shown.is_empty() {
            "no parameters".into()
        } else {
            shown.join(",")
        };
        let got = match prog.run_with_timeout(params, Some(limit)) {
            Ok(got) => got,
            Err(e @ VerifyError::Run { .. }) => {
                runs.push(Run {
                    shown,
                    instances: 0,
                    difference: Some(e.to_string()),
                });
                continue;
            }
            Err(e) => return Err(Error::verify(e)),
        };
        let expected = match &out.tiled {
            None => {
                let bx = box_around(&got, g, 4);
                brute_force(g, params, &bx).map_err(Error::verify)?
            }
            Some(t) => {
                // Instances carry original coordinates: brute force the original domain
                // and order it by tile, independently of the tiled system.
                let bx = original_box(&got, out.original.depth(), 4);
                codegen::tile_problem::tiled_brute_force(&out.original, t, params, &bx).map_err(
                    |volume| {
                        Error::Limit(format!(
                            "a box of {volume} points is too large to enumerate"
                        ))
                    },
                )?
            }
        };
        runs.push(Run {
            shown,
            instances: got.len(),
            difference: first_difference(&expected, &got, g)
                .map(|d| format!("{d} ({} expected, {} generated)", expected.len(), got.len())),
        });
    }
    Ok(runs)
}

/// A box around the original coordinates that `instances` carry, widened by `margin` or
/// by half the extent on every side (`original_box` of `src/cli/verify.rs`).
fn original_box(
    instances: &[codegen::verify::Instance],
    depth: usize,
    margin: i64,
) -> Vec<(i64, i64)> {
    let mut bx: Vec<Option<(i64, i64)>> = vec![None; depth];
    for (_, vals) in instances {
        for (k, &x) in vals.iter().enumerate() {
            bx[k] = Some(match bx[k] {
                None => (x, x),
                Some((l, h)) => (l.min(x), h.max(x)),
            });
        }
    }
    bx.into_iter()
        .map(|r| {
            let (l, h) = r.unwrap_or((0, 0));
            let m = margin.max((h - l) / 2);
            (l - m, h + m)
        })
        .collect()
}
