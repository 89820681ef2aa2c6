
/* Canonical element access (X := inv(T) X, T lower): see the index maps below. */
#define PS_B(r, c) ps_x[(r) * ps_xrs + (c) * ps_xcs]
#define PS_L(r, c) @l_at@

/* One tile of the canonical solve with origin (i0, j0, l0): a pure update (its l-range
   ends before its i-range starts) through the packed path, a diagonal tile with equal i
   and l sizes through the strip solver; 0 when neither applies. */
static int ps_trsm_step(ps_ws *w, const double *t, int64_t trs, int64_t tcs, double *x, int64_t xrs, int64_t xcs,
                        int64_t i0, int64_t j0, int64_t l0, int64_t szi, int64_t szj, int64_t szl)
{
  ps_blk *b = &w->blk;
  if (l0 + szl <= i0) {
    ps_trsm_full(b, i0, j0, l0);
    return 1;
  }
  if (i0 == l0 && szi == szl && szl <= w->nbd) {
    const int64_t nb = szl < b->m - l0 ? szl : b->m - l0;
    const int64_t wc = szj < b->n - j0 ? szj : b->n - j0;
    ps_trsm_diag(w, t + l0 * (trs + tcs), trs, tcs, x + l0 * xrs + j0 * xcs, xrs, xcs, nb, wc, @unit@);
    return 1;
  }
  return 0;
}

/* B := X solving @side_desc@, B M x N (@layout@-major, @flags@): overwritten by the solution.
   Canonical form X := inv(T) X with T lower @order_ext@ x @order_ext@ and X @order_ext@ x @cols_ext@.
   tile_sizes = {size along i, j, l} of the catalogue domain @domain@
   (i, l: rows of X and of T, j: columns of X); values below 1 count as 1, values above an
   extent as the extent. Equal i and l sizes let diagonal tiles run the strip solver. */
void polyscan_dtrsm_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb,
                          const int64_t *tile_sizes)
{
  if (M <= 0 || N <= 0) return;
  if (alpha != 1.0)
    for (int64_t c = 0; c < N; c++)
      for (int64_t r = 0; r < M; r++) {
        double *e = &B[r * (@ra@) + c * (@ca@)];
        *e = alpha == 0.0 ? 0.0 : alpha * *e;
      }
  if (alpha == 0.0) return;
  const int64_t m = @order_ext@, n = @cols_ext@;
  const double *ps_t = A + (@tbase@);
  const int64_t ps_trs = @trs@, ps_tcs = @tcs@;
  double *ps_x = B + (@xbase@);
  const int64_t ps_xrs = @xrs@, ps_xcs = @xcs@;
@sizes@  const ps_blk blk0 = { .a = ps_t, .b = ps_x, .lda = lda, .ldb = ldb, .c = ps_x, .rs_c = ps_xrs, .cs_c = ps_xcs, .alpha = -1.0,
                       .m = m, .n = n, .k = m, .ars = ps_trs, .acs = ps_tcs, .brs = ps_xrs, .bcs = ps_xcs };
@state@#define S(j, l, i) @body@
@defs@@fragment@@undefs@@free@}

/* Default tile sizes: diagonal blocks of @nb@ (moved within [s/2, s] to fit the order),
   column blocks from the cache model's nc. */
void polyscan_dtrsm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb)
{
  const int64_t nb = ps_pick_size(@order_ext@, @nb@, PS_MR);
  const int64_t ts[3] = { nb, @nc_pick@, nb };
  polyscan_dtrsm_tiled(M, N, alpha, A, lda, B, ldb, ts);
}
#undef PS_B
#undef PS_L
