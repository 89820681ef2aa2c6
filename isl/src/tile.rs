//! Tiled schedules for isl with fixed tile sizes: the isl side of a later
//! `compare --tile-shape/--tile-sizes`. isl cannot take parametric tile sizes (`w*t1` is
//! not affine), so the sizes here are integers.
//!
//! Convention: the rows of the shape matrix `H` are the tiling hyperplanes, and point `x`
//! of statement `S` lies in tile `t` at offset `o` when `H x = diag(s) t + o` with
//! `0 <= o < s`. The identity gives rectangular tiles,
//! `S[i, j] -> [t1, t2, o1, o2, k] : i = 4t1 + o1 and 0 <= o1 < 4 and ...`; tile loops run
//! outside point loops, and a trailing statement index orders statements at the same point
//! as polyscan does.

use super::input::IslInput;
use codegen::input::Problem;
use thiserror::Error;

/// Why a tiled schedule could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TileError {
    /// The shape matrix is not square of the iteration-space dimension (given).
    #[error("the shape matrix must be {0} x {0} (one row per iterator)")]
    Shape(usize),
    /// The number of tile sizes differs from the number of rows (given).
    #[error("expected {0} tile sizes, one per row of the shape matrix")]
    Sizes(usize),
    /// A tile size is zero or negative (the offending size).
    #[error("tile sizes must be positive, got {0}")]
    NonPositive(i64),
    /// The shape matrix has determinant zero.
    #[error("the shape matrix is singular: its rows do not span the iteration space")]
    Singular,
    /// The problem has a schedule or statements of different dimensions, or (for
    /// polyscan's tiling) the sizes are not one fixed size per iterator.
    #[error("tiling needs statements of equal dimension and no schedule")]
    Unsupported,
    /// An entry, or the determinant, does not fit the integer arithmetic used.
    #[error("a shape matrix entry is too large")]
    Overflow,
}

/// Determinant by fraction-free (Bareiss) elimination in i128; `None` on overflow.
fn determinant(m: &[Vec<i64>]) -> Option<i128> {
    let n = m.len();
    let mut a: Vec<Vec<i128>> = m
        .iter()
        .map(|r| r.iter().map(|&x| i128::from(x)).collect())
        .collect();
    let mut sign = 1i128;
    let mut prev = 1i128;
    for k in 0..n {
        if a[k][k] == 0 {
            let Some(r) = (k + 1..n).find(|&r| a[r][k] != 0) else {
                return Some(0);
            };
            a.swap(k, r);
            sign = -sign;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let num = a[i][j]
                    .checked_mul(a[k][k])?
                    .checked_sub(a[i][k].checked_mul(a[k][j])?)?;
                // Bareiss: the division by the previous pivot is exact.
                a[i][j] = num / prev;
            }
        }
        prev = a[k][k];
    }
    Some(sign * a.last().and_then(|r| r.last()).copied().unwrap_or(1))
}

/// The tiled schedule map of a statement `name[iters]` in isl syntax (without parameter
/// prefix or braces): `name[i, j] -> [t0, t1, o0, o1, index] : ...`.
pub fn tiled_entry(
    name: &str,
    iters: &[String],
    shape: &[Vec<i64>],
    sizes: &[i64],
    index: usize,
) -> Result<String, TileError> {
    let n = iters.len();
    if shape.len() != n || shape.iter().any(|r| r.len() != n) {
        return Err(TileError::Shape(n));
    }
    if sizes.len() != n {
        return Err(TileError::Sizes(n));
    }
    if let Some(&s) = sizes.iter().find(|&&s| s <= 0) {
        return Err(TileError::NonPositive(s));
    }
    match determinant(shape) {
        None => return Err(TileError::Overflow),
        Some(0) if n > 0 => return Err(TileError::Singular),
        _ => {}
    }
    // Tile and offset names that cannot meet the iterators.
    let fresh = |stem: &str, k: usize| {
        let mut v = format!("{stem}{k}");
        while iters.contains(&v) {
            v.push('_');
        }
        v
    };
    let ts: Vec<String> = (0..n).map(|k| fresh("t", k)).collect();
    let os: Vec<String> = (0..n).map(|k| fresh("o", k)).collect();
    let mut cons = Vec::new();
    for (k, row) in shape.iter().enumerate() {
        let lhs: Vec<String> = row
            .iter()
            .zip(iters)
            .filter(|(c, _)| **c != 0)
            .map(|(c, x)| format!("{c}*{x}"))
            .collect();
        let lhs = if lhs.is_empty() {
            "0".into()
        } else {
            lhs.join(" + ")
        };
        cons.push(format!("{lhs} = {}*{} + {}", sizes[k], ts[k], os[k]));
        cons.push(format!("0 <= {} < {}", os[k], sizes[k]));
    }
    let mut range: Vec<String> = ts.clone();
    range.extend(os);
    range.push(index.to_string());
    let cons = if cons.is_empty() {
        "true".into()
    } else {
        cons.join(" and ")
    };
    Ok(format!(
        "{name}[{}] -> [{}] : {cons}",
        iters.join(", "),
        range.join(", ")
    ))
}

/// isl's input for the problem tiled with fixed sizes: the untiled input with the
/// schedule replaced by the tiled one.
pub fn tiled_input(
    problem: &Problem,
    base: &IslInput,
    shape: &[Vec<i64>],
    sizes: &[i64],
) -> Result<IslInput, TileError> {
    let depth = problem.depth();
    if problem.schedule.is_some()
        || problem
            .statements
            .iter()
            .any(|s| s.iterators.len() != depth)
    {
        return Err(TileError::Unsupported);
    }
    // Plain iterator names: the map's tuple variables are local to each entry.
    let iters: Vec<String> = (0..depth).map(|k| format!("x{k}")).collect();
    let entries: Result<Vec<String>, TileError> = base
        .statements
        .iter()
        .enumerate()
        .map(|(k, s)| tiled_entry(s, &iters, shape, sizes, k))
        .collect();
    let prefix = if base.params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", base.params.join(", "))
    };
    Ok(IslInput {
        schedule: format!("{prefix}{{ {} }}", entries?.join("; ")),
        ..base.clone()
    })
}

/// isl's input for polyscan's own tiling convention with fixed sizes: point `x` of
/// statement `k` goes to `[t, o, k]` with `0 <= sigma adj(K) x - |det K| s t < |det K| s`
/// row by row and `o = x - K diag(s) t`, which is the order of `polyscan gen
/// --tile-shape K --tile-sizes s` (tile loops outside point loops).
pub fn polyscan_tiled_input(
    problem: &Problem,
    base: &IslInput,
    spec: &tiling::TileSpec,
) -> Result<IslInput, TileError> {
    let depth = problem.depth();
    if problem.schedule.is_some()
        || problem
            .statements
            .iter()
            .any(|s| s.iterators.len() != depth)
        || spec.sizes.len() != depth
    {
        return Err(TileError::Unsupported);
    }
    let sizes: Vec<i64> = spec
        .sizes
        .iter()
        .map(|s| match s {
            tiling::Size::Fixed(v) => Ok(*v),
            tiling::Size::Param(_) => Err(TileError::Unsupported),
        })
        .collect::<Result<_, _>>()?;
    let int = |v: &polys::Int| {
        v.to_string()
            .parse::<i64>()
            .map_err(|_| TileError::Overflow)
    };
    let det = int(&spec.shape.det())?;
    let adj = spec.shape.adjugate();
    let x: Vec<String> = (0..depth).map(|k| format!("x{k}")).collect();
    let t: Vec<String> = (0..depth).map(|k| format!("t{k}")).collect();
    let o: Vec<String> = (0..depth).map(|k| format!("o{k}")).collect();
    let mut cons = Vec::new();
    for i in 0..depth {
        let mut row = Vec::new();
        for (j, xj) in x.iter().enumerate() {
            let a = int(&adj[i][j])? * det.signum();
            if a != 0 {
                row.push(format!("{a}*{xj}"));
            }
        }
        let d = det.abs() * sizes[i];
        cons.push(format!(
            "0 <= {} - {d}*{} <= {}",
            row.join(" + "),
            t[i],
            d - 1
        ));
    }
    for j in 0..depth {
        let mut origin = Vec::new();
        for (i, ti) in t.iter().enumerate() {
            let c = int(spec.shape.get(j, i))? * sizes[i];
            if c != 0 {
                origin.push(format!("{c}*{ti}"));
            }
        }
        let origin = if origin.is_empty() {
            "0".to_string()
        } else {
            origin.join(" + ")
        };
        cons.push(format!("{} = {} - ({origin})", o[j], x[j]));
    }
    let cons = cons.join(" and ").replace("+ -", "- ");
    let entries: Vec<String> = base
        .statements
        .iter()
        .enumerate()
        .map(|(k, name)| {
            format!(
                "{name}[{}] -> [{}, {}, {k}] : {cons}",
                x.join(", "),
                t.join(", "),
                o.join(", ")
            )
        })
        .collect();
    let prefix = if base.params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", base.params.join(", "))
    };
    Ok(IslInput {
        schedule: format!("{prefix}{{ {} }}", entries.join("; ")),
        ..base.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangular_tiles_are_the_identity_shape() {
        let iters = vec!["i".to_string(), "j".to_string()];
        let e = tiled_entry("S", &iters, &[vec![1, 0], vec![0, 1]], &[4, 3], 0).unwrap();
        assert_eq!(
            e,
            "S[i, j] -> [t0, t1, o0, o1, 0] : 1*i = 4*t0 + o0 and 0 <= o0 < 4 and 1*j = 3*t1 + o1 and 0 <= o1 < 3"
        );
    }

    #[test]
    fn rejects_bad_shapes_and_sizes() {
        let iters = vec!["i".to_string(), "j".to_string()];
        let sq = [vec![1, 1], vec![2, 2]];
        assert_eq!(
            tiled_entry("S", &iters, &sq, &[4, 3], 0),
            Err(TileError::Singular)
        );
        assert_eq!(
            tiled_entry("S", &iters, &[vec![1, 0]], &[4, 3], 0),
            Err(TileError::Shape(2))
        );
        assert_eq!(
            tiled_entry("S", &iters, &[vec![1, 0], vec![0, 1]], &[4, 0], 0),
            Err(TileError::NonPositive(0))
        );
        assert_eq!(determinant(&[vec![1, -1], vec![0, 1]]), Some(1));
        assert_eq!(
            determinant(&[vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 9]]),
            Some(-3)
        );
    }
}
