//! Generation time of the tiled seed cases (section 4.1.2 of the seed thesis) and the
//! other tiled examples: parametric sizes with both loop orders, and fixed sizes 4x3
//! (the setting in which isl can take them). Median, min and max of repeated runs of the
//! whole `polyscan gen` pipeline (read, tile, scan, print C).
//!
//! Run: `cargo bench --bench tiling` (add words to run only matching cases).

use polyscan::cli::gen::{emit, generate_file, Choices, Emit, Engine, Limits};
use polyscan::cli::tile::{TileFlags, TileOrderArg};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn flags(path: &Path, sizes: Option<&str>, order: TileOrderArg) -> TileFlags {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let header = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|s| s.trim().to_string()))
    };
    TileFlags {
        tile_shape: header("# tile-shape:"),
        tile_sizes: sizes
            .map(str::to_string)
            .or_else(|| header("# tile-sizes:")),
        tile_order: order,
        no_separate: false,
    }
}

/// Median, min, max in milliseconds and the number of runs, or `None` on an error.
fn measure(path: &Path, tiling: TileFlags) -> Option<(f64, f64, f64, usize)> {
    let choices = Choices {
        order: None,
        context: None,
        convex: false,
        tiling,
        engine: Engine::Auto,
        separate: false,
    };
    let limits = Limits {
        timeout: None,
        max_cells: None,
    };
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 5 || (started.elapsed() < Duration::from_secs(1) && times.len() < 500) {
        let t = Instant::now();
        let out = generate_file(path, &choices, limits).ok()?;
        emit(&out.g, Emit::C).ok()?;
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
        let dims = flags(&path, None, TileOrderArg::Outside)
            .tile_sizes
            .map_or(0, |s| s.split(',').count());
        let fixed = ["4", "3", "2"][..dims.min(3)].join(",");
        let variants = [
            ("parametric", None, TileOrderArg::Outside, "tiles outside"),
            ("parametric", None, TileOrderArg::Interleaved, "interleaved"),
            (
                "fixed",
                Some(fixed.as_str()),
                TileOrderArg::Outside,
                "tiles outside",
            ),
        ];
        for (kind, sizes, order, label) in variants {
            let sizes_text = sizes.map_or(kind.to_string(), |s| format!("{kind} {s}"));
            match measure(&path, flags(&path, sizes, order)) {
                Some((med, min, max, runs)) => println!(
                    "| {name} | {sizes_text} | {label} | {med:.3} ms | {min:.3} ms | {max:.3} ms | {runs} |"
                ),
                None => println!("| {name} | {sizes_text} | {label} | (not supported) | | | |"),
            }
        }
    }
}
