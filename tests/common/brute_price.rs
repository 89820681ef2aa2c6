//! Kernel pricing for the brute-force oracle (`brute`): the cheapest applicable kernel for
//! one product node, from the shapes and properties of its two sides, with the catalogue's
//! cost formulas. Written apart from polyscan's `chain::combine`, which it checks.

#![allow(dead_code)] // each test file uses its own subset

use polyscan_la::kernels::cost;
use polyscan_la::properties::{Prop, Props};

/// One side of a product node, for pricing.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    /// Rows as used.
    pub rows: u64,
    /// Columns as used.
    pub cols: u64,
    /// Properties as used; for an inverted element, of the element before inversion.
    pub props: Props,
    /// Solved with rather than multiplied by.
    pub inv: bool,
}

/// The cheapest kernel for `l * r` among those that apply, and whether it is a product that
/// can absorb an addition (polyscan's GEMM-with-beta accounting: any multiplication but the
/// row interchanges of LASWP; a solve absorbs nothing). On equal FLOPs an absorbing kernel
/// is taken, which can only lower the sum's cost.
pub fn price(l: Side, r: Side, mirrored: bool) -> (f64, bool) {
    let (m, k, n) = (l.rows, l.cols, r.cols);
    let diag = |p: Props| p.has(Prop::Diagonal);
    let tri = |p: Props| p.is_triangular();
    let mut best = (f64::INFINITY, false);
    let mut take = |f: f64, absorbs: bool| {
        if f < best.0 || (f == best.0 && absorbs && !best.1) {
            best = (f, absorbs);
        }
    };
    // Explicit inverse of a diagonal or triangular k x k element.
    let inverse = |p: Props| {
        if diag(p) {
            Some(k as f64)
        } else if tri(p) {
            Some(cost::trtri(k))
        } else {
            None
        }
    };
    match (l.inv, r.inv) {
        (true, true) => {
            // L^-T L^-1: the triangle inverted, then its Gram product (LAUUM), priced
            // as polyscan prices it.
            if mirrored && tri(r.props) && !diag(r.props) {
                take(2.0 * cost::trtri(k), true);
            }
            // One side inverted explicitly, then a solve with the other.
            if let Some(f) = inverse(l.props) {
                let solve = if diag(r.props) {
                    cost::elementwise(m, n)
                } else {
                    cost::trsm(n, m)
                };
                take(f + solve, false);
            }
            if let Some(f) = inverse(r.props) {
                let solve = if diag(l.props) {
                    cost::elementwise(m, n)
                } else {
                    cost::trsm(m, n)
                };
                take(f + solve, false);
            }
        }
        (true, false) => {
            if diag(l.props) {
                take(cost::elementwise(m, n), false);
            } else if tri(l.props) {
                take(cost::trsm(m, n), false);
            }
        }
        (false, true) => {
            if diag(r.props) {
                take(cost::elementwise(m, n), false);
            } else if tri(r.props) {
                take(cost::trsm(n, m), false);
            }
        }
        (false, false) => {
            // GEMM, GEMV, GER, DOT, SYMM, SYMV: 2mnk.
            take(2.0 * m as f64 * n as f64 * k as f64, true);
            if mirrored {
                // SYRK (DOT for a vector): only the upper or lower half.
                take(
                    if n == 1 {
                        cost::gemv(k, 1)
                    } else {
                        cost::syrk(n, k)
                    },
                    true,
                );
            }
            let lsq = m == k;
            let rsq = k == n;
            if (l.props.has(Prop::Permutation) && lsq) || (r.props.has(Prop::Permutation) && rsq) {
                take(0.0, false);
            }
            if (diag(l.props) && lsq) || (diag(r.props) && rsq) {
                take(cost::elementwise(m, n), true);
            }
            if tri(l.props) && lsq {
                take(cost::trsm(m, n), true);
            }
            if tri(r.props) && rsq {
                take(cost::trsm(n, m), true);
            }
        }
    }
    best
}
