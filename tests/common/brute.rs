//! A brute-force oracle for the FLOPs of a one-assignment problem, independent of polyscan's
//! search (`search`, `chain`, `lower`): it enumerates every parenthesisation of every product
//! chain, every way of taking an inverted product apart at square cuts (each part factorised
//! or split further), and for every product node every applicable kernel, and returns the
//! cheapest total. Shared with polyscan are only the property rules (`infer`) and the kernel
//! cost formulas (`kernels::cost`): the check is about the search, not the cost model.
//!
//! The space is what polyscan's lowering can express: an inverse is a factorisation and
//! solves (Cholesky for SPD, LU otherwise; triangular and diagonal operands solved with
//! directly), never an explicit inverse unless two inverted factors meet; values computed
//! once and reused, also as transposes (`X^T X` by SYRK, the two `X` of `X M X^T` once); a
//! sum costs one FLOP per element and addition, except that a product computed for the sum
//! absorbs one addition (GEMM's beta), as polyscan counts it. Not in the space: distributing
//! products over sums and factoring terms out (polyscan's rewrites may beat the oracle
//! there, never the other way), scalar factors and SYR2K.
//!
//! Enumeration: an algorithm is one tree per chain, for each choice of inverse splits; its
//! cost is the sum over distinct values (canonical keys, a value and its transpose alike) of
//! the cheapest kernel for the node that computes it first, plus factorisations (once per
//! value) and additions. Problems with more algorithms than a limit are reported as skipped.

#![allow(dead_code)] // each test file uses its own subset

use std::collections::HashMap;

use polyscan_la::ast::{Expr, Program};
use polyscan_la::infer::{inverse_props, product_props, sum_props, term_props, transpose_props};
use polyscan_la::kernels::cost;
use polyscan_la::norm::{Base, Env, Factor as NFactor, Sum as NSum, Term as NTerm};
use polyscan_la::properties::{Prop, Props};

use super::brute_price::{price, Side};

/// Why the oracle gives no answer for a problem.
#[derive(Debug, Clone, PartialEq)]
pub enum Skip {
    /// More algorithms than the limit (the count is given).
    TooMany(f64),
    /// A construct outside the oracle's space.
    Unsupported(String),
}

/// The oracle's answer: the minimum and how many algorithms it was taken over.
#[derive(Debug, Clone, Copy)]
pub struct Brute {
    /// Cheapest FLOPs over all algorithms.
    pub flops: f64,
    /// Number of algorithms enumerated.
    pub algorithms: f64,
}

/// The formula with transposes pushed to the operands, products flattened, and signs as
/// coefficients of the terms of sums.
#[derive(Debug, Clone)]
enum Tree {
    Op { id: usize, trans: bool },
    Inv(Box<Tree>),
    Mul(Vec<Tree>),
    Add(Vec<(f64, Tree)>),
}

fn unsupported<T>(what: &str) -> Result<T, Skip> {
    Err(Skip::Unsupported(what.to_string()))
}

fn tree(p: &Program, e: &Expr, trans: bool) -> Result<Tree, Skip> {
    Ok(match e {
        Expr::Operand(i) => {
            let o = &p.operands[*i];
            if o.rows == 1 && o.cols == 1 {
                return unsupported("scalars");
            }
            let sym = o.props.has(Prop::Symmetric);
            Tree::Op {
                id: *i,
                trans: trans && !sym,
            }
        }
        Expr::Trans(a) => tree(p, a, !trans)?,
        Expr::Block(_) => return unsupported("block matrices"),
        Expr::Inv(a) => Tree::Inv(Box::new(tree(p, a, trans)?)),
        Expr::Mul(a, b) => {
            let (x, y) = if trans { (b, a) } else { (a, b) };
            let mut fs = Vec::new();
            for t in [tree(p, x, trans)?, tree(p, y, trans)?] {
                match t {
                    Tree::Mul(inner) => fs.extend(inner),
                    other => fs.push(other),
                }
            }
            Tree::Mul(fs)
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let sign = if matches!(e, Expr::Sub(..)) {
                -1.0
            } else {
                1.0
            };
            let mut terms = Vec::new();
            for (c, t) in [(1.0, tree(p, a, trans)?), (sign, tree(p, b, trans)?)] {
                match t {
                    Tree::Add(inner) => terms.extend(inner.into_iter().map(|(d, u)| (c * d, u))),
                    other => terms.push((c, other)),
                }
            }
            Tree::Add(terms)
        }
        Expr::Neg(a) => match tree(p, a, trans)? {
            Tree::Add(inner) => Tree::Add(inner.into_iter().map(|(d, u)| (-d, u)).collect()),
            other => Tree::Add(vec![(-1.0, other)]),
        },
    })
}

/// A value that may be an element of a chain (canonical orientation).
#[derive(Debug, Clone)]
struct Value {
    rows: u64,
    cols: u64,
    props: Props,
}

/// One element of a chain: a value, as used (transposed) and whether it is solved with.
#[derive(Debug, Clone, Copy)]
struct El {
    v: usize,
    trans: bool,
    inv: bool,
}

/// What the enumeration knows about an interval of a chain (length >= 2).
#[derive(Debug, Clone, Default)]
struct Interval {
    /// Canonical value id.
    vid: usize,
    /// Cheapest kernel FLOPs for each split point (index s - i), and whether it is a
    /// product that absorbs an addition of the sum it is computed for.
    split: Vec<(f64, bool)>,
}

/// A chain with everything the enumeration needs precomputed.
struct Chain {
    len: usize,
    /// Intervals by `i * len + j` (only `j > i` set).
    iv: Vec<Interval>,
    /// Value of the whole chain (canonical id) and whether the chain is its transpose.
    root: usize,
    root_trans: bool,
    rows: u64,
    cols: u64,
}

/// A step of an algorithm, in polyscan's order (what a factor needs before its chain).
#[derive(Debug, Clone)]
enum Task {
    Chain(usize),
    Factor {
        v: usize,
        flops: f64,
    },
    Sum {
        terms: Vec<(f64, usize)>,
        rows: u64,
        cols: u64,
    },
}

/// Everything built: values, chains, and per alternative of the whole formula a task list.
struct Oracle {
    env: Env,
    /// Whether a (non-inverted) SPD operand may also be used as `L L^T`.
    spd_factors: bool,
    values: Vec<Value>,
    ids: HashMap<String, usize>,
    chains: Vec<Chain>,
}

/// Alternatives for a factor or product: tasks to run first, and the chain elements.
type Alt = (Vec<Task>, Vec<El>);

/// Alternatives for the terms of a sum so far: tasks, and (coefficient, chain) per term.
type TermsAlt = (Vec<Task>, Vec<(f64, usize)>);

/// A binary tree over a chain, its internal nodes in pre-order as (i, j, split).
type Nodes = Vec<(u8, u8, u8)>;

fn catalan(n: usize) -> f64 {
    // C(n) = binom(2n, n) / (n + 1)
    let mut c = 1.0;
    for k in 0..n {
        c = c * 2.0 * (2 * k + 1) as f64 / (k + 2) as f64;
    }
    c
}

/// All binary trees over `len` elements, each in pre-order as (i, j, split).
fn trees(i: usize, j: usize) -> Vec<Nodes> {
    if i == j {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for s in i..j {
        let ls = trees(i, s);
        let rs = trees(s + 1, j);
        for l in &ls {
            for r in &rs {
                let mut t = vec![(i as u8, j as u8, s as u8)];
                t.extend_from_slice(l);
                t.extend_from_slice(r);
                out.push(t);
            }
        }
    }
    out
}

impl Oracle {
    fn value(&mut self, key: String, rows: u64, cols: u64, props: Props) -> usize {
        if let Some(&v) = self.ids.get(&key) {
            let old = &mut self.values[v];
            old.props = old.props.union(props).closure(rows, cols);
            return v;
        }
        self.values.push(Value {
            rows,
            cols,
            props: props.closure(rows, cols),
        });
        self.ids.insert(key, self.values.len() - 1);
        self.values.len() - 1
    }

    fn symmetric(&self, v: usize) -> bool {
        let x = &self.values[v];
        x.props.has(Prop::Symmetric) || (x.rows == 1 && x.cols == 1)
    }

    fn el_key(&self, e: El, transposed: bool) -> String {
        let t = (e.trans != transposed) && !self.symmetric(e.v);
        format!(
            "{}{}{}",
            if e.inv { "/" } else { "" },
            e.v,
            if t { "'" } else { "" }
        )
    }

    fn key(&self, els: &[El], transposed: bool) -> String {
        let ks: Vec<String> = if transposed {
            els.iter().rev().map(|e| self.el_key(*e, true)).collect()
        } else {
            els.iter().map(|e| self.el_key(*e, false)).collect()
        };
        format!("E:{}", ks.join("*"))
    }

    /// Shape and properties of an element as used; for an inverted one, before inversion.
    fn side(&self, e: El) -> Side {
        let x = &self.values[e.v];
        let (rows, cols, props) = if e.trans {
            (
                x.cols,
                x.rows,
                transpose_props(x.props).closure(x.cols, x.rows),
            )
        } else {
            (x.rows, x.cols, x.props)
        };
        Side {
            rows,
            cols,
            props,
            inv: e.inv,
        }
    }

    /// Builds the chain of `els` (length >= 1) with all its intervals priced.
    fn chain(&mut self, els: Vec<El>) -> usize {
        let len = els.len();
        let mut iv = vec![Interval::default(); len * len];
        // Properties and shapes of intervals, as used (left to right).
        let mut props = vec![Props::EMPTY; len * len];
        let mut shape = vec![(0u64, 0u64); len * len];
        let mut keys = vec![(String::new(), String::new()); len * len];
        for (i, e) in els.iter().enumerate() {
            let s = self.side(*e);
            shape[i * len + i] = (s.rows, s.cols);
            props[i * len + i] = if e.inv {
                inverse_props(s.props, s.rows)
            } else {
                s.props
            };
            keys[i * len + i] = (self.key(&els[i..=i], false), self.key(&els[i..=i], true));
        }
        for width in 2..=len {
            for i in 0..=len - width {
                let j = i + width - 1;
                let (rows, cols) = (shape[i * len + i].0, shape[j * len + j].1);
                let (k, tk) = (self.key(&els[i..=j], false), self.key(&els[i..=j], true));
                let mut p = Props::EMPTY;
                let mut split = Vec::new();
                for s in i..j {
                    let (a, b) = (i * len + s, (s + 1) * len + j);
                    let mirrored = keys[a].0 == keys[b].1;
                    p = p.union(product_props(props[a], shape[a], props[b], shape[b]));
                    let side = |x: usize, single: Option<El>| match single {
                        Some(e) => self.side(e),
                        None => Side {
                            rows: shape[x].0,
                            cols: shape[x].1,
                            props: props[x],
                            inv: false,
                        },
                    };
                    let l = side(a, (s == i).then_some(els[i]));
                    let r = side(b, (s + 1 == j).then_some(els[j]));
                    if mirrored && !l.inv && !r.inv {
                        // X^T X is symmetric semi-definite; definite for X of full column rank.
                        p = p.with(Prop::Symmetric).with(Prop::Spsd);
                        if r.props.has(Prop::FullRank) && r.rows >= r.cols {
                            p = p.with(Prop::Spd);
                        }
                    }
                    split.push(price(l, r, mirrored));
                }
                let p = p.closure(rows, cols);
                let (canon, flipped) = if tk < k {
                    (tk.clone(), true)
                } else {
                    (k.clone(), false)
                };
                let (cr, cc, cp) = if flipped {
                    (cols, rows, transpose_props(p))
                } else {
                    (rows, cols, p)
                };
                let vid = self.value(canon, cr, cc, cp);
                iv[i * len + j] = Interval { vid, split };
                props[i * len + j] = p;
                shape[i * len + j] = (rows, cols);
                keys[i * len + j] = (k, tk);
            }
        }
        let (root, root_trans) = if len == 1 {
            (els[0].v, els[0].trans)
        } else {
            let (k, tk) = &keys[len - 1];
            (iv[len - 1].vid, tk < k)
        };
        self.chains.push(Chain {
            len,
            iv,
            root,
            root_trans,
            rows: shape[0].0,
            cols: shape[len * len - 1].1,
        });
        self.chains.len() - 1
    }

    /// The norm factor of a tree, for property inference.
    fn nfactor(&self, t: &Tree) -> Result<NFactor, Skip> {
        Ok(match t {
            Tree::Op { id, trans } => NFactor {
                base: Base::Op(*id),
                trans: *trans,
                inv: false,
            },
            Tree::Inv(x) => {
                let mut f = self.nfactor(x)?;
                if f.inv {
                    return unsupported("nested inverses");
                }
                f.inv = true;
                f
            }
            Tree::Mul(_) | Tree::Add(_) => {
                let s = self.nsum(t)?;
                NFactor {
                    base: Base::Sum(Box::new(s)),
                    trans: false,
                    inv: false,
                }
            }
        })
    }

    fn nterm(&self, coef: f64, t: &Tree) -> Result<NTerm, Skip> {
        let fs = match t {
            Tree::Mul(fs) => fs
                .iter()
                .map(|f| self.nfactor(f))
                .collect::<Result<_, _>>()?,
            other => vec![self.nfactor(other)?],
        };
        Ok(NTerm {
            coef,
            scalars: vec![],
            factors: fs,
        })
    }

    fn nsum(&self, t: &Tree) -> Result<NSum, Skip> {
        let (rows, cols) = self.shape(t);
        let terms = match t {
            Tree::Add(ts) => ts
                .iter()
                .map(|(c, u)| self.nterm(*c, u))
                .collect::<Result<_, _>>()?,
            other => vec![self.nterm(1.0, other)?],
        };
        Ok(NSum { terms, rows, cols })
    }

    fn shape(&self, t: &Tree) -> (u64, u64) {
        match t {
            Tree::Op { id, trans } => {
                let (r, c) = self.env.shape(*id);
                if *trans {
                    (c, r)
                } else {
                    (r, c)
                }
            }
            Tree::Inv(x) => self.shape(x),
            Tree::Mul(fs) => match (fs.first(), fs.last()) {
                (Some(a), Some(b)) => (self.shape(a).0, self.shape(b).1),
                _ => (0, 0),
            },
            Tree::Add(ts) => ts.first().map_or((0, 0), |(_, u)| self.shape(u)),
        }
    }

    fn operand(&mut self, id: usize) -> usize {
        let (r, c) = self.env.shape(id);
        let p = self.env.props(id);
        self.value(format!("op{id}"), r, c, p)
    }

    /// Elements that apply the inverse of the value `v` (canonical, used transposed if
    /// `trans`) with properties `p`, and the factorisation they need: as the lowering does.
    fn inverse_of(&mut self, v: usize, trans: bool, p: Props, n: u64) -> Result<Alt, Skip> {
        let p = p.with(Prop::NonSingular).closure(n, n);
        if p.has(Prop::Identity) || p.has(Prop::Orthogonal) {
            return unsupported("identity or orthogonal inverses");
        }
        if p.has(Prop::Diagonal) || p.is_triangular() {
            return Ok((
                vec![],
                vec![El {
                    v,
                    trans,
                    inv: true,
                }],
            ));
        }
        let tri = Props::of(&[Prop::LowerTriangular, Prop::NonSingular]);
        if p.has(Prop::Spd) {
            // A = L L^T: A^-1 = L^-T L^-1.
            let l = self.value(format!("chol({v})"), n, n, tri);
            let task = Task::Factor {
                v: l,
                flops: cost::potrf(n),
            };
            return Ok((
                vec![task],
                vec![
                    El {
                        v: l,
                        trans: true,
                        inv: true,
                    },
                    El {
                        v: l,
                        trans: false,
                        inv: true,
                    },
                ],
            ));
        }
        // A = P L U: A^-1 = U^-1 L^-1 P^T, A^-T = P L^-T U^-T.
        let pm = self.value(format!("P({v})"), n, n, Props::of(&[Prop::Permutation]));
        let l = self.value(
            format!("L({v})"),
            n,
            n,
            Props::of(&[Prop::LowerTriangular, Prop::UnitDiagonal, Prop::NonSingular]),
        );
        let u = self.value(
            format!("U({v})"),
            n,
            n,
            Props::of(&[Prop::UpperTriangular, Prop::NonSingular]),
        );
        let task = Task::Factor {
            v: pm,
            flops: cost::getrf(n),
        };
        let e = |v: usize, trans: bool, inv: bool| El { v, trans, inv };
        let els = if trans {
            vec![e(pm, false, false), e(l, true, true), e(u, true, true)]
        } else {
            vec![e(u, false, true), e(l, false, true), e(pm, true, false)]
        };
        Ok((vec![task], els))
    }

    /// Alternatives for the factors `fs` of a product, elements concatenated. A run of
    /// adjacent inverses of one size is taken as the inverse of one product,
    /// `inv(X1) inv(X2) = inv(X2 X1)`, whose cuts into square parts include the run as
    /// written and every merge of neighbours in it.
    fn factors(&mut self, fs: &[Tree]) -> Result<Vec<Alt>, Skip> {
        let mut merged: Vec<Tree> = Vec::new();
        let mut run: Vec<Vec<Tree>> = Vec::new();
        let flush = |run: &mut Vec<Vec<Tree>>, merged: &mut Vec<Tree>| {
            if run.len() == 1 {
                let inner = run.remove(0);
                merged.push(match <[Tree; 1]>::try_from(inner) {
                    Ok([one]) => Tree::Inv(Box::new(one)),
                    Err(many) => Tree::Inv(Box::new(Tree::Mul(many))),
                });
            } else if !run.is_empty() {
                let product: Vec<Tree> = run.drain(..).rev().flatten().collect();
                merged.push(Tree::Inv(Box::new(Tree::Mul(product))));
            }
            run.clear();
        };
        for f in fs {
            let inner = match f {
                Tree::Inv(x) => match &**x {
                    Tree::Op { .. } => Some(vec![(**x).clone()]),
                    Tree::Mul(gs) => Some(gs.clone()),
                    _ => None,
                },
                _ => None,
            };
            match inner {
                Some(g)
                    if run.is_empty()
                        || self.shape(f) == self.shape(&Tree::Mul(run[0].clone())) =>
                {
                    run.push(g)
                }
                Some(g) => {
                    flush(&mut run, &mut merged);
                    run.push(g);
                }
                None => {
                    flush(&mut run, &mut merged);
                    merged.push(f.clone());
                }
            }
        }
        flush(&mut run, &mut merged);
        let mut acc: Vec<Alt> = vec![(vec![], vec![])];
        for f in &merged {
            let alts = self.factor(f)?;
            let mut next = Vec::new();
            for (t0, e0) in &acc {
                for (t1, e1) in &alts {
                    let mut t = t0.clone();
                    t.extend(t1.iter().cloned());
                    let mut e = e0.clone();
                    e.extend_from_slice(e1);
                    next.push((t, e));
                }
            }
            acc = next;
        }
        Ok(acc)
    }

    /// Alternatives for one factor of a product.
    fn factor(&mut self, f: &Tree) -> Result<Vec<Alt>, Skip> {
        match f {
            Tree::Op { id, trans } => {
                let v = self.operand(*id);
                let plain = (
                    vec![],
                    vec![El {
                        v,
                        trans: *trans,
                        inv: false,
                    }],
                );
                let (n, c) = self.env.shape(*id);
                if !(self.spd_factors && self.env.props(*id).has(Prop::Spd) && n == c && n > 1) {
                    return Ok(vec![plain]);
                }
                // An SPD operand also as its Cholesky factors, M = L L^T, so `X M X^T` can
                // be `(X L) (X L)^T` (TRMM, SYRK) anywhere in a chain.
                let tri = Props::of(&[Prop::LowerTriangular, Prop::NonSingular]);
                let l = self.value(format!("chol({v})"), n, n, tri);
                let task = Task::Factor {
                    v: l,
                    flops: cost::potrf(n),
                };
                let factors = vec![
                    El {
                        v: l,
                        trans: false,
                        inv: false,
                    },
                    El {
                        v: l,
                        trans: true,
                        inv: false,
                    },
                ];
                Ok(vec![plain, (vec![task], factors)])
            }
            Tree::Mul(fs) => self.factors(fs),
            Tree::Add(_) => {
                let mut out = Vec::new();
                for (tasks, v) in self.sum(f)? {
                    out.push((
                        tasks,
                        vec![El {
                            v,
                            trans: false,
                            inv: false,
                        }],
                    ));
                }
                Ok(out)
            }
            Tree::Inv(x) => match &**x {
                Tree::Op { id, trans } => {
                    let v = self.operand(*id);
                    let n = self.env.shape(*id).0;
                    let p = self.env.props(*id);
                    Ok(vec![self.inverse_of(v, *trans, p, n)?])
                }
                Tree::Mul(fs) => self.inverted_product(fs),
                _ => unsupported("inverse of a sum or an inverse"),
            },
        }
    }

    /// `inv(F1 ... Fk)`: for every cut of the product into consecutive square parts, the
    /// inverses of the parts in reverse order; a part of one factor is that factor's
    /// inverse, a longer part is computed (every parenthesisation) and factorised by its
    /// inferred properties.
    fn inverted_product(&mut self, fs: &[Tree]) -> Result<Vec<Alt>, Skip> {
        let k = fs.len();
        let mut out = Vec::new();
        // Bit c-1 of `cuts` set: a cut before factor c.
        for cuts in 0u32..(1 << (k - 1)) {
            let mut bounds = vec![0];
            bounds.extend((1..k).filter(|c| cuts & (1 << (c - 1)) != 0));
            bounds.push(k);
            let parts: Vec<&[Tree]> = bounds.windows(2).map(|w| &fs[w[0]..w[1]]).collect();
            if parts.iter().any(|q| {
                let (r, c) = self.shape(&Tree::Mul(q.to_vec()));
                r != c
            }) {
                continue;
            }
            let mut acc: Vec<Alt> = vec![(vec![], vec![])];
            for part in parts.iter().rev() {
                let alts = if part.len() == 1 {
                    self.factor(&Tree::Inv(Box::new(part[0].clone())))?
                } else {
                    self.factorised_product(part)?
                };
                let mut next = Vec::new();
                for (t0, e0) in &acc {
                    for (t1, e1) in &alts {
                        let mut t = t0.clone();
                        t.extend(t1.iter().cloned());
                        let mut e = e0.clone();
                        e.extend_from_slice(e1);
                        next.push((t, e));
                    }
                }
                acc = next;
            }
            out.extend(acc);
        }
        Ok(out)
    }

    /// The square product `fs` computed, then the elements of its inverse.
    fn factorised_product(&mut self, fs: &[Tree]) -> Result<Vec<Alt>, Skip> {
        let t = Tree::Mul(fs.to_vec());
        let inferred = term_props(&self.env, &self.nterm(1.0, &t)?);
        let (n, _) = self.shape(&t);
        let mut out = Vec::new();
        for (mut tasks, els) in self.factors(fs)? {
            let c = self.chain(els);
            tasks.push(Task::Chain(c));
            let (v, trans) = (self.chains[c].root, self.chains[c].root_trans);
            // What decides the factorisation (SPD, triangular, diagonal) reads the same for
            // a matrix and its transpose.
            let p = self.values[v].props.union(inferred);
            let (t2, e2) = self.inverse_of(v, trans, p, n)?;
            tasks.extend(t2);
            out.push((tasks, e2));
        }
        Ok(out)
    }

    /// Alternatives for a sum: the tasks computing it and its value.
    fn sum(&mut self, t: &Tree) -> Result<Vec<(Vec<Task>, usize)>, Skip> {
        let Tree::Add(terms) = t else {
            return unsupported("not a sum");
        };
        let (rows, cols) = self.shape(t);
        let ns = self.nsum(t)?;
        let props = sum_props(&self.env, &ns);
        let v = self.value(format!("S:{}", ns.key()), rows, cols, props);
        // Per term: alternatives of (tasks, chain).
        let mut acc: Vec<TermsAlt> = vec![(vec![], vec![])];
        for (coef, u) in terms {
            let alts = self.product(u)?;
            let mut next = Vec::new();
            for (t0, c0) in &acc {
                for (t1, c) in &alts {
                    let mut tk = t0.clone();
                    tk.extend(t1.iter().cloned());
                    let mut cs = c0.clone();
                    cs.push((*coef, *c));
                    next.push((tk, cs));
                }
            }
            acc = next;
        }
        Ok(acc
            .into_iter()
            .map(|(mut tasks, terms)| {
                tasks.push(Task::Sum { terms, rows, cols });
                (tasks, v)
            })
            .collect())
    }

    /// Alternatives for a term: tasks ending with its chain, and the chain.
    fn product(&mut self, t: &Tree) -> Result<Vec<(Vec<Task>, usize)>, Skip> {
        let alts = match t {
            Tree::Mul(fs) => self.factors(fs)?,
            other => self.factor(other)?,
        };
        let mut out = Vec::new();
        for (mut tasks, els) in alts {
            if els.len() == 1 && els[0].inv {
                return unsupported("an explicit inverse");
            }
            let c = self.chain(els);
            tasks.push(Task::Chain(c));
            out.push((tasks, c));
        }
        Ok(out)
    }
}

/// State of one evaluation: which values and factorisations exist (by stamp).
struct Eval {
    stamp: Vec<u32>,
    gen: u32,
    fresh: Vec<bool>,
}

impl Eval {
    fn run(&mut self, o: &Oracle, tasks: &[Task], pick: &[usize], shapes: &[&[Nodes]]) -> f64 {
        self.gen += 1;
        let gen = self.gen;
        let mut total = 0.0;
        for task in tasks {
            match task {
                Task::Factor { v, flops } => {
                    if self.stamp[*v] != gen {
                        self.stamp[*v] = gen;
                        total += flops;
                    }
                }
                Task::Chain(c) => {
                    let ch = &o.chains[*c];
                    self.fresh[*c] = false;
                    if ch.len == 1 {
                        continue;
                    }
                    let nodes = &shapes[*c][pick[*c]];
                    let new_root = self.stamp[ch.root] != gen;
                    let mut k = 0;
                    while k < nodes.len() {
                        let (i, j, s) = (
                            nodes[k].0 as usize,
                            nodes[k].1 as usize,
                            nodes[k].2 as usize,
                        );
                        let iv = &ch.iv[i * ch.len + j];
                        if self.stamp[iv.vid] == gen {
                            k += j - i;
                            continue;
                        }
                        self.stamp[iv.vid] = gen;
                        let (f, absorbs) = iv.split[s - i];
                        total += f;
                        if k == 0 {
                            self.fresh[*c] = new_root && absorbs;
                        }
                        k += 1;
                    }
                }
                Task::Sum { terms, rows, cols } => {
                    let roots: Vec<usize> = terms.iter().map(|(_, c)| o.chains[*c].root).collect();
                    let mut absorbers = 0;
                    for (x, (_, c)) in terms.iter().enumerate() {
                        let shared = roots
                            .iter()
                            .enumerate()
                            .any(|(y, r)| y != x && *r == roots[x]);
                        if self.fresh[*c] && !shared {
                            absorbers += 1;
                        }
                    }
                    let additions = terms.len();
                    let unabsorbed = additions.saturating_sub(1).saturating_sub(absorbers);
                    total += unabsorbed as f64 * cost::elementwise(*rows, *cols);
                    if absorbers == 0 && terms.first().is_some_and(|(c, _)| *c != 1.0) {
                        total += cost::elementwise(*rows, *cols);
                    }
                }
            }
        }
        total
    }
}

/// The cheapest FLOPs of the single assignment of `p` over the oracle's space, or why
/// there is no answer (more than `limit` algorithms, or a construct outside the space).
pub fn brute_force(p: &Program, limit: f64) -> Result<Brute, Skip> {
    brute_force_with(p, limit, false)
}

/// [`brute_force`], with `spd_factors`: every SPD operand that is not inverted may also be
/// used through its Cholesky factors, `M = L L^T` (POTRF once), anywhere in a chain. polyscan
/// does that only for a whole chain `G M G^T` (`lower/congruence`), so with this the oracle
/// can be below it.
pub fn brute_force_with(p: &Program, limit: f64, spd_factors: bool) -> Result<Brute, Skip> {
    let [a] = p.assignments.as_slice() else {
        return unsupported("more than one assignment");
    };
    let t = tree(p, &a.rhs, false)?;
    let mut o = Oracle {
        env: Env::from_program(p),
        spd_factors,
        values: Vec::new(),
        ids: HashMap::new(),
        chains: Vec::new(),
    };
    let variants: Vec<Vec<Task>> = match &t {
        Tree::Add(_) => o.sum(&t)?.into_iter().map(|(tasks, _)| tasks).collect(),
        other => o
            .product(other)?
            .into_iter()
            .map(|(tasks, _)| tasks)
            .collect(),
    };
    let chains_of = |tasks: &[Task]| -> Vec<usize> {
        tasks
            .iter()
            .filter_map(|t| match t {
                Task::Chain(c) => Some(*c),
                _ => None,
            })
            .collect()
    };
    let count: f64 = variants
        .iter()
        .map(|v| {
            chains_of(v)
                .iter()
                .map(|c| catalan(o.chains[*c].len - 1))
                .product::<f64>()
        })
        .sum();
    if count > limit {
        return Err(Skip::TooMany(count));
    }
    let maxlen = o.chains.iter().map(|c| c.len).max().unwrap_or(1);
    let by_len: Vec<Vec<Nodes>> = (1..=maxlen).map(|l| trees(0, l - 1)).collect();
    let shapes: Vec<&[Nodes]> = o
        .chains
        .iter()
        .map(|c| by_len[c.len - 1].as_slice())
        .collect();
    let mut ev = Eval {
        stamp: vec![0; o.values.len()],
        gen: 0,
        fresh: vec![false; o.chains.len()],
    };
    let mut best = f64::INFINITY;
    let mut pick = vec![0usize; o.chains.len()];
    for tasks in &variants {
        let cs = chains_of(tasks);
        for c in &cs {
            pick[*c] = 0;
        }
        loop {
            best = best.min(ev.run(&o, tasks, &pick, &shapes));
            // Next combination (mixed radix over the chains of this variant).
            let mut carried = true;
            for c in &cs {
                pick[*c] += 1;
                if pick[*c] < shapes[*c].len() {
                    carried = false;
                    break;
                }
                pick[*c] = 0;
            }
            if carried {
                break;
            }
        }
    }
    Ok(Brute {
        flops: best,
        algorithms: count,
    })
}
