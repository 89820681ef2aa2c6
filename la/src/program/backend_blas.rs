//! The `Blas` back end: forms as CBLAS and Fortran LAPACK calls (OpenBLAS), with the
//! catalogue nest for kernels no BLAS routine covers.

use std::fmt::Write as _;

use super::emitter::Emitter;
use super::form::Form;
use crate::error::LaError;

impl Emitter<'_> {
    /// CBLAS / LAPACK calls; kernels without a BLAS routine (diagonal scaling and solves,
    /// row permutations, scaling by a 1 x 1 factor) run the catalogue nest.
    pub(super) fn form_blas(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        let tr = |t: bool| if t { "CblasTrans" } else { "CblasNoTrans" };
        // The stored triangle of a view that is `lower` as used.
        let uplo = |lower: bool, t: bool| {
            if lower != t {
                "CblasLower"
            } else {
                "CblasUpper"
            }
        };
        let (name, scatter) = match f {
            Form::Gemm { c, a, b } => {
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (pb, ldb, tb) = self.operand(code, frees, &b, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    cblas_dgemm(CblasColMajor, {}, {}, {}, {}, {}, 1.0, {pa}, {lda}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    tr(ta), tr(tb), c.rows, c.cols, a.cols
                );
                ("cblas_dgemm", sc)
            }
            Form::Symm { c, s, b } => {
                // Symmetric operands are stored whole: a transposed view reads the same.
                let (ps, lds, _) = self.operand(code, frees, &s, true);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, {}, {}, 1.0, {ps}, {lds}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols
                );
                ("cblas_dsymm", sc)
            }
            Form::Syrk { c, a } => {
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                // a (k x n) stored as is: C = a^T a is CblasTrans; stored transposed
                // (n x k): C = s s^T is CblasNoTrans.
                let _ = writeln!(
                    code,
                    "    cblas_dsyrk(CblasColMajor, CblasLower, {}, {}, {}, 1.0, {pa}, {lda}, 0.0, {pc}, {ldc});",
                    tr(!ta), c.rows, a.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &c, true)?;
                ("cblas_dsyrk", String::new())
            }
            Form::Syr2k { c, a, b, alpha } => {
                // Both operands stored as used (k x n): C = A^T B + B^T A is CblasTrans.
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let alpha = alpha.unwrap_or_else(|| "1.0".into());
                let _ = writeln!(
                    code,
                    "    cblas_dsyr2k(CblasColMajor, CblasLower, CblasTrans, {}, {}, {alpha}, {pa}, {lda}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, a.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &c, true)?;
                ("cblas_dsyr2k", String::new())
            }
            Form::Trmm { x, t, lower, b } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&b));
                let _ = writeln!(
                    code,
                    "    cblas_dtrmm(CblasColMajor, CblasLeft, {}, {}, CblasNonUnit, {}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    uplo(lower, tt), tr(tt), x.rows, x.cols
                );
                ("cblas_dtrmm", sc)
            }
            Form::Trsm { x, t, lower, b } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&b));
                let _ = writeln!(
                    code,
                    "    cblas_dtrsm(CblasColMajor, CblasLeft, {}, {}, CblasNonUnit, {}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    uplo(lower, tt), tr(tt), x.rows, x.cols
                );
                ("cblas_dtrsm", sc)
            }
            Form::Gemv { y, a, x } => {
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let (r, c) = if ta {
                    (a.cols, a.rows)
                } else {
                    (a.rows, a.cols)
                };
                let _ = writeln!(
                    code,
                    "    cblas_dgemv(CblasColMajor, {}, {r}, {c}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    tr(ta)
                );
                ("cblas_dgemv", sc)
            }
            Form::Symv { y, a, x } => {
                let (pa, lda, _) = self.operand(code, frees, &a, true);
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let _ = writeln!(
                    code,
                    "    cblas_dsymv(CblasColMajor, CblasLower, {}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    a.rows
                );
                ("cblas_dsymv", sc)
            }
            Form::Trmv { y, t, lower, x } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (py, _, sc) = self.target(code, frees, &y, Some(&x));
                let _ = writeln!(
                    code,
                    "    cblas_dtrmv(CblasColMajor, {}, {}, CblasNonUnit, {}, {pt}, {ldt}, {py}, 1);",
                    uplo(lower, tt), tr(tt), t.rows
                );
                ("cblas_dtrmv", sc)
            }
            Form::Trsv { y, t, lower, x } => {
                let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                let (py, _, sc) = self.target(code, frees, &y, Some(&x));
                let _ = writeln!(
                    code,
                    "    cblas_dtrsv(CblasColMajor, {}, {}, CblasNonUnit, {}, {pt}, {ldt}, {py}, 1);",
                    uplo(lower, tt), tr(tt), t.rows
                );
                ("cblas_dtrsv", sc)
            }
            Form::Ger { c, x, y } => {
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, _) = self.operand(code, frees, &y, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {m}; ps_r++) {pc}[ps_r + ps_c * {ldc}] = 0.0;\n    cblas_dger(CblasColMajor, {m}, {n}, 1.0, {px}, 1, {py}, 1, {pc}, {ldc});",
                    m = c.rows,
                    n = c.cols
                );
                ("cblas_dger", sc)
            }
            Form::Dot { s, x, y } => {
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, _) = self.operand(code, frees, &y, true);
                let _ = writeln!(
                    code,
                    "    {} = cblas_ddot({}, {px}, 1, {py}, 1);",
                    s.at("0", "0"),
                    x.rows
                );
                ("cblas_ddot", String::new())
            }
            Form::Trtri { x, t, lower } => {
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&t));
                let _ = writeln!(
                    code,
                    "    {{ int ps_n = {n}, ps_ld = {ldx}, ps_info = 0;\n      dtrtri_(\"{}\", \"N\", &ps_n, {px}, &ps_ld, &ps_info, 1, 1);\n      if (ps_info != 0) ps_fail(\"dtrtri\", ps_info);\n      ps_zero_triangle({px}, {n}, {ldx}, {}); }}",
                    if lower { "L" } else { "U" },
                    i32::from(lower),
                    n = t.rows
                );
                ("dtrtri_", sc)
            }
            Form::Lauum { c, t, lower } => {
                if lower && t.plain().is_some_and(|(_, _, tt)| !tt) {
                    let (pc, ldc, sc) = self.target(code, frees, &c, Some(&t));
                    let _ = writeln!(
                        code,
                        "    {{ int ps_n = {n}, ps_ld = {ldc}, ps_info = 0;\n      dlauum_(\"L\", &ps_n, {pc}, &ps_ld, &ps_info, 1);\n      if (ps_info != 0) ps_fail(\"dlauum\", ps_info); }}",
                        n = t.rows
                    );
                    code.push_str(&sc);
                    Self::symmetrize(code, &c, true)?;
                    ("dlauum_", String::new())
                } else {
                    // t^T t as a triangular multiply of a copy of t.
                    let (pt, ldt, tt) = self.operand(code, frees, &t, true);
                    let (pc, ldc, sc) = self.target(code, frees, &c, Some(&t));
                    let _ = writeln!(
                        code,
                        "    cblas_dtrmm(CblasColMajor, CblasLeft, {}, {}, CblasNonUnit, {n}, {n}, 1.0, {pt}, {ldt}, {pc}, {ldc});",
                        uplo(lower, tt),
                        tr(!tt),
                        n = t.rows
                    );
                    ("cblas_dtrmm", sc)
                }
            }
            other => return self.form_nest(code, other),
        };
        code.push_str(&scatter);
        Ok(format!("BLAS {name}"))
    }
}
