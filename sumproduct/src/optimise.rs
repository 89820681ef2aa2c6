//! The optimiser: an expression's relational form saturated with the rules under a
//! [`Limits`] budget (egg's `Runner`), and the cheapest plan extracted, with its cost and the
//! input's under the same cost model.

use std::time::Duration;

use egg::{BackoffScheduler, RecExpr, Runner, StopReason};

use crate::analysis::{Facts, Graph};
use crate::error::SumProductError;
use crate::expr::{La, Shapes};
use crate::extract::extract;
use crate::relation::Rel;
use crate::rules::rules;
use crate::translate::{translate, Relational};

/// Budget of one saturation.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Rule application rounds.
    pub iterations: usize,
    /// E-nodes.
    pub nodes: usize,
    /// Wall-clock time.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            iterations: 30,
            nodes: 20_000,
            time: Duration::from_secs(2),
        }
    }
}

/// Why saturation stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// No rule adds anything: every equivalent plan the rules reach is in the graph.
    Saturated,
    /// A limit of [`Limits`] was reached (named).
    Limit(String),
}

/// The result of optimising one expression.
#[derive(Debug, Clone)]
pub struct Optimised {
    /// The input in relational form.
    pub input: Relational,
    /// FLOPs of evaluating the input as written (shared subexpressions once).
    pub before: f64,
    /// FLOPs of the chosen plan.
    pub after: f64,
    /// The chosen plan.
    pub plan: RecExpr<Rel>,
    /// Why saturation stopped.
    pub stop: Stop,
    /// E-nodes at the end.
    pub nodes: usize,
}

fn facts(r: &Relational, shapes: &Shapes) -> Facts {
    Facts {
        dims: r.dims.clone(),
        density: shapes
            .iter()
            .map(|(n, o)| (egg::Symbol::from(n.as_str()), o.density()))
            .collect(),
    }
}

/// The cost of `r`'s plan as written.
fn cost_as_written(r: &Relational, shapes: &Shapes) -> Result<f64, SumProductError> {
    let mut g = Graph::new(facts(r, shapes));
    let root = g.add_expr(&r.expr);
    g.rebuild();
    extract(&g, root)
        .map(|(c, _)| c)
        .ok_or_else(|| SumProductError::Unsupported("an expression without a plan".into()))
}

/// Optimises `e` over operands `shapes`.
pub fn optimise(e: &La, shapes: &Shapes, limits: Limits) -> Result<Optimised, SumProductError> {
    let input = translate(e, shapes)?;
    let before = cost_as_written(&input, shapes)?;
    let runner: Runner<Rel, Facts, ()> = Runner::new(facts(&input, shapes))
        .with_iter_limit(limits.iterations)
        .with_node_limit(limits.nodes)
        .with_time_limit(limits.time)
        .with_scheduler(BackoffScheduler::default())
        .with_expr(&input.expr)
        .run(&rules());
    let stop = match &runner.stop_reason {
        Some(StopReason::Saturated) => Stop::Saturated,
        Some(other) => Stop::Limit(format!("{other:?}")),
        None => Stop::Limit("none reported".into()),
    };
    let root = runner.roots[0];
    let (after, plan) = extract(&runner.egraph, root)
        .ok_or_else(|| SumProductError::Unsupported("an expression without a plan".into()))?;
    // The input is in the graph, so extraction can only do better; keep the input on a tie.
    let (after, plan) = if after < before {
        (after, plan)
    } else {
        (before, input.expr.clone())
    };
    Ok(Optimised {
        nodes: runner.egraph.total_number_of_nodes(),
        input,
        before,
        after,
        plan,
        stop,
    })
}

/// The FLOPs of `e` as written, under the optimiser's cost model.
pub fn cost(e: &La, shapes: &Shapes) -> Result<f64, SumProductError> {
    cost_as_written(&translate(e, shapes)?, shapes)
}
