//! The nine seed cases of section 4.1.2 of the thesis: projection size per level, cells,
//! leaves and decomposition time (median, min, max of repeated runs). Tiled cases are
//! written out as polynomial systems with parametric tile sizes w, h and tile loops
//! outside point loops (w, h, [p,] t1, t2, o1, o2).
//!
//! Times: the median wall time with the default thread pool (parallel lifting), and the
//! median CPU time of runs on a one-thread pool (`CLOCK_PROCESS_CPUTIME_ID`), which
//! is what a single-threaded program is to be compared with: on the parallel runs, idle
//! rayon workers spin and add CPU time that buys nothing.
//!
//! QEPCAD B, when `qepcad` is on PATH, decomposes the same systems in the same run (same
//! variables and order): its own `d-stat` CPU time of the partial CAD (whole milliseconds,
//! so the mean over repeated runs, whose rounding dithers), its leaf counts for the partial
//! and the full CAD, and the ratio of our one-thread CPU median to its mean. Each QEPCAD
//! run has a time limit; columns stay empty when it is missing or fails.
//!
//! Run: `cargo bench -p cad --bench seed` (add a case name to run only matching cases,
//! `--no-qepcad` to leave QEPCAD out, `--stats` for the counters of one run per case,
//! `--runs=N` for exactly N runs per pool, e.g. to count instructions under callgrind as
//! the difference of two run counts, free of start-up costs).

/// The allocator the `polyscan` binary uses: exact arithmetic allocates small vectors
/// at a high rate, and glibc's malloc spent about a quarter of the CAD's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cad::formula::Formula;
use cad::{Cad, LiftStats};
use polys::Vars;
use std::time::{Duration, Instant};

#[path = "../tests/common/qepcad.rs"]
mod qepcad;
#[path = "../tests/common/seed_domains.rs"]
mod seed_domains;

/// Per QEPCAD run.
const QEPCAD_LIMIT: Duration = Duration::from_secs(60);

const RECT: [&str; 4] = ["1 <= X", "X <= 12", "1 <= Y", "Y <= 6"];
const TRI: [&str; 3] = ["0 <= X", "0 <= Y", "Y <= p - X"];

/// The tiled system of a domain: X, Y replaced by K diag(w, h) t + o, and
/// 0 <= K^-1 o <= (w - 1, h - 1).
fn tiled(domain: &[&str], x: &str, y: &str, inv: [&str; 2]) -> Vec<String> {
    let mut out: Vec<String> = domain
        .iter()
        .map(|c| {
            c.replace('X', &format!("({x})"))
                .replace('Y', &format!("({y})"))
        })
        .collect();
    out.extend([
        "w >= 1".into(),
        "h >= 1".into(),
        format!("0 <= {}", inv[0]),
        format!("{} <= w - 1", inv[0]),
        format!("0 <= {}", inv[1]),
        format!("{} <= h - 1", inv[1]),
    ]);
    out
}

fn formula(vars: &Vars, constraints: &[String]) -> Formula {
    let cs: Vec<&str> = constraints.iter().map(String::as_str).collect();
    Formula::conjunction(vars, &cs).expect("constraints parse")
}

fn main() {
    // `cargo test --all-targets` runs benchmarks without `--bench`: nothing to measure then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut cases: Vec<(String, Vec<&str>, Vec<String>)> = seed_domains::CASES
        .iter()
        .map(|c| {
            (
                c.name.to_string(),
                c.vars.to_vec(),
                c.constraints.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    let tv = vec!["w", "h", "t1", "t2", "o1", "o2"];
    let tvp = vec!["p", "w", "h", "t1", "t2", "o1", "o2"];
    let rr = &seed_domains::RECT_RECT;
    cases.push((
        rr.name.into(),
        rr.vars.to_vec(),
        rr.constraints.iter().map(|s| s.to_string()).collect(),
    ));
    cases.push((
        "rect-par".into(),
        tv.clone(),
        tiled(&RECT, "w*t1 + h*t2 + o1", "h*t2 + o2", ["o1 - o2", "o2"]),
    ));
    cases.push((
        "rect-invpar".into(),
        tv,
        tiled(&RECT, "w*t1 - h*t2 + o1", "h*t2 + o2", ["o1 + o2", "o2"]),
    ));
    cases.push((
        "tri-rect".into(),
        tvp.clone(),
        tiled(&TRI, "w*t1 + o1", "h*t2 + o2", ["o1", "o2"]),
    ));
    cases.push((
        "tri-invpar".into(),
        tvp,
        tiled(&TRI, "w*t1 - h*t2 + o1", "h*t2 + o2", ["o1 + o2", "o2"]),
    ));

    // `--stats`: the lifting and sign counters of one run per case.
    let show_stats = std::env::args().any(|a| a == "--stats");
    let fixed_runs: Option<usize> =
        std::env::args().find_map(|a| a.strip_prefix("--runs=").and_then(|n| n.parse().ok()));
    // `--no-qepcad`: our side only (e.g. under a profiler).
    let exe = qepcad::find().filter(|_| !std::env::args().any(|a| a == "--no-qepcad"));
    if exe.is_none() {
        println!("(qepcad is not on PATH or --no-qepcad: no QEPCAD B columns)");
    }
    println!("| case | projection factors per level | cells | leaves | restarts | wall median | min | max | runs | CPU median, 1 thread | QEPCAD d-stat mean (runs) | QEPCAD leaves partial / full | ours (CPU, 1 thread) / QEPCAD |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, vars, constraints) in cases {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let v = Vars::from_names(vars.iter().copied());
        let f = formula(&v, &constraints);
        let mut times: Vec<Duration> = Vec::new();
        let mut summary = None;
        let budget = Duration::from_secs(20);
        let started = Instant::now();
        // The default pool first, then the one-thread pool, each in its own loop: a pool's
        // worker spins for a while after its job ends, and interleaved runs had the
        // one-thread pool's spinning worker take a core from the next parallel run (the
        // wall median of steinmetz read 1.97 ms interleaved, 1.13 ms alone).
        let more = |done: usize, started: Instant| match fixed_runs {
            Some(n) => done < n,
            None => done < 3 || (started.elapsed() < Duration::from_secs(2) && done < 200),
        };
        while more(times.len(), started) {
            let stats = LiftStats::default();
            let t = Instant::now();
            let cad = Cad::new(vec![f.clone()], vec![], vars.len(), &stats).expect("decomposes");
            times.push(t.elapsed());
            if times.len() == 1 && show_stats {
                eprintln!("{name}: {}", cad::stats_summary(&stats));
            }
            summary.get_or_insert_with(|| {
                (
                    cad.projection
                        .levels
                        .iter()
                        .map(Vec::len)
                        .collect::<Vec<_>>(),
                    cad.cell_count(),
                    cad.leaf_count(),
                    cad.restarts,
                )
            });
            if fixed_runs.is_none() && started.elapsed() > budget {
                break;
            }
        }
        // On a thread of its own that is itself the pool's only worker
        // (`use_current_thread`): `install` then runs the decomposition right there, and
        // the CPU time has no hand-over to another thread in it (for the smallest cases
        // that had been half of the figure). The pool's registry is leaked, as rayon
        // documents for such pools: one per case.
        let target = times.len();
        let mut cpu: Vec<Duration> = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let one_thread = rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .use_current_thread()
                        .build()
                        .expect("a one-thread pool");
                    let mut cpu = Vec::new();
                    let started = Instant::now();
                    while cpu.len() < target && (fixed_runs.is_some() || started.elapsed() < budget)
                    {
                        let c0 = process_cpu();
                        one_thread.install(|| {
                            Cad::new(vec![f.clone()], vec![], vars.len(), &LiftStats::default())
                                .expect("decomposes")
                        });
                        match (c0, process_cpu()) {
                            (Some(c0), Some(c1)) => cpu.push(c1.saturating_sub(c0)),
                            _ => break,
                        }
                    }
                    cpu
                })
                .join()
                .expect("the one-thread runs finish")
        });
        times.sort();
        cpu.sort();
        // QEPCAD's d-stat is CPU time: compare with ours in CPU time (all threads), which
        // also keeps other processes' load out of both.
        let cpu_median = cpu.get(cpu.len() / 2).map(|d| d.as_secs_f64() * 1e3);
        let (levels, cells, leaves, restarts) = summary.expect("at least one run");
        let median = times[times.len() / 2].as_secs_f64() * 1e3;
        let q = exe
            .as_deref()
            .map(|exe| measure_qepcad(exe, &name, &v, &f))
            .unwrap_or_default();
        let time = match &q.ms {
            Some((mean, runs)) => format!("{mean:.2} ms ({runs})"),
            None => "-".into(),
        };
        let count = |k: &Option<usize>| k.map_or("-".to_string(), |k| k.to_string());
        let ours = cpu_median.unwrap_or(median);
        let ratio = match &q.ms {
            Some((mean, _)) if *mean > 0.0 => format!("{:.2}", ours / mean),
            Some(_) => "(QEPCAD under its 1 ms clock tick)".into(),
            None => "-".into(),
        };
        println!(
            "| {name} | {levels:?} | {cells} | {leaves} | {restarts} | {median:.3} ms | {:.3} ms | {:.3} ms | {} | {} | {time} | {} / {} | {ratio} |",
            times[0].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
            times.len(),
            cpu_median.map_or("-".to_string(), |c| format!("{c:.3} ms")),
            count(&q.partial),
            count(&q.full),
        );
    }
}

/// QEPCAD B's figures for one case.
#[derive(Default)]
struct QepcadRow {
    /// Mean `d-stat` CPU time of the partial CAD in ms, and the number of runs.
    ms: Option<(f64, usize)>,
    partial: Option<usize>,
    full: Option<usize>,
}

/// Repeats QEPCAD's partial CAD (at least 5 runs, for 2 s, at most 50 runs) and counts the
/// leaves of its full CAD once. `d-stat` counts whole milliseconds, so a single run of a
/// sub-millisecond case says 0 or 1; the mean over runs estimates the fraction.
fn measure_qepcad(exe: &std::path::Path, name: &str, vars: &Vars, f: &Formula) -> QepcadRow {
    let mut row = QepcadRow::default();
    let label = name.split_whitespace().next().unwrap_or("case");
    let partial = qepcad::script(label, vars, f, false, &["d-number-leaf-cells", "d-stat"]);
    let started = Instant::now();
    let mut ms = Vec::new();
    while ms.len() < 5 || (started.elapsed() < Duration::from_secs(2) && ms.len() < 50) {
        let out = match qepcad::run_growing(exe, &partial, QEPCAD_LIMIT) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("{name}: QEPCAD partial CAD: {e}");
                break;
            }
        };
        match (qepcad::stat_ms(&out), qepcad::leaf_count(&out)) {
            (Some(t), Some(k)) => {
                ms.push(t as f64);
                row.partial = Some(k);
            }
            _ => {
                eprintln!("{name}: QEPCAD gave no d-stat or leaf count");
                break;
            }
        }
        // Slow cases: one run is measurement enough.
        if started.elapsed() > Duration::from_secs(10) {
            break;
        }
    }
    if !ms.is_empty() {
        row.ms = Some((ms.iter().sum::<f64>() / ms.len() as f64, ms.len()));
        let full = qepcad::script(label, vars, f, true, &["d-number-leaf-cells"]);
        match qepcad::run_growing(exe, &full, QEPCAD_LIMIT) {
            Ok(out) => row.full = qepcad::leaf_count(&out),
            Err(e) => eprintln!("{name}: QEPCAD full CAD: {e}"),
        }
    }
    row
}

/// CPU time of all threads of this process so far (`CLOCK_PROCESS_CPUTIME_ID`); `None`
/// where the clock is not available.
fn process_cpu() -> Option<Duration> {
    // The kernel's running total, including the current slice of a thread still on the
    // CPU (`/proc/*/schedstat` is updated only at scheduling events, which a thread that
    // never waits does not reach).
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call writes only into it.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
    ok.then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}
