//! Measures which big-integer crate should sit behind `polys::Int`'s 64-bit fast path
//! (issue 2): the same resultant/discriminant workloads run on `Poly<polys::Int>`,
//! `Poly<num_bigint::BigInt>`, `Poly<Rug>` (GMP via rug) and `Poly<Mal>` (malachite), all
//! four results are checked equal, and the times are printed as a markdown table.
//!
//! Usage: `bigint-choice [--quick] [--budget-ms N] [FILTER...]` (FILTER: substrings of
//! case names; none = all cases).

mod coeffs;
mod fast;

use coeffs::{Mal, Rug};
use fast::Fast;
use num_bigint::BigInt;
use polys::{square_free_basis, Coeff, Int, Mono, Poly, Vars};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------
// Workloads
// ---------------------------------------------------------------------------------------

/// What a case computes; inputs are stored over `BigInt` and converted before timing.
enum Work {
    /// CAD projection (Collins/McCallum style, without factoring): at each level take the
    /// square-free basis of the current set, then for the variable being eliminated add
    /// every non-constant leading coefficient, discriminant and pairwise resultant.
    Project {
        inputs: Vec<Poly<BigInt>>,
        elim: Vec<usize>,
    },
    /// `res_y(res_z(f, g), res_z(f, h))` and the discriminant in `y` of `res_z(f, g)`
    /// (with `outer` false: only `res_z(f, g)`, `res_z(f, h)` and `disc_z(f)`).
    ResOfRes {
        outer: bool,
        f: Poly<BigInt>,
        g: Poly<BigInt>,
        h: Poly<BigInt>,
        z: usize,
        y: usize,
    },
    /// Univariate resultants of each pair and discriminants of each first member, in x0.
    Univariate { pairs: Vec<(Poly<BigInt>, Poly<BigInt>)> },
}

struct Case {
    group: &'static str,
    name: String,
    work: Work,
}

/// Prepared inputs of one case in the coefficient type being measured.
enum Prepared<C: Coeff> {
    Project(Vec<Poly<C>>, Vec<usize>),
    ResOfRes([Poly<C>; 3], usize, usize, bool),
    Univariate(Vec<(Poly<C>, Poly<C>)>),
}

fn prepare<C: Coeff>(w: &Work) -> Prepared<C> {
    match w {
        Work::Project { inputs, elim } => {
            Prepared::Project(inputs.iter().map(Poly::convert).collect(), elim.clone())
        }
        Work::ResOfRes { outer, f, g, h, z, y } => {
            Prepared::ResOfRes([f.convert(), g.convert(), h.convert()], *z, *y, *outer)
        }
        Work::Univariate { pairs } => Prepared::Univariate(
            pairs
                .iter()
                .map(|(a, b)| (a.convert(), b.convert()))
                .collect(),
        ),
    }
}

fn run<C: Coeff>(p: &Prepared<C>) -> Vec<Poly<C>> {
    match p {
        Prepared::Project(inputs, elim) => {
            let mut out = Vec::new();
            let mut set = inputs.clone();
            for &v in elim {
                let basis = square_free_basis(&set);
                let with_v: Vec<&Poly<C>> = basis.iter().filter(|p| p.degree(v) > 0).collect();
                let mut next: Vec<Poly<C>> = basis
                    .iter()
                    .filter(|p| p.degree(v) == 0)
                    .cloned()
                    .collect();
                for (i, p) in with_v.iter().enumerate() {
                    next.push(p.lc(v));
                    if p.degree(v) >= 2 {
                        next.push(p.discriminant(v));
                    }
                    for q in &with_v[i + 1..] {
                        next.push(p.resultant(q, v));
                    }
                }
                next.retain(|p| !p.is_constant());
                out.extend(next.iter().cloned());
                set = next;
            }
            out
        }
        Prepared::ResOfRes([f, g, h], z, y, outer) => {
            let r1 = f.resultant(g, *z);
            let r2 = f.resultant(h, *z);
            if !outer {
                return vec![r1, r2, f.discriminant(*z)];
            }
            let rr = r1.resultant(&r2, *y);
            let d = r1.discriminant(*y);
            vec![r1, r2, rr, d]
        }
        Prepared::Univariate(pairs) => {
            let mut out = Vec::new();
            for (a, b) in pairs {
                out.push(a.resultant(b, 0));
                out.push(a.discriminant(0));
            }
            out
        }
    }
}

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

fn parse_all(names: &[&str], srcs: &[&str]) -> Vec<Poly<BigInt>> {
    let mut vars = Vars::from_names(names.iter().copied());
    srcs.iter()
        .map(|s| {
            let p: Poly<Int> = Poly::parse(s, &mut vars).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(vars.len(), names.len(), "{s} introduced a new variable");
            p.convert()
        })
        .collect()
}

/// Constraints of a 2-D tiled index set: point (x, y) = tile origin K*diag(w,h)*(t1,t2)
/// plus K*(o1,o2), 0 <= o1 < w, 0 <= o2 < h; `x`, `y` are the point's expressions.
fn tiled(
    name: &str,
    params: &[&str],
    x: &str,
    y: &str,
    domain: &[&str],
) -> Case {
    let mut names: Vec<&str> = params.to_vec();
    names.extend(["w", "h", "t1", "t2", "o1", "o2"]);
    let mut srcs: Vec<String> = domain
        .iter()
        .map(|c| c.replace('X', &format!("({x})")).replace('Y', &format!("({y})")))
        .collect();
    srcs.extend(
        ["o1", "w - 1 - o1", "o2", "h - 1 - o2", "w - 1", "h - 1"]
            .iter()
            .map(|s| s.to_string()),
    );
    let refs: Vec<&str> = srcs.iter().map(String::as_str).collect();
    let n = names.len();
    Case {
        group: "a",
        name: name.to_string(),
        work: Work::Project {
            inputs: parse_all(&names, &refs),
            // Eliminate o2, o1, t2, t1 (innermost first), keep w, h and the parameters.
            elim: vec![n - 1, n - 2, n - 3, n - 4],
        },
    }
}

/// splitmix64: a small deterministic generator, so every run measures the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-m, m], never 0.
    fn small(&mut self, m: u64) -> BigInt {
        loop {
            let v = (self.next() % (2 * m + 1)) as i64 - m as i64;
            if v != 0 {
                return BigInt::from(v);
            }
        }
    }

    /// A random non-zero integer of exactly `bits` bits, random sign.
    fn big(&mut self, bits: u64) -> BigInt {
        let limbs = bits.div_ceil(64) as usize;
        let mut v: Vec<u64> = (0..limbs).map(|_| self.next()).collect();
        let top = bits - 64 * (limbs as u64 - 1);
        let last = v.last_mut().unwrap();
        if top < 64 {
            *last &= (1u64 << top) - 1;
        }
        *last |= 1u64 << (top - 1);
        let halves: Vec<u32> = v
            .iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect();
        let sign = if self.next() & 1 == 1 {
            num_bigint::Sign::Minus
        } else {
            num_bigint::Sign::Plus
        };
        BigInt::from_biguint(sign, num_bigint::BigUint::new(halves))
    }
}

/// A dense polynomial in `nvars` variables of total degree `deg`, coefficients from `coef`.
fn dense(nvars: usize, deg: u32, rng: &mut Rng, coef: &mut dyn FnMut(&mut Rng) -> BigInt) -> Poly<BigInt> {
    let mut terms = Vec::new();
    let mut exps = vec![0u32; nvars];
    loop {
        if exps.iter().sum::<u32>() <= deg {
            terms.push((Mono::from_exps(&exps), coef(rng)));
        }
        // Odometer over [0, deg]^nvars.
        let mut i = 0;
        loop {
            if i == nvars {
                return Poly::from_terms(terms);
            }
            exps[i] += 1;
            if exps[i] <= deg {
                break;
            }
            exps[i] = 0;
            i += 1;
        }
    }
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let proj = |name: &str, names: &[&str], srcs: &[&str], elim: Vec<usize>| Case {
        group: "a",
        name: name.to_string(),
        work: Work::Project {
            inputs: parse_all(names, srcs),
            elim,
        },
    };
    // (a) The seed's non-polyhedral domains (thesis section 4.1.2)...
    v.push(proj("sphere", &["x", "y", "z"], &["x^2 + y^2 + z^2 - 4"], vec![2, 1]));
    v.push(proj(
        "steinmetz (a param)",
        &["a", "x", "y", "z"],
        &["a^2 - x^2 - y^2", "a^2 - y^2 - z^2", "a^2 - x^2 - z^2"],
        vec![3, 2, 1],
    ));
    v.push(proj(
        "nonconvex",
        &["x", "y"],
        &[
            "x - 10",
            "70 - x",
            "y - 10",
            "90 - y",
            "(y - 40)^2 - 30*x + 1200",
            "(x - 70)^2 + (y - 80)^2 - 100",
        ],
        vec![1],
    ));
    v.push(proj(
        "nonconvex2",
        &["x", "y"],
        &["x - 1", "7 - x", "y - 1", "9 - y", "(y - 4)^2 - 3*x + 12"],
        vec![1],
    ));
    // ... and the tiled polyhedral ones (K1 rectangular, K2 parallelogram, K3 inverse).
    let rect = ["X - 1", "12 - X", "Y - 1", "6 - Y"];
    v.push(tiled("rect-rect", &[], "w*t1 + o1", "h*t2 + o2", &rect));
    v.push(tiled("rect-par", &[], "w*t1 + h*t2 + o1 + o2", "h*t2 + o2", &rect));
    v.push(tiled("rect-invpar", &[], "w*t1 - h*t2 + o1 - o2", "h*t2 + o2", &rect));
    let tri = ["X", "Y", "p - X - Y"];
    v.push(tiled("tri-rect", &["p"], "w*t1 + o1", "h*t2 + o2", &tri));
    v.push(tiled("tri-invpar", &["p"], "w*t1 - h*t2 + o1 - o2", "h*t2 + o2", &tri));

    // (b) Iterated projection of random dense trivariate polynomials: coefficients grow
    // past 64 bits in the second resultant.
    let mut rng = Rng(2);
    for (outer, deg, label, bits) in [
        (true, 2u32, "|c|<=1000", 0u64),
        (true, 3, "|c|<=1000", 0),
        (true, 2, "|c|~2^40", 40),
        (true, 3, "|c|~2^40", 40),
        (false, 4, "|c|<=1000", 0),
        (false, 4, "|c|~2^40", 40),
    ] {
        let mut coef = |r: &mut Rng| if bits == 0 { r.small(1000) } else { r.big(bits) };
        let f = dense(3, deg, &mut rng, &mut coef);
        let g = dense(3, deg, &mut rng, &mut coef);
        let h = dense(3, deg, &mut rng, &mut coef);
        v.push(Case {
            group: "b",
            name: if outer {
                format!("res_y(res_z) deg {deg}, {label}")
            } else {
                format!("res_z, disc_z only, deg {deg}, {label}")
            },
            work: Work::ResOfRes { outer, f, g, h, z: 2, y: 1 },
        });
    }

    // (c) Univariate resultants and discriminants with big coefficients.
    for (deg, bits) in [(10u32, 64u64), (12, 128), (16, 256), (20, 512)] {
        let mut coef = |r: &mut Rng| r.big(bits);
        let pairs = (0..3)
            .map(|_| {
                (
                    dense(1, deg, &mut rng, &mut coef),
                    dense(1, deg - 1, &mut rng, &mut coef),
                )
            })
            .collect();
        v.push(Case {
            group: "c",
            name: format!("univariate deg {deg}, {bits}-bit coeffs (x3)"),
            work: Work::Univariate { pairs },
        });
    }
    v
}

// ---------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------

struct Timing {
    /// Median thread CPU time: what the computation costs, insensitive to the process
    /// being descheduled on a shared machine.
    cpu_median: Duration,
    /// Median and minimum wall-clock time (`std::time::Instant`).
    median: Duration,
    best: Duration,
    reps: usize,
}

struct Opts {
    /// Wall-clock time to spend on one case, over all coefficient types together.
    budget: Duration,
    min_reps: usize,
    max_reps: usize,
}

/// CPU time consumed so far by the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// One coefficient type's prepared inputs, behind a uniform interface.
trait Runner {
    /// Runs the workload once and returns (wall, cpu) time.
    fn time_once(&self) -> (Duration, Duration);
    fn result(&self) -> Vec<Poly<BigInt>>;
}

impl<C: Coeff> Runner for Prepared<C> {
    fn time_once(&self) -> (Duration, Duration) {
        let (t, c) = (Instant::now(), thread_cpu());
        let r = run(self);
        let out = (t.elapsed(), thread_cpu() - c);
        std::hint::black_box(r);
        out
    }
    fn result(&self) -> Vec<Poly<BigInt>> {
        run(self).iter().map(Poly::convert).collect()
    }
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs every type once untimed (warm-up, and the results to compare), then timed rounds
/// in which each type runs once, in rotating order, so that load from other processes on
/// the shared machine hits all types alike; stops after `min_reps` rounds once the budget
/// is spent, or after `max_reps` rounds.
fn measure_all(w: &Work, o: &Opts) -> Vec<(Timing, Vec<Poly<BigInt>>)> {
    let runners: Vec<Box<dyn Runner>> = vec![
        Box::new(prepare::<Int>(w)),
        Box::new(prepare::<Fast<BigInt>>(w)),
        Box::new(prepare::<Fast<Rug>>(w)),
        Box::new(prepare::<Fast<Mal>>(w)),
        Box::new(prepare::<BigInt>(w)),
        Box::new(prepare::<Rug>(w)),
        Box::new(prepare::<Mal>(w)),
    ];
    let results: Vec<Vec<Poly<BigInt>>> = runners.iter().map(|r| r.result()).collect();
    let n = runners.len();
    let mut wall: Vec<Vec<Duration>> = vec![Vec::new(); n];
    let mut cpu: Vec<Vec<Duration>> = vec![Vec::new(); n];
    let start = Instant::now();
    let mut round = 0;
    while round < o.max_reps && (round < o.min_reps || start.elapsed() < o.budget) {
        for k in 0..n {
            let i = (k + round) % n;
            let (w, c) = runners[i].time_once();
            wall[i].push(w);
            cpu[i].push(c);
        }
        round += 1;
    }
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let t = Timing {
                cpu_median: median(&mut cpu[i]),
                median: median(&mut wall[i]),
                best: wall[i][0],
                reps: round,
            };
            (t, r)
        })
        .collect()
}

fn fmt_dur(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

/// The coefficient types compared, in table order.
const TYPES: [&str; 7] = [
    "Int",
    "Fast<BigInt>",
    "Fast<Rug>",
    "Fast<Mal>",
    "BigInt",
    "Rug",
    "Mal",
];

fn main() {
    let mut opts = Opts {
        budget: Duration::from_millis(8000),
        min_reps: 5,
        max_reps: 51,
    };
    let mut filters = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => {
                opts.budget = Duration::from_millis(500);
                opts.min_reps = 2;
                opts.max_reps = 5;
            }
            "--budget-ms" => {
                let ms: u64 = args.next().and_then(|s| s.parse().ok()).expect("--budget-ms N");
                opts.budget = Duration::from_millis(ms);
            }
            _ => filters.push(a),
        }
    }
    let mut rows = Vec::new();
    for case in cases() {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        eprintln!("running {} ...", case.name);
        let res = measure_all(&case.work, &opts);
        let reference = &res[4].1;
        let text = |r: &Vec<Poly<BigInt>>| -> Vec<String> {
            r.iter()
                .flat_map(|p| p.terms().iter().map(|(m, c)| format!("{m:?}:{c}")))
                .collect()
        };
        for (ty, (_, r)) in TYPES.iter().zip(&res) {
            assert!(r == reference, "{}: {ty} differs from BigInt", case.name);
            assert_eq!(text(r), text(reference), "{}: {ty} prints differently", case.name);
        }
        let maxbits = reference
            .iter()
            .flat_map(|p| p.terms().iter().map(|(_, c)| Coeff::bits(c)))
            .max()
            .unwrap_or(0);
        rows.push((case.group, case.name, reference.len(), maxbits, res));
    }

    let med = |t: &Timing| t.cpu_median.as_secs_f64();
    println!("Median thread CPU time of N interleaved rounds after one warm-up (N >= 5; more for fast cases while under the time budget). All 7 types gave identical results (compared as BigInt and as printed text) on every case.\n");
    println!("| grp | case | polys out | max bits | {} | N |", TYPES.join(" | "));
    println!("|---|---|---:|---:|{}---:|", "---:|".repeat(TYPES.len()));
    for (g, name, n, bits, res) in &rows {
        let cells: Vec<String> = res.iter().map(|(t, _)| fmt_dur(t.cpu_median)).collect();
        let reps = res.iter().map(|(t, _)| t.reps).min().unwrap_or(0);
        println!("| {g} | {name} | {n} | {bits} | {} | {reps} |", cells.join(" | "));
    }
    println!("\nRatios of median CPU times (< 1 = faster than the baseline):\n");
    let pairs: [(usize, usize, &str); 7] = [
        (1, 0, "Fast<BigInt>/Int"),
        (2, 0, "Fast<Rug>/Int"),
        (3, 0, "Fast<Mal>/Int"),
        (4, 0, "BigInt/Int"),
        (5, 4, "Rug/BigInt"),
        (6, 4, "Mal/BigInt"),
        (3, 2, "Fast<Mal>/Fast<Rug>"),
    ];
    let heads: Vec<&str> = pairs.iter().map(|p| p.2).collect();
    println!("| grp | case | {} |", heads.join(" | "));
    println!("|---|---|{}", "---:|".repeat(pairs.len()));
    let mut logs: Vec<(char, Vec<f64>)> = Vec::new();
    for (g, name, _, _, res) in &rows {
        let rs: Vec<f64> = pairs.iter().map(|(a, b, _)| med(&res[*a].0) / med(&res[*b].0)).collect();
        let cells: Vec<String> = rs.iter().map(|r| format!("{r:.2}")).collect();
        println!("| {g} | {name} | {} |", cells.join(" | "));
        logs.push((g.chars().next().unwrap(), rs.iter().map(|r| r.ln()).collect()));
    }
    for grp in ['a', 'b', 'c'] {
        let sel: Vec<&Vec<f64>> = logs.iter().filter(|l| l.0 == grp).map(|l| &l.1).collect();
        if sel.is_empty() {
            continue;
        }
        let cells: Vec<String> = (0..pairs.len())
            .map(|i| format!("{:.2}", (sel.iter().map(|l| l[i]).sum::<f64>() / sel.len() as f64).exp()))
            .collect();
        println!("| {grp} | *geometric mean ({} cases)* | {} |", sel.len(), cells.join(" | "));
    }
    println!("\nWall clock, median / best over the N runs:\n");
    println!("| case | {} |", TYPES.join(" | "));
    println!("|---|{}", "---:|".repeat(TYPES.len()));
    for (_, name, _, _, res) in &rows {
        let cells: Vec<String> = res
            .iter()
            .map(|(t, _)| format!("{} / {}", fmt_dur(t.median), fmt_dur(t.best)))
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
}
