//! Parametric parallelepiped tiling (section 2.2.3 of the seed thesis): from a shape matrix
//! `K` and one size per dimension to the tiled system `x = K diag(sizes) t + o`,
//! `0 <= K^-1 o < sizes`, plus what makes scanning it cheap: the overapproximation of
//! section 3.8 (Algorithm 4) as constraints on tile coordinates only, and the constraints
//! that single out full tiles.
//!
//! The crate works on formulas over a variable list (parameters, then the original
//! iterators) and knows nothing about statements' syntax; the CLI turns its [`Tiled`]
//! result back into a problem for the code generator.
//!
//! # Main types
//!
//! - [`TileSpec`]: the shape matrix ([`Shape`]) and one [`Size`] per dimension, parsed
//!   from the CLI's `--tile-shape` and `--tile-sizes`; parametric sizes become new
//!   parameters, fixed ones constants.
//! - [`tile`] and [`Tiled`]: the tiled system for every statement's domain, with the
//!   statements' original coordinates (`calls`), the tile's own constraints, the
//!   overapproximation and, where it applies, the full-tile constraints; [`TileOrder`]
//!   says whether point loops go inside all tile loops or interleave with them.
//! - [`tile_key`]: the tile and point coordinates of an original point, computed directly
//!   from `K^-1` as an independent oracle for tests of the generated order.
//! - [`TileError`]: every way a specification or domain can be rejected.
//!
//! # Invariants
//!
//! - `K` is an invertible *integer* matrix and every size is at least 1 (fixed sizes are
//!   checked when parsed; parametric ones by `s >= 1` in [`Tiled::context`]), so tile
//!   origins `K diag(sizes) t` are integer points and every original point `x` has exactly
//!   one tile `t` and offset `o` with `x = K diag(sizes) t + o`, `0 <= K^-1 o < sizes`.
//! - Every formula and polynomial of a [`Tiled`] is over [`Tiled::vars`]: the original
//!   parameters, the parametric sizes, then the loop variables outermost first (tile
//!   coordinates `t1..tn` and point coordinates `o1..on`, renamed with a trailing `_` if
//!   they clash with a parameter). [`Tiled::t_var`] and [`Tiled::o_var`] give their
//!   indices.
//! - The overapproximation is redundant: it holds wherever a tiled domain holds and
//!   mentions only tile coordinates and parameters, so it may only prune.
//!
//! # Example
//!
//! Tile the triangle `0 <= j <= i < n` with `w x h` rectangles of parametric size:
//!
//! ```
//! use tiling::{TileSpec, TileOrder, tile, tile_key};
//! use cad::formula::Formula;
//! use polys::{Int, Vars};
//! let vars = Vars::from_names(["n", "i", "j"]);
//! let dom = Formula::conjunction(&vars, &["0 <= i", "i < n", "0 <= j", "j <= i"]).unwrap();
//! let spec = TileSpec::parse(None, "w,h").unwrap();
//! let t = tile(&["n".to_string()], &[dom], &Formula::True, &spec, TileOrder::TilesOutside).unwrap();
//! assert_eq!(t.params, ["n", "w", "h"]);
//! assert_eq!(t.loops, ["t1", "t2", "o1", "o2"]);
//! assert_eq!(t.vars.names(), ["n", "w", "h", "t1", "t2", "o1", "o2"]);
//!
//! // Statements receive i = w*t1 + o1 and j = h*t2 + o2; the sizes must be positive.
//! let calls: Vec<String> = t.calls.iter().map(|p| p.to_text(&t.vars)).collect();
//! assert_eq!(calls, ["o1 + w*t1", "o2 + h*t2"]);
//! assert_eq!(t.context.to_text(&t.vars), "w - 1 >= 0 and h - 1 >= 0");
//!
//! // With n = 10 and 4 x 3 tiles, (i, j) = (5, 2) is offset (1, 2) in tile (1, 0),
//! // and the tiled domain holds at that point of the new variables.
//! let key = tile_key(&spec, &[4, 3], &[Int::from(5), Int::from(2)], TileOrder::TilesOutside);
//! assert_eq!(key, [1, 0, 1, 2].map(Int::from));
//! let mut point: Vec<Int> = [10, 4, 3].map(Int::from).to_vec();
//! point.extend(key);
//! assert!(t.domains[0].eval_int(&point));
//! ```

#![warn(missing_docs)]

mod error;
mod key;
mod overapprox;
mod shape;
mod spec;
mod system;

pub use error::TileError;
pub use key::tile_key;
pub use shape::Shape;
pub use spec::{Size, TileSpec};
pub use system::{tile, TileOrder, Tiled};
