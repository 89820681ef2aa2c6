//! The linear-algebra mapping layer: problems in Linnea's input language, property
//! inference, a kernel catalogue and the search for a cheap kernel sequence.
//!
//! Pipeline: [`parse`] (text to [`ast`]) -> [`norm`] (normalised sums of products) ->
//! [`search`] (best-first over rewritten forms, each priced by [`lower`], which uses
//! [`infer`], [`properties`], [`chain`] and [`kernels`]) -> [`report`]. [`interp`] checks
//! sequences numerically; [`symbolic`] restates costs for open sizes.

pub mod ast;
pub mod chain;
pub mod error;
pub mod infer;
pub mod interp;
pub mod kernels;
pub mod lower;
pub mod norm;
pub mod parse;
pub mod properties;
pub mod report;
pub mod search;
pub mod symbolic;

pub use error::LaError;

/// Parses a problem and searches for a kernel sequence.
pub fn compile(src: &str, opts: search::SearchOptions) -> Result<search::Solution, LaError> {
    let p = parse::parse(src)?;
    search::solve(&p, opts)
}
