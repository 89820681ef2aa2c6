//! [`Shape`]: the tile shape matrix `K`, whose columns span one tile, with the exact
//! determinant and adjugate the tiled system needs (`K^-1 = adj(K) / det(K)`).

use crate::error::TileError;
use polys::{Coeff, Int};

/// An invertible integer `n x n` matrix, rows outermost.
///
/// Integer entries are required (not just rational ones) because tile origins
/// `K diag(sizes) t` must be integer points for every integer size: with a fractional
/// entry in column `j` they are not, whatever `t` is, for some values of size `j`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    rows: Vec<Vec<Int>>,
}

impl Shape {
    /// The `n x n` identity: rectangular tiles.
    pub fn identity(n: usize) -> Shape {
        Shape {
            rows: (0..n)
                .map(|i| (0..n).map(|j| Int::from((i == j) as i64)).collect())
                .collect(),
        }
    }

    /// Parses `[[1,1],[0,1]]` (rows, outermost brackets optional around a single row
    /// list); rejects non-square, fractional and singular matrices.
    pub fn parse(text: &str) -> Result<Shape, TileError> {
        let bad = |msg: String| TileError::Shape(format!("{msg} in '{text}'"));
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let inner = t
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| bad("expected a matrix like [[1,1],[0,1]]".into()))?;
        let mut rows = Vec::new();
        let mut rest = inner;
        while !rest.is_empty() {
            let body = rest
                .strip_prefix('[')
                .ok_or_else(|| bad("expected '[' to open a row".into()))?;
            let close = body
                .find(']')
                .ok_or_else(|| bad("a row is not closed with ']'".into()))?;
            let mut row = Vec::new();
            for e in body[..close].split(',') {
                if e.contains('/') {
                    return Err(bad(format!(
                        "entry '{e}' is fractional; tile origins K*diag(sizes)*t must be integer points for every size, so K must be an integer matrix (scale the column and its size)"
                    )));
                }
                let v: i64 = e
                    .parse()
                    .map_err(|_| bad(format!("entry '{e}' is not an integer")))?;
                row.push(Int::from(v));
            }
            rows.push(row);
            rest = &body[close + 1..];
            rest = rest.strip_prefix(',').unwrap_or(rest);
        }
        let n = rows.len();
        if n == 0 {
            return Err(bad("the matrix is empty".into()));
        }
        if rows.iter().any(|r| r.len() != n) {
            return Err(bad(format!("the matrix must be square ({n} rows)")));
        }
        let shape = Shape { rows };
        if shape.det().is_zero() {
            return Err(bad(
                "the matrix is singular: its columns must span a tile".into()
            ));
        }
        Ok(shape)
    }

    /// The dimension `n`.
    pub fn dim(&self) -> usize {
        self.rows.len()
    }

    /// The entry in row `i`, column `j` (panics when out of range).
    pub fn get(&self, i: usize, j: usize) -> &Int {
        &self.rows[i][j]
    }

    /// The determinant, by fraction-free (Bareiss) elimination.
    pub fn det(&self) -> Int {
        det(self.rows.clone())
    }

    /// `adj(K)`, so that `K^-1 = adj(K) / det(K)`: entry `(i, j)` is the cofactor of
    /// `(j, i)`.
    pub fn adjugate(&self) -> Vec<Vec<Int>> {
        let n = self.dim();
        if n == 1 {
            return vec![vec![Int::from(1)]];
        }
        let mut adj = vec![vec![Int::from(0); n]; n];
        for (i, row) in adj.iter_mut().enumerate() {
            for (j, entry) in row.iter_mut().enumerate() {
                let minor: Vec<Vec<Int>> = (0..n)
                    .filter(|&r| r != j)
                    .map(|r| {
                        (0..n)
                            .filter(|&c| c != i)
                            .map(|c| self.rows[r][c].clone())
                            .collect()
                    })
                    .collect();
                let d = det(minor);
                *entry = if (i + j) % 2 == 0 { d } else { d.neg() };
            }
        }
        adj
    }

    /// Whether `|det K| = 1`: then `K^-1 o` is integral for integral `o` and the tile's
    /// integer points are exactly `K u` for integer `u` in the size box.
    pub fn is_unimodular(&self) -> bool {
        self.det().abs().is_one()
    }
}

fn det(mut m: Vec<Vec<Int>>) -> Int {
    let n = m.len();
    let mut sign = 1i64;
    let mut prev = Int::from(1);
    for k in 0..n {
        if m[k][k].is_zero() {
            match (k + 1..n).find(|&r| !m[r][k].is_zero()) {
                Some(r) => {
                    m.swap(k, r);
                    sign = -sign;
                }
                None => return Int::from(0),
            }
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let v = m[i][j].mul(&m[k][k]).sub(&m[i][k].mul(&m[k][j]));
                m[i][j] = v.div_exact(&prev);
            }
        }
        prev = m[k][k].clone();
    }
    if sign < 0 {
        prev.neg()
    } else {
        prev
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::needless_range_loop)] // a matrix product reads best with indices
    fn determinant_and_adjugate() {
        let k = Shape::parse("[[2,1,0],[0,1,3],[1,0,1]]").unwrap();
        // det = 2*(1-0) - 1*(0-3) + 0 = 5
        assert_eq!(k.det(), Int::from(5));
        let adj = k.adjugate();
        // K * adj(K) = det * I
        for i in 0..3 {
            for j in 0..3 {
                let mut s = Int::from(0);
                for l in 0..3 {
                    s = s.add(&k.get(i, l).mul(&adj[l][j]));
                }
                assert_eq!(s, Int::from(if i == j { 5 } else { 0 }));
            }
        }
        assert!(Shape::parse("[[1,1],[0,1]]").unwrap().is_unimodular());
    }

    #[test]
    fn bad_shapes_are_reported() {
        for bad in [
            "",
            "[[1,2],[3]]",
            "[[1/2,0],[0,1]]",
            "[[1,1],[2,2]]",
            "[[a]]",
            "[1,2",
        ] {
            assert!(Shape::parse(bad).is_err(), "{bad}");
        }
    }
}
