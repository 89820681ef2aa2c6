
/* Lane indices for __builtin_shuffle. */
typedef int64_t ps_v4i __attribute__((vector_size(32)));

/* y[0..n) -= a * x[0..n), four at a time: gcc -O2's cost model vectorises no loop of
   unknown trip count, and these are the inner loops of the block solvers. */
static inline __attribute__((unused)) void ps_axpy_neg(int64_t n, double a, const double *x, double *y)
{
  const ps_v4d av = {a, a, a, a};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) *(ps_v4du *)(y + i) -= av * *(const ps_v4du *)(x + i);
  for (; i < n; i++) y[i] -= a * x[i];
}

/* y[0..n) -= a * x[0..-n): x walked backwards (a column of a reversed triangle, whose row
   stride is -1: the canonical lower form of an upper solve in column-major storage), four
   lanes at a time, x's reversed by a shuffle. */
static inline __attribute__((unused)) void ps_axpy_neg_rev(int64_t n, double a, const double *x, double *y)
{
  const ps_v4i rev = {3, 2, 1, 0};
  const ps_v4d av = {a, a, a, a};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) *(ps_v4du *)(y + i) -= av * __builtin_shuffle(*(const ps_v4du *)(x - i - 3), rev);
  for (; i < n; i++) y[i] -= a * x[-i];
}

/* sum of x[i] * y[i] over [0, n), with four vector accumulators. */
static inline __attribute__((unused)) double ps_dot(int64_t n, const double *x, const double *y)
{
  ps_v4d s0 = {0}, s1 = {0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 += *(const ps_v4du *)(x + i) * *(const ps_v4du *)(y + i);
    s1 += *(const ps_v4du *)(x + i + 4) * *(const ps_v4du *)(y + i + 4);
  }
  s0 += s1;
  double s = s0[0] + s0[1] + s0[2] + s0[3];
  for (; i < n; i++) s += x[i] * y[i];
  return s;
}

/* sum of x[-i] * y[i] over [0, n): x walked backwards (a row of a reversed triangle, whose
   column stride is -1: the canonical lower form of an upper solve). Four lanes at a time,
   x's reversed by a shuffle; the strided scalar loop it replaces ran TRSV with a lower
   triangle and CblasTrans at a quarter of OpenBLAS's speed. */
static inline __attribute__((unused)) double ps_dot_rev(int64_t n, const double *x, const double *y)
{
  const ps_v4i rev = {3, 2, 1, 0};
  ps_v4d s0 = {0}, s1 = {0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 += __builtin_shuffle(*(const ps_v4du *)(x - i - 3), rev) * *(const ps_v4du *)(y + i);
    s1 += __builtin_shuffle(*(const ps_v4du *)(x - i - 7), rev) * *(const ps_v4du *)(y + i + 4);
  }
  s0 += s1;
  double s = s0[0] + s0[1] + s0[2] + s0[3];
  for (; i < n; i++) s += x[-i] * y[i];
  return s;
}

/* s[r] = sum of x[r][d * i] * y[i] over [0, n) for four rows x[0..3] walked forwards
   (d = 1) or backwards (d = -1): the rows of one update tile of TRSV by rows. One load of y
   per four rows, two steps of four lanes in flight per row (eight independent sums: a single
   dot product's two chains left the FMA units waiting on their latency). Backwards, y's
   lanes are reversed once per step instead of each row's. */
static inline __attribute__((unused)) void ps_dot4(int64_t n, int d, const double *const x[4], const double *y,
                                                    double s[4])
{
  const ps_v4i rev = {3, 2, 1, 0};
  ps_v4d a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, b0 = {0}, b1 = {0}, b2 = {0}, b3 = {0};
  const double *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
  int64_t i = 0;
  if (d == 1)
    for (; i + 8 <= n; i += 8) {
      const ps_v4d y0 = *(const ps_v4du *)(y + i), y1 = *(const ps_v4du *)(y + i + 4);
      a0 += *(const ps_v4du *)(x0 + i) * y0; b0 += *(const ps_v4du *)(x0 + i + 4) * y1;
      a1 += *(const ps_v4du *)(x1 + i) * y0; b1 += *(const ps_v4du *)(x1 + i + 4) * y1;
      a2 += *(const ps_v4du *)(x2 + i) * y0; b2 += *(const ps_v4du *)(x2 + i + 4) * y1;
      a3 += *(const ps_v4du *)(x3 + i) * y0; b3 += *(const ps_v4du *)(x3 + i + 4) * y1;
    }
  else
    for (; i + 8 <= n; i += 8) {
      const ps_v4d y0 = __builtin_shuffle(*(const ps_v4du *)(y + i), rev);
      const ps_v4d y1 = __builtin_shuffle(*(const ps_v4du *)(y + i + 4), rev);
      a0 += *(const ps_v4du *)(x0 - i - 3) * y0; b0 += *(const ps_v4du *)(x0 - i - 7) * y1;
      a1 += *(const ps_v4du *)(x1 - i - 3) * y0; b1 += *(const ps_v4du *)(x1 - i - 7) * y1;
      a2 += *(const ps_v4du *)(x2 - i - 3) * y0; b2 += *(const ps_v4du *)(x2 - i - 7) * y1;
      a3 += *(const ps_v4du *)(x3 - i - 3) * y0; b3 += *(const ps_v4du *)(x3 - i - 7) * y1;
    }
  a0 += b0; a1 += b1; a2 += b2; a3 += b3;
  s[0] = a0[0] + a0[1] + a0[2] + a0[3];
  s[1] = a1[0] + a1[1] + a1[2] + a1[3];
  s[2] = a2[0] + a2[1] + a2[2] + a2[3];
  s[3] = a3[0] + a3[1] + a3[2] + a3[3];
  for (; i < n; i++) {
    s[0] += x0[d * i] * y[i];
    s[1] += x1[d * i] * y[i];
    s[2] += x2[d * i] * y[i];
    s[3] += x3[d * i] * y[i];
  }
}

/* Per-thread workspace: the packed update path and the diagonal-block solver's buffers
   (for blocks of up to `nbd` rows, at most 512). */
typedef struct {
  ps_blk blk;
  int64_t nbd;
  double *dpa, *dpb, *ddg, *dinv, *dgb;
} ps_ws;

static __attribute__((unused)) int ps_ws_init(ps_ws *w, const ps_blk *b0, int64_t mc, int64_t nc, int64_t kc, int64_t nbd)
{
  w->blk = *b0;
  /* Larger diagonal blocks run the catalogue body instead (buffers grow with nbd^2). */
  w->nbd = nbd = nbd < 512 ? nbd : 512;
  const int64_t nbr = (nbd + PS_MR - 1) / PS_MR * PS_MR;
  /* From the thread's pool (ps_take): the solvers run once per block step of a program. */
  w->dpa = ps_take((size_t)(nbr * nbr) * sizeof(double));
  w->dpb = ps_take((size_t)(nbr * PS_NR) * sizeof(double));
  w->ddg = ps_take(sizeof(double) * (size_t)(nbr * PS_MR));
  w->dinv = ps_take(sizeof(double) * (size_t)nbr);
  w->dgb = ps_take(sizeof(double) * (size_t)(nbr * (nbr + PS_NR)));
  if (!w->dpa || !w->dpb || !w->ddg || !w->dinv || !w->dgb || !ps_blk_init(&w->blk, mc, nc, kc)) {
    ps_give(w->dpa); ps_give(w->dpb); ps_give(w->ddg); ps_give(w->dinv); ps_give(w->dgb);
    return 0;
  }
  return 1;
}

static __attribute__((unused)) void ps_ws_free(ps_ws *w)
{
  ps_blk_free(&w->blk);
  ps_give(w->dpa); ps_give(w->dpb); ps_give(w->ddg); ps_give(w->dinv); ps_give(w->dgb);
}

/* C(m x n) -= A(m x k) B(k x n) through index strides (X(r, c) = x[r * xrs + c * xcs]),
   k, n <= w->nbd: B packed once into NR-wide slivers, A in blocks of up to nbd rows, the
   micro-kernel on each MR x NR tile (edge tiles through a scratch tile). */
static __attribute__((unused)) void ps_gemm_sub(ps_ws *w, int64_t m, int64_t n, int64_t k,
                                                const double *a, int64_t ars, int64_t acs,
                                                const double *b, int64_t brs, int64_t bcs,
                                                double *c, int64_t crs, int64_t ccs)
{
  if (m <= 0 || n <= 0 || k <= 0) return;
  const int64_t mbk = (w->nbd + PS_MR - 1) / PS_MR * PS_MR;
  for (int64_t jr = 0; jr < n; jr += PS_NR) {
    double *d = w->dgb + jr * k;
    const int64_t nr = n - jr < PS_NR ? n - jr : PS_NR;
    if (bcs == 1 && nr == PS_NR)
      for (int64_t p = 0; p < k; p++) {
        /* Unit-stride rows of B: vector copies. */
        ps_copy_sliver_row(d + p * PS_NR, b + p * brs + jr);
      }
    else
      for (int64_t p = 0; p < k; p++)
        for (int64_t q = 0; q < PS_NR; q++) d[p * PS_NR + q] = q < nr ? b[p * brs + (jr + q) * bcs] : 0.0;
  }
  for (int64_t i0 = 0; i0 < m; i0 += mbk) {
    const int64_t mb = m - i0 < mbk ? m - i0 : mbk;
    for (int64_t ir = 0; ir < mb; ir += PS_MR) {
      double *d = w->dpa + ir * k;
      const int64_t mr = mb - ir < PS_MR ? mb - ir : PS_MR;
      if (ars == 1 && mr == PS_MR)
        for (int64_t p = 0; p < k; p++)
          for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = a[i0 + ir + r + p * acs];
      else
        for (int64_t r = 0; r < PS_MR; r++)
          for (int64_t p = 0; p < k; p++) d[p * PS_MR + r] = r < mr ? a[(i0 + ir + r) * ars + p * acs] : 0.0;
    }
    for (int64_t jr = 0; jr < n; jr += PS_NR) {
      const int64_t nr = n - jr < PS_NR ? n - jr : PS_NR;
      for (int64_t ir = 0; ir < mb; ir += PS_MR) {
        const int64_t mr = mb - ir < PS_MR ? mb - ir : PS_MR;
        double *ct = c + (i0 + ir) * crs + jr * ccs;
        if (mr == PS_MR && nr == PS_NR) {
          ps_ukernel(k, w->dpa + ir * k, w->dgb + jr * k, ct, crs, ccs, -1.0);
        } else {
          double t[PS_MR * PS_NR] __attribute__((aligned(32))) = {0};
          ps_ukernel(k, w->dpa + ir * k, w->dgb + jr * k, t, 1, PS_MR, -1.0);
          for (int64_t q = 0; q < nr; q++)
            for (int64_t r = 0; r < mr; r++) ct[r * crs + q * ccs] += t[q * PS_MR + r];
        }
      }
    }
  }
}

/* X := inv(T) X for the nb x nb lower triangle T(r, q) = t[r * trs + q * tcs] (diagonal
   taken as ones when `unit`) and the nb x wc block X(r, c) = x[r * xrs + c * xcs], nb <=
   w->nbd; up to 32 rows (ps_trsm_leaf). Left-looking by strips of MR rows within each sliver of NR columns: the strip
   first subtracts its row of T times the strips above (already solved, and packed as a
   B micro-panel as they were solved) through the micro-kernel, then solves its own MR x MR
   triangle with reciprocals of the diagonal. */
_Static_assert(PS_NR <= 8, "ps_trsm_diag holds a sliver's columns in two 4-wide vectors");

static __attribute__((unused)) void ps_trsm_leaf(ps_ws *w, const double *t, int64_t trs, int64_t tcs,
                                                 double *x, int64_t xrs, int64_t xcs, int64_t nb, int64_t wc, int unit)
{
  const int64_t nbr = (nb + PS_MR - 1) / PS_MR * PS_MR;
  double *pa = w->dpa, *pb = w->dpb, *dg = w->ddg, *inv = w->dinv;
  for (int64_t s = 0; s < nb; s += PS_MR) {
    const int64_t mr = nb - s < PS_MR ? nb - s : PS_MR;
    double *d = pa + s * nbr;
    for (int64_t p = 0; p < s; p++)
      for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = r < mr ? t[(s + r) * trs + p * tcs] : 0.0;
    for (int64_t r = 0; r < PS_MR; r++)
      for (int64_t q = 0; q < PS_MR; q++)
        dg[s * PS_MR + r * PS_MR + q] = r < mr && q < r ? t[(s + r) * trs + (s + q) * tcs] : 0.0;
    for (int64_t r = 0; r < mr; r++) inv[s + r] = unit ? 1.0 : 1.0 / t[(s + r) * (trs + tcs)];
  }
  for (int64_t jr = 0; jr < wc; jr += PS_NR) {
    const int64_t nr = wc - jr < PS_NR ? wc - jr : PS_NR;
    for (int64_t s = 0; s < nb; s += PS_MR) {
      const int64_t mr = nb - s < PS_MR ? nb - s : PS_MR;
      double c[PS_MR * PS_NR] __attribute__((aligned(32))) = {0};
      if (s > 0) ps_ukernel(s, pa + s * nbr, pb, c, 1, PS_MR, 1.0);
      const double *g = dg + s * PS_MR;
      /* The strip's right-hand sides minus the product, then forward substitution row by
         row with the sliver's columns in two vectors (0..3 and 4..PS_NR-1): no dependence
         between columns, so they go side by side. */
      ps_v4d ya[PS_MR], yb[PS_MR];
      const int whole = nr == PS_NR;
      for (int64_t r = 0; r < PS_MR; r++) {
        if (whole && r < mr) {
          /* Built in registers: going through a scalar array stalled on store forwarding. */
          const double *xr = x + (s + r) * xrs + jr * xcs;
          ya[r] = (ps_v4d){xr[0], xr[xcs], xr[2 * xcs], xr[3 * xcs]}
                  - (ps_v4d){c[r], c[PS_MR + r], c[2 * PS_MR + r], c[3 * PS_MR + r]};
#if PS_NR_WIDE
          yb[r] = (ps_v4d){xr[4 * xcs], xr[5 * xcs], xr[6 * xcs], xr[7 * xcs]}
                  - (ps_v4d){c[4 * PS_MR + r], c[5 * PS_MR + r], c[6 * PS_MR + r], c[7 * PS_MR + r]};
#else
          yb[r] = (ps_v4d){xr[4 * xcs], xr[5 * xcs], 0.0, 0.0} - (ps_v4d){c[4 * PS_MR + r], c[5 * PS_MR + r], 0.0, 0.0};
#endif
          continue;
        }
        double e[8] = {0};
        if (r < mr)
          for (int64_t q = 0; q < nr; q++) e[q] = x[(s + r) * xrs + (jr + q) * xcs] - c[q * PS_MR + r];
        ya[r] = (ps_v4d){e[0], e[1], e[2], e[3]};
        yb[r] = (ps_v4d){e[4], e[5], e[6], e[7]};
      }
      for (int64_t r = 0; r < mr; r++) {
        ps_v4d va = ya[r], vb = yb[r];
        for (int64_t p = 0; p < r; p++) {
          va -= g[r * PS_MR + p] * ya[p];
          vb -= g[r * PS_MR + p] * yb[p];
        }
        ya[r] = va * inv[s + r];
        yb[r] = vb * inv[s + r];
      }
      for (int64_t r = 0; r < mr; r++) {
        if (whole) {
          double *xr = x + (s + r) * xrs + jr * xcs, *br = pb + (s + r) * PS_NR;
          *(ps_v4du *)br = ya[r];
          for (int64_t q = 4; q < PS_NR; q++) br[q] = yb[r][q - 4];
          if (xcs == 1) {
            *(ps_v4du *)xr = ya[r];
            for (int64_t q = 4; q < PS_NR; q++) xr[q] = yb[r][q - 4];
          } else {
            for (int64_t q = 0; q < 4; q++) xr[q * xcs] = ya[r][q];
            for (int64_t q = 4; q < PS_NR; q++) xr[q * xcs] = yb[r][q - 4];
          }
          continue;
        }
        for (int64_t q = 0; q < PS_NR; q++) {
          const double v = q < 4 ? ya[r][q] : yb[r][q - 4];
          if (q < nr) x[(s + r) * xrs + (jr + q) * xcs] = v;
          pb[(s + r) * PS_NR + q] = q < nr ? v : 0.0;
        }
      }
    }
  }
}

/* X := inv(T) X as ps_trsm_leaf, for any nb <= w->nbd: above 32 rows recursively (the top
   half, then the bottom rows minus T21 times the solved top through ps_gemm_sub, then the
   bottom half), so that most of the work runs in the micro-kernel with a long reduction;
   the leaf's strips reduce over at most 24 rows. The same operations on each element as
   forward substitution, grouped differently. */
static __attribute__((unused)) void ps_trsm_diag(ps_ws *w, const double *t, int64_t trs, int64_t tcs,
                                                 double *x, int64_t xrs, int64_t xcs, int64_t nb, int64_t wc, int unit)
{
  if (nb <= 32) {
    ps_trsm_leaf(w, t, trs, tcs, x, xrs, xcs, nb, wc, unit);
    return;
  }
  int64_t h = nb / 2 / PS_MR * PS_MR;
  if (h < 1) h = nb / 2;
  ps_trsm_diag(w, t, trs, tcs, x, xrs, xcs, h, wc, unit);
  /* ps_gemm_sub takes at most nbd columns at a time (its packed B buffer). */
  for (int64_t c0 = 0; c0 < wc; c0 += w->nbd) {
    const int64_t cw = wc - c0 < w->nbd ? wc - c0 : w->nbd;
    ps_gemm_sub(w, nb - h, cw, h, t + h * trs, trs, tcs, x + c0 * xcs, xrs, xcs, x + h * xrs + c0 * xcs, xrs, xcs);
  }
  ps_trsm_diag(w, t + h * (trs + tcs), trs, tcs, x + h * xrs, xrs, xcs, nb - h, wc, unit);
}
