//! The default factorisations of inverted matrices, each computed once per entity:
//! Cholesky for SPD matrices and LU with partial pivoting otherwise (the orthogonal ones
//! are in `orth`), and the record of every factorisation a lowering made.

use super::{Arg, Lowering, Op};
use crate::kernels::{cost, Kernel};
use crate::properties::{Prop, Props};

/// A factorisation made, by the entity factored (see `Lowering::facts`).
#[derive(Clone)]
pub(super) enum Factorisation {
    Cholesky(usize),
    Lu {
        p: usize,
        l: usize,
        u: usize,
    },
    /// QR of the entity, used transposed if `trans`.
    Qr {
        r: usize,
        h: usize,
        tau: usize,
        trans: bool,
    },
    Eigen {
        z: usize,
        w: usize,
    },
    Svd {
        u: usize,
        s: usize,
        v: usize,
    },
    /// The entities of the LU factors and pivots of a block-diagonal entity's blocks kept
    /// by a BDGESV, by the orientation solved with from the left (`[0]` the entity, `[1]`
    /// its transpose; see `block::orientation`).
    BlockLu([Option<(usize, usize)>; 2]),
}

impl Lowering {
    /// The Cholesky factor L of the SPD entity `id` (n x n), `A = L L^T`.
    pub(super) fn cholesky(&mut self, id: usize, n: u64) -> usize {
        if let Some(Factorisation::Cholesky(l)) = self.facts.get(&id) {
            return *l;
        }
        let l = self.temp(n, n, Props::of(&[Prop::LowerTriangular, Prop::NonSingular]));
        self.emit(
            Kernel::Potrf,
            Op::Potrf {
                a: Arg { id, trans: false },
            },
            l,
            cost::potrf(n),
            vec!["SPD".into()],
        );
        self.facts.insert(id, Factorisation::Cholesky(l));
        l
    }

    /// The factors P, L, U of the entity `id` (n x n), `A = P L U`.
    pub(super) fn lu(&mut self, id: usize, n: u64) -> (usize, usize, usize) {
        if let Some(Factorisation::Lu { p, l, u }) = self.facts.get(&id) {
            return (*p, *l, *u);
        }
        let p = self.temp(n, n, Props::of(&[Prop::Permutation]));
        let l = self.temp(
            n,
            n,
            Props::of(&[Prop::LowerTriangular, Prop::UnitDiagonal]),
        );
        let u = self.temp(n, n, Props::of(&[Prop::UpperTriangular, Prop::NonSingular]));
        self.emit(
            Kernel::Getrf,
            Op::Getrf {
                a: Arg { id, trans: false },
                l,
                u,
            },
            p,
            cost::getrf(n),
            vec!["NonSingular".into()],
        );
        self.facts.insert(id, Factorisation::Lu { p, l, u });
        (p, l, u)
    }
}
