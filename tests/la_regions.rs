//! Open sizes: the size space split by the cad crate into regions with their cheapest
//! sequence, checked point by point against the candidates' cost polynomials.

use polys::BigRational;
use polyscan_la::{parse::parse, regions::split, search::SearchOptions};

fn cost_at(c: &polyscan_la::regions::Candidate, sizes: &[i64]) -> BigRational {
    let pt: Vec<BigRational> = sizes
        .iter()
        .map(|&v| BigRational::from_integer(v.into()))
        .collect();
    c.cost.times3.eval_rational(&pt)
}

#[test]
fn chain_parenthesisation_depends_on_the_sizes() {
    let src = "n = ?\nm = ?\nMatrix A(n, m) <>\nMatrix B(m, n) <>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = A * B * C\n";
    let p = parse(src).unwrap();
    let r = split(&p, SearchOptions::default()).unwrap();
    assert!(
        r.candidates.len() >= 2,
        "both parenthesisations: {:?}",
        r.candidates
    );
    assert!(r.regions.iter().any(|g| g.description.contains("m > n")));
    for n in 1..25i64 {
        for m in 1..25i64 {
            let w = r
                .winner_at(&[n, m])
                .expect("every positive size is in a region");
            let best = cost_at(&r.candidates[w], &[n, m]);
            for (j, c) in r.candidates.iter().enumerate() {
                let other = cost_at(c, &[n, m]);
                assert!(
                    best <= other,
                    "n={n} m={m}: candidate {w} is not the cheapest"
                );
                if j < w {
                    assert!(best < other, "ties go to the earlier candidate");
                }
            }
        }
    }
}

#[test]
fn bounded_open_size_in_one_dimension() {
    let src = "n = ? [1, 5000]\nm = 300\nMatrix A(n, m) <>\nMatrix B(m, n) <>\nColumnVector x(n) <>\nColumnVector y(n) <>\ny = A * B * x\n";
    let p = parse(src).unwrap();
    let r = split(&p, SearchOptions::default()).unwrap();
    for n in [1i64, 2, 10, 299, 300, 301, 1000, 5000] {
        let w = r.winner_at(&[n]).expect("inside the bounds");
        let best = cost_at(&r.candidates[w], &[n]);
        assert!(r.candidates.iter().all(|c| best <= cost_at(c, &[n])));
    }
    assert_eq!(r.winner_at(&[6000]), None, "outside the declared bounds");
}
