//! A lifting whose deadline has passed stops at once, in every parallel subtree: the
//! subtrees of the first levels are lifted in parallel, and one that met the time limit
//! used to leave the others running until each had made up to 64 cells of its own (the
//! clock is read every 64 cells), which kept tetra-3d's tiled system lifting for seconds
//! past `--timeout` (BENCHMARKS.md, issue 23).

use cad::formula::{Atom, Formula, Rel};
use cad::lift::Lifter;
use cad::project::Projection;
use cad::{CadError, LiftStats, Limits, StopReason};
use polys::{Int, Poly};
use std::sync::atomic::Ordering::Relaxed;

/// `x0 + x1 + x2 >= k` for some `k`, with `0 <= x0, x1 <= 9`: twenty-one cells in each
/// of the first two stacks, none pruned (some `k` is reached above every cell), so
/// hundreds of subtrees at the parallel levels.
fn staircase() -> Formula {
    let x = |v: usize| Poly::var(v);
    let c = |k: i64| Poly::constant(Int::from(k));
    let sum = x(0).add(&x(1)).add(&x(2));
    let mut parts: Vec<Formula> = (0..10)
        .map(|k| Formula::Atom(Atom::compare(&sum, Rel::Ge, &c(k))))
        .collect();
    parts.push(Formula::Atom(Atom::compare(&x(2), Rel::Le, &c(100))));
    let mut box_ = vec![Formula::or(parts)];
    for v in 0..2 {
        for k in 0..10 {
            box_.push(Formula::or(vec![
                Formula::Atom(Atom::compare(&x(v), Rel::Ge, &c(k))),
                Formula::Atom(Atom::compare(&x(v), Rel::Lt, &c(k))),
            ]));
        }
    }
    Formula::and(box_)
}

#[test]
fn a_passed_deadline_stops_every_parallel_subtree_at_once() {
    let f = staircase();
    let projection = Projection::new(&f.polynomials(), 3, &[]);
    let formulas = [f];
    // Without a limit: the tree is large enough that running on would show.
    let all = LiftStats::default();
    Lifter::new(&projection.levels, &projection.full, &formulas, &[], &all)
        .lift()
        .expect("lifting without limits");
    let all = all.cells.load(Relaxed);
    assert!(all > 2_000, "the tree has only {all} cells");
    let stats = LiftStats::default();
    let passed = Limits::new(None, Some(0.0));
    std::thread::sleep(std::time::Duration::from_millis(2));
    let err = Lifter::new(&projection.levels, &projection.full, &formulas, &[], &stats)
        .with_limits(passed)
        .lift()
        .expect_err("the deadline has passed");
    assert!(
        matches!(err, CadError::Limit(StopReason::TimeLimit(_))),
        "{err}"
    );
    // Each thread stops at the first cell it makes.
    let made = stats.cells.load(Relaxed);
    let threads = rayon::current_num_threads() as u64;
    assert!(
        made <= threads,
        "{made} cells of {all} made after the deadline with {threads} threads"
    );
}
