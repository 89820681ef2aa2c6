//! [`Interval`]: closed intervals with exact rational endpoints, and the enclosure of a
//! polynomial's values over a box.
//!
//! The arithmetic is exact, so an enclosure is sound by construction: no rounding can make
//! it miss a value, and the sign it shows (when 0 is outside) is the true sign.

use polys::{Poly, Rat};

/// The closed interval `[lo, hi]`, `lo <= hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interval {
    /// Lower endpoint.
    pub lo: Rat,
    /// Upper endpoint.
    pub hi: Rat,
}

impl Interval {
    /// `[lo, hi]`; the endpoints are swapped if given in the wrong order.
    pub fn new(lo: Rat, hi: Rat) -> Interval {
        if lo <= hi {
            Interval { lo, hi }
        } else {
            Interval { lo: hi, hi: lo }
        }
    }

    /// The one-point interval `[r, r]`.
    pub fn point(r: Rat) -> Interval {
        Interval {
            lo: r.clone(),
            hi: r,
        }
    }

    /// `hi - lo`.
    pub fn width(&self) -> Rat {
        &self.hi - &self.lo
    }

    /// The sign shared by every element, if there is one: -1, 0 (only for `[0, 0]`) or 1.
    pub fn sign(&self) -> Option<i32> {
        if self.lo.signum() > 0 {
            Some(1)
        } else if self.hi.signum() < 0 {
            Some(-1)
        } else if self.lo.is_zero() && self.hi.is_zero() {
            Some(0)
        } else {
            None
        }
    }

    /// Whether `r` lies in `[lo, hi]`.
    pub fn contains(&self, r: &Rat) -> bool {
        &self.lo <= r && r <= &self.hi
    }

    /// `{x + y}`.
    pub fn add(&self, o: &Interval) -> Interval {
        Interval {
            lo: &self.lo + &o.lo,
            hi: &self.hi + &o.hi,
        }
    }

    /// `{x * y}`: the hull of the four endpoint products.
    pub fn mul(&self, o: &Interval) -> Interval {
        let ps = [
            &self.lo * &o.lo,
            &self.lo * &o.hi,
            &self.hi * &o.lo,
            &self.hi * &o.hi,
        ];
        let lo = ps.iter().min().cloned().unwrap_or_else(Rat::zero);
        let hi = ps.iter().max().cloned().unwrap_or_else(Rat::zero);
        Interval { lo, hi }
    }

    /// `{c * x}`.
    pub fn scale(&self, c: &Rat) -> Interval {
        Interval::new(&self.lo * c, &self.hi * c)
    }

    /// `{x^e}`, tight: an even power of an interval around 0 starts at 0, not below.
    pub fn pow(&self, e: u32) -> Interval {
        if e == 0 {
            return Interval::point(Rat::one());
        }
        let a = self.lo.pow(e);
        let b = self.hi.pow(e);
        if e % 2 == 1 || self.lo.signum() >= 0 {
            // Monotone on the interval.
            Interval::new(a, b)
        } else if self.hi.signum() <= 0 {
            Interval::new(b, a)
        } else {
            Interval {
                lo: Rat::zero(),
                hi: a.max(b),
            }
        }
    }

    /// An enclosure of `{p(x) : x in box}`, where `boxes[v]` is the range of `x_v`; every
    /// variable of `p` must have an entry.
    pub fn enclose(p: &Poly, boxes: &[Interval]) -> Interval {
        let mut acc = Interval::point(Rat::zero());
        for (m, c) in p.terms() {
            let mut t = Interval::point(Rat::from_integer(c.clone()));
            for (v, &e) in m.exps().iter().enumerate() {
                if e > 0 {
                    t = t.mul(&boxes[v].pow(e));
                }
            }
            acc = acc.add(&t);
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    #[test]
    fn arithmetic_encloses() {
        let x = Interval::new(Rat::ratio(-1, 2), Rat::ratio(3, 1));
        assert_eq!(x.pow(2), Interval::new(Rat::ratio(0, 1), Rat::ratio(9, 1)));
        assert_eq!(
            x.pow(3),
            Interval::new(Rat::ratio(-1, 8), Rat::ratio(27, 1))
        );
        let y = Interval::new(Rat::ratio(-3, 1), Rat::ratio(-2, 1));
        assert_eq!(y.pow(2), Interval::new(Rat::ratio(4, 1), Rat::ratio(9, 1)));
        assert_eq!(
            x.mul(&y),
            Interval::new(Rat::ratio(-9, 1), Rat::ratio(3, 2))
        );
        assert_eq!(y.sign(), Some(-1));
        assert_eq!(x.sign(), None);
        let mut v = Vars::from_names(["x", "y"]);
        let p = Poly::parse("x^2 + y^2 - 20", &mut v).unwrap();
        let e = Interval::enclose(&p, &[x, y]);
        assert_eq!(e, Interval::new(Rat::ratio(-16, 1), Rat::ratio(-2, 1)));
    }
}
