//! [`GenError`]: every way code generation can refuse an input.

use crate::bounds::BoundError;
use crate::input::InputError;
use cad::CadError;
use thiserror::Error;

/// Why code generation refused an input or stopped.
#[derive(Debug, Clone, Error)]
pub enum GenError {
    /// The input text is not a valid problem; the error carries its position.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The cylindrical algebraic decomposition failed (including its own limits; see
    /// [`GenError::stop_reason`]).
    #[error("decomposition failed: {0}")]
    Cad(#[from] CadError),
    /// A loop bound cannot be written exactly.
    #[error(transparent)]
    Bound(#[from] BoundError),
    /// A loop would have no lower or upper bound.
    #[error("the domain is unbounded in {var} {side}{region}")]
    Unbounded {
        /// The name of the unbounded variable.
        var: String,
        /// "below" or "above".
        side: &'static str,
        /// Where in the outer space, e.g. " for n = 3" (a sample of the region).
        region: String,
    },
    /// The requested loop order (`--order`) is invalid: not a permutation of the
    /// iterators, or combined with a schedule, which fixes the order itself.
    #[error("--order: {0}")]
    Order(String),
    /// The requested tiling cannot be generated for this problem (e.g. its constraints
    /// are not linear in the loop variables, or the tile bounds could not be derived).
    #[error("tiling: {0}")]
    Tiling(String),
    /// A statement quantifies variables in a way generation cannot handle yet (the
    /// message names the statement and the variables; see `existential`).
    #[error("{0}")]
    Quantified(String),
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
