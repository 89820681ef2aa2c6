//! Glue for `polyscan.plot` and `Set._repr_svg_`: what `polyscan plot` does between its
//! flags and `polyscan_plot` (`src/cli/plot.rs`), for text instead of a file: generate,
//! then the steps of `polyscan_plot::problem` (the points and their order from the exact
//! interpreter, the constraint curves, the CAD's cells, the tiles), and render.

use crate::error::Error;
use crate::options::{values_for, Choices};
use cad::Cad;
use codegen::input::{parse_context, Problem};
use polys::Int;
use polyscan_plot::draw::render;
use polyscan_plot::geometry::cad_lines;
use polyscan_plot::problem::{
    curves, run_instances, size_values, slice_cad, tile_outlines, window_of, PlotError,
};
use polyscan_plot::{Format, Scene};

/// What to draw.
pub struct Request {
    /// The set.
    pub problem: Problem,
    /// How its code is generated (the points drawn are that code's instances).
    pub choices: Choices,
    /// Parameter values, tile sizes named in `tile_sizes` included.
    pub params: Vec<(String, i64)>,
    /// Fixed iterators of a deeper domain.
    pub slice: Vec<(String, i64)>,
    /// SVG or PNG.
    pub format: Format,
    /// The heading; `None`: the statements, e.g. `S[x, y]`.
    pub title: Option<String>,
}

/// The picture's bytes (SVG text or PNG).
pub fn plot(req: &Request) -> Result<Vec<u8>, Error> {
    let original = &req.problem;
    if original
        .statements
        .iter()
        .any(|s| !s.existentials.is_empty())
    {
        return Err(Error::input(
            polyscan_plot::QUANTIFIED_NOT_DRAWN.to_string(),
        ));
    }
    let np = original.params.len();
    let depth = original.depth();
    let file_vars = original.vars();
    let iter_names: Vec<String> = (0..depth).map(|p| file_vars.name(np + p)).collect();
    // Check the plane before generating: a wrong slice should not wait for a CAD.
    let fixed = slice_values(&req.slice, &iter_names)?;
    let free: Vec<usize> = (0..depth).filter(|p| fixed[*p].is_none()).collect();
    if free.len() != 2 {
        let iters = format!(
            "the set has {depth} iterator{} ({})",
            if depth == 1 { "" } else { "s" },
            iter_names.join(", ")
        );
        let how = if free.len() > 2 {
            let rest: Vec<String> = free[2..]
                .iter()
                .map(|&p| format!("'{}': 0", iter_names[p]))
                .collect();
            format!(
                "; fix all but two with slice, e.g. slice={{{}}}",
                rest.join(", ")
            )
        } else if depth >= 2 {
            format!("; slice leaves {} free", free.len())
        } else {
            String::new()
        };
        return Err(Error::input(format!(
            "a plot needs a 2-D domain: {iters}{how}"
        )));
    }
    let out = req.choices.run(original.clone())?;
    let g = &out.generated;
    let names: Vec<String> = g.vars.names()[..g.nparams].to_vec();
    let params = values_for(&names, &req.params)?;

    // Axes: the outer of the two free iterators in the generated loops goes on x.
    let loop_index = |p: usize| g.vars.index(&iter_names[p]).filter(|&v| v >= g.nparams);
    let (px, py) = match (loop_index(free[0]), loop_index(free[1])) {
        (Some(a), Some(b)) if b < a => (free[1], free[0]),
        _ => (free[0], free[1]),
    };

    // Too many points or too large a box are limits here (`polyscan.LimitError`).
    let plot_error = |e: PlotError| match e {
        PlotError::Run(_) => Error::input(e.to_string()),
        _ => Error::Limit(e.to_string()),
    };
    let instances = run_instances(&out, &params, depth, &fixed, px, py).map_err(plot_error)?;
    let window = window_of(&instances).map_err(plot_error)?;

    let fixed_values: Vec<f64> = params[..np]
        .iter()
        .map(|&v| v as f64)
        .chain((0..depth).map(|p| fixed[p].unwrap_or(0) as f64))
        .collect();
    let curves = curves(original, &fixed_values, np + px, np + py, &window);

    let mut prefix: Vec<Int> = params[..np].iter().map(|&v| Int::from(v)).collect();
    let stats = cad::LiftStats::default();
    let own;
    let cad: &Cad = match &g.cad {
        Some(c) if out.tiled.is_none() && free.len() == depth && c.nvars == g.nparams + 2 => c,
        _ => {
            let context = match &req.choices.context {
                Some(text) => Some(
                    parse_context(text, &original.params)
                        .map_err(|e| Error::parse("context", &e))?,
                ),
                None => None,
            };
            own = slice_cad(
                original,
                context.as_ref(),
                &fixed,
                px,
                py,
                &stats,
                &req.choices.cad_limits(),
            )
            .map_err(|e| Error::gen(e.into()))?;
            prefix.extend((0..depth).filter_map(|p| fixed[p]).map(Int::from));
            &own
        }
    };
    let cad_lines =
        cad_lines(cad, &prefix, &window, 96, &stats).map_err(|e| Error::gen(e.into()))?;

    let (tiles, tile_label) = match &out.tiled {
        None => (Vec::new(), String::new()),
        Some(t) => {
            let sizes = &params[np..];
            let shown: Vec<String> = size_values(&t.spec, sizes)
                .iter()
                .map(i64::to_string)
                .collect();
            let shape = req.choices.tile_shape.as_deref().unwrap_or("identity");
            (
                tile_outlines(&out, &instances, sizes, &fixed, px, py, &window),
                format!("tiles K={shape}, {}", shown.join("x")),
            )
        }
    };

    let mut title = req.title.clone().unwrap_or_else(|| {
        let heads: Vec<String> = original
            .statements
            .iter()
            .map(|s| format!("{}[{}]", s.name, s.iterators.join(", ")))
            .collect();
        heads.join("; ")
    });
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
    render(&scene, req.format).map_err(|e| Error::Tool(e.to_string()))
}

/// The slice's values against the iterator names: one value or none per position.
fn slice_values(given: &[(String, i64)], iters: &[String]) -> Result<Vec<Option<i64>>, Error> {
    let mut fixed = vec![None; iters.len()];
    for (name, v) in given {
        let k = iters.iter().position(|n| n == name).ok_or_else(|| {
            Error::input(format!(
                "slice: '{name}' is not an iterator ({})",
                iters.join(", ")
            ))
        })?;
        fixed[k] = Some(*v);
    }
    Ok(fixed)
}
