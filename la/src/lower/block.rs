//! Block-diagonal operands in the lowering (issue 22): an inverted block-diagonal matrix
//! is solved with block by block (BDGESV) or, where it must be formed, inverted block by
//! block (BDGETRI); products with one are BDGEMM (priced in `chain`). Blocks of 1 are
//! diagonal and stay with the diagonal kernels. Also the assembly of outputs written as
//! block matrices (`blocks`) from their separately computed blocks.

use super::{Arg, Lowering, Op, Step};
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
}
