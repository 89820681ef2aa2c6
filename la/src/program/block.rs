//! The block-diagonal steps as code (issue 22): BDGETRI, BDGESV, BDGETRS and BDGEMM run
//! block by block, as LAPACK's DGETRF + DGETRI or DGETRS and CBLAS's DGEMM per block (`Blas`), or
//! the C routines of `c/block.c` (`Generated`, `Nests`: small LU and product loops; the
//! blocks are too small for the blocked kernels). The block-diagonal operand's blocks are
//! copied stacked (an n x b scratch array, rows k .. k + b - 1 holding the block at row and
//! column k), so a step reads and stores only the blocks; a right-sided use is the
//! transposed left-sided one. BDGESV factors the blocks in its `lu` entity (stacked the
//! same way) with the pivots in its `piv` entity, where BDGETRS finds them.

use std::fmt::Write as _;

use super::dim::Dim;
use super::emitter::{internal, Emitter};
use super::options::Backend;
use super::view::{View, V};
use crate::error::LaError;
use crate::kernels::Kernel;
use crate::lower::{Arg, Op, Step};

/// `for` over the blocks of an `n x n` matrix with blocks of `b`: `ps_k` the first row,
/// `ps_mb` the block's size (the last may be smaller). The caller closes the brace.
fn block_loop(n: &Dim, b: u64) -> String {
    format!(
        "    for (int64_t ps_k = 0; ps_k < {n}; ps_k += {b}) {{\n      int ps_mb = (int)({n} - ps_k < {b} ? {n} - ps_k : {b});"
    )
}

impl Emitter<'_> {
    /// The diagonal blocks of `src` (n x n, blocks of `b`) stacked in an `n x b` scratch
    /// array with leading dimension n.
    fn stacked_blocks(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        src: &V,
        b: u64,
    ) -> String {
        let n = src.rows.clone();
        let w = self.scratch_matrix(code, frees, &n, &Dim::lit(b));
        let _ = writeln!(
            code,
            "{}\n      for (int64_t ps_c = 0; ps_c < ps_mb; ps_c++)\n        for (int64_t ps_r = 0; ps_r < ps_mb; ps_r++)\n          {w}[ps_k + ps_r + ps_c * {n}] = {};\n    }}",
            block_loop(&n, b),
            src.at("ps_k + ps_r", "ps_k + ps_c")
        );
        w
    }

    /// Copies the blocks `cells` (entities, by block row and column) into `out`, each at the
    /// offsets the run shapes of the blocks before it give.
    pub(super) fn assemble_blocks(&self, code: &mut String, out: usize, cells: &[Vec<usize>]) {
        let ld = self.shapes[out].0.clone();
        let mut r0 = Dim::lit(0);
        for row in cells {
            let mut c0 = Dim::lit(0);
            for &c in row {
                let (r, k) = self.shapes[c].clone();
                let dst = V {
                    view: View::Base {
                        ptr: format!("({} + {r0} + ({c0}) * {ld})", self.ptr(out)),
                        ld: ld.clone(),
                    },
                    rows: r,
                    cols: k.clone(),
                };
                self.copy(code, &dst, &self.base(c));
                c0 = &c0 + &k;
            }
            if let Some(&c) = row.first() {
                r0 = &r0 + &self.shapes[c].0;
            }
        }
    }

    /// The block size of a block-diagonal argument (1 if none is known, which the lowering
    /// never produces for these kernels).
    fn block_of(&self, a: Arg) -> u64 {
        self.props(a).block().unwrap_or(1)
    }

    /// The code of a block-diagonal step (`s.kernel` one of BDGETRI, BDGESV, BDGETRS, BDGEMM) and how
    /// it was realised.
    pub(super) fn block_step(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        s: &Step,
    ) -> Result<String, LaError> {
        let blas = self.backend == Backend::Blas;
        let out = self.base(s.out);
        match (&s.op, s.kernel) {
            (Op::Inverse { a }, Kernel::BdGetri) => {
                let b = self.block_of(*a);
                let n = out.rows.clone();
                let av = self.view(*a);
                let w = self.stacked_blocks(code, frees, &av, b);
                let (x, ldx, scatter) = self.target(code, frees, &out, None);
                let how = if blas {
                    let ip = self.scratch_ints(code, frees, &n, "int");
                    let work = self.scratch_matrix(code, frees, &Dim::lit(b), &Dim::lit(1));
                    let _ = writeln!(
                        code,
                        "    for (int64_t ps_c = 0; ps_c < {n}; ps_c++) memset({x} + ps_c * {ldx}, 0, sizeof(double) * (size_t){n});\n{}\n      int ps_ldx = {ldx}, ps_lw = {b}, ps_info = 0;\n      for (int64_t ps_c = 0; ps_c < ps_mb; ps_c++)\n        for (int64_t ps_r = 0; ps_r < ps_mb; ps_r++)\n          {x}[ps_k + ps_r + (ps_k + ps_c) * {ldx}] = {w}[ps_k + ps_r + ps_c * {n}];\n      dgetrf_(&ps_mb, &ps_mb, {x} + ps_k + ps_k * {ldx}, &ps_ldx, {ip}, &ps_info);\n      if (ps_info != 0) ps_fail(\"dgetrf\", ps_info);\n      dgetri_(&ps_mb, {x} + ps_k + ps_k * {ldx}, &ps_ldx, {ip}, {work}, &ps_lw, &ps_info);\n      if (ps_info != 0) ps_fail(\"dgetri\", ps_info);\n    }}",
                        block_loop(&n, b)
                    );
                    "LAPACK dgetrf_ + dgetri_ per block"
                } else {
                    let piv = self.scratch_ints(code, frees, &n, "int64_t");
                    let _ = writeln!(
                        code,
                        "    if (ps_bd_inverse({n}, {b}, {w}, {n}, {x}, {ldx}, {piv}) != 0) ps_fail(\"ps_bd_inverse\", 1);"
                    );
                    "block LU and inverse ps_bd_inverse"
                };
                code.push_str(&scatter);
                Ok(how.into())
            }
            (
                Op::BlockSolve {
                    t,
                    b: rhs,
                    left,
                    lu,
                    piv,
                    factor,
                },
                Kernel::BdGesv | Kernel::BdGetrs,
            ) => {
                let b = self.block_of(*t);
                // X = T^-1 B, or X = B T^-1 as X^T = T^-T B^T.
                let (tv, bv, xv) = if *left {
                    (self.view(*t), self.view(*rhs), out)
                } else {
                    (self.view(*t).t(), self.view(*rhs).t(), out.t())
                };
                let n = tv.rows.clone();
                let m = bv.cols.clone();
                // The kept factors: T's blocks stacked in `lu` (n x b, leading dimension
                // n), factored in place by a BDGESV; the pivots in `piv`'s n doubles
                // (int64_t, or LAPACK's int, fit in them; the C API's workspace is aligned
                // for int64_t).
                let (w, pv) = (self.ptr(*lu), self.ptr(*piv));
                if *factor {
                    let _ = writeln!(
                        code,
                        "{}\n      for (int64_t ps_c = 0; ps_c < ps_mb; ps_c++)\n        for (int64_t ps_r = 0; ps_r < ps_mb; ps_r++)\n          {w}[ps_k + ps_r + ps_c * {n}] = {};\n    }}",
                        block_loop(&n, b),
                        tv.at("ps_k + ps_r", "ps_k + ps_c")
                    );
                }
                let (x, ldx, scatter) = self.target(code, frees, &xv, Some(&bv));
                let how = if blas {
                    let factor_code = if *factor {
                        format!("\n      dgetrf_(&ps_mb, &ps_mb, {w} + ps_k, &ps_ld, (int *){pv} + ps_k, &ps_info);\n      if (ps_info != 0) ps_fail(\"dgetrf\", ps_info);")
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        code,
                        "{}\n      int ps_ld = {n}, ps_ldx = {ldx}, ps_m = {m}, ps_info = 0;{factor_code}\n      dgetrs_(\"N\", &ps_mb, &ps_m, {w} + ps_k, &ps_ld, (int *){pv} + ps_k, {x} + ps_k, &ps_ldx, &ps_info, 1);\n      if (ps_info != 0) ps_fail(\"dgetrs\", ps_info);\n    }}",
                        block_loop(&n, b)
                    );
                    if *factor {
                        "LAPACK dgetrf_ + dgetrs_ per block (factors kept)"
                    } else {
                        "LAPACK dgetrs_ per block with kept factors"
                    }
                } else {
                    if *factor {
                        let _ = writeln!(
                            code,
                            "    if (ps_bd_factor({n}, {b}, {w}, {n}, (int64_t *){pv}) != 0) ps_fail(\"ps_bd_factor\", 1);"
                        );
                    }
                    let _ = writeln!(
                        code,
                        "    ps_bd_lu_solves({n}, {b}, {m}, {w}, {n}, (const int64_t *){pv}, {x}, {ldx});"
                    );
                    if *factor {
                        "block LU (kept) and solves ps_bd_factor, ps_bd_lu_solves"
                    } else {
                        "block solves with kept factors ps_bd_lu_solves"
                    }
                };
                code.push_str(&scatter);
                Ok(how.into())
            }
            (Op::Mul { a, b: r }, Kernel::BdGemm) => {
                // C = A B with A block-diagonal, or C = B A as C^T = A^T B^T: the side
                // `chain` priced.
                let sq = |v: &V| v.rows == v.cols;
                let (va, vr) = (self.view(*a), self.view(*r));
                let pa = if sq(&va) {
                    self.props(*a)
                } else {
                    Default::default()
                };
                let pr = if sq(&vr) {
                    self.props(*r)
                } else {
                    Default::default()
                };
                let (left, b) = crate::lower::block_product_side(pa, pr).ok_or_else(internal)?;
                let (av, bv, cv) = if left {
                    (va, vr, out)
                } else {
                    (vr.t(), va.t(), out.t())
                };
                let n = av.rows.clone();
                let m = bv.cols.clone();
                let w = self.stacked_blocks(code, frees, &av, b);
                let (x, ldb, _) = self.operand(code, frees, &bv, false);
                let (c, ldc, scatter) = self.target(code, frees, &cv, None);
                let how = if blas {
                    let _ = writeln!(
                        code,
                        "{}\n      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ps_mb, {m}, ps_mb, 1.0, {w} + ps_k, {n}, {x} + ps_k, {ldb}, 0.0, {c} + ps_k, {ldc});\n    }}",
                        block_loop(&n, b)
                    );
                    "CBLAS cblas_dgemm per block"
                } else {
                    let _ = writeln!(
                        code,
                        "    ps_bd_gemm({n}, {b}, {m}, {w}, {n}, {x}, {ldb}, {c}, {ldc});"
                    );
                    "block products ps_bd_gemm"
                };
                code.push_str(&scatter);
                Ok(how.into())
            }
            _ => Err(internal()),
        }
    }
}
