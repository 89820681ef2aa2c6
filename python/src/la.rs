//! Glue for `polyscan.la`, `polyscan.la_program` and `polyscan.kernel`: the library calls
//! of `polyscan la` (`--json`, `--emit c`) and `polyscan kernel` (`src/cli/la.rs`,
//! `src/cli/kernel.rs`) with the command's defaults, for text instead of a file.

use crate::error::Error;
use polyscan_kernels::{Blas, Caches, Diag, Layout, Request, Side, Trans, Uplo};
use polyscan_la::program::{self, Backend, ProgramOptions};
use polyscan_la::{self as la, search::SearchOptions};
use std::time::Duration;

/// The search options for a time limit in seconds (`--time-limit`, 1 s by default).
fn search_options(time_limit: Option<f64>) -> Result<SearchOptions, Error> {
    let t = time_limit.unwrap_or(1.0);
    if !(t.is_finite() && t >= 0.0) {
        return Err(Error::input(
            "time_limit must be a non-negative number of seconds",
        ));
    }
    Ok(SearchOptions {
        time_limit: Duration::from_secs_f64(t.min(1e6)),
        ..SearchOptions::default()
    })
}

/// `polyscan la --json`: the solution's JSON object and, when sizes are left open, the
/// regions' (the command merges the two objects; so does the caller).
pub fn solve_json(
    src: &str,
    time_limit: Option<f64>,
    limits: &cad::Limits,
) -> Result<(String, Option<String>), Error> {
    let opts = search_options(time_limit)?;
    let (sol, regions) =
        la::compile_with_regions_within(src, opts, limits).map_err(|e| Error::la(src, &e))?;
    Ok((
        la::report::json(&sol),
        regions.as_ref().map(la::report::regions_json),
    ))
}

/// `polyscan la --emit c`'s options, as the command fills them.
pub struct ProgramRequest {
    /// `--backend`: `generated`, `blas` or `nests`.
    pub backend: String,
    /// `--size NAME=VALUE`.
    pub sizes: Vec<(String, u64)>,
    /// `--scale`.
    pub scale: Option<f64>,
    /// `--seed` (1).
    pub seed: Option<u64>,
    /// `--tolerance` (1e-8).
    pub tolerance: Option<f64>,
    /// `--repeat` (1).
    pub repeat: Option<u32>,
    /// `--time-limit` (1 s).
    pub time_limit: Option<f64>,
    /// The program's title (the command uses the file's stem).
    pub title: String,
}

/// The C program of `polyscan la --emit c`.
pub fn program_text(src: &str, req: &ProgramRequest) -> Result<String, Error> {
    let backend = match req.backend.as_str() {
        "generated" => Backend::Generated,
        "blas" => Backend::Blas,
        "nests" => Backend::Nests,
        other => {
            return Err(Error::input(format!(
                "backend={other:?}: expected 'generated', 'blas' or 'nests'"
            )))
        }
    };
    let tolerance = req.tolerance.unwrap_or(1e-8);
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(Error::input("tolerance must be a positive number"));
    }
    if let Some((name, _)) = req.sizes.iter().find(|(_, v)| *v == 0) {
        return Err(Error::input(format!(
            "sizes: '{name}': the value must be a positive integer"
        )));
    }
    let opts = search_options(req.time_limit)?;
    let p = la::parse::parse(src).map_err(|e| Error::la(src, &e))?;
    let sol = la::search::solve(&p, opts).map_err(|e| Error::la(src, &e))?;
    let popts = ProgramOptions {
        backend,
        sizes: req.sizes.clone(),
        scale: req.scale,
        seed: req.seed.unwrap_or(1),
        tolerance,
        repeat: req.repeat.unwrap_or(1).max(1),
        title: req.title.clone(),
    };
    let prog = program::emit(&p, &sol, &popts).map_err(|e| Error::la(src, &e))?;
    Ok(prog.source)
}

/// The flags of `polyscan kernel`, as text (`None`: the kernel's default).
#[derive(Default)]
pub struct KernelFlags {
    /// `--uplo`: L, U (also lower, upper).
    pub uplo: Option<String>,
    /// `--trans`: N, T.
    pub trans: Option<String>,
    /// `--transb`: N, T.
    pub transb: Option<String>,
    /// `--side`: L, R (also left, right).
    pub side: Option<String>,
    /// `--diag`: N, U.
    pub diag: Option<String>,
    /// `--layout`: col, row.
    pub layout: String,
    /// `--openmp`.
    pub openmp: bool,
}

/// One of `choices` (name, value pairs; names as the command accepts them, case-sensitive
/// like its aliases) for option `what`.
fn pick<T: Copy>(what: &str, given: &str, choices: &[(&str, T)]) -> Result<T, Error> {
    choices
        .iter()
        .find(|(n, _)| *n == given)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("'{n}'")).collect();
            Error::input(format!(
                "{what}={given:?}: expected one of {}",
                names.join(", ")
            ))
        })
}

/// The C file of `polyscan kernel NAME` with these flags.
pub fn kernel_text(name: &str, f: &KernelFlags) -> Result<String, Error> {
    let uplo = [
        ("L", Uplo::Lower),
        ("l", Uplo::Lower),
        ("lower", Uplo::Lower),
        ("U", Uplo::Upper),
        ("u", Uplo::Upper),
        ("upper", Uplo::Upper),
    ];
    let trans = [
        ("N", Trans::No),
        ("n", Trans::No),
        ("T", Trans::Yes),
        ("t", Trans::Yes),
    ];
    let side = [
        ("L", Side::Left),
        ("l", Side::Left),
        ("left", Side::Left),
        ("R", Side::Right),
        ("r", Side::Right),
        ("right", Side::Right),
    ];
    let diag = [
        ("N", Diag::NonUnit),
        ("n", Diag::NonUnit),
        ("U", Diag::Unit),
        ("u", Diag::Unit),
    ];
    let req = Request {
        kernel: Blas::parse(name).map_err(Error::kernel)?,
        layout: pick(
            "layout",
            &f.layout,
            &[("col", Layout::Col), ("row", Layout::Row)],
        )?,
        uplo: f
            .uplo
            .as_deref()
            .map(|u| pick("uplo", u, &uplo))
            .transpose()?,
        trans: f
            .trans
            .as_deref()
            .map(|t| pick("trans", t, &trans))
            .transpose()?,
        transb: f
            .transb
            .as_deref()
            .map(|t| pick("transb", t, &trans))
            .transpose()?,
        side: f
            .side
            .as_deref()
            .map(|s| pick("side", s, &side))
            .transpose()?,
        diag: f
            .diag
            .as_deref()
            .map(|d| pick("diag", d, &diag))
            .transpose()?,
        openmp: f.openmp,
        defaults: Caches::DEFAULT.model_sizes(),
    };
    polyscan_kernels::emit(&req).map_err(Error::kernel)
}
