//! The Python package `polyscan` (module `polyscan._native`, re-exported by
//! `python/polyscan/__init__.py`): a thin PyO3 binding over the library crates. Every
//! function reads its arguments, releases the GIL, calls the library with panics caught
//! (`error::detached`) and converts the result; errors are typed values (`error::Error`)
//! turned into `polyscan.InputError`, `LimitError`, `ToolError`, `InternalError` or a
//! `TypeError` in one place (`Error::into_pyerr`). The steps the command line adds around the library (flag mapping, plot, verify)
//! are mirrored in `options`, `plot`, `verify` and `la`.
//!
//! Built by maturin (`pip install ./python`, see `python/pyproject.toml`); `cargo test`
//! builds it against libpython for its unit tests.

#![warn(missing_docs)]

mod api;
mod error;
mod la;
mod options;
mod plot;
mod set;
mod verify;

use pyo3::prelude::*;

// Exact arithmetic allocates small vectors at a high rate; the extension uses the same
// allocator as the `polyscan` binary, so that a call costs what the command's does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exact loop nests for integer sets bounded by polynomial constraints (the compiled part
/// of the ``polyscan`` package; import ``polyscan``).
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<set::Set>()?;
    m.add_function(wrap_pyfunction!(api::generate, m)?)?;
    m.add_function(wrap_pyfunction!(api::verify, m)?)?;
    m.add_function(wrap_pyfunction!(api::plot, m)?)?;
    m.add_function(wrap_pyfunction!(api::la, m)?)?;
    m.add_function(wrap_pyfunction!(api::la_program, m)?)?;
    m.add_function(wrap_pyfunction!(api::kernel, m)?)?;
    m.add_function(wrap_pyfunction!(api::_library_generate_times, m)?)?;
    m.add_function(wrap_pyfunction!(api::_panic_for_test, m)?)?;
    m.add("Error", py.get_type::<error::exceptions::Error>())?;
    m.add("InputError", py.get_type::<error::exceptions::InputError>())?;
    m.add("LimitError", py.get_type::<error::exceptions::LimitError>())?;
    m.add("ToolError", py.get_type::<error::exceptions::ToolError>())?;
    m.add(
        "InternalError",
        py.get_type::<error::exceptions::InternalError>(),
    )?;
    Ok(())
}
