//! [`UPoly`]: dense univariate polynomials over Z, the working representation of root
//! isolation.
//!
//! The sparse multivariate [`Poly`] is general but pays for monomial bookkeeping on every
//! operation; the inner loops of Descartes' method (Taylor shifts, reversals, scalings by
//! powers of two) want a plain coefficient vector. Coefficients are [`Int`], so small
//! polynomials never allocate big integers.

use crate::error::CadError;
use polys::{BigInt, Coeff, Int, Mono, Poly, Rat};

/// `c[0] + c[1] x + ... + c[d] x^d`.
///
/// Invariant: no trailing zero coefficient, so the zero polynomial is the empty vector and
/// structural equality is polynomial equality.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct UPoly {
    c: Vec<Int>,
}

/// `2^k` as an [`Int`].
pub(crate) fn pow2(k: u64) -> Int {
    if k < 62 {
        Int::from(1i64 << k)
    } else {
        Int::from(BigInt::from(1u8) << k)
    }
}

impl UPoly {
    /// Builds a polynomial from coefficients, lowest degree first.
    pub fn new(mut c: Vec<Int>) -> UPoly {
        while c.last().is_some_and(Coeff::is_zero) {
            c.pop();
        }
        UPoly { c }
    }

    /// Builds a polynomial from machine-integer coefficients, lowest degree first.
    pub fn from_i64s(c: &[i64]) -> UPoly {
        UPoly::new(c.iter().map(|&v| Int::from(v)).collect())
    }

    /// The zero polynomial.
    pub fn zero() -> UPoly {
        UPoly { c: Vec::new() }
    }

    /// The constant `v`.
    pub fn constant(v: Int) -> UPoly {
        UPoly::new(vec![v])
    }

    /// `a x - b`, whose root is `b / a`; for a rational `r` this is its defining polynomial.
    pub fn linear_for(r: &Rat) -> UPoly {
        UPoly::new(vec![r.numer().neg(), r.denom().clone()])
    }

    /// Coefficients, lowest degree first, without trailing zeros.
    pub fn coeffs(&self) -> &[Int] {
        &self.c
    }

    /// True for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.c.is_empty()
    }

    /// Degree; 0 for constants including zero.
    pub fn degree(&self) -> usize {
        self.c.len().saturating_sub(1)
    }

    /// Leading coefficient (zero for the zero polynomial).
    pub fn lc(&self) -> Int {
        self.c.last().cloned().unwrap_or_else(Int::zero)
    }

    /// Reads a [`Poly`] that involves at most the variable `var`.
    pub fn from_poly(p: &Poly, var: usize) -> Result<UPoly, CadError> {
        let mut c = vec![Int::zero(); p.degree(var) as usize + 1];
        for (m, a) in p.terms() {
            if let Some(other) = (0..m.len()).find(|&v| v != var && m.exp(v) > 0) {
                return Err(CadError::NotUnivariate { var, other });
            }
            c[m.exp(var) as usize] = a.clone();
        }
        Ok(UPoly::new(c))
    }

    /// The same polynomial as a [`Poly`] in the variable `var`.
    pub fn to_poly(&self, var: usize) -> Poly {
        Poly::from_terms(
            self.c
                .iter()
                .enumerate()
                .filter(|(_, a)| !a.is_zero())
                .map(|(i, a)| (Mono::var(var, i as u32), a.clone()))
                .collect(),
        )
    }

    /// Value at an integer (Horner).
    pub fn eval(&self, x: &Int) -> Int {
        self.c
            .iter()
            .rev()
            .fold(Int::zero(), |acc, a| &(&acc * x) + a)
    }

    /// `den^d * p(num / den)` with `d` the degree: the value at a fraction with the
    /// denominator cleared, in integer arithmetic.
    pub fn eval_homogeneous(&self, num: &Int, den: &Int) -> Int {
        let Some(top) = self.c.last() else {
            return Int::zero();
        };
        let mut acc = top.clone();
        let mut den_pow = Int::one();
        for a in self.c.iter().rev().skip(1) {
            den_pow = &den_pow * den;
            acc = &(&acc * num) + &(a * &den_pow);
        }
        acc
    }

    /// Exact value at a rational.
    pub fn eval_rational(&self, x: &Rat) -> Rat {
        let d = self.degree() as u32;
        let v = self.eval_homogeneous(x.numer(), x.denom());
        Rat::new(v, x.denom().pow(d))
    }

    /// Sign (-1, 0, 1) of the value at a rational; exact, in integer arithmetic.
    pub fn sign_at(&self, x: &Rat) -> i32 {
        // The denominator of a Rat is positive, so clearing it keeps the sign.
        self.eval_homogeneous(x.numer(), x.denom()).signum()
    }

    /// Sign of the value at the dyadic `m / 2^k`.
    pub fn sign_at_dyadic(&self, m: &Int, k: u64) -> i32 {
        self.eval_homogeneous(m, &pow2(k)).signum()
    }

    /// `p(x + 1)`.
    pub fn taylor_shift_one(&self) -> UPoly {
        // Horner's scheme on fixed-width limbs (see `taylor`).
        UPoly::new(crate::taylor::shift_one(&self.c))
    }

    /// `p(x + a)` for an integer `a`.
    pub fn taylor_shift(&self, a: &Int) -> UPoly {
        if a.is_zero() {
            return self.clone();
        }
        if a.is_one() {
            return self.taylor_shift_one();
        }
        let mut c = self.c.clone();
        let n = c.len();
        for i in 0..n.saturating_sub(1) {
            for j in (i..n - 1).rev() {
                let s = &c[j] + &(&c[j + 1] * a);
                c[j] = s;
            }
        }
        UPoly::new(c)
    }

    /// `x^d p(1/x)`: the coefficients reversed (roots inverted).
    pub fn reverse(&self) -> UPoly {
        let mut c = self.c.clone();
        c.reverse();
        UPoly::new(c)
    }

    /// `2^d p(x/2)`: roots doubled, coefficients kept integral.
    pub fn scale_half(&self) -> UPoly {
        let d = self.degree();
        UPoly::new(
            self.c
                .iter()
                .enumerate()
                .map(|(i, a)| a * &pow2((d - i) as u64))
                .collect(),
        )
    }

    /// `p(2^k x)`: roots divided by `2^k`.
    pub fn scale_pow2(&self, k: u64) -> UPoly {
        UPoly::new(
            self.c
                .iter()
                .enumerate()
                .map(|(i, a)| a * &pow2(k * i as u64))
                .collect(),
        )
    }

    /// `p(s x)` for an integer `s`.
    pub fn scale(&self, s: &Int) -> UPoly {
        let mut f = Int::one();
        let mut c = Vec::with_capacity(self.c.len());
        for a in &self.c {
            c.push(a * &f);
            f = &f * s;
        }
        UPoly::new(c)
    }

    /// `p(-x)`.
    pub fn negate_x(&self) -> UPoly {
        UPoly::new(
            self.c
                .iter()
                .enumerate()
                .map(|(i, a)| if i % 2 == 1 { a.neg() } else { a.clone() })
                .collect(),
        )
    }

    /// `-p`.
    pub fn neg(&self) -> UPoly {
        UPoly {
            c: self.c.iter().map(Coeff::neg).collect(),
        }
    }

    /// Number of sign changes in the coefficient sequence, zeros skipped: by Descartes'
    /// rule an upper bound on the positive roots, exact modulo 2.
    pub fn sign_variations(&self) -> usize {
        let mut last = 0;
        let mut v = 0;
        for a in &self.c {
            let s = a.signum();
            if s != 0 {
                if last != 0 && s != last {
                    v += 1;
                }
                last = s;
            }
        }
        v
    }

    /// Multiplicity of 0 as a root (the number of zero low coefficients).
    pub fn trailing_zeros(&self) -> usize {
        self.c.iter().take_while(|a| a.is_zero()).count()
    }

    /// `p / x^k`, dropping the `k` lowest coefficients.
    pub fn shift_down(&self, k: usize) -> UPoly {
        UPoly::new(self.c.iter().skip(k).cloned().collect())
    }

    /// `p'`.
    pub fn derivative(&self) -> UPoly {
        UPoly::new(
            self.c
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, a)| a * &Int::from(i as i64))
                .collect(),
        )
    }

    /// Sum of two polynomials.
    pub fn add(&self, o: &UPoly) -> UPoly {
        let n = self.c.len().max(o.c.len());
        let z = Int::zero();
        UPoly::new(
            (0..n)
                .map(|i| self.c.get(i).unwrap_or(&z) + o.c.get(i).unwrap_or(&z))
                .collect(),
        )
    }

    /// Difference of two polynomials.
    pub fn sub(&self, o: &UPoly) -> UPoly {
        self.add(&o.neg())
    }

    /// Product of two polynomials (schoolbook: the degrees here are small).
    pub fn mul(&self, o: &UPoly) -> UPoly {
        if self.is_zero() || o.is_zero() {
            return UPoly::zero();
        }
        let mut c = vec![Int::zero(); self.c.len() + o.c.len() - 1];
        for (i, a) in self.c.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in o.c.iter().enumerate() {
                let t = &c[i + j] + &(a * b);
                c[i + j] = t;
            }
        }
        UPoly::new(c)
    }

    /// Multiplies every coefficient by `s`.
    pub fn scale_coeffs(&self, s: &Int) -> UPoly {
        UPoly::new(self.c.iter().map(|a| a * s).collect())
    }

    /// Non-negative gcd of the coefficients (0 for the zero polynomial); small coefficients
    /// first, so most big ones are only reduced modulo a small gcd.
    pub fn content(&self) -> Int {
        polys::coefficient_gcd(&self.c)
    }

    /// The polynomial divided by its content, with positive leading coefficient.
    pub fn primitive(&self) -> UPoly {
        if self.is_zero() {
            return UPoly::zero();
        }
        let mut g = self.content();
        if self.lc().signum() < 0 {
            g = g.neg();
        }
        if g.is_one() {
            return self.clone();
        }
        UPoly {
            c: self.c.iter().map(|a| a.div_exact(&g)).collect(),
        }
    }

    /// `self / d` when `d` divides `self` in `Z[x]`, `None` otherwise (or when `d = 0`).
    pub fn div_exact(&self, d: &UPoly) -> Option<UPoly> {
        polys::dense_div_exact(&self.c, &d.c).map(UPoly::new)
    }

    /// Pseudo-remainder `lc(d)^(deg self - deg d + 1) * self mod d` (`self` when it has
    /// the lower degree). `d` must be non-zero.
    fn prem(&self, d: &UPoly) -> UPoly {
        let mut a = self.c.clone();
        let db = d.c.len() - 1;
        let lcd = &d.c[db];
        while a.len() > db && !a.is_empty() {
            let da = a.len() - 1;
            let lca = a[da].clone();
            for c in a.iter_mut().take(da) {
                *c = &*c * lcd;
            }
            for (j, bj) in d.c.iter().take(db).enumerate() {
                let k = j + da - db;
                a[k] = &a[k] - &(&lca * bj);
            }
            a.pop();
            while a.last().is_some_and(Coeff::is_zero) {
                a.pop();
            }
        }
        // The missing powers of lc(d) only scale the remainder by a unit of Q, and the
        // primitive PRS below divides contents out anyway.
        UPoly::new(a)
    }

    /// Greatest common divisor, primitive with positive leading coefficient; `gcd(0, 0) = 0`.
    /// By the modular method ([`polys::modular_gcd`]: word primes, Chinese remaindering,
    /// checked by exact division), with [`UPoly::gcd_prs`] as the fallback it never needs
    /// in practice.
    pub fn gcd(&self, o: &UPoly) -> UPoly {
        match polys::modular_gcd(&self.c, &o.c) {
            Some(c) => UPoly::new(c),
            None => self.gcd_prs(o),
        }
    }

    /// The same gcd by the primitive PRS (Euclid over Z with contents divided out at each
    /// step): slow on big coefficients, kept as the test oracle of [`UPoly::gcd`].
    pub fn gcd_prs(&self, o: &UPoly) -> UPoly {
        let (mut a, mut b) = (self.primitive(), o.primitive());
        if a.c.len() < b.c.len() {
            std::mem::swap(&mut a, &mut b);
        }
        while !b.is_zero() {
            if b.degree() == 0 {
                return UPoly::constant(Int::one());
            }
            let r = a.prem(&b).primitive();
            a = b;
            b = r;
        }
        a
    }

    /// The square-free part: the primitive product of the distinct irreducible factors,
    /// `p / gcd(p, p')`. Constants give 1, zero gives zero.
    pub fn square_free_part(&self) -> UPoly {
        if self.degree() == 0 {
            return if self.is_zero() {
                UPoly::zero()
            } else {
                UPoly::constant(Int::one())
            };
        }
        let g = self.gcd(&self.derivative());
        let p = self.primitive();
        if g.degree() == 0 {
            return p;
        }
        // Invariant: gcd(p, p') divides p, so the division is exact.
        p.div_exact(&g).expect("gcd(p, p') divides p").primitive()
    }

    /// `D^d p((A + C x) / D)` for integers `A, C` and `D > 0`: the polynomial whose roots in
    /// (0, 1) are the roots of `p` in `(A/D, (A + C)/D)` when `C > 0`. The factor `D^d`
    /// is positive, so signs are preserved.
    pub fn compose_affine(&self, a: &Int, c: &Int, den: &Int) -> UPoly {
        let d = self.degree();
        let mut f = Int::one();
        let mut hom = vec![Int::zero(); self.c.len()];
        for i in (0..self.c.len()).rev() {
            hom[i] = &self.c[i] * &f;
            if i > 0 {
                f = &f * den;
            }
        }
        debug_assert!(self.is_zero() || hom.len() == d + 1);
        UPoly::new(hom).taylor_shift(a).scale(c)
    }

    /// The polynomial whose roots in (0, 1) are those of `p` in the open interval
    /// `(lo, hi)`, up to a positive factor.
    pub fn onto_unit_interval(&self, lo: &Rat, hi: &Rat) -> UPoly {
        // lo = a/b, hi - lo = c/e; x -> (a e + c b x) / (b e).
        let w = hi - lo;
        let (a, b) = (lo.numer(), lo.denom());
        let (c, e) = (w.numer(), w.denom());
        self.compose_affine(&(a * e), &(c * b), &(b * e))
    }

    /// The Descartes bound for roots in the open interval `(lo, hi)`: the sign variations
    /// of the polynomial moved onto (0, 1) and then onto (0, oo). Zero proves the interval
    /// root-free; one proves exactly one root.
    pub fn descartes_bound(&self, lo: &Rat, hi: &Rat) -> usize {
        self.onto_unit_interval(lo, hi)
            .reverse()
            .taylor_shift_one()
            .sign_variations()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;
    fn rational(n: i64, d: i64) -> Rat {
        Rat::ratio(n, d)
    }

    #[test]
    fn shifts_scalings_and_reversal() {
        let p = UPoly::from_i64s(&[1, -3, 0, 2]); // 2x^3 - 3x + 1
        assert_eq!(p.taylor_shift_one(), UPoly::from_i64s(&[0, 3, 6, 2]));
        assert_eq!(
            p.taylor_shift(&Int::from(-2)),
            UPoly::from_i64s(&[-9, 21, -12, 2])
        );
        assert_eq!(p.reverse(), UPoly::from_i64s(&[2, 0, -3, 1]));
        assert_eq!(p.scale_half(), UPoly::from_i64s(&[8, -12, 0, 2]));
        assert_eq!(p.scale_pow2(1), UPoly::from_i64s(&[1, -6, 0, 16]));
        assert_eq!(p.negate_x(), UPoly::from_i64s(&[1, 3, 0, -2]));
        assert_eq!(p.sign_variations(), 2);
        assert_eq!(p.eval(&Int::from(2)), Int::from(11));
        assert_eq!(p.eval_rational(&rational(1, 2)), rational(-1, 4));
        assert_eq!(p.sign_at(&rational(1, 2)), -1);
        assert_eq!(p.sign_at_dyadic(&Int::from(1), 1), -1);
    }

    #[test]
    fn poly_round_trip_and_errors() {
        let mut v = Vars::from_names(["x", "y"]);
        let p = Poly::parse("3y^4 - y + 7", &mut v).unwrap();
        let u = UPoly::from_poly(&p, 1).unwrap();
        assert_eq!(u, UPoly::from_i64s(&[7, -1, 0, 0, 3]));
        assert_eq!(u.to_poly(1), p);
        let q = Poly::parse("x*y", &mut v).unwrap();
        assert_eq!(
            UPoly::from_poly(&q, 1),
            Err(CadError::NotUnivariate { var: 1, other: 0 })
        );
    }

    #[test]
    fn gcd_and_square_free_part_match_polys() {
        let mut v = Vars::from_names(["x"]);
        let f = Poly::parse("-6*(x - 1)^3*(x + 2)*(2x + 3)^2", &mut v).unwrap();
        let g = Poly::parse("4*(x - 1)^2*(2x + 3)*(x^2 + 1)", &mut v).unwrap();
        let (uf, ug) = (
            UPoly::from_poly(&f, 0).unwrap(),
            UPoly::from_poly(&g, 0).unwrap(),
        );
        assert_eq!(uf.gcd(&ug).to_poly(0), f.gcd(&g).integer_primitive());
        assert_eq!(
            uf.square_free_part().to_poly(0),
            f.square_free_part().integer_primitive()
        );
        assert_eq!(uf.div_exact(&ug), None);
        let h = uf.gcd(&ug);
        assert_eq!(h.mul(&uf.div_exact(&h).unwrap()), uf);
    }

    #[test]
    fn onto_unit_interval_moves_roots() {
        // (x - 5/3)(x - 7/3) has both roots in (3/2, 5/2), none in (0, 1) after the move
        // except those two.
        let p = UPoly::from_i64s(&[35, -36, 9]);
        let q = p.onto_unit_interval(&rational(3, 2), &rational(5, 2));
        assert_eq!(q.sign_at(&rational(1, 6)), 0);
        assert_eq!(q.sign_at(&rational(5, 6)), 0);
        assert_eq!(p.descartes_bound(&rational(3, 2), &rational(5, 2)), 2);
        assert_eq!(p.descartes_bound(&rational(2, 1), &rational(3, 1)), 1);
        assert_eq!(p.descartes_bound(&rational(3, 1), &rational(4, 1)), 0);
    }
}
