//! The C run-time part of blocked kernels, printed next to the generated nest: the
//! register-blocked micro-kernel (GCC vector extensions; 8x8 where the C compiler targets
//! AVX-512, else 8x6), packing of the two operands of a
//! GEMM-shaped update into micro-panels, the macro-kernel a full tile runs, and the
//! choice of default tile sizes at run time.
//!
//! The structure is BLIS's (Van Zee and van de Geijn 2015; Low et al. 2016): the nest's
//! outer tile loops are BLIS's jc, pc, ic loops, a full tile packs its kc x nc panel of
//! op(B) (once per (jc, pc): the pack is kept while the tile origin is unchanged) and its
//! mc x kc block of op(A), then runs the jr, ir loops over micro-tiles. Edge micro-tiles of
//! a tile (sizes that are not multiples of MR, NR) are packed with zeros and written
//! through a scratch tile; masked tiles (triangular domains) the same way.

use crate::template::fill;
use std::fmt::Write;

/// Rows of the micro-tile (two 4-wide vectors).
pub const MR: i64 = 8;
/// Columns of the portable micro-tile (12 accumulators + 2 rows of A + 1 broadcast = 15 of
/// 16 ymm). Where the C compiler targets AVX-512 the C runtime uses [`NR_AVX512`] instead:
/// the choice is made when the emitted C is compiled, not here.
pub const NR: i64 = 6;
/// Columns of the micro-tile under AVX-512 (one 8-wide vector per column, 8 of 32 zmm).
pub const NR_AVX512: i64 = 8;

/// How a GEMM-shaped update reads its operands: C expression texts over the local
/// variables `a`, `lda` (op(A), m x k), `b`, `ldb` (op(B), k x n) of the packing routines.
pub struct Operands {
    /// `op(A)(i, l)` with macro parameters `i`, `l`.
    pub opa: String,
    /// Whether consecutive `i` of op(A) are adjacent in memory (packing loop order).
    pub opa_i_contiguous: bool,
    /// Whether `opa` is a plain array element with stride +1 along `i`
    /// (`&op(A)(i + 1, l) == &op(A)(i, l) + 1`): columns are then packed by vector copies.
    pub opa_unit_columns: bool,
    /// For a symmetric op(A) read from one stored triangle (SYMM): `op(A)(i, l)` where
    /// `l <= i` and where `l > i`, each a plain array element, the first with stride +1
    /// along `i` when `opa_i_contiguous`, the second then along `l` (and the other way
    /// round). A micro-panel's columns left of its rows and right of them are then packed
    /// by runs along the contiguous direction, only the columns across the diagonal
    /// element by element.
    pub opa_halves: Option<(String, String)>,
    /// `op(B)(l, j)` with macro parameters `l`, `j`.
    pub opb: String,
    /// Whether consecutive `l` of op(B) are adjacent in memory.
    pub opb_l_contiguous: bool,
    /// Whether `opb` is a plain array element with stride +1 along `l`: micro-panels are
    /// then packed by 4 x 4 vector transposes.
    pub opb_unit_columns: bool,
    /// Whether `opb` is a plain array element with stride +1 along `j`: rows of a
    /// micro-panel are then packed by vector copies.
    pub opb_unit_rows: bool,
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
    /// With `a_mask`: the start of the l-range inside it for rows from `i` on, so that a
    /// micro-panel's all-zero head of the reduction is skipped (LAUUM: `i`; default 0,
    /// the first l of any tile).
    pub a_lstart: Option<String>,
    /// Where op(B) is zero above a row that grows with the column: the start of the l-range
    /// that can be non-zero in columns from `j` on, so that a micro-tile's all-zero head of
    /// the reduction is skipped (TRTRI: `j`, the zeros of the identity above its diagonal;
    /// default 0).
    pub b_lstart: Option<String>,
}

impl Operands {
    /// Whether the domain is triangular (a mask on op(A) or on the result): partial tiles
    /// then run the packed path, and row tiles differ in work.
    pub fn is_masked(&self) -> bool {
        self.a_mask.is_some() || self.c_mask.is_some()
    }
}

/// The shared helpers of every kernel file: vector type, micro-kernel, block state,
/// default-size choice (`c/runtime.h`). Printed once per file or program (the names are
/// `static`); defines `PS_MR` and `PS_NR` as [`MR`] and [`NR`].
pub const COMMON: &str = include_str!("c/runtime.h");

/// The packing routines and tile function of one kernel (`c/blocked.c`, `@tag@`: the
/// kernel's tag; `@pack_a_inner@`, `@pack_b_inner@`: the packing loops in the operand's
/// unit-stride order).
const BLOCKED: &str = include_str!("c/blocked.c");

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
    // Whether op(A) has a mask at all: unmasked whole micro-panels are packed by plain copies.
    let _ = writeln!(s, "#define PS_AMASK_ON {}", i32::from(ops.a_mask.is_some()));
    let _ = writeln!(
        s,
        "#define PS_OPA_COLUMNS {}",
        i32::from(ops.opa_unit_columns)
    );
    let (lo, hi) = ops
        .opa_halves
        .clone()
        .unwrap_or_else(|| (ops.opa.clone(), ops.opa.clone()));
    let _ = writeln!(s, "#define PS_OPA_LO(i, l) ({lo})");
    let _ = writeln!(s, "#define PS_OPA_HI(i, l) ({hi})");
    let _ = writeln!(
        s,
        "#define PS_OPA_HALVES {}",
        i32::from(ops.opa_halves.is_some())
    );
    let _ = writeln!(
        s,
        "#define PS_OPA_LO_COLUMNS {}",
        i32::from(ops.opa_i_contiguous)
    );
    let _ = writeln!(s, "#define PS_OPB_ROWS {}", i32::from(ops.opb_unit_rows));
    let _ = writeln!(
        s,
        "#define PS_OPB_COLUMNS {}",
        i32::from(ops.opb_unit_columns)
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
    let _ = writeln!(
        s,
        "#define PS_LSTART(i) ({})",
        ops.a_lstart.as_deref().unwrap_or("0")
    );
    let _ = writeln!(
        s,
        "#define PS_BLSTART(j) ({})",
        ops.b_lstart.as_deref().unwrap_or("0")
    );
    // Packing A: micro-panel ir holds rows ir..ir+MR-1 as kc columns of MR; rows past the
    // extent and entries outside the domain (the mask) are zeros.
    let pack_a_inner = if ops.opa_i_contiguous {
        include_str!("c/pack_a_by_column.c")
    } else {
        include_str!("c/pack_a_by_row.c")
    };
    let pack_b_inner = if ops.opb_l_contiguous {
        include_str!("c/pack_b_by_column.c")
    } else {
        include_str!("c/pack_b_by_row.c")
    };
    let masked = ops.is_masked();
    s.push_str(&fill(
        BLOCKED,
        &[
            ("tag", tag),
            ("pack_a_inner", pack_a_inner),
            ("pack_b_inner", pack_b_inner),
        ],
    ));
    // Partial tiles: clipped to the extents by the tile routine, masked where the domain is
    // triangular. (Solvers and factorisations call only `full` and the masked `part`.)
    let _ = writeln!(
        s,
        "static __attribute__((unused)) void ps_{tag}_part(ps_blk *x, int64_t i0, int64_t j0, int64_t l0) {{ ps_{tag}_tile(x, i0, j0, l0, {}); }}",
        i32::from(masked)
    );
    s.push_str("#undef PS_OPA\n#undef PS_OPA_LO\n#undef PS_OPA_HI\n#undef PS_OPA_HALVES\n#undef PS_OPA_LO_COLUMNS\n#undef PS_OPB\n#undef PS_AMASK\n#undef PS_AMASK_ON\n#undef PS_OPA_COLUMNS\n#undef PS_OPB_ROWS\n#undef PS_OPB_COLUMNS\n#undef PS_CMASK\n#undef PS_LEND\n#undef PS_LSTART\n#undef PS_BLSTART\n");
    s
}

/// Run-time part shared by the solvers and factorisations (`c/solver.h`): the per-call
/// workspace (the packed path's state plus buffers for diagonal blocks) and the blocked
/// triangular solve of one diagonal block, which runs its updates through the
/// micro-kernel. Needs [`COMMON`] before it.
pub const SOLVER: &str = include_str!("c/solver.h");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micro_tile_sizes_match_the_c_runtime() {
        assert!(COMMON.contains(&format!("\n#define PS_MR {MR}\n")));
        assert!(COMMON.contains(&format!("\n#define PS_NR {NR}\n")));
        assert!(COMMON.contains(&format!("\n#define PS_NR {NR_AVX512}\n")));
    }
}
