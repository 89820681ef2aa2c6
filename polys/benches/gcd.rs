//! Multivariate gcds of the kind a CAD projection's square-free basis meets: Yun's first gcd
//! `gcd(f, df/dv)` of a polynomial with a repeated factor, and gcds of two polynomials
//! sharing a factor, in two and three variables, with coefficients from small to ~120
//! bits; the inputs built from hard seed 14's constraints are discriminants and
//! resultants of them. Each runs through `Poly::gcd` (Brown's modular method) and
//! `Poly::gcd_prs` (the primitive subresultant PRS it replaced).
//!
//! `cargo bench -p polys --bench gcd -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use polys::{Int, Mono, Poly, Vars};

/// A dense polynomial in `nvars` variables, every exponent below `deg`, coefficients of
/// about `bits` bits from a fixed linear congruential sequence.
fn dense(nvars: usize, deg: u32, bits: u32, seed: u64) -> Poly {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as i64 - (1 << 30)
    };
    let mut terms = Vec::new();
    let total = (deg as usize).pow(nvars as u32);
    for k in 0..total {
        let mut exps = vec![0u32; nvars];
        let mut r = k;
        for e in exps.iter_mut() {
            *e = (r % deg as usize) as u32;
            r /= deg as usize;
        }
        // bits / 31 words of 31 bits each, at least one.
        let mut c = Int::from(next());
        for _ in 1..bits.div_ceil(31) {
            c = &(&c * &Int::from(1i64 << 31)) + &Int::from(next());
        }
        terms.push(Poly::monomial(c, Mono::from_exps(&exps)));
    }
    terms.iter().fold(Poly::zero(), |acc, t| acc.add(t))
}

fn parse(s: &str, vars: &[&str]) -> Poly {
    let mut v = Vars::from_names(vars.iter().copied());
    Poly::parse(s, &mut v).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn bench(c: &mut Criterion) {
    let mut cases: Vec<(&str, Poly, Poly)> = Vec::new();
    // Yun's first gcd of f = g^2 h in two variables.
    for (name, bits) in [("yun 2 vars, 31-bit", 31), ("yun 2 vars, 124-bit", 124)] {
        let g = dense(2, 3, bits, 1);
        let h = dense(2, 3, bits, 2);
        let f = g.mul(&g).mul(&h);
        let df = f.derivative(1);
        cases.push((name, f, df));
    }
    // gcd(a g, b g) in three variables.
    for (name, bits) in [
        ("common 3 vars, 31-bit", 31),
        ("common 3 vars, 124-bit", 124),
    ] {
        let g = dense(3, 2, bits, 3);
        let a = dense(3, 3, bits, 4).mul(&g);
        let b = dense(3, 3, bits, 5).mul(&g);
        cases.push((name, a, b));
    }
    // Hard seed 14's constraints (i, j, m): the discriminant in j of one times a
    // resultant of two, against that resultant times a third constraint.
    let vars = ["i", "j", "m"];
    let p1 = parse("-(2*m*i) + 4*m*j*j - (i*m*m) - (3*m*i*i) + 5", &vars);
    let p2 = parse("-(4*m*j) + 2*i*j*j - (i*m) - (3*j) - 4", &vars);
    let p3 = parse("-(2*i*i) - i + 2*j*i + 2", &vars);
    let r12 = p1.resultant(&p2, 1);
    let d1 = p1.discriminant(1);
    cases.push((
        "seed 14 projection",
        d1.mul(&r12).mul(&r12),
        r12.mul(&p3.resultant(&p2, 1)),
    ));
    let mut group = c.benchmark_group("gcd");
    group.sample_size(10);
    for (name, a, b) in &cases {
        assert_eq!(a.gcd(b), a.gcd_prs(b), "{name}");
        group.bench_function(format!("{name}: modular"), |bn| {
            bn.iter(|| black_box(a).gcd(black_box(b)))
        });
        group.bench_function(format!("{name}: PRS"), |bn| {
            bn.iter(|| black_box(a).gcd_prs(black_box(b)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
