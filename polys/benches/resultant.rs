//! Resultants and discriminants on projection-sized inputs: the constraint polynomials of
//! the seed domains (thesis section 4.1.2), their first projections, and a few dense
//! multivariate quadratics and cubics. Each input runs on the machine-integer fast path
//! (`Poly<Int>`) and on plain big integers (`Poly<BigInt>`).
//!
//! `cargo bench -p polys --bench resultant -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use polys::{BigInt, Coeff, Poly, Vars};

enum Op {
    /// Resultant of the two polynomials in the variable.
    Res(String, String, &'static str),
    /// Discriminant of the polynomial in the variable.
    Disc(String, &'static str),
}

struct Case {
    name: &'static str,
    vars: &'static [&'static str],
    op: Op,
}

fn parse(s: &str, vars: &Vars) -> Poly {
    let mut v = vars.clone();
    Poly::parse(s, &mut v).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn var(vars: &Vars, name: &str) -> usize {
    vars.index(name)
        .unwrap_or_else(|| panic!("unknown variable {name}"))
}

/// `res_v(f, g)` as text, for building second-level projection inputs.
fn res_text(vars: &[&str], f: &str, g: &str, v: &str) -> String {
    let vs = Vars::from_names(vars.iter().copied());
    parse(f, &vs)
        .resultant(&parse(g, &vs), var(&vs, v))
        .to_text(&vs)
}

fn disc_text(vars: &[&str], f: &str, v: &str) -> String {
    let vs = Vars::from_names(vars.iter().copied());
    parse(f, &vs).discriminant(var(&vs, v)).to_text(&vs)
}

fn cases() -> Vec<Case> {
    let s = |x: &str| x.to_string();
    const NC: &[&str] = &["x", "y"];
    const SPH: &[&str] = &["x", "y", "z"];
    const ST: &[&str] = &["a", "x", "y", "z"];
    const TRI: &[&str] = &["p", "w", "h", "t1", "t2", "o1", "o2"];
    const Q3: &[&str] = &["x", "y", "z"];
    const Q4: &[&str] = &["x", "y", "z", "u"];
    let nc5 = "(y - 40)^2 - 30*x + 1200";
    let nc6 = "(x - 70)^2 + (y - 80)^2 - 100";
    let st1 = "a^2 - x^2 - y^2";
    let st2 = "a^2 - y^2 - z^2";
    let st3 = "a^2 - x^2 - z^2";
    // tri-invpar: x = w*t1 - h*t2 + o1, y = h*t2 + o2.
    let ti_x = "w*t1 - h*t2 + o1";
    let ti_sum = "p - (w*t1 - h*t2 + o1) - (h*t2 + o2)";
    let ti_in = "w - 1 - o1 - o2";
    let cubic_f = "3*x^2*y*z - 5*x*z^3 + 7*y^2*z^2 - 2*x^3 + 4*y*z - 9*z + 6*x*y - 1";
    let cubic_g = "-4*x*y^2*z + 2*z^3 + 5*x^2*z^2 - 3*y^3 + 8*x*z - 7*y + 2";
    let quad_f = "2*x^2 - 3*x*y + 5*y*z - 4*z^2 + 7*u*z - u^2 + 3*x - 6";
    let quad_g = "-x*y + 4*y^2 + 3*z^2 - 2*u*x + 5*u*z + 9*u^2 - 8*y + 1";
    let st_r12 = res_text(ST, st1, st2, "y");
    let st_r13 = res_text(ST, st1, st3, "x");
    let ti_r1 = res_text(TRI, ti_x, ti_sum, "o1");
    let ti_r2 = res_text(TRI, ti_in, ti_sum, "o1");
    let cubic_res = res_text(Q3, cubic_f, cubic_g, "z");
    vec![
        Case {
            name: "nonconvex res_y(f5, f6)",
            vars: NC,
            op: Op::Res(s(nc5), s(nc6), "y"),
        },
        Case {
            name: "nonconvex disc_x(res_y(f5, f6))",
            vars: NC,
            op: Op::Disc(res_text(NC, nc5, nc6, "y"), "x"),
        },
        Case {
            name: "sphere disc_y(disc_z(f))",
            vars: SPH,
            op: Op::Disc(disc_text(SPH, "x^2 + y^2 + z^2 - 4", "z"), "y"),
        },
        Case {
            name: "steinmetz res_z(f2, f3)",
            vars: ST,
            op: Op::Res(s(st2), s(st3), "z"),
        },
        Case {
            name: "steinmetz res_z(res_y(f1,f2), res_x(f1,f3))",
            vars: ST,
            op: Op::Res(st_r12.clone(), st_r13.clone(), "z"),
        },
        Case {
            name: "steinmetz disc_z(res_y(f1,f2) * res_x(f1,f3))",
            vars: ST,
            op: Op::Disc(format!("({st_r12}) * ({st_r13})"), "z"),
        },
        Case {
            name: "tri-invpar res_o1(x, p - x - y)",
            vars: TRI,
            op: Op::Res(s(ti_x), s(ti_sum), "o1"),
        },
        Case {
            name: "tri-invpar res_t2 of first projections",
            vars: TRI,
            op: Op::Res(ti_r1, ti_r2, "t2"),
        },
        Case {
            name: "quadratic4 res_u",
            vars: Q4,
            op: Op::Res(s(quad_f), s(quad_g), "u"),
        },
        Case {
            name: "quadratic4 disc_z(f * g)",
            vars: Q4,
            op: Op::Disc(format!("({quad_f}) * ({quad_g})"), "z"),
        },
        Case {
            name: "cubic3 res_z",
            vars: Q3,
            op: Op::Res(s(cubic_f), s(cubic_g), "z"),
        },
        Case {
            name: "cubic3 disc_y(res_z)",
            vars: Q3,
            op: Op::Disc(cubic_res, "y"),
        },
    ]
}

fn run<C: Coeff>(op: &(Poly<C>, Option<Poly<C>>, usize)) -> Poly<C> {
    match op {
        (f, Some(g), v) => f.resultant(g, *v),
        (f, None, v) => f.discriminant(*v),
    }
}

fn bench(c: &mut Criterion) {
    for case in cases() {
        let vars = Vars::from_names(case.vars.iter().copied());
        let fast: (Poly, Option<Poly>, usize) = match &case.op {
            Op::Res(f, g, v) => (parse(f, &vars), Some(parse(g, &vars)), var(&vars, v)),
            Op::Disc(f, v) => (parse(f, &vars), None, var(&vars, v)),
        };
        let big: (Poly<BigInt>, Option<Poly<BigInt>>, usize) =
            (fast.0.convert(), fast.1.as_ref().map(Poly::convert), fast.2);
        // Both paths must agree before their speed means anything.
        assert_eq!(run(&fast).convert::<BigInt>(), run(&big), "{}", case.name);
        let mut group = c.benchmark_group(case.name);
        group.sample_size(20);
        group.bench_function("int", |b| b.iter(|| run(black_box(&fast))));
        group.bench_function("bigint", |b| b.iter(|| run(black_box(&big))));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
