//! Property tests of the polys algebra: gcds, resultants, discriminants, principal
//! subresultant coefficients, factorisations, the 64-bit fast path against plain big
//! integers, printing/parsing and exact division.
//!
//! Polynomials are small (1 to 4 variables, a few terms, low degree) with coefficients
//! mostly in -9..=9 and occasionally next to i64::MAX / i64::MIN, so that the fast path
//! overflows into big integers in the middle of computations.

use polys::{factor, square_free_basis, BigInt, Int, Mono, Poly, Vars};
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

const NAMES: [&str; 4] = ["x", "y", "z", "w"];

/// Small coefficients, sometimes at the edge of i64.
fn coeff() -> BoxedStrategy<i64> {
    prop_oneof![
        12 => -9i64..=9,
        1 => (0i64..3).prop_map(|d| i64::MAX - d),
        1 => (0i64..3).prop_map(|d| i64::MIN + d),
    ]
    .boxed()
}

/// Small coefficients only, as CAD meets them: multivariate gcds of products of
/// polynomials with 63-bit coefficients take minutes with the subresultant PRS (a known
/// limit, noted for a faster gcd), which a test suite cannot afford.
fn small_coeff() -> BoxedStrategy<i64> {
    (-9i64..=9).boxed()
}

/// Coefficients that overflow i64 arithmetic most of the time.
fn wide_coeff() -> BoxedStrategy<i64> {
    prop_oneof![
        2 => -9i64..=9,
        2 => (0i64..3).prop_map(|d| i64::MAX - d),
        2 => (0i64..3).prop_map(|d| i64::MIN + d),
        1 => any::<i64>(),
        1 => (1i64 << 31..1i64 << 33).prop_map(|v| v | 1),
    ]
    .boxed()
}

/// A polynomial in `x_0 .. x_(nvars-1)` with at most `max_terms` terms and degree at most
/// `max_deg` in each variable (may be zero when coefficients cancel).
fn poly(
    nvars: usize,
    max_deg: u32,
    max_terms: usize,
    c: BoxedStrategy<i64>,
) -> BoxedStrategy<Poly> {
    prop::collection::vec(
        (prop::collection::vec(0..=max_deg, nvars), c),
        1..=max_terms,
    )
    .prop_map(|ts| {
        Poly::from_terms(
            ts.into_iter()
                .map(|(e, c)| (Mono::from_exps(&e), Int::from(c)))
                .collect(),
        )
    })
    .boxed()
}

/// A polynomial of positive degree in `var` (a term `x_var` is added when needed).
fn with_var(p: Poly, var: usize) -> Poly {
    if p.degree(var) > 0 {
        p
    } else {
        p.add(&Poly::var(var))
    }
}

/// `(nvars, var, polys...)`: `k` polynomials sharing the variable count.
fn polys(
    k: usize,
    max_deg: u32,
    max_terms: usize,
    c: fn() -> BoxedStrategy<i64>,
) -> impl Strategy<Value = (usize, usize, Vec<Poly>)> {
    (1usize..=4).prop_flat_map(move |n| {
        (
            Just(n),
            0..n,
            prop::collection::vec(poly(n, max_deg, max_terms, c()), k),
        )
    })
}

fn vars() -> Vars {
    Vars::from_names(NAMES)
}

fn divides(d: &Poly, p: &Poly) -> bool {
    if d.is_zero() {
        return p.is_zero();
    }
    p.div_exact(d).is_some()
}

fn big(p: &Poly) -> Poly<BigInt> {
    p.convert::<BigInt>()
}

fn sign_of_disc(m: u32) -> bool {
    (m * (m - 1) / 2) % 2 == 1
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// gcd(d*a, d*b) is divisible by d and divides both products.
    #[test]
    fn gcd_is_greatest_common_divisor((_n, _v, ps) in polys(3, 2, 3, coeff)) {
        let (d, a, b) = (&ps[0], &ps[1], &ps[2]);
        prop_assume!(!d.is_zero());
        let (f, g) = (d.mul(a), d.mul(b));
        let h = f.gcd(&g);
        prop_assert!(divides(&h, &f), "gcd {:?} does not divide {:?}", h, f);
        prop_assert!(divides(&h, &g), "gcd {:?} does not divide {:?}", h, g);
        prop_assert!(divides(d, &h), "common divisor {:?} does not divide gcd {:?}", d, h);
        prop_assert!(h.is_zero() || h.leading_sign() > 0);
        prop_assert_eq!(f.gcd(&g), g.gcd(&f));
    }

    /// gcd of unrelated polynomials divides both.
    #[test]
    fn gcd_divides_both((_n, _v, ps) in polys(2, 2, 4, coeff)) {
        let (f, g) = (&ps[0], &ps[1]);
        let h = f.gcd(g);
        prop_assert!(divides(&h, f) && divides(&h, g), "gcd {:?} of {:?}, {:?}", h, f, g);
    }

    /// res_v(f, g) = 0 exactly when gcd(f, g) has positive degree in v; both directions are
    /// exercised: with a planted common factor h, and with h perturbed by a constant.
    #[test]
    fn resultant_vanishes_iff_common_factor(
        (_n, v, ps) in polys(3, 2, 3, coeff),
        shift in prop_oneof![Just(0i64), 1i64..=3],
    ) {
        let h = with_var(ps[0].clone(), v);
        let a = ps[1].clone();
        let b = with_var(ps[2].clone(), v);
        let f = with_var(h.mul(&a), v);
        let g = h.add(&Poly::from_i64(shift)).mul(&b);
        prop_assume!(f.degree(v) > 0 && g.degree(v) > 0);
        let r = f.resultant(&g, v);
        let common = f.gcd(&g).degree(v) > 0;
        prop_assert_eq!(r.is_zero(), common, "res = {:?}, gcd = {:?}", r, f.gcd(&g));
        if shift == 0 && f == h.mul(&a) {
            prop_assert!(r.is_zero());
        }
    }

    /// disc(f) * lc(f) = (-1)^(n(n-1)/2) res(f, f') = (-1)^(n(n-1)/2) psc_0(f, f').
    #[test]
    fn discriminant_matches_resultant_and_psc((_n, v, ps) in polys(1, 3, 4, coeff)) {
        let f = &ps[0];
        let m = f.degree(v);
        prop_assume!(m >= 2);
        let d = f.discriminant(v);
        let df = f.derivative(v);
        let mut r = f.resultant(&df, v);
        let mut psc0 = f.principal_subresultant_coeffs(&df, v)[0].clone();
        if sign_of_disc(m) {
            r = r.neg();
            psc0 = psc0.neg();
        }
        let lc = f.lc(v);
        prop_assert_eq!(d.mul(&lc), r.clone());
        prop_assert_eq!(psc0, r);
    }

    /// psc_0(f, g) is the resultant, for f, g in either order.
    #[test]
    fn psc0_is_resultant((_n, v, ps) in polys(2, 3, 4, coeff)) {
        let f = with_var(ps[0].clone(), v);
        let g = with_var(ps[1].clone(), v);
        let psc = f.principal_subresultant_coeffs(&g, v);
        prop_assert_eq!(psc.len() as u32, f.degree(v).min(g.degree(v)));
        prop_assert_eq!(&psc[0], &f.resultant(&g, v));
        let psc_swapped = g.principal_subresultant_coeffs(&f, v);
        prop_assert_eq!(&psc_swapped[0], &g.resultant(&f, v));
    }

    /// res(g, f) = (-1)^(deg f * deg g) res(f, g) and res(f * g, h) = res(f, h) * res(g, h).
    #[test]
    fn resultant_swap_sign_and_multiplicativity((_n, v, ps) in polys(3, 2, 3, coeff)) {
        let f = with_var(ps[0].clone(), v);
        let g = with_var(ps[1].clone(), v);
        let h = with_var(ps[2].clone(), v);
        let r = f.resultant(&g, v);
        let odd = f.degree(v) % 2 == 1 && g.degree(v) % 2 == 1;
        prop_assert_eq!(g.resultant(&f, v), if odd { r.neg() } else { r });
        prop_assert_eq!(
            f.mul(&g).resultant(&h, v),
            f.resultant(&h, v).mul(&g.resultant(&h, v))
        );
    }

    /// Univariate factorisation multiplies back, with Z-primitive positive factors.
    #[test]
    fn univariate_factors_multiply_back(
        ps in prop::collection::vec(poly(1, 4, 4, coeff()), 1..=3),
        e in 1u32..=2,
    ) {
        let p = ps.iter().fold(Poly::one(), |acc, q| acc.mul(q)).mul(&ps[0].pow(e - 1));
        prop_assume!(!p.is_zero());
        let fz = factor(&p);
        prop_assert_eq!(fz.expand(), p);
        for (f, _) in &fz.factors {
            prop_assert!(!f.is_constant() && f.leading_sign() > 0);
            prop_assert!(f.integer_content() == Int::from(1));
        }
    }

    /// Every input is an integer times a product of square-free basis elements; the basis is
    /// pairwise coprime.
    #[test]
    fn square_free_basis_covers_inputs((_n, _v, ps) in polys(3, 2, 3, coeff)) {
        let set = [ps[0].mul(&ps[1]), ps[1].mul(&ps[2]), ps[2].clone()];
        let basis = square_free_basis(&set);
        for (i, b) in basis.iter().enumerate() {
            for c in &basis[i + 1..] {
                prop_assert!(b.gcd(c).is_constant());
            }
        }
        for p in set.iter().filter(|p| !p.is_zero()) {
            let mut rest = p.clone();
            for b in &basis {
                while let Some(q) = rest.div_exact(b) {
                    rest = q;
                }
            }
            prop_assert!(rest.is_constant(), "{:?} leaves {:?}", p, rest);
        }
    }

    /// The Int fast path agrees with Poly<BigInt> on ring operations near the 64-bit limit.
    #[test]
    fn fast_path_agrees_with_bigint_arithmetic(
        (_n, _v, ps) in polys(2, 2, 4, wide_coeff),
        e in 0u32..=4,
    ) {
        let (f, g) = (&ps[0], &ps[1]);
        let (fb, gb) = (big(f), big(g));
        prop_assert_eq!(big(&f.add(g)), fb.add(&gb));
        prop_assert_eq!(big(&f.sub(g)), fb.sub(&gb));
        prop_assert_eq!(big(&f.neg()), fb.neg());
        prop_assert_eq!(big(&f.mul(g)), fb.mul(&gb));
        prop_assert_eq!(big(&f.pow(e)), fb.pow(e));
        prop_assert_eq!(f.add(g).sub(g), f.clone());
        if !g.is_zero() {
            prop_assert_eq!(f.mul(g).div_exact(g), Some(f.clone()));
        }
    }

    /// The Int fast path agrees with Poly<BigInt> on resultants, discriminants and gcds.
    #[test]
    fn fast_path_agrees_with_bigint_elimination((_n, v, ps) in polys(2, 2, 3, wide_coeff)) {
        let (f, g) = (&ps[0], &ps[1]);
        let (fb, gb) = (big(f), big(g));
        prop_assert_eq!(big(&f.resultant(g, v)), fb.resultant(&gb, v));
        prop_assert_eq!(big(&f.discriminant(v)), fb.discriminant(v));
        prop_assert_eq!(big(&f.gcd(g)), fb.gcd(&gb));
        prop_assert_eq!(big(&f.prem(g, v)), fb.prem(&gb, v));
        let h = f.mul(g);
        prop_assert_eq!(big(&h.gcd(f)), big(&h).gcd(&fb));
    }

    /// Printing then parsing gives the same polynomial.
    #[test]
    fn parse_inverts_to_text((_n, _v, ps) in polys(1, 4, 6, wide_coeff)) {
        let p = &ps[0];
        let mut v = vars();
        let text = p.to_text(&v);
        let q = Poly::parse(&text, &mut v);
        prop_assert_eq!(q.as_ref().ok(), Some(p), "text {}", text);
    }

    /// div_exact(p*q, q) = p, and a non-multiple is rejected.
    #[test]
    fn div_exact_inverts_mul((_n, _v, ps) in polys(2, 3, 4, coeff)) {
        let (p, q) = (&ps[0], &ps[1]);
        prop_assume!(!q.is_zero());
        prop_assert_eq!(p.mul(q).div_exact(q), Some(p.clone()));
        if !q.is_constant() {
            let r = p.mul(q).add(&Poly::one());
            prop_assert_eq!(r.div_exact(q), None);
        }
    }
}

proptest! {
    // Square-free decompositions of products take gcds of large polynomials: small
    // coefficients and fewer cases keep the file fast.
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Square-free decomposition and factorisation multiply back to the input; the
    /// square-free factors are non-constant, positive, square-free and pairwise coprime.
    #[test]
    fn factors_multiply_back(
        (_n, _v, ps) in polys(3, 2, 3, small_coeff),
        e in 1u32..=3,
    ) {
        let p = ps[0].mul(&ps[1].pow(e)).mul(&ps[2]);
        prop_assume!(!p.is_zero());
        let (unit, fs) = p.square_free();
        let back = fs.iter().fold(Poly::constant(unit), |acc, (f, m)| acc.mul(&f.pow(*m)));
        prop_assert_eq!(&back, &p);
        for (i, (f, _)) in fs.iter().enumerate() {
            prop_assert!(!f.is_constant() && f.leading_sign() > 0, "factor {:?}", f);
            for (g, _) in &fs[i + 1..] {
                prop_assert!(f.gcd(g).is_constant(), "{:?} and {:?} not coprime", f, g);
            }
            for v in f.vars() {
                prop_assert!(f.gcd(&f.derivative(v)).degree(v) == 0, "{:?} not square-free", f);
            }
        }
        let fz = factor(&p);
        prop_assert_eq!(fz.expand(), p);
    }
}

/// `p` with every other variable's degree capped and degree exactly `d` in `v` (a term
/// `x_v^d` is added when the planted leading coefficient cancels).
fn of_degree(p: Poly, v: usize, d: u32) -> Poly {
    let trimmed = Poly::from_terms(
        p.terms()
            .iter()
            .filter(|(m, _)| m.exp(v) <= d)
            .cloned()
            .collect(),
    );
    if trimmed.degree(v) == d {
        trimmed
    } else {
        trimmed.add(&Poly::var(v).pow(d))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The resultant's shortcuts (a linear factor with integer coefficients, two
    /// quadratics) and the quadratic discriminant agree with the determinant definition
    /// (psc_0, by fraction-free elimination), in both argument orders.
    #[test]
    fn resultant_shortcuts_match_determinants(
        (_n, v, ps) in polys(2, 2, 4, coeff),
        a1 in prop_oneof![-3i64..=-1, 1i64..=3],
        a0 in -9i64..=9,
    ) {
        let lin = Poly::var(v).mul(&Poly::from_i64(a1)).add(&Poly::from_i64(a0));
        let g = with_var(ps[0].clone(), v);
        prop_assert_eq!(
            lin.resultant(&g, v),
            lin.principal_subresultant_coeffs(&g, v)[0].clone()
        );
        prop_assert_eq!(
            g.resultant(&lin, v),
            g.principal_subresultant_coeffs(&lin, v)[0].clone()
        );
        let (f, h) = (of_degree(ps[0].clone(), v, 2), of_degree(ps[1].clone(), v, 2));
        prop_assert_eq!(f.resultant(&h, v), f.principal_subresultant_coeffs(&h, v)[0].clone());
        // disc(f) * lc(f) = -psc_0(f, f') for deg f = 2.
        let df = f.derivative(v);
        prop_assert_eq!(
            f.discriminant(v).mul(&f.lc(v)),
            f.principal_subresultant_coeffs(&df, v)[0].neg()
        );
    }

    /// Square-free bases of sets with planted common and repeated factors, in one and in
    /// several variables: every input is an integer times a product of basis elements, and
    /// the elements are pairwise coprime by the determinant test (a resultant in a shared
    /// variable vanishes exactly for a common factor of positive degree in it).
    #[test]
    fn square_free_basis_splits_planted_factors((_n, v, ps) in polys(3, 2, 3, small_coeff)) {
        let h = with_var(ps[0].clone(), v);
        let inputs = [
            h.mul(&ps[1]),
            h.pow(2).mul(&ps[2]),
            ps[1].mul(&ps[2]),
        ];
        prop_assume!(inputs.iter().all(|p| !p.is_zero()));
        let basis = square_free_basis(&inputs);
        for p in &inputs {
            let mut rest = p.clone();
            for b in &basis {
                while let Some(q) = rest.div_exact(b) {
                    rest = q;
                }
            }
            prop_assert!(rest.is_constant(), "{:?} left {:?}", p, rest);
        }
        for (i, a) in basis.iter().enumerate() {
            for b in &basis[i + 1..] {
                for x in a.vars() {
                    if b.degree(x) > 0 {
                        prop_assert!(
                            !a.resultant(b, x).is_zero(),
                            "{:?} and {:?} share a factor in x{}", a, b, x
                        );
                    }
                }
            }
        }
    }
}
