//! [`TileError`]: what can be wrong with a tile specification or with the domain it tiles.

use thiserror::Error;

/// Why a tiling could not be built. The CLI reports all of these as bad input (exit 2).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TileError {
    #[error("tile shape: {0}")]
    Shape(String),
    #[error("tile sizes: {0}")]
    Sizes(String),
    #[error("the shape is {rows}x{rows} but there are {sizes} tile sizes and the domain has {depth} iterators")]
    Dimension {
        rows: usize,
        sizes: usize,
        depth: usize,
    },
    #[error("tile size '{0}' is already the name of a parameter or iterator")]
    NameClash(String),
}
