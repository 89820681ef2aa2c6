//! C emission: an isl-style fragment, or a self-contained C99 function `scan(...)`.
//!
//! Bounds use small exact helpers (`ps_floord`, `ps_ceild`, `ps_isqrt`, `ps_ceil_sqrt`,
//! `ps_max`, `ps_min`) on `int64_t`; no floating point anywhere.
//!
//! The printer lowers each [`Expr`] once into a typed C expression ([`CAst`]: the
//! operations in the order and association the compiler reads from the text) and prints
//! the text from that tree. The checked rendering of `--check-overflow` ([`CheckedC`]),
//! the Rust printer (`emit_rust`) and the overflow analysis (`overflow`) start from the
//! same tree ([`CEmitter::c_ast`]), so they see exactly the operations of the plain text.

use crate::ast::{branches, Branch, Node};
use crate::c_ast::{CAst, Lang};
use crate::c_lowering::Lowering;
use crate::checked::{render_checked, string_literal, CheckedError};
use crate::expr::Expr;
use polys::{CPrintError, Coeff, Vars};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::fmt::Write;

/// The helper functions, as C99 `static inline` definitions.
pub const HELPERS: &str = r#"/* Exact integer helpers: d > 0 in divisions. Roots are defined for every argument: of a
   negative one, an even root is -1 (rounded down) or 0 (rounded up), so that a loop
   bounded by a root that is not real is empty; an odd root is the real one. */
/* The roots are functions of their arguments alone and are kept out of line, so that gcc
   computes a loop bound such as ps_isqrt(n - i*i) once per loop rather than once per
   iteration (inlined, their own loops keep it from moving the call out of the loop). */
#define PS_CONST __attribute__((const, noinline, unused))
static inline int64_t ps_floord(int64_t n, int64_t d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
static inline int64_t ps_ceild(int64_t n, int64_t d) { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
static inline int64_t ps_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t ps_min(int64_t a, int64_t b) { return a < b ? a : b; }
PS_CONST static int64_t ps_isqrt(int64_t n) {
  if (n < 0) return -1;
  /* Digit by digit, two bits of n per step from the highest power of 4 not above n: no
     division (a 64-bit division costs tens of cycles, and a short inner loop pays for
     its bound once per row). r holds the root found so far, shifted. */
  uint64_t x = (uint64_t)n, r = 0;
  uint64_t b = (uint64_t)1 << ((63 - __builtin_clzll(x | 1)) & ~1);
  for (; b != 0; b >>= 2) {
    if (x >= r + b) { x -= r + b; r = (r >> 1) + b; } else r >>= 1;
  }
  return (int64_t)r;
}
PS_CONST static int64_t ps_ceil_sqrt(int64_t n) { if (n <= 0) return 0; int64_t s = ps_isqrt(n); return s * s == n ? s : s + 1; }
/* b^k <= n for b >= 0, without overflow. */
static inline int ps_pow_le(int64_t b, int k, int64_t n) {
  int64_t r = 1;
  for (int i = 0; i < k; i++) { if (b != 0 && r > n / b) return 0; r *= b; }
  return 1;
}
PS_CONST static int64_t ps_ceil_iroot(int64_t n, int k);
/* floor(n^(1/k)): doubling, then bisection keeping lo^k <= n < hi^k. */
PS_CONST static int64_t ps_iroot(int64_t n, int k) {
  if (n < 0) return k % 2 == 0 ? -1 : -ps_ceil_iroot(-n, k);
  if (n < 2) return n;
  int64_t lo = 1, hi = 2;
  while (ps_pow_le(hi, k, n)) { lo = hi; hi *= 2; }
  while (hi - lo > 1) { int64_t mid = lo + (hi - lo) / 2; if (ps_pow_le(mid, k, n)) lo = mid; else hi = mid; }
  return lo;
}
PS_CONST static int64_t ps_ceil_iroot(int64_t n, int k) {
  if (n < 0) return k % 2 == 0 ? 0 : -ps_iroot(-n, k);
  int64_t s = ps_iroot(n, k), p = 1;
  for (int i = 0; i < k; i++) p *= s;
  return p == n ? s : s + 1;
}
/* Sign of c[0] + c[1] y + ... + c[deg] y^deg in 128 bits; traps rather than wrap. */
static inline int ps_poly_sign(int deg, const int64_t *c, int64_t y) {
  __int128 acc = c[deg], t;
  for (int i = deg - 1; i >= 0; i--) {
    if (__builtin_mul_overflow(acc, (__int128)y, &t) || __builtin_add_overflow(t, (__int128)c[i], &acc)) __builtin_trap();
  }
  return (acc > 0) - (acc < 0);
}
/* floor (ceil) of the one root in (L, U] where lo = floor(L), hi = floor(U): the sign is
   `before` below the root and the other one from the root on. Gallops from the integer in
   lo+1..hi nearest 0 towards the root, then bisects, so that it evaluates the polynomial
   near the root rather than at a distant Cauchy bound. */
static inline int64_t ps_root_search(int deg, const int64_t *c, int64_t lo, int64_t hi, int before, int ceil) {
  int64_t a, b, ans = lo;
  if (lo >= hi) return ceil ? lo + 1 : lo;
  int64_t s = 0 < lo + 1 ? lo + 1 : (0 > hi ? hi : 0);
  if (ps_poly_sign(deg, c, s) == before) {
    /* the root is above s: find an upper end with the other sign */
    int64_t step = 1, last = s;
    for (;;) {
      int64_t y = (hi - last <= step) ? hi : last + step;
      if (ps_poly_sign(deg, c, y) != before) { a = last + 1; b = y - 1; ans = last; break; }
      if (y == hi) { a = 1; b = 0; ans = hi; break; }
      last = y; step *= 2;
    }
  } else {
    /* the root is at or below s: find a lower end with the sign `before` */
    int64_t step = 1, last = s;
    for (;;) {
      int64_t y = (last - (lo + 1) <= step) ? lo + 1 : last - step;
      if (y < last && ps_poly_sign(deg, c, y) == before) { a = y + 1; b = last - 1; ans = y; break; }
      if (y >= last || y == lo + 1) { a = 1; b = 0; ans = lo; if (y < last && ps_poly_sign(deg, c, y) == before) ans = y; break; }
      last = y; step *= 2;
    }
  }
  while (a <= b) {
    int64_t mid = a + (b - a) / 2;
    if (ps_poly_sign(deg, c, mid) == before) { ans = mid; a = mid + 1; } else b = mid - 1;
  }
  if (ans < hi && ps_poly_sign(deg, c, ans + 1) == 0) return ans + 1;
  return ceil ? ans + 1 : ans;
}
"#;

/// Options of the C printer.
pub struct CEmitter<'a> {
    /// Names of the variables the AST indexes: parameters, then loop variables.
    pub vars: &'a Vars,
    /// Number of parameters (the first `nparams` of `vars`); they become the arguments
    /// of [`CEmitter::function`].
    pub nparams: usize,
    /// Statement names and their number of iterators.
    pub statements: &'a [(String, usize)],
}

impl CEmitter<'_> {
    /// The loop nest as a fragment: parameters are `int64_t` variables in scope.
    pub fn fragment(&self, nodes: &[Node]) -> Result<String, CPrintError> {
        let printer = Printer::new(self);
        let mut out = String::new();
        if nodes.is_empty() {
            out.push_str("/* empty domain: no statement instance */\n");
        }
        printer.list(nodes, 0, &mut out)?;
        Ok(out)
    }

    /// A self-contained function `void scan(int64_t p1, ...)`.
    pub fn function(&self, nodes: &[Node], extra_params: &[String]) -> Result<String, CPrintError> {
        let mut out = String::from("#include <stdint.h>\n\n");
        out.push_str(HELPERS);
        let mut params: Vec<String> = (0..self.nparams)
            .map(|v| format!("int64_t {}", self.vars.name(v)))
            .collect();
        params.extend(extra_params.iter().map(|p| format!("int64_t {p}")));
        if params.is_empty() {
            params.push("void".into());
        }
        let _ = writeln!(out, "\nvoid scan({})\n{{", params.join(", "));
        if nodes.is_empty() {
            out.push_str("  /* empty domain: no statement instance */\n");
        }
        let printer = Printer::new(self);
        printer.list(nodes, 1, &mut out)?;
        out.push_str("}\n");
        Ok(out)
    }

    /// `p >= lower` and `p <= upper` for the sides a guard has.
    pub fn guard_conditions(
        &self,
        var: usize,
        lower: &Option<Expr>,
        upper: &Option<Expr>,
    ) -> Result<Vec<String>, CPrintError> {
        Printer::new(self).guard_conditions(var, lower, upper, Lang::C)
    }

    /// [`CEmitter::guard_conditions`] in `lang`.
    pub(crate) fn guard_conditions_in(
        &self,
        var: usize,
        lower: &Option<Expr>,
        upper: &Option<Expr>,
        lang: Lang,
    ) -> Result<Vec<String>, CPrintError> {
        Printer::new(self).guard_conditions(var, lower, upper, lang)
    }

    /// A C expression; sums are parenthesised wherever they are operands.
    pub fn expr(&self, e: &Expr) -> Result<String, CPrintError> {
        Ok(self.c_ast(e)?.text(self.vars, Lang::C))
    }

    /// The typed C expression [`CEmitter::expr`] prints for `e`: the operations, in the
    /// order and association the C compiler reads from that text.
    pub fn c_ast(&self, e: &Expr) -> Result<CAst, CPrintError> {
        Lowering::default().tree(e)
    }
}

/// One printing pass over a tree: the trees of its expressions, and the text of every
/// bound, guard and argument printed so far (generated code repeats a few bounds many
/// times), keyed by the expression (borrowed from the tree for the pass).
struct Printer<'e, 't> {
    emitter: &'e CEmitter<'e>,
    trees: Lowering<'t>,
    texts: RefCell<FxHashMap<&'t Expr, String>>,
}

impl<'e, 't> Printer<'e, 't> {
    fn new(emitter: &'e CEmitter<'e>) -> Self {
        Printer {
            emitter,
            trees: Lowering::default(),
            texts: RefCell::default(),
        }
    }

    /// Appends the node's code, the text pieces pushed directly (no formatting machinery:
    /// printing is a per-line cost of every generation).
    fn node(&self, n: &'t Node, depth: usize, out: &mut String) -> Result<(), CPrintError> {
        if let Node::Guard { .. } = n {
            return self.guard(n, depth, out, Branch::Alone, false);
        }
        indent(out, depth);
        match n {
            Node::Stmt { stmt, args } => {
                out.push_str(&self.emitter.statements[*stmt].0);
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.push_expr(a, out)?;
                }
                out.push_str(");\n");
            }
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                let x = self.emitter.vars.name(*var);
                for piece in ["for (int64_t ", &x, " = "] {
                    out.push_str(piece);
                }
                self.push_expr(lower, out)?;
                for piece in ["; ", &x, " <= "] {
                    out.push_str(piece);
                }
                self.push_expr(upper, out)?;
                for piece in ["; ", &x, " += ", &step.to_string(), ")"] {
                    out.push_str(piece);
                }
                self.block(body, depth, out)?;
            }
            Node::Test { cond, body } => {
                out.push_str("if (");
                let text = cond.text(&mut |e| {
                    Ok::<_, CPrintError>(self.trees.tree(e)?.text(self.emitter.vars, Lang::C))
                })?;
                out.push_str(&text);
                out.push(')');
                self.block(body, depth, out)?;
            }
            Node::Guard { .. } => unreachable!("printed by `guard`"),
        }
        Ok(())
    }

    /// The nodes of a list, guards that exclude each other as `if`/`else if`/`else`
    /// chains ([`branches`]).
    fn list(&self, nodes: &'t [Node], depth: usize, out: &mut String) -> Result<(), CPrintError> {
        let kinds = branches(nodes);
        for (i, n) in nodes.iter().enumerate() {
            let continued = kinds.get(i + 1).is_some_and(|k| *k != Branch::Alone);
            match (kinds[i], continued) {
                (Branch::Alone, false) => self.node(n, depth, out)?,
                (branch, _) => self.guard(n, depth, out, branch, continued)?,
            }
        }
        Ok(())
    }

    /// A guard as `if`, or as the `else if`/`else` after the `}` of the one before it;
    /// braces wherever an `else` is next to it, so that it cannot bind to an inner `if`. A
    /// chain of single-child guards is one `if` (see `Node::guard_chain`).
    fn guard(
        &self,
        n: &'t Node,
        depth: usize,
        out: &mut String,
        branch: Branch,
        continued: bool,
    ) -> Result<(), CPrintError> {
        let Some((chain, body)) = n.guard_chain() else {
            unreachable!("only guards come here")
        };
        let mut conds = Vec::new();
        for (var, lower, upper) in chain {
            conds.extend(self.guard_conditions(var, lower, upper, Lang::C)?);
        }
        match branch {
            Branch::Alone => {
                indent(out, depth);
                out.push_str("if (");
            }
            Branch::ElseIf => out.push_str(" else if ("),
            Branch::Else => out.push_str(" else"),
        }
        if branch != Branch::Else {
            out.push_str(&conds.join(" && "));
            out.push(')');
        }
        if branch == Branch::Alone && !continued {
            return self.block(body, depth, out);
        }
        out.push_str(" {\n");
        self.list(body, depth + 1, out)?;
        indent(out, depth);
        out.push('}');
        if !continued {
            out.push('\n');
        }
        Ok(())
    }

    fn guard_conditions(
        &self,
        var: usize,
        lower: &'t Option<Expr>,
        upper: &'t Option<Expr>,
        lang: Lang,
    ) -> Result<Vec<String>, CPrintError> {
        let p = self.emitter.vars.name(var);
        let text = |e: &'t Expr| -> Result<String, CPrintError> {
            Ok(self.trees.tree(e)?.text(self.emitter.vars, lang))
        };
        let mut conds = Vec::new();
        if let (Some(l), Some(u)) = (lower, upper) {
            if l == u {
                conds.push(format!("{p} == {}", text(l)?));
                return Ok(conds);
            }
        }
        if let Some(l) = lower {
            conds.push(format!("{p} >= {}", text(l)?));
        }
        if let Some(u) = upper {
            conds.push(format!("{p} <= {}", text(u)?));
        }
        Ok(conds)
    }

    fn block(&self, body: &'t [Node], depth: usize, out: &mut String) -> Result<(), CPrintError> {
        if body.len() == 1 {
            out.push('\n');
            self.node(&body[0], depth + 1, out)
        } else {
            out.push_str(" {\n");
            self.list(body, depth + 1, out)?;
            indent(out, depth);
            out.push_str("}\n");
            Ok(())
        }
    }

    /// Appends the C text of `e` to `out`, from the pass's memory if printed before.
    fn push_expr(&self, e: &'t Expr, out: &mut String) -> Result<(), CPrintError> {
        if let Some(text) = self.texts.borrow().get(e) {
            out.push_str(text);
            return Ok(());
        }
        let text = self.trees.tree(e)?.text(self.emitter.vars, Lang::C);
        out.push_str(&text);
        self.texts.borrow_mut().insert(e, text);
        Ok(())
    }
}

/// Two spaces per level.
fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// The checked helpers of `--check-overflow`, after [`HELPERS`] (whose `ps_isqrt` and
/// `ps_pow_le` they reuse): the same computations with every `int64_t` (and `__int128`)
/// step that can overflow tested; a failure prints what overflowed and the generated
/// code's line and expression (`site`) to stderr, then aborts.
pub const CHECKED_HELPERS: &str = r#"/* Checked helpers (--check-overflow): report on stderr and abort instead of wrapping. */
static void ps_fail(const char *what, const char *site) {
  fprintf(stderr, "polyscan: %s at %s\n", what, site);
  abort();
}
static inline int64_t ps_add_ck(int64_t a, int64_t b, const char *site) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) ps_fail("int64 overflow in a + b", site);
  return r;
}
static inline int64_t ps_sub_ck(int64_t a, int64_t b, const char *site) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) ps_fail("int64 overflow in a - b", site);
  return r;
}
static inline int64_t ps_mul_ck(int64_t a, int64_t b, const char *site) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) ps_fail("int64 overflow in a * b", site);
  return r;
}
static inline int64_t ps_neg_ck(int64_t a, const char *site) {
  if (a == INT64_MIN) ps_fail("int64 overflow in -a", site);
  return -a;
}
/* The loop condition x <= hi: x += 1 cannot overflow once hi < INT64_MAX is checked (hi is
   loop-invariant, so the check leaves the loop). */
static inline int64_t ps_upper_ck(int64_t hi, const char *site) {
  if (hi == INT64_MAX) ps_fail("int64 overflow in the loop increment (upper bound INT64_MAX)", site);
  return hi;
}
static inline int64_t ps_floord_ck(int64_t n, int64_t d, const char *site) {
  int64_t t;
  if (d <= 0) ps_fail("ps_floord: divisor is not positive", site);
  if (n >= 0) return n / d;
  if (n == INT64_MIN || __builtin_add_overflow(-n, d, &t)) ps_fail("int64 overflow in ps_floord (-n + d - 1)", site);
  return -((t - 1) / d);
}
static inline int64_t ps_ceild_ck(int64_t n, int64_t d, const char *site) {
  int64_t t;
  if (d <= 0) ps_fail("ps_ceild: divisor is not positive", site);
  if (n >= 0) {
    if (__builtin_add_overflow(n, d, &t)) ps_fail("int64 overflow in ps_ceild (n + d - 1)", site);
    return (t - 1) / d;
  }
  if (n == INT64_MIN) ps_fail("int64 overflow in ps_ceild (-n)", site);
  return -((-n) / d);
}
static inline int64_t ps_ceil_sqrt_ck(int64_t n, const char *site) {
  if (n <= 0) return 0;
  int64_t s = ps_isqrt(n), q;
  if (__builtin_mul_overflow(s, s, &q)) ps_fail("int64 overflow in ps_ceil_sqrt (s * s)", site);
  return q == n ? s : s + 1;
}
static inline int64_t ps_ceil_iroot_ck(int64_t n, int k, const char *site);
static inline int64_t ps_iroot_ck(int64_t n, int k, const char *site) {
  if (n < 0) return k % 2 == 0 ? -1 : -ps_ceil_iroot_ck(ps_neg_ck(n, site), k, site);
  if (n < 2) return n;
  int64_t lo = 1, hi = 2;
  while (ps_pow_le(hi, k, n)) { lo = hi; if (__builtin_mul_overflow(hi, (int64_t)2, &hi)) ps_fail("int64 overflow in ps_iroot (hi * 2)", site); }
  while (hi - lo > 1) { int64_t mid = lo + (hi - lo) / 2; if (ps_pow_le(mid, k, n)) lo = mid; else hi = mid; }
  return lo;
}
static inline int64_t ps_ceil_iroot_ck(int64_t n, int k, const char *site) {
  if (n < 0) return k % 2 == 0 ? 0 : -ps_iroot_ck(ps_neg_ck(n, site), k, site);
  int64_t s = ps_iroot_ck(n, k, site), p = 1;
  for (int i = 0; i < k; i++) if (__builtin_mul_overflow(p, s, &p)) ps_fail("int64 overflow in ps_ceil_iroot (s^k)", site);
  return p == n ? s : s + 1;
}
static inline int ps_poly_sign_ck(int deg, const int64_t *c, int64_t y, const char *site) {
  __int128 acc = c[deg], t;
  for (int i = deg - 1; i >= 0; i--) {
    if (__builtin_mul_overflow(acc, (__int128)y, &t) || __builtin_add_overflow(t, (__int128)c[i], &acc))
      ps_fail("__int128 overflow in ps_root_search (polynomial value)", site);
  }
  return (acc > 0) - (acc < 0);
}
/* ps_root_search with every step checked (same search, same evaluation points). */
static inline int64_t ps_root_search_ck(int deg, const int64_t *c, int64_t lo, int64_t hi, int before, int ceil, const char *site) {
#define PS_SIGN(y) ps_poly_sign_ck(deg, c, (y), site)
#define PS_ADD(a, b) ps_add_ck((a), (b), site)
#define PS_SUB(a, b) ps_sub_ck((a), (b), site)
  int64_t a, b, ans = lo;
  if (lo >= hi) return ceil ? PS_ADD(lo, 1) : lo;
  int64_t lo1 = PS_ADD(lo, 1);
  int64_t s = 0 < lo1 ? lo1 : (0 > hi ? hi : 0);
  if (PS_SIGN(s) == before) {
    int64_t step = 1, last = s;
    for (;;) {
      int64_t y = (PS_SUB(hi, last) <= step) ? hi : PS_ADD(last, step);
      if (PS_SIGN(y) != before) { a = PS_ADD(last, 1); b = PS_SUB(y, 1); ans = last; break; }
      if (y == hi) { a = 1; b = 0; ans = hi; break; }
      last = y; step = ps_mul_ck(step, 2, site);
    }
  } else {
    int64_t step = 1, last = s;
    for (;;) {
      int64_t y = (PS_SUB(last, lo1) <= step) ? lo1 : PS_SUB(last, step);
      if (y < last && PS_SIGN(y) == before) { a = PS_ADD(y, 1); b = PS_SUB(last, 1); ans = y; break; }
      if (y >= last || y == lo1) { a = 1; b = 0; ans = lo; if (y < last && PS_SIGN(y) == before) ans = y; break; }
      last = y; step = ps_mul_ck(step, 2, site);
    }
  }
  while (a <= b) {
    int64_t mid = PS_ADD(a, PS_SUB(b, a) / 2);
    if (PS_SIGN(mid) == before) { ans = mid; a = PS_ADD(mid, 1); } else b = PS_SUB(mid, 1);
  }
  if (ans < hi && PS_SIGN(PS_ADD(ans, 1)) == 0) return PS_ADD(ans, 1);
  return ceil ? PS_ADD(ans, 1) : ans;
#undef PS_SIGN
#undef PS_ADD
#undef PS_SUB
}
"#;

impl<'a> CEmitter<'a> {
    /// The same printer in `--check-overflow` mode (see [`CheckedC`]).
    pub fn checked(&self) -> CheckedC<'_, 'a> {
        CheckedC {
            emitter: self,
            header: None,
        }
    }
}

/// The C printer with checked arithmetic: every operation of every bound, guard and
/// statement argument, and every loop increment, goes through a `ps_*_ck` helper of
/// [`CHECKED_HELPERS`] that names the expression and its output line when it overflows.
/// The expressions are rendered from the trees the unchecked text prints from
/// ([`CEmitter::c_ast`]), so the checked program performs exactly the operations of the
/// unchecked one, in the same order. A wrapper rather than a flag of
/// [`CEmitter`], whose struct literal many callers spell out.
pub struct CheckedC<'e, 'a> {
    emitter: &'e CEmitter<'a>,
    header: Option<String>,
}

/// Output text with its line count, so that checked sites can name their line.
struct Lines {
    text: String,
    line: usize,
}

impl Lines {
    fn push(&mut self, s: &str) {
        self.line += s.matches('\n').count();
        self.text.push_str(s);
    }
}

impl CheckedC<'_, '_> {
    /// Puts `comment` (one or more complete lines) at the top of the output, so that line
    /// numbers in the messages stay right.
    pub fn with_header(mut self, comment: impl Into<String>) -> Self {
        let mut c = comment.into();
        if !c.is_empty() && !c.ends_with('\n') {
            c.push('\n');
        }
        self.header = Some(c);
        self
    }

    fn start(&self) -> Lines {
        let mut out = Lines {
            text: String::new(),
            line: 1,
        };
        if let Some(h) = &self.header {
            out.push(h);
        }
        out
    }

    /// The loop nest as a fragment (parameters in scope) calling the checked helpers of
    /// [`CheckedC::function`]'s output, which the including file must define.
    pub fn fragment(&self, nodes: &[Node]) -> Result<String, CheckedError> {
        let mut out = self.start();
        out.push("/* --check-overflow: uses the ps_*_ck helpers of --emit c-function --check-overflow */\n");
        if nodes.is_empty() {
            out.push("/* empty domain: no statement instance */\n");
        }
        for n in nodes {
            self.node(n, 0, &mut out)?;
        }
        Ok(out.text)
    }

    /// A self-contained function `void scan(int64_t p1, ...)` with the checked helpers.
    pub fn function(
        &self,
        nodes: &[Node],
        extra_params: &[String],
    ) -> Result<String, CheckedError> {
        let e = self.emitter;
        let mut out = self.start();
        out.push("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n");
        out.push(HELPERS);
        out.push(CHECKED_HELPERS);
        let mut params: Vec<String> = (0..e.nparams)
            .map(|v| format!("int64_t {}", e.vars.name(v)))
            .collect();
        params.extend(extra_params.iter().map(|p| format!("int64_t {p}")));
        if params.is_empty() {
            params.push("void".into());
        }
        out.push(&format!("\nvoid scan({})\n{{\n", params.join(", ")));
        if nodes.is_empty() {
            out.push("  /* empty domain: no statement instance */\n");
        }
        for n in nodes {
            self.node(n, 1, &mut out)?;
        }
        out.push("}\n");
        Ok(out.text)
    }

    /// The checked text of `e`, whose failures name `what` at the current line.
    fn expr(&self, e: &Expr, what: &str, out: &Lines) -> Result<String, CheckedError> {
        let c = self.emitter;
        let ast = c.c_ast(e).map_err(|e| CheckedError::Print(e.to_string()))?;
        let site = string_literal(&format!(
            "line {} of the generated code, {what}: {}",
            out.line,
            ast.text(c.vars, Lang::C)
        ));
        Ok(render_checked(&ast.folded(), &site, c.vars, Lang::C))
    }

    fn node(&self, n: &Node, depth: usize, out: &mut Lines) -> Result<(), CheckedError> {
        let c = self.emitter;
        let pad = "  ".repeat(depth);
        match n {
            Node::Stmt { stmt, args } => {
                let name = &c.statements[*stmt].0;
                let args: Result<Vec<String>, _> = args
                    .iter()
                    .enumerate()
                    .map(|(k, a)| self.expr(a, &format!("argument {} of {name}", k + 1), out))
                    .collect();
                out.push(&format!("{pad}{name}({});\n", args?.join(", ")));
            }
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                let x = c.vars.name(*var);
                let lo = self.expr(lower, &format!("lower bound of the loop over {x}"), out)?;
                let hi = self.expr(upper, &format!("upper bound of the loop over {x}"), out)?;
                let inc = string_literal(&format!(
                    "line {} of the generated code, increment of the loop over {x}",
                    out.line
                ));
                // A constant upper bound below INT64_MAX needs no check.
                let constant = upper
                    .constant_value()
                    .and_then(|v| v.to_i64())
                    .is_some_and(|v| v < i64::MAX);
                let cond = if *step > 1 {
                    // `x += step` after the last iteration: upper + step - 1 must stay
                    // below INT64_MAX; the comparison itself is with the upper bound.
                    format!(
                        "(ps_upper_ck(ps_add_ck({hi}, {}, {inc}), {inc}), {hi})",
                        step - 1
                    )
                } else if constant {
                    hi
                } else {
                    format!("ps_upper_ck({hi}, {inc})")
                };
                out.push(&format!(
                    "{pad}for (int64_t {x} = {lo}; {x} <= {cond}; {x} += {step})"
                ));
                self.block(body, depth, out)?;
            }
            Node::Guard { .. } => {
                // One `if` per chain, as the plain printer writes it.
                let Some((chain, body)) = n.guard_chain() else {
                    unreachable!("a guard has a chain")
                };
                let mut conds = Vec::new();
                for (var, lower, upper) in chain {
                    let p = c.vars.name(var);
                    if let Some(l) = lower {
                        conds.push(format!(
                            "{p} >= {}",
                            self.expr(l, &format!("guard {p} >= ..."), out)?
                        ));
                    }
                    if let Some(u) = upper {
                        conds.push(format!(
                            "{p} <= {}",
                            self.expr(u, &format!("guard {p} <= ..."), out)?
                        ));
                    }
                }
                out.push(&format!("{pad}if ({})", conds.join(" && ")));
                self.block(body, depth, out)?;
            }
            Node::Test { cond, body } => {
                let text = cond.text(&mut |e| self.expr(e, "condition", out))?;
                out.push(&format!("{pad}if ({text})"));
                self.block(body, depth, out)?;
            }
        }
        Ok(())
    }

    fn block(&self, body: &[Node], depth: usize, out: &mut Lines) -> Result<(), CheckedError> {
        if body.len() == 1 {
            out.push("\n");
            self.node(&body[0], depth + 1, out)
        } else {
            out.push(" {\n");
            for n in body {
                self.node(n, depth + 1, out)?;
            }
            out.push(&format!("{}}}\n", "  ".repeat(depth)));
            Ok(())
        }
    }
}
