//! `polyscan bench`: the seed thesis's benchmark (section 4.1.2) on this machine.
//!
//! Table 1, generation: for each seed case polyscan's generation CPU time (median, min and
//! max of repeated runs) and peak memory, each case in a child process (this binary
//! re-executed with the hidden `--child` flag) so that the peak resident set (`VmHWM`) is
//! the case's own; optionally QEPCAD B on the same polynomial system (`--qepcad`) and isl
//! on the fixed-size tiled variants (`--isl`), ratios from the same run, and the thesis's
//! published times beside them (another machine, 2018). `--timeout` and `--max-cells`
//! bound each generation as in `polyscan gen`; a case that reaches a limit shows the
//! reason in its row and the others still run.
//!
//! Table 2, run time of the generated code (`--isl`): polyscan's and isl's loops for the
//! same affine problem, compiled with `gcc -O2` against a statement macro that only adds a
//! hash of its arguments to a checksum, so that the loops' own overhead is measured; best
//! of several batches, CPU time measured inside the program. Equal checksums say both
//! programs visited the same instances.

use super::compare::{compare_source, CompareOptions, Report};
use super::files::{input_diagnostic, write_atomically};
use super::gen::{pipeline_diagnostic, Limits};
use super::tile::TileFlags;
use super::{Diagnostic, ExitCode};
use clap::Args;
use codegen::input::{parse_problem, Problem};
use codegen::{Generated, Pipeline, Shape};
use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Benchmark generation against QEPCAD B, isl and the seed thesis's published times.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Cases to run (default: all), e.g. `nonconvex2 rect-par`; `polyscan bench --list`
    /// names them.
    pub cases: Vec<String>,
    /// Also give each system to QEPCAD B (`qepcad` on PATH; skipped with a note if not).
    #[arg(long)]
    pub qepcad: bool,
    /// Also run isl on the affine and fixed-size tiled variants, and time the generated
    /// code of both tools (skipped with a note without isl).
    #[arg(long)]
    pub isl: bool,
    /// Write the Markdown tables to this file as well (atomically).
    #[arg(long, value_name = "FILE.md")]
    pub out: Option<PathBuf>,
    /// Generation runs per case (median, min and max are shown).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub runs: usize,
    /// Fewer repetitions, shorter time limits, smaller parameter values.
    #[arg(long)]
    pub quick: bool,
    /// Print the case names and exit.
    #[arg(long)]
    pub list: bool,
    /// Generate in the CAD's cell-by-cell shape (as `polyscan gen --separate`), which is
    /// what QEPCAD B's times and the thesis's compare with; the default is what `gen`
    /// prints (the compact shape needs no decomposition for the untiled seed cases).
    #[arg(long)]
    pub separate: bool,
    /// Limits on each generation (as for `polyscan gen`); a case that reaches one shows
    /// the reason in its row instead of times.
    #[command(flatten)]
    pub limits: Limits,
    /// Internal: time the generation of one case in this process and print the times and
    /// the peak resident set (used by the parent so that memory is measured per case).
    #[arg(long, hide = true, value_name = "CASE")]
    pub child: Option<String>,
}

/// A seed case of section 4.1.2.
struct Case {
    name: &'static str,
    src: &'static str,
    /// The thesis's published generation time (Table 4.4, all optimisations on).
    thesis: &'static str,
    /// The same in seconds, for the ratio.
    thesis_secs: f64,
}

const CASES: &[Case] = &[
    Case {
        name: "nonconvex",
        src: include_str!("../../examples/seed/nonconvex.pset"),
        thesis: "5.7 ms",
        thesis_secs: 5.7e-3,
    },
    Case {
        name: "nonconvex2",
        src: include_str!("../../examples/seed/nonconvex2.pset"),
        thesis: "22.3 ms",
        thesis_secs: 22.3e-3,
    },
    Case {
        name: "sphere",
        src: include_str!("../../examples/seed/sphere.pset"),
        thesis: "3.5 ms",
        thesis_secs: 3.5e-3,
    },
    Case {
        name: "steinmetz",
        src: include_str!("../../examples/seed/steinmetz.pset"),
        thesis: "80.5 ms",
        thesis_secs: 80.5e-3,
    },
    Case {
        name: "rect-rect",
        src: include_str!("../../examples/tiling/rect-rect.pset"),
        thesis: "0.05-0.06 s",
        thesis_secs: 0.055,
    },
    Case {
        name: "rect-par",
        src: include_str!("../../examples/tiling/rect-par.pset"),
        thesis: "2 s",
        thesis_secs: 2.0,
    },
    Case {
        name: "rect-invpar",
        src: include_str!("../../examples/tiling/rect-invpar.pset"),
        thesis: "6 s",
        thesis_secs: 6.0,
    },
    Case {
        name: "tri-rect",
        src: include_str!("../../examples/tiling/tri-rect.pset"),
        thesis: "2 s (affine proj.)",
        thesis_secs: 2.0,
    },
    Case {
        name: "tri-invpar",
        src: include_str!("../../examples/tiling/tri-invpar.pset"),
        thesis: "9 s (affine proj.)",
        thesis_secs: 9.0,
    },
];

/// An affine case of the run-time table: the file, the parameter values (full and quick
/// run) and how often one batch repeats the scan (for the small constant domains).
struct RunCase {
    name: &'static str,
    src: &'static str,
    params: &'static [(&'static str, i64)],
    quick_params: &'static [(&'static str, i64)],
    reps: u64,
}

const RUN_CASES: &[RunCase] = &[
    RunCase {
        name: "triangular",
        src: include_str!("../../examples/domains/triangular.pset"),
        params: &[("n", 4000)],
        quick_params: &[("n", 1000)],
        reps: 1,
    },
    RunCase {
        name: "banded",
        src: include_str!("../../examples/domains/banded.pset"),
        params: &[("n", 4000), ("b", 500)],
        quick_params: &[("n", 1000), ("b", 100)],
        reps: 1,
    },
    RunCase {
        name: "syrk-lower",
        src: include_str!("../../examples/domains/syrk-lower.pset"),
        params: &[("n", 500), ("m", 64)],
        quick_params: &[("n", 200), ("m", 16)],
        reps: 1,
    },
    RunCase {
        name: "two-params",
        src: include_str!("../../examples/domains/two-params.pset"),
        params: &[("n", 3000), ("m", 2000)],
        quick_params: &[("n", 800), ("m", 600)],
        reps: 1,
    },
    RunCase {
        name: "rect-rect",
        src: include_str!("../../examples/tiling/rect-rect.pset"),
        params: &[],
        quick_params: &[],
        reps: 100_000,
    },
    RunCase {
        name: "rect-par",
        src: include_str!("../../examples/tiling/rect-par.pset"),
        params: &[],
        quick_params: &[],
        reps: 100_000,
    },
    RunCase {
        name: "rect-invpar",
        src: include_str!("../../examples/tiling/rect-invpar.pset"),
        params: &[],
        quick_params: &[],
        reps: 100_000,
    },
    RunCase {
        name: "tri-rect",
        src: include_str!("../../examples/tiling/tri-rect.pset"),
        params: &[("p", 4000)],
        quick_params: &[("p", 1000)],
        reps: 1,
    },
    RunCase {
        name: "tri-invpar",
        src: include_str!("../../examples/tiling/tri-invpar.pset"),
        params: &[("p", 4000)],
        quick_params: &[("p", 1000)],
        reps: 1,
    },
];

/// Fixed tile sizes for isl, which cannot take parametric ones.
const FIXED_SIZES: &str = "4,3";

/// The tile flags in a file's header (`# tile-shape:`, `# tile-sizes:`); `fixed` replaces
/// the sizes by [`FIXED_SIZES`].
fn header_flags(src: &str, fixed: bool) -> TileFlags {
    let field = |key: &str| {
        src.lines()
            .filter_map(|l| l.trim().strip_prefix('#'))
            .find_map(|l| l.trim().strip_prefix(key))
            .map(|v| v.trim().to_string())
    };
    let sizes = field("tile-sizes:");
    TileFlags {
        tile_shape: sizes.as_ref().and(field("tile-shape:")),
        tile_sizes: sizes.map(|s| if fixed { FIXED_SIZES.to_string() } else { s }),
        ..TileFlags::default()
    }
}

/// Parse, tile, generate and print C, as `polyscan gen` does on the file.
fn generate_case(
    name: &str,
    src: &str,
    flags: &TileFlags,
    limits: &Limits,
    separate: bool,
) -> Result<Generated, Diagnostic> {
    let p = parse_problem(src).map_err(|e| input_diagnostic(name, &e))?;
    let mut pipeline = Pipeline::new(p).shape(if separate {
        Shape::Separate
    } else {
        Shape::Compact
    });
    if let Some(t) = flags.tiling() {
        pipeline = pipeline.tiling(t);
    }
    limits
        .apply(pipeline)
        .run()
        .map(|o| o.generated)
        .map_err(|e| pipeline_diagnostic(name, e))
}

fn c_function(g: &Generated) -> Result<String, Diagnostic> {
    g.emitter().function(&g.nodes, &[]).map_err(|e| {
        Diagnostic::new(
            ExitCode::Resource,
            format!("cannot print the code in 64-bit C: {e}"),
        )
    })
}

/// The problem whose CAD QEPCAD is asked for: the file's, or its parametric tiling.
fn system(case: &Case) -> Result<Problem, Diagnostic> {
    let p = parse_problem(case.src).map_err(|e| input_diagnostic(case.name, &e))?;
    Ok(match header_flags(case.src, false).apply(&p)? {
        Some(t) => t.problem,
        None => p,
    })
}

/// The peak resident set of this process in KiB (`VmHWM`), where Linux reports it.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Child mode: `runs` generations of one case; prints `times-ns... ; peak-KiB`.
fn child(name: &str, runs: usize, limits: &Limits, separate: bool) -> Result<(), Diagnostic> {
    let case = find_case(name)?;
    let flags = header_flags(case.src, false);
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let t = polyscan_isl::process_cpu_time();
        let g = generate_case(case.name, case.src, &flags, limits, separate)?;
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

fn find_case(name: &str) -> Result<&'static Case, Diagnostic> {
    CASES.iter().find(|c| c.name == name).ok_or_else(|| {
        Diagnostic::new(
            ExitCode::BadInput,
            format!(
                "unknown case '{name}'; the cases are: {}",
                CASES.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

/// Runs a command with a time limit, returning its standard output.
fn output_within(mut cmd: Command, limit: Duration) -> Result<(bool, String), String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let (Some(mut out), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("no pipe to the child".into());
    };
    // Both pipes drained on threads so that a chatty child cannot block on a full pipe.
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let ereader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("time limit of {} s reached", limit.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("waiting: {e}"));
            }
        }
    };
    let out = reader.join().unwrap_or_default();
    let err = ereader.join().unwrap_or_default();
    if status.success() {
        Ok((true, out))
    } else {
        Ok((false, err.trim().to_string()))
    }
}

/// polyscan's generation of one case, measured in a child process.
struct GenRow {
    median: Duration,
    min: Duration,
    max: Duration,
    peak_kib: Option<u64>,
}

fn measure_gen(
    name: &str,
    runs: usize,
    limit: Duration,
    limits: &Limits,
    separate: bool,
) -> Result<GenRow, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["bench", "--child", name, "--runs", &runs.to_string()]);
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

/// QEPCAD's result on one case.
struct QepcadRow {
    /// Mean `d-stat` milliseconds of the partial CAD and the number of runs.
    ms: Option<(f64, usize)>,
    partial: Option<usize>,
    /// Full CAD: leaves, or why not.
    full: Result<usize, String>,
    failure: Option<String>,
}

fn measure_qepcad(exe: &std::path::Path, case: &Case, quick: bool) -> QepcadRow {
    use cad::qepcad;
    let mut row = QepcadRow {
        ms: None,
        partial: None,
        full: Err("not tried".into()),
        failure: None,
    };
    let problem = match system(case) {
        Ok(p) => p,
        Err(e) => {
            row.failure = Some(e.to_string());
            return row;
        }
    };
    let vars = problem.vars();
    let mut parts = vec![problem.context.clone()];
    parts.extend(problem.statements.iter().map(|s| s.domain.clone()));
    let f = cad::formula::Formula::and(parts);
    let limit = Duration::from_secs(if quick { 15 } else { 120 });
    let partial = qepcad::script(
        case.name,
        &vars,
        &f,
        false,
        &["d-number-leaf-cells", "d-stat"],
    );
    // d-stat counts whole milliseconds: repeat small cases (at least 3 runs, for 2 s) and
    // take the mean; one run of a slow case is measurement enough.
    let started = Instant::now();
    let mut ms = Vec::new();
    let min_runs = if quick { 1 } else { 3 };
    while ms.len() < min_runs || (started.elapsed() < Duration::from_secs(2) && ms.len() < 20) {
        let out = match qepcad::run_growing(exe, &partial, limit) {
            Ok(out) => out,
            Err(e) => {
                row.failure = Some(e.to_string());
                break;
            }
        };
        match (qepcad::stat_ms(&out), qepcad::leaf_count(&out)) {
            (Some(t), Some(k)) => {
                ms.push(t as f64);
                row.partial = Some(k);
            }
            _ => {
                row.failure = Some("no d-stat or leaf count in QEPCAD's output".into());
                break;
            }
        }
        if started.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    if ms.is_empty() {
        return row;
    }
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    row.ms = Some((mean, ms.len()));
    // The full CAD only where the partial one was cheap: it has many times the cells.
    row.full = if mean > if quick { 100.0 } else { 2000.0 } {
        Err("not tried (partial CAD too slow)".into())
    } else {
        let full = qepcad::script(case.name, &vars, &f, true, &["d-number-leaf-cells"]);
        match qepcad::run_growing(exe, &full, limit) {
            Ok(out) => qepcad::leaf_count(&out).ok_or_else(|| "no leaf count".to_string()),
            Err(e) => Err(e.to_string()),
        }
    };
    row
}

/// isl and polyscan on the same fixed-size (or untiled affine) problem, via `compare`.
fn isl_report(name: &str, src: &str, runs: usize) -> Result<Report, Diagnostic> {
    let opts = CompareOptions {
        runs,
        tiling: header_flags(src, true),
        ..CompareOptions::default()
    };
    compare_source(src, name, &[], &opts)
}

fn ms(d: Duration) -> String {
    fmt_ms(d.as_secs_f64() * 1e3)
}

fn fmt_ms(v: f64) -> String {
    if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else if v >= 10.0 {
        format!("{v:.0} ms")
    } else if v >= 1.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.3} ms")
    }
}

fn ratio(a: f64, b: f64) -> String {
    if b <= 0.0 || !a.is_finite() || !b.is_finite() {
        "-".into()
    } else {
        let r = a / b;
        if r >= 10.0 {
            format!("{r:.0}")
        } else if r >= 0.01 {
            format!("{r:.2}")
        } else {
            // Two significant digits however small.
            format!("{r:.1e}")
        }
    }
}

/// The statement macros of the run-time harness: each adds a hash of its arguments to a
/// checksum. The xor keeps gcc from replacing a loop by a closed-form sum (its scalar
/// evolution cannot see through it), so every instance is executed.
fn checksum_macros(statements: &[(String, usize)]) -> String {
    const MULS: [&str; 6] = [
        "0x9E3779B97F4A7C15ULL",
        "0xC2B2AE3D27D4EB4FULL",
        "0x165667B19E3779F9ULL",
        "0x27D4EB2F165667C5ULL",
        "0x85EBCA77C2B2AE63ULL",
        "0xFF51AFD7ED558CCDULL",
    ];
    let mut out = String::from("static uint64_t ps_sum;\n");
    for (k, (name, arity)) in statements.iter().enumerate() {
        let args: Vec<String> = (0..*arity).map(|i| format!("a{i}")).collect();
        let hash: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(i, a)| format!("((uint64_t)({a}) * {})", MULS[i % MULS.len()]))
            .collect();
        let hash = if hash.is_empty() {
            "0".to_string()
        } else {
            hash.join(" ^ ")
        };
        let _ = writeln!(
            out,
            "#define {name}({}) (ps_sum += ({hash}) + {})",
            args.join(", "),
            k + 1
        );
    }
    out
}

/// Compiles `scan_c` with the checksum macros and a driver that runs one unmeasured scan
/// (its checksum is printed), then `batches` batches of `reps` scans, and prints the best
/// batch's CPU seconds.
fn time_program(
    cc: &str,
    scan_c: &str,
    statements: &[(String, usize)],
    params: &[i64],
    reps: u64,
    batches: u32,
) -> Result<(f64, u64), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut main = String::from(
        "#define _POSIX_C_SOURCE 199309L\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>\n",
    );
    main.push_str(&checksum_macros(statements));
    main.push_str("#include \"scan.c\"\n");
    main.push_str(
        "static double ps_now(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }\n",
    );
    let args: Vec<String> = (0..params.len())
        .map(|i| format!("(int64_t)atoll(argv[{}])", i + 3))
        .collect();
    let _ = writeln!(
        main,
        "int main(int argc, char **argv) {{\n  if (argc < {}) return 2;\n  long long reps = atoll(argv[1]); int batches = atoi(argv[2]);\n  ps_sum = 0; scan({a}); uint64_t check = ps_sum;\n  double best = 1e300;\n  for (int b = 0; b < batches; b++) {{\n    double t0 = ps_now();\n    for (long long r = 0; r < reps; r++) scan({a});\n    double t = ps_now() - t0; if (t < best) best = t;\n  }}\n  printf(\"%.9f %llu %llu\\n\", best, (unsigned long long)check, (unsigned long long)ps_sum);\n  return 0;\n}}",
        params.len() + 3,
        a = args.join(", ")
    );
    std::fs::write(dir.path().join("scan.c"), scan_c).map_err(|e| e.to_string())?;
    std::fs::write(dir.path().join("main.c"), main).map_err(|e| e.to_string())?;
    let exe = dir.path().join("run");
    let out = Command::new(cc)
        .args(["-std=c99", "-O2", "-w", "-o"])
        .arg(&exe)
        .arg(dir.path().join("main.c"))
        .current_dir(dir.path())
        .output()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the C compiler rejected the code: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut cmd = Command::new(&exe);
    cmd.arg(reps.to_string()).arg(batches.to_string());
    cmd.args(params.iter().map(i64::to_string));
    let (ok, text) = output_within(cmd, Duration::from_secs(600))?;
    if !ok {
        return Err(format!("the program failed: {text}"));
    }
    let mut it = text.split_whitespace();
    let secs = it.next().and_then(|s| s.parse::<f64>().ok());
    let check = it.next().and_then(|s| s.parse::<u64>().ok());
    match (secs, check) {
        (Some(s), Some(c)) => Ok((s, c)),
        _ => Err(format!("unexpected output '{}'", text.trim())),
    }
}

/// Values for the named parameters, in the order `names` lists them.
fn values(names: &[String], given: &[(&str, i64)]) -> Result<Vec<i64>, String> {
    names
        .iter()
        .map(|n| {
            given
                .iter()
                .find(|(g, _)| g == n)
                .map(|&(_, v)| v)
                .ok_or_else(|| format!("no value for parameter {n}"))
        })
        .collect()
}

struct RunRow {
    shown: String,
    polyscan: f64,
    isl: f64,
    same: bool,
}

fn measure_run(
    rc: &RunCase,
    quick: bool,
    cc: &str,
    runs: usize,
    limits: &Limits,
) -> Result<RunRow, String> {
    let given = if quick { rc.quick_params } else { rc.params };
    let flags = header_flags(rc.src, true);
    let g = generate_case(rc.name, rc.src, &flags, limits, false).map_err(|d| d.to_string())?;
    let poly_c = c_function(&g).map_err(|d| d.to_string())?;
    let report = isl_report(rc.name, rc.src, runs).map_err(|d| d.to_string())?;
    let isl_c = polyscan_isl::harness::isl_scan_function(&report.isl.code, &report.input.params);
    let poly_names: Vec<String> = (0..g.nparams).map(|v| g.vars.name(v).to_string()).collect();
    let batches = if quick { 3 } else { 7 };
    let (tp, cp) = time_program(
        cc,
        &poly_c,
        &g.statements,
        &values(&poly_names, given)?,
        rc.reps,
        batches,
    )?;
    let (ti, ci) = time_program(
        cc,
        &isl_c,
        &g.statements,
        &values(&report.input.params, given)?,
        rc.reps,
        batches,
    )?;
    let shown: Vec<String> = given.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let mut shown = if shown.is_empty() {
        "-".to_string()
    } else {
        shown.join(", ")
    };
    if flags.tile_sizes.is_some() {
        shown.push_str(&format!("; tiles {FIXED_SIZES}"));
    }
    if rc.reps > 1 {
        shown.push_str(&format!("; {} scans per batch", rc.reps));
    }
    Ok(RunRow {
        shown,
        polyscan: tp,
        isl: ti,
        same: cp == ci,
    })
}

pub fn run(args: BenchArgs) -> Result<(), Diagnostic> {
    if let Some(name) = &args.child {
        return child(name, args.runs, &args.limits, args.separate);
    }
    if args.list {
        for c in CASES {
            println!("{}", c.name);
        }
        return Ok(());
    }
    let cases: Vec<&Case> = if args.cases.is_empty() {
        CASES.iter().collect()
    } else {
        args.cases
            .iter()
            .map(|n| find_case(n))
            .collect::<Result<_, _>>()?
    };
    let runs = if args.quick {
        args.runs.min(3)
    } else {
        args.runs
    }
    .max(1);
    let qepcad = if args.qepcad {
        let exe = cad::qepcad::find();
        if exe.is_none() {
            eprintln!("note: qepcad is not on PATH (apt-get install -y --no-install-recommends qepcad): no QEPCAD columns");
        }
        exe
    } else {
        None
    };
    let isl = args.isl && polyscan_isl::available();
    if args.isl && !isl {
        eprintln!(
            "note: this polyscan was built without isl ({}): no isl columns",
            polyscan_isl::INSTALL_HINT
        );
    }
    let gen_limit = Duration::from_secs(if args.quick { 60 } else { 600 });

    let mut md = String::new();
    let _ = writeln!(
        md,
        "## Generation (seed thesis, section 4.1.2)\n\n\
         polyscan: CPU time of parse + generate + print C, median (min-max) of {runs} runs in a \
         child process per case; peak memory is that process's VmHWM (it includes the \
         program's own few MiB). Tiled cases use parametric sizes w, h, tile loops outside."
    );
    if qepcad.is_some() {
        md.push_str(
            "QEPCAD B: the same system (tiled cases: the tiled polynomial system as `polyscan tile` prints it) over the same variables in the same order, partial CAD, `d-stat` CPU time (whole milliseconds, mean of the runs shown); leaves of the partial / full CAD (full CAD only where the partial one was cheap).\n",
        );
    }
    if isl {
        md.push_str(
            "isl: median CPU time of its AST generation on the same problem with fixed tile sizes 4,3 (it cannot take parametric ones), beside polyscan's time on exactly that input; untiled seed cases are polynomial, so isl does not apply.\n",
        );
    }
    md.push_str("Thesis: the published times (Table 4.4, all optimisations, Intel i7-4790, 2018): another machine, shown for orientation only.\n\n");
    let mut head = vec!["case", "polyscan median (min-max)", "peak memory"];
    if qepcad.is_some() {
        head.extend([
            "QEPCAD partial CAD",
            "QEPCAD leaves partial / full",
            "polyscan / QEPCAD",
        ]);
    }
    if isl {
        head.extend(["isl, tiles 4,3", "polyscan, tiles 4,3", "polyscan / isl"]);
    }
    head.extend(["thesis (other machine, 2018)", "polyscan / thesis"]);
    let _ = writeln!(md, "| {} |", head.join(" | "));
    let _ = writeln!(md, "|{}", "---|".repeat(head.len()));

    for case in &cases {
        eprintln!("bench: {} (polyscan, {runs} runs)", case.name);
        let mut row = vec![case.name.to_string()];
        let gen = measure_gen(case.name, runs, gen_limit, &args.limits, args.separate);
        let mine = match &gen {
            Ok(g) => {
                row.push(format!("{} ({}-{})", ms(g.median), ms(g.min), ms(g.max)));
                row.push(
                    g.peak_kib
                        .map_or("-".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
                );
                Some(g.median.as_secs_f64())
            }
            Err(e) => {
                eprintln!("bench: {}: polyscan failed: {e}", case.name);
                row.push(format!("failed: {}", e.lines().next().unwrap_or("")));
                row.push("-".into());
                None
            }
        };
        if let Some(exe) = &qepcad {
            eprintln!("bench: {} (QEPCAD B)", case.name);
            let q = measure_qepcad(exe, case, args.quick);
            match q.ms {
                Some((m, n)) => {
                    row.push(format!("{} ({n} runs)", fmt_ms(m)));
                    row.push(format!(
                        "{} / {}",
                        q.partial.map_or("-".into(), |k| k.to_string()),
                        match &q.full {
                            Ok(k) => k.to_string(),
                            Err(e) => e.clone(),
                        }
                    ));
                    row.push(match mine {
                        Some(s) if m > 0.0 => ratio(s * 1e3, m),
                        Some(_) => "(QEPCAD < 1 ms)".into(),
                        None => "-".into(),
                    });
                }
                None => {
                    let why = q.failure.unwrap_or_else(|| "no result".into());
                    eprintln!("bench: {}: QEPCAD: {why}", case.name);
                    row.push(format!("failed: {why}"));
                    row.push("-".into());
                    row.push("-".into());
                }
            }
        }
        if isl {
            let tiled = header_flags(case.src, false).tile_sizes.is_some();
            if tiled {
                eprintln!(
                    "bench: {} (isl and polyscan, tiles {FIXED_SIZES})",
                    case.name
                );
                match isl_report(case.name, case.src, runs) {
                    Ok(r) => {
                        row.push(ms(r.isl.median));
                        row.push(ms(r.polyscan.median));
                        row.push(ratio(
                            r.polyscan.median.as_secs_f64(),
                            r.isl.median.as_secs_f64(),
                        ));
                    }
                    Err(e) => {
                        row.push(format!("failed: {}", e.message));
                        row.push("-".into());
                        row.push("-".into());
                    }
                }
            } else {
                row.extend(["n/a (polynomial)".into(), "-".into(), "-".into()]);
            }
        }
        row.push(case.thesis.to_string());
        row.push(mine.map_or("-".into(), |s| ratio(s, case.thesis_secs)));
        let _ = writeln!(md, "| {} |", row.join(" | "));
    }

    if isl {
        md.push_str("\n## Run time of the generated code (gcc -O2)\n\n");
        md.push_str(
            "Affine cases: the same problem generated by polyscan and by isl (tiled seed cases with fixed sizes 4,3), each compiled with `gcc -O2` against a statement macro that adds a hash of its arguments to a checksum (cheap work: the loops' overhead is what is measured); CPU time of the best of several batches inside the program. Equal checksums: both programs visited the same instances. Target: polyscan within 10% of isl (ratio <= 1.10).\n\n",
        );
        md.push_str("| case | parameters | polyscan | isl | polyscan / isl | same checksum |\n|---|---|---|---|---|---|\n");
        match codegen::verify::compiler() {
            None => md.push_str("| (no C compiler: install gcc) | | | | | |\n"),
            Some(cc) => {
                for rc in RUN_CASES {
                    eprintln!("bench: run time of {} (polyscan and isl)", rc.name);
                    match measure_run(rc, args.quick, &cc, runs, &args.limits) {
                        Ok(r) => {
                            let _ = writeln!(
                                md,
                                "| {} | {} | {} | {} | {} | {} |",
                                rc.name,
                                r.shown,
                                fmt_ms(r.polyscan * 1e3),
                                fmt_ms(r.isl * 1e3),
                                ratio(r.polyscan, r.isl),
                                if r.same { "yes" } else { "NO" }
                            );
                        }
                        Err(e) => {
                            eprintln!("bench: {}: {e}", rc.name);
                            let _ = writeln!(
                                md,
                                "| {} | failed: {} | - | - | - | - |",
                                rc.name,
                                e.lines().next().unwrap_or("")
                            );
                        }
                    }
                }
            }
        }
    }
    print!("{md}");
    if let Some(path) = &args.out {
        let mut doc = String::from(
            "# Benchmarks\n\nWritten by `polyscan bench` (see `polyscan bench --help`); every ratio was measured in the same run on this project's shared 2-core machine (AMD EPYC Zen 3), so absolute times move between runs.\n\n",
        );
        let argv: Vec<String> = std::env::args().skip(1).collect();
        let _ = writeln!(doc, "Command: `polyscan {}`\n", argv.join(" "));
        doc.push_str(&md);
        write_atomically(path, doc)?;
    }
    Ok(())
}
