//! Timings of univariate factorisation, printed rather than asserted (machines differ):
//! `cargo test -p polys --release --test factor_timing -- --ignored --nocapture`.

use polys::{factor, Poly, Vars};
use std::time::Instant;

fn parse(s: &str) -> Poly {
    let mut v = Vars::from_names(["x"]);
    Poly::parse(s, &mut v).expect("timing polynomial parses")
}

fn product(parts: &[&str]) -> Poly {
    parts.iter().fold(Poly::one(), |acc, s| acc.mul(&parse(s)))
}

fn swinnerton_dyer(k: usize) -> Poly {
    let mut v = Vars::from_names(["x", "y"]);
    let mut p = |s: &str| Poly::parse(s, &mut v).expect("timing polynomial parses");
    let mut s = p("x");
    for q in [2, 3, 5, 7, 11].into_iter().take(k) {
        s = s
            .subst(0, &p("x - y"))
            .resultant(&p(&format!("y^2 - {q}")), 1);
    }
    s.normalize_sign()
}

#[test]
#[ignore = "timing report, run explicitly"]
fn report_factor_timings() {
    let wilkinson = (1..=20).fold(Poly::one(), |acc, k| acc.mul(&parse(&format!("x - {k}"))));
    let cases: Vec<(&str, Poly)> = vec![
        ("6x^2 + 5x + 1", parse("6x^2 + 5x + 1")),
        ("x^2 - 2", parse("x^2 - 2")),
        ("x^4 - 10x^2 + 1", parse("x^4 - 10x^2 + 1")),
        (
            "deg 8 Swinnerton-Dyer",
            parse("x^8 - 40x^6 + 352x^4 - 960x^2 + 576"),
        ),
        ("x^10 - 1", parse("x^10 - 1")),
        ("deg 10 irreducible", parse("x^10 + 3x^7 - x^3 + 2x + 5")),
        (
            "deg 10 product",
            product(&["2x^3 - x + 4", "x^3 + 5x^2 - 3", "3x^4 - x^3 + 2x - 1"]),
        ),
        (
            "deg 20 product of quadratics",
            product(&[
                "x^2 + 1",
                "x^2 - 3",
                "2x^2 + x + 5",
                "x^2 + 7x - 1",
                "3x^2 - 2",
                "x^2 + x + 1",
                "x^2 - x - 4",
                "5x^2 + 1",
                "x^2 + 3x + 3",
                "x^2 - 11",
            ]),
        ),
        ("Wilkinson (x-1)...(x-20)", wilkinson.clone()),
        ("Wilkinson + 1", wilkinson.add(&Poly::one())),
        ("x^20 - 1", parse("x^20 - 1")),
        ("x^30 - 1", parse("x^30 - 1")),
        ("Swinnerton-Dyer deg 16", swinnerton_dyer(4)),
        ("Swinnerton-Dyer deg 32", swinnerton_dyer(5)),
    ];
    for (name, f) in &cases {
        // The best of several batches of about 10 ms each: other processes only ever add
        // time.
        let start = Instant::now();
        factor(f);
        let reps = (0.01 / start.elapsed().as_secs_f64()).clamp(1.0, 200.0) as usize;
        let mut n = 0;
        let mut per = f64::INFINITY;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..reps {
                n = factor(f).factors.len();
            }
            per = per.min(start.elapsed().as_secs_f64() / reps as f64);
        }
        let mut sqf = f64::INFINITY;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(f.square_free());
            }
            sqf = sqf.min(start.elapsed().as_secs_f64() / reps as f64);
        }
        println!(
            "{name:30} {n:3} factors  {:9.1} us  (square-free part {:8.1} us)",
            per * 1e6,
            sqf * 1e6
        );
    }
}
