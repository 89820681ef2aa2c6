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
    // Tiles along i write disjoint blocks of y (x and A are only read): the i-tile loops
    // carry no dependence.
    let fragment = if req.openmp {
        omp::parallelize(&nest.fragment, "t2", |_| "sz_i * sz_j >= PS_OMP_MIN".into())
    } else {
        nest.fragment.clone()
    };
    // With threads, at most M / threads rows per tile by default: below 2 * MC rows one
    // tile held all of them and the parallel loop had nothing to share (two threads ran
    // GEMV at n = 512 and 1024 slower than one).
    let mc_pick = if req.openmp {
        format!("ps_min({MC}, ps_max(16, (M + PS_NTHREADS - 1) / PS_NTHREADS))")
    } else {
        MC.to_string()
    };
    let l = req.layout;
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
            ("NC", &NC.to_string()),
        ],
    );
    Ok(KernelParts::new(req, String::new(), false, body))
}
