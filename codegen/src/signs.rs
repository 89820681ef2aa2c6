//! Signs of polynomials decided from integer lower bounds of their variables: what the
//! scanners need to know which side of a constraint bounds a loop variable (`w*t <= n`
//! with `w >= 1` bounds `t` from above) and which constraints imply others.
//!
//! The test is syntactic and sound, not complete: each variable with a known lower bound
//! `l` is shifted to `v = l + v'` with `v' >= 0`; a polynomial whose shifted terms all have
//! non-negative coefficients, and in which every variable without a known bound occurs
//! only to even powers, is non-negative.

use polys::{Coeff, Int, Poly};

/// Integer lower bounds of some variables.
pub(crate) struct Facts {
    pub(crate) lower: Vec<Option<Int>>,
}

impl Facts {
    /// Lower bounds of the variables below `upto` implied by the constraints `q >= 0`
    /// that are linear in their highest variable `v` with a constant positive
    /// coefficient: `a v + r >= 0` bounds `v` from below by a lower bound of `-r / a`
    /// where the lower variables' bounds give one (`R >= r` with `r >= 1` gives
    /// `R >= 1`). Only lower variables: a bound then holds wherever the outer loops and
    /// the guards on parameters hold, whichever variables come inside.
    pub(crate) fn new(constraints: &[Poly], upto: usize) -> Facts {
        let mut facts = Facts {
            lower: vec![None; upto],
        };
        // Bounds flow from lower variables to higher ones, one step per round.
        for _ in 0..=upto.min(8) {
            let mut changed = false;
            for q in constraints {
                let Some(v) = q.main_var() else { continue };
                if v >= upto || q.degree(v) != 1 {
                    continue;
                }
                let cs = q.coeffs(v);
                let Some(a) = cs[1].constant_value().filter(|a| a.signum() > 0) else {
                    continue;
                };
                let rest = cs.first().cloned().unwrap_or_else(Poly::zero);
                let Some(low) = facts.lower_bound(&rest.neg()) else {
                    continue;
                };
                // a v >= low  <=>  v >= ceil(low / a)
                let (fl, r) = low.div_mod_floor(&a);
                let l = if r.is_zero() {
                    fl
                } else {
                    fl.add(&Int::from(1))
                };
                if facts.lower[v].as_ref().is_none_or(|old| &l > old) {
                    facts.lower[v] = Some(l);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        facts
    }

    /// A lower bound of `p` wherever the variables are at least their bounds: the
    /// constant term after the shift, when every other term is non-negative.
    fn lower_bound(&self, p: &Poly) -> Option<Int> {
        let q = self.shifted(p)?;
        let constant = q.eval(&vec![Int::from(0); q.nvars()]);
        q.terms()
            .iter()
            .all(|(m, c)| m.is_one() || c.signum() >= 0)
            .then_some(constant)
    }

    /// `p` with each variable of known bound `l` replaced by `l + v`; `None` if some
    /// variable has no bound.
    fn shifted(&self, p: &Poly) -> Option<Poly> {
        let mut q = p.clone();
        for v in q.vars() {
            let l = self.lower.get(v)?.as_ref()?;
            q = q.subst(v, &Poly::var(v).add(&Poly::constant(l.clone())));
        }
        Some(q)
    }

    /// The bounds that hold in every one of `all`: the smallest lower bound of each
    /// variable, none where one of them has none.
    pub(crate) fn weakest(all: &[Facts], upto: usize) -> Facts {
        let lower = (0..upto)
            .map(|v| {
                all.iter()
                    .map(|f| f.lower.get(v).cloned().flatten())
                    .collect::<Option<Vec<Int>>>()?
                    .into_iter()
                    .min()
            })
            .collect();
        Facts { lower }
    }

    /// The same bounds restricted to the variables below `upto`.
    pub(crate) fn below(&self, upto: usize) -> Facts {
        Facts {
            lower: self.lower.iter().take(upto).cloned().collect(),
        }
    }

    /// `p >= 0` wherever every variable is at least its lower bound (see the module text).
    pub(crate) fn nonneg(&self, p: &Poly) -> bool {
        let mut q = p.clone();
        let mut free = Vec::new();
        for v in q.vars() {
            match self.lower.get(v).and_then(|l| l.as_ref()) {
                Some(l) => q = q.subst(v, &Poly::var(v).add(&Poly::constant(l.clone()))),
                None => free.push(v),
            }
        }
        q.terms()
            .iter()
            .all(|(m, c)| c.signum() >= 0 && free.iter().all(|&v| m.exp(v) % 2 == 0))
    }

    /// The sign of `p` if it is the same (and not zero) wherever the bounds hold.
    pub(crate) fn sign(&self, p: &Poly) -> Option<i32> {
        if self.nonneg(&p.sub(&Poly::one())) {
            Some(1)
        } else if self.nonneg(&p.neg().sub(&Poly::one())) {
            Some(-1)
        } else {
            None
        }
    }
}
