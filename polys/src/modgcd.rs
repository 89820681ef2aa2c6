//! The gcd of two univariate integer polynomials by the modular method, and contents
//! without long chains of big gcds.
//!
//! Euclid over Z, even with contents divided out at each step (the primitive PRS), makes
//! coefficients grow and spends its time in big-integer gcds; on the resultants that CAD
//! lifting isolates (degree 20-100, thousands of bits) that was nearly all of the work.
//! Here the gcd is computed modulo word primes instead (Euclid in `u64`), the images are
//! combined by Chinese remaindering, and the reconstruction stops as soon as it stops
//! changing: then its primitive part is tried by exact division of both inputs, which makes
//! the result exact whatever the primes were (see [`modular_gcd`]). Most pairs are
//! coprime, and one prime proves it.

use crate::coeff::Coeff;
use crate::primes::{inv_mod, mul_mod, sub_mod, word_prime};
use num_bigint::{BigInt, Sign};
use num_traits::Zero;
use smallvec::SmallVec;

/// How many primes [`modular_gcd`] tries before giving up (62 bits each: enough for gcds
/// with coefficients of about 60,000 bits, far beyond what a CAD can use).
const MAX_PRIMES: usize = 1000;

/// The gcd of the coefficients (non-negative; 0 for none or all zero). Small coefficients
/// first: their gcds are cheap, and once the gcd is small every further step reduces a big
/// coefficient modulo it first; it stops at 1.
///
/// ```
/// use polys::{coefficient_gcd, Int};
/// let cs = [Int::from(12), Int::from(-18), Int::from(30)];
/// assert_eq!(coefficient_gcd(&cs), Int::from(6));
/// ```
pub fn coefficient_gcd<'a, C: Coeff>(cs: impl IntoIterator<Item = &'a C>) -> C {
    let mut order: SmallVec<[&C; 16]> = cs.into_iter().filter(|c| !c.is_zero()).collect();
    // Stable, so equal sizes keep their order (machine words: the order does not matter).
    order.sort_by_key(|c| c.bits());
    let mut g = C::zero();
    for c in order {
        g = g.gcd(c);
        if g.is_one() {
            break;
        }
    }
    g
}

/// `a / d` for dense polynomials (lowest degree first, no trailing zeros, `d` non-zero)
/// when `d` divides `a` in `Z[x]`; `None` otherwise.
pub fn dense_div_exact<C: Coeff>(a: &[C], d: &[C]) -> Option<Vec<C>> {
    let dl = d.last()?;
    if a.len() < d.len() {
        return a.iter().all(Coeff::is_zero).then(Vec::new);
    }
    let mut r = a.to_vec();
    let dd = d.len() - 1;
    let mut q = vec![C::zero(); a.len() - dd];
    for k in (0..q.len()).rev() {
        let (qk, rem) = r[k + dd].div_mod_floor(dl);
        if !rem.is_zero() {
            return None;
        }
        if !qk.is_zero() {
            for (j, b) in d.iter().enumerate() {
                let t = r[k + j].sub(&qk.mul(b));
                r[k + j] = t;
            }
        }
        q[k] = qk;
    }
    r.iter().all(Coeff::is_zero).then_some(q)
}

/// The gcd of `a` and `b` (dense, lowest degree first) in `Z[x]`, primitive with a positive
/// leading coefficient: the gcd of their primitive parts. `gcd(0, 0)` is empty (zero);
/// a non-zero constant gives `[1]`. `None` only when [`MAX_PRIMES`] primes did not
/// suffice (the caller falls back to a PRS).
///
/// Why the result is exact: for a prime `p` dividing neither leading coefficient, the
/// primitive gcd `g` reduces to a divisor of both images of the same degree, so the monic
/// gcd of the images has degree at least `deg g`; degree 0 therefore proves `g = 1`, and a
/// prime giving a higher degree than another is unlucky and dropped. Images of the least
/// degree seen, scaled by `gcd(lc a, lc b)` (a multiple of `lc g`), are combined by Chinese
/// remaindering into symmetric residues. When a new prime changes nothing, the primitive
/// part `h` of the reconstruction is tried: if `h` divides both `a` and `b` then `h`
/// divides `g`, and `deg h >= deg g`, so `h = g`. Otherwise more primes follow.
///
/// ```
/// use polys::{modular_gcd, Int};
/// let v = |c: &[i64]| c.iter().map(|&x| Int::from(x)).collect::<Vec<_>>();
/// // (x - 1)(x + 2) and 4 (x - 1)(x + 5): gcd x - 1.
/// assert_eq!(modular_gcd(&v(&[-2, 1, 1]), &v(&[-20, 16, 4])), Some(v(&[-1, 1])));
/// ```
pub fn modular_gcd<C: Coeff>(a: &[C], b: &[C]) -> Option<Vec<C>> {
    let (a, b) = (trimmed(a), trimmed(b));
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Some(Vec::new()),
        (true, false) => return Some(primitive(b)),
        (false, true) => return Some(primitive(a)),
        _ => {}
    }
    if a.len() == 1 || b.len() == 1 {
        return Some(vec![C::one()]);
    }
    let (la, lb) = (&a[a.len() - 1], &b[b.len() - 1]);
    let gamma = la.gcd(lb);
    let mut crt: Option<Crt> = None;
    for i in 0..MAX_PRIMES {
        let p = word_prime(i);
        let (Some(ra), Some(rb)) = (image(a, p), image(b, p)) else {
            // p divides a leading coefficient.
            continue;
        };
        let mut g = gcd_mod(ra, rb, p);
        if g.len() == 1 {
            return Some(vec![C::one()]);
        }
        let scale = gamma.rem_u64(p);
        for c in &mut g {
            *c = mul_mod(*c, scale, p);
        }
        match &mut crt {
            Some(s) if g.len() > s.coeffs.len() => continue,
            Some(s) if g.len() == s.coeffs.len() => {
                if !s.absorb(&g, p) {
                    let h: Vec<C> = primitive(
                        &s.coeffs
                            .iter()
                            .map(|c| C::from_bigint(c.clone()))
                            .collect::<Vec<_>>(),
                    );
                    if dense_div_exact(b, &h).is_some() && dense_div_exact(a, &h).is_some() {
                        return Some(h);
                    }
                }
            }
            // The first image, or every earlier prime was unlucky.
            _ => crt = Some(Crt::new(&g, p)),
        }
    }
    None
}

fn trimmed<C: Coeff>(a: &[C]) -> &[C] {
    let n = a.iter().rposition(|c| !c.is_zero()).map_or(0, |k| k + 1);
    &a[..n]
}

/// `a` divided by its content, with a positive leading coefficient (`a` non-zero, trimmed).
fn primitive<C: Coeff>(a: &[C]) -> Vec<C> {
    let mut g = coefficient_gcd(a.iter());
    if a.last().is_some_and(|c| c.signum() < 0) {
        g = g.neg();
    }
    if g.is_one() {
        return a.to_vec();
    }
    a.iter().map(|c| c.div_exact(&g)).collect()
}

/// Residues modulo `p`, or `None` when the leading coefficient vanishes modulo `p`.
fn image<C: Coeff>(a: &[C], p: u64) -> Option<Vec<u64>> {
    let r: Vec<u64> = a.iter().map(|c| c.rem_u64(p)).collect();
    (r.last() != Some(&0)).then_some(r)
}

fn trim(a: &mut Vec<u64>) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// The monic gcd of two non-zero images modulo the prime `p` (Euclid with inverses).
pub(crate) fn gcd_mod(mut a: Vec<u64>, mut b: Vec<u64>, p: u64) -> Vec<u64> {
    trim(&mut a);
    trim(&mut b);
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_empty() {
        // a <- a mod b.
        let lb = b.len() - 1;
        let inv = inv_mod(b[lb], p);
        while a.len() > lb {
            let top = a.len() - 1;
            let q = mul_mod(a[top], inv, p);
            let shift = top - lb;
            if q != 0 {
                for (i, &bi) in b[..lb].iter().enumerate() {
                    a[shift + i] = sub_mod(a[shift + i], mul_mod(q, bi, p), p);
                }
            }
            a.pop();
            trim(&mut a);
        }
        std::mem::swap(&mut a, &mut b);
    }
    let inv = inv_mod(a[a.len() - 1], p);
    for c in &mut a {
        *c = mul_mod(*c, inv, p);
    }
    a
}

/// A Chinese remainder reconstruction in progress: coefficients in the symmetric range
/// `(-m/2, m/2]` of the product `m` of the primes absorbed so far.
pub(crate) struct Crt {
    pub(crate) coeffs: Vec<BigInt>,
    pub(crate) modulus: BigInt,
}

impl Crt {
    pub(crate) fn new(g: &[u64], p: u64) -> Crt {
        let half = p / 2;
        Crt {
            coeffs: g
                .iter()
                .map(|&c| {
                    if c > half {
                        BigInt::from(c) - BigInt::from(p)
                    } else {
                        BigInt::from(c)
                    }
                })
                .collect(),
            modulus: BigInt::from(p),
        }
    }

    /// Absorbs the image `g` modulo `p` (same length); whether any coefficient changed.
    pub(crate) fn absorb(&mut self, g: &[u64], p: u64) -> bool {
        // p is a new prime, so it does not divide the product of the earlier ones.
        let m_inv = inv_mod(self.modulus.rem_u64(p), p);
        let new_modulus = &self.modulus * p;
        let mut changed = false;
        for (h, &r) in self.coeffs.iter_mut().zip(g) {
            let t = mul_mod(sub_mod(r, h.rem_u64(p), p), m_inv, p);
            if t == 0 {
                continue;
            }
            changed = true;
            // h + m t is the residue modulo m p; move it into the symmetric range.
            let mut v = &*h + &self.modulus * t;
            let twice: BigInt = &v << 1;
            if twice > new_modulus {
                v -= &new_modulus;
            }
            *h = v;
        }
        self.modulus = new_modulus;
        changed
    }
}

/// The residue of a big integer modulo `p`, in `0..p`.
pub(crate) fn bigint_rem_u64(v: &BigInt, p: u64) -> u64 {
    let r = v.magnitude().iter_u64_digits().rev().fold(0u64, |r, d| {
        (((r as u128) << 64 | d as u128) % p as u128) as u64
    });
    if v.sign() == Sign::Minus && !r.is_zero() {
        p - r
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Int, Poly, Vars};

    fn dense(s: &str) -> Vec<Int> {
        let mut v = Vars::from_names(["x"]);
        let p = Poly::parse(s, &mut v).unwrap();
        let mut c = vec![Int::from(0); p.degree(0) as usize + 1];
        for (m, a) in p.terms() {
            c[m.exp(0) as usize] = a.clone();
        }
        c
    }

    #[test]
    fn gcds_and_edge_cases() {
        let g = modular_gcd(
            &dense("(x - 1)^2*(3x + 2)*(x^2 + 7)"),
            &dense("6*(x - 1)*(3x + 2)^2"),
        );
        assert_eq!(g, Some(dense("(x - 1)*(3x + 2)")));
        assert_eq!(
            modular_gcd(&dense("x^2 + 1"), &dense("x - 5")),
            Some(dense("1"))
        );
        assert_eq!(modular_gcd(&dense("-4x - 2"), &[]), Some(dense("2x + 1")));
        assert_eq!(modular_gcd::<Int>(&[], &[]), Some(vec![]));
        assert_eq!(modular_gcd(&dense("7"), &dense("x")), Some(dense("1")));
        // A leading coefficient divisible by the first primes: they are skipped.
        let p0p1 = format!("{}*{}", word_prime(0), word_prime(1));
        let a = dense(&format!("({p0p1}*x + 1)*(x - 3)"));
        let b = dense(&format!("({p0p1}*x + 1)*(x + 4)"));
        assert_eq!(modular_gcd(&a, &b), Some(dense(&format!("{p0p1}*x + 1"))));
    }

    #[test]
    fn residues_of_big_integers() {
        let p = word_prime(0);
        let v: BigInt = BigInt::from(3u8).pow(200u32);
        let expected = (&v % BigInt::from(p))
            .to_u64_digits()
            .1
            .first()
            .copied()
            .unwrap_or(0);
        assert_eq!(bigint_rem_u64(&v, p), expected);
        assert_eq!((bigint_rem_u64(&-v.clone(), p) + expected) % p, 0);
        assert_eq!(coefficient_gcd(&[Int::from(0), Int::from(0)]), Int::from(0));
    }
}
