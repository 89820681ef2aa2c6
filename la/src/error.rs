//! [`LaError`]: everything that can go wrong between a problem file and a kernel sequence,
//! with the 1-based line and column of the offending input where there is one.

use thiserror::Error;

/// An error of the linear-algebra layer.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LaError {
    /// Malformed or inconsistent input at a position of the source.
    #[error("{message}")]
    Input {
        /// What is wrong.
        message: String,
        /// Line of the offending input, from 1.
        line: usize,
        /// Column of the offending input, from 1.
        column: usize,
    },
    /// The input is valid but uses something this implementation does not handle.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The problem exceeds a size limit of the search (exit code 3).
    #[error("resource limit: {0}")]
    Resource(String),
    /// A numerical operation met a (numerically) singular matrix.
    #[error("numerical failure: {0}")]
    Numerical(String),
}

impl LaError {
    pub(crate) fn at(line: usize, column: usize, message: impl Into<String>) -> LaError {
        LaError::Input {
            message: message.into(),
            line,
            column,
        }
    }

    /// The (line, column) of the error, if it has one.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            LaError::Input { line, column, .. } => Some((*line, *column)),
            _ => None,
        }
    }
}
