//! Resultants and discriminants of multivariate integer polynomials by the modular method:
//! images modulo word primes, evaluation and interpolation in the other variables, Chinese
//! remaindering up to a Hadamard-type bound, so the result is exact without any check.
//!
//! The subresultant PRS over Z (`resultant.rs`) works with multivariate coefficients whose
//! size grows through the whole sequence; on a CAD's resultants (lifting's `y - q` against
//! defining polynomials of thousands of bits, projection's resultants of resultants) that
//! was nearly all of the time. Here every image is a resultant of two univariate
//! polynomials over `Z/p`, computed by Euclid in machine words (see [`modular_resultant`]).

use crate::coeff::Coeff;
use crate::dense_mod::{horner_blocks, interpolate, top_survives, Field, Layout};
use crate::modgcd::Crt;
use crate::mono::Mono;
use crate::poly::Poly;
use crate::primes::{sub_mod, word_prime};
use num_bigint::BigInt;
use num_traits::Signed;

/// Primes tried before giving up (the bound asked for more than 62,000 bits): the caller
/// then runs the subresultant PRS.
const MAX_PRIMES: usize = 1000;

/// More evaluation points than this per prime: the caller runs the PRS instead (a dense
/// grid that large means a sparse, huge resultant, where the PRS does not pay for the
/// grid's empty corners).
const MAX_POINTS: usize = 1 << 22;
/// With two or more other variables, grids of more points than this, and more than
/// [`SPARSE_RATIO`] times the inputs' terms, are left to the PRS (see [`Grid`]).
const SPARSE_POINTS: usize = 4096;
/// Grid points per input term above which a grid counts as sparse (see [`SPARSE_POINTS`]).
const SPARSE_RATIO: usize = 64;

/// Which evaluation grids the modular method takes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grid {
    /// Every grid within [`MAX_POINTS`] (the explicit `*_modular` entry points).
    Any,
    /// Not sparse inputs in two or more other variables ([`SPARSE_POINTS`],
    /// [`SPARSE_RATIO`]): there the dense grid of evaluation points, a univariate resultant
    /// each per prime, can outgrow the PRS by orders of magnitude (3-4 variables, ~63-bit
    /// coefficients, a few terms: 39 s against 0.03 s). The dispatchers send those to the
    /// PRS; CAD's lifting resultants (one or two other variables, dense) stay modular.
    DenseOnly,
}

/// Why the modular method gave no result.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ModFail {
    /// The caller's `stop` said so.
    Stopped,
    /// The problem is beyond this method's limits ([`MAX_PRIMES`], [`MAX_POINTS`]).
    TooLarge,
}

/// Which function of the two univariate images each evaluation point computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `res(a, b)`.
    Resultant,
    /// `res(a, b) / lc(a)` with `b = a'`: the discriminant up to its sign.
    DiscriminantQuotient,
}

/// `Res_var(f, g)` (the Sylvester determinant, `f`'s rows first) for `f` and `g` of
/// positive degree in `var`.
///
/// Why it is exact: for a prime `p` at which neither leading coefficient in `var` vanishes
/// identically, and a point of the other variables at which neither vanishes, the Sylvester
/// matrix of the images is the image of the Sylvester matrix, so the image of the resultant
/// is the univariate resultant of the images (points and primes where a degree drops are
/// skipped, never used). Each variable `u` is interpolated from `D_u + 1` points, `D_u` an
/// upper bound on `deg_u Res` (see [`degree_bound`]), and the images modulo primes whose
/// product exceeds twice the bound of [`coefficient_bits`] determine every coefficient in
/// the symmetric range.
///
/// With `grid` [`Grid::DenseOnly`], sparse problems are refused as too large (see
/// [`Grid`]).
pub(crate) fn modular_resultant<C: Coeff>(
    f: &Poly<C>,
    g: &Poly<C>,
    var: usize,
    grid: Grid,
    stop: &dyn Fn() -> bool,
) -> Result<Poly<C>, ModFail> {
    Problem::new(f, g, var, Kind::Resultant, grid)?.solve(stop)
}

/// The discriminant of `f` (degree at least 2 in `var`):
/// `(-1)^(m(m-1)/2) res(f, f') / lc(f)`, the quotient taken at each evaluation point
/// (where `lc(f)` does not vanish), so no division of polynomials over Z is needed. The
/// bound of the resultant also bounds the quotient: dividing the first column of the
/// Sylvester matrix of `f` and `f'` by `lc(f)` leaves the entries 1 and `m` there, no
/// larger than the ones they replace.
pub(crate) fn modular_discriminant<C: Coeff>(
    f: &Poly<C>,
    var: usize,
    grid: Grid,
    stop: &dyn Fn() -> bool,
) -> Result<Poly<C>, ModFail> {
    let m = f.degree(var) as u64;
    let d =
        Problem::new(f, &f.derivative(var), var, Kind::DiscriminantQuotient, grid)?.solve(stop)?;
    Ok(if (m * (m - 1) / 2) % 2 == 1 {
        d.neg()
    } else {
        d
    })
}

/// One resultant or discriminant to compute.
struct Problem<'a, C: Coeff> {
    kind: Kind,
    others: Vec<usize>,
    f: Layout<'a, C>,
    g: Layout<'a, C>,
    /// Degree bound of the result in each of `others`.
    bounds: Vec<usize>,
    /// Bits of a bound on the absolute value of every coefficient of the result.
    bits: u64,
}

impl<'a, C: Coeff> Problem<'a, C> {
    fn new(
        f: &'a Poly<C>,
        g: &'a Poly<C>,
        var: usize,
        kind: Kind,
        grid: Grid,
    ) -> Result<Self, ModFail> {
        let mut others: Vec<usize> = f.vars();
        others.extend(g.vars());
        others.sort_unstable();
        others.dedup();
        others.retain(|&u| u != var);
        let bounds: Vec<usize> = others.iter().map(|&u| degree_bound(f, g, var, u)).collect();
        let points = bounds
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d + 1))
            .filter(|&n| n <= MAX_POINTS);
        let Some(points) = points else {
            return Err(ModFail::TooLarge);
        };
        let terms = f.len() + g.len();
        let sparse = others.len() >= 2 && points > SPARSE_POINTS && points > SPARSE_RATIO * terms;
        if grid == Grid::DenseOnly && sparse {
            return Err(ModFail::TooLarge);
        }
        Ok(Problem {
            kind,
            bits: coefficient_bits(f, g, var),
            f: Layout::new(f, var, &others),
            g: Layout::new(g, var, &others),
            others,
            bounds,
        })
    }

    fn solve(&self, stop: &dyn Fn() -> bool) -> Result<Poly<C>, ModFail> {
        let mut crt: Option<Crt> = None;
        // Points per level are drawn from 0, 1, 2, ...: at most `bound + 1` good ones and,
        // per level, fewer bad ones than the degrees of the two leading coefficients.
        let cap = (0..self.others.len())
            .map(|j| self.bounds[j] + self.f.sizes[j + 1] + self.g.sizes[j + 1] + 1)
            .max()
            .unwrap_or(1);
        for i in 0..MAX_PRIMES {
            if stop() {
                return Err(ModFail::Stopped);
            }
            let p = word_prime(i);
            let field = Field::new(p, cap);
            let (Some(fp), Some(gp)) = (self.f.image(&field), self.g.image(&field)) else {
                // A leading coefficient vanishes modulo p: an unlucky prime.
                continue;
            };
            let image = match self.images(&fp, &gp, self.others.len(), &field, stop) {
                Ok(v) => v.into_iter().map(|x| field.leave(x)).collect::<Vec<_>>(),
                Err(Fail::Stopped) => return Err(ModFail::Stopped),
                Err(Fail::Unlucky) => continue,
            };
            match &mut crt {
                None => crt = Some(Crt::new(&image, p)),
                Some(c) => {
                    c.absorb(&image, p);
                }
            }
            if let Some(c) = &crt {
                if c.modulus.bits() >= self.bits + 2 {
                    return Ok(self.to_poly(&c.coeffs));
                }
            }
        }
        Err(ModFail::TooLarge)
    }

    /// The image of the result modulo `field.p` as a dense array over `others[..level]`
    /// (`others[0]` fastest), from images `f` and `g` dense over `var` and
    /// `others[..level]` whose leading coefficients in `var` do not vanish.
    fn images(
        &self,
        f: &[u64],
        g: &[u64],
        level: usize,
        field: &Field,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<u64>, Fail> {
        if level == 0 {
            let r = resultant_mod(f, g, field);
            return Ok(vec![match self.kind {
                Kind::Resultant => r,
                // The top entry is lc(f) at this point, non-zero (checked by the caller).
                Kind::DiscriminantQuotient => field.mul(r, field.inv(f[f.len() - 1])),
            }]);
        }
        let d = self.bounds[level - 1];
        let (sf, sg) = (self.f.sizes[level], self.g.sizes[level]);
        let (bf, bg) = (f.len() / sf, g.len() / sg);
        let mut points: Vec<u64> = Vec::with_capacity(d + 1);
        let mut values: Vec<Vec<u64>> = Vec::with_capacity(d + 1);
        let mut alpha = 0u64;
        while points.len() <= d {
            if stop() {
                return Err(Fail::Stopped);
            }
            if alpha as usize >= field.inverses.len() {
                // More bad points than the leading coefficients' degrees allow: cannot
                // happen; the prime is dropped rather than trusted.
                return Err(Fail::Unlucky);
            }
            let a = field.enter(alpha);
            let fa = horner_blocks(f, bf, a, field);
            let ga = horner_blocks(g, bg, a, field);
            if top_survives(&fa, self.f.sizes[0]) && top_survives(&ga, self.g.sizes[0]) {
                values.push(self.images(&fa, &ga, level - 1, field, stop)?);
                points.push(alpha);
            }
            alpha += 1;
        }
        Ok(interpolate(&points, values, field))
    }

    /// The polynomial whose coefficients, dense over `others` (`others[0]` fastest), are
    /// `coeffs`.
    fn to_poly(&self, coeffs: &[BigInt]) -> Poly<C> {
        let terms = coeffs
            .iter()
            .enumerate()
            .filter(|(_, c)| c.sign() != num_bigint::Sign::NoSign)
            .map(|(mut idx, c)| {
                let mut m = Mono::one();
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

/// Why one prime gave no image.
enum Fail {
    Stopped,
    Unlucky,
}

/// The resultant over `Z/p` of two dense polynomials (non-zero leading entries, Montgomery
/// form), the formal degrees being their lengths minus one, by Euclid:
/// `res(a, b) = (-1)^(mn) lc(b)^(m - k) res(b, a mod b)` with `k = deg(a mod b)`.
///
/// The remainder is taken without inverses, as `r' = lc(b)^e (a mod b)` (each step of the
/// division multiplies `a` by `lc(b)` instead of dividing the quotient by it), and
/// `res(b, r') = lc(b)^(e n) res(b, a mod b)`; those factors are collected and divided out
/// by one inverse at the end. A modular inverse per step (an extended Euclid of 62-bit
/// words) was a fifth of the hard domains' time.
fn resultant_mod(a: &[u64], b: &[u64], field: &Field) -> u64 {
    let p = field.p;
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let mut acc = field.enter(1);
    // The product of the factors lc(b)^(e n) to divide out.
    let mut den = field.enter(1);
    loop {
        let (m, n) = (a.len() - 1, b.len() - 1);
        if n == 0 {
            let r = field.mul(acc, field.pow(b[0], m as u64));
            return field.mul(r, field.inv(den));
        }
        if m == 0 {
            let r = field.mul(acc, field.pow(a[0], n as u64));
            return field.mul(r, field.inv(den));
        }
        // a <- lc(b)^e (a mod b) (a of lower degree is its own remainder, e = 0).
        let lb = b[n];
        let mut e = 0u64;
        while a.len() > n {
            let top = a.len() - 1;
            let t = a[top];
            if t != 0 {
                // a <- lb a - t x^shift b: the top term cancels.
                let shift = top - n;
                for x in &mut a[..top] {
                    *x = field.mul(*x, lb);
                }
                for (i, &bi) in b[..n].iter().enumerate() {
                    a[shift + i] = sub_mod(a[shift + i], field.mul(t, bi), p);
                }
                e += 1;
            }
            a.pop();
            while a.last() == Some(&0) {
                a.pop();
            }
        }
        if a.is_empty() {
            return 0;
        }
        let k = a.len() - 1;
        acc = field.mul(acc, field.pow(lb, (m - k) as u64));
        if e > 0 {
            den = field.mul(den, field.pow(lb, e * n as u64));
        }
        if m % 2 == 1 && n % 2 == 1 {
            acc = sub_mod(0, acc, p);
        }
        std::mem::swap(&mut a, &mut b);
    }
}

/// An upper bound on `deg_u Res_var(f, g)`. With weight 1 on `u` and `w >= 0` on `var`,
/// the entry of an `f` row for `var^j` has degree in `u` at most `A - w j` (`A` the largest
/// weighted degree of a term of `f`), and in the Sylvester determinant the `j` of a
/// permutation's entries add up to `mn`, so `deg_u Res <= n A(w) + m B(w) - w m n`
/// (`m`, `n` the degrees in `var`). The right side is convex in `w`, so its least value is
/// at `w = 0` or where two terms of `f` or two of `g` tie; `w = 0` is the familiar
/// `n deg_u f + m deg_u g`, the ties give Bezout-like bounds (`y - q(x)` against `h(x)`:
/// `deg h`, not `deg h deg_x q`).
fn degree_bound<C: Coeff>(f: &Poly<C>, g: &Poly<C>, var: usize, u: usize) -> usize {
    // For each power of `var`, only the highest power of `u` can attain the maximum.
    let pairs = |p: &Poly<C>| {
        let mut top = vec![None::<u64>; p.degree(var) as usize + 1];
        for (m, _) in p.terms() {
            let t = &mut top[m.exp(var) as usize];
            *t = Some(t.map_or(m.exp(u) as u64, |x| x.max(m.exp(u) as u64)));
        }
        top.into_iter()
            .enumerate()
            .filter_map(|(ev, eu)| Some((eu?, ev as u64)))
            .collect::<Vec<_>>()
    };
    let (pf, pg) = (pairs(f), pairs(g));
    let (m, n) = (f.degree(var) as u64, g.degree(var) as u64);
    // The bound at w = a / b, times b.
    let at = |a: u64, b: u64| {
        let top = |ps: &[(u64, u64)]| ps.iter().map(|&(eu, ev)| b * eu + a * ev).max();
        let (tf, tg) = (top(&pf).unwrap_or(0), top(&pg).unwrap_or(0));
        (n * tf + m * tg).saturating_sub(a * m * n) / b
    };
    let mut best = at(0, 1);
    for ps in [&pf, &pg] {
        for (i, &(u1, v1)) in ps.iter().enumerate() {
            for &(u2, v2) in &ps[i + 1..] {
                // A tie u1 + w v1 = u2 + w v2 with w > 0.
                if u1 > u2 && v2 > v1 {
                    best = best.min(at(u1 - u2, v2 - v1));
                } else if u2 > u1 && v1 > v2 {
                    best = best.min(at(u2 - u1, v1 - v2));
                }
            }
        }
    }
    best as usize
}

/// Bits of a bound on every coefficient of `Res_var(f, g)`: on the torus `|x_u| = 1` an
/// entry of the Sylvester matrix is at most the 1-norm of its coefficient, so Hadamard's
/// inequality bounds the resultant there by the product of the rows' Euclidean norms, and
/// a coefficient of a polynomial is at most its largest value on the torus. A row of `f`
/// has norm at most `sqrt(m + 1) 2^bf` (`2^bf` above every coefficient's 1-norm), and there
/// are `n` of them.
fn coefficient_bits<C: Coeff>(f: &Poly<C>, g: &Poly<C>, var: usize) -> u64 {
    let row = |p: &Poly<C>| {
        let cs = p.coeffs(var);
        let bits = cs
            .iter()
            .map(|c| {
                c.terms()
                    .iter()
                    .fold(BigInt::from(0), |s, (_, a)| s + Signed::abs(&a.to_bigint()))
                    .bits()
            })
            .max()
            .unwrap_or(0);
        bits as f64 + 0.5 * (cs.len() as f64).log2()
    };
    let (m, n) = (f.degree(var) as f64, g.degree(var) as f64);
    // One bit more for the rounding of the logarithms.
    (n * row(f) + m * row(g)).ceil() as u64 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primes::mul_mod;
    use crate::{Int, Vars};

    fn p(s: &str, v: &mut Vars) -> Poly<Int> {
        Poly::parse(s, v).unwrap()
    }

    #[test]
    fn sparse_grids_in_several_variables_go_to_the_prs() {
        let mut v = Vars::from_names(["x0", "x1", "x2", "x3"]);
        let f = p("x0^3 + x1^20*x2^20", &mut v);
        let g = p("x0^2 + x3^20*x1", &mut v);
        // Hundreds of thousands of grid points for four input terms.
        assert_eq!(
            modular_resultant(&f, &g, 0, Grid::DenseOnly, &|| false),
            Err(ModFail::TooLarge)
        );
        assert_eq!(
            f.resultant_until(&g, 0, &|| false),
            Some(f.resultant_prs(&g, 0))
        );
        // One other variable: a dense problem, solved modularly either way.
        let f1 = p("x0^3 + 5*x1^4 - 2", &mut v);
        let g1 = p("x0^2*x1 - 7", &mut v);
        assert_eq!(
            modular_resultant(&f1, &g1, 0, Grid::DenseOnly, &|| false),
            Ok(f1.resultant_prs(&g1, 0))
        );
    }

    #[test]
    fn univariate_resultants_modulo_p() {
        let q = word_prime(0);
        let field = Field::new(q, 4);
        let res = |a: &[u64], b: &[u64]| {
            let m = |v: &[u64]| v.iter().map(|&x| field.enter(x)).collect::<Vec<_>>();
            field.leave(resultant_mod(&m(a), &m(b), &field))
        };
        // res(x^2 - 2, x - 3) = 3^2 - 2 = 7; res(x - 3, x^2 - 2) = 7 (deg product even).
        assert_eq!(res(&[q - 2, 0, 1], &[q - 3, 1]), 7);
        assert_eq!(res(&[q - 3, 1], &[q - 2, 0, 1]), 7);
        // res(x^2 + 1, x^3 - x + 5) = (5 - 2i)(5 + 2i) = 29 (roots +-i, i^3 - i = -2i).
        assert_eq!(res(&[1, 0, 1], &[5, q - 1, 0, 1]), 29);
        // A common root: zero.
        assert_eq!(res(&[q - 1, 0, 1], &[q - 1, 1]), 0);
        // Constants: res(5, x^3 + 1) = 125.
        assert_eq!(res(&[5], &[1, 0, 0, 1]), 125);
        // Montgomery arithmetic against u128 remainders; inverses of 1 .. 4.
        let (a, b) = (q - 12_345, 987_654_321_987);
        assert_eq!(
            field.leave(field.mul(field.enter(a), field.enter(b))),
            mul_mod(a, b, q)
        );
        for i in 1..=4u64 {
            assert_eq!(
                field.leave(field.mul(field.inverses[i as usize], field.enter(i))),
                1
            );
        }
    }

    #[test]
    fn degree_bounds_are_sharp_on_elimination_shapes() {
        let mut v = Vars::from_names(["x", "y", "z"]);
        // y - q(x) against h(x) of degree 5: degree 5 in y, not 5 * 3.
        let f = p("y - x^3 - 2x + 1", &mut v);
        let h = p("x^5 - 3x + 1", &mut v);
        assert_eq!(degree_bound(&f, &h, 0, 1), 5);
        assert_eq!(f.resultant_prs(&h, 0).degree(1), 5);
        // Two dense cubics in (x, y): Bezout's 9, not 3*3 + 3*3.
        let a = p("x^3 + y^3 + x*y + 1", &mut v);
        let b = p("x^2*y + y^3 - x + 2", &mut v);
        assert_eq!(degree_bound(&a, &b, 1, 0), 9);
        assert!(a.resultant_prs(&b, 1).degree(0) <= 9);
    }

    #[test]
    fn unlucky_primes_are_skipped() {
        let mut v = Vars::from_names(["x", "y"]);
        let q0 = word_prime(0);
        // The leading coefficient in y vanishes modulo the first prime (and at x = 0 and
        // x = 1 for every prime).
        let f = p(&format!("{q0}*x*(x - 1)*y^3 + y + x^2"), &mut v);
        let g = p("(x + 2)*y^2 - x*y + 7", &mut v);
        for var in [0, 1] {
            assert_eq!(
                modular_resultant(&f, &g, var, Grid::Any, &|| false),
                Ok(f.resultant_prs(&g, var))
            );
            assert_eq!(
                modular_discriminant(&f, var, Grid::Any, &|| false),
                Ok(f.discriminant_prs(var))
            );
        }
        assert_eq!(
            modular_resultant(&f, &g, 1, Grid::Any, &|| true),
            Err(ModFail::Stopped)
        );
    }
}
