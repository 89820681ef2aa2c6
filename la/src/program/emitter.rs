//! The emitter's state (shapes at the run sizes, back end, included kernels, scratch
//! names) and what every back end uses: views of entities, scratch copies, zeroing and
//! symmetrising results.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::catalogue::Nest;
use super::dim::Dim;
use super::library::Library;
use super::options::Backend;
use super::view::{View, V};
use crate::error::LaError;
use crate::infer::transpose_props;
use crate::kernels::Kernel;
use crate::lower::{Alpha, Arg};
use crate::norm::Env;
use crate::properties::{Prop, Props};

pub(super) struct Emitter<'a> {
    pub(super) env: &'a Env,
    pub(super) shapes: Vec<(Dim, Dim)>,
    pub(super) backend: Backend,
    pub(super) lib: Library,
    pub(super) nests: HashMap<Kernel, Nest>,
    pub(super) scratch: usize,
    pub(super) realisation: Vec<(String, String)>,
    /// Where step scratch lives: `None` allocates and frees it in the step (programs);
    /// `Some` carves it from the caller's workspace `ps_work` (the C API), reused by
    /// every step since a step's scratch dies with it.
    pub(super) work: Option<Arena>,
    /// File-scope C the sequence needs besides the kernels: the element-wise statements'
    /// plans (`sumproduct::functions`).
    pub(super) plans: String,
}

/// Step scratch in the C API's workspace `ps_work` (which the C API places after the
/// temporaries): `cur` is the current step's use and `peak` the largest over the steps.
#[derive(Debug, Clone)]
pub(super) struct Arena {
    pub(super) cur: Dim,
    pub(super) peak: Dim,
}

impl Default for Arena {
    fn default() -> Self {
        Arena {
            cur: Dim::lit(0),
            peak: Dim::lit(0),
        }
    }
}

pub(super) fn num(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

impl<'a> Emitter<'a> {
    /// An emitter for entities of `env` at the run `shapes`, nothing emitted yet.
    pub(super) fn new(env: &'a Env, shapes: Vec<(Dim, Dim)>, backend: Backend) -> Emitter<'a> {
        Emitter {
            env,
            shapes,
            backend,
            lib: Library::new(),
            nests: HashMap::new(),
            scratch: 0,
            realisation: Vec::new(),
            work: None,
            plans: String::new(),
        }
    }

    /// A new step begins: the previous step's workspace scratch is free again.
    pub(super) fn begin_step(&mut self) {
        if let Some(a) = &mut self.work {
            a.cur = Dim::lit(0);
        }
    }

    /// A zeroed `rows` x `cols` scratch matrix (zeroed like `ps_new`'s `calloc`, which
    /// the kernels may rely on): from the workspace, or allocated and freed at the end of
    /// the step.
    pub(super) fn scratch_matrix(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        rows: &Dim,
        cols: &Dim,
    ) -> String {
        let s = self.fresh();
        let len = (rows * cols).max1();
        match self.carve(&len) {
            Some(off) => {
                let _ = writeln!(
                    code,
                    "    double *{s} = ps_work + {off};\n    memset({s}, 0, sizeof(double) * {len});"
                );
            }
            None => {
                let _ = writeln!(code, "    double *{s} = ps_new({rows}, {cols});");
                frees.push(s.clone());
            }
        }
        s
    }

    /// `len` doubles of the current step's workspace scratch: their offset in `ps_work`,
    /// or `None` when scratch is allocated per step (programs).
    fn carve(&mut self, len: &Dim) -> Option<Dim> {
        let a = self.work.as_mut()?;
        let off = a.cur.clone();
        a.cur = &a.cur + len;
        a.peak = a.peak.max(&a.cur);
        Some(off)
    }

    /// An array of `n` C integers of type `ty` (`int64_t` or `int`, pivots and
    /// permutations) for the current step: carved from the workspace (one double per
    /// element, which holds either type at its alignment), or allocated and freed at the
    /// end of the step.
    pub(super) fn scratch_ints(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        n: &Dim,
        ty: &str,
    ) -> String {
        let s = self.fresh();
        match self.carve(&n.max1()) {
            Some(off) => {
                let _ = writeln!(code, "    {ty} *{s} = ({ty} *)(ps_work + {off});");
            }
            None => {
                let _ = writeln!(
                    code,
                    "    {ty} *{s} = malloc(sizeof({ty}) * (size_t){});\n    if ({s} == NULL) ps_oom();",
                    n.max1()
                );
                frees.push(s.clone());
            }
        }
        s
    }

    pub(super) fn ptr(&self, id: usize) -> String {
        format!("ps_v[{id}]")
    }

    pub(super) fn base(&self, id: usize) -> V {
        let (r, c) = self.shapes[id].clone();
        V {
            view: View::Base {
                ptr: self.ptr(id),
                ld: r.clone(),
            },
            rows: r,
            cols: c,
        }
    }

    pub(super) fn view(&self, a: Arg) -> V {
        let v = self.base(a.id);
        if a.trans {
            v.t()
        } else {
            v
        }
    }

    pub(super) fn props(&self, a: Arg) -> Props {
        let p = self.env.props(a.id);
        if a.trans {
            transpose_props(p)
        } else {
            p
        }
    }

    pub(super) fn is_scalar(&self, a: Arg) -> bool {
        let (r, c) = &self.shapes[a.id];
        *r == 1 && *c == 1
    }

    pub(super) fn lower(&self, a: Arg) -> bool {
        self.props(a).has(Prop::LowerTriangular)
    }

    pub(super) fn alpha(&self, al: &Alpha) -> String {
        let mut s = num(al.coef);
        for &id in &al.scalars {
            let _ = write!(s, " * {}[0]", self.ptr(id));
        }
        s
    }

    pub(super) fn fresh(&mut self) -> String {
        self.scratch += 1;
        format!("ps_s{}", self.scratch)
    }

    /// Copies view `src` into view `dst` (same shape), on one thread (see [`Self::assign`]).
    pub(super) fn copy(&self, code: &mut String, dst: &V, src: &V) {
        self.assign(code, dst, &[src], &src.at("ps_r", "ps_c"), false);
    }

    /// `dst(ps_r, ps_c) = value` over `dst`'s shape, where `value` reads the views `srcs`
    /// at `(ps_r, ps_c)`. Column by column when every view is plain and untransposed;
    /// otherwise by 32 x 32 blocks: a transposed or reversed view read element by element
    /// walks its columns across the whole matrix, one cache line per element, where a block
    /// keeps both sides' lines in L1 (16 KB). `parallel`: the outer loop in OpenMP (a
    /// memory-bound pass that one core of the 2-core EPYC host does not saturate).
    pub(super) fn assign(
        &self,
        code: &mut String,
        dst: &V,
        srcs: &[&V],
        value: &str,
        parallel: bool,
    ) {
        let (rows, cols) = (&dst.rows, &dst.cols);
        let d = dst.at("ps_r", "ps_c");
        if parallel {
            // Below 2^15 elements a fork costs more than the pass; -DPS_OMP_PASS_MIN=1 forks
            // every pass (the tests').
            let _ = writeln!(
                code,
                "#ifndef PS_OMP_PASS_MIN\n#define PS_OMP_PASS_MIN 32768\n#endif\n    #pragma omp parallel for if ({} >= PS_OMP_PASS_MIN)",
                rows * cols
            );
        }
        let straight = |v: &V| matches!(v.plain(), Some((_, _, false)));
        if straight(dst) && srcs.iter().all(|v| straight(v)) {
            let _ = writeln!(
                code,
                "    for (int64_t ps_c = 0; ps_c < {cols}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {rows}; ps_r++)\n        {d} = {value};"
            );
            return;
        }
        let _ = writeln!(
            code,
            "    for (int64_t ps_cb = 0; ps_cb < {cols}; ps_cb += 32)\n      for (int64_t ps_rb = 0; ps_rb < {rows}; ps_rb += 32)\n        for (int64_t ps_c = ps_cb; ps_c < ps_cb + 32 && ps_c < {cols}; ps_c++)\n          for (int64_t ps_r = ps_rb; ps_r < ps_rb + 32 && ps_r < {rows}; ps_r++)\n            {d} = {value};"
        );
    }

    /// Plain storage for `v`: its own if it is plain (transposed only if `trans_ok`), else
    /// a scratch copy, freed at the end of the step.
    pub(super) fn operand(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        v: &V,
        trans_ok: bool,
    ) -> (String, Dim, bool) {
        if let Some((p, ld, t)) = v.plain() {
            if !t || trans_ok {
                return (p, ld, t);
            }
        }
        let s = self.scratch_matrix(code, frees, &v.rows, &v.cols);
        let dst = V {
            view: View::Base {
                ptr: s.clone(),
                ld: v.rows.clone(),
            },
            rows: v.rows.clone(),
            cols: v.cols.clone(),
        };
        self.copy(code, &dst, v);
        (s, v.rows.clone(), false)
    }

    /// Plain storage the result is written to; `init` is copied in first (in-place
    /// kernels). The returned scatter code copies a scratch result back through `v`.
    pub(super) fn target(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        v: &V,
        init: Option<&V>,
    ) -> (String, Dim, String) {
        if let Some((p, ld, false)) = v.plain() {
            if let Some(src) = init {
                self.copy(code, v, src);
            }
            return (p, ld, String::new());
        }
        let s = self.scratch_matrix(code, frees, &v.rows, &v.cols);
        let dst = V {
            view: View::Base {
                ptr: s.clone(),
                ld: v.rows.clone(),
            },
            rows: v.rows.clone(),
            cols: v.cols.clone(),
        };
        if let Some(src) = init {
            self.copy(code, &dst, src);
        }
        let mut scatter = String::new();
        self.copy(&mut scatter, v, &dst);
        (s, v.rows.clone(), scatter)
    }

    pub(super) fn zero(&self, code: &mut String, id: usize) {
        let (r, c) = &self.shapes[id];
        let _ = writeln!(
            code,
            "    memset({}, 0, sizeof(double) * {});",
            self.ptr(id),
            r * c
        );
    }

    /// An upper triangle `t` and a square result `x` tied to it (its inverse, its Gram
    /// product) as the lower triangle they become with rows and columns reversed.
    pub(super) fn reversed_unless_lower(lower: bool, t: V, x: V) -> (V, V) {
        if lower {
            (t, x)
        } else {
            (t.rev(true, true), x.rev(true, true))
        }
    }

    /// Triangular forms in lower-triangular shape: an upper triangle reversed in both
    /// indices is lower, and the other operands' rows are reversed with it.
    pub(super) fn lowered(t: V, lower: bool, others: Vec<V>) -> (V, Vec<V>) {
        if lower {
            (t, others)
        } else {
            (
                t.rev(true, true),
                others.into_iter().map(|o| o.rev(true, false)).collect(),
            )
        }
    }

    pub(super) fn zero_view(&self, code: &mut String, v: &V) {
        let _ = writeln!(
            code,
            "    for (int64_t ps_c = 0; ps_c < {}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {}; ps_r++)\n        {} = 0.0;",
            v.cols,
            v.rows,
            v.at("ps_r", "ps_c")
        );
    }

    /// `ps_symmetrize` of a square result whose `lower` (else upper) triangle is computed.
    pub(super) fn symmetrize(code: &mut String, c: &V, lower: bool) -> Result<(), LaError> {
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
}

pub(super) fn internal() -> LaError {
    LaError::Unsupported("internal error in the program emitter".into())
}
