/* The thread-count driver of tests/kernels.rs (see THREADS_DRIVER there): GEMM, SYMM, TRMM,
   SYRK and LAUUM (column-major, emitted with --openmp) with given tile sizes on one thread
   and on two, compared bit for bit: a thread runs every reduction step of the result tiles
   it takes, in the one-thread order. GEMV's column split sums in another order and is
   checked against naive loops instead (blas3_driver.c). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void polyscan_dgemm_tiled(int64_t M, int64_t N, int64_t K, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
void polyscan_dsymm_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
void polyscan_dtrmm_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb, const int64_t *tile_sizes);
void polyscan_dsyrk_tiled(int64_t N, int64_t K, double alpha, const double *A, int64_t lda, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
void polyscan_dlauum_tiled(int64_t N, double alpha, const double *A, int64_t lda, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);

static const char *const names[] = { "GEMM", "SYMM", "TRMM", "SYRK", "LAUUM" };

/* C := the kernel applied to A and B (C starts as a copy of B); GEMM and SYMM with m rows
   (m > n: the row split), the others square of order n. */
static void run(int kernel, int64_t m, int64_t n, const int64_t *ts, const double *A, const double *B, double *C)
{
  memcpy(C, B, sizeof(double) * (size_t)(m * m));
  switch (kernel) {
  case 0: polyscan_dgemm_tiled(m, n, m, 0.75, A, m, B, m, 0.5, C, m, ts); break;
  case 1: polyscan_dsymm_tiled(m, n, 0.75, A, m, B, m, 0.5, C, m, ts); break;
  case 2: polyscan_dtrmm_tiled(n, n, 0.75, A, n, C, n, ts); break;
  case 3: polyscan_dsyrk_tiled(n, n, 0.75, A, n, 0.5, C, n, ts); break;
  default: polyscan_dlauum_tiled(n, 0.75, A, n, 0.5, C, n, ts); break;
  }
}

int main(void)
{
  static const int64_t sizes[] = { 37, 130, 301 };
  static const int64_t tiles[][3] = { { 16, 24, 32 }, { 64, 40, 7 }, { 32, 100, 64 } };
  int cases = 0, failures = 0;
  for (int s = 0; s < 3; s++)
    /* Square, then taller than wide for GEMM and SYMM (rows split between the threads). */
    for (int tall = 0; tall < 2; tall++) {
      const int64_t n = sizes[s], m = tall ? 2 * n + 3 : n;
      const size_t bytes = sizeof(double) * (size_t)(m * m);
      double *A = malloc(bytes), *B = malloc(bytes), *C1 = malloc(bytes), *C2 = malloc(bytes);
      if (!A || !B || !C1 || !C2) return 3;
      srand48(m);
      for (int64_t e = 0; e < m * m; e++) { A[e] = drand48() - 0.5; B[e] = drand48() - 0.5; }
      for (int k = 0; k < (tall ? 2 : 5); k++)
        for (int t = 0; t < 3; t++) {
          omp_set_num_threads(1);
          run(k, m, n, tiles[t], A, B, C1);
          omp_set_num_threads(2);
          run(k, m, n, tiles[t], A, B, C2);
          cases++;
          if (memcmp(C1, C2, bytes) != 0) {
            failures++;
            printf("%s %ld x %ld, tiles %ld x %ld x %ld: two threads differ from one\n", names[k], (long)m,
                   (long)n, (long)tiles[t][0], (long)tiles[t][1], (long)tiles[t][2]);
          }
        }
      free(A); free(B); free(C1); free(C2);
    }
  printf("%d cases, %d failures\n", cases, failures);
  return failures != 0;
}
