//! The reference interpreter: dense f64 matrices, random inputs that satisfy the declared
//! properties, execution of a kernel sequence (triangular solves read only their triangle,
//! diagonal ones only the diagonal) and direct evaluation of the formula with explicit
//! inverses, to compare the two.

use super::ast::{Expr, Kind, Program};
use super::error::LaError;
use super::lower::{Alpha, Arg, Op, Step};
use super::norm::Env;
use super::properties::{Prop, Props};

mod block;
mod orth;

/// A dense row-major matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Mat {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// The entries, row by row: entry `(i, j)` is `data[i * cols + j]`.
    pub data: Vec<f64>,
}

impl Mat {
    /// The `rows x cols` zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Mat {
        Mat {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }
    /// The `n x n` identity.
    pub fn identity(n: usize) -> Mat {
        let mut m = Mat::zeros(n, n);
        for i in 0..n {
            m.data[i * n + i] = 1.0;
        }
        m
    }
    /// Entry `(i, j)` (0-based); panics when out of range.
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.cols + j]
    }
    fn set(&mut self, i: usize, j: usize, v: f64) {
        self.data[i * self.cols + j] = v;
    }
    /// The transpose.
    pub fn t(&self) -> Mat {
        let mut m = Mat::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                m.set(j, i, self.at(i, j));
            }
        }
        m
    }
    /// The product `self * o`; a `1 x 1` factor times a larger matrix scales it. A shape
    /// mismatch is a [`LaError::Numerical`].
    pub fn mul(&self, o: &Mat) -> Result<Mat, LaError> {
        if self.rows == 1 && self.cols == 1 && (o.rows, o.cols) != (1, 1) {
            return Ok(o.scale(self.data[0]));
        }
        if o.rows == 1 && o.cols == 1 && (self.rows, self.cols) != (1, 1) {
            return Ok(self.scale(o.data[0]));
        }
        if self.cols != o.rows {
            return Err(LaError::Numerical(format!(
                "shape mismatch {}x{} * {}x{}",
                self.rows, self.cols, o.rows, o.cols
            )));
        }
        let mut m = Mat::zeros(self.rows, o.cols);
        for i in 0..self.rows {
            for k in 0..self.cols {
                let a = self.at(i, k);
                if a == 0.0 {
                    continue;
                }
                for j in 0..o.cols {
                    m.data[i * o.cols + j] += a * o.at(k, j);
                }
            }
        }
        Ok(m)
    }
    /// Every entry multiplied by `s`.
    pub fn scale(&self, s: f64) -> Mat {
        Mat {
            data: self.data.iter().map(|x| x * s).collect(),
            ..self.clone()
        }
    }
    /// `self + s * o`; the shapes must match ([`LaError::Numerical`] otherwise).
    pub fn add(&self, o: &Mat, s: f64) -> Result<Mat, LaError> {
        if (self.rows, self.cols) != (o.rows, o.cols) {
            return Err(LaError::Numerical("shape mismatch in a sum".into()));
        }
        Ok(Mat {
            data: self
                .data
                .iter()
                .zip(&o.data)
                .map(|(a, b)| a + s * b)
                .collect(),
            ..self.clone()
        })
    }
    /// The Frobenius norm.
    pub fn norm(&self) -> f64 {
        self.data.iter().map(|x| x * x).sum::<f64>().sqrt()
    }
    /// Inverse by Gauss-Jordan elimination with partial pivoting.
    pub fn inverse(&self) -> Result<Mat, LaError> {
        let n = self.rows;
        if n != self.cols {
            return Err(LaError::Numerical("inverse of a non-square matrix".into()));
        }
        let mut a = self.clone();
        let mut inv = Mat::identity(n);
        for k in 0..n {
            let p = (k..n)
                .max_by(|&i, &j| a.at(i, k).abs().total_cmp(&a.at(j, k).abs()))
                .unwrap_or(k);
            if a.at(p, k).abs() < 1e-300 {
                return Err(LaError::Numerical("singular matrix".into()));
            }
            for j in 0..n {
                a.data.swap(k * n + j, p * n + j);
                inv.data.swap(k * n + j, p * n + j);
            }
            let d = a.at(k, k);
            for j in 0..n {
                a.data[k * n + j] /= d;
                inv.data[k * n + j] /= d;
            }
            for i in 0..n {
                if i != k {
                    let f = a.at(i, k);
                    if f != 0.0 {
                        for j in 0..n {
                            a.data[i * n + j] -= f * a.at(k, j);
                            inv.data[i * n + j] -= f * inv.at(k, j);
                        }
                    }
                }
            }
        }
        Ok(inv)
    }
}

/// A small deterministic generator (SplitMix64); no dependency needed for test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `seed`; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    pub fn sym(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    /// A value in `0..n` (`0` when `n` is 0), by reduction modulo `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

fn random(rows: usize, cols: usize, rng: &mut Rng) -> Mat {
    Mat {
        rows,
        cols,
        data: (0..rows * cols).map(|_| rng.sym()).collect(),
    }
}

/// Orthonormal columns by modified Gram-Schmidt of a random matrix (rows >= cols).
fn orthonormal(rows: usize, cols: usize, rng: &mut Rng) -> Mat {
    let mut q = random(rows, cols, rng);
    for j in 0..cols {
        for k in 0..j {
            let d: f64 = (0..rows).map(|i| q.at(i, j) * q.at(i, k)).sum();
            for i in 0..rows {
                let v = q.at(i, j) - d * q.at(i, k);
                q.set(i, j, v);
            }
        }
        let n: f64 = (0..rows).map(|i| q.at(i, j).powi(2)).sum::<f64>().sqrt();
        for i in 0..rows {
            let v = q.at(i, j) / n;
            q.set(i, j, v);
        }
    }
    q
}

/// Orthonormal columns (rows >= cols) or rows (rows < cols) inside the band `(1, 1)`:
/// random 2 x 2 rotations down the diagonal, a lone `+-1` at the end; only signs on the
/// diagonal when `diagonal` (an orthogonal triangular matrix is diagonal).
fn banded_orthonormal(rows: usize, cols: usize, diagonal: bool, rng: &mut Rng) -> Mat {
    let mut m = Mat::zeros(rows, cols);
    let k = rows.min(cols);
    let mut i = 0;
    while i < k {
        if !diagonal && i + 1 < k {
            let t = std::f64::consts::PI * rng.sym();
            let (c, s) = (t.cos(), t.sin());
            m.set(i, i, c);
            m.set(i, i + 1, -s);
            m.set(i + 1, i, s);
            m.set(i + 1, i + 1, c);
            i += 2;
        } else {
            m.set(i, i, if rng.sym() < 0.0 { -1.0 } else { 1.0 });
            i += 1;
        }
    }
    m
}

/// Zeros the entries outside the band `(lo, up)` (`None`: no bound on that side).
fn zero_outside_band(m: &mut Mat, (lo, up): (Option<u64>, Option<u64>)) {
    for i in 0..m.rows {
        for j in 0..m.cols {
            let below = lo.is_some_and(|lo| i > j && (i - j) as u64 > lo);
            let above = up.is_some_and(|up| j > i && (j - i) as u64 > up);
            if below || above {
                m.set(i, j, 0.0);
            }
        }
    }
}

/// Zeros the entries outside the diagonal blocks of size `b` (`None`: none known).
fn zero_outside_blocks(m: &mut Mat, b: Option<u64>) {
    let Some(b) = b.and_then(|b| usize::try_from(b).ok()).filter(|&b| b > 0) else {
        return;
    };
    for i in 0..m.rows {
        for j in 0..m.cols {
            if i / b != j / b {
                m.set(i, j, 0.0);
            }
        }
    }
}

/// A random matrix with the given properties (well conditioned, for comparisons).
pub fn sample(rows: usize, cols: usize, kind: Kind, value: f64, p: Props, rng: &mut Rng) -> Mat {
    let n = rows;
    match kind {
        Kind::Constant => {
            return Mat {
                rows: 1,
                cols: 1,
                data: vec![value],
            }
        }
        Kind::Identity => return Mat::identity(n),
        Kind::Zero => return Mat::zeros(rows, cols),
        Kind::Scalar => {
            return Mat {
                rows: 1,
                cols: 1,
                data: vec![2.0 + rng.sym().abs()],
            }
        }
        _ => {}
    }
    let band = p.band();
    let banded = band.0.is_some() || band.1.is_some();
    // The identity is a permutation inside every band.
    if p.has(Prop::Permutation) && banded {
        return Mat::identity(n);
    }
    if p.has(Prop::Permutation) {
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.below(i + 1));
        }
        let mut m = Mat::zeros(n, n);
        for (i, &j) in perm.iter().enumerate() {
            m.set(i, j, 1.0);
        }
        return m;
    }
    let orthonormal_rows_or_cols = [
        Prop::Orthogonal,
        Prop::OrthogonalColumns,
        Prop::OrthogonalRows,
    ];
    if banded && orthonormal_rows_or_cols.iter().any(|&q| p.has(q)) {
        // Block-diagonal orthogonal samples are diagonal too (a special case).
        let diagonal = band.0 == Some(0) || band.1 == Some(0) || p.block().is_some();
        return banded_orthonormal(rows, cols, diagonal, rng);
    }
    if p.has(Prop::Orthogonal) || p.has(Prop::OrthogonalColumns) {
        return orthonormal(rows, cols, rng);
    }
    if p.has(Prop::OrthogonalRows) {
        return orthonormal(cols, rows, rng).t();
    }
    if p.has(Prop::Diagonal) {
        let mut m = Mat::zeros(rows, cols);
        for i in 0..rows.min(cols) {
            let d = if p.has(Prop::UnitDiagonal) {
                1.0
            } else {
                1.0 + rng.sym().abs()
            };
            m.set(i, i, d);
        }
        return m;
    }
    if banded && p.has(Prop::Symmetric) {
        // Symmetric inside the band (closure made it symmetric), strictly diagonally
        // dominant with a positive diagonal: SPD by Gershgorin, so valid for SPSD too.
        let a = random(n, n, rng);
        // (A + A^T) / 2: off-diagonal entries in [-1, 1], below the diagonal's n + 1.
        let mut s = a
            .add(&a.t(), 1.0)
            .map_or_else(|_| Mat::identity(n), |s| s.scale(0.5));
        zero_outside_band(&mut s, band);
        zero_outside_blocks(&mut s, p.block());
        for i in 0..n {
            s.set(i, i, n as f64 * (1.0 + rng.sym().abs()) + 1.0);
        }
        return s;
    }
    if p.has(Prop::Spsd) {
        // SPD (a valid SPSD sample too): A^T A + n I.
        let a = random(n, n, rng);
        return a
            .t()
            .mul(&a)
            .map(|m| m.add(&Mat::identity(n), n as f64))
            .ok()
            .and_then(|r| r.ok())
            .unwrap_or_else(|| Mat::identity(n));
    }
    if p.has(Prop::Symmetric) {
        let a = random(n, n, rng);
        let s = a.add(&a.t(), 1.0).unwrap_or_else(|_| Mat::identity(n));
        return s.add(&Mat::identity(n), n as f64).unwrap_or(s);
    }
    if p.has(Prop::Normal) {
        // S + c I with S skew-symmetric is normal: (S + cI)(cI - S) = (cI - S)(S + cI).
        // S is kept inside the narrower bandwidth on both sides, so S + cI is in the band.
        let a = random(n, n, rng);
        let mut s = a.add(&a.t(), -1.0).unwrap_or_else(|_| Mat::zeros(n, n));
        let b = band.0.into_iter().chain(band.1).min();
        zero_outside_band(&mut s, (b, b));
        zero_outside_blocks(&mut s, p.block());
        let c = if p.has(Prop::UnitDiagonal) {
            1.0
        } else {
            n as f64
        };
        return s.add(&Mat::identity(n), c).unwrap_or(s);
    }
    let mut m = random(rows, cols, rng);
    zero_outside_band(&mut m, band);
    zero_outside_blocks(&mut m, p.block());
    let lower = p.has(Prop::LowerTriangular);
    let upper = p.has(Prop::UpperTriangular);
    for i in 0..rows {
        for j in 0..cols {
            if (lower && j > i) || (upper && j < i) {
                m.set(i, j, 0.0);
            }
        }
    }
    if rows == cols || lower || upper || banded {
        // A dominant diagonal keeps triangles and square matrices well conditioned.
        for i in 0..rows.min(cols) {
            let d = if p.has(Prop::UnitDiagonal) {
                1.0
            } else {
                (rows.max(cols) as f64) * (1.0 + rng.sym().abs())
            };
            m.set(i, i, d);
        }
    }
    m
}

/// Random values for the program's input operands (scaled sizes allowed).
pub fn inputs(p: &Program, seed: u64) -> Vec<Option<Mat>> {
    let mut rng = Rng::new(seed);
    let outputs = p.outputs();
    p.operands
        .iter()
        .enumerate()
        .map(|(i, o)| {
            if outputs.contains(&i) {
                None
            } else {
                Some(sample(
                    o.rows as usize,
                    o.cols as usize,
                    o.kind,
                    o.value,
                    o.props,
                    &mut rng,
                ))
            }
        })
        .collect()
}

/// The matrix made of `blocks` (block rows of blocks, conforming), by copies.
pub fn assemble(blocks: &[Vec<Mat>]) -> Result<Mat, LaError> {
    let rows: usize = blocks
        .iter()
        .filter_map(|r| r.first())
        .map(|b| b.rows)
        .sum();
    let cols: usize = blocks.first().map_or(0, |r| r.iter().map(|b| b.cols).sum());
    let mut m = Mat::zeros(rows, cols);
    let mut r0 = 0;
    for row in blocks {
        let mut c0 = 0;
        for b in row {
            if r0 + b.rows > rows || c0 + b.cols > cols {
                return Err(LaError::Numerical("blocks that do not conform".into()));
            }
            for i in 0..b.rows {
                for j in 0..b.cols {
                    m.set(r0 + i, c0 + j, b.at(i, j));
                }
            }
            c0 += b.cols;
        }
        r0 += row.first().map_or(0, |b| b.rows);
    }
    Ok(m)
}

/// Evaluates the formula directly, with explicit inverses; returns the value of every operand.
pub fn evaluate(p: &Program, vals: &[Option<Mat>]) -> Result<Vec<Option<Mat>>, LaError> {
    fn go(e: &Expr, v: &[Option<Mat>]) -> Result<Mat, LaError> {
        Ok(match e {
            Expr::Operand(i) => v
                .get(*i)
                .cloned()
                .flatten()
                .ok_or_else(|| LaError::Numerical("unset operand".into()))?,
            Expr::Add(a, b) => go(a, v)?.add(&go(b, v)?, 1.0)?,
            Expr::Sub(a, b) => go(a, v)?.add(&go(b, v)?, -1.0)?,
            Expr::Neg(a) => go(a, v)?.scale(-1.0),
            Expr::Mul(a, b) => go(a, v)?.mul(&go(b, v)?)?,
            Expr::Trans(a) => go(a, v)?.t(),
            Expr::Inv(a) => go(a, v)?.inverse()?,
            Expr::Block(rows) => {
                let mut blocks = Vec::new();
                for row in rows {
                    let r: Result<Vec<Mat>, LaError> = row.iter().map(|x| go(x, v)).collect();
                    blocks.push(r?);
                }
                assemble(&blocks)?
            }
        })
    }
    let mut v = vals.to_vec();
    for a in &p.assignments {
        let r = go(&a.rhs, &v)?;
        v[a.lhs] = Some(r);
    }
    Ok(v)
}

fn get(v: &[Option<Mat>], a: Arg) -> Result<Mat, LaError> {
    let m =
        v.get(a.id).cloned().flatten().ok_or_else(|| {
            LaError::Numerical(format!("entity {} used before it is computed", a.id))
        })?;
    Ok(if a.trans { m.t() } else { m })
}

fn alpha_value(v: &[Option<Mat>], a: &Alpha) -> Result<f64, LaError> {
    let mut s = a.coef;
    for &id in &a.scalars {
        s *= get(v, Arg { id, trans: false })?
            .data
            .first()
            .copied()
            .unwrap_or(0.0);
    }
    Ok(s)
}

/// Solves op(t) X = B (left) or X op(t) = B (right), reading only the structure the
/// properties promise: the diagonal of a diagonal matrix, one triangle of a triangular one.
fn structured_solve(t: &Mat, tp: Props, b: &Mat, left: bool) -> Result<Mat, LaError> {
    if !left {
        // X T = B  <=>  T^T X^T = B^T.
        let tt = t.t();
        let tpt = super::infer::transpose_props(tp);
        return Ok(structured_solve(&tt, tpt, &b.t(), true)?.t());
    }
    let n = t.rows;
    let mut x = b.clone();
    let diag = |i: usize| -> Result<f64, LaError> {
        let d = t.at(i, i);
        if d.abs() < 1e-300 {
            Err(LaError::Numerical(
                "zero pivot in a triangular solve".into(),
            ))
        } else {
            Ok(d)
        }
    };
    if tp.has(Prop::Diagonal) || n == 1 {
        for i in 0..n {
            let d = diag(i)?;
            for j in 0..x.cols {
                x.data[i * x.cols + j] /= d;
            }
        }
    } else if tp.has(Prop::LowerTriangular) {
        for i in 0..n {
            for k in 0..i {
                let l = t.at(i, k);
                for j in 0..x.cols {
                    x.data[i * x.cols + j] -= l * x.at(k, j);
                }
            }
            let d = diag(i)?;
            for j in 0..x.cols {
                x.data[i * x.cols + j] /= d;
            }
        }
    } else if tp.has(Prop::UpperTriangular) {
        for i in (0..n).rev() {
            for k in i + 1..n {
                let u = t.at(i, k);
                for j in 0..x.cols {
                    x.data[i * x.cols + j] -= u * x.at(k, j);
                }
            }
            let d = diag(i)?;
            for j in 0..x.cols {
                x.data[i * x.cols + j] /= d;
            }
        }
    } else if let Some(b) = tp.block().and_then(|b| usize::try_from(b).ok()) {
        return block_solve(t, b, x);
    } else {
        return Err(LaError::Numerical(
            "solve with a matrix that is neither triangular, diagonal nor block-diagonal".into(),
        ));
    }
    Ok(x)
}

/// Solves T X = B for a block-diagonal T with blocks of `b` (the last one possibly
/// smaller), reading only the diagonal blocks: Gaussian elimination with partial pivoting
/// within each block, on the block's rows of B.
fn block_solve(t: &Mat, b: usize, mut x: Mat) -> Result<Mat, LaError> {
    let n = t.rows;
    let mut start = 0;
    while start < n {
        let end = (start + b.max(1)).min(n);
        let mut a: Vec<Vec<f64>> = (start..end)
            .map(|i| (start..end).map(|j| t.at(i, j)).collect())
            .collect();
        let mut rhs: Vec<Vec<f64>> = (start..end)
            .map(|i| (0..x.cols).map(|j| x.at(i, j)).collect())
            .collect();
        let m = end - start;
        for k in 0..m {
            let p = (k..m)
                .max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))
                .unwrap_or(k);
            if a[p][k].abs() < 1e-300 {
                return Err(LaError::Numerical(
                    "singular diagonal block in a block-diagonal solve".into(),
                ));
            }
            a.swap(k, p);
            rhs.swap(k, p);
            for i in k + 1..m {
                let f = a[i][k] / a[k][k];
                let (top, bottom) = a.split_at_mut(i);
                for (x, y) in bottom[0][k..].iter_mut().zip(&top[k][k..]) {
                    *x -= f * y;
                }
                let (top, bottom) = rhs.split_at_mut(i);
                for (x, y) in bottom[0].iter_mut().zip(&top[k]) {
                    *x -= f * y;
                }
            }
        }
        for k in (0..m).rev() {
            let mut v = rhs[k].clone();
            for (l, row) in rhs.iter().enumerate().skip(k + 1) {
                let f = a[k][l];
                for (x, y) in v.iter_mut().zip(row) {
                    *x -= f * y;
                }
            }
            for x in v.iter_mut() {
                *x /= a[k][k];
            }
            rhs[k] = v;
        }
        for (r, row) in rhs.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                x.set(start + r, j, *v);
            }
        }
        start = end;
    }
    Ok(x)
}

/// Cholesky factor reading only the lower triangle.
fn cholesky(a: &Mat) -> Result<Mat, LaError> {
    let n = a.rows;
    let mut l = Mat::zeros(n, n);
    for j in 0..n {
        let mut d = a.at(j, j);
        for k in 0..j {
            d -= l.at(j, k).powi(2);
        }
        if d <= 0.0 {
            return Err(LaError::Numerical("matrix is not positive definite".into()));
        }
        let d = d.sqrt();
        l.set(j, j, d);
        for i in j + 1..n {
            let mut s = a.at(i, j);
            for k in 0..j {
                s -= l.at(i, k) * l.at(j, k);
            }
            l.set(i, j, s / d);
        }
    }
    Ok(l)
}

/// LU with partial pivoting: A = P L U.
fn lu(a: &Mat) -> Result<(Mat, Mat, Mat), LaError> {
    let n = a.rows;
    let mut u = a.clone();
    let mut perm: Vec<usize> = (0..n).collect();
    let mut l = Mat::identity(n);
    for k in 0..n {
        let p = (k..n)
            .max_by(|&i, &j| u.at(i, k).abs().total_cmp(&u.at(j, k).abs()))
            .unwrap_or(k);
        if u.at(p, k).abs() < 1e-300 {
            return Err(LaError::Numerical("singular matrix in LU".into()));
        }
        if p != k {
            for j in 0..n {
                u.data.swap(k * n + j, p * n + j);
            }
            for j in 0..k {
                l.data.swap(k * n + j, p * n + j);
            }
            perm.swap(k, p);
        }
        for i in k + 1..n {
            let f = u.at(i, k) / u.at(k, k);
            l.set(i, k, f);
            for j in k..n {
                let v = u.at(i, j) - f * u.at(k, j);
                u.set(i, j, v);
            }
        }
    }
    // Rows of U were permuted: P^T A = L U, so P e_k-row mapping is perm.
    let mut pm = Mat::zeros(n, n);
    for (k, &r) in perm.iter().enumerate() {
        pm.set(r, k, 1.0);
    }
    Ok((pm, l, u))
}

/// Executes a kernel sequence; `vals` holds the inputs (indices of program operands) and is
/// extended with every temporary.
pub fn execute(
    env: &Env,
    steps: &[Step],
    inputs: &[Option<Mat>],
) -> Result<Vec<Option<Mat>>, LaError> {
    let mut v: Vec<Option<Mat>> = inputs.to_vec();
    v.resize(env.entities.len(), None);
    for (i, e) in env.entities.iter().enumerate() {
        if v[i].is_none() && e.kind == Kind::Constant {
            v[i] = Some(Mat {
                rows: 1,
                cols: 1,
                data: vec![e.value],
            });
        }
    }
    let props = |a: Arg| {
        let p = env.props(a.id);
        if a.trans {
            super::infer::transpose_props(p)
        } else {
            p
        }
    };
    for s in steps {
        let out = match &s.op {
            Op::Mul { a, b } => get(&v, *a)?.mul(&get(&v, *b)?)?,
            Op::Solve { t, b, left } => {
                structured_solve(&get(&v, *t)?, props(*t), &get(&v, *b)?, *left)?
            }
            Op::Add { terms } => {
                let mut acc: Option<Mat> = None;
                for (al, a) in terms {
                    let x = get(&v, *a)?;
                    let s = alpha_value(&v, al)?;
                    acc = Some(match acc {
                        None => x.scale(s),
                        Some(m) => m.add(&x, s)?,
                    });
                }
                acc.ok_or_else(|| LaError::Numerical("empty sum".into()))?
            }
            Op::Scale { alpha, a } => get(&v, *a)?.scale(alpha_value(&v, alpha)?),
            Op::Syr2k { alpha, a, b } => {
                let m = get(&v, *a)?.mul(&get(&v, *b)?)?;
                m.add(&m.t(), 1.0)?.scale(alpha_value(&v, alpha)?)
            }
            Op::BlockSolve {
                t,
                b,
                left,
                lu,
                piv,
                factor,
            } => {
                // The matrix applied from the left: op(t), or op(t)^T for a right solve.
                let tp = props(*t);
                let bs = tp
                    .block()
                    .and_then(|b| usize::try_from(b).ok())
                    .unwrap_or(1);
                let (a, ap, rhs) = if *left {
                    (get(&v, *t)?, tp, get(&v, *b)?)
                } else {
                    let tt = Arg {
                        id: t.id,
                        trans: !t.trans,
                    };
                    (get(&v, tt)?, props(tt), get(&v, *b)?.t())
                };
                let a = if *factor {
                    v[*lu] = Some(block::stacked(&a, bs));
                    v[*piv] = Some(Mat::zeros(a.rows, 1));
                    a
                } else {
                    block::unstacked(
                        &get(
                            &v,
                            Arg {
                                id: *lu,
                                trans: false,
                            },
                        )?,
                        bs,
                    )
                };
                let x = structured_solve(&a, ap, &rhs, true)?;
                if *left {
                    x
                } else {
                    x.t()
                }
            }
            Op::Potrf { a } => cholesky(&get(&v, *a)?)?,
            Op::Getrf { a, l, u } => {
                let (pm, lm, um) = lu(&get(&v, *a)?)?;
                v[*l] = Some(lm);
                v[*u] = Some(um);
                pm
            }
            Op::Inverse { a } => {
                let m = get(&v, *a)?;
                let p = props(*a);
                if p.has(Prop::Diagonal)
                    || p.is_triangular()
                    || m.rows == 1
                    || p.has(Prop::BlockDiagonal)
                {
                    structured_solve(&m, p, &Mat::identity(m.rows), true)?
                } else {
                    m.inverse()?
                }
            }
            Op::Orth(o) => orth::execute(o, &mut v)?,
            Op::Bind { a } => get(&v, *a)?,
            Op::Assemble { cells } => {
                let mut blocks = Vec::new();
                for r in cells {
                    let row: Result<Vec<Mat>, LaError> = r
                        .iter()
                        .map(|&id| get(&v, Arg { id, trans: false }))
                        .collect();
                    blocks.push(row?);
                }
                assemble(&blocks)?
            }
        };
        if s.out >= v.len() {
            v.resize(s.out + 1, None);
        }
        v[s.out] = Some(out);
    }
    Ok(v)
}

/// Largest relative difference (Frobenius norm) between the outputs of a kernel sequence
/// and direct evaluation of the formula, on random inputs for `small` (a scaled-down copy
/// of the program the sequence was made for).
pub fn check(small: &Program, env: &Env, steps: &[Step], seed: u64) -> Result<f64, LaError> {
    let ins = inputs(small, seed);
    let direct = evaluate(small, &ins)?;
    let got = execute(env, steps, &ins)?;
    let mut worst: f64 = 0.0;
    for o in small.outputs() {
        let d = direct[o]
            .as_ref()
            .ok_or_else(|| LaError::Numerical("output not computed".into()))?;
        let g = got[o]
            .as_ref()
            .ok_or_else(|| LaError::Numerical("output not computed".into()))?;
        let rel = g.add(d, -1.0)?.norm() / d.norm().max(1e-300);
        worst = worst.max(rel);
    }
    Ok(worst)
}

/// A copy of the program with every size divided by `divisor` (at least `min`), for
/// numerical checks at small sizes.
pub fn scaled(p: &Program, divisor: u64, min: u64) -> Program {
    let mut q = p.clone();
    for (_, v) in q.sizes.iter_mut() {
        *v = (*v / divisor.max(1)).max(min);
    }
    q.resize_operands();
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Mat, b: &Mat) -> bool {
        a.add(b, -1.0)
            .map(|d| d.norm() <= 1e-10 * b.norm().max(1.0))
            .unwrap_or(false)
    }

    #[test]
    fn factorisations_reconstruct_their_matrix() {
        let mut rng = Rng::new(5);
        let a = sample(
            6,
            6,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::FullRank]),
            &mut rng,
        );
        let (p, l, u) = lu(&a).unwrap_or_else(|e| panic!("{e}"));
        let plu = p
            .mul(&l)
            .and_then(|pl| pl.mul(&u))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&plu, &a));
        let s = sample(
            6,
            6,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::Spd]).closure(6, 6),
            &mut rng,
        );
        let c = cholesky(&s).unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&c.mul(&c.t()).unwrap_or_else(|e| panic!("{e}")), &s));
    }

    #[test]
    fn samples_have_their_properties() {
        let mut rng = Rng::new(9);
        let q = sample(
            5,
            5,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::Orthogonal]).closure(5, 5),
            &mut rng,
        );
        assert!(close(
            &q.t().mul(&q).unwrap_or_else(|e| panic!("{e}")),
            &Mat::identity(5)
        ));
        let l = sample(
            5,
            5,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::LowerTriangular]),
            &mut rng,
        );
        assert!((0..5).all(|i| (i + 1..5).all(|j| l.at(i, j) == 0.0)));
        let s = sample(
            5,
            5,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::Symmetric]).closure(5, 5),
            &mut rng,
        );
        assert!(close(&s, &s.t()));
    }

    #[test]
    fn structured_solve_reads_only_its_triangle() {
        let mut rng = Rng::new(11);
        let l = sample(
            4,
            4,
            Kind::Matrix,
            0.0,
            Props::of(&[Prop::LowerTriangular]),
            &mut rng,
        );
        let mut dirty = l.clone();
        dirty.data[3] = 99.0; // above the diagonal: must be ignored
        let b = random(4, 2, &mut rng);
        let x = structured_solve(&dirty, Props::of(&[Prop::LowerTriangular]), &b, true)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&l.mul(&x).unwrap_or_else(|e| panic!("{e}")), &b));
        let xr = structured_solve(&l, Props::of(&[Prop::LowerTriangular]), &b.t(), false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(close(&xr.mul(&l).unwrap_or_else(|e| panic!("{e}")), &b.t()));
    }

    /// Numerical counterexamples for the property-inference rules (`infer`) deliberately
    /// left out.
    #[test]
    fn unsound_rules_have_counterexamples() {
        // Orthogonal but not positive definite: -I (and a rotation by 90 degrees).
        let r = Mat {
            rows: 2,
            cols: 2,
            data: vec![0.0, -1.0, 1.0, 0.0],
        };
        let rtr = r.t().mul(&r).unwrap();
        assert!(rtr.add(&Mat::identity(2), -1.0).unwrap().norm() < 1e-15);
        let x = [1.0, 0.0];
        let quad: f64 = (0..2)
            .map(|i| (0..2).map(|j| x[i] * r.at(i, j) * x[j]).sum::<f64>())
            .sum();
        assert_eq!(quad, 0.0, "x^T R x = 0: not positive definite");
        // Non-singular terms with a singular sum: A + (-A) and I + (-I).
        let a = Mat {
            rows: 2,
            cols: 2,
            data: vec![1.0, 2.0, 3.0, 4.0],
        };
        assert!(a.add(&a, -1.0).unwrap().inverse().is_err());
        // SPD minus SPSD need not be SPSD: I - 2I.
        let d = Mat::identity(2).add(&Mat::identity(2), -2.0).unwrap();
        assert!(d.at(0, 0) < 0.0);
    }
}
