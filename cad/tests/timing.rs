//! A quick timing loop (run with `cargo test -p cad --release --test timing -- --ignored
//! --nocapture`): the cost of isolating the roots of small polynomials and of its parts.

use cad::{isolate_roots, UPoly};
use std::hint::black_box;
use std::time::Instant;

fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

#[test]
#[ignore = "timing report, run on demand"]
fn isolation_timings() {
    let cases = [
        ("y^2 - 8y + 13", UPoly::from_i64s(&[13, -8, 1])),
        (
            "x^6 - 3x^4 + x^3 - 2x + 1",
            UPoly::from_i64s(&[1, -2, 0, 1, -3, 0, 1]),
        ),
        (
            "(x - 1)(x - 4)(x - 7)(3x - 37)",
            UPoly::from_i64s(&[-1, 1])
                .mul(&UPoly::from_i64s(&[-4, 1]))
                .mul(&UPoly::from_i64s(&[-7, 1]))
                .mul(&UPoly::from_i64s(&[-37, 3])),
        ),
        (
            "(x^2 - 2)(x^2 - 3)(x^2 - 5)",
            UPoly::from_i64s(&[-2, 0, 1])
                .mul(&UPoly::from_i64s(&[-3, 0, 1]))
                .mul(&UPoly::from_i64s(&[-5, 0, 1])),
        ),
    ];
    for (name, p) in &cases {
        let n = 20_000;
        let iso = per_call(n, || {
            black_box(isolate_roots(black_box(p)).unwrap());
        });
        let sqf = per_call(n, || {
            black_box(black_box(p).square_free_part());
        });
        println!("{name:32} isolate {iso:7.2} us   (square-free part {sqf:6.2} us)");
    }
}
