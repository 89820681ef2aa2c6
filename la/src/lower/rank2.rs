//! The symmetric rank-2k update: a sum with terms `t` and `t^T` (`trans(A)*B +
//! trans(B)*A`, `A*trans(B) + B*trans(A)`, any chain `L*R + trans(R)*trans(L)`) as one
//! SYR2K on L and R instead of computing `t`, then adding `t` and its transpose.

use super::{Alpha, Arg, Lowering, Op};
use crate::chain::{self, El};
use crate::error::LaError;
use crate::kernels::{cost, Kernel};
use crate::norm::{chain_key, Factor, Sum, Term};
use crate::properties::{Prop, Props};

/// FLOPs of SYR2K for an `n x n` result from `k x n` operands: the catalogue's `2*k*n*n`
/// (twice SYRK's `k*n*n`: two products, each on one triangle).
fn syr2k_flops(n: u64, k: u64) -> f64 {
    2.0 * cost::syrk(n, k)
}

impl Lowering {
    /// Pairs `(i, j, split)` of terms of `s` where term j is term i transposed and SYR2K on
    /// `L = factors[..split]`, `R = factors[split..]` of term i costs no more than the
    /// product `t = L*R` and the addition `t + t^T`; on a tie SYR2K is chosen, which writes
    /// one triangle and gives a result known to be symmetric. Factorisations the terms need
    /// are emitted on the way (both ways of computing the sum need them).
    pub(super) fn rank2_pairs(&mut self, s: &Sum) -> Result<Vec<(usize, usize, usize)>, LaError> {
        let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
        if s.rows != s.cols || s.rows < 2 {
            return Ok(pairs);
        }
        for i in 0..s.terms.len() {
            let t = &s.terms[i];
            let used = |k: usize| pairs.iter().any(|p| p.0 == k || p.1 == k);
            if used(i) || t.factors.len() < 2 {
                continue;
            }
            let tt = t.transpose(&self.env);
            let (key, tkey) = (chain_key(&t.factors), chain_key(&tt.factors));
            // t = t^T: the sum is 2t, which needs no rank-2 update.
            if key == tkey {
                continue;
            }
            let partner = (i + 1..s.terms.len()).find(|&j| {
                let u = &s.terms[j];
                !used(j)
                    && u.coef == t.coef
                    && u.scalars == t.scalars
                    && chain_key(&u.factors) == tkey
            });
            let Some(j) = partner else { continue };
            // t already computed (by an earlier statement or term): only the addition is left.
            if self
                .lookup(&format!("C:{key}"), &format!("C:{tkey}"))
                .is_some()
            {
                continue;
            }
            if let Some(split) = self.best_split(&t.factors)? {
                pairs.push((i, j, split));
            }
        }
        Ok(pairs)
    }

    /// The split of `fs` for which SYR2K on its two parts is cheapest, if that is no
    /// dearer than the product of `fs` plus the addition of its transpose.
    fn best_split(&mut self, fs: &[Factor]) -> Result<Option<usize>, LaError> {
        let mut parts: Vec<Vec<El>> = Vec::with_capacity(fs.len());
        for f in fs {
            parts.push(self.elements(f)?);
        }
        let all: Vec<El> = parts.iter().flatten().cloned().collect();
        let (Some(first), Some(last)) = (all.first(), all.last()) else {
            return Ok(None);
        };
        let n = first.rows;
        let memo = &self.memo;
        let known = |k: &str| memo.contains_key(k);
        // Product and addition: one flop per element (no beta absorbs it, see `add_terms`).
        let plain = chain::solve(&all, &known).flops() + cost::elementwise(n, last.cols);
        let price = |els: &[El]| -> Option<f64> {
            match els {
                // A lone inverted element would have to be inverted explicitly.
                [e] if e.inv => None,
                _ => Some(chain::solve(els, &known).flops()),
            }
        };
        let mut best: Option<(f64, usize)> = None;
        for split in 1..fs.len() {
            let cut: usize = parts[..split].iter().map(Vec::len).sum();
            let (l, r) = all.split_at(cut);
            let k = l.last().map_or(0, |e| e.cols);
            let (Some(pl), Some(pr)) = (price(l), price(r)) else {
                continue;
            };
            let total = pl + pr + syr2k_flops(n, k);
            if total <= plain && best.is_none_or(|b| total < b.0) {
                best = Some((total, split));
            }
        }
        Ok(best.map(|b| b.1))
    }

    /// `alpha * (L*R + (L*R)^T)` for the term `alpha * L*R` split at `split`, by SYR2K
    /// (alpha is SYR2K's own).
    pub(super) fn syr2k(&mut self, t: &Term, split: usize) -> Result<Arg, LaError> {
        let mut alpha = Alpha {
            coef: t.coef,
            scalars: vec![],
        };
        for f in &t.scalars {
            let a = self.chain(std::slice::from_ref(f))?;
            alpha.scalars.push(a.id);
        }
        let a = self.chain(&t.factors[..split])?;
        let b = self.chain(&t.factors[split..])?;
        let (n, k) = self.arg_shape(a);
        let out = self.temp(n, n, Props::of(&[Prop::Symmetric]));
        self.emit(
            Kernel::Syr2k,
            Op::Syr2k { alpha, a, b },
            out,
            syr2k_flops(n, k),
            vec![],
        );
        Ok(Arg {
            id: out,
            trans: false,
        })
    }
}
