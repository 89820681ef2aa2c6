/* Benchmark driver for `polyscan kernel` (benches/kernels.sh): each generated kernel, a
   naive loop nest and OpenBLAS on the same data, single-threaded, best of several
   repetitions, interleaved so that load on the shared machine hits all three alike.
   Prints one Markdown table row per kernel and size. Square problems, column-major,
   lower triangles, alpha = beta = 1; GEMV with unit increments. */
#include <cblas.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void polyscan_dgemm(int64_t M, int64_t N, int64_t K, double alpha, const double *A, int64_t lda,
                    const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void polyscan_dsyrk(int64_t N, int64_t K, double alpha, const double *A, int64_t lda, double beta,
                    double *C, int64_t ldc);
void polyscan_dsymm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda,
                    const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void polyscan_dtrmm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B,
                    int64_t ldb);
void polyscan_dgemv(int64_t M, int64_t N, double alpha, const double *A, int64_t lda,
                    const double *X, int64_t incX, double beta, double *Y, int64_t incY);
void openblas_set_num_threads(int);

#define PEAK 51.3 /* GFLOP/s: 2 FMA pipes x 4 doubles x 2 flop x 3.2 GHz (anchors.md 4) */

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef void (*fn)(int n, const double *A, double *B, double *C);

/* GEMM: C += A B. Naive: the catalogue nest untiled, loops j, l, i (unit stride inside). */
static void gemm_ps(int n, const double *A, double *B, double *C) { polyscan_dgemm(n, n, n, 1.0, A, n, B, n, 1.0, C, n); }
static void gemm_ob(int n, const double *A, double *B, double *C)
{ cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 1.0, C, n); }
static void gemm_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t l = 0; l < n; l++)
      for (int64_t i = 0; i < n; i++) C[i + j * n] += A[i + l * n] * B[l + j * n];
}
/* SYRK: lower C += A^T A. Naive: dot products over l (unit stride). */
static void syrk_ps(int n, const double *A, double *B, double *C) { (void)B; polyscan_dsyrk(n, n, 1.0, A, n, 1.0, C, n); }
static void syrk_ob(int n, const double *A, double *B, double *C)
{ (void)B; cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, n, n, 1.0, A, n, 1.0, C, n); }
static void syrk_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  (void)B;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j; i < n; i++) {
      double s = 0.0;
      for (int64_t l = 0; l < n; l++) s += A[l + i * n] * A[l + j * n];
      C[i + j * n] += s;
    }
}
/* SYMM: C += A B, A symmetric from its lower triangle. Naive: loops j, l, i. */
static void symm_ps(int n, const double *A, double *B, double *C) { polyscan_dsymm(n, n, 1.0, A, n, B, n, 1.0, C, n); }
static void symm_ob(int n, const double *A, double *B, double *C)
{ cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, n, n, 1.0, A, n, B, n, 1.0, C, n); }
static void symm_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t l = 0; l < n; l++) {
      const double b = B[l + j * n];
      for (int64_t i = 0; i < l; i++) C[i + j * n] += A[l + i * n] * b;
      for (int64_t i = l; i < n; i++) C[i + j * n] += A[i + l * n] * b;
    }
}
/* TRMM: B := L B in place (L lower). Naive: per column of B, rows from the bottom up. */
static void trmm_ps(int n, const double *A, double *B, double *C) { (void)C; polyscan_dtrmm(n, n, 1.0, A, n, B, n); }
static void trmm_ob(int n, const double *A, double *B, double *C)
{ (void)C; cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1.0, A, n, B, n); }
static void trmm_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  (void)C;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = n - 1; i >= 0; i--) {
      double s = 0.0;
      for (int64_t l = 0; l <= i; l++) s += A[i + l * n] * B[l + j * n];
      B[i + j * n] = s;
    }
}

/* GEMV: y += A x (x = first column of B, y = first column of C). Naive: loops j, i. */
static void gemv_ps(int n, const double *A, double *B, double *C) { polyscan_dgemv(n, n, 1.0, A, n, B, 1, 1.0, C, 1); }
static void gemv_ob(int n, const double *A, double *B, double *C)
{ cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, A, n, B, 1, 1.0, C, 1); }
static void gemv_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) C[i] += A[i + j * n] * B[j];
}

struct kernel { const char *name; fn ps, nv, ob; double flops_per_n3, flops_per_n2; };

int main(int argc, char **argv)
{
  static const struct kernel ks[] = {
    { "GEMM", gemm_ps, (fn)gemm_nv, gemm_ob, 2.0 },
    { "SYRK", syrk_ps, (fn)syrk_nv, syrk_ob, 1.0 },
    { "SYMM", symm_ps, (fn)symm_nv, symm_ob, 2.0 },
    { "TRMM", trmm_ps, (fn)trmm_nv, trmm_ob, 1.0 },
    { "GEMV", gemv_ps, (fn)gemv_nv, gemv_ob, 0.0, 2.0 },
  };
  int reps = 5, nk = 5;
  openblas_set_num_threads(1);
  for (int a = 1; a < argc; a++) {
    if (strncmp(argv[a], "--reps=", 7) == 0) { reps = atoi(argv[a] + 7); continue; }
    if (strcmp(argv[a], "--gemm-only") == 0) { nk = 1; continue; }
    int n = atoi(argv[a]);
    size_t sz = sizeof(double) * (size_t)n * (size_t)n;
    double *A = aligned_alloc(64, sz), *B = aligned_alloc(64, sz), *C = aligned_alloc(64, sz);
    if (!A || !B || !C) return 3;
    for (int k = 0; k < nk; k++) {
      srand48(1);
      /* Entries scaled by 1/n so that repeated in-place TRMM calls stay bounded. */
      for (int64_t x = 0; x < (int64_t)n * n; x++) { A[x] = (drand48() - 0.5) / n; B[x] = drand48() - 0.5; C[x] = 0.0; }
      double best[3] = { 1e30, 1e30, 1e30 };
      double f = (ks[k].flops_per_n3 * (double)n + ks[k].flops_per_n2) * (double)n * (double)n * 1e-9;
      /* Calls per timing, so that one timing lasts about 0.1 s at 1 GFLOP/s at least. */
      int inner = f < 0.1 ? (int)(0.1 / f) + 1 : 1;
      /* The naive nests are slow at large n: fewer repetitions there. */
      int reps_naive = n >= 1024 ? 1 : reps;
      for (int r = 0; r < reps; r++) {
        fn fs[3] = { ks[k].ps, ks[k].nv, ks[k].ob };
        for (int v = 0; v < 3; v++) {
          if (v == 1 && r >= reps_naive) continue;
          double t = now();
          for (int c = 0; c < inner; c++) fs[v](n, A, B, C);
          t = (now() - t) / inner;
          if (t < best[v]) best[v] = t;
        }
      }
      double ps = f / best[0], nv = f / best[1], ob = f / best[2];
      printf("| %s | %d | %.1f | %.1f | %.1f | %.0f%% | %.0f%% |\n", ks[k].name, n, ps, nv, ob,
             100.0 * ps / ob, 100.0 * ps / PEAK);
      fflush(stdout);
    }
    free(A); free(B); free(C);
  }
  return 0;
}
