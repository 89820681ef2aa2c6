//! Per-kernel definitions for the emitted C: CBLAS argument lists (after the
//! enumeration arguments, which the flags fix), the work before and after the nest
//! (quick returns, beta scaling, copies), the element macros the catalogue body uses, and
//! how the packing routines read op(A) and op(B) for the full tiles.

use crate::request::{Blas, KernelError, Layout, Request, Trans, Uplo};
use crate::runtime::Operands;
use crate::template::fill;
use crate::text::element;

/// TRMM's work before the nest (`c/trmm_prologue.c`): the copy of B it reads, or the
/// in-place fallback; `@ld0@`: the copy's leading dimension.
const TRMM_PROLOGUE: &str = include_str!("c/trmm_prologue.c");

/// TRMM's domain when op(A) is upper triangular: the catalogue's `l <= i` mirrored.
const TRMM_UPPER_DOMAIN: &str = "[m, n] -> { S[i, j, l] : 0 <= i <= l < m and 0 <= j < n }";

/// Everything kernel-specific in the C file.
pub struct Def {
    /// One line saying what the function computes.
    pub what: String,
    /// The iteration domain when it is not the catalogue entry's (same iterators and
    /// body; TRMM with an upper op(A)).
    pub domain: Option<&'static str>,
    /// The C parameter list of both entry points.
    pub args: &'static str,
    /// The arguments as passed on from the default-size entry point.
    pub call: &'static str,
    /// Statements before the nest (indented two spaces, each line ending in a newline).
    pub prologue: String,
    /// Binds the domain's parameters to the arguments.
    pub bind: &'static str,
    /// Statements after the nest.
    pub epilogue: String,
    /// `#define PS_X(r, c) ...` for each array of the catalogue body.
    pub accessors: String,
    /// How the packing routines read op(A) and op(B), and the masks of triangular domains.
    pub ops: Operands,
    /// Initialisers of `ps_blk`: a, b, lda, ldb, c, rs_c, cs_c.
    pub blk: [String; 7],
    /// Extents of i, j, l as C expressions (for the default tile sizes).
    pub extents: [&'static str; 3],
}

/// Row and column strides of a result stored in `layout` with leading dimension `ld`,
/// optionally transposed (the upper triangle written through lower-triangle indices).
fn strides(layout: Layout, ld: &str, transposed: bool) -> (String, String) {
    let (r, c) = match layout {
        Layout::Col => ("1".to_string(), ld.to_string()),
        Layout::Row => (ld.to_string(), "1".to_string()),
    };
    if transposed {
        (c, r)
    } else {
        (r, c)
    }
}

/// Scales the result by beta over `rows x cols` (or its lower triangle) through `PS_C`;
/// beta == 0 overwrites, as BLAS does (C may hold NaN on entry). The test is outside the
/// loops, so that each loop is a plain store or multiply that gcc vectorises (a fresh
/// output, beta == 0, is the common case in generated programs).
fn beta_scaling(rows: &str, cols: &str, lower: bool) -> String {
    let start = if lower { "j" } else { "0" };
    format!(
        "  if (beta == 0.0)\n    for (int64_t j = 0; j < {cols}; j++)\n      for (int64_t i = {start}; i < {rows}; i++)\n        PS_C(i, j) = 0.0;\n  \
         else if (beta != 1.0)\n    for (int64_t j = 0; j < {cols}; j++)\n      for (int64_t i = {start}; i < {rows}; i++)\n        PS_C(i, j) = beta * PS_C(i, j);\n"
    )
}

/// The kernel-specific parts of a GEMM-shaped kernel's file (`Generation` for the
/// kernels with their own emitters, `BadInput` for LAUUM with `--uplo U`).
pub fn definition(req: &Request) -> Result<Def, KernelError> {
    let l = req.layout;
    let upper = req.uplo == Some(Uplo::Upper);
    let col = l == Layout::Col;
    let layout_name = if col { "column" } else { "row" };
    Ok(match req.kernel {
        Blas::Gemv | Blas::Trsm | Blas::Trsv | Blas::Potrf | Blas::Getrf | Blas::Trtri => {
            return Err(KernelError::Generation(format!(
                "{} has its own emitter",
                req.kernel.catalogue().name()
            )))
        }
        Blas::Gemm => {
            let (rs, cs) = strides(l, "ldc", false);
            let ta = req.trans == Some(Trans::Yes);
            let tb = req.transb == Some(Trans::Yes);
            // op(A)(i, l) is A(l, i) when A is transposed: the stored array is read with
            // the indices swapped, and its unit stride moves from i to l (or back).
            let (ar, ac) = if ta { ("l", "i") } else { ("i", "l") };
            let (br, bc) = if tb { ("j", "l") } else { ("l", "j") };
            let flag = |t: bool| if t { "CblasTrans" } else { "CblasNoTrans" };
            Def {
                what: format!(
                    "C := alpha * op(A) * op(B) + beta * C ({layout_name}-major, {} A, {} B), op(A) M x K, op(B) K x N, C M x N.",
                    flag(ta),
                    flag(tb)
                ),
                domain: None,
                args: "int64_t M, int64_t N, int64_t K, double alpha, const double *A, int64_t lda, \
                       const double *B, int64_t ldb, double beta, double *C, int64_t ldc",
                call: "M, N, K, alpha, A, lda, B, ldb, beta, C, ldc",
                prologue: format!(
                    "  if (M <= 0 || N <= 0) return;\n{}  if (K <= 0 || alpha == 0.0) return;\n",
                    beta_scaling("M", "N", false)
                ),
                bind: "const int64_t m = M, n = N, k = K;",
                epilogue: String::new(),
                accessors: format!(
                    "#define PS_A(r, c) {}\n#define PS_B(r, c) {}\n#define PS_C(r, c) {}\n",
                    if ta {
                        element("A", "lda", l, "c", "r")
                    } else {
                        element("A", "lda", l, "r", "c")
                    },
                    if tb {
                        element("B", "ldb", l, "c", "r")
                    } else {
                        element("B", "ldb", l, "r", "c")
                    },
                    element("C", "ldc", l, "r", "c"),
                ),
                ops: Operands {
                    opa: element("a", "lda", l, ar, ac),
                    opa_i_contiguous: col != ta,
                    opa_unit_columns: col != ta,
                    opa_halves: None,
                    opb: element("b", "ldb", l, br, bc),
                    opb_l_contiguous: col != tb,
                    opb_unit_columns: col != tb,
                    opb_unit_rows: col == tb,
                    a_mask: None,
                    c_mask: None,
                    a_lend: None,
                    a_lstart: None,
                    b_lstart: None,
                },
                blk: [
                    "A".into(),
                    "B".into(),
                    "lda".into(),
                    "ldb".into(),
                    "C".into(),
                    rs,
                    cs,
                ],
                extents: ["M", "N", "K"],
            }
        }
        Blas::Syrk => {
            let (rs, cs) = strides(l, "ldc", upper);
            let c_at = if upper {
                element("C", "ldc", l, "c", "r")
            } else {
                element("C", "ldc", l, "r", "c")
            };
            Def {
                what: format!(
                    "C := alpha * A^T * A + beta * C ({layout_name}-major, CblasTrans, {} triangle), A K x N, C N x N.",
                    if upper { "upper" } else { "lower" }
                ),
                domain: None,
                args: "int64_t N, int64_t K, double alpha, const double *A, int64_t lda, \
                       double beta, double *C, int64_t ldc",
                call: "N, K, alpha, A, lda, beta, C, ldc",
                prologue: format!(
                    "  if (N <= 0) return;\n{}  if (K <= 0 || alpha == 0.0) return;\n",
                    beta_scaling("N", "N", true)
                ),
                bind: "const int64_t n = N, k = K;",
                epilogue: String::new(),
                accessors: format!(
                    "#define PS_A(r, c) {}\n#define PS_C(r, c) {c_at}\n",
                    element("A", "lda", l, "r", "c"),
                ),
                ops: Operands {
                    opa: element("a", "lda", l, "l", "i"),
                    opa_i_contiguous: !col,
                    opa_unit_columns: !col,
                    opa_halves: None,
                    opb: element("b", "ldb", l, "l", "j"),
                    opb_l_contiguous: col,
                    opb_unit_columns: col,
                    opb_unit_rows: !col,
                    a_mask: None,
                    c_mask: Some("(j) <= (i)".into()),
                    a_lend: None,
                    a_lstart: None,
                    b_lstart: None,
                },
                blk: [
                    "A".into(),
                    "A".into(),
                    "lda".into(),
                    "lda".into(),
                    "C".into(),
                    rs,
                    cs,
                ],
                extents: ["N", "N", "K"],
            }
        }
        Blas::Symm => {
            let (rs, cs) = strides(l, "ldc", false);
            // op(B) = B^T with `--transb T` (BLAS's DSYMM has no such flag): a transposed
            // operand is read in place, as GEMM's B, where a caller would copy it.
            let tb = req.transb == Some(Trans::Yes);
            let (br, bc) = if tb { ("j", "l") } else { ("l", "j") };
            // Element (r, c) of the symmetric A with r >= c, from the stored triangle.
            let stored = |x: &str, ld: &str, r: &str, c: &str| {
                if upper {
                    element(x, ld, l, c, r)
                } else {
                    element(x, ld, l, r, c)
                }
            };
            Def {
                what: format!(
                    "C := alpha * A * op(B) + beta * C ({layout_name}-major, CblasLeft, A symmetric, {} triangle stored, {}), A M x M, op(B) and C M x N.",
                    if upper { "upper" } else { "lower" },
                    if tb { "op(B) = B^T" } else { "op(B) = B" }
                ),
                domain: None,
                args: "int64_t M, int64_t N, double alpha, const double *A, int64_t lda, \
                       const double *B, int64_t ldb, double beta, double *C, int64_t ldc",
                call: "M, N, alpha, A, lda, B, ldb, beta, C, ldc",
                prologue: format!(
                    "  if (M <= 0 || N <= 0) return;\n{}  if (alpha == 0.0) return;\n",
                    beta_scaling("M", "N", false)
                ),
                bind: "const int64_t m = M, n = N;",
                epilogue: String::new(),
                accessors: format!(
                    "#define PS_A(r, c) {}\n#define PS_B(r, c) {}\n#define PS_C(r, c) {}\n",
                    stored("A", "lda", "r", "c"),
                    if tb {
                        element("B", "ldb", l, "c", "r")
                    } else {
                        element("B", "ldb", l, "r", "c")
                    },
                    element("C", "ldc", l, "r", "c"),
                ),
                ops: Operands {
                    opa: format!(
                        "(l) <= (i) ? {} : {}",
                        stored("a", "lda", "i", "l"),
                        stored("a", "lda", "l", "i")
                    ),
                    opa_i_contiguous: col != upper,
                    // A choice between the two triangles: no single array run.
                    opa_unit_columns: false,
                    opa_halves: Some((
                        stored("a", "lda", "i", "l"),
                        stored("a", "lda", "l", "i"),
                    )),
                    opb: element("b", "ldb", l, br, bc),
                    opb_l_contiguous: col != tb,
                    opb_unit_columns: col != tb,
                    opb_unit_rows: col == tb,
                    a_mask: None,
                    c_mask: None,
                    a_lend: None,
                    a_lstart: None,
                    b_lstart: None,
                },
                blk: [
                    "A".into(),
                    "B".into(),
                    "lda".into(),
                    "ldb".into(),
                    "C".into(),
                    rs,
                    cs,
                ],
                extents: ["M", "N", "M"],
            }
        }
        Blas::Lauum => {
            if upper {
                return Err(KernelError::BadInput(
                    "LAUUM: only --uplo L (the catalogue's domain is L^T L of a lower triangle)"
                        .into(),
                ));
            }
            let (rs, cs) = strides(l, "ldc", false);
            // op(A)(i, l) = L(l, i) and op(B)(l, j) = L(l, j): SYRK's reads of a
            // triangle. A is zero above its diagonal (the mask l >= i); B is read through
            // the same condition, l >= j, so that whatever the caller keeps in L's upper
            // triangle (BLAS never reads it; NaN there is legal) never reaches a product.
            Def {
                what: format!(
                    "C := alpha * L^T * L + beta * C ({layout_name}-major, L lower triangular, not referenced above its diagonal; the lower triangle of C), L and C N x N, C not overlapping L."
                ),
                domain: None,
                args: "int64_t N, double alpha, const double *A, int64_t lda, \
                       double beta, double *C, int64_t ldc",
                call: "N, alpha, A, lda, beta, C, ldc",
                prologue: format!(
                    "  if (N <= 0) return;\n{}  if (alpha == 0.0) return;\n",
                    beta_scaling("N", "N", true)
                ),
                bind: "const int64_t n = N;",
                epilogue: String::new(),
                accessors: format!(
                    "#define PS_L(r, c) {}\n#define PS_C(r, c) {}\n",
                    element("A", "lda", l, "r", "c"),
                    element("C", "ldc", l, "r", "c"),
                ),
                ops: Operands {
                    opa: element("a", "lda", l, "l", "i"),
                    opa_i_contiguous: !col,
                    opa_unit_columns: !col,
                    opa_halves: None,
                    opb: format!("(l) >= (j) ? {} : 0.0", element("b", "ldb", l, "l", "j")),
                    opb_l_contiguous: col,
                    // A choice between B and zero: no single array run.
                    opb_unit_columns: false,
                    opb_unit_rows: false,
                    a_mask: Some("(l) >= (i)".into()),
                    c_mask: Some("(j) <= (i)".into()),
                    a_lend: None,
                    a_lstart: Some("(i)".into()),
                    b_lstart: None,
                },
                blk: [
                    "A".into(),
                    "A".into(),
                    "lda".into(),
                    "lda".into(),
                    "C".into(),
                    rs,
                    cs,
                ],
                extents: ["N", "N", "N"],
            }
        }
        Blas::Trmm => {
            let trans = req.trans == Some(Trans::Yes);
            let (rs, cs) = strides(l, "ldb", false);
            let ld0 = if col { "M" } else { "N" };
            // op(A) is lower triangular when the stored triangle is lower and not
            // transposed, or upper and transposed: the catalogue's domain `l <= i`. The
            // other two variants multiply by an upper triangle, the domain `i <= l`, whose
            // rows are computed from the top down in place (row i reads rows l >= i).
            let op_lower = upper == trans;
            // op(A)(r, c) from the stored array: A(c, r) when transposed.
            let op = |x: &str, r: &str, c: &str| {
                if trans {
                    element(x, "lda", l, c, r)
                } else {
                    element(x, "lda", l, r, c)
                }
            };
            let (mask, lend, lstart) = if op_lower {
                ("(l) <= (i)", Some("(i) + 1".to_string()), None)
            } else {
                ("(l) >= (i)", None, Some("(i)".to_string()))
            };
            let (rows, lrange) = if op_lower {
                (
                    "int64_t i = M - 1; i >= 0; i--",
                    "int64_t l = 0; l <= i; l++",
                )
            } else {
                ("int64_t i = 0; i < M; i++", "int64_t l = i; l < M; l++")
            };
            Def {
                what: format!(
                    "B := alpha * op(A) * B ({layout_name}-major, CblasLeft, {}, {}, CblasNonUnit), A M x M, B M x N.",
                    if upper { "CblasUpper" } else { "CblasLower" },
                    if trans { "CblasTrans" } else { "CblasNoTrans" }
                ),
                domain: (!op_lower).then_some(TRMM_UPPER_DOMAIN),
                args: "int64_t M, int64_t N, double alpha, const double *A, int64_t lda, \
                       double *B, int64_t ldb",
                call: "M, N, alpha, A, lda, B, ldb",
                // The catalogue's nest accumulates into X while reading B; in place, the
                // old B is copied out first (O(MN) next to the O(M^2 N) products).
                prologue: fill(
                    TRMM_PROLOGUE,
                    &[
                        ("ld0", ld0),
                        ("line_name", if col { "columns" } else { "rows" }),
                        ("lines", if col { "N" } else { "M" }),
                        ("len", if col { "M" } else { "N" }),
                        ("rows", rows),
                        ("lrange", lrange),
                        // The copy is memory-bound: a second thread still shortens it.
                        (
                            "copy_pragma",
                            if req.openmp {
                                "#ifdef _OPENMP\n#pragma omp parallel for if (M * N >= PS_OMP_MIN)\n#endif\n"
                            } else {
                                ""
                            },
                        ),
                    ],
                ),
                bind: "const int64_t m = M, n = N;",
                epilogue: "  ps_give(ps_b0);\n".into(),
                accessors: format!(
                    "#define PS_L(r, c) {}\n#define PS_B(r, c) {}\n#define PS_X(r, c) {}\n",
                    op("A", "r", "c"),
                    element("ps_b0", "ps_ldb0", l, "r", "c"),
                    element("B", "ldb", l, "r", "c"),
                ),
                ops: Operands {
                    opa: op("a", "i", "l"),
                    opa_i_contiguous: col != trans,
                    opa_unit_columns: col != trans,
                    opa_halves: None,
                    opb: element("b", "ldb", l, "l", "j"),
                    opb_l_contiguous: col,
                    opb_unit_columns: col,
                    opb_unit_rows: !col,
                    a_mask: Some(mask.into()),
                    c_mask: None,
                    a_lend: lend,
                    a_lstart: lstart,
                    b_lstart: None,
                },
                blk: [
                    "A".into(),
                    "ps_b0".into(),
                    "lda".into(),
                    "ps_ldb0".into(),
                    "B".into(),
                    rs,
                    cs,
                ],
                extents: ["M", "N", "M"],
            }
        }
    })
}
