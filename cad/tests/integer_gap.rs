//! Sectors cut for holding no integer point over cells of positive dimension (bounds
//! `x = g1(x')` and `x = g2(x')` with `g2 - g1` a constant at most 1): random bands of
//! unit-coefficient linear constraints whose offsets differ by 0, 1 or 2, with a
//! polynomial constraint beside them, checked at every integer point of a box: the point's
//! cell is never one cut for holding no integers, and its truth is the formula's.

use cad::formula::{Atom, Formula, Rel};
use cad::lift::Prune;
use cad::{Cad, LiftStats};
use polys::{Int, Poly};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn atom(p: Poly, rel: Rel) -> Formula {
    Formula::Atom(Atom::compare(&p, rel, &Poly::zero()))
}

fn c(v: i64) -> Poly {
    Poly::constant(Int::from(v))
}

/// `x_k - (x_j + a) ~ 0` pairs with offsets a, a + d (d in 0..=2), strict or not, and a
/// parabola, over three variables (the first a parameter without box).
fn formula(seed: u64) -> Formula {
    let mut rng = Rng(seed);
    let mut parts = Vec::new();
    for k in 1..3usize {
        parts.push(atom(Poly::var(k).add(&c(5)), Rel::Ge));
        parts.push(atom(Poly::var(k).sub(&c(5)), Rel::Le));
        for _ in 0..rng.range(1, 2) {
            let j = rng.range(0, k as i64 - 1) as usize;
            let a = rng.range(-2, 2);
            let d = rng.range(0, 2);
            let sign = if rng.range(0, 1) == 0 { 1 } else { -1 };
            // x_k - sign*x_j - a and the same shifted by d: a band of width d.
            let base = Poly::var(k).sub(&Poly::var(j).scale(&Int::from(sign)));
            let lo_rel = [Rel::Ge, Rel::Gt][rng.range(0, 1) as usize];
            let hi_rel = [Rel::Le, Rel::Lt][rng.range(0, 1) as usize];
            parts.push(atom(base.sub(&c(a)), lo_rel).tighten_strict());
            parts.push(atom(base.sub(&c(a + d)), hi_rel).tighten_strict());
        }
    }
    let q = Poly::var(2)
        .mul(&Poly::var(2))
        .sub(&Poly::var(1).scale(&Int::from(rng.range(1, 3))))
        .sub(&Poly::var(0));
    parts.push(atom(q.sub(&c(rng.range(-4, 4))), Rel::Le));
    Formula::and(parts)
}

#[test]
fn integer_points_never_fall_in_cells_cut_for_holding_none() {
    let mut holds = 0;
    let mut gaps = 0u64;
    for seed in 0..80 {
        let f = formula(seed);
        let stats = LiftStats::default();
        let cad = Cad::new(vec![f.clone()], vec![], 3, &stats).expect("decomposition");
        cad.for_each_leaf(|path| {
            let leaf = path.last().expect("a path has a cell");
            let over_point = path[..path.len() - 1]
                .iter()
                .all(|c| c.kind == cad::lift::CellKind::Section);
            if leaf.pruned == Some(Prune::NoIntegers) && !over_point {
                gaps += 1;
            }
        });
        let locator = cad.locator(&stats);
        for a in -6..=6i64 {
            for x in -6..=6i64 {
                for y in -6..=6i64 {
                    let pt = [Int::from(a), Int::from(x), Int::from(y)];
                    let expect = f.eval_int(&pt);
                    let path = locator.locate(&pt).expect("locate");
                    let leaf = path.last().expect("a path has a cell");
                    let got = match leaf.pruned {
                        Some(Prune::NoIntegers) => {
                            panic!("seed {seed}: integer point {pt:?} in a cell cut for holding no integers")
                        }
                        Some(Prune::False) => false,
                        None => leaf.truth[0],
                    };
                    assert_eq!(got, expect, "seed {seed}: {pt:?}");
                    holds += expect as u64;
                }
            }
        }
    }
    eprintln!("{gaps} sectors over cells of positive dimension cut for holding no integers; {holds} points hold");
    assert!(holds > 0);
    assert!(
        gaps > 0,
        "no band of width 1 was cut: the test tests nothing"
    );
}
