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

use crate::catalogue::Kernel;
use crate::nest::catalogue_nest;
use crate::omp;
use crate::parts::KernelParts;
use crate::request::{KernelError, Layout, Request, Uplo};
use crate::runtime::{self, Operands};
use crate::solve::{dispatch, dispatch_gated, size_decls, stored};
use crate::template::fill;
use crate::text::{c_body, indent};

/// POTRF's own C after the solver runtime (`c/potrf.c`): the block Cholesky, the tile
/// step, the entry points.
const POTRF: &str = include_str!("c/potrf.c");
/// GETRF's own C after the solver runtime (`c/getrf.c`): the factorisation state, the
/// recursive panel factorisation (`@panel_update@`: its rank-1 updates in the layout's
/// unit-stride order), the tile step, the entry points.
const GETRF: &str = include_str!("c/getrf.c");

/// Default block size of POTRF and GETRF (all three tile sizes) above n = 1536: at
/// n = 2048, 192 against 128 gave POTRF 40-41 against 34 GFLOP/s and GETRF 42.3 against
/// 40.2 (one thread, /tmp sweeps of `_tiled` beside OpenBLAS, 2026-11-26).
const NB: i64 = 192;

/// `column` or `row`, as the entry points' comments name the layout.
fn layout_name(layout: Layout) -> &'static str {
    if layout == Layout::Col {
        "column"
    } else {
        "row"
    }
}

/// The parts of POTRF's file (either triangle, layout).
pub(crate) fn emit_potrf(req: &Request) -> Result<KernelParts, KernelError> {
    let upper = req.uplo == Some(Uplo::Upper);
    let (ra, ca) = stored(req.layout, "lda");
    // The lower factor L(i, j): A(i, j), or A(j, i) when the upper triangle holds U = L^T.
    let (rs, cs) = if upper { (ca, ra) } else { (ra, ca) };
    // Catalogue S[j, i, k]; loops k, j, i (block column k, then its blocks left to right).
    let (spec, nest) = catalogue_nest(
        Kernel::Potrf,
        None,
        &[2, 0, 1],
        &["sz_k", "sz_j", "sz_i"],
        true,
        &["k", "j", "i"],
    )?;
    let ops = Operands {
        // Strides as constants where they are 1 (vectorisable packing); B reads A too.
        opa: format!("a[(i) * ({rs}) + (l) * ({cs})]"),
        opa_i_contiguous: rs == "1",
        opa_unit_columns: rs == "1",
        opa_halves: None,
        opb: format!(
            "b[(j) * ({}) + (l) * ({})]",
            rs.replace("lda", "ldb"),
            cs.replace("lda", "ldb")
        ),
        opb_l_contiguous: cs == "1",
        opb_unit_columns: cs == "1",
        opb_unit_rows: rs == "1",
        a_mask: None,
        c_mask: Some("(j) <= (i)".into()),
        a_lend: None,
        a_lstart: None,
        b_lstart: None,
    };
    let fast = "ps_potrf_step(PS_W, ps_a, ps_rs, ps_cs, n, &ps_info, &ps_diag, (t1) * sz_k, (t2) * sz_j, (t3) * sz_i, sz_k, sz_j, sz_i)";
    let (defs, undefs) = dispatch(&nest, fast, &["sz_k", "sz_j", "sz_i"]);
    // Within one (k, j) block pair whose k-range ends before the j-range, the tiles along
    // i are updates of disjoint blocks from finished columns: independent. The solves
    // below a diagonal block are independent too, but share their loop with that block,
    // which must come first: the loop's condition factors it (ps_potrf_first) before the
    // loop starts.
    // A loop over block columns j that starts past block step k's columns is all updates:
    // its (j, i) tiles are shared out in one region per step (omp::parallelize_outer_regions);
    // the loop holding the diagonal block keeps a parallel loop per block column.
    let per_column = |text: &str| {
        omp::parallelize(text, "t3", |_| {
            "((t1) * sz_k == (t2) * sz_j \
             ? ps_potrf_first(packed, PS_W, ps_a, ps_rs, ps_cs, n, &ps_info, &ps_diag, (t1) * sz_k, sz_k, sz_j, sz_i) \
             : (t1) * sz_k + sz_k <= (t2) * sz_j) && sz_i * sz_j * sz_k >= PS_OMP_MIN"
                .into()
        })
    };
    let fragment = if req.openmp {
        omp::parallelize_outer_regions(
            &nest.fragment,
            "t2",
            "t3",
            |lb| format!("(t1) * sz_k + sz_k <= ({lb}) * sz_j"),
            "sz_i * sz_j * sz_k >= PS_OMP_MIN",
            per_column,
        )
        .ok_or_else(|| {
            KernelError::Generation(
                "POTRF: a block column loop the OpenMP pass cannot share".into(),
            )
        })?
    } else {
        nest.fragment.clone()
    };
    let body = fill(
        POTRF,
        &[
            ("layout", layout_name(req.layout)),
            ("uplo", if upper { "upper" } else { "lower" }),
            ("tri", if upper { "upper" } else { "lower" }),
            (
                "factor",
                if upper {
                    "U with A = U^T U"
                } else {
                    "L with A = L L^T"
                },
            ),
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
                    "ps_ws_init({p}, &blk0, sz_i, sz_j, sz_k, sz_j)",
                ),
            ),
            ("body", &c_body(spec.body)),
            ("defs", &defs),
            ("fragment", &indent(&fragment, "  ")),
            ("undefs", &undefs),
            ("free", &omp::state_free(req.openmp, "PS_W", "ps_ws_free")),
            ("nb", &NB.to_string()),
        ],
    );
    Ok(KernelParts::new(
        req,
        runtime::blocked("potrf", &ops),
        true,
        body,
    ))
}

/// The parts of GETRF's file (either layout).
pub(crate) fn emit_getrf(req: &Request) -> Result<KernelParts, KernelError> {
    let col = req.layout == Layout::Col;
    let (rs, cs) = stored(req.layout, "lda");
    // Catalogue S[k, i, j]; loops k, j, i (block step k, then block columns, the block
    // row of U first in each).
    let (spec, nest) = catalogue_nest(
        Kernel::Getrf,
        None,
        &[0, 2, 1],
        &["sz_k", "sz_j", "sz_i"],
        true,
        &["k", "j", "i"],
    )?;
    let ops = Operands {
        opa: format!("a[(i) * ({rs}) + (l) * ({cs})]"),
        opa_i_contiguous: col,
        opa_unit_columns: col,
        opa_halves: None,
        opb: format!(
            "b[(l) * ({}) + (j) * ({})]",
            rs.replace("lda", "ldb"),
            cs.replace("lda", "ldb")
        ),
        opb_l_contiguous: col,
        opb_unit_columns: col,
        opb_unit_rows: !col,
        a_mask: None,
        c_mask: Some("(j) >= x->lo".into()),
        a_lend: None,
        a_lstart: None,
        b_lstart: None,
    };
    // The rank-1 updates of the panel with the unit-stride index innermost.
    let panel_update = if col {
        include_str!("c/getrf_update_by_column.c")
    } else {
        include_str!("c/getrf_update_by_row.c")
    };
    let fast = "ps_getrf_step(packed ? PS_W : NULL, &ps_lu, (t1) * sz_k, (t2) * sz_j, (t3) * sz_i, sz_j, sz_i)";
    // (The gated form: the panel must run even without pack buffers.)
    let (defs, undefs) = dispatch_gated(&nest, fast, &["sz_k", "sz_j", "sz_i"]);
    // Under OpenMP each block step is one parallel region (its panel factored before the
    // threads start, unless the look-ahead did it), whose column tiles are handed out one
    // at a time: a column tile's own tiles (its block row of U, then the updates below it)
    // run in order on one thread, and column tiles right of the panel are independent.
    // The look-ahead needs that order and the step's sizes equal (one column tile holds
    // the next panel). A nest of another shape (none today: `kernels` tests assert the
    // regions) stays serial rather than running an untested parallel scheme.
    let regions = req
        .openmp
        .then(|| {
            omp::parallelize_regions_in(
                &nest.fragment,
                "t1",
                "t2",
                "ps_getrf_ready(&ps_lu, packed ? PS_W : NULL, (t1) * sz_k) && packed \
                 && (M - (t1) * sz_k) * sz_j * sz_k >= PS_OMP_MIN && N - (t1) * sz_k > sz_j",
            )
        })
        .flatten();
    let (fragment, lookahead) = match regions {
        Some(regions) => (
            regions,
            "  /* Look-ahead: needs lazy interchanges and one column tile per panel. */\n  \
             ps_lu.la = packed && ps_lu.sw != NULL && sz_i == sz_k && sz_j == sz_k;\n",
        ),
        None => (nest.fragment.clone(), ""),
    };
    let body = fill(
        GETRF,
        &[
            ("panel_update", panel_update),
            ("lookahead", lookahead),
            ("layout", layout_name(req.layout)),
            ("ld_need", if col { "M" } else { "N" }),
            ("domain", spec.domain),
            ("rs", &rs),
            ("cs", &cs),
            (
                "sizes",
                &size_decls(&[("k", "kmax"), ("i", "M"), ("j", "N")]),
            ),
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
            ("nb", &NB.to_string()),
        ],
    );
    Ok(KernelParts::new(
        req,
        runtime::blocked("getrf", &ops),
        true,
        body,
    ))
}
