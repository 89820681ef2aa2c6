
#define PS_x(e) w[e]
#define PS_L(r, c) @l_at@

/* w[i0 .. ie) -= T[i0 .. ie, j0 .. je) w[j0 .. je), the columns ending before the rows
   start (@update_order@, the inner loop with unit stride). */
static void ps_trsv_update(const double *t, int64_t trs, int64_t tcs, double *w,
                           int64_t i0, int64_t ie, int64_t j0, int64_t je)
{
@update@}

/* One tile (origin i0, j0) of the canonical solve w := inv(T) w: a pure update (its
   columns end before its rows start), or a diagonal tile with equal sizes; 0 otherwise. */
static int ps_trsv_step(const double *t, int64_t trs, int64_t tcs, double *w, int64_t n,
                        int64_t i0, int64_t j0, int64_t szi, int64_t szj)
{
  const int64_t ie = i0 + szi < n ? i0 + szi : n, je = j0 + szj < n ? j0 + szj : n;
  if (j0 + szj <= i0) {
@step_update@    return 1;
  }
  if (i0 == j0 && szi == szj) {
@diag@    return 1;
  }
  return 0;
}
@parallel@
/* X := inv(op(A)) X (@layout@-major, @flags@), A N x N, X with increment incX (negative:
   stored backwards, as in BLAS). Canonical form w := inv(T) w with T lower and w a
   unit-stride copy of X@rev_note@.
   tile_sizes = {size along i, j} of the catalogue domain @domain@
   (i: rows, j: columns of T); values below 1 count as 1, values above N as N. */
void polyscan_dtrsv_tiled(int64_t N, const double *A, int64_t lda, double *X, int64_t incX,
                          const int64_t *tile_sizes)
{
  if (N <= 0 || incX == 0) return;
  const int64_t n = N;
  const double *ps_t = A + (@tbase@);
  const int64_t ps_trs = @trs@, ps_tcs = @tcs@;
  double *w = malloc(sizeof(double) * (size_t)N);
  const int packed = 1;
  if (w == NULL) return;
  /* X's element e, and the canonical (possibly reversed) order of the working copy. */
#define PS_XE(e) X[incX > 0 ? (e) * incX : ((e) - (N - 1)) * incX]
#define PS_W_AT(r) @w_at@
  for (int64_t r = 0; r < N; r++) w[r] = PS_XE(PS_W_AT(r));
@sizes@#define S(@iters@) @body@
@defs@@fragment@@undefs@  for (int64_t r = 0; r < N; r++) PS_XE(PS_W_AT(r)) = w[r];
#undef PS_XE
#undef PS_W_AT
  free(w);
}

/* Default tile sizes {@nb@, @nb@}@nb_omp_note@, moved within [s/2, s] to fit N. */
void polyscan_dtrsv(int64_t N, const double *A, int64_t lda, double *X, int64_t incX)
{
  const int64_t nb = @nb_pick@;
  const int64_t ts[2] = { nb, nb };
  polyscan_dtrsv_tiled(N, A, lda, X, incX, ts);
}
#undef PS_x
#undef PS_L
