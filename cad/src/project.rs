//! Projection: from the constraint polynomials to one square-free basis per level.
//!
//! Level `k` holds the basis polynomials whose main (highest) variable is `x_k`. The
//! projection of level `k` (Brown's operator: leading coefficients, discriminants and
//! pairwise resultants in `x_k`; contents are split off by the square-free basis) joins the
//! polynomials of lower main variable, and the basis is formed again one level down; at
//! level 0, where every polynomial left is in `x_0` alone, by real roots
//! ([`crate::root_basis`]).
//! Polynomials linear in `x_k` skip the discriminant (the affine projection of section
//! 3.10 of the seed thesis: it is the constant 1). McCallum's operator adds all
//! coefficients: a polynomial whose leading coefficient is not a constant gets it from the
//! start, since the lifting would otherwise meet that coefficient's zeros over a cell of
//! positive dimension and ask for it then, throwing its work away; the others get it when
//! the lifting asks (see [`crate::lift`]). With equational
//! constraints ([`crate::equational`]) the last level projects the other polynomials of a
//! clause only against its equation ([`Projection::restricted`]).

use crate::equational::{Equations, Restriction};
use crate::error::CadError;
use crate::root_basis::real_root_basis;
use polys::{square_free_basis_until, Poly};

/// Which coefficients a polynomial contributes to the projection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Operator {
    /// Leading coefficient only (Brown 2001), valid when no projection factor vanishes
    /// identically over a cell of positive dimension; used for polynomials whose leading
    /// coefficient is a constant.
    #[default]
    Brown,
    /// Every coefficient (McCallum 1988, as used for nullified polynomials).
    McCallum,
}

/// The projection factors, level by level.
#[derive(Clone, Debug, Default)]
pub struct Projection {
    /// `levels[k]`: square-free, pairwise coprime polynomials with main variable `x_k`;
    /// at level 0 only without common real roots, and each with a real root (a member's
    /// sign at another's root is what the stack over R^0 needs, see `crate::root_basis`).
    pub levels: Vec<Vec<Poly>>,
    /// What the projection did to build `levels`.
    pub stats: ProjectionStats,
    /// `level_roots[i]`: the real roots of `levels[0][i]`, increasing, as the lifting
    /// isolates them; found while building level 0's basis and handed to the lifting
    /// (its memo of roots, filled by [`crate::Cad`]). Empty when there are no levels.
    pub level_roots: Vec<Vec<crate::Algebraic>>,
    /// `restricted[k][i]`: basis polynomial `i` of level `k` was projected only against
    /// the equational constraints of its clauses, so it is sign-invariant on their
    /// sections but not delineable: its roots bound no cell. Empty (nothing restricted)
    /// without equational constraints; only the last level is ever restricted.
    pub restricted: Vec<Vec<bool>>,
    /// `full[k][i]`: basis polynomial `i` of level `k` was projected with all its
    /// coefficients (McCallum's operator), so a vanishing leading coefficient leaves its
    /// degree invariant on the cells below and asks for no restart.
    pub full: Vec<Vec<bool>>,
}

/// What the projection did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProjectionStats {
    /// Polynomials projected with the affine shortcut (linear in the eliminated variable).
    pub affine: usize,
    /// Polynomials projected with all their coefficients (McCallum).
    pub full_coefficients: usize,
    /// Pairwise resultants of basis polynomials of the same level (counted but not computed
    /// at level 0, where they are constants).
    pub resultants: usize,
    /// Discriminants of basis polynomials of degree at least 2 in their main variable
    /// (counted but not computed at level 0).
    pub discriminants: usize,
    /// Basis polynomials of the last level projected only against equational constraints.
    pub restricted: usize,
}

impl Projection {
    /// Projects `polys` in `nvars` variables with Brown's operator, except for the
    /// polynomials in `full` (compared after normalisation) and the basis polynomials whose
    /// leading coefficient is not a constant, which contribute all their coefficients.
    ///
    /// ```
    /// use cad::project::Projection;
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::from_names(["x", "y"]);
    /// let ps: Vec<Poly> = ["x - 1", "7 - x", "y - 1", "9 - y", "(y - 4)^2 - 3x + 12"]
    ///     .iter().map(|s| Poly::parse(s, &mut v).unwrap()).collect();
    /// let p = Projection::new(&ps, 2, &[]);
    /// let level0: Vec<String> = p.levels[0].iter().map(|q| q.to_text(&v)).collect();
    /// assert_eq!(level0.len(), 4); // x - 1, x - 7, x - 4, 3x - 37
    /// ```
    pub fn new(polys: &[Poly], nvars: usize, full: &[Poly]) -> Projection {
        // Without a deadline nothing can stop the projection early.
        Projection::until(polys, nvars, full, &crate::Limits::none()).unwrap_or_default()
    }

    /// As [`Projection::new`], but gives up with [`CadError::Limit`] once the deadline of
    /// `limits` has passed (checked between resultants, discriminants and square-free bases
    /// and inside them, per prime and evaluation point of their modular images).
    pub fn until(
        polys: &[Poly],
        nvars: usize,
        full: &[Poly],
        limits: &crate::Limits,
    ) -> Result<Projection, CadError> {
        Projection::restricted(polys, nvars, full, &Equations::default(), limits)
    }

    /// As [`Projection::until`], with the last level restricted by the equational
    /// constraints `eqs` (the clauses of the formulas `polys` come from): the other
    /// polynomials of a clause contribute only their resultants with its equation.
    ///
    /// ```
    /// use cad::equational::Equations;
    /// use cad::formula::Formula;
    /// use cad::project::Projection;
    /// use polys::Vars;
    /// let v = Vars::from_names(["x", "y"]);
    /// let f = Formula::conjunction(&v, &["y = x", "x^2 + y^2 <= 4", "y^3 + x*y >= 1"]).unwrap();
    /// let ps = f.polynomials();
    /// let eqs = Equations::of(&[f], &[], 1);
    /// let all = Projection::new(&ps, 2, &[]);
    /// let cut = Projection::restricted(&ps, 2, &[], &eqs, &cad::Limits::none()).unwrap();
    /// // No resultant of the circle with the cubic, no discriminant of either.
    /// assert!(cut.levels[0].len() < all.levels[0].len());
    /// assert_eq!(cut.restricted[1], [false, true, true]);
    /// ```
    pub fn restricted(
        polys: &[Poly],
        nvars: usize,
        full: &[Poly],
        eqs: &Equations,
        limits: &crate::Limits,
    ) -> Result<Projection, CadError> {
        let mut stats = ProjectionStats::default();
        let mut restricted = vec![Vec::new(); nvars];
        let mut levels = vec![Vec::new(); nvars];
        let mut full_levels = vec![Vec::new(); nvars];
        let mut pending: Vec<Poly> = polys.iter().filter(|p| !p.is_constant()).cloned().collect();
        let mut level_roots = Vec::new();
        for k in (0..nvars).rev() {
            limits.check_time()?;
            // Asked inside the basis's gcds too: one of them can take minutes.
            let late = || limits.check_time().is_err();
            let timed_out =
                || crate::StopReason::TimeLimit(limits.deadline.map(|d| d.1).unwrap_or_default());
            let basis = if k == 0 {
                // Every polynomial left is in x_0 alone: the stack over R^0 needs only
                // members without common real roots (`crate::root_basis`).
                let b = real_root_basis(&pending, &late)?.ok_or_else(timed_out)?;
                level_roots = b.roots;
                b.polys
            } else {
                square_free_basis_until(&pending, &late).ok_or_else(timed_out)?
            };
            limits.check_degree(&basis, k > 0)?;
            let mut lower = Vec::new();
            for b in basis {
                match b.main_var() {
                    Some(v) if v == k => levels[k].push(b),
                    Some(v) if v < k => lower.push(b),
                    // Variables beyond nvars cannot occur: callers number variables 0..nvars.
                    _ => lower.push(b),
                }
            }
            if k == 0 && level_roots.len() == levels[0].len() {
                // The roots follow their polynomials.
                let mut both: Vec<(Poly, Vec<crate::Algebraic>)> = std::mem::take(&mut levels[0])
                    .into_iter()
                    .zip(level_roots)
                    .collect();
                both.sort_by_key(|(p, _)| (p.degree(0), p.total_degree(), p.len()));
                (levels[0], level_roots) = both.into_iter().unzip();
            } else {
                // (Level 0 always has its roots; without them nothing is handed over.)
                level_roots.clear();
                levels[k].sort_by_key(|p| (p.degree(k), p.total_degree(), p.len()));
            }
            // A leading coefficient that is not a constant vanishes on its sections below,
            // and over one of positive dimension Brown's operator is not valid: the
            // lifting would stop there and the projection be redone with all coefficients
            // of the polynomial (on the hard random domains of issue 23 most lifted cells
            // were thrown away so). Projecting with them at once costs a few more
            // factors; the lifting keeps its check for the others.
            let op = |p: &Poly| {
                if full.contains(p) || !p.lc(k).is_constant() {
                    Operator::McCallum
                } else {
                    Operator::Brown
                }
            };
            full_levels[k] = levels[k]
                .iter()
                .map(|p| op(p) == Operator::McCallum)
                .collect();
            let restriction = (k + 1 == nvars && eqs.any()).then(|| {
                let r = eqs.restriction(&levels[k], k);
                stats.restricted += r.delineable.iter().filter(|d| !**d).count();
                r
            });
            lower.extend(project_level(
                &levels[k],
                k,
                &op,
                restriction.as_ref(),
                &mut stats,
                limits,
            )?);
            if let Some(r) = restriction {
                restricted[k] = r.delineable.iter().map(|d| !d).collect();
            }
            pending = lower.into_iter().filter(|p| !p.is_constant()).collect();
        }
        Ok(Projection {
            levels,
            stats,
            level_roots,
            restricted,
            full: full_levels,
        })
    }

    /// Total number of projection factors.
    pub fn len(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    /// Whether there are no projection factors at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether basis polynomial `i` of level `k` is restricted (see the field).
    pub fn is_restricted(&self, k: usize, i: usize) -> bool {
        self.restricted
            .get(k)
            .and_then(|l| l.get(i))
            .copied()
            .unwrap_or(false)
    }
}

/// The projection of one level's basis (all with main variable `k`); with a
/// `restriction`, only its delineable polynomials contribute coefficients and
/// discriminants, and only its pairs resultants.
fn project_level(
    basis: &[Poly],
    k: usize,
    op: &impl Fn(&Poly) -> Operator,
    restriction: Option<&Restriction>,
    stats: &mut ProjectionStats,
    limits: &crate::Limits,
) -> Result<Vec<Poly>, crate::StopReason> {
    let mut out = Vec::new();
    // Over the last level every projection polynomial (leading coefficient, coefficient,
    // discriminant, resultant of polynomials in x_0 alone) is a constant, and constants
    // are dropped: they are counted, not computed.
    let constants_only = k == 0;
    // Asked inside the remainder sequences too: one resultant can take a minute.
    let late = || limits.check_time().is_err();
    let timed_out =
        || crate::StopReason::TimeLimit(limits.deadline.map(|d| d.1).unwrap_or_default());
    let delineable = |i: usize| restriction.is_none_or(|r| r.delineable[i]);
    let pair = |i: usize, j: usize| restriction.is_none_or(|r| r.pairs[i][j]);
    for (i, f) in basis.iter().enumerate() {
        limits.check_time()?;
        if delineable(i) {
            project_one(f, k, op(f), stats, &mut out, limits)?;
        }
        for (j, g) in basis.iter().enumerate().skip(i + 1) {
            if !pair(i, j) {
                continue;
            }
            limits.check_time()?;
            stats.resultants += 1;
            if !constants_only {
                out.push(f.resultant_until(g, k, &late).ok_or_else(timed_out)?);
            }
        }
    }
    out.retain(|p| !p.is_constant());
    Ok(out)
}

/// The coefficients `op` asks for and the discriminant of one basis polynomial `f` of
/// level `k`, appended to `out` (counted only at level 0, where they are constants).
fn project_one(
    f: &Poly,
    k: usize,
    op: Operator,
    stats: &mut ProjectionStats,
    out: &mut Vec<Poly>,
    limits: &crate::Limits,
) -> Result<(), crate::StopReason> {
    let constants_only = k == 0;
    let late = || limits.check_time().is_err();
    let timed_out =
        || crate::StopReason::TimeLimit(limits.deadline.map(|d| d.1).unwrap_or_default());
    match op {
        Operator::Brown => {
            if !constants_only {
                out.push(f.lc(k));
            }
        }
        Operator::McCallum => {
            stats.full_coefficients += 1;
            if !constants_only {
                out.extend(f.coeffs(k).into_iter().filter(|c| !c.is_zero()));
            }
        }
    }
    if f.degree(k) >= 2 {
        stats.discriminants += 1;
        if !constants_only {
            out.push(f.discriminant_until(k, &late).ok_or_else(timed_out)?);
        }
    } else {
        stats.affine += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    /// Section 2.3.3 of the seed thesis: level-1 factors x-1, x-7, x-4, 3x-37.
    #[test]
    fn worked_example_d3() {
        let mut v = Vars::from_names(["x", "y"]);
        let ps: Vec<Poly> = ["x - 1", "x - 7", "y - 1", "y - 9", "(y - 4)^2 - 3x + 12"]
            .iter()
            .map(|s| Poly::parse(s, &mut v).unwrap())
            .collect();
        let p = Projection::new(&ps, 2, &[]);
        let mut got: Vec<String> = p.levels[0].iter().map(|q| q.to_text(&v)).collect();
        got.sort();
        assert_eq!(got, ["3*x - 37", "x - 1", "x - 4", "x - 7"]);
        assert_eq!(p.levels[1].len(), 3);
    }

    use std::time::Instant;

    fn limits_until(at: Instant) -> crate::Limits {
        crate::Limits {
            deadline: Some((at, std::time::Duration::ZERO)),
            ..crate::Limits::none()
        }
    }

    #[test]
    fn a_passed_deadline_stops_the_projection() {
        let mut v = Vars::from_names(["x", "y"]);
        let ps: Vec<Poly> = ["x^2 + y^2 - 4", "x*y - 1"]
            .iter()
            .map(|s| Poly::parse(s, &mut v).unwrap())
            .collect();
        let now = Instant::now();
        let past = now
            .checked_sub(std::time::Duration::from_millis(1))
            .unwrap_or(now);
        assert!(matches!(
            Projection::until(&ps, 2, &[], &limits_until(past)),
            Err(CadError::Limit(_))
        ));
        let later = now + std::time::Duration::from_secs(3600);
        assert_eq!(
            Projection::until(&ps, 2, &[], &limits_until(later)).map(|p| p.len()),
            Ok(Projection::new(&ps, 2, &[]).len())
        );
    }
}
