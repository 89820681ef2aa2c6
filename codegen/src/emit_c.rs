//! C emission: an isl-style fragment, or a self-contained C99 function `scan(...)`.
//!
//! Bounds use small exact helpers (`ps_floord`, `ps_ceild`, `ps_isqrt`, `ps_ceil_sqrt`,
//! `ps_max`, `ps_min`) on `int64_t`; no floating point anywhere.

use crate::ast::Node;
use crate::expr::Expr;
use polys::{CPrintError, Coeff, Poly, Vars};
use std::fmt::Write;

/// The helper functions, as C99 `static inline` definitions.
pub const HELPERS: &str = r#"/* Exact integer helpers: d > 0 in divisions, n >= 0 in square roots. */
static inline int64_t ps_floord(int64_t n, int64_t d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
static inline int64_t ps_ceild(int64_t n, int64_t d) { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
static inline int64_t ps_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t ps_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t ps_isqrt(int64_t n) {
  if (n < 2) return n;
  /* Newton's iteration from above on integers: converges to floor(sqrt(n)). */
  uint64_t x = (uint64_t)n;
  uint64_t r = (uint64_t)1 << ((64 - __builtin_clzll(x) + 1) / 2);
  for (;;) {
    uint64_t y = (r + x / r) / 2;
    if (y >= r) return (int64_t)r;
    r = y;
  }
}
static inline int64_t ps_ceil_sqrt(int64_t n) { int64_t s = ps_isqrt(n); return s * s == n ? s : s + 1; }
/* b^k <= n for b >= 0, without overflow. */
static inline int ps_pow_le(int64_t b, int k, int64_t n) {
  int64_t r = 1;
  for (int i = 0; i < k; i++) { if (b != 0 && r > n / b) return 0; r *= b; }
  return 1;
}
/* floor(n^(1/k)) for n >= 0: doubling, then bisection keeping lo^k <= n < hi^k. */
static inline int64_t ps_iroot(int64_t n, int k) {
  if (n < 2) return n;
  int64_t lo = 1, hi = 2;
  while (ps_pow_le(hi, k, n)) { lo = hi; hi *= 2; }
  while (hi - lo > 1) { int64_t mid = lo + (hi - lo) / 2; if (ps_pow_le(mid, k, n)) lo = mid; else hi = mid; }
  return lo;
}
static inline int64_t ps_ceil_iroot(int64_t n, int k) {
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
    pub vars: &'a Vars,
    pub nparams: usize,
    /// Statement names and their number of iterators.
    pub statements: &'a [(String, usize)],
}

impl CEmitter<'_> {
    /// The loop nest as a fragment: parameters are `int64_t` variables in scope.
    pub fn fragment(&self, nodes: &[Node]) -> Result<String, CPrintError> {
        let mut out = String::new();
        if nodes.is_empty() {
            out.push_str("/* empty domain: no statement instance */\n");
        }
        for n in nodes {
            self.node(n, 0, &mut out)?;
        }
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
        for n in nodes {
            self.node(n, 1, &mut out)?;
        }
        out.push_str("}\n");
        Ok(out)
    }

    fn node(&self, n: &Node, depth: usize, out: &mut String) -> Result<(), CPrintError> {
        let pad = "  ".repeat(depth);
        match n {
            Node::Stmt { stmt, args } => {
                let name = &self.statements[*stmt].0;
                let args: Result<Vec<String>, _> = args.iter().map(|a| self.expr(a)).collect();
                let _ = writeln!(out, "{pad}{name}({});", args?.join(", "));
            }
            Node::Loop {
                var,
                lower,
                upper,
                body,
            } => {
                let x = self.vars.name(*var);
                let (lo, hi) = (self.expr(lower)?, self.expr(upper)?);
                let _ = write!(out, "{pad}for (int64_t {x} = {lo}; {x} <= {hi}; {x} += 1)");
                self.block(body, depth, out)?;
            }
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => {
                let conds = self.guard_conditions(*var, lower, upper)?;
                let _ = write!(out, "{pad}if ({})", conds.join(" && "));
                self.block(body, depth, out)?;
            }
        }
        Ok(())
    }

    /// `p >= lower` and `p <= upper` for the sides a guard has.
    pub fn guard_conditions(
        &self,
        var: usize,
        lower: &Option<Expr>,
        upper: &Option<Expr>,
    ) -> Result<Vec<String>, CPrintError> {
        let p = self.vars.name(var);
        let mut conds = Vec::new();
        if let Some(l) = lower {
            conds.push(format!("{p} >= {}", self.expr(l)?));
        }
        if let Some(u) = upper {
            conds.push(format!("{p} <= {}", self.expr(u)?));
        }
        Ok(conds)
    }

    fn block(&self, body: &[Node], depth: usize, out: &mut String) -> Result<(), CPrintError> {
        if body.len() == 1 {
            out.push('\n');
            self.node(&body[0], depth + 1, out)
        } else {
            out.push_str(" {\n");
            for n in body {
                self.node(n, depth + 1, out)?;
            }
            let _ = writeln!(out, "{}}}", "  ".repeat(depth));
            Ok(())
        }
    }

    /// `ps_floord(n, d)` or `ps_ceild(n, d)`, with a common factor of `d` and of the
    /// numerator's non-constant part divided out first (exact, see
    /// [`crate::expr::reduce_division`]): coefficients scaled beyond 64 bits by a huge
    /// common factor still print.
    fn division(&self, n: &Expr, d: &Poly, ceil: bool) -> Result<(String, bool), CPrintError> {
        let f = if ceil { "ps_ceild" } else { "ps_floord" };
        if let Expr::Poly(p) = n {
            let (p, d) = crate::expr::reduce_division(p, d, ceil);
            if d.is_one() {
                return self.printed(&Expr::Poly(p));
            }
            let text = format!(
                "{f}({}, {})",
                self.expr(&Expr::Poly(p))?,
                d.to_c(self.vars)?
            );
            return Ok((text, false));
        }
        Ok((
            format!("{f}({}, {})", self.expr(n)?, d.to_c(self.vars)?),
            false,
        ))
    }

    /// A C expression; sums are parenthesised wherever they are operands.
    pub fn expr(&self, e: &Expr) -> Result<String, CPrintError> {
        Ok(self.printed(e)?.0)
    }

    /// The text and whether it is a sum or difference at the top (so needs parentheses
    /// as the operand of `-` or of a product).
    fn printed(&self, e: &Expr) -> Result<(String, bool), CPrintError> {
        let paren = |(t, is_sum): (String, bool)| if is_sum { format!("({t})") } else { t };
        Ok(match e {
            Expr::Poly(p) => match p.constant_value().and_then(|c| c.to_i64()) {
                Some(c) if c != i64::MIN => (c.to_string(), false),
                _ => (p.to_c(self.vars)?, p.len() > 1),
            },
            Expr::Sum(parts) => {
                let mut s = String::new();
                for p in parts {
                    let (neg, term) = match p {
                        Expr::Neg(inner) => (true, &**inner),
                        _ => (false, p),
                    };
                    if let Some(c) = term.constant_value() {
                        if c.is_zero() {
                            continue;
                        }
                    }
                    let (t, is_sum) = self.printed(term)?;
                    if s.is_empty() {
                        if neg {
                            s = format!("-{}", paren((t, is_sum)));
                        } else {
                            s = t;
                        }
                    } else if neg {
                        s = format!("{s} - {}", paren((t, is_sum)));
                    } else if let Some(rest) = t.strip_prefix('-') {
                        s = format!("{s} - {rest}");
                    } else {
                        s = format!("{s} + {t}");
                    }
                }
                if s.is_empty() {
                    ("0".into(), false)
                } else {
                    (s, true)
                }
            }
            Expr::Neg(inner) => (format!("-{}", paren(self.printed(inner)?)), false),
            Expr::FloorDiv(n, d) => self.division(n, d, false)?,
            Expr::CeilDiv(n, d) => self.division(n, d, true)?,
            Expr::Isqrt(p) => (format!("ps_isqrt({})", p.to_c(self.vars)?), false),
            Expr::CeilSqrt(p) => (format!("ps_ceil_sqrt({})", p.to_c(self.vars)?), false),
            Expr::Root { arg, k, ceil } => {
                let f = if *ceil { "ps_ceil_iroot" } else { "ps_iroot" };
                (format!("{f}({}, {k})", self.expr(arg)?), false)
            }
            Expr::RootSearch {
                coeffs,
                lo,
                hi,
                before,
                ceil,
            } => {
                let mut args = Vec::with_capacity(coeffs.len() + 4);
                for c in coeffs {
                    args.push(self.expr(&Expr::Poly(c.clone()))?);
                }
                args.push(self.expr(lo)?);
                args.push(self.expr(hi)?);
                args.push(before.to_string());
                args.push((*ceil as i32).to_string());
                let n = coeffs.len();
                (
                    format!(
                        "ps_root_search({}, (const int64_t[]){{{}}}, {})",
                        n - 1,
                        args[..n].join(", "),
                        args[n..].join(", ")
                    ),
                    false,
                )
            }
            Expr::Max(es) | Expr::Min(es) => {
                let f = if matches!(e, Expr::Max(_)) {
                    "ps_max"
                } else {
                    "ps_min"
                };
                let mut it = es.iter();
                let first = it
                    .next()
                    .map(|x| self.expr(x))
                    .transpose()?
                    .unwrap_or_else(|| "0".into());
                let mut acc = first;
                for x in it {
                    acc = format!("{f}({acc}, {})", self.expr(x)?);
                }
                (acc, false)
            }
        })
    }
}
