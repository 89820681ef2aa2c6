//! Exact multivariate polynomials over Z: the arithmetic layer of polyscan.
//!
//! Every constraint polyscan handles is a polynomial with integer coefficients, and this
//! crate is where they live: their representation, their text syntax (parsing and
//! printing, plus C expressions for generated code), and the exact algorithms that
//! cylindrical algebraic decomposition (the `cad` crate) and tiling build on. Nothing here
//! is approximate: coefficients never overflow (they grow into big integers instead), and
//! every result is exact.
//!
//! # Main types
//!
//! - [`Int`]: integers with an allocation-free 64-bit fast path and exact big fallback.
//! - [`Poly`]: sparse polynomials, generic over the coefficient type ([`Coeff`]), with the
//!   recursive view in any variable, gcds, resultants, discriminants, square-free
//!   decomposition and factorisation.
//! - [`Vars`]: the variable names behind polynomial indices, for parsing and printing.
//! - [`Mono`]: exponent vectors, whose order is the term order of every [`Poly`].
//! - [`Rat`]: exact rationals kept in two machine words while they fit (interval ends and
//!   sample coordinates of a CAD).
//! - [`Coeff`]: the coefficient-ring interface, implemented by [`Int`] and by [`BigInt`]
//!   (the latter as a reference implementation for tests and benchmarks).
//! - [`Factorization`], [`factor`], [`factor_univariate`] and [`square_free_basis`]: the
//!   decompositions CAD projection starts from.
//! - [`ParseError`] and [`CPrintError`]: why text could not be read or C could not be
//!   written.
//!
//! # Invariants
//!
//! - A variable is an index `i` into a [`Vars`] list; the polynomial itself stores no names.
//!   Index order matters: the term order is lexicographic with the *highest* index most
//!   significant, so the last variable is the main one. That is the order CAD eliminates
//!   variables in (innermost loop first), and it lets the recursive view
//!   `Z[x0..x(k-1)][xk]` read off contiguous runs of terms.
//! - A [`Poly`]'s terms are sorted by strictly decreasing [`Mono`] order and no stored
//!   coefficient is zero; a [`Mono`] has no trailing zero exponents; an [`Int`] that fits
//!   in `i64` is always `Small`; a [`Rat`] is in lowest terms with a positive denominator.
//!   Together these make derived equality and hashing value equality.
//! - Gcds, square-free factors, basis elements and irreducible factors are normalised:
//!   Z-primitive with a positive leading coefficient, so equal ideals give equal
//!   polynomials.
//! - The parser refuses exponents above [`MAX_EXPONENT`] and powers whose expansion
//!   would be impractically large, with a [`ParseError`] rather than exhausting memory.
//!
//! # Example
//!
//! ```
//! use polys::{Poly, Vars};
//! let mut vars = Vars::from_names(["x", "y"]);
//! let f = Poly::parse("x^2 + y^2 - 1", &mut vars).unwrap();
//! let g = Poly::parse("x - y", &mut vars).unwrap();
//! // Eliminate y: the x-coordinates where the circle meets the diagonal.
//! assert_eq!(f.resultant(&g, 1).to_text(&vars), "2*x^2 - 1");
//!
//! // Common factors: gcd, then exact division by it.
//! let p = Poly::parse("x^2 - y^2", &mut vars).unwrap();
//! let d = p.gcd(&g);
//! assert_eq!(d.to_text(&vars), "y - x"); // positive leading coefficient; y leads
//! assert_eq!(p.div_exact(&d).unwrap().to_text(&vars), "-y - x");
//!
//! // The discriminant in y: where the circle has a double root in y (x = 1 or x = -1).
//! assert_eq!(f.discriminant(1).to_text(&vars), "-4*x^2 + 4");
//! // A closed variable list rejects unknown names.
//! assert!(Poly::parse("x + z", &mut vars).is_err());
//! ```

#![warn(missing_docs)]

mod brown;
mod coeff;
mod dense_mod;
mod factor;
mod gcd;
mod int;
mod modgcd;
mod modres;
mod modular;
mod mono;
mod parse;
mod poly;
mod primes;
mod print;
mod rat;
mod recursive;
mod resultant;
mod sqfree;
mod vars;

pub use coeff::Coeff;
pub use factor::{factor, factor_univariate, Factorization};
pub use int::Int;
pub use modgcd::{coefficient_gcd, dense_div_exact, modular_gcd};
pub use mono::Mono;
pub use parse::{Divisions, ParseError, MAX_EXPONENT};
pub use poly::Poly;
pub use print::CPrintError;
pub use rat::Rat;
pub use recursive::rational;
pub use sqfree::{square_free_basis, square_free_basis_until};
pub use vars::Vars;

pub use num_bigint::BigInt;
pub use num_rational::BigRational;
