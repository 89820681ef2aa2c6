//! Univariate polynomials modulo a word-sized prime, used for one question only: are two
//! integer polynomials certainly coprime? CAD projection asks it for every pair of basis
//! candidates and the answer is almost always yes, so a dense Euclid over `Z/p` with
//! machine words settles the usual case before the (much dearer) subresultant PRS runs.

use crate::coeff::Coeff;
use crate::poly::Poly;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// Primes below 2^31: residues multiply without overflow in `u64`.
const PRIMES: [u64; 3] = [2_147_483_647, 2_147_483_629, 2_147_483_587];

fn residue<C: Coeff>(c: &C, p: u64) -> u64 {
    match c.to_i64() {
        Some(v) => v.rem_euclid(p as i64) as u64,
        None => {
            let r = c.to_bigint() % BigInt::from(p);
            let r = if r.sign() == num_bigint::Sign::Minus {
                r + BigInt::from(p)
            } else {
                r
            };
            // 0 <= r < p < 2^31 after the adjustment above.
            r.to_u64().unwrap_or(0)
        }
    }
}

/// Dense coefficients (index = exponent of `v`) of `a` modulo `p`, or `None` when `a`
/// has another variable or its leading coefficient vanishes modulo `p`.
fn image<C: Coeff>(a: &Poly<C>, v: usize, p: u64) -> Option<Vec<u64>> {
    let deg = a.degree(v) as usize;
    let mut out = vec![0u64; deg + 1];
    for (m, c) in a.terms() {
        let e = m.exp(v) as usize;
        if m.total_degree() != e as u64 {
            return None;
        }
        out[e] = residue(c, p);
    }
    (out[deg] != 0).then_some(out)
}

fn inverse(a: u64, p: u64) -> u64 {
    // Extended Euclid on (a, p); a != 0 mod p and p prime, so the gcd is 1.
    let (mut r0, mut r1) = (p as i64, (a % p) as i64);
    let (mut t0, mut t1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    t0.rem_euclid(p as i64) as u64
}

fn trim(a: &mut Vec<u64>) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// Degree of `gcd(a, b)` over `Z/p` (`a`, `b` non-zero, trimmed).
fn gcd_degree(mut a: Vec<u64>, mut b: Vec<u64>, p: u64) -> usize {
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_empty() {
        // a <- a mod b
        let lb = b.len() - 1;
        let inv = inverse(b[lb], p);
        while a.len() > lb {
            let top = a.len() - 1;
            let q = a[top] * inv % p;
            let shift = top - lb;
            for (i, &bi) in b.iter().enumerate() {
                let t = q * bi % p;
                a[shift + i] = (a[shift + i] + p - t) % p;
            }
            trim(&mut a);
        }
        std::mem::swap(&mut a, &mut b);
    }
    a.len() - 1
}

/// `true` proves that `a` and `b`, polynomials in `v` alone, have no common factor of
/// positive degree: if `h` divided both, `h mod p` would divide both images, and its
/// degree is kept because `lc(h)` divides leading coefficients that do not vanish modulo
/// `p`. `false` means "not proven" (a common factor, or an unlucky prime).
pub(crate) fn coprime_mod_p<C: Coeff>(a: &Poly<C>, b: &Poly<C>, v: usize) -> bool {
    PRIMES
        .iter()
        .any(|&p| match (image(a, v, p), image(b, v, p)) {
            (Some(x), Some(y)) => gcd_degree(x, y, p) == 0,
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::{coprime_mod_p, inverse, PRIMES};
    #[test]
    fn inverses() {
        for &p in &PRIMES {
            for a in [1u64, 2, 3, 12345, p - 1, p - 2] {
                assert_eq!(a * inverse(a, p) % p, 1);
            }
        }
    }

    use crate::{Poly, Vars};

    #[test]
    fn proves_coprimality_and_never_claims_it_falsely() {
        let mut v = Vars::from_names(["x", "y"]);
        let mut p = |s: &str| Poly::parse(s, &mut v).unwrap();
        assert!(coprime_mod_p(&p("x^2 - 2"), &p("x^3 - 3x + 1"), 0));
        assert!(!coprime_mod_p(
            &p("(x - 1)*(x + 5)"),
            &p("(x - 1)*(x^2 + 7)"),
            0
        ));
        // Leading coefficient divisible by every prime tried: not proven, not wrong.
        let big = "2147483647*2147483629*2147483587*x + 1";
        assert!(!coprime_mod_p(&p(big), &p("x + 3"), 0));
        // Coefficients beyond 64 bits are reduced exactly.
        assert!(coprime_mod_p(
            &p("100000000000000000000000*x^2 + 1"),
            &p("x - 100000000000000000000"),
            0
        ));
        // Another variable: not a question for this test.
        assert!(!coprime_mod_p(&p("x + y"), &p("x + 1"), 0));
    }
}
