//! The seed cases of section 4.1.2 of the thesis (and the worked example of section
//! 2.3.3): every leaf's truth value against exact evaluation at its sample, and the
//! integer points of the true cells against a brute-force scan of a box.

use cad::formula::Formula;
use cad::lift::{Cell, CellKind, Prune};
use cad::{Algebraic, Cad, LiftStats};
use polys::{BigRational, Int, Poly, Rat, Vars};

fn conj(vars: &Vars, constraints: &[&str]) -> Formula {
    Formula::conjunction(vars, constraints).expect("constraints parse")
}

#[path = "common/seed_domains.rs"]
mod seed_domains;
use seed_domains::{Case, CASES};

/// Exact truth of `f` at a sample by an independent route: rational samples through
/// exact rational evaluation; algebraic ones by the cad sign routine (the only exact
/// evaluation we have for them), after checking it on the rational ones.
fn eval_at(f: &Formula, sample: &[Algebraic]) -> bool {
    if let Some(r) = sample
        .iter()
        .map(|a| a.to_rational().map(Rat::to_big))
        .collect::<Option<Vec<BigRational>>>()
    {
        let mut sign = |p: &Poly| {
            let v = p.eval_rational(&r);
            Some(if v > BigRational::from_integer(0.into()) {
                1
            } else if v < BigRational::from_integer(0.into()) {
                -1
            } else {
                0
            })
        };
        return f.eval_partial(&mut sign).expect("full sample");
    }
    let stats = cad::SignStats::new();
    let mut sign = |p: &Poly| Some(cad::sign_at(p, sample, &stats).expect("sign"));
    f.eval_partial(&mut sign).expect("full sample")
}

fn check_case(case: &Case) -> usize {
    let vars = Vars::from_names(case.vars.iter().copied());
    let f = conj(&vars, case.constraints);
    let stats = LiftStats::default();
    let cad = Cad::new(vec![f.clone()], vec![], case.vars.len(), &stats).expect("cad");
    // 1. Truth at the leaves.
    let mut leaves = 0;
    cad.for_each_leaf(|path: &[&Cell]| {
        let leaf = path.last().expect("non-empty path");
        if path.len() == case.vars.len() && leaf.pruned.is_none() {
            leaves += 1;
            let sample: Vec<Algebraic> = path.iter().map(|c| c.sample.clone()).collect();
            assert_eq!(
                leaf.truth,
                vec![eval_at(&f, &sample)],
                "{}: leaf at {:?}",
                case.name,
                sample
            );
        }
        if leaf.pruned == Some(Prune::False) {
            let sample: Vec<Algebraic> = path.iter().map(|c| c.sample.clone()).collect();
            // A cut made on a partial sample: the conjunction fails whatever follows, so
            // it fails at any completion; check the partial decision by extending with 0.
            let mut full = sample.clone();
            full.resize(case.vars.len(), Algebraic::from(0));
            assert!(
                !eval_at(&f, &full),
                "{}: pruned cell satisfiable at {:?}",
                case.name,
                full
            );
        }
    });
    assert!(leaves > 0, "{}: no full leaves", case.name);
    // 2. Integer points against brute force.
    let mut point = vec![Int::from(0); case.vars.len()];
    let mut count = 0usize;
    let locator = cad.locator(&stats);
    scan(case.bx, 0, &mut point, &mut |pt| {
        let expect = f.eval_int(pt);
        let path = locator.locate(pt).expect("locate");
        let leaf = path.last().expect("non-empty path");
        let got = match leaf.pruned {
            Some(Prune::False) => false,
            Some(Prune::NoIntegers) => panic!(
                "{}: integer point {pt:?} in a cell without integers",
                case.name
            ),
            None => {
                assert_eq!(path.len(), case.vars.len(), "{}: {pt:?}", case.name);
                leaf.truth[0]
            }
        };
        assert_eq!(got, expect, "{}: point {pt:?}", case.name);
        count += expect as usize;
    });
    assert!(
        count > 0,
        "{}: the box holds no point of the domain",
        case.name
    );
    eprintln!(
        "{}: {} cells, {} leaves, {} projection factors, {} restarts, {} points",
        case.name,
        cad.cell_count(),
        cad.leaf_count(),
        cad.projection.len(),
        cad.restarts,
        count
    );
    cad.restarts
}

fn scan(bx: &[(i64, i64)], k: usize, point: &mut Vec<Int>, f: &mut impl FnMut(&[Int])) {
    if k == bx.len() {
        f(point);
        return;
    }
    for v in bx[k].0..=bx[k].1 {
        point[k] = Int::from(v);
        scan(bx, k + 1, point, f);
    }
}

#[test]
fn untiled_seed_cases() {
    for case in CASES {
        check_case(case);
    }
}

/// Section 2.3.3: base roots 1, 4, 7, 37/3 and the stack over x = 1.
#[test]
fn worked_example_base_phase() {
    let vars = Vars::from_names(["x", "y"]);
    let f = conj(&vars, CASES[0].constraints);
    let cad = Cad::new(vec![f], vec![], 2, &LiftStats::default()).unwrap();
    let sections: Vec<String> = cad
        .cells
        .iter()
        .filter(|c| c.kind == CellKind::Section)
        .map(|c| c.sample.to_string())
        .collect();
    assert_eq!(sections, ["1", "4", "7", "37/3"]);
}

/// Tiled systems written out as polynomial systems with parametric tile sizes w, h:
/// x = w*t1 + o1, y = h*t2 + o2 (rectangular tiles), tile loops outside point loops.
#[test]
fn tiled_rect_rect() {
    check_case(&seed_domains::RECT_RECT);
}

/// Inputs on which a projection factor's leading coefficient (or all its coefficients)
/// vanishes over a cell of positive dimension: Brown's projection is not valid there, so
/// the polynomial is projected with McCallum's coefficients (from the start, since its
/// leading coefficient is not a constant: no lifting is thrown away) and the
/// decomposition must be right.
#[test]
fn nullification_falls_back() {
    let cases = [
        Case {
            name: "x z + y (leading coefficient vanishes on x = 0)",
            vars: &["x", "y", "z"],
            constraints: &[
                "x*z + y >= 0",
                "-2 <= x",
                "x <= 2",
                "-2 <= y",
                "y <= 2",
                "-3 <= z",
                "z <= 3",
            ],
            bx: &[(-3, 3), (-3, 3), (-4, 4)],
        },
        Case {
            name: "x w + y nullified on the z-axis",
            vars: &["x", "y", "z", "w"],
            constraints: &[
                "x*w + y <= 1",
                "-1 <= x",
                "x <= 1",
                "-1 <= y",
                "y <= 1",
                "0 <= z",
                "z <= 2",
                "-2 <= w",
                "w <= 2",
            ],
            bx: &[(-2, 2), (-2, 2), (-1, 3), (-3, 3)],
        },
        Case {
            name: "(x - y) w + (y - z) nullified on the line x = y = z",
            vars: &["x", "y", "z", "w"],
            constraints: &[
                "(x - y)*w + y - z >= 0",
                "0 <= x",
                "x <= 2",
                "0 <= y",
                "y <= 2",
                "0 <= z",
                "z <= 2",
                "0 <= w",
                "w <= 3",
            ],
            bx: &[(-1, 3), (-1, 3), (-1, 3), (-1, 4)],
        },
        Case {
            name: "(x^2 + y^2 - 1) z + x - y: leading coefficient vanishes on the circle",
            vars: &["x", "y", "z"],
            constraints: &[
                "(x^2 + y^2 - 1)*z + x - y >= 0",
                "-2 <= x",
                "x <= 2",
                "-2 <= y",
                "y <= 2",
                "-2 <= z",
                "z <= 2",
            ],
            bx: &[(-3, 3), (-3, 3), (-3, 3)],
        },
        Case {
            name: "(x - y) z^2 + z + x: leading coefficient vanishes on the diagonal",
            vars: &["x", "y", "z"],
            constraints: &[
                "(x - y)*z^2 + z + x <= 0",
                "-2 <= x",
                "x <= 2",
                "-2 <= y",
                "y <= 2",
                "-3 <= z",
                "z <= 3",
            ],
            bx: &[(-3, 3), (-3, 3), (-4, 4)],
        },
    ];
    for case in &cases {
        let restarts = check_case(case);
        assert_eq!(restarts, 0, "{}: a lifting thrown away", case.name);
    }
}

/// Parallel lifting (rayon) builds exactly the tree of a sequential run.
#[test]
fn parallel_lifting_is_deterministic() {
    for case in CASES {
        let vars = Vars::from_names(case.vars.iter().copied());
        let f = conj(&vars, case.constraints);
        let build = || {
            let cad = Cad::new(
                vec![f.clone()],
                vec![],
                case.vars.len(),
                &LiftStats::default(),
            )
            .unwrap();
            format!("{:?}", cad.cells)
        };
        let sequential = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(build);
        let parallel = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
            .install(build);
        assert_eq!(sequential, parallel, "{}", case.name);
    }
}
