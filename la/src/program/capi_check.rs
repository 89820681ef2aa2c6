//! The C API header's `PS_CAPI_CHECK` section: what the generic checking driver
//! (`c/capi_driver.c`) needs to call the function at any sizes and check it: the sizes
//! with their defaults, every operand's shape as a function of the sizes, fills with the
//! declared properties and the naive evaluation, printed by the program emitter's own
//! functions.

use std::fmt::Write as _;

use super::assemble::{c_string, fill};
use super::dim::Dim;
use super::sizes::size_var;
use super::sumproduct;
use crate::ast::{Kind, Program};
use crate::error::LaError;

/// `const int64_t ps_z_n = ps_sz[i];` for every size declared `?`.
fn size_locals(q: &Program) -> String {
    let mut s = String::new();
    for (i, (n, _)) in q.sizes.iter().enumerate() {
        if q.open_sizes.iter().any(|o| &o.name == n) {
            let v = size_var(n);
            let _ = writeln!(s, "  const int64_t {v} = ps_sz[{i}];\n  (void){v};");
        }
    }
    s
}

/// Operands the caller passes (see `capi::is_param`).
fn is_param(kind: Kind) -> bool {
    !matches!(kind, Kind::Identity | Kind::Zero | Kind::Constant)
}

/// The section for `q` (the problem at the run's sizes) whose passed operands are
/// `params`, `outputs` among them, every operand of shape `dims`; `name` is the
/// function's. polyscan's `fill.c` and `naive.c` are included before the header.
pub(super) fn check_section(
    h: &mut String,
    q: &Program,
    params: &[usize],
    outputs: &[usize],
    dims: &[(Dim, Dim)],
    name: &str,
    csr: &[usize],
) -> Result<(), LaError> {
    let list = |v: Vec<String>| -> String {
        if v.is_empty() {
            "0".into()
        } else {
            v.join(", ")
        }
    };
    let open = |n: &str| q.open_sizes.iter().any(|o| o.name == n);
    let _ = writeln!(
        h,
        "#ifdef PS_CAPI_CHECK\n/* For a checking driver (polyscan's c/capi_driver.c): sizes and parameters in order. */\n#define PS_CHECK_NSIZES {}\nstatic const char *const ps_check_size_name[] = {{ {} }};\nstatic const int64_t ps_check_size_default[] = {{ {} }};\nstatic const int ps_check_size_open[] = {{ {} }};",
        q.sizes.len(),
        list(q.sizes.iter().map(|(n, _)| c_string(n)).collect()),
        list(q.sizes.iter().map(|(_, v)| v.to_string()).collect()),
        list(q.sizes.iter().map(|(n, _)| i32::from(open(n)).to_string()).collect()),
    );
    let _ = writeln!(
        h,
        "#define PS_CHECK_NPARAMS {}\n#define PS_CHECK_NOPERANDS {}\nstatic const int ps_check_operand[] = {{ {} }};\nstatic const int ps_check_output[] = {{ {} }};\nstatic const char *const ps_check_name[] = {{ {} }};",
        params.len(),
        q.operands.len(),
        list(params.iter().map(|i| i.to_string()).collect()),
        list(params.iter().map(|i| i32::from(outputs.contains(i)).to_string()).collect()),
        list(params.iter().map(|&i| c_string(&q.operands[i].name)).collect()),
    );
    let locals = size_locals(q);
    let _ = writeln!(
        h,
        "/* Rows and columns of parameter k at sizes ps_sz. */\nstatic void ps_check_shape(const int64_t *ps_sz, int k, int64_t *r, int64_t *c)\n{{\n  (void)ps_sz;\n{locals}  *r = 1;\n  *c = 1;\n  switch (k) {{"
    );
    for (k, &i) in params.iter().enumerate() {
        let (r, c) = &dims[i];
        let _ = writeln!(h, "  case {k}: *r = {r}; *c = {c}; break;");
    }
    let _ = writeln!(
        h,
        "  default: break;\n  }}\n}}\n/* Inputs (packed) filled with the declared properties. */\nstatic void ps_check_fill(const int64_t *ps_sz, double *const *ps_p)\n{{\n  (void)ps_sz;\n  (void)ps_p;\n{locals}"
    );
    for (k, &i) in params.iter().enumerate() {
        let o = &q.operands[i];
        let (r, c) = &dims[i];
        if !outputs.contains(&i) {
            let _ = writeln!(
                h,
                "  {}",
                fill(&format!("ps_p[{k}]"), o.kind, o.value, o.props, r, c)
            );
            if let Some(d) = o.density.filter(|d| *d < 1.0) {
                let _ = writeln!(h, "  ps_sparsify(ps_p[{k}], ({r}) * ({c}), {d:e});");
            }
        }
    }
    let _ = writeln!(
        h,
        "}}\n/* Every operand for the naive evaluation: parameters from ps_p, outputs empty. */\nstatic void ps_check_operands(const int64_t *ps_sz, ps_mat *nv, double *const *ps_p)\n{{\n  (void)ps_sz;\n  (void)ps_p;\n{locals}"
    );
    for (i, o) in q.operands.iter().enumerate() {
        let (r, c) = &dims[i];
        let d = match params.iter().position(|&j| j == i) {
            Some(_) if outputs.contains(&i) => "NULL".to_string(),
            Some(k) => format!("ps_p[{k}]"),
            None => format!("ps_new({r}, {c})"),
        };
        let _ = writeln!(h, "  nv[{i}].r = {r}; nv[{i}].c = {c}; nv[{i}].d = {d};");
        if !is_param(o.kind) {
            let _ = writeln!(
                h,
                "  {}",
                fill(&format!("nv[{i}].d"), o.kind, o.value, o.props, r, c)
            );
        }
    }
    let _ = writeln!(
        h,
        "}}\n/* The formula evaluated directly. */\nstatic void ps_check_naive(ps_mat *nv)\n{{"
    );
    sumproduct::naive_statements(q, h)?;
    let sizes: Vec<String> = (0..q.sizes.len()).map(|i| format!("(sz)[{i}]")).collect();
    let mut args = sizes.clone();
    for (k, i) in params.iter().enumerate() {
        if csr.contains(i) {
            args.extend([
                format!("ps_rp{k}"),
                format!("ps_ci{k}"),
                format!("ps_va{k}"),
            ]);
        } else {
            args.push(format!("(p)[{k}]"));
            args.push(format!("(ld)[{k}]"));
        }
    }
    args.push("(w)".into());
    let _ = writeln!(
        h,
        "}}\n#define PS_CHECK_WORKSPACE(sz) {name}_workspace({})\n#define PS_CHECK_VARIANT(sz) {name}_variant({})",
        sizes.join(", "),
        sizes.join(", "),
    );
    if csr.is_empty() {
        let _ = writeln!(
            h,
            "#define PS_CHECK_CALL(sz, p, ld, w) {name}({})",
            args.join(", ")
        );
    } else {
        // Sparse parameters go in CSR form, built from the driver's dense (padded) copies.
        h.push_str(sumproduct::CSR_BUILD);
        let _ = writeln!(
            h,
            "static int ps_check_call(const int64_t *sz, double *const *p, const int64_t *ld, double *w)\n{{"
        );
        for (k, i) in params.iter().enumerate() {
            if csr.contains(i) {
                let _ = writeln!(
                    h,
                    "  int64_t *ps_rp{k}, *ps_ci{k}, ps_r{k}, ps_c{k};\n  double *ps_va{k};\n  ps_check_shape(sz, {k}, &ps_r{k}, &ps_c{k});\n  ps_csr_build(p[{k}], ps_r{k}, ps_c{k}, ld[{k}], &ps_rp{k}, &ps_ci{k}, &ps_va{k});"
                );
            }
        }
        let _ = writeln!(h, "  int ps_rc = {name}({});", args.join(", "));
        for (k, i) in params.iter().enumerate() {
            if csr.contains(i) {
                let _ = writeln!(h, "  free(ps_rp{k});\n  free(ps_ci{k});\n  free(ps_va{k});");
            }
        }
        let _ = writeln!(
            h,
            "  return ps_rc;\n}}\n#define PS_CHECK_CALL(sz, p, ld, w) ps_check_call((sz), (p), (ld), (w))"
        );
    }
    let _ = writeln!(h, "#endif /* PS_CAPI_CHECK */");
    Ok(())
}
