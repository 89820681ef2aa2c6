//! [`Mono`]: exponent vectors, and the term order used everywhere.
//!
//! The order is lexicographic with the *highest* variable index most significant. That makes
//! the recursive view Z[x0..x(k-1)][xk] read off contiguous runs of terms, and it matches CAD,
//! which eliminates the last (innermost) variable first.

use smallvec::SmallVec;
use std::cmp::Ordering;

/// An exponent vector. Trailing zero exponents are trimmed, so a monomial is canonical
/// whatever the number of variables of its ring.
#[derive(Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct Mono(SmallVec<[u32; 4]>);

impl Mono {
    /// The monomial 1.
    pub fn one() -> Mono {
        Mono(SmallVec::new())
    }

    /// `x_var^exp`.
    pub fn var(var: usize, exp: u32) -> Mono {
        let mut m = Mono::one();
        m.set(var, exp);
        m
    }

    /// Builds a monomial from an exponent vector (any trailing zeros are dropped).
    pub fn from_exps(exps: &[u32]) -> Mono {
        let mut v: SmallVec<[u32; 4]> = exps.into();
        while v.last() == Some(&0) {
            v.pop();
        }
        Mono(v)
    }

    /// Exponent of `var` (0 beyond the stored length).
    pub fn exp(&self, var: usize) -> u32 {
        self.0.get(var).copied().unwrap_or(0)
    }

    /// Sets the exponent of `var`, keeping the representation trimmed.
    pub fn set(&mut self, var: usize, exp: u32) {
        if var >= self.0.len() {
            if exp == 0 {
                return;
            }
            self.0.resize(var + 1, 0);
        }
        self.0[var] = exp;
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// The stored exponents (index = variable); variables beyond have exponent 0.
    pub fn exps(&self) -> &[u32] {
        &self.0
    }

    /// Whether this is the monomial 1 (all exponents zero).
    pub fn is_one(&self) -> bool {
        self.0.is_empty()
    }

    /// One past the highest variable with positive exponent.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no variable has a positive exponent; the same as [`Mono::is_one`].
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sum of the exponents (as `u64`, so it cannot overflow).
    pub fn total_degree(&self) -> u64 {
        self.0.iter().map(|&e| e as u64).sum()
    }

    /// Product of monomials.
    pub fn mul(&self, o: &Mono) -> Mono {
        let (long, short) = if self.0.len() >= o.0.len() {
            (self, o)
        } else {
            (o, self)
        };
        let mut v = long.0.clone();
        for (a, b) in v.iter_mut().zip(short.0.iter()) {
            *a = a
                .checked_add(*b)
                .expect("exponent overflow: a degree beyond 2^32 cannot be represented");
        }
        Mono(v)
    }

    /// `self / o` when `o` divides `self`.
    pub fn div(&self, o: &Mono) -> Option<Mono> {
        if o.0.len() > self.0.len() {
            return None;
        }
        let mut v = self.0.clone();
        for (a, b) in v.iter_mut().zip(o.0.iter()) {
            if *a < *b {
                return None;
            }
            *a -= *b;
        }
        while v.last() == Some(&0) {
            v.pop();
        }
        Some(Mono(v))
    }
}

impl Ord for Mono {
    fn cmp(&self, o: &Mono) -> Ordering {
        // Trimmed vectors: a longer one has a positive exponent in a more significant slot.
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
}

impl PartialOrd for Mono {
    fn partial_cmp(&self, o: &Mono) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_lex_from_the_last_variable() {
        let x = Mono::var(0, 5);
        let y = Mono::var(1, 1);
        let xy = x.mul(&y);
        assert!(y > x);
        assert!(xy > y);
        assert!(Mono::var(1, 2) > xy);
        assert_eq!(xy.div(&y), Some(x.clone()));
        assert_eq!(x.div(&y), None);
        assert_eq!(Mono::from_exps(&[1, 0, 0]), Mono::var(0, 1));
    }
}
