//! Dense images of integer polynomials modulo word primes, shared by the modular
//! resultant (`modres`) and the modular multivariate gcd (`brown`): Montgomery arithmetic
//! modulo a prime below 2^62, the dense layout of a polynomial (one variable fastest),
//! evaluation of the outermost variable and Newton interpolation.

use crate::coeff::Coeff;
use crate::poly::Poly;
use crate::primes::{inv_mod, mul_mod, sub_mod};

/// A polynomial laid out densely for reduction: variable `var` varies fastest, then the
/// other variables in increasing order; `sizes[0] = deg_var + 1`, `sizes[1 + j]` the
/// degree in `others[j]` plus one.
pub(crate) struct Layout<'a, C: Coeff> {
    pub(crate) sizes: Vec<usize>,
    /// (index in the dense array, coefficient) per term.
    pub(crate) entries: Vec<(usize, &'a C)>,
}

impl<'a, C: Coeff> Layout<'a, C> {
    pub(crate) fn new(f: &'a Poly<C>, var: usize, others: &[usize]) -> Layout<'a, C> {
        let mut sizes = Vec::with_capacity(others.len() + 1);
        sizes.push(f.degree(var) as usize + 1);
        sizes.extend(others.iter().map(|&u| f.degree(u) as usize + 1));
        let entries = f
            .terms()
            .iter()
            .map(|(m, c)| {
                let mut idx = 0;
                for (j, &u) in others.iter().enumerate().rev() {
                    idx = idx * sizes[j + 1] + m.exp(u) as usize;
                }
                (idx * sizes[0] + m.exp(var) as usize, c)
            })
            .collect();
        Layout { sizes, entries }
    }

    pub(crate) fn len(&self) -> usize {
        self.sizes.iter().product()
    }

    /// The dense image modulo `field.p` in Montgomery form, or `None` when the leading
    /// coefficient in `var` vanishes modulo `p`.
    pub(crate) fn image(&self, field: &Field) -> Option<Vec<u64>> {
        let p = field.p;
        let mut out = vec![0u64; self.len()];
        // One entry per term, and a polynomial's monomials are distinct.
        for &(i, c) in &self.entries {
            out[i] = field.enter(c.rem_u64(p));
        }
        top_survives(&out, self.sizes[0]).then_some(out)
    }
}

/// Whether some coefficient of the top power of `var` (every `run`-th entry, starting at
/// `run - 1`) is non-zero.
pub(crate) fn top_survives(a: &[u64], run: usize) -> bool {
    a.iter().skip(run - 1).step_by(run).any(|&c| c != 0)
}

/// A prime `p < 2^62` with Montgomery arithmetic (`R = 2^64`): every residue inside the
/// evaluation, interpolation and univariate resultants is kept as `x R mod p`, so a product
/// is one 64x64-bit multiplication and a reduction by shifts instead of a 128-bit division
/// (which was half of the time), and the inverses of `1 .. cap` (differences of
/// evaluation points).
pub(crate) struct Field {
    pub(crate) p: u64,
    /// `-1 / p` modulo `2^64`.
    neg_inv: u64,
    /// `R^2 mod p`, to enter the Montgomery form.
    r2: u64,
    /// `inverses[i]` is `1 / i` for `i >= 1`, in Montgomery form.
    pub(crate) inverses: Vec<u64>,
}

impl Field {
    pub(crate) fn new(p: u64, cap: usize) -> Field {
        // Newton's iteration doubles the correct low bits of an inverse of the odd p
        // (p is its own inverse modulo 8): 3, 6, 12, 24, 48, 96.
        let mut inv = p;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        let mut f = Field {
            p,
            neg_inv: inv.wrapping_neg(),
            r2: mul_mod(r, r, p),
            inverses: Vec::new(),
        };
        let mut inverses = vec![0u64; cap + 1];
        if cap >= 1 {
            inverses[1] = 1;
        }
        for i in 2..=cap {
            // p = (p / i) i + p % i, so 1/i = -(p / i) / (p % i) modulo p (0 < p % i < i).
            let q = p / i as u64;
            inverses[i] = mul_mod(p - q, inverses[(p % i as u64) as usize], p);
        }
        f.inverses = inverses.into_iter().map(|x| f.enter(x)).collect();
        f
    }

    /// `t / R mod p` for `t < p R` (Montgomery's reduction).
    #[inline]
    pub(crate) fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        // t + m p < p R + R p < 2^127: no overflow, and the low word cancels.
        let u = ((t + m as u128 * self.p as u128) >> 64) as u64;
        if u >= self.p {
            u - self.p
        } else {
            u
        }
    }

    /// The product of two residues in Montgomery form, in Montgomery form.
    #[inline]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(a as u128 * b as u128)
    }

    /// `x R mod p` for a residue `x < p`.
    pub(crate) fn enter(&self, x: u64) -> u64 {
        self.mul(x, self.r2)
    }

    /// The residue whose Montgomery form is `x`.
    pub(crate) fn leave(&self, x: u64) -> u64 {
        self.redc(x as u128)
    }

    /// `x^e` in Montgomery form.
    pub(crate) fn pow(&self, x: u64, mut e: u64) -> u64 {
        let (mut acc, mut base) = (self.enter(1), x);
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            e >>= 1;
            base = self.mul(base, base);
        }
        acc
    }

    /// `1 / x` in Montgomery form (`x` non-zero).
    pub(crate) fn inv(&self, x: u64) -> u64 {
        self.enter(inv_mod(self.leave(x), self.p))
    }
}

/// `sum_e alpha^e a[e*block .. (e+1)*block]`: the outermost variable of a dense array set
/// to `alpha` (all in Montgomery form).
pub(crate) fn horner_blocks(a: &[u64], block: usize, alpha: u64, field: &Field) -> Vec<u64> {
    let p = field.p;
    let mut chunks = a.chunks_exact(block).rev();
    let mut out = chunks.next().map_or_else(Vec::new, <[u64]>::to_vec);
    for chunk in chunks {
        for (o, &c) in out.iter_mut().zip(chunk) {
            let t = field.mul(*o, alpha) + c;
            *o = if t >= p { t - p } else { t };
        }
    }
    out
}

/// The dense polynomial in one more variable (outermost, degree `points.len() - 1`) taking
/// the values `values[i]` at `points[i]` (distinct, increasing, below `field`'s cap), by
/// Newton's divided differences (values in Montgomery form).
pub(crate) fn interpolate(points: &[u64], mut c: Vec<Vec<u64>>, field: &Field) -> Vec<u64> {
    let p = field.p;
    let n = points.len();
    let r = c.first().map_or(0, Vec::len);
    for j in 1..n {
        for i in (j..n).rev() {
            let inv = field.inverses[(points[i] - points[i - j]) as usize];
            let (lo, hi) = c.split_at_mut(i);
            for (x, &y) in hi[0].iter_mut().zip(&lo[i - 1]) {
                *x = field.mul(sub_mod(*x, y, p), inv);
            }
        }
    }
    // Newton form to powers: P = c[n-1]; P = P (x - points[i]) + c[i] for i descending.
    let mut out = vec![0u64; r * n];
    out[..r].copy_from_slice(&c[n - 1]);
    for i in (0..n - 1).rev() {
        let a = field.enter(points[i]);
        let deg = n - 1 - i; // degree after the multiplication
        for e in (0..=deg).rev() {
            for t in 0..r {
                let below = if e > 0 { out[(e - 1) * r + t] } else { 0 };
                out[e * r + t] = sub_mod(below, field.mul(a, out[e * r + t]), p);
            }
        }
        for (o, &x) in out[..r].iter_mut().zip(&c[i]) {
            let t = *o + x;
            *o = if t >= p { t - p } else { t };
        }
    }
    out
}
