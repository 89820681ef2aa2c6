//! Code generation: the input language, CAD cells to a loop AST, simplification, and
//! emission as C or Rust, with verification against brute-force enumeration.

pub mod input;
