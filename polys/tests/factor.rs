//! Factorisation over Z: known irreducibles, cyclotomic splittings, large coefficients,
//! Wilkinson-like products, and random products multiplied back.

use polys::{factor, factor_univariate, Coeff, Int, Poly, Vars};
use proptest::prelude::*;

fn parse(s: &str) -> Poly {
    let mut v = Vars::from_names(["x", "y"]);
    Poly::parse(s, &mut v).expect("test polynomial parses")
}

fn text(p: &Poly) -> String {
    p.to_text(&Vars::from_names(["x", "y"]))
}

/// Checks the factorisation of `f` multiplies back and returns the factors as text, with
/// multiplicities.
fn factor_texts(f: &Poly) -> Vec<(String, u32)> {
    let fs = factor(f);
    assert_eq!(fs.expand(), *f, "factors of {} multiply back", text(f));
    fs.factors.iter().map(|(g, m)| (text(g), *m)).collect()
}

fn assert_irreducible(s: &str) {
    let f = parse(s);
    assert_eq!(
        factor_univariate(&f, 0),
        vec![f.clone()],
        "{s} is irreducible"
    );
}

#[test]
fn known_irreducibles() {
    // Factors modulo every prime, into 2 or 4 factors: only recombination shows it is
    // irreducible.
    assert_irreducible("x^4 - 10x^2 + 1");
    assert_irreducible("x^4 + 1");
    assert_irreducible("x^2 + 1");
    assert_irreducible("x^8 - 40x^6 + 352x^4 - 960x^2 + 576");
    assert_irreducible("x^5 - x - 1");
    assert_irreducible("x^3 + 3x + 2");
    assert_irreducible(
        "x^12 + x^11 + x^10 + x^9 + x^8 + x^7 + x^6 + x^5 + x^4 + x^3 + x^2 + x + 1",
    );
}

/// The Swinnerton-Dyer polynomial of the first `k` primes: the minimal polynomial of
/// sqrt(2) + sqrt(3) + ..., irreducible of degree 2^k, yet a product of factors of degree
/// at most 2 modulo every prime. Built as iterated resultants Res_y(S(x - y), y^2 - p).
fn swinnerton_dyer(k: usize) -> Poly {
    let (x, y) = (0, 1);
    let mut s = parse("x");
    for p in [2, 3, 5, 7, 11].into_iter().take(k) {
        let shifted = s.subst(x, &parse("x - y"));
        s = shifted.resultant(&parse(&format!("y^2 - {p}")), y);
    }
    s.normalize_sign()
}

#[test]
fn swinnerton_dyer_polynomials_are_irreducible() {
    assert_eq!(text(&swinnerton_dyer(2)), "x^4 - 10*x^2 + 1");
    for k in 1..=4 {
        let f = swinnerton_dyer(k);
        assert_eq!(f.degree(0), 1 << k);
        assert_eq!(factor_univariate(&f, 0), vec![f.clone()], "S_{k}");
    }
    // Products of them factor into them.
    let (a, b) = (swinnerton_dyer(2), swinnerton_dyer(3));
    let mut fs = factor_univariate(&a.mul(&b), 0);
    fs.sort_by_key(|g| g.degree(0));
    assert_eq!(fs, vec![a, b]);
}

#[test]
fn contract_edges_do_not_panic() {
    // Repeated factors, content, negative leading coefficient, other variables.
    let f = parse("-4*(x - 1)^2*(x^2 + 1)");
    assert_eq!(factor_univariate(&f, 0).len(), 3);
    assert_eq!(factor_univariate(&parse("x^3"), 0), vec![parse("x"); 3]);
    assert!(factor_univariate(&parse("7"), 0).is_empty());
    assert!(factor_univariate(&Poly::zero(), 0).is_empty());
    let g = parse("x*y + 1");
    assert_eq!(factor_univariate(&g, 0), vec![g.clone()]);
    assert_eq!(factor_univariate(&parse("y^2 - 4"), 1).len(), 2);
}

#[test]
fn small_factorisations() {
    assert_eq!(
        factor_texts(&parse("x^4 - 1")),
        [("x - 1", 1), ("x + 1", 1), ("x^2 + 1", 1)].map(|(s, m)| (s.to_string(), m))
    );
    assert_eq!(
        factor_texts(&parse("-6x^3 + 6x")),
        [("x", 1), ("x - 1", 1), ("x + 1", 1)].map(|(s, m)| (s.to_string(), m))
    );
    assert_eq!(factor(&parse("-6x^3 + 6x")).unit, Int::from(-6));
    // Leading coefficients shared between the factors.
    assert_eq!(
        factor_texts(&parse("(6x^2 + 5x + 1)*(4x^2 - 9)")),
        [
            ("2*x - 3", 1),
            ("2*x + 1", 1),
            ("2*x + 3", 1),
            ("3*x + 1", 1)
        ]
        .map(|(s, m)| (s.to_string(), m))
    );
    assert_eq!(
        factor_texts(&parse("(x^2 - 2)^3*(x^2 + x + 1)^2*x^4")),
        [("x", 4), ("x^2 - 2", 3), ("x^2 + x + 1", 2)].map(|(s, m)| (s.to_string(), m))
    );
    // Products of the recombination's stress polynomial with its conjugates.
    let f = parse("(x^4 - 10x^2 + 1)*(x^4 - 16x^2 + 4)");
    assert_eq!(factor(&f).factors.len(), 2);
    // Univariate square-free factors, in either variable, are factored; multivariate ones
    // are kept whole (here (y^2 - 1)(x*y + 1), square-free but reducible).
    let g = parse("(y^2 - 1)*(x^2 - 1)*(x*y + 1)");
    let fs = factor(&g);
    assert_eq!(fs.expand(), g);
    assert_eq!(fs.factors.len(), 3);
    let g = parse("(y^2 - 1)^2*(x + 1)");
    assert_eq!(factor(&g).factors.len(), 3);
    // The integer content goes to the unit, not into a factor.
    let h = parse("3x^3 + 9x + 6");
    assert_eq!(factor_texts(&h), [("x^3 + 3*x + 2".to_string(), 1)]);
    assert_eq!(factor(&h).unit, Int::from(3));
    // Constants and zero.
    assert!(factor(&parse("-12")).factors.is_empty());
    assert!(factor(&Poly::zero()).factors.is_empty());
}

fn divisor_count(n: u32) -> usize {
    (1..=n).filter(|d| n.is_multiple_of(*d)).count()
}

fn euler_phi(n: u32) -> u32 {
    (1..=n).filter(|&k| gcd(k, n) == 1).count() as u32
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn cyclotomic_splittings() {
    for n in 1..=30 {
        let f = parse(&format!("x^{n} - 1"));
        let fs = factor_univariate(&f, 0);
        assert_eq!(
            fs.len(),
            divisor_count(n),
            "x^{n} - 1 splits into Phi_d, d | n"
        );
        let product = fs.iter().fold(Poly::one(), |acc, g| acc.mul(g));
        assert_eq!(product, f);
        // The degrees are phi(d) for the divisors d of n.
        let mut degrees: Vec<u32> = fs.iter().map(|g| g.degree(0)).collect();
        let mut expected: Vec<u32> = (1..=n)
            .filter(|d| n.is_multiple_of(*d))
            .map(euler_phi)
            .collect();
        degrees.sort();
        expected.sort();
        assert_eq!(degrees, expected, "x^{n} - 1");
    }
}

#[test]
fn coefficients_beyond_64_bits() {
    let big = Int::from(2).pow(70);
    let lin = Poly::from_coeffs(0, &[Poly::from_i64(3), Poly::constant(big.clone())]);
    let f = lin.mul(&parse("x^2 - 5"));
    let fs = factor(&f);
    assert_eq!(fs.expand(), f);
    assert_eq!(fs.factors.len(), 2);
    assert!(fs.factors.iter().any(|(g, _)| *g == lin));
    // Large constant terms and a large leading coefficient on both sides.
    let a = Poly::from_coeffs(
        0,
        &[
            Poly::constant(big.add(&Int::from(1))),
            Poly::from_i64(0),
            Poly::from_i64(7),
        ],
    );
    let b = Poly::from_coeffs(0, &[Poly::from_i64(-1), Poly::constant(big.mul(&big))]);
    let f = a.mul(&b).mul(&parse("x^3 + 2"));
    let fs = factor(&f);
    assert_eq!(fs.expand(), f);
    assert_eq!(fs.factors.len(), 3);
}

#[test]
fn wilkinson_products() {
    for n in [5, 10, 20] {
        let f = (1..=n).fold(Poly::one(), |acc, k| acc.mul(&parse(&format!("x - {k}"))));
        let fs = factor_univariate(&f, 0);
        assert_eq!(fs.len(), n as usize);
        assert!(fs.iter().all(|g| g.degree(0) == 1));
        // Perturbed: irreducible except for what the perturbation leaves.
        let g = f.add(&Poly::from_i64(1));
        let gs = factor(&g);
        assert_eq!(gs.expand(), g);
    }
}

/// A polynomial in x of degree 1..=4 with small coefficients and non-zero leading term.
fn small_poly() -> impl Strategy<Value = Poly> {
    (1usize..=4)
        .prop_flat_map(|d| {
            (
                prop::collection::vec(-5i64..=5, d),
                1i64..=4,
                prop::bool::ANY,
            )
        })
        .prop_map(|(low, lc, neg)| {
            let mut cs: Vec<Poly> = low.into_iter().map(Poly::from_i64).collect();
            cs.push(Poly::from_i64(if neg { -lc } else { lc }));
            Poly::from_coeffs(0, &cs)
        })
}

/// A polynomial in x of degree 1..=6 with coefficients up to 2^45 in absolute value,
/// which pushes the coefficient bound past a machine word.
fn wide_poly() -> impl Strategy<Value = Poly> {
    (1usize..=6)
        .prop_flat_map(|d| prop::collection::vec(-(1i64 << 45)..=(1i64 << 45), d + 1))
        .prop_filter("non-zero leading coefficient", |cs| {
            cs.last().is_some_and(|&c| c != 0)
        })
        .prop_map(|cs| {
            let cs: Vec<Poly> = cs.into_iter().map(Poly::from_i64).collect();
            Poly::from_coeffs(0, &cs)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn wide_products_factor_back(
        parts in prop::collection::vec(wide_poly(), 1..4),
        square in small_poly(),
    ) {
        let f = parts.iter().fold(square.mul(&square), |acc, g| acc.mul(g));
        let fs = factor(&f);
        prop_assert_eq!(fs.expand(), f.clone());
        let count: u32 = fs.factors.iter().map(|(_, m)| m).sum();
        prop_assert!(count as usize >= parts.len() + 2);
        for (g, _) in &fs.factors {
            prop_assert_eq!(factor_univariate(g, 0), vec![g.clone()]);
        }
    }

    #[test]
    fn random_products_factor_back(parts in prop::collection::vec(small_poly(), 1..5)) {
        let f = parts.iter().fold(Poly::one(), |acc, g| acc.mul(g));
        let fs = factor(&f);
        prop_assert_eq!(fs.expand(), f.clone());
        // Every input part of positive degree contributes at least one irreducible factor.
        let count: u32 = fs.factors.iter().map(|(_, m)| m).sum();
        let parts_nonconstant = parts.iter().filter(|g| g.degree(0) > 0).count() as u32;
        prop_assert!(count >= parts_nonconstant);
        for (g, _) in &fs.factors {
            prop_assert!(g.leading_sign() > 0 && g.integer_content().is_one());
            prop_assert_eq!(factor_univariate(g, 0), vec![g.clone()]);
        }
    }
}
