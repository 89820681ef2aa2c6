//! The orthogonal factorisations of the reference interpreter: Householder QR in LAPACK's
//! layout (reflectors below R, scalar factors apart) and products with its Q, the cyclic
//! Jacobi method for the symmetric eigendecomposition and the one-sided Jacobi method for
//! the SVD. Written for clarity at test sizes, not speed.

use super::{get, Mat};
use crate::error::LaError;
use crate::lower::{Arg, Orth};

/// Largest number of Jacobi sweeps; convergence is quadratic, a few dozen suffice.
const MAX_SWEEPS: usize = 100;

/// Runs one orthogonal factorisation step: the further entities it writes are set in `v`,
/// the step's own output is returned.
pub(super) fn execute(o: &Orth, v: &mut Vec<Option<Mat>>) -> Result<Mat, LaError> {
    match o {
        Orth::Geqrf { a, h, tau } => {
            let (hm, t) = householder_qr(&get(v, *a)?)?;
            let r = upper_r(&hm);
            set(v, *h, hm);
            set(v, *tau, t);
            Ok(r)
        }
        Orth::Ormqr { h, tau, b, trans } => {
            let hm = get(v, entity(*h))?;
            let t = get(v, entity(*tau))?;
            let b = get(v, *b)?;
            if *trans {
                let full = apply_q(&hm, &t, &b, true)?;
                Ok(rows(&full, hm.cols))
            } else {
                let mut padded = Mat::zeros(hm.rows, b.cols);
                for i in 0..b.rows.min(hm.rows) {
                    for j in 0..b.cols {
                        padded.set(i, j, b.at(i, j));
                    }
                }
                apply_q(&hm, &t, &padded, false)
            }
        }
        Orth::Syev { a, w } => {
            let (z, wm) = jacobi_eigen(&get(v, *a)?)?;
            set(v, *w, wm);
            Ok(z)
        }
        Orth::Gesvd { a, s, v: vv } => {
            let (u, sm, vm) = jacobi_svd(&get(v, *a)?)?;
            set(v, *s, sm);
            set(v, *vv, vm);
            Ok(u)
        }
    }
}

/// Entity `id` of `v` set to `m`.
fn set(v: &mut Vec<Option<Mat>>, id: usize, m: Mat) {
    if id >= v.len() {
        v.resize(id + 1, None);
    }
    v[id] = Some(m);
}

fn entity(id: usize) -> Arg {
    Arg { id, trans: false }
}

/// The first `k` rows of `m`.
fn rows(m: &Mat, k: usize) -> Mat {
    let mut r = Mat::zeros(k, m.cols);
    for i in 0..k.min(m.rows) {
        for j in 0..m.cols {
            r.set(i, j, m.at(i, j));
        }
    }
    r
}

/// R from the factored matrix: its upper triangle, top square.
fn upper_r(h: &Mat) -> Mat {
    let n = h.cols;
    let mut r = Mat::zeros(n, n);
    for i in 0..n.min(h.rows) {
        for j in i..n {
            r.set(i, j, h.at(i, j));
        }
    }
    r
}

/// Householder QR of `a` (m x n, m >= n) in LAPACK's layout: R on and above the
/// diagonal, reflector k's vector `v` (with `v[k] = 1` implied) below it in column k, and
/// `H_k = I - tau[k] v v^T`, `Q = H_0 H_1 ... H_{n-1}`.
pub(crate) fn householder_qr(a: &Mat) -> Result<(Mat, Mat), LaError> {
    let (m, n) = (a.rows, a.cols);
    if m < n {
        return Err(LaError::Numerical("QR of a wide matrix".into()));
    }
    let mut h = a.clone();
    let mut tau = Mat::zeros(n, 1);
    for k in 0..n {
        let alpha = h.at(k, k);
        let tail: f64 = (k + 1..m).map(|i| h.at(i, k).powi(2)).sum::<f64>().sqrt();
        if tail == 0.0 {
            // Already zero below the diagonal: H_k = I.
            continue;
        }
        let norm = alpha.hypot(tail);
        let beta = if alpha >= 0.0 { -norm } else { norm };
        let t = (beta - alpha) / beta;
        let scale = 1.0 / (alpha - beta);
        for i in k + 1..m {
            let x = h.at(i, k) * scale;
            h.set(i, k, x);
        }
        h.set(k, k, beta);
        tau.set(k, 0, t);
        // The rest of the columns: A := (I - t v v^T) A.
        for j in k + 1..n {
            let w = h.at(k, j) + (k + 1..m).map(|i| h.at(i, k) * h.at(i, j)).sum::<f64>();
            let d = h.at(k, j) - t * w;
            h.set(k, j, d);
            for i in k + 1..m {
                let x = h.at(i, j) - t * h.at(i, k) * w;
                h.set(i, j, x);
            }
        }
    }
    Ok((h, tau))
}

/// `Q^T c` (`trans`) or `Q c` with Q from [`householder_qr`]; c has m rows.
pub(crate) fn apply_q(h: &Mat, tau: &Mat, c: &Mat, trans: bool) -> Result<Mat, LaError> {
    let (m, n) = (h.rows, h.cols);
    if c.rows != m {
        return Err(LaError::Numerical("shape mismatch applying Q".into()));
    }
    let mut x = c.clone();
    // Q^T = H_{n-1} ... H_0 applies H_0 first; Q applies H_{n-1} first.
    let order: Vec<usize> = if trans {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };
    for k in order {
        let t = tau.at(k, 0);
        if t == 0.0 {
            continue;
        }
        for j in 0..x.cols {
            let w = x.at(k, j) + (k + 1..m).map(|i| h.at(i, k) * x.at(i, j)).sum::<f64>();
            let d = x.at(k, j) - t * w;
            x.set(k, j, d);
            for i in k + 1..m {
                let y = x.at(i, j) - t * h.at(i, k) * w;
                x.set(i, j, y);
            }
        }
    }
    Ok(x)
}

/// The rotation `(c, s)` for the Jacobi methods from the two squared norms (or diagonal
/// entries) `app`, `aqq` and the coupling `apq`: the smaller of the two angles.
fn rotation(app: f64, aqq: f64, apq: f64) -> (f64, f64) {
    let theta = (aqq - app) / (2.0 * apq);
    let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
    let c = 1.0 / (t * t + 1.0).sqrt();
    (c, t * c)
}

/// Columns p and q of `m` rotated: `(m_p, m_q) := (c m_p - s m_q, s m_p + c m_q)`.
fn rotate_columns(m: &mut Mat, p: usize, q: usize, c: f64, s: f64) {
    for i in 0..m.rows {
        let (x, y) = (m.at(i, p), m.at(i, q));
        m.set(i, p, c * x - s * y);
        m.set(i, q, s * x + c * y);
    }
}

/// Symmetric eigendecomposition `a = Z W Z^T` by cyclic Jacobi rotations (reads the whole
/// matrix, which is symmetric).
pub(crate) fn jacobi_eigen(a: &Mat) -> Result<(Mat, Mat), LaError> {
    let n = a.rows;
    if n != a.cols {
        return Err(LaError::Numerical(
            "eigendecomposition of a non-square matrix".into(),
        ));
    }
    let mut x = a.clone();
    let mut z = Mat::identity(n);
    let scale = a.norm().max(f64::MIN_POSITIVE);
    for _ in 0..MAX_SWEEPS {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| x.at(i, j).powi(2))
            .sum::<f64>()
            .sqrt();
        if off <= 1e-15 * scale {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = x.at(p, q);
                if apq.abs() <= 1e-300 {
                    continue;
                }
                let (c, s) = rotation(x.at(p, p), x.at(q, q), apq);
                // X := J^T X J, Z := Z J.
                rotate_columns(&mut x, p, q, c, s);
                for j in 0..n {
                    let (u, w) = (x.at(p, j), x.at(q, j));
                    x.set(p, j, c * u - s * w);
                    x.set(q, j, s * u + c * w);
                }
                rotate_columns(&mut z, p, q, c, s);
            }
        }
    }
    let mut w = Mat::zeros(n, n);
    for i in 0..n {
        w.set(i, i, x.at(i, i));
    }
    Ok((z, w))
}

/// SVD `a = U S V^T` (a m x n, m >= n; U m x n) by one-sided Jacobi rotations of the
/// columns until they are orthogonal.
pub(crate) fn jacobi_svd(a: &Mat) -> Result<(Mat, Mat, Mat), LaError> {
    let (m, n) = (a.rows, a.cols);
    if m < n {
        return Err(LaError::Numerical("SVD of a wide matrix".into()));
    }
    let mut u = a.clone();
    let mut v = Mat::identity(n);
    for _ in 0..MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let col =
                    |i: usize, j: usize| -> f64 { (0..m).map(|r| u.at(r, i) * u.at(r, j)).sum() };
                let (app, aqq, apq) = (col(p, p), col(q, q), col(p, q));
                if apq.abs() <= 1e-15 * (app * aqq).sqrt() || apq == 0.0 {
                    continue;
                }
                rotated = true;
                let (c, s) = rotation(app, aqq, apq);
                rotate_columns(&mut u, p, q, c, s);
                rotate_columns(&mut v, p, q, c, s);
            }
        }
        if !rotated {
            break;
        }
    }
    let mut s = Mat::zeros(n, n);
    for j in 0..n {
        let norm: f64 = (0..m).map(|i| u.at(i, j).powi(2)).sum::<f64>().sqrt();
        if norm <= 1e-300 {
            return Err(LaError::Numerical("singular matrix in the SVD".into()));
        }
        s.set(j, j, norm);
        for i in 0..m {
            let x = u.at(i, j) / norm;
            u.set(i, j, x);
        }
    }
    Ok((u, s, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Kind;
    use crate::interp::{sample, Rng};
    use crate::properties::{Prop, Props};

    fn close(a: &Mat, b: &Mat) -> bool {
        a.add(b, -1.0)
            .map(|d| d.norm() <= 1e-10 * b.norm().max(1.0))
            .unwrap_or(false)
    }

    fn general(m: usize, n: usize, seed: u64) -> Mat {
        let mut rng = Rng::new(seed);
        sample(
            m,
            n,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::FullRank]),
            &mut rng,
        )
    }

    fn orthonormal_columns(q: &Mat) -> bool {
        close(
            &q.t().mul(q).unwrap_or_else(|e| panic!("{e}")),
            &Mat::identity(q.cols),
        )
    }

    #[test]
    fn householder_qr_reconstructs_and_q_is_orthogonal() {
        let a = general(7, 4, 3);
        let (h, tau) = householder_qr(&a).unwrap_or_else(|e| panic!("{e}"));
        let r = upper_r(&h);
        // Q [R; 0] = A, and Q^T A = [R; 0].
        let mut r0 = Mat::zeros(7, 4);
        for i in 0..4 {
            for j in 0..4 {
                r0.set(i, j, r.at(i, j));
            }
        }
        let qr = apply_q(&h, &tau, &r0, false).unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&qr, &a));
        let qta = apply_q(&h, &tau, &a, true).unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&qta, &r0));
        // Q itself, applied to the identity, has orthonormal columns.
        let q = apply_q(&h, &tau, &Mat::identity(7), false).unwrap_or_else(|e| panic!("{e}"));
        assert!(orthonormal_columns(&q));
    }

    #[test]
    fn jacobi_eigen_reconstructs_a_symmetric_matrix_that_is_not_spd() {
        let g = general(5, 5, 8);
        // Symmetric but not SPD (a diagonal of negative entries): G + G^T - 30 I.
        let s = g
            .add(&g.t(), 1.0)
            .and_then(|s| s.add(&Mat::identity(5), -6.0 * 5.0))
            .unwrap_or_else(|e| panic!("{e}"));
        let (z, w) = jacobi_eigen(&s).unwrap_or_else(|e| panic!("{e}"));
        assert!(orthonormal_columns(&z));
        let back = z
            .mul(&w)
            .and_then(|zw| zw.mul(&z.t()))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&back, &s));
    }

    #[test]
    fn jacobi_svd_reconstructs() {
        let a = general(6, 6, 4);
        let (u, s, v) = jacobi_svd(&a).unwrap_or_else(|e| panic!("{e}"));
        assert!(orthonormal_columns(&u) && orthonormal_columns(&v));
        let back = u
            .mul(&s)
            .and_then(|us| us.mul(&v.t()))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&back, &a));
    }
}
