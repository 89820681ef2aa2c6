//! Sums whose terms' last products absorb the additions: GEMM (and the other products
//! `lower` counts so) computes `alpha * A * B + beta * C`, so a term that ends in such a
//! product costs its addition nothing, while one that ends in a solve or row interchanges
//! does not. The matrix-chain algorithm prices a term without knowing it is one; when a
//! sum is left with an addition and a term ending in a solve, the sum is computed again
//! with every term's last product credited with the addition it can absorb, and the
//! cheaper of the two kept (so `inv(D) * A * B + C`, D diagonal, becomes `(D^-1 A) B`).

use super::{Arg, Lowering, Op};
use crate::chain::absorbs;
use crate::error::LaError;
use crate::kernels::cost;
use crate::norm::{Base, Factor, Sum};
use crate::properties::{Prop, Props};

impl Lowering {
    /// `add_terms`, and where it may pay, `add_terms` with credited terms; the cheaper.
    pub(super) fn add_terms_cheapest(
        &mut self,
        s: &Sum,
        pairs: &[(usize, usize, usize)],
        props: Props,
    ) -> Result<Arg, LaError> {
        let outer = self.sum_credit;
        // Only a term with a solve (an inverse, or an LU's row interchanges) can end in a
        // product that absorbs nothing; without one the credit changes no plan.
        let solves = s.terms.iter().any(|t| {
            t.factors
                .iter()
                .any(|f| f.inv || self.env_props(f).has(Prop::Permutation))
        });
        let snapshot = solves.then(|| self.clone());
        let before = self.steps.len();
        self.sum_credit = 0.0;
        let plain = self.add_terms(s, pairs, props);
        self.sum_credit = outer;
        let plain = plain?;
        let Some(mut credited) = snapshot else {
            return Ok(plain);
        };
        if !self.unabsorbed_after_solve(before) {
            return Ok(plain);
        }
        credited.sum_credit = cost::elementwise(s.rows, s.cols);
        let Ok(arg) = credited.add_terms(s, pairs, props) else {
            return Ok(plain);
        };
        credited.sum_credit = outer;
        let flops = |l: &Lowering| l.steps[before..].iter().map(|st| st.flops).sum::<f64>();
        if flops(&credited) < flops(self) {
            *self = credited;
            return Ok(arg);
        }
        Ok(plain)
    }

    /// Properties of a factor's base entity (empty for a parenthesised sum).
    fn env_props(&self, f: &Factor) -> Props {
        match f.base {
            Base::Op(id) => self.env.props(id),
            Base::Sum(_) => Props::EMPTY,
        }
    }

    /// Whether the sum just emitted (its steps from `before`, the addition last) left a
    /// full-size addition or scaling unabsorbed while some term ended in a kernel that
    /// absorbs nothing.
    fn unabsorbed_after_solve(&self, before: usize) -> bool {
        let Some(last) = self.steps.last() else {
            return false;
        };
        let Op::Add { terms } = &last.op else {
            return false;
        };
        if last.elementwise.0 <= 0.0 {
            return false;
        }
        terms.iter().any(|(_, a)| {
            self.steps[before..]
                .iter()
                .any(|st| st.out == a.id && !absorbs(st.kernel))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::interp::{check, scaled};
    use crate::lower::lower;
    use crate::norm::{normalise, Env};
    use crate::parse::parse;

    /// FLOPs of `X = inv(D) * A * B + C` (D diagonal n x n, A n x k, B k x m), after a
    /// numerical check.
    fn flops(n: u64, k: u64, m: u64) -> f64 {
        let src = format!("n = {n}\nk = {k}\nm = {m}\nMatrix D(n, n) <Diagonal, FullRank>\nMatrix A(n, k) <>\nMatrix B(k, m) <>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = inv(D) * A * B + C\n");
        let p = parse(&src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        let a = &p.assignments[0];
        let s = normalise(&p, &env, &a.rhs).unwrap_or_else(|e| panic!("{e}"));
        let l = lower(&env, &[(a.lhs, s)]).unwrap_or_else(|e| panic!("{e}"));
        let rel = check(&scaled(&p, 10, 3), &l.env, &l.steps, 2).unwrap_or_else(|e| panic!("{e}"));
        assert!(rel < 1e-8, "{rel:e}");
        l.flops
    }

    #[test]
    fn a_term_ends_in_the_product_that_absorbs_the_addition() {
        // (D^-1 A) B + C: DIAGSOLVE n k, GEMM 2 n k m with C as its beta term. D^-1 (A B)
        // would cost 2 n k m, DIAGSOLVE n m and the addition n m.
        let (n, k, m) = (1550.0, 650.0, 600.0);
        assert_eq!(flops(1550, 650, 600), n * k + 2.0 * n * k * m);
    }

    #[test]
    fn the_credit_does_not_buy_a_dearer_solve() {
        // k > 2 m: solving with D before the product costs more than the addition saved.
        let (n, k, m) = (300.0, 2000.0, 100.0);
        assert_eq!(flops(300, 2000, 100), 2.0 * n * k * m + 2.0 * n * m);
    }
}
