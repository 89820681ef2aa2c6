
#define PS_L(r, c) @l_at@
#define PS_X(r, c) ps_w[(r) + (c) * n]

/* One tile (origins j0, k0, i0) of X := inv(L) X on the working copy x (n x n,
   column-major, starting as the identity): a pure update (its k-range ends before its
   i-range) through the packed path, a diagonal tile with equal i and k sizes through the
   strip solver; 0 when neither applies. Elements with k < j are zeros of the identity
   and stay zero, so running them too changes nothing. */
static int ps_trtri_step(ps_ws *w, const double *t, int64_t trs, int64_t tcs, double *x, int64_t n,
                         int64_t j0, int64_t k0, int64_t i0, int64_t szj, int64_t szk, int64_t szi)
{
  if (k0 + szk <= i0) {
    ps_trtri_full(&w->blk, i0, j0, k0);
    return 1;
  }
  if (i0 == k0 && szi == szk && szk <= w->nbd) {
    const int64_t nb = szk < n - k0 ? szk : n - k0;
    /* Columns from k0 + nb on are zeros in these rows (X(k, j) = 0 for k < j), and so is
       their solution: only the columns left of them are solved. */
    const int64_t wz = k0 + nb - j0, wc0 = szj < n - j0 ? szj : n - j0;
    const int64_t wc = wz < wc0 ? wz : wc0;
    ps_trsm_diag(w, t + k0 * (trs + tcs), trs, tcs, x + k0 + j0 * n, 1, n, nb, wc, @unit@);
    return 1;
  }
  return 0;
}

/* Column block [j0, j1) of the working copy x before its first tile: the identity's
   columns, from row r0 on (the first row of the k tile holding j0: no tile of the block
   reads above it, and the catalogue body reads only rows k >= j). Set here rather than
   for the whole matrix up front, so that with several threads each sets up its own blocks
   in parallel and the block is in that thread's cache when its tiles start (one thread,
   n = 512: the serial memset of all of x took 110 us of a 1.9 ms call). */
static void ps_trtri_cols_in(double *x, int64_t n, int64_t j0, int64_t j1, int64_t r0)
{
  for (int64_t j = j0; j < j1; j++) {
    memset(x + r0 + j * n, 0, sizeof(double) * (size_t)(n - r0));
    x[j + j * n] = 1.0;
  }
}

/* Columns [j0, j1) of the inverse from the working copy x into A's triangle (rows from
   the diagonal, or below it for a unit diagonal). */
static void ps_trtri_cols_out(double *a, int64_t rs, int64_t cs, const double *x, int64_t n,
                              int64_t j0, int64_t j1, int unit)
{
  for (int64_t j = j0; j < j1; j++)
    for (int64_t i = j + unit; i < n; i++) a[i * rs + j * cs] = x[i + j * n];
}

/* Inverse of a triangular matrix as LAPACKE_dtrtri (@layout@-major, @uplo@, @diag@): A N x N,
   its @uplo@ triangle overwritten by the inverse's (the other triangle@diag_note@ is neither
   read nor written). Returns 0, or k > 0 when A(k, k) is exactly zero (A unchanged), -1 for
   N < 0, -3 for lda < max(1, N). Computed as X := inv(L) I in an N x N working copy (the
   catalogue writes X apart from L), then copied into the triangle; without memory for it,
   in place by columns from the last (dtrti2's order).
   tile_sizes = {size along j, i, k} of the catalogue domain @domain@
   (j: column of the inverse, i: its row, k: the reduction); values below 1 count as 1,
   values above N as N. Equal i and k sizes let diagonal tiles run the strip solver. */
int64_t polyscan_dtrtri_tiled(int64_t N, double *A, int64_t lda, const int64_t *tile_sizes)
{
  if (N < 0) return -1;
  if (lda < (N > 1 ? N : 1)) return -3;
  if (N == 0) return 0;
  const int64_t n = N;
  double *ps_a = A;
  const double *ps_t = A;
  const int64_t ps_trs = @rs@, ps_tcs = @cs@;
  if (!@unit@)
    for (int64_t i = 0; i < n; i++)
      if (ps_t[i * (ps_trs + ps_tcs)] == 0.0) return i + 1;
  double *ps_w = ps_take(sizeof(double) * (size_t)n * (size_t)n);
  if (ps_w == NULL) {
    /* In place, columns from the last: column j of the inverse needs only the columns
       right of it, already inverted. */
    for (int64_t j = n - 1; j >= 0; j--) {
      const double d = @unit@ ? 1.0 : 1.0 / ps_a[j * (ps_trs + ps_tcs)];
      if (!@unit@) ps_a[j * (ps_trs + ps_tcs)] = d;
      for (int64_t i = n - 1; i > j; i--) {
        double s = 0.0;
        for (int64_t k = j + 1; k <= i; k++)
          s += (k == i && @unit@ ? 1.0 : ps_a[i * ps_trs + k * ps_tcs]) * ps_a[k * ps_trs + j * ps_tcs];
        ps_a[i * ps_trs + j * ps_tcs] = -d * s;
      }
    }
    return 0;
  }
@sizes@  const ps_blk blk0 = { .a = ps_t, .b = ps_w, .lda = lda, .ldb = n, .c = ps_w, .rs_c = 1, .cs_c = n, .alpha = -1.0,
                       .m = n, .n = n, .k = n };
@state@#define S(j, k, i) @body@
  /* Each column block's columns of x are set up before its first tile and copied into A
     after its last (every tile of a block reads and writes only its own columns of x). */
#define PS_COLS_IN(t1) ps_trtri_cols_in(ps_w, n, (t1) * sz_j, ps_min((t1) * sz_j + sz_j, n), (t1) * sz_j / sz_k * sz_k)
@cols_out@@defs@@fragment@@undefs@#undef PS_COLS_IN
#undef PS_COLS_OUT
@free@@deferred@  ps_give(ps_w);
  return 0;
}

/* Default tile sizes: blocks of @nb@ (moved within [s/2, s] to fit N); blocks of columns
   rather than all of them, so that the zeros above the diagonal of the identity are
   skipped by whole tiles (no tile of the domain lies there). On one thread and from
   N = 1536 on, column blocks twice as wide: each column block packs the blocks of L below
   it again, and at N = 2048 that repacking cost more than the zeros of the wider blocks'
   first block rows, which the micro-tiles and the diagonal solves skip (one thread,
   alternating runs: 38.6-39.2 GFLOP/s with 128 columns, 41.0-41.3 with 256, 40.4-42.1 with
   384; at N = 512 and 1024 wider blocks were slower or no faster). Where column blocks
   are shared among threads they stay narrow (they are the threads' work), and at least
   four per thread: their work falls with the square of the rows below them, and at
   N = 512 on two threads four blocks of 128 (work 49 : 25 : 9 : 1) left one thread the
   first block, 58% of the whole; eight of 64 split it about evenly (two threads, median of
   eleven calls 34-35 GFLOP/s against 18-28 with 128; at N = 1024, 128 stays: 60-65
   against 52-57 with 64). */
int64_t polyscan_dtrtri(int64_t N, double *A, int64_t lda)
{
  const int64_t nb = ps_pick_size(N, @nb@, PS_MR);
  const int64_t nbj = @nb_cols@;
  const int64_t ts[3] = { nbj, nb, nb };
  return polyscan_dtrtri_tiled(N, A, lda, ts);
}
#undef PS_L
#undef PS_X
