//! Factorisations: POTRF (Cholesky, `A = L L^T` or `U^T U`) and GETRF (LU with partial
//! pivoting, `A = P L U`), emitted from the catalogue's domains in the right-looking
//! blocked order of LAPACK's dpotrf and dgetrf.
//!
//! POTRF's domain `0 <= k <= j <= i < n` is fully permutable, so the tiled nest with tile
//! loops k, j, i is legal and is the blocked algorithm: for each block column k, the
//! diagonal tile (Cholesky of the block), the tiles below it (a triangular solve each),
//! then the trailing tiles, pure updates that run the packed micro-kernel path (SYRK-like
//! masked on the diagonal, GEMM-like below it). An upper triangle is the lower one read
//! through the transposed index map.
//!
//! GETRF's domain without pivoting is fully permutable too, but the pivot search of step
//! k needs all of column k updated, which no tiling along i provides: as in dgetrf, the
//! first tile of each block step k factors the whole panel (columns of the block, all
//! rows below, with pivoting, `ps_getrf_panel`) and applies its row interchanges to the
//! other columns; interchanges commute with the pending updates of earlier steps, which
//! act row by row with each row's own multipliers. The tiles then run only their points
//! right of the panel: the block row of U through the strip solver, the trailing tiles
//! through the packed path (masked where a tile reaches into the panel's columns).

use super::nest::catalogue_nest;
use super::runtime::{self, Operands};
use super::solve::{dispatch, dispatch_gated, size_decls, stored};
use super::{c_body, header, indent, omp, KernelError, Layout, Request, Uplo};
use crate::catalogue::Kernel;
use std::fmt::Write;

/// Default block size of POTRF and GETRF (all three tile sizes).
const NB: i64 = 128;

pub fn emit_potrf(req: &Request) -> Result<String, KernelError> {
    let upper = req.uplo == Some(Uplo::Upper);
    let (ra, ca) = stored(req.layout, "lda");
    // The lower factor L(i, j): A(i, j), or A(j, i) when the upper triangle holds U = L^T.
    let (rs, cs) = if upper { (ca, ra) } else { (ra, ca) };
    // Catalogue S[j, i, k]; loops k, j, i (block column k, then its blocks left to right).
    let (spec, nest) = catalogue_nest(
        Kernel::Potrf,
        &[2, 0, 1],
        &["sz_k", "sz_j", "sz_i"],
        true,
        &["k", "j", "i"],
    )?;
    let ops = Operands {
        // Strides as constants where they are 1 (vectorisable packing); B reads A too.
        opa: format!("a[(i) * ({rs}) + (l) * ({cs})]"),
        opa_i_contiguous: rs == "1",
        opb: format!(
            "b[(j) * ({}) + (l) * ({})]",
            rs.replace("lda", "ldb"),
            cs.replace("lda", "ldb")
        ),
        opb_l_contiguous: cs == "1",
        a_mask: None,
        c_mask: Some("(j) <= (i)".into()),
        a_lend: None,
    };
    let mut s = header(req);
    s.push_str(&runtime::blocked("potrf", &ops));
    s.push_str(&runtime::solver());
    s.push_str(
        r#"
/* Cholesky of the nb x nb block L(r, c) = a[r * rs + c * cs] in place (lower triangle,
   updates from earlier blocks applied): 0, or the 1-based column of the first pivot that
   is not positive (left there, as dpotf2 does). Right-looking by columns when columns are
   contiguous (unit-stride updates), left-looking by rows (unit-stride dot products)
   otherwise; both orders respect the catalogue nest's dependences. */
static int64_t ps_potf2(double *a, int64_t rs, int64_t cs, int64_t nb)
{
  if (rs == 1) {
    for (int64_t j = 0; j < nb; j++) {
      double *cj = a + j * cs;
      double d = cj[j];
      if (!(d > 0.0)) return j + 1;
      d = sqrt(d);
      cj[j] = d;
      for (int64_t i = j + 1; i < nb; i++) cj[i] /= d;
      for (int64_t q = j + 1; q < nb; q++) ps_axpy_neg(nb - q, cj[q], cj + q, a + q * cs + q);
    }
    return 0;
  }
  /* Rows are contiguous here (cs == 1: the only other index map). */
  for (int64_t i = 0; i < nb; i++) {
    double *ri = a + i * rs;
    for (int64_t j = 0; j < i; j++) {
      const double *rj = a + j * rs;
      ri[j] = (ri[j] - ps_dot(j, ri, rj)) / rj[j];
    }
    double d = ri[i] - ps_dot(i, ri, ri);
    if (!(d > 0.0)) {
      /* Rows below i are untouched: i is the first column whose pivot fails. */
      ri[i] = d;
      return i + 1;
    }
    ri[i] = sqrt(d);
  }
  return 0;
}

/* One tile (origins k0, j0, i0) of the factorisation of the n x n L: a pure update (its
   k-range ends before its j-range) through the packed path, masked to j <= i where it
   reaches the diagonal; with equal j and k sizes, the diagonal block's Cholesky or a
   triangular solve for a block below it; 0 when none applies. Once a pivot failed
   (*info > 0), nothing more runs (dpotrf stops there too). */
static int ps_potrf_step(ps_ws *w, double *a, int64_t rs, int64_t cs, int64_t n, int64_t *info,
                         int64_t k0, int64_t j0, int64_t i0, int64_t szk, int64_t szj, int64_t szi)
{
  if (*info) return 1;
  ps_blk *b = &w->blk;
  if (k0 + szk <= j0) {
    if (i0 < j0 + szj) ps_potrf_part(b, i0, j0, k0);
    else ps_potrf_full(b, i0, j0, k0);
    return 1;
  }
  if (k0 == j0 && szk == szj && szj <= w->nbd) {
    const int64_t nb = szj < n - j0 ? szj : n - j0;
    double *d = a + j0 * (rs + cs);
    if (i0 == j0 && szi == szj) {
      const int64_t f = ps_potf2(d, rs, cs, nb);
      if (f) *info = j0 + f;
      return 1;
    }
    if (i0 >= j0 + szj) {
      /* L(I, J) := L(I, J) inv(L(J, J))^T, i.e. L(J, J) X = L(I, J)^T for X = L(I, J)^T. */
      const int64_t mi = szi < n - i0 ? szi : n - i0;
      if (mi > 0) ps_trsm_diag(w, d, rs, cs, a + i0 * rs + j0 * cs, cs, rs, nb, mi, 0);
      return 1;
    }
  }
  return 0;
}
"#,
    );
    let fast = "ps_potrf_step(PS_W, ps_a, ps_rs, ps_cs, n, &ps_info, (t1) * sz_k, (t2) * sz_j, (t3) * sz_i, sz_k, sz_j, sz_i)";
    let (defs, undefs) = dispatch(&nest, fast, &["sz_k", "sz_j", "sz_i"]);
    // Within one (k, j) block pair whose k-range ends before the j-range, the tiles along
    // i are updates of disjoint blocks from finished columns: independent. (The solves
    // below a diagonal block are independent too, but they share their loop with that
    // block, which must come first.)
    let fragment = if req.openmp {
        omp::parallelize(&nest.fragment, "t3", |_| {
            "(t1) * sz_k + sz_k <= (t2) * sz_j && sz_i * sz_j * sz_k >= PS_OMP_MIN".into()
        })
    } else {
        nest.fragment.clone()
    };
    let body = c_body(spec.body);
    let _ = write!(
        s,
        r#"
#define PS_A(r, c) ps_a[(r) * ps_rs + (c) * ps_cs]

/* Cholesky factorisation as LAPACKE_dpotrf ({layout}-major, {uplo}): A N x N symmetric
   positive definite, its {tri} triangle overwritten by {factor}; the other triangle is not
   read. Returns 0, or k > 0 when the leading minor of order k is not positive definite
   (the factorisation stops there), -1 for N < 0, -3 for lda < max(1, N).
   tile_sizes = {{size along j, i, k}} of the catalogue domain {domain}
   (j, i: column and row of L, k: the reduction); values below 1 count as 1, values
   above N as N. Equal j and k sizes let diagonal blocks run the block solvers. */
int64_t polyscan_dpotrf_tiled(int64_t N, double *A, int64_t lda, const int64_t *tile_sizes)
{{
  if (N < 0) return -1;
  if (lda < (N > 1 ? N : 1)) return -3;
  if (N == 0) return 0;
  const int64_t n = N;
  double *ps_a = A;
  const int64_t ps_rs = {rs}, ps_cs = {cs};
  int64_t ps_info = 0;
{sizes}  const ps_blk blk0 = {{ .a = ps_a, .b = ps_a, .lda = lda, .ldb = lda, .c = ps_a, .rs_c = ps_rs, .cs_c = ps_cs, .alpha = -1.0,
                       .m = n, .n = n, .k = n, .ars = ps_rs, .acs = ps_cs, .brs = ps_rs, .bcs = ps_cs }};
{state}#define S(k, j, i) do {{ if (ps_info == 0) {{ if ((k) == (j) && (i) == (j) && !(PS_A(j, j) > 0.0)) ps_info = (j) + 1; else {{ {body}; }} }} }} while (0)
{defs}{fragment}{undefs}{free}  return ps_info;
}}

/* Default tile sizes: blocks of {nb} (moved within [s/2, s] to fit N). */
int64_t polyscan_dpotrf(int64_t N, double *A, int64_t lda)
{{
  const int64_t nb = ps_pick_size(N, {nb}, PS_MR);
  const int64_t ts[3] = {{ nb, nb, nb }};
  return polyscan_dpotrf_tiled(N, A, lda, ts);
}}
#undef PS_A
"#,
        layout = if req.layout == Layout::Col {
            "column"
        } else {
            "row"
        },
        uplo = if upper { "upper" } else { "lower" },
        tri = if upper { "upper" } else { "lower" },
        factor = if upper {
            "U with A = U^T U"
        } else {
            "L with A = L L^T"
        },
        domain = spec.domain,
        sizes = size_decls(&[("j", "n"), ("i", "n"), ("k", "n")]),
        state = omp::state_decl(
            req.openmp,
            "ps_ws",
            "PS_W",
            "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_k, sz_j)"
        ),
        fragment = indent(&fragment, "  "),
        free = omp::state_free(req.openmp, "PS_W", "ps_ws_free"),
        nb = NB,
    );
    Ok(s)
}

pub fn emit_getrf(req: &Request) -> Result<String, KernelError> {
    let col = req.layout == Layout::Col;
    let (rs, cs) = stored(req.layout, "lda");
    // Catalogue S[k, i, j]; loops k, j, i (block step k, then block columns, the block
    // row of U first in each).
    let (spec, nest) = catalogue_nest(
        Kernel::Getrf,
        &[0, 2, 1],
        &["sz_k", "sz_j", "sz_i"],
        true,
        &["k", "j", "i"],
    )?;
    let ops = Operands {
        opa: format!("a[(i) * ({rs}) + (l) * ({cs})]"),
        opa_i_contiguous: col,
        opb: format!(
            "b[(l) * ({}) + (j) * ({})]",
            rs.replace("lda", "ldb"),
            cs.replace("lda", "ldb")
        ),
        opb_l_contiguous: col,
        a_mask: None,
        c_mask: Some("(j) >= x->lo".into()),
        a_lend: None,
    };
    // The rank-1 updates of the panel with the unit-stride index innermost.
    let panel_update = if col {
        "    for (int64_t j = k + 1; j < c1; j++) {\n\
         \x20     const double u = PS_P(k, j);\n\
         \x20     if (u != 0.0) ps_axpy_neg(M - k - 1, u, &PS_P(k + 1, k), &PS_P(k + 1, j));\n\
         \x20   }\n"
    } else {
        "    for (int64_t i = k + 1; i < M; i++) {\n\
         \x20     const double l = PS_P(i, k);\n\
         \x20     if (l != 0.0) ps_axpy_neg(c1 - k - 1, l, &PS_P(k, k + 1), &PS_P(i, k + 1));\n\
         \x20   }\n"
    };
    let mut s = header(req);
    s.push_str(&runtime::blocked("getrf", &ops));
    s.push_str(&runtime::solver());
    let _ = write!(
        s,
        r#"
/* State of one factorisation: the matrix (A(r, c) = a[r * rs + c * cs]), the block
   step's panel [k0, pend) once factored (`done`: columns factored so far), pivots, info. */
typedef struct {{
  double *a;
  int64_t rs, cs, m, n, kmax, szk, done, pend, info;
  int64_t *ipiv;
}} ps_lu;

"#
    );
    s.push_str(&PANEL_AND_STEP.replace("PANEL_UPDATE", panel_update));
    let fast = "ps_getrf_step(packed ? PS_W : NULL, &ps_lu, (t1) * sz_k, (t2) * sz_j, (t3) * sz_i, sz_j, sz_i)";
    let (defs, undefs) = dispatch_gated(&nest, fast, &["sz_k", "sz_j", "sz_i"]);
    // (The gated form: the panel must run even without pack buffers.)
    // Tiles of one block step right of its panel and below its block row are updates of
    // disjoint blocks from finished operands: independent once the panel is factored.
    let fragment = if req.openmp {
        omp::parallelize(&nest.fragment, "t3", |lb| {
            format!(
                "packed && ps_lu.done > (t1) * sz_k && (t2) * sz_j >= ps_lu.pend && ({lb}) * sz_i >= ps_lu.pend \
                 && sz_i * sz_j * sz_k >= PS_OMP_MIN"
            )
        })
    } else {
        nest.fragment.clone()
    };
    let body = c_body(spec.body);
    let _ = write!(
        s,
        r#"
#define PS_A(r, c) ps_a[(r) * ps_rs + (c) * ps_cs]

/* LU factorisation with partial pivoting as LAPACKE_dgetrf ({layout}-major): A M x N
   overwritten by L (unit lower, below the diagonal) and U; ipiv[0 .. min(M, N) - 1] the
   1-based pivot rows (row k was interchanged with row ipiv[k]). Returns 0, or k > 0 when
   U(k, k) is exactly zero (the factorisation is completed), -1 for M < 0, -2 for N < 0,
   -4 for lda too small.
   tile_sizes = {{size along k, i, j}} of the catalogue domain {domain}
   (bound with n = max(M, N); points outside M x N are skipped); values below 1 count as 1,
   values above the extents as the extents. Equal k and i sizes let the block rows of U
   run the strip solver. */
int64_t polyscan_dgetrf_tiled(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv, const int64_t *tile_sizes)
{{
  if (M < 0) return -1;
  if (N < 0) return -2;
  if (lda < ({ld_need} > 1 ? {ld_need} : 1)) return -4;
  if (M == 0 || N == 0) return 0;
  const int64_t n = M > N ? M : N, kmax = M < N ? M : N;
  double *ps_a = A;
  const int64_t ps_rs = {rs}, ps_cs = {cs};
{sizes}  ps_lu ps_lu = {{ .a = ps_a, .rs = ps_rs, .cs = ps_cs, .m = M, .n = N, .kmax = kmax, .szk = sz_k,
                  .done = 0, .pend = 0, .info = 0, .ipiv = ipiv }};
  const ps_blk blk0 = {{ .a = ps_a, .b = ps_a, .lda = lda, .ldb = lda, .c = ps_a, .rs_c = ps_rs, .cs_c = ps_cs, .alpha = -1.0,
                       .m = M, .n = N, .k = kmax, .ars = ps_rs, .acs = ps_cs, .brs = ps_rs, .bcs = ps_cs }};
{state}  /* Points of the panel (j < pend) are the panel routine's; the others run the body. */
#define S(k, j, i) do {{ if ((j) >= ps_lu.pend && (i) < M && (j) < N) {{ {body}; }} }} while (0)
{defs}{fragment}{undefs}  /* Block steps without points (only the last row's pivot is left). */
  while (ps_lu.done < kmax) ps_getrf_panel(&ps_lu, packed ? PS_W : NULL, ps_lu.done);
{free}  return ps_lu.info;
}}

/* Default tile sizes: blocks of {nb} (moved within [s/2, s] to fit min(M, N)). */
int64_t polyscan_dgetrf(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv)
{{
  const int64_t nb = ps_pick_size(M < N ? M : N, {nb}, PS_MR);
  const int64_t ts[3] = {{ nb, nb, nb }};
  return polyscan_dgetrf_tiled(M, N, A, lda, ipiv, ts);
}}
#undef PS_A
"#,
        layout = if col { "column" } else { "row" },
        ld_need = if col { "M" } else { "N" },
        domain = spec.domain,
        sizes = size_decls(&[("k", "kmax"), ("i", "M"), ("j", "N")]),
        state = omp::state_decl(
            req.openmp,
            "ps_ws",
            "PS_W",
            "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_k, sz_k)"
        ),
        fragment = indent(&fragment, "  "),
        free = omp::state_free(req.openmp, "PS_W", "ps_ws_free"),
        nb = NB,
    );
    Ok(s)
}

/// GETRF's run-time part: the recursive panel factorisation and the tile dispatcher
/// (`PANEL_UPDATE`: the rank-1 updates in the layout's unit-stride order).
const PANEL_AND_STEP: &str = r#"
#define PS_P(r, c) a[(r) * rs + (c) * cs]
/* Columns [c0, c1) of the panel [k0, pend), rows c0..m-1, all earlier steps applied to
   them: dgetf2 below 16 columns (pivot search, interchange across the whole panel,
   multipliers divided by the pivot as the catalogue body does, rank-1 updates of these
   columns); above, as dgetrf2 does, the left half recursively, then the right half's rows
   of U by a unit lower solve and its rows below by the micro-kernel (ps_gemm_sub), then
   the right half recursively. Interchanges of rows below the step commute with pending
   updates (those act row by row), so applying them at once across the panel is exact.
   An exactly zero pivot sets info (first one) and skips the division, as dgetf2 does. */
static void ps_getrf_rec(ps_lu *c, ps_ws *w, int64_t k0, int64_t pend, int64_t c0, int64_t c1)
{
  double *a = c->a;
  const int64_t rs = c->rs, cs = c->cs, M = c->m;
  if (c1 - c0 > 16 && w != NULL && c1 - c0 <= w->nbd) {
    int64_t h = (c1 - c0) / 2 / PS_MR * PS_MR;
    if (h < 1) h = (c1 - c0) / 2;
    const int64_t mid = c0 + h;
    ps_getrf_rec(c, w, k0, pend, c0, mid);
    ps_trsm_diag(w, &PS_P(c0, c0), rs, cs, &PS_P(c0, mid), rs, cs, h, c1 - mid, 1);
    ps_gemm_sub(w, M - mid, c1 - mid, h, &PS_P(mid, c0), rs, cs, &PS_P(c0, mid), rs, cs, &PS_P(mid, mid), rs, cs);
    ps_getrf_rec(c, w, k0, pend, mid, c1);
    return;
  }
  for (int64_t k = c0; k < c1; k++) {
    int64_t p = k;
    double best = fabs(PS_P(k, k));
    for (int64_t i = k + 1; i < M; i++)
      if (fabs(PS_P(i, k)) > best) { best = fabs(PS_P(i, k)); p = i; }
    c->ipiv[k] = p + 1;
    if (PS_P(p, k) != 0.0) {
      if (p != k)
        for (int64_t j = k0; j < pend; j++) { double t = PS_P(k, j); PS_P(k, j) = PS_P(p, j); PS_P(p, j) = t; }
      const double piv = PS_P(k, k);
      for (int64_t i = k + 1; i < M; i++) PS_P(i, k) = PS_P(i, k) / piv;
    } else if (c->info == 0) {
      c->info = k + 1;
    }
PANEL_UPDATE  }
}

/* The panel of the block step at k0: columns [k0, min(k0 + szk, kmax)), then its
   interchanges applied to the columns left and right of it, as dlaswp does in dgetrf. */
static void ps_getrf_panel(ps_lu *c, ps_ws *w, int64_t k0)
{
  double *a = c->a;
  const int64_t rs = c->rs, cs = c->cs, N = c->n;
  const int64_t pend = k0 + c->szk < c->kmax ? k0 + c->szk : c->kmax;
  ps_getrf_rec(c, w, k0, pend, k0, pend);
  /* Column by column (each column's rows stay in cache) where columns are contiguous,
     interchange by interchange otherwise; the same interchanges in the same order. */
  if (rs == 1) {
    for (int64_t j = 0; j < N; j++) {
      if (j == k0) j = pend;
      if (j >= N) break;
      double *col = &PS_P(0, j);
      for (int64_t k = k0; k < pend; k++) {
        const int64_t p = c->ipiv[k] - 1;
        double t = col[k]; col[k] = col[p]; col[p] = t;
      }
    }
  } else {
    for (int64_t k = k0; k < pend; k++) {
      const int64_t p = c->ipiv[k] - 1;
      if (p == k) continue;
      for (int64_t j = 0; j < k0; j++) { double t = PS_P(k, j); PS_P(k, j) = PS_P(p, j); PS_P(p, j) = t; }
      for (int64_t j = pend; j < N; j++) { double t = PS_P(k, j); PS_P(k, j) = PS_P(p, j); PS_P(p, j) = t; }
    }
  }
  c->done = c->pend = pend;
}
#undef PS_P

/* One tile (origins k0, j0, i0). Its first visit of a block step factors the step's
   panel; the tile then has only its points right of the panel left: rows below the
   panel's block are a pure update (packed path, masked to the columns right of the
   panel); the rows of the panel's block with equal i and k extents are a unit lower
   triangular solve; 0 when neither applies (w == NULL: no pack buffers). */
static int ps_getrf_step(ps_ws *w, ps_lu *c, int64_t k0, int64_t j0, int64_t i0, int64_t szj, int64_t szi)
{
  if (k0 >= c->kmax) return 1; /* no point of the domain has k >= min(M, N) */
  if (c->done <= k0) ps_getrf_panel(c, w, k0);
  const int64_t pend = c->pend;
  const int64_t jlo = j0 > pend ? j0 : pend, jhi = j0 + szj < c->n ? j0 + szj : c->n;
  const int64_t ihi = i0 + szi < c->m ? i0 + szi : c->m;
  if (jlo >= jhi || i0 >= ihi) return 1;
  if (w == NULL) return 0;
  if (i0 >= pend) {
    w->blk.lo = pend;
    if (j0 < pend) ps_getrf_part(&w->blk, i0, j0, k0);
    else ps_getrf_full(&w->blk, i0, j0, k0);
    return 1;
  }
  if (i0 == k0 && ihi == pend && pend - k0 <= w->nbd) {
    double *a = c->a;
    const int64_t rs = c->rs, cs = c->cs;
    ps_trsm_diag(w, a + k0 * (rs + cs), rs, cs, a + k0 * rs + jlo * cs, rs, cs, pend - k0, jhi - jlo, 1);
    return 1;
  }
  return 0;
}
"#;
