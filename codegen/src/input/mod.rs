//! The input language: isl's set syntax extended with polynomial terms, a parameter
//! context and an optional schedule map (isl's: functions, relations with output
//! variables and constraints, several pieces per statement).
//!
//! ```text
//! # comment
//! [n, m] -> { S1[i, j] : 0 <= i < n and 0 <= j and i*j <= m; S2[i, j] : (i - 4)^2 + j^2 <= n or i = j }
//! [n, m] -> { : n >= 1 }
//! ```

mod ast;
mod error;
mod parse;
mod print;
mod quantifiers;

pub use ast::{Existential, Problem, ScheduleEntry, Span, Statement};
pub use error::InputError;
pub use parse::{parse_context, parse_problem};

#[cfg(test)]
mod tests;
