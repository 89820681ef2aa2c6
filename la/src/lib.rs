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
/// The kernel catalogue (names, costs, iteration domains) lives with the blocked kernels.
pub use polyscan_kernels::catalogue as kernels;
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
