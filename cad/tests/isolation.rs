//! Root isolation against Sturm sequences: hard families (Wilkinson, close roots,
//! Mignotte) and random polynomials.

mod common;

use cad::{count_roots, isolate_roots, refine_root, RootInterval, UPoly};
use common::{sturm_count, sturm_count_in};
use polys::{Int, Rat};
use proptest::prelude::*;

/// Every reported root is a root, intervals are sorted, disjoint, isolate exactly one
/// root each (checked by Sturm), do not end at roots, and the total matches Sturm.
fn check(p: &UPoly) -> Vec<RootInterval> {
    let roots = isolate_roots(p).unwrap();
    let s = p.square_free_part();
    assert_eq!(roots.len(), sturm_count(&s), "root count of {p:?}");
    for w in roots.windows(2) {
        assert!(w[0].hi() <= w[1].lo(), "unsorted or overlapping: {w:?}");
        if let (RootInterval::Open { hi, .. }, RootInterval::Open { lo, .. }) = (&w[0], &w[1]) {
            assert!(hi <= lo);
        }
    }
    for r in &roots {
        match r {
            RootInterval::Exact(x) => assert_eq!(p.sign_at(x), 0, "{x} is no root of {p:?}"),
            RootInterval::Open { lo, hi } => {
                assert!(lo < hi);
                assert_ne!(p.sign_at(lo), 0, "interval ends at a root");
                assert_ne!(p.sign_at(hi), 0, "interval ends at a root");
                assert_eq!(sturm_count_in(&s, lo, hi), 1, "({lo}, {hi}) of {p:?}");
                assert_eq!(count_roots(p, lo, hi).unwrap(), 1);
            }
        }
    }
    roots
}

fn from_roots(roots: &[(i64, i64)]) -> UPoly {
    roots.iter().fold(UPoly::from_i64s(&[1]), |acc, &(a, b)| {
        acc.mul(&UPoly::from_i64s(&[-a, b]))
    })
}

#[test]
fn wilkinson_20() {
    let rs: Vec<(i64, i64)> = (1..=20).map(|i| (i, 1)).collect();
    let roots = check(&from_roots(&rs));
    assert_eq!(roots.len(), 20);
    assert!(roots.iter().all(|r| matches!(r, RootInterval::Exact(_))));
}

#[test]
fn wilkinson_like_with_fractions_and_signs() {
    let rs = [
        (-7, 1),
        (-5, 2),
        (-1, 3),
        (0, 1),
        (1, 7),
        (2, 7),
        (3, 7),
        (9, 4),
        (37, 3),
    ];
    let p = from_roots(&rs);
    let roots = check(&p);
    assert_eq!(roots.len(), rs.len());
    // Each root lies in its interval, in order.
    let mut want: Vec<Rat> = rs.iter().map(|&(a, b)| Rat::ratio(a, b)).collect();
    want.sort();
    for (r, x) in roots.iter().zip(&want) {
        assert!(r.lo() <= x && x <= r.hi(), "{x} not in {r:?}");
    }
}

#[test]
fn close_roots_sqrt2() {
    // (x^2 - 2)(10^4 x^2 - 20001) and (x^2 - 2)(10^8 x^2 - 200000001)
    for (a, b) in [(10_000i64, 20_001i64), (100_000_000, 200_000_001)] {
        let p = UPoly::from_i64s(&[-2, 0, 1]).mul(&UPoly::from_i64s(&[-b, 0, a]));
        let roots = check(&p);
        assert_eq!(roots.len(), 4);
    }
    // A double root next to a simple one: (x - 1)^2 (x - 1 - 2^-30)
    let p = from_roots(&[(1, 1), (1, 1)]).mul(&UPoly::from_i64s(&[-(1 << 30) - 1, 1 << 30]));
    assert_eq!(check(&p).len(), 2);
}

#[test]
fn mignotte() {
    // x^n - 2 (a x - 1)^2 has two roots within about a^-(n/2 + 1) of 1/a.
    for n in [5u32, 8, 12, 16] {
        for a in [10i64, 100, 1000] {
            let lin = UPoly::from_i64s(&[-1, a]);
            let sq = lin.mul(&lin).scale_coeffs(&2.into());
            let mut c = vec![0i64; n as usize + 1];
            c[n as usize] = 1;
            let p = UPoly::from_i64s(&c).sub(&sq);
            let roots = check(&p);
            assert!(roots.len() >= 2, "n = {n}, a = {a}");
            let near: Vec<_> = roots
                .iter()
                .filter(|r| {
                    let x = Rat::ratio(1, a);
                    let w = Rat::ratio(1, a * 10);
                    r.lo() > &(&x - &w) && r.hi() < &(&x + &w)
                })
                .collect();
            assert_eq!(near.len(), 2, "n = {n}, a = {a}: {roots:?}");
        }
    }
}

#[test]
fn exact_rational_roots() {
    // Dyadic roots are hit by the bisection; non-dyadic linear factors are exact too.
    let p = from_roots(&[(1, 2), (3, 4), (-5, 8), (3, 1)]);
    let roots = check(&p);
    assert!(
        roots.iter().all(|r| matches!(r, RootInterval::Exact(_))),
        "{roots:?}"
    );
    let roots = check(&UPoly::from_i64s(&[-37, 3]));
    assert_eq!(roots, vec![RootInterval::Exact(Rat::ratio(37, 3))]);
    // Non-dyadic rational roots inside a product are recognised too (rational root
    // theorem: multiples of 1/lc), e.g. the base roots 1, 4, 7, 37/3 of the seed example.
    let p = from_roots(&[(1, 1), (7, 1), (4, 1), (37, 3)]);
    let want: Vec<_> = [(1, 1), (4, 1), (7, 1), (37, 3)]
        .iter()
        .map(|&(a, b)| RootInterval::Exact(Rat::ratio(a, b)))
        .collect();
    assert_eq!(check(&p), want);
    // ... while irrational neighbours stay intervals: (3x - 1)(x^2 - 2)(5x + 7).
    let p = from_roots(&[(1, 3), (-7, 5)]).mul(&UPoly::from_i64s(&[-2, 0, 1]));
    let roots = check(&p);
    let exact = roots
        .iter()
        .filter(|r| matches!(r, RootInterval::Exact(_)))
        .count();
    assert_eq!(exact, 2, "{roots:?}");
}

#[test]
fn refinement_to_any_width() {
    let p = UPoly::from_i64s(&[-3, 0, 0, 1]); // cbrt 3
    let roots = isolate_roots(&p).unwrap();
    let w = Rat::dyadic(Int::from(1), 200);
    let r = refine_root(&p, &roots[0], &w);
    assert!(r.hi() - r.lo() < w);
    assert_eq!(sturm_count_in(&p, r.lo(), r.hi()), 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_polynomials_match_sturm(c in prop::collection::vec(-20i64..=20, 1..9)) {
        let p = UPoly::from_i64s(&c);
        prop_assume!(!p.is_zero());
        check(&p);
    }

    #[test]
    fn random_products_with_repeated_roots(
        rs in prop::collection::vec((-12i64..=12, 1i64..=4), 1..7),
        extra in prop::collection::vec(-5i64..=5, 0..4),
    ) {
        let mut p = from_roots(&rs);
        let e = UPoly::from_i64s(&extra);
        if !e.is_zero() {
            p = p.mul(&e);
        }
        let roots = check(&p);
        for &(a, b) in &rs {
            let x = Rat::ratio(a, b);
            prop_assert!(roots.iter().any(|r| r.lo() <= &x && &x <= r.hi()));
        }
    }

    #[test]
    fn counting_matches_sturm(
        c in prop::collection::vec(-9i64..=9, 2..8),
        lo in -40i64..40, len in 1i64..40, den in 1i64..8,
    ) {
        let p = UPoly::from_i64s(&c);
        prop_assume!(p.degree() >= 1);
        let (lo, hi) = (Rat::ratio(lo, den), Rat::ratio(lo + len, den));
        let s = p.square_free_part();
        // Sturm counts (lo, hi]; drop a root at hi for the open interval.
        let at_hi = usize::from(s.sign_at(&hi) == 0);
        prop_assert_eq!(count_roots(&p, &lo, &hi).unwrap(), sturm_count_in(&s, &lo, &hi) - at_hi);
    }
}
