//! The lowest level's basis by real roots (`Projection`'s level 0): random sets of
//! polynomials in one variable with planted common real roots (rational, quadratic
//! irrational, close but distinct ones) and planted common factors without real roots.
//! Checked by an independent path, Sturm sequences over the rationals and the `polys`
//! gcd: members square-free with real roots, no two with a common real root, every real
//! root of every input a root of some member, every member a factor of an input, and the
//! roots handed to the lifting exactly each member's roots.

use cad::project::Projection;
use cad::UPoly;
use polys::{Coeff, Int, Poly, Rat};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// Coefficients in `x_0`, constant first, as rationals.
fn rationals(p: &Poly) -> Vec<Rat> {
    p.coeffs(0)
        .iter()
        .map(|c| Rat::from(c.constant_value().unwrap_or_else(Int::zero)))
        .collect()
}

fn trim(mut p: Vec<Rat>) -> Vec<Rat> {
    while p.last().is_some_and(Rat::is_zero) {
        p.pop();
    }
    p
}

/// The remainder of `a` by `b` over Q (`b` non-zero).
fn rem(a: &[Rat], b: &[Rat]) -> Vec<Rat> {
    let mut r = a.to_vec();
    let lb = b.last().expect("non-zero divisor");
    while r.len() >= b.len() {
        let q = r.last().expect("longer than b") / lb;
        let shift = r.len() - b.len();
        for (i, c) in b.iter().enumerate() {
            r[shift + i] = &r[shift + i] - &(&q * c);
        }
        r.pop();
        r = trim(r);
    }
    r
}

/// Sign variations of a sequence of non-zero signs.
fn variations(signs: &[i32]) -> usize {
    let s: Vec<i32> = signs.iter().copied().filter(|&s| s != 0).collect();
    s.windows(2).filter(|w| w[0] != w[1]).count()
}

/// The number of distinct real roots of `p` (non-zero), by Sturm's theorem: the sign
/// variations of `p, p', -rem, ...` at minus and plus infinity.
fn real_roots(p: &Poly) -> usize {
    let p = trim(rationals(p));
    if p.len() <= 1 {
        return 0;
    }
    let dp: Vec<Rat> = (1..p.len()).map(|i| &Rat::from(i as i64) * &p[i]).collect();
    let mut seq = vec![p, dp];
    loop {
        let n = seq.len();
        let r = rem(&seq[n - 2], &seq[n - 1]);
        if r.is_empty() {
            break;
        }
        seq.push(r.iter().map(|c| -c).collect());
    }
    let at_plus: Vec<i32> = seq
        .iter()
        .map(|s| s.last().map_or(0, Rat::signum))
        .collect();
    let at_minus: Vec<i32> = seq
        .iter()
        .map(|s| {
            let lc = s.last().map_or(0, Rat::signum);
            if (s.len() - 1) % 2 == 1 {
                -lc
            } else {
                lc
            }
        })
        .collect();
    variations(&at_minus) - variations(&at_plus)
}

fn x() -> Poly {
    Poly::var(0)
}

fn c(v: i64) -> Poly {
    Poly::from_i64(v)
}

/// `a x + b`.
fn linear(a: i64, b: i64) -> Poly {
    x().scale(&Int::from(a)).add(&c(b))
}

/// A pool of factors some inputs share: rational and irrational real roots, pairs of
/// roots closer than the refinement separates cheaply, and factors with no real root.
fn pool(rng: &mut Rng) -> Vec<Poly> {
    let mut out = Vec::new();
    for _ in 0..3 {
        out.push(linear(1, rng.range(-6, 6)));
    }
    out.push(linear(2, 2 * rng.range(-3, 3) + 1));
    // (x - a)^2 - d: two irrational roots.
    for _ in 0..2 {
        let (a, d) = (rng.range(-3, 3), [2, 3, 5, 7][rng.range(0, 3) as usize]);
        out.push(linear(1, -a).pow(2).sub(&c(d)));
    }
    // sqrt(2) and a rational a few millionths away from it.
    out.push(x().pow(2).sub(&c(2)));
    out.push(linear(1_000_000, -1_414_214));
    out.push(linear(1 << 30, -1_518_500_250)); // 1.4142135...: closer still
                                               // No real roots.
    for _ in 0..2 {
        let (b, k) = (rng.range(-3, 3), rng.range(1, 5));
        out.push(x().pow(2).add(&x().scale(&Int::from(b))).add(&c(b * b + k)));
    }
    out.push(x().pow(4).add(&c(rng.range(1, 9))));
    out
}

/// A random factor of degree 1 to 4 of its own.
fn own_factor(rng: &mut Rng) -> Poly {
    let d = rng.range(1, 4);
    let mut p = x().pow(d as u32).scale(&Int::from(rng.range(1, 3)));
    for e in 0..d {
        p = p.add(&x().pow(e as u32).scale(&Int::from(rng.range(-9, 9))));
    }
    p
}

/// Inputs: products of two or three pool factors, some squared, some times a factor of
/// their own, some times an integer.
fn inputs(seed: u64) -> Vec<Poly> {
    let mut rng = Rng(seed);
    let pool = pool(&mut rng);
    let n = rng.range(2, 9);
    (0..n)
        .map(|_| {
            let mut p = c(rng.range(1, 3));
            for _ in 0..rng.range(1, 3) {
                let f = &pool[rng.range(0, pool.len() as i64 - 1) as usize];
                p = p.mul(&f.pow(rng.range(1, 2) as u32));
            }
            if rng.range(0, 1) == 1 {
                p = p.mul(&own_factor(&mut rng));
            }
            p
        })
        .filter(|p| !p.is_constant())
        .collect()
}

#[test]
fn level_zero_members_share_no_real_root_and_cover_every_input_root() {
    let (mut members, mut shared_complex) = (0, 0);
    for seed in 0..150 {
        let ps = inputs(seed);
        let projection = Projection::new(&ps, 1, &[]);
        let basis = &projection.levels[0];
        let roots = &projection.level_roots;
        assert_eq!(roots.len(), basis.len(), "seed {seed}");
        members += basis.len();
        for (i, m) in basis.iter().enumerate() {
            assert!(m.degree(0) > 0 && m.lc(0).constant_value().unwrap() > Int::zero());
            assert!(
                m.gcd(&m.derivative(0)).is_constant(),
                "seed {seed}: {m:?} not square-free"
            );
            let n = real_roots(m);
            assert!(n > 0, "seed {seed}: member {m:?} has no real root");
            assert!(
                ps.iter().any(|p| p.div_exact(m).is_some()),
                "seed {seed}: member {m:?} divides no input"
            );
            // The roots handed to the lifting: all of m's, increasing, each a root of m.
            let u = UPoly::from_poly(m, 0).unwrap();
            assert_eq!(roots[i].len(), n, "seed {seed}: roots of {m:?}");
            assert!(roots[i].iter().all(|r| r.sign_of(&u) == 0));
            assert!(roots[i].windows(2).all(|w| w[0] < w[1]));
            for o in &basis[i + 1..] {
                assert_ne!(m, o);
                let g = m.gcd(o);
                assert_eq!(
                    real_roots(&g),
                    0,
                    "seed {seed}: {m:?} and {o:?} share a real root"
                );
                shared_complex += usize::from(!g.is_constant());
            }
        }
        for p in &ps {
            let covered: usize = basis.iter().map(|m| real_roots(&p.gcd(m))).sum();
            assert_eq!(covered, real_roots(p), "seed {seed}: roots of {p:?}");
        }
    }
    // The sets did exercise common complex factors kept apart by nothing.
    assert!(
        members > 300 && shared_complex > 0,
        "{members} {shared_complex}"
    );
}
