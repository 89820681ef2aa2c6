//! The C API of a solved problem (`polyscan la PROBLEM --emit c-api -o NAME.c`): a header
//! and a source file with `int NAME(sizes..., operands with leading dimensions...,
//! double *work)` running the same kernel sequence as `--emit c`, and
//! `int64_t NAME_workspace(sizes...)`, the workspace's length in doubles.
//!
//! The function is specialised at the run sizes (declared, `--scale` and `--size`
//! applied; an open size `n = ?` at its nominal value or override): the emitter prints
//! shapes as numbers, so every size is passed and checked. Operands are column-major;
//! one whose leading dimension exceeds its rows is copied to and from packed storage
//! (allocated in the call). Temporaries and step scratch live in the workspace.
//! The header's `PS_CAPI_CHECK` section describes the operands for a checking driver
//! (`c/capi_driver.c`): fills with the declared properties and the naive evaluation,
//! printed by the program emitter's own functions.

use std::fmt::Write as _;

use super::assemble::{c_string, fill, fill_entity, kernel_support, naive, sequence, INCLUDES};
use super::options::ProgramOptions;
use crate::ast::{Kind, Program};
use crate::error::LaError;
use crate::search::Solution;

/// The header and source of a C API.
#[derive(Debug, Clone)]
pub struct EmittedApi {
    /// The C function's name (also the files' suggested stem).
    pub name: String,
    /// `NAME.h`: prototypes, error codes, sizes, and the `PS_CAPI_CHECK` section.
    pub header: String,
    /// `NAME.c`: the kernels and the two functions; it includes `NAME.h` as `header_name`.
    pub source: String,
    /// Sizes the function is specialised at.
    pub sizes: Vec<(String, u64)>,
}

/// A valid C identifier from `stem` (a file name without extension): other characters
/// become `_`, a leading digit gets `la_` before it.
pub fn c_identifier(stem: &str) -> String {
    let mut s: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || is_keyword(&s) {
        s.insert_str(0, "la_");
    }
    s
}

fn is_keyword(s: &str) -> bool {
    const KEYWORDS: [&str; 37] = [
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
        "union", "unsigned", "void", "volatile", "while", "work", "main", "bool",
    ];
    KEYWORDS.contains(&s)
}

/// A parameter name for a size or operand: the declared name, `_` appended where it
/// would be a C keyword (or `work`, the workspace's name).
fn param(name: &str) -> String {
    if is_keyword(name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Operands the caller passes: every declared operand but identities, zero matrices and
/// number literals, which the function makes itself.
fn is_param(kind: Kind) -> bool {
    !matches!(kind, Kind::Identity | Kind::Zero | Kind::Constant)
}

/// The C API of `sol` (solved for `p`) as `name` (a C identifier, see [`c_identifier`]);
/// `header_name` is how the source includes the header.
pub fn emit_api(
    p: &Program,
    sol: &Solution,
    opts: &ProgramOptions,
    name: &str,
    header_name: &str,
) -> Result<EmittedApi, LaError> {
    emit_api_threads(p, sol, opts, 1, name, header_name)
}

/// [`emit_api`] for callers running the function on `threads` threads. The function sets
/// no thread count itself (that is the caller's, process-wide): with more than one thread,
/// `Generated` emits its blocked kernels with OpenMP pragmas on their independent tile loops
/// (build with `-fopenmp`; the caller's `omp_set_num_threads` or `OMP_NUM_THREADS` applies),
/// and `Blas` only says in the source's comment that the caller sets
/// `openblas_set_num_threads`. One thread gives [`emit_api`]'s text.
pub fn emit_api_threads(
    p: &Program,
    sol: &Solution,
    opts: &ProgramOptions,
    threads: u32,
    name: &str,
    header_name: &str,
) -> Result<EmittedApi, LaError> {
    if c_identifier(name) != name {
        return Err(LaError::Unsupported(format!(
            "'{name}' is not a valid C identifier for the C API"
        )));
    }
    // Workspace: entities the caller does not pass, then step scratch.
    let mut offsets: Vec<Option<u64>> = Vec::new();
    let (q, em, seq) = sequence(p, sol, opts, threads, |q, shapes| {
        let mut next = 0u64;
        for (i, &(r, c)) in shapes.iter().enumerate() {
            let passed = q.operands.get(i).is_some_and(|o| is_param(o.kind));
            offsets.push((!passed).then_some(next));
            if !passed {
                next += (r * c).max(1);
            }
        }
        Some(next)
    })?;
    let env = &sol.lowered.env;
    let arena = em.work.unwrap_or_default();
    let work_len = arena.base + arena.peak;
    let outputs = q.outputs();
    let params: Vec<usize> = (0..q.operands.len())
        .filter(|&i| is_param(q.operands[i].kind))
        .collect();
    let size_list: Vec<String> = q.sizes.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let size_params: Vec<String> = q
        .sizes
        .iter()
        .map(|(n, _)| format!("int64_t {}", param(n)))
        .collect();
    let mut op_params = Vec::new();
    for &i in &params {
        let o = &q.operands[i];
        let konst = if outputs.contains(&i) { "" } else { "const " };
        op_params.push(format!(
            "{konst}double *{}, int64_t ld_{}",
            param(&o.name),
            o.name
        ));
    }
    let all_params = size_params
        .iter()
        .chain(&op_params)
        .cloned()
        .chain(["double *work".to_string()])
        .collect::<Vec<_>>()
        .join(", ");
    let size_args = if size_params.is_empty() {
        "void".to_string()
    } else {
        size_params.join(", ")
    };
    let size_check: Vec<String> = q
        .sizes
        .iter()
        .map(|(n, v)| format!("{} != {v}", param(n)))
        .collect();
    let size_check = if size_check.is_empty() {
        "0".to_string()
    } else {
        size_check.join(" || ")
    };
    let up = name.to_ascii_uppercase();

    // The header.
    let mut h = String::new();
    let _ = writeln!(
        h,
        "/* {name}: C API generated by `polyscan la --emit c-api` (backend {}).\n   Specialised at the sizes {}: every size is passed and checked.\n   Matrices are column-major, each with its leading dimension (>= max(1, rows));\n   inputs are read only, outputs written in place. `work` holds\n   {name}_workspace(...) doubles and may be reused between calls (not by\n   concurrent ones). Returns {up}_OK or the first failure:\n   {up}_ESIZE      a size differs from the one above,\n   {up}_ELD        a leading dimension is too small, or work is NULL,\n   {up}_EKERNEL    a factorisation failed (an input lacks a declared property),\n   {up}_ENOMEM     no memory for a packed copy or a kernel's buffer. */",
        opts.backend.name(),
        size_list.join(", ")
    );
    let _ = writeln!(
        h,
        "#ifndef {up}_H\n#define {up}_H\n\n#include <stdint.h>\n\nenum {{ {up}_OK = 0, {up}_ESIZE = 1, {up}_ELD = 2, {up}_EKERNEL = 3, {up}_ENOMEM = 4 }};\n"
    );
    for (n, v) in &q.sizes {
        let open = q.open_sizes.iter().any(|o| &o.name == n);
        let how = if open { " /* declared `?` */" } else { "" };
        let _ = writeln!(h, "#define {up}_SIZE_{n} {v}{how}");
    }
    let _ = writeln!(
        h,
        "\n/* Doubles of workspace {name} needs at these sizes; -1 if a size differs. */\nint64_t {name}_workspace({size_args});\n"
    );
    let mut doc = String::new();
    for &i in &params {
        let o = &q.operands[i];
        let role = if outputs.contains(&i) {
            "output"
        } else {
            "input"
        };
        let _ = writeln!(doc, "   {}: {} x {}, {role}{}", o.name, o.rows, o.cols, {
            let props = o.props.to_string();
            if props.is_empty() {
                props
            } else {
                format!(" <{props}>")
            }
        });
    }
    let _ = writeln!(
        h,
        "/* {}\n{}*/\nint {name}({all_params});\n",
        q.assignments
            .iter()
            .map(|a| format!("{} = {}", q.operands[a.lhs].name, q.show(&a.rhs)))
            .collect::<Vec<_>>()
            .join("; "),
        doc
    );
    check_section(&mut h, &q, &params, &outputs, name);
    let _ = writeln!(h, "#endif");

    // The source.
    let mut src = String::new();
    let _ = writeln!(
        src,
        "/* {name}: C API generated by `polyscan la --emit c-api` (backend {}, sizes {}).\n   Build: cc -O2 -march=native -c {name}.c{} (C11: thread-local error state). */",
        opts.backend.name(),
        size_list.join(", "),
        if opts.backend == super::Backend::Blas {
            "; link with -lopenblas"
        } else {
            ""
        }
    );
    if threads > 1 {
        let _ = writeln!(
            src,
            "/* Threads ({threads}): the caller's setting, {}. */",
            if opts.backend == super::Backend::Blas {
                "openblas_set_num_threads(n) before the call"
            } else {
                "compile with -fopenmp; the blocked kernels' independent tile loops run on\n   omp_set_num_threads(n) or OMP_NUM_THREADS threads"
            }
        );
    }
    let _ = writeln!(src, "#include {}", c_string(header_name));
    src.push_str("#include <setjmp.h>\n");
    src.push_str(INCLUDES);
    src.push('\n');
    src.push_str(include_str!("c/capi_alloc.c"));
    src.push('\n');
    src.push_str(include_str!("c/identity.c"));
    src.push('\n');
    src.push_str(include_str!("c/sequence.c"));
    src.push('\n');
    src.push_str(include_str!("c/orth.c"));
    kernel_support(&mut src, &em);
    let _ = writeln!(
        src,
        "\n/* The kernel sequence: entity i at ps_v[i], step scratch in ps_work. */\nstatic void ps_seq(double *const *ps_v, double *ps_work)\n{{\n  (void)ps_work;"
    );
    src.push_str(&seq);
    let _ = writeln!(src, "}}\n");
    let _ = writeln!(
        src,
        "int64_t {name}_workspace({size_args})\n{{\n  if ({size_check}) return -1;\n  return {work_len};\n}}\n"
    );
    let nent = env.entities.len().max(1);
    let _ = writeln!(
        src,
        "int {name}({all_params})\n{{\n  if ({size_check}) return {up}_ESIZE;\n  if (work == NULL && {work_len} > 0) return {up}_ELD;"
    );
    for &i in &params {
        let o = &q.operands[i];
        let _ = writeln!(
            src,
            "  if (ld_{} < {}) return {up}_ELD;",
            o.name,
            o.rows.max(1)
        );
    }
    let _ = writeln!(
        src,
        "  double *ps_v[{nent}];\n  double *ps_pack[{nent}] = {{ 0 }};\n  int ps_rc = {up}_OK;"
    );
    // Operands: their own storage when packed, else a packed copy.
    for &i in &params {
        let o = &q.operands[i];
        let (r, c) = em.shapes[i];
        let (pn, ld) = (param(&o.name), format!("ld_{}", o.name));
        let out = outputs.contains(&i);
        let _ = writeln!(
            src,
            "  if ({ld} == {r} || {c} == 1) {{\n    ps_v[{i}] = (double *){pn};{}\n  }} else {{\n    ps_pack[{i}] = calloc({}, sizeof(double));\n    if (ps_pack[{i}] == NULL) {{ ps_rc = {up}_ENOMEM; goto ps_done; }}\n    ps_v[{i}] = ps_pack[{i}];{}\n  }}",
            if out {
                // Outputs start zeroed, as the program's calloc'd ones do.
                format!("\n    memset({pn}, 0, sizeof(double) * {});", r * c)
            } else {
                String::new()
            },
            (r * c).max(1),
            if out {
                String::new()
            } else {
                format!(
                    "\n    for (int64_t ps_c = 0; ps_c < {c}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {r}; ps_r++)\n        ps_v[{i}][ps_r + ps_c * {r}] = {pn}[ps_r + ps_c * {ld}];"
                )
            }
        );
    }
    // The rest in the workspace, zeroed (the kernels may rely on it, as on calloc) and
    // filled where they are identities or literals.
    for (i, off) in offsets.iter().enumerate() {
        let Some(off) = off else { continue };
        let (r, c) = em.shapes[i];
        let _ = writeln!(
            src,
            "  ps_v[{i}] = work + {off};\n  memset(ps_v[{i}], 0, sizeof(double) * {});",
            (r * c).max(1)
        );
        let e = &env.entities[i];
        let kind = q.operands.get(i).map_or(e.kind, |o| o.kind);
        if matches!(kind, Kind::Constant | Kind::Identity) {
            let _ = writeln!(
                src,
                "  {}",
                fill_entity(&format!("ps_v[{i}]"), &q, e, i, r, c)
            );
        }
    }
    let _ = writeln!(
        src,
        "  {{\n    jmp_buf ps_jmp;\n    ps_api_jmp = &ps_jmp;\n    if (setjmp(ps_jmp) == 0) ps_seq(ps_v, work);\n    else ps_rc = ps_api_err;\n    ps_api_jmp = NULL;\n  }}"
    );
    for &i in &outputs {
        let o = &q.operands[i];
        let (r, c) = em.shapes[i];
        let _ = writeln!(
            src,
            "  if (ps_rc == {up}_OK && ps_pack[{i}] != NULL)\n    for (int64_t ps_c = 0; ps_c < {c}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {r}; ps_r++)\n        {}[ps_r + ps_c * ld_{}] = ps_pack[{i}][ps_r + ps_c * {r}];",
            param(&o.name),
            o.name
        );
    }
    let _ = writeln!(
        src,
        "ps_done:\n  for (int ps_i = 0; ps_i < {nent}; ps_i++) free(ps_pack[ps_i]);\n  return ps_rc;\n}}"
    );
    Ok(EmittedApi {
        name: name.to_string(),
        header: h,
        source: src,
        sizes: q.sizes.clone(),
    })
}

/// The header's `PS_CAPI_CHECK` section: what a generic driver needs to call and check
/// the function (polyscan's `fill.c` and `naive.c` included before the header).
fn check_section(h: &mut String, q: &Program, params: &[usize], outputs: &[usize], name: &str) {
    let list = |f: &dyn Fn(usize) -> String| -> String {
        let v: Vec<String> = params.iter().map(|&i| f(i)).collect();
        if v.is_empty() {
            "0".into()
        } else {
            v.join(", ")
        }
    };
    let _ = writeln!(
        h,
        "#ifdef PS_CAPI_CHECK\n/* For a checking driver (polyscan's c/capi_driver.c): parameters in order. */\n#define PS_CHECK_NPARAMS {}\n#define PS_CHECK_NOPERANDS {}",
        params.len(),
        q.operands.len()
    );
    let _ = writeln!(
        h,
        "static const int ps_check_operand[] = {{ {} }};\nstatic const int ps_check_output[] = {{ {} }};\nstatic const int64_t ps_check_rows[] = {{ {} }};\nstatic const int64_t ps_check_cols[] = {{ {} }};\nstatic const char *const ps_check_name[] = {{ {} }};",
        list(&|i| i.to_string()),
        list(&|i| i32::from(outputs.contains(&i)).to_string()),
        list(&|i| q.operands[i].rows.to_string()),
        list(&|i| q.operands[i].cols.to_string()),
        list(&|i| c_string(&q.operands[i].name)),
    );
    let _ = writeln!(
        h,
        "/* Inputs (packed) filled with the declared properties. */\nstatic void ps_check_fill(double *const *ps_p)\n{{\n  (void)ps_p;"
    );
    for (k, &i) in params.iter().enumerate() {
        let o = &q.operands[i];
        if !outputs.contains(&i) {
            let _ = writeln!(
                h,
                "  {}",
                fill(
                    &format!("ps_p[{k}]"),
                    o.kind,
                    o.value,
                    o.props,
                    o.rows,
                    o.cols
                )
            );
        }
    }
    let _ = writeln!(
        h,
        "}}\n/* Every operand for the naive evaluation: parameters from ps_p, outputs empty. */\nstatic void ps_check_operands(ps_mat *nv, double *const *ps_p)\n{{\n  (void)ps_p;"
    );
    for (i, o) in q.operands.iter().enumerate() {
        let d = match params.iter().position(|&j| j == i) {
            Some(_) if outputs.contains(&i) => "NULL".to_string(),
            Some(k) => format!("ps_p[{k}]"),
            None => format!("ps_new({}, {})", o.rows, o.cols),
        };
        let _ = writeln!(
            h,
            "  nv[{i}].r = {}; nv[{i}].c = {}; nv[{i}].d = {d};",
            o.rows, o.cols
        );
        if !is_param(o.kind) {
            let _ = writeln!(
                h,
                "  {}",
                fill(
                    &format!("nv[{i}].d"),
                    o.kind,
                    o.value,
                    o.props,
                    o.rows,
                    o.cols
                )
            );
        }
    }
    let _ = writeln!(
        h,
        "}}\n/* The formula evaluated directly. */\nstatic void ps_check_naive(ps_mat *nv)\n{{"
    );
    let mut tmp = 0;
    for a in &q.assignments {
        let (v, is_tmp) = naive(&a.rhs, h, &mut tmp);
        if is_tmp {
            let _ = writeln!(h, "  nv[{}] = {v};", a.lhs);
        } else {
            let _ = writeln!(h, "  nv[{}] = nv_copy({v});", a.lhs);
        }
    }
    let sizes: Vec<String> = q.sizes.iter().map(|(_, v)| v.to_string()).collect();
    let mut args = sizes.clone();
    for k in 0..params.len() {
        args.push(format!("(p)[{k}]"));
        args.push(format!("(ld)[{k}]"));
    }
    args.push("(w)".into());
    let _ = writeln!(
        h,
        "}}\n#define PS_CHECK_WORKSPACE() {name}_workspace({})\n#define PS_CHECK_CALL(p, ld, w) {name}({})\n#endif /* PS_CAPI_CHECK */",
        sizes.join(", "),
        args.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_c_identifiers() {
        assert_eq!(c_identifier("a01_least_squares"), "a01_least_squares");
        assert_eq!(c_identifier("01-ls.v2"), "la_01_ls_v2");
        assert_eq!(c_identifier("double"), "la_double");
        assert_eq!(c_identifier(""), "la_");
        assert_eq!(param("int"), "int_");
        assert_eq!(param("X"), "X");
    }
}
