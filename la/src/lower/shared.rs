//! Repeated parts of one chain computed once: `A X B X^T C` (X itself a product, e.g. the
//! `X X^T` and `X M X^T` of Linnea's random problems inside a longer chain) computes X,
//! then the chain with X known, when that is cheaper. The matrix-chain algorithm prices
//! every interval on its own, so it would compute X and X^T as two products (it shares
//! only a Gram product `X^T X` split exactly at its middle, and intervals computed by
//! earlier chains).

use std::collections::HashSet;

use super::Lowering;
use crate::chain::{self, interval_key, El, Plan};
use crate::error::LaError;

/// Longest chain searched for repeated intervals (the search is quadratic in intervals,
/// each candidate pricing the chain again).
const MAX_LEN: usize = 24;

/// Intervals `(a, b)` (at least two elements) of `els` whose value occurs again later in
/// the chain, disjoint from them, as itself or transposed.
fn repeated(els: &[El]) -> Vec<(usize, usize)> {
    let n = els.len();
    let mut out = Vec::new();
    for len in 2..=n / 2 {
        // Keys of all intervals of this length, by start.
        let keys: Vec<String> = (0..=n - len)
            .map(|a| interval_key(&els[a..a + len], false))
            .collect();
        for a in 0..=n - len {
            let tk = interval_key(&els[a..a + len], true);
            let later = keys.get(a + len..).unwrap_or(&[]);
            if later.iter().any(|k| *k == keys[a] || *k == tk) {
                out.push((a, a + len - 1));
            }
        }
    }
    out
}

impl Lowering {
    /// The chain's plan, after computing first, greedily while it lowers the total, the
    /// repeated intervals whose sharing pays (see the module comment); `plan` is the plain
    /// matrix-chain plan.
    pub(super) fn share_repeats(&mut self, els: &[El], plan: Plan) -> Result<Plan, LaError> {
        if els.len() > MAX_LEN {
            return Ok(plan);
        }
        let candidates = repeated(els);
        if candidates.is_empty() {
            return Ok(plan);
        }
        let mut chosen: Vec<(usize, usize)> = Vec::new();
        let mut best = plan.flops();
        loop {
            let mut pick: Option<((usize, usize), f64)> = None;
            for &(a, b) in &candidates {
                if chosen.contains(&(a, b)) {
                    continue;
                }
                let mut trial = chosen.clone();
                trial.push((a, b));
                let total = self.price_shared(els, &trial);
                if total < pick.map_or(best, |p| p.1) {
                    pick = Some(((a, b), total));
                }
            }
            match pick {
                Some((ab, total)) => {
                    chosen.push(ab);
                    best = total;
                }
                None => break,
            }
        }
        if chosen.is_empty() {
            return Ok(plan);
        }
        for &(a, b) in &chosen {
            let part = &els[a..=b];
            let p = {
                let memo = &self.memo;
                chain::solve(part, &|k: &str| memo.contains_key(k))
            };
            // A part already known is its own Plan::Known: nothing to compute.
            if matches!(p, Plan::Node { .. }) {
                self.realise(part, &p)?;
            }
        }
        let memo = &self.memo;
        Ok(chain::solve(els, &|k: &str| memo.contains_key(k)))
    }

    /// FLOPs of computing the intervals `shared` in order (each knowing the earlier ones),
    /// then the chain knowing all of them.
    fn price_shared(&self, els: &[El], shared: &[(usize, usize)]) -> f64 {
        let mut extra: HashSet<String> = HashSet::new();
        let mut total = 0.0;
        for &(a, b) in shared {
            let part = &els[a..=b];
            let known = |k: &str| self.memo.contains_key(k) || extra.contains(k);
            total += chain::solve(part, &known).flops();
            extra.insert(interval_key(part, false));
        }
        let known = |k: &str| self.memo.contains_key(k) || extra.contains(k);
        total + chain::solve(els, &known).flops()
    }
}

#[cfg(test)]
mod tests {
    use crate::interp::{check, scaled};
    use crate::lower::lower;
    use crate::norm::{normalise, Env};
    use crate::parse::parse;

    /// FLOPs of the lowered single assignment of `src`, after a numerical check.
    fn flops(src: &str) -> f64 {
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        let a = &p.assignments[0];
        let s = normalise(&p, &env, &a.rhs).unwrap_or_else(|e| panic!("{e}"));
        let l = lower(&env, &[(a.lhs, s)]).unwrap_or_else(|e| panic!("{e}"));
        let rel = check(&scaled(&p, 10, 3), &l.env, &l.steps, 1).unwrap_or_else(|e| panic!("{e}"));
        assert!(rel < 1e-8, "{rel:e}");
        l.flops
    }

    #[test]
    fn repeated_product_inside_a_chain_is_computed_once() {
        // A (B C) (B C)^T D, A 250x350, B 350x1850, C 1850x50, D 350x1350 (a random problem
        // of tests/la_brute.rs). Y = B C once (2*350*1850*50), then (A Y) (Y^T D):
        // 2*250*350*50 + 2*50*350*1350 + 2*250*50*1350. The matrix-chain algorithm alone
        // computes Y twice: 2.1925e8.
        let src = "a = 250\nb = 350\nc = 1850\nd = 50\ne = 1350\nMatrix A(a, b) <FullRank>\nMatrix B(b, c) <FullRank>\nMatrix C(c, d) <FullRank>\nMatrix D(b, e) <FullRank>\nMatrix X(a, e) <>\nX = A * B * C * trans(C) * trans(B) * D\n";
        let hand = 2.0 * 350.0 * 1850.0 * 50.0
            + 2.0 * 250.0 * 350.0 * 50.0
            + 2.0 * 50.0 * 350.0 * 1350.0
            + 2.0 * 250.0 * 50.0 * 1350.0;
        assert_eq!(flops(src), hand);
    }

    #[test]
    fn sharing_is_skipped_when_it_does_not_pay() {
        // (A B) (A B)^T, A 400x3, B 3x400: computing A B once (2*400*3*400) still leaves a
        // 400x400 SYRK; A (B B^T) A^T is cheaper: SYRK 9*400, 2*400*3*3, 2*400*3*400.
        let src = "n = 400\nk = 3\nMatrix A(n, k) <>\nMatrix B(k, n) <>\nMatrix X(n, n) <>\nX = A * B * trans(B) * trans(A)\n";
        assert_eq!(
            flops(src),
            9.0 * 400.0 + 2.0 * 400.0 * 9.0 + 2.0 * 400.0 * 3.0 * 400.0
        );
    }
}
