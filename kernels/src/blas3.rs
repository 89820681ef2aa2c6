//! The GEMM-shaped kernels (GEMM, SYRK, SYMM, TRMM, LAUUM): one emitter for all five, from the
//! per-kernel definitions of [`crate::defs`], the tiled catalogue nest and the packed
//! runtime; the fixed C of the entry points is `c/blas3.c`.
//!
//! Triangular domains (SYRK, TRMM, LAUUM): partial tiles, along the diagonal a large share of the
//! work, run the packed path with masks; rectangular ones keep the generic nest there.

use crate::defs;
use crate::nest;
use crate::omp;
use crate::parts::KernelParts;
use crate::request::{KernelError, Request};
use crate::runtime;
use crate::template::fill;
use crate::text::{c_body, indent};
use std::fmt::Write;

/// The entry points `polyscan_d<name>_tiled` and `polyscan_d<name>` of a GEMM-shaped kernel.
const ENTRY: &str = include_str!("c/blas3.c");

/// Under OpenMP, for GEMM and SYMM: the row split or the column split, chosen per call.
const SPLIT: &str = include_str!("c/blas3_split.c");

/// The parts of a GEMM-shaped kernel's file.
pub(crate) fn emit(req: &Request) -> Result<KernelParts, KernelError> {
    let def = defs::definition(req)?;
    let kernel = req.kernel.catalogue();
    // Loops j, l, i: BLIS's jc, pc, ic (the packed panel of op(B) is reused across the
    // innermost tile loop); i innermost in the partial tiles too. Partial tiles run the
    // packed path as well (clipped to the extents, masked on triangular domains): at
    // extents that are not multiples of the tile sizes the generic nest there ran at a
    // fraction of the speed.
    // The catalogue names LAUUM's reduction k (LAPACK's loops), the others' l.
    let loops: [&str; 3] = if req.kernel == crate::request::Blas::Lauum {
        ["j", "k", "i"]
    } else {
        ["j", "l", "i"]
    };
    let (spec, nest) = nest::catalogue_nest(
        kernel,
        def.domain,
        &[1, 2, 0],
        &["sz_j", "sz_l", "sz_i"],
        true,
        &loops,
    )?;
    let domain = def.domain.unwrap_or(spec.domain);
    if nest.full_branches == 0 {
        return Err(KernelError::Generation(format!(
            "no full-tile branch in the {} nest",
            kernel.name()
        )));
    }
    // Under OpenMP, the j-tile loop (BLIS's jc) runs in parallel: one region for the whole
    // call whose tile loops hand out column tiles one at a time without a barrier
    // (`omp::parallelize_region`, so that a partial tile does not run alone), each thread
    // packing its own panels of op(B) and op(A) and running every reduction step of its
    // tile in order (the summation order of one thread: bit-identical results). The tiles
    // carry no dependence: they write disjoint columns of the result and read only
    // operands no tile writes. By default the tiles are a multiple of the thread count
    // (`ps_pick_cols`). Where the result's domain is a rectangle (GEMM, SYMM, TRMM) that
    // multiple is 1: every column tile has the same work (and on a triangular op(A), TRMM,
    // every thread sees the same triangle; a split of the rows gave the threads unequal
    // shares of it at each reduction step). Where the result is triangular (SYRK, LAUUM: a
    // mask on (i, j)), column tiles lose work from left to right, and the loop hands them
    // out largest first: with about the fewest tiles for which the largest holds at most
    // 1 / threads of the work, every thread ends at the same time. SYRK's work per column
    // falls linearly (2 x threads tiles: the first of four holds 7/16 of it), LAUUM's
    // quadratically (a column's reduction shortens too: 3 x threads, the first of six holds
    // 91/216); the width is then rounded up to a multiple of the row tile
    // (`ps_pick_tri_cols`). Measured at two threads, back-to-back calls (GFLOP/s, the
    // chosen width first): SYRK n = 512 nc 128 91-95, 86 84, 256 66; LAUUM n = 512 128
    // 64-68, 86 56-62, 256 48; n = 1024 256 72-76, 342 61, 512 49-51; n = 2048 384 86-90,
    // 512 73-83. Before, the row tiles of each (column tile, reduction step) were shared in
    // a fork of their own: one fork and barrier per step, and at the diagonal four row
    // tiles of work 1, 3, 5, 7 split 4 : 12 or 6 : 10 between two threads.
    let cond = |_: &str| "sz_i * sz_j * sz_l >= PS_OMP_MIN".to_string();
    let per_thread = match (&def.ops.c_mask, &def.ops.a_mask) {
        (None, _) => 1,
        (Some(_), None) => 2,
        (Some(_), Some(_)) => 3,
    };
    let [ei, ej, el] = def.extents;
    let [dm, dn, dk] = req.defaults.map(|d| d.to_string());
    let by_columns = |fragment: &str| {
        omp::parallelize_region(
            fragment,
            "t1",
            &format!("{ej} > sz_j && sz_i * sz_j * sz_l >= PS_OMP_MIN"),
        )
        .unwrap_or_else(|| omp::parallelize_dynamic(fragment, "t3", cond))
    };
    // A result taller than wide (GEMM, SYMM: no masks, every tile the same work) splits
    // its row tiles instead (BLIS's ic loop), each thread owning a contiguous block of them
    // for the whole call (`omp::parallelize_owned`: no barrier, one thread's summation
    // order per tile). The column split packs all of op(A) once per column tile, so
    // `threads` times in all, the row split all of op(B) once per thread: the row split
    // packs less exactly when op(B) is the smaller operand, N < M. Measured at two threads
    // on a20's SYMM (3000 x 3000 times 3000 x 200), where op(A) is the symmetric operand
    // gathered from both triangles: 43.7-45.2 ms by columns against OpenBLAS's 37.8-38.5.
    let rows_split = format!("PS_NTHREADS > 1 && {ej} < {ei}");
    let owned = (req.openmp && def.ops.c_mask.is_none() && def.ops.a_mask.is_none())
        .then(|| omp::parallelize_owned(&nest.fragment, "t3", "PS_OWNS(t3)"))
        .flatten();
    let fragment = match &owned {
        Some(rows) => fill(
            SPLIT,
            &[
                ("rows_split", &rows_split),
                ("ei", ei),
                ("rows", &indent(rows, "    ")),
                ("cols", &indent(&by_columns(&nest.fragment), "  ")),
            ],
        ),
        None if req.openmp => by_columns(&nest.fragment),
        None => nest.fragment.clone(),
    };
    // The row tile's size, as `c/blas3.c` picks it; with the row split, about a multiple
    // of the thread count of row tiles (rounded up to whole micro-tiles).
    let mc_serial = format!("ps_pick_size({ei}, {dm}, PS_MR)");
    let mc_pick = if owned.is_some() {
        format!(
            "({rows_split}) ? (ps_pick_cols({ei}, {dm}, PS_NTHREADS) + PS_MR - 1) / PS_MR * PS_MR : {mc_serial}"
        )
    } else {
        mc_serial.clone()
    };
    // For triangles, column tiles a multiple of the row tile wide (`ps_pick_tri_cols`); one
    // thread keeps the serial choice (narrower tiles only cost packing), and so does the
    // row split.
    let nc_pick = if owned.is_some() {
        format!(
            "({rows_split}) ? ps_pick_size({ej}, {dn}, PS_NR) : ps_pick_cols({ej}, {dn}, PS_NTHREADS)"
        )
    } else if req.openmp && per_thread == 1 {
        format!("ps_pick_cols({ej}, {dn}, PS_NTHREADS)")
    } else if req.openmp {
        format!(
            "PS_NTHREADS > 1 ? ps_pick_tri_cols({ej}, {dn}, {mc_serial}, {per_thread} * PS_NTHREADS) : ps_pick_size({ej}, {dn}, PS_NR)"
        )
    } else {
        format!("ps_pick_size({ej}, {dn}, PS_NR)")
    };
    let fname = req.kernel.function();
    let tag = &fname["polyscan_d".len()..];
    let packing = format!("{}{}", def.accessors, runtime::blocked(tag, &def.ops));
    let full_call = format!(
        "do {{ if (packed) ps_{tag}_full(PS_BLK, (t3) * sz_i, (t1) * sz_j, (t2) * sz_l); \
         else for (int64_t ps_o1 = 0; ps_o1 < sz_j; ps_o1++) \
         for (int64_t ps_o2 = 0; ps_o2 < sz_l; ps_o2++) \
         for (int64_t ps_o3 = 0; ps_o3 < sz_i; ps_o3++) \
         S((t1) * sz_j + ps_o1, (t2) * sz_l + ps_o2, (t3) * sz_i + ps_o3); }} while (0)"
    );
    let mut part_macros = String::new();
    for (k, text) in nest.partial_nests.iter().enumerate() {
        let generic: Vec<&str> = text.lines().map(str::trim).collect();
        let _ = writeln!(
            part_macros,
            "#define PS_PART_{k}(t1, t2, t3) do {{ if (packed) ps_{tag}_part(PS_BLK, (t3) * sz_i, (t1) * sz_j, (t2) * sz_l); else {{ {} }} }} while (0)",
            generic.join(" ")
        );
    }
    let mut part_undefs = String::new();
    for k in 0..nest.partial_nests.len() {
        let _ = writeln!(part_undefs, "#undef PS_PART_{k}");
    }
    let body = fill(
        ENTRY,
        &[
            ("what", &def.what),
            ("domain", domain),
            ("fname", fname),
            ("args", def.args),
            ("call", def.call),
            ("prologue", &def.prologue),
            ("bind", def.bind),
            ("epilogue", &def.epilogue),
            ("ei", ei),
            ("ej", ej),
            ("el", el),
            ("a", &def.blk[0]),
            ("b", &def.blk[1]),
            ("lda", &def.blk[2]),
            ("ldb", &def.blk[3]),
            ("c", &def.blk[4]),
            ("rs", &def.blk[5]),
            ("cs", &def.blk[6]),
            (
                "blk_decl",
                &omp::state_decl(
                    req.openmp,
                    "ps_blk",
                    "PS_BLK",
                    "(*{p} = blk0, ps_blk_init({p}, sz_i, sz_j, sz_l))",
                ),
            ),
            ("iters", &nest.iterators.join(", ")),
            ("body", &c_body(spec.body)),
            ("full_call", &full_call),
            ("part_macros", &part_macros),
            ("fragment", &indent(&fragment, "  ")),
            ("part_undefs", &part_undefs),
            (
                "blk_free",
                &omp::state_free(req.openmp, "PS_BLK", "ps_blk_free"),
            ),
            ("mc_pick", &mc_pick),
            ("nc_pick", &nc_pick),
            ("dm", &dm),
            ("dn", &dn),
            ("dk", &dk),
        ],
    );
    Ok(KernelParts::new(req, packing, false, body))
}
