//! Lowering of normalised assignments to a kernel sequence: factorisations instead of
//! inverses (Cholesky for SPD, LU otherwise; triangular, diagonal and orthogonal directly),
//! the matrix chain of each term, sums, scalar factors, and a memo of everything computed
//! so common subexpressions (also transposed) are computed once.

use std::collections::HashMap;

use super::ast::Kind;
use super::chain::{self, El, Plan};
use super::error::LaError;
use super::infer::{inverse_props, product_props, sum_props, transpose_props};
use super::kernels::{cost, Kernel};
use super::norm::{chain_key, Base, Env, Factor, Sum, Term};
use super::properties::{Prop, Props};

mod absorb;
mod block;
mod congruence;
mod factor;
mod orth;
mod rank2;
mod sandwich;
mod shared;

pub use block::{block_product_side, blocks};
use factor::Factorisation;
pub use orth::{Alternatives, Factoring, Orth};

/// An entity used as an argument, possibly transposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arg {
    /// Index into [`Env::entities`].
    pub id: usize,
    /// Whether the entity is used transposed.
    pub trans: bool,
}

/// A scalar multiplier: a number times scalar entities.
#[derive(Debug, Clone, PartialEq)]
pub struct Alpha {
    /// The numeric factor.
    pub coef: f64,
    /// Entity ids of `1 x 1` factors, multiplied in.
    pub scalars: Vec<usize>,
}

impl Alpha {
    /// The multiplier 1 (coefficient 1, no scalar entities).
    pub fn one() -> Alpha {
        Alpha {
            coef: 1.0,
            scalars: vec![],
        }
    }
    /// Whether this is exactly [`Alpha::one`].
    pub fn is_one(&self) -> bool {
        self.coef == 1.0 && self.scalars.is_empty()
    }
}

/// What a step computes, in terms of entities.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// out = a * b
    Mul {
        /// The left factor.
        a: Arg,
        /// The right factor.
        b: Arg,
    },
    /// out = op(t)^-1 * b (left) or b * op(t)^-1; t triangular, diagonal or 1x1.
    Solve {
        /// The structured matrix solved with.
        t: Arg,
        /// The right-hand side.
        b: Arg,
        /// Whether `t` is applied from the left.
        left: bool,
    },
    /// out = op(t)^-1 * b (left) or b * op(t)^-1, t block-diagonal (BDGESV, BDGETRS; see
    /// `lower/block`): `lu` (n x b, the blocks stacked) and `piv` (n x 1) hold the LU
    /// factors and pivots of the blocks of the matrix the solve applies from the left
    /// (op(t), or op(t)^T for a right solve), written by BDGESV (`factor`), read by BDGETRS.
    BlockSolve {
        /// The block-diagonal matrix solved with.
        t: Arg,
        /// The right-hand side.
        b: Arg,
        /// Whether `t` is applied from the left.
        left: bool,
        /// Entity of the blocks' LU factors.
        lu: usize,
        /// Entity of the blocks' pivots.
        piv: usize,
        /// Whether this step factors the blocks (else it reads the factors).
        factor: bool,
    },
    /// out = sum alpha_i * arg_i
    Add {
        /// The scaled summands.
        terms: Vec<(Alpha, Arg)>,
    },
    /// out = alpha * (a * b + (a * b)^T): SYR2K, `a` n x k and `b` k x n as used.
    Syr2k {
        /// The multiplier.
        alpha: Alpha,
        /// The left factor of the product that is added to its transpose.
        a: Arg,
        /// The right factor.
        b: Arg,
    },
    /// out = alpha * a
    Scale {
        /// The multiplier.
        alpha: Alpha,
        /// The scaled matrix.
        a: Arg,
    },
    /// out = L with a = L L^T
    Potrf {
        /// The SPD matrix factored.
        a: Arg,
    },
    /// a = P L U; out = P, with l and u further outputs
    Getrf {
        /// The matrix factored.
        a: Arg,
        /// Entity id that receives the lower triangular factor `L`.
        l: usize,
        /// Entity id that receives the upper triangular factor `U`.
        u: usize,
    },
    /// out = op(a)^-1, formed explicitly
    Inverse {
        /// The matrix inverted.
        a: Arg,
    },
    /// An orthogonal factorisation (QR, SYEV, SVD) or a product with its Q (see [`Orth`]).
    Orth(Orth),
    /// out (a program output) = a
    Bind {
        /// The value the output takes.
        a: Arg,
    },
    /// out (a program output) = the block matrix of `cells` (entities, by block row and
    /// column), by copies (see `blocks`); offsets follow from the blocks' shapes.
    Assemble {
        /// The blocks, by block row and column.
        cells: Vec<Vec<usize>>,
    },
}

/// One kernel call.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The catalogue kernel called.
    pub kernel: Kernel,
    /// What the call computes.
    pub op: Op,
    /// Entity id of the result.
    pub out: usize,
    /// FLOPs of the call at the problem's sizes.
    pub flops: f64,
    /// Properties the kernel relies on, for the report.
    pub uses: Vec<String>,
    /// For element-wise kernels (AXPY, SCAL): FLOPs as (a, b) in a*rows*cols + b*rows of
    /// the output, so the cost can be restated for symbolic sizes.
    pub elementwise: (f64, f64),
}

/// The result of lowering a whole program.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The program's operands followed by the temporaries the steps create.
    pub env: Env,
    /// The kernel calls in execution order.
    pub steps: Vec<Step>,
    /// Total FLOPs of the steps.
    pub flops: f64,
    /// The orthogonal factorisations the lowering could have used instead (or did use).
    pub alternatives: Alternatives,
}

/// Longest product the matrix-chain algorithm (cubic in the length) is run on.
pub const MAX_CHAIN: usize = 64;

#[derive(Clone)]
struct Lowering {
    env: Env,
    steps: Vec<Step>,
    memo: HashMap<String, Arg>,
    facts: HashMap<usize, Factorisation>,
    temps: usize,
    /// Whether congruences with a definite middle factor may go through its Cholesky factor.
    congruences: bool,
    policy: Factoring,
    alternatives: Alternatives,
    /// FLOPs the next chain saves if its last product can absorb an addition (see `absorb`);
    /// taken by that chain.
    root_credit: f64,
    /// The credit each term of the sum being computed passes on to its chain.
    sum_credit: f64,
}

/// Lowers the assignments `(lhs, rhs)` in order, with the default factorisations.
pub fn lower(env: &Env, stmts: &[(usize, Sum)]) -> Result<Lowered, LaError> {
    lower_with(env, stmts, Factoring::default())
}

/// Lowers the assignments `(lhs, rhs)` in order, using the orthogonal factorisations
/// `policy` asks for: once multiplying congruences `G M G^T` out and once through the
/// Cholesky factor of `M` (see `congruence`), keeping the cheaper. Which is cheaper is a
/// property of the whole program, not of one product: `M G^T` may be a common
/// subexpression that another term needs anyway (as in the LMMSE estimators).
pub fn lower_with(
    env: &Env,
    stmts: &[(usize, Sum)],
    policy: Factoring,
) -> Result<Lowered, LaError> {
    let plain = lower_once(env, stmts, policy, false);
    let factored = lower_once(env, stmts, policy, true);
    let best = match (plain, factored) {
        (Ok(p), Ok(f)) => {
            // Both met the same inverses; either may have met more.
            let met = p.alternatives.union(f.alternatives);
            let mut b = if f.flops < p.flops { f } else { p };
            b.alternatives = met;
            b
        }
        (Ok(p), Err(_)) => p,
        (Err(_), Ok(f)) => f,
        (Err(e), Err(_)) => return Err(e),
    };
    Ok(best)
}

fn lower_once(
    env: &Env,
    stmts: &[(usize, Sum)],
    policy: Factoring,
    congruences: bool,
) -> Result<Lowered, LaError> {
    let mut lw = Lowering {
        env: env.clone(),
        steps: Vec::new(),
        memo: HashMap::new(),
        facts: HashMap::new(),
        temps: 0,
        congruences,
        policy,
        alternatives: Alternatives::default(),
        root_credit: 0.0,
        sum_credit: 0.0,
    };
    for (lhs, rhs) in stmts {
        let props = sum_props(&lw.env, rhs);
        let a = lw.sum(rhs)?;
        let (r, c) = lw.env.shape(*lhs);
        lw.env.entities[*lhs].props = props.closure(r, c);
        lw.steps.push(Step {
            kernel: Kernel::Bind,
            op: Op::Bind { a },
            out: *lhs,
            flops: 0.0,
            uses: vec![],
            elementwise: (0.0, 0.0),
        });
        block::assemblies_after(&mut lw.steps, &lw.env, *lhs);
    }
    let flops = lw.steps.iter().map(|s| s.flops).sum();
    Ok(Lowered {
        env: lw.env,
        steps: lw.steps,
        flops,
        alternatives: lw.alternatives,
    })
}

impl Lowering {
    fn temp(&mut self, rows: u64, cols: u64, props: Props) -> usize {
        self.temps += 1;
        let name = format!("T{}", self.temps);
        self.env.add(name, rows, cols, props)
    }

    fn arg_props(&self, a: Arg) -> Props {
        let p = self.env.props(a.id);
        if a.trans {
            transpose_props(p)
        } else {
            p
        }
    }

    fn arg_shape(&self, a: Arg) -> (u64, u64) {
        let (r, c) = self.env.shape(a.id);
        if a.trans {
            (c, r)
        } else {
            (r, c)
        }
    }

    fn emit(&mut self, kernel: Kernel, op: Op, out: usize, flops: f64, uses: Vec<String>) {
        let elementwise = match kernel {
            Kernel::Axpy | Kernel::Scal => {
                let (r, c) = self.env.shape(out);
                (flops / cost::elementwise(r, c), 0.0)
            }
            _ => (0.0, 0.0),
        };
        self.steps.push(Step {
            kernel,
            op,
            out,
            flops,
            uses,
            elementwise,
        });
    }

    fn lookup(&self, key: &str, tkey: &str) -> Option<Arg> {
        if let Some(a) = self.memo.get(key) {
            return Some(*a);
        }
        self.memo.get(tkey).map(|a| Arg {
            id: a.id,
            trans: !a.trans,
        })
    }

    /// Evaluates a sum to an entity.
    fn sum(&mut self, s: &Sum) -> Result<Arg, LaError> {
        let key = format!("S:{}", s.key());
        let tkey = format!("S:{}", s.transpose(&self.env).key());
        if let Some(a) = self.lookup(&key, &tkey) {
            return Ok(a);
        }
        let props = sum_props(&self.env, s);
        let out = match s.terms.len() {
            0 => {
                return Err(LaError::Unsupported(
                    "an expression that is identically zero".into(),
                ));
            }
            1 => {
                let (alpha, a) = self.term(&s.terms[0])?;
                if alpha.is_one() {
                    a
                } else {
                    let (r, c) = self.arg_shape(a);
                    let out = self.temp(r, c, props);
                    self.emit(
                        Kernel::Scal,
                        Op::Scale { alpha, a },
                        out,
                        cost::elementwise(r, c),
                        vec![],
                    );
                    Arg {
                        id: out,
                        trans: false,
                    }
                }
            }
            _ => {
                // Pairs of terms that are each other's transposes, each computed by one
                // SYR2K where that is no dearer (see `rank2`).
                let pairs = self.rank2_pairs(s)?;
                if let ([(first, _, split)], 2) = (pairs.as_slice(), s.terms.len()) {
                    self.syr2k(&s.terms[*first], *split)?
                } else {
                    self.add_terms_cheapest(s, &pairs, props)?
                }
            }
        };
        // The entity holds the value of this sum, so what is known about the sum holds for
        // it (the chain and kernels only derive structural properties).
        let (r, c) = self.env.shape(out.id);
        let known = if out.trans {
            transpose_props(props)
        } else {
            props
        };
        let ent = &mut self.env.entities[out.id];
        ent.props = ent.props.union(known).closure(r, c);
        self.memo.insert(key, out);
        Ok(out)
    }

    /// A sum of several terms as one AXPY step (the second term of each pair in `pairs`
    /// is part of its first one's SYR2K).
    fn add_terms(
        &mut self,
        s: &Sum,
        pairs: &[(usize, usize, usize)],
        props: Props,
    ) -> Result<Arg, LaError> {
        let mut evaluated = Vec::new();
        for (ti, t) in s.terms.iter().enumerate() {
            if pairs.iter().any(|p| p.1 == ti) {
                continue;
            }
            let before = self.steps.len();
            let (alpha, a) = match pairs.iter().find(|p| p.0 == ti) {
                Some(&(_, _, split)) => (Alpha::one(), self.syr2k(t, split)?),
                None => {
                    self.root_credit = self.sum_credit;
                    self.term(t)?
                }
            };
            let fresh = self.steps.len() > before
                && self.steps.last().is_some_and(|st| {
                    st.out == a.id
                        && matches!(st.op, Op::Mul { .. } | Op::Syr2k { .. })
                        && st.kernel != Kernel::Laswp
                });
            evaluated.push((alpha, a, fresh));
        }
        let mut terms = Vec::new();
        let mut flops = 0.0;
        // Additions of full terms, and products computed just for this sum: each such
        // product absorbs one addition (GEMM/GEMV/SYRK/SYR2K compute alpha*A*B + beta*C),
        // unless another term is the same value (T + T^T: T is not known before its own
        // product is done).
        let (mut additions, mut absorbers) = (0usize, 0usize);
        let mut first_scaling = 0.0;
        let mut diagonal_adds = 0.0;
        for (i, (alpha, a, fresh)) in evaluated.iter().enumerate() {
            let shared = evaluated
                .iter()
                .enumerate()
                .any(|(j, (_, b, _))| j != i && b.id == a.id);
            let identity = self.env.props(a.id).has(Prop::Identity);
            let (r, c) = self.arg_shape(*a);
            if identity {
                // Adding a multiple of I touches the diagonal only.
                flops += r as f64;
                diagonal_adds += 1.0;
            } else {
                additions += 1;
                if *fresh && !shared {
                    absorbers += 1;
                } else if !alpha.is_one() && additions == 1 {
                    first_scaling = cost::elementwise(r, c);
                }
            }
            terms.push((alpha.clone(), *a));
        }
        // Later terms are scaled by AXPY's alpha; the first one by GEMM's beta if some
        // product absorbs an addition, else by a SCAL.
        if absorbers == 0 {
            flops += first_scaling;
        }
        let unabsorbed = additions.saturating_sub(1).saturating_sub(absorbers);
        // One FLOP per element and addition, as the naive baseline counts it.
        flops += unabsorbed as f64 * cost::elementwise(s.rows, s.cols);
        let out = self.temp(s.rows, s.cols, props);
        self.emit(Kernel::Axpy, Op::Add { terms }, out, flops, vec![]);
        if let Some(st) = self.steps.last_mut() {
            let full = (flops - diagonal_adds * s.rows as f64) / cost::elementwise(s.rows, s.cols);
            st.elementwise = (full, diagonal_adds);
        }
        Ok(Arg {
            id: out,
            trans: false,
        })
    }

    /// Evaluates a term's chain; returns its scalar multiplier separately.
    fn term(&mut self, t: &Term) -> Result<(Alpha, Arg), LaError> {
        let mut alpha = Alpha {
            coef: t.coef,
            scalars: vec![],
        };
        // The credit is for the term's own chain, not for its scalar factors.
        let credit = std::mem::take(&mut self.root_credit);
        for f in &t.scalars {
            let a = self.chain(std::slice::from_ref(f))?;
            alpha.scalars.push(a.id);
        }
        self.root_credit = credit;
        if t.factors.is_empty() {
            // A pure scalar: materialise coef * scalars as a 1x1 entity.
            let out = self.temp(1, 1, Props::EMPTY);
            let one = self.constant_one();
            self.emit(
                Kernel::Scal,
                Op::Scale {
                    alpha,
                    a: Arg {
                        id: one,
                        trans: false,
                    },
                },
                out,
                1.0,
                vec![],
            );
            return Ok((
                Alpha::one(),
                Arg {
                    id: out,
                    trans: false,
                },
            ));
        }
        let a = self.chain(&t.factors)?;
        Ok((alpha, a))
    }

    fn constant_one(&mut self) -> usize {
        if let Some(i) = self
            .env
            .entities
            .iter()
            .position(|e| e.kind == Kind::Constant && e.value == 1.0 && e.name == "1")
        {
            return i;
        }
        self.env.entities.push(super::norm::Entity {
            name: "1".into(),
            kind: Kind::Constant,
            rows: 1,
            cols: 1,
            props: Props::of(&[Prop::Positive, Prop::Square]),
            value: 1.0,
        });
        self.env.entities.len() - 1
    }

    fn element(&self, a: Arg, inv: bool) -> El {
        let (rows, cols) = self.arg_shape(a);
        let p = self.env.props(a.id);
        El {
            inv,
            id: a.id,
            trans: a.trans,
            rows,
            cols,
            props: self.arg_props(a),
            symmetric: p.has(Prop::Symmetric) || (rows == 1 && cols == 1),
            kept: [self.kept_block_lu(a, true), self.kept_block_lu(a, false)],
        }
    }

    /// The chain elements for one factor; factorisations are emitted on the way.
    fn elements(&mut self, f: &Factor) -> Result<Vec<El>, LaError> {
        if let Some(els) = self.gram_qr_elements(f)? {
            return Ok(els);
        }
        let a = match &f.base {
            Base::Op(id) => Arg {
                id: *id,
                trans: f.trans,
            },
            Base::Sum(s) => {
                let a = self.sum(s)?;
                Arg {
                    id: a.id,
                    trans: a.trans != f.trans,
                }
            }
        };
        if !f.inv {
            return Ok(vec![self.element(a, false)]);
        }
        let (n, _) = self.arg_shape(a);
        let p = self.env.props(a.id).with(Prop::NonSingular).closure(n, n);
        if p.has(Prop::Identity) {
            return Ok(vec![self.element(a, false)]);
        }
        if p.has(Prop::Orthogonal) {
            // Q^-1 = Q^T.
            return Ok(vec![self.element(
                Arg {
                    id: a.id,
                    trans: !a.trans,
                },
                false,
            )]);
        }
        if let Some(x) = self.formed_block_inverse(f, p) {
            return Ok(vec![self.element(x, false)]);
        }
        if p.has(Prop::Diagonal) || p.is_triangular() || n == 1 || block::blocks(p).is_some() {
            return Ok(vec![self.element(a, true)]);
        }
        if p.has(Prop::Spd) {
            let l = self.cholesky(a.id, n);
            // A^-1 = L^-T L^-1 (A symmetric, so transposition does not matter).
            return Ok(vec![
                self.element(Arg { id: l, trans: true }, true),
                self.element(
                    Arg {
                        id: l,
                        trans: false,
                    },
                    true,
                ),
            ]);
        }
        if let Some(els) = self.orth_inverse_elements(a, p)? {
            return Ok(els);
        }
        let (pm, l, u) = self.lu(a.id, n);
        // A = P L U: A^-1 = U^-1 L^-1 P^T and A^-T = P L^-T U^-T.
        Ok(if a.trans {
            vec![
                self.element(
                    Arg {
                        id: pm,
                        trans: false,
                    },
                    false,
                ),
                self.element(Arg { id: l, trans: true }, true),
                self.element(Arg { id: u, trans: true }, true),
            ]
        } else {
            vec![
                self.element(
                    Arg {
                        id: u,
                        trans: false,
                    },
                    true,
                ),
                self.element(
                    Arg {
                        id: l,
                        trans: false,
                    },
                    true,
                ),
                self.element(
                    Arg {
                        id: pm,
                        trans: true,
                    },
                    false,
                ),
            ]
        })
    }

    /// Evaluates a product of factors.
    fn chain(&mut self, fs: &[Factor]) -> Result<Arg, LaError> {
        let credit = std::mem::take(&mut self.root_credit);
        let key = format!("C:{}", chain_key(fs));
        let tfs: Vec<Factor> = fs.iter().rev().map(|f| f.transpose(&self.env)).collect();
        let tkey = format!("C:{}", chain_key(&tfs));
        if let Some(a) = self.lookup(&key, &tkey) {
            return Ok(a);
        }
        if let Some(out) = self.least_squares(fs)? {
            self.memo.insert(key, out);
            return Ok(out);
        }
        let mut els = Vec::new();
        for f in fs {
            els.extend(self.elements(f)?);
        }
        if els.len() > MAX_CHAIN {
            return Err(LaError::Resource(format!(
                "a product of {} factors (at most {MAX_CHAIN})",
                els.len()
            )));
        }
        let plan = {
            let memo = &self.memo;
            chain::solve_credited(&els, &|k: &str| memo.contains_key(k), credit)
        };
        if let Some(out) = self.congruence(fs, plan.flops())? {
            self.memo.insert(key, out);
            return Ok(out);
        }
        if let Some(out) = self.sandwich(fs, plan.flops())? {
            self.memo.insert(key, out);
            return Ok(out);
        }
        let plan = self.share_repeats(&els, plan)?;
        let out = match plan {
            Plan::Leaf(i) => {
                let e = &els[i];
                let a = Arg {
                    id: e.id,
                    trans: e.trans,
                };
                if e.inv {
                    self.explicit_inverse(e)?
                } else {
                    a
                }
            }
            _ => self.realise(&els, &plan)?,
        };
        self.memo.insert(key, out);
        Ok(out)
    }

    fn explicit_inverse(&mut self, e: &El) -> Result<Arg, LaError> {
        let a = Arg {
            id: e.id,
            trans: e.trans,
        };
        let n = e.rows;
        let (kernel, flops) = if e.props.has(Prop::Diagonal) || n == 1 {
            (Kernel::DiagSolve, n as f64)
        } else if e.props.is_triangular() {
            (Kernel::Trtri, cost::trtri(n))
        } else if let Some(kf) = block::explicit_inverse(e.props, n) {
            kf
        } else {
            return Err(LaError::Unsupported(
                "explicit inverse of a general matrix element".into(),
            ));
        };
        let props = inverse_props(e.props, n);
        let out = self.temp(n, n, props);
        self.emit(
            kernel,
            Op::Inverse { a },
            out,
            flops,
            vec![structure_name(e.props)],
        );
        Ok(Arg {
            id: out,
            trans: false,
        })
    }

    fn realise(&mut self, els: &[El], plan: &Plan) -> Result<Arg, LaError> {
        match plan {
            Plan::Leaf(i) => Ok(Arg {
                id: els[*i].id,
                trans: els[*i].trans,
            }),
            Plan::Known(k, transposed) => {
                // The chain DP only reports keys present in the memo.
                let a = self
                    .memo
                    .get(k)
                    .copied()
                    .ok_or_else(|| LaError::Unsupported("lost common subexpression".into()))?;
                Ok(Arg {
                    id: a.id,
                    trans: a.trans != *transposed,
                })
            }
            Plan::Node {
                left,
                right,
                kernel,
                flops,
                gram,
                explicit_left,
                key,
                rows,
                cols,
            } => {
                let linv = matches!(**left, Plan::Leaf(i) if els[i].inv);
                let rinv = matches!(**right, Plan::Leaf(i) if els[i].inv);
                let r = self.realise(els, right)?;
                let mut inverse_flops = 0.0;
                let (op, props, uses) = if *gram {
                    let rp = self.arg_props(r);
                    let p = Props::of(&[Prop::Symmetric, Prop::Spsd]);
                    let (rr, rc) = self.arg_shape(r);
                    let p = if rp.has(Prop::FullRank) && rr >= rc {
                        p.with(Prop::Spd)
                    } else {
                        p
                    };
                    (
                        Op::Mul {
                            a: Arg {
                                id: r.id,
                                trans: !r.trans,
                            },
                            b: r,
                        },
                        p,
                        vec![],
                    )
                } else if linv && rinv && *explicit_left && *kernel == Kernel::Lauum {
                    let Plan::Leaf(j) = **right else {
                        unreachable_plan()?
                    };
                    let x = self.explicit_inverse(&els[j])?;
                    inverse_flops = self.steps.last().map_or(0.0, |s| s.flops);
                    (
                        Op::Mul {
                            a: Arg {
                                id: x.id,
                                trans: !x.trans,
                            },
                            b: x,
                        },
                        Props::of(&[Prop::Spd]),
                        vec![structure_name(els[j].props)],
                    )
                } else if linv && rinv && *explicit_left {
                    let Plan::Leaf(i) = **left else {
                        unreachable_plan()?
                    };
                    let li = self.explicit_inverse(&els[i])?;
                    // The chain priced the explicit inverse into this node; it is its own step.
                    inverse_flops = self.steps.last().map_or(0.0, |s| s.flops);
                    let Plan::Leaf(j) = **right else {
                        unreachable_plan()?
                    };
                    // As the chain priced it: the product of the two inverses.
                    let p = product_props(
                        inverse_props(els[i].props, els[i].rows),
                        (els[i].rows, els[i].cols),
                        inverse_props(els[j].props, els[j].rows),
                        (els[j].rows, els[j].cols),
                    );
                    (
                        Op::Solve {
                            t: r,
                            b: li,
                            left: false,
                        },
                        p,
                        vec![structure_name(els[j].props)],
                    )
                } else if linv {
                    let Plan::Leaf(i) = **left else {
                        unreachable_plan()?
                    };
                    let t = Arg {
                        id: els[i].id,
                        trans: els[i].trans,
                    };
                    let p = product_props(
                        inverse_props(els[i].props, els[i].rows),
                        (els[i].rows, els[i].cols),
                        self.arg_props(r),
                        self.arg_shape(r),
                    );
                    (
                        Op::Solve {
                            t,
                            b: r,
                            left: true,
                        },
                        p,
                        vec![structure_name(els[i].props)],
                    )
                } else {
                    let l = self.realise(els, left)?;
                    if rinv {
                        let Plan::Leaf(j) = **right else {
                            unreachable_plan()?
                        };
                        let p = product_props(
                            self.arg_props(l),
                            self.arg_shape(l),
                            inverse_props(els[j].props, els[j].rows),
                            (els[j].rows, els[j].cols),
                        );
                        (
                            Op::Solve {
                                t: r,
                                b: l,
                                left: false,
                            },
                            p,
                            vec![structure_name(els[j].props)],
                        )
                    } else {
                        let lp = self.arg_props(l);
                        let rp = self.arg_props(r);
                        let p = product_props(lp, self.arg_shape(l), rp, self.arg_shape(r));
                        let uses = match kernel {
                            Kernel::Trmm | Kernel::Trmv => {
                                vec![structure_name(if lp.is_triangular() { lp } else { rp })]
                            }
                            Kernel::DiagScale => vec!["Diagonal".into()],
                            Kernel::Symm | Kernel::Symv => vec!["Symmetric".into()],
                            Kernel::Laswp => vec!["Permutation".into()],
                            _ => vec![],
                        };
                        (Op::Mul { a: l, b: r }, p, uses)
                    }
                };
                let out = self.temp(*rows, *cols, props);
                if matches!(kernel, Kernel::BdGesv | Kernel::BdGetrs) {
                    // With the blocks' factors kept by an earlier solve, or kept now.
                    self.block_solve(op, out, uses)?;
                } else {
                    self.emit(*kernel, op, out, *flops - inverse_flops, uses);
                }
                let a = Arg {
                    id: out,
                    trans: false,
                };
                self.memo.insert(key.clone(), a);
                Ok(a)
            }
        }
    }
}

fn unreachable_plan<T>() -> Result<T, LaError> {
    Err(LaError::Unsupported("inconsistent chain plan".into()))
}

fn structure_name(p: Props) -> String {
    if let Some(b) = block::structure_name(p) {
        b
    } else if p.has(Prop::Diagonal) {
        "Diagonal".into()
    } else if p.has(Prop::LowerTriangular) {
        "LowerTriangular".into()
    } else if p.has(Prop::UpperTriangular) {
        "UpperTriangular".into()
    } else if p.has(Prop::Permutation) {
        "Permutation".into()
    } else {
        "NonSingular".into()
    }
}
