//! A step of the kernel sequence as code: its form realised by the back end, or the
//! inverses, sums, scalings and factorisations that have no form of their own.

use std::fmt::Write as _;

use super::catalogue::Acc;
use super::dim::Dim;
use super::emitter::Emitter;
use super::form::Form;
use super::options::Backend;
use super::view::{View, V};
use crate::ast::Kind;
use crate::error::LaError;
use crate::kernels::Kernel;
use crate::lower::{Op, Step};
use crate::notation::describe;
use crate::properties::Prop;

impl Emitter<'_> {
    /// Code of one form, and how it was realised.
    fn form(&mut self, code: &mut String, f: Form) -> Result<String, LaError> {
        let mut frees = Vec::new();
        let how = match self.backend {
            Backend::Blas => self.form_blas(code, &mut frees, f)?,
            Backend::Generated => self.form_generated(code, &mut frees, f)?,
            Backend::Nests => self.form_nest(code, f)?,
        };
        for s in frees {
            let _ = writeln!(code, "    free({s});");
        }
        Ok(how)
    }

    /// The code of one step.
    pub(super) fn step(&mut self, code: &mut String, s: &Step) -> Result<(), LaError> {
        self.begin_step();
        let out = s.out;
        let vo = self.base(out);
        let _ = writeln!(
            code,
            "  /* {:<9} {} */\n  {{",
            s.kernel.name(),
            describe(self.env, s)
        );
        let how = match &s.op {
            _ if s.kernel.is_block_diagonal() => {
                let mut frees = Vec::new();
                let how = self.block_step(code, &mut frees, s)?;
                for f in frees {
                    let _ = writeln!(code, "    free({f});");
                }
                how
            }
            Op::BlockSolve { .. } => {
                // The lowering gives these only BDGESV or BDGETRS, handled above.
                return Err(LaError::Unsupported(
                    "a block-diagonal solve without a block kernel".into(),
                ));
            }
            Op::Mul { a, b } => {
                let f = self.mul_form(s.kernel, *a, *b, out);
                self.form(code, f)?
            }
            Op::Solve { t, b, left } => {
                let f = self.solve_form(*t, *b, *left, out)?;
                self.form(code, f)?
            }
            Op::Syr2k { alpha, a, b } => {
                // out = alpha (a b + (a b)^T) with a n x k: the catalogue's A^T B + B^T A
                // with A = a^T and B = b, both k x n.
                let f = Form::Syr2k {
                    c: vo,
                    a: self.view(*a).t(),
                    b: self.view(*b),
                    alpha: (!alpha.is_one()).then(|| self.alpha(alpha)),
                };
                self.form(code, f)?
            }
            Op::Inverse { a } => {
                let p = self.props(*a);
                if p.has(Prop::Diagonal) || self.is_scalar(*a) {
                    // D^-1 as the diagonal solve D X = I.
                    let _ = writeln!(
                        code,
                        "    ps_fill_identity({}, {});",
                        self.ptr(out),
                        &vo.rows
                    );
                    let f = Form::DiagSolve {
                        x: vo.clone(),
                        d: self.view(*a),
                        b: vo,
                    };
                    self.form(code, f)?
                } else if p.is_triangular() {
                    let f = Form::Trtri {
                        x: vo,
                        t: self.view(*a),
                        lower: self.lower(*a),
                    };
                    self.form(code, f)?
                } else {
                    return Err(LaError::Unsupported(
                        "an explicit inverse of a general matrix in the sequence".into(),
                    ));
                }
            }
            // The generated back end sums in one pass (no zeroing, one read of each term,
            // one write of the result), in OpenMP with `--threads`: a24's 2000 x 2000
            // difference as a zeroing and two AXPY nests was 11 ms a run at two threads,
            // OpenBLAS's two DAXPY 9.5.
            Op::Add { terms }
                if self.backend == Backend::Generated
                    && terms
                        .iter()
                        .any(|(_, a)| self.env.entities[a.id].kind != Kind::Identity) =>
            {
                let mut parts = Vec::new();
                let mut srcs = Vec::new();
                let mut diagonal = Vec::new();
                for (al, a) in terms {
                    let alpha = self.alpha(al);
                    if self.env.entities[a.id].kind == Kind::Identity {
                        diagonal.push(format!("({alpha})"));
                    } else {
                        let x = self.view(*a);
                        parts.push(format!("({alpha}) * {}", x.at("ps_r", "ps_c")));
                        srcs.push(x);
                    }
                }
                if !diagonal.is_empty() {
                    parts.push(format!("(ps_r == ps_c ? {} : 0.0)", diagonal.join(" + ")));
                }
                let srcs: Vec<&V> = srcs.iter().collect();
                self.assign(code, &vo, &srcs, &parts.join(" + "), self.lib.openmp());
                "one element-wise pass".into()
            }
            Op::Add { terms } => {
                self.zero(code, out);
                let mut how = String::new();
                for (al, a) in terms {
                    let alpha = self.alpha(al);
                    if self.env.entities[a.id].kind == Kind::Identity {
                        let _ = writeln!(
                            code,
                            "    for (int64_t ps_r = 0; ps_r < {}; ps_r++) {} += {alpha};",
                            vo.rows,
                            vo.at("ps_r", "ps_r")
                        );
                        continue;
                    }
                    let x = self.view(*a);
                    how = match (self.backend, x.plain()) {
                        (Backend::Blas, Some((p, _, false))) => {
                            let _ = writeln!(
                                code,
                                "    cblas_daxpy({}, {alpha}, {p}, 1, {}, 1);",
                                &vo.rows * &vo.cols,
                                self.ptr(out)
                            );
                            "BLAS cblas_daxpy".into()
                        }
                        _ => {
                            let p = [("m", vo.rows.clone()), ("n", vo.cols.clone())];
                            self.nest(
                                code,
                                Kernel::Axpy,
                                &p,
                                &[("Y", Acc::Mat(vo.clone())), ("X", Acc::Mat(x))],
                                &[("alpha", alpha)],
                                "",
                            )?;
                            "catalogue nest AXPY".into()
                        }
                    };
                }
                if how.is_empty() {
                    "diagonal update".into()
                } else {
                    how
                }
            }
            Op::Scale { alpha, a } => {
                let alpha = self.alpha(alpha);
                let x = self.view(*a);
                match self.backend {
                    Backend::Blas => {
                        self.copy(code, &vo, &x);
                        let _ = writeln!(
                            code,
                            "    cblas_dscal({}, {alpha}, {}, 1);",
                            &vo.rows * &vo.cols,
                            self.ptr(out)
                        );
                        "BLAS cblas_dscal".into()
                    }
                    // One pass, as for sums above.
                    Backend::Generated => {
                        let value = format!("({alpha}) * {}", x.at("ps_r", "ps_c"));
                        self.assign(code, &vo, &[&x], &value, self.lib.openmp());
                        "one element-wise pass".into()
                    }
                    Backend::Nests => {
                        self.copy(code, &vo, &x);
                        let p = [("m", vo.rows.clone()), ("n", vo.cols.clone())];
                        self.nest(
                            code,
                            Kernel::Scal,
                            &p,
                            &[("X", Acc::Mat(vo.clone()))],
                            &[("alpha", alpha)],
                            "",
                        )?;
                        "catalogue nest SCAL".into()
                    }
                }
            }
            Op::Potrf { a } => {
                self.copy(code, &vo, &self.view(*a));
                let n = vo.rows.clone();
                let how = match self.backend {
                    Backend::Blas => {
                        let _ = writeln!(
                            code,
                            "    {{ int ps_n = {n}, ps_ld = {n}, ps_info = 0;\n      dpotrf_(\"L\", &ps_n, {}, &ps_ld, &ps_info, 1);\n      if (ps_info != 0) ps_fail(\"dpotrf\", ps_info); }}",
                            self.ptr(out)
                        );
                        "LAPACK dpotrf_".to_string()
                    }
                    Backend::Generated if self.lib.has(Kernel::Potrf)? => {
                        let _ = writeln!(
                            code,
                            "    {{ int64_t ps_info = polyscan_dpotrf({n}, {}, {n});\n      if (ps_info != 0) ps_fail(\"polyscan_dpotrf\", (long)ps_info); }}",
                            self.ptr(out)
                        );
                        "generated kernel polyscan_dpotrf".into()
                    }
                    Backend::Generated | Backend::Nests => {
                        self.nest(
                            code,
                            Kernel::Potrf,
                            &[("n", n.clone())],
                            &[("A", Acc::Mat(vo.clone()))],
                            &[],
                            "",
                        )?;
                        "catalogue nest POTRF".into()
                    }
                };
                let _ = writeln!(
                    code,
                    "    ps_zero_triangle({}, {n}, {n}, 1);",
                    self.ptr(out)
                );
                how
            }
            Op::Getrf { a, l, u } => {
                // The LU buffer, the pivots and the permutation (second half of `piv`)
                // are step scratch: the C API's come from its workspace, so that a
                // call allocates nothing.
                let n = vo.rows.clone();
                let mut frees = Vec::new();
                let w = self.scratch_matrix(code, &mut frees, &n, &n);
                let piv = self.scratch_ints(code, &mut frees, &(&Dim::lit(2) * &n), "int64_t");
                let _ = writeln!(
                    code,
                    "    for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {piv}[ps_r] = ps_r;"
                );
                let wv = V {
                    view: View::Base {
                        ptr: w.clone(),
                        ld: n.clone(),
                    },
                    rows: n.clone(),
                    cols: n.clone(),
                };
                self.copy(code, &wv, &self.view(*a));
                let how = match self.backend {
                    Backend::Blas => {
                        let ip = self.scratch_ints(code, &mut frees, &n, "int");
                        let _ = writeln!(
                            code,
                            "    {{ int ps_n = {n}, ps_info = 0;\n      dgetrf_(&ps_n, &ps_n, {w}, &ps_n, {ip}, &ps_info);\n      if (ps_info != 0) ps_fail(\"dgetrf\", ps_info);\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {piv}[ps_r] = {ip}[ps_r] - 1; }}"
                        );
                        "LAPACK dgetrf_".to_string()
                    }
                    Backend::Generated if self.lib.has(Kernel::Getrf)? => {
                        let _ = writeln!(
                            code,
                            "    {{ int64_t ps_info = polyscan_dgetrf({n}, {n}, {w}, {n}, {piv});\n      if (ps_info != 0) ps_fail(\"polyscan_dgetrf\", (long)ps_info);\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {piv}[ps_r] -= 1; }}"
                        );
                        "generated kernel polyscan_dgetrf".into()
                    }
                    Backend::Generated | Backend::Nests => {
                        // The pivot search and row swap of step k run before the first
                        // instance S[k, k + 1, k] of that step.
                        let prefix = format!(
                            "if ((i) == (k) + 1 && (j) == (k)) ps_pivot({w}, {n}, k, {piv}); "
                        );
                        self.nest(
                            code,
                            Kernel::Getrf,
                            &[("n", n.clone())],
                            &[("A", Acc::Mat(wv))],
                            &[],
                            &prefix,
                        )?;
                        "catalogue nest GETRF (pivoting before each step)".into()
                    }
                };
                let _ = writeln!(
                    code,
                    "    ps_lu_split({w}, {n}, {piv}, {piv} + {n}, {}, {}, {});",
                    self.ptr(out),
                    self.ptr(*l),
                    self.ptr(*u)
                );
                for f in frees {
                    let _ = writeln!(code, "    free({f});");
                }
                how
            }
            Op::Orth(o) => {
                let mut frees = Vec::new();
                let how = self.orth_step(code, &mut frees, o, out)?;
                for s in frees {
                    let _ = writeln!(code, "    free({s});");
                }
                how
            }
            Op::Bind { a } => {
                self.copy(code, &vo, &self.view(*a));
                "copy".into()
            }
            Op::Assemble { cells } => {
                self.assemble_blocks(code, s.out, cells);
                "copies of the blocks".into()
            }
        };
        let _ = writeln!(code, "  }}");
        if s.kernel != Kernel::Bind {
            self.realisation.push((s.kernel.name().to_string(), how));
        }
        Ok(())
    }
}
