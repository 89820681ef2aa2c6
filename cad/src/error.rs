//! [`CadError`]: every way a CAD primitive can refuse its input.

use thiserror::Error;

/// Failures of the root isolation, algebraic number and sign routines.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CadError {
    /// Every real number is a root of the zero polynomial, so nothing can be isolated.
    #[error("the zero polynomial has every real number as a root")]
    ZeroPolynomial,
    /// A polynomial expected in one variable contains another.
    #[error("polynomial is not univariate in x{var}: it contains x{other}")]
    NotUnivariate {
        /// The variable the polynomial was meant to be in.
        var: usize,
        /// A further variable that occurs.
        other: usize,
    },
    /// An interval given for an algebraic number does not isolate exactly one root.
    #[error("({lo}, {hi}) does not isolate exactly one root of the defining polynomial")]
    NotIsolating {
        /// Lower endpoint, printed.
        lo: String,
        /// Upper endpoint, printed.
        hi: String,
    },
    /// A point has no coordinate for a variable of the polynomial evaluated there.
    #[error("the point has no coordinate for variable x{0}")]
    MissingCoordinate(usize),
    /// Two numbers meant to bound a sector are not in increasing order.
    #[error("no number lies strictly between {lo} and {hi}")]
    EmptyInterval {
        /// Lower bound, printed.
        lo: String,
        /// Upper bound, printed.
        hi: String,
    },
    /// A fact the mathematics guarantees did not hold: a bug, reported instead of a panic.
    #[error("internal invariant broken: {0}")]
    Invariant(&'static str),
    /// A cell count or time limit set by the caller was reached.
    #[error("resource limit: {0}")]
    Limit(#[from] crate::StopReason),
}
