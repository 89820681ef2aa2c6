//! Random formulas in three variables and lifted trees compared cell by cell, for the
//! tests that lift with and without one of lifting's shortcuts.

#![allow(dead_code)]

use crate::rng::Rng;
use cad::formula::{Atom, Formula, Rel};
use cad::lift::{Cell, LiftOutcome, Lifter};
use polys::{Int, Poly};

/// A constant and two or three monomials of degree 1 to 3 over x0, x1, x2.
pub fn random_poly(rng: &mut Rng) -> Poly {
    let mut p = Poly::constant(Int::from(rng.range(-4, 4)));
    for _ in 0..rng.range(2, 3) {
        let mut t = Poly::constant(Int::from(
            rng.range(1, 3) * [-1, 1][rng.range(0, 1) as usize],
        ));
        for _ in 0..rng.range(1, 3) {
            t = t.mul(&Poly::var(rng.range(0, 2) as usize));
        }
        p = p.add(&t);
    }
    p
}

pub fn atom(p: Poly, rel: Rel) -> Formula {
    Formula::Atom(Atom::compare(&p, rel, &Poly::zero()))
}

/// A box `-3 <= x_v <= 3` and two or three random atoms, or with `square` one atom whose
/// polynomial has double roots in x2 over a curve of irrational x1.
pub fn random_formula(seed: u64, square: bool) -> Formula {
    let mut rng = Rng(seed);
    let rels = [Rel::Le, Rel::Lt, Rel::Ge, Rel::Ne];
    let mut parts = Vec::new();
    for v in 0..3 {
        parts.push(atom(
            Poly::var(v).add(&Poly::constant(Int::from(3))),
            Rel::Ge,
        ));
        parts.push(atom(
            Poly::var(v).sub(&Poly::constant(Int::from(3))),
            Rel::Le,
        ));
    }
    if !square {
        for _ in 0..rng.range(2, 3) {
            parts.push(atom(random_poly(&mut rng), rels[rng.range(0, 3) as usize]));
        }
    } else {
        // `s^2 + t` with `s = x2^2 + a x1 x2 + b x1 + c x0 + d`, `t = e x1 + f x0 + h`: along
        // the curve x1(x0) where `(s^2 + t)(x2 = -a x1 / 2)` vanishes (a factor of its
        // discriminant, so a section over the sectors of x0) it has a double root in x2
        // where s is extreme, a candidate that neither intervals nor a sign change settle,
        // and degree 4, which no closed-form count covers.
        let c = |rng: &mut Rng, lo, hi| Poly::constant(Int::from(rng.range(lo, hi)));
        let (x0, x1, x2) = (Poly::var(0), Poly::var(1), Poly::var(2));
        let s = x2
            .pow(2)
            .add(&c(&mut rng, -2, 2).mul(&x1).mul(&x2))
            .add(&c(&mut rng, -3, 3).mul(&x1))
            .add(&c(&mut rng, -2, 2).mul(&x0))
            .add(&c(&mut rng, -3, 3));
        let t = c(&mut rng, 1, 3)
            .mul(&x1)
            .add(&c(&mut rng, -2, 2).mul(&x0))
            .add(&c(&mut rng, -3, 3));
        parts.push(atom(s.mul(&s).add(&t), rels[rng.range(0, 3) as usize]));
    }
    Formula::and(parts)
}

pub fn same_tree(a: &[Cell], b: &[Cell], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: stack sizes");
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.kind, y.kind, "{what}");
        assert_eq!((&x.lower, &x.upper), (&y.lower, &y.upper), "{what}");
        assert!(
            x.sample == y.sample,
            "{what}: samples {:?} {:?}",
            x.sample,
            y.sample
        );
        assert_eq!((&x.truth, x.pruned), (&y.truth, y.pruned), "{what}");
        same_tree(&x.children, &y.children, what);
    }
}

/// The tree, or `None` when Brown's projection turned out not to be valid (the same in
/// both runs: neither the memo nor the counts change a root).
pub fn lift(lifter: Lifter) -> Option<Vec<Cell>> {
    match lifter.lift().expect("lifting") {
        LiftOutcome::Tree(cells) => Some(cells),
        LiftOutcome::Nullified(_) => None,
    }
}
