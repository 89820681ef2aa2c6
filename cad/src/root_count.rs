//! The number of distinct real roots in its main variable of a polynomial of degree at most
//! 3 over a sample point, from the signs of its leading coefficient, its discriminant and,
//! for a cubic with a multiple root, `b^2 - 3ac`. Lifting over an algebraic sample settles
//! its candidate roots by this count where it can, instead of exact zero proofs at a point
//! with one algebraic coordinate more.

use crate::error::CadError;
use polys::{Int, Poly};

/// The number of distinct real roots in `x_k` of `g` specialised at a point, given the
/// signs of polynomials in the lower variables there (`sign`), when `g` has degree 1, 2 or 3
/// in `x_k` and a leading coefficient that does not vanish at the point; `None` otherwise.
///
/// Degree 2: the sign of `b^2 - 4ac`. Degree 3, `a x^3 + b x^2 + c x + d` with discriminant
/// `D = b^2 c^2 - 4 a c^3 - 4 b^3 d - 27 a^2 d^2 + 18 a b c d`: three real roots if `D > 0`,
/// one if `D < 0`; if `D = 0` a multiple root, which is real (complex roots come in
/// conjugate pairs), triple exactly when `b^2 - 3ac = 0` (then `g = a (x + b/3a)^3`), so one
/// distinct root, else a double and a simple one, two.
pub(crate) fn distinct_real_roots(
    g: &Poly,
    k: usize,
    sign: &mut dyn FnMut(&Poly) -> Result<i32, CadError>,
) -> Result<Option<usize>, CadError> {
    let cs = g.coeffs(k);
    if cs.len() < 2 || cs.len() > 4 {
        return Ok(None);
    }
    if sign(&cs[cs.len() - 1])? == 0 {
        return Ok(None);
    }
    let int = |n: i64| Int::from(n);
    Ok(Some(match cs.len() {
        2 => 1,
        3 => {
            let (c, b, a) = (&cs[0], &cs[1], &cs[2]);
            let disc = b.mul(b).sub(&a.mul(c).scale(&int(4)));
            match sign(&disc)? {
                1 => 2,
                0 => 1,
                _ => 0,
            }
        }
        _ => {
            let (d, c, b, a) = (&cs[0], &cs[1], &cs[2], &cs[3]);
            let (bb, cc) = (b.mul(b), c.mul(c));
            let disc = bb
                .mul(&cc)
                .sub(&a.mul(&cc.mul(c)).scale(&int(4)))
                .sub(&bb.mul(b).mul(d).scale(&int(4)))
                .sub(&a.mul(a).mul(&d.mul(d)).scale(&int(27)))
                .add(&a.mul(b).mul(&c.mul(d)).scale(&int(18)));
            match sign(&disc)? {
                1 => 3,
                0 if sign(&bb.sub(&a.mul(c).scale(&int(3))))? == 0 => 1,
                0 => 2,
                _ => 1,
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebraic::Algebraic;
    use crate::sign::{sign_at, SignStats};
    use crate::upoly::UPoly;
    use polys::{Coeff, Vars};

    /// A small deterministic generator (xorshift), so that failures reproduce.
    fn next(state: &mut u64) -> i64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state % 13) as i64 - 6
    }

    /// Integer cubics, random and with double and triple roots by construction: the count
    /// against the real roots root isolation finds.
    #[test]
    fn cubic_and_quadratic_counts_match_isolation() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut multiple = 0;
        for i in 0..600 {
            let (r, t, a) = (next(&mut state), next(&mut state), next(&mut state));
            let a = if a == 0 { 1 } else { a };
            // Coefficients of x^0..x^3.
            let c: Vec<i64> = match i % 4 {
                // a (x - r)^2 (x - t)
                0 => vec![-a * r * r * t, a * (r * r + 2 * r * t), -a * (2 * r + t), a],
                // a (x - r)^3
                1 => vec![-a * r * r * r, 3 * a * r * r, -3 * a * r, a],
                2 => vec![next(&mut state), next(&mut state), next(&mut state), a],
                _ => vec![next(&mut state), next(&mut state), a],
            };
            let u = UPoly::from_i64s(&c);
            let g = u.to_poly(0);
            let got = distinct_real_roots(&g, 0, &mut |p| {
                Ok(p.constant_value().expect("a number").signum())
            })
            .unwrap();
            let want = Algebraic::roots_of(&u).unwrap().len();
            assert_eq!(got, Some(want), "coefficients {c:?}");
            if i % 4 < 2 {
                multiple += 1;
            }
        }
        assert!(multiple > 100);
    }

    /// Over an algebraic point `y = sqrt(2)`: cubics in `x` whose roots are known by
    /// construction (`(x - y)^2 (x - 1)`, `(x - y)^3`, `(x^2 - y)(x - 1)`, `x^3 - y`).
    #[test]
    fn counts_over_an_algebraic_coordinate() {
        let mut v = Vars::from_names(["y", "x"]);
        let y = Algebraic::roots_of(&UPoly::from_i64s(&[-2, 0, 1])).unwrap()[1].clone();
        let stats = SignStats::new();
        for (text, want) in [
            ("(x - y)^2 * (x - 1)", 2),
            ("(x - y)^3", 1),
            ("(x^2 - y) * (x - 1)", 3),
            ("(x^2 + y) * (x - 1)", 1),
            ("x^3 - y", 1),
            ("(x - y) * (x + y) * (x - 2*y)", 3),
            ("(x - y)^2 * (x + y)", 2),
        ] {
            let g = Poly::parse(text, &mut v).unwrap();
            let got =
                distinct_real_roots(&g, 1, &mut |p| sign_at(p, std::slice::from_ref(&y), &stats));
            assert_eq!(got, Ok(Some(want)), "{text}");
        }
    }
}
