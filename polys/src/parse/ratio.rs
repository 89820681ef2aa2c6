//! A value the parser has read: a polynomial over a positive integer denominator, so that
//! isl's rational coefficients (`i/2`, `(n + 1)/3`) stay exact without floating point.
//! Outside isl's extensions every denominator is 1.

use crate::coeff::Coeff;
use crate::int::Int;
use crate::poly::Poly;

/// `num / den` with `den > 0` (reduced by sums and products, not by a division).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Ratio {
    /// The numerator.
    pub num: Poly,
    /// The positive denominator.
    pub den: Int,
}

impl Ratio {
    /// The polynomial `p` itself (denominator 1).
    pub fn whole(p: Poly) -> Ratio {
        Ratio {
            num: p,
            den: Int::one(),
        }
    }

    /// `num / den` reduced by the common factor of `den` and the coefficients (`den > 0`).
    fn reduced(num: Poly, den: Int) -> Ratio {
        let g = num.integer_content().gcd(&den);
        // gcd(0, den) = den: zero is 0/1.
        if g.is_zero() || g.is_one() {
            return Ratio { num, den };
        }
        Ratio {
            num: num.div_scalar_exact(&g),
            den: den.div_exact(&g),
        }
    }

    /// Whether the denominator is 1.
    pub fn is_whole(&self) -> bool {
        self.den.is_one()
    }

    /// The numerator scaled to the denominator `den`, a multiple of this one's.
    pub fn numerator_over(&self, den: &Int) -> Poly {
        self.num.scale(&den.div_exact(&self.den))
    }

    /// The sum.
    pub fn add(&self, o: &Ratio) -> Ratio {
        if self.den == o.den {
            return Ratio::reduced(self.num.add(&o.num), self.den.clone());
        }
        Ratio::reduced(
            self.num.scale(&o.den).add(&o.num.scale(&self.den)),
            self.den.mul(&o.den),
        )
    }

    /// The difference.
    pub fn sub(&self, o: &Ratio) -> Ratio {
        self.add(&o.neg())
    }

    /// The negation.
    pub fn neg(&self) -> Ratio {
        Ratio {
            num: self.num.neg(),
            den: self.den.clone(),
        }
    }

    /// The product.
    pub fn mul(&self, o: &Ratio) -> Ratio {
        Ratio::reduced(self.num.mul(&o.num), self.den.mul(&o.den))
    }

    /// The power `self^e`.
    pub fn pow(&self, e: u32) -> Ratio {
        Ratio {
            num: self.num.pow(e),
            den: self.den.pow(e),
        }
    }

    /// The quotient by a positive integer `d`, not reduced: `floor(2i/4)` stays the
    /// division of `2i` by 4, as the parser read it before fractions.
    pub fn div_int(&self, d: &Int) -> Ratio {
        Ratio {
            num: self.num.clone(),
            den: self.den.mul(d),
        }
    }
}

/// The least common multiple of positive integers (1 for none).
pub(super) fn lcm<'a>(dens: impl IntoIterator<Item = &'a Int>) -> Int {
    dens.into_iter().fold(Int::one(), |acc, d| {
        let g = acc.gcd(d);
        acc.mul(&d.div_exact(&g))
    })
}
