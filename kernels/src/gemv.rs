//! GEMV (`y := alpha A x + beta y`, no transpose): the catalogue's 2-D domain tiled along
//! rows and columns, full tiles through a register-blocked vector kernel, partial tiles
//! through the catalogue body. A separate emitter because the operation is not
//! GEMM-shaped (no reduction tile to pack for, and it is bound by memory traffic on A:
//! packing would only add traffic).

use crate::catalogue::Kernel;
use crate::nest;
use crate::omp;
use crate::parts::KernelParts;
use crate::request::{KernelError, Layout, Request};
use crate::template::fill;
use crate::text::{c_body, element, indent};

/// GEMV's own C (`c/gemv.c`): the element macros, the full-tile kernel
/// (`@full_kernel@`: its loops in the layout's unit-stride order) and the entry points.
const GEMV: &str = include_str!("c/gemv.c");

/// The tile loops under OpenMP in column-major order (`@fragment@`: the nest, its column
/// tiles owned by threads, each summing into its own copy of y).
const SPLIT_COLS: &str = include_str!("c/gemv_split_cols.c");

/// The tile loops under OpenMP in row-major order (its row tiles owned by threads).
const SPLIT_ROWS: &str = include_str!("c/gemv_split_rows.c");

/// Default tile extents: rows of A per tile (the y block, 1024 doubles = 8 KiB, stays in
/// L1 while the tile's columns stream by four at a time) and columns (the x segment).
const MC: i64 = 1024;
/// See [`MC`].
const NC: i64 = 512;

/// The parts of GEMV's file.
pub(crate) fn emit(req: &Request) -> Result<KernelParts, KernelError> {
    // Loops j, i: column tiles outside, so a tile's x segment is reused by its rows; i
    // innermost (unit stride in column-major) in the partial tiles.
    let (spec, nest) = nest::catalogue_nest(
        Kernel::Gemv,
        None,
        &[1, 0],
        &["sz_j", "sz_i"],
        false,
        &["j", "i"],
    )?;
    if nest.full_branches == 0 {
        return Err(KernelError::Generation(
            "GEMV: no full-tile branch in the tiled nest".into(),
        ));
    }
    // Under OpenMP, one region per call, and each thread owns a contiguous block of A: of
    // the column tiles in column-major order, of the row tiles in row-major order (a fixed
    // owner per tile, `omp::parallelize_owned`). Row tiles write disjoint blocks of y (x
    // and A are only read) and carry no dependence; column tiles all update y, so each
    // thread sums into its own copy (`c/gemv_split_cols.c`). Before, the row tiles of each
    // column tile were shared in a fork of their own, and a thread's half of the rows of a
    // 2 MB column-major A (n = 512) maps to half of L2's sets (the likely cause, not checked
    // with counters): two threads ran at 0.68-0.85 of OpenBLAS there, 19-26 GFLOP/s against
    // 28-39 with the column split.
    let l = req.layout;
    let (var, split) = match l {
        Layout::Col => ("t1", SPLIT_COLS),
        Layout::Row => ("t2", SPLIT_ROWS),
    };
    let owned = if req.openmp {
        omp::parallelize_owned(&nest.fragment, var, &format!("PS_OWNS({var})"))
    } else {
        None
    };
    let fragment = match owned {
        Some(f) => fill(split, &[("fragment", &indent(&f, "  "))]),
        // Serial (or a statement outside the tile loops: every thread would run it).
        None => format!("double *const ps_yt = yw;\n{}", nest.fragment),
    };
    // Along the split, a multiple of the thread count of tiles by default (`ps_pick_cols`):
    // with the serial sizes one tile held every column at n = 512 (every row at n = 1024)
    // and there was nothing to share.
    let (mc_pick, nc_pick) = match (req.openmp, l) {
        (true, Layout::Col) => (
            format!("ps_pick_size(M, {MC}, 16)"),
            format!("ps_pick_cols(N, {NC}, PS_NTHREADS)"),
        ),
        (true, Layout::Row) => (
            format!("ps_pick_cols(M, {MC}, PS_NTHREADS)"),
            format!("ps_pick_size(N, {NC}, 4)"),
        ),
        (false, _) => (
            format!("ps_pick_size(M, {MC}, 16)"),
            format!("ps_pick_size(N, {NC}, 4)"),
        ),
    };
    let full_kernel = match l {
        // Columns of A are contiguous: four columns at a time stream through the tile's
        // y block (in L1), four vector FMAs per load and store of y.
        Layout::Col => include_str!("c/gemv_full_col.c"),
        // Rows of A are contiguous: four rows at a time, each a vector dot product
        // (four independent FMA chains hide the FMA latency).
        Layout::Row => include_str!("c/gemv_full_row.c"),
    };
    let body = fill(
        GEMV,
        &[
            ("a_at", &element("A", "lda", l, "r", "c")),
            ("full_kernel", full_kernel),
            ("layout", if l == Layout::Col { "column" } else { "row" }),
            ("domain", spec.domain),
            ("body", &c_body(spec.body)),
            ("fragment", &indent(&fragment, "  ")),
            ("MC", &MC.to_string()),
            ("mc_pick", &mc_pick),
            ("nc_pick", &nc_pick),
            ("NC", &NC.to_string()),
        ],
    );
    Ok(KernelParts::new(req, String::new(), false, body))
}
