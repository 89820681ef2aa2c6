//! Lifting's memo of eliminants (candidate roots over an algebraic sample, shared by the
//! samples whose irrational coordinates have the same defining polynomials): random
//! formulas in three variables with quadratic and cubic terms, lifted with and without
//! the memo, must give the same tree, cell by cell (kind, bounds, exact sample, truth,
//! pruning), and the memo must have been used.

use cad::lift::Lifter;
use cad::project::Projection;
use cad::LiftStats;
use std::sync::atomic::Ordering::Relaxed;

#[path = "common/rng.rs"]
mod rng;
#[path = "common/trees.rs"]
mod trees;
use trees::{lift, random_formula, same_tree};

#[test]
fn lifting_with_the_eliminant_memo_gives_the_same_tree() {
    let mut reused = 0;
    for seed in 0..40 {
        let f = random_formula(seed, false);
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
