//! `polyscan.Set`: a parsed problem as a Python value. Its identity is the canonical text
//! (`Problem::to_text`, the parsed problem printed back) plus the parameter values bound
//! with `with_params`: `str`, `==`, `hash` and pickling all use it. Points and counts
//! come from the generated loops run by the exact interpreter (`codegen::interp`), the
//! code from the pipeline (`options`), the picture from the plot glue (`plot`).

use crate::error::{attached, detached, Error};
use crate::options::{self, pairs, values_for, Choices, Emit};
use codegen::ast::Node;
use codegen::input::Problem;
use codegen::interp::{instances, run, RunError};
use polys::{Coeff, Int};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// Most points `points` lists.
pub const POINTS_LIMIT: usize = 10_000_000;
/// Most points `count` counts.
pub const COUNT_LIMIT: usize = 100_000_000;

/// The generated loops of a set with the default options, kept for `points` and `count`.
struct Scan {
    nodes: Vec<Node>,
    nvars: usize,
}

/// An integer set given in polyscan's input language (isl's set syntax with polynomial
/// terms; an optional context set and schedule map may follow the domain).
///
/// ``str(s)`` is the canonical text (the parsed set printed back), and ``Set(str(s)) == s``;
/// ``==`` and ``hash`` compare that text and the parameter values bound with
/// ``with_params``; sets pickle. Two texts that parse to the same problem are equal, two
/// different descriptions of the same points need not be.
///
/// >>> import polyscan
/// >>> s = polyscan.Set("[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }")
/// >>> s.params, s.statements
/// (['n'], {'S': ['i', 'j']})
/// >>> s.points(n=3)
/// [('S', (0, 0)), ('S', (1, 0)), ('S', (1, 1)), ('S', (2, 0)), ('S', (2, 1)), ('S', (2, 2))]
/// >>> s.count(n=100)
/// 5050
/// >>> polyscan.Set(str(s)) == s
/// True
#[pyclass(module = "polyscan", name = "Set", frozen)]
pub struct Set {
    problem: Problem,
    canonical: String,
    bound: Vec<(String, i64)>,
    scan: OnceLock<Scan>,
}

impl Set {
    /// The set of `problem` with `bound` parameter values (checked against its names).
    fn new(problem: Problem, bound: Vec<(String, i64)>) -> Result<Set, Error> {
        let mut ordered = Vec::new();
        for name in &problem.params {
            if let Some((_, v)) = bound.iter().rev().find(|(n, _)| n == name) {
                ordered.push((name.clone(), *v));
            }
        }
        if let Some((n, _)) = bound.iter().find(|(n, _)| !problem.params.contains(n)) {
            return Err(Error::input(format!(
                "'{n}' is not a parameter ({})",
                if problem.params.is_empty() {
                    "the set has none".to_string()
                } else {
                    problem.params.join(", ")
                }
            )));
        }
        Ok(Set {
            canonical: problem.to_text().trim_end().to_string(),
            problem,
            bound: ordered,
            scan: OnceLock::new(),
        })
    }

    /// The parsed problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The parameter values bound with `with_params`, in parameter order.
    pub fn bound(&self) -> &[(String, i64)] {
        &self.bound
    }

    /// The generated loops, generated once.
    fn scan(&self) -> Result<&Scan, Error> {
        if let Some(s) = self.scan.get() {
            return Ok(s);
        }
        let out = Choices::default().run(self.problem.clone())?;
        let g = out.generated;
        let scan = Scan {
            nvars: g.vars.len(),
            nodes: g.nodes,
        };
        // Another thread may have set it meanwhile; both generated the same loops.
        let _ = self.scan.set(scan);
        self.scan
            .get()
            .ok_or_else(|| Error::Internal("the generated loops were not kept".into()))
    }

    /// The bound values overridden by `given`, for every parameter.
    fn values(&self, given: &[(String, i64)]) -> Result<Vec<Int>, Error> {
        let mut all = self.bound.clone();
        all.extend(given.iter().cloned());
        Ok(values_for(&self.problem.params, &all)?
            .into_iter()
            .map(Int::from)
            .collect())
    }

    fn identity_hash(&self) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        self.canonical.hash(&mut h);
        self.bound.hash(&mut h);
        h.finish()
    }
}

/// A run of the interpreter that stopped, as an error.
fn run_error(e: RunError, limit: usize) -> Error {
    match e {
        RunError::Budget => Error::Limit(format!(
            "more than {limit} points for these parameter values"
        )),
        other => Error::input(format!("cannot run the generated code: {other:?}")),
    }
}

/// An exact integer as a Python int (through its decimal text beyond 64 bits).
pub fn int_to_py<'py>(py: Python<'py>, x: &Int) -> PyResult<Bound<'py, PyAny>> {
    match x.to_i64() {
        Some(v) => Ok(v.into_pyobject(py)?.into_any()),
        None => py
            .import("builtins")?
            .getattr("int")?
            .call1((x.to_string(),)),
    }
}

/// A set from a `str` or a `Set` argument.
pub fn problem_of(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(s) = obj.cast::<Set>() {
        return Ok(Source::Problem(Box::new(s.get().problem.clone())));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Source::Text(s.to_str()?.to_string()));
    }
    Err(Error::Argument("expected the set as a str or a polyscan.Set".into()).into_pyerr(obj.py()))
}

/// The input of a call: text to parse, or a set already parsed.
pub enum Source {
    /// Input text.
    Text(String),
    /// A `Set`'s problem.
    Problem(Box<Problem>),
}

impl Source {
    /// The parsed problem.
    pub fn problem(self) -> Result<Problem, Error> {
        match self {
            Source::Text(t) => options::parse(&t),
            Source::Problem(p) => Ok(*p),
        }
    }
}

#[pymethods]
impl Set {
    #[new]
    #[pyo3(signature = (text, params=None))]
    fn py_new(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Set> {
        let source = problem_of(text)?;
        let mut bound = match text.cast::<Set>() {
            Ok(s) => s.get().bound.clone(),
            Err(_) => Vec::new(),
        };
        bound.extend(pairs(params)?);
        detached(py, move || Set::new(source.problem()?, bound))
    }

    /// The canonical text: the parsed set printed back.
    fn __str__(&self) -> &str {
        &self.canonical
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = PyString::new(py, &self.canonical).repr()?;
        if self.bound.is_empty() {
            return Ok(format!("polyscan.Set({text})"));
        }
        let values: Vec<String> = self
            .bound
            .iter()
            .map(|(n, v)| format!("'{n}': {v}"))
            .collect();
        Ok(format!(
            "polyscan.Set({text}, params={{{}}})",
            values.join(", ")
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Set>() {
            Ok(o) => {
                let o = o.get();
                o.canonical == self.canonical && o.bound == self.bound
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        self.identity_hash()
    }

    /// Pickling: the class, the canonical text and the bound parameter values.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let params = PyDict::new(py);
        for (n, v) in &self.bound {
            params.set_item(n, v)?;
        }
        let args = (self.canonical.clone(), params).into_pyobject(py)?;
        PyTuple::new(py, [py.get_type::<Set>().into_any(), args.into_any()])
    }

    /// The parameter names, outermost first.
    #[getter]
    fn params(&self) -> Vec<String> {
        self.problem.params.clone()
    }

    /// The statements in file order: name -> iterator names.
    #[getter]
    fn statements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.problem.statements {
            d.set_item(&s.name, s.iterators.clone())?;
        }
        Ok(d)
    }

    /// The parameter values bound with ``with_params``.
    #[getter]
    fn param_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (n, v) in &self.bound {
            d.set_item(n, v)?;
        }
        Ok(d)
    }

    /// The same set with parameter values bound (used by ``points``, ``count`` and the
    /// notebook picture, ``_repr_svg_``).
    ///
    /// >>> import polyscan
    /// >>> polyscan.Set("[r] -> { S[x, y] : x^2 + y^2 <= r }").with_params(r=1).count()
    /// 5
    #[pyo3(signature = (**params))]
    fn with_params(&self, py: Python<'_>, params: Option<&Bound<'_, PyDict>>) -> PyResult<Set> {
        let mut bound = self.bound.clone();
        bound.extend(pairs(params)?);
        attached(py, || Set::new(self.problem.clone(), bound))
    }

    /// The integer points, exactly and in execution order: ``(statement, coordinates)``
    /// pairs, as the generated loops (default options) visit them for these parameter
    /// values (keyword arguments, over the values bound with ``with_params``). Raises
    /// ``LimitError`` past ten million points.
    ///
    /// >>> import polyscan
    /// >>> polyscan.Set("[n] -> { S[i, j] : 1 <= i <= n and 1 <= j and i*j <= n }").points(n=3)
    /// [('S', (1, 1)), ('S', (1, 2)), ('S', (1, 3)), ('S', (2, 1)), ('S', (3, 1))]
    #[pyo3(signature = (**params))]
    fn points<'py>(
        &self,
        py: Python<'py>,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let given = pairs(params)?;
        let found = detached(py, || {
            let values = self.values(&given)?;
            let scan = self.scan()?;
            instances(&scan.nodes, &values, scan.nvars, POINTS_LIMIT)
                .map_err(|e| run_error(e, POINTS_LIMIT))
        })?;
        let names: Vec<Bound<'py, PyString>> = self
            .problem
            .statements
            .iter()
            .map(|s| PyString::new(py, &s.name))
            .collect();
        let list = PyList::empty(py);
        for (stmt, args) in &found {
            let coords = args
                .iter()
                .map(|a| int_to_py(py, a))
                .collect::<PyResult<Vec<_>>>()?;
            let name = names.get(*stmt).ok_or_else(|| {
                Error::Internal(format!("statement {stmt} of the generated code")).into_pyerr(py)
            })?;
            list.append((name, PyTuple::new(py, coords)?))?;
        }
        Ok(list)
    }

    /// The number of integer points for these parameter values (keyword arguments, over
    /// the values bound with ``with_params``), counted by running the generated loops.
    /// Raises ``LimitError`` past a hundred million points.
    ///
    /// >>> import polyscan
    /// >>> polyscan.Set("[n] -> { S[i, j] : 1 <= i <= n and 1 <= j and i*j <= n }").count(n=100)
    /// 482
    #[pyo3(signature = (**params))]
    fn count(&self, py: Python<'_>, params: Option<&Bound<'_, PyDict>>) -> PyResult<u64> {
        let given = pairs(params)?;
        detached(py, || {
            let mut point = self.values(&given)?;
            let scan = self.scan()?;
            point.resize(scan.nvars.max(point.len()), Int::from(0));
            let mut budget = COUNT_LIMIT;
            let mut n = 0u64;
            run(&scan.nodes, &mut point, &mut budget, &mut |_, _| n += 1)
                .map_err(|e| run_error(e, COUNT_LIMIT))?;
            Ok(n)
        })
    }

    /// The loops of this set: ``polyscan.generate`` with the same keyword options.
    ///
    /// >>> import polyscan
    /// >>> print(polyscan.Set("{ S[i] : 0 <= i <= 3 }").code())
    /// for (int64_t i = 0; i <= 3; i += 1)
    ///   S(i);
    /// <BLANKLINE>
    #[pyo3(signature = (*, context=None, order=None, tile_sizes=None, tile_shape=None,
        tile_order="outside", emit="c", separate=false, timeout=None, engine="auto",
        convex=false, full_tiles=true, max_cells=None, check_overflow=false))]
    #[allow(clippy::too_many_arguments)]
    fn code(
        &self,
        py: Python<'_>,
        context: Option<String>,
        order: Option<&Bound<'_, PyAny>>,
        tile_sizes: Option<&Bound<'_, PyAny>>,
        tile_shape: Option<&Bound<'_, PyAny>>,
        tile_order: &str,
        emit: &str,
        separate: bool,
        timeout: Option<f64>,
        engine: &str,
        convex: bool,
        full_tiles: bool,
        max_cells: Option<u64>,
        check_overflow: bool,
    ) -> PyResult<String> {
        let choices = options::choices(
            context, order, tile_sizes, tile_shape, tile_order, separate, timeout, engine, convex,
            full_tiles, max_cells,
        )?;
        let how = Emit::parse(emit);
        detached(py, || {
            options::generate(self.problem.clone(), &choices?, how?, check_overflow)
        })
    }

    /// The picture of a 2-D set with all its parameters bound (``with_params``) as SVG,
    /// for notebooks; ``None`` for other sets, or when the picture cannot be drawn.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<Option<String>> {
        if self.problem.depth() != 2 || self.bound.len() != self.problem.params.len() {
            return Ok(None);
        }
        let req = crate::plot::Request {
            problem: self.problem.clone(),
            choices: Choices::default(),
            params: self.bound.clone(),
            slice: Vec::new(),
            format: polyscan_plot::Format::Svg,
            title: None,
        };
        let bytes = py.detach(|| crate::error::caught(|| crate::plot::plot(&req)));
        match bytes {
            Ok(b) => Ok(String::from_utf8(b).ok()),
            Err(e @ Error::Internal(_)) => Err(e.into_pyerr(py)),
            Err(_) => Ok(None),
        }
    }
}
