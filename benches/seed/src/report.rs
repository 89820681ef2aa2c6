//! The benchmark run: which cases, which columns, the two Markdown tables, and the region
//! of a Markdown file they replace.

use crate::cases::{find_case, header_tiling, Case, CASES, FIXED_SIZES, RUN_CASES};
use crate::generation::{child, measure_gen};
use crate::qepcad::measure_qepcad;
use crate::run_time::{isl_report, measure_run};
use crate::table::{fmt_ms, ms, ratio};
use crate::Args;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

/// The lines between which `--out` writes the tables.
const BEGIN: &str = "<!-- seed-bench: begin -->";
const END: &str = "<!-- seed-bench: end -->";

/// Runs the benchmark the arguments describe.
pub fn run(args: &Args) -> Result<(), String> {
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
    // Checked before hours of measuring: a file without the markers would be replaced
    // whole, losing the hand-written sections around the tables.
    if let Some(path) = &args.out {
        splice(path, "")?;
    }
    let md = tables(args, &cases);
    print!("{md}");
    if let Some(path) = &args.out {
        let argv: Vec<String> = std::env::args().skip(1).collect();
        let section = format!(
            "Written by `seed-bench` (`cargo run --release -p seed-bench -- --help`); every ratio was measured in the same run on this project's shared 2-core machine (AMD EPYC Zen 3), so absolute times move between runs.\n\nCommand: `cargo run --release -p seed-bench -- {}`\n\n{md}",
            argv.join(" ")
        );
        let text = splice(path, &section)?;
        write_atomically(path, &text)?;
    }
    Ok(())
}

/// The text of `path` with the region between the markers replaced by `section`; a new
/// document when the file does not exist; an error when it exists without the markers.
fn splice(path: &Path, section: &str) -> Result<String, String> {
    let old = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(format!("# Benchmarks\n\n{BEGIN}\n{section}{END}\n"));
        }
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let (Some(b), Some(e)) = (old.find(BEGIN), old.find(END)) else {
        return Err(format!(
            "{} has no lines `{BEGIN}` and `{END}` to write between; add them where the tables go",
            path.display()
        ));
    };
    if e < b {
        return Err(format!(
            "{}: `{END}` comes before `{BEGIN}`",
            path.display()
        ));
    }
    Ok(format!("{}{BEGIN}\n{section}{}", &old[..b], &old[e..]))
}

/// Writes via a temporary file in the same directory and a rename: never half-written.
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    tmp.write_all(text.as_bytes()).map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Both tables (the second only with `--isl`).
fn tables(args: &Args, cases: &[&Case]) -> String {
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
            "note: this build has no isl ({}): no isl columns",
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

    for case in cases {
        eprintln!("seed-bench: {} (polyscan, {runs} runs)", case.name);
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
                eprintln!("seed-bench: {}: polyscan failed: {e}", case.name);
                row.push(format!("failed: {}", e.lines().next().unwrap_or("")));
                row.push("-".into());
                None
            }
        };
        if let Some(exe) = &qepcad {
            eprintln!("seed-bench: {} (QEPCAD B)", case.name);
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
                    eprintln!("seed-bench: {}: QEPCAD: {why}", case.name);
                    row.push(format!("failed: {why}"));
                    row.push("-".into());
                    row.push("-".into());
                }
            }
        }
        if isl {
            if header_tiling(case.src, false).is_some() {
                eprintln!(
                    "seed-bench: {} (isl and polyscan, tiles {FIXED_SIZES})",
                    case.name
                );
                match isl_report(case.src, runs) {
                    Ok(r) => {
                        row.push(ms(r.isl.median));
                        row.push(ms(r.polyscan.median));
                        row.push(ratio(
                            r.polyscan.median.as_secs_f64(),
                            r.isl.median.as_secs_f64(),
                        ));
                    }
                    Err(e) => {
                        row.push(format!("failed: {e}"));
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
        md.push_str(&run_time_table(args, runs));
    }
    md
}

/// The run-time table of the generated code.
fn run_time_table(args: &Args, runs: usize) -> String {
    let mut md = String::from("\n## Run time of the generated code (gcc -O2)\n\n");
    md.push_str(
        "Affine cases: the same problem generated by polyscan and by isl (tiled seed cases with fixed sizes 4,3), each compiled with `gcc -O2` against a statement macro that adds a hash of its arguments to a checksum (cheap work: the loops' overhead is what is measured); CPU time of the best of several batches inside the program. Equal checksums: both programs visited the same instances. Target: polyscan within 10% of isl (ratio <= 1.10).\n\n",
    );
    md.push_str("| case | parameters | polyscan | isl | polyscan / isl | same checksum |\n|---|---|---|---|---|---|\n");
    let Some(cc) = codegen::verify::compiler() else {
        md.push_str("| (no C compiler: install gcc) | | | | | |\n");
        return md;
    };
    for rc in RUN_CASES {
        eprintln!("seed-bench: run time of {} (polyscan and isl)", rc.name);
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
                eprintln!("seed-bench: {}: {e}", rc.name);
                let _ = writeln!(
                    md,
                    "| {} | failed: {} | - | - | - | - |",
                    rc.name,
                    e.lines().next().unwrap_or("")
                );
            }
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_keeps_what_lies_outside_the_markers() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("B.md");
        std::fs::write(
            &p,
            format!("# B\n\nintro\n{BEGIN}\nold\n{END}\nhand-written\n"),
        )
        .unwrap();
        let text = splice(&p, "new\n").unwrap();
        assert_eq!(
            text,
            format!("# B\n\nintro\n{BEGIN}\nnew\n{END}\nhand-written\n")
        );
        // Without markers nothing is replaced.
        std::fs::write(&p, "# B\n\nhand-written\n").unwrap();
        assert!(splice(&p, "new\n")
            .unwrap_err()
            .contains("seed-bench: begin"));
        // A new file gets the markers for the next run.
        let q = dir.path().join("new.md");
        assert!(splice(&q, "t\n")
            .unwrap()
            .contains(&format!("{BEGIN}\nt\n{END}")));
    }
}
