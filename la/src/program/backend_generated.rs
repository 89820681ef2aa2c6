//! The `Generated` back end: forms as calls into the blocked `polyscan_d*` kernels where
//! `polyscan_kernels` has them, else as catalogue nests.

use std::fmt::Write as _;

use super::emitter::Emitter;
use super::form::Form;
use super::library::Flags;
use super::view::V;
use crate::error::LaError;
use crate::kernels::Kernel;

/// A variant `polyscan_kernels` emits for every flag combination was refused: a bug.
fn missing() -> LaError {
    LaError::Unsupported("a blocked kernel variant the generated back end needs is missing".into())
}

impl Emitter<'_> {
    pub(super) fn form_generated(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        let f = match f {
            // SYR2K has no blocked kernel, and its catalogue nest runs at the nest's speed
            // (about 1 GFLOP/s): the blocked GEMM for t = a^T b and t + t^T in place do
            // it with n^2 more flops at the blocked kernel's speed.
            Form::Syr2k { c, a, b, alpha } if self.lib.knows(Kernel::Gemm) => {
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
            // SYMV has no blocked kernel either, and its catalogue nest (a branch per element
            // between the triangles) ran a22's 2000 x 2000 product in 5.0-6.7 ms against
            // OpenBLAS's 1.1. Symmetric operands are stored whole (as for SYMM above), so the
            // blocked GEMV computes the same product; it reads both triangles, twice
            // OpenBLAS's memory traffic on this memory-bound step.
            Form::Symv { y, a, x } if self.lib.knows(Kernel::Gemv) => Form::Gemv { y, a, x },
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
            Form::Lauum { .. } => Some(Kernel::Lauum),
            _ => None,
        };
        if lib_kernel.is_some_and(|k| self.lib.knows(k)) {
            return self.form_library(code, frees, f);
        }
        self.form_nest(code, f)
    }

    /// Calls into `polyscan_d*`: the instance with the flags that read the operands in
    /// place where there is one (GEMM, GEMV, TRMM, TRSM, TRSV), else the default variant
    /// (column-major, no transposes, left side, lower triangle) on copies of the views.
    fn form_library(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        f: Form,
    ) -> Result<String, LaError> {
        let (name, scatter) = match f {
            Form::Gemm { c, a, b } => {
                // Transposed operands are read in place by the instance with those flags
                // (a copy of a 5000 x 5000 transposed view costs more than its GEMV).
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (pb, ldb, tb) = self.operand(code, frees, &b, true);
                let flags = Flags {
                    trans: ta,
                    transb: tb,
                    ..Flags::default()
                };
                let f = self
                    .lib
                    .instance(Kernel::Gemm, flags)?
                    .ok_or_else(missing)?;
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let _ = writeln!(
                    code,
                    "    {f}({}, {}, {}, 1.0, {pa}, {lda}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols, a.cols
                );
                (f, sc)
            }
            Form::Symm { c, s, b } => {
                // Symmetric operands are stored whole: a transposed view reads the same. A
                // transposed B is read in place by the `--transb T` instance (a24's copy of
                // A^T, 2000 x 1500, was 5% of its SYMM at two threads).
                let (ps, lds, _) = self.operand(code, frees, &s, true);
                let (pb, ldb, tb) = self.operand(code, frees, &b, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let flags = Flags {
                    transb: tb,
                    ..Flags::default()
                };
                let f = self
                    .lib
                    .instance(Kernel::Symm, flags)?
                    .ok_or_else(missing)?;
                let _ = writeln!(
                    code,
                    "    {f}({}, {}, 1.0, {ps}, {lds}, {pb}, {ldb}, 0.0, {pc}, {ldc});",
                    c.rows, c.cols
                );
                (f, sc)
            }
            Form::Syrk { c, a } => {
                // A transposed view of column-major storage (c = t t^T) is t^T stored
                // row-major with the same leading dimension: the row-major instance reads
                // it in place (a24's 2000 x 1500 copy was 8% of its SYRK at two threads),
                // and its upper triangle is the column-major lower one.
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let flags = Flags {
                    row: ta,
                    upper: ta,
                    ..Flags::default()
                };
                let f = self
                    .lib
                    .instance(Kernel::Syrk, flags)?
                    .ok_or_else(missing)?;
                let _ = writeln!(
                    code,
                    "    {f}({}, {}, 1.0, {pa}, {lda}, 0.0, {pc}, {ldc});",
                    c.rows, a.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &c, true)?;
                (f, String::new())
            }
            Form::Trmm { x, t, lower, b } => {
                let (t, rest, flags) = Self::triangle(t, lower, vec![x, b]);
                let (x, b) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, flags.trans);
                let (px, ldx, sc) = self.target(code, frees, x, Some(b));
                let f = self
                    .lib
                    .instance(Kernel::Trmm, flags)?
                    .ok_or_else(missing)?;
                let _ = writeln!(
                    code,
                    "    {f}({}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    x.rows, x.cols
                );
                (f, sc)
            }
            Form::Gemv { y, a, x } => {
                // A transposed view of column-major storage is a row-major matrix with the
                // same leading dimension: the row-layout instance reads it in place.
                let (pa, lda, ta) = self.operand(code, frees, &a, true);
                let flags = Flags {
                    row: ta,
                    ..Flags::default()
                };
                let f = self
                    .lib
                    .instance(Kernel::Gemv, flags)?
                    .ok_or_else(missing)?;
                let (px, _, _) = self.operand(code, frees, &x, true);
                let (py, _, sc) = self.target(code, frees, &y, None);
                let _ = writeln!(
                    code,
                    "    {f}({}, {}, 1.0, {pa}, {lda}, {px}, 1, 0.0, {py}, 1);",
                    a.rows, a.cols
                );
                (f, sc)
            }
            Form::Trsm { x, t, lower, b } => {
                let (t, rest, flags) = Self::triangle(t, lower, vec![x, b]);
                let (x, b) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, flags.trans);
                let f = self
                    .lib
                    .instance(Kernel::Trsm, flags)?
                    .ok_or_else(missing)?;
                let (px, ldx, sc) = self.target(code, frees, x, Some(b));
                let _ = writeln!(
                    code,
                    "    {f}({}, {}, 1.0, {pt}, {ldt}, {px}, {ldx});",
                    x.rows, x.cols
                );
                (f, sc)
            }
            Form::Trsv { y, t, lower, x } => {
                let (t, rest, flags) = Self::triangle(t, lower, vec![y, x]);
                let (y, x) = (&rest[0], &rest[1]);
                let (pt, ldt, _) = self.operand(code, frees, &t, flags.trans);
                let f = self
                    .lib
                    .instance(Kernel::Trsv, flags)?
                    .ok_or_else(missing)?;
                let (py, _, sc) = self.target(code, frees, y, Some(x));
                let _ = writeln!(code, "    {f}({}, {pt}, {ldt}, {py}, 1);", t.rows);
                (f, sc)
            }
            Form::Lauum { c, t, lower } => {
                // The kernel writes the lower triangle of t^T t for a lower t. An upper t
                // is lower reversed in both indices, and t^T t is then the reversal of the
                // product of the reversals: the computed triangle is the result's upper one.
                let out = c.clone();
                let (t, c) = Self::reversed_unless_lower(lower, t, c);
                let (pt, ldt, _) = self.operand(code, frees, &t, false);
                let (pc, ldc, sc) = self.target(code, frees, &c, None);
                let f = self
                    .lib
                    .instance(Kernel::Lauum, Flags::default())?
                    .ok_or_else(missing)?;
                let _ = writeln!(
                    code,
                    "    {f}({n}, 1.0, {pt}, {ldt}, 0.0, {pc}, {ldc});",
                    n = t.rows
                );
                code.push_str(&sc);
                Self::symmetrize(code, &out, lower)?;
                (f, String::new())
            }
            Form::Trtri { x, t, lower } => {
                // The kernel inverts a lower triangle in place.
                let (t, x) = Self::reversed_unless_lower(lower, t, x);
                let (px, ldx, sc) = self.target(code, frees, &x, Some(&t));
                let f = self
                    .lib
                    .instance(Kernel::Trtri, Flags::default())?
                    .ok_or_else(missing)?;
                let _ = writeln!(
                    code,
                    "    {{ int64_t ps_info = {f}({n}, {px}, {ldx});\n      if (ps_info != 0) ps_fail(\"{f}\", (long)ps_info);\n      ps_zero_triangle({px}, {n}, {ldx}, 1); }}",
                    n = t.rows
                );
                (f, sc)
            }
            other => return self.form_nest(code, other),
        };
        code.push_str(&scatter);
        Ok(format!("generated kernel {name}"))
    }

    /// A triangular operand as a TRMM, TRSM or TRSV instance reads it: a plain view in place,
    /// through the instance's `--uplo` and `--trans` (stored upper when the view is lower
    /// and transposed, or upper and not); any other view made lower by reversing it and the
    /// rows of `others`, for the default instance on a copy.
    fn triangle(t: V, lower: bool, others: Vec<V>) -> (V, Vec<V>, Flags) {
        match t.plain() {
            Some((_, _, tt)) => {
                let flags = Flags {
                    upper: lower == tt,
                    trans: tt,
                    ..Flags::default()
                };
                (t, others, flags)
            }
            None => {
                let (t, others) = Self::lowered(t, lower, others);
                (t, others, Flags::default())
            }
        }
    }
}
