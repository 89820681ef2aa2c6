//! Univariate polynomials modulo a word-sized prime, used for one question only: are two
//! integer polynomials certainly coprime? CAD projection asks it for every pair of basis
//! candidates and the answer is almost always yes, so a dense Euclid over `Z/p` with
//! machine words settles the usual case before the (much dearer) subresultant PRS runs.

use crate::coeff::Coeff;
use crate::poly::Poly;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use smallvec::SmallVec;

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

/// A dense polynomial modulo `p`, index = exponent; short ones stay off the heap.
type Dense = SmallVec<[u64; 8]>;

/// Dense coefficients (index = exponent of `v`) modulo `p` of `a` with every other
/// variable `x_u` replaced by the residue `vals[u]`, or `None` when `a` has a variable other
/// than `v` beyond `vals` or the image has lower degree in `v` than `a` (its leading
/// coefficient vanishes at the point modulo `p`). With `vals` empty this is the plain
/// reduction of a polynomial in `v` alone.
fn image<C: Coeff>(a: &Poly<C>, v: usize, vals: &[u64], p: u64) -> Option<Dense> {
    let deg = match a.main_var() {
        // The leading term has the highest power of the main variable.
        Some(mv) if mv == v => a.terms()[0].0.exp(v) as usize,
        _ => a.degree(v) as usize,
    };
    let mut out: Dense = SmallVec::from_elem(0, deg + 1);
    for (m, c) in a.terms() {
        let exps = m.exps();
        let e = exps.get(v).copied().unwrap_or(0) as usize;
        let mut t = residue(c, p);
        for (u, &k) in exps.iter().enumerate() {
            if k > 0 && u != v {
                t = t * pow_mod(*vals.get(u)?, k, p) % p;
            }
        }
        out[e] = (out[e] + t) % p;
    }
    // Trimmed by construction once the top coefficient survives.
    (out[deg] != 0).then_some(out)
}

/// `x^e mod p` (`x < p < 2^31`).
fn pow_mod(x: u64, mut e: u32, p: u64) -> u64 {
    let (mut acc, mut base) = (1u64, x % p);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base % p;
        }
        e >>= 1;
        base = base * base % p;
    }
    acc
}

fn trim(a: &mut Dense) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// Degree of `gcd(a, b)` over `Z/p` (`a`, `b` non-zero, trimmed, entries below `p`).
///
/// Euclid with one inverse per remainder: `b` is scaled once to `b R / lc(b)` (`R = 2^32`),
/// so that each step of the division, `a <- a - lc(a) x^shift b / lc(b)`, is one
/// Montgomery product per entry ([`Mont32`]) instead of the three hardware remainders of
/// the inverse-free form (`a <- lc(b) a - lc(a) x^shift b`), which were most of the
/// square-free basis's coprimality proofs (hard random domains: up to three quarters of
/// a decomposition). The inverse is Fermat's `lc^(p-2)` by Montgomery products: an
/// extended Euclid of words (a division per step) cost more than the division of the
/// polynomials at the degrees these proofs see.
fn gcd_degree(mut a: Dense, mut b: Dense, p: u64) -> usize {
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    let m = Mont32::new(p);
    let mut scaled: Dense = SmallVec::new();
    while !b.is_empty() {
        let lb = b.len() - 1;
        // lc(b) is non-zero (b is trimmed) and p is prime, so it has an inverse; `s` is
        // R^2 / lc(b), so that mul(b_i, s) = b_i R / lc(b).
        let s = m.mul(m.inverse_mont(b[lb]), m.r2);
        scaled.clear();
        scaled.extend(b[..lb].iter().map(|&x| m.mul(x, s)));
        while a.len() > lb {
            let top = a.len() - 1;
            let q = a[top];
            let shift = top - lb;
            if q != 0 {
                for (x, &bi) in a[shift..top].iter_mut().zip(&scaled) {
                    // mul(q, b_i R / lc(b)) = q b_i / lc(b) modulo p.
                    let t = m.mul(q, bi);
                    let v = *x + p - t;
                    *x = v - p * u64::from(v >= p);
                }
            }
            a.pop();
            trim(&mut a);
        }
        std::mem::swap(&mut a, &mut b);
    }
    a.len() - 1
}

/// Montgomery arithmetic modulo an odd prime `p < 2^31` with `R = 2^32`: a product is two
/// multiplications and a shift instead of a 64-bit division.
struct Mont32 {
    p: u64,
    /// `-1 / p` modulo `2^32`.
    neg_inv: u32,
    /// `R^2 mod p`.
    r2: u64,
}

impl Mont32 {
    fn new(p: u64) -> Mont32 {
        debug_assert!(p % 2 == 1 && p < 1 << 31);
        // Newton's iteration doubles the correct low bits of an inverse of the odd p
        // (p is its own inverse modulo 8): 3, 6, 12, 24, 48.
        let p32 = p as u32;
        let mut inv = p32;
        for _ in 0..4 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(p32.wrapping_mul(inv)));
        }
        let r = (1u64 << 32) % p;
        Mont32 {
            p,
            neg_inv: inv.wrapping_neg(),
            r2: r * r % p,
        }
    }

    /// `a b / R mod p` for `a, b < p`, in `[0, p)`.
    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        let t = a * b;
        let m = (t as u32).wrapping_mul(self.neg_inv) as u64;
        // t + m p < p^2 + 2^32 p < 2^64 (p < 2^31), and the low 32 bits cancel; the
        // quotient is below 2p.
        let u = (t + m * self.p) >> 32;
        u - self.p * u64::from(u >= self.p)
    }

    /// For `x != 0` (plain, below `p`): `R / x mod p`, the Montgomery form of `1 / x`, as
    /// `(x R)^(p - 2)` in Montgomery arithmetic (Fermat).
    fn inverse_mont(&self, x: u64) -> u64 {
        let base = self.mul(x, self.r2);
        // The Montgomery form of 1 is R mod p = mul(1, R^2).
        let mut acc = self.mul(1, self.r2);
        let mut e = self.p - 2;
        let mut sq = base;
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, sq);
            }
            sq = self.mul(sq, sq);
            e >>= 1;
        }
        acc
    }
}

/// `true` proves that `a` and `b`, polynomials in `v` alone, have no common factor of
/// positive degree: if `h` divided both, `h mod p` would divide both images, and its
/// degree is kept because `lc(h)` divides leading coefficients that do not vanish modulo
/// `p`. `false` means "not proven" (a common factor, or an unlucky prime).
pub(crate) fn coprime_mod_p<C: Coeff>(a: &Poly<C>, b: &Poly<C>, v: usize) -> bool {
    only_in(a, v) && only_in(b, v) && coprime_at_point(a, b, v, &[]) == Some(true)
}

/// Whether `q` has no variable other than `v`.
pub(crate) fn only_in<C: Coeff>(q: &Poly<C>, v: usize) -> bool {
    q.terms()
        .iter()
        .all(|(m, _)| m.exps().iter().enumerate().all(|(u, &e)| u == v || e == 0))
}

/// Images at the integer point `point` (`point[u]` is the value of `x_u`; the entry for `v`
/// is ignored) modulo each prime in turn. `Some(true)` proves that `a` and `b` have no
/// common factor of positive degree in `v`: if `h` divided both, its image would divide
/// both images (evaluation and reduction form a ring homomorphism), and it would keep its
/// degree in `v` because `lc_v(h)` divides `lc_v(a)`, whose image does not vanish.
/// `Some(false)`: the first prime to keep both degrees left the images with a common
/// factor (a common factor is likely, not proven); `None`: every prime lost a degree (the
/// leading coefficients probably vanish at the point) or a variable has no value.
pub(crate) fn coprime_at_point<C: Coeff>(
    a: &Poly<C>,
    b: &Poly<C>,
    v: usize,
    point: &[i64],
) -> Option<bool> {
    for (p, vals, x) in images_keeping_degree(a, v, point) {
        if let Some(y) = image(b, v, &vals, p) {
            // Both degrees kept: the answer of this prime stands (another prime would
            // disagree only if this one divided a resultant, which is all but impossible
            // for primes near 2^31 and small inputs; either way it is only "not proven").
            return Some(gcd_degree(x, y, p) == 0);
        }
    }
    None
}

/// For each prime in turn at which `a`'s image keeps its degree in `v`: the prime, the
/// point reduced modulo it, and the image.
fn images_keeping_degree<'a, C: Coeff>(
    a: &'a Poly<C>,
    v: usize,
    point: &'a [i64],
) -> impl Iterator<Item = (u64, Dense, Dense)> + 'a {
    PRIMES.iter().filter_map(move |&p| {
        let vals: Dense = point
            .iter()
            .map(|&x| x.rem_euclid(p as i64) as u64)
            .collect();
        let x = image(a, v, &vals, p)?;
        Some((p, vals, x))
    })
}

/// `Some(true)` proves that `a` (of positive degree in `v`) has no repeated factor of
/// positive degree in `v`: if `h^2` divided `a`, the image of `h` would keep its degree (as
/// in [`coprime_at_point`]) and its square would divide the image of `a`, so the image and
/// its derivative (the image of `da/dv`: derivation in `v` commutes with evaluating the other
/// variables and reducing modulo `p`) would share it. The derivative keeps the degree
/// `deg - 1` because `deg * lc` does not vanish modulo `p > deg`. `Some(false)`: the first
/// prime to keep the degree found a repeated factor (likely, not proven); `None`: no prime
/// kept the degree, or a variable has no value.
pub(crate) fn square_free_at_point<C: Coeff>(a: &Poly<C>, v: usize, point: &[i64]) -> Option<bool> {
    let (p, _, x) = images_keeping_degree(a, v, point).next()?;
    let deg = x.len() - 1;
    if deg == 0 || deg as u64 >= p {
        return None;
    }
    let dx: Dense = x
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, &c)| i as u64 * c % p)
        .collect();
    Some(gcd_degree(x, dx, p) == 0)
}

/// The image modulo the first prime of a polynomial in one variable, for repeated
/// coprimality tests of the members of a set (each image computed once).
pub(crate) struct UnivariateImage {
    var: usize,
    dense: Dense,
}

impl UnivariateImage {
    /// `None` unless `a` is a non-constant polynomial in its main variable alone whose
    /// leading coefficient does not vanish modulo the prime.
    pub(crate) fn of<C: Coeff>(a: &Poly<C>) -> Option<UnivariateImage> {
        let var = a.main_var()?;
        if !only_in(a, var) {
            return None;
        }
        let dense = image(a, var, &[], PRIMES[0])?;
        Some(UnivariateImage { var, dense })
    }

    /// `true` proves that the two polynomials have an integer gcd. In different variables
    /// a common factor could contain neither; in the same one, [`coprime_mod_p`]'s
    /// argument: a common factor of positive degree keeps its degree in both images (the
    /// leading coefficients survive), and polynomials in one variable have integer
    /// contents.
    pub(crate) fn coprime(&self, o: &UnivariateImage) -> bool {
        self.var != o.var || gcd_degree(self.dense.clone(), o.dense.clone(), PRIMES[0]) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::{coprime_at_point, coprime_mod_p, gcd_degree, Dense, PRIMES};

    #[test]
    fn gcd_degrees_modulo_p() {
        let p = PRIMES[0];
        // (x - 1)(x + 2) and (x - 1)(x + 5): gcd x - 1.
        let a: Dense = [p - 2, 1, 1].into_iter().collect();
        let b: Dense = [p - 5, 4, 1].into_iter().collect();
        assert_eq!(gcd_degree(a.clone(), b, p), 1);
        let c: Dense = [3, 0, 1].into_iter().collect();
        assert_eq!(gcd_degree(a.clone(), c, p), 0);
        assert_eq!(gcd_degree(a.clone(), a, p), 2);
    }

    /// The inverse-free Euclid `gcd_degree` had before (one remainder per product): the
    /// oracle for the Montgomery version.
    fn gcd_degree_by_remainders(mut a: Dense, mut b: Dense, p: u64) -> usize {
        if a.len() < b.len() {
            std::mem::swap(&mut a, &mut b);
        }
        while !b.is_empty() {
            let lb = b.len() - 1;
            let bl = b[lb];
            while a.len() > lb {
                let top = a.len() - 1;
                let (q, shift) = (a[top], top - lb);
                for x in a[..top].iter_mut() {
                    *x = *x * bl % p;
                }
                for (i, &bi) in b[..lb].iter().enumerate() {
                    a[shift + i] = (a[shift + i] + p - q * bi % p) % p;
                }
                a.pop();
                super::trim(&mut a);
            }
            std::mem::swap(&mut a, &mut b);
        }
        a.len() - 1
    }

    fn mul_dense(a: &Dense, b: &Dense, p: u64) -> Dense {
        let mut out: Dense = smallvec::SmallVec::from_elem(0, a.len() + b.len() - 1);
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                out[i + j] = (out[i + j] + x * y) % p;
            }
        }
        out
    }

    #[test]
    fn montgomery_gcd_degrees_agree_with_remainders_and_common_factors() {
        // A fixed linear congruential sequence: reproducible without a dependency.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % m
        };
        for &p in &PRIMES {
            for round in 0..200 {
                let mut poly = |deg: usize, small: bool| -> Dense {
                    let m = if small { 3 } else { p };
                    let mut d: Dense = (0..deg).map(|_| next(m)).collect();
                    d.push(1 + next(m - 1));
                    d
                };
                let small = round % 2 == 0;
                let h = poly(round % 7, small);
                let (da, db) = (1 + round % 30, 1 + (round * 7) % 40);
                let a = mul_dense(&h, &poly(da, small), p);
                let b = mul_dense(&h, &poly(db, small), p);
                let g = gcd_degree(a.clone(), b.clone(), p);
                assert_eq!(g, gcd_degree_by_remainders(a, b, p), "p {p} round {round}");
                // h divides both.
                assert!(g >= round % 7, "p {p} round {round}");
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
        // At a point: y = 2 keeps the degrees in x and separates x + y from x + 1.
        assert_eq!(
            coprime_at_point(&p("x + y"), &p("x + 1"), 0, &[0, 2]),
            Some(true)
        );
        // A common factor is never disproved.
        assert_eq!(
            coprime_at_point(&p("(x + y)*(x - 3)"), &p("(x + y)*x"), 0, &[0, 2]),
            Some(false)
        );
        // y = 0 makes the leading coefficient y*x vanish: no answer.
        assert_eq!(
            coprime_at_point(&p("y*x + 1"), &p("x + 1"), 0, &[0, 0]),
            None
        );
    }
}
