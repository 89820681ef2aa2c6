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
use polys::{Coeff, Int, Mono, Poly};
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
    /// The bound is a root of degree 3 or more that is not a binomial `a*x^e = c` and
    /// whose stack lacks the separators a root search needs (sections of the
    /// derivative's factors); [`generate()`](crate::generate()) then adds the derivative to
    /// the projection and decomposes again.
    #[error("a loop bound is a root of degree {degree} in {var}; exact bounds of degree 3 and more are supported only for x^k = value (binomials) so far")]
    Degree {
        /// The polynomial's degree in the bound's variable.
        degree: u32,
        /// The name of the variable being bounded.
        var: String,
        /// The polynomial whose root it is (its derivative's roots would separate it).
        poly: Box<Poly>,
    },
    /// A sign query at the site failed in the CAD layer ([`cad::CadError`]); the
    /// message is that error's.
    #[error("internal: {0}")]
    Internal(String),
}

/// Where a root lives: the parent cell's sample and whether that cell is a point, and
/// the stack over it (for roots of degree 3 and more, whose separators are the roots of
/// the derivative's factors in the same stack).
pub struct RootSite<'a> {
    /// The parent cell's sample point: values of the outer variables `0..k`, where `k`
    /// is the variable being bounded.
    pub prefix: &'a [Algebraic],
    /// Whether the parent cell is a point (0-dimensional), so that bounds are constants.
    pub zero_dim: bool,
    /// Counters for the sign queries made at the site.
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
    /// Each polynomial whose sign was asked, with the sign (-1, 0 or 1), in order.
    pub queries: Vec<(Poly, i32)>,
    /// Whether the bound also depended on the stack, so the transcript does not
    /// characterise it.
    pub opaque: bool,
}

/// The index of the root of basis polynomial `poly` that cell `c` is a section of.
pub(crate) fn root_of(c: &Cell, poly: usize) -> Option<usize> {
    match &c.lower {
        Bound::Roots(refs) => refs.iter().find(|r| r.poly == poly).map(|r| r.root),
        _ => None,
    }
}

impl RootSite<'_> {
    /// `f`'s index in the basis and the position in the stack of the section of its
    /// root `j`.
    pub(crate) fn section_of(&self, f: &Poly, j: usize) -> Option<(usize, usize)> {
        let fi = self.basis.iter().position(|b| b == f)?;
        let p = self
            .stack
            .iter()
            .position(|c| c.kind == CellKind::Section && root_of(c, fi) == Some(j))?;
        Some((fi, p))
    }

    /// The sign of `flip * f` just below the section at stack position `p`, if `f`
    /// changes sign there (a bisection for the root needs the change).
    pub(crate) fn sign_before(&self, f: &Poly, p: usize, flip: i32) -> Option<i32> {
        let sign_in = |c: &Cell| {
            let mut point = self.prefix.to_vec();
            point.push(c.sample.clone());
            sign_at(f, &point, self.stats).ok()
        };
        let before = flip * sign_in(self.stack.get(p.checked_sub(1)?)?)?;
        let after = flip * sign_in(self.stack.get(p + 1)?)?;
        (before != 0 && after == -before).then_some(before)
    }

    /// `f`'s coefficients in `x_k` (constant first) without the leading ones that vanish on
    /// the cell (all coefficients are projection factors, so they vanish on the whole
    /// cell), negated if the leading one is negative there; and the sign applied (1 or -1).
    pub(crate) fn leading_positive(&self, f: &Poly) -> Result<(Vec<Poly>, i32), BoundError> {
        let mut coeffs = f.coeffs(self.prefix.len());
        while let Some(c) = coeffs.last() {
            match self.sign(c)? {
                0 => {
                    coeffs.pop();
                }
                s => {
                    if s < 0 {
                        coeffs = coeffs.iter().map(Poly::neg).collect();
                    }
                    return Ok((coeffs, s));
                }
            }
        }
        Ok((coeffs, 1))
    }

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
    Ok(root_form(f, j, m, site, var_name)?.bound(round))
}

/// Root `j` (1-based) of `f` in variable `k = site.prefix.len()` as a closed form over a
/// cell of positive dimension (`!site.zero_dim`), where `f` has `m` distinct real roots
/// over the cell: everything [`root_bound`] computes before it rounds, so one form (and
/// its sign queries) serves all four roundings.
pub(crate) fn root_form(
    f: &Poly,
    j: usize,
    m: usize,
    site: &RootSite,
    var_name: &str,
) -> Result<RootForm, BoundError> {
    debug_assert!(
        !site.zero_dim,
        "over a point the bound comes from the sample"
    );
    let (coeffs, _) = site.leading_positive(f)?;
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
                return Ok(RootForm::Closed(Root::Rational {
                    num,
                    den: a.scale(&Int::from(2)),
                }));
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
            return Ok(RootForm::Binomial {
                num: abs_c,
                den: a.clone(),
                e,
                negative,
            });
        }
        n => {
            let unsupported = || BoundError::Degree {
                degree: n.saturating_sub(1) as u32,
                var: var_name.to_string(),
                poly: Box::new(f.clone()),
            };
            return root_search(f, &coeffs, j, site).ok_or_else(unsupported);
        }
    };
    Ok(RootForm::Closed(root))
}

/// A real root over a cell as a function of the outer variables, ready to be rounded.
pub(crate) enum RootForm {
    /// A rational function or the quadratic formula.
    Closed(Root),
    /// `±(num/den)^(1/e)` (`num >= 0`, `den > 0` on the cell; `-` if `negative`).
    Binomial {
        num: Poly,
        den: Poly,
        e: u32,
        negative: bool,
    },
    /// The root found by bisection at run time, see [`Expr::RootSearch`].
    Search {
        coeffs: Vec<Poly>,
        lo: Expr,
        hi: Expr,
        before: i32,
    },
}

impl RootForm {
    /// The integer bound the rounding asks for.
    pub(crate) fn bound(&self, round: Round) -> Expr {
        match round {
            Round::StrictLower => self.rounded(false).plus(1),
            Round::Lower => self.rounded(true),
            Round::Upper => self.rounded(false),
            Round::StrictUpper => self.rounded(true).plus(-1),
        }
    }

    /// `floor(root)` or `ceil(root)`.
    fn rounded(&self, ceil: bool) -> Expr {
        match self {
            RootForm::Closed(root) => root.rounded(ceil),
            RootForm::Binomial {
                num,
                den,
                e,
                negative,
            } => binomial_rounded(num, den, *e, *negative, ceil),
            RootForm::Search {
                coeffs,
                lo,
                hi,
                before,
            } => Expr::RootSearch {
                coeffs: coeffs.clone(),
                lo: Box::new(lo.clone()),
                hi: Box::new(hi.clone()),
                before: *before,
                ceil,
            },
        }
    }
}

/// `floor` (or `ceil`) of the root `±(num/den)^(1/e)` (num >= 0, den > 0 on the cell):
/// `floor(z) = floor(floor(y)^(1/e))` for `y >= 0` because `t -> t^(1/e)` is increasing
/// and crosses integers only at integer arguments; `floor(-z) = -ceil(z)`.
fn binomial_rounded(num: &Poly, den: &Poly, e: u32, negative: bool, ceil: bool) -> Expr {
    if num.is_zero() {
        // The root is 0 on the whole cell.
        return Expr::constant(0);
    }
    let z = |ceil: bool| {
        let y = divide(Expr::Poly(num.clone()), den, ceil);
        Expr::Root {
            arg: Box::new(y),
            k: e,
            ceil,
        }
    };
    if negative {
        Expr::Neg(Box::new(z(!ceil)))
    } else {
        z(ceil)
    }
}

/// `q` with `q^2 = p` and a positive leading coefficient (the one a square-free
/// decomposition gives), when the non-constant `p` is the square of a polynomial.
///
/// Term by term, as for integers: the leading term of `q` is the square root of `p`'s;
/// while `r = p - q^2` is not zero, its leading term is `2 lt(q) t` for the next term `t`
/// of `q` (every other product is smaller in the monomial order), so `t = lt(r) / 2 lt(q)`
/// must divide exactly. Each step cancels `lt(r)` and adds only smaller terms, and the
/// terms of a square root have at most half of `p`'s degree in every variable, so the
/// loop ends. Most discriminants fail at the first term or step; the square-free
/// decomposition this replaces dominated lowering.
pub(crate) fn square_root(p: &Poly) -> Option<Poly> {
    if p.is_constant() {
        return None;
    }
    let (m0, c0) = p.leading_term()?;
    if m0.exps().iter().any(|e| e % 2 == 1) {
        return None;
    }
    let half: Vec<u32> = m0.exps().iter().map(|e| e / 2).collect();
    let r0 = exact_isqrt(c0)?;
    // Degree bounds of every term of a square root, per variable.
    let max_exps: Vec<u32> = (0..p.nvars()).map(|v| p.degree(v) / 2).collect();
    let lead = Mono::from_exps(&half);
    let two_r0 = r0.mul(&Int::from(2));
    let mut q = Poly::monomial(r0, lead.clone());
    let mut rest = p.sub(&q.mul(&q));
    while let Some((m, c)) = rest.leading_term() {
        let mt = m.div(&lead)?;
        if mt.exps().iter().zip(&max_exps).any(|(e, max)| e > max) {
            return None;
        }
        let (ct, rem) = c.div_mod_floor(&two_r0);
        if !rem.is_zero() {
            return None;
        }
        // (q + t)^2 - q^2 = (2q + t) t.
        let t = Poly::monomial(ct, mt);
        rest = rest.sub(&q.scale(&Int::from(2)).add(&t).mul(&t));
        q = q.add(&t);
    }
    Some(q)
}

/// The non-negative integer square root of `c`, if `c` is a perfect square.
fn exact_isqrt(c: &Int) -> Option<Int> {
    if c.signum() < 0 {
        return None;
    }
    let r = c.isqrt();
    (r.mul(&r) == *c).then_some(r)
}

/// A root as a closed form over the outer variables.
pub(crate) enum Root {
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
    fn rounded(&self, ceil: bool) -> Expr {
        match self {
            Root::Rational { num, den } => divide(Expr::Poly(num.clone()), den, ceil),
            Root::Quadratic {
                b,
                two_a,
                disc,
                high,
            } => {
                // floor((y)/n) = floor(floor(y)/n) and ceil(y/n) = ceil(ceil(y)/n) for n > 0:
                // round the numerator -b -+ sqrt(D) first, in the same direction.
                let sqrt = match (high, ceil) {
                    (true, false) | (false, true) => Expr::Isqrt(disc.clone()),
                    _ => Expr::CeilSqrt(disc.clone()),
                };
                let num = if *high {
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
pub(crate) fn divide(num: Expr, den: &Poly, ceil: bool) -> Expr {
    let (num, den) = match num {
        Expr::Poly(n) => {
            let (n, d) = crate::expr::reduce_division(&n, den, ceil);
            (Expr::Poly(n), d)
        }
        other => (other, den.clone()),
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
fn root_search(f: &Poly, coeffs: &[Poly], j: usize, site: &RootSite) -> Option<RootForm> {
    if let Some(t) = site.transcript {
        t.borrow_mut().opaque = true;
    }
    let k = site.prefix.len();
    let (fi, p) = site.section_of(f, j)?;
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
                if let Some(root) = root_of(c, g) {
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
    // `coeffs` may be `-f` (made to lead positively on the cell).
    let flip = if coeffs[n] == f.coeffs(k)[n] { 1 } else { -1 };
    let before = site.sign_before(f, p, flip)?;
    Some(RootForm::Search {
        coeffs: coeffs.to_vec(),
        lo,
        hi,
        before,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    /// The former implementation (evaluation filter, then a square-free decomposition).
    fn square_root_by_factoring(p: &Poly) -> Option<Poly> {
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

    /// The term-by-term root agrees with the square-free decomposition, sign included,
    /// on squares, near-squares and non-squares.
    #[test]
    fn square_root_matches_factoring() {
        let mut v = Vars::new();
        let bases = [
            "a",
            "2*a",
            "x - a",
            "3*x*y - 2*a + 1",
            "x^2 + y^2 - a^2",
            "-x + 2*y - 5",
            "a*x^2 - 3*y + 7",
            "x*y*a - 1",
            "4*y^3 - x",
            "x^2 - 2*x*a + a^2 + 9",
        ];
        let extras = ["0", "1", "-1", "a", "x", "2*x*y", "-4*a^2", "y^5"];
        for b in bases {
            let q = Poly::parse(b, &mut v).unwrap();
            for e in extras {
                let d = Poly::parse(e, &mut v).unwrap();
                for p in [
                    q.mul(&q),
                    q.mul(&q).add(&d),
                    q.mul(&q).scale(&Int::from(9)),
                    q.clone(),
                ] {
                    assert_eq!(square_root(&p), square_root_by_factoring(&p), "{p:?}");
                    assert_eq!(square_root(&p.neg()), square_root_by_factoring(&p.neg()));
                }
            }
        }
    }
}
