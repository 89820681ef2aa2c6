/* The checking driver of tests/kernels.rs for the solvers and factorisations (see
   SOLVE_DRIVER there): each case against a naive nest in C. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#if KIND == 1
typedef void ps_f(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb);
typedef void ps_tf(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb, const int64_t *ts);
#elif KIND == 2
typedef void ps_f(int64_t N, const double *A, int64_t lda, double *X, int64_t incX);
typedef void ps_tf(int64_t N, const double *A, int64_t lda, double *X, int64_t incX, const int64_t *ts);
#elif KIND == 3 || KIND == 5
typedef int64_t ps_f(int64_t N, double *A, int64_t lda);
typedef int64_t ps_tf(int64_t N, double *A, int64_t lda, const int64_t *ts);
#else
typedef int64_t ps_f(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv);
typedef int64_t ps_tf(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv, const int64_t *ts);
#endif
struct ps_case { int right, upper, trans, unit, row; ps_f *f; ps_tf *tf; };
#include "cases.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double uni(void) { return (double)(next() >> 11) / 9007199254740992.0 - 0.5; }

typedef struct { double *p; int64_t rows, cols, ld, len; int row; } mat;
#define EL(x, r, c) ((x).p[(x).row ? (r) * (x).ld + (c) : (r) + (c) * (x).ld])
static mat mk(int64_t rows, int64_t cols, int64_t pad, int row)
{
  mat x = { 0, rows, cols, (row ? cols : rows) + pad, 0, row };
  if (x.ld < 1) x.ld = 1;
  x.len = x.ld * (row ? rows : cols);
  x.p = malloc(sizeof(double) * (size_t)(x.len + 1));
  for (int64_t e = 0; e < x.len; e++) x.p[e] = uni();
  return x;
}
static mat copy(mat x) { mat y = x; y.p = malloc(sizeof(double) * (size_t)(x.len + 1)); memcpy(y.p, x.p, sizeof(double) * (size_t)x.len); return y; }

static long failures = 0, checks = 0;
static void report(const struct ps_case *c, int64_t m, int64_t n, const int64_t *ts, const char *what, double got, double want)
{
  if (failures++ < 10)
    fprintf(stderr, "case right=%d upper=%d trans=%d unit=%d row=%d m=%ld n=%ld tiles=%ld,%ld,%ld: %s = %.17g, expected %.17g\n",
            c->right, c->upper, c->trans, c->unit, c->row, (long)m, (long)n, ts ? (long)ts[0] : -1L,
            ts ? (long)ts[1] : -1L, ts && KIND != 2 ? (long)ts[2] : -1L, what, got, want);
}
/* W >= 0: an output with that error scale; W < 0: must not change (bit for bit). */
static void compare(const struct ps_case *c, const double *O, const double *R, const double *W, int64_t len,
                    int64_t m, int64_t n, const int64_t *ts)
{
  for (int64_t e = 0; e < len; e++) {
    int ok = W[e] >= 0.0 ? fabs(O[e] - R[e]) <= 1e-11 * W[e] : memcmp(&O[e], &R[e], sizeof(double)) == 0;
    checks++;
    if (!ok) report(c, m, n, ts, W[e] >= 0.0 ? "element" : "element that must not change", O[e], R[e]);
  }
}

#if KIND == 1 || KIND == 2 || KIND == 5
/* The dense k x k op(A) of a triangular case (zeros outside the triangle, ones on a unit
   diagonal), and a well-conditioned stored triangle: diagonal in [0.75, 1.25],
   off-diagonal entries below 1/k, the other triangle (and a unit diagonal) NaN. */
static double *tri(const struct ps_case *c, mat A, int64_t k)
{
  double *T = calloc((size_t)(k * k + 1), sizeof(double));
  for (int64_t r = 0; r < k; r++)
    for (int64_t q = 0; q < k; q++) {
      int in = c->upper ? q > r : q < r;
      double v;
      if (r == q) { v = 1.0 + 0.5 * uni(); EL(A, r, q) = c->unit ? NAN : v; if (c->unit) v = 1.0; }
      else if (in) { v = 2.0 * uni() / (double)k; EL(A, r, q) = v; }
      else { v = 0.0; EL(A, r, q) = NAN; }
      if (c->trans) T[q * k + r] = v; else T[r * k + q] = v;
    }
  return T;
}
/* Solves T x = b in place (T dense k x k triangular, lower or upper) with stride s. */
static void naive_solve(const double *T, int64_t k, int lower, double *x, int64_t s)
{
  if (lower)
    for (int64_t i = 0; i < k; i++) {
      double v = x[i * s];
      for (int64_t l = 0; l < i; l++) v -= T[i * k + l] * x[l * s];
      x[i * s] = v / T[i * k + i];
    }
  else
    for (int64_t i = k - 1; i >= 0; i--) {
      double v = x[i * s];
      for (int64_t l = i + 1; l < k; l++) v -= T[i * k + l] * x[l * s];
      x[i * s] = v / T[i * k + i];
    }
}
#endif

static void check(const struct ps_case *c, int64_t m, int64_t n, const int64_t *ts, double alpha)
{
  int64_t pad = (int64_t)(next() % 3);
#if KIND == 1
  int64_t k = c->right ? n : m;
  mat A = mk(k, k, pad, c->row), B = mk(m, n, pad, c->row);
  double *T = tri(c, A, k);
  int op_lower = c->upper == c->trans;
  mat A0 = copy(A), R = copy(B), W = copy(B);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  /* Reference on a dense, row-major copy: X op(A) = alpha B is op(A)^T X^T = alpha B^T. */
  double *X = malloc(sizeof(double) * (size_t)(m * n + 1)), *Tt = malloc(sizeof(double) * (size_t)(k * k + 1));
  for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) X[i * n + j] = alpha * EL(B, i, j);
  for (int64_t r = 0; r < k; r++) for (int64_t q = 0; q < k; q++) Tt[r * k + q] = T[q * k + r];
  if (!c->right) for (int64_t j = 0; j < n; j++) naive_solve(T, k, op_lower, X + j, n);
  else for (int64_t i = 0; i < m; i++) naive_solve(Tt, k, !op_lower, X + i * n, 1);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) { EL(R, i, j) = X[i * n + j]; EL(W, i, j) = 1.0 + fabs(X[i * n + j]); }
  if (ts) c->tf(m, n, alpha, A.p, A.ld, B.p, B.ld, ts); else c->f(m, n, alpha, A.p, A.ld, B.p, B.ld);
  compare(c, B.p, R.p, W.p, B.len, m, n, ts);
  if (memcmp(A.p, A0.p, sizeof(double) * (size_t)A.len) != 0) report(c, m, n, ts, "A changed", 0, 0);
  free(X); free(Tt); free(T); free(A0.p); free(A.p); free(B.p); free(R.p); free(W.p);
#elif KIND == 2
  (void)alpha;
  static const int64_t incs[] = { 1, 2, -1, -3 };
  int64_t inc = incs[next() % 4], ai = inc < 0 ? -inc : inc;
  n = m;
  mat A = mk(n, n, pad, c->row);
  double *T = tri(c, A, n);
  int op_lower = c->upper == c->trans;
  int64_t len = n * ai;
  double *x = malloc(sizeof(double) * (size_t)(len + 1)), *r = malloc(sizeof(double) * (size_t)(len + 1));
  double *w = malloc(sizeof(double) * (size_t)(len + 1)), *v = malloc(sizeof(double) * (size_t)(n + 1));
  for (int64_t e = 0; e < len; e++) { x[e] = uni(); r[e] = x[e]; w[e] = -1.0; }
  for (int64_t i = 0; i < n; i++) v[i] = x[inc > 0 ? i * inc : (i - (n - 1)) * inc];
  naive_solve(T, n, op_lower, v, 1);
  for (int64_t i = 0; i < n; i++) { int64_t at = inc > 0 ? i * inc : (i - (n - 1)) * inc; r[at] = v[i]; w[at] = 1.0 + fabs(v[i]); }
  mat A0 = copy(A);
  if (ts) c->tf(n, A.p, A.ld, x, inc, ts); else c->f(n, A.p, A.ld, x, inc);
  compare(c, x, r, w, len, m, n, ts);
  if (memcmp(A.p, A0.p, sizeof(double) * (size_t)A.len) != 0) report(c, m, n, ts, "A changed", 0, 0);
  free(x); free(r); free(w); free(v); free(T); free(A.p); free(A0.p);
#elif KIND == 3
  /* SPD: G G^T / n + I, stored in one triangle, NaN in the other. With `alpha` < 0 a
     pivot is made negative (info expected, the factor not compared). */
  n = m;
  mat A = mk(n, n, pad, c->row);
  double *S = malloc(sizeof(double) * (size_t)(n * n + 1)), *G = malloc(sizeof(double) * (size_t)(n * n + 1));
  for (int64_t e = 0; e < n * n; e++) G[e] = uni();
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = i == j ? 1.0 : 0.0;
      for (int64_t l = 0; l < n; l++) s += G[i * n + l] * G[j * n + l] / (double)n;
      S[i * n + j] = s;
    }
  int64_t bad = alpha < 0.0 ? (int64_t)(next() % (uint64_t)n) : -1;
  if (bad >= 0) S[bad * n + bad] = -10.0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) EL(A, i, j) = (c->upper ? j >= i : j <= i) ? S[i * n + j] : NAN;
  /* Naive Cholesky, lower, right-looking by columns (the catalogue body in order j, k, i). */
  int64_t info = 0;
  for (int64_t j = 0; j < n && !info; j++) {
    if (!(S[j * n + j] > 0.0)) { info = j + 1; break; }
    S[j * n + j] = sqrt(S[j * n + j]);
    for (int64_t i = j + 1; i < n; i++) S[i * n + j] /= S[j * n + j];
    for (int64_t q = j + 1; q < n; q++)
      for (int64_t i = q; i < n; i++) S[i * n + q] -= S[i * n + j] * S[q * n + j];
  }
  mat R = copy(A), W = copy(A);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  if (!info)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j <= i; j++) {
        int64_t r = c->upper ? j : i, q = c->upper ? i : j;
        EL(R, r, q) = S[i * n + j]; EL(W, r, q) = 1.0 + fabs(S[i * n + j]);
      }
  int64_t got = ts ? c->tf(n, A.p, A.ld, ts) : c->f(n, A.p, A.ld);
  checks++;
  if (got != info) report(c, m, n, ts, "info", (double)got, (double)info);
  if (!info) compare(c, A.p, R.p, W.p, A.len, m, n, ts);
  free(S); free(G); free(A.p); free(R.p); free(W.p);
#elif KIND == 5
  /* inv(A) of a well-conditioned triangle; with `alpha` < 0 (non-unit) a zero on the
     diagonal: info, A unchanged. */
  n = m;
  mat A = mk(n, n, pad, c->row);
  double *T = tri(c, A, n);
  int64_t info = 0;
  if (alpha < 0.0 && !c->unit) {
    int64_t z = (int64_t)(next() % (uint64_t)n);
    EL(A, z, z) = 0.0;
    info = z + 1;
  }
  mat R = copy(A), W = copy(A);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  if (!info) {
    double *x = malloc(sizeof(double) * (size_t)(n + 1));
    for (int64_t j = 0; j < n; j++) {
      for (int64_t i = 0; i < n; i++) x[i] = i == j ? 1.0 : 0.0;
      naive_solve(T, n, !c->upper, x, 1);
      for (int64_t i = 0; i < n; i++)
        if (c->upper ? i < j || (i == j && !c->unit) : i > j || (i == j && !c->unit)) {
          EL(R, i, j) = x[i]; EL(W, i, j) = 1.0 + fabs(x[i]);
        }
    }
    free(x);
  }
  int64_t got = ts ? c->tf(n, A.p, A.ld, ts) : c->f(n, A.p, A.ld);
  checks++;
  if (got != info) report(c, m, n, ts, "info", (double)got, (double)info);
  compare(c, A.p, R.p, W.p, A.len, m, n, ts);
  free(T); free(A.p); free(R.p); free(W.p);
#else
  /* Random M x N; with `alpha` < 0 one column is zero (an exactly zero pivot: info). */
  mat A = mk(m, n, pad, c->row);
  int64_t zc = alpha < 0.0 ? (int64_t)(next() % (uint64_t)n) : -1;
  if (zc >= 0) for (int64_t i = 0; i < m; i++) EL(A, i, zc) = 0.0;
  int64_t kmax = m < n ? m : n, info = 0;
  double *D = malloc(sizeof(double) * (size_t)(m * n + 1));
  int64_t *piv = malloc(sizeof(int64_t) * (size_t)(kmax + 1)), *ipiv = malloc(sizeof(int64_t) * (size_t)(kmax + 1));
  for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) D[i * n + j] = EL(A, i, j);
  /* Naive dgetf2: the catalogue body in order k, i, j after the pivot search and swap. */
  for (int64_t k = 0; k < kmax; k++) {
    int64_t p = k;
    for (int64_t i = k + 1; i < m; i++) if (fabs(D[i * n + k]) > fabs(D[p * n + k])) p = i;
    piv[k] = p + 1;
    if (D[p * n + k] != 0.0) {
      for (int64_t j = 0; j < n; j++) { double t = D[k * n + j]; D[k * n + j] = D[p * n + j]; D[p * n + j] = t; }
      for (int64_t i = k + 1; i < m; i++) D[i * n + k] /= D[k * n + k];
    } else if (!info) info = k + 1;
    for (int64_t i = k + 1; i < m; i++)
      for (int64_t j = k + 1; j < n; j++) D[i * n + j] -= D[i * n + k] * D[k * n + j];
  }
  mat R = copy(A), W = copy(A);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) { EL(R, i, j) = D[i * n + j]; EL(W, i, j) = 1.0 + fabs(D[i * n + j]); }
  for (int64_t k = 0; k < kmax; k++) ipiv[k] = -7;
  int64_t got = ts ? c->tf(m, n, A.p, A.ld, ipiv, ts) : c->f(m, n, A.p, A.ld, ipiv);
  checks++;
  if (got != info) report(c, m, n, ts, "info", (double)got, (double)info);
  for (int64_t k = 0; k < kmax; k++) { checks++; if (ipiv[k] != piv[k]) report(c, m, n, ts, "ipiv", (double)ipiv[k], (double)piv[k]); }
  compare(c, A.p, R.p, W.p, A.len, m, n, ts);
  free(D); free(piv); free(ipiv); free(A.p); free(R.p); free(W.p);
#endif
}

int main(void)
{
  /* Sizes along the catalogue iterators (TRSM i, j, l; TRSV i, j; POTRF j, i, k; GETRF
     k, i, j; TRTRI j, i, k); equal sizes on the coupled iterators run the block solvers, unequal ones the
     catalogue body on the diagonal; the last exceeds every extent. */
#if KIND == 2
  static const int64_t tiles[][3] = { {1, 1}, {4, 3}, {3, 5}, {5, 5}, {16, 16}, {(int64_t)1 << 40, (int64_t)1 << 40} };
#elif KIND == 5
  /* TRTRI also with column blocks wider than the equal row and reduction blocks (the
     default from N = 1536 on): the diagonal solves then see columns right of the block. */
  static const int64_t tiles[][3] = { {1, 1, 1}, {4, 3, 5}, {16, 16, 16}, {5, 7, 5}, {9, 4, 9}, {(int64_t)1 << 40, 7, (int64_t)1 << 40}, {20, 8, 8} };
#else
  static const int64_t tiles[][3] = { {1, 1, 1}, {4, 3, 5}, {16, 16, 16}, {5, 7, 5}, {9, 4, 9}, {(int64_t)1 << 40, 7, (int64_t)1 << 40} };
#endif
  const int ntiles = sizeof tiles / sizeof tiles[0];
  static const double alphas[] = { 1.0, -0.75, 2.0, 0.5 };
  const int ncases = sizeof cases / sizeof cases[0];
  /* QUICK (the --openmp run): every third size, fewer random ones. */
#ifdef QUICK
  const int64_t step = 3, nrandom = 10;
#else
  const int64_t step = 1, nrandom = 40;
#endif
  for (int ci = 0; ci < ncases; ci++) {
    const struct ps_case *c = &cases[ci];
    for (int64_t s = 1; s <= 40; s += step) {
      int64_t n2 = 1 + (s * 7) % 40;
      for (int t = 0; t < ntiles; t++) check(c, s, t % 2 ? n2 : s, tiles[t], alphas[(s + t) % 4]);
      check(c, s, s, NULL, alphas[s % 4]);
      check(c, n2, s, NULL, alphas[(s + 1) % 4]);
#if KIND >= 3
      /* A failing pivot (POTRF), a zero column (GETRF), a zero on the diagonal (TRTRI). */
      check(c, s, n2, tiles[s % ntiles], -1.0);
#endif
    }
    for (int r = 0; r < nrandom; r++) {
      int64_t m = 1 + (int64_t)(next() % 40), n = 1 + (int64_t)(next() % 40);
      int t = (int)(next() % (uint64_t)(ntiles + 1));
      check(c, m, n, t < ntiles ? tiles[t] : NULL, alphas[r % 4]);
    }
#if KIND == 1
    check(c, 5, 4, tiles[1], 0.0);
#endif
    /* Larger than the default blocks: full default-size tiles and several block steps. */
    check(c, 300, 270, NULL, 1.0);
    check(c, 270, 300, tiles[3], -0.5);
  }
  printf("%ld checks, %ld failures\n", checks, failures);
  return failures != 0;
}
