//! The catalogue nests as code: a nest with its arrays bound to views, and every form
//! as its catalogue body over its domain (the `Nests` back end, and the fallback of the
//! others).

use std::fmt::Write as _;

use super::catalogue::{catalogue_nest, rewrite_body, Acc};
use super::dim::Dim;
use super::emitter::{internal, Emitter};
use super::form::Form;
use crate::error::LaError;
use crate::kernels::Kernel;

impl Emitter<'_> {
    /// A catalogue nest with its arrays bound to views.
    pub(super) fn nest(
        &mut self,
        code: &mut String,
        kernel: Kernel,
        params: &[(&str, Dim)],
        arrays: &[(&str, Acc)],
        scalars: &[(&str, String)],
        prefix: &str,
    ) -> Result<(), LaError> {
        let nest = match self.nests.entry(kernel) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(catalogue_nest(kernel)?),
        };
        let spec = kernel
            .spec()
            .ok_or_else(|| LaError::Unsupported(format!("{kernel} has no catalogue entry")))?;
        let _ = writeln!(code, "    {{ /* {}: {} */", spec.name, spec.domain);
        for p in &nest.params {
            let v = params
                .iter()
                .find(|(n, _)| n == p)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| {
                    LaError::Unsupported(format!("{}: no value for parameter {p}", spec.name))
                })?;
            let _ = writeln!(code, "    const int64_t {p} = {v};");
        }
        let mut undef = Vec::new();
        for (name, acc) in arrays {
            match acc {
                Acc::Mat(v) => {
                    let _ = writeln!(code, "#define PS_{name}(r, c) {}", v.at("r", "c"));
                }
                Acc::Vec(v) => {
                    let _ = writeln!(code, "#define PS_{name}(e) {}", v.el("e"));
                }
                Acc::Ints(a) => {
                    let _ = writeln!(code, "#define PS_{name}(e) {a}[e]");
                }
            }
            undef.push(format!("PS_{name}"));
        }
        let body = rewrite_body(spec.body, scalars);
        let _ = writeln!(
            code,
            "#define S({}) do {{ {prefix}{body}; }} while (0)",
            nest.iterators.join(", ")
        );
        for line in nest.fragment.lines() {
            let _ = writeln!(code, "    {line}");
        }
        let _ = writeln!(code, "#undef S");
        for u in undef {
            let _ = writeln!(code, "#undef {u}");
        }
        let _ = writeln!(code, "    }}");
        Ok(())
    }

    /// The catalogue body over its domain.
    pub(super) fn form_nest(&mut self, code: &mut String, f: Form) -> Result<String, LaError> {
        use Acc::{Mat, Vec as Vc};
        let kernel = match f {
            Form::Gemm { c, a, b } => {
                self.zero_view(code, &c);
                let p = [
                    ("m", c.rows.clone()),
                    ("n", c.cols.clone()),
                    ("k", a.cols.clone()),
                ];
                self.nest(
                    code,
                    Kernel::Gemm,
                    &p,
                    &[("C", Mat(c)), ("A", Mat(a)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                Kernel::Gemm
            }
            Form::Symm { c, s, b } => {
                self.zero_view(code, &c);
                let p = [("m", c.rows.clone()), ("n", c.cols.clone())];
                self.nest(
                    code,
                    Kernel::Symm,
                    &p,
                    &[("C", Mat(c)), ("A", Mat(s)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                Kernel::Symm
            }
            Form::Syrk { c, a } => {
                self.zero_view(code, &c);
                let p = [("n", c.rows.clone()), ("k", a.rows.clone())];
                self.nest(
                    code,
                    Kernel::Syrk,
                    &p,
                    &[("C", Mat(c.clone())), ("A", Mat(a))],
                    &[],
                    "",
                )?;
                Self::symmetrize(code, &c, true)?;
                Kernel::Syrk
            }
            Form::Syr2k { c, a, b, alpha } => {
                self.zero_view(code, &c);
                let p = [("n", c.rows.clone()), ("k", a.rows.clone())];
                self.nest(
                    code,
                    Kernel::Syr2k,
                    &p,
                    &[("C", Mat(c.clone())), ("A", Mat(a)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                if let Some(alpha) = alpha {
                    // The catalogue body has no alpha: scale the computed lower triangle.
                    let _ = writeln!(
                        code,
                        "    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = ps_c; ps_r < {n}; ps_r++)\n        {} *= {alpha};",
                        c.at("ps_r", "ps_c"),
                        n = c.rows
                    );
                }
                Self::symmetrize(code, &c, true)?;
                Kernel::Syr2k
            }
            Form::Trmm { x, t, lower, b } => {
                self.zero_view(code, &x);
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let mut it = rest.into_iter();
                let (Some(x), Some(b)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                let p = [("m", x.rows.clone()), ("n", x.cols.clone())];
                self.nest(
                    code,
                    Kernel::Trmm,
                    &p,
                    &[("X", Mat(x)), ("L", Mat(t)), ("B", Mat(b))],
                    &[],
                    "",
                )?;
                Kernel::Trmm
            }
            Form::Trsm { x, t, lower, b } => {
                let (t, rest) = Self::lowered(t, lower, vec![x, b]);
                let mut it = rest.into_iter();
                let (Some(x), Some(b)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                self.copy(code, &x, &b);
                let p = [("m", x.rows.clone()), ("n", x.cols.clone())];
                self.nest(
                    code,
                    Kernel::Trsm,
                    &p,
                    &[("B", Mat(x)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                Kernel::Trsm
            }
            Form::Gemv { y, a, x } => {
                self.zero_view(code, &y);
                let p = [("m", a.rows.clone()), ("n", a.cols.clone())];
                self.nest(
                    code,
                    Kernel::Gemv,
                    &p,
                    &[("y", Vc(y)), ("A", Mat(a)), ("x", Vc(x))],
                    &[],
                    "",
                )?;
                Kernel::Gemv
            }
            Form::Symv { y, a, x } => {
                self.zero_view(code, &y);
                let p = [("n", a.rows.clone())];
                self.nest(
                    code,
                    Kernel::Symv,
                    &p,
                    &[("y", Vc(y)), ("A", Mat(a)), ("x", Vc(x))],
                    &[],
                    "",
                )?;
                Kernel::Symv
            }
            Form::Trmv { y, t, lower, x } => {
                self.zero_view(code, &y);
                let (t, rest) = Self::lowered(t, lower, vec![y, x]);
                let mut it = rest.into_iter();
                let (Some(y), Some(x)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                let p = [("n", t.rows.clone())];
                self.nest(
                    code,
                    Kernel::Trmv,
                    &p,
                    &[("y", Vc(y)), ("L", Mat(t)), ("x", Vc(x))],
                    &[],
                    "",
                )?;
                Kernel::Trmv
            }
            Form::Trsv { y, t, lower, x } => {
                let (t, rest) = Self::lowered(t, lower, vec![y, x]);
                let mut it = rest.into_iter();
                let (Some(y), Some(x)) = (it.next(), it.next()) else {
                    return Err(internal());
                };
                self.copy(code, &y, &x);
                let p = [("n", t.rows.clone())];
                self.nest(
                    code,
                    Kernel::Trsv,
                    &p,
                    &[("x", Vc(y)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                Kernel::Trsv
            }
            Form::Ger { c, x, y } => {
                self.zero_view(code, &c);
                let p = [("m", c.rows.clone()), ("n", c.cols.clone())];
                self.nest(
                    code,
                    Kernel::Ger,
                    &p,
                    &[("A", Mat(c)), ("x", Vc(x)), ("y", Vc(y))],
                    &[],
                    "",
                )?;
                Kernel::Ger
            }
            Form::Dot { s, x, y } => {
                let target = s.at("0", "0");
                let _ = writeln!(code, "    {target} = 0.0;");
                let p = [("n", x.rows.clone())];
                self.nest(
                    code,
                    Kernel::Dot,
                    &p,
                    &[("x", Vc(x)), ("y", Vc(y))],
                    &[("s", target)],
                    "",
                )?;
                Kernel::Dot
            }
            Form::DiagScale { x, d, b } => {
                self.copy(code, &x, &b);
                let p = [("m", x.rows.clone()), ("n", x.cols.clone())];
                self.nest(
                    code,
                    Kernel::DiagScale,
                    &p,
                    &[("B", Mat(x)), ("D", Mat(d))],
                    &[],
                    "",
                )?;
                Kernel::DiagScale
            }
            Form::DiagSolve { x, d, b } => {
                self.copy(code, &x, &b);
                let p = [("m", x.rows.clone()), ("n", x.cols.clone())];
                self.nest(
                    code,
                    Kernel::DiagSolve,
                    &p,
                    &[("B", Mat(x)), ("D", Mat(d))],
                    &[],
                    "",
                )?;
                Kernel::DiagSolve
            }
            Form::Scale { x, alpha, b } => {
                self.copy(code, &x, &b);
                let p = [("m", x.rows.clone()), ("n", x.cols.clone())];
                self.nest(
                    code,
                    Kernel::Scal,
                    &p,
                    &[("X", Mat(x))],
                    &[("alpha", alpha)],
                    "",
                )?;
                Kernel::Scal
            }
            Form::Laswp { x, p, b } => {
                // The permutation's index vector from the dense matrix: row i of P has its
                // one in column p[i].
                let mut frees = Vec::new();
                let s = self.scratch_ints(code, &mut frees, &p.rows, "int64_t");
                let _ = writeln!(
                    code,
                    "    for (int64_t ps_r = 0; ps_r < {n}; ps_r++)\n      for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n        if ({} != 0.0) {s}[ps_r] = ps_c;",
                    p.at("ps_r", "ps_c"),
                    n = p.rows
                );
                let pr = [("m", x.rows.clone()), ("n", x.cols.clone())];
                self.nest(
                    code,
                    Kernel::Laswp,
                    &pr,
                    &[("X", Mat(x)), ("B", Mat(b)), ("p", Acc::Ints(s.clone()))],
                    &[],
                    "",
                )?;
                for f in frees {
                    let _ = writeln!(code, "    free({f});");
                }
                Kernel::Laswp
            }
            Form::Trtri { x, t, lower } => {
                self.zero_view(code, &x);
                let (t, x) = Self::reversed_unless_lower(lower, t, x);
                let p = [("n", t.rows.clone())];
                self.nest(
                    code,
                    Kernel::Trtri,
                    &p,
                    &[("X", Mat(x)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                Kernel::Trtri
            }
            Form::Lauum { c, t, lower } => {
                self.zero_view(code, &c);
                let out = c.clone();
                let (t, c) = Self::reversed_unless_lower(lower, t, c);
                let p = [("n", t.rows.clone())];
                self.nest(
                    code,
                    Kernel::Lauum,
                    &p,
                    &[("C", Mat(c)), ("L", Mat(t))],
                    &[],
                    "",
                )?;
                // Reversed, the computed lower triangle is the result's upper one.
                Self::symmetrize(code, &out, lower)?;
                Kernel::Lauum
            }
        };
        Ok(format!("catalogue nest {}", kernel.name()))
    }
}
