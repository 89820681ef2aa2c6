
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

/* C := C - A A^T on the lower triangle of the n x n block C (A n x k), k <= w->nbd and
   n <= w->nbd: the two diagonal halves recursively, the block below them through the
   micro-kernel; blocks of up to MR rows through the micro-kernel into a scratch tile, of
   which only the lower triangle is subtracted. The strictly upper part of C is neither
   read nor written (it may be the other triangle of the caller's matrix). */
static void ps_syrk_sub(ps_ws *w, int64_t n, int64_t k, const double *a, int64_t ars, int64_t acs,
                        double *c, int64_t crs, int64_t ccs)
{
  if (n <= 0 || k <= 0) return;
  if (n <= PS_MR) {
    /* A as one MR-row micro-panel and A^T as two NR-column slivers (rows past n zero);
       the buffers are the block solver's, free between its calls. */
    double *pa = w->dpa, *pb = w->dgb;
    for (int64_t p = 0; p < k; p++)
      for (int64_t r = 0; r < PS_MR; r++) pa[p * PS_MR + r] = r < n ? a[r * ars + p * acs] : 0.0;
    for (int64_t jr = 0; jr < n; jr += PS_NR)
      for (int64_t p = 0; p < k; p++)
        for (int64_t q = 0; q < PS_NR; q++)
          pb[jr * k + p * PS_NR + q] = jr + q < n ? a[(jr + q) * ars + p * acs] : 0.0;
    for (int64_t jr = 0; jr < n; jr += PS_NR) {
      double t[PS_MR * PS_NR] __attribute__((aligned(32))) = {0};
      ps_ukernel(k, pa, pb + jr * k, t, 1, PS_MR, 1.0);
      for (int64_t q = 0; q < PS_NR && jr + q < n; q++)
        for (int64_t r = jr + q; r < n; r++) c[r * crs + (jr + q) * ccs] -= t[q * PS_MR + r];
    }
    return;
  }
  int64_t h = n / 2 / PS_MR * PS_MR;
  if (h < 1) h = n / 2;
  ps_syrk_sub(w, h, k, a, ars, acs, c, crs, ccs);
  ps_gemm_sub(w, n - h, h, k, a + h * ars, ars, acs, a, acs, ars, c + h * crs, crs, ccs);
  ps_syrk_sub(w, n - h, k, a + h * ars, ars, acs, c + h * (crs + ccs), crs, ccs);
}

/* Cholesky of the diagonal block as ps_potf2, recursively above 16 columns (as LAPACK's
   dpotrf2): the leading half, the block below it by a triangular solve, the trailing
   half updated by ps_syrk_sub and factored. Most of the block's work then runs in the
   micro-kernel instead of dot products and axpys. nb <= w->nbd. */
static int64_t ps_potrf_rec(ps_ws *w, double *a, int64_t rs, int64_t cs, int64_t nb)
{
  if (nb <= 16) return ps_potf2(a, rs, cs, nb);
  int64_t h = nb / 2 / PS_MR * PS_MR;
  if (h < 1) h = nb / 2;
  const int64_t f = ps_potrf_rec(w, a, rs, cs, h);
  if (f) return f;
  double *a21 = a + h * rs, *a22 = a + h * (rs + cs);
  /* L21 := A21 inv(L11)^T, i.e. L11 X = A21^T for X = L21^T. */
  ps_trsm_diag(w, a, rs, cs, a21, cs, rs, h, nb - h, 0);
  ps_syrk_sub(w, nb - h, h, a21, rs, cs, a22, rs, cs);
  const int64_t g = ps_potrf_rec(w, a22, rs, cs, nb - h);
  return g ? h + g : 0;
}

/* One tile (origins k0, j0, i0) of the factorisation of the n x n L: a pure update (its
   k-range ends before its j-range) through the packed path, masked to j <= i where it
   reaches the diagonal; with equal j and k sizes, the diagonal block's Cholesky or a
   triangular solve for a block below it; 0 when none applies. Once a pivot failed
   (*info > 0), nothing more runs (dpotrf stops there too). */
static int ps_potrf_step(ps_ws *w, double *a, int64_t rs, int64_t cs, int64_t n, int64_t *info, int64_t *diag,
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
      if (*diag > j0) return 1; /* factored already by ps_potrf_first */
      const int64_t f = ps_potrf_rec(w, d, rs, cs, nb);
      if (f) *info = j0 + f;
      *diag = j0 + 1;
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

/* With parallel tile loops, the condition of the loop below the diagonal block of step k0
   (j0 == k0): factors that block first, once and serially (*diag: the blocks up to here
   are factored), so that the triangular solves of the blocks below it, independent of
   each other, can run in parallel; the loop's own diagonal tile then does nothing. 0 (run
   the loop serially) where the tile step would not take the block path. */
static __attribute__((unused)) int ps_potrf_first(int packed, ps_ws *w, double *a, int64_t rs, int64_t cs, int64_t n,
                                                  int64_t *info, int64_t *diag, int64_t k0, int64_t szk,
                                                  int64_t szj, int64_t szi)
{
  if (!packed || *info || szk != szj || szi != szj || szj > w->nbd) return 0;
  if (*diag <= k0) {
    const int64_t nb = szj < n - k0 ? szj : n - k0;
    const int64_t f = ps_potrf_rec(w, a + k0 * (rs + cs), rs, cs, nb);
    if (f) *info = k0 + f;
    *diag = k0 + 1;
  }
  return *info == 0;
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
  int64_t ps_info = 0, ps_diag = 0;
@sizes@  const ps_blk blk0 = { .a = ps_a, .b = ps_a, .lda = lda, .ldb = lda, .c = ps_a, .rs_c = ps_rs, .cs_c = ps_cs, .alpha = -1.0,
                       .m = n, .n = n, .k = n, .ars = ps_rs, .acs = ps_cs, .brs = ps_rs, .bcs = ps_cs };
@state@#define S(k, j, i) do { if (ps_info == 0) { if ((k) == (j) && (i) == (j) && !(PS_A(j, j) > 0.0)) ps_info = (j) + 1; else { @body@; } } } while (0)
@defs@@fragment@@undefs@@free@  return ps_info;
}

/* Default tile sizes: blocks of s = 64 up to N = 768, 96 up to 1536, @nb@ beyond (moved
   within [s/2, s] to fit N). Small blocks leave less work to the serial diagonal blocks and
   panels at small N; large ones give the updates longer reductions (measured with
   benches/kernels.sh). */
int64_t polyscan_dpotrf(int64_t N, double *A, int64_t lda)
{
  const int64_t nb = ps_pick_size(N, N <= 768 ? 64 : N <= 1536 ? 96 : @nb@, PS_MR);
  const int64_t ts[3] = { nb, nb, nb };
  return polyscan_dpotrf_tiled(N, A, lda, ts);
}
#undef PS_A
