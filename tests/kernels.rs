//! Emitted blocked kernels (`polyscan kernel`: GEMM, SYRK, SYMM, TRMM, GEMV), compiled
//! with gcc -O2 -march=native and checked against a naive loop nest in C: every
//! m = n = k in 1..=40, a few hundred random (m, n, k) up to 40, several tile sizes
//! (1x1x1, 3x5x7, 8x6x32, 16x12x8, larger than the problem, and the default-size entry
//! point), both layouts, both triangles, padded leading dimensions, several alpha/beta
//! including beta = 0 over NaN. One compile per configuration; the driver loops over the
//! cases in C.

use polyscan::kernel::{emit, Blas, Caches, KernelError, Layout, Request, Uplo};
use std::process::Command;

fn compiler() -> String {
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let ok = Command::new(&cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "a C compiler ({cc}) is needed: apt-get install -y gcc");
    cc
}

/// The checking driver, for the kernel selected by `-DKERNEL=1..5` (GEMM, SYRK, SYMM,
/// TRMM, GEMV), `-DROWMAJOR=0|1` and `-DUPPER=0|1`. Triangles a kernel must not read hold NaN;
/// elements it must not write are compared bit for bit.
const DRIVER: &str = r#"
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
#else
void polyscan_dgemv(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *X, int64_t incX, double beta, double *Y, int64_t incY);
void polyscan_dgemv_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, const double *X, int64_t incX, double beta, double *Y, int64_t incY, const int64_t *tile_sizes);
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
  mat A = mk(m, k, pad), B = mk(k, n, pad), C = mk(m, n, pad);
  if (beta == 0.0) for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) EL(C, i, j) = NAN;
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = 0; l < k; l++) { s += EL(A, i, l) * EL(B, l, j); mag += fabs(EL(A, i, l) * EL(B, l, j)); }
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
  if (beta == 0.0) for (int64_t i = 0; i < n; i++) for (int64_t j = 0; j < n; j++) EL(C, i, j) = NAN;
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
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
  mat A = mk(m, m, pad), B = mk(m, n, pad), C = mk(m, n, pad);
  for (int64_t r = 0; r < m; r++)
    for (int64_t c = 0; c < m; c++)
      if (UPPER ? c < r : c > r) EL(A, r, c) = NAN; /* the triangle not stored */
  if (beta == 0.0) for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) EL(C, i, j) = NAN;
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = 0; l < m; l++) {
        int64_t r = l <= i ? i : l, c = l <= i ? l : i; /* r >= c */
        double a = UPPER ? EL(A, c, r) : EL(A, r, c);
        s += a * EL(B, l, j); mag += fabs(a * EL(B, l, j));
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
  for (int64_t r = 0; r < m; r++)
    for (int64_t c = r + 1; c < m; c++) EL(A, r, c) = NAN; /* the strict upper triangle */
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0.0, mag = 0.0;
      for (int64_t l = 0; l <= i; l++) { s += EL(A, i, l) * EL(C, l, j); mag += fabs(EL(A, i, l) * EL(C, l, j)); }
      EL(R, i, j) = alpha * s;
      EL(W, i, j) = fabs(alpha) * mag;
    }
  if (ts) polyscan_dtrmm_tiled(m, n, alpha, A.p, A.ld, C.p, C.ld, ts);
  else polyscan_dtrmm(m, n, alpha, A.p, A.ld, C.p, C.ld);
  compare(C, R, W, m, n, k, ts, alpha, 0.0);
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
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
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
  printf("%ld checks, %ld failures\n", checks, failures);
  return failures != 0;
}
"#;

fn run(kernel: Blas, layout: Layout, uplo: Option<Uplo>) {
    let cc = compiler();
    let text = emit(&Request {
        kernel,
        layout,
        uplo,
        defaults: Caches::DEFAULT.model_sizes(),
    })
    .expect("the kernel emits");
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("kernel.c");
    let driver = dir.path().join("driver.c");
    let exe = dir.path().join("driver");
    std::fs::write(&src, &text).expect("write kernel");
    std::fs::write(&driver, DRIVER).expect("write driver");
    let id = match kernel {
        Blas::Gemm => 1,
        Blas::Syrk => 2,
        Blas::Symm => 3,
        Blas::Trmm => 4,
        Blas::Gemv => 5,
    };
    let out = Command::new(&cc)
        .args(["-O2", "-march=native", "-std=gnu11", "-Wall", "-Werror"])
        .arg(format!("-DKERNEL={id}"))
        .arg(format!("-DROWMAJOR={}", u8::from(layout == Layout::Row)))
        .arg(format!("-DUPPER={}", u8::from(uplo == Some(Uplo::Upper))))
        .arg(&src)
        .arg(&driver)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("run the compiler");
    assert!(
        out.status.success(),
        "compile failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run the driver");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{kernel:?} {layout:?} {uplo:?}: {stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains(", 0 failures"), "{stdout}");
}

#[test]
fn gemm_matches_naive_loops_in_both_layouts() {
    run(Blas::Gemm, Layout::Col, None);
    run(Blas::Gemm, Layout::Row, None);
}

#[test]
fn syrk_matches_naive_loops() {
    for layout in [Layout::Col, Layout::Row] {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            run(Blas::Syrk, layout, Some(uplo));
        }
    }
}

#[test]
fn symm_matches_naive_loops() {
    for layout in [Layout::Col, Layout::Row] {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            run(Blas::Symm, layout, Some(uplo));
        }
    }
}

#[test]
fn gemv_matches_naive_loops() {
    run(Blas::Gemv, Layout::Col, None);
    run(Blas::Gemv, Layout::Row, None);
}

#[test]
fn trmm_matches_naive_loops() {
    run(Blas::Trmm, Layout::Col, None);
    run(Blas::Trmm, Layout::Row, Some(Uplo::Lower));
    let upper = emit(&Request {
        kernel: Blas::Trmm,
        layout: Layout::Col,
        uplo: Some(Uplo::Upper),
        defaults: Caches::DEFAULT.model_sizes(),
    });
    assert!(matches!(upper, Err(KernelError::BadInput(_))));
}

#[test]
fn unknown_kernel_and_misplaced_uplo_are_bad_input() {
    assert!(Blas::parse("GEMMX").is_err());
    assert_eq!(Blas::parse("dgemm"), Ok(Blas::Gemm));
    assert_eq!(Blas::parse("cblas_dgemm"), Ok(Blas::Gemm));
    let r = emit(&Request {
        kernel: Blas::Gemm,
        layout: Layout::Col,
        uplo: Some(Uplo::Lower),
        defaults: Caches::DEFAULT.model_sizes(),
    });
    assert!(r.is_err());
    let bin = env!("CARGO_BIN_EXE_polyscan");
    let out = Command::new(bin)
        .args(["kernel", "NOPE"])
        .output()
        .expect("run polyscan");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(bin)
        .args(["kernel", "TRMM", "--uplo", "U"])
        .output()
        .expect("run polyscan");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cli_writes_the_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("syrk.c");
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(["kernel", "dsyrk", "--uplo", "U", "--layout", "row", "-o"])
        .arg(&path)
        .output()
        .expect("run polyscan");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).expect("the output file");
    assert!(text.contains("void polyscan_dsyrk(int64_t N, int64_t K, double alpha"));
    assert!(text.contains("void polyscan_dsyrk_tiled("));
    assert!(text.contains("PS_FULL(t1, t2, t3);"));
}

#[test]
fn body_rewrite_uses_layout_macros_and_alpha() {
    assert_eq!(
        polyscan::kernel::c_body("C[i][j] += A[i][l] * B[l][j]"),
        "PS_C(i, j) += alpha * (PS_A(i, l) * PS_B(l, j))"
    );
}
