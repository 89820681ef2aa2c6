//! Factorisation of square-free polynomials over Z/p (p odd): distinct-degree splitting
//! followed by the Cantor-Zassenhaus equal-degree splitting.
//!
//! The equal-degree step is randomised; its random polynomials come from a small
//! deterministic generator with a fixed seed, so every run factors identically.

use super::zp::{degree, Zp, ZpPoly};

/// Splits a monic square-free `f` (degree >= 1) into `(g_d, d)`: `g_d` is the product of
/// the monic irreducible factors of degree `d`, for each `d` that occurs.
pub fn distinct_degree(f: &ZpPoly, field: Zp) -> Vec<(ZpPoly, usize)> {
    let p = field.modulus();
    let x: ZpPoly = vec![0, 1];
    let mut rest = f.clone();
    let mut out = Vec::new();
    // Invariant: frob = x^(p^d) mod rest.
    let mut frob = field.rem(&x, &rest);
    let mut d = 0;
    while 2 * (d + 1) <= degree(&rest) {
        d += 1;
        frob = field.powmod(&frob, p, &rest);
        // x^(p^d) - x vanishes exactly on the elements of degree dividing d.
        let g = field.gcd(&field.poly_sub(&frob, &x), &rest);
        if degree(&g) > 0 {
            rest = field.divrem(&rest, &g).0;
            frob = field.rem(&frob, &rest);
            out.push((g, d));
        }
    }
    // What remains has no factor of degree <= deg/2, so it is irreducible.
    if degree(&rest) > 0 {
        let d = degree(&rest);
        out.push((rest, d));
    }
    out
}

/// Number of irreducible factors a distinct-degree splitting stands for.
pub fn factor_count(ddf: &[(ZpPoly, usize)]) -> usize {
    ddf.iter().map(|(g, d)| degree(g) / d).sum()
}

/// The monic irreducible factors of `g`, a monic square-free product of factors of degree
/// `d` each.
pub fn equal_degree(g: &ZpPoly, d: usize, field: Zp, rng: &mut SplitMix64) -> Vec<ZpPoly> {
    let mut out = Vec::new();
    let mut pending = vec![g.clone()];
    while let Some(h) = pending.pop() {
        if degree(&h) == d {
            out.push(h);
            continue;
        }
        let (a, b) = split(&h, d, field, rng);
        pending.push(a);
        pending.push(b);
    }
    out.sort();
    out
}

/// A proper monic splitting of `h` (at least two factors of degree `d`).
fn split(h: &ZpPoly, d: usize, field: Zp, rng: &mut SplitMix64) -> (ZpPoly, ZpPoly) {
    let p = field.modulus();
    let n = degree(h);
    loop {
        let mut a: ZpPoly = (0..n).map(|_| rng.next() % p).collect();
        super::zp::trim(&mut a);
        if degree(&a) == 0 {
            continue;
        }
        // a^((p^d - 1)/2) = (a^(1 + p + ... + p^(d-1)))^((p - 1)/2): the norm down to Z/p
        // first, so that no exponent exceeds p.
        let mut conj = a.clone();
        let mut norm = a.clone();
        for _ in 1..d {
            conj = field.powmod(&conj, p, h);
            norm = field.rem(&field.poly_mul(&norm, &conj), h);
        }
        let b = field.powmod(&norm, (p - 1) / 2, h);
        // For half of the factors (roughly) b = 1 there, so the gcd is a proper divisor.
        let c = field.gcd(&field.poly_sub(&b, &vec![1]), h);
        if degree(&c) > 0 && degree(&c) < n {
            let q = field.divrem(h, &c).0;
            return (c, field.monic(&q));
        }
    }
}

/// The SplitMix64 generator: tiny, fast, and good enough to pick random residues.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The monic irreducible factors of a monic square-free `f` over Z/p, p odd.
#[cfg(test)]
pub fn factor_square_free(f: &ZpPoly, field: Zp) -> Vec<ZpPoly> {
    factor_from_ddf(&distinct_degree(f, field), field)
}

/// Finishes a factorisation from its distinct-degree splitting.
pub fn factor_from_ddf(ddf: &[(ZpPoly, usize)], field: Zp) -> Vec<ZpPoly> {
    let mut rng = SplitMix64::new(0x5EED_F00D);
    let mut out = Vec::new();
    for (g, d) in ddf {
        out.extend(equal_degree(g, *d, field, &mut rng));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_multiply_back_and_are_irreducible() {
        let field = Zp::new(13);
        // x^12 - 1 splits into 12 linear factors over Z/13.
        let mut f = vec![0; 13];
        f[0] = 12;
        f[12] = 1;
        let fs = factor_square_free(&f, field);
        assert_eq!(fs.len(), 12);
        assert!(fs.iter().all(|g| degree(g) == 1));
        // x^4 + 1 mod 3 = (x^2 + x + 2)(x^2 + 2x + 2).
        let field = Zp::new(3);
        let f = vec![1, 0, 0, 0, 1];
        let fs = factor_square_free(&f, field);
        assert_eq!(fs, vec![vec![2, 1, 1], vec![2, 2, 1]]);
        let back = fs
            .iter()
            .fold(vec![1], |acc: ZpPoly, g| field.poly_mul(&acc, g));
        assert_eq!(back, f);
    }
}
