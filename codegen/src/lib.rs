//! Code generation: exact loop nests for integer sets bounded by polynomial constraints.
//!
//! This crate owns everything between the input text and the emitted code: the input
//! language ([`input`]), the one generation pipeline ([`pipeline::Pipeline`]), the
//! scanners that derive loops without a decomposition, the lowering of a cylindrical
//! algebraic decomposition (from the `cad` crate) to a loop AST ([`ast`]) with exact
//! integer bounds ([`expr`], [`bounds`]), the clean-up passes, the C and Rust printers
//! ([`emit_c`], [`emit_rust`]) and the checks of their output: an exact interpreter
//! ([`interp`]), compile-run-compare against brute-force enumeration ([`verify`]) and
//! the parameter range in which the emitted `int64_t` arithmetic cannot overflow
//! ([`overflow`]). Parametric tiling is done by the `tiling` crate; [`tile_problem`] and
//! [`tiled`] adapt it to generation.
//!
//! # The pipeline
//!
//! 1. **Parse** ([`input::parse_problem`]): isl's set syntax with polynomial terms, an
//!    optional context and an optional schedule map (functions, relations, piecewise), to
//!    a [`input::Problem`] whose
//!    formulas are over one variable list: parameters first, then iterator positions
//!    (statements share loops by position).
//! 2. **Configure and run** ([`Pipeline`]): the parameter context, loop [`Order`],
//!    [`Engine`], code [`Shape`], [`Tiling`] and resource limits; [`Pipeline::run`] tiles
//!    the problem if asked and calls [`generate()`], returning an [`Outcome`] or a
//!    [`PipelineError`] (which names the limit reached, if any).
//! 3. **Scanners or CAD**: under [`Engine::Auto`], affine input goes to the union and
//!    Fourier–Motzkin scanners ([`linear`]), tiled input to the linear scanner or to loops
//!    clamped to tiles ([`tiled`]), polynomial domains whose constraints each give an
//!    interval of their variable to the compact shape (one loop per variable from the max
//!    of its lower to the min of its upper bounds); everything else, and everything under
//!    [`Engine::Cad`], to the CAD.
//! 4. **Lower**: each stack of CAD cells becomes loops (iterator levels) or guards
//!    (parameter levels) whose bounds are floors and ceilings of the cells' roots
//!    ([`bounds::root_bound`]), neighbouring cells with identical code fused.
//! 5. **Simplify**: guards the inner loops already enforce, or the context implies, are
//!    dropped; loops that run exactly once with a polynomial value are inlined.
//! 6. **Emit**: an isl-style C fragment or a self-contained C99 function
//!    ([`emit_c::CEmitter`], with the exact integer helpers of [`emit_c::HELPERS`]), or a
//!    Rust function ([`emit_rust::function`]).
//!
//! # Invariants
//!
//! - **Every bound is exact.** Bounds are [`expr::Expr`]s built from polynomials, floor
//!   and ceiling divisions by positive divisors, integer roots and exact root searches,
//!   evaluated in integer arithmetic only; no floating point decides anything. A bound
//!   that cannot be written exactly is an error ([`GenError::Bound`]), never an
//!   approximation.
//! - **Each instance once, in order.** For every parameter value satisfying the context,
//!   the generated code runs every integer point of every statement's domain exactly
//!   once, in lexicographic order of the loop variables (of the time vector first, when
//!   there is a schedule; statements in file order at the same point), and nothing else.
//!   [`verify`] and [`interp`] check exactly this against brute-force enumeration.
//! - **Only [`tile_problem`] turns a problem into its tiled problem**; the pipeline is
//!   the front door for tiling.
//!
//! # Example
//!
//! The points under the hyperbola `i*j <= n`: the upper bound of `j` is
//! `floor(n / i)`, printed with the exact helper `ps_floord`.
//!
//! ```
//! use codegen::input::parse_problem;
//! use codegen::pipeline::Pipeline;
//!
//! let p = parse_problem("[n] -> { S[i, j] : 1 <= i <= n and 0 <= j and i*j <= n }").unwrap();
//! let out = Pipeline::new(p).context("n >= 1").run().unwrap();
//! let c = out.generated.emitter().fragment(&out.generated.nodes).unwrap();
//! println!("{c}");
//! assert_eq!(c.matches("for (").count(), 2);
//! assert!(c.contains("ps_floord(n, i)"));
//! assert!(c.contains("S(i, j);"));
//!
//! // The same nest run exactly for n = 6: the instances are those of a brute-force
//! // enumeration of the domain, in the same (lexicographic) order.
//! let g = &out.generated;
//! let run = codegen::interp::instances(&g.nodes, &[polys::Int::from(6)], g.vars.len(), 1000)
//!     .unwrap();
//! let brute = codegen::verify::brute_force(g, &[6], &[(-1, 8), (-1, 8)]).unwrap();
//! let brute: Vec<_> = brute
//!     .into_iter()
//!     .map(|(s, args)| (s, args.into_iter().map(polys::Int::from).collect::<Vec<_>>()))
//!     .collect();
//! assert_eq!(run, brute);
//! assert_eq!(run.len(), 20); // sum over i = 1..6 of floor(6 / i) + 1
//! ```
//!
//! The printed fragment (parameters are `int64_t` variables in scope, each statement a
//! macro or function the caller defines):
//!
//! ```text
//! for (int64_t i = 1; i <= n; i += 1)
//!   for (int64_t j = 0; j <= ps_floord(n, i); j += 1)
//!     S(i, j);
//! ```

#![warn(missing_docs)]

pub mod ast;
pub mod bounds;
mod bracket;
mod c_ast;
mod c_lowering;
#[cfg(test)]
mod c_reader;
mod checked;
pub mod cond;
mod derived;
pub mod emit_c;
pub mod emit_rust;
mod enclosure;
mod enumerated;
mod error;
pub mod existential;
pub mod expr;
mod fourier_motzkin;
mod generate;
mod generated;
mod guarded;
pub mod input;
pub mod interp;
mod intervals;
pub mod linear;
mod lower;
pub mod oracle;
pub mod overflow;
pub mod pipeline;
pub mod relation;
mod residue;
mod signs;
mod simplify;
mod stride;
pub mod tile_problem;
pub mod tiled;
mod union;

pub use cad::{Limits, StopReason};
pub use error::GenError;
pub use generate::{generate, Budget, GenOptions};
pub use generated::Generated;
pub use linear::Separation;
pub use pipeline::{Engine, Order, Outcome, Pipeline, PipelineError, Shape};
pub use tile_problem::{TiledProblem, Tiling};
pub use tiled::ClampTiling;
pub use tiling::TileOrder;
pub mod verify;
