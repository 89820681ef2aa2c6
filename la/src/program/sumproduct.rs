//! Element-wise statements inside kernel programs and C APIs (issue 22): each statement's
//! sum-product plan (`polyscan_sumproduct::emit`, its temporaries in step scratch) as a
//! static function `ps_plan_k` (its element-wise, reduction and CSR terms as catalogue
//! nests scanned by codegen, `catalogue::CatalogueScan`), called before or after the kernel sequence as
//! `elementwise::place` decided. Sparse inputs are read in CSR form through file-scope
//! pointers (`ps_csr_rowptr_i`, `ps_csr_colind_i`, `ps_csr_val_i` for operand i) that the
//! program's `main` builds or the C API's call points at the caller's arrays. The direct
//! evaluation runs the matrix and element-wise statements in source order.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use polyscan_sumproduct::emit::{c_function_in_workspace_scanned, Storage, PRELUDE};
use polyscan_sumproduct::show::show;
use polyscan_sumproduct::term::TermCall;

use super::assemble::naive;
use super::catalogue::CatalogueScan;
use super::dim::Dim;
use super::emitter::Emitter;
use super::options::Backend;
use crate::ast::Program;
use crate::elementwise::naive::naive_c;
use crate::elementwise::shapes;
use crate::error::LaError;
use crate::kernels::Kernel;
use crate::search::Solution;

/// The C helpers that turn a dense column-major matrix into CSR (`ps_csr_build`).
pub(super) const CSR_BUILD: &str = include_str!("c/csr.c");

/// The operands the plans of `sol` read in CSR form, by index.
pub(super) fn csr_operands(sol: &Solution) -> Vec<usize> {
    let set: BTreeSet<usize> = sol
        .elementwise
        .iter()
        .flat_map(|p| p.reads.iter().filter(|r| r.1).map(|r| r.0))
        .collect();
    set.into_iter().collect()
}

/// Every output of `q`: the matrix statements' and the element-wise ones'.
pub(super) fn outputs(q: &Program) -> Vec<usize> {
    let mut o = q.outputs();
    o.extend(q.elementwise.iter().map(|e| e.lhs));
    o
}

/// Element-wise statements run at the declared sizes only (their plans are specialised
/// there): an error when `q`, the problem at the run sizes, differs from `p`.
pub(super) fn check_sizes(p: &Program, q: &Program) -> Result<(), LaError> {
    if !p.elementwise.is_empty() && p.sizes != q.sizes {
        return Err(LaError::Unsupported(
            "element-wise statements run at the declared sizes: --size and --scale do not apply to this file".into(),
        ));
    }
    Ok(())
}

/// The plans' functions and the CSR pointers, at file scope; `tls` makes the pointers
/// thread-local (the C API, which concurrent calls may run). Dense matrix products inside
/// a plan call `ps_plan_gemm`, defined here for `em`'s back end: the blocked GEMM of
/// `polyscan kernel` (`Generated`, included in `em`'s library), `cblas_dgemm` (`Blas`) or
/// a loop nest in GEMM's catalogue order (`Nests`).
pub(super) fn functions(
    em: &mut Emitter,
    sol: &Solution,
    tls: bool,
) -> Result<(String, Vec<u64>), LaError> {
    if sol.elementwise.is_empty() {
        return Ok((String::new(), Vec::new()));
    }
    let env = &sol.lowered.env;
    let mut text =
        format!("\n/* Element-wise statements: sum-product plans as loop nests. */\n{PRELUDE}");
    if !tls && !csr_operands(sol).is_empty() {
        // The program's main builds the CSR arrays from its dense fills.
        text += CSR_BUILD;
    }
    let tls = if tls { "_Thread_local " } else { "" };
    for i in csr_operands(sol) {
        let _ = writeln!(
            text,
            "static {tls}const int64_t *ps_csr_rowptr_{i}, *ps_csr_colind_{i}; /* {} in CSR */\nstatic {tls}const double *ps_csr_val_{i};",
            env.entities[i].name
        );
    }
    let mut works = Vec::new();
    let mut functions = String::new();
    let mut gemm = false;
    let mut scan = CatalogueScan::default();
    let mut kernels = Vec::new();
    for (k, pl) in sol.elementwise.iter().enumerate() {
        let f = c_function_in_workspace_scanned(
            &format!("ps_plan_{k}"),
            &pl.optimised.plan,
            &pl.optimised.input.dims,
            &storage(sol, k),
            (pl.optimised.input.rows, pl.optimised.input.cols),
            true,
            &mut scan,
        )
        .map_err(|e| LaError::Unsupported(format!("element-wise statement: {e}")))?;
        functions += &f.text;
        works.push(f.work);
        gemm |= f.gemm;
        kernels.extend(f.kernels);
    }
    realise_terms(em, &kernels);
    if gemm {
        text += &gemm_hook(em)?;
    }
    text += &functions;
    Ok((text, works))
}

/// The realisation entries of the term kernels the plans use (`EWMAP`, `CSRMM`, ...), once
/// each, in first-use order.
fn realise_terms(em: &mut Emitter, calls: &[TermCall]) {
    for c in calls {
        let name = c.kernel.name();
        if !em.realisation.iter().any(|(k, _)| k == name) {
            em.realisation.push((name.to_string(), term_realisation(c)));
        }
    }
}

/// How a term kernel is realised, for the realisation listing.
pub(crate) fn term_realisation(c: &TermCall) -> String {
    let spec = super::catalogue::term_kernel(c.kernel).spec();
    format!(
        "catalogue nest of {} scanned by codegen in the plans ({} FLOPs)",
        spec.map_or("", |s| s.domain),
        spec.map_or("", |s| s.cost)
    )
}

/// `ps_plan_gemm(m, n, k, alpha, A, lda, B, ldb, C, ldc)`: `C += alpha A B`, column-major,
/// by the back end's dense product.
fn gemm_hook(em: &mut Emitter) -> Result<String, LaError> {
    let head = "static void ps_plan_gemm(int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda, const double *b, int64_t ldb, double *c, int64_t ldc)\n{\n";
    let body = match em.backend {
        Backend::Blas => "  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, 1.0, c, (int)ldc);\n".to_string(),
        Backend::Generated if em.lib.has(Kernel::Gemm)? => {
            "  polyscan_dgemm(m, n, k, alpha, a, lda, b, ldb, 1.0, c, ldc);\n".to_string()
        }
        _ => "  for (int64_t j = 0; j < n; j++)\n    for (int64_t l = 0; l < k; l++) {\n      double s = alpha * b[l + ldb * j];\n      for (int64_t i = 0; i < m; i++) c[i + ldc * j] += a[i + lda * l] * s;\n    }\n".to_string(),
    };
    let how = match em.backend {
        Backend::Blas => "cblas_dgemm",
        Backend::Generated => "the blocked polyscan_dgemm",
        Backend::Nests => "GEMM's catalogue nest",
    };
    if !em.realisation.iter().any(|(k, _)| k == "SUMPRODUCT-GEMM") {
        em.realisation.push((
            "SUMPRODUCT-GEMM".into(),
            format!("dense products inside the plans by {how}"),
        ));
    }
    Ok(format!(
        "/* Dense products inside the plans: {how}. */\n{head}{body}}}\n"
    ))
}

/// How statement `k`'s plan reads each operand, by name.
fn storage(sol: &Solution, k: usize) -> BTreeMap<String, Storage> {
    let env = &sol.lowered.env;
    sol.elementwise[k]
        .reads
        .iter()
        .map(|&(i, csr)| {
            let st = if csr {
                Storage::Csr
            } else {
                Storage::Dense {
                    rows: env.entities[i].rows,
                }
            };
            (env.entities[i].name.clone(), st)
        })
        .collect()
}

/// The calls of the plans placed `before` the kernel sequence (or after it), each with its
/// temporaries in step scratch of `works[k]` doubles.
pub(super) fn calls(
    em: &mut Emitter,
    sol: &Solution,
    works: &[u64],
    before: bool,
    code: &mut String,
) {
    for (k, pl) in sol.elementwise.iter().enumerate() {
        if pl.before != before {
            continue;
        }
        em.begin_step();
        let env = &sol.lowered.env;
        let _ = writeln!(
            code,
            "  /* SUMPRODUCT {} := {} */\n  {{",
            env.entities[pl.lhs].name,
            show(&pl.optimised.plan)
        );
        let mut frees = Vec::new();
        let work = works.get(k).copied().unwrap_or(1);
        let s = em.scratch_matrix(code, &mut frees, &Dim::lit(work), &Dim::lit(1));
        // The arguments in the function's order: operands by name.
        let mut args = Vec::new();
        let by_name: BTreeMap<&str, (usize, bool)> = pl
            .reads
            .iter()
            .map(|&(i, csr)| (env.entities[i].name.as_str(), (i, csr)))
            .collect();
        for (i, csr) in by_name.values() {
            if *csr {
                args.extend([
                    format!("ps_csr_rowptr_{i}"),
                    format!("ps_csr_colind_{i}"),
                    format!("ps_csr_val_{i}"),
                ]);
            } else {
                args.push(em.ptr(*i));
            }
        }
        args.push(em.ptr(pl.lhs));
        args.push(s);
        let _ = writeln!(code, "    if (ps_plan_{k}({})) ps_oom();", args.join(", "));
        for f in frees {
            let _ = writeln!(code, "    free({f});");
        }
        let _ = writeln!(code, "  }}");
        if !em.realisation.iter().any(|(k, _)| k == "SUMPRODUCT") {
            em.realisation.push((
                "SUMPRODUCT".into(),
                "the sum-product plans as functions: their terms as the catalogue kernels listed, dense products as SUMPRODUCT-GEMM, other terms as loop nests of polyscan_sumproduct::emit".into(),
            ));
        }
    }
}

/// The formula of every statement of `q` evaluated directly into `nv[...]`, matrix and
/// element-wise statements in source order (an element-wise one may read a matrix
/// statement's result and the reverse).
pub(super) fn naive_statements(q: &Program, code: &mut String) -> Result<(), LaError> {
    enum St<'a> {
        Matrix(&'a crate::ast::Assignment),
        Elementwise(&'a crate::ast::ElementwiseAssignment),
    }
    let mut all: Vec<((usize, usize), St)> = q
        .assignments
        .iter()
        .map(|a| ((a.pos.line, a.pos.column), St::Matrix(a)))
        .chain(
            q.elementwise
                .iter()
                .map(|e| ((e.pos.line, e.pos.column), St::Elementwise(e))),
        )
        .collect();
    all.sort_by_key(|(pos, _)| *pos);
    let shapes = shapes(q);
    let mut tmp = 0;
    for (_, st) in all {
        match st {
            St::Matrix(a) => {
                let (v, is_tmp) = naive(&a.rhs, code, &mut tmp);
                if is_tmp {
                    let _ = writeln!(code, "  nv[{}] = {v};", a.lhs);
                } else {
                    let _ = writeln!(code, "  nv[{}] = nv_copy({v});", a.lhs);
                }
            }
            St::Elementwise(e) => {
                let mut names = BTreeSet::new();
                crate::elementwise::names(&e.rhs, &mut names);
                let _ = writeln!(code, "  {{");
                for n in &names {
                    let i = q
                        .operands
                        .iter()
                        .position(|o| &o.name == n)
                        .ok_or_else(|| LaError::Unsupported(format!("unknown operand `{n}`")))?;
                    let _ = writeln!(code, "    const double *op_{n} = nv[{i}].d;");
                }
                let o = &q.operands[e.lhs];
                let _ = writeln!(code, "    double *ps_ref = ps_new({}, {});", o.rows, o.cols);
                code.push_str(&naive_c(&e.rhs, &shapes, "ps_ref")?);
                let _ = writeln!(
                    code,
                    "    nv[{l}].r = {}; nv[{l}].c = {}; nv[{l}].d = ps_ref;\n  }}",
                    o.rows,
                    o.cols,
                    l = e.lhs
                );
            }
        }
    }
    Ok(())
}
