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
mod signs;
mod simplify;
pub mod tiled;
mod union;

pub use error::GenError;
pub use generate::{generate, GenOptions, Generated};
pub use linear::Separation;
pub use tiled::ClampTiling;
pub mod verify;
