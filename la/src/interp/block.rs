//! The interpreter's block-diagonal solves that keep and reuse the blocks' factors (BDGESV
//! and BDGETRS, `Op::BlockSolve`): the kept entity holds the blocks of the matrix applied
//! from the left stacked (n x b, as the C programs store their LU factors), so a BDGETRS
//! reads only what the BDGESV it follows wrote, and solves with the blocks rebuilt from it.

use super::Mat;

/// The diagonal blocks of size `b` of the n x n matrix `a` stacked in an n x b matrix:
/// row `k + r`, column `c` holds `a(k + r, k + c)` for the block starting at k.
pub(super) fn stacked(a: &Mat, b: usize) -> Mat {
    let (n, b) = (a.rows, b.max(1));
    let mut s = Mat::zeros(n, b.min(n));
    for i in 0..n {
        let k = i - i % b;
        for c in 0..b.min(n - k) {
            s.set(i, c, a.at(i, k + c));
        }
    }
    s
}

/// The n x n block-diagonal matrix whose blocks `stacked` holds (its inverse).
pub(super) fn unstacked(s: &Mat, b: usize) -> Mat {
    let (n, b) = (s.rows, b.max(1));
    let mut a = Mat::zeros(n, n);
    for i in 0..n {
        let k = i - i % b;
        for c in 0..b.min(n - k) {
            a.set(i, k + c, s.at(i, c));
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacking_keeps_exactly_the_blocks() {
        // 5 x 5 with blocks of 2 (the last 1 x 1): entries outside the blocks are dropped.
        let mut a = Mat::zeros(5, 5);
        for i in 0..5 {
            for j in 0..5 {
                a.set(i, j, (10 * i + j) as f64 + 1.0);
            }
        }
        let back = unstacked(&stacked(&a, 2), 2);
        for i in 0..5 {
            for j in 0..5 {
                let inside = i / 2 == j / 2;
                assert_eq!(back.at(i, j), if inside { a.at(i, j) } else { 0.0 });
            }
        }
    }
}
