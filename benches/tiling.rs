//! Generation time of the tiled seed cases (section 4.1.2 of the seed thesis) and the
//! other tiled examples: parametric sizes with both loop orders, and fixed sizes 4x3
//! (the setting in which isl can take them). Median, min and max of repeated runs of the
//! whole `polyscan gen` pipeline (read, tile, scan, print C).
//!
//! Run: `cargo bench --bench tiling` (add words to run only matching cases).

use codegen::input::parse_problem;
use codegen::{Pipeline, TileOrder, Tiling};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The tiling a file's header asks for (`# tile-shape:`, `# tile-sizes:`), with `sizes`
/// instead of the header's sizes when given.
fn tiling(path: &Path, sizes: Option<&str>, order: TileOrder) -> Option<Tiling> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let header = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|s| s.trim().to_string()))
    };
    Some(Tiling {
        shape: header("# tile-shape:"),
        sizes: sizes
            .map(str::to_string)
            .or_else(|| header("# tile-sizes:"))?,
        order,
        separate_full: true,
        cad_order: false,
        loop_order: None,
    })
}

/// Median, min, max in milliseconds and the number of runs, or `None` on an error.
fn measure(path: &Path, tiling: Tiling) -> Option<(f64, f64, f64, usize)> {
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 5 || (started.elapsed() < Duration::from_secs(1) && times.len() < 500) {
        let t = Instant::now();
        // The whole of `polyscan gen`: read, parse, tile, scan, print C.
        let text = std::fs::read_to_string(path).ok()?;
        let problem = parse_problem(&text).ok()?;
        let out = Pipeline::new(problem).tiling(tiling.clone()).run().ok()?;
        let g = &out.generated;
        g.emitter().fragment(&g.nodes).ok()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if started.elapsed() > Duration::from_secs(20) {
            break;
        }
    }
    times.sort_by(f64::total_cmp);
    Some((
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        times.len(),
    ))
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
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/tiling");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pset"))
        .collect();
    files.sort();
    println!("| case | sizes | loop order | median | min | max | runs |");
    println!("|---|---|---|---|---|---|---|");
    for path in files {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let dims =
            tiling(&path, None, TileOrder::TilesOutside).map_or(0, |t| t.sizes.split(',').count());
        let fixed = ["4", "3", "2"][..dims.min(3)].join(",");
        let variants = [
            ("parametric", None, TileOrder::TilesOutside, "tiles outside"),
            ("parametric", None, TileOrder::Interleaved, "interleaved"),
            (
                "fixed",
                Some(fixed.as_str()),
                TileOrder::TilesOutside,
                "tiles outside",
            ),
        ];
        for (kind, sizes, order, label) in variants {
            let sizes_text = sizes.map_or(kind.to_string(), |s| format!("{kind} {s}"));
            match tiling(&path, sizes, order).and_then(|t| measure(&path, t)) {
                Some((med, min, max, runs)) => println!(
                    "| {name} | {sizes_text} | {label} | {med:.3} ms | {min:.3} ms | {max:.3} ms | {runs} |"
                ),
                None => println!("| {name} | {sizes_text} | {label} | (not supported) | | | |"),
            }
        }
    }
}
