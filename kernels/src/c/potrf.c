
/* Cholesky of the nb x nb block L(r, c) = a[r * rs + c * cs] in place (lower triangle,
   updates from earlier blocks applied): 0, or the 1-based column of the first pivot that
   is not positive (left there, as dpotf2 does). Right-looking by columns when columns are
   contiguous (unit-stride updates), left-looking by rows (unit-stride dot products)
   otherwise; both orders respect the catalogue nest's dependences. */
static int64_t ps_potf2(double *a, int64_t rs, int64_t cs, int64_t nb)
{
  if (rs == 1) {
    for (int64_t j = 0; j < nb; j++) {
      double *cj = a + j * cs;
      double d = cj[j];
      if (!(d > 0.0)) return j + 1;
      d = sqrt(d);
      cj[j] = d;
      for (int64_t i = j + 1; i < nb; i++) cj[i] /= d;
      for (int64_t q = j + 1; q < nb; q++) ps_axpy_neg(nb - q, cj[q], cj + q, a + q * cs + q);
    }
    return 0;
  }
  /* Rows are contiguous here (cs == 1: the only other index map). */
  for (int64_t i = 0; i < nb; i++) {
    double *ri = a + i * rs;
    for (int64_t j = 0; j < i; j++) {
      const double *rj = a + j * rs;
      ri[j] = (ri[j] - ps_dot(j, ri, rj)) / rj[j];
    }
    double d = ri[i] - ps_dot(i, ri, ri);
    if (!(d > 0.0)) {
      /* Rows below i are untouched: i is the first column whose pivot fails. */
      ri[i] = d;
      return i + 1;
    }
    ri[i] = sqrt(d);
  }
  return 0;
}

/* One tile (origins k0, j0, i0) of the factorisation of the n x n L: a pure update (its
   k-range ends before its j-range) through the packed path, masked to j <= i where it
   reaches the diagonal; with equal j and k sizes, the diagonal block's Cholesky or a
   triangular solve for a block below it; 0 when none applies. Once a pivot failed
   (*info > 0), nothing more runs (dpotrf stops there too). */
static int ps_potrf_step(ps_ws *w, double *a, int64_t rs, int64_t cs, int64_t n, int64_t *info,
                         int64_t k0, int64_t j0, int64_t i0, int64_t szk, int64_t szj, int64_t szi)
{
  if (*info) return 1;
  ps_blk *b = &w->blk;
  if (k0 + szk <= j0) {
    if (i0 < j0 + szj) ps_potrf_part(b, i0, j0, k0);
    else ps_potrf_full(b, i0, j0, k0);
    return 1;
  }
  if (k0 == j0 && szk == szj && szj <= w->nbd) {
    const int64_t nb = szj < n - j0 ? szj : n - j0;
    double *d = a + j0 * (rs + cs);
    if (i0 == j0 && szi == szj) {
      const int64_t f = ps_potf2(d, rs, cs, nb);
      if (f) *info = j0 + f;
      return 1;
    }
    if (i0 >= j0 + szj) {
      /* L(I, J) := L(I, J) inv(L(J, J))^T, i.e. L(J, J) X = L(I, J)^T for X = L(I, J)^T. */
      const int64_t mi = szi < n - i0 ? szi : n - i0;
      if (mi > 0) ps_trsm_diag(w, d, rs, cs, a + i0 * rs + j0 * cs, cs, rs, nb, mi, 0);
      return 1;
    }
  }
  return 0;
}

#define PS_A(r, c) ps_a[(r) * ps_rs + (c) * ps_cs]

/* Cholesky factorisation as LAPACKE_dpotrf (@layout@-major, @uplo@): A N x N symmetric
   positive definite, its @tri@ triangle overwritten by @factor@; the other triangle is not
   read. Returns 0, or k > 0 when the leading minor of order k is not positive definite
   (the factorisation stops there), -1 for N < 0, -3 for lda < max(1, N).
   tile_sizes = {size along j, i, k} of the catalogue domain @domain@
   (j, i: column and row of L, k: the reduction); values below 1 count as 1, values
   above N as N. Equal j and k sizes let diagonal blocks run the block solvers. */
int64_t polyscan_dpotrf_tiled(int64_t N, double *A, int64_t lda, const int64_t *tile_sizes)
{
  if (N < 0) return -1;
  if (lda < (N > 1 ? N : 1)) return -3;
  if (N == 0) return 0;
  const int64_t n = N;
  double *ps_a = A;
  const int64_t ps_rs = @rs@, ps_cs = @cs@;
  int64_t ps_info = 0;
@sizes@  const ps_blk blk0 = { .a = ps_a, .b = ps_a, .lda = lda, .ldb = lda, .c = ps_a, .rs_c = ps_rs, .cs_c = ps_cs, .alpha = -1.0,
                       .m = n, .n = n, .k = n, .ars = ps_rs, .acs = ps_cs, .brs = ps_rs, .bcs = ps_cs };
@state@#define S(k, j, i) do { if (ps_info == 0) { if ((k) == (j) && (i) == (j) && !(PS_A(j, j) > 0.0)) ps_info = (j) + 1; else { @body@; } } } while (0)
@defs@@fragment@@undefs@@free@  return ps_info;
}

/* Default tile sizes: blocks of @nb@ (moved within [s/2, s] to fit N). */
int64_t polyscan_dpotrf(int64_t N, double *A, int64_t lda)
{
  const int64_t nb = ps_pick_size(N, @nb@, PS_MR);
  const int64_t ts[3] = { nb, nb, nb };
  return polyscan_dpotrf_tiled(N, A, lda, ts);
}
#undef PS_A
