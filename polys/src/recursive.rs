//! The recursive view Z[x0..x(k-1)][xk] of a polynomial: degrees, coefficient lists and
//! leading coefficients with respect to any variable, derivatives, evaluation and
//! substitution.

use crate::coeff::Coeff;
use crate::mono::Mono;
use crate::poly::Poly;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use smallvec::SmallVec;

impl<C: Coeff> Poly<C> {
    /// Degree in `var` (0 for constants and for the zero polynomial).
    pub fn degree(&self, var: usize) -> u32 {
        self.terms()
            .iter()
            .map(|(m, _)| m.exp(var))
            .max()
            .unwrap_or(0)
    }

    /// Coefficients with respect to `var`, index = power of `var`; each coefficient is free
    /// of `var`. The zero polynomial gives an empty list; otherwise the last entry is
    /// non-zero.
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::from_names(["x", "y"]);
    /// let p = Poly::parse("x*y^2 + 3y - x", &mut v).unwrap();
    /// let c = p.coeffs(1);
    /// assert_eq!(c.len(), 3);
    /// assert_eq!(c[1], Poly::from_i64(3));
    /// ```
    pub fn coeffs(&self, var: usize) -> Vec<Poly<C>> {
        if self.is_zero() {
            return Vec::new();
        }
        if var >= self.nvars() {
            return vec![self.clone()];
        }
        let without_var = |m: &Mono| {
            let mut rest = m.clone();
            rest.set(var, 0);
            rest
        };
        if self.main_var() == Some(var) {
            // The most significant variable: each coefficient is one run of terms, in
            // decreasing powers of `var` and already in order within the run.
            let terms = self.terms();
            let deg = terms[0].0.exp(var) as usize;
            let mut out = vec![Poly::zero(); deg + 1];
            let mut start = 0;
            while start < terms.len() {
                let e = terms[start].0.exp(var);
                let end = start
                    + terms[start..]
                        .iter()
                        .take_while(|(m, _)| m.exp(var) == e)
                        .count();
                out[e as usize] = if end == start + 1 {
                    // A single term (non-zero coefficient) needs no sorting or merging.
                    let (m, c) = &terms[start];
                    Poly::monomial(c.clone(), without_var(m))
                } else {
                    Poly::from_terms(
                        terms[start..end]
                            .iter()
                            .map(|(m, c)| (without_var(m), c.clone()))
                            .collect(),
                    )
                };
                start = end;
            }
            return out;
        }
        // Count first, so that every bucket is allocated once at its size.
        let mut counts: SmallVec<[usize; 8]> = SmallVec::new();
        for (m, _) in self.terms() {
            let e = m.exp(var) as usize;
            if e >= counts.len() {
                counts.resize(e + 1, 0);
            }
            counts[e] += 1;
        }
        let mut buckets: Vec<Vec<(Mono, C)>> =
            counts.iter().map(|&n| Vec::with_capacity(n)).collect();
        for (m, c) in self.terms() {
            let e = m.exp(var);
            let mut rest = m.clone();
            if e > 0 {
                rest.set(var, 0);
            }
            buckets[e as usize].push((rest, c.clone()));
        }
        buckets
            .into_iter()
            .map(|mut b| match b.len() {
                0 => Poly::zero(),
                // A single term (non-zero coefficient) needs no sorting or merging.
                1 => {
                    let (m, c) = b.pop().expect("one term");
                    Poly::monomial(c, m)
                }
                _ => Poly::from_terms(b),
            })
            .collect()
    }

    /// Inverse of [`Poly::coeffs`]: `sum_i coeffs[i] * var^i`.
    pub fn from_coeffs(var: usize, coeffs: &[Poly<C>]) -> Poly<C> {
        let mut terms = Vec::new();
        for (i, c) in coeffs.iter().enumerate() {
            for (m, a) in c.terms() {
                debug_assert_eq!(m.exp(var), 0, "coefficient contains the main variable");
                terms.push((m.mul(&Mono::var(var, i as u32)), a.clone()));
            }
        }
        Poly::from_terms(terms)
    }

    /// Leading coefficient with respect to `var` (zero for the zero polynomial).
    pub fn lc(&self, var: usize) -> Poly<C> {
        let d = self.degree(var);
        Poly::from_terms(
            self.terms()
                .iter()
                .filter(|(m, _)| m.exp(var) == d)
                .map(|(m, c)| {
                    let mut rest = m.clone();
                    rest.set(var, 0);
                    (rest, c.clone())
                })
                .collect(),
        )
    }

    /// Partial derivative with respect to `var`.
    pub fn derivative(&self, var: usize) -> Poly<C> {
        Poly::from_terms(
            self.terms()
                .iter()
                .filter(|(m, _)| m.exp(var) > 0)
                .map(|(m, c)| {
                    let e = m.exp(var);
                    let mut m2 = m.clone();
                    m2.set(var, e - 1);
                    (m2, c.mul(&C::from_i64(e as i64)))
                })
                .collect(),
        )
    }

    /// Exact value at an integer point (`point[i]` is the value of `x_i`; it must cover
    /// every variable that occurs).
    pub fn eval(&self, point: &[C]) -> C {
        let mut acc = C::zero();
        for (m, c) in self.terms() {
            let mut t = c.clone();
            for (v, &e) in m.exps().iter().enumerate() {
                if e > 0 {
                    t = t.mul(&point[v].pow(e));
                }
            }
            acc.add_assign(&t);
        }
        acc
    }

    /// Exact value at a rational point.
    pub fn eval_rational(&self, point: &[BigRational]) -> BigRational {
        let mut acc = BigRational::zero();
        for (m, c) in self.terms() {
            let mut t = BigRational::from_integer(c.to_bigint());
            for (v, &e) in m.exps().iter().enumerate() {
                if e > 0 {
                    t *= num_traits::Pow::pow(&point[v], e);
                }
            }
            acc += t;
        }
        acc
    }

    /// Replaces `var` by the polynomial `q` (Horner scheme over the coefficient list).
    pub fn subst(&self, var: usize, q: &Poly<C>) -> Poly<C> {
        let cs = self.coeffs(var);
        let mut acc = Poly::zero();
        for c in cs.iter().rev() {
            acc = acc.mul(q).add(c);
        }
        acc
    }

    /// Replaces `var` by the integer `a`.
    pub fn subst_int(&self, var: usize, a: &C) -> Poly<C> {
        self.subst(var, &Poly::constant(a.clone()))
    }

    /// Replaces `var` by the rational `a = p/q` (q > 0) and clears the denominator:
    /// returns `q^d * self(var = p/q)` with `d = degree(var)`. The factor is positive, so
    /// signs are preserved, which is what CAD needs.
    pub fn subst_rational(&self, var: usize, a: &BigRational) -> Poly<C> {
        // BigRational keeps its denominator positive.
        let p = C::from_bigint(a.numer().clone());
        let q = C::from_bigint(a.denom().clone());
        let cs = self.coeffs(var);
        let d = cs.len().saturating_sub(1) as u32;
        let mut acc = Poly::zero();
        let mut ppow = C::one();
        let mut qpow = q.pow(d);
        // sum_i c_i p^i q^(d-i)
        for (i, c) in cs.iter().enumerate() {
            acc = acc.add(&c.scale(&ppow.mul(&qpow)));
            if i < d as usize {
                ppow = ppow.mul(&p);
                qpow = qpow.div_exact(&q);
            }
        }
        acc
    }

    /// Evaluates every variable in `values` (index, integer value) and keeps the others.
    pub fn partial_eval(&self, values: &[(usize, C)]) -> Poly<C> {
        let mut p = self.clone();
        for (v, a) in values {
            p = p.subst_int(*v, a);
        }
        p
    }
}

/// Rational helper: `a/b` as a [`BigRational`].
pub fn rational(a: i64, b: i64) -> BigRational {
    BigRational::new(BigInt::from(a), BigInt::from(b))
}
