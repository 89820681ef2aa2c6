//! Exact multivariate polynomials over Z: the arithmetic layer of polyscan.
//!
//! - [`Int`]: integers with an allocation-free 64-bit fast path and exact big fallback.
//! - [`Poly`]: sparse polynomials, generic over the coefficient type ([`Coeff`]), with the
//!   recursive view in any variable, gcds, resultants, discriminants, square-free
//!   decomposition and factorisation.
//! - [`Vars`]: the variable names behind polynomial indices, for parsing and printing.
//!
//! ```
//! use polys::{Poly, Vars};
//! let mut vars = Vars::from_names(["x", "y"]);
//! let f = Poly::parse("x^2 + y^2 - 1", &mut vars).unwrap();
//! let g = Poly::parse("x - y", &mut vars).unwrap();
//! // Eliminate y: the x-coordinates where the circle meets the diagonal.
//! assert_eq!(f.resultant(&g, 1).to_text(&vars), "2*x^2 - 1");
//! ```

mod coeff;
mod factor;
mod gcd;
mod int;
mod modular;
mod mono;
mod parse;
mod poly;
mod print;
mod rat;
mod recursive;
mod resultant;
mod sqfree;
mod vars;

pub use coeff::Coeff;
pub use factor::{factor, factor_univariate, Factorization};
pub use int::Int;
pub use mono::Mono;
pub use parse::{ParseError, MAX_EXPONENT};
pub use poly::Poly;
pub use print::CPrintError;
pub use rat::Rat;
pub use recursive::rational;
pub use sqfree::square_free_basis;
pub use vars::Vars;

pub use num_bigint::BigInt;
pub use num_rational::BigRational;
