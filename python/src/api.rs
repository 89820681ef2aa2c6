//! The module-level functions of `polyscan`: each reads its Python arguments, releases
//! the GIL, calls the library (through `options`, `verify`, `plot` and `la` for the steps
//! the command line adds) with panics caught, and converts the result.

use crate::error::{detached, Error};
use crate::options::{self, pairs, Emit};
use crate::set::problem_of;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

/// The exact C loops that visit every integer point of a set once, in lexicographic
/// order, for every parameter value: what ``polyscan gen`` prints, with the same options
/// (``context``: constraints on the parameters; ``order``: iterator names outermost first,
/// or ``"brown"``; ``tile_sizes``, ``tile_shape``, ``tile_order``: parametric tiling;
/// ``emit``: ``"c"`` (a fragment), ``"c-function"`` (self-contained C99) or ``"rust"``;
/// ``separate``: one nest per CAD cell; ``timeout`` in seconds; keyword-only: ``engine``
/// ``"auto"`` or ``"cad"``, ``convex``, ``full_tiles`` (separate full tiles),
/// ``max_cells``, ``check_overflow``). ``text`` may also be a ``Set``.
///
/// Raises ``InputError`` for bad input (with its position), ``LimitError`` when the
/// timeout or the cell limit is reached.
///
/// >>> import polyscan
/// >>> print(polyscan.generate("[n] -> { S[i, j] : 1 <= i <= n and 1 <= j and i*j <= n }", context="n >= 1"))
/// for (int64_t i = 1; i <= n; i += 1)
///   for (int64_t j = 1; j <= ps_floord(n, i); j += 1)
///     S(i, j);
/// <BLANKLINE>
#[pyfunction]
#[pyo3(signature = (text, context=None, order=None, tile_sizes=None, tile_shape=None,
    tile_order="outside", emit="c", separate=false, timeout=None, *, engine="auto",
    convex=false, full_tiles=true, max_cells=None, check_overflow=false))]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
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
    let source = problem_of(text)?;
    let choices = options::choices(
        context, order, tile_sizes, tile_shape, tile_order, separate, timeout, engine, convex,
        full_tiles, max_cells,
    )?;
    let how = Emit::parse(emit);
    detached(py, || {
        options::generate(source.problem()?, &choices?, how?, check_overflow)
    })
}

/// Parameter sets from `None`, one dict, or a sequence of dicts.
fn param_sets(params: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<(String, i64)>>> {
    let Some(p) = params else {
        return Ok(Vec::new());
    };
    if let Ok(d) = p.cast::<PyDict>() {
        return Ok(vec![pairs(Some(d))?]);
    }
    let mut sets = Vec::new();
    for item in p.try_iter()? {
        let item = item?;
        let d = item.cast::<PyDict>().map_err(|_| {
            Error::Argument("params: expected a dict of parameter values or a list of them".into())
                .into_pyerr(p.py())
        })?;
        sets.push(pairs(Some(d))?);
    }
    Ok(sets)
}

/// Checks the generated code like ``polyscan verify``: compiles it with the system C
/// compiler (``$CC``, ``cc`` or ``gcc``), runs it for each parameter set (``params``: a
/// list of dicts, or one dict; may be omitted for sets without parameters) and compares
/// the instances with a brute-force enumeration of the domain. ``True`` when every run
/// agrees; with ``details=True``, one dict per run instead (``params``, ``instances``,
/// ``difference``: ``None`` or the first difference; ``outside_context``: the values
/// violate the context, where the code promises nothing, so nothing was checked). The generation options are
/// ``generate``'s; ``check_overflow`` compiles the checked variant, ``run_timeout`` (s)
/// stops a run.
///
/// Raises ``ToolError`` without a C compiler, ``LimitError`` at a limit.
///
/// >>> import polyscan
/// >>> polyscan.verify("[n] -> { S[i, j] : 1 <= i <= n and 1 <= j and i*j <= n }", params=[{"n": 0}, {"n": 7}])
/// True
#[pyfunction]
#[pyo3(signature = (text, params=None, *, context=None, order=None, tile_sizes=None,
    tile_shape=None, tile_order="outside", separate=false, timeout=None, engine="auto",
    convex=false, full_tiles=true, max_cells=None, check_overflow=false, run_timeout=60.0,
    details=false))]
#[allow(clippy::too_many_arguments)]
pub fn verify<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyAny>>,
    context: Option<String>,
    order: Option<&Bound<'py, PyAny>>,
    tile_sizes: Option<&Bound<'py, PyAny>>,
    tile_shape: Option<&Bound<'py, PyAny>>,
    tile_order: &str,
    separate: bool,
    timeout: Option<f64>,
    engine: &str,
    convex: bool,
    full_tiles: bool,
    max_cells: Option<u64>,
    check_overflow: bool,
    run_timeout: f64,
    details: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let source = problem_of(text)?;
    let sets = param_sets(params)?;
    let choices = options::choices(
        context, order, tile_sizes, tile_shape, tile_order, separate, timeout, engine, convex,
        full_tiles, max_cells,
    )?;
    let runs = detached(py, || {
        crate::verify::verify(
            source.problem()?,
            &choices?,
            &sets,
            check_overflow,
            run_timeout,
        )
    })?;
    if !details {
        let ok = runs.iter().all(|r| r.difference.is_none());
        return Ok(pyo3::types::PyBool::new(py, ok).to_owned().into_any());
    }
    let list = PyList::empty(py);
    for r in runs {
        let d = PyDict::new(py);
        d.set_item("params", r.shown)?;
        d.set_item("instances", r.instances)?;
        d.set_item("difference", r.difference)?;
        d.set_item("outside_context", r.outside_context)?;
        list.append(d)?;
    }
    Ok(list.into_any())
}

/// A picture of a 2-D set (or of a 2-D ``slice`` of a deeper one, e.g. ``{"z": 0}``) for
/// parameter values ``params`` (tile sizes named in ``tile_sizes`` included): constraint
/// curves, the CAD's cells, the integer points coloured by statement and joined in the
/// order the generated code visits them (run by the exact interpreter), tiles. SVG text,
/// or PNG bytes with ``png=True``. The generation options are ``generate``'s.
///
/// >>> import polyscan
/// >>> svg = polyscan.plot("[r] -> { S[x, y] : x^2 + y^2 <= r }", {"r": 5})
/// >>> svg.startswith("<svg"), "S: 21 points" in svg
/// (True, True)
/// >>> polyscan.plot("[r] -> { S[x, y] : x^2 + y^2 <= r }", {"r": 5}, png=True)[:4]
/// b'\x89PNG'
#[pyfunction]
#[pyo3(signature = (text, params=None, *, slice=None, png=false, title=None, context=None,
    order=None, tile_sizes=None, tile_shape=None, tile_order="outside", separate=false,
    timeout=None, engine="auto", convex=false, full_tiles=true, max_cells=None))]
#[allow(clippy::too_many_arguments)]
pub fn plot<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
    slice: Option<&Bound<'py, PyDict>>,
    png: bool,
    title: Option<String>,
    context: Option<String>,
    order: Option<&Bound<'py, PyAny>>,
    tile_sizes: Option<&Bound<'py, PyAny>>,
    tile_shape: Option<&Bound<'py, PyAny>>,
    tile_order: &str,
    separate: bool,
    timeout: Option<f64>,
    engine: &str,
    convex: bool,
    full_tiles: bool,
    max_cells: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let source = problem_of(text)?;
    let mut params = pairs(params)?;
    if let Ok(s) = text.cast::<crate::set::Set>() {
        // A set's bound values count, under the ones given here.
        params = s.get().bound().iter().cloned().chain(params).collect();
    }
    let slice = pairs(slice)?;
    let choices = options::choices(
        context, order, tile_sizes, tile_shape, tile_order, separate, timeout, engine, convex,
        full_tiles, max_cells,
    )?;
    let format = if png {
        polyscan_plot::Format::Png
    } else {
        polyscan_plot::Format::Svg
    };
    let bytes = detached(py, || {
        crate::plot::plot(&crate::plot::Request {
            problem: source.problem()?,
            choices: choices?,
            params,
            slice,
            format,
            title,
        })
    })?;
    if png {
        return Ok(PyBytes::new(py, &bytes).into_any());
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Tool("the SVG is not UTF-8".into()).into_pyerr(py))?;
    Ok(PyString::new(py, &text).into_any())
}

/// Maps a linear-algebra problem (Linnea's input language) to a cheap kernel sequence,
/// as ``polyscan la --json``: a dict with ``kernels`` (name, FLOPs, operation,
/// properties), ``flops``, ``naive_flops``, the search times and, for sizes left open
/// (``n = ?``), ``candidates`` and the ``regions`` of the size space where each is the
/// cheapest. ``time_limit`` (s, default 1) bounds the search; keyword-only ``timeout``
/// and ``max_cells`` bound the decomposition of the open sizes.
///
/// >>> import polyscan
/// >>> r = polyscan.la("n = 100\nMatrix A(n, n) <SPD>\nColumnVector b(n) <>\nColumnVector x(n) <>\nx = inv(A) * b\n")
/// >>> [k["name"] for k in r["kernels"]]
/// ['POTRF', 'TRSV', 'TRSV']
#[pyfunction]
#[pyo3(signature = (text, time_limit=None, *, timeout=None, max_cells=None))]
pub fn la<'py>(
    py: Python<'py>,
    text: String,
    time_limit: Option<f64>,
    timeout: Option<f64>,
    max_cells: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (sol, regions) = detached(py, || {
        crate::la::solve_json(&text, time_limit, &cad::Limits::new(max_cells, timeout))
    })?;
    let json = py.import("json")?;
    let d = json.call_method1("loads", (sol,))?;
    if let Some(r) = regions {
        d.call_method1("update", (json.call_method1("loads", (r,))?,))?;
    }
    Ok(d)
}

/// The self-contained C program of ``polyscan la --emit c``: operands at the declared
/// sizes (``sizes``: a dict of overrides; ``scale``), inputs with the declared properties
/// (``seed``), the kernel sequence from ``backend`` (``"generated"``: polyscan's blocked
/// kernels and generated nests; ``"blas"``: CBLAS and LAPACK; ``"nests"``), timed, and
/// checked against a naive evaluation (``tolerance``).
///
/// >>> import polyscan
/// >>> c = polyscan.la_program("n = 100\nMatrix A(n, n) <SPD>\nColumnVector b(n) <>\nColumnVector x(n) <>\nx = inv(A) * b\n")
/// >>> "int main" in c
/// True
#[pyfunction]
#[pyo3(signature = (text, backend="generated", *, sizes=None, scale=None, seed=None,
    tolerance=None, repeat=None, time_limit=None, title="problem"))]
#[allow(clippy::too_many_arguments)]
pub fn la_program(
    py: Python<'_>,
    text: String,
    backend: &str,
    sizes: Option<&Bound<'_, PyDict>>,
    scale: Option<f64>,
    seed: Option<u64>,
    tolerance: Option<f64>,
    repeat: Option<u32>,
    time_limit: Option<f64>,
    title: &str,
) -> PyResult<String> {
    let sizes: Vec<(String, u64)> = match sizes {
        None => Vec::new(),
        Some(d) => d
            .iter()
            .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<u64>()?)))
            .collect::<PyResult<_>>()?,
    };
    let req = crate::la::ProgramRequest {
        backend: backend.to_string(),
        sizes,
        scale,
        seed,
        tolerance,
        repeat,
        time_limit,
        title: title.to_string(),
    };
    detached(py, || crate::la::program_text(&text, &req))
}

/// A blocked BLAS/LAPACK kernel as one C file, as ``polyscan kernel NAME``:
/// ``polyscan_dNAME`` (CBLAS's arguments after the enumerations) and
/// ``polyscan_dNAME_tiled``. Names: GEMM, SYRK, SYMM, TRMM, GEMV, TRSM, TRSV, POTRF,
/// GETRF, TRTRI, LAUUM (also ``dgemm``, ``cblas_dgemm``, ...); ``uplo`` ``"L"``/``"U"``,
/// ``trans`` ``"N"``/``"T"`` (GEMM: of A), ``transb`` (GEMM, SYMM: of B), ``side``
/// ``"L"``/``"R"``, ``diag`` ``"N"``/``"U"``
/// (``None``: the kernel's default; a flag the kernel does not take is an
/// ``InputError``), ``layout`` ``"col"`` or ``"row"``, ``openmp`` pragmas on the tile
/// loops that carry no dependence.
///
/// >>> import polyscan
/// >>> "polyscan_dgemm_tiled" in polyscan.kernel("GEMM")
/// True
#[pyfunction]
#[pyo3(signature = (name, uplo=None, trans=None, side=None, diag=None, layout="col",
    openmp=false, transb=None))]
#[allow(clippy::too_many_arguments)]
pub fn kernel(
    py: Python<'_>,
    name: String,
    uplo: Option<String>,
    trans: Option<String>,
    side: Option<String>,
    diag: Option<String>,
    layout: &str,
    openmp: bool,
    transb: Option<String>,
) -> PyResult<String> {
    let flags = crate::la::KernelFlags {
        uplo,
        trans,
        transb,
        side,
        diag,
        layout: layout.to_string(),
        openmp,
    };
    detached(py, || crate::la::kernel_text(&name, &flags))
}

/// For the overhead benchmark (python/benches/overhead.py): the seconds each of `repeat`
/// library calls takes to do what ``generate(text)`` does (parse, ``Pipeline`` with its
/// defaults, the C fragment), timed in Rust inside this process, no Python in between.
#[pyfunction]
pub fn _library_generate_times(py: Python<'_>, text: String, repeat: usize) -> PyResult<Vec<f64>> {
    detached(py, || {
        let mut times = Vec::with_capacity(repeat);
        for _ in 0..repeat {
            let start = std::time::Instant::now();
            let problem =
                codegen::input::parse_problem(&text).map_err(|e| Error::parse("input", &e))?;
            let out = codegen::Pipeline::new(problem)
                .run()
                .map_err(Error::pipeline)?;
            let g = out.generated;
            let c = g
                .emitter()
                .fragment(&g.nodes)
                .map_err(|e| Error::Limit(e.to_string()))?;
            std::hint::black_box(c);
            times.push(start.elapsed().as_secs_f64());
        }
        Ok(times)
    })
}

/// For the tests: panics inside the guard every call goes through, which must come out
/// as ``polyscan.InternalError``.
#[pyfunction]
pub fn _panic_for_test(py: Python<'_>) -> PyResult<()> {
    detached(py, || -> Result<(), Error> {
        panic!("a deliberate panic (polyscan._native._panic_for_test)")
    })
}
