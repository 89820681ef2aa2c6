//! Sturm counts in lifting (candidate roots over an algebraic sample settled by counting
//! the roots of the specialised polynomial in the candidate's isolating interval, instead
//! of an exact zero proof): random formulas in three variables, some with a square plus a
//! random term (double roots over the sections of its discriminant), lifted with and
//! without the counts, must give the same tree, cell by cell, and the counts must have
//! settled candidates.

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
fn lifting_with_sturm_counts_gives_the_same_tree() {
    let mut settled = 0;
    for seed in 0..60 {
        let f = random_formula(seed, seed % 2 == 1);
        let polys = f.polynomials();
        let projection = Projection::new(&polys, 3, &[]);
        let full = &projection.full;
        let formulas = [f];
        let (with, without) = (LiftStats::default(), LiftStats::default());
        let a = lift(Lifter::new(&projection.levels, full, &formulas, &[], &with));
        let b = lift(
            Lifter::new(&projection.levels, full, &formulas, &[], &without).without_sturm_counts(),
        );
        match (a, b) {
            (Some(a), Some(b)) => same_tree(&a, &b, &format!("seed {seed}")),
            (None, None) => {}
            _ => panic!("seed {seed}: only one lifting was valid"),
        }
        assert_eq!(without.sturm_settled.load(Relaxed), 0);
        settled += with.sturm_settled.load(Relaxed);
    }
    eprintln!("candidates settled by Sturm counts: {settled}");
    assert!(settled > 0, "no candidate was settled by a count");
}
