//! The `Generated` back end: forms as calls into the blocked `polyscan_d*` kernels where
//! `polyscan_kernels` has them, else as catalogue nests.

use std::fmt::Write as _;

use super::emitter::Emitter;
use super::form::Form;
use crate::error::LaError;
use crate::kernels::Kernel;

impl Emitter<'_> {
    pub(super) fn form_generated(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        // LAUUM (t^T t) has no blocked kernel: a triangular multiply of a copy of t by
        // t^T does it with three times LAUUM's flops, but at the blocked kernel's speed
        // (some 35 GFLOP/s here) instead of the catalogue nest's (about 1), and it
        // computes both triangles.
        let f = match f {
            Form::Lauum { c, t, lower } if self.lib.has(Kernel::Trmm)? => Form::Trmm {
                x: c,
                t: t.t(),
                lower: !lower,
                b: t,
            },
            // SYR2K has no blocked kernel, and its catalogue nest runs at the nest's speed
            // (about 1 GFLOP/s): the blocked GEMM for t = a^T b and t + t^T in place do
            // it with n^2 more flops at the blocked kernel's speed.
            Form::Syr2k { c, a, b, alpha } if self.lib.has(Kernel::Gemm)? => {
                let how = self.form_library(
                    code,
                    frees,
                    Form::Gemm {
                        c: c.clone(),
                        a: a.t(),
                        b,
                    },
                )?;
                let alpha = alpha.unwrap_or_else(|| "1.0".into());
                let _ = writeln!(
                    code,
                    "    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = ps_c; ps_r < {n}; ps_r++) {{\n        double ps_sum2 = ({alpha}) * ({} + {});\n        {} = ps_sum2;\n        {} = ps_sum2;\n      }}",
                    c.at("ps_r", "ps_c"),
                    c.at("ps_c", "ps_r"),
                    c.at("ps_r", "ps_c"),
                    c.at("ps_c", "ps_r"),
                    n = c.rows
                );
                return Ok(format!("{how} and its transpose added"));
            }
            other => other,
        };
        let lib_kernel = match &f {
            Form::Gemm { .. } => Some(Kernel::Gemm),
            Form::Symm { .. } => Some(Kernel::Symm),
            Form::Syrk { .. } => Some(Kernel::Syrk),
            Form::Trmm { .. } => Some(Kernel::Trmm),
            Form::Gemv { .. } => Some(Kernel::Gemv),
            Form::Trsm { .. } => Some(Kernel::Trsm),
            Form::Trsv { .. } => Some(Kernel::Trsv),
            Form::Trtri { .. } => Some(Kernel::Trtri),
            _ => None,
        };
        if let Some(k) = lib_kernel {
            if self.lib.has(k)? {
                return self.form_library(code, frees, f);
            }
        }
        self.form_nest(code, f)
    }

    /// Calls into `polyscan_d*` (column-major, no transposes, left side, lower triangle).
    fn form_library(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        let (name, scatter) = match f {
            Form::Gemm { c, a, b } => {
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dgemm({}, {}, {}, 1.0, {pa}, {lda}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols, a.cols
                );
                ("polyscan_dgemm", sc)
            }
            Form::Symm { c, s, b } => {
                // Symmetric operands are stored whole: a transposed view reads the same.
                let (ps, lds, _) = self.operand(code, frees, &s, true);
                let (pb, ldb, _) = self.operand(code, frees, &b, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dsymm({}, {}, 1.0, {ps}, {lds}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols
                );
                ("polyscan_dsymm", sc)
            }
            Form::Syrk { c, a } => {
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dsyrk({}, {}, 1.0, {pa}, {lda}, 0.0, {pc}, {ldc});",
                    c.rows, a.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &c, true)?;
                ("polyscan_dsyrk", String::new())
            }
            Form::Trmm { x, t, lower, b } => {
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let (x, b) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (px, ldx, sc) = self.target(code, frees, x, Some(b));
                let _ = writeln!(
                    code,
                    "    polyscan_dtrmm({}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    x.rows, x.cols
                );
                ("polyscan_dtrmm", sc)
            }
            Form::Gemv { y, a, x } => {
                let (pa, lda, _) = self.operand(code, frees, &a, false);
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let _ = writeln!(
                    code,
                    "    polyscan_dgemv({}, {}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    a.rows, a.cols
                );
                ("polyscan_dgemv", sc)
            }
            Form::Trsm { x, t, lower, b } => {
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let (x, b) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (px, ldx, sc) = self.target(code, frees, x, Some(b));
                let _ = writeln!(
                    code,
                    "    polyscan_dtrsm({}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    x.rows, x.cols
                );
                ("polyscan_dtrsm", sc)
            }
            Form::Trsv { y, t, lower, x } => {
                let (t, rest) = Self::lowered(t, lower, vec![y, x]);
                let (y, x) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (py, _, sc) = self.target(code, frees, y, Some(x));
                let _ = writeln!(
                    code,
                    "    polyscan_dtrsv({}, {pt}, {ldt}, {py}, 1);",
                    t.rows
                );
                ("polyscan_dtrsv", sc)
            }
            Form::Trtri { x, t, lower } => {
                // The kernel inverts a lower triangle in place.
                let (t, x) = Self::reversed_unless_lower(lower, t, x);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&t));
                let _ = writeln!(
                    code,
                    "    {{ int64_t ps_info = polyscan_dtrtri({n}, {px}, {ldx});\n      if (ps_info != 0) ps_fail(\"polyscan_dtrtri\", (long)ps_info);\n      ps_zero_triangle({px}, {n}, {ldx}, 1); }}",
                    n = t.rows
                );
                ("polyscan_dtrtri", sc)
            }
            other => return self.form_nest(code, other),
        };
        code.push_str(&scatter);
        Ok(format!("generated kernel {name}"))
    }
}
