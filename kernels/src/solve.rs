//! Triangular solves: TRSM (`B := alpha inv(op(A)) B` or `B := alpha B inv(op(A))`),
//! TRSV (`x := inv(op(A)) x`) for every side, triangle, transposition, diagonal and
//! layout, and TRTRI (`A := inv(A)`, a solve with the identity as right-hand side),
//! emitted from the catalogue's lower, left, non-transposed domains.
//!
//! Every flag combination is one canonical problem, `X := inv(T) X` with T lower: a
//! right-side solve is the left-side solve of the transposes, an upper triangle is a
//! lower one with rows and columns reversed, and a transposition swaps the index map's
//! strides; each ends up as a base offset and two signed strides per operand.
//!
//! The domains are fully permutable (all dependence distances are non-negative), so the
//! nest tiled in the right-looking order (j, l, i: for each block column of T, the
//! diagonal block first, then the blocks below it) is legal. A tile whose l-range lies
//! before its i-range is a pure update and runs the packed micro-kernel path; a tile on
//! the diagonal with equal i and l sizes runs the strip solver `ps_trsm_diag`; any other
//! tile runs the catalogue body in the nest's order.

use super::nest::{catalogue_nest, Nest};
use super::runtime::{self, Operands};
use super::{c_body, header, indent, omp, Diag, KernelError, Layout, Request, Side, Trans, Uplo};
use crate::catalogue::Kernel;
use std::fmt::Write;

/// Index map of one operand of the canonical problem: element (r, c) is
/// `ptr[base + r * rs + c * cs]` (C expressions).
pub(crate) struct Map {
    pub base: String,
    pub rs: String,
    pub cs: String,
    /// Whether consecutive rows are adjacent in memory (stride +1 or -1).
    pub rows_adjacent: bool,
}

/// Strides (row, column) of a matrix stored in `layout` with leading dimension `ld`.
pub(crate) fn stored(layout: Layout, ld: &str) -> (String, String) {
    match layout {
        Layout::Col => ("1".into(), ld.into()),
        Layout::Row => (ld.into(), "1".into()),
    }
}

fn neg(e: &str) -> String {
    format!("-({e})")
}

/// The canonical lower triangle T (order `order`) and the solved operand X for a
/// triangular solve with these flags. `ldb` is `None` for TRSV (X is a working vector).
fn canonical(req: &Request, order: &str, ldb: Option<&str>) -> (Map, Option<Map>) {
    let left = req.side != Some(Side::Right);
    let trans = req.trans == Some(Trans::Yes);
    let lower = req.uplo != Some(Uplo::Upper);
    // op(A) lower iff the stored triangle is lower and not transposed (or upper and
    // transposed); a right-side solve works with op(A)^T, which flips it again.
    let op_lower = lower != trans;
    let t_lower = if left { op_lower } else { !op_lower };
    let rev = !t_lower;
    let transposed = left == trans;
    let (ra, ca) = stored(req.layout, "lda");
    let (mut trs, mut tcs) = if transposed {
        (ca.clone(), ra.clone())
    } else {
        (ra.clone(), ca.clone())
    };
    let rows_adjacent = trs == "1";
    let mut tbase = "0".to_string();
    if rev {
        trs = neg(&trs);
        tcs = neg(&tcs);
        tbase = format!("({order} - 1) * ({ra} + {ca})");
    }
    let t = Map {
        base: tbase,
        rs: trs,
        cs: tcs,
        rows_adjacent,
    };
    let x = ldb.map(|ldb| {
        let (rb, cb) = stored(req.layout, ldb);
        let (mut xr, xc) = if left { (rb, cb) } else { (cb, rb) };
        let rows_adjacent = xr == "1";
        let mut base = "0".to_string();
        if rev {
            base = format!("({order} - 1) * ({xr})");
            xr = neg(&xr);
        }
        Map {
            base,
            rs: xr,
            cs: xc,
            rows_adjacent,
        }
    });
    (t, x)
}

/// `PS_FULL` and `PS_PART_k` for a nest whose tiles first try `fast` (a C expression over
/// the macro parameters `t1..tn`, true when it ran the tile) and otherwise run the
/// catalogue body `S` over the tile: the whole box for full tiles, the generated partial
/// nest for the others. `sizes[p]` is the size name of loop `p`.
pub(crate) fn dispatch(nest: &Nest, fast: &str, sizes: &[&str]) -> (String, String) {
    dispatch_gated(nest, &format!("packed && ({fast})"), sizes)
}

/// As [`dispatch`], with the whole condition given (`fast` must itself check whether the
/// pack buffers exist).
pub(crate) fn dispatch_gated(nest: &Nest, fast: &str, sizes: &[&str]) -> (String, String) {
    let n = sizes.len();
    let params: Vec<String> = (1..=n).map(|p| format!("t{p}")).collect();
    let plist = params.join(", ");
    let mut generic = String::new();
    for (p, sz) in sizes.iter().enumerate() {
        let _ = write!(
            generic,
            "for (int64_t ps_o{p} = 0; ps_o{p} < {sz}; ps_o{p}++) "
        );
    }
    let args: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(p, sz)| format!("(t{}) * {sz} + ps_o{p}", p + 1))
        .collect();
    let _ = write!(generic, "S({});", args.join(", "));
    let mut defs =
        format!("#define PS_FULL({plist}) do {{ if (!({fast})) {{ {generic} }} }} while (0)\n");
    let mut undefs = "#undef S\n#undef PS_FULL\n".to_string();
    for (k, text) in nest.partial_nests.iter().enumerate() {
        let body: Vec<&str> = text.lines().map(str::trim).collect();
        let _ = writeln!(
            defs,
            "#define PS_PART_{k}({plist}) do {{ if (!({fast})) {{ {} }} }} while (0)",
            body.join(" ")
        );
        let _ = writeln!(undefs, "#undef PS_PART_{k}");
    }
    (defs, undefs)
}

/// `sz_<name> = tile_sizes[k]` cut to [1, extent] for each (name, extent).
pub(crate) fn size_decls(names: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (k, (name, ext)) in names.iter().enumerate() {
        let _ = writeln!(
            s,
            "  const int64_t sz_{name} = tile_sizes[{k}] < 1 ? 1 : tile_sizes[{k}] > {ext} ? {ext} : tile_sizes[{k}];"
        );
    }
    s
}

fn flag_text(req: &Request) -> String {
    format!(
        "{}, {}, {}, {}",
        if req.side == Some(Side::Right) {
            "CblasRight"
        } else {
            "CblasLeft"
        },
        if req.uplo == Some(Uplo::Upper) {
            "CblasUpper"
        } else {
            "CblasLower"
        },
        if req.trans == Some(Trans::Yes) {
            "CblasTrans"
        } else {
            "CblasNoTrans"
        },
        if req.diag == Some(Diag::Unit) {
            "CblasUnit"
        } else {
            "CblasNonUnit"
        }
    )
}

/// Default size of the diagonal blocks (i and l tiles of TRSM) and of nc's upper end.
const TRSM_NB: i64 = 128;

pub fn emit_trsm(req: &Request) -> Result<String, KernelError> {
    let left = req.side != Some(Side::Right);
    let unit = req.diag == Some(Diag::Unit);
    let (order_ext, cols_ext) = if left { ("M", "N") } else { ("N", "M") };
    let (t, x) = canonical(req, order_ext, Some("ldb"));
    let x = x.ok_or_else(|| KernelError::Generation("TRSM: no index map for B".into()))?;
    // Loops j, l, i: for each column block, block columns of T left to right, the
    // diagonal tile (i = l) before the tiles below it.
    let (spec, nest) = catalogue_nest(
        Kernel::Trsm,
        &[1, 2, 0],
        &["sz_j", "sz_l", "sz_i"],
        true,
        &["j", "l", "i"],
    )?;
    let ops = Operands {
        // Strides as constants where the flags make them 1 (vectorisable packing).
        opa: format!("a[(i) * ({}) + (l) * ({})]", t.rs, t.cs),
        opa_i_contiguous: t.rows_adjacent,
        opb: format!("b[(l) * ({}) + (j) * ({})]", x.rs, x.cs),
        opb_l_contiguous: x.rows_adjacent,
        a_mask: None,
        c_mask: None,
        a_lend: None,
    };
    let mut s = header(req);
    s.push_str(&runtime::blocked("trsm", &ops));
    s.push_str(&runtime::solver());
    let _ = write!(
        s,
        r#"
/* Canonical element access (X := inv(T) X, T lower): see the index maps below. */
#define PS_B(r, c) ps_x[(r) * ps_xrs + (c) * ps_xcs]
#define PS_L(r, c) {l_at}

/* One tile of the canonical solve with origin (i0, j0, l0): a pure update (its l-range
   ends before its i-range starts) through the packed path, a diagonal tile with equal i
   and l sizes through the strip solver; 0 when neither applies. */
static int ps_trsm_step(ps_ws *w, const double *t, int64_t trs, int64_t tcs, double *x, int64_t xrs, int64_t xcs,
                        int64_t i0, int64_t j0, int64_t l0, int64_t szi, int64_t szj, int64_t szl)
{{
  ps_blk *b = &w->blk;
  if (l0 + szl <= i0) {{
    ps_trsm_full(b, i0, j0, l0);
    return 1;
  }}
  if (i0 == l0 && szi == szl && szl <= w->nbd) {{
    const int64_t nb = szl < b->m - l0 ? szl : b->m - l0;
    const int64_t wc = szj < b->n - j0 ? szj : b->n - j0;
    ps_trsm_diag(w, t + l0 * (trs + tcs), trs, tcs, x + l0 * xrs + j0 * xcs, xrs, xcs, nb, wc, {unit});
    return 1;
  }}
  return 0;
}}
"#,
        l_at = if unit {
            "((r) == (c) ? 1.0 : ps_t[(r) * ps_trs + (c) * ps_tcs])"
        } else {
            "ps_t[(r) * ps_trs + (c) * ps_tcs]"
        },
        unit = u8::from(unit),
    );
    let fast = "ps_trsm_step(PS_W, ps_t, ps_trs, ps_tcs, ps_x, ps_xrs, ps_xcs, (t3) * sz_i, (t1) * sz_j, (t2) * sz_l, sz_i, sz_j, sz_l)";
    let (defs, undefs) = dispatch(&nest, fast, &["sz_j", "sz_l", "sz_i"]);
    // Column blocks of X are independent (each solves its own right-hand sides).
    let fragment = if req.openmp {
        omp::parallelize(&nest.fragment, "t1", |_| {
            "m * m / 2 * sz_j >= PS_OMP_MIN".into()
        })
    } else {
        nest.fragment.clone()
    };
    let (ra, ca) = stored(req.layout, "ldb");
    let side_desc = if left {
        "op(A) X = alpha B, A M x M"
    } else {
        "X op(A) = alpha B, A N x N"
    };
    let nc_pick = if req.openmp {
        // With threads, enough column blocks for all of them (the only parallel loop).
        format!(
            "ps_pick_size({cols_ext}, ps_min({nc}, ps_max(PS_NR, ({cols_ext} + PS_NTHREADS - 1) / PS_NTHREADS)), PS_NR)",
            nc = req.defaults[1]
        )
    } else {
        format!("ps_pick_size({cols_ext}, {}, PS_NR)", req.defaults[1])
    };
    let _ = write!(
        s,
        r#"
/* B := X solving {side_desc}, B M x N ({layout}-major, {flags}): overwritten by the solution.
   Canonical form X := inv(T) X with T lower {order_ext} x {order_ext} and X {order_ext} x {cols_ext}.
   tile_sizes = {{size along i, j, l}} of the catalogue domain {domain}
   (i, l: rows of X and of T, j: columns of X); values below 1 count as 1, values above an
   extent as the extent. Equal i and l sizes let diagonal tiles run the strip solver. */
void polyscan_dtrsm_tiled(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb,
                          const int64_t *tile_sizes)
{{
  if (M <= 0 || N <= 0) return;
  if (alpha != 1.0)
    for (int64_t c = 0; c < N; c++)
      for (int64_t r = 0; r < M; r++) {{
        double *e = &B[r * ({ra}) + c * ({ca})];
        *e = alpha == 0.0 ? 0.0 : alpha * *e;
      }}
  if (alpha == 0.0) return;
  const int64_t m = {order_ext}, n = {cols_ext};
  const double *ps_t = A + ({tbase});
  const int64_t ps_trs = {trs}, ps_tcs = {tcs};
  double *ps_x = B + ({xbase});
  const int64_t ps_xrs = {xrs}, ps_xcs = {xcs};
{sizes}  const ps_blk blk0 = {{ .a = ps_t, .b = ps_x, .lda = lda, .ldb = ldb, .c = ps_x, .rs_c = ps_xrs, .cs_c = ps_xcs, .alpha = -1.0,
                       .m = m, .n = n, .k = m, .ars = ps_trs, .acs = ps_tcs, .brs = ps_xrs, .bcs = ps_xcs }};
{state}#define S(j, l, i) {body}
{defs}{fragment}{undefs}{free}}}

/* Default tile sizes: diagonal blocks of {nb} (moved within [s/2, s] to fit the order),
   column blocks from the cache model's nc. */
void polyscan_dtrsm(int64_t M, int64_t N, double alpha, const double *A, int64_t lda, double *B, int64_t ldb)
{{
  const int64_t nb = ps_pick_size({order_ext}, {nb}, PS_MR);
  const int64_t ts[3] = {{ nb, {nc_pick}, nb }};
  polyscan_dtrsm_tiled(M, N, alpha, A, lda, B, ldb, ts);
}}
"#,
        layout = if req.layout == Layout::Col {
            "column"
        } else {
            "row"
        },
        flags = flag_text(req),
        domain = spec.domain,
        tbase = t.base,
        trs = t.rs,
        tcs = t.cs,
        xbase = x.base,
        xrs = x.rs,
        xcs = x.cs,
        sizes = size_decls(&[("i", "m"), ("j", "n"), ("l", "m")]),
        state = omp::state_decl(
            req.openmp,
            "ps_ws",
            "PS_W",
            "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_l, sz_l)"
        ),
        body = c_body(spec.body),
        fragment = indent(&fragment, "  "),
        free = omp::state_free(req.openmp, "PS_W", "ps_ws_free"),
        nb = TRSM_NB,
    );
    s.push_str("#undef PS_B\n#undef PS_L\n");
    Ok(s)
}

/// Default tile sizes of TRSV (rows and columns of T per tile: a 256 x 256 block of T is
/// 512 KiB, streamed once; the vector blocks stay in L1).
const TRSV_NB: i64 = 256;

pub fn emit_trsv(req: &Request) -> Result<String, KernelError> {
    let unit = req.diag == Some(Diag::Unit);
    // No `--openmp` loop: every tile reads the part of the solution the tiles before it
    // wrote, and the only independent tiles (the updates below one diagonal tile) are
    // too small to pay for a parallel region.
    let (t, _) = canonical(req, "N", None);
    let rev = t.base != "0";
    // Loops j, i: each block column of T, the diagonal tile first.
    let (spec, nest) = catalogue_nest(Kernel::Trsv, &[1, 0], &["sz_j", "sz_i"], true, &["j", "i"])?;
    // Pure updates w[I] -= T[I][J] w[J]: by columns where T's columns are contiguous,
    // else by rows (dot products), so that the inner loop has unit stride.
    let update = if t.rows_adjacent {
        "  int64_t j = j0;\n\
         \x20 /* Four columns at a time: one load and store of w per four multiply-adds. */\n\
         \x20 for (; j + 4 <= je; j += 4) {\n\
         \x20   const double x0 = w[j], x1 = w[j + 1], x2 = w[j + 2], x3 = w[j + 3];\n\
         \x20   const double *c0 = t + j * tcs, *c1 = c0 + tcs, *c2 = c1 + tcs, *c3 = c2 + tcs;\n\
         \x20   int64_t i = i0;\n\
         \x20   if (trs == 1) {\n\
         \x20     const ps_v4d v0 = {x0, x0, x0, x0}, v1 = {x1, x1, x1, x1}, v2 = {x2, x2, x2, x2}, v3 = {x3, x3, x3, x3};\n\
         \x20     for (; i + 4 <= ie; i += 4)\n\
         \x20       *(ps_v4du *)(w + i) -= *(const ps_v4du *)(c0 + i) * v0 + *(const ps_v4du *)(c1 + i) * v1\n\
         \x20                            + *(const ps_v4du *)(c2 + i) * v2 + *(const ps_v4du *)(c3 + i) * v3;\n\
         \x20   }\n\
         \x20   for (; i < ie; i++)\n\
         \x20     w[i] -= c0[i * trs] * x0 + c1[i * trs] * x1 + c2[i * trs] * x2 + c3[i * trs] * x3;\n\
         \x20 }\n\
         \x20 for (; j < je; j++) {\n\
         \x20   const double xj = w[j];\n\
         \x20   const double *tc = t + j * tcs;\n\
         \x20   for (int64_t i = i0; i < ie; i++) w[i] -= tc[i * trs] * xj;\n\
         \x20 }\n"
    } else {
        "  for (int64_t i = i0; i < ie; i++) {\n\
         \x20   const double *tr = t + i * trs;\n\
         \x20   double s = 0.0;\n\
         \x20   if (tcs == 1) s = ps_dot(je - j0, tr + j0, w + j0);\n\
         \x20   else for (int64_t j = j0; j < je; j++) s += tr[j * tcs] * w[j];\n\
         \x20   w[i] -= s;\n\
         \x20 }\n"
    };
    let diag = if t.rows_adjacent {
        "  for (int64_t j = j0; j < je; j++) {\n\
         \x20   const double *tc = t + j * tcs;\n\
         \x20   const double xj = UNIT ? w[j] : w[j] / tc[j * trs];\n\
         \x20   w[j] = xj;\n\
         \x20   if (trs == 1) ps_axpy_neg(je - j - 1, xj, tc + j + 1, w + j + 1);\n\
         \x20   else for (int64_t i = j + 1; i < je; i++) w[i] -= tc[i * trs] * xj;\n\
         \x20 }\n"
    } else {
        "  for (int64_t i = j0; i < je; i++) {\n\
         \x20   const double *tr = t + i * trs;\n\
         \x20   double s = w[i];\n\
         \x20   if (tcs == 1) s -= ps_dot(i - j0, tr + j0, w + j0);\n\
         \x20   else for (int64_t j = j0; j < i; j++) s -= tr[j * tcs] * w[j];\n\
         \x20   w[i] = UNIT ? s : s / tr[i * tcs];\n\
         \x20 }\n"
    }
    .replace("UNIT", if unit { "1" } else { "0" });
    let mut s = header(req);
    s.push_str(&runtime::solver());
    let _ = write!(
        s,
        r#"
#define PS_x(e) w[e]
#define PS_L(r, c) {l_at}

/* One tile (origin i0, j0) of the canonical solve w := inv(T) w: a pure update (its
   columns end before its rows start), or a diagonal tile with equal sizes; 0 otherwise. */
static int ps_trsv_step(const double *t, int64_t trs, int64_t tcs, double *w, int64_t n,
                        int64_t i0, int64_t j0, int64_t szi, int64_t szj)
{{
  const int64_t ie = i0 + szi < n ? i0 + szi : n, je = j0 + szj < n ? j0 + szj : n;
  if (j0 + szj <= i0) {{
{update}    return 1;
  }}
  if (i0 == j0 && szi == szj) {{
{diag}    return 1;
  }}
  return 0;
}}
"#,
        l_at = if unit {
            "((r) == (c) ? 1.0 : ps_t[(r) * ps_trs + (c) * ps_tcs])"
        } else {
            "ps_t[(r) * ps_trs + (c) * ps_tcs]"
        },
    );
    let fast = "ps_trsv_step(ps_t, ps_trs, ps_tcs, w, n, (t2) * sz_i, (t1) * sz_j, sz_i, sz_j)";
    let (defs, undefs) = dispatch(&nest, fast, &["sz_j", "sz_i"]);
    let _ = write!(
        s,
        r#"
/* X := inv(op(A)) X ({layout}-major, {flags}), A N x N, X with increment incX (negative:
   stored backwards, as in BLAS). Canonical form w := inv(T) w with T lower and w a
   unit-stride copy of X{rev_note}.
   tile_sizes = {{size along i, j}} of the catalogue domain {domain}
   (i: rows, j: columns of T); values below 1 count as 1, values above N as N. */
void polyscan_dtrsv_tiled(int64_t N, const double *A, int64_t lda, double *X, int64_t incX,
                          const int64_t *tile_sizes)
{{
  if (N <= 0 || incX == 0) return;
  const int64_t n = N;
  const double *ps_t = A + ({tbase});
  const int64_t ps_trs = {trs}, ps_tcs = {tcs};
  double *w = malloc(sizeof(double) * (size_t)N);
  const int packed = 1;
  if (w == NULL) return;
  /* X's element e, and the canonical (possibly reversed) order of the working copy. */
#define PS_XE(e) X[incX > 0 ? (e) * incX : ((e) - (N - 1)) * incX]
#define PS_W_AT(r) {w_at}
  for (int64_t r = 0; r < N; r++) w[r] = PS_XE(PS_W_AT(r));
{sizes}#define S(j, i) {body}
{defs}{fragment}{undefs}  for (int64_t r = 0; r < N; r++) PS_XE(PS_W_AT(r)) = w[r];
#undef PS_XE
#undef PS_W_AT
  free(w);
}}

/* Default tile sizes {{{nb}, {nb}}}, moved within [s/2, s] to fit N. */
void polyscan_dtrsv(int64_t N, const double *A, int64_t lda, double *X, int64_t incX)
{{
  const int64_t nb = ps_pick_size(N, {nb}, 4);
  const int64_t ts[2] = {{ nb, nb }};
  polyscan_dtrsv_tiled(N, A, lda, X, incX, ts);
}}
#undef PS_x
#undef PS_L
"#,
        layout = if req.layout == Layout::Col {
            "column"
        } else {
            "row"
        },
        flags = {
            let f = flag_text(req);
            f["CblasLeft, ".len()..].to_string()
        },
        rev_note = if rev {
            " in reverse order (an upper triangle solved as a lower one)"
        } else {
            ""
        },
        domain = spec.domain,
        tbase = t.base,
        trs = t.rs,
        tcs = t.cs,
        w_at = if rev { "(N - 1 - (r))" } else { "(r)" },
        sizes = size_decls(&[("i", "n"), ("j", "n")]),
        body = c_body(spec.body),
        fragment = indent(&nest.fragment, "  "),
        nb = TRSV_NB,
    );
    Ok(s)
}

/// TRTRI's default block size (all three tile sizes).
const TRTRI_NB: i64 = 128;

pub fn emit_trtri(req: &Request) -> Result<String, KernelError> {
    let upper = req.uplo == Some(Uplo::Upper);
    let unit = req.diag == Some(Diag::Unit);
    let (ra, ca) = stored(req.layout, "lda");
    // inv(U) = inv(U^T)^T: an upper triangle is the lower one through the transposed map.
    let (rs, cs) = if upper { (ca, ra) } else { (ra, ca) };
    // Catalogue S[j, i, k]; loops j, k, i: per block of columns of the inverse, the block
    // columns of L left to right, the diagonal tile before the tiles below it.
    let (spec, nest) = catalogue_nest(
        Kernel::Trtri,
        &[0, 2, 1],
        &["sz_j", "sz_k", "sz_i"],
        true,
        &["j", "k", "i"],
    )?;
    let ops = Operands {
        opa: format!("a[(i) * ({rs}) + (l) * ({cs})]"),
        opa_i_contiguous: rs == "1",
        opb: "b[(l) + (j) * ldb]".into(),
        opb_l_contiguous: true,
        a_mask: None,
        c_mask: None,
        a_lend: None,
    };
    let mut s = header(req);
    s.push_str(&runtime::blocked("trtri", &ops));
    s.push_str(&runtime::solver());
    let _ = write!(
        s,
        r#"
#define PS_L(r, c) {l_at}
#define PS_X(r, c) ps_w[(r) + (c) * n]

/* One tile (origins j0, k0, i0) of X := inv(L) X on the working copy x (n x n,
   column-major, starting as the identity): a pure update (its k-range ends before its
   i-range) through the packed path, a diagonal tile with equal i and k sizes through the
   strip solver; 0 when neither applies. Elements with k < j are zeros of the identity
   and stay zero, so running them too changes nothing. */
static int ps_trtri_step(ps_ws *w, const double *t, int64_t trs, int64_t tcs, double *x, int64_t n,
                         int64_t j0, int64_t k0, int64_t i0, int64_t szj, int64_t szk, int64_t szi)
{{
  if (k0 + szk <= i0) {{
    ps_trtri_full(&w->blk, i0, j0, k0);
    return 1;
  }}
  if (i0 == k0 && szi == szk && szk <= w->nbd) {{
    const int64_t nb = szk < n - k0 ? szk : n - k0;
    const int64_t wc = szj < n - j0 ? szj : n - j0;
    ps_trsm_diag(w, t + k0 * (trs + tcs), trs, tcs, x + k0 + j0 * n, 1, n, nb, wc, {unit});
    return 1;
  }}
  return 0;
}}
"#,
        l_at = if unit {
            "((r) == (c) ? 1.0 : ps_t[(r) * ps_trs + (c) * ps_tcs])"
        } else {
            "ps_t[(r) * ps_trs + (c) * ps_tcs]"
        },
        unit = u8::from(unit),
    );
    let fast = "ps_trtri_step(PS_W, ps_t, ps_trs, ps_tcs, ps_w, n, (t1) * sz_j, (t2) * sz_k, (t3) * sz_i, sz_j, sz_k, sz_i)";
    let (defs, undefs) = dispatch(&nest, fast, &["sz_j", "sz_k", "sz_i"]);
    // Column blocks of the inverse are independent.
    let fragment = if req.openmp {
        omp::parallelize(&nest.fragment, "t1", |_| {
            "n * n / 2 * sz_j >= PS_OMP_MIN".into()
        })
    } else {
        nest.fragment.clone()
    };
    let _ = write!(
        s,
        r#"
/* Inverse of a triangular matrix as LAPACKE_dtrtri ({layout}-major, {uplo}, {diag}): A N x N,
   its {uplo} triangle overwritten by the inverse's (the other triangle{diag_note} is neither
   read nor written). Returns 0, or k > 0 when A(k, k) is exactly zero (A unchanged), -1 for
   N < 0, -3 for lda < max(1, N). Computed as X := inv(L) I in an N x N working copy (the
   catalogue writes X apart from L), then copied into the triangle; without memory for it,
   in place by columns from the last (dtrti2's order).
   tile_sizes = {{size along j, i, k}} of the catalogue domain {domain}
   (j: column of the inverse, i: its row, k: the reduction); values below 1 count as 1,
   values above N as N. Equal i and k sizes let diagonal tiles run the strip solver. */
int64_t polyscan_dtrtri_tiled(int64_t N, double *A, int64_t lda, const int64_t *tile_sizes)
{{
  if (N < 0) return -1;
  if (lda < (N > 1 ? N : 1)) return -3;
  if (N == 0) return 0;
  const int64_t n = N;
  double *ps_a = A;
  const double *ps_t = A;
  const int64_t ps_trs = {rs}, ps_tcs = {cs};
  if (!{unit})
    for (int64_t i = 0; i < n; i++)
      if (ps_t[i * (ps_trs + ps_tcs)] == 0.0) return i + 1;
  double *ps_w = calloc((size_t)n * (size_t)n, sizeof(double));
  if (ps_w == NULL) {{
    /* In place, columns from the last: column j of the inverse needs only the columns
       right of it, already inverted. */
    for (int64_t j = n - 1; j >= 0; j--) {{
      const double d = {unit} ? 1.0 : 1.0 / ps_a[j * (ps_trs + ps_tcs)];
      if (!{unit}) ps_a[j * (ps_trs + ps_tcs)] = d;
      for (int64_t i = n - 1; i > j; i--) {{
        double s = 0.0;
        for (int64_t k = j + 1; k <= i; k++)
          s += (k == i && {unit} ? 1.0 : ps_a[i * ps_trs + k * ps_tcs]) * ps_a[k * ps_trs + j * ps_tcs];
        ps_a[i * ps_trs + j * ps_tcs] = -d * s;
      }}
    }}
    return 0;
  }}
  for (int64_t i = 0; i < n; i++) ps_w[i + i * n] = 1.0;
{sizes}  const ps_blk blk0 = {{ .a = ps_t, .b = ps_w, .lda = lda, .ldb = n, .c = ps_w, .rs_c = 1, .cs_c = n, .alpha = -1.0,
                       .m = n, .n = n, .k = n }};
{state}#define S(j, k, i) {body}
{defs}{fragment}{undefs}{free}  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j + {unit}; i < n; i++) ps_a[i * ps_trs + j * ps_tcs] = ps_w[i + j * n];
  free(ps_w);
  return 0;
}}

/* Default tile sizes: blocks of {nb} (moved within [s/2, s] to fit N); blocks of columns
   rather than all of them, so that the zeros above the diagonal of the identity are
   skipped by whole tiles (no tile of the domain lies there). */
int64_t polyscan_dtrtri(int64_t N, double *A, int64_t lda)
{{
  const int64_t nb = ps_pick_size(N, {nb}, PS_MR);
  const int64_t ts[3] = {{ nb, nb, nb }};
  return polyscan_dtrtri_tiled(N, A, lda, ts);
}}
#undef PS_L
#undef PS_X
"#,
        layout = if req.layout == Layout::Col {
            "column"
        } else {
            "row"
        },
        uplo = if upper { "upper" } else { "lower" },
        diag = if unit { "unit" } else { "non-unit" },
        diag_note = if unit { ", and the diagonal," } else { "" },
        domain = spec.domain,
        sizes = size_decls(&[("j", "n"), ("i", "n"), ("k", "n")]),
        state = omp::state_decl(
            req.openmp,
            "ps_ws",
            "PS_W",
            "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_k, sz_k)"
        ),
        body = c_body(spec.body),
        fragment = indent(&fragment, "  "),
        free = omp::state_free(req.openmp, "PS_W", "ps_ws_free"),
        unit = u8::from(unit),
        nb = TRTRI_NB,
    );
    Ok(s)
}
