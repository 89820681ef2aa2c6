//! Equational constraints for the projection of the last variable: which basis polynomials
//! of that level must be delineable and which pairs need a resultant.
//!
//! A formula is split into clauses, conjunctions whose truth decides it (an `or` of
//! clauses; an `and` distributes over the clauses of its parts while there are few). A
//! clause with a conjunct `f = 0`, where `f` has positive degree in the last variable `x_n`
//! and is primitive in it, has `f` as its equational constraint: it can hold only on
//! sections of `f`. McCallum's projection with an equational constraint (1999), as
//! extended to several clauses by Bradford, Davenport, England et al. (truth-table
//! invariant CADs, 2013), then needs for the last level only the projection of the
//! equational constraints among themselves (and of clauses without one, in full), plus
//! `res(f, g)` for the other polynomials `g` of the clause: over each cell below, `g` is
//! sign-invariant on every section of `f` (McCallum 1999, Theorem 2.2, given that the
//! levels below are order-invariant, which the projection's validity check provides).
//! Such a `g` is not delineable: its roots bound no cell, and its sign is read only on
//! sections of `f`, where it is constant. Elsewhere `f != 0` and the clause is false.
//!
//! Only the last level is restricted: the polynomials it projects to are projected in full
//! below, as without equational constraints.

use crate::formula::{Formula, Rel};
use polys::Poly;

/// At most this many clauses per formula: beyond it an `and` over `or`s counts as one
/// clause without equational constraint (all its polynomials projected in full).
const MAX_CLAUSES: usize = 16;

/// A conjunction of the formula's structure: its equational constraint, if any, and the
/// polynomials its truth depends on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clause {
    /// `f` of a conjunct `f = 0` with positive degree in the last variable and content 1
    /// in it (the clause is false wherever `f != 0`).
    pub equation: Option<Poly>,
    /// Every polynomial of the clause's atoms (the equation's too).
    pub polys: Vec<Poly>,
}

/// The clauses of the formulas and the polynomials projected in full at the last level.
#[derive(Clone, Debug, Default)]
pub struct Equations {
    /// Clauses with an equational constraint.
    pub clauses: Vec<Clause>,
    /// Polynomials of clauses without an equational constraint and of pruning formulas
    /// (which are evaluated on every cell, so their signs must be invariant on all).
    pub free: Vec<Poly>,
}

impl Equations {
    /// The clauses of `formulas` for the last variable `top`; every polynomial of
    /// `pruning` is free.
    pub fn of(formulas: &[Formula], pruning: &[Formula], top: usize) -> Equations {
        let mut out = Equations::default();
        for f in formulas {
            for c in clauses(f, top) {
                if c.equation.is_some() {
                    out.clauses.push(c);
                } else {
                    push_new(&mut out.free, c.polys);
                }
            }
        }
        for f in pruning {
            push_new(&mut out.free, f.polynomials());
        }
        out
    }

    /// Whether any clause has an equational constraint (otherwise the projection is the
    /// usual one).
    pub fn any(&self) -> bool {
        !self.clauses.is_empty()
    }

    /// For the basis `basis` of the last level `top`: which polynomials must be
    /// delineable, and whether the pair `(i, j)` needs its resultant (`pairs[i][j]`, for
    /// `i < j`).
    pub fn restriction(&self, basis: &[Poly], top: usize) -> Restriction {
        let divides = |b: &Poly, p: &Poly| {
            p.main_var() == Some(top)
                && b.degree(top) <= p.degree(top)
                && (b == p || p.div_exact(b).is_some())
        };
        let n = basis.len();
        // Per basis polynomial: the clauses whose equation it divides, the clauses whose
        // other polynomials it divides, whether a free polynomial has it.
        let mut of_equation = vec![Vec::new(); n];
        let mut in_clause = vec![Vec::new(); n];
        let mut free = vec![false; n];
        for (i, b) in basis.iter().enumerate() {
            for (c, clause) in self.clauses.iter().enumerate() {
                if clause.equation.as_ref().is_some_and(|f| divides(b, f)) {
                    of_equation[i].push(c);
                }
                if clause.polys.iter().any(|p| divides(b, p)) {
                    in_clause[i].push(c);
                }
            }
            free[i] = self.free.iter().any(|p| divides(b, p));
        }
        // A bound of degree 3 or more is found at run time between sections of the factors
        // of its derivative (codegen's root search): the basis factors of an equation's
        // derivative must bound cells, or the search would take a bracket with other roots
        // in it for one without.
        for clause in &self.clauses {
            let Some(f) = &clause.equation else { continue };
            if f.degree(top) < 2 {
                continue;
            }
            let df = f.derivative(top);
            for (i, b) in basis.iter().enumerate() {
                free[i] |= divides(b, &df);
            }
        }
        // A basis polynomial none of the clauses explains stays delineable (never happens
        // for a basis of these polynomials, but is the safe answer).
        let delineable: Vec<bool> = (0..n)
            .map(|i| free[i] || !of_equation[i].is_empty() || in_clause[i].is_empty())
            .collect();
        let against = |e: usize, g: usize| of_equation[e].iter().any(|c| in_clause[g].contains(c));
        let pairs = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (delineable[i] && delineable[j]) || against(i, j) || against(j, i))
                    .collect()
            })
            .collect();
        Restriction { delineable, pairs }
    }
}

/// What the equational constraints leave of the last level's projection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    /// `delineable[i]`: basis polynomial `i` is projected in full (leading coefficient,
    /// discriminant) and its roots bound cells; otherwise it is sign-invariant only on the
    /// sections of its clauses' equations.
    pub delineable: Vec<bool>,
    /// `pairs[i][j]`: the resultant of basis polynomials `i` and `j` is needed.
    pub pairs: Vec<Vec<bool>>,
}

fn push_new(out: &mut Vec<Poly>, ps: Vec<Poly>) {
    for p in ps {
        if !out.contains(&p) {
            out.push(p);
        }
    }
}

/// Whether `p` can serve as the equational constraint for the last variable `top`:
/// positive degree in it and no factor without it (a factor in the lower variables alone
/// would let `p = 0` hold on whole cylinders, where the clause's other polynomials need
/// not be sign-invariant).
fn is_equation(p: &Poly, top: usize) -> bool {
    p.main_var() == Some(top) && p.degree(top) >= 1 && p.content(top).is_constant()
}

/// The clauses of `f` (see the module comment); a formula that is false everywhere has
/// none, one that is true everywhere has one without polynomials.
pub fn clauses(f: &Formula, top: usize) -> Vec<Clause> {
    match f {
        Formula::True => vec![Clause::default()],
        Formula::False => Vec::new(),
        Formula::Atom(a) => {
            let p = a.poly.clone();
            if p.is_constant() {
                return vec![Clause::default()];
            }
            let equation = (a.rel == Rel::Eq && is_equation(&p, top)).then(|| p.clone());
            vec![Clause {
                equation,
                polys: vec![p],
            }]
        }
        Formula::Or(fs) => {
            let out: Vec<Clause> = fs.iter().flat_map(|g| clauses(g, top)).collect();
            if out.len() > MAX_CLAUSES {
                return vec![whole(f)];
            }
            out
        }
        Formula::And(fs) => {
            let mut out = vec![Clause::default()];
            for g in fs {
                let parts = clauses(g, top);
                if out.len() * parts.len() > MAX_CLAUSES {
                    return vec![whole(f)];
                }
                out = out
                    .iter()
                    .flat_map(|c| parts.iter().map(move |d| conjoin(c, d, top)))
                    .collect();
            }
            out
        }
        Formula::Not(_) => vec![whole(f)],
    }
}

/// One clause for all of `f`, without equational constraint.
fn whole(f: &Formula) -> Clause {
    Clause {
        equation: None,
        polys: f.polynomials(),
    }
}

/// The conjunction of two clauses: the simpler equation of the two (lowest degree in the
/// last variable, then fewest terms), all polynomials.
fn conjoin(a: &Clause, b: &Clause, top: usize) -> Clause {
    let mut polys = a.polys.clone();
    push_new(&mut polys, b.polys.clone());
    let key = |p: &Poly| (p.degree(top), p.total_degree(), p.len());
    let equation = match (&a.equation, &b.equation) {
        (Some(f), Some(g)) => Some(if key(g) < key(f) {
            g.clone()
        } else {
            f.clone()
        }),
        (Some(f), None) | (None, Some(f)) => Some(f.clone()),
        (None, None) => None,
    };
    Clause { equation, polys }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    fn formula(text: &[&str], v: &Vars) -> Formula {
        Formula::conjunction(v, text).unwrap()
    }

    #[test]
    fn a_conjunct_equation_of_the_last_variable_is_the_clause_equation() {
        let v = Vars::from_names(["x", "y"]);
        let f = formula(&["x^2 + y^2 <= 4", "y = x", "x >= 0"], &v);
        let cs = clauses(&f, 1);
        assert_eq!(cs.len(), 1);
        let mut w = v.clone();
        assert_eq!(cs[0].equation, Some(Poly::parse("y - x", &mut w).unwrap()));
        assert_eq!(cs[0].polys.len(), 3);
    }

    #[test]
    fn equations_without_the_last_variable_or_with_content_are_not_used() {
        let v = Vars::from_names(["x", "y"]);
        // x = 1 has no y; x*y - x = x (y - 1) has the content x in y.
        for eq in ["x = 1", "x*y = x"] {
            let f = formula(&["x^2 + y^2 <= 4", eq], &v);
            assert_eq!(clauses(&f, 1)[0].equation, None, "{eq}");
        }
    }

    #[test]
    fn and_distributes_over_or() {
        let v = Vars::from_names(["x", "y"]);
        let a = formula(&["y >= 0"], &v);
        let b = formula(&["y = x"], &v);
        let c = formula(&["y <= x^2"], &v);
        let f = Formula::and(vec![a, Formula::or(vec![b, c])]);
        let cs = clauses(&f, 1);
        assert_eq!(cs.len(), 2);
        assert!(cs[0].equation.is_some());
        assert!(cs[1].equation.is_none());
        let e = Equations::of(&[f], &[], 1);
        assert_eq!(e.clauses.len(), 1);
        // The clause without equation makes its polynomials free: y, y - x^2.
        assert_eq!(e.free.len(), 2);
    }

    #[test]
    fn factors_of_an_equations_derivative_stay_delineable() {
        let mut v = Vars::from_names(["x", "y"]);
        // d/dy (y^3 - 3y - x) = 3 (y - 1)(y + 1); y - 1 is also a clause polynomial.
        let f = formula(&["y^3 - 3*y - x = 0", "y <= 1", "x*y + y^2 >= 1"], &v);
        let e = Equations::of(&[f], &[], 1);
        let basis: Vec<Poly> = ["y^3 - 3*y - x", "y - 1", "y^2 + x*y - 1"]
            .iter()
            .map(|s| Poly::parse(s, &mut v).unwrap())
            .collect();
        assert_eq!(e.restriction(&basis, 1).delineable, [true, true, false]);
    }

    #[test]
    fn the_restriction_keeps_resultants_against_the_equation_only() {
        let mut v = Vars::from_names(["x", "y"]);
        let f = formula(&["y = x", "x^2 + y^2 <= 4", "y^3 + x*y >= 1"], &v);
        let e = Equations::of(&[f], &[], 1);
        let basis: Vec<Poly> = ["y - x", "x^2 + y^2 - 4", "y^3 + x*y - 1"]
            .iter()
            .map(|s| Poly::parse(s, &mut v).unwrap())
            .collect();
        let r = e.restriction(&basis, 1);
        assert_eq!(r.delineable, [true, false, false]);
        assert!(r.pairs[0][1] && r.pairs[0][2] && r.pairs[1][0]);
        assert!(!r.pairs[1][2]);
    }
}
