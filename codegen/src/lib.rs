//! Code generation: the input language, CAD cells to a loop AST, simplification, and
//! emission as C or Rust, with verification against brute-force enumeration.

pub mod ast;
pub mod bounds;
mod c_ast;
mod checked;
pub mod emit_c;
pub mod emit_rust;
mod enclosure;
mod error;
pub mod expr;
mod fourier_motzkin;
mod generate;
mod generated;
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
pub use generate::{generate, GenOptions};
pub use generated::Generated;
pub use linear::Separation;
pub use pipeline::{Engine, Order, Outcome, Pipeline, PipelineError, Shape};
pub use tile_problem::{TiledProblem, Tiling};
pub use tiled::ClampTiling;
pub use tiling::TileOrder;
pub mod verify;
