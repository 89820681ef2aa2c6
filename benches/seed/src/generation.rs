//! polyscan's generation time and peak memory per seed case, each measured in a child
//! process (this binary re-executed with `--child`) so that the peak resident set
//! (`VmHWM`) is the case's own and not that of the cases before it.

use crate::cases::{find_case, header_tiling};
use crate::process::output_within;
use clap::Args;
use codegen::input::parse_problem;
use codegen::{Generated, Pipeline, Shape, Tiling};
use std::process::Command;
use std::time::Duration;

/// Limits on each generation (as `polyscan gen` takes them).
#[derive(Args, Debug, Clone, Copy)]
pub struct Limits {
    /// Stop a generation after this many seconds of decomposition.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Stop a generation after building this many cells.
    #[arg(long, value_name = "N")]
    pub max_cells: Option<u64>,
}

/// Parse, tile, generate, as `polyscan gen` does on the file (with `--separate` when
/// `separate`); the message of a failure is its first line in the table.
pub fn generate_case(
    src: &str,
    tiling: Option<Tiling>,
    limits: &Limits,
    separate: bool,
) -> Result<Generated, String> {
    let p = parse_problem(src).map_err(|e| e.to_string())?;
    let mut pipeline = Pipeline::new(p).shape(if separate {
        Shape::Separate
    } else {
        Shape::Compact
    });
    if let Some(t) = tiling {
        pipeline = pipeline.tiling(t);
    }
    if let Some(n) = limits.max_cells {
        pipeline = pipeline.max_cells(n);
    }
    if let Some(t) = limits.timeout.filter(|t| t.is_finite() && *t >= 0.0) {
        pipeline = pipeline.time_limit(Duration::from_secs_f64(t.min(1e9)));
    }
    pipeline
        .run()
        .map(|o| o.generated)
        .map_err(|e| e.to_string())
}

/// The self-contained C function of a generated program.
pub fn c_function(g: &Generated) -> Result<String, String> {
    g.emitter()
        .function(&g.nodes, &[])
        .map_err(|e| format!("cannot print the code in 64-bit C: {e}"))
}

/// The peak resident set of this process in KiB (`VmHWM`), where Linux reports it.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Child mode: `runs` generations of one case (parse + generate + print C); prints the
/// CPU times in nanoseconds, ` ; ` and the peak KiB.
pub fn child(name: &str, runs: usize, limits: &Limits, separate: bool) -> Result<(), String> {
    let case = find_case(name)?;
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let t = polyscan_isl::process_cpu_time();
        let g = generate_case(case.src, header_tiling(case.src, false), limits, separate)?;
        let text = c_function(&g)?;
        times.push(
            polyscan_isl::process_cpu_time()
                .saturating_sub(t)
                .as_nanos(),
        );
        std::hint::black_box(text);
    }
    let shown: Vec<String> = times.iter().map(u128::to_string).collect();
    println!(
        "{} ; {}",
        shown.join(" "),
        peak_kib().map_or("-".to_string(), |k| k.to_string())
    );
    Ok(())
}

/// polyscan's generation of one case, measured in a child process.
pub struct GenRow {
    /// Median CPU time.
    pub median: Duration,
    /// Fastest run.
    pub min: Duration,
    /// Slowest run.
    pub max: Duration,
    /// The child's peak resident set.
    pub peak_kib: Option<u64>,
}

/// Runs the child for case `name` within the wall-time `limit` and reads its report.
pub fn measure_gen(
    name: &str,
    runs: usize,
    limit: Duration,
    limits: &Limits,
    separate: bool,
) -> Result<GenRow, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["--child", name, "--runs", &runs.to_string()]);
    if separate {
        cmd.arg("--separate");
    }
    if let Some(t) = limits.timeout {
        cmd.args(["--timeout", &t.to_string()]);
    }
    if let Some(n) = limits.max_cells {
        cmd.args(["--max-cells", &n.to_string()]);
    }
    let (ok, out) = output_within(cmd, limit)?;
    if !ok {
        return Err(out);
    }
    let (times, peak) = out
        .trim()
        .split_once(" ; ")
        .ok_or_else(|| format!("unexpected child output '{}'", out.trim()))?;
    let mut times: Vec<Duration> = times
        .split_whitespace()
        .filter_map(|t| t.parse::<u64>().ok())
        .map(Duration::from_nanos)
        .collect();
    times.sort();
    let (Some(&min), Some(&max)) = (times.first(), times.last()) else {
        return Err("the child reported no times".into());
    };
    Ok(GenRow {
        median: times[times.len() / 2],
        min,
        max,
        peak_kib: peak.trim().parse().ok(),
    })
}
