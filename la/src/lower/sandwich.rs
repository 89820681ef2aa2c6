//! `G^T M G` as G, then M G, then G^T (M G): a chain whose ends are transposes of each
//! other, which the matrix-chain algorithm alone would compute as two products of G.

use super::{chain, Arg, El, LaError, Lowering};
use crate::kernels::cost;
use crate::norm::{chain_key, Base, Factor};
use crate::properties::Props;

impl Lowering {
    /// `G^T M G` computed as G, then M G, then G^T (M G), if that beats `plain_flops`: the
    /// matrix-chain algorithm alone would compute G and G^T as two products.
    pub(super) fn sandwich(
        &mut self,
        fs: &[Factor],
        plain_flops: f64,
    ) -> Result<Option<Arg>, LaError> {
        let n = fs.len();
        let Some(k) = (1..=(n.saturating_sub(1)) / 2).rev().find(|&k| {
            let gt: Vec<Factor> = fs[n - k..]
                .iter()
                .rev()
                .map(|f| f.transpose(&self.env))
                .collect();
            chain_key(&fs[..k]) == chain_key(&gt)
        }) else {
            return Ok(None);
        };
        let (g_f, m_f) = (&fs[n - k..], &fs[k..n - k]);
        let mut g_els = Vec::new();
        for f in g_f {
            g_els.extend(self.elements(f)?);
        }
        let mut mg_els = Vec::new();
        for f in m_f {
            mg_els.extend(self.elements(f)?);
        }
        let (Some(first), Some(last)) = (g_els.first(), g_els.last()) else {
            return Ok(None);
        };
        if g_els.len() < 2 {
            return Ok(None);
        }
        let (gr, gc) = (first.rows, last.cols);
        // Stands for the value of G in the estimate; never looked up in the memo.
        mg_els.push(El {
            inv: false,
            id: usize::MAX,
            trans: false,
            rows: gr,
            cols: gc,
            props: Props::EMPTY,
            symmetric: false,
            kept: [false; 2],
        });
        let estimate = {
            let memo = &self.memo;
            let known = |key: &str| memo.contains_key(key);
            chain::solve(&g_els, &known).flops() + chain::solve(&mg_els, &known).flops()
        };
        let last_product = if gc == 1 {
            cost::gemv(gr, 1)
        } else {
            cost::gemm(gc, gc, gr)
        };
        if estimate + last_product >= plain_flops {
            return Ok(None);
        }
        let g = self.chain(g_f)?;
        let mut mg_f = m_f.to_vec();
        mg_f.push(Factor {
            base: Base::Op(g.id),
            trans: g.trans,
            inv: false,
        });
        let mg = self.chain(&mg_f)?;
        // Record M G and G^T M G also under their keys in the original elements, so later
        // chains that contain them (e.g. transposed) find them.
        let mut m_g = mg_els;
        m_g.pop();
        m_g.extend(g_els.iter().cloned());
        self.memo.insert(chain::interval_key(&m_g, false), mg);
        let last = [
            Factor {
                base: Base::Op(g.id),
                trans: !g.trans,
                inv: false,
            },
            Factor {
                base: Base::Op(mg.id),
                trans: mg.trans,
                inv: false,
            },
        ];
        let out = self.chain(&last)?;
        let mut all = Vec::new();
        for f in fs {
            all.extend(self.elements(f)?);
        }
        self.memo.insert(chain::interval_key(&all, false), out);
        Ok(Some(out))
    }
}
