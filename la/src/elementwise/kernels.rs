//! The catalogue kernels of a statement's plan with their FLOPs, for the reports: the plan
//! emitted once with plain loops (`polyscan_sumproduct::term::Loops`, no codegen), each term
//! that is a catalogue kernel priced by its formula (a CSR kernel's at the operand's
//! declared nonzeros), summed per kernel.

use std::collections::{BTreeMap, BTreeSet};

use polyscan_sumproduct::emit::{c_function_in_workspace_scanned, Storage};
use polyscan_sumproduct::term::Loops;
use polyscan_sumproduct::{La, Optimised};

use crate::ast::Program;
use crate::error::LaError;

/// The kernels of the plan `o` of `rhs`, in first-use order, with the FLOPs of their terms;
/// `csr(i)`: whether the plan reads operand `i` in CSR form; `gemm`: whether dense products
/// are GEMM calls (files with matrix statements) rather than REDUCE terms.
pub fn plan_kernels(
    p: &Program,
    rhs: &La,
    o: &Optimised,
    csr: impl Fn(usize) -> bool,
    gemm: bool,
) -> Result<Vec<(&'static str, f64)>, LaError> {
    let mut names = BTreeSet::new();
    super::names(rhs, &mut names);
    let mut storage = BTreeMap::new();
    let mut nnz = BTreeMap::new();
    for n in names {
        let Some(i) = p.operands.iter().position(|op| op.name == n) else {
            return Err(LaError::Unsupported(format!("unknown operand `{n}`")));
        };
        let op = &p.operands[i];
        let entries = op.rows as f64 * op.cols as f64;
        nnz.insert(n.clone(), op.density.map_or(entries, |d| d * entries));
        let st = if csr(i) {
            Storage::Csr
        } else {
            Storage::Dense { rows: op.rows }
        };
        storage.insert(n, st);
    }
    let f = c_function_in_workspace_scanned(
        "ps_plan",
        &o.plan,
        &o.input.dims,
        &storage,
        (o.input.rows, o.input.cols),
        gemm,
        &mut Loops,
    )
    .map_err(|e| LaError::Unsupported(format!("element-wise statement: {e}")))?;
    let mut out: Vec<(&'static str, f64)> = Vec::new();
    for c in &f.kernels {
        let z = c
            .csr
            .as_ref()
            .and_then(|x| nnz.get(x))
            .copied()
            .unwrap_or(0.0);
        let flops = c.flops(z);
        match out.iter_mut().find(|(k, _)| *k == c.kernel.name()) {
            Some((_, total)) => *total += flops,
            None => out.push((c.kernel.name(), flops)),
        }
    }
    Ok(out)
}

/// The kernels as a JSON list: `[{"name": "CSRMM", "flops": 800}, ...]`.
pub fn json(kernels: &[(&'static str, f64)]) -> String {
    let parts: Vec<String> = kernels
        .iter()
        .map(|(k, f)| format!("{{\"name\": \"{k}\", \"flops\": {f:e}}}"))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// The report's line of a plan's kernels: `kernels: CSRMM 8.0000e2, EWMAP 2.0000e3` (empty
/// when none).
pub fn line(kernels: &[(&'static str, f64)]) -> String {
    if kernels.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = kernels
        .iter()
        .map(|(k, f)| format!("{k} {f:.4e}"))
        .collect();
    format!("kernels: {}", parts.join(", "))
}
