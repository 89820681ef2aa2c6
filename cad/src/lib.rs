//! Cylindrical algebraic decomposition adapted to polynomial constraints: root isolation,
//! real algebraic numbers, projection and a pruned lifting tree. Built on `polys`.
//!
//! Given one quantifier-free [`formula::Formula`] per statement over variables
//! `x_0 .. x_(n-1)` (outermost loop first), a [`Cad`] splits R^n into cells on which every
//! formula has a constant truth value, organised as a tree: level `k` fixes `x_k`, and the
//! children of a cell are the stack of cells above it. The code generator turns that tree
//! into loop nests; this crate owns everything needed to build and query it, exactly.
//!
//! # Pipeline and main types
//!
//! - [`project::Projection`]: from the formulas' polynomials to one square-free basis per
//!   level (Brown's operator, McCallum's for polynomials that need it, and the affine
//!   shortcut for polynomials linear in the eliminated variable); with
//!   [`equational`] constraints, the last level projected against them only.
//! - [`lift::Lifter`] and [`lift::Cell`]: the lifting tree, one sample point per cell,
//!   cut ([`lift::Prune`]) as soon as no formula can hold or a cell holds no integer point.
//! - [`Cad`]: projection plus lifting, with the McCallum restart when Brown's projection
//!   turns out not to be valid, and point location ([`Cad::locate`], [`Locator`]) for
//!   checking generated code against the decomposition.
//! - [`formula`]: atoms `p ~ 0` combined with and, or and not, with three-valued
//!   evaluation on partial samples; [`order::brown_order`] chooses a variable order.
//! - [`UPoly`]: dense univariate integer polynomials for the inner loops.
//! - [`isolate_roots`]: real root isolation (Descartes / Vincent-Collins-Akritas).
//! - [`Algebraic`]: real algebraic numbers with exact comparison, floor, signs of
//!   polynomials and sector samples.
//! - [`sign_at`]: the exact sign of a multivariate polynomial at an algebraic point, by a
//!   cascade whose stages are counted in [`SignStats`].
//! - [`Limits`], [`StopReason`], [`LiftStats`] and [`CadError`]: resource limits, the
//!   counters behind `--stats`, and every way a decomposition can fail.
//! - [`qepcad`]: a driver for QEPCAD B, the reference implementation it is checked and
//!   benchmarked against.
//!
//! # Invariants
//!
//! - Variable `x_k` is index `k` of the `polys` variable list, and level `k` of the
//!   projection holds the basis polynomials whose main (highest) variable is `x_k`: the
//!   last variable is eliminated first, matching the term order of `polys`. Each level's
//!   basis is square-free and Z-primitive, pairwise coprime from level 1 up; level 0's
//!   members share no real root and each has one (the stack over R^0 sees nothing else,
//!   see `root_basis`).
//! - Every stack is sorted along its variable, sectors alternating with sections; cell
//!   bounds name roots of the level's basis polynomials by (polynomial, 1-based root)
//!   index rather than by value.
//! - Each formula's truth value is constant on a cell, so the value at the cell's sample
//!   is the value everywhere in it. A pruned cell has no children; a cell of the last
//!   level that is not pruned has every formula decided.
//! - Answers are exact: roots, samples and signs use integer and rational arithmetic, and
//!   floating-point intervals (rounded outwards) only ever settle a sign early, never decide
//!   one by approximation.
//!
//! # Example
//!
//! Decompose the disc `x^2 + y^2 <= 4`, count the leaves of the tree and locate points in
//! it:
//!
//! ```
//! use cad::formula::Formula;
//! use cad::lift::Prune;
//! use cad::{Cad, LiftStats};
//! use polys::{Int, Vars};
//!
//! let vars = Vars::from_names(["x", "y"]);
//! let disc = Formula::conjunction(&vars, &["x^2 + y^2 <= 4"]).unwrap();
//! let stats = LiftStats::default();
//! let cad = Cad::new(vec![disc], vec![], 2, &stats).unwrap();
//!
//! // Projecting y away leaves x^2 - 4, whose roots -2 and 2 split the x-axis into 5 cells.
//! assert_eq!(cad.projection.levels[0][0].to_text(&vars), "x^2 - 4");
//! assert_eq!(cad.cells.len(), 5);
//!
//! // 13 leaves: 5 cells where the disc holds, 8 cut because it cannot hold there.
//! let (mut inside, mut cut) = (0, 0);
//! cad.for_each_leaf(|path| match path.last().unwrap().pruned {
//!     None => inside += 1,
//!     Some(_) => cut += 1,
//! });
//! assert_eq!((inside, cut), (5, 8));
//! assert_eq!(cad.leaf_count(), 13);
//!
//! // (1, 1) lies in a 2-dimensional cell of the disc; (3, 0) in a cell cut as false.
//! let locate = |x: i64, y: i64| cad.locate(&[Int::from(x), Int::from(y)], &stats).unwrap();
//! let path = locate(1, 1);
//! assert_eq!(path.len(), 2);
//! assert_eq!(path[1].truth, [true]);
//! assert_eq!(locate(3, 0).last().unwrap().pruned, Some(Prune::False));
//! ```

#![warn(missing_docs)]

mod algebraic;
mod error;
mod float_interval;
mod interval;
mod isolate;
mod limits;
mod root_basis;
mod root_box;
mod root_count;
mod sign;
mod sign_change;
mod sturm;
mod taylor;
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
pub mod equational;
pub mod formula;
pub mod lift;
pub mod project;
pub mod qepcad;
mod tree;

pub use decompose::{stats_summary, Cad, Locator};
pub use lift::LiftStats;
pub mod order;
