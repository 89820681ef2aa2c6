//! [`GenError`]: every way code generation can refuse an input.

use crate::bounds::BoundError;
use crate::input::InputError;
use cad::CadError;
use thiserror::Error;

#[derive(Debug, Clone, Error)]
pub enum GenError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("decomposition failed: {0}")]
    Cad(#[from] CadError),
    #[error(transparent)]
    Bound(#[from] BoundError),
    /// A loop would have no lower or upper bound.
    #[error("the domain is unbounded in {var} {side}{region}")]
    Unbounded {
        var: String,
        /// "below" or "above".
        side: &'static str,
        /// Where in the outer space, e.g. " for n = 3" (a sample of the region).
        region: String,
    },
    #[error("--order: {0}")]
    Order(String),
    #[error("tiling: {0}")]
    Tiling(String),
    /// A cell or time limit of the caller was reached.
    #[error("resource limit: {0}")]
    Stopped(#[from] cad::StopReason),
}

impl GenError {
    /// Why generation stopped early, when a limit (not the input) ended it.
    pub fn stop_reason(&self) -> Option<cad::StopReason> {
        match self {
            GenError::Stopped(r) | GenError::Cad(CadError::Limit(r)) => Some(*r),
            _ => None,
        }
    }
}
