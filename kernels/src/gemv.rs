//! GEMV (`y := alpha A x + beta y`, no transpose): the catalogue's 2-D domain tiled along
//! rows and columns, full tiles through a register-blocked vector kernel, partial tiles
//! through the catalogue body. A separate emitter because the operation is not
//! GEMM-shaped (no reduction tile to pack for, and it is bound by memory traffic on A:
//! packing would only add traffic).

use super::{element, header, indent, nest, KernelError, Layout, Request};
use crate::catalogue::Kernel;
use std::fmt::Write;

/// Default tile extents: rows of A per tile (the y block, 1024 doubles = 8 KiB, stays in
/// L1 while the tile's columns stream by four at a time) and columns (the x segment).
const MC: i64 = 1024;
const NC: i64 = 512;

pub fn emit(req: &Request) -> Result<String, KernelError> {
    // Loops j, i: column tiles outside, so a tile's x segment is reused by its rows; i
    // innermost (unit stride in column-major) in the partial tiles.
    let (spec, nest) =
        nest::catalogue_nest(Kernel::Gemv, &[1, 0], &["sz_j", "sz_i"], false, &["j", "i"])?;
    if nest.full_branches == 0 {
        return Err(KernelError::Generation(
            "GEMV: no full-tile branch in the tiled nest".into(),
        ));
    }
    // Tiles along i write disjoint blocks of y (x and A are only read): the i-tile loops
    // carry no dependence.
    let fragment = if req.openmp {
        super::omp::parallelize(&nest.fragment, "t2", |_| "sz_i * sz_j >= PS_OMP_MIN".into())
    } else {
        nest.fragment.clone()
    };
    let l = req.layout;
    let full_kernel = match l {
        // Columns of A are contiguous: four columns at a time stream through the tile's
        // y block (in L1), four vector FMAs per load and store of y.
        Layout::Col => {
            "  int64_t j = 0;\n\
             \x20 for (; j + 4 <= nc; j += 4) {\n\
             \x20   const double *a0 = A + i0 + (j0 + j) * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;\n\
             \x20   const double x0 = xa[j0 + j], x1 = xa[j0 + j + 1], x2 = xa[j0 + j + 2], x3 = xa[j0 + j + 3];\n\
             \x20   double *yy = y + i0;\n\
             \x20   int64_t i = 0;\n\
             \x20   for (; i + 4 <= mc; i += 4)\n\
             \x20     *(ps_v4du *)(yy + i) += *(const ps_v4du *)(a0 + i) * x0 + *(const ps_v4du *)(a1 + i) * x1\n\
             \x20                           + *(const ps_v4du *)(a2 + i) * x2 + *(const ps_v4du *)(a3 + i) * x3;\n\
             \x20   for (; i < mc; i++) yy[i] += a0[i] * x0 + a1[i] * x1 + a2[i] * x2 + a3[i] * x3;\n\
             \x20 }\n\
             \x20 for (; j < nc; j++) {\n\
             \x20   const double *a0 = A + i0 + (j0 + j) * lda;\n\
             \x20   const double x0 = xa[j0 + j];\n\
             \x20   for (int64_t i = 0; i < mc; i++) y[i0 + i] += a0[i] * x0;\n\
             \x20 }\n"
        }
        // Rows of A are contiguous: four rows at a time, each a vector dot product
        // (four independent FMA chains hide the FMA latency).
        Layout::Row => {
            "  int64_t i = 0;\n\
             \x20 for (; i + 4 <= mc; i += 4) {\n\
             \x20   const double *a0 = A + (i0 + i) * lda + j0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;\n\
             \x20   const double *xs = xa + j0;\n\
             \x20   ps_v4d s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};\n\
             \x20   int64_t j = 0;\n\
             \x20   for (; j + 4 <= nc; j += 4) {\n\
             \x20     const ps_v4d xv = *(const ps_v4du *)(xs + j);\n\
             \x20     s0 += *(const ps_v4du *)(a0 + j) * xv; s1 += *(const ps_v4du *)(a1 + j) * xv;\n\
             \x20     s2 += *(const ps_v4du *)(a2 + j) * xv; s3 += *(const ps_v4du *)(a3 + j) * xv;\n\
             \x20   }\n\
             \x20   double r0 = s0[0] + s0[1] + s0[2] + s0[3], r1 = s1[0] + s1[1] + s1[2] + s1[3];\n\
             \x20   double r2 = s2[0] + s2[1] + s2[2] + s2[3], r3 = s3[0] + s3[1] + s3[2] + s3[3];\n\
             \x20   for (; j < nc; j++) { r0 += a0[j] * xs[j]; r1 += a1[j] * xs[j]; r2 += a2[j] * xs[j]; r3 += a3[j] * xs[j]; }\n\
             \x20   y[i0 + i] += r0; y[i0 + i + 1] += r1; y[i0 + i + 2] += r2; y[i0 + i + 3] += r3;\n\
             \x20 }\n\
             \x20 for (; i < mc; i++) {\n\
             \x20   double s = 0.0;\n\
             \x20   for (int64_t j = 0; j < nc; j++) s += A[(i0 + i) * lda + (j0 + j)] * xa[j0 + j];\n\
             \x20   y[i0 + i] += s;\n\
             \x20 }\n"
        }
    };
    let mut s = header(req);
    let _ = write!(
        s,
        "#define PS_A(r, c) {}\n\
         /* Vectors with increments (negative: stored backwards, as in BLAS). */\n\
         #define PS_x(e) X[incX > 0 ? (e) * incX : ((e) - (N - 1)) * incX]\n\
         #define PS_Y(e) Y[incY > 0 ? (e) * incY : ((e) - (M - 1)) * incY]\n\
         /* The catalogue body's y: the unit-stride working copy. */\n\
         #define PS_y(e) yw[e]\n\n\
         /* y(i0 .. i0+mc-1) += A(i0.., j0..) * xa(j0 .. j0+nc-1), xa = alpha x, unit strides. */\n\
         static void ps_gemv_full(const double *A, int64_t lda, const double *xa, double *y,\n\
         \x20                        int64_t i0, int64_t j0, int64_t mc, int64_t nc)\n{{\n{full_kernel}}}\n",
        element("A", "lda", l, "r", "c"),
    );
    let body = super::c_body(spec.body);
    let _ = write!(
        s,
        r#"
/* y := alpha * A * x + beta * y ({layout}-major, CblasNoTrans), A M x N.
   tile_sizes = {{size along i, j}} of the catalogue domain {domain}
   (i: rows, j: columns); values below 1 count as 1, values above an extent as the extent. */
void polyscan_dgemv_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda,
                          const double *X, int64_t incX, double beta, double *Y, int64_t incY,
                          const int64_t *tile_sizes)
{{
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
  if (xa == NULL || yw == NULL) {{
    /* No memory for the copies: the catalogue body on the original vectors. */
    free(xa);
    if (yw != Y) free(yw);
    for (int64_t j = 0; j < N; j++)
      for (int64_t i = 0; i < M; i++) PS_Y(i) += alpha * (PS_A(i, j) * PS_x(j));
    return;
  }}
  for (int64_t j = 0; j < N; j++) xa[j] = alpha * PS_x(j);
  if (yw != Y) for (int64_t i = 0; i < M; i++) yw[i] = PS_Y(i);
#define S(j, i) {body}
#define PS_FULL(t1, t2) ps_gemv_full(A, lda, xa, yw, (t2) * sz_i, (t1) * sz_j, sz_i, sz_j)
{fragment}#undef S
#undef PS_FULL
  if (yw != Y) {{
    for (int64_t i = 0; i < M; i++) PS_Y(i) = yw[i];
    free(yw);
  }}
  free(xa);
}}

/* Default tile sizes {{{MC}, {NC}}}, each moved within [s/2, s] to fit the extents. */
void polyscan_dgemv(int64_t M, int64_t N, double alpha, const double *A, int64_t lda,
                    const double *X, int64_t incX, double beta, double *Y, int64_t incY)
{{
  const int64_t ts[2] = {{ ps_pick_size(M, {MC}, 16), ps_pick_size(N, {NC}, 4) }};
  polyscan_dgemv_tiled(M, N, alpha, A, lda, X, incX, beta, Y, incY, ts);
}}
"#,
        layout = if l == Layout::Col { "column" } else { "row" },
        domain = spec.domain,
        fragment = indent(&fragment, "  "),
    );
    Ok(s)
}
