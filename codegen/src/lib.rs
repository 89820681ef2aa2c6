//! Code generation: the input language, CAD cells to a loop AST, simplification, and
//! emission as C or Rust, with verification against brute-force enumeration.

pub mod ast;
pub mod bounds;
pub mod emit_c;
pub mod emit_rust;
mod error;
pub mod expr;
mod generate;
pub mod input;
pub mod interp;
mod intervals;
pub mod linear;
mod lower;
pub mod overflow;
pub mod pipeline;
mod signs;
mod simplify;
pub mod tile_problem;
pub mod tiled;
mod union;

pub use cad::{Limits, StopReason};
pub use error::GenError;
pub use generate::{generate, GenOptions, Generated};
pub use linear::Separation;
pub use pipeline::{Engine, Order, Outcome, Pipeline, PipelineError, Shape};
pub use tile_problem::{TiledProblem, Tiling};
pub use tiled::ClampTiling;
pub use tiling::TileOrder;
pub mod verify;
