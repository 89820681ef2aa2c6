//! polyscan: exact C loop nests for integer sets bounded by polynomial constraints, and a
//! linear-algebra compiler whose kernels are emitted from those loop nests.
//!
//! The library half of the `polyscan` binary: the command-line front end ([`cli`]) and the
//! linear-algebra mapping layer ([`la`]). The mathematics lives in the workspace crates
//! `polys`, `cad`, `tiling` and `codegen`.

pub mod cli;
pub mod isl;
pub mod kernel;
pub mod la;
pub mod plot;
