//! [`TileError`]: what can be wrong with a tile specification or with the domain it tiles.

use thiserror::Error;

/// Why a tiling could not be built. The CLI reports all of these as bad input (exit 2).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TileError {
    /// The tile shape matrix is malformed, fractional, non-square, singular or of the wrong
    /// dimension; the text says which.
    #[error("tile shape: {0}")]
    Shape(String),
    /// The tile-size list is malformed: an empty entry, a size below 1, an invalid or repeated
    /// name; the text says which.
    #[error("tile sizes: {0}")]
    Sizes(String),
    /// The shape's dimension, the number of tile sizes and the number of iterators of the
    /// domain do not all agree.
    #[error("the shape is {rows}x{rows} but there are {sizes} tile sizes and the domain has {depth} iterators")]
    Dimension {
        /// Rows (and columns) of the shape matrix.
        rows: usize,
        /// Number of tile sizes given.
        sizes: usize,
        /// Number of iterators of the domain.
        depth: usize,
    },
    /// A parametric tile size (named here) has the name of an existing parameter or iterator.
    #[error("tile size '{0}' is already the name of a parameter or iterator")]
    NameClash(String),
}
