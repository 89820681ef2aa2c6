//! The multivariate gcd (Brown's modular method behind `Poly::gcd`) against the primitive
//! subresultant PRS (`Poly::gcd_prs`, the algorithm it replaced), on random polynomials in
//! two to four variables with common factors by construction and coefficients beyond 64
//! bits; square-free bases through it; the deadline stopping a gcd cleanly.

use polys::{square_free_basis, square_free_basis_until, BigInt, Coeff, Int, Mono, Poly};
use proptest::prelude::*;

/// A coefficient: a small value, or one times a power of a 60-bit number (up to ~180 bits).
fn coeff() -> impl Strategy<Value = Int> {
    (-9i64..10, 0u32..4).prop_map(|(v, e)| {
        let big = BigInt::from(1_152_921_504_606_846_883i64).pow(e);
        Int::from(BigInt::from(v) * big)
    })
}

/// A polynomial in `nvars` variables with up to `terms` terms of degree below `deg` in
/// each variable.
fn poly(nvars: usize, terms: usize, deg: u32) -> impl Strategy<Value = Poly> {
    prop::collection::vec((prop::collection::vec(0..deg, nvars), coeff()), 1..=terms).prop_map(
        |ts| {
            ts.into_iter()
                .filter(|(_, c)| !c.is_zero())
                .map(|(e, c)| Poly::monomial(c, Mono::from_exps(&e)))
                .fold(Poly::zero(), |acc, t| acc.add(&t))
        },
    )
}

/// `(a g, b g, g)` in 2-4 variables.
fn with_common_factor() -> impl Strategy<Value = (Poly, Poly, Poly)> {
    (2usize..=4).prop_flat_map(|n| {
        let max_terms = if n == 4 { 4 } else { 6 };
        (poly(n, max_terms, 4), poly(n, max_terms, 4), poly(n, 4, 3))
            .prop_map(|(a, b, g)| (a.mul(&g), b.mul(&g), g))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn modular_gcd_matches_the_prs((a, b, g) in with_common_factor()) {
        let fast = a.gcd(&b);
        prop_assert_eq!(&fast, &a.gcd_prs(&b));
        // g divides the gcd by construction, so gcd(a g, b g) = g up to the gcd of the
        // cofactors: the gcd is a multiple of g.
        if !g.is_zero() && !fast.is_zero() {
            prop_assert!(fast.div_exact(&g).is_some(), "{:?} does not divide {:?}", g, fast);
        }
        // Both divide the inputs.
        if !fast.is_zero() {
            prop_assert!(a.div_exact(&fast).is_some() && b.div_exact(&fast).is_some());
        }
    }

    #[test]
    fn gcd_of_cofactor_multiples_is_the_factor(
        (a, b, g) in (2usize..=3).prop_flat_map(|n| (poly(n, 4, 3), poly(n, 4, 3), poly(n, 4, 3))),
        shift in 1i64..5,
    ) {
        // a + shift and b + shift * x0 - 1 are almost always coprime, so the gcd is g itself
        // (positive leading coefficient); the PRS checks the rare exceptions.
        let x0 = Poly::var(0);
        let a1 = a.add(&Poly::from_i64(shift));
        let b1 = b.add(&x0.scale(&Int::from(shift))).sub(&Poly::one());
        let (ag, bg) = (a1.mul(&g), b1.mul(&g));
        let fast = ag.gcd(&bg);
        prop_assert_eq!(&fast, &ag.gcd_prs(&bg));
        if !g.is_constant() && a1.gcd_prs(&b1).is_one() {
            // gcd(a1 g, b1 g) = gcd(a1, b1) g = g up to sign.
            prop_assert_eq!(fast, g.normalize_sign());
        }
    }

    #[test]
    fn square_free_bases_through_modular_gcds(
        (a, b, g) in with_common_factor(),
    ) {
        // g^2 a and g b: the basis elements multiply back (up to integers and powers)
        // and are pairwise coprime by the PRS.
        let set = [g.mul(&g).mul(&a), g.mul(&b)];
        let basis = square_free_basis(&set);
        for i in 0..basis.len() {
            for j in i + 1..basis.len() {
                prop_assert!(basis[i].gcd_prs(&basis[j]).is_constant());
            }
            let (_, sq) = basis[i].square_free();
            prop_assert_eq!(sq.len(), 1);
        }
        for p in &set {
            // Divide out every basis element as often as it divides: an integer remains.
            if p.is_zero() {
                continue;
            }
            let mut rest = p.clone();
            for f in &basis {
                while let Some(q) = rest.div_exact(f) {
                    rest = q;
                }
            }
            prop_assert!(rest.is_constant(), "{:?} left of {:?}", rest, p);
        }
    }
}

#[test]
fn a_stop_interrupts_gcds_and_bases() {
    let mut v = polys::Vars::from_names(["x", "y", "z"]);
    let mut p = |s: &str| Poly::parse(s, &mut v).unwrap();
    let g = p("x*y^3 - 3*z*y + x^2*z - 7");
    let a = g.mul(&p("y^3 + x*z + 2"));
    let b = g.mul(&p("5*x*y - z^2 + 1"));
    assert_eq!(a.gcd_until(&b, &|| true), None);
    assert_eq!(a.gcd_until(&b, &|| false), Some(g.normalize_sign()));
    assert_eq!(square_free_basis_until(&[a.mul(&b)], &|| true), None);
}
