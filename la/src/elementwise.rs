//! Element-wise statements (issue 22): each one optimised by the sum-product optimiser
//! (`polyscan_sumproduct`, SPORES' relational equality saturation) over the declared shapes
//! and sparsity, reported with its FLOPs before and after, and emitted as a C program
//! (`program`) that runs the chosen plans on random data and checks them against the formula
//! evaluated directly (`naive`).

use polyscan_sumproduct::show::show;
use polyscan_sumproduct::{optimise, Limits, Operand, Optimised, Shapes, Stop};

use crate::ast::Program;
use crate::error::LaError;

pub mod naive;
pub mod program;

/// One statement's optimisation.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The assigned operand, by index into [`Program::operands`].
    pub lhs: usize,
    /// What the optimiser found.
    pub optimised: Optimised,
}

/// The operands of `p` as the optimiser sees them: shapes, and nonzeros from `Sparse(...)`.
pub fn shapes(p: &Program) -> Shapes {
    p.operands
        .iter()
        .map(|o| {
            let entries = o.rows as f64 * o.cols as f64;
            let nnz = o.density.map_or(entries, |d| d * entries);
            (o.name.clone(), Operand::sparse(o.rows, o.cols, nnz))
        })
        .collect()
}

/// Optimises every element-wise statement of `p`. A program that mixes them with the
/// kernel search's statements is refused for now.
pub fn solve(p: &Program, limits: Limits) -> Result<Vec<Solved>, LaError> {
    if let (Some(a), Some(e)) = (p.assignments.first(), p.elementwise.first()) {
        return Err(LaError::at(
            a.pos.line.max(e.pos.line),
            if a.pos.line > e.pos.line {
                a.pos.column
            } else {
                e.pos.column
            },
            "element-wise statements and matrix statements in one problem are not supported yet (put them in separate files)",
        ));
    }
    let shapes = shapes(p);
    p.elementwise
        .iter()
        .map(|s| {
            let optimised = optimise(&s.rhs, &shapes, limits).map_err(|e| {
                LaError::at(
                    s.pos.line,
                    s.pos.column,
                    format!("element-wise statement: {e}"),
                )
            })?;
            Ok(Solved {
                lhs: s.lhs,
                optimised,
            })
        })
        .collect()
}

/// The plans as text: per statement the plan in index notation and its FLOPs.
pub fn text(p: &Program, sols: &[Solved]) -> String {
    let mut out = String::new();
    let (mut before, mut after) = (0.0, 0.0);
    for s in sols {
        let o = &s.optimised;
        let stop = match &o.stop {
            Stop::Saturated => "saturated".to_string(),
            Stop::Limit(l) => format!("stopped: {l}"),
        };
        out += &format!(
            "{} := {}\n    {:.4e} FLOPs as written, {:.4e} chosen ({} e-nodes, {stop})\n",
            p.operands[s.lhs].name,
            show(&o.plan),
            o.before,
            o.after,
            o.nodes
        );
        before += o.before;
        after += o.after;
    }
    let ratio = if after > 0.0 { before / after } else { 1.0 };
    out += &format!("total:  {after:.4e} FLOPs\nas written: {before:.4e} FLOPs ({ratio:.2}x)");
    out
}

/// The plans as one JSON object.
pub fn json(p: &Program, sols: &[Solved]) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let stmts: Vec<String> = sols
        .iter()
        .map(|s| {
            let o = &s.optimised;
            format!(
                "{{\"output\": {}, \"plan\": {}, \"flops_as_written\": {:e}, \"flops\": {:e}, \"saturated\": {}}}",
                quote(&p.operands[s.lhs].name),
                quote(&show(&o.plan)),
                o.before,
                o.after,
                o.stop == Stop::Saturated
            )
        })
        .collect();
    let total: f64 = sols.iter().map(|s| s.optimised.after).sum();
    let written: f64 = sols.iter().map(|s| s.optimised.before).sum();
    format!(
        "{{\"elementwise\": [{}], \"flops\": {total:e}, \"flops_as_written\": {written:e}}}",
        stmts.join(", ")
    )
}
