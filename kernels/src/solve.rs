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
//! tile runs the catalogue body in the nest's order. TRSV under `--openmp` on more than one
//! thread runs `c/trsv_parallel.c` instead of the tile nest: block steps with one step of
//! look-ahead, the update below each diagonal block split across the threads by rows.

use crate::catalogue::Kernel;
use crate::nest::{self, catalogue_nest, Nest};
use crate::omp;
use crate::parts::KernelParts;
use crate::request::{Diag, KernelError, Layout, Request, Side, Trans, Uplo};
use crate::runtime::{self, Operands};
use crate::template::fill;
use crate::text::{c_body, indent};
use std::fmt::Write;

/// TRSM's own C after the solver runtime (`c/trsm.c`): canonical element access, the
/// tile step, the entry points.
const TRSM: &str = include_str!("c/trsm.c");
/// TRSV's own C (`c/trsv.c`): the tile step (`@update@`, `@diag@`: its loops in the
/// triangle's unit-stride order) and the entry points.
const TRSV: &str = include_str!("c/trsv.c");
/// TRTRI's own C after the solver runtime (`c/trtri.c`): the tile step, the entry points.
const TRTRI: &str = include_str!("c/trtri.c");

/// `PS_L(r, c)`: the canonical triangle's element, ones on the diagonal when `unit`.
fn l_at(unit: bool) -> &'static str {
    if unit {
        "((r) == (c) ? 1.0 : ps_t[(r) * ps_trs + (c) * ps_tcs])"
    } else {
        "ps_t[(r) * ps_trs + (c) * ps_tcs]"
    }
}

/// `column` or `row`, as the entry points' comments name the layout.
fn layout_name(layout: Layout) -> &'static str {
    if layout == Layout::Col {
        "column"
    } else {
        "row"
    }
}

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

/// The parts of TRSM's file (every side, triangle, transposition, diagonal, layout).
pub(crate) fn emit_trsm(req: &Request) -> Result<KernelParts, KernelError> {
    let left = req.side != Some(Side::Right);
    let unit = req.diag == Some(Diag::Unit);
    let (order_ext, cols_ext) = if left { ("M", "N") } else { ("N", "M") };
    let (t, x) = canonical(req, order_ext, Some("ldb"));
    let x = x.ok_or_else(|| KernelError::Generation("TRSM: no index map for B".into()))?;
    // Loops j, l, i: for each column block, block columns of T left to right, the
    // diagonal tile (i = l) before the tiles below it.
    let (spec, nest) = catalogue_nest(
        Kernel::Trsm,
        None,
        &[1, 2, 0],
        &["sz_j", "sz_l", "sz_i"],
        true,
        &["j", "l", "i"],
    )?;
    let ops = Operands {
        // Strides as constants where the flags make them 1 (vectorisable packing).
        opa: format!("a[(i) * ({}) + (l) * ({})]", t.rs, t.cs),
        opa_i_contiguous: t.rows_adjacent,
        // Stride -1 (a reversed triangle) is adjacent too, but not a forward run.
        opa_unit_columns: t.rs == "1",
        opa_halves: None,
        opb: format!("b[(l) * ({}) + (j) * ({})]", x.rs, x.cs),
        opb_l_contiguous: x.rows_adjacent,
        opb_unit_columns: x.rs == "1",
        opb_unit_rows: x.cs == "1",
        a_mask: None,
        c_mask: None,
        a_lend: None,
        a_lstart: None,
        b_lstart: None,
    };
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
    let body = fill(
        TRSM,
        &[
            ("l_at", l_at(unit)),
            ("unit", if unit { "1" } else { "0" }),
            ("side_desc", side_desc),
            ("layout", layout_name(req.layout)),
            ("flags", &flag_text(req)),
            ("order_ext", order_ext),
            ("cols_ext", cols_ext),
            ("domain", spec.domain),
            ("ra", &ra),
            ("ca", &ca),
            ("tbase", &t.base),
            ("trs", &t.rs),
            ("tcs", &t.cs),
            ("xbase", &x.base),
            ("xrs", &x.rs),
            ("xcs", &x.cs),
            ("sizes", &size_decls(&[("i", "m"), ("j", "n"), ("l", "m")])),
            (
                "state",
                &omp::state_decl(
                    req.openmp,
                    "ps_ws",
                    "PS_W",
                    "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_l, sz_l)",
                ),
            ),
            ("body", &c_body(spec.body)),
            ("defs", &defs),
            ("fragment", &indent(&fragment, "  ")),
            ("undefs", &undefs),
            ("free", &omp::state_free(req.openmp, "PS_W", "ps_ws_free")),
            ("nb", &TRSM_NB.to_string()),
            ("nc_pick", &nc_pick),
        ],
    );
    Ok(KernelParts::new(
        req,
        runtime::blocked("trsm", &ops),
        true,
        body,
    ))
}

/// Default tile sizes of TRSV (rows and columns of T per tile: a 256 x 256 block of T is
/// 512 KiB, streamed once; the vector blocks stay in L1).
const TRSV_NB: i64 = 256;

/// Default tile sizes of TRSV on more than one thread (`c/trsv_parallel.c`): the steps of
/// the parallel solve, each ending in a barrier, and the look-ahead block thread 0 solves
/// while the others update; smaller than [`TRSV_NB`] so that the serial start (the first
/// diagonal block) and the last steps, where the look-ahead is most of the work, are short.
const TRSV_NB_OMP: i64 = 128;

/// The parts of TRSV's file (every triangle, transposition, diagonal, layout).
pub(crate) fn emit_trsv(req: &Request) -> Result<KernelParts, KernelError> {
    let unit = req.diag == Some(Diag::Unit);
    let (t, _) = canonical(req, "N", None);
    let rev = t.base != "0";
    // Pure updates w[I] -= T[I][J] w[J]: by columns where T's columns are contiguous,
    // else by rows (dot products), so that the inner loop has unit stride; the same for
    // the diagonal tiles' substitution.
    let by_rows = !t.rows_adjacent;
    // By columns, loops j, i (right-looking: each block column of T, the diagonal tile
    // first, then the updates below it). By rows, loops i, j (left-looking: each block row,
    // its updates, then its diagonal tile), so that when a block row's first update tile
    // runs, w is final left of it and that tile updates the block row from all of it: one
    // dot product per row as long as the block row's pure update tiles together, where
    // tiles of 256 columns broke each row into 2 KiB pieces (the hardware prefetcher
    // restarting on each; OpenBLAS's transposed TRSV calls GEMV on whole rows too).
    let (order, sizes, loops, fast): (_, [&str; 2], _, _) = if by_rows {
        (
            [0, 1],
            ["sz_i", "sz_j"],
            ["i", "j"],
            "ps_trsv_step(ps_t, ps_trs, ps_tcs, w, n, (t1) * sz_i, (t2) * sz_j, sz_i, sz_j)",
        )
    } else {
        (
            [1, 0],
            ["sz_j", "sz_i"],
            ["j", "i"],
            "ps_trsv_step(ps_t, ps_trs, ps_tcs, w, n, (t2) * sz_i, (t1) * sz_j, sz_i, sz_j)",
        )
    };
    let (spec, nest) = catalogue_nest(Kernel::Trsv, None, &order, &sizes, true, &loops)?;
    // By rows, the first pure update tile of a block row updates it from all the columns
    // of the row's pure tiles (`c/trsv_update_by_row.c`); a tile across the diagonal, with
    // other sizes, still runs the catalogue body on its own columns.
    let update = if by_rows {
        include_str!("c/trsv_update_by_row.c")
    } else {
        include_str!("c/trsv_update_by_column.c")
    };
    let diag = if by_rows {
        include_str!("c/trsv_diag_by_row.c")
    } else {
        include_str!("c/trsv_diag_by_column.c")
    };
    let diag = fill(diag, &[("unit", if unit { "1" } else { "0" })]);
    let (defs, undefs) = dispatch(&nest, fast, &sizes);
    // By rows, a pure update tile of the left-looking nest stands for its block row's
    // whole update from the columns left of it (see above). By columns, the first pure
    // update tile of a block column (the first row tile starting at or below the block's
    // end) updates every row below from the block's columns, final by then, in pieces of
    // 2048 rows (16 KiB of w in L1), the later tiles nothing: with tiles of 256 rows each
    // column of T was read in 2 KiB pieces, and at n = 2048 (one thread, wall-clock, caches
    // flushed) the solve ran at 2.8-3.0 GFLOP/s against OpenBLAS's 3.5-3.8, 3.5-3.9 with
    // whole columns (2026-11-27; unchanged at n = 512 and 1024).
    let step_update = if by_rows {
        "    if (j0 == 0) ps_trsv_update(t, trs, tcs, w, i0, ie, 0, i0 / szj * szj);\n"
    } else {
        "    (void)ie;\n    if (i0 == (j0 + szj + szi - 1) / szi * szi)\n      for (int64_t r = i0; r < n; r += 2048)\n        ps_trsv_update(t, trs, tcs, w, r, r + 2048 < n ? r + 2048 : n, j0, je);\n"
    };
    // Under `--openmp`, the tile nest gives way to `c/trsv_parallel.c` (a step of look-ahead,
    // the update below each diagonal block split by rows) when there is more than one
    // thread, the tiles are square (the block solver runs the diagonal) and the solve has
    // six times PS_OMP_MIN multiply-adds per thread; one tile's update below a diagonal
    // block alone was too small to pay for a fork, and every tile reads what the tiles
    // before it wrote. Measured on two threads (2026-11-27, wall-clock, caches flushed by
    // a copy of n^2 doubles before each call): the serial solve is ahead up to n = 768
    // (13.5 against 11.1 GFLOP/s at n = 512: the triangle fits one core's L2 and the
    // barriers cost), the parallel one from n = 896 on (11.9 against 8.4).
    let fragment = if req.openmp {
        format!(
            "if (PS_NTHREADS > 1 && sz_i == sz_j && sz_j < n && n * n / 2 >= 6 * PS_OMP_MIN * PS_NTHREADS) {{\n  ps_trsv_parallel(ps_t, ps_trs, ps_tcs, w, n, sz_j);\n}} else {{\n{}}}\n",
            indent(&nest.fragment, "  ")
        )
    } else {
        nest.fragment.clone()
    };
    let (nb_pick, nb_omp_note) = if req.openmp {
        (
            format!("PS_NTHREADS > 1 ? ps_pick_size(N, {TRSV_NB_OMP}, 8) : ps_pick_size(N, {TRSV_NB}, 4)"),
            format!(" ({{{TRSV_NB_OMP}, {TRSV_NB_OMP}}} on more than one thread)"),
        )
    } else {
        (format!("ps_pick_size(N, {TRSV_NB}, 4)"), String::new())
    };
    let flags = flag_text(req);
    let body = fill(
        TRSV,
        &[
            ("l_at", l_at(unit)),
            ("update", update),
            (
                "update_order",
                if by_rows {
                    "by rows, four dot products at a time"
                } else {
                    "by columns, four at a time"
                },
            ),
            ("step_update", step_update),
            (
                "parallel",
                if req.openmp {
                    include_str!("c/trsv_parallel.c")
                } else {
                    ""
                },
            ),
            ("diag", &diag),
            ("layout", layout_name(req.layout)),
            ("flags", &flags["CblasLeft, ".len()..]),
            (
                "rev_note",
                if rev {
                    " in reverse order (an upper triangle solved as a lower one)"
                } else {
                    ""
                },
            ),
            ("domain", spec.domain),
            ("tbase", &t.base),
            ("trs", &t.rs),
            ("tcs", &t.cs),
            ("w_at", if rev { "(N - 1 - (r))" } else { "(r)" }),
            ("sizes", &size_decls(&[("i", "n"), ("j", "n")])),
            ("iters", &nest.iterators.join(", ")),
            ("body", &c_body(spec.body)),
            ("defs", &defs),
            ("fragment", &indent(&fragment, "  ")),
            ("undefs", &undefs),
            ("nb", &TRSV_NB.to_string()),
            ("nb_pick", &nb_pick),
            ("nb_omp_note", &nb_omp_note),
        ],
    );
    Ok(KernelParts::new(req, String::new(), true, body))
}

/// TRTRI's default block size (all three tile sizes).
const TRTRI_NB: i64 = 128;

/// The parts of TRTRI's file (either triangle, diagonal, layout).
pub(crate) fn emit_trtri(req: &Request) -> Result<KernelParts, KernelError> {
    let upper = req.uplo == Some(Uplo::Upper);
    let unit = req.diag == Some(Diag::Unit);
    let (ra, ca) = stored(req.layout, "lda");
    // inv(U) = inv(U^T)^T: an upper triangle is the lower one through the transposed map.
    let (rs, cs) = if upper { (ca, ra) } else { (ra, ca) };
    // Catalogue S[j, i, k]; loops j, k, i: per block of columns of the inverse, the block
    // columns of L left to right, the diagonal tile before the tiles below it.
    let (spec, nest) = catalogue_nest(
        Kernel::Trtri,
        None,
        &[0, 2, 1],
        &["sz_j", "sz_k", "sz_i"],
        true,
        &["j", "k", "i"],
    )?;
    let ops = Operands {
        opa: format!("a[(i) * ({rs}) + (l) * ({cs})]"),
        opa_i_contiguous: rs == "1",
        opa_unit_columns: rs == "1",
        opa_halves: None,
        opb: "b[(l) + (j) * ldb]".into(),
        opb_l_contiguous: true,
        opb_unit_columns: true,
        opb_unit_rows: false,
        a_mask: None,
        c_mask: None,
        a_lend: None,
        a_lstart: None,
        // X(k, j) is a zero of the identity for k < j and stays one (only rows i >= k >= j
        // are written): a micro-tile's reduction starts at its first column. With blocks of
        // 128 columns, about half of each column block's first block row was zeros: wasted
        // multiply-adds 1.5 x 128 / n of the useful ones (9% at n = 2048, 37% at n = 512).
        b_lstart: Some("(j)".into()),
    };
    let fast = "ps_trtri_step(PS_W, ps_t, ps_trs, ps_tcs, ps_w, n, (t1) * sz_j, (t2) * sz_k, (t3) * sz_i, sz_j, sz_k, sz_i)";
    let (defs, undefs) = dispatch(&nest, fast, &["sz_j", "sz_k", "sz_i"]);
    // Column blocks of the inverse are independent; their work shrinks with the column
    // (the rows below the diagonal), so they are handed out one by one.
    // Each column block sets up its columns of the working copy before its first tile and
    // copies them into A after its last (`PS_COLS_IN`, `PS_COLS_OUT`): in parallel, and
    // while they are in the cache, where a serial memset before the nest and a copy after
    // it took 13% of a one-thread call at n = 512 and a quarter of a two-thread one.
    let blocks =
        nest::around_loop_bodies(&nest.fragment, "t1", "PS_COLS_IN(t1);", "PS_COLS_OUT(t1);")
            .ok_or_else(|| {
                KernelError::Generation("TRTRI: a column block loop not in the printed form".into())
            })?;
    let fragment = if req.openmp {
        omp::parallelize_dynamic(&blocks, "t1", |_| "n * n / 2 * sz_j >= PS_OMP_MIN".into())
    } else {
        blocks
    };
    let unit_flag = if unit { "1" } else { "0" };
    let copy_block = format!(
        "ps_trtri_cols_out(ps_a, ps_trs, ps_tcs, ps_w, n, (t1) * sz_j, ps_min((t1) * sz_j + sz_j, n), {unit_flag})"
    );
    let (cols_out, deferred) = if req.openmp {
        (
            format!(
                "  /* In a team of one the blocks run in the nest's order, and no later block reads the\n\
                 \x20    columns of L a finished one replaces (they read those right of their own): copied at\n\
                 \x20    once. In a team of several, a block finished early may hold columns of L that a\n\
                 \x20    block still running reads: copied after the nest, by columns in parallel. */\n\
                 \x20 int ps_deferred = 0;\n\
                 #ifdef _OPENMP\n\
                 #define PS_DEFER() do {{ _Pragma(\"omp atomic write\") ps_deferred = 1; }} while (0)\n\
                 #else\n\
                 #define PS_DEFER() (ps_deferred = 1)\n\
                 #endif\n\
                 #define PS_COLS_OUT(t1) do {{ if (PS_TEAM == 1) {copy_block}; else PS_DEFER(); }} while (0)\n"
            ),
            format!(
                "#undef PS_DEFER\n\
                 \x20 if (ps_deferred) {{\n\
                 #ifdef _OPENMP\n\
                 #pragma omp parallel for schedule(dynamic, 1) if (n * n / 2 >= PS_OMP_MIN)\n\
                 #endif\n\
                 \x20   for (int64_t j = 0; j < n; j += 32)\n\
                 \x20     ps_trtri_cols_out(ps_a, ps_trs, ps_tcs, ps_w, n, j, ps_min(j + 32, n), {unit_flag});\n\
                 \x20 }}\n"
            ),
        )
    } else {
        (
            format!(
                "  /* In the nest's order no later block reads the columns of L a finished one replaces\n\
                 \x20    (they read those right of their own): copied at once. */\n\
                 #define PS_COLS_OUT(t1) {copy_block}\n"
            ),
            String::new(),
        )
    };
    let body = fill(
        TRTRI,
        &[
            ("l_at", l_at(unit)),
            ("unit", if unit { "1" } else { "0" }),
            ("layout", layout_name(req.layout)),
            ("uplo", if upper { "upper" } else { "lower" }),
            ("diag", if unit { "unit" } else { "non-unit" }),
            ("diag_note", if unit { ", and the diagonal," } else { "" }),
            ("domain", spec.domain),
            ("rs", &rs),
            ("cs", &cs),
            ("sizes", &size_decls(&[("j", "n"), ("i", "n"), ("k", "n")])),
            (
                "state",
                &omp::state_decl(
                    req.openmp,
                    "ps_ws",
                    "PS_W",
                    "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_k, sz_k)",
                ),
            ),
            ("body", &c_body(spec.body)),
            ("defs", &defs),
            ("fragment", &indent(&fragment, "  ")),
            ("undefs", &undefs),
            ("free", &omp::state_free(req.openmp, "PS_W", "ps_ws_free")),
            ("cols_out", &cols_out),
            ("deferred", &deferred),
            ("nb", &TRTRI_NB.to_string()),
            (
                "nb_cols",
                if req.openmp {
                    "ps_min(nb, (ps_pick_cols(N, nb, 4 * PS_NTHREADS) + PS_NR - 1) / PS_NR * PS_NR)"
                } else {
                    "N >= 1536 ? 2 * nb : nb"
                },
            ),
        ],
    );
    Ok(KernelParts::new(
        req,
        runtime::blocked("trtri", &ops),
        true,
        body,
    ))
}
