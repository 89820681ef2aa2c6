//! Block-diagonal operands in the lowering (issue 22): an inverted block-diagonal matrix
//! is solved with block by block (BDGESV) or, where it must be formed, inverted block by
//! block (BDGETRI); products with one are BDGEMM (priced in `chain`). Blocks of 1 are
//! diagonal and stay with the diagonal kernels. A BDGESV keeps the blocks' LU factors, so
//! later solves with the same matrix (in the same orientation) are BDGETRS, the
//! factorisation paid once (as the dense LU of `factor` is). Also the assembly of outputs
//! written as block matrices (`blocks`) from their separately computed blocks.

use super::factor::Factorisation;
use super::{Arg, Lowering, Op, Step};
use crate::error::LaError;
use crate::kernels::{cost, Kernel};
use crate::norm::Env;
use crate::norm::{chain_key, Factor};
use crate::properties::{Prop, Props};

/// Appends the assemblies of block-matrix outputs whose last block is `bound` (just bound):
/// copies of the blocks into the output (see `blocks`), no arithmetic.
pub(super) fn assemblies_after(steps: &mut Vec<Step>, env: &Env, bound: usize) {
    for a in env.assemblies.iter().filter(|a| a.last() == Some(bound)) {
        steps.push(Step {
            kernel: Kernel::Bind,
            op: Op::Assemble {
                cells: a.cells.clone(),
            },
            out: a.out,
            flops: 0.0,
            uses: vec![],
            elementwise: (0.0, 0.0),
        });
    }
}

/// The block size the block-diagonal kernels use for a matrix with properties `p`: known,
/// above 1, and not a diagonal or triangular matrix (whose own kernels come first; `chain`
/// prices with the same rule).
pub fn blocks(p: Props) -> Option<u64> {
    p.block()
        .filter(|&b| b > 1 && !p.has(Prop::Diagonal) && !p.is_triangular())
}

/// The kernel and FLOPs of the explicit inverse of an `n x n` block-diagonal matrix with
/// properties `p`, if it is one.
pub(super) fn explicit_inverse(p: Props, n: u64) -> Option<(Kernel, f64)> {
    blocks(p).map(|b| (Kernel::BdGetri, cost::bd_getri(n, b)))
}

/// The structure a block kernel relies on, for the report.
pub(super) fn structure_name(p: Props) -> Option<String> {
    blocks(p).map(|b| format!("BlockDiagonal({b})"))
}

/// Which factor of a BDGEMM product `a * b` is the block-diagonal one and its block size:
/// the one with the smaller blocks (the cheaper, `2 n b m` FLOPs; the left one on a tie,
/// where the costs are equal), `true` for the left. `None` if neither has blocks above 1.
pub fn block_product_side(a: Props, b: Props) -> Option<(bool, u64)> {
    match (blocks(a), blocks(b)) {
        (Some(x), Some(y)) if y < x => Some((false, y)),
        (Some(x), _) => Some((true, x)),
        (None, Some(y)) => Some((false, y)),
        (None, None) => None,
    }
}

impl Lowering {
    /// The explicit inverse of the inverted block-diagonal factor `f` (properties `p`) if an
    /// earlier step formed it (BDGETRI): multiplying by it block by block (BDGEMM, `2nbm`)
    /// costs less than solving with the blocks again (BDGESV, `2nb^2/3 + 2nbm`).
    pub(super) fn formed_block_inverse(&self, f: &Factor, p: Props) -> Option<Arg> {
        blocks(p)?;
        let plain = Factor {
            trans: false,
            ..f.clone()
        };
        let a = self.memo.get(&format!("C:{}", chain_key(&[plain])))?;
        let formed = self
            .steps
            .iter()
            .any(|s| s.out == a.id && s.kernel == Kernel::BdGetri);
        formed.then_some(Arg {
            id: a.id,
            trans: a.trans != f.trans,
        })
    }

    /// Which kept factors a solve with `t` uses: those of the matrix applied from the
    /// left, op(t) for a left solve and op(t)^T for a right one (`B A^-1 = (A^-T B^T)^T`,
    /// as the back ends run it). A symmetric entity has one orientation.
    fn orientation(&self, t: Arg, left: bool) -> usize {
        if self.env.props(t.id).has(Prop::Symmetric) {
            0
        } else {
            usize::from(t.trans == left)
        }
    }

    /// Whether an earlier BDGESV kept the factors a solve with `t` from the left (`left`) or
    /// right needs (see [`El::kept`](crate::chain::El::kept)).
    pub(super) fn kept_block_lu(&self, t: Arg, left: bool) -> bool {
        self.kept_factors(t, left).is_some()
    }

    fn kept_factors(&self, t: Arg, left: bool) -> Option<(usize, usize)> {
        match self.facts.get(&t.id) {
            Some(Factorisation::BlockLu(k)) => k[self.orientation(t, left)],
            _ => None,
        }
    }

    /// Emits the block-diagonal solve `op` (an [`Op::Solve`] the chain priced as BDGESV or
    /// BDGETRS) into `out`: a BDGETRS with the factors an earlier BDGESV kept, else a
    /// BDGESV that keeps them (FLOPs of what is emitted, which the chain's price bounds).
    pub(super) fn block_solve(
        &mut self,
        op: Op,
        out: usize,
        uses: Vec<String>,
    ) -> Result<(), LaError> {
        let Op::Solve { t, b: rhs, left } = op else {
            return Err(LaError::Unsupported(
                "a block-diagonal solve that is not a solve".into(),
            ));
        };
        let tp = self.arg_props(t);
        let bs = blocks(tp).ok_or_else(|| {
            LaError::Unsupported("a block-diagonal solve with a matrix without blocks".into())
        })?;
        let (n, _) = self.arg_shape(t);
        let (br, bc) = self.arg_shape(rhs);
        let m = if left { bc } else { br };
        let (lu, piv, factor, kernel, flops) = match self.kept_factors(t, left) {
            Some((lu, piv)) => (lu, piv, false, Kernel::BdGetrs, cost::bd_getrs(n, bs, m)),
            None => {
                let name = self.env.entities[t.id].name.clone();
                let lu = self
                    .env
                    .add(format!("lu({name})"), n, bs.min(n), Props::EMPTY);
                let piv = self.env.add(format!("piv({name})"), n, 1, Props::EMPTY);
                let o = self.orientation(t, left);
                let mut kept = match self.facts.get(&t.id) {
                    Some(Factorisation::BlockLu(k)) => *k,
                    _ => [None; 2],
                };
                kept[o] = Some((lu, piv));
                self.facts.insert(t.id, Factorisation::BlockLu(kept));
                (lu, piv, true, Kernel::BdGesv, cost::bd_gesv(n, bs, m))
            }
        };
        self.emit(
            kernel,
            Op::BlockSolve {
                t,
                b: rhs,
                left,
                lu,
                piv,
                factor,
            },
            out,
            flops,
            uses,
        );
        Ok(())
    }
}
