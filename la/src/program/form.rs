//! Forms: a step in the catalogue's canonical shape (left-sided, lower-triangular) over
//! views, and the choice of form for a product or a solve.

use super::emitter::Emitter;
use super::view::V;
use crate::error::LaError;
use crate::kernels::Kernel;
use crate::lower::Arg;
use crate::properties::{Prop, Props};

/// A step in the catalogue's canonical shape, over views.
#[derive(Debug, Clone)]
pub(super) enum Form {
    Gemm {
        c: V,
        a: V,
        b: V,
    },
    Symm {
        c: V,
        s: V,
        b: V,
    },
    /// c := a^T a, lower triangle (the step symmetrises).
    Syrk {
        c: V,
        a: V,
    },
    /// c := alpha (a^T b + b^T a), a and b k x n, lower triangle (the step symmetrises);
    /// `alpha` is `None` for 1.
    Syr2k {
        c: V,
        a: V,
        b: V,
        alpha: Option<String>,
    },
    /// x := t b, t triangular (`lower` as used).
    Trmm {
        x: V,
        t: V,
        lower: bool,
        b: V,
    },
    /// x := t^-1 b.
    Trsm {
        x: V,
        t: V,
        lower: bool,
        b: V,
    },
    Gemv {
        y: V,
        a: V,
        x: V,
    },
    Symv {
        y: V,
        a: V,
        x: V,
    },
    Trmv {
        y: V,
        t: V,
        lower: bool,
        x: V,
    },
    Trsv {
        y: V,
        t: V,
        lower: bool,
        x: V,
    },
    Ger {
        c: V,
        x: V,
        y: V,
    },
    Dot {
        s: V,
        x: V,
        y: V,
    },
    /// x := d b, d diagonal (or 1 x 1).
    DiagScale {
        x: V,
        d: V,
        b: V,
    },
    DiagSolve {
        x: V,
        d: V,
        b: V,
    },
    /// x := alpha b (a 1 x 1 factor of a non-conforming product).
    Scale {
        x: V,
        alpha: String,
        b: V,
    },
    /// x := p b, p a (dense) permutation matrix.
    Laswp {
        x: V,
        p: V,
        b: V,
    },
    Trtri {
        x: V,
        t: V,
        lower: bool,
    },
    /// c := t^T t, t triangular; the step symmetrises.
    Lauum {
        c: V,
        t: V,
        lower: bool,
    },
}

impl Emitter<'_> {
    /// The canonical form of a product `a * b` labelled `kernel`; conditions that do not
    /// hold fall back to the general product.
    pub(super) fn mul_form(&self, kernel: Kernel, a: Arg, b: Arg, out: usize) -> Form {
        let (va, vb, vo) = (self.view(a), self.view(b), self.base(out));
        let (m, k, n) = (va.rows.clone(), va.cols.clone(), vb.cols.clone());
        // Symbolic comparisons: sizes passed at run time are equal only if they are one.
        if k != vb.rows {
            return if self.is_scalar(a) {
                Form::Scale {
                    x: vo,
                    alpha: va.at("0", "0"),
                    b: vb,
                }
            } else {
                Form::Scale {
                    x: vo,
                    alpha: vb.at("0", "0"),
                    b: va,
                }
            };
        }
        let (pa, pb) = (self.props(a), self.props(b));
        let tri = |p: Props| p.is_triangular();
        let gram = a.id == b.id && a.trans != b.trans;
        let general = || {
            if m == 1 && n == 1 {
                Form::Dot {
                    s: vo.clone(),
                    x: va.t(),
                    y: vb.clone(),
                }
            } else if k == 1 {
                Form::Ger {
                    c: vo.clone(),
                    x: va.clone(),
                    y: vb.t(),
                }
            } else if n == 1 {
                Form::Gemv {
                    y: vo.clone(),
                    a: va.clone(),
                    x: vb.clone(),
                }
            } else if m == 1 {
                Form::Gemv {
                    y: vo.t(),
                    a: vb.t(),
                    x: va.t(),
                }
            } else {
                Form::Gemm {
                    c: vo.clone(),
                    a: va.clone(),
                    b: vb.clone(),
                }
            }
        };
        match kernel {
            Kernel::Laswp if pa.has(Prop::Permutation) && m == k => Form::Laswp {
                x: vo,
                p: va,
                b: vb,
            },
            Kernel::Laswp if pb.has(Prop::Permutation) && k == n => Form::Laswp {
                x: vo.t(),
                p: vb.t(),
                b: va.t(),
            },
            Kernel::DiagScale if (pa.has(Prop::Diagonal) || self.is_scalar(a)) && m == k => {
                Form::DiagScale {
                    x: vo,
                    d: va,
                    b: vb,
                }
            }
            Kernel::DiagScale if (pb.has(Prop::Diagonal) || self.is_scalar(b)) && k == n => {
                Form::DiagScale {
                    x: vo.t(),
                    d: vb.t(),
                    b: va.t(),
                }
            }
            Kernel::Trmm | Kernel::Trmv if tri(pa) && m == k => {
                let lower = self.lower(a);
                if n == 1 {
                    Form::Trmv {
                        y: vo,
                        t: va,
                        lower,
                        x: vb,
                    }
                } else {
                    Form::Trmm {
                        x: vo,
                        t: va,
                        lower,
                        b: vb,
                    }
                }
            }
            Kernel::Trmm | Kernel::Trmv if tri(pb) && k == n => {
                let lower = !self.lower(b);
                if m == 1 {
                    Form::Trmv {
                        y: vo.t(),
                        t: vb.t(),
                        lower,
                        x: va.t(),
                    }
                } else {
                    Form::Trmm {
                        x: vo.t(),
                        t: vb.t(),
                        lower,
                        b: va.t(),
                    }
                }
            }
            Kernel::Symm | Kernel::Symv if pa.has(Prop::Symmetric) && m == k => {
                if n == 1 {
                    Form::Symv {
                        y: vo,
                        a: va,
                        x: vb,
                    }
                } else {
                    Form::Symm {
                        c: vo,
                        s: va,
                        b: vb,
                    }
                }
            }
            Kernel::Symm | Kernel::Symv if pb.has(Prop::Symmetric) && k == n => {
                if m == 1 {
                    Form::Symv {
                        y: vo.t(),
                        a: vb.t(),
                        x: va.t(),
                    }
                } else {
                    Form::Symm {
                        c: vo.t(),
                        s: vb.t(),
                        b: va.t(),
                    }
                }
            }
            Kernel::Lauum if gram && tri(pb) => Form::Lauum {
                c: vo,
                t: vb,
                lower: self.lower(b),
            },
            Kernel::Syrk if gram && n.nominal() > 1 => Form::Syrk { c: vo, a: vb },
            _ => general(),
        }
    }

    pub(super) fn solve_form(
        &self,
        t: Arg,
        b: Arg,
        left: bool,
        out: usize,
    ) -> Result<Form, LaError> {
        let (mut vt, mut vb, mut vo) = (self.view(t), self.view(b), self.base(out));
        let p = self.props(t);
        let mut lower = p.has(Prop::LowerTriangular);
        if !left {
            // X op(T)^-1 = B  <=>  op(T)^T X^T = B^T.
            vt = vt.t();
            vb = vb.t();
            vo = vo.t();
            lower = p.has(Prop::UpperTriangular);
        }
        if p.has(Prop::Diagonal) || self.is_scalar(t) {
            return Ok(Form::DiagSolve {
                x: vo,
                d: vt,
                b: vb,
            });
        }
        if !p.is_triangular() {
            return Err(LaError::Unsupported(format!(
                "a solve with {}, which is neither triangular nor diagonal",
                self.env.entities[t.id].name
            )));
        }
        Ok(if vb.cols == 1 {
            Form::Trsv {
                y: vo,
                t: vt,
                lower,
                x: vb,
            }
        } else {
            Form::Trsm {
                x: vo,
                t: vt,
                lower,
                b: vb,
            }
        })
    }
}
