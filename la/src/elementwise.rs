//! Element-wise statements (issue 22): each one optimised by the sum-product optimiser
//! (`polyscan_sumproduct`, SPORES' relational equality saturation) over the declared shapes
//! and sparsity, reported with its FLOPs before and after, and emitted as a C program
//! (`program`) that runs the chosen plans on random data and checks them against the formula
//! evaluated directly (`naive`). In a file that also has matrix statements, `place` puts
//! each plan before or after their kernel sequence (`program::sumproduct` emits it there).

use polyscan_sumproduct::show::show;
use std::collections::BTreeSet;

use polyscan_sumproduct::{optimise, La, Limits, Operand, Optimised, Shapes, Stop};

use crate::ast::{Expr, Program};
use crate::error::LaError;

pub mod kernels;
pub mod naive;
pub mod program;

/// One statement's optimisation.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The assigned operand, by index into [`Program::operands`].
    pub lhs: usize,
    /// What the optimiser found.
    pub optimised: Optimised,
    /// The catalogue kernels of its plan with their FLOPs ([`kernels::plan_kernels`]).
    pub kernels: Vec<(&'static str, f64)>,
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

/// Optimises every element-wise statement of `p` (the matrix statements, if any, are the
/// kernel search's; see [`place`] for programs that mix both).
pub fn solve(p: &Program, limits: Limits) -> Result<Vec<Solved>, LaError> {
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
            let kernels = kernels::plan_kernels(p, &s.rhs, &optimised, |i| is_csr(p, i), false)?;
            Ok(Solved {
                lhs: s.lhs,
                optimised,
                kernels,
            })
        })
        .collect()
}

/// An element-wise statement of a program that may also have matrix statements: its plan,
/// and where it runs relative to the kernel sequence of the matrix statements.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The assigned operand, by index into [`Program::operands`].
    pub lhs: usize,
    /// The formula as written.
    pub rhs: La,
    /// What the optimiser found.
    pub optimised: Optimised,
    /// Whether it runs before the kernel sequence (it reads no output of a matrix
    /// statement, directly or through another element-wise statement); else after it.
    pub before: bool,
    /// The operands it reads, by index, each with whether the plan reads it in CSR form.
    pub reads: Vec<(usize, bool)>,
    /// Where its left-hand side stands (line, column): the statements' source order.
    pub pos: (usize, usize),
    /// The catalogue kernels of its plan with their FLOPs, dense products as GEMM calls
    /// ([`kernels::plan_kernels`]).
    pub kernels: Vec<(&'static str, f64)>,
}

/// Operand names an element-wise expression reads.
pub fn names(e: &La, out: &mut BTreeSet<String>) {
    match e {
        La::Operand(n) => {
            out.insert(n.clone());
        }
        La::Num(_) => {}
        La::MatMul(a, b) | La::Times(a, b) | La::Plus(a, b) => {
            names(a, out);
            names(b, out);
        }
        La::Power(a, _)
        | La::Apply(_, a)
        | La::Sum(a)
        | La::Trace(a)
        | La::Diag(a)
        | La::RowSums(a)
        | La::ColSums(a)
        | La::Trans(a) => names(a, out),
    }
}

/// Operands a matrix expression reads.
pub fn reads(e: &Expr, out: &mut BTreeSet<usize>) {
    match e {
        Expr::Operand(i) => {
            out.insert(*i);
        }
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => {
            reads(a, out);
            reads(b, out);
        }
        Expr::Neg(a) | Expr::Trans(a) | Expr::Inv(a) => reads(a, out),
        Expr::Block(rows) => rows.iter().flatten().for_each(|x| reads(x, out)),
    }
}

/// Whether the plans read operand `i` of `p` in CSR form: a sparse input (declared
/// `Sparse(d)` with d below 1, assigned by no statement) with more than one row and column.
pub fn is_csr(p: &Program, i: usize) -> bool {
    let o = &p.operands[i];
    let assigned =
        p.assignments.iter().any(|a| a.lhs == i) || p.elementwise.iter().any(|e| e.lhs == i);
    !assigned && o.density.is_some_and(|d| d < 1.0) && o.rows > 1 && o.cols > 1
}

/// Optimises the element-wise statements of a program that may mix them with matrix
/// statements, and places each before or after the kernel sequence. A matrix statement
/// may read the result of an element-wise one that runs before the sequence, not of one
/// that reads a matrix statement's result itself (that would interleave the two, which
/// is refused with the matrix statement's position).
pub fn place(p: &Program, limits: Limits) -> Result<Vec<Placed>, LaError> {
    let solved = solve(p, limits)?;
    let kernel_outputs: BTreeSet<usize> = p.assignments.iter().map(|a| a.lhs).collect();
    let mut after: BTreeSet<usize> = BTreeSet::new();
    let mut order: Vec<usize> = (0..p.elementwise.len()).collect();
    order.sort_by_key(|&k| (p.elementwise[k].pos.line, p.elementwise[k].pos.column));
    let mut placed: Vec<Option<Placed>> = vec![None; solved.len()];
    for k in order {
        let (s, sol) = (&p.elementwise[k], &solved[k]);
        let mut ns = BTreeSet::new();
        names(&s.rhs, &mut ns);
        let mut rd = Vec::new();
        for n in &ns {
            let i = p
                .operands
                .iter()
                .position(|o| &o.name == n)
                .ok_or_else(|| LaError::Unsupported(format!("unknown operand `{n}`")))?;
            rd.push((i, is_csr(p, i)));
        }
        let before = !rd
            .iter()
            .any(|(i, _)| kernel_outputs.contains(i) || after.contains(i));
        if !before {
            after.insert(s.lhs);
        }
        let kernels = kernels::plan_kernels(p, &s.rhs, &sol.optimised, |i| is_csr(p, i), true)?;
        placed[k] = Some(Placed {
            kernels,
            lhs: s.lhs,
            rhs: s.rhs.clone(),
            optimised: sol.optimised.clone(),
            before,
            reads: rd,
            pos: (s.pos.line, s.pos.column),
        });
    }
    for a in &p.assignments {
        let mut rd = BTreeSet::new();
        reads(&a.rhs, &mut rd);
        if let Some(i) = rd.iter().find(|i| after.contains(i)) {
            return Err(LaError::at(
                a.pos.line,
                a.pos.column,
                format!(
                    "this matrix statement reads `{}`, an element-wise result computed from a matrix statement's: interleaving the two is not supported (compute it without the matrix result, or in another file)",
                    p.operands[*i].name
                ),
            ));
        }
    }
    Ok(placed.into_iter().flatten().collect())
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
        let line = kernels::line(&s.kernels);
        if !line.is_empty() {
            out += &format!("    {line}\n");
        }
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
                "{{\"output\": {}, \"plan\": {}, \"flops_as_written\": {:e}, \"flops\": {:e}, \"saturated\": {}, \"kernels\": {}}}",
                quote(&p.operands[s.lhs].name),
                quote(&show(&o.plan)),
                o.before,
                o.after,
                o.stop == Stop::Saturated,
                kernels::json(&s.kernels)
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
