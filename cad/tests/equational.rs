//! Equational constraints in the projection: random formulas whose clauses have an
//! equation in the last variable, decomposed with the restricted projection, checked
//! against exact evaluation of the formula at every point of a grid of integers and
//! half-integers (the point's cell must carry the formula's truth there), and at every
//! leaf's sample; the restricted projection must never have more factors than the full one.

use cad::formula::{Atom, Formula, Rel};
use cad::lift::Prune;
use cad::project::Projection;
use cad::{Algebraic, Cad, LiftStats};
use polys::{BigRational, Int, Poly, Vars};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A sum of two or three monomials of degree 1 or 2 over `vars`, and a constant.
fn random_poly(rng: &mut Rng, vars: &[usize], nvars: usize) -> Poly {
    let mut p = Poly::constant(Int::from(rng.range(-4, 4)));
    for _ in 0..rng.range(2, 3) {
        let mut t = Poly::constant(Int::from(
            *[-3, -2, -1, 1, 2, 3]
                .get(rng.range(0, 5) as usize)
                .unwrap_or(&1),
        ));
        for _ in 0..rng.range(1, 2) {
            t = t.mul(&Poly::var(
                vars[rng.range(0, vars.len() as i64 - 1) as usize],
            ));
        }
        p = p.add(&t);
    }
    // Mention the last variable's count so that `vars` beyond it cannot occur.
    debug_assert!(p.main_var().is_none_or(|v| v < nvars));
    p
}

fn atom(poly: Poly, rel: Rel) -> Formula {
    Formula::Atom(Atom::compare(&poly, rel, &Poly::zero()))
}

/// An equation `c*top^d + q(lower) = 0` (d = 1 or 2): positive degree in the last
/// variable, content 1 in it after the content of the integers is divided out.
fn random_equation(rng: &mut Rng, nvars: usize) -> Poly {
    let top = nvars - 1;
    let lower: Vec<usize> = (0..top).collect();
    let d = if rng.range(0, 3) == 0 { 2 } else { 1 };
    let c = *[-2, -1, 1, 2].get(rng.range(0, 3) as usize).unwrap_or(&1);
    let mut lead = Poly::constant(Int::from(c));
    for _ in 0..d {
        lead = lead.mul(&Poly::var(top));
    }
    let q = if lower.is_empty() {
        Poly::constant(Int::from(rng.range(-3, 3)))
    } else {
        random_poly(rng, &lower, nvars)
    };
    lead.add(&q)
}

/// One or two clauses with an equation and one to three other atoms (any relation), and
/// sometimes a clause without equation; a box on every variable in front.
fn random_formula(seed: u64, nvars: usize) -> Formula {
    let mut rng = Rng(seed);
    let all: Vec<usize> = (0..nvars).collect();
    let rels = [Rel::Le, Rel::Lt, Rel::Ge, Rel::Gt, Rel::Ne, Rel::Eq];
    let mut clauses = Vec::new();
    for _ in 0..rng.range(1, 2) {
        let mut parts = vec![atom(random_equation(&mut rng, nvars), Rel::Eq)];
        for _ in 0..rng.range(1, 3) {
            let rel = rels[rng.range(0, 5) as usize];
            parts.push(atom(random_poly(&mut rng, &all, nvars), rel));
        }
        clauses.push(Formula::and(parts));
    }
    if rng.range(0, 3) == 0 {
        let rel = rels[rng.range(0, 3) as usize];
        clauses.push(atom(random_poly(&mut rng, &all, nvars), rel));
    }
    let mut parts = Vec::new();
    for v in 0..nvars {
        // -4 <= x_v <= 4
        parts.push(atom(
            Poly::var(v).add(&Poly::constant(Int::from(4))),
            Rel::Ge,
        ));
        parts.push(atom(
            Poly::var(v).sub(&Poly::constant(Int::from(4))),
            Rel::Le,
        ));
    }
    parts.push(Formula::or(clauses));
    Formula::and(parts)
}

/// The formula's truth at a rational point, exactly.
fn truth_at(f: &Formula, point: &[BigRational]) -> bool {
    let zero = BigRational::from_integer(0.into());
    let mut sign = |p: &Poly| {
        let v = p.eval_rational(point);
        Some(if v > zero {
            1
        } else if v < zero {
            -1
        } else {
            0
        })
    };
    f.eval_partial(&mut sign)
        .expect("every variable has a value")
}

/// Every point of the grid `{-9/2, -4, ..., 9/2}^n`, by index.
fn grid(n: usize, k: usize, point: &mut Vec<BigRational>, out: &mut impl FnMut(&[BigRational])) {
    if k == n {
        out(point);
        return;
    }
    for twice in -9..=9i64 {
        point[k] = BigRational::new(twice.into(), 2.into());
        grid(n, k + 1, point, out);
    }
}

fn check(seed: u64, nvars: usize) -> (usize, usize, u64) {
    let f = random_formula(seed, nvars);
    let names: Vec<String> = (0..nvars).map(|v| format!("x{v}")).collect();
    let vars = Vars::from_names(names.iter().map(String::as_str));
    let text = f.to_text(&vars);
    let stats = LiftStats::default();
    let cad = Cad::new(vec![f.clone()], vec![], nvars, &stats).expect("decomposition");
    let full = Projection::new(&f.polynomials(), nvars, &[]);
    assert!(
        cad.projection.len() <= full.len(),
        "seed {seed}: {} restricted factors, {} without: {text}",
        cad.projection.len(),
        full.len()
    );
    let locator = cad.locator(&stats);
    let mut point = vec![BigRational::from_integer(0.into()); nvars];
    let mut holds = 0u64;
    grid(nvars, 0, &mut point, &mut |pt| {
        let expect = truth_at(&f, pt);
        let alg: Vec<Algebraic> = pt
            .iter()
            .map(|r| Algebraic::Rational(polys::Rat::from_big(r)))
            .collect();
        let path = locator.locate_point(&alg).expect("locate");
        let leaf = path.last().expect("a path has a cell");
        let got = match leaf.pruned {
            Some(Prune::False) => Some(false),
            // A cell cut for holding no integer point says nothing about the others.
            Some(Prune::NoIntegers) => {
                assert!(
                    pt.iter().any(|r| !r.is_integer()),
                    "seed {seed}: integer point {pt:?} in a cell without integers: {text}"
                );
                None
            }
            None => {
                assert_eq!(path.len(), nvars, "seed {seed}: {pt:?}: {text}");
                Some(leaf.truth[0])
            }
        };
        if let Some(got) = got {
            assert_eq!(got, expect, "seed {seed}: point {pt:?}: {text}");
        }
        holds += expect as u64;
    });
    (cad.projection.len(), full.len(), holds)
}

#[test]
fn restricted_projections_are_truth_invariant_in_two_variables() {
    let (mut cut, mut all, mut points) = (0, 0, 0);
    for seed in 0..60 {
        let (c, a, h) = check(seed, 2);
        cut += c;
        all += a;
        points += h;
    }
    eprintln!("2 variables: {cut} projection factors restricted, {all} without; {points} grid points hold");
    assert!(points > 0, "no formula holds anywhere on the grid");
    assert!(cut < all, "the equations saved nothing");
}

#[test]
fn restricted_projections_are_truth_invariant_in_three_variables() {
    let (mut cut, mut all, mut points) = (0, 0, 0);
    for seed in 1000..1025 {
        let (c, a, h) = check(seed, 3);
        cut += c;
        all += a;
        points += h;
    }
    eprintln!("3 variables: {cut} projection factors restricted, {all} without; {points} grid points hold");
    assert!(points > 0, "no formula holds anywhere on the grid");
    assert!(cut < all, "the equations saved nothing");
}
