//! A complete C99 program for a solved problem (`polyscan la PROBLEM --emit c`): every
//! operand allocated at the (possibly overridden) sizes, inputs filled with deterministic
//! pseudo-random data that has the declared properties, the chosen kernel sequence, a timed
//! naive evaluation of the formula (explicit inverses, products left to right: plain loops
//! with Gauss-Jordan inverses, or with `-DPS_NAIVE_BLAS` OpenBLAS's DGEMM and LAPACK's
//! DGETRF + DGETRI) and the relative residual of every output; the program's exit status
//! is 1 when a residual exceeds the tolerance.
//!
//! Kernels come from two back ends. `Generated`: the blocked kernels of `crate::kernel`
//! where it can emit them, else the catalogue body over its iteration domain, scanned by
//! codegen. `Blas`: CBLAS and Fortran LAPACK calls (OpenBLAS; prototypes declared here so
//! no header is needed). Both see each step through a canonical form (the catalogue's
//! lower-triangular, left-sided operation) reached by composing views of the stored
//! matrices: transposes (right-sided operations) and index reversals (upper triangles).
//! Where a call needs plain storage, the view is copied (O(n^2) next to O(n^3) kernels).
//!
//! The sequence is searched at the declared sizes; the program may run it at smaller ones
//! (tests): shapes are propagated through the steps and must keep which dimensions are 1
//! and which operands are square, so that every kernel's conditions still hold.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::ast::{Expr, Kind, Program};
use super::error::LaError;
use super::infer::transpose_props;
use super::kernels::Kernel;
use super::lower::{Alpha, Arg, Op, Step};
use super::norm::Env;
use super::properties::{Prop, Props};
use super::search::Solution;
use crate::kernel::subscript;

/// Where the kernels of the sequence come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// `crate::kernel`'s blocked kernels where available, else catalogue nests.
    Generated,
    /// CBLAS and LAPACK (OpenBLAS, single-threaded).
    Blas,
    /// The catalogue nest for every kernel (no blocked kernels): the baseline the
    /// blocked kernels improve on, and a test of the nests.
    Nests,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Generated => "generated",
            Backend::Blas => "blas",
            Backend::Nests => "nests",
        }
    }
}

/// What the program is built for.
#[derive(Debug, Clone)]
pub struct ProgramOptions {
    pub backend: Backend,
    /// Size overrides `NAME=VALUE`, applied after `scale`.
    pub sizes: Vec<(String, u64)>,
    /// Multiplies every size (order and distinctness of sizes are kept).
    pub scale: Option<f64>,
    pub seed: u64,
    /// Largest relative residual accepted.
    pub tolerance: f64,
    /// The kernel sequence runs this many times; the best time is reported.
    pub repeat: u32,
    /// Shown in the program's header and output.
    pub title: String,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            backend: Backend::Generated,
            sizes: Vec::new(),
            scale: None,
            seed: 1,
            tolerance: 1e-8,
            repeat: 1,
            title: "problem".into(),
        }
    }
}

/// The emitted program and what it contains.
#[derive(Debug, Clone)]
pub struct EmittedProgram {
    pub source: String,
    /// Sizes the program runs at.
    pub sizes: Vec<(String, u64)>,
    /// Per kernel step: the catalogue name and how it is realised.
    pub realisation: Vec<(String, String)>,
}

/// The problem at the requested sizes: `scale` first (floors, at least 2, order and
/// distinctness of the declared sizes kept), then the overrides.
pub fn resize(
    p: &Program,
    overrides: &[(String, u64)],
    scale: Option<f64>,
) -> Result<Program, LaError> {
    let mut q = p.clone();
    if let Some(s) = scale {
        if !(s.is_finite() && s > 0.0) {
            return Err(LaError::Unsupported(
                "--scale must be a positive number".into(),
            ));
        }
        let mut distinct: Vec<u64> = p.sizes.iter().map(|(_, v)| *v).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let mut mapped: HashMap<u64, u64> = HashMap::new();
        let mut prev = 0u64;
        for v in distinct {
            let target = if v <= 1 {
                v
            } else {
                ((v as f64 * s).floor() as u64).max(2)
            };
            // Distinct declared sizes stay distinct and ordered: a square operand stays
            // square and a non-square one non-square.
            let nv = if prev > 0 {
                target.max(prev + 1)
            } else {
                target
            };
            mapped.insert(v, nv);
            prev = nv;
        }
        for (_, v) in q.sizes.iter_mut() {
            *v = mapped.get(v).copied().unwrap_or(*v);
        }
    }
    for (name, value) in overrides {
        let Some(slot) = q.sizes.iter_mut().find(|(n, _)| n == name) else {
            let known: Vec<&str> = p.sizes.iter().map(|(n, _)| n.as_str()).collect();
            return Err(LaError::Unsupported(format!(
                "--size {name}={value}: the problem has no size '{name}' (sizes: {})",
                known.join(", ")
            )));
        };
        if *value == 0 {
            return Err(LaError::Unsupported(format!(
                "--size {name}=0: sizes must be positive"
            )));
        }
        slot.1 = *value;
    }
    q.resize_operands();
    for (o, orig) in q.operands.iter().zip(&p.operands) {
        if (o.rows, o.cols) == (orig.rows, orig.cols) {
            continue;
        }
        if let Some(why) = o
            .props
            .contradiction(o.rows, o.cols, o.kind == Kind::Scalar)
        {
            return Err(LaError::Unsupported(format!(
                "at the requested sizes, operand {} is {} x {}: {why}",
                o.name, o.rows, o.cols
            )));
        }
        same_structure(&o.name, (orig.rows, orig.cols), (o.rows, o.cols))?;
    }
    Ok(q)
}

/// The sequence was chosen for the declared shapes: a dimension that is 1 (a vector, a
/// scalar) or a square operand must stay so.
fn same_structure(name: &str, nominal: (u64, u64), run: (u64, u64)) -> Result<(), LaError> {
    let ok = (nominal.0 == 1) == (run.0 == 1)
        && (nominal.1 == 1) == (run.1 == 1)
        && (nominal.0 == nominal.1) == (run.0 == run.1);
    if ok {
        Ok(())
    } else {
        Err(LaError::Unsupported(format!(
            "at the requested sizes {name} is {} x {} but the sequence was chosen for {} x {} \
             (dimensions of 1 and square shapes must be kept)",
            run.0, run.1, nominal.0, nominal.1
        )))
    }
}

/// Shapes of every entity at the run sizes, propagated through the steps.
fn run_shapes(env: &Env, steps: &[Step], q: &Program) -> Result<Vec<(u64, u64)>, LaError> {
    let mut sh: Vec<Option<(u64, u64)>> = vec![None; env.entities.len()];
    for (i, o) in q.operands.iter().enumerate() {
        sh[i] = Some((o.rows, o.cols));
    }
    for (i, e) in env.entities.iter().enumerate() {
        if sh[i].is_none() && e.kind == Kind::Constant {
            sh[i] = Some((1, 1));
        }
    }
    let get = |sh: &[Option<(u64, u64)>], a: Arg| -> Result<(u64, u64), LaError> {
        let (r, c) = sh.get(a.id).copied().flatten().ok_or_else(|| {
            LaError::Unsupported(format!(
                "entity {} is used before it is computed",
                env.entities[a.id].name
            ))
        })?;
        Ok(if a.trans { (c, r) } else { (r, c) })
    };
    for s in steps {
        let shape = match &s.op {
            Op::Mul { a, b } => {
                let (ar, ac) = get(&sh, *a)?;
                let (br, bc) = get(&sh, *b)?;
                if ac == br {
                    (ar, bc)
                } else if (ar, ac) == (1, 1) {
                    (br, bc)
                } else if (br, bc) == (1, 1) {
                    (ar, ac)
                } else {
                    return Err(LaError::Unsupported(format!(
                        "shapes {ar} x {ac} and {br} x {bc} do not conform at the requested sizes"
                    )));
                }
            }
            Op::Solve { b, .. } => get(&sh, *b)?,
            Op::Add { terms } => {
                let (_, a) = terms
                    .first()
                    .ok_or_else(|| LaError::Unsupported("an empty sum".into()))?;
                get(&sh, *a)?
            }
            Op::Scale { a, .. } | Op::Potrf { a } | Op::Inverse { a } | Op::Bind { a } => {
                get(&sh, *a)?
            }
            Op::Getrf { a, l, u } => {
                let s = get(&sh, *a)?;
                sh[*l] = Some(s);
                sh[*u] = Some(s);
                s
            }
        };
        sh[s.out] = Some(shape);
    }
    let mut out = Vec::with_capacity(sh.len());
    for (i, s) in sh.into_iter().enumerate() {
        let e = &env.entities[i];
        // Entities no step computes (unused temporaries) keep their nominal shape.
        let s = s.unwrap_or((e.rows, e.cols));
        same_structure(&e.name, (e.rows, e.cols), s)?;
        out.push(s);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Views: how a canonical operand reads a stored (column-major) matrix.

#[derive(Debug, Clone)]
enum View {
    Base {
        ptr: String,
        ld: u64,
    },
    T(Box<View>),
    /// Index reversal: `rows`/`cols` is the extent reversed, if that index is.
    Rev {
        inner: Box<View>,
        rows: Option<u64>,
        cols: Option<u64>,
    },
}

#[derive(Debug, Clone)]
struct V {
    view: View,
    rows: u64,
    cols: u64,
}

impl View {
    fn at(&self, r: &str, c: &str) -> String {
        match self {
            View::Base { ptr, ld } => {
                if *ld == 1 {
                    format!("{ptr}[({r}) + ({c})]")
                } else {
                    format!("{ptr}[({r}) + ({c}) * {ld}]")
                }
            }
            View::T(inner) => inner.at(c, r),
            View::Rev { inner, rows, cols } => {
                let r2 = match rows {
                    Some(n) => format!("{} - ({r})", n - 1),
                    None => r.to_string(),
                };
                let c2 = match cols {
                    Some(n) => format!("{} - ({c})", n - 1),
                    None => c.to_string(),
                };
                inner.at(&r2, &c2)
            }
        }
    }
}

impl V {
    fn at(&self, r: &str, c: &str) -> String {
        self.view.at(r, c)
    }
    fn t(&self) -> V {
        let view = match &self.view {
            View::T(inner) => (**inner).clone(),
            v => View::T(Box::new(v.clone())),
        };
        V {
            view,
            rows: self.cols,
            cols: self.rows,
        }
    }
    fn rev(&self, rows: bool, cols: bool) -> V {
        V {
            view: View::Rev {
                inner: Box::new(self.view.clone()),
                rows: rows.then_some(self.rows),
                cols: cols.then_some(self.cols),
            },
            rows: self.rows,
            cols: self.cols,
        }
    }
    /// `(pointer, leading dimension, transposed)` when the view reads stored data directly.
    fn plain(&self) -> Option<(String, u64, bool)> {
        match &self.view {
            View::Base { ptr, ld } => Some((ptr.clone(), *ld, false)),
            View::T(inner) => match &**inner {
                View::Base { ptr, ld } => Some((ptr.clone(), *ld, true)),
                _ => None,
            },
            View::Rev { .. } => None,
        }
    }
    /// Element `e` of a column (the forms always pass vectors as n x 1 views).
    fn el(&self, e: &str) -> String {
        if self.cols == 1 {
            self.at(e, "0")
        } else {
            self.at("0", e)
        }
    }
}

/// A step in the catalogue's canonical shape, over views.
#[derive(Debug, Clone)]
enum Form {
    Gemm {
        c: V,
        a: V,
        b: V,
    },
    Symm {
        c: V,
        s: V,
        b: V,
    },
    /// c := a^T a, lower triangle (the step symmetrises).
    Syrk {
        c: V,
        a: V,
    },
    /// x := t b, t triangular (`lower` as used).
    Trmm {
        x: V,
        t: V,
        lower: bool,
        b: V,
    },
    /// x := t^-1 b.
    Trsm {
        x: V,
        t: V,
        lower: bool,
        b: V,
    },
    Gemv {
        y: V,
        a: V,
        x: V,
    },
    Symv {
        y: V,
        a: V,
        x: V,
    },
    Trmv {
        y: V,
        t: V,
        lower: bool,
        x: V,
    },
    Trsv {
        y: V,
        t: V,
        lower: bool,
        x: V,
    },
    Ger {
        c: V,
        x: V,
        y: V,
    },
    Dot {
        s: V,
        x: V,
        y: V,
    },
    /// x := d b, d diagonal (or 1 x 1).
    DiagScale {
        x: V,
        d: V,
        b: V,
    },
    DiagSolve {
        x: V,
        d: V,
        b: V,
    },
    /// x := alpha b (a 1 x 1 factor of a non-conforming product).
    Scale {
        x: V,
        alpha: String,
        b: V,
    },
    /// x := p b, p a (dense) permutation matrix.
    Laswp {
        x: V,
        p: V,
        b: V,
    },
    Trtri {
        x: V,
        t: V,
        lower: bool,
    },
    /// c := t^T t, t triangular; the step symmetrises.
    Lauum {
        c: V,
        t: V,
        lower: bool,
    },
}

// ---------------------------------------------------------------------------------------
// Catalogue nests.

/// The catalogue domain of `kernel` scanned by codegen: the C fragment (statement macro
/// `S(iterators)`, parameters in scope), iterator and parameter names.
#[derive(Debug, Clone)]
struct Nest {
    fragment: String,
    iterators: Vec<String>,
    params: Vec<String>,
}

fn catalogue_nest(kernel: Kernel) -> Result<Nest, LaError> {
    let spec = kernel
        .spec()
        .ok_or_else(|| LaError::Unsupported(format!("{kernel} has no catalogue entry")))?;
    let fail = |m: String| LaError::Unsupported(format!("{} nest: {m}", spec.name));
    let order = loop_order(kernel);
    let (text, iterators) =
        crate::kernel::nest::permute_domain(spec.domain, &order).map_err(fail)?;
    let problem = codegen::input::parse_problem(&text).map_err(|e| fail(e.message))?;
    let opts = codegen::GenOptions {
        linear: true,
        ..codegen::GenOptions::default()
    };
    let stats = cad::LiftStats::default();
    let g = codegen::generate(&problem, &opts, &stats).map_err(|e| fail(e.to_string()))?;
    let emitter = g.emitter();
    let fragment = emitter
        .fragment(&g.nodes)
        .map_err(|e| fail(e.to_string()))?;
    Ok(Nest {
        fragment,
        iterators,
        params: problem.params.clone(),
    })
}

/// Loop order (catalogue tuple positions, outermost first) for column-major storage: the
/// row index innermost where the dependences allow it. Every order here is legal for the
/// catalogue body: reductions (GEMM, SYMM, SYRK, TRMM, LAUUM, the matrix-vector kernels)
/// in any order; the solves and factorisations column by column, right-looking (TRSM,
/// TRSV, TRTRI: an unknown is divided by its diagonal, at the first point of its step,
/// before the rows below use it; POTRF left-looking per column; GETRF: multipliers of
/// step k at j = k before the updates j > k, and the pivot before both).
fn loop_order(kernel: Kernel) -> Vec<usize> {
    match kernel {
        Kernel::Gemm | Kernel::Symm | Kernel::Trmm | Kernel::Trsm => vec![1, 2, 0],
        Kernel::Syrk | Kernel::Syr2k | Kernel::Lauum => vec![1, 0, 2],
        Kernel::Potrf | Kernel::Getrf | Kernel::Trtri => vec![0, 2, 1],
        Kernel::Getri => vec![0, 1, 2],
        Kernel::Dot => vec![0],
        _ => vec![1, 0],
    }
}

/// The catalogue body with `X[e1][e2]` as `PS_X(e1, e2)`, `x[e]` as `PS_x(e)` and the
/// bare names of `scalars` replaced.
fn rewrite_body(body: &str, scalars: &[(&str, String)]) -> String {
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts = c.is_ascii_alphabetic()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_'));
        if !starts {
            out.push(c);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
            j += 1;
        }
        let name: String = chars[i..j].iter().collect();
        // A number's exponent (1.0e5) is not a name.
        let in_number = i > 0 && (chars[i - 1].is_ascii_digit() || chars[i - 1] == '.');
        if in_number {
            out.push_str(&name);
            i = j;
            continue;
        }
        if let Some((e1, after1)) = subscript(&chars, j) {
            if let Some((e2, after2)) = subscript(&chars, after1) {
                let _ = write!(
                    out,
                    "PS_{name}({}, {})",
                    rewrite_body(&e1, scalars),
                    rewrite_body(&e2, scalars)
                );
                i = after2;
            } else {
                let _ = write!(out, "PS_{name}({})", rewrite_body(&e1, scalars));
                i = after1;
            }
            continue;
        }
        match scalars.iter().find(|(n, _)| *n == name) {
            Some((_, r)) => {
                let _ = write!(out, "({r})");
            }
            None => out.push_str(&name),
        }
        i = j;
    }
    out
}

/// How a catalogue array name is bound in a nest.
enum Acc {
    Mat(V),
    Vec(V),
    /// An `int64_t` array.
    Ints(String),
}

// ---------------------------------------------------------------------------------------
// Kernels from crate::kernel.

/// The blocked kernels `crate::kernel` emitted for this program, by catalogue kernel.
struct Library {
    /// Catalogue kernels whose blocked version is included.
    available: Vec<Kernel>,
    /// Their C text (shared helpers stripped), in first-use order.
    chunks: Vec<String>,
    /// Whether the solvers' shared workspace code is needed.
    solver: bool,
}

/// Catalogue kernels whose `polyscan_d*` argument conventions this module knows.
const CALLABLE: [Kernel; 10] = [
    Kernel::Gemm,
    Kernel::Syrk,
    Kernel::Symm,
    Kernel::Trmm,
    Kernel::Gemv,
    Kernel::Trsm,
    Kernel::Trsv,
    Kernel::Potrf,
    Kernel::Getrf,
    Kernel::Trtri,
];

impl Library {
    fn new() -> Library {
        Library {
            available: Vec::new(),
            chunks: Vec::new(),
            solver: false,
        }
    }

    /// Whether `kernel` can be called from the generated library (emitting it on first
    /// use); `BadInput` from the emitter (a name it does not take) means "not available".
    fn has(&mut self, kernel: Kernel) -> Result<bool, LaError> {
        if self.available.contains(&kernel) {
            return Ok(true);
        }
        if !CALLABLE.contains(&kernel) {
            return Ok(false);
        }
        let blas = match crate::kernel::Blas::parse(kernel.name()) {
            Ok(b) => b,
            Err(crate::kernel::KernelError::BadInput(_)) => return Ok(false),
            Err(e) => return Err(LaError::Unsupported(e.to_string())),
        };
        let req = crate::kernel::Request::new(blas);
        let text = match crate::kernel::emit(&req) {
            Ok(t) => t,
            Err(crate::kernel::KernelError::BadInput(_)) => return Ok(false),
            Err(e) => return Err(LaError::Unsupported(e.to_string())),
        };
        // The shared helpers are printed once at the top of the program.
        let mut text = text.replacen(codegen::emit_c::HELPERS, "", 1);
        text = text.replacen(&crate::kernel::runtime::common(), "", 1);
        let solver = crate::kernel::runtime::solver();
        if text.contains(&solver) {
            text = text.replacen(&solver, "", 1);
            self.solver = true;
        }
        let mut undefs = String::new();
        for line in text.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("#define ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name != "PS_MR" && name != "PS_NR" {
                    let _ = writeln!(undefs, "#undef {name}");
                }
            }
        }
        text.push_str(&undefs);
        self.chunks.push(text);
        self.available.push(kernel);
        Ok(true)
    }
}

// ---------------------------------------------------------------------------------------
// The emitter.

struct Emitter<'a> {
    env: &'a Env,
    shapes: Vec<(u64, u64)>,
    backend: Backend,
    lib: Library,
    nests: HashMap<Kernel, Nest>,
    scratch: usize,
    realisation: Vec<(String, String)>,
}

fn num(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

impl<'a> Emitter<'a> {
    fn ptr(&self, id: usize) -> String {
        format!("ps_v[{id}]")
    }

    fn base(&self, id: usize) -> V {
        let (r, c) = self.shapes[id];
        V {
            view: View::Base {
                ptr: self.ptr(id),
                ld: r,
            },
            rows: r,
            cols: c,
        }
    }

    fn view(&self, a: Arg) -> V {
        let v = self.base(a.id);
        if a.trans {
            v.t()
        } else {
            v
        }
    }

    fn props(&self, a: Arg) -> Props {
        let p = self.env.props(a.id);
        if a.trans {
            transpose_props(p)
        } else {
            p
        }
    }

    fn is_scalar(&self, a: Arg) -> bool {
        self.shapes[a.id] == (1, 1)
    }

    fn lower(&self, a: Arg) -> bool {
        self.props(a).has(Prop::LowerTriangular)
    }

    fn alpha(&self, al: &Alpha) -> String {
        let mut s = num(al.coef);
        for &id in &al.scalars {
            let _ = write!(s, " * {}[0]", self.ptr(id));
        }
        s
    }

    fn fresh(&mut self) -> String {
        self.scratch += 1;
        format!("ps_s{}", self.scratch)
    }

    /// Copies view `src` into view `dst` (same shape).
    fn copy(&self, code: &mut String, dst: &V, src: &V) {
        let _ = writeln!(
            code,
            "    for (int64_t ps_c = 0; ps_c < {}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {}; ps_r++)\n        {} = {};",
            dst.cols,
            dst.rows,
            dst.at("ps_r", "ps_c"),
            src.at("ps_r", "ps_c")
        );
    }

    /// Plain storage for `v`: its own if it is plain (transposed only if `trans_ok`), else
    /// a scratch copy, freed at the end of the step.
    fn operand(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        v: &V,
        trans_ok: bool,
    ) -> (String, u64, bool) {
        if let Some((p, ld, t)) = v.plain() {
            if !t || trans_ok {
                return (p, ld, t);
            }
        }
        let s = self.fresh();
        let _ = writeln!(code, "    double *{s} = ps_new({}, {});", v.rows, v.cols);
        let dst = V {
            view: View::Base {
                ptr: s.clone(),
                ld: v.rows,
            },
            rows: v.rows,
            cols: v.cols,
        };
        self.copy(code, &dst, v);
        frees.push(s.clone());
        (s, v.rows, false)
    }

    /// Plain storage the result is written to; `init` is copied in first (in-place
    /// kernels). The returned scatter code copies a scratch result back through `v`.
    fn target(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        v: &V,
        init: Option<&V>,
    ) -> (String, u64, String) {
        if let Some((p, ld, false)) = v.plain() {
            if let Some(src) = init {
                self.copy(code, v, src);
            }
            return (p, ld, String::new());
        }
        let s = self.fresh();
        let _ = writeln!(code, "    double *{s} = ps_new({}, {});", v.rows, v.cols);
        let dst = V {
            view: View::Base {
                ptr: s.clone(),
                ld: v.rows,
            },
            rows: v.rows,
            cols: v.cols,
        };
        if let Some(src) = init {
            self.copy(code, &dst, src);
        }
        let mut scatter = String::new();
        self.copy(&mut scatter, v, &dst);
        frees.push(s.clone());
        (s, v.rows, scatter)
    }

    /// A catalogue nest with its arrays bound to views.
    fn nest(
        &mut self,
        code: &mut String,
        kernel: Kernel,
        params: &[(&str, u64)],
        arrays: &[(&str, Acc)],
        scalars: &[(&str, String)],
        prefix: &str,
    ) -> Result<(), LaError> {
        let nest = match self.nests.entry(kernel) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(catalogue_nest(kernel)?),
        };
        let spec = kernel
            .spec()
            .ok_or_else(|| LaError::Unsupported(format!("{kernel} has no catalogue entry")))?;
        let _ = writeln!(code, "    {{ /* {}: {} */", spec.name, spec.domain);
        for p in &nest.params {
            let v = params
                .iter()
                .find(|(n, _)| n == p)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    LaError::Unsupported(format!("{}: no value for parameter {p}", spec.name))
                })?;
            let _ = writeln!(code, "    const int64_t {p} = {v};");
        }
        let mut undef = Vec::new();
        for (name, acc) in arrays {
            match acc {
                Acc::Mat(v) => {
                    let _ = writeln!(code, "#define PS_{name}(r, c) {}", v.at("r", "c"));
                }
                Acc::Vec(v) => {
                    let _ = writeln!(code, "#define PS_{name}(e) {}", v.el("e"));
                }
                Acc::Ints(a) => {
                    let _ = writeln!(code, "#define PS_{name}(e) {a}[e]");
                }
            }
            undef.push(format!("PS_{name}"));
        }
        let body = rewrite_body(spec.body, scalars);
        let _ = writeln!(
            code,
            "#define S({}) do {{ {prefix}{body}; }} while (0)",
            nest.iterators.join(", ")
        );
        for line in nest.fragment.lines() {
            let _ = writeln!(code, "    {line}");
        }
        let _ = writeln!(code, "#undef S");
        for u in undef {
            let _ = writeln!(code, "#undef {u}");
        }
        let _ = writeln!(code, "    }}");
        Ok(())
    }

    fn zero(&self, code: &mut String, id: usize) {
        let (r, c) = self.shapes[id];
        let _ = writeln!(
            code,
            "    memset({}, 0, sizeof(double) * {});",
            self.ptr(id),
            r * c
        );
    }

    /// The canonical form of a product `a * b` labelled `kernel`; conditions that do not
    /// hold fall back to the general product.
    fn mul_form(&self, kernel: Kernel, a: Arg, b: Arg, out: usize) -> Form {
        let (va, vb, vo) = (self.view(a), self.view(b), self.base(out));
        let (m, k, n) = (va.rows, va.cols, vb.cols);
        if k != vb.rows {
            return if self.is_scalar(a) {
                Form::Scale {
                    x: vo,
                    alpha: va.at("0", "0"),
                    b: vb,
                }
            } else {
                Form::Scale {
                    x: vo,
                    alpha: vb.at("0", "0"),
                    b: va,
                }
            };
        }
        let (pa, pb) = (self.props(a), self.props(b));
        let tri = |p: Props| p.is_triangular();
        let gram = a.id == b.id && a.trans != b.trans;
        let general = || {
            if m == 1 && n == 1 {
                Form::Dot {
                    s: vo.clone(),
                    x: va.t(),
                    y: vb.clone(),
                }
            } else if k == 1 {
                Form::Ger {
                    c: vo.clone(),
                    x: va.clone(),
                    y: vb.t(),
                }
            } else if n == 1 {
                Form::Gemv {
                    y: vo.clone(),
                    a: va.clone(),
                    x: vb.clone(),
                }
            } else if m == 1 {
                Form::Gemv {
                    y: vo.t(),
                    a: vb.t(),
                    x: va.t(),
                }
            } else {
                Form::Gemm {
                    c: vo.clone(),
                    a: va.clone(),
                    b: vb.clone(),
                }
            }
        };
        match kernel {
            Kernel::Laswp if pa.has(Prop::Permutation) && m == k => Form::Laswp {
                x: vo,
                p: va,
                b: vb,
            },
            Kernel::Laswp if pb.has(Prop::Permutation) && k == n => Form::Laswp {
                x: vo.t(),
                p: vb.t(),
                b: va.t(),
            },
            Kernel::DiagScale if (pa.has(Prop::Diagonal) || self.is_scalar(a)) && m == k => {
                Form::DiagScale {
                    x: vo,
                    d: va,
                    b: vb,
                }
            }
            Kernel::DiagScale if (pb.has(Prop::Diagonal) || self.is_scalar(b)) && k == n => {
                Form::DiagScale {
                    x: vo.t(),
                    d: vb.t(),
                    b: va.t(),
                }
            }
            Kernel::Trmm | Kernel::Trmv if tri(pa) && m == k => {
                let lower = self.lower(a);
                if n == 1 {
                    Form::Trmv {
                        y: vo,
                        t: va,
                        lower,
                        x: vb,
                    }
                } else {
                    Form::Trmm {
                        x: vo,
                        t: va,
                        lower,
                        b: vb,
                    }
                }
            }
            Kernel::Trmm | Kernel::Trmv if tri(pb) && k == n => {
                let lower = !self.lower(b);
                if m == 1 {
                    Form::Trmv {
                        y: vo.t(),
                        t: vb.t(),
                        lower,
                        x: va.t(),
                    }
                } else {
                    Form::Trmm {
                        x: vo.t(),
                        t: vb.t(),
                        lower,
                        b: va.t(),
                    }
                }
            }
            Kernel::Symm | Kernel::Symv if pa.has(Prop::Symmetric) && m == k => {
                if n == 1 {
                    Form::Symv {
                        y: vo,
                        a: va,
                        x: vb,
                    }
                } else {
                    Form::Symm {
                        c: vo,
                        s: va,
                        b: vb,
                    }
                }
            }
            Kernel::Symm | Kernel::Symv if pb.has(Prop::Symmetric) && k == n => {
                if m == 1 {
                    Form::Symv {
                        y: vo.t(),
                        a: vb.t(),
                        x: va.t(),
                    }
                } else {
                    Form::Symm {
                        c: vo.t(),
                        s: vb.t(),
                        b: va.t(),
                    }
                }
            }
            Kernel::Lauum if gram && tri(pb) => Form::Lauum {
                c: vo,
                t: vb,
                lower: self.lower(b),
            },
            Kernel::Syrk if gram && n > 1 => Form::Syrk { c: vo, a: vb },
            _ => general(),
        }
    }

    fn solve_form(&self, t: Arg, b: Arg, left: bool, out: usize) -> Result<Form, LaError> {
        let (mut vt, mut vb, mut vo) = (self.view(t), self.view(b), self.base(out));
        let p = self.props(t);
        let mut lower = p.has(Prop::LowerTriangular);
        if !left {
            // X op(T)^-1 = B  <=>  op(T)^T X^T = B^T.
            vt = vt.t();
            vb = vb.t();
            vo = vo.t();
            lower = p.has(Prop::UpperTriangular);
        }
        if p.has(Prop::Diagonal) || self.is_scalar(t) {
            return Ok(Form::DiagSolve {
                x: vo,
                d: vt,
                b: vb,
            });
        }
        if !p.is_triangular() {
            return Err(LaError::Unsupported(format!(
                "a solve with {}, which is neither triangular nor diagonal",
                self.env.entities[t.id].name
            )));
        }
        Ok(if vb.cols == 1 {
            Form::Trsv {
                y: vo,
                t: vt,
                lower,
                x: vb,
            }
        } else {
            Form::Trsm {
                x: vo,
                t: vt,
                lower,
                b: vb,
            }
        })
    }

    /// Code of one form, and how it was realised.
    fn form(&mut self, code: &mut String, f: Form) -> Result<String, LaError> {
        let mut frees = Vec::new();
        let how = match self.backend {
            Backend::Blas => self.form_blas(code, &mut frees, f)?,
            Backend::Generated => self.form_generated(code, &mut frees, f)?,
            Backend::Nests => self.form_nest(code, f)?,
        };
        for s in frees {
            let _ = writeln!(code, "    free({s});");
        }
        Ok(how)
    }

    /// Triangular forms in lower-triangular shape: an upper triangle reversed in both
    /// indices is lower, and the other operands' rows are reversed with it.
    /// An upper triangle `t` and a square result `x` tied to it (its inverse, its Gram
    /// product) as the lower triangle they become with rows and columns reversed.
    fn reversed_unless_lower(lower: bool, t: V, x: V) -> (V, V) {
        if lower {
            (t, x)
        } else {
            (t.rev(true, true), x.rev(true, true))
        }
    }

    fn lowered(t: V, lower: bool, others: Vec<V>) -> (V, Vec<V>) {
        if lower {
            (t, others)
        } else {
            (
                t.rev(true, true),
                others.into_iter().map(|o| o.rev(true, false)).collect(),
            )
        }
    }

    fn form_generated(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        // LAUUM (t^T t) has no blocked kernel: a triangular multiply of a copy of t by
        // t^T does it with three times LAUUM's flops, but at the blocked kernel's speed
        // (some 35 GFLOP/s here) instead of the catalogue nest's (about 1), and it
        // computes both triangles.
        let f = match f {
            Form::Lauum { c, t, lower } if self.lib.has(Kernel::Trmm)? => Form::Trmm {
                x: c,
                t: t.t(),
                lower: !lower,
                b: t,
            },
            other => other,
        };
        let lib_kernel = match &f {
            Form::Gemm { .. } => Some(Kernel::Gemm),
            Form::Symm { .. } => Some(Kernel::Symm),
            Form::Syrk { .. } => Some(Kernel::Syrk),
            Form::Trmm { .. } => Some(Kernel::Trmm),
            Form::Gemv { .. } => Some(Kernel::Gemv),
            Form::Trsm { .. } => Some(Kernel::Trsm),
            Form::Trsv { .. } => Some(Kernel::Trsv),
            Form::Trtri { .. } => Some(Kernel::Trtri),
            _ => None,
        };
        if let Some(k) = lib_kernel {
            if self.lib.has(k)? {
                return self.form_library(code, frees, f);
            }
        }
        self.form_nest(code, f)
    }

    /// Calls into `polyscan_d*` (column-major, no transposes, left side, lower triangle).
    fn form_library(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        let (name, scatter) = match f {
            Form::Gemm { c, a, b } => {
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dgemm({}, {}, {}, 1.0, {pa}, {lda}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols, a.cols
                );
                ("polyscan_dgemm", sc)
            }
            Form::Symm { c, s, b } => {
                // Symmetric operands are stored whole: a transposed view reads the same.
                let (ps, lds, _) = self.operand(code, frees, &s, true);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dsymm({}, {}, 1.0, {ps}, {lds}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols
                );
                ("polyscan_dsymm", sc)
            }
            Form::Syrk { c, a } => {
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dsyrk({}, {}, 1.0, {pa}, {lda}, 0.0, {pc}, {ldc});",
                    c.rows, a.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &c, true)?;
                ("polyscan_dsyrk", String::new())
            }
            Form::Trmm { x, t, lower, b } => {
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let (x, b) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (px, ldx, sc) = self.target(code, frees, x, Some(b));
                let _ = writeln!(
                    code,
                    "    polyscan_dtrmm({}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    x.rows, x.cols
                );
                ("polyscan_dtrmm", sc)
            }
            Form::Gemv { y, a, x } => {
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dgemv({}, {}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    a.rows, a.cols
                );
                ("polyscan_dgemv", sc)
            }
            Form::Trsm { x, t, lower, b } => {
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let (x, b) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (px, ldx, sc) = self.target(code, frees, x, Some(b));
                let _ = writeln!(
                    code,
                    "    polyscan_dtrsm({}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    x.rows, x.cols
                );
                ("polyscan_dtrsm", sc)
            }
            Form::Trsv { y, t, lower, x } => {
                let (t, rest) = Self::lowered(t, lower, vec![y, x]);
                let (y, x) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (py, _, sc) = self.target(code, frees, y, Some(x));
                let _ = writeln!(
                    code,
                    "    polyscan_dtrsv({}, {pt}, {ldt}, {py}, 1);",
                    t.rows
                );
                ("polyscan_dtrsv", sc)
            }
            Form::Trtri { x, t, lower } => {
                // The kernel inverts a lower triangle in place.
                let (t, x) = Self::reversed_unless_lower(lower, t, x);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&t));
                let _ = writeln!(
                    code,
                    "    {{ int64_t ps_info = polyscan_dtrtri({n}, {px}, {ldx});\n      if (ps_info != 0) ps_fail(\"polyscan_dtrtri\", (long)ps_info);\n      ps_zero_triangle({px}, {n}, {ldx}, 1); }}",
                    n = t.rows
                );
                ("polyscan_dtrtri", sc)
            }
            other => return self.form_nest(code, other),
        };
        code.push_str(&scatter);
        Ok(format!("generated kernel {name}"))
    }

    /// The catalogue body over its domain.
    fn form_nest(&mut self, code: &mut String, f: Form) -> Result<String, LaError> {
        use Acc::{Mat, Vec as Vc};
        let kernel = match f {
            Form::Gemm { c, a, b } => {
                self.zero_view(code, &c);
                let p = [("m", c.rows), ("n", c.cols), ("k", a.cols)];
                self.nest(
                    code,
                    Kernel::Gemm,
                    &p,
                    &[("C", Mat(c)), ("A", Mat(a)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                Kernel::Gemm
            }
            Form::Symm { c, s, b } => {
                self.zero_view(code, &c);
                let p = [("m", c.rows), ("n", c.cols)];
                self.nest(
                    code,
                    Kernel::Symm,
                    &p,
                    &[("C", Mat(c)), ("A", Mat(s)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                Kernel::Symm
            }
            Form::Syrk { c, a } => {
                self.zero_view(code, &c);
                let p = [("n", c.rows), ("k", a.rows)];
                self.nest(
                    code,
                    Kernel::Syrk,
                    &p,
                    &[("C", Mat(c.clone())), ("A", Mat(a))],
                    &[],
                    "",
                )?;
                Self::symmetrize(code, &c, true)?;
                Kernel::Syrk
            }
            Form::Trmm { x, t, lower, b } => {
                self.zero_view(code, &x);
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let mut it = rest.into_iter();
                let (Some(x), Some(b)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                let p = [("m", x.rows), ("n", x.cols)];
                self.nest(
                    code,
                    Kernel::Trmm,
                    &p,
                    &[("X", Mat(x)), ("L", Mat(t)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                Kernel::Trmm
            }
            Form::Trsm { x, t, lower, b } => {
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let mut it = rest.into_iter();
                let (Some(x), Some(b)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                self.copy(code, &x, &b);
                let p = [("m", x.rows), ("n", x.cols)];
                self.nest(
                    code,
                    Kernel::Trsm,
                    &p,
                    &[("B", Mat(x)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                Kernel::Trsm
            }
            Form::Gemv { y, a, x } => {
                self.zero_view(code, &y);
                let p = [("m", a.rows), ("n", a.cols)];
                self.nest(
                    code,
                    Kernel::Gemv,
                    &p,
                    &[("y", Vc(y)), ("A", Mat(a)), ("x", Vc(x))],
                    &[],
                    "",
                )?;
                Kernel::Gemv
            }
            Form::Symv { y, a, x } => {
                self.zero_view(code, &y);
                let p = [("n", a.rows)];
                self.nest(
                    code,
                    Kernel::Symv,
                    &p,
                    &[("y", Vc(y)), ("A", Mat(a)), ("x", Vc(x))],
                    &[],
                    "",
                )?;
                Kernel::Symv
            }
            Form::Trmv { y, t, lower, x } => {
                self.zero_view(code, &y);
                let (t, rest) = Self::lowered(t, lower, vec![y, x]);
                let mut it = rest.into_iter();
                let (Some(y), Some(x)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                let p = [("n", t.rows)];
                self.nest(
                    code,
                    Kernel::Trmv,
                    &p,
                    &[("y", Vc(y)), ("L", Mat(t)), ("x", Vc(x))],
                    &[],
                    "",
                )?;
                Kernel::Trmv
            }
            Form::Trsv { y, t, lower, x } => {
                let (t, rest) = Self::lowered(t, lower, vec![y, x]);
                let mut it = rest.into_iter();
                let (Some(y), Some(x)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                self.copy(code, &y, &x);
                let p = [("n", t.rows)];
                self.nest(
                    code,
                    Kernel::Trsv,
                    &p,
                    &[("x", Vc(y)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                Kernel::Trsv
            }
            Form::Ger { c, x, y } => {
                self.zero_view(code, &c);
                let p = [("m", c.rows), ("n", c.cols)];
                self.nest(
                    code,
                    Kernel::Ger,
                    &p,
                    &[("A", Mat(c)), ("x", Vc(x)), ("y", Vc(y))],
                    &[],
                    "",
                )?;
                Kernel::Ger
            }
            Form::Dot { s, x, y } => {
                let target = s.at("0", "0");
                let _ = writeln!(code, "    {target} = 0.0;");
                let p = [("n", x.rows)];
                self.nest(
                    code,
                    Kernel::Dot,
                    &p,
                    &[("x", Vc(x)), ("y", Vc(y))],
                    &[("s", target)],
                    "",
                )?;
                Kernel::Dot
            }
            Form::DiagScale { x, d, b } => {
                self.copy(code, &x, &b);
                let p = [("m", x.rows), ("n", x.cols)];
                self.nest(
                    code,
                    Kernel::DiagScale,
                    &p,
                    &[("B", Mat(x)), ("D", Mat(d))],
                    &[],
                    "",
                )?;
                Kernel::DiagScale
            }
            Form::DiagSolve { x, d, b } => {
                self.copy(code, &x, &b);
                let p = [("m", x.rows), ("n", x.cols)];
                self.nest(
                    code,
                    Kernel::DiagSolve,
                    &p,
                    &[("B", Mat(x)), ("D", Mat(d))],
                    &[],
                    "",
                )?;
                Kernel::DiagSolve
            }
            Form::Scale { x, alpha, b } => {
                self.copy(code, &x, &b);
                let p = [("m", x.rows), ("n", x.cols)];
                self.nest(
                    code,
                    Kernel::Scal,
                    &p,
                    &[("X", Mat(x))],
                    &[("alpha", alpha)],
                    "",
                )?;
                Kernel::Scal
            }
            Form::Laswp { x, p, b } => {
                // The permutation's index vector from the dense matrix: row i of P has its
                // one in column p[i].
                let s = self.fresh();
                let _ = writeln!(
                    code,
                    "    int64_t *{s} = malloc(sizeof(int64_t) * {n});\n    if ({s} == NULL) ps_oom();\n    for (int64_t ps_r = 0; ps_r < {n}; ps_r++)\n      for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n        if ({} != 0.0) {s}[ps_r] = ps_c;",
                    p.at("ps_r", "ps_c"),
                    n = p.rows
                );
                let pr = [("m", x.rows), ("n", x.cols)];
                self.nest(
                    code,
                    Kernel::Laswp,
                    &pr,
                    &[("X", Mat(x)), ("B", Mat(b)), ("p", Acc::Ints(s.clone()))],
                    &[],
                    "",
                )?;
                let _ = writeln!(code, "    free({s});");
                Kernel::Laswp
            }
            Form::Trtri { x, t, lower } => {
                self.zero_view(code, &x);
                let (t, x) = Self::reversed_unless_lower(lower, t, x);
                let p = [("n", t.rows)];
                self.nest(
                    code,
                    Kernel::Trtri,
                    &p,
                    &[("X", Mat(x)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                Kernel::Trtri
            }
            Form::Lauum { c, t, lower } => {
                self.zero_view(code, &c);
                let out = c.clone();
                let (t, c) = Self::reversed_unless_lower(lower, t, c);
                let p = [("n", t.rows)];
                self.nest(
                    code,
                    Kernel::Lauum,
                    &p,
                    &[("C", Mat(c)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                // Reversed, the computed lower triangle is the result's upper one.
                Self::symmetrize(code, &out, lower)?;
                Kernel::Lauum
            }
        };
        Ok(format!("catalogue nest {}", kernel.name()))
    }

    fn zero_view(&self, code: &mut String, v: &V) {
        let _ = writeln!(
            code,
            "    for (int64_t ps_c = 0; ps_c < {}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {}; ps_r++)\n        {} = 0.0;",
            v.cols,
            v.rows,
            v.at("ps_r", "ps_c")
        );
    }

    /// `ps_symmetrize` of a square result whose `lower` (else upper) triangle is computed.
    fn symmetrize(code: &mut String, c: &V, lower: bool) -> Result<(), LaError> {
        let (p, ld, t) = c.plain().ok_or_else(internal)?;
        // A transposed view of the result has the other triangle computed.
        let lower = lower != t;
        let _ = writeln!(
            code,
            "    ps_symmetrize({p}, {}, {ld}, {});",
            c.rows,
            i32::from(lower)
        );
        Ok(())
    }

    /// CBLAS / LAPACK calls; kernels without a BLAS routine (diagonal scaling and solves,
    /// row permutations, scaling by a 1 x 1 factor) run the catalogue nest.
    fn form_blas(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        let tr = |t: bool| if t { "CblasTrans" } else { "CblasNoTrans" };
        // The stored triangle of a view that is `lower` as used.
        let uplo = |lower: bool, t: bool| {
            if lower != t {
                "CblasLower"
            } else {
                "CblasUpper"
            }
        };
        let (name, scatter) = match f {
            Form::Gemm { c, a, b } => {
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (pb, ldb, tb) = self.operand(code, frees, &b, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    cblas_dgemm(CblasColMajor, {}, {}, {}, {}, {}, 1.0, {pa}, {lda}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    tr(ta), tr(tb), c.rows, c.cols, a.cols
                );
                ("cblas_dgemm", sc)
            }
            Form::Symm { c, s, b } => {
                // Symmetric operands are stored whole: a transposed view reads the same.
                let (ps, lds, _) = self.operand(code, frees, &s, true);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, {}, {}, 1.0, {ps}, {lds}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols
                );
                ("cblas_dsymm", sc)
            }
            Form::Syrk { c, a } => {
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                // a (k x n) stored as is: C = a^T a is CblasTrans; stored transposed
                // (n x k): C = s s^T is CblasNoTrans.
                let _ = writeln!(
                    code,
                    "    cblas_dsyrk(CblasColMajor, CblasLower, {}, {}, {}, 1.0, {pa}, {lda}, 0.0, {pc}, {ldc});",
                    tr(!ta), c.rows, a.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &c, true)?;
                ("cblas_dsyrk", String::new())
            }
            Form::Trmm { x, t, lower, b } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&b));
                let _ = writeln!(
                    code,
                    "    cblas_dtrmm(CblasColMajor, CblasLeft, {}, {}, CblasNonUnit, {}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    uplo(lower, tt), tr(tt), x.rows, x.cols
                );
                ("cblas_dtrmm", sc)
            }
            Form::Trsm { x, t, lower, b } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&b));
                let _ = writeln!(
                    code,
                    "    cblas_dtrsm(CblasColMajor, CblasLeft, {}, {}, CblasNonUnit, {}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    uplo(lower, tt), tr(tt), x.rows, x.cols
                );
                ("cblas_dtrsm", sc)
            }
            Form::Gemv { y, a, x } => {
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let (r, c) = if ta {
                    (a.cols, a.rows)
                } else {
                    (a.rows, a.cols)
                };
                let _ = writeln!(
                    code,
                    "    cblas_dgemv(CblasColMajor, {}, {r}, {c}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    tr(ta)
                );
                ("cblas_dgemv", sc)
            }
            Form::Symv { y, a, x } => {
                let (pa, lda, _) = self.operand(code, frees, &a, true);
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let _ = writeln!(
                    code,
                    "    cblas_dsymv(CblasColMajor, CblasLower, {}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    a.rows
                );
                ("cblas_dsymv", sc)
            }
            Form::Trmv { y, t, lower, x } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (py, _, sc) = self.target(code, frees, &y, Some(&x));
                let _ = writeln!(
                    code,
                    "    cblas_dtrmv(CblasColMajor, {}, {}, CblasNonUnit, {}, {pt}, {ldt}, {py}, 1);",
                    uplo(lower, tt), tr(tt), t.rows
                );
                ("cblas_dtrmv", sc)
            }
            Form::Trsv { y, t, lower, x } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (py, _, sc) = self.target(code, frees, &y, Some(&x));
                let _ = writeln!(
                    code,
                    "    cblas_dtrsv(CblasColMajor, {}, {}, CblasNonUnit, {}, {pt}, {ldt}, {py}, 1);",
                    uplo(lower, tt), tr(tt), t.rows
                );
                ("cblas_dtrsv", sc)
            }
            Form::Ger { c, x, y } => {
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, _) = self.operand(code, frees, &y, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {m}; ps_r++) {pc}[ps_r + ps_c * {ldc}] = 0.0;\n    cblas_dger(CblasColMajor, {m}, {n}, 1.0, {px}, 1, {py}, 1, {pc}, {ldc});",
                    m = c.rows,
                    n = c.cols
                );
                ("cblas_dger", sc)
            }
            Form::Dot { s, x, y } => {
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, _) = self.operand(code, frees, &y, true);
                let _ = writeln!(
                    code,
                    "    {} = cblas_ddot({}, {px}, 1, {py}, 1);",
                    s.at("0", "0"),
                    x.rows
                );
                ("cblas_ddot", String::new())
            }
            Form::Trtri { x, t, lower } => {
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&t));
                let _ = writeln!(
                    code,
                    "    {{ int ps_n = {n}, ps_ld = {ldx}, ps_info = 0;\n      dtrtri_(\"{}\", \"N\", &ps_n, {px}, &ps_ld, &ps_info, 1, 1);\n      if (ps_info != 0) ps_fail(\"dtrtri\", ps_info);\n      ps_zero_triangle({px}, {n}, {ldx}, {}); }}",
                    if lower { "L" } else { "U" },
                    i32::from(lower),
                    n = t.rows
                );
                ("dtrtri_", sc)
            }
            Form::Lauum { c, t, lower } => {
                if lower && t.plain().is_some_and(|(_, _, tt)| !tt) {
                    let (pc, ldc, sc) = self.target(code, frees, &c, Some(&t));
                    let _ = writeln!(
                        code,
                        "    {{ int ps_n = {n}, ps_ld = {ldc}, ps_info = 0;\n      dlauum_(\"L\", &ps_n, {pc}, &ps_ld, &ps_info, 1);\n      if (ps_info != 0) ps_fail(\"dlauum\", ps_info); }}",
                        n = t.rows
                    );
                    code.push_str(&sc);
                    Self::symmetrize(code, &c, true)?;
                    ("dlauum_", String::new())
                } else {
                    // t^T t as a triangular multiply of a copy of t.
                    let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                    let (pc, ldc, sc) = self.target(code, frees, &c, Some(&t));
                    let _ = writeln!(
                        code,
                        "    cblas_dtrmm(CblasColMajor, CblasLeft, {}, {}, CblasNonUnit, {n}, {n}, 1.0, {pt}, {ldt}, {pc}, {ldc});",
                        uplo(lower, tt),
                        tr(!tt),
                        n = t.rows
                    );
                    ("cblas_dtrmm", sc)
                }
            }
            other => return self.form_nest(code, other),
        };
        code.push_str(&scatter);
        Ok(format!("BLAS {name}"))
    }

    /// The code of one step.
    fn step(&mut self, code: &mut String, s: &Step) -> Result<(), LaError> {
        let out = s.out;
        let vo = self.base(out);
        let _ = writeln!(
            code,
            "  /* {:<9} {} */\n  {{",
            s.kernel.name(),
            super::report::describe(self.env, s)
        );
        let how = match &s.op {
            Op::Mul { a, b } => {
                let f = self.mul_form(s.kernel, *a, *b, out);
                self.form(code, f)?
            }
            Op::Solve { t, b, left } => {
                let f = self.solve_form(*t, *b, *left, out)?;
                self.form(code, f)?
            }
            Op::Inverse { a } => {
                let p = self.props(*a);
                if p.has(Prop::Diagonal) || self.is_scalar(*a) {
                    // D^-1 as the diagonal solve D X = I.
                    let _ = writeln!(
                        code,
                        "    ps_fill_identity({}, {});",
                        self.ptr(out),
                        vo.rows
                    );
                    let f = Form::DiagSolve {
                        x: vo.clone(),
                        d: self.view(*a),
                        b: vo,
                    };
                    self.form(code, f)?
                } else if p.is_triangular() {
                    let f = Form::Trtri {
                        x: vo,
                        t: self.view(*a),
                        lower: self.lower(*a),
                    };
                    self.form(code, f)?
                } else {
                    return Err(LaError::Unsupported(
                        "an explicit inverse of a general matrix in the sequence".into(),
                    ));
                }
            }
            Op::Add { terms } => {
                self.zero(code, out);
                let mut how = String::new();
                for (al, a) in terms {
                    let alpha = self.alpha(al);
                    if self.env.entities[a.id].kind == Kind::Identity {
                        let _ = writeln!(
                            code,
                            "    for (int64_t ps_r = 0; ps_r < {}; ps_r++) {} += {alpha};",
                            vo.rows,
                            vo.at("ps_r", "ps_r")
                        );
                        continue;
                    }
                    let x = self.view(*a);
                    how = match (self.backend, x.plain()) {
                        (Backend::Blas, Some((p, _, false))) => {
                            let _ = writeln!(
                                code,
                                "    cblas_daxpy({}, {alpha}, {p}, 1, {}, 1);",
                                vo.rows * vo.cols,
                                self.ptr(out)
                            );
                            "BLAS cblas_daxpy".into()
                        }
                        _ => {
                            let p = [("m", vo.rows), ("n", vo.cols)];
                            self.nest(
                                code,
                                Kernel::Axpy,
                                &p,
                                &[("Y", Acc::Mat(vo.clone())), ("X", Acc::Mat(x))],
                                &[("alpha", alpha)],
                                "",
                            )?;
                            "catalogue nest AXPY".into()
                        }
                    };
                }
                if how.is_empty() {
                    "diagonal update".into()
                } else {
                    how
                }
            }
            Op::Scale { alpha, a } => {
                let alpha = self.alpha(alpha);
                let x = self.view(*a);
                match self.backend {
                    Backend::Blas => {
                        self.copy(code, &vo, &x);
                        let _ = writeln!(
                            code,
                            "    cblas_dscal({}, {alpha}, {}, 1);",
                            vo.rows * vo.cols,
                            self.ptr(out)
                        );
                        "BLAS cblas_dscal".into()
                    }
                    Backend::Generated | Backend::Nests => {
                        self.copy(code, &vo, &x);
                        let p = [("m", vo.rows), ("n", vo.cols)];
                        self.nest(
                            code,
                            Kernel::Scal,
                            &p,
                            &[("X", Acc::Mat(vo.clone()))],
                            &[("alpha", alpha)],
                            "",
                        )?;
                        "catalogue nest SCAL".into()
                    }
                }
            }
            Op::Potrf { a } => {
                self.copy(code, &vo, &self.view(*a));
                let n = vo.rows;
                let how = match self.backend {
                    Backend::Blas => {
                        let _ = writeln!(
                            code,
                            "    {{ int ps_n = {n}, ps_ld = {n}, ps_info = 0;\n      dpotrf_(\"L\", &ps_n, {}, &ps_ld, &ps_info, 1);\n      if (ps_info != 0) ps_fail(\"dpotrf\", ps_info); }}",
                            self.ptr(out)
                        );
                        "LAPACK dpotrf_".to_string()
                    }
                    Backend::Generated if self.lib.has(Kernel::Potrf)? => {
                        let _ = writeln!(
                            code,
                            "    {{ int64_t ps_info = polyscan_dpotrf({n}, {}, {n});\n      if (ps_info != 0) ps_fail(\"polyscan_dpotrf\", (long)ps_info); }}",
                            self.ptr(out)
                        );
                        "generated kernel polyscan_dpotrf".into()
                    }
                    Backend::Generated | Backend::Nests => {
                        self.nest(
                            code,
                            Kernel::Potrf,
                            &[("n", n)],
                            &[("A", Acc::Mat(vo.clone()))],
                            &[],
                            "",
                        )?;
                        "catalogue nest POTRF".into()
                    }
                };
                let _ = writeln!(
                    code,
                    "    ps_zero_triangle({}, {n}, {n}, 1);",
                    self.ptr(out)
                );
                how
            }
            Op::Getrf { a, l, u } => {
                let n = vo.rows;
                let w = self.fresh();
                let piv = self.fresh();
                let _ = writeln!(
                    code,
                    "    double *{w} = ps_new({n}, {n});\n    int64_t *{piv} = malloc(sizeof(int64_t) * {n});\n    if ({piv} == NULL) ps_oom();\n    for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {piv}[ps_r] = ps_r;"
                );
                let wv = V {
                    view: View::Base {
                        ptr: w.clone(),
                        ld: n,
                    },
                    rows: n,
                    cols: n,
                };
                self.copy(code, &wv, &self.view(*a));
                let how = match self.backend {
                    Backend::Blas => {
                        let _ = writeln!(
                            code,
                            "    {{ int ps_n = {n}, ps_info = 0;\n      int *ps_ip = malloc(sizeof(int) * {n});\n      if (ps_ip == NULL) ps_oom();\n      dgetrf_(&ps_n, &ps_n, {w}, &ps_n, ps_ip, &ps_info);\n      if (ps_info != 0) ps_fail(\"dgetrf\", ps_info);\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {piv}[ps_r] = ps_ip[ps_r] - 1;\n      free(ps_ip); }}"
                        );
                        "LAPACK dgetrf_".to_string()
                    }
                    Backend::Generated if self.lib.has(Kernel::Getrf)? => {
                        let _ = writeln!(
                            code,
                            "    {{ int64_t ps_info = polyscan_dgetrf({n}, {n}, {w}, {n}, {piv});\n      if (ps_info != 0) ps_fail(\"polyscan_dgetrf\", (long)ps_info);\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {piv}[ps_r] -= 1; }}"
                        );
                        "generated kernel polyscan_dgetrf".into()
                    }
                    Backend::Generated | Backend::Nests => {
                        // The pivot search and row swap of step k run before the first
                        // instance S[k, k + 1, k] of that step.
                        let prefix = format!(
                            "if ((i) == (k) + 1 && (j) == (k)) ps_pivot({w}, {n}, k, {piv}); "
                        );
                        self.nest(
                            code,
                            Kernel::Getrf,
                            &[("n", n)],
                            &[("A", Acc::Mat(wv))],
                            &[],
                            &prefix,
                        )?;
                        "catalogue nest GETRF (pivoting before each step)".into()
                    }
                };
                let _ = writeln!(
                    code,
                    "    ps_lu_split({w}, {n}, {piv}, {}, {}, {});\n    free({w});\n    free({piv});",
                    self.ptr(out),
                    self.ptr(*l),
                    self.ptr(*u)
                );
                how
            }
            Op::Bind { a } => {
                self.copy(code, &vo, &self.view(*a));
                "copy".into()
            }
        };
        let _ = writeln!(code, "  }}");
        if s.kernel != Kernel::Bind {
            self.realisation.push((s.kernel.name().to_string(), how));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// The fixed parts of the program.

const PRELUDE: &str = r#"#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef PS_TOL
#define PS_TOL 1e-8
#endif

static void ps_oom(void) { fprintf(stderr, "out of memory\n"); exit(3); }
static void ps_fail(const char *what, long info) { fprintf(stderr, "%s failed (info %ld)\n", what, info); exit(4); }

static double *ps_new(int64_t r, int64_t c)
{
  size_t n = (size_t)(r * c > 0 ? r * c : 1);
  double *p = calloc(n, sizeof(double));
  if (p == NULL) ps_oom();
  return p;
}

/* SplitMix64: deterministic from the seed. */
static uint64_t ps_state;
static uint64_t ps_next(void)
{
  uint64_t z = (ps_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* Uniform in [-1, 1). */
static double ps_sym(void) { return (double)(ps_next() >> 11) / 4503599627370496.0 - 1.0; }

static void ps_fill_identity(double *a, int64_t n)
{
  memset(a, 0, sizeof(double) * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++) a[i + i * n] = 1.0;
}

/* General, or triangular: entries in [-1, 1) with a dominant diagonal (well conditioned,
   also for rectangular full-rank matrices); unit diagonal: off-diagonal entries scaled
   by 1 / max(r, c), which keeps a unit triangle well conditioned. */
static void ps_fill_general(double *a, int64_t r, int64_t c, int lower, int upper, int unit)
{
  int64_t big = r > c ? r : c;
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++) {
      double v = ps_sym();
      if ((lower && j > i) || (upper && j < i)) v = 0.0;
      a[i + j * r] = unit ? v / (double)big : v;
    }
  if ((r > 1 && c > 1) || lower || upper)
    for (int64_t i = 0; i < (r < c ? r : c); i++)
      a[i + i * r] = unit ? 1.0 : (double)big * (1.0 + fabs(ps_sym()));
}

/* Symmetric positive definite: off-diagonal entries in [-1, 1), diagonal above n, so
   the matrix is strictly diagonally dominant (Gershgorin: eigenvalues >= 1). */
static void ps_fill_spd(double *a, int64_t n)
{
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = j + 1; i < n; i++) a[i + j * n] = a[j + i * n] = ps_sym();
    a[j + j * n] = (double)n * (1.0 + fabs(ps_sym())) + 1.0;
  }
}

static void ps_fill_diagonal(double *a, int64_t r, int64_t c, int unit)
{
  memset(a, 0, sizeof(double) * (size_t)(r * c));
  for (int64_t i = 0; i < (r < c ? r : c); i++) a[i + i * r] = unit ? 1.0 : 1.0 + fabs(ps_sym());
}

static void ps_fill_permutation(double *a, int64_t n)
{
  int64_t *p = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (p == NULL) ps_oom();
  for (int64_t i = 0; i < n; i++) p[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t k = (int64_t)(ps_next() % (uint64_t)(i + 1)), t = p[i];
    p[i] = p[k];
    p[k] = t;
  }
  memset(a, 0, sizeof(double) * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++) a[i + p[i] * n] = 1.0;
  free(p);
}

/* Orthonormal columns (r >= c): the first c columns of a product of 8 random
   Householder reflectors. */
static void ps_fill_orthonormal(double *a, int64_t r, int64_t c)
{
  double *v = ps_new(r, 1);
  memset(a, 0, sizeof(double) * (size_t)(r * c));
  for (int64_t i = 0; i < c; i++) a[i + i * r] = 1.0;
  for (int h = 0; h < 8; h++) {
    double vv = 0.0;
    for (int64_t i = 0; i < r; i++) { v[i] = ps_sym(); vv += v[i] * v[i]; }
    if (vv == 0.0) continue;
    for (int64_t j = 0; j < c; j++) {
      double d = 0.0;
      for (int64_t i = 0; i < r; i++) d += v[i] * a[i + j * r];
      d *= 2.0 / vv;
      for (int64_t i = 0; i < r; i++) a[i + j * r] -= d * v[i];
    }
  }
  free(v);
}

static void ps_fill_orthonormal_rows(double *a, int64_t r, int64_t c)
{
  double *t = ps_new(c, r);
  ps_fill_orthonormal(t, c, r);
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++) a[i + j * r] = t[j + i * c];
  free(t);
}

/* Copies the computed triangle of a square matrix onto the other one. */
static void ps_symmetrize(double *a, int64_t n, int64_t ld, int lower)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j + 1; i < n; i++) {
      if (lower) a[j + i * ld] = a[i + j * ld];
      else a[i + j * ld] = a[j + i * ld];
    }
}

/* Zeroes the strict upper (upper = 1) or lower (upper = 0) triangle. */
static void ps_zero_triangle(double *a, int64_t n, int64_t ld, int upper)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++)
      if (upper ? i < j : i > j) a[i + j * ld] = 0.0;
}

/* Partial pivoting of step k of an in-place LU: the row with the largest |a(i, k)|,
   i >= k, is swapped (whole rows) with row k. */
static __attribute__((unused)) void ps_pivot(double *a, int64_t n, int64_t k, int64_t *piv)
{
  int64_t p = k;
  for (int64_t i = k + 1; i < n; i++)
    if (fabs(a[i + k * n]) > fabs(a[p + k * n])) p = i;
  piv[k] = p;
  if (p != k)
    for (int64_t j = 0; j < n; j++) {
      double t = a[k + j * n];
      a[k + j * n] = a[p + j * n];
      a[p + j * n] = t;
    }
}

/* From an in-place LU with row interchanges piv (0-based, LAPACK's order): A = P L U. */
static void ps_lu_split(const double *w, int64_t n, const int64_t *piv, double *P, double *L, double *U)
{
  int64_t *perm = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (perm == NULL) ps_oom();
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  for (int64_t k = 0; k < n; k++) {
    int64_t t = perm[k];
    perm[k] = perm[piv[k]];
    perm[piv[k]] = t;
  }
  memset(P, 0, sizeof(double) * (size_t)(n * n));
  for (int64_t k = 0; k < n; k++) P[perm[k] + k * n] = 1.0;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) {
      L[i + j * n] = i > j ? w[i + j * n] : (i == j ? 1.0 : 0.0);
      U[i + j * n] = i <= j ? w[i + j * n] : 0.0;
    }
  free(perm);
}

/* Naive evaluation: products left to right, explicit inverses. By default plain loops
   (Gauss-Jordan inverses), which need no library; with -DPS_NAIVE_BLAS (link with
   -lopenblas) OpenBLAS's DGEMM and LAPACK's DGETRF + DGETRI, which is how the baselines
   Linnea compares against (Julia, numpy) evaluate a formula, and fast enough for the
   declared sizes. The prototypes repeat the blas backend's where both are present, which
   C allows. */
#ifdef PS_NAIVE_BLAS
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dgetri_(const int *, double *, const int *, const int *, double *, const int *, int *);
void openblas_set_num_threads(int);
#define PS_NAIVE_HOW "OpenBLAS products and LAPACK inverses (dgemm, dgetrf + dgetri)"
#else
#define PS_NAIVE_HOW "loops (products left to right, Gauss-Jordan inverses)"
#endif
typedef struct { int64_t r, c; double *d; } ps_mat;

static ps_mat nv_new(int64_t r, int64_t c) { ps_mat m = { r, c, ps_new(r, c) }; return m; }
static void nv_free(ps_mat m) { free(m.d); }
static ps_mat nv_copy(ps_mat a)
{
  ps_mat m = nv_new(a.r, a.c);
  memcpy(m.d, a.d, sizeof(double) * (size_t)(a.r * a.c));
  return m;
}
static ps_mat nv_scaled(ps_mat a, double s)
{
  ps_mat m = nv_new(a.r, a.c);
  for (int64_t i = 0; i < a.r * a.c; i++) m.d[i] = s * a.d[i];
  return m;
}
static ps_mat nv_mul(ps_mat a, ps_mat b)
{
  if (a.r == 1 && a.c == 1 && !(b.r == 1 && b.c == 1)) return nv_scaled(b, a.d[0]);
  if (b.r == 1 && b.c == 1 && !(a.r == 1 && a.c == 1)) return nv_scaled(a, b.d[0]);
  if (a.c != b.r) { fprintf(stderr, "naive: shape mismatch\n"); exit(4); }
  ps_mat m = nv_new(a.r, b.c);
#ifdef PS_NAIVE_BLAS
  /* 102: column-major, 111: no transpose (the values of CBLAS's enums). */
  if (a.r > 0 && b.c > 0 && a.c > 0)
    cblas_dgemm(102, 111, 111, (int)a.r, (int)b.c, (int)a.c, 1.0, a.d, (int)a.r, b.d, (int)b.r, 0.0, m.d, (int)a.r);
#else
  for (int64_t j = 0; j < b.c; j++)
    for (int64_t l = 0; l < a.c; l++) {
      double s = b.d[l + j * b.r];
      for (int64_t i = 0; i < a.r; i++) m.d[i + j * a.r] += a.d[i + l * a.r] * s;
    }
#endif
  return m;
}
static ps_mat nv_add(ps_mat a, ps_mat b, double s)
{
  ps_mat m = nv_new(a.r, a.c);
  for (int64_t i = 0; i < a.r * a.c; i++) m.d[i] = a.d[i] + s * b.d[i];
  return m;
}
static ps_mat nv_trans(ps_mat a)
{
  ps_mat m = nv_new(a.c, a.r);
  for (int64_t j = 0; j < a.c; j++)
    for (int64_t i = 0; i < a.r; i++) m.d[j + i * a.c] = a.d[i + j * a.r];
  return m;
}
#ifdef PS_NAIVE_BLAS
/* The explicit inverse as numpy and Julia form it: LU with partial pivoting, then the
   inverse from the factors. */
static ps_mat nv_inv(ps_mat in)
{
  ps_mat x = nv_copy(in);
  int n = (int)in.r, ld = n > 0 ? n : 1, info = 0, lwork = -1;
  int *ipiv = malloc(sizeof(int) * (size_t)ld);
  if (ipiv == NULL) ps_oom();
  dgetrf_(&n, &n, x.d, &ld, ipiv, &info);
  if (info > 0) { fprintf(stderr, "naive: singular matrix\n"); exit(4); }
  if (info != 0) ps_fail("naive: dgetrf", info);
  double query = 0.0;
  dgetri_(&n, x.d, &ld, ipiv, &query, &lwork, &info);
  /* A failed or implausible query falls back to a blocked workspace of 64 columns. */
  lwork = info == 0 && query >= (double)ld && query < 1e9 ? (int)query : ld * 64;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  if (work == NULL) ps_oom();
  dgetri_(&n, x.d, &ld, ipiv, work, &lwork, &info);
  if (info != 0) ps_fail("naive: dgetri", info);
  free(work);
  free(ipiv);
  return x;
}
#else
static ps_mat nv_inv(ps_mat in)
{
  int64_t n = in.r;
  ps_mat a = nv_copy(in), x = nv_new(n, n);
  double *f = ps_new(n, 1);
  for (int64_t i = 0; i < n; i++) x.d[i + i * n] = 1.0;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; i++)
      if (fabs(a.d[i + k * n]) > fabs(a.d[p + k * n])) p = i;
    if (a.d[p + k * n] == 0.0) { fprintf(stderr, "naive: singular matrix\n"); exit(4); }
    if (p != k)
      for (int64_t j = 0; j < n; j++) {
        double t = a.d[k + j * n]; a.d[k + j * n] = a.d[p + j * n]; a.d[p + j * n] = t;
        t = x.d[k + j * n]; x.d[k + j * n] = x.d[p + j * n]; x.d[p + j * n] = t;
      }
    double d = a.d[k + k * n];
    for (int64_t i = 0; i < n; i++) f[i] = a.d[i + k * n];
    for (int64_t j = 0; j < n; j++) {
      double ra = a.d[k + j * n] / d, rx = x.d[k + j * n] / d;
      a.d[k + j * n] = ra;
      x.d[k + j * n] = rx;
      for (int64_t i = 0; i < n; i++)
        if (i != k) {
          a.d[i + j * n] -= f[i] * ra;
          x.d[i + j * n] -= f[i] * rx;
        }
    }
  }
  free(f);
  nv_free(a);
  return x;
}
#endif

static double ps_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double ps_residual(const double *x, const double *ref, int64_t n)
{
  double d = 0.0, r = 0.0;
  for (int64_t i = 0; i < n; i++) {
    d += (x[i] - ref[i]) * (x[i] - ref[i]);
    r += ref[i] * ref[i];
  }
  if (r == 0.0) return sqrt(d);
  return sqrt(d / r);
}
"#;

const BLAS_DECLS: &str = r#"
/* CBLAS (OpenBLAS, 32-bit integers) and Fortran LAPACK, declared here so that no header
   is needed; link with -lopenblas. */
enum { CblasColMajor = 102 };
enum { CblasNoTrans = 111, CblasTrans = 112 };
enum { CblasUpper = 121, CblasLower = 122 };
enum { CblasNonUnit = 131, CblasUnit = 132 };
enum { CblasLeft = 141, CblasRight = 142 };
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dsymm(int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dsyrk(int, int, int, int, int, double, const double *, int, double, double *, int);
void cblas_dtrmm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
void cblas_dtrsm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
void cblas_dgemv(int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dsymv(int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_dtrmv(int, int, int, int, int, const double *, int, double *, int);
void cblas_dtrsv(int, int, int, int, int, const double *, int, double *, int);
void cblas_dger(int, int, int, double, const double *, int, const double *, int, double *, int);
double cblas_ddot(int, const double *, int, const double *, int);
void cblas_daxpy(int, double, const double *, int, double *, int);
void cblas_dscal(int, double, double *, int);
void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dtrtri_(const char *, const char *, const int *, double *, const int *, int *, size_t, size_t);
void dlauum_(const char *, const int *, double *, const int *, int *, size_t);
void openblas_set_num_threads(int);
"#;

/// The fill call for an input operand.
fn fill(ptr: &str, kind: Kind, value: f64, p: Props, r: u64, c: u64) -> String {
    let flag = |b: bool| i32::from(b);
    match kind {
        Kind::Constant => format!("{ptr}[0] = {};", num(value)),
        Kind::Identity => format!("ps_fill_identity({ptr}, {r});"),
        Kind::Zero => "/* zero */".into(),
        Kind::Scalar => format!("{ptr}[0] = 2.0 + fabs(ps_sym());"),
        _ if p.has(Prop::Permutation) => format!("ps_fill_permutation({ptr}, {r});"),
        _ if p.has(Prop::Orthogonal) || p.has(Prop::OrthogonalColumns) => {
            format!("ps_fill_orthonormal({ptr}, {r}, {c});")
        }
        _ if p.has(Prop::OrthogonalRows) => format!("ps_fill_orthonormal_rows({ptr}, {r}, {c});"),
        _ if p.has(Prop::Diagonal) => format!(
            "ps_fill_diagonal({ptr}, {r}, {c}, {});",
            flag(p.has(Prop::UnitDiagonal))
        ),
        // SPSD operands get an SPD sample (a valid SPSD one, and invertible where the
        // formula inverts it); symmetric ones too.
        _ if p.has(Prop::Spsd) || p.has(Prop::Symmetric) => format!("ps_fill_spd({ptr}, {r});"),
        _ => format!(
            "ps_fill_general({ptr}, {r}, {c}, {}, {}, {});",
            flag(p.has(Prop::LowerTriangular)),
            flag(p.has(Prop::UpperTriangular)),
            flag(p.has(Prop::UnitDiagonal))
        ),
    }
}

/// Naive evaluation of an expression: the C value name and whether it is a temporary.
fn naive(e: &Expr, code: &mut String, tmp: &mut usize) -> (String, bool) {
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
    }
}

/// The complete program for `sol` (solved for `p` at its declared sizes).
pub fn emit(p: &Program, sol: &Solution, opts: &ProgramOptions) -> Result<EmittedProgram, LaError> {
    if !(opts.tolerance.is_finite() && opts.tolerance > 0.0) {
        return Err(LaError::Unsupported(
            "the tolerance must be positive".into(),
        ));
    }
    let q = resize(p, &opts.sizes, opts.scale)?;
    let env = &sol.lowered.env;
    let steps = &sol.lowered.steps;
    let shapes = run_shapes(env, steps, &q)?;
    let mut em = Emitter {
        env,
        shapes,
        backend: opts.backend,
        lib: Library::new(),
        nests: HashMap::new(),
        scratch: 0,
        realisation: Vec::new(),
    };
    let mut seq = String::new();
    for s in steps {
        em.step(&mut seq, s)?;
    }
    let kernel_names: Vec<&str> = steps
        .iter()
        .filter(|s| s.kernel != Kernel::Bind)
        .map(|s| s.kernel.name())
        .collect();
    let nent = env.entities.len();
    let outputs = q.outputs();
    let mut src = String::new();
    let sizes: Vec<String> = q.sizes.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let _ = writeln!(
        src,
        "/* {}: generated by `polyscan la --emit c` (backend {}, seed {}).\n   Sizes: {}.\n   Build: cc -O2 -march=native prog.c -lm{}; run: ./a.out (exit status 1 when a\n   residual exceeds PS_TOL). -DPS_REPS=n runs the kernel sequence n times (best time);\n   -DPS_NAIVE_BLAS (with -lopenblas) evaluates the formula with OpenBLAS and LAPACK\n   instead of loops; -DPS_NO_NAIVE skips that evaluation. */",
        opts.title.replace("*/", "* /"),
        opts.backend.name(),
        opts.seed,
        sizes.join(", "),
        if opts.backend == Backend::Blas { " -lopenblas" } else { "" }
    );
    src.push_str(&PRELUDE.replacen(
        "#define PS_TOL 1e-8",
        &format!("#define PS_TOL {:e}", opts.tolerance),
        1,
    ));
    let _ = writeln!(
        src,
        "#ifndef PS_REPS\n#define PS_REPS {}\n#endif",
        opts.repeat.max(1)
    );
    if opts.backend == Backend::Blas {
        src.push_str(BLAS_DECLS);
    }
    src.push('\n');
    src.push_str(codegen::emit_c::HELPERS);
    if !em.lib.chunks.is_empty() {
        src.push('\n');
        src.push_str(&crate::kernel::runtime::common());
        if em.lib.solver {
            src.push_str(&crate::kernel::runtime::solver());
        }
        for c in &em.lib.chunks {
            src.push('\n');
            src.push_str(c);
        }
    }
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
    let mut tmp = 0;
    for a in &q.assignments {
        let (v, is_tmp) = naive(&a.rhs, &mut src, &mut tmp);
        if is_tmp {
            let _ = writeln!(src, "  nv[{}] = {v};", a.lhs);
        } else {
            let _ = writeln!(src, "  nv[{}] = nv_copy({v});", a.lhs);
        }
    }
    let _ = writeln!(src, "}}\n");
    // main
    let _ = writeln!(src, "int main(void)\n{{");
    if opts.backend == Backend::Blas {
        let _ = writeln!(src, "  openblas_set_num_threads(1);");
    } else {
        // One thread like the kernel sequence, set before OpenBLAS starts any.
        let _ = writeln!(
            src,
            "#ifdef PS_NAIVE_BLAS\n  openblas_set_num_threads(1);\n#endif"
        );
    }
    let _ = writeln!(src, "  ps_state = {}ull;", opts.seed);
    for (i, e) in env.entities.iter().enumerate() {
        let (r, c) = em.shapes[i];
        let _ = writeln!(src, "  ps_v[{i}] = ps_new({r}, {c}); /* {} */", e.name);
        let is_input = i < q.operands.len() && !outputs.contains(&i);
        if is_input || e.kind == Kind::Constant {
            let (kind, value, props) = if i < q.operands.len() {
                let o = &q.operands[i];
                (o.kind, o.value, o.props)
            } else {
                (e.kind, e.value, e.props)
            };
            let _ = writeln!(
                src,
                "  {}",
                fill(&format!("ps_v[{i}]"), kind, value, props, r, c)
            );
        }
    }
    let _ = writeln!(
        src,
        "  double best = 1e300;\n  for (int rep = 0; rep < PS_REPS; rep++) {{\n    double t0 = ps_now();\n    ps_sequence();\n    double t1 = ps_now() - t0;\n    if (t1 < best) best = t1;\n  }}"
    );
    let _ = writeln!(
        src,
        "  printf(\"problem: %s\\n\", {});\n  printf(\"backend: %s\\n\", \"{}\");\n  printf(\"sizes: %s\\n\", \"{}\");\n  printf(\"kernels: %s\\n\", \"{}\");\n  printf(\"time kernel sequence: %.6f s (best of %d)\\n\", best, PS_REPS);\n  fflush(stdout);",
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
        let (r, c) = em.shapes[o];
        let _ = writeln!(
            src,
            "  r = ps_residual(ps_v[{o}], nv[{o}].d, {});\n  printf(\"residual %s: %.3e\\n\", \"{}\", r);\n  if (!(r <= PS_TOL)) bad = 1;",
            r * c,
            env.entities[o].name
        );
    }
    let _ = writeln!(
        src,
        "  printf(\"tolerance: %.1e (relative Frobenius norm)\\n\", PS_TOL);\n  printf(\"result: %s\\n\", bad ? \"RESIDUAL TOO LARGE\" : \"ok\");\n  return bad;\n#endif\n}}"
    );
    Ok(EmittedProgram {
        source: src,
        sizes: q.sizes.clone(),
        realisation: em.realisation,
    })
}

fn c_string(s: &str) -> String {
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

fn internal() -> LaError {
    LaError::Unsupported("internal error in the program emitter".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_keeps_sizes_distinct_and_ordered() {
        let src = "n = 2000\nm = 1999\nk = 3\nMatrix A(n, m) <FullRank>\nMatrix B(m, k) <>\nMatrix X(n, k) <>\nX = A * B\n";
        let p = crate::la::parse::parse(src).unwrap_or_else(|e| panic!("{e}"));
        let q = resize(&p, &[], Some(0.02)).unwrap_or_else(|e| panic!("{e}"));
        let size = |n: &str| q.sizes.iter().find(|(m, _)| m == n).map(|(_, v)| *v);
        assert_eq!(size("n"), Some(40));
        assert_eq!(size("m"), Some(39));
        assert_eq!(size("k"), Some(2));
        let q = resize(&p, &[("k".into(), 5)], Some(0.02)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(q.operands[1].cols, 5);
        assert!(resize(&p, &[("zz".into(), 5)], None).is_err());
        // A (n x m) must not become square.
        assert!(resize(&p, &[("m".into(), 2000)], None).is_err());
    }

    #[test]
    fn bodies_become_accessor_macros() {
        let b = rewrite_body(
            "X[i][j] = B[p[i]][j] + s * 1.0e5",
            &[("s", "ps_v[3][0]".to_string())],
        );
        assert_eq!(b, "PS_X(i, j) = PS_B(PS_p(i), j) + (ps_v[3][0]) * 1.0e5");
    }

    #[test]
    fn views_compose_transposes_and_reversals() {
        let v = V {
            view: View::Base {
                ptr: "a".into(),
                ld: 5,
            },
            rows: 5,
            cols: 3,
        };
        assert_eq!(v.t().at("r", "c"), "a[(c) + (r) * 5]");
        assert!(v.t().t().plain().is_some_and(|(_, _, t)| !t));
        assert_eq!(v.rev(true, false).at("r", "c"), "a[(4 - (r)) + (c) * 5]");
    }
}
