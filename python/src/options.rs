//! The generation options of the Python API (the keyword arguments of `generate`,
//! `Set.code`, `verify`, `plot`) read from Python values into [`Choices`], and from there
//! into the library's [`Pipeline`] and printers exactly as `polyscan gen` maps its flags
//! (`src/cli/gen.rs`: `Choices::pipeline`, `Limits::apply`, `emit_with`), so that the
//! text is identical; and parameter values given as Python dicts.

use crate::error::Error;
use codegen::input::{parse_problem, Problem};
use codegen::{Generated, Order, Pipeline, Shape, TileOrder, Tiling};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::time::Duration;

/// The output language (`--emit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Emit {
    /// An isl-style fragment (`c`).
    #[default]
    C,
    /// Self-contained C99 with `scan(...)` (`c-function`).
    CFunction,
    /// A Rust function (`rust`).
    Rust,
}

impl Emit {
    /// `c`, `c-function` (or `c_function`), `rust`.
    pub fn parse(text: &str) -> Result<Emit, Error> {
        match text {
            "c" => Ok(Emit::C),
            "c-function" | "c_function" => Ok(Emit::CFunction),
            "rust" => Ok(Emit::Rust),
            other => Err(Error::input(format!(
                "emit={other:?}: expected 'c', 'c-function' or 'rust'"
            ))),
        }
    }
}

/// How to generate: the command line's `Choices` and `Limits` in one.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// `--context`.
    pub context: Option<String>,
    /// `--order`, split at commas.
    pub order: Option<Vec<String>>,
    /// `--tile-sizes`.
    pub tile_sizes: Option<String>,
    /// `--tile-shape`.
    pub tile_shape: Option<String>,
    /// `--tile-order interleaved`.
    pub interleaved: bool,
    /// `--no-separate` (full tiles not separated from partial ones).
    pub no_full_tiles: bool,
    /// `--engine cad`.
    pub cad: bool,
    /// `--convex`.
    pub convex: bool,
    /// `--separate`.
    pub separate: bool,
    /// `--timeout`, seconds.
    pub timeout: Option<f64>,
    /// `--max-cells`.
    pub max_cells: Option<u64>,
}

impl Choices {
    /// The library's tiling request, or `None` without tile sizes (`TileFlags::tiling`).
    pub fn tiling(&self) -> Option<Tiling> {
        Some(Tiling {
            sizes: self.tile_sizes.clone()?,
            shape: self.tile_shape.clone(),
            order: if self.interleaved {
                TileOrder::Interleaved
            } else {
                TileOrder::TilesOutside
            },
            separate_full: !self.no_full_tiles,
            cad_order: false,
            loop_order: None,
        })
    }

    /// The time limit (`Limits::time_limit`: negative or non-finite is no limit).
    pub fn time_limit(&self) -> Option<Duration> {
        self.timeout
            .filter(|t| t.is_finite() && *t >= 0.0)
            .map(|t| Duration::from_secs_f64(t.min(1e9)))
    }

    /// The limits of one decomposition, counted from now (`Limits::cad_limits`).
    pub fn cad_limits(&self) -> cad::Limits {
        cad::Limits::new(self.max_cells, self.timeout)
    }

    /// The library pipeline for `problem` with these choices, built as `polyscan gen`
    /// builds it (`Choices::pipeline`, then `Limits::apply`).
    pub fn pipeline(&self, problem: Problem) -> Pipeline {
        let mut p = Pipeline::new(problem)
            .convex(self.convex)
            .engine(if self.cad {
                codegen::Engine::Cad
            } else {
                codegen::Engine::Auto
            })
            .shape(if self.separate {
                Shape::Separate
            } else {
                Shape::Compact
            });
        if let Some(names) = &self.order {
            p = p.order(Order::from_names(names.clone()));
        }
        if let Some(c) = &self.context {
            p = p.context(c.clone());
        }
        if let Some(t) = self.tiling() {
            p = p.tiling(t);
        }
        if let Some(n) = self.max_cells {
            p = p.max_cells(n);
        }
        if let Some(d) = self.time_limit() {
            p = p.time_limit(d);
        }
        p
    }

    /// Runs the pipeline on `problem`.
    pub fn run(&self, problem: Problem) -> Result<codegen::Outcome, Error> {
        self.pipeline(problem).run().map_err(Error::pipeline)
    }
}

/// Parses input text (file contents) into a problem.
pub fn parse(text: &str) -> Result<Problem, Error> {
    parse_problem(text).map_err(|e| Error::parse("input", &e))
}

/// The text of a generated program (`emit` and `emit_with` of `polyscan gen`): with
/// `checked`, the `--check-overflow` variant headed by the parameter range in which no
/// overflow can occur.
pub fn emit(g: &Generated, emit: Emit, checked: bool) -> Result<String, Error> {
    let emitter = g.emitter();
    if !checked {
        let text = match emit {
            Emit::C => emitter.fragment(&g.nodes),
            Emit::CFunction => emitter.function(&g.nodes, &[]),
            Emit::Rust => codegen::emit_rust::function(&emitter, &g.nodes),
        };
        return text.map_err(|e| Error::Limit(format!("cannot print the code in 64-bit C: {e}")));
    }
    let range = codegen::overflow::safe_parameter_bound(g);
    let header = format!("{}\n", range.comment());
    let text = match emit {
        Emit::C => emitter.checked().with_header(header).fragment(&g.nodes),
        Emit::CFunction => emitter
            .checked()
            .with_header(header)
            .function(&g.nodes, &[]),
        Emit::Rust => codegen::emit_rust::function_checked(&emitter, &g.nodes, &header),
    };
    text.map_err(|e| Error::Limit(e.to_string()))
}

/// Generates `problem` with `choices` and prints it: `polyscan gen`.
pub fn generate(
    problem: Problem,
    choices: &Choices,
    how: Emit,
    checked: bool,
) -> Result<String, Error> {
    let out = choices.run(problem)?;
    emit(&out.generated, how, checked)
}

/// A list of names given as `"a,b"` or as a sequence of strings (and integers, for tile
/// sizes), joined by commas.
pub fn name_list(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(s.to_str()?.to_string());
    }
    let mut parts = Vec::new();
    for item in value.try_iter()? {
        let item = item?;
        parts.push(match item.extract::<i64>() {
            Ok(v) => v.to_string(),
            Err(_) => item.extract::<String>().map_err(|_| {
                Error::Argument(format!("{what}: expected a string or a sequence of names"))
                    .into_pyerr(value.py())
            })?,
        });
    }
    Ok(parts.join(","))
}

/// A tile shape given as `"[[1,1],[0,1]]"` or as a nested sequence of integers.
pub fn shape_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(s.to_str()?.to_string());
    }
    let rows: Vec<Vec<i64>> = value.extract().map_err(|_| {
        Error::Argument(
            "tile_shape: expected a string like '[[1,1],[0,1]]' or a list of integer rows".into(),
        )
        .into_pyerr(value.py())
    })?;
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            let r: Vec<String> = r.iter().map(i64::to_string).collect();
            format!("[{}]", r.join(","))
        })
        .collect();
    Ok(format!("[{}]", rows.join(",")))
}

/// The generation keyword arguments as Python gives them.
#[allow(clippy::too_many_arguments)]
pub fn choices(
    context: Option<String>,
    order: Option<&Bound<'_, PyAny>>,
    tile_sizes: Option<&Bound<'_, PyAny>>,
    tile_shape: Option<&Bound<'_, PyAny>>,
    tile_order: &str,
    separate: bool,
    timeout: Option<f64>,
    engine: &str,
    convex: bool,
    full_tiles: bool,
    max_cells: Option<u64>,
) -> PyResult<Result<Choices, Error>> {
    let order = match order {
        None => None,
        Some(o) => Some(
            name_list(o, "order")?
                .split(',')
                .map(|s| s.trim().to_string())
                .collect(),
        ),
    };
    let tile_sizes = tile_sizes.map(|t| name_list(t, "tile_sizes")).transpose()?;
    let tile_shape = tile_shape.map(shape_text).transpose()?;
    Ok((|| {
        let interleaved = match tile_order {
            "outside" => false,
            "interleaved" => true,
            other => {
                return Err(Error::input(format!(
                    "tile_order={other:?}: expected 'outside' or 'interleaved'"
                )))
            }
        };
        let cad = match engine {
            "auto" => false,
            "cad" => true,
            other => {
                return Err(Error::input(format!(
                    "engine={other:?}: expected 'auto' or 'cad'"
                )))
            }
        };
        if tile_sizes.is_none() && (tile_shape.is_some() || interleaved || !full_tiles) {
            return Err(Error::input(
                "tile_shape, tile_order and full_tiles apply to tiled code: give tile_sizes",
            ));
        }
        Ok(Choices {
            context,
            order,
            tile_sizes,
            tile_shape,
            interleaved,
            no_full_tiles: !full_tiles,
            cad,
            convex,
            separate,
            timeout,
            max_cells,
        })
    })())
}

/// The values of `names` from `given` (name, value pairs), in the order of `names`; every
/// name needs a value and every given name must be one of `names` (as `--params`).
pub fn values_for(names: &[String], given: &[(String, i64)]) -> Result<Vec<i64>, Error> {
    if let Some((n, _)) = given.iter().find(|(n, _)| !names.contains(n)) {
        return Err(Error::input(if names.is_empty() {
            format!("'{n}' is not a parameter (the set has none)")
        } else {
            format!("'{n}' is not a parameter ({})", names.join(", "))
        }));
    }
    names
        .iter()
        .map(|n| {
            given
                .iter()
                .rev()
                .find(|(g, _)| g == n)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    Error::input(format!(
                        "no value for parameter '{n}' (give {}=...)",
                        names.join("=..., ")
                    ))
                })
        })
        .collect()
}

/// Name, value pairs from a dict (`None`: none), in the dict's order.
pub fn pairs(dict: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, i64)>> {
    let Some(d) = dict else {
        return Ok(Vec::new());
    };
    d.iter()
        .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<i64>()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_names() {
        let names = vec!["n".to_string(), "m".to_string()];
        let given = vec![("m".to_string(), 3), ("n".to_string(), 5)];
        assert_eq!(values_for(&names, &given), Ok(vec![5, 3]));
        assert!(values_for(&names, &given[..1]).is_err());
        assert!(values_for(&names[..1], &given).is_err());
    }

    #[test]
    fn defaults_print_what_the_library_prints() {
        let text = "[n] -> { S[i, j] : 1 <= i <= n and 1 <= j and i*j <= n }";
        let ours = generate(
            parse(text).expect("the hyperbola parses"),
            &Choices::default(),
            Emit::C,
            false,
        )
        .expect("the hyperbola generates");
        let out = Pipeline::new(parse_problem(text).expect("the hyperbola parses"))
            .run()
            .expect("the hyperbola generates");
        let g = out.generated;
        assert_eq!(ours, g.emitter().fragment(&g.nodes).expect("printable"));
    }
}
