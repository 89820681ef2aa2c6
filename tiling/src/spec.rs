//! [`TileSpec`]: the user's tile shape matrix and tile sizes, parsed from the CLI's
//! `--tile-shape "[[1,1],[0,1]]"` and `--tile-sizes w,h` (or `4,3`).

use crate::error::TileError;
use crate::shape::Shape;

/// One tile size: a run-time parameter (parametric tiling) or a fixed positive integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Size {
    /// A size named by a new parameter, chosen at run time (at least 1).
    Param(String),
    /// A size known now (at least 1).
    Fixed(i64),
}

/// A shape matrix `K` (columns span a tile) and one size per column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSpec {
    /// The shape matrix `K`; its dimension equals the number of sizes.
    pub shape: Shape,
    /// One size per column of `K`, i.e. per tiled dimension.
    pub sizes: Vec<Size>,
}

impl TileSpec {
    /// Parses `--tile-shape` (default: the identity of the sizes' dimension) and
    /// `--tile-sizes`.
    ///
    /// ```
    /// use tiling::{Size, TileSpec};
    /// let s = TileSpec::parse(Some("[[1,-1],[0,1]]"), "w, 3").unwrap();
    /// assert_eq!(s.sizes, [Size::Param("w".into()), Size::Fixed(3)]);
    /// assert_eq!(s.shape.det(), polys::Int::from(1));
    /// assert!(TileSpec::parse(Some("[[1,1],[1,1]]"), "w,h").is_err()); // singular
    /// ```
    pub fn parse(shape: Option<&str>, sizes: &str) -> Result<TileSpec, TileError> {
        let sizes = parse_sizes(sizes)?;
        let shape = match shape {
            Some(text) => Shape::parse(text)?,
            None => Shape::identity(sizes.len()),
        };
        if shape.dim() != sizes.len() {
            return Err(TileError::Shape(format!(
                "the shape is {0}x{0} but {1} tile sizes were given",
                shape.dim(),
                sizes.len()
            )));
        }
        Ok(TileSpec { shape, sizes })
    }

    /// Names of the parametric sizes, in the order given.
    pub fn size_params(&self) -> Vec<String> {
        self.sizes
            .iter()
            .filter_map(|s| match s {
                Size::Param(p) => Some(p.clone()),
                Size::Fixed(_) => None,
            })
            .collect()
    }
}

fn parse_sizes(text: &str) -> Result<Vec<Size>, TileError> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let s = part.trim();
        if s.is_empty() {
            return Err(TileError::Sizes(format!(
                "empty entry in '{text}': expected names or positive integers separated by commas"
            )));
        }
        if s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
            match s.parse::<i64>() {
                Ok(v) if v >= 1 => out.push(Size::Fixed(v)),
                Ok(v) => {
                    return Err(TileError::Sizes(format!(
                        "a tile size must be at least 1, got {v}"
                    )))
                }
                Err(_) => {
                    return Err(TileError::Sizes(format!(
                        "'{s}' is neither a name nor an integer that fits in 64 bits"
                    )))
                }
            }
        } else if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            if out.contains(&Size::Param(s.to_string())) {
                return Err(TileError::Sizes(format!("'{s}' is named twice")));
            }
            out.push(Size::Param(s.to_string()));
        } else {
            return Err(TileError::Sizes(format!(
                "'{s}' is not a valid name (letters, digits, '_')"
            )));
        }
    }
    Ok(out)
}
