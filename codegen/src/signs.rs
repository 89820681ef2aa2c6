//! Signs and ranges of polynomials decided from integer bounds of their variables: what
//! the scanners need to know which side of a constraint bounds a loop variable (`w*t <= n`
//! with `w >= 1` bounds `t` from above), which constraints imply others, and in which
//! order two excluded intervals come.
//!
//! The test is syntactic and sound, not complete: each variable with a known lower bound
//! `l` is shifted to `v = l + v'` with `v' >= 0`; a polynomial whose shifted terms all have
//! non-negative coefficients, and in which every variable without a known bound occurs
//! only to even powers, is non-negative.

use polys::{Coeff, Int, Poly};

/// Integer bounds of some variables.
pub(crate) struct Facts {
    pub(crate) lower: Vec<Option<Int>>,
    /// Upper bounds, read off the constraints like the lower ones; they serve only
    /// [`Facts::range`].
    pub(crate) upper: Vec<Option<Int>>,
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
            upper: vec![None; upto],
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
                let Some(a) = cs[1].constant_value() else {
                    continue;
                };
                let rest = cs.first().cloned().unwrap_or_else(Poly::zero);
                if a.signum() < 0 {
                    // -|a| v + r >= 0  <=>  v <= floor(r / |a|)
                    let Some(high) = facts.range(&rest).1 else {
                        continue;
                    };
                    let u = high.div_mod_floor(&a.neg()).0;
                    if facts.upper[v].as_ref().is_none_or(|old| &u < old) {
                        facts.upper[v] = Some(u);
                        changed = true;
                    }
                    continue;
                }
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
        let pick = |v: usize, upper: bool| {
            let bounds = all
                .iter()
                .map(|f| {
                    if upper { &f.upper } else { &f.lower }
                        .get(v)
                        .cloned()
                        .flatten()
                })
                .collect::<Option<Vec<Int>>>()?;
            if upper {
                bounds.into_iter().max()
            } else {
                bounds.into_iter().min()
            }
        };
        Facts {
            lower: (0..upto).map(|v| pick(v, false)).collect(),
            upper: (0..upto).map(|v| pick(v, true)).collect(),
        }
    }

    /// The same bounds restricted to the variables below `upto`.
    pub(crate) fn below(&self, upto: usize) -> Facts {
        Facts {
            lower: self.lower.iter().take(upto).cloned().collect(),
            upper: self.upper.iter().take(upto).cloned().collect(),
        }
    }

    /// Integer bounds of `p` over the box of the variables' bounds (`None`: unbounded on
    /// that side). Exact for a polynomial of degree at most 2 in one bounded variable
    /// (ends and vertex), term by term interval arithmetic otherwise.
    pub(crate) fn range(&self, p: &Poly) -> (Option<Int>, Option<Int>) {
        let vars = p.vars();
        let bound = |v: usize| {
            (
                self.lower.get(v).cloned().flatten(),
                self.upper.get(v).cloned().flatten(),
            )
        };
        if let [x] = vars[..] {
            if let ((Some(l), Some(h)), true) = (bound(x), p.degree(x) <= 2) {
                return quadratic_range(p, x, &l, &h);
            }
        }
        let (mut lo, mut hi) = (Some(Int::from(0)), Some(Int::from(0)));
        for (m, c) in p.terms() {
            let mut t = (Some(c.clone()), Some(c.clone()));
            for &v in &vars {
                let e = m.exp(v);
                if e > 0 {
                    t = interval_mul(t, power_range(bound(v), e));
                }
            }
            lo = lo.zip(t.0).map(|(a, b)| a.add(&b));
            hi = hi.zip(t.1).map(|(a, b)| a.add(&b));
        }
        (lo, hi)
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

/// The range of `p`, of degree at most 2 in its one variable `x`, over `l <= x <= h`: its
/// values at the ends and, for a quadratic, at the vertex (rounded outwards).
fn quadratic_range(p: &Poly, x: usize, l: &Int, h: &Int) -> (Option<Int>, Option<Int>) {
    let at = |v: &Int| {
        p.subst_int(x, v)
            .constant_value()
            .unwrap_or_else(|| Int::from(0))
    };
    let (mut lo, mut hi) = (at(l), at(h));
    if lo > hi {
        std::mem::swap(&mut lo, &mut hi);
    }
    let cs = p.coeffs(x);
    if cs.len() == 3 {
        let (a, b, c) = (
            cs[2].constant_value().unwrap_or_else(|| Int::from(0)),
            cs[1].constant_value().unwrap_or_else(|| Int::from(0)),
            cs[0].constant_value().unwrap_or_else(|| Int::from(0)),
        );
        // The vertex -b/(2a) inside [l, h]: there p = c - b^2/(4a).
        let two_a = a.add(&a);
        let inside = if two_a.signum() > 0 {
            l.mul(&two_a) <= b.neg() && b.neg() <= h.mul(&two_a)
        } else {
            l.mul(&two_a) >= b.neg() && b.neg() >= h.mul(&two_a)
        };
        if inside {
            let four_a = two_a.add(&two_a);
            let num = c.mul(&four_a).sub(&b.mul(&b));
            // num / (4a), rounded down for a minimum and up for a maximum.
            let (q, r) = num.div_mod_floor(&four_a);
            let up = if r.is_zero() {
                q.clone()
            } else {
                q.add(&Int::from(1))
            };
            if a.signum() > 0 {
                lo = lo.min(q);
            } else {
                hi = hi.max(up);
            }
        }
    }
    (Some(lo), Some(hi))
}

/// The range of `v^e` for `v` in the given bounds.
fn power_range((l, h): (Option<Int>, Option<Int>), e: u32) -> (Option<Int>, Option<Int>) {
    let pow = |v: &Int| v.pow(e);
    if e % 2 == 1 {
        return (l.as_ref().map(pow), h.as_ref().map(pow));
    }
    match (l, h) {
        (Some(l), Some(h)) => {
            let (a, b) = (pow(&l), pow(&h));
            let lo = if l.signum() <= 0 && h.signum() >= 0 {
                Int::from(0)
            } else {
                a.clone().min(b.clone())
            };
            (Some(lo), Some(a.max(b)))
        }
        (Some(l), None) if l.signum() >= 0 => (Some(pow(&l)), None),
        (None, Some(h)) if h.signum() <= 0 => (Some(pow(&h)), None),
        _ => (Some(Int::from(0)), None),
    }
}

/// The product of two ranges (`None`: unbounded on that side).
fn interval_mul(
    a: (Option<Int>, Option<Int>),
    b: (Option<Int>, Option<Int>),
) -> (Option<Int>, Option<Int>) {
    // Bounded on both sides: the extremes are among the four corner products.
    if let ((Some(a0), Some(a1)), (Some(b0), Some(b1))) = (&a, &b) {
        let ps = [a0.mul(b0), a0.mul(b1), a1.mul(b0), a1.mul(b1)];
        let lo = ps.iter().min().cloned();
        let hi = ps.iter().max().cloned();
        return (lo, hi);
    }
    // A constant factor scales the other range (flipping it when negative).
    let constant = |r: &(Option<Int>, Option<Int>)| match r {
        (Some(x), Some(y)) if x == y => Some(x.clone()),
        _ => None,
    };
    let (k, other) = match (constant(&a), constant(&b)) {
        (Some(k), _) => (k, b),
        (_, Some(k)) => (k, a),
        _ => return (None, None),
    };
    let scale = |v: Option<Int>| v.map(|v| v.mul(&k));
    match k.signum() {
        0 => (Some(Int::from(0)), Some(Int::from(0))),
        s if s > 0 => (scale(other.0), scale(other.1)),
        _ => (scale(other.1), scale(other.0)),
    }
}
