//! The C run-time part of blocked kernels, printed next to the generated nest: the 8x6
//! register-blocked micro-kernel (GCC vector extensions), packing of the two operands of a
//! GEMM-shaped update into micro-panels, the macro-kernel a full tile runs, and the
//! choice of default tile sizes at run time.
//!
//! The structure is BLIS's (Van Zee and van de Geijn 2015; Low et al. 2016): the nest's
//! outer tile loops are BLIS's jc, pc, ic loops, a full tile packs its kc x nc panel of
//! op(B) (once per (jc, pc): the pack is kept while the tile origin is unchanged) and its
//! mc x kc block of op(A), then runs the jr, ir loops over micro-tiles. Edge micro-tiles of
//! a tile (sizes that are not multiples of MR, NR) are packed with zeros and written
//! through a scratch tile; masked tiles (triangular domains) the same way.

use std::fmt::Write;

/// Rows of the micro-tile (two 4-wide vectors).
pub const MR: i64 = 8;
/// Columns of the micro-tile (12 accumulators + 2 rows of A + 1 broadcast = 15 of 16 ymm).
pub const NR: i64 = 6;

/// How a GEMM-shaped update reads its operands: C expression texts over the local
/// variables `a`, `lda` (op(A), m x k), `b`, `ldb` (op(B), k x n) of the packing routines.
pub struct Operands {
    /// `op(A)(i, l)` with macro parameters `i`, `l`.
    pub opa: String,
    /// Whether consecutive `i` of op(A) are adjacent in memory (packing loop order).
    pub opa_i_contiguous: bool,
    /// `op(B)(l, j)` with macro parameters `l`, `j`.
    pub opb: String,
    /// Whether consecutive `l` of op(B) are adjacent in memory.
    pub opb_l_contiguous: bool,
    /// For triangular domains, the constraint on (i, l) (over macro parameters `i`, `l`):
    /// op(A) is packed with zeros outside it, so sums over a tile's l-range stop at the
    /// domain's edge (TRMM: `l <= i`).
    pub a_mask: Option<String>,
    /// For triangular domains, the constraint on (i, j): only those result elements are
    /// written (SYRK: `j <= i`). With either mask, partial tiles run the packed path too.
    pub c_mask: Option<String>,
    /// With `a_mask`: the end (exclusive) of the l-range inside it for rows up to `i`, so
    /// that a micro-panel's all-zero tail of the reduction is skipped (TRMM: `i + 1`).
    pub a_lend: Option<String>,
}

/// Shared helpers: vector type, micro-kernel, block state, default-size choice. Printed
/// once per file (the names are `static`).
pub fn common() -> String {
    format!(
        r#"typedef double ps_v4d __attribute__((vector_size(32)));
/* Unaligned view for loads and stores of C (columns of C need not be 32-byte aligned). */
typedef double ps_v4du __attribute__((vector_size(32), aligned(8)));
#define PS_MR {MR}
#define PS_NR {NR}

/* c(0..7, 0..5) += alpha * a * b over kc: a holds kc columns of 8, b kc rows of 6 (packed,
   32-byte aligned); c has row stride rs and column stride cs. Twelve accumulators stay in
   registers; the column-contiguous case (rs == 1) loads and stores C as vectors. Not
   inlined: inlined into the macro-kernel's two call sites, gcc spilled accumulators and
   the kernel ran at a third of its speed. */
static __attribute__((noinline, unused)) void ps_ukernel(int64_t kc, const double *restrict a, const double *restrict b,
                              double *restrict c, int64_t rs, int64_t cs, double alpha)
{{
  ps_v4d c00 = {{0}}, c01 = {{0}}, c02 = {{0}}, c03 = {{0}}, c04 = {{0}}, c05 = {{0}};
  ps_v4d c10 = {{0}}, c11 = {{0}}, c12 = {{0}}, c13 = {{0}}, c14 = {{0}}, c15 = {{0}};
  for (int64_t r = 0; r < PS_NR; r++) __builtin_prefetch(c + r * cs, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {{
    const ps_v4d a0 = *(const ps_v4d *)a, a1 = *(const ps_v4d *)(a + 4);
    __builtin_prefetch(a + 64, 0, 3);
    c00 += a0 * b[0]; c10 += a1 * b[0];
    c01 += a0 * b[1]; c11 += a1 * b[1];
    c02 += a0 * b[2]; c12 += a1 * b[2];
    c03 += a0 * b[3]; c13 += a1 * b[3];
    c04 += a0 * b[4]; c14 += a1 * b[4];
    c05 += a0 * b[5]; c15 += a1 * b[5];
    a += PS_MR;
    b += PS_NR;
  }}
  ps_v4d lo[PS_NR] = {{c00, c01, c02, c03, c04, c05}};
  ps_v4d hi[PS_NR] = {{c10, c11, c12, c13, c14, c15}};
  if (rs == 1) {{
    for (int64_t j = 0; j < PS_NR; j++) {{
      ps_v4du *col = (ps_v4du *)(c + j * cs);
      col[0] += alpha * lo[j];
      *(ps_v4du *)(c + j * cs + 4) += alpha * hi[j];
    }}
  }} else {{
    for (int64_t j = 0; j < PS_NR; j++)
      for (int64_t i = 0; i < 4; i++) {{
        c[i * rs + j * cs] += alpha * lo[j][i];
        c[(i + 4) * rs + j * cs] += alpha * hi[j][i];
      }}
  }}
}}

/* State of one call: operands, sizes, the packed block of op(A) and panel of op(B), and
   the tile origins they were packed for (so a pack is reused while its origin holds). */
typedef struct {{
  const double *a, *b;
  int64_t lda, ldb;
  double *c;
  int64_t rs_c, cs_c;
  double alpha;
  int64_t mc, nc, kc;
  int64_t m, n, k; /* extents of i, j, l: tiles are clipped to them */
  /* Element strides of op(A) along i, l and of op(B) along l, j for kernels that read
     their operands through index maps (solvers, factorisations); `lo`: a mask's bound. */
  int64_t ars, acs, brs, bcs, lo;
  double *pa, *pb;
  int64_t pa_i, pa_l, pb_l, pb_j;
}} ps_blk;

static __attribute__((unused)) int ps_blk_init(ps_blk *x, int64_t mc, int64_t nc, int64_t kc)
{{
  x->mc = mc; x->nc = nc; x->kc = kc;
  x->pa_i = x->pa_l = x->pb_l = x->pb_j = -1;
  /* Rounded up to whole micro-panels (zero padded) and to the 64-byte alignment unit. */
  size_t na = (size_t)((mc + PS_MR - 1) / PS_MR * PS_MR) * (size_t)kc * sizeof(double);
  size_t nb = (size_t)((nc + PS_NR - 1) / PS_NR * PS_NR) * (size_t)kc * sizeof(double);
  na = (na + 63) / 64 * 64;
  nb = (nb + 63) / 64 * 64;
  x->pa = aligned_alloc(64, na);
  x->pb = aligned_alloc(64, nb);
  if (x->pa == NULL || x->pb == NULL) {{
    free(x->pa); free(x->pb);
    x->pa = x->pb = NULL;
    return 0;
  }}
  return 1;
}}

static __attribute__((unused)) void ps_blk_free(ps_blk *x) {{ free(x->pa); free(x->pb); }}

/* A tile size for an extent of `ext` iterations near the model's `s0`: the candidate in
   [s0/2, s0] (or `ext` itself when it fits) that minimises the work of full tiles padded to
   the micro-tile `unit` plus eight times the iterations left to partial tiles, which run
   the generic loops about eight times slower. */
static __attribute__((unused)) int64_t ps_pick_size(int64_t ext, int64_t s0, int64_t unit)
{{
  if (s0 < 1) s0 = 1;
  if (ext <= s0) return ext < 1 ? 1 : ext;
  int64_t best = s0, best_cost = INT64_MAX;
  for (int64_t s = s0; s >= (s0 + 1) / 2; s--) {{
    int64_t q = ext / s, left = ext - q * s;
    int64_t cost = q * ((s + unit - 1) / unit * unit) + 8 * left;
    if (cost < best_cost) {{ best = s; best_cost = cost; }}
  }}
  return best;
}}
"#
    )
}

/// Packing routines and the macro-kernel for one kernel, named `ps_<tag>_*`: `full`
/// for full tiles and, for kernels with masks, `part` for partial tiles.
pub fn blocked(tag: &str, ops: &Operands) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "#define PS_OPA(i, l) ({})", ops.opa);
    let _ = writeln!(s, "#define PS_OPB(l, j) ({})", ops.opb);
    let _ = writeln!(
        s,
        "#define PS_AMASK(i, l) ({})",
        ops.a_mask.as_deref().unwrap_or("1")
    );
    let _ = writeln!(
        s,
        "#define PS_CMASK(i, j) ({})",
        ops.c_mask.as_deref().unwrap_or("1")
    );
    let _ = writeln!(
        s,
        "#define PS_LEND(i) ({})",
        ops.a_lend.as_deref().unwrap_or("INT64_MAX")
    );
    // Packing A: micro-panel ir holds rows ir..ir+MR-1 as kc columns of MR; rows past the
    // extent and entries outside the domain (the mask) are zeros.
    let pack_a_inner = if ops.opa_i_contiguous {
        "    for (int64_t p = 0; p < kc; p++)\n\
         \x20     for (int64_t r = 0; r < PS_MR; r++)\n\
         \x20       d[p * PS_MR + r] = r < mr && PS_AMASK(i0 + ir + r, l0 + p) ? PS_OPA(i0 + ir + r, l0 + p) : 0.0;\n"
    } else {
        "    for (int64_t r = 0; r < PS_MR; r++)\n\
         \x20     for (int64_t p = 0; p < kc; p++)\n\
         \x20       d[p * PS_MR + r] = r < mr && PS_AMASK(i0 + ir + r, l0 + p) ? PS_OPA(i0 + ir + r, l0 + p) : 0.0;\n"
    };
    let pack_b_inner = if ops.opb_l_contiguous {
        "    for (int64_t q = 0; q < PS_NR; q++)\n\
         \x20     for (int64_t p = 0; p < kc; p++)\n\
         \x20       d[p * PS_NR + q] = q < nr ? PS_OPB(l0 + p, j0 + jr + q) : 0.0;\n"
    } else {
        "    for (int64_t p = 0; p < kc; p++)\n\
         \x20     for (int64_t q = 0; q < PS_NR; q++)\n\
         \x20       d[p * PS_NR + q] = q < nr ? PS_OPB(l0 + p, j0 + jr + q) : 0.0;\n"
    };
    let masked = ops.a_mask.is_some() || ops.c_mask.is_some();
    let _ = write!(
        s,
        r#"
/* Packs (once per origin) the mc x kc block of op(A) at (i0, l0), clipped to the extents:
   the extents depend on the origin only, so a pack is valid for every tile sharing it. */
static void ps_{tag}_pack_a(ps_blk *x, int64_t i0, int64_t l0)
{{
  if (x->pa_i == i0 && x->pa_l == l0) return;
  const double *a = x->a;
  const int64_t lda = x->lda;
  const int64_t mc = x->mc < x->m - i0 ? x->mc : x->m - i0;
  const int64_t kc = x->kc < x->k - l0 ? x->kc : x->k - l0;
  (void)lda;
  for (int64_t ir = 0; ir < mc; ir += PS_MR) {{
    double *d = x->pa + ir * kc;
    const int64_t mr = mc - ir < PS_MR ? mc - ir : PS_MR;
{pack_a_inner}  }}
  x->pa_i = i0; x->pa_l = l0;
}}

static void ps_{tag}_pack_b(ps_blk *x, int64_t l0, int64_t j0)
{{
  if (x->pb_l == l0 && x->pb_j == j0) return;
  const double *b = x->b;
  const int64_t ldb = x->ldb;
  const int64_t nc = x->nc < x->n - j0 ? x->nc : x->n - j0;
  const int64_t kc = x->kc < x->k - l0 ? x->kc : x->k - l0;
  (void)ldb;
  for (int64_t jr = 0; jr < nc; jr += PS_NR) {{
    double *d = x->pb + jr * kc;
    const int64_t nr = nc - jr < PS_NR ? nc - jr : PS_NR;
{pack_b_inner}  }}
  x->pb_l = l0; x->pb_j = j0;
}}

/* The tile with origin (i0, j0, l0), clipped to the extents: C(i0.., j0..) += alpha op(A)
   op(B) by micro-tiles (jr outer so a kc x NR sliver of B stays in L1). With `masked`,
   micro-tiles go through a scratch tile and only elements inside PS_CMASK are added;
   micro-tiles wholly outside it are skipped. */
static void ps_{tag}_tile(ps_blk *x, int64_t i0, int64_t j0, int64_t l0, int masked)
{{
  ps_{tag}_pack_b(x, l0, j0);
  ps_{tag}_pack_a(x, i0, l0);
  const int64_t mc = x->mc < x->m - i0 ? x->mc : x->m - i0;
  const int64_t nc = x->nc < x->n - j0 ? x->nc : x->n - j0;
  const int64_t kc = x->kc < x->k - l0 ? x->kc : x->k - l0;
  const int64_t rs = x->rs_c, cs = x->cs_c;
  for (int64_t jr = 0; jr < nc; jr += PS_NR) {{
    const int64_t nr = nc - jr < PS_NR ? nc - jr : PS_NR;
    for (int64_t ir = 0; ir < mc; ir += PS_MR) {{
      const int64_t mr = mc - ir < PS_MR ? mc - ir : PS_MR;
      double *c = x->c + (i0 + ir) * rs + (j0 + jr) * cs;
      int inside = 1, any = 1;
      if (masked) {{
        /* The mask is tested at the corners: it is a half-plane (one linear constraint). */
        int64_t ia = i0 + ir, ib = ia + mr - 1, ja = j0 + jr, jb = ja + nr - 1;
        int c00 = PS_CMASK(ia, ja), c01 = PS_CMASK(ia, jb), c10 = PS_CMASK(ib, ja), c11 = PS_CMASK(ib, jb);
        (void)ib; (void)jb; /* unused when the mask is constant */
        inside = c00 && c01 && c10 && c11;
        any = c00 || c01 || c10 || c11;
      }}
      /* Beyond PS_LEND the packed rows of op(A) are zeros: a shorter reduction. */
      const int64_t lend = PS_LEND(i0 + ir + mr - 1) - l0;
      const int64_t kr = lend < kc ? lend : kc;
      if (!any || kr <= 0) continue;
      if (mr == PS_MR && nr == PS_NR && inside) {{
        ps_ukernel(kr, x->pa + ir * kc, x->pb + jr * kc, c, rs, cs, x->alpha);
      }} else {{
        double t[PS_MR * PS_NR] __attribute__((aligned(32))) = {{0}};
        ps_ukernel(kr, x->pa + ir * kc, x->pb + jr * kc, t, 1, PS_MR, x->alpha);
        for (int64_t q = 0; q < nr; q++)
          for (int64_t r = 0; r < mr; r++)
            if (PS_CMASK(i0 + ir + r, j0 + jr + q)) c[r * rs + q * cs] += t[q * PS_MR + r];
      }}
    }}
  }}
}}

static void ps_{tag}_full(ps_blk *x, int64_t i0, int64_t j0, int64_t l0) {{ ps_{tag}_tile(x, i0, j0, l0, 0); }}
"#
    );
    if masked {
        let _ = writeln!(
            s,
            "static void ps_{tag}_part(ps_blk *x, int64_t i0, int64_t j0, int64_t l0) {{ ps_{tag}_tile(x, i0, j0, l0, 1); }}"
        );
    }
    s.push_str("#undef PS_OPA\n#undef PS_OPB\n#undef PS_AMASK\n#undef PS_CMASK\n#undef PS_LEND\n");
    s
}

/// Run-time part shared by the solvers and factorisations: the per-call workspace (the
/// packed path's state plus buffers for diagonal blocks) and the blocked triangular
/// solve of one diagonal block, which runs its updates through the micro-kernel.
pub fn solver() -> String {
    r#"
/* y[0..n) -= a * x[0..n), four at a time: gcc -O2's cost model vectorises no loop of
   unknown trip count, and these are the inner loops of the block solvers. */
static inline __attribute__((unused)) void ps_axpy_neg(int64_t n, double a, const double *x, double *y)
{
  const ps_v4d av = {a, a, a, a};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) *(ps_v4du *)(y + i) -= av * *(const ps_v4du *)(x + i);
  for (; i < n; i++) y[i] -= a * x[i];
}

/* sum of x[i] * y[i] over [0, n), with four vector accumulators. */
static inline __attribute__((unused)) double ps_dot(int64_t n, const double *x, const double *y)
{
  ps_v4d s0 = {0}, s1 = {0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 += *(const ps_v4du *)(x + i) * *(const ps_v4du *)(y + i);
    s1 += *(const ps_v4du *)(x + i + 4) * *(const ps_v4du *)(y + i + 4);
  }
  s0 += s1;
  double s = s0[0] + s0[1] + s0[2] + s0[3];
  for (; i < n; i++) s += x[i] * y[i];
  return s;
}

/* Per-thread workspace: the packed update path and the diagonal-block solver's buffers
   (for blocks of up to `nbd` rows, at most 512). */
typedef struct {
  ps_blk blk;
  int64_t nbd;
  double *dpa, *dpb, *ddg, *dinv, *dgb;
} ps_ws;

static __attribute__((unused)) int ps_ws_init(ps_ws *w, const ps_blk *b0, int64_t mc, int64_t nc, int64_t kc, int64_t nbd)
{
  w->blk = *b0;
  /* Larger diagonal blocks run the catalogue body instead (buffers grow with nbd^2). */
  w->nbd = nbd = nbd < 512 ? nbd : 512;
  const int64_t nbr = (nbd + PS_MR - 1) / PS_MR * PS_MR;
  w->dpa = aligned_alloc(64, (size_t)((nbr * nbr * 8 + 63) / 64 * 64));
  w->dpb = aligned_alloc(64, (size_t)((nbr * PS_NR * 8 + 63) / 64 * 64));
  w->ddg = malloc(sizeof(double) * (size_t)(nbr * PS_MR));
  w->dinv = malloc(sizeof(double) * (size_t)nbr);
  w->dgb = malloc(sizeof(double) * (size_t)(nbr * (nbr + PS_NR)));
  if (!w->dpa || !w->dpb || !w->ddg || !w->dinv || !w->dgb || !ps_blk_init(&w->blk, mc, nc, kc)) {
    free(w->dpa); free(w->dpb); free(w->ddg); free(w->dinv); free(w->dgb);
    return 0;
  }
  return 1;
}

static __attribute__((unused)) void ps_ws_free(ps_ws *w)
{
  ps_blk_free(&w->blk);
  free(w->dpa); free(w->dpb); free(w->ddg); free(w->dinv); free(w->dgb);
}

/* C(m x n) -= A(m x k) B(k x n) through index strides (X(r, c) = x[r * xrs + c * xcs]),
   k, n <= w->nbd: B packed once into NR-wide slivers, A in blocks of up to nbd rows, the
   micro-kernel on each MR x NR tile (edge tiles through a scratch tile). */
static __attribute__((unused)) void ps_gemm_sub(ps_ws *w, int64_t m, int64_t n, int64_t k,
                                                const double *a, int64_t ars, int64_t acs,
                                                const double *b, int64_t brs, int64_t bcs,
                                                double *c, int64_t crs, int64_t ccs)
{
  if (m <= 0 || n <= 0 || k <= 0) return;
  const int64_t mbk = (w->nbd + PS_MR - 1) / PS_MR * PS_MR;
  for (int64_t jr = 0; jr < n; jr += PS_NR) {
    double *d = w->dgb + jr * k;
    const int64_t nr = n - jr < PS_NR ? n - jr : PS_NR;
    for (int64_t p = 0; p < k; p++)
      for (int64_t q = 0; q < PS_NR; q++) d[p * PS_NR + q] = q < nr ? b[p * brs + (jr + q) * bcs] : 0.0;
  }
  for (int64_t i0 = 0; i0 < m; i0 += mbk) {
    const int64_t mb = m - i0 < mbk ? m - i0 : mbk;
    for (int64_t ir = 0; ir < mb; ir += PS_MR) {
      double *d = w->dpa + ir * k;
      const int64_t mr = mb - ir < PS_MR ? mb - ir : PS_MR;
      if (ars == 1 && mr == PS_MR)
        for (int64_t p = 0; p < k; p++)
          for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = a[i0 + ir + r + p * acs];
      else
        for (int64_t r = 0; r < PS_MR; r++)
          for (int64_t p = 0; p < k; p++) d[p * PS_MR + r] = r < mr ? a[(i0 + ir + r) * ars + p * acs] : 0.0;
    }
    for (int64_t jr = 0; jr < n; jr += PS_NR) {
      const int64_t nr = n - jr < PS_NR ? n - jr : PS_NR;
      for (int64_t ir = 0; ir < mb; ir += PS_MR) {
        const int64_t mr = mb - ir < PS_MR ? mb - ir : PS_MR;
        double *ct = c + (i0 + ir) * crs + jr * ccs;
        if (mr == PS_MR && nr == PS_NR) {
          ps_ukernel(k, w->dpa + ir * k, w->dgb + jr * k, ct, crs, ccs, -1.0);
        } else {
          double t[PS_MR * PS_NR] __attribute__((aligned(32))) = {0};
          ps_ukernel(k, w->dpa + ir * k, w->dgb + jr * k, t, 1, PS_MR, -1.0);
          for (int64_t q = 0; q < nr; q++)
            for (int64_t r = 0; r < mr; r++) ct[r * crs + q * ccs] += t[q * PS_MR + r];
        }
      }
    }
  }
}

/* X := inv(T) X for the nb x nb lower triangle T(r, q) = t[r * trs + q * tcs] (diagonal
   taken as ones when `unit`) and the nb x wc block X(r, c) = x[r * xrs + c * xcs], nb <=
   w->nbd. Left-looking by strips of MR rows within each sliver of NR columns: the strip
   first subtracts its row of T times the strips above (already solved, and packed as a
   B micro-panel as they were solved) through the micro-kernel, then solves its own MR x MR
   triangle with reciprocals of the diagonal. */
_Static_assert(PS_NR <= 8, "ps_trsm_diag holds a sliver's columns in two 4-wide vectors");

static __attribute__((unused)) void ps_trsm_diag(ps_ws *w, const double *t, int64_t trs, int64_t tcs,
                                                 double *x, int64_t xrs, int64_t xcs, int64_t nb, int64_t wc, int unit)
{
  const int64_t nbr = (nb + PS_MR - 1) / PS_MR * PS_MR;
  double *pa = w->dpa, *pb = w->dpb, *dg = w->ddg, *inv = w->dinv;
  for (int64_t s = 0; s < nb; s += PS_MR) {
    const int64_t mr = nb - s < PS_MR ? nb - s : PS_MR;
    double *d = pa + s * nbr;
    for (int64_t p = 0; p < s; p++)
      for (int64_t r = 0; r < PS_MR; r++) d[p * PS_MR + r] = r < mr ? t[(s + r) * trs + p * tcs] : 0.0;
    for (int64_t r = 0; r < PS_MR; r++)
      for (int64_t q = 0; q < PS_MR; q++)
        dg[s * PS_MR + r * PS_MR + q] = r < mr && q < r ? t[(s + r) * trs + (s + q) * tcs] : 0.0;
    for (int64_t r = 0; r < mr; r++) inv[s + r] = unit ? 1.0 : 1.0 / t[(s + r) * (trs + tcs)];
  }
  for (int64_t jr = 0; jr < wc; jr += PS_NR) {
    const int64_t nr = wc - jr < PS_NR ? wc - jr : PS_NR;
    for (int64_t s = 0; s < nb; s += PS_MR) {
      const int64_t mr = nb - s < PS_MR ? nb - s : PS_MR;
      double c[PS_MR * PS_NR] __attribute__((aligned(32))) = {0};
      if (s > 0) ps_ukernel(s, pa + s * nbr, pb, c, 1, PS_MR, 1.0);
      const double *g = dg + s * PS_MR;
      /* The strip's right-hand sides minus the product, then forward substitution row by
         row with the sliver's columns in two vectors (0..3 and 4..5): no dependence
         between columns, so they go side by side. */
      ps_v4d ya[PS_MR], yb[PS_MR];
      for (int64_t r = 0; r < PS_MR; r++) {
        double e[8] = {0};
        if (r < mr)
          for (int64_t q = 0; q < nr; q++) e[q] = x[(s + r) * xrs + (jr + q) * xcs] - c[q * PS_MR + r];
        ya[r] = (ps_v4d){e[0], e[1], e[2], e[3]};
        yb[r] = (ps_v4d){e[4], e[5], e[6], e[7]};
      }
      for (int64_t r = 0; r < mr; r++) {
        ps_v4d va = ya[r], vb = yb[r];
        for (int64_t p = 0; p < r; p++) {
          va -= g[r * PS_MR + p] * ya[p];
          vb -= g[r * PS_MR + p] * yb[p];
        }
        ya[r] = va * inv[s + r];
        yb[r] = vb * inv[s + r];
      }
      for (int64_t r = 0; r < mr; r++)
        for (int64_t q = 0; q < PS_NR; q++) {
          const double v = q < 4 ? ya[r][q] : yb[r][q - 4];
          if (q < nr) x[(s + r) * xrs + (jr + q) * xcs] = v;
          pb[(s + r) * PS_NR + q] = q < nr ? v : 0.0;
        }
    }
  }
}
"#
    .to_string()
}
