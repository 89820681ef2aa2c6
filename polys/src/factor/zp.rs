//! Dense univariate polynomials over the prime field Z/p, the ground on which the modular
//! factorisation runs.
//!
//! The prime stays below 2^31, so a product of two residues fits in a `u64` and no
//! arithmetic here ever needs a big integer.

use crate::coeff::Coeff;
use crate::int::Int;

/// A polynomial over Z/p: residues in `[0, p)`, index = power of the variable, no trailing
/// zeros (the zero polynomial is empty).
pub type ZpPoly = Vec<u64>;

/// Below this bound products of residues stay below 2^32, and sums of them can wait to be
/// reduced.
const SMALL_PRIME: u64 = 1 << 16;

/// The field Z/p for a prime `p < 2^31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zp {
    p: u64,
}

/// Drops zero leading coefficients, restoring the representation invariant.
pub fn trim(a: &mut ZpPoly) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// Degree of a non-zero polynomial (0 for the zero polynomial, as for constants).
pub fn degree(a: &ZpPoly) -> usize {
    a.len().saturating_sub(1)
}

impl Zp {
    /// The field of residues modulo `p`; `p` must be a prime in `[2, 2^31)`.
    pub fn new(p: u64) -> Zp {
        debug_assert!((2..1 << 31).contains(&p), "Z/p needs a prime below 2^31");
        Zp { p }
    }

    pub fn modulus(self) -> u64 {
        self.p
    }

    pub fn sub(self, a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            a + self.p - b
        }
    }

    pub fn mul(self, a: u64, b: u64) -> u64 {
        a * b % self.p
    }

    pub fn pow(self, a: u64, mut e: u64) -> u64 {
        let (mut acc, mut base) = (1, a % self.p);
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }

    /// Inverse of a non-zero residue (Fermat: a^(p-2)).
    pub fn inv(self, a: u64) -> u64 {
        debug_assert!(
            !a.is_multiple_of(self.p),
            "0 has no inverse modulo {}",
            self.p
        );
        self.pow(a, self.p - 2)
    }

    /// The residue of an integer.
    pub fn reduce(self, c: &Int) -> u64 {
        let (_, r) = c.div_mod_floor(&Int::from(self.p as i64));
        r.to_i64().expect("a residue modulo p < 2^31 fits in i64") as u64
    }

    /// The image of an integer polynomial (dense, index = power).
    pub fn reduce_poly(self, f: &[Int]) -> ZpPoly {
        let mut out: ZpPoly = f.iter().map(|c| self.reduce(c)).collect();
        trim(&mut out);
        out
    }

    pub fn poly_sub(self, a: &ZpPoly, b: &ZpPoly) -> ZpPoly {
        let mut out = vec![0; a.len().max(b.len())];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.sub(
                a.get(i).copied().unwrap_or(0),
                b.get(i).copied().unwrap_or(0),
            );
        }
        trim(&mut out);
        out
    }

    pub fn poly_mul(self, a: &ZpPoly, b: &ZpPoly) -> ZpPoly {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        let p = self.p;
        let mut out = vec![0; a.len() + b.len() - 1];
        if p < SMALL_PRIME {
            // Products stay below 2^32, so a u64 sums up to 2^32 of them: reduce once.
            for (i, &x) in a.iter().enumerate() {
                for (j, &y) in b.iter().enumerate() {
                    out[i + j] += x * y;
                }
            }
            out.iter_mut().for_each(|c| *c %= p);
        } else {
            let mut acc = vec![0u128; out.len()];
            for (i, &x) in a.iter().enumerate() {
                for (j, &y) in b.iter().enumerate() {
                    acc[i + j] += (x * y) as u128;
                }
            }
            for (o, c) in out.iter_mut().zip(acc) {
                *o = (c % p as u128) as u64;
            }
        }
        // The leading product is non-zero in a field; trimming is for a zero factor.
        trim(&mut out);
        out
    }

    pub fn scale(self, a: &ZpPoly, c: u64) -> ZpPoly {
        let mut out: ZpPoly = a.iter().map(|&x| self.mul(x, c)).collect();
        trim(&mut out);
        out
    }

    /// `a` divided by its leading coefficient (the zero polynomial stays zero).
    pub fn monic(self, a: &ZpPoly) -> ZpPoly {
        match a.last() {
            None | Some(1) => a.clone(),
            Some(&l) => self.scale(a, self.inv(l)),
        }
    }

    /// Quotient and remainder of `a` by a non-zero `b`.
    pub fn divrem(self, a: &ZpPoly, b: &ZpPoly) -> (ZpPoly, ZpPoly) {
        let db = b
            .len()
            .checked_sub(1)
            .expect("division by the zero polynomial");
        if a.len() < b.len() {
            return (Vec::new(), a.clone());
        }
        let p = self.p;
        // Divisors are mostly monic (powmod reduces modulo monic polynomials).
        let lc_inv = if b[db] == 1 { 1 } else { self.inv(b[db]) };
        let mut r = a.clone();
        let mut q = vec![0; a.len() - db];
        // For a small prime, entries of r hold unreduced values: each row adds
        // p^2 - c*y < 2^32 (congruent to -c*y), so no entry overflows within 2^32 rows.
        let lazy = p < SMALL_PRIME;
        for i in (0..q.len()).rev() {
            let c = self.mul(r[i + db] % p, lc_inv);
            q[i] = c;
            if c == 0 {
                continue;
            }
            if lazy {
                for (j, &y) in b.iter().enumerate() {
                    r[i + j] += p * p - c * y;
                }
            } else {
                for (j, &y) in b.iter().enumerate() {
                    r[i + j] = self.sub(r[i + j], self.mul(c, y));
                }
            }
        }
        if lazy {
            r.iter_mut().take(db).for_each(|c| *c %= p);
        }
        r.truncate(db);
        trim(&mut r);
        trim(&mut q);
        (q, r)
    }

    pub fn rem(self, a: &ZpPoly, b: &ZpPoly) -> ZpPoly {
        self.divrem(a, b).1
    }

    /// Monic greatest common divisor (zero only when both are zero).
    pub fn gcd(self, a: &ZpPoly, b: &ZpPoly) -> ZpPoly {
        let (mut a, mut b) = (a.clone(), b.clone());
        while !b.is_empty() {
            let r = self.rem(&a, &b);
            a = b;
            b = r;
        }
        self.monic(&a)
    }

    /// Bezout coefficients `(s, t)` with `s a + t b = 1`, `deg s < deg b`, `deg t < deg a`,
    /// for coprime `a`, `b` of positive degree; `None` when they are not coprime.
    pub fn bezout(self, a: &ZpPoly, b: &ZpPoly) -> Option<(ZpPoly, ZpPoly)> {
        // Invariant of the extended Euclidean scheme: s_i a + t_i b = r_i.
        let (mut r0, mut r1) = (a.clone(), b.clone());
        let (mut s0, mut s1): (ZpPoly, ZpPoly) = (vec![1], Vec::new());
        let (mut t0, mut t1): (ZpPoly, ZpPoly) = (Vec::new(), vec![1]);
        while !r1.is_empty() {
            let (q, r) = self.divrem(&r0, &r1);
            let s = self.poly_sub(&s0, &self.poly_mul(&q, &s1));
            let t = self.poly_sub(&t0, &self.poly_mul(&q, &t1));
            (r0, r1) = (r1, r);
            (s0, s1) = (s1, s);
            (t0, t1) = (t1, t);
        }
        if r0.len() != 1 {
            return None;
        }
        let c = self.inv(r0[0]);
        Some((self.scale(&s0, c), self.scale(&t0, c)))
    }

    /// `base^e mod m` for a non-constant `m`.
    pub fn powmod(self, base: &ZpPoly, mut e: u64, m: &ZpPoly) -> ZpPoly {
        let mut acc: ZpPoly = self.rem(&vec![1], m);
        let mut b = self.rem(base, m);
        while e > 0 {
            if e & 1 == 1 {
                acc = self.rem(&self.poly_mul(&acc, &b), m);
            }
            e >>= 1;
            if e > 0 {
                b = self.rem(&self.poly_mul(&b, &b), m);
            }
        }
        acc
    }

    pub fn derivative(self, a: &ZpPoly) -> ZpPoly {
        let mut out: ZpPoly = a
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, &c)| self.mul(c, i as u64 % self.p))
            .collect();
        trim(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_and_ring_operations() {
        let f = Zp::new(7);
        assert_eq!(f.mul(f.inv(3), 3), 1);
        // (x + 1)(x + 6) = x^2 + 6 = x^2 - 1 mod 7
        let a = vec![1, 1];
        let b = vec![6, 1];
        let prod = f.poly_mul(&a, &b);
        assert_eq!(prod, vec![6, 0, 1]);
        let (q, r) = f.divrem(&prod, &a);
        assert_eq!((q, r), (b.clone(), vec![]));
        assert_eq!(f.gcd(&prod, &f.poly_mul(&a, &vec![2, 1])), a);
        let (s, t) = f.bezout(&a, &b).unwrap();
        let sa = f.poly_sub(&vec![1], &f.poly_mul(&t, &b));
        assert_eq!(f.poly_mul(&s, &a), sa);
        // x^7 = x mod (x^2 + 1) over Z/7? x^7 = x * (x^2)^3 = -x.
        let m = vec![1, 0, 1];
        assert_eq!(f.powmod(&vec![0, 1], 7, &m), vec![0, 6]);
        assert_eq!(f.derivative(&vec![1, 2, 3, 0, 0, 0, 0, 1]), vec![2, 6]);
        assert_eq!(f.reduce(&Int::from(-1)), 6);
    }
}
