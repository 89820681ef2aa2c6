//! Multifactor Hensel lifting: from a factorisation modulo a prime p to one modulo p^k.
//!
//! The factors are split into a balanced tree; each node lifts a two-factor splitting
//! together with its Bezout cofactors, doubling the exponent every step (quadratic lifting,
//! as in von zur Gathen and Gerhard, "Modern Computer Algebra", chapter 15). The tree
//! keeps the work per level proportional to the degree instead of to the degree times the
//! number of factors.

use super::zm::{LiftRing, Zm, ZmPoly, Zw};
use super::zp::{Zp, ZpPoly};
use crate::int::Int;

/// Lifts `target = prod factors (mod p)` to monic `g_i` with `target = prod g_i (mod m)`,
/// `g_i = factors[i] (mod p)`, where `ring` is Z/m for a power m of p.
///
/// `target` is monic modulo m; the `factors` are monic and pairwise coprime modulo p.
pub fn lift(target: &ZmPoly, factors: &[ZpPoly], field: Zp, ring: &Zm) -> Vec<ZmPoly> {
    if ring.is_word() {
        lift_in::<Zw>(target, factors, field, ring.modulus())
    } else {
        lift_in::<Zm>(target, factors, field, ring.modulus())
    }
}

fn lift_in<R: LiftRing>(target: &ZmPoly, factors: &[ZpPoly], field: Zp, m: &Int) -> Vec<ZmPoly> {
    let target = R::with_modulus(m).reduce_ints(target);
    let mut out = Vec::with_capacity(factors.len());
    lift_tree::<R>(target, factors, field, m, &mut out);
    out.into_iter().map(R::into_ints).collect()
}

fn lift_tree<R: LiftRing>(
    target: R::Poly,
    factors: &[ZpPoly],
    field: Zp,
    m: &Int,
    out: &mut Vec<R::Poly>,
) {
    if factors.len() <= 1 {
        if !factors.is_empty() {
            out.push(target);
        }
        return;
    }
    let (left, right) = factors.split_at(factors.len() / 2);
    let product = |fs: &[ZpPoly]| fs.iter().fold(vec![1], |acc, f| field.poly_mul(&acc, f));
    let (g, h) = lift_pair::<R>(&target, &product(left), &product(right), field, m);
    lift_tree::<R>(g, left, field, m, out);
    lift_tree::<R>(h, right, field, m, out);
}

/// Lifts `f = g0 h0 (mod p)` to `f = g h (mod target)` with `g`, `h` monic.
fn lift_pair<R: LiftRing>(
    f: &R::Poly,
    g0: &ZpPoly,
    h0: &ZpPoly,
    field: Zp,
    target: &Int,
) -> (R::Poly, R::Poly) {
    let (s0, t0) = field
        .bezout(g0, h0)
        .expect("Hensel lifting: the modular factors are coprime (f is square-free mod p)");
    let (mut g, mut h) = (R::from_small(g0), R::from_small(h0));
    let (mut s, mut t) = (R::from_small(&s0), R::from_small(&t0));
    let one = R::from_small(&[1]);
    let mut m = Int::from(field.modulus() as i64);
    // Invariants modulo m: f = g h, s g + t h = 1, h monic, deg s < deg h, deg t < deg g.
    while &m < target {
        let squared = &m * &m;
        m = if &squared < target {
            squared
        } else {
            target.clone()
        };
        let r = R::with_modulus(&m);
        let e = r.sub(&r.reduce(f), &r.mul(&g, &h));
        let (q, rem) = r.divrem_monic(&r.mul(&s, &e), &h);
        let g_next = r.add(&g, &r.add(&r.mul(&t, &e), &r.mul(&q, &g)));
        let h_next = r.add(&h, &rem);
        if &m < target {
            // Only a further step needs the Bezout cofactors lifted as well.
            let b = r.sub(&r.add(&r.mul(&s, &g_next), &r.mul(&t, &h_next)), &one);
            let (c, d) = r.divrem_monic(&r.mul(&s, &b), &h_next);
            s = r.sub(&s, &d);
            t = r.sub(&t, &r.add(&r.mul(&t, &b), &r.mul(&c, &g_next)));
        }
        g = g_next;
        h = h_next;
    }
    (g, h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coeff::Coeff;

    #[test]
    fn lifted_factors_multiply_to_the_target() {
        // x^4 - 10x^2 + 1 = (x + 1)(x + 2)(x + 3)(x + 4) mod 5? Use its factorisation mod 13.
        let field = Zp::new(13);
        let f: Vec<Int> = [1, 0, -10, 0, 1].iter().map(|&c| Int::from(c)).collect();
        let fp = field.reduce_poly(&f);
        let factors = super::super::cantor_zassenhaus::factor_square_free(&fp, field);
        assert!(factors.len() >= 2);
        let ring = Zm::new(Int::from(13).pow(12));
        let lifted = lift(&ring.reduce_poly(&f), &factors, field, &ring);
        assert_eq!(lifted.len(), factors.len());
        let back = lifted
            .iter()
            .fold(vec![Int::from(1)], |acc, g| ring.mul(&acc, g));
        assert_eq!(back, ring.reduce_poly(&f));
        for (g, g0) in lifted.iter().zip(&factors) {
            assert_eq!(&field.reduce_poly(g), g0);
            assert!(g.last().is_some_and(Coeff::is_one));
        }
    }
}
