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
use cad::{sign_at, Algebraic, SignStats};
use polys::{Coeff, Int, Poly};
use thiserror::Error;

/// How a root becomes an integer bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    Degree { degree: u32, var: String },
    #[error("internal: {0}")]
    Internal(String),
}

/// Where a root lives: the parent cell's sample and whether that cell is a point.
pub struct RootSite<'a> {
    pub prefix: &'a [Algebraic],
    pub zero_dim: bool,
    pub stats: &'a SignStats,
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
        let s =
            sign_at(c, site.prefix, site.stats).map_err(|e| BoundError::Internal(e.to_string()))?;
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
                let s = sign_at(&q, site.prefix, site.stats)
                    .map_err(|e| BoundError::Internal(e.to_string()))?;
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
            let sc = sign_at(c, site.prefix, site.stats)
                .map_err(|e| BoundError::Internal(e.to_string()))?;
            // |x|^e = |c|/a; the root is -|.|^(1/e) for the lower of two roots or when
            // x^e is negative (odd e).
            let abs_c = if sc > 0 { c.clone() } else { c.neg() };
            let negative = sc > 0 || (e.is_multiple_of(2) && m == 2 && j == 1);
            return Ok(binomial_root(abs_c, a.clone(), e, negative, round));
        }
        n => {
            return Err(BoundError::Degree {
                degree: n.saturating_sub(1) as u32,
                var: var_name.to_string(),
            })
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
