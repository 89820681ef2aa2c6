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
fn gcd_degree(mut a: Dense, mut b: Dense, p: u64) -> usize {
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_empty() {
        // a <- lc(b)^k a mod b, without inverses: lc(b) is a unit modulo p, so scaling by it
        // leaves the gcd unchanged. Each step cancels the top coefficient of a:
        // a <- lc(b) a - lc(a) x^shift b.
        let lb = b.len() - 1;
        let bl = b[lb];
        while a.len() > lb {
            let top = a.len() - 1;
            let q = a[top];
            let shift = top - lb;
            for x in a[..top].iter_mut() {
                *x = *x * bl % p;
            }
            for (i, &bi) in b[..lb].iter().enumerate() {
                let t = q * bi % p;
                a[shift + i] = (a[shift + i] + p - t) % p;
            }
            a.pop();
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
