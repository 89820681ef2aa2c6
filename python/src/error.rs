//! The binding's errors as typed values ([`Error`]), the one place they become Python
//! exceptions ([`Error::into_pyerr`]), and the guard every call goes through ([`detached`]):
//! the GIL released while the library works, and a panic caught and returned as
//! [`Error::Internal`] instead of crossing into Python.

use codegen::input::InputError as ParseError;
use codegen::verify::VerifyError;
use codegen::{GenError, PipelineError};
use polyscan_kernels::KernelError;
use polyscan_la::LaError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The Python exception classes (`polyscan.Error` and its subclasses).
pub mod exceptions {
    use pyo3::exceptions::PyException;

    pyo3::create_exception!(
        polyscan,
        Error,
        PyException,
        "Base class of every error polyscan raises."
    );
    pyo3::create_exception!(
        polyscan,
        InputError,
        Error,
        "Bad input: the text (``.line`` and ``.column``, 1-based, and ``.source_line`` say where; \
     all three are None when the error has no position), a parameter value or an option. \
     ``str(e)`` is the message with the source line and a caret under the position, as the \
     command line prints it; ``.message`` is the message alone, ``.origin`` the text it is \
     in (``'input'`` or ``'context'``)."
    );
    pyo3::create_exception!(
        polyscan,
        LimitError,
        Error,
        "A resource limit was reached (``timeout``, ``max_cells``, too many points to enumerate \
     or draw, 64-bit C that cannot hold a bound); nothing keeps running afterwards."
    );
    pyo3::create_exception!(
        polyscan,
        ToolError,
        Error,
        "A tool polyscan needs is missing or failed: no C compiler for ``verify``, or the \
     operating system refused to create or run a file."
    );
    pyo3::create_exception!(
        polyscan,
        InternalError,
        Error,
        "A bug of polyscan: the library panicked. The panic was caught at the boundary; the \
     message says where it happened. Please report it with the input."
    );
}

/// Where an input error is: 1-based line and column, and the text of that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The text of the offending line.
    pub source_line: String,
}

/// Everything a call of the binding can fail with; each variant is one Python exception.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Bad input (the command line's exit code 2): `polyscan.InputError`.
    #[error("{message}")]
    Input {
        /// What the position is in: `input`, `context`.
        origin: String,
        /// What is wrong, without the position.
        message: String,
        /// Where, when the error has a position.
        position: Option<Position>,
    },
    /// A resource limit (exit code 3): `polyscan.LimitError`.
    #[error("{0}")]
    Limit(String),
    /// A missing or failing tool (exit code 3): `polyscan.ToolError`.
    #[error("{0}")]
    Tool(String),
    /// An argument of the wrong Python type: `TypeError`.
    #[error("{0}")]
    Argument(String),
    /// A panic of the library, caught: `polyscan.InternalError`.
    #[error("internal error (a bug of polyscan; please report it with the input): {0}")]
    Internal(String),
}

impl Error {
    /// Bad input without a position (an option or a parameter value).
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input {
            origin: "input".into(),
            message: message.into(),
            position: None,
        }
    }

    /// A parse error of `origin` (`input`, `context`) with its position.
    pub fn parse(origin: &str, e: &ParseError) -> Error {
        Error::Input {
            origin: origin.into(),
            message: e.message.clone(),
            position: Some(Position {
                line: e.line,
                column: e.column,
                source_line: e.source_line.clone(),
            }),
        }
    }

    /// A generation error, as `polyscan gen` maps it (`gen_diagnostic`).
    pub fn gen(e: GenError) -> Error {
        if let Some(r) = e.stop_reason() {
            return Error::Limit(format!("resource limit: {r}"));
        }
        match e {
            GenError::Input(ie) => Error::parse("input", &ie),
            other => Error::input(other.to_string()),
        }
    }

    /// A pipeline error, as `polyscan gen` maps it (`pipeline_diagnostic`).
    pub fn pipeline(e: PipelineError) -> Error {
        match e {
            PipelineError::Context(ie) => Error::parse("context", &ie),
            PipelineError::Tiling(m) => Error::input(m),
            PipelineError::Gen(e) => Error::gen(e),
        }
    }

    /// An error of the linear-algebra layer on source `src`, as `polyscan la` maps it.
    pub fn la(src: &str, e: &LaError) -> Error {
        match e.position() {
            Some((line, column)) => Error::Input {
                origin: "input".into(),
                message: e.to_string(),
                position: Some(Position {
                    line,
                    column,
                    source_line: src
                        .lines()
                        .nth(line.saturating_sub(1))
                        .unwrap_or("")
                        .to_string(),
                }),
            },
            None if matches!(e, LaError::Resource(_)) => Error::Limit(e.to_string()),
            None => Error::input(e.to_string()),
        }
    }

    /// A kernel request the catalogue refuses (exit code 2 of `polyscan kernel`).
    pub fn kernel(e: KernelError) -> Error {
        match e {
            KernelError::BadInput(m) | KernelError::Generation(m) => Error::input(m),
        }
    }

    /// A verification step that could not run, as `polyscan verify` maps it to exit code
    /// 3 (the differences, exit code 1, are `Ok(false)` of `verify`, not errors).
    pub fn verify(e: VerifyError) -> Error {
        match e {
            VerifyError::NoCompiler | VerifyError::Io(_) => Error::Tool(e.to_string()),
            other => Error::Limit(other.to_string()),
        }
    }

    /// The message with the source line and a caret under the column, laid out as the
    /// command line's diagnostics (without their `error: ` prefix).
    pub fn render(&self) -> String {
        match self {
            Error::Input {
                origin,
                message,
                position: Some(p),
            } => {
                // Tabs keep their width so that the caret lines up under the character.
                let pad: String = p
                    .source_line
                    .chars()
                    .take(p.column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                format!(
                    "{message}\n  --> {origin}:{}, column {}\n   |\n   | {}\n   | {pad}^",
                    p.line, p.column, p.source_line
                )
            }
            other => other.to_string(),
        }
    }

    /// The Python exception: the one place where errors become exceptions.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let text = self.render();
        match self {
            Error::Input {
                origin,
                message,
                position,
            } => {
                let err = exceptions::InputError::new_err(text);
                let value = err.value(py);
                let (line, column, source_line) = match position {
                    Some(p) => (Some(p.line), Some(p.column), Some(p.source_line)),
                    None => (None, None, None),
                };
                let set = || -> PyResult<()> {
                    value.setattr("message", message)?;
                    value.setattr("origin", origin)?;
                    value.setattr("line", line)?;
                    value.setattr("column", column)?;
                    value.setattr("source_line", source_line)?;
                    Ok(())
                };
                // Setting attributes on a fresh exception instance only fails when Python
                // is out of memory; that error is the one to raise then.
                match set() {
                    Ok(()) => err,
                    Err(e) => e,
                }
            }
            Error::Argument(_) => pyo3::exceptions::PyTypeError::new_err(text),
            Error::Limit(_) => exceptions::LimitError::new_err(text),
            Error::Tool(_) => exceptions::ToolError::new_err(text),
            Error::Internal(_) => exceptions::InternalError::new_err(text),
        }
    }
}

/// Runs `f`, turning a panic into [`Error::Internal`].
pub fn caught<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".into());
            Err(Error::Internal(what))
        }
    }
}

/// Runs `f` with the GIL released (other Python threads run meanwhile) and panics caught,
/// and converts its error to the Python exception.
pub fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    py.detach(|| caught(f)).map_err(|e| e.into_pyerr(py))
}

/// Runs `f` holding the GIL (it handles Python objects), panics caught.
pub fn attached<T>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error>) -> PyResult<T> {
    caught(f).map_err(|e| e.into_pyerr(py))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let r: Result<(), Error> = caught(|| panic!("boom"));
        assert_eq!(r, Err(Error::Internal("boom".into())));
    }

    #[test]
    fn the_caret_is_under_the_column() {
        let e = codegen::input::parse_problem("{ S[i] : 0 <= i <= }")
            .expect_err("a missing operand is a parse error");
        let text = Error::parse("input", &e).render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "expected a polynomial");
        assert_eq!(lines[1], "  --> input:1, column 20");
        assert_eq!(lines[4].find('^'), Some(5 + 19));
    }
}
