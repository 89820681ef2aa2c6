/* The checking driver of tests/kernels.rs for the GEMM-shaped kernels (see DRIVER there):
   each case against a naive nest in C. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#if KERNEL == 1
void polyscan_dgemm(int64_t M, int64_t N, int64_t K, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void polyscan_dgemm_tiled(int64_t M, int64_t N, int64_t K, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
#elif KERNEL == 2
void polyscan_dsyrk(int64_t N, int64_t K, double alpha, const double *A, int64_t lda, double beta, double *C, int64_t ldc);
void polyscan_dsyrk_tiled(int64_t N, int64_t K, double alpha, const double *A, int64_t lda, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
#elif KERNEL == 3
void polyscan_dsymm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void polyscan_dsymm_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
#elif KERNEL == 4
void polyscan_dtrmm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb);
void polyscan_dtrmm_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb, const int64_t *tile_sizes);
#elif KERNEL == 6
void polyscan_dlauum(int64_t N, double alpha, const double *A, int64_t lda, double beta, double *C, int64_t ldc);
void polyscan_dlauum_tiled(int64_t N, double alpha, const double *A, int64_t lda, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
#else
void polyscan_dgemv(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *X, int64_t incX, double beta, double *Y, int64_t incY);
void polyscan_dgemv_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *X, int64_t incX, double beta, double *Y, int64_t incY, const int64_t *tile_sizes);
#endif

#ifndef TRANSA
#define TRANSA 0
#endif
#ifndef TRANSB
#define TRANSB 0
#endif

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double uni(void) { return (double)(next() >> 11) / 9007199254740992.0 - 0.5; }

typedef struct { double *p; int64_t rows, cols, ld, len; } mat;
#define EL(x, r, c) ((x).p[ROWMAJOR ? (r) * (x).ld + (c) : (r) + (c) * (x).ld])
static mat mk(int64_t rows, int64_t cols, int64_t pad)
{
  mat x = { 0, rows, cols, (ROWMAJOR ? cols : rows) + pad, 0 };
  if (x.ld < 1) x.ld = 1;
  x.len = x.ld * (ROWMAJOR ? rows : cols);
  x.p = malloc(sizeof(double) * (size_t)(x.len + 1));
  for (int64_t e = 0; e < x.len; e++) x.p[e] = uni();
  return x;
}
static mat copy(mat x) { mat y = x; y.p = malloc(sizeof(double) * (size_t)(x.len + 1)); memcpy(y.p, x.p, sizeof(double) * (size_t)x.len); return y; }

static long failures = 0, checks = 0;

/* With beta == 0 the kernel must not read C: its m x n elements hold NaN (unused by TRMM and
   GEMV, which poison their own way). */
static __attribute__((unused)) void poison_unread_c(mat C, int64_t m, int64_t n, double beta)
{
  if (beta == 0.0) for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) EL(C, i, j) = NAN;
}

/* The reference R starts as a copy of C and the error scale W at -1, "must not change",
   until a case writes an output element of both. */
static void reference_of(mat C, mat *R, mat *W)
{
  *R = copy(C);
  *W = copy(C);
  for (int64_t e = 0; e < W->len; e++) W->p[e] = -1.0;
}

/* Compares the result O with the reference R where W (the error scale) is >= 0 (an
   output), and bit for bit elsewhere, padding included. */
static void compare(mat O, mat R, mat W, int64_t m, int64_t n, int64_t k, const int64_t *ts, double alpha, double beta)
{
  for (int64_t e = 0; e < O.len; e++) {
    double got = O.p[e], want = R.p[e];
    int ok = W.p[e] >= 0.0 ? fabs(got - want) <= 1e-12 * W.p[e] + 1e-300
                           : (memcmp(&got, &want, sizeof got) == 0);
    checks++;
    if (!ok && failures++ < 10)
      fprintf(stderr, "m=%ld n=%ld k=%ld tiles=%ld,%ld,%ld alpha=%g beta=%g: element %ld = %.17g, expected %.17g%s\n",
              (long)m, (long)n, (long)k, ts ? (long)ts[0] : -1L, ts ? (long)ts[1] : -1L, ts ? (long)ts[2] : -1L,
              alpha, beta, (long)e, got, want, W.p[e] >= 0.0 ? "" : " (must not change)");
  }
}

static void check(int64_t m, int64_t n, int64_t k, const int64_t *ts, double alpha, double beta)
{
  int64_t pad = (int64_t)(next() % 3);
#if KERNEL == 1
  /* op(A) = A^T with -DTRANSA=1, op(B) = B^T with -DTRANSB=1: stored k x m, n x k. */
  mat A = TRANSA ? mk(k, m, pad) : mk(m, k, pad), B = TRANSB ? mk(n, k, pad) : mk(k, n, pad), C = mk(m, n, pad);
#define OPA(i, l) (TRANSA ? EL(A, l, i) : EL(A, i, l))
#define OPB(l, j) (TRANSB ? EL(B, j, l) : EL(B, l, j))
  poison_unread_c(C, m, n, beta);
  mat R, W;
  reference_of(C, &R, &W);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = 0; l < k; l++) { s += OPA(i, l) * OPB(l, j); mag += fabs(OPA(i, l) * OPB(l, j)); }
      double c0 = beta == 0.0 ? 0.0 : beta * EL(C, i, j);
      EL(R, i, j) = alpha * s + c0;
      EL(W, i, j) = fabs(alpha) * mag + fabs(c0);
    }
  if (ts) polyscan_dgemm_tiled(m, n, k, alpha, A.p, A.ld, B.p, B.ld, beta, C.p, C.ld, ts);
  else polyscan_dgemm(m, n, k, alpha, A.p, A.ld, B.p, B.ld, beta, C.p, C.ld);
  compare(C, R, W, m, n, k, ts, alpha, beta);
  free(B.p);
#elif KERNEL == 2
  n = m;
  mat A = mk(k, n, pad), C = mk(n, n, pad);
  poison_unread_c(C, n, n, beta);
  mat R, W;
  reference_of(C, &R, &W);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j <= i; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = 0; l < k; l++) { s += EL(A, l, i) * EL(A, l, j); mag += fabs(EL(A, l, i) * EL(A, l, j)); }
      int64_t r = UPPER ? j : i, c = UPPER ? i : j;
      double c0 = beta == 0.0 ? 0.0 : beta * EL(C, r, c);
      EL(R, r, c) = alpha * s + c0;
      EL(W, r, c) = fabs(alpha) * mag + fabs(c0);
    }
  if (ts) polyscan_dsyrk_tiled(n, k, alpha, A.p, A.ld, beta, C.p, C.ld, ts);
  else polyscan_dsyrk(n, k, alpha, A.p, A.ld, beta, C.p, C.ld);
  compare(C, R, W, m, n, k, ts, alpha, beta);
#elif KERNEL == 3
  /* op(B) = B^T with -DTRANSB=1: stored n x m. */
  mat A = mk(m, m, pad), B = TRANSB ? mk(n, m, pad) : mk(m, n, pad), C = mk(m, n, pad);
#define OPB(l, j) (TRANSB ? EL(B, j, l) : EL(B, l, j))
  for (int64_t r = 0; r < m; r++)
    for (int64_t c = 0; c < m; c++)
      if (UPPER ? c < r : c > r) EL(A, r, c) = NAN; /* the triangle not stored */
  poison_unread_c(C, m, n, beta);
  mat R, W;
  reference_of(C, &R, &W);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = 0; l < m; l++) {
        int64_t r = l <= i ? i : l, c = l <= i ? l : i; /* r >= c */
        double a = UPPER ? EL(A, c, r) : EL(A, r, c);
        s += a * OPB(l, j); mag += fabs(a * OPB(l, j));
      }
      double c0 = beta == 0.0 ? 0.0 : beta * EL(C, i, j);
      EL(R, i, j) = alpha * s + c0;
      EL(W, i, j) = fabs(alpha) * mag + fabs(c0);
    }
  if (ts) polyscan_dsymm_tiled(m, n, alpha, A.p, A.ld, B.p, B.ld, beta, C.p, C.ld, ts);
  else polyscan_dsymm(m, n, alpha, A.p, A.ld, B.p, B.ld, beta, C.p, C.ld);
  compare(C, R, W, m, n, k, ts, alpha, beta);
  free(B.p);
#elif KERNEL == 4
  (void)beta;
  mat A = mk(m, m, pad), C = mk(m, n, pad);
  /* The triangle the kernel must not read holds NaN: the strict upper one of a lower A. */
  for (int64_t r = 0; r < m; r++)
    for (int64_t c = r + 1; c < m; c++) {
      if (UPPER) EL(A, c, r) = NAN; else EL(A, r, c) = NAN;
    }
  mat R, W;
  reference_of(C, &R, &W);
  /* op(A)(i, l) = A(l, i) when transposed; it is lower triangular when the stored
     triangle is lower and not transposed, or upper and transposed. */
#define OPA(i, l) (TRANSA ? EL(A, l, i) : EL(A, i, l))
  const int oplower = UPPER == TRANSA;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = oplower ? 0 : i; l <= (oplower ? i : m - 1); l++) { s += OPA(i, l) * EL(C, l, j); mag += fabs(OPA(i, l) * EL(C, l, j)); }
      EL(R, i, j) = alpha * s;
      EL(W, i, j) = fabs(alpha) * mag;
    }
  if (ts) polyscan_dtrmm_tiled(m, n, alpha, A.p, A.ld, C.p, C.ld, ts);
  else polyscan_dtrmm(m, n, alpha, A.p, A.ld, C.p, C.ld);
  compare(C, R, W, m, n, k, ts, alpha, 0.0);
#elif KERNEL == 6
  (void)k;
  n = m;
  mat A = mk(n, n, pad), C = mk(n, n, pad);
  for (int64_t r = 0; r < n; r++)
    for (int64_t c = r + 1; c < n; c++) EL(A, r, c) = NAN; /* the strict upper triangle */
  poison_unread_c(C, n, n, beta);
  mat R, W;
  reference_of(C, &R, &W);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j <= i; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = i; l < n; l++) { s += EL(A, l, i) * EL(A, l, j); mag += fabs(EL(A, l, i) * EL(A, l, j)); }
      double c0 = beta == 0.0 ? 0.0 : beta * EL(C, i, j);
      EL(R, i, j) = alpha * s + c0;
      EL(W, i, j) = fabs(alpha) * mag + fabs(c0);
    }
  if (ts) polyscan_dlauum_tiled(n, alpha, A.p, A.ld, beta, C.p, C.ld, ts);
  else polyscan_dlauum(n, alpha, A.p, A.ld, beta, C.p, C.ld);
  compare(C, R, W, m, n, k, ts, alpha, beta);
#else
  /* x and y as 1 x len "matrices" with the increment as spacing; negative increments
     store the vector backwards, as in BLAS. */
  static const int64_t incs[] = { 1, 2, -1, -3 };
  int64_t incx = incs[next() % 4], incy = incs[next() % 4];
  int64_t ax = incx < 0 ? -incx : incx, ay = incy < 0 ? -incy : incy;
  mat A = mk(m, n, pad);
  mat X = { 0, 1, n * ax, n * ax, n * ax }, C = { 0, 1, m * ay, m * ay, m * ay };
  X.p = malloc(sizeof(double) * (size_t)(X.len + 1));
  C.p = malloc(sizeof(double) * (size_t)(C.len + 1));
  for (int64_t e = 0; e < X.len; e++) X.p[e] = uni();
  for (int64_t e = 0; e < C.len; e++) C.p[e] = beta == 0.0 && e % ay == 0 ? NAN : uni();
  mat R, W;
  reference_of(C, &R, &W);
  /* BLAS's dgemv returns at once when N = 0 (y is not scaled). */
  for (int64_t i = 0; i < (n > 0 ? m : 0); i++) {
    double s = 0.0, mag = 0.0;
    for (int64_t j = 0; j < n; j++) {
      double xj = X.p[incx > 0 ? j * incx : (j - (n - 1)) * incx];
      s += EL(A, i, j) * xj; mag += fabs(EL(A, i, j) * xj);
    }
    int64_t at = incy > 0 ? i * incy : (i - (m - 1)) * incy;
    double c0 = beta == 0.0 ? 0.0 : beta * C.p[at];
    R.p[at] = alpha * s + c0;
    W.p[at] = fabs(alpha) * mag + fabs(c0);
  }
  if (ts) polyscan_dgemv_tiled(m, n, alpha, A.p, A.ld, X.p, incx, beta, C.p, incy, ts);
  else polyscan_dgemv(m, n, alpha, A.p, A.ld, X.p, incx, beta, C.p, incy);
  compare(C, R, W, m, n, k, ts, alpha, beta);
  free(X.p);
#endif
  free(A.p); free(C.p); free(R.p); free(W.p);
}

int main(void)
{
  /* The last two exceed the extents (cut to them): one tile per extent. */
  static const int64_t tiles[][3] = { {1, 1, 1}, {3, 5, 7}, {8, 6, 32}, {16, 12, 8}, {64, 64, 64},
                                      {(int64_t)1 << 40, 7, (int64_t)1 << 40} };
  const int ntiles = sizeof tiles / sizeof tiles[0];
  static const double ab[][2] = { {1.0, 1.0}, {1.0, 0.0}, {-0.75, 0.5}, {2.0, -1.25} };
  for (int64_t s = 1; s <= 40; s++) {
    for (int t = 0; t < ntiles; t++) check(s, s, s, tiles[t], ab[s % 4][0], ab[s % 4][1]);
    check(s, s, s, NULL, ab[(s + 1) % 4][0], ab[(s + 1) % 4][1]);
  }
  for (int r = 0; r < 300; r++) {
    int64_t m = 1 + (int64_t)(next() % 40), n = 1 + (int64_t)(next() % 40), k = 1 + (int64_t)(next() % 40);
    int t = (int)(next() % (uint64_t)(ntiles + 1));
    check(m, n, k, t < ntiles ? tiles[t] : NULL, ab[r % 4][0], ab[(r / 4) % 4][1]);
  }
  /* Degenerate extents (nothing to do, or only the beta scaling), alpha = 0. */
  check(0, 5, 3, NULL, 1.0, 0.5);
  check(4, 0, 3, NULL, 1.0, 0.5);
  check(4, 5, 0, NULL, 1.0, 0.5);
  check(4, 5, 0, tiles[1], 1.0, 0.0);
  check(7, 6, 5, tiles[1], 0.0, 0.5);
  /* Larger than the default tiles, so full default-size tiles run. */
  check(150, 130, 400, NULL, 1.0, 1.0);
  check(101, 203, 97, tiles[2], -1.0, 0.25);
  /* Taller than wide with default tiles: under OpenMP on two threads the row split, with
     partial tiles along all three extents (op(B) 97 columns wide: a partial micro-panel). */
  check(301, 97, 530, NULL, 0.5, -1.0);
  printf("%ld checks, %ld failures\n", checks, failures);
  return failures != 0;
}
