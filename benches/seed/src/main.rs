//! `seed-bench`: the seed thesis's benchmark (section 4.1.2) on this machine, a
//! development binary (`cargo run --release -p seed-bench -- --help`).
//!
//! Table 1, generation: for each seed case polyscan's generation CPU time (median, min and
//! max of repeated runs) and peak memory, each case in a child process; optionally QEPCAD
//! B on the same polynomial system (`--qepcad`) and isl on the fixed-size tiled variants
//! (`--isl`), ratios from the same run, and the thesis's published times beside them
//! (another machine, 2018). `--timeout` and `--max-cells` bound each generation as in
//! `polyscan gen`; a case that reaches a limit shows the reason in its row and the others
//! still run. Table 2, with `--isl`: the run time of polyscan's and isl's generated code.
//!
//! Exit codes as `polyscan`'s: 0 ok, 2 bad input (an unknown case, an unwritable file).

mod cases;
mod generation;
mod process;
mod qepcad;
mod report;
mod run_time;
mod table;

use clap::Parser;
use generation::Limits;
use std::path::PathBuf;

// The allocator of the `polyscan` binary, so that generation is timed as users run it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Benchmark polyscan's generation on the seed thesis's cases against QEPCAD B, isl and
/// the thesis's published times; Markdown tables on standard output, progress on
/// standard error.
#[derive(Parser, Debug)]
#[command(name = "seed-bench", version, about, long_about = None)]
pub struct Args {
    /// Cases to run (default: all), e.g. `nonconvex2 rect-par`; `--list` names them.
    pub cases: Vec<String>,
    /// Also give each system to QEPCAD B (`qepcad` on PATH; skipped with a note if not).
    #[arg(long)]
    pub qepcad: bool,
    /// Also run isl on the affine and fixed-size tiled variants, and time the generated
    /// code of both tools (skipped with a note without isl).
    #[arg(long)]
    pub isl: bool,
    /// Write the tables into this Markdown file as well: between the lines
    /// `<!-- seed-bench: begin -->` and `<!-- seed-bench: end -->` when it has them (the
    /// rest of the file is kept), as a new file when it does not exist.
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
    /// Limits on each generation (as for `polyscan gen`).
    #[command(flatten)]
    pub limits: Limits,
    /// Internal: time the generation of one case in this process and print the times and
    /// the peak resident set (used by the parent so that memory is measured per case).
    #[arg(long, hide = true, value_name = "CASE")]
    pub child: Option<String>,
}

fn main() {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    if let Err(message) = report::run(&args) {
        // A child's message becomes a table cell in the parent: no prefix there.
        let prefix = if args.child.is_some() { "" } else { "error: " };
        eprintln!("{prefix}{message}");
        std::process::exit(2);
    }
}
