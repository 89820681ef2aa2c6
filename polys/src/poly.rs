//! [`Poly`]: sparse multivariate polynomials over an exact integer ring, and their ring
//! arithmetic (sum, product, power, exact division).

use crate::coeff::Coeff;
use crate::int::Int;
use crate::mono::Mono;
use std::cmp::Ordering;

/// A polynomial in variables `x0, x1, ...` (indices into a [`crate::Vars`] list) with
/// coefficients in `C`.
///
/// Invariant: terms are sorted by strictly decreasing [`Mono`] order and no coefficient is
/// zero, so structural equality is polynomial equality.
///
/// ```
/// use polys::{Poly, Vars};
/// let mut vars = Vars::new();
/// let p = Poly::parse("(x + y)^2", &mut vars).unwrap();
/// let q = Poly::parse("x^2 + 2x*y + y^2", &mut vars).unwrap();
/// assert_eq!(p, q);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Poly<C: Coeff = Int> {
    terms: Vec<(Mono, C)>,
}

impl<C: Coeff> Default for Poly<C> {
    fn default() -> Self {
        Poly::zero()
    }
}

impl<C: Coeff> Poly<C> {
    /// The zero polynomial (no terms).
    pub fn zero() -> Self {
        Poly { terms: Vec::new() }
    }

    /// The constant polynomial 1.
    pub fn one() -> Self {
        Self::constant(C::one())
    }

    /// The constant polynomial `c` (the zero polynomial when `c = 0`).
    pub fn constant(c: C) -> Self {
        if c.is_zero() {
            Self::zero()
        } else {
            Poly {
                terms: vec![(Mono::one(), c)],
            }
        }
    }

    /// The constant polynomial `c`, from a machine integer.
    pub fn from_i64(c: i64) -> Self {
        Self::constant(C::from_i64(c))
    }

    /// The polynomial `x_var`.
    pub fn var(var: usize) -> Self {
        Self::monomial(C::one(), Mono::var(var, 1))
    }

    /// The single term `c * m` (the zero polynomial when `c = 0`).
    pub fn monomial(c: C, m: Mono) -> Self {
        if c.is_zero() {
            Self::zero()
        } else {
            Poly {
                terms: vec![(m, c)],
            }
        }
    }

    /// Builds a polynomial from terms in any order, combining equal monomials.
    pub fn from_terms(mut terms: Vec<(Mono, C)>) -> Self {
        terms.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let mut out: Vec<(Mono, C)> = Vec::with_capacity(terms.len());
        for (m, c) in terms {
            match out.last_mut() {
                Some((lm, lc)) if *lm == m => lc.add_assign(&c),
                _ => out.push((m, c)),
            }
        }
        out.retain(|(_, c)| !c.is_zero());
        Poly { terms: out }
    }

    /// Terms in decreasing monomial order.
    pub fn terms(&self) -> &[(Mono, C)] {
        &self.terms
    }

    /// The terms, in decreasing monomial order, without copying.
    pub fn into_terms(self) -> Vec<(Mono, C)> {
        self.terms
    }

    /// Number of (nonzero) terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether there are no terms, i.e. the polynomial is zero; the same as [`Poly::is_zero`].
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether this is the constant polynomial 1.
    pub fn is_one(&self) -> bool {
        self.terms.len() == 1 && self.terms[0].0.is_one() && self.terms[0].1.is_one()
    }

    /// True for constants, including zero.
    pub fn is_constant(&self) -> bool {
        self.terms.iter().all(|(m, _)| m.is_one())
    }

    /// The value of a constant polynomial.
    pub fn constant_value(&self) -> Option<C> {
        match self.terms.as_slice() {
            [] => Some(C::zero()),
            [(m, c)] if m.is_one() => Some(c.clone()),
            _ => None,
        }
    }

    /// Leading term in the lex order (highest variable most significant).
    pub fn leading_term(&self) -> Option<&(Mono, C)> {
        self.terms.first()
    }

    /// Sign of the leading coefficient in the term order (0 for the zero polynomial).
    pub fn leading_sign(&self) -> i32 {
        self.terms.first().map_or(0, |(_, c)| c.signum())
    }

    /// The highest variable that occurs, if any.
    pub fn main_var(&self) -> Option<usize> {
        // The leading monomial has the longest exponent vector.
        self.terms.first().and_then(|(m, _)| m.len().checked_sub(1))
    }

    /// One past the highest variable that occurs.
    pub fn nvars(&self) -> usize {
        self.main_var().map_or(0, |v| v + 1)
    }

    /// Whether `var` occurs.
    pub fn has_var(&self, var: usize) -> bool {
        self.terms.iter().any(|(m, _)| m.exp(var) > 0)
    }

    /// The variables that occur, increasing.
    pub fn vars(&self) -> Vec<usize> {
        (0..self.nvars()).filter(|&v| self.has_var(v)).collect()
    }

    /// The highest total degree of a term (0 for constants, including zero).
    pub fn total_degree(&self) -> u64 {
        self.terms
            .iter()
            .map(|(m, _)| m.total_degree())
            .max()
            .unwrap_or(0)
    }

    /// `-self`.
    pub fn neg(&self) -> Self {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, c)| (m.clone(), c.neg()))
                .collect(),
        }
    }

    /// `self + o`, by merging the two sorted term lists.
    pub fn add(&self, o: &Self) -> Self {
        self.merge(o, false)
    }

    /// `self - o`, by merging the two sorted term lists.
    pub fn sub(&self, o: &Self) -> Self {
        self.merge(o, true)
    }

    fn merge(&self, o: &Self, negate: bool) -> Self {
        let mut out = Vec::with_capacity(self.terms.len() + o.terms.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.terms, &o.terms);
        let other = |c: &C| if negate { c.neg() } else { c.clone() };
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                Ordering::Greater => {
                    out.push(a[i].clone());
                    i += 1;
                }
                Ordering::Less => {
                    out.push((b[j].0.clone(), other(&b[j].1)));
                    j += 1;
                }
                Ordering::Equal => {
                    let c = if negate {
                        a[i].1.sub(&b[j].1)
                    } else {
                        a[i].1.add(&b[j].1)
                    };
                    if !c.is_zero() {
                        out.push((a[i].0.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend(a[i..].iter().cloned());
        out.extend(b[j..].iter().map(|(m, c)| (m.clone(), other(c))));
        Poly { terms: out }
    }

    /// `self * o` (a constant factor only scales the other's coefficients).
    pub fn mul(&self, o: &Self) -> Self {
        if self.is_zero() || o.is_zero() {
            return Self::zero();
        }
        if let Some(c) = o.constant_value() {
            return self.scale(&c);
        }
        if let Some(c) = self.constant_value() {
            return o.scale(&c);
        }
        let mut terms = Vec::with_capacity(self.terms.len() * o.terms.len());
        for (ma, ca) in &self.terms {
            for (mb, cb) in &o.terms {
                terms.push((ma.mul(mb), ca.mul(cb)));
            }
        }
        Self::from_terms(terms)
    }

    /// Multiplies by a monomial `c * m`.
    pub fn mul_term(&self, c: &C, m: &Mono) -> Self {
        if c.is_zero() {
            return Self::zero();
        }
        // Multiplying by a monomial preserves the order of terms.
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(ma, ca)| (ma.mul(m), ca.mul(c)))
                .collect(),
        }
    }

    /// Multiplies every coefficient by `c`.
    pub fn scale(&self, c: &C) -> Self {
        if c.is_zero() {
            return Self::zero();
        }
        if c.is_one() {
            return self.clone();
        }
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, a)| (m.clone(), a.mul(c)))
                .collect(),
        }
    }

    /// Divides every coefficient by `c`, which must divide each of them.
    pub fn div_scalar_exact(&self, c: &C) -> Self {
        if c.is_one() {
            return self.clone();
        }
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, a)| (m.clone(), a.div_exact(c)))
                .collect(),
        }
    }

    /// `self^e` by repeated squaring (`p^0 = 1`, including for `p = 0`).
    pub fn pow(&self, e: u32) -> Self {
        let mut acc = Self::one();
        let mut base = self.clone();
        let mut e = e;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(&base);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base);
            }
        }
        acc
    }

    /// `self / d` when `d` divides `self` exactly in `Z[x]`, `None` otherwise (or when `d = 0`).
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::new();
    /// let f = Poly::parse("x^2 - y^2", &mut v).unwrap();
    /// let g = Poly::parse("x - y", &mut v).unwrap();
    /// assert_eq!(f.div_exact(&g), Some(Poly::parse("x + y", &mut v).unwrap()));
    /// assert_eq!(g.div_exact(&f), None);
    /// ```
    pub fn div_exact(&self, d: &Self) -> Option<Self> {
        let (dm, dc) = d.terms.first()?;
        if let Some(c) = d.constant_value() {
            return self
                .terms
                .iter()
                .all(|(_, a)| a.div_mod_floor(&c).1.is_zero())
                .then(|| self.div_scalar_exact(&c));
        }
        let mut r = self.clone();
        let mut q = Vec::new();
        while let Some((rm, rc)) = r.terms.first() {
            let m = rm.div(dm)?;
            let (c, rem) = rc.div_mod_floor(dc);
            if !rem.is_zero() {
                return None;
            }
            r = r.sub(&d.mul_term(&c, &m));
            q.push((m, c));
        }
        // Quotient terms come out in decreasing order, one per step.
        Some(Poly { terms: q })
    }

    /// Non-negative gcd of the integer coefficients (0 for the zero polynomial).
    pub fn integer_content(&self) -> C {
        crate::modgcd::coefficient_gcd(self.terms.iter().map(|(_, c)| c))
    }

    /// Converts the coefficients to another integer type.
    pub fn convert<D: Coeff>(&self) -> Poly<D> {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, c)| (m.clone(), D::from_bigint(c.to_bigint())))
                .collect(),
        }
    }

    /// Renames variables: `x_i` becomes `x_map[i]` (a permutation or injection).
    pub fn rename(&self, map: &[usize]) -> Self {
        Self::from_terms(
            self.terms
                .iter()
                .map(|(m, c)| {
                    let mut out = Mono::one();
                    for (v, &e) in m.exps().iter().enumerate() {
                        if e > 0 {
                            out.set(map[v], e);
                        }
                    }
                    (out, c.clone())
                })
                .collect(),
        )
    }
}

macro_rules! forward_poly_binop {
    ($tr:ident, $m:ident) => {
        impl<C: Coeff> std::ops::$tr<&Poly<C>> for &Poly<C> {
            type Output = Poly<C>;
            fn $m(self, o: &Poly<C>) -> Poly<C> {
                Poly::$m(self, o)
            }
        }
        impl<C: Coeff> std::ops::$tr<Poly<C>> for Poly<C> {
            type Output = Poly<C>;
            fn $m(self, o: Poly<C>) -> Poly<C> {
                Poly::$m(&self, &o)
            }
        }
    };
}
forward_poly_binop!(Add, add);
forward_poly_binop!(Sub, sub);
forward_poly_binop!(Mul, mul);

impl<C: Coeff> std::ops::Neg for &Poly<C> {
    type Output = Poly<C>;
    fn neg(self) -> Poly<C> {
        Poly::neg(self)
    }
}
impl<C: Coeff> std::ops::Neg for Poly<C> {
    type Output = Poly<C>;
    fn neg(self) -> Poly<C> {
        Poly::neg(&self)
    }
}
