//! Integer loop bounds from CAD roots: the floor or ceiling of the `j`-th real root of a
//! basis polynomial over a cell, as an exact [`Expr`].
//!
//! Over a cell of positive dimension the root is a function of the outer variables:
//! degree 1 gives a floor/ceiling division, degree 2 the quadratic formula with an exact
//! integer square root (`floor((-b + isqrt(D)) / 2a)` is exact because flooring commutes
//! with division by a positive integer). Over a 0-dimensional cell every outer coordinate
//! is a fixed integer (the lifting prunes the others), so the bound is a constant computed
//! from the algebraic root itself.

use crate::expr::Expr;
use cad::lift::{Bound, Cell, CellKind};
use cad::{sign_at, Algebraic, SignStats};
use polys::{Coeff, Int, Poly};
use std::cell::RefCell;
use thiserror::Error;

/// How a root becomes an integer bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// Smallest integer strictly above the root: `floor(r) + 1`.
    StrictLower,
    /// Smallest integer at or above: `ceil(r)`.
    Lower,
    /// Largest integer at or below: `floor(r)`.
    Upper,
    /// Largest integer strictly below: `ceil(r) - 1`.
    StrictUpper,
}

/// Bounds that cannot (yet) be written exactly.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoundError {
    #[error("a loop bound is a root of degree {degree} in {var}; exact bounds of degree 3 and more are supported only for x^k = value (binomials) so far")]
    Degree {
        degree: u32,
        var: String,
        /// The polynomial whose root it is (its derivative's roots would separate it).
        poly: Box<Poly>,
    },
    #[error("internal: {0}")]
    Internal(String),
}

/// Where a root lives: the parent cell's sample and whether that cell is a point, and
/// the stack over it (for roots of degree 3 and more, whose separators are the roots of
/// the derivative's factors in the same stack).
pub struct RootSite<'a> {
    pub prefix: &'a [Algebraic],
    pub zero_dim: bool,
    pub stats: &'a SignStats,
    /// The cells of the stack, bottom to top.
    pub stack: &'a [Cell],
    /// The level's basis polynomials (what `RootRef::poly` indexes).
    pub basis: &'a [Poly],
    /// Number of real roots of each basis polynomial over the parent cell.
    pub nroots: &'a [usize],
    /// Where the sign queries about the site are recorded, for a caller that memoises
    /// bounds (see [`Transcript`]).
    pub transcript: Option<&'a RefCell<Transcript>>,
}

/// The sign queries [`root_bound`] asked about its site, with their answers. Apart from
/// the polynomial, the root's index and count and the rounding, those answers are all a
/// bound over a cell of positive dimension depends on: at another cell where every query
/// has the same answer, the same code path builds the same expression, so a caller may
/// reuse it instead of redoing the polynomial arithmetic (discriminants, square-root
/// tests, content removal) that dominates lowering. `opaque`: the bound also read the
/// stack (roots of degree 3 and more), and must not be reused.
#[derive(Debug, Default)]
pub struct Transcript {
    pub queries: Vec<(Poly, i32)>,
    pub opaque: bool,
}

impl RootSite<'_> {
    /// The sign of `p` at the parent cell's sample, recorded in the transcript.
    fn sign(&self, p: &Poly) -> Result<i32, BoundError> {
        let s =
            sign_at(p, self.prefix, self.stats).map_err(|e| BoundError::Internal(e.to_string()))?;
        if let Some(t) = self.transcript {
            t.borrow_mut().queries.push((p.clone(), s));
        }
        Ok(s)
    }
}

/// The bound for root `j` (1-based) of `f` in variable `k = site.prefix.len()`, where `f`
/// has `m` distinct real roots over the cell and `value` is the root at the sample.
pub fn root_bound(
    f: &Poly,
    j: usize,
    m: usize,
    value: &Algebraic,
    site: &RootSite,
    round: Round,
    var_name: &str,
) -> Result<Expr, BoundError> {
    if site.zero_dim {
        let v = match round {
            Round::StrictLower => value.floor() + 1,
            Round::Lower => value.ceil(),
            Round::Upper => value.floor(),
            Round::StrictUpper => value.ceil() - 1,
        };
        return Ok(Expr::Poly(Poly::constant(Int::from(v))));
    }
    let k = site.prefix.len();
    let mut coeffs = f.coeffs(k);
    // Leading coefficients that vanish on the cell (all coefficients are projection
    // factors then, so they vanish on the whole cell) do not count.
    while let Some(c) = coeffs.last() {
        let s = site.sign(c)?;
        if s != 0 {
            if s < 0 {
                coeffs = coeffs.iter().map(Poly::neg).collect();
            }
            break;
        }
        coeffs.pop();
    }
    let floor_or_ceil = |r: Root, ceil: bool| r.rounded(ceil);
    let root = match coeffs.len() {
        2 => Root::Rational {
            num: coeffs[0].neg(),
            den: coeffs[1].clone(),
        },
        3 if m == 1 => Root::Rational {
            num: coeffs[1].neg(),
            den: coeffs[2].scale(&Int::from(2)),
        },
        3 => {
            let (a, b, c) = (&coeffs[2], &coeffs[1], &coeffs[0]);
            let disc = b.mul(b).sub(&a.mul(c).scale(&Int::from(4)));
            if let Some(q) = square_root(&disc) {
                // sqrt(q^2) = |q|, and q has one sign on the cell: no square root at run time.
                let s = site.sign(&q)?;
                let sq = if s < 0 { q.neg() } else { q };
                let num = if j == 2 {
                    b.neg().add(&sq)
                } else {
                    b.neg().sub(&sq)
                };
                return Ok(round_rational(num, a.scale(&Int::from(2)), round));
            }
            Root::Quadratic {
                b: b.clone(),
                two_a: a.scale(&Int::from(2)),
                disc,
                high: j == 2,
            }
            .simplified()
        }
        n if n >= 4 && coeffs[1..n - 1].iter().all(Poly::is_zero) => {
            // a x^e + c: x^e = -c/a, an integer e-th root of a rational function.
            let e = (n - 1) as u32;
            let (a, c) = (&coeffs[n - 1], &coeffs[0]);
            let sc = site.sign(c)?;
            // |x|^e = |c|/a; the root is -|.|^(1/e) for the lower of two roots or when
            // x^e is negative (odd e).
            let abs_c = if sc > 0 { c.clone() } else { c.neg() };
            let negative = sc > 0 || (e.is_multiple_of(2) && m == 2 && j == 1);
            return Ok(binomial_root(abs_c, a.clone(), e, negative, round));
        }
        n => {
            let unsupported = || BoundError::Degree {
                degree: n.saturating_sub(1) as u32,
                var: var_name.to_string(),
                poly: Box::new(f.clone()),
            };
            return root_search(f, &coeffs, j, site, round).ok_or_else(unsupported);
        }
    };
    Ok(match round {
        Round::StrictLower => floor_or_ceil(root, false).plus(1),
        Round::Lower => floor_or_ceil(root, true),
        Round::Upper => floor_or_ceil(root, false),
        Round::StrictUpper => floor_or_ceil(root, true).plus(-1),
    })
}

/// The bound for the root `±(num/den)^(1/e)` (num >= 0, den > 0 on the cell):
/// `floor(z) = floor(floor(y)^(1/e))` for `y >= 0` because `t -> t^(1/e)` is increasing
/// and crosses integers only at integer arguments; `floor(-z) = -ceil(z)`.
fn binomial_root(num: Poly, den: Poly, e: u32, negative: bool, round: Round) -> Expr {
    if num.is_zero() {
        // The root is 0 on the whole cell.
        return Expr::constant(match round {
            Round::StrictLower => 1,
            Round::StrictUpper => -1,
            Round::Lower | Round::Upper => 0,
        });
    }
    let z = |ceil: bool| {
        let y = Root::Rational {
            num: num.clone(),
            den: den.clone(),
        }
        .rounded(ceil);
        Expr::Root {
            arg: Box::new(y),
            k: e,
            ceil,
        }
    };
    // floor and ceil of the signed root.
    let floor = |()| {
        if negative {
            Expr::Neg(Box::new(z(true)))
        } else {
            z(false)
        }
    };
    let ceil = |()| {
        if negative {
            Expr::Neg(Box::new(z(false)))
        } else {
            z(true)
        }
    };
    match round {
        Round::StrictLower => floor(()).plus(1),
        Round::Lower => ceil(()),
        Round::Upper => floor(()),
        Round::StrictUpper => ceil(()).plus(-1),
    }
}

/// `num / den` (den > 0 on the cell) rounded as asked.
fn round_rational(num: Poly, den: Poly, round: Round) -> Expr {
    let r = |ceil| {
        Root::Rational {
            num: num.clone(),
            den: den.clone(),
        }
        .rounded(ceil)
    };
    match round {
        Round::StrictLower => r(false).plus(1),
        Round::Lower => r(true),
        Round::Upper => r(false),
        Round::StrictUpper => r(true).plus(-1),
    }
}

/// `q` with `q^2 = p`, when `p` is the square of a polynomial.
fn square_root(p: &Poly) -> Option<Poly> {
    if p.is_constant() {
        return None;
    }
    // A square takes square values: one non-square value at an integer point rules it out
    // before a square-free decomposition (most discriminants are no squares, and the
    // decomposition dominated the generation time of steinmetz).
    for shift in [0i64, 7] {
        // p at x_v = 3 + 2v + shift, term by term (no intermediate polynomials).
        let mut value = Int::zero();
        for (m, c) in p.terms() {
            let mut t = c.clone();
            for (v, &e) in m.exps().iter().enumerate() {
                if e > 0 {
                    t = t.mul(&Int::from(3 + 2 * v as i64 + shift).pow(e));
                }
            }
            value.add_assign(&t);
        }
        if value.signum() < 0 {
            return None;
        }
        let big = value.to_bigint();
        let r = big.sqrt();
        if &r * &r != big {
            return None;
        }
    }
    let (unit, factors) = p.square_free();
    if unit.signum() <= 0 || factors.iter().any(|(_, m)| m % 2 == 1) {
        return None;
    }
    let r = Int::from(unit.to_bigint().sqrt());
    if r.mul(&r) != unit {
        return None;
    }
    Some(
        factors
            .iter()
            .fold(Poly::constant(r), |acc, (f, m)| acc.mul(&f.pow(m / 2))),
    )
}

/// A root as a closed form over the outer variables.
enum Root {
    /// `num / den` with `den > 0` on the cell.
    Rational { num: Poly, den: Poly },
    /// `(-b - sqrt(disc)) / two_a` or, if `high`, `(-b + sqrt(disc)) / two_a`, with
    /// `two_a > 0` and `disc >= 0` on the cell.
    Quadratic {
        b: Poly,
        two_a: Poly,
        disc: Poly,
        high: bool,
    },
}

impl Root {
    /// Divides out a common factor `h` of `b` and `2a` with `h^2 | disc`.
    fn simplified(self) -> Root {
        let Root::Quadratic {
            b,
            two_a,
            disc,
            high,
        } = self
        else {
            return self;
        };
        let g = b.integer_content().gcd(&two_a.integer_content());
        let dc = disc.integer_content();
        let mut h = g.to_i64().unwrap_or(1).max(1);
        while h > 1 {
            let hh = Int::from(h);
            let h2 = hh.mul(&hh);
            if g.div_mod_floor(&hh).1.is_zero() && dc.div_mod_floor(&h2).1.is_zero() {
                return Root::Quadratic {
                    b: b.div_scalar_exact(&hh),
                    two_a: two_a.div_scalar_exact(&hh),
                    disc: disc.div_scalar_exact(&h2),
                    high,
                };
            }
            h -= 1;
        }
        Root::Quadratic {
            b,
            two_a,
            disc,
            high,
        }
    }

    /// `floor(root)` or `ceil(root)`.
    fn rounded(self, ceil: bool) -> Expr {
        match self {
            Root::Rational { num, den } => divide(Expr::Poly(num), den, ceil),
            Root::Quadratic {
                b,
                two_a,
                disc,
                high,
            } => {
                // floor((y)/n) = floor(floor(y)/n) and ceil(y/n) = ceil(ceil(y)/n) for n > 0:
                // round the numerator -b -+ sqrt(D) first, in the same direction.
                let sqrt = match (high, ceil) {
                    (true, false) | (false, true) => Expr::Isqrt(disc),
                    _ => Expr::CeilSqrt(disc),
                };
                let num = if high {
                    Expr::Sum(vec![Expr::Poly(b.neg()), sqrt])
                } else {
                    Expr::Sum(vec![Expr::Poly(b.neg()), Expr::Neg(Box::new(sqrt))])
                };
                divide(num, two_a, ceil)
            }
        }
    }
}

/// `num / den` rounded, simplified when the division is trivial or exact.
fn divide(num: Expr, den: Poly, ceil: bool) -> Expr {
    let (num, den) = match num {
        Expr::Poly(n) => {
            let (n, d) = crate::expr::reduce_division(&n, &den, ceil);
            (Expr::Poly(n), d)
        }
        other => (other, den),
    };
    if den.is_one() {
        return num;
    }
    if let (Expr::Poly(n), Some(d)) = (&num, den.constant_value()) {
        if n.integer_content().div_mod_floor(&d).1.is_zero() && d.signum() > 0 {
            return Expr::Poly(n.div_scalar_exact(&d));
        }
    }
    if ceil {
        Expr::CeilDiv(Box::new(num), den)
    } else {
        Expr::FloorDiv(Box::new(num), den)
    }
}

/// The bound for root `j` of `f` (degree 3 or more in `x_k`, leading coefficient made
/// positive in `coeffs`) by bisection at run time between separators read off the stack:
/// the nearest sections of factors of `df/dx_k` below and above the root (by Rolle's
/// theorem one lies between any two roots of `f`, so no other root of `f` is between
/// them), or a Cauchy bound where there is none. `None` if the stack has no section of
/// that root or `f` does not change sign there.
fn root_search(f: &Poly, coeffs: &[Poly], j: usize, site: &RootSite, round: Round) -> Option<Expr> {
    if let Some(t) = site.transcript {
        t.borrow_mut().opaque = true;
    }
    let k = site.prefix.len();
    let fi = site.basis.iter().position(|b| b == f)?;
    let holds = |c: &Cell, poly: usize| match &c.lower {
        Bound::Roots(refs) => refs.iter().find(|r| r.poly == poly).map(|r| r.root),
        _ => None,
    };
    let p = site
        .stack
        .iter()
        .position(|c| c.kind == CellKind::Section && holds(c, fi) == Some(j))?;
    let df = f.derivative(k);
    let factors: Vec<usize> = site
        .basis
        .iter()
        .enumerate()
        .filter(|(i, b)| *i != fi && b.degree(k) > 0 && df.div_exact(b).is_some())
        .map(|(i, _)| i)
        .collect();
    // Every root of the derivative must have its sections in the stack (the caller adds
    // the derivative to the projection otherwise), or a separator could be missed.
    let mut rest = df.clone();
    for &g in &factors {
        while let Some(q) = rest.div_exact(&site.basis[g]) {
            rest = q;
        }
    }
    if rest.degree(k) > 0 {
        return None;
    }
    // floor of the nearest derivative root among the given cells, if any.
    let separator = |cells: &mut dyn Iterator<Item = &Cell>| -> Option<Option<Expr>> {
        for c in cells {
            if c.kind != CellKind::Section {
                continue;
            }
            for &g in &factors {
                if let Some(root) = holds(c, g) {
                    let b = root_bound(
                        &site.basis[g],
                        root,
                        site.nroots[g],
                        &c.sample,
                        site,
                        Round::Upper,
                        "",
                    )
                    .ok()?;
                    return Some(Some(b));
                }
            }
        }
        Some(None)
    };
    let below = separator(&mut site.stack[..p].iter().rev())?;
    let above = separator(&mut site.stack[p + 1..].iter())?;
    // Cauchy: every root has |y| < 1 + sum |c_i| / |c_n| (c_n > 0 here).
    let n = coeffs.len() - 1;
    let abs_sum = Expr::Sum(
        coeffs[..n]
            .iter()
            .map(|c| Expr::Max(vec![Expr::Poly(c.clone()), Expr::Poly(c.neg())]))
            .collect(),
    );
    let cauchy = if coeffs[n].is_one() {
        abs_sum
    } else {
        Expr::CeilDiv(Box::new(abs_sum), coeffs[n].clone())
    }
    .plus(1);
    let lo = below.unwrap_or_else(|| Expr::Neg(Box::new(cauchy.clone())).plus(-1));
    let hi = above.unwrap_or(cauchy);
    let sign_in = |c: &Cell| {
        let mut point = site.prefix.to_vec();
        point.push(c.sample.clone());
        sign_at(f, &point, site.stats).ok()
    };
    // `coeffs` may be `-f` (made to lead positively on the cell).
    let flip = if coeffs[n] == f.coeffs(k)[n] { 1 } else { -1 };
    let before = flip * sign_in(site.stack.get(p.checked_sub(1)?)?)?;
    let after = flip * sign_in(site.stack.get(p + 1)?)?;
    if before == 0 || after != -before {
        return None;
    }
    let search = |ceil: bool| Expr::RootSearch {
        coeffs: coeffs.to_vec(),
        lo: Box::new(lo.clone()),
        hi: Box::new(hi.clone()),
        before,
        ceil,
    };
    Some(match round {
        Round::StrictLower => search(false).plus(1),
        Round::Lower => search(true),
        Round::Upper => search(false),
        Round::StrictUpper => search(true).plus(-1),
    })
}
