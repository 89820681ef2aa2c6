//! Congruences `G M G^T` with a symmetric positive (semi)definite middle factor `M`: computed
//! as `W = G L` and `W W^T` after the Cholesky factorisation `M = L L^T` (POTRF, TRMM, SYRK)
//! where that is cheaper than multiplying out (SYMM, GEMM), as Linnea does for the LMMSE
//! estimator. The matrix-chain algorithm then sees `G L L^T G^T`, whose halves mirror each
//! other, and prices the second half as a SYRK on the first.

use super::{Arg, Lowering};
use crate::chain::{self, El};
use crate::error::LaError;
use crate::kernels::cost;
use crate::norm::{chain_key, Base, Factor};
use crate::properties::Prop;

impl Lowering {
    /// `fs` as `G M G^T` through `M = L L^T`, if `M` (the single middle factor, not inverted)
    /// is SPD or SPSD and this costs less than `plain_flops`; `None` otherwise. An SPSD `M`
    /// is factored as Linnea factors it: POTRF succeeds on the definite matrices and reports a
    /// singular one as a failed factorisation (the programs' exit code, the C API's
    /// `_EKERNEL`), never a wrong value.
    pub(super) fn congruence(
        &mut self,
        fs: &[Factor],
        plain_flops: f64,
    ) -> Result<Option<Arg>, LaError> {
        let n = fs.len();
        if !self.congruences || n < 3 || n.is_multiple_of(2) {
            return Ok(None);
        }
        let k = n / 2;
        let middle = &fs[k];
        let mirrored: Vec<Factor> = fs[k + 1..]
            .iter()
            .rev()
            .map(|f| f.transpose(&self.env))
            .collect();
        if middle.inv || chain_key(&fs[..k]) != chain_key(&mirrored) {
            return Ok(None);
        }
        let Base::Op(m) = middle.base else {
            return Ok(None);
        };
        let props = self.env.props(m);
        let (rows, cols) = self.env.shape(m);
        if rows != cols || rows < 2 || !(props.has(Prop::Spd) || props.has(Prop::Spsd)) {
            return Ok(None);
        }
        let factored = self.cholesky_of(m);
        let factor_flops = if factored.is_some() {
            0.0
        } else {
            cost::potrf(rows)
        };
        // The factor's elements are priced before it exists: a stand-in id that the memo
        // never holds, replaced by the real factor below.
        let l_id = factored.unwrap_or(usize::MAX);
        let els = self.congruence_elements(fs, k, l_id, rows)?;
        let estimate = {
            let memo = &self.memo;
            chain::solve(&els, &|key: &str| memo.contains_key(key)).flops()
        };
        if factor_flops + estimate >= plain_flops {
            return Ok(None);
        }
        let l = self.cholesky(m, rows);
        let els = self.congruence_elements(fs, k, l, rows)?;
        let plan = {
            let memo = &self.memo;
            chain::solve(&els, &|key: &str| memo.contains_key(key))
        };
        self.realise(&els, &plan).map(Some)
    }

    /// The Cholesky factor of entity `m`, if it has been computed.
    fn cholesky_of(&self, m: usize) -> Option<usize> {
        match self.facts.get(&m) {
            Some(super::Factorisation::Cholesky(l)) => Some(*l),
            _ => None,
        }
    }

    /// The chain `G L L^T G^T` for `fs = G M G^T` with `M`'s `n x n` factor `l`.
    fn congruence_elements(
        &mut self,
        fs: &[Factor],
        k: usize,
        l: usize,
        n: u64,
    ) -> Result<Vec<El>, LaError> {
        let mut els = Vec::new();
        for f in &fs[..k] {
            els.extend(self.elements(f)?);
        }
        for trans in [false, true] {
            els.push(self.factor_element(l, trans, n));
        }
        for f in &fs[k + 1..] {
            els.extend(self.elements(f)?);
        }
        Ok(els)
    }

    /// The lower triangular factor `l` (`n x n`) as a chain element; `l` may be the stand-in
    /// id of a factor not yet computed.
    fn factor_element(&self, l: usize, trans: bool, n: u64) -> El {
        if l < self.env.entities.len() {
            return self.element(Arg { id: l, trans }, false);
        }
        let props = crate::properties::Props::of(&[Prop::LowerTriangular, Prop::NonSingular]);
        El {
            inv: false,
            id: l,
            trans,
            rows: n,
            cols: n,
            props: if trans {
                crate::infer::transpose_props(props)
            } else {
                props
            },
            symmetric: false,
            kept: [false; 2],
        }
    }
}
