//! Run time of the generated code: polyscan's and isl's loops for the same affine problem,
//! compiled with `gcc -O2` against a statement macro that only adds a hash of its
//! arguments to a checksum, so that the loops' own overhead is what is measured; best of
//! several batches, CPU time measured inside the program. Equal checksums say both
//! programs visited the same instances.

use crate::cases::{header_tiling, RunCase, FIXED_SIZES};
use crate::generation::{c_function, generate_case, Limits};
use crate::process::output_within;
use polyscan_isl::compare::{compare_source, CompareOptions, Report};
use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

/// isl and polyscan on the same fixed-size (or untiled affine) problem, as `polyscan
/// compare` runs them.
pub fn isl_report(src: &str, runs: usize) -> Result<Report, String> {
    let opts = CompareOptions {
        runs,
        tiling: header_tiling(src, true),
        ..CompareOptions::default()
    };
    compare_source(src, &[], &opts).map_err(|e| e.to_string())
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
/// (its checksum is returned), then `batches` batches of `reps` scans, and returns the
/// best batch's CPU seconds.
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

/// One row of the run-time table.
pub struct RunRow {
    /// The parameters and batch size, as shown.
    pub shown: String,
    /// polyscan's best batch, CPU seconds.
    pub polyscan: f64,
    /// isl's best batch, CPU seconds.
    pub isl: f64,
    /// Both programs visited the same instances (equal checksums).
    pub same: bool,
}

/// Times polyscan's and isl's programs for one case with the C compiler `cc`.
pub fn measure_run(
    rc: &RunCase,
    quick: bool,
    cc: &str,
    runs: usize,
    limits: &Limits,
) -> Result<RunRow, String> {
    let given = if quick { rc.quick_params } else { rc.params };
    let tiling = header_tiling(rc.src, true);
    let tiled = tiling.is_some();
    let g = generate_case(rc.src, tiling, limits, false)?;
    let poly_c = c_function(&g)?;
    let report = isl_report(rc.src, runs)?;
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
    if tiled {
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
