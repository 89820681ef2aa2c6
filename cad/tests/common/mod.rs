//! Independent oracles for the tests: Sturm sequences over Q (root counting by a method
//! unrelated to Descartes' rule) and conversions into the `algebraics` crate.

#![allow(dead_code)]

use algebraics::RealAlgebraicNumber;
use cad::{Algebraic, UPoly};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use polys::{BigInt, Coeff};

type QPoly = Vec<BigRational>;

fn trim(p: &mut QPoly) {
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
}

fn rem(a: &QPoly, b: &QPoly) -> QPoly {
    let mut r = a.clone();
    let db = b.len() - 1;
    while r.len() > db {
        let k = r.len() - 1 - db;
        let f = r[r.len() - 1].clone() / &b[db];
        for (j, c) in b.iter().enumerate() {
            r[k + j] = &r[k + j] - &f * c;
        }
        r.pop();
        trim(&mut r);
    }
    r
}

fn to_q(p: &UPoly) -> QPoly {
    p.coeffs()
        .iter()
        .map(|c| BigRational::from_integer(c.to_bigint()))
        .collect()
}

/// The Sturm sequence of a non-constant polynomial.
pub fn sturm(p: &UPoly) -> Vec<QPoly> {
    let p0 = to_q(p);
    let p1: QPoly = p0
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * BigRational::from_integer(BigInt::from(i)))
        .collect();
    let mut seq = vec![p0, p1];
    loop {
        let n = seq.len();
        let r = rem(&seq[n - 2], &seq[n - 1]);
        if r.is_empty() {
            return seq;
        }
        seq.push(r.into_iter().map(|c| -c).collect());
    }
}

fn eval(p: &QPoly, x: &BigRational) -> BigRational {
    p.iter()
        .rev()
        .fold(BigRational::zero(), |acc, c| acc * x + c)
}

fn variations(signs: impl Iterator<Item = i32>) -> usize {
    let mut last = 0;
    let mut v = 0;
    for s in signs.filter(|&s| s != 0) {
        if last != 0 && s != last {
            v += 1;
        }
        last = s;
    }
    v
}

fn sign(x: &BigRational) -> i32 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

fn var_at(seq: &[QPoly], x: &BigRational) -> usize {
    variations(seq.iter().map(|p| sign(&eval(p, x))))
}

fn var_at_infinity(seq: &[QPoly], positive: bool) -> usize {
    variations(seq.iter().map(|p| {
        let s = sign(p.last().expect("Sturm members are non-zero"));
        if positive || (p.len() - 1).is_multiple_of(2) {
            s
        } else {
            -s
        }
    }))
}

/// Number of distinct real roots (Sturm's theorem).
pub fn sturm_count(p: &UPoly) -> usize {
    if p.degree() == 0 {
        return 0;
    }
    let seq = sturm(p);
    var_at_infinity(&seq, false) - var_at_infinity(&seq, true)
}

/// Number of distinct roots in `(lo, hi]`.
pub fn sturm_count_in(p: &UPoly, lo: &polys::Rat, hi: &polys::Rat) -> usize {
    let seq = sturm(p);
    var_at(&seq, &lo.to_big()) - var_at(&seq, &hi.to_big())
}

/// `(m/n)^(1/k)` negated or not, plus `c`, in both representations. The defining
/// polynomial of ours is `n (x - c)^k - m`, of which the right real root is picked.
pub fn kth_root(
    m: i64,
    n: i64,
    k: u32,
    negative: bool,
    c: i64,
) -> (Algebraic, RealAlgebraicNumber) {
    let base = UPoly::from_i64s(&[-c, 1]);
    let mut p = UPoly::from_i64s(&[1]);
    for _ in 0..k {
        p = p.mul(&base);
    }
    let p = p.scale_coeffs(&n.into()).sub(&UPoly::from_i64s(&[m]));
    let roots = Algebraic::roots_of(&p).expect("non-zero");
    let ours = if negative {
        roots.first()
    } else {
        roots.last()
    }
    .expect("n (x - c)^k - m has a real root")
    .clone();
    let theirs =
        RealAlgebraicNumber::from(num_rational::Ratio::new(BigInt::from(m), BigInt::from(n)))
            .checked_pow((1, k as i64))
            .expect("positive base has a real root");
    // c - t rather than -t + c: algebraics 0.3.0 negates into a closed interval ending at
    // 0, on which its later comparisons and sums go wrong.
    let theirs = if negative && k.is_multiple_of(2) {
        RealAlgebraicNumber::from(c) - theirs
    } else {
        theirs + RealAlgebraicNumber::from(c)
    };
    (ours, theirs)
}

/// A rational as an algebraics number.
pub fn ran_of_rational(r: &BigRational) -> RealAlgebraicNumber {
    RealAlgebraicNumber::from(num_rational::Ratio::new(
        r.numer().clone(),
        r.denom().clone(),
    ))
}

/// One as a BigRational.
pub fn one() -> BigRational {
    BigRational::one()
}
