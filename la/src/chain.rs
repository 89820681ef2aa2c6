//! The generalised matrix-chain algorithm: dynamic programming over the parenthesisations of
//! a chain whose elements may be inverted (solved with, never inverted explicitly) and carry
//! properties, pricing each product with the cheapest applicable kernel. Intervals already
//! computed (common subexpressions, also as transposes) cost nothing, and `G^T G` costs only
//! G plus a SYRK.

use super::infer::{inverse_props, product_props};
use super::kernels::{cost, Kernel};
use super::properties::{Prop, Props};

/// One element of a chain.
#[derive(Debug, Clone, PartialEq)]
pub struct El {
    /// Solve with this element instead of multiplying by it.
    pub inv: bool,
    /// Entity id and whether it is used transposed.
    pub id: usize,
    /// Whether the entity is used transposed.
    pub trans: bool,
    /// Rows of the element as used (after transposition).
    pub rows: u64,
    /// Columns of the element as used (after transposition).
    pub cols: u64,
    /// Properties of the element as used (after transposition, before inversion).
    pub props: Props,
    /// Whether the entity is symmetric (its transpose is itself).
    pub symmetric: bool,
    /// Whether an earlier BDGESV kept the LU factors of this (block-diagonal) element's
    /// blocks for a solve from the left (`[0]`) and from the right (`[1]`): such a solve
    /// is a BDGETRS, without the factorisation.
    pub kept: [bool; 2],
}

impl El {
    fn key(&self, transposed: bool) -> String {
        let t = (self.trans != transposed) && !self.symmetric;
        format!(
            "{}{}{}",
            if self.inv { "/" } else { "" },
            self.id,
            if t { "'" } else { "" }
        )
    }
}

/// Key of the product of `els` (transposed: of its transpose).
pub fn interval_key(els: &[El], transposed: bool) -> String {
    let keys: Vec<String> = if transposed {
        els.iter().rev().map(|e| e.key(true)).collect()
    } else {
        els.iter().map(|e| e.key(false)).collect()
    };
    format!("E:{}", keys.join("*"))
}

/// How an interval is computed.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// A single element, by index into the chain.
    Leaf(usize),
    /// Already computed: the key to look up, and whether the value is its transpose.
    Known(String, bool),
    /// The product of two adjacent intervals, computed by one kernel call.
    Node {
        /// How the left interval is computed.
        left: Box<Plan>,
        /// How the right interval is computed.
        right: Box<Plan>,
        /// The kernel that forms the product.
        kernel: Kernel,
        /// FLOPs of this product alone (the sub-plans' are not included).
        flops: f64,
        /// The left operand is the transpose of the right one (SYRK/DOT on one operand).
        gram: bool,
        /// Both sides are inverted: the left one is inverted explicitly first.
        explicit_left: bool,
        /// The interval's key (see [`interval_key`]).
        key: String,
        /// Rows of the product.
        rows: u64,
        /// Columns of the product.
        cols: u64,
    },
}

/// Whether the kernel forms a product `alpha * A * B` that can also add a matrix (so
/// `lower` lets it absorb an addition of a sum): not row interchanges or solves.
pub fn absorbs(k: Kernel) -> bool {
    !matches!(
        k,
        Kernel::Laswp
            | Kernel::Trsm
            | Kernel::Trsv
            | Kernel::DiagSolve
            | Kernel::BdGetri
            | Kernel::BdGesv
            | Kernel::BdGetrs
            | Kernel::BdGemm
    )
}

impl Plan {
    /// Whether the last product of the plan can absorb an addition (see [`absorbs`]).
    fn root_absorbs(&self) -> bool {
        match self {
            Plan::Node { kernel, .. } => absorbs(*kernel),
            _ => false,
        }
    }

    /// Total FLOPs of the plan: every product in it, with the left side of a Gram product
    /// (`G^T G`) counted once, and known intervals free.
    pub fn flops(&self) -> f64 {
        match self {
            Plan::Leaf(_) | Plan::Known(..) => 0.0,
            Plan::Node {
                left,
                right,
                flops,
                gram,
                ..
            } => {
                let l = if *gram { 0.0 } else { left.flops() };
                l + right.flops() + flops
            }
        }
    }
}

/// The shape-and-structure view of an interval's value used for pricing.
#[derive(Debug, Clone, Copy)]
struct Form {
    inv: bool,
    rows: u64,
    cols: u64,
    props: Props,
    /// See [`El::kept`] (products are never factored).
    kept: [bool; 2],
}

/// Properties of the value `l * r` (an inverted form's value is the inverse).
fn value_props(l: Form, r: Form) -> Props {
    let value = |f: Form| {
        if f.inv {
            inverse_props(f.props, f.rows)
        } else {
            f.props
        }
    };
    product_props(value(l), (l.rows, l.cols), value(r), (r.rows, r.cols))
}

/// The kernel and FLOPs of a solve with an n x n block-diagonal matrix with blocks of b on
/// m right-hand sides: BDGETRS if the blocks' factors are `kept`, else BDGESV.
fn block_solve(n: u64, b: u64, m: u64, kept: bool) -> (Kernel, f64) {
    if kept {
        (Kernel::BdGetrs, cost::bd_getrs(n, b, m))
    } else {
        (Kernel::BdGesv, cost::bd_gesv(n, b, m))
    }
}

/// Cheapest kernel for `l * r` (with the given forms), and its FLOPs.
fn combine(l: Form, r: Form, mirrored: bool) -> (Kernel, f64, bool) {
    let (m, k, n) = (l.rows, l.cols, r.cols);
    let tri = |p: Props| p.is_triangular();
    let diag = |p: Props| p.has(Prop::Diagonal);
    // Blocks larger than 1 (blocks of 1 are diagonal, handled as such).
    let blocks = crate::lower::blocks;
    let gram = mirrored && !l.inv && !r.inv;
    if l.inv && r.inv && mirrored && tri(r.props) && !diag(r.props) {
        // L^-T L^-1 (an explicit SPD inverse): invert L, then X^T X on a triangle.
        return (Kernel::Lauum, 2.0 * cost::trtri(k), true);
    }
    if l.inv && r.inv {
        // (A^-1 B^-1): invert A explicitly, then solve with B from the right.
        let inv_cost = if diag(l.props) {
            cost::elementwise(1, k)
        } else if tri(l.props) {
            cost::trtri(k)
        } else if let Some(b) = blocks(l.props) {
            cost::bd_getri(k, b)
        } else {
            cost::getrf(k) + cost::getri(k)
        };
        if let Some(b) = blocks(r.props).filter(|_| !diag(r.props) && !tri(r.props)) {
            let (kernel, solve) = block_solve(n, b, m, r.kept[1]);
            return (kernel, inv_cost + solve, true);
        }
        let solve = if diag(r.props) {
            cost::elementwise(m, n)
        } else {
            cost::trsm(n, m)
        };
        return (Kernel::Trsm, inv_cost + solve, true);
    }
    if l.inv {
        if diag(l.props) || (m == 1 && k == 1) {
            return (Kernel::DiagSolve, cost::elementwise(m, n), false);
        }
        if let Some(b) = blocks(l.props).filter(|_| !tri(l.props)) {
            let (kernel, solve) = block_solve(m, b, n, l.kept[0]);
            return (kernel, solve, false);
        }
        return if n == 1 {
            (Kernel::Trsv, cost::trsm(m, 1), false)
        } else {
            (Kernel::Trsm, cost::trsm(m, n), false)
        };
    }
    if r.inv {
        if diag(r.props) || (k == 1 && n == 1) {
            return (Kernel::DiagSolve, cost::elementwise(m, n), false);
        }
        if let Some(b) = blocks(r.props).filter(|_| !tri(r.props)) {
            let (kernel, solve) = block_solve(n, b, m, r.kept[1]);
            return (kernel, solve, false);
        }
        return if m == 1 {
            (Kernel::Trsv, cost::trsm(n, 1), false)
        } else {
            (Kernel::Trsm, cost::trsm(n, m), false)
        };
    }
    if gram {
        return if n == 1 {
            (Kernel::Dot, cost::gemv(k, 1), false)
        } else {
            (Kernel::Syrk, cost::syrk(n, k), false)
        };
    }
    let mut best = if m == 1 && n == 1 {
        (Kernel::Dot, cost::gemv(k, 1))
    } else if k == 1 {
        (Kernel::Ger, cost::gemv(m, n))
    } else if n == 1 {
        (Kernel::Gemv, cost::gemv(m, k))
    } else if m == 1 {
        (Kernel::Gemv, cost::gemv(k, n))
    } else {
        (Kernel::Gemm, cost::gemm(m, n, k))
    };
    // On a tie the kernel that uses a property wins (SYMM over GEMM), as in Linnea.
    let mut consider = |kern: Kernel, f: f64| {
        if f <= best.1 {
            best = (kern, f);
        }
    };
    let lsq = m == k;
    let rsq = k == n;
    if (l.props.has(Prop::Permutation) && lsq) || (r.props.has(Prop::Permutation) && rsq) {
        consider(Kernel::Laswp, 0.0);
    }
    if (diag(l.props) && lsq) || (diag(r.props) && rsq) || (m == 1 && k == 1) || (k == 1 && n == 1)
    {
        consider(Kernel::DiagScale, cost::elementwise(m, n));
    }
    if tri(l.props) && lsq {
        consider(
            if n == 1 { Kernel::Trmv } else { Kernel::Trmm },
            cost::trsm(m, n),
        );
    }
    if tri(r.props) && rsq {
        consider(
            if m == 1 { Kernel::Trmv } else { Kernel::Trmm },
            cost::trsm(n, m),
        );
    }
    // The block-diagonal side as the back ends and `symbolic` take it.
    let lb = l.props.block().filter(|_| lsq);
    let rb = r.props.block().filter(|_| rsq);
    let lp = lb.map_or(Props::EMPTY, |_| l.props);
    let rp = rb.map_or(Props::EMPTY, |_| r.props);
    match crate::lower::block_product_side(lp, rp) {
        Some((true, b)) => consider(Kernel::BdGemm, cost::bd_gemm(m, b, n)),
        Some((false, b)) => consider(Kernel::BdGemm, cost::bd_gemm(n, b, m)),
        None => {}
    }
    if l.props.has(Prop::Symmetric) && lsq && m > 1 && n > 1 {
        consider(Kernel::Symm, cost::gemm(m, n, k));
    }
    if l.props.has(Prop::Symmetric) && lsq && n == 1 {
        consider(Kernel::Symv, cost::gemv(m, k));
    }
    if r.props.has(Prop::Symmetric) && rsq && m > 1 && n > 1 {
        consider(Kernel::Symm, cost::gemm(m, n, k));
    }
    (best.0, best.1, false)
}

/// Optimal plan for the chain; `known` tells whether an interval key is already computed
/// (as itself or transposed).
pub fn solve(els: &[El], known: &dyn Fn(&str) -> bool) -> Plan {
    solve_credited(els, known, 0.0)
}

/// [`solve`], where a last product that can absorb an addition (see [`absorbs`]) is
/// `credit` FLOPs cheaper when plans are compared: the chain is a term of a sum that
/// still has an addition to absorb. The plan's own FLOPs do not include the credit.
pub fn solve_credited(els: &[El], known: &dyn Fn(&str) -> bool, credit: f64) -> Plan {
    let n = els.len();
    if n == 0 {
        return Plan::Known(String::new(), false);
    }
    // best[i][j]: (cost, plan, form) of els[i..=j]
    let mut best: Vec<Vec<Option<(f64, Plan, Form)>>> = vec![vec![None; n]; n];
    for (i, e) in els.iter().enumerate() {
        best[i][i] = Some((
            0.0,
            Plan::Leaf(i),
            Form {
                inv: e.inv,
                rows: e.rows,
                cols: e.cols,
                props: e.props,
                kept: e.kept,
            },
        ));
    }
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            let key = interval_key(&els[i..=j], false);
            let form = Form {
                inv: false,
                rows: els[i].rows,
                cols: els[j].cols,
                props: Props::EMPTY,
                kept: [false; 2],
            };
            if known(&key) {
                best[i][j] = Some((0.0, Plan::Known(key, false), form));
                continue;
            }
            let tkey = interval_key(&els[i..=j], true);
            if known(&tkey) {
                best[i][j] = Some((0.0, Plan::Known(tkey, true), form));
                continue;
            }
            let mut cand: Option<(f64, Plan, Form)> = None;
            let mut cand_score = f64::INFINITY;
            for s in i..j {
                let (Some(l), Some(r)) = (&best[i][s], &best[s + 1][j]) else {
                    continue;
                };
                // An inverted leaf is not materialised, so it cannot be a SYRK operand.
                let mirrored = s + 1 - i == j - s
                    && interval_key(&els[i..=s], false) == interval_key(&els[s + 1..=j], true);
                let gram = mirrored && !l.2.inv && !r.2.inv;
                let (kernel, flops, explicit_left) = combine(l.2, r.2, mirrored);
                let total = if gram { r.0 + flops } else { l.0 + r.0 + flops };
                // On a tie, a product by a multiplication kernel wins over row interchanges
                // or a solve: only the former can absorb an addition when the chain is a
                // term of a sum (GEMM's beta), so the sum may be cheaper.
                let score = if i == 0 && j == n - 1 && absorbs(kernel) {
                    total - credit
                } else {
                    total
                };
                let better = match &cand {
                    None => true,
                    Some(c) => {
                        score < cand_score
                            || (score == cand_score && absorbs(kernel) && !c.1.root_absorbs())
                    }
                };
                if better {
                    cand_score = score;
                    // What is known about the product (a triangle times a triangle is one,
                    // a diagonal product is diagonal) prices the products it takes part
                    // in; `lower::realise` gives the temporary the same properties.
                    let props = if gram {
                        Props::of(&[Prop::Symmetric, Prop::Spsd])
                    } else {
                        value_props(l.2, r.2)
                    };
                    cand = Some((
                        total,
                        Plan::Node {
                            left: Box::new(l.1.clone()),
                            right: Box::new(r.1.clone()),
                            kernel,
                            flops,
                            gram,
                            explicit_left,
                            key: key.clone(),
                            rows: form.rows,
                            cols: form.cols,
                        },
                        Form { props, ..form },
                    ));
                }
            }
            best[i][j] = cand;
        }
    }
    // Every interval of length >= 2 has at least one split, so the full interval is set.
    best[0][n - 1]
        .take()
        .map_or(Plan::Known(String::new(), false), |b| b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(id: usize, rows: u64, cols: u64) -> El {
        El {
            inv: false,
            id,
            trans: false,
            rows,
            cols,
            props: Props::EMPTY,
            symmetric: false,
            kept: [false; 2],
        }
    }

    #[test]
    fn classic_chain_order() {
        // 10x100 * 100x5 * 5x50: (AB)C costs 2*(5000 + 2500) = 15000, A(BC) 2*(25000+50000).
        let els = [el(0, 10, 100), el(1, 100, 5), el(2, 5, 50)];
        let p = solve(&els, &|_| false);
        assert_eq!(p.flops(), 15000.0);
    }

    #[test]
    fn gram_product_uses_syrk() {
        let mut xt = el(0, 5, 20);
        xt.trans = true;
        let els = [xt, el(0, 20, 5)];
        let p = solve(&els, &|_| false);
        assert_eq!(p.flops(), cost::syrk(5, 20));
    }

    #[test]
    fn solves_with_inverted_triangle() {
        let mut l = el(0, 30, 30);
        l.inv = true;
        l.props = Props::of(&[Prop::LowerTriangular]);
        let els = [l, el(1, 30, 30), el(2, 30, 1)];
        let p = solve(&els, &|_| false);
        // GEMV then TRSV.
        assert_eq!(p.flops(), 2.0 * 900.0 + 900.0);
    }

    #[test]
    fn known_intervals_are_free() {
        let els = [el(0, 30, 30), el(1, 30, 30), el(2, 30, 30)];
        let k = interval_key(&els[..2], false);
        let p = solve(&els, &|s| s == k);
        assert_eq!(p.flops(), cost::gemm(30, 30, 30));
    }
}
