//! Runs a loop AST exactly (big integers) and reports statement instances in execution
//! order: the in-process oracle for simplifications and tests.

use crate::ast::Node;
use crate::expr::EvalError;
use polys::{Coeff, Int};

/// Why a run stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// A bound or argument could not be evaluated.
    Eval(EvalError),
    /// More instances than the budget allowed.
    Budget,
    /// A guard read a parameter that has no value.
    Unset(usize),
}

impl From<EvalError> for RunError {
    fn from(e: EvalError) -> RunError {
        RunError::Eval(e)
    }
}

/// Executes `nodes` with `point` holding the values of every variable read (parameters
/// set by the caller; loop variables are written here). Calls `visit(stmt, args)` per
/// instance with the statement's argument values; at most `budget` instances.
pub fn run(
    nodes: &[Node],
    point: &mut Vec<Int>,
    budget: &mut usize,
    visit: &mut impl FnMut(usize, &[Int]),
) -> Result<(), RunError> {
    for n in nodes {
        match n {
            Node::Stmt { stmt, args } => {
                if *budget == 0 {
                    return Err(RunError::Budget);
                }
                *budget -= 1;
                let vals: Result<Vec<Int>, _> = args.iter().map(|a| a.eval(point)).collect();
                visit(*stmt, &vals?);
            }
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => {
                let v = point.get(*var).cloned().ok_or(RunError::Unset(*var))?;
                let ok_lo = match lower {
                    Some(e) => e.eval(point)? <= v,
                    None => true,
                };
                let ok_hi = match upper {
                    Some(e) => v <= e.eval(point)?,
                    None => true,
                };
                if ok_lo && ok_hi {
                    run(body, point, budget, visit)?;
                }
            }
            Node::Test { cond, body } => {
                if cond.holds(point)? {
                    run(body, point, budget, visit)?;
                }
            }
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                let lo = lower.eval(point)?;
                let hi = upper.eval(point)?;
                if point.len() <= *var {
                    point.resize(var + 1, Int::from(0));
                }
                let mut x = lo;
                while x <= hi {
                    point[*var] = x.clone();
                    run(body, point, budget, visit)?;
                    x = x.add(&Int::from(*step));
                }
            }
        }
    }
    Ok(())
}

/// The instance sequence `(stmt, iterator values)` of `nodes` for the given parameter
/// values, with `nvars` variables in all; `None` past `budget` instances.
pub fn instances(
    nodes: &[Node],
    params: &[Int],
    nvars: usize,
    budget: usize,
) -> Result<Vec<(usize, Vec<Int>)>, RunError> {
    let mut point = params.to_vec();
    point.resize(nvars, Int::from(0));
    let mut out = Vec::new();
    let mut budget = budget;
    run(nodes, &mut point, &mut budget, &mut |s, args| {
        out.push((s, args.to_vec()))
    })?;
    Ok(out)
}

/// The instances of `nodes` with the leading variables fixed to `point` (the rest are
/// written by the loops), as `(stmt, argument values)`.
pub fn instances_at(
    nodes: &[Node],
    point: &[Int],
    budget: usize,
) -> Result<Vec<(usize, Vec<Int>)>, RunError> {
    let mut pt = point.to_vec();
    let mut out = Vec::new();
    let mut budget = budget;
    run(nodes, &mut pt, &mut budget, &mut |s, p| {
        out.push((s, p.to_vec()))
    })?;
    Ok(out)
}
