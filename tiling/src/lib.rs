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
//! ```
//! use tiling::{TileSpec, TileOrder, tile};
//! use cad::formula::Formula;
//! use polys::Vars;
//! let vars = Vars::from_names(["n", "i", "j"]);
//! let dom = Formula::conjunction(&vars, &["0 <= i", "i < n", "0 <= j", "j <= i"]).unwrap();
//! let spec = TileSpec::parse(None, "w,h").unwrap();
//! let t = tile(&["n".to_string()], &[dom], &Formula::True, &spec, TileOrder::TilesOutside).unwrap();
//! assert_eq!(t.params, ["n", "w", "h"]);
//! assert_eq!(t.loops, ["t1", "t2", "o1", "o2"]);
//! ```

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
