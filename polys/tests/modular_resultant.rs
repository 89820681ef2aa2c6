//! The modular resultant and discriminant against the subresultant PRS over Z (the oracle
//! they replaced), in one to four variables: common factors (zero resultants), leading
//! coefficients that vanish at the first evaluation points (0, 1, 2) or modulo the first
//! word primes (so points and primes must be skipped), and coefficients beyond 64 bits.

use polys::{BigInt, Int, Mono, Poly};
use proptest::prelude::*;

/// The two largest primes below 2^62, the first the modular code tries: a leading
/// coefficient that is a multiple of them vanishes modulo both.
const P0: i64 = (1 << 62) - 57;
const P1: i64 = (1 << 62) - 87;

/// A coefficient: mostly small, sometimes beyond 64 or 128 bits.
fn coeff() -> impl Strategy<Value = Int> {
    prop_oneof![
        8 => (-9i64..=9).prop_map(Int::from),
        1 => (-5i64..=5, 1u32..3).prop_map(|(v, e)| {
            Int::from(BigInt::from(v) * BigInt::from(1_152_921_504_606_846_883i64).pow(e))
        }),
    ]
}

/// A polynomial in `x_0 .. x_(nvars-1)` with degree at most `max_deg` in each variable
/// except `var`, where it is at most `var_deg`.
fn poly(nvars: usize, var: usize, max_deg: u32, var_deg: u32) -> BoxedStrategy<Poly> {
    prop::collection::vec(
        (
            prop::collection::vec(0..=max_deg, nvars),
            0..=var_deg,
            coeff(),
        ),
        1..=5,
    )
    .prop_map(move |ts| {
        Poly::from_terms(
            ts.into_iter()
                .map(|(mut e, d, c)| {
                    e[var] = d;
                    (Mono::from_exps(&e), c)
                })
                .collect(),
        )
    })
    .boxed()
}

/// A leading coefficient for `x_var^d`: vanishing at small points, modulo the first primes,
/// or plain.
fn leading(nvars: usize, var: usize) -> BoxedStrategy<Poly> {
    let others: Vec<usize> = (0..nvars).filter(|&u| u != var).collect();
    let lin = move |u: Option<usize>, c: i64| match u {
        Some(u) => Poly::var(u).sub(&Poly::from_i64(c)),
        None => Poly::from_i64(c.max(1)),
    };
    let pick = prop::sample::select(if others.is_empty() {
        vec![None]
    } else {
        others.iter().copied().map(Some).collect()
    });
    (pick.clone(), pick, 0i64..3, 0i64..3, 0usize..4)
        .prop_map(move |(u, w, c1, c2, kind)| match kind {
            // Vanishes at x_u = c1 (and x_w = c2): points 0, 1, 2 are tried first.
            0 => lin(u, c1),
            1 => lin(u, c1).mul(&lin(w, c2)),
            // Vanishes modulo the first two primes everywhere.
            2 => lin(u, c1).scale(&Int::from(P0)).scale(&Int::from(P1)),
            _ => Poly::from_i64(P0).mul(&Poly::one().add(&lin(u, c1))),
        })
        .boxed()
}

/// `(nvars, var, f, g, common)`: `f` and `g` of positive degree in `var` (a leading term
/// from [`leading`] half of the time), and a factor to multiply both by.
fn case() -> impl Strategy<Value = (usize, usize, Poly, Poly, Poly)> {
    (1usize..=4)
        .prop_flat_map(|n| (Just(n), 0..n))
        .prop_flat_map(|(n, v)| {
            (
                Just(n),
                Just(v),
                poly(n, v, 2, 3),
                poly(n, v, 2, 3),
                leading(n, v),
                1u32..=3,
                any::<bool>(),
                prop_oneof![3 => Just(Poly::one()), 1 => poly(n, v, 1, 1)],
            )
        })
        .prop_map(|(n, v, f, g, lc, d, lead_f, h)| {
            let top = lc.mul(&Poly::monomial(Int::from(1), Mono::var(v, d + 1)));
            let (f, g) = if lead_f {
                (f.add(&top), g)
            } else {
                (f, g.add(&top))
            };
            (n, v, positive(f, v), positive(g, v), h)
        })
}

/// `p`, or `p + x_var` when `p` does not depend on `x_var`.
fn positive(p: Poly, var: usize) -> Poly {
    if p.degree(var) > 0 {
        p
    } else {
        p.add(&Poly::var(var))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn modular_resultant_matches_the_prs((_n, v, f, g, h) in case()) {
        let (f, g) = (f.mul(&h), g.mul(&h));
        let want = f.resultant_prs(&g, v);
        prop_assert_eq!(f.resultant_modular(&g, v), Some(want.clone()));
        // The dispatcher (shortcuts, modular, PRS fallback) agrees too.
        prop_assert_eq!(f.resultant(&g, v), want.clone());
        if h.degree(v) > 0 {
            prop_assert!(want.is_zero());
        }
        // Big-integer coefficients take the same path with another Coeff.
        let (fb, gb) = (f.convert::<BigInt>(), g.convert::<BigInt>());
        prop_assert_eq!(fb.resultant_modular(&gb, v), Some(want.convert::<BigInt>()));
    }

    #[test]
    fn modular_discriminant_matches_the_prs((n, v, f, g, h) in case()) {
        let mut ps = vec![f.mul(&h), g];
        // Products of degree 8 in more variables make grids too large for a test suite.
        if n <= 2 {
            ps.push(f.mul(&f.add(&Poly::one())));
        }
        for p in ps {
            let want = p.discriminant_prs(v);
            prop_assert_eq!(p.discriminant_modular(v), Some(want.clone()));
            prop_assert_eq!(p.discriminant(v), want);
        }
    }

    /// A square factor makes the discriminant zero; a stop asked at once interrupts.
    #[test]
    fn repeated_factors_and_stops((n, v, f, g, _h) in case()) {
        // Squares in more variables make grids too large for a test suite.
        prop_assume!(n <= 2);
        let sq = f.mul(&f).mul(&g);
        prop_assert!(sq.discriminant_modular(v).is_some_and(|d| d.is_zero()));
        let big = f.mul(&g).mul(&Poly::var(v).add(&Poly::from_i64(3)));
        if big.degree(v) >= 3 {
            prop_assert_eq!(big.discriminant_until(v, &|| true), None);
        }
    }
}
