//! `polyscan plot`: a picture of a 2-D domain (or a 2-D slice of a deeper one) with its
//! constraint curves, the CAD's cell boundaries, the integer points coloured by statement
//! in the order the generated code visits them, and tile outlines for tiled code.
//!
//! The points and their order are the instances of the generated loops, run by the exact
//! interpreter (`codegen::interp`) for the given parameter values; the picture itself is
//! drawn by `polyscan_plot`.

use super::files::{input_diagnostic, load, write_atomically};
use super::gen::Limits;
use super::gen::{gen_diagnostic, generate_file, Choices};
use super::verify::parse_params;
use super::{Diagnostic, ExitCode};
use cad::Cad;
use clap::Args;
use codegen::input::parse_context;
use polys::Int;
use polyscan_plot::draw::render;
use polyscan_plot::geometry::cad_lines;
use polyscan_plot::problem::{
    curves, run_instances, size_values, slice_cad, tile_outlines, window_of, PlotError,
};
use polyscan_plot::{Format, Scene};
use std::io::Write;
use std::path::PathBuf;

/// Draw a 2-D domain: constraint curves, CAD cells, points in execution order, tiles.
#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Input file (see `polyscan gen --help`).
    pub file: PathBuf,
    /// Parameter values (tile sizes named in --tile-sizes included), e.g. `--params r=3`;
    /// may be repeated, the lists are joined.
    #[arg(long = "params", value_name = "NAME=VALUE,...")]
    pub params: Vec<String>,
    /// Fix iterators to draw a 2-D slice of a deeper domain, e.g. `--slice z=0`.
    #[arg(long, value_name = "NAME=VALUE,...")]
    pub slice: Vec<String>,
    /// Write the picture here (atomically) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// PNG instead of SVG.
    #[arg(long)]
    pub png: bool,
    #[command(flatten)]
    pub choices: Choices,
    #[command(flatten)]
    pub limits: Limits,
}

fn bad(m: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ExitCode::BadInput, m)
}

pub fn run(args: PlotArgs) -> Result<(), Diagnostic> {
    let (_, original) = load(&args.file)?;
    if original
        .statements
        .iter()
        .any(|s| !s.existentials.is_empty())
    {
        return Err(bad(polyscan_plot::QUANTIFIED_NOT_DRAWN.to_string()));
    }
    let np = original.params.len();
    let depth = original.depth();
    let file_vars = original.vars();
    let iter_names: Vec<String> = (0..depth).map(|p| file_vars.name(np + p)).collect();
    // Check the plane before generating: a wrong --slice should not wait for a CAD.
    let fixed = parse_slice(&args.slice, &iter_names)?;
    let free: Vec<usize> = (0..depth).filter(|p| fixed[*p].is_none()).collect();
    if free.len() != 2 {
        let iters = format!(
            "{} has {depth} iterator{} ({})",
            args.file.display(),
            if depth == 1 { "" } else { "s" },
            iter_names.join(", ")
        );
        let how = if free.len() > 2 {
            let rest: Vec<String> = free[2..]
                .iter()
                .map(|&p| format!("{}=0", iter_names[p]))
                .collect();
            format!(
                "; fix all but two with --slice, e.g. --slice {}",
                rest.join(",")
            )
        } else if depth >= 2 {
            format!("; --slice leaves {} free", free.len())
        } else {
            String::new()
        };
        return Err(bad(format!("a plot needs a 2-D domain: {iters}{how}")));
    }
    let out = generate_file(&args.file, &args.choices, args.limits)?;
    let g = &out.generated;
    let names: Vec<String> = g.vars.names()[..g.nparams].to_vec();
    let joined = args.params.join(",");
    if g.nparams > 0 && joined.trim().is_empty() {
        return Err(bad(format!(
            "give parameter values with --params ({}=...)",
            names.join("=..., ")
        )));
    }
    let params = parse_params(&joined, &names)?;

    // Axes: the outer of the two free iterators in the generated loops goes on x.
    let loop_index = |p: usize| g.vars.index(&iter_names[p]).filter(|&v| v >= g.nparams);
    let (px, py) = match (loop_index(free[0]), loop_index(free[1])) {
        (Some(a), Some(b)) if b < a => (free[1], free[0]),
        _ => (free[0], free[1]),
    };

    let plot_error = |e: PlotError| bad(e.to_string());
    let instances = run_instances(&out, &params, depth, &fixed, px, py).map_err(plot_error)?;
    let window = window_of(&instances).map_err(plot_error)?;

    let fixed_values: Vec<f64> = params[..np]
        .iter()
        .map(|&v| v as f64)
        .chain((0..depth).map(|p| fixed[p].unwrap_or(0) as f64))
        .collect();
    let curves = curves(&original, &fixed_values, np + px, np + py, &window);

    let mut prefix: Vec<Int> = params[..np].iter().map(|&v| Int::from(v)).collect();
    let stats = cad::LiftStats::default();
    let own;
    let cad: &Cad = match &g.cad {
        Some(c) if out.tiled.is_none() && free.len() == depth && c.nvars == g.nparams + 2 => c,
        _ => {
            let context = match &args.choices.context {
                Some(text) => Some(
                    parse_context(text, &original.params)
                        .map_err(|e| input_diagnostic("--context", &e))?,
                ),
                None => None,
            };
            own = slice_cad(
                &original,
                context.as_ref(),
                &fixed,
                px,
                py,
                &stats,
                &args.limits.cad_limits(),
            )
            .map_err(|e| gen_diagnostic(&args.file.display().to_string(), e.into()))?;
            prefix.extend((0..depth).filter_map(|p| fixed[p]).map(Int::from));
            &own
        }
    };
    let cad_lines = cad_lines(cad, &prefix, &window, 96, &stats)
        .map_err(|e| gen_diagnostic(&args.file.display().to_string(), e.into()))?;

    let (tiles, tile_label) = match &out.tiled {
        None => (Vec::new(), String::new()),
        Some(t) => {
            let sizes = &params[np..];
            let shown: Vec<String> = size_values(&t.spec, sizes)
                .iter()
                .map(i64::to_string)
                .collect();
            let shape = args
                .choices
                .tiling
                .tile_shape
                .as_deref()
                .unwrap_or("identity");
            (
                tile_outlines(&out, &instances, sizes, &fixed, px, py, &window),
                format!("tiles K={shape}, {}", shown.join("x")),
            )
        }
    };

    let file_name = args.file.file_name().map_or_else(
        || args.file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut title = file_name;
    let shown: Vec<String> = names
        .iter()
        .zip(&params)
        .map(|(n, v)| format!("{n}={v}"))
        .chain((0..depth).filter_map(|p| fixed[p].map(|v| format!("{}={v}", iter_names[p]))))
        .collect();
    if !shown.is_empty() {
        title.push_str(&format!(" ({})", shown.join(", ")));
    }
    let scene = Scene {
        title,
        x_name: iter_names[px].clone(),
        y_name: iter_names[py].clone(),
        window,
        statements: g.statements.iter().map(|(n, _)| n.clone()).collect(),
        curves,
        cad: Some(cad_lines),
        instances: instances.iter().map(|(i, _)| *i).collect(),
        tiles,
        tile_label,
    };
    let format = if args.png { Format::Png } else { Format::Svg };
    let bytes = render(&scene, format).map_err(|e| bad(e.to_string()))?;
    match (&args.output, format) {
        (Some(path), Format::Svg) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("the SVG backend produced text that is not UTF-8"))?;
            write_atomically(path, &text)
        }
        (Some(path), Format::Png) => write_atomically(path, &bytes),
        (None, _) => std::io::stdout()
            .write_all(&bytes)
            .map_err(|e| bad(format!("cannot write to standard output: {e}"))),
    }
}

/// `--slice z=0,w=1` (repeatable) against the iterator names: one value or none per
/// iterator position.
fn parse_slice(texts: &[String], iters: &[String]) -> Result<Vec<Option<i64>>, Diagnostic> {
    let mut fixed = vec![None; iters.len()];
    for text in texts {
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| {
                bad(format!(
                    "--slice {text}: expected NAME=VALUE, found '{part}'"
                ))
            })?;
            let k = iters.iter().position(|n| n == name.trim()).ok_or_else(|| {
                bad(format!(
                    "--slice {text}: '{}' is not an iterator ({})",
                    name.trim(),
                    iters.join(", ")
                ))
            })?;
            let v: i64 = value.trim().parse().map_err(|_| {
                bad(format!(
                    "--slice {text}: '{}' is not a 64-bit integer",
                    value.trim()
                ))
            })?;
            fixed[k] = Some(v);
        }
    }
    Ok(fixed)
}
