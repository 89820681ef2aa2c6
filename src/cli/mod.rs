//! Command-line front end: argument parsing (clap), dispatch to one module per
//! subcommand, and the rendering of errors with exit codes.
//!
//! Exit codes: 0 ok, 1 verification difference, 2 bad input, 3 resource limit or missing
//! external tool.

mod cad;
pub mod compare;
mod diagnostic;
mod files;
mod gen;
mod kernel;
mod la;
mod la_elementwise;
mod plot;
mod poly;
pub mod tile;
mod verify;

use clap::{Parser, Subcommand};

pub use diagnostic::{Diagnostic, ExitCode};

/// Exact loop nests for integer sets bounded by polynomial constraints.
#[derive(Parser, Debug)]
#[command(name = "polyscan", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands, one module each.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Generate exact C loops scanning the integer points of a polynomial domain.
    Gen(gen::GenArgs),
    /// Compile the generated C, run it and compare with brute-force enumeration.
    Verify(verify::VerifyArgs),
    /// Print the tiled domain (parametric tiling) in the input language.
    Tile(tile::TileArgs),
    /// Show the projection factors and the pruned cell tree behind the code.
    Cad(cad::CadArgs),
    /// Inspect polynomial algebra: resultants, discriminants, factors, gcds, square-free parts.
    #[command(subcommand)]
    Poly(poly::PolyCommand),
    /// Map a linear-algebra problem (Linnea's input language) to a cheap kernel sequence.
    La(la::LaArgs),
    /// Compare with isl's AST generator on an affine input: code, times, instance sequences.
    Compare(compare::CompareArgs),
    /// Emit a blocked BLAS kernel (CBLAS arguments) as C from its tiled catalogue domain.
    Kernel(kernel::KernelArgs),
    /// Draw a 2-D domain (or slice): constraint curves, CAD cells, points in execution order, tiles.
    Plot(plot::PlotArgs),
}

/// Runs the tool on the process arguments and returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                ExitCode::BadInput as i32
            } else {
                0
            };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Gen(a) => gen::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Cad(a) => cad::run(a),
        Command::Tile(a) => tile::run(a),
        Command::Poly(c) => poly::run(c),
        Command::La(a) => la::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Kernel(a) => kernel::run(a),
        Command::Plot(a) => plot::run(a),
    };
    match result {
        Ok(()) => 0,
        Err(d) => {
            eprintln!("{d}");
            d.code as i32
        }
    }
}
