//! The search: best-first over rewritten forms of the program (distributing products over
//! sums, factoring common prefixes and suffixes out of sums), each priced by lowering it.
//! The unrewritten form gives the first solution at once; states costing more than
//! [`PRUNE_FACTOR`] times the best are pruned. Also the naive baseline: left-to-right
//! evaluation with explicit inverses, as numpy code written from the formula does.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};
use std::time::{Duration, Instant};

use super::ast::{Expr, Program};
use super::error::LaError;
use super::inverses::{merges, splits};
use super::kernels::cost;
use super::lower::Lowered;
use super::norm::{mentions, simplify, substitute, Base, Env, Factor, Sum, Term};
use super::symbolic::symbolic_cost;

mod factoring;

pub use factoring::{lower_priced, FactorChoice, Preferred};

/// States costing more than this multiple of the best solution are not expanded.
pub const PRUNE_FACTOR: f64 = 4.0;
/// Sums are not rewritten beyond this many terms.
const MAX_TERMS: usize = 12;
/// Upper bound on states examined, independent of time.
const MAX_STATES: usize = 20_000;

/// Options of the search.
#[derive(Debug, Clone, Copy)]
pub struct SearchOptions {
    /// Time after which no further forms are examined; the first solution is found
    /// regardless, so `Duration::ZERO` gives the unrewritten form's sequence.
    pub time_limit: Duration,
    /// Upper bound on the number of rewritten forms examined.
    pub max_states: usize,
    /// Which factorisations may be used: by default the orthogonal ones (QR, SYEV, SVD)
    /// are priced against Cholesky and LU and chosen where cheaper.
    pub factor: FactorChoice,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            time_limit: Duration::from_secs(1),
            max_states: MAX_STATES,
            factor: FactorChoice::default(),
        }
    }
}

/// The outcome: the best sequence and timings.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The cheapest kernel sequence found.
    pub lowered: Lowered,
    /// FLOPs of the formula evaluated as written: left to right, explicit inverses.
    pub naive_flops: f64,
    /// FLOPs of the first solution (the unrewritten form's sequence).
    pub first_flops: f64,
    /// Seconds from the start of the search to the first solution.
    pub first_solution_s: f64,
    /// Seconds from the start of the search to the best solution.
    pub final_solution_s: f64,
    /// How many forms were examined in all.
    pub states: usize,
    /// How many forms had been examined when the best one was found.
    pub final_state: usize,
    /// For open sizes: the cost of the chosen sequence as a polynomial, and the nominal
    /// sizes it was chosen at.
    pub symbolic: Option<(String, Vec<(String, u64)>)>,
    /// The element-wise statements' sum-product plans, placed before or after the kernel
    /// sequence (empty when the program has none).
    pub elementwise: Vec<crate::elementwise::Placed>,
}

type State = Vec<(usize, Sum)>;

struct Queued {
    flops: f64,
    seq: usize,
    state: State,
}

impl PartialEq for Queued {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Queued {
    // Min-heap on cost, then first generated.
    fn cmp(&self, o: &Self) -> Ordering {
        o.flops.total_cmp(&self.flops).then(o.seq.cmp(&self.seq))
    }
}

fn state_key(s: &State) -> String {
    s.iter()
        .map(|(l, r)| format!("{l}={}", r.key()))
        .collect::<Vec<_>>()
        .join(";")
}

/// Finds a kernel sequence for the program.
pub fn solve(p: &Program, opts: SearchOptions) -> Result<Solution, LaError> {
    if let (Some(e), Some(o)) = (p.elementwise.first(), p.open_sizes.first()) {
        return Err(LaError::at(
            e.pos.line,
            e.pos.column,
            format!(
                "element-wise statements need every size declared with a number (`{}` is `?`)",
                o.name
            ),
        ));
    }
    let start = Instant::now();
    // The element-wise statements go to the sum-product optimiser, with the same time.
    let elementwise = crate::elementwise::place(
        p,
        polyscan_sumproduct::Limits {
            time: opts.time_limit.max(Duration::from_millis(10)),
            ..polyscan_sumproduct::Limits::default()
        },
    )?;
    let mut env = Env::from_program(p);
    let state: State = crate::blocks::statements(p, &mut env)?;
    let naive_flops = naive_cost(p);
    let original = state.clone();
    let first = lower_priced(&env, &state, opts.factor)?;
    let first_solution_s = start.elapsed().as_secs_f64();
    let first_flops = first.flops;
    let mut best = first;
    let mut final_solution_s = first_solution_s;
    let mut final_state = 1;
    let mut seen: HashSet<String> = HashSet::new();
    seen.insert(state_key(&state));
    let mut heap = BinaryHeap::new();
    let mut seq = 0;
    heap.push(Queued {
        flops: best.flops,
        seq,
        state,
    });
    let mut states = 1;
    // Also start from the form with every earlier output replaced by its definition: the
    // search reaches it only through several steps, some of which may be pruned.
    let mut inlined = original.clone();
    for i in 0..inlined.len() {
        for j in 0..i {
            let lj = original[j].0;
            if mentions(&inlined[i].1, lj) {
                if let Ok(s) = substitute(&env, &inlined[i].1, lj, &inlined[j].1) {
                    inlined[i].1 = s;
                }
            }
        }
    }
    if seen.insert(state_key(&inlined)) && start.elapsed() < opts.time_limit {
        states += 1;
        if let Ok(l) = lower_priced(&env, &inlined, opts.factor) {
            if l.flops < best.flops {
                best = l.clone();
                final_solution_s = start.elapsed().as_secs_f64();
                final_state = states;
            }
            seq += 1;
            heap.push(Queued {
                flops: l.flops,
                seq,
                state: inlined,
            });
        }
    }
    while let Some(q) = heap.pop() {
        if start.elapsed() >= opts.time_limit || states >= opts.max_states {
            break;
        }
        if q.flops > PRUNE_FACTOR * best.flops {
            continue;
        }
        // Replace an earlier output by its definition (valid in SSA form), so later
        // statements can use its structure, e.g. a low-rank product.
        let mut alts: Vec<State> = Vec::new();
        for i in 0..q.state.len() {
            for ((lj, dj), (_, def)) in q.state[..i].iter().zip(&original) {
                if mentions(&q.state[i].1, *lj) && !mentions(dj, *lj) {
                    if let Ok(s) = substitute(&env, &q.state[i].1, *lj, def) {
                        let mut next = q.state.clone();
                        next[i].1 = s;
                        alts.push(next);
                    }
                }
            }
        }
        for (i, (lhs, rhs)) in q.state.iter().enumerate() {
            // Statement environments differ only by the properties of earlier outputs,
            // which rewriting does not need.
            for alt in rewrites(&env, rhs) {
                let mut next = q.state.clone();
                next[i] = (*lhs, alt);
                alts.push(next);
            }
        }
        for next in alts {
            if !seen.insert(state_key(&next)) {
                continue;
            }
            states += 1;
            let Ok(l) = lower_priced(&env, &next, opts.factor) else {
                continue;
            };
            if l.flops < best.flops {
                best = l.clone();
                final_solution_s = start.elapsed().as_secs_f64();
                final_state = states;
            }
            if l.flops <= PRUNE_FACTOR * best.flops {
                seq += 1;
                heap.push(Queued {
                    flops: l.flops,
                    seq,
                    state: next,
                });
            }
        }
    }
    let symbolic = if p.open_sizes.is_empty() {
        None
    } else {
        let open: Vec<String> = p.open_sizes.iter().map(|o| o.name.clone()).collect();
        let nominal = p
            .sizes
            .iter()
            .filter(|(n, _)| open.contains(n))
            .cloned()
            .collect();
        Some((symbolic_cost(p, &best, &open)?.to_text(), nominal))
    };
    Ok(Solution {
        lowered: best,
        naive_flops,
        first_flops,
        first_solution_s,
        final_solution_s,
        states,
        final_state,
        symbolic,
        elementwise,
    })
}

/// All single-step rewrites of a sum, at any depth.
pub fn rewrites(env: &Env, s: &Sum) -> Vec<Sum> {
    let mut out = Vec::new();
    // Distribute a term over one of its parenthesised (non-inverted) sums.
    for (ti, t) in s.terms.iter().enumerate() {
        for (fi, f) in t.factors.iter().enumerate() {
            if let (Base::Sum(inner), false) = (&f.base, f.inv) {
                let scaled = t.coef != 1.0 || !t.scalars.is_empty();
                if (t.factors.len() > 1 || scaled)
                    && s.terms.len() - 1 + inner.terms.len() <= MAX_TERMS
                {
                    let mut terms: Vec<Term> = s.terms[..ti].to_vec();
                    let mut ok = true;
                    for u in &inner.terms {
                        let mut factors = t.factors[..fi].to_vec();
                        factors.extend(u.factors.iter().cloned());
                        factors.extend(t.factors[fi + 1..].iter().cloned());
                        let mut scalars = t.scalars.clone();
                        scalars.extend(u.scalars.iter().cloned());
                        match simplify(
                            env,
                            Term {
                                coef: t.coef * u.coef,
                                scalars,
                                factors,
                            },
                        ) {
                            Ok(nt) => terms.push(nt),
                            Err(_) => ok = false,
                        }
                    }
                    terms.extend(s.terms[ti + 1..].iter().cloned());
                    if ok {
                        out.push(Sum {
                            terms,
                            rows: s.rows,
                            cols: s.cols,
                        });
                    }
                }
            }
            // Rewrite inside the factor.
            if let Base::Sum(inner) = &f.base {
                for alt in rewrites(env, inner) {
                    let mut t2 = t.clone();
                    t2.factors[fi] = Factor {
                        base: Base::Sum(Box::new(alt)),
                        ..f.clone()
                    };
                    let mut s2 = s.clone();
                    s2.terms[ti] = t2;
                    out.push(s2);
                }
            }
        }
    }
    // Merge adjacent inverses (`inv(X)*inv(Y)` as `inv(Y*X)`) or split an inverted product
    // at a cut into square parts; see `inverses` for the identities and their conditions.
    for (ti, t) in s.terms.iter().enumerate() {
        for nt in merges(env, t).into_iter().chain(splits(env, t)) {
            let mut terms = s.terms.clone();
            terms[ti] = nt;
            out.push(Sum {
                terms,
                rows: s.rows,
                cols: s.cols,
            });
        }
    }
    // Factor a common prefix or suffix out of two terms (quadratic in the terms, hence
    // only for sums of moderate length).
    let pairs = if s.terms.len() <= MAX_TERMS {
        s.terms.len()
    } else {
        0
    };
    for a in 0..pairs {
        for b in a + 1..pairs {
            for from_left in [true, false] {
                if let Some(t) = factor_out(env, &s.terms[a], &s.terms[b], from_left) {
                    let mut terms = s.terms.clone();
                    terms[a] = t;
                    terms.remove(b);
                    out.push(Sum {
                        terms,
                        rows: s.rows,
                        cols: s.cols,
                    });
                }
            }
        }
    }
    out
}

fn factor_out(env: &Env, x: &Term, y: &Term, from_left: bool) -> Option<Term> {
    let (xf, yf) = (&x.factors, &y.factors);
    // Both remainders must be non-empty products, so each term needs two factors.
    if xf.len() < 2 || yf.len() < 2 {
        return None;
    }
    let n = xf.len().min(yf.len());
    let same = |i: usize| {
        let (a, b) = if from_left {
            (&xf[i], &yf[i])
        } else {
            (&xf[xf.len() - 1 - i], &yf[yf.len() - 1 - i])
        };
        a == b
    };
    let mut k = 0;
    while k < n && same(k) {
        k += 1;
    }
    // Both remainders must be non-empty so the inner sum is a product of matrices.
    let k = k
        .min(n.saturating_sub(1))
        .min(xf.len() - 1)
        .min(yf.len() - 1);
    if k == 0 || xf.len() <= k || yf.len() <= k {
        return None;
    }
    let (common, xr, yr) = if from_left {
        (xf[..k].to_vec(), xf[k..].to_vec(), yf[k..].to_vec())
    } else {
        (
            xf[xf.len() - k..].to_vec(),
            xf[..xf.len() - k].to_vec(),
            yf[..yf.len() - k].to_vec(),
        )
    };
    let (r, _) = xr[0].shape(env);
    let (_, c) = xr[xr.len() - 1].shape(env);
    let mut terms = vec![
        Term {
            coef: x.coef,
            scalars: x.scalars.clone(),
            factors: xr,
        },
        Term {
            coef: y.coef,
            scalars: y.scalars.clone(),
            factors: yr,
        },
    ];
    // One form per value up to sign: the two terms in the order of their keys without
    // coefficients, the first with a positive coefficient (else the sign goes outside).
    // `P (U - V)` and `Q (V - U)` then share the sum `U - V` (the memo finds values up to
    // transposition, not sign), as the two block rows of a Schur solve need.
    let bare = |t: &Term| {
        Sum {
            terms: vec![Term {
                coef: 1.0,
                ..t.clone()
            }],
            rows: r,
            cols: c,
        }
        .key()
    };
    if bare(&terms[1]) < bare(&terms[0]) {
        terms.swap(0, 1);
    }
    let outer = if terms[0].coef < 0.0 {
        for t in &mut terms {
            t.coef = -t.coef;
        }
        -1.0
    } else {
        1.0
    };
    let inner = Sum {
        terms,
        rows: r,
        cols: c,
    };
    let f = Factor {
        base: Base::Sum(Box::new(inner)),
        trans: false,
        inv: false,
    };
    let factors = if from_left {
        let mut v = common;
        v.push(f);
        v
    } else {
        let mut v = vec![f];
        v.extend(common);
        v
    };
    simplify(
        env,
        Term {
            coef: outer,
            scalars: vec![],
            factors,
        },
    )
    .ok()
}

/// FLOPs of evaluating the formula left to right with explicit inverses (LU + GETRI),
/// matrix products as GEMM/GEMV and scalar products as SCAL.
pub fn naive_cost(p: &Program) -> f64 {
    fn go(p: &Program, e: &Expr) -> f64 {
        let (r, c) = p.shape(e);
        match e {
            Expr::Operand(_) => 0.0,
            Expr::Add(a, b) | Expr::Sub(a, b) => go(p, a) + go(p, b) + cost::elementwise(r, c),
            Expr::Neg(a) => go(p, a) + cost::elementwise(r, c),
            Expr::Trans(a) => go(p, a),
            // Assembled by copies.
            Expr::Block(rows) => rows.iter().flatten().map(|x| go(p, x)).sum(),
            Expr::Inv(a) => {
                go(p, a)
                    + if r == 1 {
                        1.0
                    } else {
                        cost::getrf(r) + cost::getri(r)
                    }
            }
            Expr::Mul(a, b) => {
                let (ar, ac) = p.shape(a);
                let (br, bc) = p.shape(b);
                let mul = if (ar, ac) == (1, 1) || (br, bc) == (1, 1) {
                    cost::elementwise(r, c)
                } else {
                    cost::gemm(ar, bc, ac)
                };
                go(p, a) + go(p, b) + mul
            }
        }
    }
    p.assignments.iter().map(|a| go(p, &a.rhs)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::normalise;
    use crate::parse::parse;

    fn first_sum(src: &str) -> (Env, Sum) {
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        let s = normalise(&p, &env, &p.assignments[0].rhs).unwrap_or_else(|e| panic!("{e}"));
        (env, s)
    }

    #[test]
    fn distributes_and_factors_out() {
        let src = "n = 5\nm = 3\nMatrix H(n, m) <>\nMatrix G(m, n) <>\nIdentityMatrix I(n, n)\nColumnVector x(n) <>\nColumnVector y(m) <>\nColumnVector z(n) <>\nz = H * y + (I - H * G) * x\n";
        let (env, s) = first_sum(src);
        let alts = rewrites(&env, &s);
        // Distributing (I - H G) x gives H y + x - H G x ...
        let dist = alts
            .iter()
            .find(|a| a.terms.len() == 3)
            .unwrap_or_else(|| panic!("no distribution"));
        // ... from which H can be factored out of H y - H G x.
        let again = rewrites(&env, dist);
        assert!(
            again
                .iter()
                .any(|a| a.terms.len() == 2 && a.show(&env).contains("H*(")),
            "{:?}",
            again.iter().map(|a| a.show(&env)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn naive_cost_inverts_explicitly_left_to_right() {
        let p = parse("n = 10\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nColumnVector x(n) <>\nColumnVector y(n) <>\ny = inv(A) * B * x\n")
            .unwrap_or_else(|e| panic!("{e}"));
        // GETRF + GETRI (2n^3), (A^-1 B) GEMM 2n^3, then GEMV 2n^2.
        assert_eq!(naive_cost(&p), 2000.0 + 2000.0 + 200.0);
    }

    #[test]
    fn time_limit_zero_still_gives_the_first_solution() {
        let p = parse("n = 10\nMatrix A(n, n) <SPD>\nColumnVector x(n) <>\nColumnVector y(n) <>\ny = inv(A) * x\n").unwrap_or_else(|e| panic!("{e}"));
        let s = solve(
            &p,
            SearchOptions {
                time_limit: Duration::ZERO,
                max_states: 1,
                ..SearchOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.lowered.flops, s.first_flops);
        assert!(s.lowered.flops > 0.0);
    }
}

// Lowering checked end to end: sequences the search finds, verified numerically. They are
// here rather than in `lower`, which `search` depends on.
#[cfg(test)]
mod lowering_tests {
    use super::{solve, SearchOptions};
    use crate::interp::{check, scaled};
    use crate::kernels::Kernel;
    use crate::parse::parse;

    /// Kernel names of the chosen sequence, after checking it numerically.
    fn kernels(src: &str) -> Vec<Kernel> {
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let s = solve(&p, SearchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let rel = check(&scaled(&p, 10, 3), &s.lowered.env, &s.lowered.steps, 3)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(rel < 1e-8, "{rel:e}");
        s.lowered
            .steps
            .iter()
            .map(|s| s.kernel)
            .filter(|k| *k != Kernel::Bind)
            .collect()
    }

    const D: &str = "n = 100\nk = 30\nMatrix B(n, k) <>\nMatrix X(n, k) <>\n";

    #[test]
    fn spd_solve_uses_cholesky() {
        let k = kernels(&format!("{D}Matrix S(n, n) <SPD>\nX = inv(S) * B\n"));
        assert_eq!(k, [Kernel::Potrf, Kernel::Trsm, Kernel::Trsm]);
    }

    #[test]
    fn general_solve_uses_lu() {
        let k = kernels(&format!("{D}Matrix A(n, n) <FullRank>\nX = inv(A) * B\n"));
        assert_eq!(
            k,
            [Kernel::Getrf, Kernel::Laswp, Kernel::Trsm, Kernel::Trsm]
        );
        let k = kernels(&format!(
            "{D}Matrix A(n, n) <FullRank>\nX = inv(trans(A)) * B\n"
        ));
        assert_eq!(k.iter().filter(|k| **k == Kernel::Getrf).count(), 1);
    }

    #[test]
    fn structured_solves_need_no_factorisation() {
        let k = kernels(&format!(
            "{D}Matrix L(n, n) <LowerTriangular, FullRank>\nX = inv(L) * B\n"
        ));
        assert_eq!(k, [Kernel::Trsm]);
        let k = kernels(&format!(
            "{D}Matrix U(n, n) <UpperTriangular, FullRank>\nX = inv(trans(U)) * B\n"
        ));
        assert_eq!(k, [Kernel::Trsm]);
        let k = kernels(&format!(
            "{D}Matrix W(n, n) <Diagonal, FullRank>\nX = inv(W) * B\n"
        ));
        assert_eq!(k, [Kernel::DiagSolve]);
        let k = kernels(&format!("{D}Matrix Q(n, n) <Orthogonal>\nX = inv(Q) * B\n"));
        assert_eq!(k, [Kernel::Gemm]);
    }

    #[test]
    fn gram_matrix_uses_syrk_and_explicit_spd_inverse_lauum() {
        let k = kernels(
            "n = 100\nk = 30\nMatrix A(n, k) <FullRank>\nMatrix G(k, k) <>\nG = trans(A) * A\n",
        );
        assert_eq!(k, [Kernel::Syrk]);
        let k = kernels("n = 40\nMatrix S(n, n) <SPD>\nMatrix X(n, n) <>\nX = inv(S)\n");
        assert_eq!(k, [Kernel::Potrf, Kernel::Trtri, Kernel::Lauum]);
    }

    #[test]
    fn common_subexpressions_are_computed_once() {
        let src = "n = 200\nm = 100\nMatrix A(m, n) <FullRank>\nMatrix W(n, n) <Diagonal, SPD>\nColumnVector b(m) <>\nColumnVector c(m) <>\nColumnVector x(n) <>\nColumnVector y(n) <>\nx = W * trans(A) * inv(A * W * trans(A)) * b\ny = W * trans(A) * inv(A * W * trans(A)) * c\n";
        let k = kernels(src);
        assert_eq!(k.iter().filter(|k| **k == Kernel::Potrf).count(), 1);
        assert_eq!(k.iter().filter(|k| **k == Kernel::Gemm).count(), 1);
    }

    #[test]
    fn sandwich_shares_the_outer_factor() {
        // W^T A B A^T W: A^T W is computed once, by one GEMM; since B is SPD the cheapest
        // way (6.1e6 FLOPs against 6.7e6 for GEMM, SYMM, GEMM) goes through B = L L^T:
        // POTRF, (W^T A) L by TRMM and its Gram matrix by SYRK.
        let src = "n = 100\nm = 400\nl = 60\nMatrix A(m, n) <FullRank>\nMatrix W(m, l) <FullRank>\nMatrix B(n, n) <SPD>\nMatrix X(l, l) <>\nX = trans(W) * A * B * trans(A) * W\n";
        let k = kernels(src);
        assert_eq!(k.iter().filter(|k| **k == Kernel::Gemm).count(), 1, "{k:?}");
        assert_eq!(k, [Kernel::Potrf, Kernel::Gemm, Kernel::Trmm, Kernel::Syrk]);
        // With a merely symmetric B, the sandwich: GEMM, SYMM, GEMM.
        let k = kernels(&src.replace("<SPD>", "<Symmetric>"));
        assert_eq!(k.len(), 3, "{k:?}");
    }
}

#[cfg(test)]
mod scalar_tests {
    use super::{solve, SearchOptions};
    use crate::interp::check;
    use crate::parse::parse;

    /// Inner products anywhere in a product act as scalars; scalar expressions and numbers
    /// are folded into the kernels or applied by SCAL.
    #[test]
    fn inner_products_and_scalars() {
        let src = "n = 12\nm = 5\nColumnVector x(n) <>\nColumnVector y(n) <>\nMatrix A(n, n) <SPD>\nMatrix B(n, m) <>\nScalar k <Positive>\nMatrix X(n, m) <>\nX = trans(x) * A * y * B + inv(A) * B * trans(y) * x - 2.5 * inv(k + 1) * B\n";
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let s = solve(&p, SearchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let rel = check(&p, &s.lowered.env, &s.lowered.steps, 4).unwrap_or_else(|e| panic!("{e}"));
        assert!(rel < 1e-8, "{rel:e}");
    }
}

// Cost polynomials of sequences the search finds; here rather than in `symbolic`, which
// `search` depends on.
#[cfg(test)]
mod symbolic_tests {
    use super::{solve, SearchOptions};
    use crate::parse::parse;
    use crate::symbolic::symbolic_cost;

    #[test]
    fn least_squares_cost_polynomial() {
        let p = parse("n = ? [1000, 4000]\nm = ?\nMatrix X(n, m) <FullRank>\nColumnVector y(n) <>\nColumnVector b(m) <>\nb = inv(trans(X) * X) * trans(X) * y\n")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.sizes, vec![("n".into(), 2000), ("m".into(), 1000)]);
        let s = solve(&p, SearchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let c = symbolic_cost(&p, &s.lowered, &["n".into(), "m".into()])
            .unwrap_or_else(|e| panic!("{e}"));
        // SYRK m^2 n, POTRF m^3/3, GEMV 2mn, 2 TRSV m^2.
        assert_eq!(c.to_text(), "(m^3 + 3*n*m^2 + 6*m^2 + 6*n*m)/3");
        assert!((c.eval(&p.sizes) - s.lowered.flops).abs() < 1e-6 * s.lowered.flops);
    }

    /// For every example problem: with all sizes open, the polynomial evaluated at the file's
    /// sizes reproduces the numeric cost.
    #[test]
    fn polynomials_agree_with_numeric_costs() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/la");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        // Each problem has its expected transcript beside it.
        files.retain(|f| f.extension().is_some_and(|x| x == "la"));
        files.sort();
        assert_eq!(files.len(), 25);
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap_or_default();
            let p = parse(&src).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            let opts = SearchOptions {
                time_limit: std::time::Duration::from_secs(30),
                max_states: 50,
                ..SearchOptions::default()
            };
            let s = solve(&p, opts).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            let names: Vec<String> = p.sizes.iter().map(|(n, _)| n.clone()).collect();
            let c = symbolic_cost(&p, &s.lowered, &names).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            let v = c.eval(&p.sizes);
            assert!(
                (v - s.lowered.flops).abs() <= 1e-9 * s.lowered.flops,
                "{f:?}: {v:e} vs {:e}: {}",
                s.lowered.flops,
                c.to_text()
            );
        }
    }
}
