//! [`tile_key`]: the tile and point coordinates of an original point, computed directly
//! from `K^-1` (not from the tiled system): the independent oracle for the order in which
//! tiled code must visit points.

use crate::spec::{Size, TileSpec};
use crate::system::TileOrder;
use polys::{Coeff, Int};

/// The loop coordinates of point `x` under `spec` with the given values of the
/// parametric sizes (in `--tile-sizes` order), in loop order: `t` then `o`, or
/// interleaved. `t_i = floor((K^-1 x)_i / s_i)` and `o = x - K diag(s) t`.
///
/// ```
/// use tiling::{tile_key, TileOrder, TileSpec};
/// use polys::Int;
/// let spec = TileSpec::parse(None, "w,h").unwrap();
/// let x = [Int::from(5), Int::from(-1)];
/// let key = tile_key(&spec, &[4, 3], &x, TileOrder::TilesOutside);
/// let k: Vec<i64> = key.iter().map(|v| v.to_string().parse().unwrap()).collect();
/// assert_eq!(k, [1, -1, 1, 2]);
/// ```
pub fn tile_key(spec: &TileSpec, size_values: &[i64], x: &[Int], order: TileOrder) -> Vec<Int> {
    let n = spec.sizes.len();
    let mut next = 0;
    let sizes: Vec<Int> = spec
        .sizes
        .iter()
        .map(|s| match s {
            Size::Param(_) => {
                next += 1;
                Int::from(size_values[next - 1])
            }
            Size::Fixed(v) => Int::from(*v),
        })
        .collect();
    let det = spec.shape.det();
    let adj = spec.shape.adjugate();
    let t: Vec<Int> = (0..n)
        .map(|i| {
            let mut u = Int::from(0);
            for (a, xv) in adj[i].iter().zip(x) {
                u = u.add(&a.mul(xv));
            }
            if det.signum() < 0 {
                u = u.neg();
            }
            u.div_mod_floor(&det.abs().mul(&sizes[i])).0
        })
        .collect();
    let o: Vec<Int> = (0..n)
        .map(|r| {
            let mut v = x[r].clone();
            for j in 0..n {
                v = v.sub(&spec.shape.get(r, j).mul(&sizes[j]).mul(&t[j]));
            }
            v
        })
        .collect();
    match order {
        TileOrder::TilesOutside => t.into_iter().chain(o).collect(),
        TileOrder::Interleaved => t.into_iter().zip(o).flat_map(|(a, b)| [a, b]).collect(),
    }
}
