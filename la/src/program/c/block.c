/* The block-diagonal kernels for the generated and nests back ends (issue 22; column-major,
   leading dimensions, no allocation): an n x n matrix with diagonal blocks of b (the last
   one n mod b when b does not divide n) is factored, inverted or applied block by block,
   each block a small dense LU with partial pivoting or product. The blocks come stacked:
   an n x b array (leading dimension lda >= n) whose rows k .. k + b - 1 hold the block
   starting at row and column k, so only the blocks are stored and read. */

/* LU with partial pivoting (as dgetf2) of the m x m block at a (leading dimension ld), in
   place; piv[k] is the 0-based row swapped with row k. Returns k + 1 for a zero pivot in
   column k, else 0. */
static __attribute__((unused)) int64_t ps_bd_lu(int64_t m, double *a, int64_t ld, int64_t *piv)
{
  for (int64_t k = 0; k < m; k++) {
    int64_t p = k;
    for (int64_t i = k + 1; i < m; i++)
      if (fabs(a[i + k * ld]) > fabs(a[p + k * ld])) p = i;
    piv[k] = p;
    if (a[p + k * ld] == 0.0) return k + 1;
    if (p != k)
      for (int64_t j = 0; j < m; j++) {
        double t = a[k + j * ld];
        a[k + j * ld] = a[p + j * ld];
        a[p + j * ld] = t;
      }
    double inv = 1.0 / a[k + k * ld];
    for (int64_t i = k + 1; i < m; i++) a[i + k * ld] *= inv;
    for (int64_t j = k + 1; j < m; j++) {
      double u = a[k + j * ld];
      for (int64_t i = k + 1; i < m; i++) a[i + j * ld] -= a[i + k * ld] * u;
    }
  }
  return 0;
}

/* Solves (P L U) X = B for the m x nrhs rows of B at x (leading dimension ldx) with the
   factors of ps_bd_lu (as dgetrs). */
static __attribute__((unused)) void ps_bd_lu_solve(int64_t m, const double *a, int64_t ld, const int64_t *piv, int64_t nrhs, double *x, int64_t ldx)
{
  for (int64_t j = 0; j < nrhs; j++) {
    double *c = x + j * ldx;
    for (int64_t k = 0; k < m; k++)
      if (piv[k] != k) {
        double t = c[k];
        c[k] = c[piv[k]];
        c[piv[k]] = t;
      }
    for (int64_t k = 0; k < m; k++)
      for (int64_t i = k + 1; i < m; i++) c[i] -= a[i + k * ld] * c[k];
    for (int64_t k = m - 1; k >= 0; k--) {
      c[k] /= a[k + k * ld];
      for (int64_t i = 0; i < k; i++) c[i] -= a[i + k * ld] * c[k];
    }
  }
}

/* Factors the blocks of A (n x n block-diagonal with blocks of b, stacked at a, leading
   dimension lda) in place by ps_bd_lu; piv receives n pivots (block k's at piv + k). The
   factors are kept for any number of ps_bd_lu_solves. Returns 0, or 1 for a singular
   block. */
static __attribute__((unused)) int64_t ps_bd_factor(int64_t n, int64_t b, double *a, int64_t lda, int64_t *piv)
{
  for (int64_t k = 0; k < n; k += b) {
    int64_t m = n - k < b ? n - k : b;
    if (ps_bd_lu(m, a + k, lda, piv + k) != 0) return 1;
  }
  return 0;
}

/* B := A^-1 B, B n x nrhs at x, with the blocks' factors and pivots of ps_bd_factor. */
static __attribute__((unused)) void ps_bd_lu_solves(int64_t n, int64_t b, int64_t nrhs, const double *a, int64_t lda, const int64_t *piv, double *x, int64_t ldx)
{
  for (int64_t k = 0; k < n; k += b) {
    int64_t m = n - k < b ? n - k : b;
    ps_bd_lu_solve(m, a + k, lda, piv + k, nrhs, x + k, ldx);
  }
}

/* X := A^-1 (n x n, leading dimension ldx, zero outside the blocks) for A block-diagonal
   with blocks of b (stacked, overwritten by the blocks' LU factors): each block's inverse
   solves its identity. Returns 0, or 1 for a singular block. */
static __attribute__((unused)) int64_t ps_bd_inverse(int64_t n, int64_t b, double *a, int64_t lda, double *x, int64_t ldx, int64_t *piv)
{
  for (int64_t j = 0; j < n; j++) memset(x + j * ldx, 0, sizeof(double) * (size_t)n);
  for (int64_t k = 0; k < n; k += b) {
    int64_t m = n - k < b ? n - k : b;
    double *blk = a + k, *xb = x + k + k * ldx;
    if (ps_bd_lu(m, blk, lda, piv + k) != 0) return 1;
    for (int64_t j = 0; j < m; j++) xb[j + j * ldx] = 1.0;
    ps_bd_lu_solve(m, blk, lda, piv + k, m, xb, ldx);
  }
  return 0;
}

/* C := A B, A n x n block-diagonal with blocks of b (stacked), B n x m, C n x m: one small
   product per block, over the block's rows of B. */
static __attribute__((unused)) void ps_bd_gemm(int64_t n, int64_t b, int64_t m, const double *a, int64_t lda, const double *x, int64_t ldx, double *c, int64_t ldc)
{
  for (int64_t k = 0; k < n; k += b) {
    int64_t mb = n - k < b ? n - k : b;
    const double *blk = a + k;
    for (int64_t j = 0; j < m; j++) {
      double *cj = c + k + j * ldc;
      const double *xj = x + k + j * ldx;
      for (int64_t i = 0; i < mb; i++) cj[i] = 0.0;
      for (int64_t l = 0; l < mb; l++) {
        double v = xj[l];
        for (int64_t i = 0; i < mb; i++) cj[i] += blk[i + l * lda] * v;
      }
    }
  }
}
