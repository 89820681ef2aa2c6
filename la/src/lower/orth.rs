//! The orthogonal factorisations (thesis section 5.7: QR, symmetric eigendecomposition,
//! SVD) as alternatives to the normal equations and to LU: which ones a lowering uses
//! ([`Factoring`]), which ones it could have used ([`Alternatives`], so the search prices
//! them), their steps ([`Orth`]), and the chains they give.
//!
//! - QR of a tall `Y` of full column rank, `Y = Q R`: `Y^T Y = R^T R`, so `inv(Y^T Y)` is
//!   `R^-1 R^-T` without forming `Y^T Y`, and the least-squares product
//!   `inv(Y^T Y) Y^T B = R^-1 Q^T B` is one ORMQR and one triangular solve.
//! - SYEV of a symmetric `A`, `A = Z W Z^T`: `inv(A) = Z W^-1 Z^T`.
//! - SVD of a square `A` of full rank, `A = U S V^T`: `inv(A) = V S^-1 U^T`.

use super::{Arg, Factorisation, Lowering, Op};
use crate::chain::El;
use crate::error::LaError;
use crate::kernels::{cost, Kernel};
use crate::norm::{Base, Factor};
use crate::properties::{Prop, Props};

/// Which orthogonal factorisations a lowering uses in place of the default ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Factoring {
    /// `inv(Y^T Y)` (Y tall, full rank) by QR of Y instead of SYRK and Cholesky.
    pub gram_qr: bool,
    /// Inverses of symmetric matrices not known SPD by SYEV instead of LU.
    pub eigen: bool,
    /// Inverses of other general square matrices by SVD instead of LU.
    pub svd: bool,
}

/// Which of the [`Factoring`] choices a lowering met a matrix for (whether or not it used
/// them): the search lowers again with those switched to price them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Alternatives {
    /// An inverted Gram product of a tall matrix of full column rank.
    pub gram_qr: bool,
    /// An inverse of a symmetric matrix not known SPD.
    pub eigen: bool,
    /// An inverse of a general square matrix (neither symmetric nor structured).
    pub svd: bool,
}

impl Alternatives {
    /// The alternatives met by either lowering.
    pub fn union(self, o: Alternatives) -> Alternatives {
        Alternatives {
            gram_qr: self.gram_qr || o.gram_qr,
            eigen: self.eigen || o.eigen,
            svd: self.svd || o.svd,
        }
    }
}

/// A step of an orthogonal factorisation or of its use.
#[derive(Debug, Clone, PartialEq)]
pub enum Orth {
    /// GEQRF: `a = Q R` (a m x n, m >= n); the step's output is R (n x n, upper
    /// triangular), `h` (m x n) receives the reflectors below its diagonal (LAPACK's
    /// layout) and `tau` (n x 1) their scalar factors.
    Geqrf {
        /// The factored matrix.
        a: Arg,
        /// Entity receiving the Householder vectors.
        h: usize,
        /// Entity receiving the reflectors' scalar factors.
        tau: usize,
    },
    /// ORMQR with the Q of a GEQRF (`h`, `tau`; Q m x m): with `trans`, the first n rows
    /// of `Q^T b` (b m x p, output n x p); without, `Q [b; 0]` (b n x p, output m x p).
    Ormqr {
        /// Entity holding the Householder vectors.
        h: usize,
        /// Entity holding the reflectors' scalar factors.
        tau: usize,
        /// The operand Q is applied to.
        b: Arg,
        /// Whether `Q^T` (else `Q`) is applied.
        trans: bool,
    },
    /// SYEV: `a = Z W Z^T`; the output is Z (orthogonal), `w` receives W (diagonal).
    Syev {
        /// The symmetric matrix factored.
        a: Arg,
        /// Entity receiving the eigenvalues as a diagonal matrix.
        w: usize,
    },
    /// GESVD: `a = U S V^T` (a square); the output is U, `s` receives S (diagonal) and
    /// `v` receives V (both orthogonal).
    Gesvd {
        /// The matrix factored.
        a: Arg,
        /// Entity receiving the singular values as a diagonal matrix.
        s: usize,
        /// Entity receiving the right singular vectors.
        v: usize,
    },
}

impl Orth {
    /// The shape of the step's output and of the further entities it writes, from the
    /// shape of an argument (`None`: not computed yet).
    pub fn shapes<T: Clone>(
        &self,
        out: usize,
        shape: impl Fn(Arg) -> Option<(T, T)>,
        entity: impl Fn(usize) -> Option<(T, T)>,
        one: T,
    ) -> Option<Vec<(usize, (T, T))>> {
        Some(match self {
            Orth::Geqrf { a, h, tau } => {
                let (m, n) = shape(*a)?;
                vec![
                    (out, (n.clone(), n.clone())),
                    (*h, (m, n.clone())),
                    (*tau, (n, one)),
                ]
            }
            Orth::Ormqr { h, b, trans, .. } => {
                let (m, n) = entity(*h)?;
                let (_, p) = shape(*b)?;
                vec![(out, if *trans { (n, p) } else { (m, p) })]
            }
            Orth::Syev { a, w } => {
                let s = shape(*a)?;
                vec![(out, s.clone()), (*w, s)]
            }
            Orth::Gesvd { a, s, v } => {
                let sh = shape(*a)?;
                vec![(out, sh.clone()), (*s, sh.clone()), (*v, sh)]
            }
        })
    }
}

impl Lowering {
    /// The inner `Y` of an inverted Gram product `inv(Y^T Y)` when Y is tall with full
    /// column rank (the condition for QR to factor `Y^T Y = R^T R` with R invertible).
    fn gram_base(&self, f: &Factor) -> Option<Factor> {
        let Base::Sum(s) = &f.base else { return None };
        let [t] = s.terms.as_slice() else { return None };
        let [yt, y] = t.factors.as_slice() else {
            return None;
        };
        if t.coef != 1.0 || !t.scalars.is_empty() || yt.inv || y.inv || yt.base != y.base {
            return None;
        }
        if yt.trans == y.trans {
            return None;
        }
        let (m, n) = y.shape(&self.env);
        let full_rank = match &y.base {
            Base::Op(id) => self.env.props(*id).has(Prop::FullRank),
            Base::Sum(_) => false,
        };
        (full_rank && m >= n && n > 1).then(|| y.clone())
    }

    /// QR of `y` (m x n): R, and the entities holding Q; computed once per argument.
    fn qr(&mut self, y: Arg) -> (usize, usize, usize) {
        if let Some(Factorisation::Qr { r, h, tau, trans }) = self.facts.get(&y.id) {
            if *trans == y.trans {
                return (*r, *h, *tau);
            }
        }
        let (m, n) = self.arg_shape(y);
        let h = self.temp(m, n, Props::EMPTY);
        let tau = self.temp(n, 1, Props::EMPTY);
        let r = self.temp(n, n, Props::of(&[Prop::UpperTriangular, Prop::NonSingular]));
        self.emit(
            Kernel::Geqrf,
            Op::Orth(Orth::Geqrf { a: y, h, tau }),
            r,
            cost::geqrf(m, n),
            vec!["FullRank".into()],
        );
        self.facts.insert(
            y.id,
            Factorisation::Qr {
                r,
                h,
                tau,
                trans: y.trans,
            },
        );
        (r, h, tau)
    }

    /// The argument of a plain (not inverted) factor on an entity.
    fn entity_arg(f: &Factor) -> Option<Arg> {
        match (&f.base, f.inv) {
            (Base::Op(id), false) => Some(Arg {
                id: *id,
                trans: f.trans,
            }),
            _ => None,
        }
    }

    /// Chain elements of an inverted Gram product by QR, `inv(Y^T Y) = R^-1 R^-T`, when
    /// the policy asks for it; records the alternative either way.
    pub(super) fn gram_qr_elements(&mut self, f: &Factor) -> Result<Option<Vec<El>>, LaError> {
        if !f.inv {
            return Ok(None);
        }
        let Some(y) = self.gram_base(f).as_ref().and_then(Self::entity_arg) else {
            return Ok(None);
        };
        self.alternatives.gram_qr = true;
        if !self.policy.gram_qr {
            return Ok(None);
        }
        let (r, _, _) = self.qr(y);
        Ok(Some(vec![
            self.element(
                Arg {
                    id: r,
                    trans: false,
                },
                true,
            ),
            self.element(Arg { id: r, trans: true }, true),
        ]))
    }

    /// The least-squares product `P inv(Y^T Y) Y^T B` (P or B may be empty, not both) as
    /// `P (R^-1 (Q^T B))` by ORMQR and a triangular solve when the policy uses QR for Gram
    /// products; a product with `Y inv(Y^T Y)` is this one transposed.
    pub(super) fn least_squares(&mut self, fs: &[Factor]) -> Result<Option<Arg>, LaError> {
        if !self.policy.gram_qr {
            return Ok(None);
        }
        let at = |fs: &[Factor], lw: &Lowering| {
            (0..fs.len().saturating_sub(1)).find(|&i| {
                lw.gram_base(&fs[i]).is_some_and(|y| {
                    let yt = y.transpose(&lw.env);
                    fs[i + 1] == yt && Self::entity_arg(&yt).is_some()
                })
            })
        };
        if let Some(i) = at(fs, self) {
            if i + 2 < fs.len() {
                return self.qr_solve(fs, i).map(Some);
            }
        }
        // `P Y inv(Y^T Y)` transposed is `inv(Y^T Y) Y^T P^T`.
        let tfs: Vec<Factor> = fs.iter().rev().map(|f| f.transpose(&self.env)).collect();
        if let Some(i) = at(&tfs, self) {
            if i + 2 < tfs.len() {
                let a = self.qr_solve(&tfs, i)?;
                return Ok(Some(Arg {
                    id: a.id,
                    trans: !a.trans,
                }));
            }
        }
        Ok(None)
    }

    /// `fs[..i] * R^-1 * (Q^T * fs[i + 2..])` with `fs[i] = inv(Y^T Y)`, `fs[i + 1] = Y^T`.
    fn qr_solve(&mut self, fs: &[Factor], i: usize) -> Result<Arg, LaError> {
        let y = self
            .gram_base(&fs[i])
            .as_ref()
            .and_then(Self::entity_arg)
            .ok_or_else(|| LaError::Unsupported("inconsistent least-squares match".into()))?;
        let b = self.chain(&fs[i + 2..])?;
        let (r, h, tau) = self.qr(y);
        let (m, n) = self.arg_shape(y);
        let (_, p) = self.arg_shape(b);
        let qtb = self.temp(n, p, Props::EMPTY);
        self.emit(
            Kernel::Ormqr,
            Op::Orth(Orth::Ormqr {
                h,
                tau,
                b,
                trans: true,
            }),
            qtb,
            cost::ormqr(m, p, n),
            vec!["Q from GEQRF".into()],
        );
        let x = self.temp(n, p, Props::EMPTY);
        let kernel = if p == 1 { Kernel::Trsv } else { Kernel::Trsm };
        self.emit(
            kernel,
            Op::Solve {
                t: Arg {
                    id: r,
                    trans: false,
                },
                b: Arg {
                    id: qtb,
                    trans: false,
                },
                left: true,
            },
            x,
            cost::trsm(n, p),
            vec!["UpperTriangular".into()],
        );
        let x = Arg {
            id: x,
            trans: false,
        };
        if i == 0 {
            return Ok(x);
        }
        let mut rest = fs[..i].to_vec();
        rest.push(Factor::op(x.id));
        self.chain(&rest)
    }

    /// Chain elements of `inv(a)` by SYEV (symmetric `a`) or SVD (other square `a`) when
    /// the policy asks for it; records the alternative either way. `p` is what is known
    /// about `a` (not SPD, not structured: those have cheaper solves).
    pub(super) fn orth_inverse_elements(
        &mut self,
        a: Arg,
        p: Props,
    ) -> Result<Option<Vec<El>>, LaError> {
        let (n, _) = self.arg_shape(a);
        if p.has(Prop::Symmetric) {
            self.alternatives.eigen = true;
            if !self.policy.eigen {
                return Ok(None);
            }
            let (z, w) = self.eigen(a.id, n);
            // A = Z W Z^T: A^-1 = Z W^-1 Z^T (A symmetric: transposition does not matter).
            return Ok(Some(vec![
                self.element(
                    Arg {
                        id: z,
                        trans: false,
                    },
                    false,
                ),
                self.element(
                    Arg {
                        id: w,
                        trans: false,
                    },
                    true,
                ),
                self.element(Arg { id: z, trans: true }, false),
            ]));
        }
        self.alternatives.svd = true;
        if !self.policy.svd {
            return Ok(None);
        }
        let (u, s, v) = self.svd(a.id, n);
        // A = U S V^T: A^-1 = V S^-1 U^T and A^-T = U S^-1 V^T.
        let (left, right) = if a.trans { (u, v) } else { (v, u) };
        Ok(Some(vec![
            self.element(
                Arg {
                    id: left,
                    trans: false,
                },
                false,
            ),
            self.element(
                Arg {
                    id: s,
                    trans: false,
                },
                true,
            ),
            self.element(
                Arg {
                    id: right,
                    trans: true,
                },
                false,
            ),
        ]))
    }

    fn eigen(&mut self, id: usize, n: u64) -> (usize, usize) {
        if let Some(Factorisation::Eigen { z, w }) = self.facts.get(&id) {
            return (*z, *w);
        }
        let w = self.temp(n, n, Props::of(&[Prop::Diagonal, Prop::NonSingular]));
        let z = self.temp(n, n, Props::of(&[Prop::Orthogonal]));
        self.emit(
            Kernel::Syev,
            Op::Orth(Orth::Syev {
                a: Arg { id, trans: false },
                w,
            }),
            z,
            cost::syev(n),
            vec!["Symmetric".into()],
        );
        self.facts.insert(id, Factorisation::Eigen { z, w });
        (z, w)
    }

    fn svd(&mut self, id: usize, n: u64) -> (usize, usize, usize) {
        if let Some(Factorisation::Svd { u, s, v }) = self.facts.get(&id) {
            return (*u, *s, *v);
        }
        let s = self.temp(n, n, Props::of(&[Prop::Diagonal, Prop::NonSingular]));
        let v = self.temp(n, n, Props::of(&[Prop::Orthogonal]));
        let u = self.temp(n, n, Props::of(&[Prop::Orthogonal]));
        self.emit(
            Kernel::Gesvd,
            Op::Orth(Orth::Gesvd {
                a: Arg { id, trans: false },
                s,
                v,
            }),
            u,
            cost::gesvd(n, n),
            vec!["NonSingular".into()],
        );
        self.facts.insert(id, Factorisation::Svd { u, s, v });
        (u, s, v)
    }
}
