#define PS_A(r, c) @a_at@
/* Vectors with increments (negative: stored backwards, as in BLAS). */
#define PS_x(e) X[incX > 0 ? (e) * incX : ((e) - (N - 1)) * incX]
#define PS_Y(e) Y[incY > 0 ? (e) * incY : ((e) - (M - 1)) * incY]
/* The catalogue body's y: the unit-stride working copy, or a thread's copy of it (ps_yt). */
#define PS_y(e) ps_yt[e]

/* y(i0 .. i0+mc-1) += A(i0.., j0..) * xa(j0 .. j0+nc-1), xa = alpha x, unit strides. */
static void ps_gemv_full(const double *A, int64_t lda, const double *xa, double *y,
                         int64_t i0, int64_t j0, int64_t mc, int64_t nc)
{
@full_kernel@}

/* y := alpha * A * x + beta * y (@layout@-major, CblasNoTrans), A M x N.
   tile_sizes = {size along i, j} of the catalogue domain @domain@
   (i: rows, j: columns); values below 1 count as 1, values above an extent as the extent. */
void polyscan_dgemv_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda,
                          const double *X, int64_t incX, double beta, double *Y, int64_t incY,
                          const int64_t *tile_sizes)
{
  if (M <= 0 || N <= 0 || incX == 0 || incY == 0) return;
  for (int64_t i = 0; i < M; i++)
    if (beta != 1.0) PS_Y(i) = beta == 0.0 ? 0.0 : beta * PS_Y(i);
  if (alpha == 0.0) return;
  const int64_t m = M, n = N;
  /* Sizes beyond an extent are cut to it (one full tile instead of a partial one). */
  const int64_t sz_i = tile_sizes[0] < 1 ? 1 : tile_sizes[0] > M ? M : tile_sizes[0];
  const int64_t sz_j = tile_sizes[1] < 1 ? 1 : tile_sizes[1] > N ? N : tile_sizes[1];
  /* Unit-stride copies: alpha x for the full tiles, y when incY != 1. */
  double *xa = malloc(sizeof(double) * (size_t)N);
  double *yw = incY == 1 ? Y : malloc(sizeof(double) * (size_t)M);
  if (xa == NULL || yw == NULL) {
    /* No memory for the copies: the catalogue body on the original vectors. */
    free(xa);
    if (yw != Y) free(yw);
    for (int64_t j = 0; j < N; j++)
      for (int64_t i = 0; i < M; i++) PS_Y(i) += alpha * (PS_A(i, j) * PS_x(j));
    return;
  }
  for (int64_t j = 0; j < N; j++) xa[j] = alpha * PS_x(j);
  if (yw != Y) for (int64_t i = 0; i < M; i++) yw[i] = PS_Y(i);
#define S(j, i) @body@
#define PS_FULL(t1, t2) ps_gemv_full(A, lda, xa, ps_yt, (t2) * sz_i, (t1) * sz_j, sz_i, sz_j)
@fragment@#undef S
#undef PS_FULL
  if (yw != Y) {
    for (int64_t i = 0; i < M; i++) PS_Y(i) = yw[i];
    free(yw);
  }
  free(xa);
}

/* Default tile sizes {@MC@, @NC@}, each moved within [s/2, s] to fit the extents (under
   OpenMP, along the split a multiple of the thread count of tiles). */
void polyscan_dgemv(int64_t M, int64_t N, double alpha, const double *A, int64_t lda,
                    const double *X, int64_t incX, double beta, double *Y, int64_t incY)
{
  const int64_t ts[2] = { @mc_pick@, @nc_pick@ };
  polyscan_dgemv_tiled(M, N, alpha, A, lda, X, incX, beta, Y, incY, ts);
}
