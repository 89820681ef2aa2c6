//! polyscan's command line as a library: clap flags, one module per subcommand,
//! diagnostics with the source line and a caret, exit codes and JSON output. Everything
//! else lives in the workspace crates: `polys`, `cad`, `tiling` and `codegen` (the
//! mathematics and the generation pipeline), `polyscan-la` (the linear-algebra compiler),
//! `polyscan-kernels` (the kernel catalogue and the blocked kernels), `polyscan-isl` (the
//! bridge to isl) and `polyscan-plot` (pictures).

//!
//! ```
//! use clap::Parser;
//! use polyscan::cli::{Cli, Command};
//! let cli = Cli::try_parse_from(["polyscan", "gen", "examples/seed/sphere.pset", "--separate"]).unwrap();
//! assert!(matches!(cli.command, Command::Gen(_)));
//! // Unknown flags are errors (exit code 2 from the binary), not panics.
//! assert!(Cli::try_parse_from(["polyscan", "gen", "x.pset", "--no-such-flag"]).is_err());
//! ```

#![warn(missing_docs)]

pub mod cli;
