//! [`FloatInterval`]: f64 intervals with outward rounding, the cheap first try of the
//! interval stage of the sign cascade.
//!
//! Every operation rounds to nearest and then moves each end one floating-point number
//! outwards, so the result encloses the exact value of the operation on any reals in the
//! operands (round-to-nearest is off by at most half a unit in the last place). Inputs
//! from rationals and big integers are widened by two units on each side, which covers
//! their conversion error. A non-finite end makes the interval decide nothing, so the
//! exact stages answer instead: no floating-point value decides a sign on its own.

use num_traits::ToPrimitive;
use polys::{Coeff, Poly, Rat};

/// A closed interval `[lo, hi]` of reals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatInterval {
    pub lo: f64,
    pub hi: f64,
}

fn widen(x: f64, units: usize) -> FloatInterval {
    let (mut lo, mut hi) = (x, x);
    for _ in 0..units {
        lo = lo.next_down();
        hi = hi.next_up();
    }
    FloatInterval { lo, hi }
}

impl FloatInterval {
    /// An enclosure of a rational (`None` if it is out of f64 range).
    pub fn of_rational(r: &Rat) -> Option<FloatInterval> {
        Some(r.to_f64())
            .filter(|x| x.is_finite())
            .map(|x| widen(x, 2))
    }

    /// An enclosure of `[lo, hi]` with rational ends.
    pub fn hull(lo: &Rat, hi: &Rat) -> Option<FloatInterval> {
        Some(FloatInterval {
            lo: Self::of_rational(lo)?.lo,
            hi: Self::of_rational(hi)?.hi,
        })
    }

    pub(crate) fn of_coeff<C: Coeff>(c: &C) -> Option<FloatInterval> {
        match c.to_i64() {
            // Integers of up to 53 bits convert exactly.
            Some(v) if v.unsigned_abs() < (1 << 53) => Some(FloatInterval {
                lo: v as f64,
                hi: v as f64,
            }),
            _ => c
                .to_bigint()
                .to_f64()
                .filter(|x| x.is_finite())
                .map(|x| widen(x, 2)),
        }
    }

    pub fn add(self, o: FloatInterval) -> FloatInterval {
        FloatInterval {
            lo: (self.lo + o.lo).next_down(),
            hi: (self.hi + o.hi).next_up(),
        }
    }

    pub fn mul(self, o: FloatInterval) -> FloatInterval {
        let p = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        let lo = p.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        FloatInterval {
            lo: lo.next_down(),
            hi: hi.next_up(),
        }
    }

    /// The sign of every point of the interval, when they share one (never for
    /// non-finite or NaN ends).
    pub fn sign(self) -> Option<i32> {
        if !(self.lo.is_finite() && self.hi.is_finite()) {
            return None;
        }
        if self.lo > 0.0 {
            Some(1)
        } else if self.hi < 0.0 {
            Some(-1)
        } else {
            None
        }
    }

    /// An enclosure of `p` over `boxes` (one interval per variable of `p`).
    pub fn enclose(p: &Poly, boxes: &[FloatInterval]) -> Option<FloatInterval> {
        let mut acc = FloatInterval { lo: 0.0, hi: 0.0 };
        for (m, c) in p.terms() {
            let mut t = Self::of_coeff(c)?;
            for (v, &e) in m.exps().iter().enumerate() {
                for _ in 0..e {
                    t = t.mul(*boxes.get(v)?);
                }
            }
            acc = acc.add(t);
        }
        Some(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    #[test]
    fn encloses_and_decides_only_when_safe() {
        let mut v = Vars::from_names(["x", "y"]);
        let p = Poly::parse("x^2 - 2", &mut v).unwrap();
        // x in [1.41, 1.42] contains sqrt(2): no sign.
        let bx = [FloatInterval::hull(&Rat::ratio(141, 100), &Rat::ratio(142, 100)).unwrap()];
        assert_eq!(FloatInterval::enclose(&p, &bx).unwrap().sign(), None);
        let bx = [FloatInterval::hull(&Rat::ratio(3, 2), &Rat::ratio(8, 5)).unwrap()];
        assert_eq!(FloatInterval::enclose(&p, &bx).unwrap().sign(), Some(1));
        // 10/10 + 20/10 - 3 is exactly 0, and 1/10 is not a float: 0 stays inside.
        let q = Poly::parse("10*x + 20*y - 3", &mut v).unwrap();
        let tenth = FloatInterval::of_rational(&Rat::ratio(1, 10)).unwrap();
        let bx = [tenth, tenth];
        assert_eq!(FloatInterval::enclose(&q, &bx).unwrap().sign(), None);
    }
}
