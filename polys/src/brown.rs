//! The gcd of two multivariate integer polynomials by Brown's dense modular method: images
//! modulo word primes, evaluation of every other variable at points of a grid, univariate
//! gcds in machine words, Newton interpolation, Chinese remaindering, and a trial division
//! that makes the result exact.
//!
//! The primitive PRS over Z (`gcd.rs`'s fallback and oracle) carries multivariate
//! coefficients whose size grows through the whole sequence; on a CAD projection's square-free
//! basis (discriminants and their derivatives, resultants of resultants) one such gcd took
//! minutes and could not be interrupted. Here every image is a gcd of two univariate
//! polynomials over `Z/p`, and the caller's `stop` is asked per prime and per point.

use crate::coeff::Coeff;
use crate::dense_mod::{horner_blocks, interpolate, top_survives, Field, Layout};
use crate::modgcd::{gcd_mod, Crt};
use crate::modres::ModFail;
use crate::mono::Mono;
use crate::poly::Poly;
use crate::primes::{mul_mod, pow_mod, sub_mod, word_prime};
use num_bigint::BigInt;

/// Primes tried before giving up (the caller then runs the PRS): 62 bits each.
const MAX_PRIMES: usize = 1000;
/// More grid points than this per prime: the caller runs the PRS instead.
const MAX_POINTS: usize = 1 << 20;
/// Primes in a row that ran out of evaluation points before the method gives up (the
/// points where the gcd's degree jumps are mostly the same integers for every prime).
const MAX_SHORT_PRIMES: usize = 3;

/// `gcd(a, b)` for `a`, `b` primitive in `v` (content 1 in `v`, so integer content 1 too),
/// both of positive degree in `v`; the result is primitive with a positive leading
/// coefficient.
///
/// Why it is exact: let `G` be the gcd and `gamma = gcd(lc_v a, lc_v b)` (a multiple of
/// `lc_v G`), `H = (gamma / lc_v G) G`, whose leading coefficient in `v` is `gamma`. At a
/// prime `p` and a point of the other variables where neither `lc_v a` nor `lc_v b`
/// vanishes, `G`'s image divides both images with its degree, so the monic gcd of the images
/// has degree at least `deg_v G`, with equality exactly when it is `G`'s image made monic;
/// `gamma` at the point times it is then `H`'s image. Points and primes giving a higher
/// degree than another are dropped; each other variable `u` is interpolated from
/// `deg_u gamma + e_u + 1` points (`e_u` bounds `deg_u G`, see [`degree_in_gcd`]), and the
/// images combined by Chinese remaindering until a prime changes nothing. Then the primitive
/// part `h` of the reconstruction is tried: its degree in `v` is at least `deg_v G` (every
/// image's degree was), so if `h` divides both `a` and `b` it divides `G` with the same
/// degree in `v`, and `G / h`, free of `v` and dividing the primitive `G`, is a unit. Otherwise
/// more primes follow. A degree 0 image proves `G = 1` at once.
pub(crate) fn brown_gcd<C: Coeff>(
    a: &Poly<C>,
    b: &Poly<C>,
    v: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Poly<C>, ModFail> {
    let mut others: Vec<usize> = a.vars();
    others.extend(b.vars());
    others.sort_unstable();
    others.dedup();
    others.retain(|&u| u != v);
    let gamma = a.lc(v).gcd_until(&b.lc(v), stop).ok_or(ModFail::Stopped)?;
    let bounds: Vec<usize> = others
        .iter()
        .map(|&u| gamma.degree(u) as usize + degree_in_gcd(a, b, u))
        .collect();
    let points = bounds
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d + 1))
        .filter(|&n| n <= MAX_POINTS);
    if points.is_none() {
        return Err(ModFail::TooLarge);
    }
    let problem = Problem {
        v,
        f: Layout::new(a, v, &others),
        g: Layout::new(b, v, &others),
        gamma: Layout::new(&gamma, v, &others),
        others,
        bounds,
    };
    problem.solve(a, b, stop)
}

/// One gcd to compute: the two inputs and `gamma` laid out densely over `v` and `others`.
struct Problem<'a, C: Coeff> {
    v: usize,
    others: Vec<usize>,
    f: Layout<'a, C>,
    g: Layout<'a, C>,
    gamma: Layout<'a, C>,
    /// Degree bound of `H` in each of `others`.
    bounds: Vec<usize>,
}

/// Why one prime gave no image, or a proof that ends the search.
enum Fail {
    Stopped,
    /// The points ran out before enough good ones were found.
    Short,
    /// An image of degree 0 in `v` at a point where both leading coefficients survive.
    Coprime,
}

impl<C: Coeff> Problem<'_, C> {
    fn solve(&self, a: &Poly<C>, b: &Poly<C>, stop: &dyn Fn() -> bool) -> Result<Poly<C>, ModFail> {
        // Points per level are drawn from 0, 1, 2, ...: bad ones (a leading coefficient
        // vanishes, or the gcd's degree jumps) are skipped, and a budget of them is allowed
        // beyond the good ones.
        let cap = (0..self.others.len())
            .map(|j| 2 * (self.bounds[j] + self.f.sizes[j + 1] + self.g.sizes[j + 1]) + 32)
            .max()
            .unwrap_or(1);
        let mut crt: Option<(usize, Crt)> = None;
        let mut short = 0;
        for i in 0..MAX_PRIMES {
            if stop() {
                return Err(ModFail::Stopped);
            }
            let p = word_prime(i);
            let field = Field::new(p, cap);
            let (Some(fp), Some(gp), Some(cp)) = (
                self.f.image(&field),
                self.g.image(&field),
                self.gamma.image(&field),
            ) else {
                // A leading coefficient vanishes modulo p: an unlucky prime.
                continue;
            };
            let (d, image) = match self.images(&fp, &gp, &cp, self.others.len(), &field, stop) {
                Ok((d, img)) => (
                    d,
                    img.into_iter().map(|x| field.leave(x)).collect::<Vec<_>>(),
                ),
                Err(Fail::Stopped) => return Err(ModFail::Stopped),
                Err(Fail::Coprime) => return Ok(Poly::one()),
                Err(Fail::Short) => {
                    short += 1;
                    if short >= MAX_SHORT_PRIMES {
                        return Err(ModFail::TooLarge);
                    }
                    continue;
                }
            };
            short = 0;
            match &mut crt {
                // A higher degree than an earlier prime's: this one is unlucky.
                Some((d0, _)) if d > *d0 => continue,
                Some((d0, c)) if d == *d0 => {
                    if c.absorb(&image, p) {
                        continue;
                    }
                    let h = self
                        .to_poly(&c.coeffs, d)
                        .primitive_part_until(self.v, stop)
                        .ok_or(ModFail::Stopped)?
                        .normalize_sign();
                    if b.div_exact(&h).is_some() && a.div_exact(&h).is_some() {
                        return Ok(h);
                    }
                }
                // The first image, or all earlier primes were unlucky.
                _ => crt = Some((d, Crt::new(&image, p))),
            }
        }
        Err(ModFail::TooLarge)
    }

    /// `H`'s image modulo `field.p` as a dense array over `v` (fastest) and
    /// `others[..level]`, with its degree `d` in `v`, from images `f`, `g` (dense over `v` and
    /// `others[..level]`, leading coefficients in `v` not vanishing) and `c` (`gamma`'s).
    fn images(
        &self,
        f: &[u64],
        g: &[u64],
        c: &[u64],
        level: usize,
        field: &Field,
        stop: &dyn Fn() -> bool,
    ) -> Result<(usize, Vec<u64>), Fail> {
        if level == 0 {
            let mut h = gcd_monic(f, g, field);
            let d = h.len() - 1;
            if d == 0 {
                return Err(Fail::Coprime);
            }
            for x in &mut h {
                *x = field.mul(*x, c[0]);
            }
            return Ok((d, h));
        }
        let n = self.bounds[level - 1] + 1;
        let (sf, sg, sc) = (
            self.f.sizes[level],
            self.g.sizes[level],
            self.gamma.sizes[level],
        );
        let (bf, bg, bc) = (f.len() / sf, g.len() / sg, c.len() / sc);
        let mut points: Vec<u64> = Vec::with_capacity(n);
        let mut values: Vec<Vec<u64>> = Vec::with_capacity(n);
        let mut degree = usize::MAX;
        let mut alpha = 0u64;
        while points.len() < n {
            if stop() {
                return Err(Fail::Stopped);
            }
            if alpha as usize >= field.inverses.len() {
                return Err(Fail::Short);
            }
            let a = field.enter(alpha);
            let fa = horner_blocks(f, bf, a, field);
            let ga = horner_blocks(g, bg, a, field);
            alpha += 1;
            if !(top_survives(&fa, self.f.sizes[0]) && top_survives(&ga, self.g.sizes[0])) {
                continue;
            }
            let ca = horner_blocks(c, bc, a, field);
            let (d, value) = match self.images(&fa, &ga, &ca, level - 1, field, stop) {
                Ok(x) => x,
                // Too many bad points below this one: try the next value of this variable.
                Err(Fail::Short) => continue,
                Err(e) => return Err(e),
            };
            if d > degree {
                // The gcd's degree jumps at this point: unlucky.
                continue;
            }
            if d < degree {
                // The earlier points were unlucky.
                degree = d;
                points.clear();
                values.clear();
            }
            points.push(alpha - 1);
            values.push(value);
        }
        Ok((degree, interpolate(&points, values, field)))
    }

    /// The polynomial whose coefficients, dense over `v` (degree `d`, fastest) and `others`
    /// (sizes `bounds[j] + 1`), are `coeffs`.
    fn to_poly(&self, coeffs: &[BigInt], d: usize) -> Poly<C> {
        let terms = coeffs
            .iter()
            .enumerate()
            .filter(|(_, c)| c.sign() != num_bigint::Sign::NoSign)
            .map(|(idx, c)| {
                let mut m = Mono::one();
                m.set(self.v, (idx % (d + 1)) as u32);
                let mut idx = idx / (d + 1);
                for (j, &u) in self.others.iter().enumerate() {
                    let size = self.bounds[j] + 1;
                    m.set(u, (idx % size) as u32);
                    idx /= size;
                }
                (m, C::from_bigint(c.clone()))
            })
            .collect();
        Poly::from_terms(terms)
    }
}

/// The monic gcd over `Z/p` of two non-zero dense polynomials (Montgomery form, non-zero
/// leading entries), by Euclid.
fn gcd_monic(a: &[u64], b: &[u64], field: &Field) -> Vec<u64> {
    let p = field.p;
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_empty() {
        let n = b.len() - 1;
        let inv = field.inv(b[n]);
        while a.len() > n {
            let top = a.len() - 1;
            let q = field.mul(a[top], inv);
            if q != 0 {
                let shift = top - n;
                for (i, &bi) in b[..n].iter().enumerate() {
                    a[shift + i] = sub_mod(a[shift + i], field.mul(q, bi), p);
                }
            }
            a.pop();
            while a.last() == Some(&0) {
                a.pop();
            }
        }
        std::mem::swap(&mut a, &mut b);
    }
    let inv = field.inv(a[a.len() - 1]);
    for x in &mut a {
        *x = field.mul(*x, inv);
    }
    a
}

/// An upper bound on `deg_u gcd(a, b)` (`a`, `b` non-zero): `min(deg_u a, deg_u b)`, or
/// less from one image. At a point of the other variables modulo a prime where neither
/// `lc_u a` nor `lc_u b` vanishes, the gcd's image keeps its degree in `u` and divides both
/// images, so the degree of their gcd bounds it.
fn degree_in_gcd<C: Coeff>(a: &Poly<C>, b: &Poly<C>, u: usize) -> usize {
    let (da, db) = (a.degree(u) as usize, b.degree(u) as usize);
    let fallback = da.min(db);
    if fallback == 0 {
        return 0;
    }
    let p = word_prime(0);
    let n = a.nvars().max(b.nvars());
    for attempt in 0..3u64 {
        // Pseudo-random values (a multiplicative hash of the variable and the attempt).
        let point: Vec<u64> = (0..n as u64)
            .map(|x| ((x + 1) * 0x9E37_79B9 + attempt * 0x85EB_CA6B + 12_345) % p)
            .collect();
        let (ia, ib) = (image_in(a, u, &point, p), image_in(b, u, &point, p));
        if ia.len() != da + 1 || ib.len() != db + 1 {
            // A leading coefficient in u vanished at the point.
            continue;
        }
        return gcd_mod(ia, ib, p).len() - 1;
    }
    fallback
}

/// The dense image in `u` alone (trailing zeros trimmed) of `a` modulo `p` with every other
/// variable `x` set to `point[x]`.
fn image_in<C: Coeff>(a: &Poly<C>, u: usize, point: &[u64], p: u64) -> Vec<u64> {
    let mut out = vec![0u64; a.degree(u) as usize + 1];
    for (m, c) in a.terms() {
        let mut t = c.rem_u64(p);
        for (x, &e) in m.exps().iter().enumerate() {
            if x != u && e > 0 {
                t = mul_mod(t, pow_mod(point[x], e as u64, p), p);
            }
        }
        let k = m.exp(u) as usize;
        out[k] = (out[k] + t) % p;
    }
    while out.last() == Some(&0) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Int, Vars};

    fn p(s: &str, v: &mut Vars) -> Poly<Int> {
        Poly::parse(s, v).unwrap()
    }

    #[test]
    fn common_factors_are_found_and_coprime_pairs_proven() {
        let mut v = Vars::from_names(["x", "y", "z"]);
        let g = p("x*y^2 - 3*z*y + x^2 - 7", &mut v);
        let a = g.mul(&p("y^3 + x*z + 2", &mut v));
        let b = g.mul(&p("5*x*y - z^2 + 1", &mut v));
        assert_eq!(brown_gcd(&a, &b, 1, &|| false), Ok(g.normalize_sign()));
        // Leading coefficients with a common factor (gamma = x), and a gcd free of y's top.
        let a2 = p("(x*y + z)*(x*y^2 + 1)", &mut v);
        let b2 = p("(x*y + z)*(x*y - 2*z)", &mut v);
        assert_eq!(brown_gcd(&a2, &b2, 1, &|| false), Ok(p("x*y + z", &mut v)));
        let c = p("y^2 + x*z + 1", &mut v);
        assert_eq!(brown_gcd(&a, &c, 1, &|| false), Ok(Poly::one()));
        assert_eq!(brown_gcd(&a, &b, 1, &|| true), Err(ModFail::Stopped));
    }

    #[test]
    fn degree_bounds_from_one_image() {
        let mut v = Vars::from_names(["x", "y"]);
        let a = p("(x^3*y + 1)*(x^5 + y^2 + 3)", &mut v);
        let b = p("(x^3*y + 1)*(x^4*y - 2)", &mut v);
        assert_eq!(degree_in_gcd(&a, &b, 0), 3);
        assert_eq!(degree_in_gcd(&a, &b, 1), 1);
    }
}
