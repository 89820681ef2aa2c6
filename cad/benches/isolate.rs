//! Timings of the CAD number layer: root isolation of small polynomials, comparison of
//! algebraic numbers and the sign cascade. Run with `cargo bench -p cad --bench isolate`.

use cad::{isolate_roots, sign_at, Algebraic, SignStats, UPoly};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use polys::{Poly, Vars};
use std::time::Duration;

fn polys() -> Vec<(&'static str, UPoly)> {
    vec![
        // (x - 1)(x - 4)(x - 7)(3x - 37): the base polynomial of the seed's example.
        (
            "deg4_rational",
            UPoly::from_i64s(&[-1, 1])
                .mul(&UPoly::from_i64s(&[-4, 1]))
                .mul(&UPoly::from_i64s(&[-7, 1]))
                .mul(&UPoly::from_i64s(&[-37, 3])),
        ),
        // (y - 4)^2 - 3 = y^2 - 8y + 13: two irrational roots.
        ("deg2_irrational", UPoly::from_i64s(&[13, -8, 1])),
        // x^6 - 3x^4 + x^3 - 2x + 1: mixed.
        ("deg6_mixed", UPoly::from_i64s(&[1, -2, 0, 1, -3, 0, 1])),
        // (x^2 - 2)(x^2 - 3)(x^2 - 5): six irrational roots.
        (
            "deg6_six_roots",
            UPoly::from_i64s(&[-2, 0, 1])
                .mul(&UPoly::from_i64s(&[-3, 0, 1]))
                .mul(&UPoly::from_i64s(&[-5, 0, 1])),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("isolate");
    g.measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (name, p) in polys() {
        g.bench_function(name, |b| b.iter(|| isolate_roots(black_box(&p)).unwrap()));
    }
    g.finish();

    let mut g = c.benchmark_group("algebraic");
    g.measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let s2 = Algebraic::roots_of(&UPoly::from_i64s(&[-2, 0, 1])).unwrap()[1].clone();
    let s3 = Algebraic::roots_of(&UPoly::from_i64s(&[-3, 0, 1])).unwrap()[1].clone();
    let s2b = Algebraic::roots_of(&UPoly::from_i64s(&[-8, 0, 0, 0, 0, 0, 1])).unwrap()[1].clone();
    g.bench_function("cmp_distinct", |b| {
        b.iter(|| black_box(&s2).cmp(black_box(&s3)))
    });
    g.bench_function("cmp_equal", |b| {
        b.iter(|| black_box(&s2).cmp(black_box(&s2b)))
    });
    g.bench_function("rational_between", |b| {
        b.iter(|| black_box(&s2).rational_between(black_box(&s3)).unwrap())
    });
    let mut v = Vars::from_names(["x", "y"]);
    let c3 = Algebraic::roots_of(&UPoly::from_i64s(&[-3, 0, 0, 1])).unwrap()[0].clone();
    let point = [s2.clone(), c3];
    for (name, src) in [
        ("sign_interval", "x*y - 1"),
        ("sign_univariate_zero", "x^3 - 2*x"),
        ("sign_resultant_zero", "x^2*y^3 - 6"),
    ] {
        let p = Poly::parse(src, &mut v).unwrap();
        let stats = SignStats::new();
        g.bench_function(name, |b| {
            b.iter(|| sign_at(black_box(&p), &point, &stats).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
