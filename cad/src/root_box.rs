//! f64 enclosures of real roots, narrowed rigorously: what the sign cascade evaluates
//! algebraic coordinates with before it falls back to exact arithmetic.

use crate::float_interval::FloatInterval;
use crate::upoly::UPoly;
use polys::Rat;

/// Bisections of [`narrow_root_box`]: a width of 2^-30 of the isolating interval suffices
/// for the signs the lifting asks (f64 precision itself would cost more than it saves).
const FLOAT_BISECTIONS: usize = 30;

/// An f64 enclosure of the root `x`, narrowed by bisection at f64 points that are exactly
/// inside its isolating interval `(lo, hi)`: there the defining polynomial has the sign it
/// has at `lo` left of the root and the opposite sign right of it, and an outward-rounded
/// evaluation that excludes 0 proves which side a point is on. Stops where the evaluation
/// cannot tell; the enclosure stays rigorous throughout.
pub(crate) fn narrow_root_box(
    poly: &UPoly,
    lo: &Rat,
    hi: &Rat,
    lo_sign: i32,
) -> Option<FloatInterval> {
    let outer = FloatInterval::hull(lo, hi)?;
    // f64 points in [inner_lo, inner_hi] lie strictly inside (lo, hi): the conversions are
    // widened outwards by two units, more than their rounding error.
    let inner_lo = FloatInterval::of_rational(lo)?.hi;
    let inner_hi = FloatInterval::of_rational(hi)?.lo;
    let coeffs: Vec<FloatInterval> = poly
        .coeffs()
        .iter()
        .map(FloatInterval::of_coeff)
        .collect::<Option<_>>()?;
    let sign_at_point = |m: f64| {
        let pm = FloatInterval { lo: m, hi: m };
        coeffs
            .iter()
            .rev()
            .fold(FloatInterval { lo: 0.0, hi: 0.0 }, |acc, c| {
                acc.mul(pm).add(*c)
            })
            .sign()
    };
    // Guess and verify first: a few Newton steps in plain f64 from the middle, then two
    // rigorous evaluations a hair either side of the guess. When both show the sign
    // change the root lies between them; one verification costs what two of the thirty
    // bisection steps below cost, and the box is far narrower.
    let approx: Vec<f64> = coeffs.iter().map(|c| c.lo + (c.hi - c.lo) / 2.0).collect();
    if let Some(g) = newton_guess(&approx, outer.lo, outer.hi) {
        let eps = g.abs().max(f64::MIN_POSITIVE) * NEWTON_BOX;
        let (a, b) = (g - eps, g + eps);
        if a > inner_lo
            && b < inner_hi
            && sign_at_point(a) == Some(lo_sign)
            && sign_at_point(b) == Some(-lo_sign)
        {
            return Some(FloatInterval { lo: a, hi: b });
        }
    }
    let (mut lo, mut hi) = (outer.lo, outer.hi);
    for _ in 0..FLOAT_BISECTIONS {
        let m = lo + (hi - lo) / 2.0;
        if !(m > lo && m < hi && m >= inner_lo && m <= inner_hi) {
            break;
        }
        let pm = FloatInterval { lo: m, hi: m };
        let value = coeffs
            .iter()
            .rev()
            .fold(FloatInterval { lo: 0.0, hi: 0.0 }, |acc, c| {
                acc.mul(pm).add(*c)
            });
        match value.sign() {
            Some(s) if s == lo_sign => lo = m,
            Some(_) => hi = m,
            None => break,
        }
    }
    Some(FloatInterval { lo, hi })
}

/// Half-width of a verified Newton box, relative to the root.
const NEWTON_BOX: f64 = 1.0 / (1u64 << 40) as f64;

/// An f64 approximation of the root in `[lo, hi]` of the polynomial with coefficients
/// `c` (constant first) by Newton's method from the middle; `None` when an iterate
/// leaves the interval or does not settle. Only a guess: the caller verifies it.
fn newton_guess(c: &[f64], lo: f64, hi: f64) -> Option<f64> {
    let mut x = lo + (hi - lo) / 2.0;
    for _ in 0..12 {
        let (mut v, mut d) = (0.0f64, 0.0f64);
        for &ci in c.iter().rev() {
            d = d * x + v;
            v = v * x + ci;
        }
        if d == 0.0 || !v.is_finite() || !d.is_finite() {
            return None;
        }
        let next = x - v / d;
        if !(next >= lo && next <= hi) {
            return None;
        }
        if (next - x).abs() <= next.abs() * 1e-15 {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}
