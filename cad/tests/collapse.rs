//! Stacks whose cells are all cut as false are not kept: the cell below them is cut as
//! false itself. On random formulas in three variables: no stored stack is all false,
//! the tree holds exactly the cells made less the ones dropped, some were dropped, and
//! every stored leaf's truth still matches exact evaluation at its sample (a dropped
//! stack held no true cell, so nothing true was lost).

use cad::formula::Formula;
use cad::lift::{Cell, Prune};
use cad::{Algebraic, Cad, LiftStats};
use polys::Poly;
use std::sync::atomic::Ordering::Relaxed;

#[path = "common/rng.rs"]
mod rng;
#[path = "common/trees.rs"]
mod trees;
use trees::random_formula;

/// Whether some stored stack of the subtree has only cells cut as false.
fn has_all_false_stack(cells: &[Cell]) -> bool {
    let all_false = !cells.is_empty() && cells.iter().all(|c| c.pruned == Some(Prune::False));
    all_false || cells.iter().any(|c| has_all_false_stack(&c.children))
}

fn holds(f: &Formula, sample: &[Algebraic], stats: &LiftStats) -> bool {
    let mut sign = |p: &Poly| Some(cad::sign_at(p, sample, &stats.signs).expect("sign"));
    f.eval_partial(&mut sign)
        .expect("a full sample decides every atom")
}

#[test]
fn all_false_stacks_are_dropped_and_nothing_true_is_lost() {
    let mut dropped = 0;
    for seed in 0..40 {
        let f = random_formula(seed, false);
        let stats = LiftStats::default();
        let cad = Cad::new(vec![f.clone()], vec![], 3, &stats).expect("cad");
        assert!(!has_all_false_stack(&cad.cells), "seed {seed}");
        let collapsed = stats.collapsed.load(Relaxed);
        // Restarts build the tree again; only a single lifting's counts add up.
        if cad.restarts == 0 {
            let made = stats.cells.load(Relaxed);
            assert_eq!(cad.cell_count() as u64, made - collapsed, "seed {seed}");
        }
        dropped += collapsed;
        let check = LiftStats::default();
        cad.for_each_leaf(|path: &[&Cell]| {
            let leaf = path.last().expect("a path has a leaf");
            if leaf.pruned.is_none() {
                let sample: Vec<Algebraic> = path.iter().map(|c| c.sample.clone()).collect();
                assert_eq!(leaf.truth, vec![holds(&f, &sample, &check)], "seed {seed}");
            }
        });
    }
    eprintln!("cells dropped in all-false stacks: {dropped}");
    assert!(dropped > 0, "no stack was all false");
}
