//! Emitted blocked kernels (`polyscan kernel`: GEMM, SYRK, SYMM, TRMM, GEMV, LAUUM; the solvers
//! and factorisations TRSM, TRSV, POTRF, GETRF further down), compiled
//! with gcc -O2 -march=native and checked against a naive loop nest in C: every
//! m = n = k in 1..=40, a few hundred random (m, n, k) up to 40, several tile sizes
//! (1x1x1, 3x5x7, 8x6x32, 16x12x8, larger than the problem, and the default-size entry
//! point), both layouts, both triangles, padded leading dimensions, several alpha/beta
//! including beta = 0 over NaN. One compile per configuration; the driver loops over the
//! cases in C.

use polyscan_kernels::{emit, Blas, Diag, KernelError, Layout, Request, Side, Trans, Uplo};
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

/// The checking driver, for the kernel selected by `-DKERNEL=1..6` (GEMM, SYRK, SYMM,
/// TRMM, GEMV, LAUUM), `-DROWMAJOR=0|1` and `-DUPPER=0|1`. Triangles a kernel must not read hold NaN;
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
  if (beta == 0.0) for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) EL(C, i, j) = NAN;
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
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
  /* The triangle the kernel must not read holds NaN: the strict upper one of a lower A. */
  for (int64_t r = 0; r < m; r++)
    for (int64_t c = r + 1; c < m; c++) {
      if (UPPER) EL(A, c, r) = NAN; else EL(A, r, c) = NAN;
    }
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
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
  if (beta == 0.0) for (int64_t i = 0; i < n; i++) for (int64_t j = 0; j < n; j++) EL(C, i, j) = NAN;
  mat R = copy(C), W = copy(C);
  for (int64_t e = 0; e < W.len; e++) W.p[e] = -1.0;
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

fn request(kernel: Blas, layout: Layout, uplo: Option<Uplo>) -> Request {
    Request {
        layout,
        uplo,
        ..Request::new(kernel)
    }
}

fn run(kernel: Blas, layout: Layout, uplo: Option<Uplo>) {
    run_with(kernel, layout, uplo, false);
}

fn run_with(kernel: Blas, layout: Layout, uplo: Option<Uplo>, openmp: bool) {
    run_request(&Request {
        openmp,
        ..request(kernel, layout, uplo)
    });
}

/// Compiles `req`'s kernel with the checking driver and runs it.
fn run_request(req: &Request) {
    let (kernel, layout, uplo, openmp) = (req.kernel, req.layout, req.uplo, req.openmp);
    let cc = compiler();
    let text = emit(req).expect("the kernel emits");
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
        Blas::Lauum => 6,
        other => panic!("{other:?} has its own driver (run_solver)"),
    };
    let out = Command::new(&cc)
        .args(["-O2", "-march=native", "-std=gnu11", "-Wall", "-Werror"])
        .args(if openmp {
            &["-fopenmp", "-DPS_OMP_MIN=512"][..]
        } else {
            &[]
        })
        .arg(format!("-DKERNEL={id}"))
        .arg(format!("-DROWMAJOR={}", u8::from(layout == Layout::Row)))
        .arg(format!("-DUPPER={}", u8::from(uplo == Some(Uplo::Upper))))
        .arg(format!(
            "-DTRANSA={}",
            u8::from(req.trans == Some(Trans::Yes))
        ))
        .arg(format!(
            "-DTRANSB={}",
            u8::from(req.transb == Some(Trans::Yes))
        ))
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
    let run = Command::new(&exe)
        .env("OMP_NUM_THREADS", "2")
        .output()
        .expect("run the driver");
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
fn gemm_with_transposed_operands_matches_naive_loops() {
    for layout in [Layout::Col, Layout::Row] {
        for (ta, tb) in [
            (Trans::Yes, Trans::No),
            (Trans::No, Trans::Yes),
            (Trans::Yes, Trans::Yes),
        ] {
            run_request(&Request {
                layout,
                trans: Some(ta),
                transb: Some(tb),
                ..Request::new(Blas::Gemm)
            });
        }
    }
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
fn trmm_matches_naive_loops_for_both_triangles_and_transposes() {
    for layout in [Layout::Col, Layout::Row] {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            for trans in [Trans::No, Trans::Yes] {
                run_request(&Request {
                    trans: Some(trans),
                    ..request(Blas::Trmm, layout, Some(uplo))
                });
            }
        }
    }
    // The upper variant's tile loops in parallel (its own domain, `i <= l`).
    run_request(&Request {
        openmp: true,
        ..request(Blas::Trmm, Layout::Col, Some(Uplo::Upper))
    });
}

#[test]
fn lauum_matches_naive_loops() {
    run(Blas::Lauum, Layout::Col, None);
    run(Blas::Lauum, Layout::Row, Some(Uplo::Lower));
    run_with(Blas::Lauum, Layout::Col, None, true);
    let upper = emit(&request(Blas::Lauum, Layout::Col, Some(Uplo::Upper)));
    assert!(matches!(upper, Err(KernelError::BadInput(_))));
}

#[test]
fn unknown_kernel_and_misplaced_uplo_are_bad_input() {
    assert!(Blas::parse("GEMMX").is_err());
    assert_eq!(Blas::parse("dgemm"), Ok(Blas::Gemm));
    assert_eq!(Blas::parse("cblas_dgemm"), Ok(Blas::Gemm));
    let r = emit(&request(Blas::Gemm, Layout::Col, Some(Uplo::Lower)));
    assert!(r.is_err());
    let bin = env!("CARGO_BIN_EXE_polyscan");
    let out = Command::new(bin)
        .args(["kernel", "NOPE"])
        .output()
        .expect("run polyscan");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(bin)
        .args(["kernel", "LAUUM", "--uplo", "U"])
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
        polyscan_kernels::c_body("C[i][j] += A[i][l] * B[l][j]"),
        "PS_C(i, j) += alpha * (PS_A(i, l) * PS_B(l, j))"
    );
}

/// Checking driver of the solvers and factorisations. `cases.h` (written by the test)
/// declares the kernels of every flag combination, each renamed `<name>_c<index>`, and
/// the table `cases` of their flags; `-DKIND=1..5` selects TRSM, TRSV, POTRF, GETRF, TRTRI.
/// Each case is compared with a naive unblocked loop nest on the same input for every
/// size 1..=40 (square, and a second extent varied), random rectangular sizes, several
/// tile sizes and the default entry point; triangles a kernel must not read hold NaN, and
/// elements it must not write (other triangle, padding, A of TRSM) are compared bit for bit.
const SOLVE_DRIVER: &str = r#"
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
"#;

/// Every flag combination of a solver or factorisation: (right, upper, trans, unit, row).
fn combos(kernel: Blas) -> Vec<[bool; 5]> {
    let b = [false, true];
    let mut out = Vec::new();
    for right in b {
        for upper in b {
            for trans in b {
                for unit in b {
                    for row in b {
                        let ok = match kernel {
                            Blas::Trsm => true,
                            Blas::Trsv => !right,
                            Blas::Potrf => !right && !trans && !unit,
                            Blas::Trtri => !right && !trans,
                            _ => !right && !upper && !trans && !unit,
                        };
                        if ok {
                            out.push([right, upper, trans, unit, row]);
                        }
                    }
                }
            }
        }
    }
    out
}

fn solver_request(kernel: Blas, c: [bool; 5], openmp: bool) -> Request {
    let [right, upper, trans, unit, row] = c;
    Request {
        kernel,
        layout: if row { Layout::Row } else { Layout::Col },
        uplo: (kernel != Blas::Getrf).then_some(if upper { Uplo::Upper } else { Uplo::Lower }),
        trans: kernel
            .takes_trans()
            .then_some(if trans { Trans::Yes } else { Trans::No }),
        side: (kernel == Blas::Trsm).then_some(if right { Side::Right } else { Side::Left }),
        diag: kernel
            .takes_diag()
            .then_some(if unit { Diag::Unit } else { Diag::NonUnit }),
        openmp,
        ..Request::new(kernel)
    }
}

/// Emits every combination of `kernel`, compiles each (two compilers at a time) and links
/// them with the checking driver; runs it (with `env`) and asserts no failure.
fn run_solver(kernel: Blas, openmp: bool, env: &[(&str, &str)]) -> String {
    run_solver_cases(kernel, openmp, env, 1)
}

/// As [`run_solver`], for every `every`-th flag combination only.
fn run_solver_cases(kernel: Blas, openmp: bool, env: &[(&str, &str)], every: usize) -> String {
    let cc = compiler();
    let dir = tempfile::tempdir().expect("temporary directory");
    let fname = kernel.function();
    let kind = match kernel {
        Blas::Trsm => 1,
        Blas::Trsv => 2,
        Blas::Potrf => 3,
        Blas::Getrf => 4,
        _ => 5,
    };
    let cases: Vec<[bool; 5]> = combos(kernel).into_iter().step_by(every).collect();
    let start = std::time::Instant::now();
    let mut header = String::new();
    let mut table = String::from("static const struct ps_case cases[] = {\n");
    let mut sources = Vec::new();
    for (idx, &c) in cases.iter().enumerate() {
        let text = emit(&solver_request(kernel, c, openmp)).expect("the kernel emits");
        let mentions = ["pragma omp", "omp.h", "OPENMP", "OpenMP", "openmp"];
        assert_eq!(
            mentions.iter().any(|m| text.contains(m)),
            openmp,
            "OpenMP named exactly with --openmp"
        );
        let renamed = format!("{fname}_c{idx}");
        let path = dir.path().join(format!("k{idx}.c"));
        std::fs::write(&path, text.replace(fname, &renamed)).expect("write kernel");
        sources.push(path);
        header.push_str(&format!("ps_f {renamed};\nps_tf {renamed}_tiled;\n"));
        let [right, upper, trans, unit, row] = c.map(u8::from);
        table.push_str(&format!(
            "  {{ {right}, {upper}, {trans}, {unit}, {row}, {renamed}, {renamed}_tiled }},\n"
        ));
    }
    table.push_str("};\n");
    std::fs::write(dir.path().join("cases.h"), header + &table).expect("write cases.h");
    let driver = dir.path().join("driver.c");
    std::fs::write(&driver, SOLVE_DRIVER).expect("write driver");
    // Parallel loops over tiles of 512 multiply-adds and more: the 16 x 16 x 16 tiles.
    let omp_flag: &[&str] = if openmp {
        &["-fopenmp", "-DPS_OMP_MIN=512"]
    } else {
        &[]
    };
    let compile = |src: &std::path::Path, out: &std::path::Path, extra: &[String]| {
        let o = Command::new(&cc)
            .args([
                "-O2",
                "-march=native",
                "-std=gnu11",
                "-Wall",
                "-Werror",
                "-c",
            ])
            .args(omp_flag)
            .args(extra)
            .arg(src)
            .arg("-o")
            .arg(out)
            .output()
            .expect("run the compiler");
        assert!(
            o.status.success(),
            "compile of {} failed:\n{}",
            src.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let objects: Vec<std::path::PathBuf> = sources.iter().map(|s| s.with_extension("o")).collect();
    for chunk in sources.chunks(2).zip(objects.chunks(2)) {
        std::thread::scope(|sc| {
            for (s, o) in chunk.0.iter().zip(chunk.1) {
                sc.spawn(|| compile(s, o, &[]));
            }
        });
    }
    let driver_o = dir.path().join("driver.o");
    let mut defines = vec![
        format!("-DKIND={kind}"),
        format!("-I{}", dir.path().display()),
    ];
    if openmp {
        defines.push("-DQUICK".into());
    }
    compile(&driver, &driver_o, &defines);
    let exe = dir.path().join("driver");
    let out = Command::new(&cc)
        .args(omp_flag)
        .arg(&driver_o)
        .args(&objects)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("run the linker");
    assert!(
        out.status.success(),
        "link failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built = start.elapsed();
    let run = Command::new(&exe)
        .envs(env.iter().copied())
        .output()
        .expect("run the driver");
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    eprintln!(
        "{kernel:?} openmp={openmp}: built in {:.1} s, ran in {:.1} s",
        built.as_secs_f64(),
        (start.elapsed() - built).as_secs_f64()
    );
    assert!(
        run.status.success() && stdout.contains(", 0 failures"),
        "{kernel:?} openmp={openmp}: {stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    eprintln!("{kernel:?} openmp={openmp}: {}", stdout.trim());
    stdout
}

#[test]
fn trsm_matches_naive_loops_for_every_flag_combination() {
    run_solver(Blas::Trsm, false, &[]);
}

#[test]
fn trsv_matches_naive_loops_for_every_flag_combination() {
    run_solver(Blas::Trsv, false, &[]);
}

#[test]
fn potrf_matches_naive_cholesky_in_both_triangles_and_layouts() {
    run_solver(Blas::Potrf, false, &[]);
}

#[test]
fn trtri_matches_naive_inverse_for_every_flag_combination() {
    run_solver(Blas::Trtri, false, &[]);
}

#[test]
fn getrf_matches_naive_pivoted_lu_including_pivots_and_info() {
    run_solver(Blas::Getrf, false, &[]);
}

/// `--openmp`: compiled with -fopenmp and run on two threads, the kernels give the same
/// results as the naive loops (every eighth of TRSM's flag combinations, two of POTRF's,
/// both of GETRF's; GEMM stands for the GEMM-shaped kernels and GEMV for itself, whose
/// i-tile loops run in parallel).
#[test]
fn openmp_kernels_match_naive_loops_on_two_threads() {
    let two = [("OMP_NUM_THREADS", "2")];
    run_solver_cases(Blas::Trsm, true, &two, 8);
    run_solver_cases(Blas::Potrf, true, &two, 3);
    run_solver(Blas::Getrf, true, &two);
    run_solver_cases(Blas::Trtri, true, &two, 4);
    run_with(Blas::Gemm, Layout::Col, None, true);
    run_with(Blas::Gemv, Layout::Row, None, true);
}

#[test]
fn flags_a_kernel_does_not_take_are_bad_input() {
    let bin = env!("CARGO_BIN_EXE_polyscan");
    for args in [
        &["kernel", "GEMM", "--side", "R"][..],
        &["kernel", "SYRK", "--transb", "T"],
        &["kernel", "POTRF", "--side", "R"],
        &["kernel", "GETRF", "--uplo", "U"],
        &["kernel", "TRSV", "--side", "L"],
        &["kernel", "SYRK", "--diag", "U"],
    ] {
        let out = Command::new(bin).args(args).output().expect("run polyscan");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("does not apply to"), "{args:?}: {err}");
    }
    let out = Command::new(bin)
        .args([
            "kernel", "dtrsm", "--side", "R", "--uplo", "U", "--trans", "T", "--diag", "U",
        ])
        .output()
        .expect("run polyscan");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("void polyscan_dtrsm(int64_t M, int64_t N, double alpha"));
    assert!(text.contains("CblasRight, CblasUpper, CblasTrans, CblasUnit"));
    assert!(!text.contains("pragma omp"));
    let out = Command::new(bin)
        .args(["kernel", "LAPACKE_dgetrf", "--openmp"])
        .output()
        .expect("run polyscan");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(
        "int64_t polyscan_dgetrf(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv)"
    ));
    assert!(text.contains("#pragma omp parallel for if ("));
}
