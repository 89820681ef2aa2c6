//! Zassenhaus recombination: from the monic factors of f modulo p^k back to the
//! irreducible factors of f over Z.
//!
//! Every irreducible factor over Z is, modulo p^k, the product of some subset of the
//! lifted factors. Subsets are tried by increasing size; a subset's product, scaled by
//! lc(f) so that any true factor's image has integer coefficients of bounded size, is
//! read in the symmetric range and kept when it divides f exactly. The Landau-Mignotte
//! bound below makes p^k large enough that no true factor is missed.

use super::zm::{Zm, ZmPoly};
use crate::coeff::Coeff;
use crate::int::Int;

/// A dense integer polynomial, index = power, no trailing zeros.
pub type Dense = Vec<Int>;

/// A number of bits `b` such that every candidate `lc(f) g / lc(g)`, for `g` a factor of
/// `f` over Z of degree `d < n`, has coefficients of absolute value below `2^b / 2`;
/// lifting to a modulus `m >= 2^b` therefore reads every such candidate exactly in the
/// symmetric range.
///
/// Landau-Mignotte: `||g||_1 <= 2^d |lc(g)/lc(f)| ||f||_2`, so the candidate, whose
/// leading coefficient is lc(f), has `||.||_inf <= 2^d ||f||_2 <= 2^n sqrt(n+1) ||f||_inf`.
pub fn coefficient_bound_bits(f: &[Int]) -> u64 {
    let n = f.len().saturating_sub(1) as u64;
    let max_bits = f.iter().map(Coeff::bits).max().unwrap_or(0);
    let sqrt_bits = (64 - (n + 1).leading_zeros() as u64).div_ceil(2);
    // One more bit for the factor 2 between the bound and the modulus.
    sqrt_bits + n + max_bits + 1
}

/// The irreducible factors over Z of a primitive, square-free `f` with positive leading
/// coefficient, from its monic factors modulo `m` (`ring`), which must be lifted from
/// distinct irreducible factors modulo a prime p not dividing lc(f), with `m` beyond
/// [`coefficient_bound_bits`].
pub fn recombine(f: &[Int], lifted: Vec<ZmPoly>, ring: &Zm) -> Vec<Dense> {
    let mut f = f.to_vec();
    let mut rest = lifted;
    let mut out = Vec::new();
    let mut size = 1;
    // A factor made of more than half of the modular factors has a cofactor made of
    // fewer, which was tried first.
    while 2 * size <= rest.len() {
        match find_factor(&f, &rest, size, ring) {
            Some((subset, g, cofactor)) => {
                for &i in subset.iter().rev() {
                    rest.remove(i);
                }
                out.push(g);
                f = cofactor;
            }
            None => size += 1,
        }
    }
    out.push(f);
    out
}

/// The first subset of `size` lifted factors whose scaled product divides `f`, with the
/// factor (primitive, positive leading coefficient) and its cofactor.
fn find_factor(
    f: &[Int],
    lifted: &[ZmPoly],
    size: usize,
    ring: &Zm,
) -> Option<(Vec<usize>, Dense, Dense)> {
    let lc = f.last().expect("recombine: f is non-constant");
    let lc_f0 = Coeff::mul(lc, &f[0]);
    let constants: Vec<Int> = lifted
        .iter()
        .map(|g| g.first().cloned().unwrap_or(Int::from(0)))
        .collect();
    let mut subset: Vec<usize> = (0..size).collect();
    // prefix[j] = lc(f) * the constant terms of the first j chosen factors (mod m):
    // consecutive subsets share prefixes, so most steps cost one multiplication.
    let mut prefix = vec![ring.reduce(lc); size + 1];
    let mut changed = 0;
    loop {
        for j in changed..size {
            prefix[j + 1] = ring.reduce(&Coeff::mul(&prefix[j], &constants[subset[j]]));
        }
        if constant_term_fits(&prefix[size], &lc_f0, ring) {
            if let Some((g, q)) = try_product(f, lifted, &subset, ring) {
                return Some((subset, g, q));
            }
        }
        changed = next_subset(&mut subset, lifted.len())?;
    }
}

/// Whether `c0`, the constant term of a candidate modulo m, can be that of a true factor
/// scaled to leading coefficient lc(f): it must divide lc(f) f(0). A cheap filter before
/// forming the product.
fn constant_term_fits(c0: &Int, lc_f0: &Int, ring: &Zm) -> bool {
    let c0 = ring.symmetric(c0);
    if lc_f0.is_zero() {
        return true;
    }
    // A divisor is no larger than what it divides; comparing sizes first spares most
    // big divisions.
    !c0.is_zero() && c0.bits() <= lc_f0.bits() && lc_f0.div_mod_floor(&c0).1.is_zero()
}

/// The factor of `f` that the product of `lifted[subset]` stands for, with its cofactor,
/// if there is one (certainly found when the modulus is beyond the coefficient bound).
fn try_product(
    f: &[Int],
    lifted: &[ZmPoly],
    subset: &[usize],
    ring: &Zm,
) -> Option<(Dense, Dense)> {
    let lc = f.last().expect("recombine: f is non-constant");
    let product = subset
        .iter()
        .fold(vec![lc.clone()], |acc, &i| ring.mul(&acc, &lifted[i]));
    let candidate: Dense = product.iter().map(|c| ring.symmetric(c)).collect();
    let g = primitive_part(&candidate);
    div_exact(f, &g).map(|q| (g, q))
}

/// The factors of `f` that single lifted factors stand for, the indices of the lifted
/// factors left over, and the cofactor. Sound at any precision (every factor found
/// divides f and is irreducible, its image modulo p being irreducible), though complete
/// only beyond the coefficient bound: a cheap first pass before lifting further.
pub fn single_factors(f: &[Int], lifted: &[ZmPoly], ring: &Zm) -> (Vec<Dense>, Vec<usize>, Dense) {
    let mut f = f.to_vec();
    let mut found = Vec::new();
    let mut rest = Vec::new();
    for i in 0..lifted.len() {
        if f.len() < 2 {
            rest.push(i);
            continue;
        }
        let lc = f.last().expect("f is non-constant here");
        let c0 = Coeff::mul(lc, lifted[i].first().unwrap_or(&Int::from(0)));
        if !constant_term_fits(&ring.reduce(&c0), &Coeff::mul(lc, &f[0]), ring) {
            rest.push(i);
            continue;
        }
        match try_product(&f, lifted, &[i], ring) {
            Some((g, q)) => {
                found.push(g);
                f = q;
            }
            None => rest.push(i),
        }
    }
    (found, rest, f)
}

/// Advances to the next `k`-subset of `0..n` in lexicographic order, returning the first
/// position that changed (`None` after the last subset).
fn next_subset(subset: &mut [usize], n: usize) -> Option<usize> {
    let k = subset.len();
    for i in (0..k).rev() {
        if subset[i] < n - k + i {
            subset[i] += 1;
            for j in i + 1..k {
                subset[j] = subset[j - 1] + 1;
            }
            return Some(i);
        }
    }
    None
}

/// `a` divided by the gcd of its coefficients, with positive leading coefficient.
pub fn primitive_part(a: &[Int]) -> Dense {
    let mut content = a.iter().fold(Int::from(0), |g, c| g.gcd(c));
    if content.is_zero() {
        return Vec::new();
    }
    if a.last().is_some_and(|c| c.signum() < 0) {
        content = content.neg();
    }
    a.iter().map(|c| c.div_exact(&content)).collect()
}

/// `a / b` when `b` divides `a` in Z[x], `None` otherwise (or when `b` is zero).
pub fn div_exact(a: &[Int], b: &[Int]) -> Option<Dense> {
    let db = b.len().checked_sub(1)?;
    if a.len() < b.len() {
        return a.iter().all(Coeff::is_zero).then(Vec::new);
    }
    let lc = &b[db];
    let mut r = a.to_vec();
    let mut q = vec![Int::from(0); a.len() - db];
    for i in (0..q.len()).rev() {
        let (c, rem) = r[i + db].div_mod_floor(lc);
        if !rem.is_zero() {
            return None;
        }
        if c.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            r[i + j] = Coeff::sub(&r[i + j], &Coeff::mul(&c, y));
        }
        q[i] = c;
    }
    r[..db].iter().all(Coeff::is_zero).then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(cs: &[i64]) -> Dense {
        cs.iter().map(|&c| Int::from(c)).collect()
    }

    #[test]
    fn dense_helpers() {
        // (2x + 3)(x - 1) = 2x^2 + x - 3
        assert_eq!(
            div_exact(&ints(&[-3, 1, 2]), &ints(&[3, 2])),
            Some(ints(&[-1, 1]))
        );
        assert_eq!(div_exact(&ints(&[-3, 1, 2]), &ints(&[1, 2])), None);
        assert_eq!(primitive_part(&ints(&[4, -6])), ints(&[-2, 3]));
        let mut s = vec![0, 1];
        let mut all = vec![s.clone()];
        while next_subset(&mut s, 4).is_some() {
            all.push(s.clone());
        }
        assert_eq!(all.len(), 6);
    }
}
