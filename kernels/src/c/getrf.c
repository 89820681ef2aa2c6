
/* State of one factorisation: the matrix (A(r, c) = a[r * rs + c * cs]), the last block
   step whose panel is factored (`done`: the columns factored so far), pivots, info; `sw`:
   for each column, how many of the interchanges of the steps before its own panel it has
   had so far (NULL: each panel applies its interchanges to all columns right of it at
   once); `la`: look-ahead (the tile that finishes the next panel's columns factors it). */
typedef struct {
  double *a;
  int64_t rs, cs, m, n, kmax, szk, done, info;
  int64_t *ipiv, *sw;
  int la;
} ps_lu;

/* The end of the panel of the block step starting at k0. */
static inline int64_t ps_getrf_pend(const ps_lu *c, int64_t k0)
{
  return k0 + c->szk < c->kmax ? k0 + c->szk : c->kmax;
}

/* `done` is written by the thread that factors a panel while others read it (they only
   compare it with their own step, which is factored before they start). */
static inline int64_t ps_getrf_done(const ps_lu *c) { return __atomic_load_n(&c->done, __ATOMIC_RELAXED); }

#define PS_P(r, c) a[(r) * rs + (c) * cs]
/* The interchanges k1 .. k2-1 (rows k and ipiv[k] - 1), in order, applied to columns
   [jlo, jhi), as dlaswp: column by column where columns are contiguous (the rows of one
   column stay in cache; across a row, every element is on its own line and page),
   interchange by interchange otherwise (a row is contiguous then). */
static void ps_getrf_laswp(ps_lu *c, int64_t k1, int64_t k2, int64_t jlo, int64_t jhi)
{
  double *a = c->a;
  const int64_t rs = c->rs, cs = c->cs;
  if (rs == 1) {
    for (int64_t j = jlo; j < jhi; j++) {
      double *col = &PS_P(0, j);
      for (int64_t k = k1; k < k2; k++) {
        const int64_t p = c->ipiv[k] - 1;
        double t = col[k]; col[k] = col[p]; col[p] = t;
      }
    }
  } else {
    for (int64_t k = k1; k < k2; k++) {
      const int64_t p = c->ipiv[k] - 1;
      if (p == k) continue;
      for (int64_t j = jlo; j < jhi; j++) { double t = PS_P(k, j); PS_P(k, j) = PS_P(p, j); PS_P(p, j) = t; }
    }
  }
}

/* Columns [c0, c1) of a panel, rows c0..m-1, all earlier steps applied to them: dgetf2
   below 16 columns (pivot search, interchange across these columns, multipliers divided
   by the pivot as the catalogue body does, rank-1 updates of these columns); above, as
   dgetrf2 does, the left half recursively, its interchanges applied to the right half,
   the right half's rows of U by a unit lower solve and its rows below by the
   micro-kernel (ps_gemm_sub), the right half recursively, and its interchanges applied
   to the left half. Each column gets its interchanges in order, and before anything
   reads its rows below the pivot: the same arithmetic as interchanging across the whole
   panel at once, but column by column instead of across rows (a cache line and often a
   TLB entry per element in column-major order).
   An exactly zero pivot sets info (first one) and skips the division, as dgetf2 does. */
static void ps_getrf_rec(ps_lu *c, ps_ws *w, int64_t c0, int64_t c1)
{
  double *a = c->a;
  const int64_t rs = c->rs, cs = c->cs, M = c->m;
  if (c1 - c0 > 16 && w != NULL && c1 - c0 <= w->nbd) {
    int64_t h = (c1 - c0) / 2 / PS_MR * PS_MR;
    if (h < 1) h = (c1 - c0) / 2;
    const int64_t mid = c0 + h;
    ps_getrf_rec(c, w, c0, mid);
    ps_getrf_laswp(c, c0, mid, mid, c1);
    ps_trsm_diag(w, &PS_P(c0, c0), rs, cs, &PS_P(c0, mid), rs, cs, h, c1 - mid, 1);
    ps_gemm_sub(w, M - mid, c1 - mid, h, &PS_P(mid, c0), rs, cs, &PS_P(c0, mid), rs, cs, &PS_P(mid, mid), rs, cs);
    ps_getrf_rec(c, w, mid, c1);
    ps_getrf_laswp(c, mid, c1, c0, mid);
    return;
  }
  for (int64_t k = c0; k < c1; k++) {
    int64_t p = k;
    double best = fabs(PS_P(k, k));
    for (int64_t i = k + 1; i < M; i++)
      if (fabs(PS_P(i, k)) > best) { best = fabs(PS_P(i, k)); p = i; }
    c->ipiv[k] = p + 1;
    if (PS_P(p, k) != 0.0) {
      if (p != k)
        for (int64_t j = c0; j < c1; j++) { double t = PS_P(k, j); PS_P(k, j) = PS_P(p, j); PS_P(p, j) = t; }
      const double piv = PS_P(k, k);
      /* Contiguous: a vector division (the same quotients). */
      if (rs == 1) {
        double *col = &PS_P(0, k);
        for (int64_t i = k + 1; i < M; i++) col[i] = col[i] / piv;
      } else {
        for (int64_t i = k + 1; i < M; i++) PS_P(i, k) = PS_P(i, k) / piv;
      }
    } else if (c->info == 0) {
      c->info = k + 1;
    }
@panel_update@  }
}

/* Columns [jlo, jhi) brought up to the first `upto` interchanges (those of the steps
   before `upto`), in order; each column's count says what it has had. No-op without `sw`
   (the panels applied them already). Column by column (each column's rows stay in
   cache) where columns are contiguous, interchange by interchange otherwise. */
static void ps_getrf_swap_cols(ps_lu *c, int64_t upto, int64_t jlo, int64_t jhi)
{
  if (c->sw == NULL || jlo >= jhi) return;
  int64_t *sw = c->sw;
  if (c->rs == 1) {
    for (int64_t j = jlo; j < jhi; j++) {
      if (sw[j] < upto) { ps_getrf_laswp(c, sw[j], upto, j, j + 1); sw[j] = upto; }
    }
  } else {
    double *a = c->a;
    const int64_t rs = c->rs, cs = c->cs;
    int64_t from = upto;
    for (int64_t j = jlo; j < jhi; j++) from = sw[j] < from ? sw[j] : from;
    for (int64_t k = from; k < upto; k++) {
      const int64_t p = c->ipiv[k] - 1;
      if (p == k) continue;
      for (int64_t j = jlo; j < jhi; j++)
        if (sw[j] <= k) { double t = PS_P(k, j); PS_P(k, j) = PS_P(p, j); PS_P(p, j) = t; }
    }
    for (int64_t j = jlo; j < jhi; j++) sw[j] = sw[j] < upto ? upto : sw[j];
  }
}

/* The panel of the block step at k0: columns [k0, min(k0 + szk, kmax)), after the
   interchanges of the earlier steps they have not had yet. Its own interchanges reach the
   columns right of it when a tile of this step first touches them (ps_getrf_step), or
   here at once without `sw`, as dlaswp does in dgetrf; so a look-ahead panel can be
   factored while other threads still update those columns for the step before. Columns
   left of it are finished columns of L, read by no later step: their interchanges wait
   for ps_getrf_finish, which applies all of them in one pass instead of one per step. */
static void ps_getrf_panel(ps_lu *c, ps_ws *w, int64_t k0)
{
  const int64_t pend = ps_getrf_pend(c, k0);
  ps_getrf_swap_cols(c, k0, k0, pend);
  ps_getrf_rec(c, w, k0, pend);
  if (c->sw == NULL) ps_getrf_laswp(c, k0, pend, pend, c->n);
  __atomic_store_n(&c->done, pend, __ATOMIC_RELAXED);
}

/* With threads, the condition of a block step's parallel region (evaluated once, before
   the threads start): the step's panel is factored, unless the look-ahead did it. */
static __attribute__((unused)) int ps_getrf_ready(ps_lu *c, ps_ws *w, int64_t k0)
{
  if (k0 < c->kmax && ps_getrf_done(c) <= k0) ps_getrf_panel(c, w, k0);
  return 1;
}

/* The interchanges the panels and tiles left out: column j gets those it has not had
   (all before its own panel, with `sw` some may be left) and those of every step after
   its panel, in order (the same interchanges as dgetrf's, applied later). */
static void ps_getrf_finish(ps_lu *c)
{
  const int64_t szk = c->szk, kmax = c->kmax, N = c->n;
  /* Interchanges before column j's own panel; columns right of every panel have all. */
  for (int64_t j = 0; j < N; j++) ps_getrf_swap_cols(c, j < kmax ? j / szk * szk : kmax, j, j + 1);
  /* Then those after it, for each panel's columns. */
  for (int64_t j0 = 0; j0 < kmax; j0 += szk) {
    const int64_t j1 = j0 + szk < kmax ? j0 + szk : kmax;
    ps_getrf_laswp(c, j1, kmax, j0, j1);
  }
}
#undef PS_P

/* One tile (origins k0, j0, i0). Its step's panel is factored first (if no tile did it
   yet) and its columns get the step's interchanges (if no tile of the step did it yet);
   the tile then has only its points right of the panel left: rows below the panel's
   block are a pure update (packed path, masked to the columns right of the panel); the
   rows of the panel's block with equal i and k extents are a unit lower triangular solve;
   0 when neither applies (w == NULL: no pack buffers). With look-ahead, the tile that
   finishes the next panel's columns (the bottom tile of the column tile starting at the
   panel's end: tiles of one column tile run in order on one thread) factors that panel
   while the other threads still update the rest for this step. */
static int ps_getrf_step(ps_ws *w, ps_lu *c, int64_t k0, int64_t j0, int64_t i0, int64_t szj, int64_t szi)
{
  if (k0 >= c->kmax) return 1; /* no point of the domain has k >= min(M, N) */
  if (ps_getrf_done(c) <= k0) ps_getrf_panel(c, w, k0);
  const int64_t pend = ps_getrf_pend(c, k0);
  const int64_t jlo = j0 > pend ? j0 : pend, jhi = j0 + szj < c->n ? j0 + szj : c->n;
  const int64_t ihi = i0 + szi < c->m ? i0 + szi : c->m;
  if (jlo >= jhi) return 1;
  ps_getrf_swap_cols(c, pend, jlo, jhi);
  if (i0 >= ihi) return 1;
  if (w == NULL) return 0;
  if (i0 >= pend) {
    w->blk.lo = pend;
    if (j0 < pend) ps_getrf_part(&w->blk, i0, j0, k0);
    else ps_getrf_full(&w->blk, i0, j0, k0);
  } else if (i0 == k0 && ihi == pend && pend - k0 <= w->nbd) {
    double *a = c->a;
    const int64_t rs = c->rs, cs = c->cs;
    ps_trsm_diag(w, a + k0 * (rs + cs), rs, cs, a + k0 * rs + jlo * cs, rs, cs, pend - k0, jhi - jlo, 1);
  } else {
    return 0;
  }
  if (c->la && jlo == pend && ihi == c->m && pend < c->kmax && jhi >= ps_getrf_pend(c, pend)) ps_getrf_panel(c, w, pend);
  return 1;
}

#define PS_A(r, c) ps_a[(r) * ps_rs + (c) * ps_cs]

/* LU factorisation with partial pivoting as LAPACKE_dgetrf (@layout@-major): A M x N
   overwritten by L (unit lower, below the diagonal) and U; ipiv[0 .. min(M, N) - 1] the
   1-based pivot rows (row k was interchanged with row ipiv[k]). Returns 0, or k > 0 when
   U(k, k) is exactly zero (the factorisation is completed), -1 for M < 0, -2 for N < 0,
   -4 for lda too small.
   tile_sizes = {size along k, i, j} of the catalogue domain @domain@
   (bound with n = max(M, N); points outside M x N are skipped); values below 1 count as 1,
   values above the extents as the extents. Equal k and i sizes let the block rows of U
   run the strip solver. */
int64_t polyscan_dgetrf_tiled(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv, const int64_t *tile_sizes)
{
  if (M < 0) return -1;
  if (N < 0) return -2;
  if (lda < (@ld_need@ > 1 ? @ld_need@ : 1)) return -4;
  if (M == 0 || N == 0) return 0;
  const int64_t n = M > N ? M : N, kmax = M < N ? M : N;
  double *ps_a = A;
  const int64_t ps_rs = @rs@, ps_cs = @cs@;
@sizes@  ps_lu ps_lu = { .a = ps_a, .rs = ps_rs, .cs = ps_cs, .m = M, .n = N, .kmax = kmax, .szk = sz_k,
                  .done = 0, .info = 0, .ipiv = ipiv, .sw = calloc((size_t)N, sizeof(int64_t)), .la = 0 };
  const ps_blk blk0 = { .a = ps_a, .b = ps_a, .lda = lda, .ldb = lda, .c = ps_a, .rs_c = ps_rs, .cs_c = ps_cs, .alpha = -1.0,
                       .m = M, .n = N, .k = kmax, .ars = ps_rs, .acs = ps_cs, .brs = ps_rs, .bcs = ps_cs };
@state@@lookahead@  /* Points of the panel (j < pend) are the panel routine's; the others run the body. */
#define S(k, j, i) do { if ((j) >= ps_getrf_pend(&ps_lu, (k) / sz_k * sz_k) && (i) < M && (j) < N) { @body@; } } while (0)
@defs@@fragment@@undefs@  /* Block steps without points (only the last row's pivot is left). */
  while (ps_lu.done < kmax) ps_getrf_panel(&ps_lu, packed ? PS_W : NULL, ps_lu.done);
  ps_getrf_finish(&ps_lu);
  free(ps_lu.sw);
@free@  return ps_lu.info;
}

/* Default tile sizes: blocks of s = 64 up to min(M, N) = 768, 96 up to 1536, @nb@ beyond
   (moved within [s/2, s] to fit min(M, N)); as POTRF's. */
int64_t polyscan_dgetrf(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv)
{
  const int64_t kmin = M < N ? M : N;
  const int64_t nb = ps_pick_size(kmin, kmin <= 768 ? 64 : kmin <= 1536 ? 96 : @nb@, PS_MR);
  const int64_t ts[3] = { nb, nb, nb };
  return polyscan_dgetrf_tiled(M, N, A, lda, ipiv, ts);
}
#undef PS_A
