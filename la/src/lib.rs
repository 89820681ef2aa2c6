//! The linear-algebra mapping layer: problems in Linnea's input language, property
//! inference, a kernel catalogue and the search for a cheap kernel sequence.
//!
//! Pipeline: [`parse`] (text to [`ast`]) -> [`norm`] (normalised sums of products) ->
//! [`search`] (best-first over rewritten forms, each priced by [`lower`], which uses
//! [`infer`], [`properties`], [`chain`] and [`kernels`]) -> [`report`]. [`interp`] checks
//! sequences numerically; [`symbolic`] restates costs for open sizes. [`program`] emits
//! the chosen sequence as a self-checking C program.
//!
//! The input language is Linnea's: size definitions (`n = 2500`, or `n = ?` to leave a
//! size open), operand declarations with properties in angle brackets
//! (`Matrix X(n, m) <FullRank>`), and assignments in SSA form using `*`, `+`, `-`,
//! `trans(..)` and `inv(..)`. Inverses are never formed unless nothing else applies:
//! they become factorisations and triangular solves.
//!
//! # Example
//!
//! Ordinary least squares, `b := (X^T X)^-1 X^T y` (examples/la/a01_least_squares.la):
//! `X^T X` is symmetric positive definite because `X` has full column rank, so the
//! inverse becomes a Cholesky factorisation and two triangular solves, and `X^T y` is a
//! matrix-vector product instead of part of a matrix chain.
//!
//! ```
//! use polyscan_la::{compile, kernels::Kernel, report, search::SearchOptions};
//! use std::time::Duration;
//!
//! let src = "\
//! n = 2500
//! m = 500
//! Matrix X(n, m) <FullRank>
//! ColumnVector y(n) <>
//! ColumnVector b(m) <>
//! b = inv(trans(X) * X) * trans(X) * y
//! ";
//! // A zero time limit keeps the first solution: deterministic, and already the best here.
//! let opts = SearchOptions {
//!     time_limit: Duration::ZERO,
//!     ..SearchOptions::default()
//! };
//! let sol = compile(src, opts).unwrap();
//! let kernels: Vec<&str> = sol
//!     .lowered
//!     .steps
//!     .iter()
//!     .filter(|s| s.kernel != Kernel::Bind)
//!     .map(|s| s.kernel.name())
//!     .collect();
//! assert_eq!(kernels, ["SYRK", "POTRF", "GEMV", "TRSV", "TRSV"]);
//! let first = &sol.lowered.steps[0];
//! assert_eq!(report::describe(&sol.lowered.env, first), "T1 := X^T * X");
//! // Far cheaper than evaluating the formula as written, with an explicit inverse.
//! assert!(sol.naive_flops > 4.0 * sol.lowered.flops);
//! ```

#![warn(missing_docs)]

pub mod ast;
pub mod blocks;
pub mod cancel;
pub mod chain;
pub mod elementwise;
pub mod error;
pub mod infer;
pub mod interp;
pub mod inverses;
/// The kernel catalogue (names, costs, iteration domains) lives with the blocked kernels.
pub use polyscan_kernels::catalogue as kernels;
/// The sum-product optimiser behind element-wise statements.
pub use polyscan_sumproduct as sumproduct;
pub mod lower;
pub mod norm;
pub mod notation;
pub mod parse;
pub mod program;
pub mod properties;
pub mod regions;
pub mod report;
pub mod search;
pub mod symbolic;

pub use error::LaError;

/// Parses a problem and searches for a kernel sequence.
pub fn compile(src: &str, opts: search::SearchOptions) -> Result<search::Solution, LaError> {
    let p = parse::parse(src)?;
    search::solve(&p, opts)
}

/// [`compile`], plus, when sizes are left open, the split of the size space into regions
/// with their own cheapest sequence.
pub fn compile_with_regions(
    src: &str,
    opts: search::SearchOptions,
) -> Result<(search::Solution, Option<regions::Regions>), LaError> {
    compile_with_regions_within(src, opts, &cad::Limits::none())
}

/// [`compile_with_regions`] with limits (`max_cells`, `deadline`) on the decomposition that
/// splits the open sizes into regions.
pub fn compile_with_regions_within(
    src: &str,
    opts: search::SearchOptions,
    limits: &cad::Limits,
) -> Result<(search::Solution, Option<regions::Regions>), LaError> {
    let p = parse::parse(src)?;
    let sol = search::solve(&p, opts)?;
    let regions = if p.open_sizes.is_empty() {
        None
    } else {
        Some(regions::split_within(&p, opts, limits)?)
    };
    Ok((sol, regions))
}
