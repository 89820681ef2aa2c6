//! The nine seed cases of section 4.1.2 of the thesis: projection size per level, cells,
//! leaves and decomposition time (median, min, max of repeated runs). Tiled cases are
//! written out as polynomial systems with parametric tile sizes w, h and tile loops
//! outside point loops (w, h, [p,] t1, t2, o1, o2).
//!
//! Run: `cargo bench -p cad --bench seed` (add a case name to run only matching cases).

use cad::formula::Formula;
use cad::{Cad, LiftStats};
use polys::Vars;
use std::time::{Duration, Instant};

#[path = "../tests/common/seed_domains.rs"]
mod seed_domains;

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
    cases.push((
        "rect-rect".into(),
        tv.clone(),
        tiled(&RECT, "w*t1 + o1", "h*t2 + o2", ["o1", "o2"]),
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

    println!("| case | projection factors per level | cells | leaves | restarts | median | min | max | runs |");
    println!("|---|---|---|---|---|---|---|---|---|");
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
        while times.len() < 3 || (started.elapsed() < Duration::from_secs(2) && times.len() < 200) {
            let stats = LiftStats::default();
            let t = Instant::now();
            let cad = Cad::new(vec![f.clone()], vec![], vars.len(), &stats).expect("decomposes");
            times.push(t.elapsed());
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
            if started.elapsed() > budget {
                break;
            }
        }
        times.sort();
        let (levels, cells, leaves, restarts) = summary.expect("at least one run");
        println!(
            "| {name} | {levels:?} | {cells} | {leaves} | {restarts} | {:.3} ms | {:.3} ms | {:.3} ms | {} |",
            times[times.len() / 2].as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
            times.len()
        );
    }
}
