//! Cylindrical algebraic decomposition adapted to polynomial constraints: root isolation,
//! real algebraic numbers, projection and a pruned lifting tree. Built on `polys`.
//!
//! - [`UPoly`]: dense univariate integer polynomials for the inner loops.
//! - [`isolate_roots`]: real root isolation (Descartes / Vincent-Collins-Akritas).
//! - [`Algebraic`]: real algebraic numbers with exact comparison, floor, signs of
//!   polynomials and sector samples.
//! - [`sign_at`]: the exact sign of a multivariate polynomial at an algebraic point, by a
//!   cascade whose stages are counted in [`SignStats`].

mod algebraic;
mod error;
mod float_interval;
mod interval;
mod isolate;
mod limits;
mod root_box;
mod sign;
mod upoly;

pub use algebraic::{Algebraic, RealRoot};
pub use error::CadError;
pub use interval::Interval;
pub use isolate::{
    count_roots, isolate_roots, isolate_roots_in, refine_root, root_bound, RootInterval,
};
pub use limits::{Limits, StopReason};
pub use sign::{sign_at, SignCounts, SignStats};
pub use upoly::UPoly;

mod decompose;
pub mod formula;
pub mod lift;
pub mod project;
pub mod qepcad;

pub use decompose::{stats_summary, Cad, Locator};
pub use lift::LiftStats;
pub mod order;
