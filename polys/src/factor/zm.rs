//! Dense univariate polynomials over Z/m for a modulus m that may exceed 64 bits (the prime
//! powers p^k of Hensel lifting), with [`Int`] coefficients.
//!
//! A modulus below 2^63 takes a machine-word path (128-bit products, no big integers),
//! and [`Zw`] offers the same arithmetic on bare `u64` residues, which Hensel lifting uses
//! whenever its final modulus allows (the usual case: the bound is small).

use crate::coeff::Coeff;
use crate::int::Int;

/// A polynomial over Z/m: residues in `[0, m)`, index = power, no trailing zeros.
pub type ZmPoly = Vec<Int>;

/// The ring Z/m.
#[derive(Clone, Debug)]
pub struct Zm {
    m: Int,
    /// `m` itself when it is below 2^63: residues are then `Int::Small` and products of
    /// two fit in a `u128`.
    word: Option<u64>,
}

/// The residue of `c` modulo a word-sized `m`, for the word path. Inputs are normally
/// residues already; reducing anyway keeps unreduced callers correct.
fn residue(c: &Int, m: u64) -> u64 {
    let r = match c.to_i64() {
        Some(v) => v.rem_euclid(m as i64),
        None => c
            .div_mod_floor(&Int::from(m as i64))
            .1
            .to_i64()
            .expect("a residue modulo m < 2^63 fits in i64"),
    };
    r as u64
}

fn from_word(v: u64) -> Int {
    // Residues on the word path are below 2^63.
    Int::from(v as i64)
}

fn trim(a: &mut ZmPoly) {
    while a.last().is_some_and(Coeff::is_zero) {
        a.pop();
    }
}

impl Zm {
    /// The residues modulo `m > 1`.
    pub fn new(m: Int) -> Zm {
        debug_assert!(m.signum() > 0, "a modulus is positive");
        let word = m.to_i64().map(|v| v as u64);
        Zm { m, word }
    }

    pub fn modulus(&self) -> &Int {
        &self.m
    }

    /// Whether the modulus is below 2^63, so that [`Zw`] can stand in for this ring.
    pub fn is_word(&self) -> bool {
        self.word.is_some()
    }

    pub fn reduce(&self, c: &Int) -> Int {
        match self.word {
            Some(m) => from_word(residue(c, m)),
            None => c.div_mod_floor(&self.m).1,
        }
    }

    /// The representative of `c` in `(-m/2, m/2]`, the one a small integer coefficient has.
    pub fn symmetric(&self, c: &Int) -> Int {
        let r = self.reduce(c);
        if Coeff::add(&r, &r) > self.m {
            Coeff::sub(&r, &self.m)
        } else {
            r
        }
    }

    pub fn reduce_poly(&self, a: &[Int]) -> ZmPoly {
        let mut out: ZmPoly = a.iter().map(|c| self.reduce(c)).collect();
        trim(&mut out);
        out
    }

    pub fn add(&self, a: &ZmPoly, b: &ZmPoly) -> ZmPoly {
        let n = a.len().max(b.len());
        let zero = Int::from(0);
        let mut out: ZmPoly = (0..n)
            .map(|i| {
                self.reduce(&Coeff::add(
                    a.get(i).unwrap_or(&zero),
                    b.get(i).unwrap_or(&zero),
                ))
            })
            .collect();
        trim(&mut out);
        out
    }

    pub fn sub(&self, a: &ZmPoly, b: &ZmPoly) -> ZmPoly {
        let n = a.len().max(b.len());
        let zero = Int::from(0);
        let mut out: ZmPoly = (0..n)
            .map(|i| {
                self.reduce(&Coeff::sub(
                    a.get(i).unwrap_or(&zero),
                    b.get(i).unwrap_or(&zero),
                ))
            })
            .collect();
        trim(&mut out);
        out
    }

    pub fn mul(&self, a: &ZmPoly, b: &ZmPoly) -> ZmPoly {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        if let Some(m) = self.word {
            return from_words(mul_word(&to_words(a, m), &to_words(b, m), m));
        }
        // Accumulate exact products and reduce once per coefficient.
        let mut out = vec![Int::from(0); a.len() + b.len() - 1];
        for (i, x) in a.iter().enumerate() {
            if x.is_zero() {
                continue;
            }
            for (j, y) in b.iter().enumerate() {
                out[i + j].add_assign(&Coeff::mul(x, y));
            }
        }
        let mut out: ZmPoly = out.iter().map(|c| self.reduce(c)).collect();
        trim(&mut out);
        out
    }

    pub fn scale(&self, a: &ZmPoly, c: &Int) -> ZmPoly {
        if let Some(m) = self.word {
            let c = residue(c, m) as u128;
            let mut out: ZmPoly = a
                .iter()
                .map(|x| from_word((residue(x, m) as u128 * c % m as u128) as u64))
                .collect();
            trim(&mut out);
            return out;
        }
        let mut out: ZmPoly = a.iter().map(|x| self.reduce(&Coeff::mul(x, c))).collect();
        trim(&mut out);
        out
    }

    /// Quotient and remainder of `a` by a monic `b` (monic divisors need no inverses, which
    /// Z/m lacks for multiples of p).
    pub fn divrem_monic(&self, a: &ZmPoly, b: &ZmPoly) -> (ZmPoly, ZmPoly) {
        let db = b
            .len()
            .checked_sub(1)
            .expect("division by the zero polynomial");
        debug_assert!(b[db].is_one(), "divrem_monic needs a monic divisor");
        if a.len() < b.len() {
            return (Vec::new(), a.clone());
        }
        if let Some(m) = self.word {
            let (q, r) = divrem_monic_word(&to_words(a, m), &to_words(b, m), m);
            return (from_words(q), from_words(r));
        }
        let mut r = a.clone();
        let mut q = vec![Int::from(0); a.len() - db];
        for i in (0..q.len()).rev() {
            let c = r[i + db].clone();
            if c.is_zero() {
                continue;
            }
            for (j, y) in b.iter().enumerate() {
                r[i + j] = self.reduce(&Coeff::sub(&r[i + j], &Coeff::mul(&c, y)));
            }
            q[i] = c;
        }
        r.truncate(db);
        trim(&mut r);
        trim(&mut q);
        (q, r)
    }

    /// The inverse of a unit (`c` coprime to m), by the extended Euclidean algorithm.
    pub fn inv(&self, c: &Int) -> Option<Int> {
        let (mut r0, mut r1) = (self.m.clone(), self.reduce(c));
        let (mut s0, mut s1) = (Int::from(0), Int::from(1));
        // Invariant: s_i c = r_i mod m.
        while !r1.is_zero() {
            let (q, r) = r0.div_mod_floor(&r1);
            let s = Coeff::sub(&s0, &Coeff::mul(&q, &s1));
            (r0, r1) = (r1, r);
            (s0, s1) = (s1, s);
        }
        r0.is_one().then(|| self.reduce(&s0))
    }
}

/// How many products of two residues modulo `m` a `u128` can sum without overflowing.
fn products_per_u128(m: u64) -> u128 {
    let max = (m - 1) as u128;
    u128::MAX / (max * max).max(1)
}

/// Product on the word path (`m < 2^63`, residues reduced).
fn mul_word(a: &[u64], b: &[u64], m: u64) -> Vec<u64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let m128 = m as u128;
    let mut acc = vec![0u128; a.len() + b.len() - 1];
    // Each output coefficient sums at most min(len a, len b) products; when a u128 holds
    // that many, one reduction per coefficient suffices.
    if products_per_u128(m) >= a.len().min(b.len()) as u128 {
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                acc[i + j] += x as u128 * y as u128;
            }
        }
    } else {
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                acc[i + j] = (acc[i + j] + x as u128 * y as u128 % m128) % m128;
            }
        }
    }
    let mut out: Vec<u64> = acc.iter().map(|&c| (c % m128) as u64).collect();
    trim_word(&mut out);
    out
}

/// Division by a monic polynomial on the word path (`m < 2^63`, residues reduced).
fn divrem_monic_word(a: &[u64], b: &[u64], m: u64) -> (Vec<u64>, Vec<u64>) {
    let db = b
        .len()
        .checked_sub(1)
        .expect("division by the zero polynomial");
    if a.len() < b.len() {
        return (Vec::new(), a.to_vec());
    }
    let m128 = m as u128;
    let mut r: Vec<u128> = a.iter().map(|&c| c as u128).collect();
    let mut q = vec![0u64; a.len() - db];
    // Entries of r may stay unreduced: each row adds m^2 - c*y (congruent to -c*y), and an
    // entry meets at most one row per quotient coefficient, plus its initial residue.
    let lazy = products_per_u128(m + 1) > q.len() as u128 + 1;
    let square = m128 * m128;
    for i in (0..q.len()).rev() {
        let c = (r[i + db] % m128) as u64;
        if c == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            let t = c as u128 * y as u128;
            r[i + j] = if lazy {
                r[i + j] + (square - t)
            } else {
                (r[i + j] + (square - t)) % m128
            };
        }
        q[i] = c;
    }
    r.truncate(db);
    let mut r: Vec<u64> = r.into_iter().map(|c| (c % m128) as u64).collect();
    trim_word(&mut r);
    trim_word(&mut q);
    (q, r)
}

fn trim_word(a: &mut Vec<u64>) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

fn to_words(a: &ZmPoly, m: u64) -> Vec<u64> {
    a.iter().map(|c| residue(c, m)).collect()
}

fn from_words(a: Vec<u64>) -> ZmPoly {
    a.into_iter().map(from_word).collect()
}

/// What Hensel lifting needs from Z/m[x], so that it can run on bare machine words when
/// the final modulus allows ([`Zw`]) and on [`Int`] otherwise ([`Zm`]).
pub trait LiftRing: Sized {
    type Poly: Clone;
    /// Z/m; `m` never exceeds the modulus for which this implementation was chosen.
    fn with_modulus(m: &Int) -> Self;
    /// A polynomial whose coefficients are reduced for every modulus in play (residues
    /// modulo p, say).
    fn from_small(a: &[u64]) -> Self::Poly;
    fn reduce_ints(&self, a: &[Int]) -> Self::Poly;
    fn into_ints(a: Self::Poly) -> ZmPoly;
    /// Reduces a polynomial of a ring with a multiple of this modulus.
    fn reduce(&self, a: &Self::Poly) -> Self::Poly;
    fn add(&self, a: &Self::Poly, b: &Self::Poly) -> Self::Poly;
    fn sub(&self, a: &Self::Poly, b: &Self::Poly) -> Self::Poly;
    fn mul(&self, a: &Self::Poly, b: &Self::Poly) -> Self::Poly;
    fn divrem_monic(&self, a: &Self::Poly, b: &Self::Poly) -> (Self::Poly, Self::Poly);
}

impl LiftRing for Zm {
    type Poly = ZmPoly;
    fn with_modulus(m: &Int) -> Self {
        Zm::new(m.clone())
    }
    fn from_small(a: &[u64]) -> ZmPoly {
        from_words(a.to_vec())
    }
    fn reduce_ints(&self, a: &[Int]) -> ZmPoly {
        self.reduce_poly(a)
    }
    fn into_ints(a: ZmPoly) -> ZmPoly {
        a
    }
    fn reduce(&self, a: &ZmPoly) -> ZmPoly {
        self.reduce_poly(a)
    }
    fn add(&self, a: &ZmPoly, b: &ZmPoly) -> ZmPoly {
        Zm::add(self, a, b)
    }
    fn sub(&self, a: &ZmPoly, b: &ZmPoly) -> ZmPoly {
        Zm::sub(self, a, b)
    }
    fn mul(&self, a: &ZmPoly, b: &ZmPoly) -> ZmPoly {
        Zm::mul(self, a, b)
    }
    fn divrem_monic(&self, a: &ZmPoly, b: &ZmPoly) -> (ZmPoly, ZmPoly) {
        Zm::divrem_monic(self, a, b)
    }
}

/// Z/m for a modulus below 2^63, on bare words: residues in `[0, m)`, no trailing zeros.
pub struct Zw {
    m: u64,
}

impl LiftRing for Zw {
    type Poly = Vec<u64>;
    fn with_modulus(m: &Int) -> Self {
        let m = m
            .to_i64()
            .expect("Zw is only chosen for a modulus below 2^63, and lifting never exceeds it");
        Zw { m: m as u64 }
    }
    fn from_small(a: &[u64]) -> Vec<u64> {
        a.to_vec()
    }
    fn reduce_ints(&self, a: &[Int]) -> Vec<u64> {
        let mut out: Vec<u64> = a.iter().map(|c| residue(c, self.m)).collect();
        trim_word(&mut out);
        out
    }
    fn into_ints(a: Vec<u64>) -> ZmPoly {
        from_words(a)
    }
    fn reduce(&self, a: &Vec<u64>) -> Vec<u64> {
        let mut out: Vec<u64> = a.iter().map(|&c| c % self.m).collect();
        trim_word(&mut out);
        out
    }
    fn add(&self, a: &Vec<u64>, b: &Vec<u64>) -> Vec<u64> {
        let m = self.m;
        let mut out: Vec<u64> = (0..a.len().max(b.len()))
            .map(|i| {
                let s = a.get(i).unwrap_or(&0) + b.get(i).unwrap_or(&0);
                if s >= m {
                    s - m
                } else {
                    s
                }
            })
            .collect();
        trim_word(&mut out);
        out
    }
    fn sub(&self, a: &Vec<u64>, b: &Vec<u64>) -> Vec<u64> {
        let m = self.m;
        let mut out: Vec<u64> = (0..a.len().max(b.len()))
            .map(|i| {
                let (x, y) = (*a.get(i).unwrap_or(&0), *b.get(i).unwrap_or(&0));
                if x >= y {
                    x - y
                } else {
                    x + (m - y)
                }
            })
            .collect();
        trim_word(&mut out);
        out
    }
    fn mul(&self, a: &Vec<u64>, b: &Vec<u64>) -> Vec<u64> {
        mul_word(a, b, self.m)
    }
    fn divrem_monic(&self, a: &Vec<u64>, b: &Vec<u64>) -> (Vec<u64>, Vec<u64>) {
        divrem_monic_word(a, b, self.m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(cs: &[i64]) -> ZmPoly {
        cs.iter().map(|&c| Int::from(c)).collect()
    }

    #[test]
    fn word_and_big_paths_agree() {
        let a = ints(&[3, -7, 11, 1]);
        let b = ints(&[-5, 2, 1]);
        // One word modulus of each product regime, and one beyond 64 bits.
        let moduli = [
            Int::from(1_000_003),
            Int::from(3i64.pow(39)),
            Int::from(3).pow(60),
        ];
        for m in moduli {
            let ring = Zm::new(m.clone());
            let (a, b) = (ring.reduce_poly(&a), ring.reduce_poly(&b));
            let prod = ring.mul(&a, &b);
            let (q, r) = ring.divrem_monic(&prod, &b);
            assert_eq!((q, r), (a.clone(), vec![]), "modulus {m}");
            let sum = ring.add(&ring.mul(&a, &ring.scale(&b, &Int::from(-2))), &prod);
            assert_eq!(ring.add(&sum, &prod), ring.reduce_poly(&[]), "modulus {m}");
            assert_eq!(ring.symmetric(&Int::from(-4)), Int::from(-4));
            let inv = ring.inv(&Int::from(7)).unwrap();
            assert!(ring.reduce(&Coeff::mul(&inv, &Int::from(7))).is_one());
        }
    }
}
