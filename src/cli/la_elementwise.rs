//! `polyscan la` on a problem with element-wise statements (`.*`, `./`, `.^k`, `sum`, ...):
//! the sum-product optimiser's plans as a report, or as a C program that checks itself.

use std::io::Write;
use std::time::Duration;

use polyscan_la as la;
use polyscan_la::ast::Program;
use polyscan_la::elementwise::program::{c_program, Options};
use polyscan_la::program::Backend;
use polyscan_la::sumproduct::Limits;

use super::diagnostic::{Diagnostic, ExitCode};
use super::files::write_atomically;
use super::la::{compile_and_run, diagnostic, finish, LaArgs};

/// Runs `polyscan la` for the parsed element-wise problem `p` (source `src`).
pub fn run(args: &LaArgs, src: &str, p: &Program) -> Result<(), Diagnostic> {
    // With --emit c or --run these flags send the file to the kernel programs' path
    // (`la::run`); here they can only come without a program.
    let kernel_flags = args.backend.is_some()
        || !args.sizes.is_empty()
        || args.scale.is_some()
        || args.threads.is_some()
        || args.naive.is_some();
    if kernel_flags {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            "--backend, --size, --scale, --threads and --naive apply to --emit c and --run only",
        ));
    }
    let limits = Limits {
        time: Duration::from_secs_f64(args.time_limit.clamp(0.01, 1e6)),
        ..Limits::default()
    };
    let sols = la::elementwise::solve(p, limits).map_err(|e| diagnostic(&args.file, src, &e))?;
    if args.emit.is_none() && !args.run {
        if args.seed.is_some() || args.tolerance.is_some() || args.repeat.is_some() {
            return Err(Diagnostic::new(
                ExitCode::BadInput,
                "--seed, --tolerance and --repeat apply to --emit c and --run only",
            ));
        }
        let out = if args.json {
            la::elementwise::json(p, &sols)
        } else {
            la::elementwise::text(p, &sols)
        };
        // A closed pipe (e.g. `| head`) is not an error of the problem.
        let _ = writeln!(std::io::stdout(), "{out}");
        return Ok(());
    }
    let tolerance = args.tolerance.unwrap_or(1e-8);
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            "--tolerance must be a positive number",
        ));
    }
    let opts = Options {
        seed: args.seed.unwrap_or(1),
        repeat: args.repeat.unwrap_or(1).max(1),
        tolerance,
    };
    let source = c_program(p, &sols, &opts).map_err(|e| diagnostic(&args.file, src, &e))?;
    if args.emit.is_some() {
        match &args.output {
            Some(path) => write_atomically(path, &source)?,
            None => {
                let _ = std::io::stdout().write_all(source.as_bytes());
            }
        }
    }
    if !args.run {
        return Ok(());
    }
    let out = compile_and_run(&source, Backend::Nests, Default::default(), tolerance, 1)?;
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    finish(&out, tolerance)
}
