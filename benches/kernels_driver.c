/* Benchmark driver for `polyscan kernel` (benches/kernels.sh): each generated kernel, a
   naive loop nest and OpenBLAS on the same data, on --threads=N threads (default 1; the
   naive nests always serial), best of several repetitions, interleaved so that load on the shared machine hits all three alike;
   with --passes=P the whole list of sizes and kernels is measured P times over and each
   variant keeps its best, so that a slow stretch of the host (seconds long, one core taken
   by another process) meets one pass of a kernel, not all its samples.
   Prints one Markdown table row per kernel and size, after the last pass. Square problems, column-major,
   lower triangles, alpha = beta = 1; GEMV and TRSV with unit increments. TRSM, TRSV,
   POTRF, GETRF and TRTRI overwrite their input: it is restored before each call, outside
   the timed region. */
#include <cblas.h>
#include <math.h>
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
void polyscan_dtrsm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb);
void polyscan_dtrsv(int64_t N, const double *A, int64_t lda, double *X, int64_t incX);
int64_t polyscan_dpotrf(int64_t N, double *A, int64_t lda);
int64_t polyscan_dgetrf(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv);
int64_t polyscan_dtrtri(int64_t N, double *A, int64_t lda);
void polyscan_dlauum(int64_t N, double alpha, const double *A, int64_t lda, double beta, double *C,
                     int64_t ldc);
void openblas_set_num_threads(int);
/* LAPACK in libopenblas (Debian builds LAPACKE separately): the Fortran symbols, column-
   major, 32-bit integers; the trailing length of the character argument as gfortran passes
   it (OpenBLAS's own dpotrf_ ignores it). */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dlauum_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);
void dtrtri_(const char *uplo, const char *diag, const int *n, double *a, const int *lda, int *info, size_t,
             size_t);

#define PEAK 51.3 /* GFLOP/s: 2 FMA pipes x 4 doubles x 2 flop x 3.2 GHz (anchors.md 4) */

static int threads = 1;
static double now(void)
{
  struct timespec t;
  /* One thread: CPU time of this thread (on the shared machine, time spent descheduled is
     not the kernel's). Several: wall-clock time, the only time that shows the speed-up. */
  clock_gettime(threads > 1 ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &t);
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

/* Inputs of the kernels that overwrite them: A (triangle, SPD or general matrix) and B
   (right-hand sides), restored from these copies before each call. */
static double *A0, *B0;
static int64_t *piv64;
static int *piv32;
static void restore_b(int n, const double *A, double *B, double *C)
{ (void)A; (void)C; memcpy(B, B0, sizeof(double) * (size_t)n * (size_t)n); }
static void restore_a(int n, const double *A, double *B, double *C)
{ (void)B; (void)C; memcpy((double *)A, A0, sizeof(double) * (size_t)n * (size_t)n); }

/* TRSM: B := inv(L) B (L lower, non-unit, left). Naive: per column, the catalogue nest in
   order j, l, i (unit stride inside). */
static void trsm_ps(int n, const double *A, double *B, double *C) { (void)C; polyscan_dtrsm(n, n, 1.0, A, n, B, n); }
static void trsm_ob(int n, const double *A, double *B, double *C)
{ (void)C; cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1.0, A, n, B, n); }
static void trsm_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  (void)C;
  for (int64_t j = 0; j < n; j++)
    for (int64_t l = 0; l < n; l++) {
      const double b = B[l + j * n] /= A[l + l * n];
      for (int64_t i = l + 1; i < n; i++) B[i + j * n] -= A[i + l * n] * b;
    }
}
/* TRSV: x := inv(L) x (x = first column of B). Naive: the catalogue nest in order j, i. */
static void trsv_ps(int n, const double *A, double *B, double *C) { (void)C; polyscan_dtrsv(n, A, n, B, 1); }
static void trsv_ob(int n, const double *A, double *B, double *C)
{ (void)C; cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, A, n, B, 1); }
static void trsv_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  (void)C;
  for (int64_t j = 0; j < n; j++) {
    const double x = B[j] /= A[j + j * n];
    for (int64_t i = j + 1; i < n; i++) B[i] -= A[i + j * n] * x;
  }
}
/* POTRF: lower Cholesky of A in place. Naive: unblocked, right-looking by columns. */
static void potrf_ps(int n, const double *A, double *B, double *C) { (void)B; (void)C; polyscan_dpotrf(n, (double *)A, n); }
static void potrf_ob(int n, const double *A, double *B, double *C)
{ (void)B; (void)C; int info; dpotrf_("L", &n, (double *)A, &n, &info, 1); }
static void potrf_nv(int n, const double *A_, double *restrict B, double *restrict C)
{
  (void)B; (void)C;
  double *restrict A = (double *)A_;
  for (int64_t j = 0; j < n; j++) {
    const double d = A[j + j * n] = sqrt(A[j + j * n]);
    for (int64_t i = j + 1; i < n; i++) A[i + j * n] /= d;
    for (int64_t q = j + 1; q < n; q++)
      for (int64_t i = q; i < n; i++) A[i + q * n] -= A[i + j * n] * A[q + j * n];
  }
}
/* GETRF: LU with partial pivoting in place. Naive: unblocked dgetf2 (rank-1 updates). */
static void getrf_ps(int n, const double *A, double *B, double *C) { (void)B; (void)C; polyscan_dgetrf(n, n, (double *)A, n, piv64); }
static void getrf_ob(int n, const double *A, double *B, double *C)
{ (void)B; (void)C; int info; dgetrf_(&n, &n, (double *)A, &n, piv32, &info); }
static void getrf_nv(int n, const double *A_, double *restrict B, double *restrict C)
{
  (void)B; (void)C;
  double *restrict A = (double *)A_;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; i++) if (fabs(A[i + k * n]) > fabs(A[p + k * n])) p = i;
    piv64[k] = p + 1;
    if (p != k) for (int64_t j = 0; j < n; j++) { double t = A[k + j * n]; A[k + j * n] = A[p + j * n]; A[p + j * n] = t; }
    if (A[k + k * n] != 0.0) for (int64_t i = k + 1; i < n; i++) A[i + k * n] /= A[k + k * n];
    for (int64_t j = k + 1; j < n; j++) {
      const double u = A[k + j * n];
      for (int64_t i = k + 1; i < n; i++) A[i + j * n] -= A[i + k * n] * u;
    }
  }
}

/* TRTRI: lower, non-unit inverse in place. Naive: unblocked by columns from the last
   (dtrti2's order). */
static void trtri_ps(int n, const double *A, double *B, double *C) { (void)B; (void)C; polyscan_dtrtri(n, (double *)A, n); }
static void trtri_ob(int n, const double *A, double *B, double *C)
{ (void)B; (void)C; int info; dtrtri_("L", "N", &n, (double *)A, &n, &info, 1, 1); }
static void trtri_nv(int n, const double *A_, double *restrict B, double *restrict C)
{
  (void)B; (void)C;
  double *restrict A = (double *)A_;
  for (int64_t j = n - 1; j >= 0; j--) {
    const double d = A[j + j * n] = 1.0 / A[j + j * n];
    for (int64_t i = n - 1; i > j; i--) {
      double s = 0.0;
      for (int64_t k = j + 1; k <= i; k++) s += A[i + k * n] * A[k + j * n];
      A[i + j * n] = -d * s;
    }
  }
}

/* LAUUM: lower C := L^T L. polyscan's kernel writes a separate C (beta = 0); LAPACK's
   overwrites L in place (restored before each call). Naive: dot products over rows l >= i. */
static void lauum_ps(int n, const double *A, double *B, double *C) { (void)B; polyscan_dlauum(n, 1.0, A, n, 0.0, C, n); }
static void lauum_ob(int n, const double *A, double *B, double *C)
{ (void)B; (void)C; int info; dlauum_("L", &n, (double *)A, &n, &info, 1); }
static void lauum_nv(int n, const double *restrict A, double *restrict B, double *restrict C)
{
  (void)B;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j; i < n; i++) {
      double s = 0.0;
      for (int64_t l = i; l < n; l++) s += A[l + i * n] * A[l + j * n];
      C[i + j * n] = s;
    }
}

typedef void (*prep_fn)(int n, const double *A, double *B, double *C);
/* data: 0 random; 1 lower triangular, well conditioned (diagonal in [1, 2], off-diagonal
   below 1/n); 2 symmetric positive definite by diagonal dominance. */
struct kernel { const char *name; fn ps, nv, ob; double flops_per_n3, flops_per_n2; prep_fn prep; int data; };

int main(int argc, char **argv)
{
  static const struct kernel ks[] = {
    { "GEMM", gemm_ps, (fn)gemm_nv, gemm_ob, 2.0 },
    { "SYRK", syrk_ps, (fn)syrk_nv, syrk_ob, 1.0 },
    { "SYMM", symm_ps, (fn)symm_nv, symm_ob, 2.0 },
    { "TRMM", trmm_ps, (fn)trmm_nv, trmm_ob, 1.0 },
    { "GEMV", gemv_ps, (fn)gemv_nv, gemv_ob, 0.0, 2.0 },
    { "TRSM", trsm_ps, (fn)trsm_nv, trsm_ob, 1.0, 0.0, restore_b, 1 },
    { "TRSV", trsv_ps, (fn)trsv_nv, trsv_ob, 0.0, 1.0, restore_b, 1 },
    { "POTRF", potrf_ps, (fn)potrf_nv, potrf_ob, 1.0 / 3.0, 0.0, restore_a, 2 },
    { "GETRF", getrf_ps, (fn)getrf_nv, getrf_ob, 2.0 / 3.0, 0.0, restore_a, 0 },
    { "TRTRI", trtri_ps, (fn)trtri_nv, trtri_ob, 1.0 / 3.0, 0.0, restore_a, 1 },
    { "LAUUM", lauum_ps, (fn)lauum_nv, lauum_ob, 1.0 / 3.0, 0.0, restore_a, 1 },
  };
  int reps = 5, passes = 1, first = 0, nk = (int)(sizeof ks / sizeof ks[0]), naive = 1;
  const char *only = NULL;
  enum { MAX_SIZES = 16 };
  int sizes[MAX_SIZES], nsizes = 0;
  if (nk > 16) { fprintf(stderr, "more kernels than the table of bests holds\n"); return 2; }
  for (int a = 1; a < argc; a++) {
    if (strncmp(argv[a], "--threads=", 10) == 0) { threads = atoi(argv[a] + 10); continue; }
  }
  if (threads < 1) threads = 1;
  openblas_set_num_threads(threads);
  for (int a = 1; a < argc; a++) {
    if (strncmp(argv[a], "--threads=", 10) == 0) continue;
    if (strncmp(argv[a], "--reps=", 7) == 0) { reps = atoi(argv[a] + 7); continue; }
    if (strncmp(argv[a], "--passes=", 9) == 0) { passes = atoi(argv[a] + 9); continue; }
    if (strncmp(argv[a], "--only=", 7) == 0) { only = argv[a] + 7; continue; }
    if (strcmp(argv[a], "--no-naive") == 0) { naive = 0; continue; }
    if (strcmp(argv[a], "--gemm-only") == 0) { nk = 1; continue; }
    if (strcmp(argv[a], "--solvers-only") == 0) { first = 5; continue; }
    int n = atoi(argv[a]);
    if (n < 1) { fprintf(stderr, "unknown argument %s\n", argv[a]); return 2; }
    if (nsizes == MAX_SIZES) { fprintf(stderr, "at most %d sizes\n", MAX_SIZES); return 2; }
    sizes[nsizes++] = n;
  }
  if (passes < 1) passes = 1;
  /* best[size][kernel][variant] over all passes, in seconds per call. */
  static double bests[MAX_SIZES][16][3];
  for (int si = 0; si < nsizes; si++)
    for (int k = 0; k < 16; k++)
      for (int v = 0; v < 3; v++) bests[si][k][v] = 1e30;
  for (int pass = 0; pass < passes; pass++)
  for (int si = 0; si < nsizes; si++) {
    int n = sizes[si];
    fprintf(stderr, "pass %d of %d, n = %d\n", pass + 1, passes, n);
    size_t sz = sizeof(double) * (size_t)n * (size_t)n;
    double *A = aligned_alloc(64, sz), *B = aligned_alloc(64, sz), *C = aligned_alloc(64, sz);
    A0 = malloc(sz); B0 = malloc(sz);
    piv64 = malloc(sizeof(int64_t) * (size_t)n); piv32 = malloc(sizeof(int) * (size_t)n);
    if (!A || !B || !C || !A0 || !B0 || !piv64 || !piv32) return 3;
    for (int k = first; k < nk; k++) {
      if (only != NULL && strcmp(only, ks[k].name) != 0) continue;
      srand48(1);
      /* Entries scaled by 1/n so that repeated in-place TRMM calls stay bounded. */
      for (int64_t x = 0; x < (int64_t)n * n; x++) { A[x] = (drand48() - 0.5) / n; B[x] = drand48() - 0.5; C[x] = 0.0; }
      if (ks[k].data == 0 && ks[k].prep) for (int64_t x = 0; x < (int64_t)n * n; x++) A[x] = drand48() - 0.5;
      if (ks[k].data >= 1)
        for (int64_t j = 0; j < n; j++)
          for (int64_t i = 0; i < n; i++) {
            if (i == j) A[i + j * n] = 1.0 + drand48() + (ks[k].data == 2 ? 1.0 : 0.0);
            else if (ks[k].data == 2 && i < j) A[i + j * n] = A[j + i * n];
          }
      memcpy(A0, A, sz); memcpy(B0, B, sz);
      double *best = bests[si][k];
      double f = (ks[k].flops_per_n3 * (double)n + ks[k].flops_per_n2) * (double)n * (double)n * 1e-9;
      /* Calls per timing, so that one timing lasts about 0.1 s at 1 GFLOP/s at least. */
      int inner = f < 0.1 ? (int)(0.1 / f) + 1 : 1;
      /* The naive nests are slow at large n: fewer repetitions there. */
      int reps_naive = !naive ? 0 : n >= 1024 ? 1 : reps;
      for (int r = 0; r < reps; r++) {
        fn fs[3] = { ks[k].ps, ks[k].nv, ks[k].ob };
        for (int v = 0; v < 3; v++) {
          if (v == 1 && r >= reps_naive) continue;
          /* Idle worker threads spin for a while after a parallel call before they sleep
             (OpenBLAS's pthreads up to 2^28 cycles, libgomp's a spin count): the variant
             timed next would share the cores with the other one's spinners (bimodal
             timings: SYRK at n = 1024 ran at 25 or 65 GFLOP/s in repeated runs of the
             same code). Let them fall asleep first, outside the timed region. */
          if (threads > 1) nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = 300000000 }, NULL);
          /* Then one untimed call of the variant wakes its own workers: on this shared host
             waking a sleeping worker took 1-8 ms at times (an empty parallel region after a
             sleep), longer than a whole call at n = 512, and whichever library met such a
             wake-up read 0.4-0.7 of the other in that run. Both libraries get the same
             warm-up; the timed calls are the steady state of a caller calling them in turn. */
          if (threads > 1) {
            if (ks[k].prep) ks[k].prep(n, A, B, C);
            fs[v](n, A, B, C);
          }
          double t = 0.0;
          if (ks[k].prep) {
            for (int c = 0; c < inner; c++) {
              ks[k].prep(n, A, B, C);
              double t0 = now();
              fs[v](n, A, B, C);
              t += now() - t0;
            }
          } else {
            t = now();
            for (int c = 0; c < inner; c++) fs[v](n, A, B, C);
            t = now() - t;
          }
          t /= inner;
          if (t < best[v]) best[v] = t;
        }
      }
    }
    free(A); free(B); free(C); free(A0); free(B0); free(piv64); free(piv32);
  }
  for (int si = 0; si < nsizes; si++)
    for (int k = first; k < nk; k++) {
      if (only != NULL && strcmp(only, ks[k].name) != 0) continue;
      int n = sizes[si];
      double f = (ks[k].flops_per_n3 * (double)n + ks[k].flops_per_n2) * (double)n * (double)n * 1e-9;
      const double *best = bests[si][k];
      double ps = f / best[0], nv = f / best[1], ob = f / best[2];
      char nvs[32] = "-";
      if (naive) snprintf(nvs, sizeof nvs, "%.1f", nv);
      printf("| %s | %d | %.1f | %s | %.1f | %.2f | %.0f%% |\n", ks[k].name, n, ps, nvs, ob,
             ps / ob, 100.0 * ps / (PEAK * threads));
    }
  return 0;
}
