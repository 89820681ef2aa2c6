//! Lifting's memo of eliminants (candidate roots over an algebraic sample, shared by the
//! samples whose irrational coordinates have the same defining polynomials): random
//! formulas in three variables with quadratic and cubic terms, lifted with and without
//! the memo, must give the same tree, cell by cell (kind, bounds, exact sample, truth,
//! pruning), and the memo must have been used.

use cad::formula::{Atom, Formula, Rel};
use cad::lift::{Cell, LiftOutcome, Lifter};
use cad::project::Projection;
use cad::LiftStats;
use polys::{Int, Poly};
use std::sync::atomic::Ordering::Relaxed;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A constant and two or three monomials of degree 1 to 3 over x0, x1, x2.
fn random_poly(rng: &mut Rng) -> Poly {
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

fn atom(p: Poly, rel: Rel) -> Formula {
    Formula::Atom(Atom::compare(&p, rel, &Poly::zero()))
}

/// A box `-3 <= x_v <= 3` and two or three random atoms.
fn random_formula(seed: u64) -> Formula {
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
    for _ in 0..rng.range(2, 3) {
        parts.push(atom(random_poly(&mut rng), rels[rng.range(0, 3) as usize]));
    }
    Formula::and(parts)
}

fn same_tree(a: &[Cell], b: &[Cell], what: &str) {
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
/// both runs: the memo changes no root).
fn lift(lifter: Lifter) -> Option<Vec<Cell>> {
    match lifter.lift().expect("lifting") {
        LiftOutcome::Tree(cells) => Some(cells),
        LiftOutcome::Nullified(_) => None,
    }
}

#[test]
fn lifting_with_the_eliminant_memo_gives_the_same_tree() {
    let mut reused = 0;
    for seed in 0..40 {
        let f = random_formula(seed);
        let polys = f.polynomials();
        let projection = Projection::new(&polys, 3, &[]);
        let full = &projection.full;
        let formulas = [f];
        let (with, without) = (LiftStats::default(), LiftStats::default());
        let a = lift(Lifter::new(&projection.levels, full, &formulas, &[], &with));
        let b = lift(
            Lifter::new(&projection.levels, full, &formulas, &[], &without)
                .without_eliminant_memo(),
        );
        match (a, b) {
            (Some(a), Some(b)) => same_tree(&a, &b, &format!("seed {seed}")),
            (None, None) => {}
            _ => panic!("seed {seed}: only one lifting was valid"),
        }
        assert_eq!(without.eliminants_reused.load(Relaxed), 0);
        reused += with.eliminants_reused.load(Relaxed);
    }
    eprintln!("eliminants reused: {reused}");
    assert!(reused > 0, "the memo was never used");
}
