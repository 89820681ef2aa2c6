//! Time to the first and to the final solution of `polyscan la` on the 25 application
//! problems of the Linnea thesis (examples/la/).
//!
//! `first/NAME` measures parsing plus the first solution (no time for improvement);
//! `final/NAME` the full search until its queue is exhausted or 2000 forms were examined.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use polyscan_la::parse::parse;
use polyscan_la::search::{solve, SearchOptions};

fn problems() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/la");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "la"))
                .filter_map(|p| {
                    let name = p.file_stem()?.to_string_lossy().into_owned();
                    Some((name, std::fs::read_to_string(&p).ok()?))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn bench(c: &mut Criterion) {
    let first = SearchOptions {
        time_limit: Duration::ZERO,
        ..SearchOptions::default()
    };
    let full = SearchOptions {
        time_limit: Duration::from_secs(10),
        max_states: 2000,
        ..SearchOptions::default()
    };
    let mut g = c.benchmark_group("first");
    for (name, src) in problems() {
        g.bench_function(&name, |b| {
            b.iter(|| {
                let p = parse(black_box(&src)).ok();
                p.and_then(|p| solve(&p, first).ok())
                    .map(|s| s.lowered.flops)
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("final");
    g.sample_size(10);
    for (name, src) in problems() {
        g.bench_function(&name, |b| {
            b.iter(|| {
                let p = parse(black_box(&src)).ok();
                p.and_then(|p| solve(&p, full).ok())
                    .map(|s| s.lowered.flops)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
