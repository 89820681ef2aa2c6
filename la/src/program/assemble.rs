//! The whole program around the kernel sequence: header, the C runtime (files in `c/`),
//! inputs filled with the declared properties, the naive evaluation and `main` with its
//! times and residuals.

use std::fmt::{Display, Write as _};

use super::dim::Dim;
use super::emitter::{num, Arena, Emitter};
use super::library::Library;
use super::options::{Backend, EmittedProgram, ProgramOptions};
use super::sizes::{operand_dims, resize, run_shapes, Ties};
use super::sumproduct;
use crate::ast::{Expr, Kind, Program};
use crate::error::LaError;
use crate::kernels::Kernel;
use crate::norm::Entity;
use crate::properties::{Prop, Props};
use crate::search::Solution;

// ---------------------------------------------------------------------------------------
// The fixed parts of the program.

/// The C library headers every program starts with; `PS_TOL` follows, then [`RUNTIME`].
pub(super) const INCLUDES: &str = include_str!("c/includes.h");

/// The C runtime every program includes, in this order: allocation and failure exits,
/// the seeded generator, fills of inputs with declared properties, the routines the
/// kernel sequence calls (symmetrising, zeroing triangles, LU pivoting and splitting), the
/// naive evaluation, timing and residuals. Each file ends with its last line; the `"\n"`s
/// are the blank lines between the parts in the program.
const RUNTIME: &str = concat!(
    include_str!("c/alloc.c"),
    "\n",
    include_str!("c/random.c"),
    "\n",
    include_str!("c/identity.c"),
    "\n",
    include_str!("c/fill.c"),
    "\n",
    include_str!("c/sequence.c"),
    "\n",
    include_str!("c/orth.c"),
    "\n",
    include_str!("c/block.c"),
    "\n",
    include_str!("c/naive.c"),
    "\n",
    include_str!("c/measure.c"),
);

/// One timed sample of the kernel sequence, and (with `-DPS_PAIR=name`) the program's
/// set-up and sample as external functions `name_setup` and `name_sample` instead of
/// `main`, for a driver that times two back ends' programs in one process.
const PAIRED: &str = include_str!("c/paired.c");
/// CBLAS and LAPACK prototypes of the `Blas` back end (after a blank line).
const BLAS_DECLS: &str = concat!("\n", include_str!("c/blas_decls.h"));

/// [`fill`] for entity `i` of the search's environment at run shape `r` x `c`: a declared
/// operand with its declaration's kind, value and properties, a temporary with its own.
pub(super) fn fill_entity(
    ptr: &str,
    q: &Program,
    e: &Entity,
    i: usize,
    r: impl Display,
    c: impl Display,
) -> String {
    match q.operands.get(i) {
        Some(o) => fill(ptr, o.kind, o.value, o.props, r, c),
        None => fill(ptr, e.kind, e.value, e.props, r, c),
    }
}

/// The fill call for an input operand. Banded operands (a known bandwidth on either side:
/// triangles, Hessenberg, tridiagonal, `Banded`) get a fill that is zero outside the band,
/// block-diagonal ones (blocks above 1) one zero outside the blocks: zeroing entries of a
/// diagonally dominant fill keeps it so, so every block stays well conditioned.
pub(super) fn fill(
    ptr: &str,
    kind: Kind,
    value: f64,
    p: Props,
    r: impl Display,
    c: impl Display,
) -> String {
    let (r, c) = (r.to_string(), c.to_string());
    let f = fill_banded(ptr, kind, value, p, &r, &c);
    match p.block() {
        Some(b) if b > 1 && matches!(kind, Kind::Matrix) && !p.has(Prop::Diagonal) => {
            format!("{f} ps_zero_outside_blocks({ptr}, {r}, {c}, {b});")
        }
        _ => f,
    }
}

/// [`fill`] without the zeroing outside diagonal blocks.
fn fill_banded(
    ptr: &str,
    kind: Kind,
    value: f64,
    p: Props,
    r: impl Display,
    c: impl Display,
) -> String {
    let flag = |b: bool| i32::from(b);
    let (lo, up) = p.band();
    let banded = lo.is_some() || up.is_some();
    // -1 is "no bound" for the C helpers.
    let bw = |b: Option<u64>| b.map_or(-1, |b| i64::try_from(b).unwrap_or(-1));
    let zero_outside = format!(
        "ps_zero_outside_band({ptr}, {r}, {c}, {}, {});",
        bw(lo),
        bw(up)
    );
    let orthonormal =
        p.has(Prop::Orthogonal) || p.has(Prop::OrthogonalColumns) || p.has(Prop::OrthogonalRows);
    match kind {
        Kind::Constant => format!("{ptr}[0] = {};", num(value)),
        Kind::Identity => format!("ps_fill_identity({ptr}, {r});"),
        Kind::Zero => "/* zero */".into(),
        Kind::Scalar => format!("{ptr}[0] = 2.0 + fabs(ps_sym());"),
        // The identity is a permutation inside every band.
        _ if p.has(Prop::Permutation) && banded => format!("ps_fill_identity({ptr}, {r});"),
        _ if p.has(Prop::Permutation) => format!("ps_fill_permutation({ptr}, {r});"),
        // Block-diagonal orthonormal fills are diagonal (signs), inside every block.
        _ if orthonormal && banded => format!(
            "ps_fill_banded_orthonormal({ptr}, {r}, {c}, {});",
            flag(lo == Some(0) || up == Some(0) || p.block().is_some())
        ),
        _ if p.has(Prop::Orthogonal) || p.has(Prop::OrthogonalColumns) => {
            format!("ps_fill_orthonormal({ptr}, {r}, {c});")
        }
        _ if p.has(Prop::OrthogonalRows) => format!("ps_fill_orthonormal_rows({ptr}, {r}, {c});"),
        _ if p.has(Prop::Diagonal) => format!(
            "ps_fill_diagonal({ptr}, {r}, {c}, {});",
            flag(p.has(Prop::UnitDiagonal))
        ),
        // SPSD operands get an SPD sample (a valid SPSD one, and invertible where the
        // formula inverts it); symmetric ones too. The fill is diagonally dominant, and
        // zeroing off-diagonal entries keeps it so (closure gave it equal bandwidths).
        _ if p.has(Prop::Spsd) || p.has(Prop::Symmetric) => {
            let fill = format!("ps_fill_spd({ptr}, {r});");
            if banded {
                format!("{fill} {zero_outside}")
            } else {
                fill
            }
        }
        _ if p.has(Prop::Normal) => format!(
            "ps_fill_normal({ptr}, {r}, {}, {});",
            bw(lo.into_iter().chain(up).min()),
            flag(p.has(Prop::UnitDiagonal))
        ),
        _ => {
            let fill = format!(
                "ps_fill_general({ptr}, {r}, {c}, {}, {}, {});",
                flag(p.has(Prop::LowerTriangular)),
                flag(p.has(Prop::UpperTriangular)),
                flag(p.has(Prop::UnitDiagonal))
            );
            // Plain triangles are zeroed by the fill itself; other bands need the pass.
            let triangle = (lo == Some(0) && up.is_none()) || (up == Some(0) && lo.is_none());
            if banded && !triangle {
                format!("{fill} {zero_outside}")
            } else {
                fill
            }
        }
    }
}

/// Naive evaluation of an expression: the C value name and whether it is a temporary.
pub(super) fn naive(e: &Expr, code: &mut String, tmp: &mut usize) -> (String, bool) {
    fn new(
        code: &mut String,
        tmp: &mut usize,
        rhs: String,
        frees: &[&(String, bool)],
    ) -> (String, bool) {
        *tmp += 1;
        let name = format!("t{tmp}");
        let _ = writeln!(code, "  ps_mat {name} = {rhs};");
        for (f, is_tmp) in frees {
            if *is_tmp {
                let _ = writeln!(code, "  nv_free({f});");
            }
        }
        (name, true)
    }
    match e {
        Expr::Operand(i) => (format!("nv[{i}]"), false),
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let x = naive(a, code, tmp);
            let y = naive(b, code, tmp);
            let s = if matches!(e, Expr::Add(..)) {
                "1.0"
            } else {
                "-1.0"
            };
            new(
                code,
                tmp,
                format!("nv_add({}, {}, {s})", x.0, y.0),
                &[&x, &y],
            )
        }
        Expr::Mul(a, b) => {
            let x = naive(a, code, tmp);
            let y = naive(b, code, tmp);
            new(code, tmp, format!("nv_mul({}, {})", x.0, y.0), &[&x, &y])
        }
        Expr::Neg(a) => {
            let x = naive(a, code, tmp);
            new(code, tmp, format!("nv_scaled({}, -1.0)", x.0), &[&x])
        }
        Expr::Trans(a) => {
            let x = naive(a, code, tmp);
            new(code, tmp, format!("nv_trans({})", x.0), &[&x])
        }
        Expr::Inv(a) => {
            let x = naive(a, code, tmp);
            new(code, tmp, format!("nv_inv({})", x.0), &[&x])
        }
        // Assembled: each block row side by side, then the rows one below the other.
        Expr::Block(rows) => {
            let mut acc: Option<(String, bool)> = None;
            for row in rows {
                let mut r: Option<(String, bool)> = None;
                for x in row {
                    let y = naive(x, code, tmp);
                    r = Some(match r {
                        None => y,
                        Some(l) => {
                            new(code, tmp, format!("nv_cat({}, {}, 1)", l.0, y.0), &[&l, &y])
                        }
                    });
                }
                if let Some(r) = r {
                    acc = Some(match acc {
                        None => r,
                        Some(t) => {
                            new(code, tmp, format!("nv_cat({}, {}, 0)", t.0, r.0), &[&t, &r])
                        }
                    });
                }
            }
            acc.unwrap_or_else(|| ("nv_new(0, 0)".into(), false))
        }
    }
}

/// The kernel sequence of `sol` for the operands of `q` (the problem at the run sizes)
/// of shapes `dims` (numbers, or sizes passed at run time): the emitter (shapes, kernels
/// it included), the sequence's statements (entity `i` is `ps_v[i]`) and the equalities
/// between run-time sizes it relies on. With `workspace`, step scratch is carved from a
/// caller's workspace `ps_work` (the C API), else allocated per step. With `threads`
/// above 1 the `Generated` back end's blocked kernels are emitted with OpenMP pragmas on
/// their independent tile loops. Blocked kernels are added to `lib` (several sequences in
/// one source share it; the emitter's `lib` is it afterwards).
pub(super) fn sequence_for<'s>(
    sol: &'s Solution,
    dims: Vec<(Dim, Dim)>,
    backend: Backend,
    threads: u32,
    workspace: bool,
    lib: Library,
) -> Result<(Emitter<'s>, String, Ties), LaError> {
    check_threads(backend, threads)?;
    let env = &sol.lowered.env;
    let steps = &sol.lowered.steps;
    let run = run_shapes(env, steps, dims)?;
    let mut em = Emitter::new(env, run.shapes, backend);
    em.lib = lib;
    em.lib
        .set_openmp(threads > 1 && backend == Backend::Generated);
    em.work = workspace.then(Arena::default);
    let (plans, works) = sumproduct::functions(&mut em, sol, workspace)?;
    em.plans = plans;
    let mut seq = String::new();
    sumproduct::calls(&mut em, sol, &works, true, &mut seq);
    for s in steps {
        em.step(&mut seq, s)?;
    }
    sumproduct::calls(&mut em, sol, &works, false, &mut seq);
    Ok((em, seq, run.ties))
}

/// The kernel sequence of `sol` at the sizes of `opts`, every size a number: the resized
/// problem, the emitter and the sequence's statements (see [`sequence_for`]).
fn sequence<'s>(
    p: &Program,
    sol: &'s Solution,
    opts: &ProgramOptions,
    threads: u32,
) -> Result<(Program, Emitter<'s>, String), LaError> {
    check_threads(opts.backend, threads)?;
    let q = resize(p, &opts.sizes, opts.scale)?;
    sumproduct::check_sizes(p, &q)?;
    let dims = operand_dims(&q, false);
    let (em, seq, _) = sequence_for(sol, dims, opts.backend, threads, false, Library::new())?;
    Ok((q, em, seq))
}

/// What the kernel statements need after the C runtime: the back end's CBLAS and LAPACK
/// prototypes, codegen's helpers and the blocked kernels the emitter included.
pub(super) fn kernel_support(src: &mut String, em: &Emitter) {
    if em.backend == Backend::Blas {
        src.push_str(BLAS_DECLS);
    }
    src.push('\n');
    src.push_str(codegen::emit_c::HELPERS);
    em.lib.append_to(src);
    src.push_str(&em.plans);
}

/// `--threads N`: at least 1; above 1 only for the back ends that use threads (`Generated`:
/// OpenMP in the blocked kernels, `Blas`: OpenBLAS's threads).
pub(super) fn check_threads(backend: Backend, threads: u32) -> Result<(), LaError> {
    if threads == 0 {
        return Err(LaError::Unsupported(
            "the thread count must be at least 1".into(),
        ));
    }
    if threads > 1 && backend == Backend::Nests {
        return Err(LaError::Unsupported(
            "more than one thread needs the generated or blas back end (the nests back end is serial)".into(),
        ));
    }
    Ok(())
}

/// The complete program for `sol` (solved for `p` at its declared sizes), one thread.
pub fn emit(p: &Program, sol: &Solution, opts: &ProgramOptions) -> Result<EmittedProgram, LaError> {
    emit_threads(p, sol, opts, 1)
}

/// The complete program for `sol` running the kernel sequence on `threads` threads: with
/// more than one, `Blas` sets OpenBLAS's thread count in `main`, and `Generated` emits its
/// blocked kernels with OpenMP pragmas (as `polyscan kernel --openmp`; build with
/// `-fopenmp`) and sets OpenMP's thread count in `main`. One thread gives [`emit`]'s text.
pub fn emit_threads(
    p: &Program,
    sol: &Solution,
    opts: &ProgramOptions,
    threads: u32,
) -> Result<EmittedProgram, LaError> {
    if !(opts.tolerance.is_finite() && opts.tolerance > 0.0) {
        return Err(LaError::Unsupported(
            "the tolerance must be positive".into(),
        ));
    }
    let (q, em, seq) = sequence(p, sol, opts, threads)?;
    // Only more than one thread changes the text: one thread is the serial program.
    let omp = threads > 1 && opts.backend == Backend::Generated;
    let env = &sol.lowered.env;
    let steps = &sol.lowered.steps;
    let mut kernel_names: Vec<&str> = steps
        .iter()
        .filter(|s| s.kernel != Kernel::Bind)
        .map(|s| s.kernel.name())
        .collect();
    for pl in &sol.elementwise {
        let at = if pl.before { 0 } else { kernel_names.len() };
        kernel_names.insert(at.min(kernel_names.len()), "SUMPRODUCT");
    }
    let nent = env.entities.len();
    let outputs = sumproduct::outputs(&q);
    let mut src = String::new();
    let sizes: Vec<String> = q.sizes.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let _ = writeln!(
        src,
        "/* {}: generated by `polyscan la --emit c` (backend {}, seed {}).\n   Sizes: {}.\n   Build: cc -O2 -march=native prog.c -lm{}; run: ./a.out (exit status 1 when a\n   residual exceeds PS_TOL). -DPS_REPS=n runs the kernel sequence n times (best time);\n   -DPS_INNER=k times k back-to-back runs each and prints the mean (small problems);\n   -DPS_NAIVE_BLAS (with -lopenblas) evaluates the formula with OpenBLAS and LAPACK\n   instead of loops; -DPS_NO_NAIVE skips that evaluation; -DPS_PAIR=name exports\n   name_setup and name_sample instead of main (benches/la_pair.c). */",
        opts.title.replace("*/", "* /"),
        opts.backend.name(),
        opts.seed,
        sizes.join(", "),
        match (opts.backend, omp) {
            (Backend::Blas, _) => " -lopenblas",
            (_, true) => " -fopenmp",
            _ => "",
        }
    );
    if threads > 1 {
        let _ = writeln!(
            src,
            "/* Threads: {threads} ({}). */",
            if omp {
                "OpenMP in the blocked kernels' independent tile loops, set in main; without -fopenmp the pragmas are ignored"
            } else {
                "OpenBLAS's, set in main"
            }
        );
    }
    src.push_str(INCLUDES);
    if omp {
        src.push_str("#ifdef _OPENMP\n#include <omp.h>\n#endif\n");
    }
    // The tolerance is a default `-DPS_TOL` can override, like `PS_REPS` below.
    let _ = writeln!(
        src,
        "\n#ifndef PS_TOL\n#define PS_TOL {:e}\n#endif\n",
        opts.tolerance
    );
    src.push_str(RUNTIME);
    let _ = writeln!(
        src,
        "#ifndef PS_REPS\n#define PS_REPS {}\n#endif\n#ifndef PS_INNER\n#define PS_INNER 1\n#endif",
        opts.repeat.max(1)
    );
    kernel_support(&mut src, &em);
    let _ = writeln!(src, "\nstatic double *ps_v[{}];\n", nent.max(1));
    let _ = writeln!(
        src,
        "/* The kernel sequence. */\nstatic void ps_sequence(void)\n{{"
    );
    src.push_str(&seq);
    let _ = writeln!(src, "}}\n");
    // Naive evaluation of the formula.
    let _ = writeln!(
        src,
        "/* The formula evaluated directly. */\nstatic void ps_naive(ps_mat *nv)\n{{"
    );
    sumproduct::naive_statements(&q, &mut src)?;
    let _ = writeln!(src, "}}\n");
    // The set-up of the operands (outside the timed part), then main.
    let _ = writeln!(
        src,
        "/* Thread counts, operands and their random values. */\nstatic void ps_setup(void)\n{{"
    );
    if opts.backend == Backend::Blas {
        let _ = writeln!(src, "  openblas_set_num_threads({threads});");
    } else {
        // As many threads as the kernel sequence, set before OpenBLAS starts any.
        let _ = writeln!(
            src,
            "#ifdef PS_NAIVE_BLAS\n  openblas_set_num_threads({threads});\n#endif"
        );
    }
    if omp {
        let _ = writeln!(
            src,
            "#ifdef _OPENMP\n  omp_set_num_threads({threads});\n#endif"
        );
    }
    let _ = writeln!(src, "  ps_state = {}ull;", opts.seed);
    for (i, e) in env.entities.iter().enumerate() {
        let (r, c) = &em.shapes[i];
        let _ = writeln!(src, "  ps_v[{i}] = ps_new({r}, {c}); /* {} */", e.name);
        let is_input = i < q.operands.len() && !outputs.contains(&i);
        if is_input || e.kind == Kind::Constant {
            let _ = writeln!(
                src,
                "  {}",
                fill_entity(&format!("ps_v[{i}]"), &q, e, i, r, c)
            );
            if let Some(d) = q
                .operands
                .get(i)
                .and_then(|o| o.density)
                .filter(|d| *d < 1.0)
            {
                let _ = writeln!(src, "  ps_sparsify(ps_v[{i}], {r} * {c}, {d:e});");
            }
        }
    }
    // Sparse inputs of the element-wise plans also in CSR, built outside the timed part.
    for i in sumproduct::csr_operands(sol) {
        let (r, c) = &em.shapes[i];
        let _ = writeln!(
            src,
            "  {{\n    int64_t *rp, *ci;\n    double *va;\n    ps_csr_build(ps_v[{i}], {r}, {c}, {r}, &rp, &ci, &va);\n    ps_csr_rowptr_{i} = rp; ps_csr_colind_{i} = ci; ps_csr_val_{i} = va;\n    printf(\"operand %s: %lld nonzeros in CSR\\n\", \"{}\", (long long)rp[{r}]);\n  }}",
            env.entities[i].name
        );
    }
    let _ = writeln!(src, "}}\n");
    src.push_str(PAIRED);
    let _ = writeln!(
        src,
        "int main(void)\n{{\n  ps_setup();\n  double best = 1e300;\n  for (int rep = 0; rep < PS_REPS; rep++) {{\n    double t1 = ps_sample();\n    if (t1 < best) best = t1;\n  }}"
    );
    let _ = writeln!(
        src,
        "  printf(\"problem: %s\\n\", {});\n  printf(\"backend: %s\\n\", \"{}\");\n  printf(\"sizes: %s\\n\", \"{}\");\n  printf(\"kernels: %s\\n\", \"{}\");\n  printf(\"time kernel sequence: %.*f s (best of %d)\\n\", PS_INNER > 1 ? 9 : 6, best, PS_REPS);\n  fflush(stdout);",
        c_string(&opts.title),
        opts.backend.name(),
        sizes.join(", "),
        kernel_names.join(" ")
    );
    // Benchmarks at large sizes may skip the (cubic) naive evaluation.
    let _ = writeln!(
        src,
        "#ifdef PS_NO_NAIVE\n  printf(\"naive evaluation: skipped (PS_NO_NAIVE)\\n\");\n  return 0;\n#else"
    );
    let _ = writeln!(src, "  ps_mat nv[{}];", q.operands.len().max(1));
    for (i, o) in q.operands.iter().enumerate() {
        let d = if outputs.contains(&i) {
            "NULL".to_string()
        } else {
            format!("ps_v[{i}]")
        };
        let _ = writeln!(
            src,
            "  nv[{i}].r = {}; nv[{i}].c = {}; nv[{i}].d = {d};",
            o.rows, o.cols
        );
    }
    let _ = writeln!(
        src,
        "  printf(\"naive evaluation: %s\\n\", PS_NAIVE_HOW);\n  double t0 = ps_now();\n  ps_naive(nv);\n  double naive = ps_now() - t0;\n  printf(\"time naive evaluation: %.6f s\\n\", naive);\n  int bad = 0;\n  double r;"
    );
    for &o in &outputs {
        let (r, c) = &em.shapes[o];
        let _ = writeln!(
            src,
            "  r = ps_residual(ps_v[{o}], nv[{o}].d, {});\n  printf(\"residual %s: %.3e\\n\", \"{}\", r);\n  if (!(r <= PS_TOL)) bad = 1;",
            r * c,
            env.entities[o].name
        );
    }
    let _ = writeln!(
        src,
        "  printf(\"tolerance: %.1e (relative Frobenius norm)\\n\", PS_TOL);\n  printf(\"result: %s\\n\", bad ? \"RESIDUAL TOO LARGE\" : \"ok\");\n  return bad;\n#endif\n}}\n#endif"
    );
    Ok(EmittedProgram {
        source: src,
        sizes: q.sizes.clone(),
        realisation: em.realisation,
    })
}

pub(super) fn c_string(s: &str) -> String {
    let mut o = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => o.push(c),
            _ => o.push('?'),
        }
    }
    o.push('"');
    o
}
