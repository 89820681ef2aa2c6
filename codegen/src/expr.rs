//! [`Expr`]: the integer expressions of generated loop bounds, exact by construction:
//! polynomials, floor and ceiling divisions by positive divisors, integer square roots,
//! max and min. Evaluated exactly here (big integers) and printed as C by `emit_c`.

use polys::{Coeff, Int, Poly};

/// An integer-valued expression over the problem's variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A polynomial with integer coefficients over the problem's variables.
    Poly(Poly),
    /// Sum of the parts.
    Sum(Vec<Expr>),
    /// The negation of the operand.
    Neg(Box<Expr>),
    /// A constant multiple of the operand (`4*ps_floord(m, 4)`, where a parameter's
    /// division has replaced a variable).
    Scaled(Int, Box<Expr>),
    /// `floor(num / den)`; `den > 0` wherever the expression is evaluated.
    FloorDiv(Box<Expr>, Poly),
    /// `ceil(num / den)`; `den > 0` wherever the expression is evaluated.
    CeilDiv(Box<Expr>, Poly),
    /// `floor(sqrt(arg))`; -1 where `arg < 0` (a bound from a root that is not real makes
    /// its loop empty).
    Isqrt(Poly),
    /// `ceil(sqrt(arg))`; 0 where `arg <= 0`.
    CeilSqrt(Poly),
    /// `floor(arg^(1/k))` or, with `ceil`, `ceil(arg^(1/k))`, `k >= 2`; of a negative
    /// argument the real root for odd `k`, and -1 (floor) or 0 (ceiling) for even `k`.
    Root {
        /// The radicand.
        arg: Box<Expr>,
        /// The root's order, at least 2.
        k: u32,
        /// Round up instead of down.
        ceil: bool,
    },
    /// The least integer at or above a lower bound `l` that is congruent to `residue`
    /// modulo `step`: `step*ceil(offset/step) + residue` with `offset = l - residue`, the
    /// first value of a strided loop (`step >= 2`).
    Aligned {
        /// The lower bound minus the residue.
        offset: Box<Expr>,
        /// The residue the loop's values have modulo `step`.
        residue: Poly,
        /// The loop's step.
        step: i64,
    },
    /// The largest of the parts (e.g. a lower bound that is the max of several).
    Max(Vec<Expr>),
    /// The smallest of the parts (e.g. an upper bound that is the min of several).
    Min(Vec<Expr>),
    /// `floor` (or, with `ceil`, the ceiling) of the unique root in `(L, U]` of
    /// `sum coeffs[i] y^i`, where `lo = floor(L)`, `hi = floor(U)` and the polynomial has
    /// sign `before` between `L` and the root and the opposite sign from the root to `U`:
    /// found by bisection on the sign at the integers `lo + 1 ..= hi`. Roots of degree 3
    /// and more, with separators `L`, `U` from the CAD (roots of the derivative), constant
    /// sections or the critical points of a cubic (searches themselves), and roots whose
    /// closed form would overflow (see `crate::bracket`).
    RootSearch {
        /// Coefficients of the searched polynomial in `y`, constant term first, as
        /// polynomials in the outer variables.
        coeffs: Vec<Poly>,
        /// `floor(L)` of the lower separator `L`.
        lo: Box<Expr>,
        /// `floor(U)` of the upper separator `U`.
        hi: Box<Expr>,
        /// The polynomial's sign (-1 or 1) between `L` and the root.
        before: i32,
        /// Return the ceiling of the root instead of its floor.
        ceil: bool,
    },
}

/// Why an expression could not be evaluated (a bug in the generator if it happens on a
/// point the expression guards).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    /// The divisor of a [`Expr::FloorDiv`] or [`Expr::CeilDiv`] was zero or negative at
    /// the point.
    NonPositiveDivisor,
}

impl Expr {
    /// The integer constant `v`.
    pub fn constant(v: i64) -> Expr {
        Expr::Poly(Poly::from_i64(v))
    }

    /// `self + c`, folding into a polynomial when possible.
    pub fn plus(self, c: i64) -> Expr {
        match self {
            Expr::Poly(p) => Expr::Poly(p.add(&Poly::from_i64(c))),
            Expr::Sum(mut parts) => {
                match parts.iter_mut().find_map(|e| match e {
                    Expr::Poly(p) => Some(p),
                    _ => None,
                }) {
                    Some(p) => *p = p.add(&Poly::from_i64(c)),
                    None => parts.push(Expr::constant(c)),
                }
                Expr::Sum(parts)
            }
            e => Expr::Sum(vec![e, Expr::constant(c)]),
        }
    }

    /// The polynomial, when the expression is one.
    pub fn as_poly(&self) -> Option<&Poly> {
        match self {
            Expr::Poly(p) => Some(p),
            _ => None,
        }
    }

    /// Exact value at `point` (indexed by variable).
    pub fn eval(&self, point: &[Int]) -> Result<Int, EvalError> {
        Ok(match self {
            Expr::Poly(p) => p.eval(point),
            Expr::Sum(parts) => {
                let mut acc = Int::from(0);
                for e in parts {
                    acc = acc.add(&e.eval(point)?);
                }
                acc
            }
            Expr::Neg(e) => e.eval(point)?.neg(),
            Expr::Scaled(k, e) => e.eval(point)?.mul(k),
            Expr::FloorDiv(n, d) | Expr::CeilDiv(n, d) => {
                let (n, d) = (n.eval(point)?, d.eval(point));
                if d.signum() <= 0 {
                    return Err(EvalError::NonPositiveDivisor);
                }
                let (q, r) = n.div_mod_floor(&d);
                if matches!(self, Expr::CeilDiv(..)) && !r.is_zero() {
                    q.add(&Int::from(1))
                } else {
                    q
                }
            }
            Expr::Aligned {
                offset,
                residue,
                step,
            } => {
                let m = Int::from(*step);
                // The offset rounded up to a multiple of m, plus the residue.
                let (q, rem) = offset.eval(point)?.div_mod_floor(&m);
                let q = if rem.is_zero() {
                    q
                } else {
                    q.add(&Int::from(1))
                };
                q.mul(&m).add(&residue.eval(point))
            }
            Expr::Isqrt(a) => integer_root(&a.eval(point), 2, false),
            Expr::CeilSqrt(a) => integer_root(&a.eval(point), 2, true),
            Expr::Root { arg, k, ceil } => integer_root(&arg.eval(point)?, *k, *ceil),
            Expr::RootSearch {
                coeffs,
                lo,
                hi,
                before,
                ceil,
            } => {
                let c: Vec<Int> = coeffs.iter().map(|p| p.eval(point)).collect();
                let sign = |y: &Int| {
                    let mut acc = Int::from(0);
                    for ci in c.iter().rev() {
                        acc = acc.mul(y).add(ci);
                    }
                    acc.signum()
                };
                let (lo, hi) = (lo.eval(point)?, hi.eval(point)?);
                let one = Int::from(1);
                // The largest integer in lo+1..=hi still before the root, else lo.
                let (mut a, mut b, mut ans) = (lo.add(&one), hi.clone(), lo);
                while a <= b {
                    let mid = a.add(&b).div_mod_floor(&Int::from(2)).0;
                    if sign(&mid) == *before {
                        a = mid.add(&one);
                        ans = mid;
                    } else {
                        b = mid.sub(&one);
                    }
                }
                // The root is in (ans, ans + 1]: an integer root is its own floor.
                let next = ans.add(&one);
                let exact = next <= hi && sign(&next) == 0;
                if exact || *ceil {
                    next
                } else {
                    ans
                }
            }
            Expr::Max(es) | Expr::Min(es) => {
                let mut best: Option<Int> = None;
                for e in es {
                    let v = e.eval(point)?;
                    best = Some(match best {
                        None => v,
                        Some(b) => {
                            if matches!(self, Expr::Max(_)) == (v > b) {
                                v
                            } else {
                                b
                            }
                        }
                    });
                }
                best.unwrap_or_else(|| Int::from(0))
            }
        })
    }

    /// Adds the variables the expression reads to `out`.
    pub fn vars_into(&self, out: &mut std::collections::BTreeSet<usize>) {
        let poly = |p: &Poly, out: &mut std::collections::BTreeSet<usize>| out.extend(p.vars());
        match self {
            Expr::Poly(p) | Expr::Isqrt(p) | Expr::CeilSqrt(p) => poly(p, out),
            Expr::Sum(v) | Expr::Max(v) | Expr::Min(v) => v.iter().for_each(|x| x.vars_into(out)),
            Expr::Neg(x) | Expr::Scaled(_, x) | Expr::Root { arg: x, .. } => x.vars_into(out),
            Expr::FloorDiv(x, d) | Expr::CeilDiv(x, d) => {
                x.vars_into(out);
                poly(d, out);
            }
            Expr::Aligned {
                offset, residue, ..
            } => {
                offset.vars_into(out);
                poly(residue, out);
            }
            Expr::RootSearch { coeffs, lo, hi, .. } => {
                coeffs.iter().for_each(|c| poly(c, out));
                lo.vars_into(out);
                hi.vars_into(out);
            }
        }
    }

    /// Adds the polynomials the expression evaluates (arguments, divisors, coefficients)
    /// to `out`.
    pub fn polys_into<'a>(&'a self, out: &mut Vec<&'a Poly>) {
        match self {
            Expr::Poly(p) | Expr::Isqrt(p) | Expr::CeilSqrt(p) => out.push(p),
            Expr::Sum(v) | Expr::Max(v) | Expr::Min(v) => v.iter().for_each(|x| x.polys_into(out)),
            Expr::Neg(x) | Expr::Scaled(_, x) | Expr::Root { arg: x, .. } => x.polys_into(out),
            Expr::FloorDiv(x, d) | Expr::CeilDiv(x, d) => {
                x.polys_into(out);
                out.push(d);
            }
            Expr::Aligned {
                offset, residue, ..
            } => {
                offset.polys_into(out);
                out.push(residue);
            }
            Expr::RootSearch { coeffs, lo, hi, .. } => {
                out.extend(coeffs);
                lo.polys_into(out);
                hi.polys_into(out);
            }
        }
    }

    /// Whether the expression reads variable `v`.
    pub fn reads(&self, v: usize) -> bool {
        let mut vs = std::collections::BTreeSet::new();
        self.vars_into(&mut vs);
        vs.contains(&v)
    }

    /// The highest variable the expression reads, plus one.
    pub fn nvars(&self) -> usize {
        match self {
            Expr::Poly(p) | Expr::Isqrt(p) | Expr::CeilSqrt(p) => p.nvars(),
            Expr::Sum(es) | Expr::Max(es) | Expr::Min(es) => {
                es.iter().map(Expr::nvars).max().unwrap_or(0)
            }
            Expr::FloorDiv(n, d) | Expr::CeilDiv(n, d) => n.nvars().max(d.nvars()),
            Expr::Neg(e) | Expr::Scaled(_, e) | Expr::Root { arg: e, .. } => e.nvars(),
            Expr::Aligned {
                offset, residue, ..
            } => offset.nvars().max(residue.nvars()),
            Expr::RootSearch { coeffs, lo, hi, .. } => coeffs
                .iter()
                .map(Poly::nvars)
                .chain([lo.nvars(), hi.nvars()])
                .max()
                .unwrap_or(0),
        }
    }

    /// Replaces variable `var` by `value` everywhere; an expression left without
    /// variables is folded to its value.
    pub fn subst(&self, var: usize, value: &Poly) -> Expr {
        let e = self.subst_unfolded(var, value);
        match e.constant_value() {
            Some(v) if !matches!(e, Expr::Poly(_)) => Expr::Poly(Poly::constant(v)),
            _ => e,
        }
    }

    fn subst_unfolded(&self, var: usize, value: &Poly) -> Expr {
        self.map_polys(&|p: &Poly| p.subst(var, value))
    }

    /// The expression with its variables renamed, `v` to `map[v]`.
    pub fn rename(&self, map: &[usize]) -> Expr {
        self.map_polys(&|p: &Poly| p.rename(map))
    }

    /// The expression with `f` applied to every polynomial in it (operands, divisors,
    /// residues, coefficients), the structure unchanged.
    pub fn map_polys(&self, f: &impl Fn(&Poly) -> Poly) -> Expr {
        let se = |es: &[Expr]| es.iter().map(|e| e.map_polys(f)).collect();
        let sb = |e: &Expr| Box::new(e.map_polys(f));
        match self {
            Expr::Poly(p) => Expr::Poly(f(p)),
            Expr::Sum(es) => Expr::Sum(se(es)),
            Expr::Neg(e) => Expr::Neg(sb(e)),
            Expr::Scaled(k, e) => Expr::Scaled(k.clone(), sb(e)),
            Expr::FloorDiv(n, d) => Expr::FloorDiv(sb(n), f(d)),
            Expr::CeilDiv(n, d) => Expr::CeilDiv(sb(n), f(d)),
            Expr::Aligned {
                offset,
                residue,
                step,
            } => Expr::Aligned {
                offset: sb(offset),
                residue: f(residue),
                step: *step,
            },
            Expr::Isqrt(p) => Expr::Isqrt(f(p)),
            Expr::CeilSqrt(p) => Expr::CeilSqrt(f(p)),
            Expr::Root { arg, k, ceil } => Expr::Root {
                arg: sb(arg),
                k: *k,
                ceil: *ceil,
            },
            Expr::Max(es) => Expr::Max(se(es)),
            Expr::Min(es) => Expr::Min(se(es)),
            Expr::RootSearch {
                coeffs,
                lo,
                hi,
                before,
                ceil,
            } => Expr::RootSearch {
                coeffs: coeffs.iter().map(f).collect(),
                lo: sb(lo),
                hi: sb(hi),
                before: *before,
                ceil: *ceil,
            },
        }
    }

    /// Replaces variable `var` by the expression `value` where `var` occurs linearly with a
    /// constant coefficient in a part that can hold an expression (`4*q + c0` becomes
    /// `4*value + c0`); `None` where it occurs otherwise (in a divisor, a residue, under a
    /// square root of a polynomial, non-linearly).
    pub fn subst_expr(&self, var: usize, value: &Expr) -> Option<Expr> {
        if !self.reads(var) {
            return Some(self.clone());
        }
        let se = |es: &[Expr]| -> Option<Vec<Expr>> {
            es.iter().map(|e| e.subst_expr(var, value)).collect()
        };
        let sb = |e: &Expr| -> Option<Box<Expr>> { Some(Box::new(e.subst_expr(var, value)?)) };
        let free = |p: &Poly| (p.degree(var) == 0).then_some(());
        Some(match self {
            Expr::Poly(p) => {
                if p.degree(var) != 1 {
                    return None;
                }
                let cs = p.coeffs(var);
                let k = cs[1].constant_value()?;
                let term = if k.is_one() {
                    value.clone()
                } else if k.neg().is_one() {
                    Expr::Neg(Box::new(value.clone()))
                } else {
                    Expr::Scaled(k, Box::new(value.clone()))
                };
                if cs[0].is_zero() {
                    term
                } else {
                    Expr::Sum(vec![Expr::Poly(cs[0].clone()), term])
                }
            }
            Expr::Sum(es) => Expr::Sum(se(es)?),
            Expr::Max(es) => Expr::Max(se(es)?),
            Expr::Min(es) => Expr::Min(se(es)?),
            Expr::Neg(e) => Expr::Neg(sb(e)?),
            Expr::Scaled(k, e) => Expr::Scaled(k.clone(), sb(e)?),
            Expr::FloorDiv(n, d) => {
                free(d)?;
                Expr::FloorDiv(sb(n)?, d.clone())
            }
            Expr::CeilDiv(n, d) => {
                free(d)?;
                Expr::CeilDiv(sb(n)?, d.clone())
            }
            Expr::Aligned {
                offset,
                residue,
                step,
            } => {
                free(residue)?;
                Expr::Aligned {
                    offset: sb(offset)?,
                    residue: residue.clone(),
                    step: *step,
                }
            }
            Expr::Root { arg, k, ceil } => Expr::Root {
                arg: sb(arg)?,
                k: *k,
                ceil: *ceil,
            },
            Expr::Isqrt(_) | Expr::CeilSqrt(_) | Expr::RootSearch { .. } => return None,
        })
    }

    /// The expression with every variable-free part replaced by its value
    /// (`ps_isqrt(4)` becomes `2`).
    pub fn fold_constants(self) -> Expr {
        if !matches!(self, Expr::Poly(_)) {
            if let Some(v) = self.constant_value() {
                return Expr::Poly(Poly::constant(v));
            }
        }
        let fold = |es: Vec<Expr>| es.into_iter().map(Expr::fold_constants).collect();
        match self {
            Expr::Sum(es) => Expr::Sum(fold(es)),
            Expr::Max(es) => Expr::Max(fold(es)),
            Expr::Min(es) => Expr::Min(fold(es)),
            Expr::Neg(e) => Expr::Neg(Box::new(e.fold_constants())),
            Expr::Scaled(k, e) => Expr::Scaled(k, Box::new(e.fold_constants())),
            // 0 divided by a positive divisor (`ps_ceild(0, a)`) is 0.
            Expr::FloorDiv(n, _) | Expr::CeilDiv(n, _)
                if n.constant_value().is_some_and(|v| v.is_zero()) =>
            {
                Expr::constant(0)
            }
            Expr::FloorDiv(n, d) => Expr::FloorDiv(Box::new(n.fold_constants()), d),
            Expr::CeilDiv(n, d) => Expr::CeilDiv(Box::new(n.fold_constants()), d),
            Expr::Root { arg, k, ceil } => Expr::Root {
                arg: Box::new(arg.fold_constants()),
                k,
                ceil,
            },
            Expr::Aligned {
                offset,
                residue,
                step,
            } => Expr::Aligned {
                offset: Box::new(offset.fold_constants()),
                residue,
                step,
            },
            Expr::RootSearch {
                coeffs,
                lo,
                hi,
                before,
                ceil,
            } => Expr::RootSearch {
                coeffs,
                lo: Box::new(lo.fold_constants()),
                hi: Box::new(hi.fold_constants()),
                before,
                ceil,
            },
            e => e,
        }
    }

    /// The value when the expression reads no variable.
    pub fn constant_value(&self) -> Option<Int> {
        if self.nvars() == 0 {
            self.eval(&[]).ok()
        } else {
            None
        }
    }
}

/// `floor(v^(1/k))` (or the ceiling) with the helpers' convention for negative `v`: the
/// real root for odd `k`; -1 rounded down and 0 rounded up for even `k`.
fn integer_root(v: &Int, k: u32, ceil: bool) -> Int {
    if v.signum() < 0 {
        return if k % 2 == 1 {
            integer_root(&v.neg(), k, !ceil).neg()
        } else if ceil {
            Int::from(0)
        } else {
            Int::from(-1)
        };
    }
    let r = Int::from(v.to_bigint().nth_root(k));
    if ceil && &r.pow(k) != v {
        r.add(&Int::from(1))
    } else {
        r
    }
}

/// `floor((g*A + b) / (g*D))` as `floor((A + floor(b / g)) / D)` (with `ceil` likewise),
/// where `g > 0` divides `D` and every non-constant coefficient of the numerator: nested
/// rounded divisions by positive integers compose exactly. Keeps coefficients small, and
/// within 64 bits when the input scaled a constraint by a huge factor. `den > 0` wherever
/// the division is evaluated.
pub fn reduce_division(num: &Poly, den: &Poly, ceil: bool) -> (Poly, Poly) {
    let b = num.eval(&vec![Int::from(0); num.nvars()]);
    let rest = num.sub(&Poly::constant(b.clone()));
    let g = rest.integer_content().gcd(&den.integer_content());
    if g.signum() <= 0 || g.is_one() {
        return (num.clone(), den.clone());
    }
    let (q, r) = b.div_mod_floor(&g);
    let b = if ceil && !r.is_zero() {
        q.add(&Int::from(1))
    } else {
        q
    };
    (
        rest.div_scalar_exact(&g).add(&Poly::constant(b)),
        den.div_scalar_exact(&g),
    )
}
