//! Generation time per shipped example (parse, decompose or scan, lower, print C) with the
//! options `polyscan gen` uses by default: median, min and max of repeated runs, and the
//! size of the output.
//!
//! Run: `cargo bench -p codegen --bench gen` (add words to run only matching examples).

use cad::LiftStats;
use codegen::ast::shape;
use codegen::input::parse_problem;
use codegen::{generate, GenOptions};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The allocator of the `polyscan` binary (see the root Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `cargo test --all-targets` runs benchmarks without `--bench`: nothing to measure then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<PathBuf> = ["seed", "domains"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root.join(d))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pset"))
        .collect();
    files.sort();
    // As `polyscan gen` by default: polyhedra through the linear scanner, the rest
    // through the CAD.
    let options = GenOptions {
        linear: true,
        ..GenOptions::default()
    };
    println!("| example | median | min | max | runs | loops | ifs |");
    println!("|---|---|---|---|---|---|---|");
    for path in files {
        let name = format!(
            "{}/{}",
            path.parent()
                .and_then(|p| p.file_name())
                .unwrap_or_default()
                .to_string_lossy(),
            path.file_stem().unwrap_or_default().to_string_lossy()
        );
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let src = std::fs::read_to_string(&path).expect("readable example");
        let mut times = Vec::new();
        let mut size = None;
        let started = Instant::now();
        while times.len() < 5 || (started.elapsed() < Duration::from_secs(1) && times.len() < 500) {
            let t = Instant::now();
            let Ok(problem) = parse_problem(&src) else {
                break;
            };
            let Ok(g) = generate(&problem, &options, &LiftStats::default()) else {
                break;
            };
            let text = g.emitter().fragment(&g.nodes);
            times.push(t.elapsed());
            size.get_or_insert((shape(&g.nodes), text.map(|t| t.len()).unwrap_or(0)));
            if started.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        let Some((s, _)) = size else {
            println!("| {name} | (error: no code) | | | | | |");
            continue;
        };
        times.sort();
        println!(
            "| {name} | {:.3} ms | {:.3} ms | {:.3} ms | {} | {} | {} |",
            times[times.len() / 2].as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
            times.len(),
            s.loops,
            s.guards
        );
    }
}
