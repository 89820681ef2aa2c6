//! Root isolation (Descartes / Vincent-Collins-Akritas) and its Taylor shift by one on
//! polynomials taken from lifting over the hard random domains of issue 23
//! (`benches/data/vca_hard.txt`: square-free polynomials that `polyscan cad` isolated on
//! hard seeds 1, 7 and 45, one per line, coefficients from degree 0 up). Run with
//! `cargo bench -p cad --bench vca`.

use cad::{isolate_roots, UPoly};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use num_bigint::BigInt;
use polys::Int;
use std::time::Duration;

// The allocator of the polyscan binary, so that the timings are those the CAD sees.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn polys() -> Vec<(String, UPoly)> {
    include_str!("data/vca_hard.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<Int> = l
                .split_whitespace()
                .map(|t| Int::from(t.parse::<BigInt>().expect("an integer coefficient")))
                .collect();
            let p = UPoly::new(c);
            let bits = p.coeffs().iter().map(polys::Coeff::bits).max().unwrap_or(0);
            (format!("deg{}_bits{}", p.degree(), bits), p)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("taylor_shift_one");
    g.measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    for (name, p) in polys() {
        g.bench_function(&name, |b| b.iter(|| black_box(&p).taylor_shift_one()));
    }
    g.finish();
    let mut g = c.benchmark_group("isolate_hard");
    g.measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(300))
        .sample_size(10);
    for (name, p) in polys() {
        g.bench_function(&name, |b| b.iter(|| isolate_roots(black_box(&p)).unwrap()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
