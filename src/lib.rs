//! polyscan's command line as a library: clap flags, one module per subcommand,
//! diagnostics with the source line and a caret, exit codes and JSON output. Everything
//! else lives in the workspace crates: `polys`, `cad`, `tiling` and `codegen` (the
//! mathematics and the generation pipeline), `polyscan-la` (the linear-algebra compiler),
//! `polyscan-kernels` (the kernel catalogue and the blocked kernels), `polyscan-isl` (the
//! bridge to isl) and `polyscan-plot` (pictures).

pub mod cli;
