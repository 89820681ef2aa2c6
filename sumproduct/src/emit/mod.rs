//! C for a relational plan: each class that must exist as a value (the result, a union, an
//! aggregate that is a factor of a join or union, anything used twice) becomes a dense array
//! over its attributes, computed by one loop nest over all attributes of its sum-product term
//! `sum_{bound} prod factors` (a catalogue kernel's nest where the term's shape is one, see
//! `kernel` and [`crate::term`]). A sparse operand is read in CSR form and drives the outer
//! loops, so a term with a sparse factor costs its nonzeros, not its dense size; joins are
//! never materialised (the outer product `U V^T` of the loss example never exists).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use egg::{Id, Language, RecExpr, Symbol};

use crate::error::SumProductError;
use crate::expr::{Func, ONES};
use crate::relation::Rel;
use crate::term::{Loops, Scan, TermCall};

mod kernel;

/// How an operand is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Column-major with leading dimension equal to its rows.
    Dense {
        /// Rows (the leading dimension).
        rows: u64,
    },
    /// Compressed sparse rows: `NAME_rowptr`, `NAME_colind`, `NAME_val`.
    Csr,
}

/// One factor of a sum-product term.
#[derive(Debug, Clone)]
enum Factor {
    /// A C expression with no attribute (constant, size, scalar operand).
    Scalar(String),
    /// A dense array (operand or temporary) indexed by attributes, first fastest.
    Array(String, Vec<Symbol>),
    /// A CSR operand indexed by (row, column).
    Csr(String, Symbol, Symbol),
    /// A function of a factor's entries.
    Apply(Func, Box<Factor>),
    /// The all-ones relation over some attributes (a broadcast summand).
    Ones(Vec<Symbol>),
}

impl Factor {
    /// The attributes the factor is indexed by.
    fn attrs(&self) -> Vec<Symbol> {
        match self {
            Factor::Scalar(_) => vec![],
            Factor::Array(_, a) => a.clone(),
            Factor::Csr(_, i, j) => vec![*i, *j],
            Factor::Apply(_, f) => f.attrs(),
            Factor::Ones(a) => a.clone(),
        }
    }

    /// The CSR operand whose nonzeros can drive a term with this factor: the factor
    /// itself, or functions of it that all map 0 to 0 ([`Func::keeps_zero`]: `sqrt`,
    /// `abs`), which are zero wherever the operand is, so the term's product is too (as
    /// for the operand itself, the other factors' entries are taken as finite).
    fn csr_root(&self) -> Option<&Factor> {
        match self {
            Factor::Csr(..) => Some(self),
            Factor::Apply(f, g) if f.keeps_zero() => g.csr_root(),
            _ => None,
        }
    }
}

struct Emitter<'a> {
    /// Scans the term kernels' domains.
    scan: &'a mut dyn Scan,
    /// The terms emitted as catalogue kernels, in order.
    calls: Vec<TermCall>,
    plan: &'a RecExpr<Rel>,
    dims: &'a BTreeMap<Symbol, u64>,
    storage: &'a BTreeMap<String, Storage>,
    /// Materialised nodes: their C array and attribute order.
    temps: BTreeMap<Id, (String, Vec<Symbol>)>,
    body: String,
    /// Doubles of `ps_work` the temporaries take so far, when they come from a workspace.
    work: Option<u64>,
    /// Whether dense matrix products go to the caller's `ps_plan_gemm`.
    gemm: bool,
}

fn unsupported(what: &str) -> SumProductError {
    SumProductError::Unsupported(what.to_string())
}

/// A C function `int NAME(operands..., double *out)` computing `plan` into `out`, a dense
/// column-major array with rows `rows` and columns `cols` (attributes of the result; `None`
/// for a dimension of 1); it returns 1 if a temporary cannot be allocated, else 0. Operands
/// appear in name order, prefixed `op_` so that no name of the problem can clash with C: a
/// dense one as `const double *op_X`, a CSR one as `const int64_t *op_X_rowptr, const
/// int64_t *op_X_colind, const double *op_X_val`.
pub fn c_function(
    name: &str,
    plan: &RecExpr<Rel>,
    dims: &BTreeMap<Symbol, u64>,
    storage: &BTreeMap<String, Storage>,
    rows: Option<Symbol>,
    cols: Option<Symbol>,
) -> Result<String, SumProductError> {
    Ok(function(name, plan, dims, storage, (rows, cols), None, &mut Loops)?.text)
}

/// [`c_function`] with the term kernels' domains scanned by `scan` (`polyscan la` passes
/// the catalogue's, scanned by codegen), and the terms it emitted as kernels.
pub fn c_function_scanned(
    name: &str,
    plan: &RecExpr<Rel>,
    dims: &BTreeMap<Symbol, u64>,
    storage: &BTreeMap<String, Storage>,
    (rows, cols): (Option<Symbol>, Option<Symbol>),
    scan: &mut dyn Scan,
) -> Result<(String, Vec<TermCall>), SumProductError> {
    let f = function(name, plan, dims, storage, (rows, cols), None, scan)?;
    Ok((f.text, f.kernels))
}

/// A C function for a plan whose temporaries live in a caller's workspace.
#[derive(Debug, Clone)]
pub struct WorkFunction {
    /// The function's C text.
    pub text: String,
    /// Doubles of workspace its temporaries take.
    pub work: u64,
    /// Whether it calls `ps_plan_gemm`.
    pub gemm: bool,
    /// Its terms emitted as catalogue kernels (element-wise maps, reductions, CSR), in
    /// order; the other terms are dense products (`ps_plan_gemm`) or plain nests.
    pub kernels: Vec<TermCall>,
}

/// [`c_function`] allocating nothing: its temporaries are carved from a last parameter
/// `double *ps_work` of [`WorkFunction::work`] doubles (at least one), which need not be
/// zeroed; it always returns 0. The C API uses it.
///
/// With `gemm`, every term that is a dense matrix product, `C(i,j) += alpha sum_l A(i,l)
/// B(l,j)` with A and B dense arrays (operands or temporaries, either stored transposed),
/// is a call `ps_plan_gemm(m, n, k, alpha, A, lda, B, ldb, C, ldc)` (column-major, `C +=
/// alpha A B`, A m x k, B k x n), which the caller defines (a blocked GEMM, or
/// `cblas_dgemm` with beta 1); an operand stored transposed is first copied, transposed,
/// into the workspace.
pub fn c_function_in_workspace(
    name: &str,
    plan: &RecExpr<Rel>,
    dims: &BTreeMap<Symbol, u64>,
    storage: &BTreeMap<String, Storage>,
    (rows, cols): (Option<Symbol>, Option<Symbol>),
    gemm: bool,
) -> Result<WorkFunction, SumProductError> {
    c_function_in_workspace_scanned(name, plan, dims, storage, (rows, cols), gemm, &mut Loops)
}

/// [`c_function_in_workspace`] with the term kernels' domains scanned by `scan`.
pub fn c_function_in_workspace_scanned(
    name: &str,
    plan: &RecExpr<Rel>,
    dims: &BTreeMap<Symbol, u64>,
    storage: &BTreeMap<String, Storage>,
    (rows, cols): (Option<Symbol>, Option<Symbol>),
    gemm: bool,
    scan: &mut dyn Scan,
) -> Result<WorkFunction, SumProductError> {
    let mut f = function(name, plan, dims, storage, (rows, cols), Some(gemm), scan)?;
    f.gemm = f.text.contains("ps_plan_gemm(");
    Ok(f)
}

fn function(
    name: &str,
    plan: &RecExpr<Rel>,
    dims: &BTreeMap<Symbol, u64>,
    storage: &BTreeMap<String, Storage>,
    (rows, cols): (Option<Symbol>, Option<Symbol>),
    workspace_gemm: Option<bool>,
    scan: &mut dyn Scan,
) -> Result<WorkFunction, SumProductError> {
    let in_workspace = workspace_gemm.is_some();
    let nodes = plan.as_ref();
    if nodes.is_empty() {
        return Err(unsupported("an empty plan"));
    }
    let root = Id::from(nodes.len() - 1);
    let mut uses: BTreeMap<Id, usize> = BTreeMap::new();
    for n in nodes {
        for c in n.children() {
            *uses.entry(*c).or_default() += 1;
        }
    }
    let mut materialise: BTreeSet<Id> = BTreeSet::new();
    materialise.insert(root);
    for (k, n) in nodes.iter().enumerate() {
        let id = Id::from(k);
        let compound = |c: &Id| {
            matches!(
                plan[*c],
                Rel::Join(_) | Rel::Union(_) | Rel::Agg(_) | Rel::Apply(_)
            )
        };
        if uses.get(&id).copied().unwrap_or(0) > 1 && compound(&id) {
            materialise.insert(id);
        }
        match n {
            Rel::Union(cs) => {
                materialise.insert(id);
                materialise.extend(cs.iter().filter(|c| compound(c)));
            }
            // A function of a compound term needs it as a value; functions of functions
            // of an operand (`sqrt(abs(X))`) are one factor of the term, so a CSR
            // operand under them still drives it, with no dense temporary between.
            Rel::Apply([_, x]) if compound(x) && !operand_chain(plan, *x) => {
                materialise.insert(*x);
            }
            Rel::Join(cs) => materialise.extend(
                cs.iter()
                    .filter(|c| matches!(plan[**c], Rel::Agg(_) | Rel::Union(_))),
            ),
            _ => {}
        }
    }
    let mut e = Emitter {
        scan,
        calls: Vec::new(),
        plan,
        dims,
        storage,
        temps: BTreeMap::new(),
        body: String::new(),
        work: in_workspace.then_some(0),
        gemm: workspace_gemm == Some(true),
    };
    let out_attrs: Vec<Symbol> = rows.into_iter().chain(cols).collect();
    for id in materialise.iter().copied() {
        let (array, attrs) = if id == root {
            ("out".to_string(), out_attrs.clone())
        } else {
            let attrs = e.schema(id)?.into_iter().collect::<Vec<_>>();
            let array = format!("ps_t{}", usize::from(id));
            let size = e.size(&attrs).max(1);
            match &mut e.work {
                // Every temporary is zeroed by its own nest before it is summed into.
                Some(off) => {
                    writeln!(e.body, "  double *{array} = ps_work + {off};")
                        .map_err(|_| unsupported("formatting"))?;
                    *off += size;
                }
                None => writeln!(
                    e.body,
                    "  double *{array} = calloc({size}, sizeof(double));\n  if (!{array}) return 1;"
                )
                .map_err(|_| unsupported("formatting"))?,
            }
            (array, attrs)
        };
        e.compute(id, &array, &attrs, &materialise)?;
        e.temps.insert(id, (array, attrs));
    }
    let mut params = Vec::new();
    for (op, s) in storage {
        match s {
            Storage::Dense { .. } => params.push(format!("const double *op_{op}")),
            Storage::Csr => params.push(format!(
                "const int64_t *op_{op}_rowptr, const int64_t *op_{op}_colind, const double *op_{op}_val"
            )),
        }
    }
    params.push("double *out".into());
    let mut frees = String::new();
    if in_workspace {
        params.push("double *ps_work".into());
        frees += "  (void)ps_work;\n";
    } else {
        for (id, (array, _)) in &e.temps {
            if *id != root {
                frees += &format!("  free({array});\n");
            }
        }
    }
    Ok(WorkFunction {
        text: format!(
            "/* {} */\nstatic int {name}({}) {{\n{}{frees}  return 0;\n}}\n",
            crate::show::show(plan),
            params.join(", "),
            e.body
        ),
        work: e.work.unwrap_or(0).max(1),
        gemm: false,
        kernels: e.calls,
    })
}

impl Emitter<'_> {
    fn name(&self, id: Id) -> Result<Symbol, SumProductError> {
        match &self.plan[id] {
            Rel::Name(s) => Ok(*s),
            _ => Err(unsupported("a malformed plan")),
        }
    }

    fn size(&self, attrs: &[Symbol]) -> u64 {
        attrs
            .iter()
            .map(|a| self.dims.get(a).copied().unwrap_or(1))
            .product()
    }

    /// Free attributes of a node.
    fn schema(&self, id: Id) -> Result<BTreeSet<Symbol>, SumProductError> {
        Ok(match &self.plan[id] {
            Rel::Name(_) | Rel::Num(_) | Rel::Dim(_) | Rel::Scalar(_) => BTreeSet::new(),
            Rel::Matrix([_, i, j]) => [self.name(*i)?, self.name(*j)?].into(),
            Rel::Vector([_, i]) => [self.name(*i)?].into(),
            Rel::Join([a, b]) | Rel::Union([a, b]) => {
                let mut s = self.schema(*a)?;
                s.extend(self.schema(*b)?);
                s
            }
            Rel::Agg([i, x]) => {
                let mut s = self.schema(*x)?;
                s.remove(&self.name(*i)?);
                s
            }
            Rel::Apply([_, x]) => self.schema(*x)?,
        })
    }

    /// The C index of `attrs` (first fastest) in an array over them.
    fn index(&self, attrs: &[Symbol]) -> String {
        let mut terms = Vec::new();
        let mut stride = 1u64;
        for a in attrs {
            terms.push(if stride == 1 {
                format!("a_{a}")
            } else {
                format!("{stride}*a_{a}")
            });
            stride *= self.dims.get(a).copied().unwrap_or(1);
        }
        if terms.is_empty() {
            "0".into()
        } else {
            terms.join(" + ")
        }
    }

    /// The factors and bound attributes of the term rooted at `id`.
    fn term(
        &self,
        id: Id,
        top: bool,
        materialised: &BTreeSet<Id>,
        bound: &mut Vec<Symbol>,
        factors: &mut Vec<Factor>,
    ) -> Result<(), SumProductError> {
        if !top {
            if let Some((array, attrs)) = self.temps.get(&id) {
                factors.push(Factor::Array(array.clone(), attrs.clone()));
                return Ok(());
            }
            if materialised.contains(&id) {
                return Err(unsupported("a plan used before it is computed"));
            }
        }
        match &self.plan[id] {
            Rel::Num(c) => factors.push(Factor::Scalar(format!("({:e})", c.to_f64()))),
            Rel::Dim(i) => {
                let size = self.dims.get(&self.name(*i)?).copied().unwrap_or(1);
                factors.push(Factor::Scalar(format!("{size}.0")));
            }
            Rel::Scalar(x) => factors.push(Factor::Scalar(format!("op_{}[0]", self.name(*x)?))),
            Rel::Vector([x, i]) if self.name(*x)?.as_str() == ONES => {
                factors.push(Factor::Ones(vec![self.name(*i)?]))
            }
            Rel::Matrix([x, i, j]) if self.name(*x)?.as_str() == ONES => {
                factors.push(Factor::Ones(vec![self.name(*i)?, self.name(*j)?]))
            }
            Rel::Vector([x, i]) => factors.push(Factor::Array(
                format!("op_{}", self.name(*x)?),
                vec![self.name(*i)?],
            )),
            Rel::Matrix([x, i, j]) => {
                let (x, i, j) = (self.name(*x)?.to_string(), self.name(*i)?, self.name(*j)?);
                let c = format!("op_{x}");
                match self.storage.get(&x) {
                    Some(Storage::Csr) => factors.push(Factor::Csr(c, i, j)),
                    Some(Storage::Dense { .. }) => factors.push(Factor::Array(c, vec![i, j])),
                    None => return Err(SumProductError::UnknownOperand(x)),
                }
            }
            Rel::Join([a, b]) => {
                self.term(*a, false, materialised, bound, factors)?;
                self.term(*b, false, materialised, bound, factors)?;
            }
            Rel::Agg([i, x]) => {
                bound.push(self.name(*i)?);
                self.term(*x, false, materialised, bound, factors)?;
            }
            Rel::Apply([f, x]) => {
                let f = Func::from_name(self.name(*f)?.as_str())
                    .ok_or_else(|| unsupported("an unknown function"))?;
                let (mut inner_bound, mut inner) = (Vec::new(), Vec::new());
                self.term(*x, false, materialised, &mut inner_bound, &mut inner)?;
                match (inner.pop(), inner.is_empty() && inner_bound.is_empty()) {
                    (Some(arg), true) => factors.push(Factor::Apply(f, Box::new(arg))),
                    _ => return Err(unsupported("a function of a compound term")),
                }
            }
            Rel::Union(_) | Rel::Name(_) => {
                return Err(unsupported("a union inside a term"));
            }
        }
        Ok(())
    }

    /// Code computing node `id` into `array` over `attrs`.
    fn compute(
        &mut self,
        id: Id,
        array: &str,
        attrs: &[Symbol],
        materialised: &BTreeSet<Id>,
    ) -> Result<(), SumProductError> {
        let size = self.size(attrs);
        let out = format!("{array}[{}]", self.index(attrs));
        writeln!(
            self.body,
            "  for (int64_t k = 0; k < {size}; k++) {array}[k] = 0.0;"
        )
        .map_err(|_| unsupported("formatting"))?;
        let parts: Vec<Id> = match &self.plan[id] {
            Rel::Union([a, b]) => vec![*a, *b],
            _ => vec![id],
        };
        for (k, part) in parts.into_iter().enumerate() {
            let mut bound = Vec::new();
            let mut factors = Vec::new();
            self.term(part, part == id, materialised, &mut bound, &mut factors)?;
            if self.gemm && self.gemm_call(array, attrs, &bound, &factors)? {
                continue;
            }
            // The addition into `out` is an operation when the term sums or follows
            // another term (the first term of a map stores into zeros).
            let adds = !bound.is_empty() || k > 0;
            if !self.kernel_term(&out, attrs, &bound, &factors, adds)? {
                self.nest(&out, attrs, &bound, &factors)?;
            }
        }
        Ok(())
    }

    /// One loop nest: `out[attrs] += prod factors`, summed over `bound`; a CSR factor's
    /// nonzeros drive the outermost loops.
    fn nest(
        &mut self,
        out: &str,
        attrs: &[Symbol],
        bound: &[Symbol],
        factors: &[Factor],
    ) -> Result<(), SumProductError> {
        let mut all: Vec<Symbol> = attrs.to_vec();
        all.extend(bound.iter().filter(|b| !attrs.contains(b)));
        for f in factors {
            let fa = f.attrs();
            all.extend(
                fa.into_iter()
                    .filter(|a| !all.contains(a))
                    .collect::<Vec<_>>(),
            );
        }
        let mut code = String::new();
        let mut bound_now: BTreeSet<Symbol> = BTreeSet::new();
        let mut depth = 1;
        let mut closes = 0;
        let indent = |d: usize| "  ".repeat(d);
        let mut product = Vec::new();
        let driver = factors.iter().position(|f| f.csr_root().is_some());
        if let Some(Factor::Csr(x, i, j)) = driver.and_then(|k| factors[k].csr_root()) {
            let size = self.dims.get(i).copied().unwrap_or(1);
            code += &format!(
                "{}for (int64_t a_{i} = 0; a_{i} < {size}; a_{i}++)\n{}for (int64_t p_{x} = {x}_rowptr[a_{i}]; p_{x} < {x}_rowptr[a_{i} + 1]; p_{x}++) {{\n",
                indent(depth),
                indent(depth + 1)
            );
            closes += 1;
            depth += 2;
            bound_now.insert(*i);
            if i == j {
                code += &format!(
                    "{}if ({x}_colind[p_{x}] != a_{i}) continue;\n",
                    indent(depth)
                );
            } else {
                // Summed away, the column may be unused below.
                code += &format!(
                    "{}int64_t a_{j} = {x}_colind[p_{x}];\n{}(void)a_{j};\n",
                    indent(depth),
                    indent(depth)
                );
                bound_now.insert(*j);
            }
            if let Some(d) = driver {
                product.push(applied(&factors[d], &format!("{x}_val[p_{x}]")));
            }
        }
        for a in &all {
            if bound_now.contains(a) {
                continue;
            }
            let size = self.dims.get(a).copied().unwrap_or(1);
            code += &format!(
                "{}for (int64_t a_{a} = 0; a_{a} < {size}; a_{a}++) {{\n",
                indent(depth)
            );
            closes += 1;
            depth += 1;
            bound_now.insert(*a);
        }
        for (k, f) in factors.iter().enumerate() {
            if Some(k) != driver {
                product.push(self.factor_c(f));
            }
        }
        if product.is_empty() {
            product.push("1.0".into());
        }
        code += &format!("{}{out} += {};\n", indent(depth), product.join(" * "));
        for _ in 0..closes {
            depth -= 1;
            code += &format!("{}}}\n", indent(depth));
        }
        self.body += &code;
        Ok(())
    }
}

impl Emitter<'_> {
    /// `array[attrs] += alpha sum_l A B` as a call of `ps_plan_gemm` when the term is a
    /// dense matrix product (see [`c_function_in_workspace`]); whether it was one.
    fn gemm_call(
        &mut self,
        array: &str,
        attrs: &[Symbol],
        bound: &[Symbol],
        factors: &[Factor],
    ) -> Result<bool, SumProductError> {
        let (&[o0, o1], &[l]) = (attrs, bound) else {
            return Ok(false);
        };
        let mut alpha = Vec::new();
        let mut arrays = Vec::new();
        for f in factors {
            match f {
                Factor::Scalar(s) => alpha.push(s.clone()),
                Factor::Array(x, a) if a.len() == 2 && a[0] != a[1] => arrays.push((x, a)),
                _ => return Ok(false),
            }
        }
        let [(x, xa), (y, ya)] = arrays[..] else {
            return Ok(false);
        };
        // A: the factor over {o0, l}; B: the one over {l, o1}.
        let has = |a: &[Symbol], p: Symbol, q: Symbol| a.contains(&p) && a.contains(&q);
        let ((a, aa), (b, ba)) = if has(xa, o0, l) && has(ya, l, o1) {
            ((x, xa), (y, ya))
        } else if has(ya, o0, l) && has(xa, l, o1) {
            ((y, ya), (x, xa))
        } else {
            return Ok(false);
        };
        let dim = |s: Symbol| self.dims.get(&s).copied().unwrap_or(1);
        let (m, n, k) = (dim(o0), dim(o1), dim(l));
        let mut code = format!("  /* GEMM {array}(m={m}, n={n}) += {a} * {b} over k={k} */\n");
        // An operand stored transposed is copied into the workspace in plain storage.
        let mut plain = |name: &str, stored: &[Symbol], first: Symbol, rows: u64, cols: u64| {
            if stored[0] == first {
                return Ok(name.to_string());
            }
            let Some(off) = self.work.as_mut() else {
                return Err(unsupported("a transposed GEMM operand outside a workspace"));
            };
            let t = format!("(ps_work + {off})");
            *off += rows * cols;
            code += &format!(
                "  for (int64_t c = 0; c < {cols}; c++)\n    for (int64_t r = 0; r < {rows}; r++) {t}[r + {rows} * c] = {name}[c + {cols} * r];\n"
            );
            Ok(t)
        };
        let pa = plain(a, aa, o0, m, k)?;
        let pb = plain(b, ba, l, k, n)?;
        let alpha = if alpha.is_empty() {
            "1.0".to_string()
        } else {
            alpha.join(" * ")
        };
        code += &format!(
            "  ps_plan_gemm({m}, {n}, {k}, {alpha}, {pa}, {m}, {pb}, {k}, {array}, {m});\n"
        );
        self.body += &code;
        Ok(true)
    }

    /// The C expression of a factor's entry at the current attribute values (a CSR factor
    /// that does not drive the loops is looked up).
    fn factor_c(&self, f: &Factor) -> String {
        match f {
            Factor::Scalar(s) => s.clone(),
            Factor::Array(x, a) => format!("{x}[{}]", self.index(a)),
            Factor::Csr(x, i, j) => {
                format!("ps_csr_at({x}_rowptr, {x}_colind, {x}_val, a_{i}, a_{j})")
            }
            Factor::Ones(_) => "1.0".into(),
            Factor::Apply(Func::Recip, g) => format!("(1.0 / {})", self.factor_c(g)),
            Factor::Apply(func, g) => format!("{}({})", func.name(), self.factor_c(g)),
        }
    }
}

/// Whether node `id` is functions applied to an operand (or constant): a term reads it as
/// one factor (see `Emitter::term`).
fn operand_chain(plan: &RecExpr<Rel>, id: Id) -> bool {
    match &plan[id] {
        Rel::Apply([_, x]) => operand_chain(plan, *x),
        Rel::Matrix(_) | Rel::Vector(_) | Rel::Scalar(_) | Rel::Num(_) | Rel::Dim(_) => true,
        _ => false,
    }
}

/// The C expression of factor `f` (the driving CSR operand, or functions of it) at the
/// nonzero whose value is `val`.
fn applied(f: &Factor, val: &str) -> String {
    match f {
        Factor::Apply(Func::Recip, g) => format!("(1.0 / {})", applied(g, val)),
        Factor::Apply(func, g) => format!("{}({})", func.name(), applied(g, val)),
        _ => val.to_string(),
    }
}

/// C helpers the functions use: `ps_csr_at`, the entry of a CSR matrix (0 where absent).
pub const PRELUDE: &str = "#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n\
static inline double ps_csr_at(const int64_t *rowptr, const int64_t *colind, const double *val, int64_t i, int64_t j) {\n\
  for (int64_t p = rowptr[i]; p < rowptr[i + 1]; p++)\n\
    if (colind[p] == j) return val[p];\n\
  return 0.0;\n\
}\n";
