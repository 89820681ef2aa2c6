//! The modular univariate gcd against the subresultant PRS (the oracle it replaced), on
//! random polynomials with common factors and coefficients well beyond 64 bits; contents
//! and the integer gcd against plain big-integer folds.

use num_integer::Integer;
use polys::{coefficient_gcd, modular_gcd, BigInt, Coeff, Int, Mono, Poly};
use proptest::prelude::*;

/// A coefficient: a small value, or one times a power of a 60-bit number (up to ~240 bits).
fn coeff() -> impl Strategy<Value = Int> {
    (-40i64..40, 0u32..5).prop_map(|(v, e)| {
        let big = BigInt::from(1_152_921_504_606_846_883i64).pow(e);
        Int::from(BigInt::from(v) * big)
    })
}

/// A polynomial in x (variable 0) of degree below `max_len`, from dense coefficients.
fn poly(max_len: usize) -> impl Strategy<Value = Poly> {
    prop::collection::vec(coeff(), 1..max_len).prop_map(|cs| from_dense(&cs))
}

fn from_dense(cs: &[Int]) -> Poly {
    Poly::from_terms(
        cs.iter()
            .enumerate()
            .filter(|(_, c)| !c.is_zero())
            .map(|(e, c)| (Mono::var(0, e as u32), c.clone()))
            .collect(),
    )
}

fn dense(p: &Poly) -> Vec<Int> {
    if p.is_zero() {
        return Vec::new();
    }
    let mut c = vec![Int::from(0); p.degree(0) as usize + 1];
    for (m, a) in p.terms() {
        c[m.exp(0) as usize] = a.clone();
    }
    c
}

/// The primitive gcd by the subresultant PRS: the last non-zero remainder, made primitive
/// with a positive leading coefficient; 1 when it is a constant.
fn prs_gcd(a: &Poly, b: &Poly) -> Poly {
    if a.is_zero() || b.is_zero() {
        let p = if a.is_zero() { b } else { a };
        return if p.is_zero() {
            Poly::zero()
        } else if p.is_constant() {
            Poly::one()
        } else {
            p.integer_primitive()
        };
    }
    if a.is_constant() || b.is_constant() {
        return Poly::one();
    }
    let (a, b) = if a.degree(0) >= b.degree(0) {
        (a, b)
    } else {
        (b, a)
    };
    let prs = a.subresultant_prs(b, 0);
    let last = prs.last().expect("the PRS starts with its arguments");
    if last.degree(0) == 0 {
        Poly::one()
    } else {
        last.integer_primitive()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn modular_gcd_matches_the_prs(a in poly(7), b in poly(7), c in poly(5), square in any::<bool>()) {
        // A common factor (squared half the time, so gcds of degree up to 8 occur).
        let c = if square { c.mul(&c) } else { c };
        let (a, b) = (a.mul(&c), b.mul(&c));
        let g = modular_gcd(&dense(&a), &dense(&b)).expect("enough primes");
        prop_assert_eq!(from_dense(&g), prs_gcd(&a, &b));
        // And through Poly::gcd, which now takes the modular route in one variable: the
        // primitive gcd times the gcd of the contents.
        let full = a.gcd(&b);
        if !a.is_zero() || !b.is_zero() {
            let contents = a.integer_content().gcd(&b.integer_content());
            prop_assert_eq!(full, prs_gcd(&a, &b).scale(&contents));
        }
    }

    #[test]
    fn derivative_gcds_match_the_prs(a in poly(6), b in poly(4)) {
        // p = a * b^2: gcd(p, p') has b (up to content) as a factor, as square-free parts
        // ask it.
        let p = a.mul(&b).mul(&b);
        let dp = p.derivative(0);
        let g = modular_gcd(&dense(&p), &dense(&dp)).expect("enough primes");
        prop_assert_eq!(from_dense(&g), prs_gcd(&p, &dp));
    }

    #[test]
    fn contents_match_a_big_integer_fold(cs in prop::collection::vec(coeff(), 0..8)) {
        let expected = cs
            .iter()
            .fold(BigInt::from(0), |g, c| Integer::gcd(&g, &c.to_bigint()));
        prop_assert_eq!(coefficient_gcd(&cs).to_bigint(), expected);
    }

    #[test]
    fn int_gcd_matches_big_integer_gcd(a in coeff(), b in coeff(), s in any::<i64>()) {
        for (x, y) in [(&a, &b), (&a, &Int::from(s)), (&Int::from(s), &b)] {
            prop_assert_eq!(x.gcd(y).to_bigint(), Integer::gcd(&x.to_bigint(), &y.to_bigint()));
        }
        // A big value and a much bigger one (the reduction path).
        let huge = Int::from(a.to_bigint() * BigInt::from(3).pow(300u32) + 1);
        prop_assert_eq!(huge.gcd(&b).to_bigint(), Integer::gcd(&huge.to_bigint(), &b.to_bigint()));
    }
}
