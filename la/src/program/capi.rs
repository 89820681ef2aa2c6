//! The C API of a solved problem (`polyscan la PROBLEM --emit c-api -o NAME.c`): a header
//! and a source file with `int NAME(sizes..., operands with leading dimensions...,
//! double *work)` running the same kernels as `--emit c`, `int64_t
//! NAME_workspace(sizes...)`, the workspace's length in doubles, and `int
//! NAME_variant(sizes...)`, which of its kernel sequences runs at those sizes.
//!
//! Sizes declared with a number are checked (at the run's value: `--scale` and `--size`
//! applied). Sizes declared `?` are run-time variables: every shape, loop bound, offset
//! and kernel argument is a C expression in them (`dim::Dim`), and the function carries
//! one kernel sequence per variant (the candidates of `regions`: the sequences chosen at
//! several sizes), each valid where the structure it was chosen for holds (a `?` size is
//! 1 exactly where it was 1, sizes equal where it needs them equal). A call runs the
//! cheapest valid one by the candidates' cost polynomials (ties to the earlier one), the
//! rule by which `regions` splits the size space. Operands are column-major; one whose
//! leading dimension exceeds its rows is copied to and from packed storage in the
//! workspace. Temporaries, packed copies and step scratch (GETRF's LU buffer and pivots
//! included) all live in the workspace, so the generated code allocates nothing in a
//! call. The header's `PS_CAPI_CHECK` section (`capi_check`) describes the operands for a
//! checking driver (`c/capi_driver.c`).

use std::fmt::Write as _;

use super::assemble::{c_string, fill_entity, kernel_support, sequence_for, INCLUDES};
use super::capi_check::check_section;
use super::dim::Dim;
use super::library::Library;
use super::options::{Backend, ProgramOptions};
use super::sizes::{operand_dims, resize, size_var};
use super::sumproduct;
use crate::ast::{Kind, Program};
use crate::error::LaError;
use crate::search::Solution;
use crate::symbolic::SymbolicCost;
use polys::Coeff as _;

/// The header and source of a C API.
#[derive(Debug, Clone)]
pub struct EmittedApi {
    /// The C function's name (also the files' suggested stem).
    pub name: String,
    /// `NAME.h`: prototypes, error codes, sizes, and the `PS_CAPI_CHECK` section.
    pub header: String,
    /// `NAME.c`: the kernels and the functions; it includes `NAME.h` as `header_name`.
    pub source: String,
    /// The sizes: declared ones at the values they are checked against, those declared
    /// `?` at their default (nominal or `--size`) value, which the checking driver uses.
    pub sizes: Vec<(String, u64)>,
    /// Per variant, in order: where it was chosen (the `?` sizes' values) and its kernels.
    pub variants: Vec<(Vec<(String, u64)>, String)>,
}

/// A kernel sequence the C API can run: `solution`, chosen at the values `at` of the
/// sizes declared `?` (empty: at the problem's nominal values), and its cost as a
/// polynomial in those sizes (needed when there are several variants).
#[derive(Debug, Clone, Copy)]
pub struct ApiVariant<'a> {
    /// The chosen sequence.
    pub solution: &'a Solution,
    /// The `?` sizes' values where it was chosen.
    pub at: &'a [(String, u64)],
    /// 3 x its FLOPs as a polynomial in the `?` sizes.
    pub cost: Option<&'a SymbolicCost>,
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
/// `header_name` is how the source includes the header. Sizes declared `?` are run-time
/// arguments; the one sequence runs wherever its structure holds.
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
    let v = ApiVariant {
        solution: sol,
        at: &[],
        cost: None,
    };
    emit_api_variants(p, &[v], opts, threads, name, header_name)
}

/// One variant's code and layout.
struct Emitted {
    /// Entity shapes.
    shapes: Vec<(Dim, Dim)>,
    /// The sequence's statements.
    seq: String,
    /// Conditions (C) under which the sequence applies.
    valid: Vec<String>,
    /// Per entity: its offset in the workspace (temporaries and packed copies).
    offsets: Vec<Dim>,
    /// Where step scratch starts, and the whole workspace.
    scratch: Dim,
    total: Dim,
    kernels: String,
}

/// The C API running the sequence of each of `variants` (the first one's where several
/// are cheapest; see the module documentation) on `threads` threads (see
/// [`emit_api_threads`]).
pub fn emit_api_variants(
    p: &Program,
    variants: &[ApiVariant],
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
    if variants.is_empty() || (variants.len() > 1 && variants.iter().any(|v| v.cost.is_none())) {
        return Err(LaError::Unsupported(
            "the C API needs one sequence, or several with their costs".into(),
        ));
    }
    // The run's sizes: declared ones as checked, `?` ones at their default.
    let q = resize(p, &opts.sizes, opts.scale)?;
    let open: Vec<String> = q
        .sizes
        .iter()
        .filter(|(n, _)| q.open_sizes.iter().any(|o| &o.name == n))
        .map(|(n, _)| n.clone())
        .collect();
    sumproduct::check_sizes(p, &q)?;
    let outputs = sumproduct::outputs(&q);
    let params: Vec<usize> = (0..q.operands.len())
        .filter(|&i| is_param(q.operands[i].kind))
        .collect();
    // Sparse inputs of element-wise plans are passed in CSR form only.
    let csr = sumproduct::csr_operands(variants[0].solution);
    for a in &q.assignments {
        let mut rd = std::collections::BTreeSet::new();
        crate::elementwise::reads(&a.rhs, &mut rd);
        if let Some(i) = rd.iter().find(|i| csr.contains(i)) {
            return Err(LaError::at(
                a.pos.line,
                a.pos.column,
                format!(
                    "the C API takes `{}` in CSR form for the element-wise statements; a matrix statement cannot read it (declare a dense copy)",
                    q.operands[*i].name
                ),
            ));
        }
    }
    let declared = operand_dims(&q, true);
    let mut lib = Library::new();
    let mut emitted = Vec::new();
    let mut last_em = None;
    for v in variants {
        // The problem where the variant was chosen: its `?` sizes at `at` (else at the
        // problem's nominal values), declared sizes as the run has them.
        let mut qv = q.clone();
        for (n, val) in qv.sizes.iter_mut() {
            let chosen =
                v.at.iter()
                    .chain(&p.sizes)
                    .find(|(m, _)| m == n)
                    .map(|(_, x)| *x);
            if let (true, Some(x)) = (open.contains(n), chosen) {
                *val = x;
            }
        }
        qv.resize_operands();
        let (em, seq, mut ties) = sequence_for(
            v.solution,
            operand_dims(&qv, true),
            opts.backend,
            threads,
            true,
            lib,
        )?;
        // An output's computed shape is the declared one.
        for &i in &outputs {
            let (d, s) = (&declared[i], &em.shapes[i]);
            for (a, b) in [(&d.0, &s.0), (&d.1, &s.1)] {
                // As C expressions: the declared shapes' nominal values are the run's.
                if a.to_string() != b.to_string() {
                    ties.push((a.clone(), b.clone()));
                }
            }
        }
        // A `?` size chosen at 1 may have made an operand a vector or a scalar: the
        // sequence needs it 1. One chosen above 1 may be 1 at run time: the emitter
        // decided nothing from its being more (its forms are the general ones, which
        // hold at 1 too).
        let mut valid: Vec<String> = open
            .iter()
            .filter(|n| qv.sizes.iter().any(|(m, x)| m == *n && *x == 1))
            .map(|n| format!("{} == 1", size_var(n)))
            .collect();
        valid.extend(ties.iter().map(|(a, b)| format!("{a} == {b}")));
        // Workspace: temporaries, packed copies of passed operands, step scratch.
        let mut next = Dim::lit(0);
        let mut offsets = Vec::new();
        for (i, (r, c)) in em.shapes.iter().enumerate() {
            offsets.push(next.clone());
            // A CSR operand has no dense copy.
            let len = if csr.contains(&i) {
                Dim::lit(1)
            } else {
                (r * c).max1()
            };
            next = &next + &len;
        }
        let peak = em.work.clone().unwrap_or_default().peak;
        let kernels: Vec<&str> = v
            .solution
            .lowered
            .steps
            .iter()
            .filter(|s| s.kernel != crate::kernels::Kernel::Bind)
            .map(|s| s.kernel.name())
            .collect();
        emitted.push(Emitted {
            shapes: em.shapes.clone(),
            seq,
            valid,
            offsets,
            total: &next + &peak,
            scratch: next,
            kernels: kernels.join(" "),
        });
        lib = std::mem::replace(&mut last_em.insert(em).lib, Library::new());
    }
    let Some(mut em) = last_em else {
        return Err(LaError::Unsupported("no sequence for the C API".into()));
    };
    em.lib = lib;
    let up = name.to_ascii_uppercase();
    let sig = Signature::new(&q, &open, &params, &outputs, &declared, &csr);
    let header = header(
        &q, opts, name, &up, &sig, variants, &emitted, &params, &outputs, &declared, &csr,
    )?;
    let mut src = String::new();
    let _ = writeln!(
        src,
        "/* {name}: C API generated by `polyscan la --emit c-api` (backend {}, sizes {}).\n   Build: cc -O2 -march=native -c {name}.c{} (C11: thread-local error state{}). */",
        opts.backend.name(),
        sig.size_list.join(", "),
        if opts.backend == Backend::Blas {
            "; link with -lopenblas"
        } else {
            ""
        },
        if emitted.len() > 1 {
            "; __int128 for the costs"
        } else {
            ""
        }
    );
    if threads > 1 {
        let _ = writeln!(
            src,
            "/* Threads ({threads}): the caller's setting, {}. */",
            if opts.backend == Backend::Blas {
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
    src.push('\n');
    src.push_str(include_str!("c/block.c"));
    kernel_support(&mut src, &em);
    src.push_str("\n#define PS_MAX(a, b) ((a) > (b) ? (a) : (b))\n");
    for (k, e) in emitted.iter().enumerate() {
        variant_functions(
            &mut src,
            k,
            e,
            &q,
            variants[k],
            &sig,
            &params,
            &outputs,
            &open,
            &csr,
        )?;
    }
    dispatch(&mut src, name, &up, &sig, &emitted);
    Ok(EmittedApi {
        name: name.to_string(),
        header,
        source: src,
        sizes: q.sizes.clone(),
        variants: variants
            .iter()
            .zip(&emitted)
            .map(|(v, e)| (v.at.to_vec(), e.kernels.clone()))
            .collect(),
    })
}

/// The C parameter lists and size checks shared by the functions.
struct Signature {
    /// `n = 40`, `m = ?`.
    size_list: Vec<String>,
    /// `int64_t n, int64_t m`, or `void`.
    sizes: String,
    /// The `?` sizes as parameters `int64_t ps_z_m` (`void` when none) and arguments.
    open: String,
    open_args: String,
    /// Every parameter of `NAME`.
    all: String,
    /// The operands and workspace as arguments: `A, ld_A, ..., work`.
    operand_args: String,
    /// The `?` sizes' variables as arguments: `ps_z_m`.
    open_vars: String,
    /// A variant's `ps_call_k` parameters: `?` sizes' variables, operands, workspace.
    call_params: String,
    /// In `NAME`: the `?` sizes' variables set from the arguments.
    locals: String,
    /// In `NAME`: the leading dimensions' checks.
    ld_checks: String,
    /// When the sizes are rejected (C condition).
    reject: String,
}

impl Signature {
    fn new(
        q: &Program,
        open: &[String],
        params: &[usize],
        outputs: &[usize],
        declared: &[(Dim, Dim)],
        csr: &[usize],
    ) -> Signature {
        let size_list = q
            .sizes
            .iter()
            .map(|(n, v)| {
                if open.contains(n) {
                    format!("{n} = ?")
                } else {
                    format!("{n} = {v}")
                }
            })
            .collect();
        let size_params: Vec<String> = q
            .sizes
            .iter()
            .map(|(n, _)| format!("int64_t {}", param(n)))
            .collect();
        let mut op_params = Vec::new();
        let mut op_args = Vec::new();
        for &i in params {
            let o = &q.operands[i];
            if csr.contains(&i) {
                let n = param(&o.name);
                op_params.push(format!(
                    "const int64_t *{n}_rowptr, const int64_t *{n}_colind, const double *{n}_val"
                ));
                op_args.push(format!("{n}_rowptr, {n}_colind, {n}_val"));
                continue;
            }
            let konst = if outputs.contains(&i) { "" } else { "const " };
            op_params.push(format!(
                "{konst}double *{}, int64_t ld_{}",
                param(&o.name),
                o.name
            ));
            op_args.push(format!("{}, ld_{}", param(&o.name), o.name));
        }
        op_params.push("double *work".into());
        op_args.push("work".into());
        let mut ld_checks = String::new();
        for &i in params.iter().filter(|i| !csr.contains(i)) {
            let o = &q.operands[i];
            let _ = writeln!(
                ld_checks,
                "  if (ld_{} < {}) return {{UP}}_ELD;",
                o.name,
                declared[i].0.max1()
            );
        }
        let locals: String = open
            .iter()
            .map(|n| format!("  const int64_t {} = {};\n", size_var(n), param(n)))
            .collect();
        let open_params: Vec<String> = open
            .iter()
            .map(|n| format!("int64_t {}", size_var(n)))
            .collect();
        let mut reject: Vec<String> = Vec::new();
        for (n, v) in &q.sizes {
            match q.open_sizes.iter().find(|o| &o.name == n) {
                None => reject.push(format!("{} != {v}", param(n))),
                Some(o) => {
                    reject.push(format!("{} < {}", param(n), o.lo.unwrap_or(1).max(1)));
                    if let Some(h) = o.hi {
                        reject.push(format!("{} > {h}", param(n)));
                    }
                }
            }
        }
        let or_void = |v: Vec<String>| {
            if v.is_empty() {
                "void".to_string()
            } else {
                v.join(", ")
            }
        };
        Signature {
            size_list,
            sizes: or_void(size_params.clone()),
            open: or_void(
                open.iter()
                    .map(|n| format!("int64_t {}", size_var(n)))
                    .collect(),
            ),
            open_args: open.iter().map(|n| param(n)).collect::<Vec<_>>().join(", "),
            all: size_params
                .iter()
                .chain(&op_params)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            operand_args: op_args.join(", "),
            open_vars: open
                .iter()
                .map(|n| size_var(n))
                .collect::<Vec<_>>()
                .join(", "),
            call_params: open_params
                .iter()
                .chain(&op_params)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            locals,
            ld_checks,
            reject: if reject.is_empty() {
                "0".into()
            } else {
                reject.join(" || ")
            },
        }
    }

    /// `(void)` statements for the `?` size parameters (not every function reads them).
    fn unused_open(open: &[String]) -> String {
        open.iter()
            .map(|n| format!("  (void){};\n", size_var(n)))
            .collect()
    }
}

/// Variant `k`'s functions: its sequence, whether it applies, its cost, its workspace
/// and the call on it.
#[allow(clippy::too_many_arguments)]
fn variant_functions(
    src: &mut String,
    k: usize,
    e: &Emitted,
    q: &Program,
    v: ApiVariant,
    sig: &Signature,
    params: &[usize],
    outputs: &[usize],
    open: &[String],
    csr: &[usize],
) -> Result<(), LaError> {
    let unused = Signature::unused_open(open);
    let open_params = if open.is_empty() {
        String::new()
    } else {
        format!(
            ", {}",
            open.iter()
                .map(|n| format!("int64_t {}", size_var(n)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let _ = writeln!(
        src,
        "\n/* Sequence {k}: {}. Entity i at ps_v[i], step scratch in ps_work. */\nstatic void ps_seq_{k}(double *const *ps_v, double *ps_work{open_params})\n{{\n  (void)ps_work;\n{unused}",
        e.kernels
    );
    src.push_str(&e.seq);
    let _ = writeln!(src, "}}\n");
    let valid = if e.valid.is_empty() {
        "1".to_string()
    } else {
        e.valid.join(" && ")
    };
    let _ = writeln!(
        src,
        "/* Whether sequence {k} applies: the structure it was chosen for holds. */\nstatic int ps_valid_{k}({})\n{{\n{unused}  return {valid};\n}}\n",
        sig.open
    );
    if let Some(cost) = v.cost {
        let _ = writeln!(
            src,
            "/* 3 x the FLOPs of sequence {k}: {}. */\n__extension__ static __int128 ps_cost_{k}({})\n{{\n{unused}  return {};\n}}\n",
            cost.to_text(),
            sig.open,
            cost_expr(cost)?
        );
    }
    let _ = writeln!(
        src,
        "/* Doubles of workspace sequence {k} needs: temporaries and packed copies, then step scratch. */\nstatic int64_t ps_work_{k}({})\n{{\n{unused}  return {};\n}}\n",
        sig.open, e.total
    );
    let _ = writeln!(
        src,
        "static int ps_call_{k}({})\n{{\n{unused}  double *ps_v[{}];\n  int ps_rc = 0;",
        sig.call_params,
        e.shapes.len().max(1)
    );
    // Operands: their own storage when packed, else a packed copy in the workspace.
    for &i in params {
        let o = &q.operands[i];
        let (r, c) = &e.shapes[i];
        let (pn, ld) = (param(&o.name), format!("ld_{}", o.name));
        if csr.contains(&i) {
            // Read by the plans through the CSR pointers only.
            let _ = writeln!(
                src,
                "  ps_v[{i}] = work + {};\n  ps_csr_rowptr_{i} = {pn}_rowptr; ps_csr_colind_{i} = {pn}_colind; ps_csr_val_{i} = {pn}_val;",
                e.offsets[i]
            );
            continue;
        }
        let out = outputs.contains(&i);
        let len = (r * c).max1();
        let off = &e.offsets[i];
        let _ = writeln!(
            src,
            "  if ({ld} == {r} || {c} == 1) {{\n    ps_v[{i}] = (double *){pn};{}\n  }} else {{\n    ps_v[{i}] = work + {off};{}\n  }}",
            if out {
                // Outputs start zeroed, as the program's calloc'd ones do.
                format!("\n    memset({pn}, 0, sizeof(double) * {len});")
            } else {
                String::new()
            },
            if out {
                format!("\n    memset(ps_v[{i}], 0, sizeof(double) * {len});")
            } else {
                format!(
                    "\n    for (int64_t ps_c = 0; ps_c < {c}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {r}; ps_r++)\n        ps_v[{i}][ps_r + ps_c * {r}] = {pn}[ps_r + ps_c * {ld}];"
                )
            }
        );
    }
    // The rest in the workspace, zeroed (the kernels may rely on it, as on calloc) and
    // filled where they are identities or literals.
    let env = &v.solution.lowered.env;
    for (i, (r, c)) in e.shapes.iter().enumerate() {
        if params.contains(&i) {
            continue;
        }
        let _ = writeln!(
            src,
            "  ps_v[{i}] = work + {};\n  memset(ps_v[{i}], 0, sizeof(double) * {});",
            e.offsets[i],
            (r * c).max1()
        );
        let ent = &env.entities[i];
        let kind = q.operands.get(i).map_or(ent.kind, |o| o.kind);
        if matches!(kind, Kind::Constant | Kind::Identity) {
            let _ = writeln!(
                src,
                "  {}",
                fill_entity(&format!("ps_v[{i}]"), q, ent, i, r, c)
            );
        }
    }
    let open_args: String = open.iter().map(|n| format!(", {}", size_var(n))).collect();
    let _ = writeln!(
        src,
        "  {{\n    jmp_buf ps_jmp;\n    ps_api_jmp = &ps_jmp;\n    if (setjmp(ps_jmp) == 0) ps_seq_{k}(ps_v, work + {}{open_args});\n    else ps_rc = ps_api_err;\n    ps_api_jmp = NULL;\n  }}",
        e.scratch
    );
    for &i in outputs {
        let o = &q.operands[i];
        let (r, c) = &e.shapes[i];
        let _ = writeln!(
            src,
            "  if (ps_rc == 0 && ps_v[{i}] != {pn})\n    for (int64_t ps_c = 0; ps_c < {c}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {r}; ps_r++)\n        {pn}[ps_r + ps_c * ld_{}] = ps_v[{i}][ps_r + ps_c * {r}];",
            o.name,
            pn = param(&o.name),
        );
    }
    let _ = writeln!(src, "  return ps_rc;\n}}");
    Ok(())
}

/// A cost polynomial as a C `__int128` expression in the `?` sizes' variables.
fn cost_expr(cost: &SymbolicCost) -> Result<String, LaError> {
    let mut terms = Vec::new();
    for (mono, c) in cost.times3.terms() {
        let coef = c.to_i64().ok_or_else(|| {
            LaError::Unsupported("a cost coefficient beyond 64 bits in the C API".into())
        })?;
        let mut t = format!("(__int128){coef}");
        for (i, &x) in mono.exps().iter().enumerate() {
            for _ in 0..x {
                let _ = write!(t, " * {}", size_var(&cost.vars.name(i)));
            }
        }
        terms.push(t);
    }
    Ok(if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    })
}

/// `ps_choose` (the variant at valid sizes) and the three public functions.
fn dispatch(src: &mut String, name: &str, up: &str, sig: &Signature, emitted: &[Emitted]) {
    let call = |f: &str, k: usize| format!("{f}_{k}({})", sig.open_vars);
    let mut body = String::new();
    if emitted.len() == 1 {
        let _ = writeln!(body, "  return {} ? 0 : -1;", call("ps_valid", 0));
    } else {
        let _ = writeln!(
            body,
            "  int ps_best = -1;\n  __extension__ __int128 ps_least = 0;"
        );
        for k in 0..emitted.len() {
            let _ = writeln!(
                body,
                "  if ({}) {{\n    __extension__ __int128 ps_c = {};\n    if (ps_best < 0 || ps_c < ps_least) {{ ps_best = {k}; ps_least = ps_c; }}\n  }}",
                call("ps_valid", k),
                call("ps_cost", k)
            );
        }
        body.push_str("  return ps_best;\n");
    }
    let _ = writeln!(
        src,
        "\n/* The sequence at accepted sizes: the cheapest that applies (ties to the earlier),\n   -1 if none does. */\nstatic int ps_choose({})\n{{\n{body}}}\n",
        sig.open
    );
    let _ = writeln!(
        src,
        "int {name}_variant({})\n{{\n  if ({}) return -1;\n  int ps_k = ps_choose({});\n  return ps_k < 0 ? -2 : ps_k;\n}}\n",
        sig.sizes, sig.reject, sig.open_args
    );
    let mut work = String::new();
    for k in 0..emitted.len() {
        let _ = writeln!(work, "  if (ps_k == {k}) return {};", call("ps_work", k));
    }
    let _ = writeln!(
        src,
        "int64_t {name}_workspace({})\n{{\n  if ({}) return -1;\n{}  int ps_k = ps_choose({});\n{work}  return -1;\n}}\n",
        sig.sizes, sig.reject, sig.locals, sig.open_vars
    );
    let _ = writeln!(
        src,
        "int {name}({})\n{{\n  if ({}) return {up}_ESIZE;\n{}  int ps_k = ps_choose({});\n  if (ps_k < 0) return {up}_EREGION;\n  if (work == NULL) return {up}_ELD;\n{}",
        sig.all,
        sig.reject,
        sig.locals,
        sig.open_vars,
        sig.ld_checks.replace("{UP}", up)
    );
    let args = if sig.open_vars.is_empty() {
        sig.operand_args.clone()
    } else {
        format!("{}, {}", sig.open_vars, sig.operand_args)
    };
    for k in 0..emitted.len() {
        let _ = writeln!(src, "  if (ps_k == {k}) return ps_call_{k}({args});");
    }
    let _ = writeln!(src, "  return {up}_EREGION;\n}}");
}

/// The header: documentation, error codes, sizes, prototypes, the checking section.
#[allow(clippy::too_many_arguments)]
fn header(
    q: &Program,
    opts: &ProgramOptions,
    name: &str,
    up: &str,
    sig: &Signature,
    variants: &[ApiVariant],
    emitted: &[Emitted],
    params: &[usize],
    outputs: &[usize],
    declared: &[(Dim, Dim)],
    csr: &[usize],
) -> Result<String, LaError> {
    let mut h = String::new();
    let open: Vec<&str> = q.open_sizes.iter().map(|o| o.name.as_str()).collect();
    let open_text = if open.is_empty() {
        "Every size is declared with a number and checked.".to_string()
    } else {
        format!(
            "Sizes declared `?` ({}) are free from call to call; the others are checked.",
            open.join(", ")
        )
    };
    let _ = writeln!(
        h,
        "/* {name}: C API generated by `polyscan la --emit c-api` (backend {}).\n   Sizes: {}. {open_text}\n   Matrices are column-major, each with its leading dimension (>= max(1, rows));\n   inputs are read only, outputs written in place. `work` (malloc'd or otherwise\n   aligned for int64_t) holds {name}_workspace(sizes) doubles and may be reused between\n   calls (not by concurrent ones): temporaries, packed copies of operands passed with a\n   leading dimension above their rows, and every kernel's scratch (GETRF's LU buffer and\n   pivots too) live there, so a call allocates nothing itself. Returns {up}_OK or the\n   first failure:\n   {up}_ESIZE      a declared size differs from its value, or a `?` size is below 1\n                   or outside its declared bounds,\n   {up}_EREGION    no sequence applies at these `?` sizes (each was chosen where a size\n                   is 1, or where two sizes are equal, and these sizes differ from that),\n   {up}_ELD        a leading dimension is too small, or work is NULL,\n   {up}_EKERNEL    a factorisation failed (an input lacks a declared property),\n   {up}_ENOMEM     reserved (no longer returned: the workspace holds everything). */",
        opts.backend.name(),
        sig.size_list.join(", "),
    );
    let _ = writeln!(
        h,
        "#ifndef {up}_H\n#define {up}_H\n\n#include <stdint.h>\n\nenum {{ {up}_OK = 0, {up}_ESIZE = 1, {up}_ELD = 2, {up}_EKERNEL = 3, {up}_ENOMEM = 4, {up}_EREGION = 5 }};\n"
    );
    for (n, v) in &q.sizes {
        let how = if open.contains(&n.as_str()) {
            " /* declared `?`: an argument; this is its default for the checking driver */"
        } else {
            ""
        };
        let _ = writeln!(h, "#define {up}_SIZE_{n} {v}{how}");
    }
    let mut seqs = String::new();
    for (k, (v, e)) in variants.iter().zip(emitted).enumerate() {
        let at: Vec<String> = v.at.iter().map(|(n, x)| format!("{n} = {x}")).collect();
        let _ = writeln!(
            seqs,
            "   {k}: {}{}{}",
            e.kernels,
            if at.is_empty() {
                String::new()
            } else {
                format!(" (chosen at {})", at.join(", "))
            },
            v.cost
                .map(|c| format!(", FLOPs {}", c.to_text()))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(
        h,
        "\n/* The kernel sequences; at given sizes the cheapest that applies runs (ties to the\n   earlier one):\n{seqs}   {name}_variant(sizes) is the one that runs, -1 if a size is rejected\n   ({up}_ESIZE), -2 if none applies ({up}_EREGION). */\nint {name}_variant({});\n",
        sig.sizes
    );
    let _ = writeln!(
        h,
        "/* Doubles of workspace {name} needs at these sizes; -1 if they are rejected. */\nint64_t {name}_workspace({});\n",
        sig.sizes
    );
    let mut doc = String::new();
    for &i in params {
        let o = &q.operands[i];
        let role = if outputs.contains(&i) {
            "output"
        } else {
            "input"
        };
        let (r, c) = &declared[i];
        let show = |d: &Dim, fallback: &Option<String>| match fallback {
            Some(n) if !d.is_lit() => n.clone(),
            _ => d.to_string(),
        };
        let _ = writeln!(
            doc,
            "   {}: {} x {}, {role}{}{}",
            o.name,
            show(r, &o.dims.0),
            show(c, &o.dims.1),
            if csr.contains(&i) {
                format!(
                    ", sparse in CSR: {n}_rowptr ({} + 1 entries, {n}_rowptr[0] = 0), then per\n      row its nonzeros' columns (0-based, any order) in {n}_colind and values in {n}_val",
                    show(r, &o.dims.0),
                    n = param(&o.name)
                )
            } else {
                String::new()
            },
            {
                let props = o.props.to_string();
                if props.is_empty() {
                    props
                } else {
                    format!(" <{props}>")
                }
            }
        );
    }
    let mut statements: Vec<((usize, usize), String)> = q
        .assignments
        .iter()
        .map(|a| {
            (
                (a.pos.line, a.pos.column),
                format!("{} = {}", q.operands[a.lhs].name, q.show(&a.rhs)),
            )
        })
        .collect();
    for e in variants
        .iter()
        .take(1)
        .flat_map(|v| &v.solution.elementwise)
    {
        statements.push((
            e.pos,
            format!(
                "{} := {} (element-wise, the plan chosen)",
                q.operands[e.lhs].name,
                polyscan_sumproduct::show::show(&e.optimised.plan)
            ),
        ));
    }
    statements.sort();
    let _ = writeln!(
        h,
        "/* {}\n{}*/\nint {name}({});\n",
        statements
            .into_iter()
            .map(|s| s.1.replace("*/", "* /"))
            .collect::<Vec<_>>()
            .join("; "),
        doc,
        sig.all
    );
    check_section(&mut h, q, params, outputs, declared, name, csr)?;
    let _ = writeln!(h, "#endif");
    Ok(h)
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
