//! The kernel catalogue: what each BLAS/LAPACK kernel (or small code snippet) computes, the
//! properties it needs, its leading-term FLOP count as in Linnea, and its iteration domain
//! in polyscan's input language with the statement body, for the code generator.

use std::fmt;

/// A kernel the search may emit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// General matrix product `C := alpha A B + beta C`.
    Gemm,
    /// Product with a symmetric matrix.
    Symm,
    /// Symmetric rank-k update `C := alpha A^T A + beta C`.
    Syrk,
    /// Symmetric rank-2k update.
    Syr2k,
    /// Product with a triangular matrix.
    Trmm,
    /// Triangular solve with several right-hand sides.
    Trsm,
    /// General matrix-vector product.
    Gemv,
    /// Symmetric matrix-vector product.
    Symv,
    /// Triangular matrix-vector product.
    Trmv,
    /// Triangular solve with one right-hand side.
    Trsv,
    /// Rank-1 update `A := alpha x y^T + A`.
    Ger,
    /// Dot product.
    Dot,
    /// `Y := alpha X + Y`.
    Axpy,
    /// `X := alpha X`.
    Scal,
    /// Cholesky factorisation.
    Potrf,
    /// LU factorisation with partial pivoting.
    Getrf,
    /// Inverse of a triangular matrix.
    Trtri,
    /// C := L^T L for a triangular L (the second half of an explicit SPD inverse).
    Lauum,
    /// Explicit inverse from an LU factorisation (only in the naive baseline and where an
    /// inverse is the requested output).
    Getri,
    /// Product with a diagonal matrix (from either side).
    DiagScale,
    /// Solve with a diagonal matrix (from either side).
    DiagSolve,
    /// Row permutation from a pivoted LU factorisation; no arithmetic.
    Laswp,
    /// Householder QR factorisation `A = Q R` of a tall matrix (Q kept as reflectors).
    Geqrf,
    /// Product with the orthogonal factor of GEQRF, `Q^T C` or `Q C`, from its reflectors.
    Ormqr,
    /// Symmetric eigendecomposition `A = Z W Z^T` (eigenvectors and eigenvalues).
    Syev,
    /// Singular value decomposition `A = U S V^T`.
    Gesvd,
    /// Inverse of a block-diagonal matrix, block by block (LU and inverse of each block).
    BdGetri,
    /// Solve with a block-diagonal matrix, block by block (LU of each block, then its
    /// solves on the block's rows of the right-hand side); the blocks' factors are kept
    /// for later solves with the same matrix ([`Kernel::BdGetrs`]).
    BdGesv,
    /// Solve with a block-diagonal matrix whose blocks' LU factors an earlier BDGESV kept:
    /// the two triangular solves per block only.
    BdGetrs,
    /// Product with a block-diagonal matrix, block by block (a small GEMM per block).
    BdGemm,
    /// Element-wise map of a sum-product plan's term (issue 22): every entry of a dense
    /// result from the same entries of dense operands (broadcasts included).
    EwMap,
    /// Reduction of a sum-product plan's term: a dense term summed over some of its
    /// indices (`sum`, `rowSums`, `colSums`, `trace`, contractions that are not GEMM).
    Reduce,
    /// Element-wise map over the nonzeros of a CSR operand (`X .* Y`, `X .^ 2`).
    CsrMap,
    /// Reduction over the nonzeros of a CSR operand (`sum(X .^ 2)`, its row or column
    /// sums, weighted by dense operands).
    CsrReduce,
    /// Product of a CSR operand with a dense one (`X * B`, `X^T * B`, and the sampled
    /// products that keep X's pattern).
    CsrMm,
    /// Binding of an output name to a computed value; no arithmetic, not printed.
    Bind,
}

/// One catalogue entry.
#[derive(Debug, Clone, Copy)]
pub struct KernelSpec {
    /// The kernel this entry describes.
    pub kernel: Kernel,
    /// Its name as printed (`GEMM`).
    pub name: &'static str,
    /// The operation, with operand shapes.
    pub operation: &'static str,
    /// Property conditions on the operands.
    pub conditions: &'static str,
    /// Leading-term FLOP count in the shape names of `operation`.
    pub cost: &'static str,
    /// Iteration domain (polyscan input language).
    pub domain: &'static str,
    /// C statement executed at each point of the domain.
    pub body: &'static str,
}

/// The whole catalogue.
pub const CATALOGUE: &[KernelSpec] = &[
    KernelSpec {
        kernel: Kernel::Gemm,
        name: "GEMM",
        operation: "C(m,n) := alpha*A(m,k)*B(k,n) + beta*C",
        conditions: "none",
        cost: "2*m*n*k",
        domain: "[m, n, k] -> { S[i, j, l] : 0 <= i < m and 0 <= j < n and 0 <= l < k }",
        body: "C[i][j] += A[i][l] * B[l][j]",
    },
    KernelSpec {
        kernel: Kernel::Symm,
        name: "SYMM",
        operation: "C(m,n) := alpha*A(m,m)*B(m,n) + beta*C",
        conditions: "A Symmetric (lower triangle stored)",
        cost: "2*m*m*n",
        domain: "[m, n] -> { S[i, j, l] : 0 <= i < m and 0 <= j < n and 0 <= l < m }",
        body: "C[i][j] += (l <= i ? A[i][l] : A[l][i]) * B[l][j]",
    },
    KernelSpec {
        kernel: Kernel::Syrk,
        name: "SYRK",
        operation: "C(n,n) := alpha*A(k,n)^T*A(k,n) + beta*C",
        conditions: "result symmetric; lower triangle computed",
        cost: "k*n*n",
        domain: "[n, k] -> { S[i, j, l] : 0 <= j <= i < n and 0 <= l < k }",
        body: "C[i][j] += A[l][i] * A[l][j]",
    },
    KernelSpec {
        kernel: Kernel::Syr2k,
        name: "SYR2K",
        operation: "C(n,n) := alpha*(A^T*B + B^T*A) + beta*C, A,B (k,n)",
        conditions: "result symmetric; lower triangle computed",
        cost: "2*k*n*n",
        domain: "[n, k] -> { S[i, j, l] : 0 <= j <= i < n and 0 <= l < k }",
        body: "C[i][j] += A[l][i] * B[l][j] + B[l][i] * A[l][j]",
    },
    KernelSpec {
        kernel: Kernel::Trmm,
        name: "TRMM",
        operation: "B(m,n) := alpha*L(m,m)*B",
        conditions: "L LowerTriangular (other triangle and sides by symmetry)",
        cost: "m*m*n",
        domain: "[m, n] -> { S[i, j, l] : 0 <= l <= i < m and 0 <= j < n }",
        body: "X[i][j] += L[i][l] * B[l][j]",
    },
    KernelSpec {
        kernel: Kernel::Trsm,
        name: "TRSM",
        operation: "B(m,n) := alpha*L(m,m)^-1*B",
        conditions: "L LowerTriangular, non-singular (other triangle and sides by symmetry)",
        cost: "m*m*n",
        domain: "[m, n] -> { S[i, j, l] : 0 <= j < n and 0 <= l <= i < m }",
        body: "B[i][j] = (l < i) ? B[i][j] - L[i][l] * B[l][j] : B[i][j] / L[i][i]",
    },
    KernelSpec {
        kernel: Kernel::Gemv,
        name: "GEMV",
        operation: "y(m) := alpha*A(m,n)*x(n) + beta*y",
        conditions: "none",
        cost: "2*m*n",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "y[i] += A[i][j] * x[j]",
    },
    KernelSpec {
        kernel: Kernel::Symv,
        name: "SYMV",
        operation: "y(n) := alpha*A(n,n)*x(n) + beta*y",
        conditions: "A Symmetric (lower triangle stored)",
        cost: "2*n*n",
        domain: "[n] -> { S[i, j] : 0 <= i < n and 0 <= j < n }",
        body: "y[i] += (j <= i ? A[i][j] : A[j][i]) * x[j]",
    },
    KernelSpec {
        kernel: Kernel::Trmv,
        name: "TRMV",
        operation: "x(n) := L(n,n)*x",
        conditions: "L LowerTriangular",
        cost: "n*n",
        domain: "[n] -> { S[i, j] : 0 <= j <= i < n }",
        body: "y[i] += L[i][j] * x[j]",
    },
    KernelSpec {
        kernel: Kernel::Trsv,
        name: "TRSV",
        operation: "x(n) := L(n,n)^-1*x",
        conditions: "L LowerTriangular, non-singular",
        cost: "n*n",
        domain: "[n] -> { S[i, j] : 0 <= j <= i < n }",
        body: "x[i] = (j < i) ? x[i] - L[i][j] * x[j] : x[i] / L[i][i]",
    },
    KernelSpec {
        kernel: Kernel::Ger,
        name: "GER",
        operation: "A(m,n) := alpha*x(m)*y(n)^T + A",
        conditions: "none",
        cost: "2*m*n",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "A[i][j] += x[i] * y[j]",
    },
    KernelSpec {
        kernel: Kernel::Dot,
        name: "DOT",
        operation: "s := x(n)^T*y(n)",
        conditions: "none",
        cost: "2*n",
        domain: "[n] -> { S[i] : 0 <= i < n }",
        body: "s += x[i] * y[i]",
    },
    KernelSpec {
        kernel: Kernel::Axpy,
        name: "AXPY",
        operation: "Y(m,n) := alpha*X(m,n) + Y (vectors: n = 1)",
        conditions: "none",
        cost: "m*n per addition (plus m*n to scale when alpha is not 1)",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "Y[i][j] += alpha * X[i][j]",
    },
    KernelSpec {
        kernel: Kernel::Scal,
        name: "SCAL",
        operation: "X(m,n) := alpha*X",
        conditions: "none",
        cost: "m*n",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "X[i][j] *= alpha",
    },
    KernelSpec {
        kernel: Kernel::Potrf,
        name: "POTRF",
        operation: "A(n,n) = L*L^T",
        conditions: "A SPD",
        cost: "n*n*n/3",
        // Left-looking, in place on the lower triangle: for column j, row j is finished
        // (square root) before the rows below it are divided by it.
        domain: "[n] -> { S[j, i, k] : 0 <= k <= j <= i < n }",
        body: "A[i][j] = k < j ? A[i][j] - A[i][k] * A[j][k] : (i == j ? sqrt(A[j][j]) : A[i][j] / A[j][j])",
    },
    KernelSpec {
        kernel: Kernel::Getrf,
        name: "GETRF",
        operation: "A(n,n) = P*L*U (partial pivoting)",
        conditions: "A non-singular",
        cost: "2*n*n*n/3",
        // Right-looking, in place; the multiplier (j == k) precedes its row's updates. The
        // pivot search and row swap of step k are a separate statement before S[k, ...].
        domain: "[n] -> { S[k, i, j] : 0 <= k < n and k < i < n and k <= j < n }",
        body: "A[i][j] = j == k ? A[i][k] / A[k][k] : A[i][j] - A[i][k] * A[k][j]",
    },
    KernelSpec {
        kernel: Kernel::Trtri,
        name: "TRTRI",
        operation: "L(n,n) := L^-1",
        conditions: "L LowerTriangular, non-singular",
        cost: "n*n*n/3",
        // Column by column into a zeroed X: X[i][j] = -(sum_{j<=k<i} L[i][k] X[k][j]) / L[i][i].
        domain: "[n] -> { S[j, i, k] : 0 <= j <= k <= i < n }",
        body: "X[i][j] = k < i ? X[i][j] - L[i][k] * X[k][j] : (i == j ? 1.0 / L[i][i] : X[i][j] / L[i][i])",
    },
    KernelSpec {
        kernel: Kernel::Lauum,
        name: "LAUUM",
        operation: "C(n,n) := L(n,n)^T*L",
        conditions: "L LowerTriangular; result symmetric, lower triangle computed",
        cost: "n*n*n/3",
        domain: "[n] -> { S[i, j, k] : 0 <= j <= i <= k < n }",
        body: "C[i][j] += L[k][i] * L[k][j]",
    },
    KernelSpec {
        kernel: Kernel::Getri,
        name: "GETRI",
        operation: "A(n,n) := A^-1 from P*L*U",
        conditions: "A non-singular",
        cost: "4*n*n*n/3",
        domain: "[n] -> { S[j, i, k] : 0 <= j < n and 0 <= i < n and 0 <= k < n }",
        body: "X[i][j] -= U[i][k] * X[k][j]",
    },
    KernelSpec {
        kernel: Kernel::DiagScale,
        name: "DIAGSCALE",
        operation: "B(m,n) := D(m,m)*B or B*D(n,n)",
        conditions: "D Diagonal",
        cost: "m*n",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "B[i][j] *= D[i][i]",
    },
    KernelSpec {
        kernel: Kernel::DiagSolve,
        name: "DIAGSOLVE",
        operation: "B(m,n) := D(m,m)^-1*B or B*D(n,n)^-1",
        conditions: "D Diagonal, non-singular",
        cost: "m*n",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "B[i][j] /= D[i][i]",
    },
    KernelSpec {
        kernel: Kernel::Laswp,
        name: "LASWP",
        operation: "B(m,n) := P*B",
        conditions: "P Permutation",
        cost: "0",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "X[i][j] = B[p[i]][j]",
    },
    // The four orthogonal factorisations and their use have no single-statement body a
    // loop nest could scan (each step k applies a reflector or rotation built from a norm
    // over the whole column); programs run them as C routines (`ps_geqr2` and friends).
    // Domain and body describe the dominant update for the catalogue listing.
    KernelSpec {
        kernel: Kernel::Geqrf,
        name: "GEQRF",
        operation: "A(m,n) = Q*R, m >= n (Q as n Householder reflectors)",
        conditions: "A FullRank, m >= n",
        cost: "2*m*n*n - 2*n*n*n/3",
        domain: "[m, n] -> { S[k, j, i] : 0 <= k < n and k < j < n and k <= i < m }",
        body: "A[i][j] -= tau[k] * v[i] * w[j]",
    },
    KernelSpec {
        kernel: Kernel::Ormqr,
        name: "ORMQR",
        operation: "C(m,p) := Q^T*C or Q*C, Q(m,m) from k reflectors of GEQRF",
        conditions: "Q from GEQRF",
        cost: "4*m*p*k - 2*p*k*k",
        domain: "[m, p, k] -> { S[l, j, i] : 0 <= l < k and 0 <= j < p and l <= i < m }",
        body: "C[i][j] -= tau[l] * v[i] * w[j]",
    },
    KernelSpec {
        kernel: Kernel::Syev,
        name: "SYEV",
        operation: "A(n,n) = Z*W*Z^T, W diagonal (eigenvalues), Z orthogonal",
        conditions: "A Symmetric",
        cost: "10*n*n*n/3 + n*n",
        domain: "[n] -> { S[p, q, i] : 0 <= p < q < n and 0 <= i < n }",
        body: "A[i][p] = c * A[i][p] - s * A[i][q]",
    },
    KernelSpec {
        kernel: Kernel::Gesvd,
        name: "GESVD",
        operation: "A(m,n) = U*S*V^T, m >= n, S diagonal, U, V orthogonal",
        conditions: "none (inverses: A square, FullRank)",
        cost: "14*m*n*n + 8*n*n*n",
        domain: "[m, n] -> { S[p, q, i] : 0 <= p < q < n and 0 <= i < m }",
        body: "A[i][p] = c * A[i][p] - s * A[i][q]",
    },
    // Block-diagonal kernels (issue 22): loops over the n/b diagonal blocks of size b
    // (the last one smaller when b does not divide n), each a small dense kernel; programs
    // run them as C routines (`ps_bd_*`) or LAPACK/BLAS calls per block. Domain and body
    // describe the dominant update, block index q.
    KernelSpec {
        kernel: Kernel::BdGetri,
        name: "BDGETRI",
        operation: "X(n,n) := A^-1, A BlockDiagonal(b) (GETRF + GETRI per block)",
        conditions: "A BlockDiagonal(b), non-singular",
        cost: "2*n*b*b",
        domain: "[q, b] -> { S[k, j, i] : 0 <= k < b and 0 <= j < b and 0 <= i < b }",
        body: "X[q*b+i][q*b+j] -= U[q*b+i][q*b+k] * X[q*b+k][q*b+j]",
    },
    KernelSpec {
        kernel: Kernel::BdGesv,
        name: "BDGESV",
        operation: "B(n,m) := A^-1*B or B*A^-1, A BlockDiagonal(b) (GETRF + GETRS per block)",
        conditions: "A BlockDiagonal(b), non-singular",
        cost: "2*n*b*b/3 + 2*n*b*m",
        domain: "[q, b, m] -> { S[j, i, k] : 0 <= j < m and 0 <= k < i < b }",
        body: "B[q*b+i][j] -= L[q*b+i][q*b+k] * B[q*b+k][j]",
    },
    KernelSpec {
        kernel: Kernel::BdGetrs,
        name: "BDGETRS",
        operation: "B(n,m) := A^-1*B or B*A^-1, A's block LU factors kept by a BDGESV (GETRS per block)",
        conditions: "A BlockDiagonal(b), factored",
        cost: "2*n*b*m",
        domain: "[q, b, m] -> { S[j, i, k] : 0 <= j < m and 0 <= k < i < b }",
        body: "B[q*b+i][j] -= L[q*b+i][q*b+k] * B[q*b+k][j]",
    },
    KernelSpec {
        kernel: Kernel::BdGemm,
        name: "BDGEMM",
        operation: "C(n,m) := A*B or B*A, A BlockDiagonal(b)",
        conditions: "A BlockDiagonal(b)",
        cost: "2*n*b*m",
        domain: "[q, b, m] -> { S[j, i, k] : 0 <= j < m and 0 <= i < b and 0 <= k < b }",
        body: "C[q*b+i][j] += A[q*b+i][q*b+k] * B[q*b+k][j]",
    },
    // Sum-product kernels (issue 22): the terms of a sum-product plan (`polyscan_sumproduct`,
    // `sumproduct::emit::Term`), `out[P(point)] += f(point)` over the domain, where f is the
    // term's product of operand entries and element functions and P keeps the result's
    // indices. `t` is the term's operations per point (its multiplications, functions and
    // the addition when it sums or adds to another term). The CSR kernels' domains are one
    // row's: the row loop `0 <= i < m` is outside the scanned set and binds `lo =
    // rowptr[i]`, `hi = rowptr[i + 1]`, which are constants during the scan, so the set is
    // exactly the row's nonzeros (times the dense index); a domain over (i, p, j) would treat
    // lo and hi as constants of the whole nest, which they are not.
    KernelSpec {
        kernel: Kernel::EwMap,
        name: "EWMAP",
        operation: "Z(m,n) := f(X(m,n), Y(m,n), ...) (vectors: n = 1; broadcasts)",
        conditions: "dense operands",
        cost: "t*m*n",
        domain: "[m, n] -> { S[i, j] : 0 <= i < m and 0 <= j < n }",
        body: "Z[i][j] += F[i][j]",
    },
    KernelSpec {
        kernel: Kernel::Reduce,
        name: "REDUCE",
        operation: "Z(m,n) := sum_l f(X, Y, ...)(m,n,l) (sum, rowSums, colSums, trace; unused extents 1)",
        conditions: "dense operands",
        cost: "t*m*n*k",
        domain: "[m, n, k] -> { S[i, j, l] : 0 <= i < m and 0 <= j < n and 0 <= l < k }",
        body: "Z[i][j] += F[i][j][l]",
    },
    KernelSpec {
        kernel: Kernel::CsrMap,
        name: "CSRMAP",
        operation: "Z(m,n) := f(X(m,n), ...) at the nonzeros of X (CSR), row by row",
        conditions: "X Sparse (CSR)",
        cost: "t*nnz",
        domain: "[lo, hi] -> { S[p] : lo <= p < hi }",
        body: "Z[i][colind[p]] += F(val[p], i, colind[p])",
    },
    KernelSpec {
        kernel: Kernel::CsrReduce,
        name: "CSRREDUCE",
        operation: "z := sum of f(X(m,n), ...) over the nonzeros of X (CSR), kept by row, column or neither (X also under functions with g(0) = 0; trace: the nonzeros whose column is the row)",
        conditions: "X Sparse (CSR)",
        cost: "t*nnz",
        domain: "[lo, hi] -> { S[p] : lo <= p < hi }",
        body: "z[P(i, colind[p])] += F(val[p], i, colind[p])",
    },
    KernelSpec {
        kernel: Kernel::CsrMm,
        name: "CSRMM",
        operation: "C(m,n) := X(m,k)*B(k,n) + C, X in CSR (and X^T*B, sampled products)",
        conditions: "X Sparse (CSR)",
        cost: "t*nnz*n",
        domain: "[n, lo, hi] -> { S[p, j] : lo <= p < hi and 0 <= j < n }",
        body: "C[i][j] += val[p] * B[colind[p]][j]",
    },
];

impl Kernel {
    /// The catalogue entry (`None` for [`Kernel::Bind`], which has none).
    pub fn spec(self) -> Option<&'static KernelSpec> {
        CATALOGUE.iter().find(|s| s.kernel == self)
    }
    /// The catalogue name (`GEMM`; `BIND` for [`Kernel::Bind`]).
    pub fn name(self) -> &'static str {
        self.spec().map_or("BIND", |s| s.name)
    }
    /// Kernels that form an explicit inverse.
    pub fn is_explicit_inverse(self) -> bool {
        matches!(self, Kernel::Trtri | Kernel::Getri | Kernel::BdGetri)
    }
    /// Kernels that run block by block over a block-diagonal operand.
    pub fn is_block_diagonal(self) -> bool {
        matches!(
            self,
            Kernel::BdGetri | Kernel::BdGesv | Kernel::BdGetrs | Kernel::BdGemm
        )
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// FLOP counts (leading terms, as in Linnea's cost model) in the sizes of each kernel.
pub mod cost {
    /// Matrix product of an m x k and a k x n operand.
    pub fn gemm(m: u64, n: u64, k: u64) -> f64 {
        2.0 * m as f64 * n as f64 * k as f64
    }
    /// Symmetric rank-k update producing an n x n result from a k x n operand.
    pub fn syrk(n: u64, k: u64) -> f64 {
        k as f64 * n as f64 * n as f64
    }
    /// Triangular multiply or solve with an m x m triangle on an m x n operand.
    pub fn trsm(m: u64, n: u64) -> f64 {
        m as f64 * m as f64 * n as f64
    }
    /// Matrix-vector product with an m x n matrix.
    pub fn gemv(m: u64, n: u64) -> f64 {
        2.0 * m as f64 * n as f64
    }
    /// Cholesky factorisation of an n x n matrix.
    pub fn potrf(n: u64) -> f64 {
        (n as f64).powi(3) / 3.0
    }
    /// LU factorisation of an n x n matrix.
    pub fn getrf(n: u64) -> f64 {
        2.0 * (n as f64).powi(3) / 3.0
    }
    /// Inverse of an n x n triangle.
    pub fn trtri(n: u64) -> f64 {
        (n as f64).powi(3) / 3.0
    }
    /// Inverse of an n x n matrix from its LU factors.
    pub fn getri(n: u64) -> f64 {
        4.0 * (n as f64).powi(3) / 3.0
    }
    /// Householder QR of an m x n matrix, m >= n: LAPACK Working Note 41's leading terms
    /// for DGEQRF (`m n^2 - n^3/3` multiplications and as many additions); Linnea's cost
    /// of computing R.
    pub fn geqrf(m: u64, n: u64) -> f64 {
        let (m, n) = (m as f64, n as f64);
        2.0 * m * n * n - 2.0 * n * n * n / 3.0
    }
    /// Applying the orthogonal factor of k reflectors of length m to an m x p operand
    /// (DORMQR, left side): LAPACK Working Note 41's `4 m p k - 2 p k^2`.
    pub fn ormqr(m: u64, p: u64, k: u64) -> f64 {
        let (m, p, k) = (m as f64, p as f64, k as f64);
        4.0 * m * p * k - 2.0 * p * k * k
    }
    /// Symmetric eigendecomposition with eigenvectors of an n x n matrix, as Linnea counts
    /// it: `4n^3/3` to reduce to tridiagonal form, `n^2` for the tridiagonal problem and
    /// `2n^3` to transform the eigenvectors back.
    pub fn syev(n: u64) -> f64 {
        let n = n as f64;
        4.0 * n * n * n / 3.0 + n * n + 2.0 * n * n * n
    }
    /// Singular value decomposition of an m x n matrix (m >= n) with both singular vector
    /// sets, as Linnea counts it: `14 m n^2 + 8 n^3`.
    pub fn gesvd(m: u64, n: u64) -> f64 {
        let (m, n) = (m as f64, n as f64);
        14.0 * m * n * n + 8.0 * n * n * n
    }
    /// Inverse of an n x n block-diagonal matrix with blocks of b: per block GETRF and
    /// GETRI, `2 b^3` (b divides n; a smaller last block is counted as a full one).
    pub fn bd_getri(n: u64, b: u64) -> f64 {
        blocks(n, b) * 2.0 * (b as f64).powi(3)
    }
    /// Solve with an n x n block-diagonal matrix with blocks of b on m right-hand sides:
    /// per block GETRF (`2 b^3 / 3`) and two triangular solves (`2 b^2 m`).
    pub fn bd_gesv(n: u64, b: u64, m: u64) -> f64 {
        let (bf, mf) = (b as f64, m as f64);
        blocks(n, b) * (2.0 * bf.powi(3) / 3.0 + 2.0 * bf * bf * mf)
    }
    /// LU factorisation of the blocks of an n x n block-diagonal matrix with blocks of b:
    /// the part of [`bd_gesv`] a later solve with the kept factors does not repeat.
    pub fn bd_getrf(n: u64, b: u64) -> f64 {
        blocks(n, b) * 2.0 * (b as f64).powi(3) / 3.0
    }
    /// Solve on m right-hand sides with the kept LU factors of an n x n block-diagonal
    /// matrix with blocks of b: two triangular solves per block (`2 b^2 m`).
    pub fn bd_getrs(n: u64, b: u64, m: u64) -> f64 {
        blocks(n, b) * 2.0 * (b as f64) * (b as f64) * m as f64
    }
    /// Product of an n x n block-diagonal matrix with blocks of b and an n x m operand:
    /// a `2 b^2 m` product per block.
    pub fn bd_gemm(n: u64, b: u64, m: u64) -> f64 {
        blocks(n, b) * 2.0 * (b as f64) * (b as f64) * m as f64
    }
    /// The number of diagonal blocks, the last one counted whole.
    fn blocks(n: u64, b: u64) -> f64 {
        n.div_ceil(b.max(1)) as f64
    }
    /// A sum-product term over a dense box of `points` (m n for EWMAP, m n k for REDUCE)
    /// with `t` operations per point.
    pub fn sum_product_dense(points: u64, t: u64) -> f64 {
        points as f64 * t as f64
    }
    /// A sum-product term over the `nnz` nonzeros of a CSR operand, times `n` points of a
    /// dense index (1 for CSRMAP and CSRREDUCE, n for CSRMM), `t` operations per point.
    pub fn sum_product_csr(nnz: f64, n: u64, t: u64) -> f64 {
        nnz * n as f64 * t as f64
    }
    /// One operation per element of an m x n operand.
    pub fn elementwise(m: u64, n: u64) -> f64 {
        m as f64 * n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_but_bind_has_an_entry_with_a_domain() {
        use Kernel::*;
        for k in [
            Gemm, Symm, Syrk, Syr2k, Trmm, Trsm, Gemv, Symv, Trmv, Trsv, Ger, Dot, Axpy, Scal,
            Potrf, Getrf, Trtri, Lauum, Getri, DiagScale, DiagSolve, Laswp, Geqrf, Ormqr, Syev,
            Gesvd, BdGetri, BdGesv, BdGetrs, BdGemm, EwMap, Reduce, CsrMap, CsrReduce, CsrMm,
        ] {
            let s = k.spec().unwrap();
            assert!(
                s.domain.contains("->") && s.domain.contains("S["),
                "{}",
                s.name
            );
            assert!(!s.body.is_empty());
        }
        assert_eq!(Kernel::Bind.spec().map(|s| s.name), None);
    }

    #[test]
    fn costs_match_linnea_leading_terms() {
        assert_eq!(cost::gemm(2, 3, 4), 48.0);
        assert_eq!(cost::syrk(500, 2500), 6.25e8);
        assert_eq!(cost::potrf(300), 9e6);
        assert_eq!(cost::trsm(10, 5), 500.0);
        // LAWN 41: DGEQRF 2mn^2 - 2n^3/3, DORMQR 4mpk - 2pk^2; Linnea: SYEV 10n^3/3 + n^2,
        // GESVD 14mn^2 + 8n^3.
        assert_eq!(cost::geqrf(30, 3), 540.0 - 18.0);
        assert_eq!(cost::ormqr(30, 2, 3), 720.0 - 36.0);
        assert_eq!(cost::syev(3), 36.0 + 9.0 + 54.0);
        assert_eq!(cost::gesvd(4, 2), 224.0 + 64.0);
        // Block-diagonal, 15 x 15 with blocks of 3: five blocks.
        assert_eq!(cost::bd_getri(15, 3), 5.0 * 54.0);
        assert_eq!(cost::bd_gesv(15, 3, 2), 5.0 * (18.0 + 36.0));
        assert_eq!(cost::bd_gemm(15, 3, 2), 5.0 * 36.0);
        assert_eq!(
            cost::bd_getrf(15, 3) + cost::bd_getrs(15, 3, 2),
            cost::bd_gesv(15, 3, 2)
        );
        // Sum-product terms: points times operations per point.
        assert_eq!(cost::sum_product_dense(6, 3), 18.0);
        assert_eq!(cost::sum_product_csr(50.0, 10, 2), 1000.0);
    }
}
