//! The normalised form the search works on: a sum of terms, each term a coefficient, scalar
//! factors and a chain of matrix factors; transposition pushed to the leaves, nested
//! products flattened, inverses of products of square factors split. Also the operand
//! environment ([`Env`]) shared by inference, lowering and interpretation.

use std::fmt::Write as _;

use super::ast::{Expr, Kind, Program};
use super::cancel::{cancel, identity_of_size};
use super::error::LaError;
use super::properties::{Prop, Props};

/// An operand of the computation: a program operand, a number, or a temporary.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// The operand's name, the literal's text, or the temporary's name.
    pub name: String,
    /// The declared kind; temporaries are [`Kind::Matrix`].
    pub kind: Kind,
    /// Number of rows.
    pub rows: u64,
    /// Number of columns.
    pub cols: u64,
    /// Known properties, closed under implication for the shape.
    pub props: Props,
    /// Value of a [`Kind::Constant`] (0 otherwise).
    pub value: f64,
}

/// All entities; the first ones are the program's operands, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Env {
    /// The entities; an entity id is an index here.
    pub entities: Vec<Entity>,
    /// Outputs assembled from blocks computed apart (assignments with block matrices, see
    /// `blocks`), each after its last block.
    pub assemblies: Vec<crate::blocks::Assembly>,
}

impl Env {
    /// One entity per operand of the program, with the same indices.
    pub fn from_program(p: &Program) -> Env {
        Env {
            entities: p
                .operands
                .iter()
                .map(|o| Entity {
                    name: o.name.clone(),
                    kind: o.kind,
                    rows: o.rows,
                    cols: o.cols,
                    props: o.props,
                    value: o.value,
                })
                .collect(),
            assemblies: Vec::new(),
        }
    }
    /// Properties of entity `id`.
    pub fn props(&self, id: usize) -> Props {
        self.entities[id].props
    }
    /// Rows and columns of entity `id`.
    pub fn shape(&self, id: usize) -> (u64, u64) {
        (self.entities[id].rows, self.entities[id].cols)
    }
    /// Appends a temporary matrix (properties closed for its shape) and returns its id.
    pub fn add(&mut self, name: String, rows: u64, cols: u64, props: Props) -> usize {
        self.entities.push(Entity {
            name,
            kind: Kind::Matrix,
            rows,
            cols,
            props: props.closure(rows, cols),
            value: 0.0,
        });
        self.entities.len() - 1
    }
    fn is_symmetric(&self, id: usize) -> bool {
        self.props(id).has(Prop::Symmetric) || self.shape(id) == (1, 1)
    }
}

/// What a [`Factor`] is built on.
#[derive(Debug, Clone, PartialEq)]
pub enum Base {
    /// An entity, by id.
    Op(usize),
    /// A parenthesised sum (kept whole, e.g. under an inverse).
    Sum(Box<Sum>),
}

/// `base`, optionally transposed and/or inverted (inverse applied after transposition; the
/// two commute).
#[derive(Debug, Clone, PartialEq)]
pub struct Factor {
    /// The entity or sum.
    pub base: Base,
    /// Transposed ([`Factor::transpose`] leaves it unset on a symmetric entity and pushes
    /// the transposition into a sum).
    pub trans: bool,
    /// Inverted.
    pub inv: bool,
}

/// A product: a coefficient, scalar factors and a chain of matrix factors.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// The numeric coefficient.
    pub coef: f64,
    /// 1x1 factors of a term whose chain is not 1x1, kept apart so the chain's sizes match.
    pub scalars: Vec<Factor>,
    /// The matrix chain, left to right.
    pub factors: Vec<Factor>,
}

/// A sum of terms of one shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Sum {
    /// The terms; none means zero.
    pub terms: Vec<Term>,
    /// Rows of every term.
    pub rows: u64,
    /// Columns of every term.
    pub cols: u64,
}

impl Factor {
    /// Entity `id`, neither transposed nor inverted.
    pub fn op(id: usize) -> Factor {
        Factor {
            base: Base::Op(id),
            trans: false,
            inv: false,
        }
    }

    /// Rows and columns of the factor (after transposition).
    pub fn shape(&self, env: &Env) -> (u64, u64) {
        let (r, c) = match &self.base {
            Base::Op(id) => env.shape(*id),
            Base::Sum(s) => (s.rows, s.cols),
        };
        if self.trans {
            (c, r)
        } else {
            (r, c)
        }
    }

    /// The transposed factor: the flag toggled on a non-symmetric entity, the
    /// transposition pushed into a sum.
    pub fn transpose(&self, env: &Env) -> Factor {
        match &self.base {
            Base::Op(id) => Factor {
                base: Base::Op(*id),
                trans: !self.trans && !env.is_symmetric(*id),
                inv: self.inv,
            },
            Base::Sum(s) => Factor {
                base: Base::Sum(Box::new(s.transpose(env))),
                trans: false,
                inv: self.inv,
            },
        }
    }

    /// A key identifying the value of the factor (ids, not names).
    pub fn key(&self, out: &mut String) {
        if self.inv {
            out.push_str("inv(");
        }
        match &self.base {
            Base::Op(id) => {
                let _ = write!(out, "#{id}");
            }
            Base::Sum(s) => {
                out.push('(');
                s.key_into(out);
                out.push(')');
            }
        }
        if self.trans {
            out.push('\'');
        }
        if self.inv {
            out.push(')');
        }
    }

    /// The factor in the input language, with entity names.
    pub fn show(&self, env: &Env) -> String {
        let inner = match &self.base {
            Base::Op(id) => env.entities[*id].name.clone(),
            Base::Sum(s) => format!("({})", s.show(env)),
        };
        let t = if self.trans {
            format!("trans({inner})")
        } else {
            inner
        };
        if self.inv {
            format!("inv({t})")
        } else {
            t
        }
    }
}

impl Term {
    /// The transposed term: the chain reversed, each factor transposed.
    pub fn transpose(&self, env: &Env) -> Term {
        Term {
            coef: self.coef,
            scalars: self.scalars.clone(),
            factors: self
                .factors
                .iter()
                .rev()
                .map(|f| f.transpose(env))
                .collect(),
        }
    }
    /// The term in the input language, with entity names (a coefficient of 1 omitted).
    pub fn show(&self, env: &Env) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.coef != 1.0 || (self.scalars.is_empty() && self.factors.is_empty()) {
            parts.push(format!("{}", self.coef));
        }
        parts.extend(self.scalars.iter().map(|f| f.show(env)));
        parts.extend(self.factors.iter().map(|f| f.show(env)));
        parts.join("*")
    }
    fn key_into(&self, out: &mut String) {
        let _ = write!(out, "{}", self.coef);
        for f in self.scalars.iter().chain(&self.factors) {
            out.push('*');
            f.key(out);
        }
    }
}

impl Sum {
    /// The transposed sum: every term transposed, the shape swapped.
    pub fn transpose(&self, env: &Env) -> Sum {
        Sum {
            terms: self.terms.iter().map(|t| t.transpose(env)).collect(),
            rows: self.cols,
            cols: self.rows,
        }
    }
    /// A key identifying the value of the sum (ids, not names).
    pub fn key(&self) -> String {
        let mut s = String::new();
        self.key_into(&mut s);
        s
    }
    fn key_into(&self, out: &mut String) {
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                out.push('+');
            }
            t.key_into(out);
        }
    }
    /// The sum in the input language, with entity names (`0` when empty).
    pub fn show(&self, env: &Env) -> String {
        if self.terms.is_empty() {
            return "0".into();
        }
        self.terms
            .iter()
            .map(|t| t.show(env))
            .collect::<Vec<_>>()
            .join(" + ")
    }
    fn single(t: Term, rows: u64, cols: u64) -> Sum {
        Sum {
            terms: vec![t],
            rows,
            cols,
        }
    }
}

/// Key of a chain of factors.
pub fn chain_key(fs: &[Factor]) -> String {
    let mut s = String::new();
    for (i, f) in fs.iter().enumerate() {
        if i > 0 {
            s.push('*');
        }
        f.key(&mut s);
    }
    s
}

/// Normalises the right-hand side of an assignment.
pub fn normalise(p: &Program, env: &Env, e: &Expr) -> Result<Sum, LaError> {
    let s = to_sum(p, env, e)?;
    Ok(s)
}

fn to_sum(p: &Program, env: &Env, e: &Expr) -> Result<Sum, LaError> {
    let (rows, cols) = p.shape(e);
    match e {
        Expr::Operand(i) => {
            let ent = &env.entities[*i];
            let t = match ent.kind {
                Kind::Zero => {
                    return Ok(Sum {
                        terms: vec![],
                        rows,
                        cols,
                    })
                }
                Kind::Constant => Term {
                    coef: ent.value,
                    scalars: vec![],
                    factors: vec![],
                },
                _ => Term {
                    coef: 1.0,
                    scalars: vec![],
                    factors: vec![Factor::op(*i)],
                },
            };
            Ok(Sum::single(t, rows, cols))
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let mut s = to_sum(p, env, a)?;
            let r = to_sum(p, env, b)?;
            let neg = matches!(e, Expr::Sub(..));
            s.terms.extend(r.terms.into_iter().map(|mut t| {
                if neg {
                    t.coef = -t.coef;
                }
                t
            }));
            // A zero term adds nothing: 0*X + Y = Y (kept if every term is zero, so the
            // sum keeps a shape to compute; ZeroMatrix operands are dropped above already).
            if s.terms.iter().any(|t| t.coef != 0.0) {
                s.terms.retain(|t| t.coef != 0.0);
            }
            Ok(s)
        }
        Expr::Neg(a) => {
            let mut s = to_sum(p, env, a)?;
            for t in &mut s.terms {
                t.coef = -t.coef;
            }
            Ok(s)
        }
        Expr::Trans(a) => Ok(to_sum(p, env, a)?.transpose(env)),
        Expr::Mul(a, b) => {
            let l = as_term(to_sum(p, env, a)?);
            let r = as_term(to_sum(p, env, b)?);
            let (Some(l), Some(r)) = (l, r) else {
                return Ok(Sum {
                    terms: vec![],
                    rows,
                    cols,
                });
            };
            let mut t = Term {
                coef: l.coef * r.coef,
                scalars: l.scalars,
                factors: l.factors,
            };
            t.scalars.extend(r.scalars);
            t.factors.extend(r.factors);
            Ok(Sum::single(simplify(env, t)?, rows, cols))
        }
        Expr::Inv(a) => {
            let s = to_sum(p, env, a)?;
            if s.terms.is_empty() {
                return Err(LaError::Unsupported("inverse of a zero expression".into()));
            }
            if s.terms.len() == 1 {
                let t = &s.terms[0];
                let all_square = t.factors.iter().all(|f| {
                    let (r, c) = f.shape(env);
                    r == c
                });
                if all_square && t.coef != 0.0 {
                    // (c s1 s2 F1 F2)^-1 = c^-1 s1^-1 s2^-1 F2^-1 F1^-1: every factor is
                    // square, so the product is invertible only if each factor is.
                    let inv = |f: &Factor| {
                        let mut g = f.clone();
                        g.inv = !g.inv;
                        g
                    };
                    let t2 = Term {
                        coef: 1.0 / t.coef,
                        scalars: t.scalars.iter().map(inv).collect(),
                        factors: t.factors.iter().rev().map(inv).collect(),
                    };
                    return Ok(Sum::single(simplify(env, t2)?, rows, cols));
                }
            }
            let f = Factor {
                base: Base::Sum(Box::new(s)),
                trans: false,
                inv: true,
            };
            let t = Term {
                coef: 1.0,
                scalars: vec![],
                factors: vec![f],
            };
            Ok(Sum::single(t, rows, cols))
        }
        Expr::Block(_) => Err(LaError::Unsupported(
            "a block matrix inside a normalised formula (expanded by `blocks` first)".into(),
        )),
    }
}

/// A sum as one term: itself if it has one term, else a parenthesised factor.
fn as_term(s: Sum) -> Option<Term> {
    match s.terms.len() {
        0 => None,
        1 => s.terms.into_iter().next(),
        _ => Some(Term {
            coef: 1.0,
            scalars: vec![],
            factors: vec![Factor {
                base: Base::Sum(Box::new(s)),
                trans: false,
                inv: false,
            }],
        }),
    }
}

/// Separates scalar factors, drops identities, and checks the chain's sizes.
pub fn simplify(env: &Env, t: Term) -> Result<Term, LaError> {
    let mut scalars = t.scalars;
    let mut coef = t.coef;
    // A parenthesised single term that is not inverted is just more factors.
    let mut spliced = Vec::new();
    for f in t.factors {
        match f.base {
            Base::Sum(inner) if !f.inv && inner.terms.len() == 1 => {
                let u = inner.terms.into_iter().next();
                if let Some(u) = u {
                    coef *= u.coef;
                    scalars.extend(u.scalars);
                    spliced.extend(u.factors);
                }
            }
            base => spliced.push(Factor { base, ..f }),
        }
    }
    let mut factors = Vec::new();
    let any_matrix = spliced.iter().any(|f| f.shape(env) != (1, 1));
    for f in spliced {
        if any_matrix && f.shape(env) == (1, 1) {
            scalars.push(f);
        } else {
            factors.push(f);
        }
    }
    let is_identity =
        |f: &Factor| matches!(f.base, Base::Op(id) if env.props(id).has(Prop::Identity));
    if factors.iter().any(|f| !is_identity(f)) {
        factors.retain(|f| !is_identity(f));
    } else if factors.len() > 1 {
        factors.truncate(1);
    }
    for f in factors.iter_mut() {
        if is_identity(f) {
            f.inv = false;
            f.trans = false;
        }
    }
    // Adjacent factors whose product is an identity (inv(A)*A, trans(Q)*Q) vanish.
    let size = factors.first().map(|f| f.shape(env).0);
    let identity = size.and_then(|n| identity_of_size(env, n));
    let mut factors = cancel(env, factors, identity);
    // Inner products inside a matrix product (x^T y A) are scalars: move them out.
    while let Some(b) =
        (1..factors.len()).find(|&b| factors[b - 1].shape(env).1 != factors[b].shape(env).0)
    {
        let valid = |fs: &[Factor]| {
            fs.windows(2)
                .all(|w| w[0].shape(env).1 == w[1].shape(env).0)
                && fs.first().is_some_and(|f| f.shape(env).0 == 1)
                && fs.last().is_some_and(|f| f.shape(env).1 == 1)
        };
        let left = (0..b)
            .rev()
            .find(|&a| valid(&factors[a..b]))
            .map(|a| (a, b));
        let right = (b + 1..=factors.len())
            .find(|&e| valid(&factors[b..e]))
            .map(|e| (b, e));
        let Some((a, e)) = left.or(right) else {
            return Err(LaError::Unsupported(
                "a product whose sizes do not match".into(),
            ));
        };
        let inner: Vec<Factor> = factors.drain(a..e).collect();
        scalars.push(Factor {
            base: Base::Sum(Box::new(Sum {
                terms: vec![Term {
                    coef: 1.0,
                    scalars: vec![],
                    factors: inner,
                }],
                rows: 1,
                cols: 1,
            })),
            trans: false,
            inv: false,
        });
    }
    Ok(Term {
        coef,
        scalars,
        factors,
    })
}

/// `s` with every occurrence of operand `id` replaced by its definition `def`.
pub fn substitute(env: &Env, s: &Sum, id: usize, def: &Sum) -> Result<Sum, LaError> {
    let sub_factor = |f: &Factor| -> Result<Factor, LaError> {
        Ok(match &f.base {
            Base::Op(x) if *x == id => {
                let d = if f.trans {
                    def.transpose(env)
                } else {
                    def.clone()
                };
                Factor {
                    base: Base::Sum(Box::new(d)),
                    trans: false,
                    inv: f.inv,
                }
            }
            Base::Op(_) => f.clone(),
            Base::Sum(inner) => Factor {
                base: Base::Sum(Box::new(substitute(env, inner, id, def)?)),
                ..f.clone()
            },
        })
    };
    let mut terms = Vec::new();
    for t in &s.terms {
        let scalars = t
            .scalars
            .iter()
            .map(sub_factor)
            .collect::<Result<Vec<_>, _>>()?;
        let factors = t
            .factors
            .iter()
            .map(sub_factor)
            .collect::<Result<Vec<_>, _>>()?;
        terms.push(simplify(
            env,
            Term {
                coef: t.coef,
                scalars,
                factors,
            },
        )?);
    }
    Ok(Sum {
        terms,
        rows: s.rows,
        cols: s.cols,
    })
}

/// Whether operand `id` occurs in `s`.
pub fn mentions(s: &Sum, id: usize) -> bool {
    s.terms.iter().any(|t| {
        t.scalars.iter().chain(&t.factors).any(|f| match &f.base {
            Base::Op(x) => *x == id,
            Base::Sum(inner) => mentions(inner, id),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn norm(rhs: &str) -> String {
        let src = format!("n = 4\nm = 2\nMatrix A(n, n) <FullRank>\nMatrix B(n, n) <FullRank>\nMatrix S(n, n) <SPD>\nMatrix X(n, m) <FullRank>\nIdentityMatrix I(n, n)\nScalar k <Positive>\nMatrix O(n, n) <>\nO = {rhs}\n");
        let p = parse(&src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        normalise(&p, &env, &p.assignments[0].rhs)
            .unwrap_or_else(|e| panic!("{e}"))
            .show(&env)
    }

    #[test]
    fn transposition_is_pushed_to_the_leaves() {
        assert_eq!(norm("trans(A * B)"), "trans(B)*trans(A)");
        assert_eq!(norm("trans(A + S)"), "trans(A) + S");
        assert_eq!(norm("trans(trans(A))"), "A");
    }

    #[test]
    fn inverses_of_square_products_are_split() {
        assert_eq!(norm("inv(A * B)"), "inv(B)*inv(A)");
        assert_eq!(norm("inv(k * A)"), "inv(k)*inv(A)");
        assert_eq!(norm("inv(inv(A))"), "A");
        // X^T X is a product of non-square factors: it stays one inverted factor.
        assert_eq!(
            norm("X * inv(trans(X) * X) * trans(X)"),
            "X*inv((trans(X)*X))*trans(X)"
        );
    }

    #[test]
    fn identities_scalars_and_signs() {
        assert_eq!(norm("I * A * I"), "A");
        assert_eq!(norm("-(A - B)"), "-1*A + B");
        assert_eq!(norm("A * k * B"), "k*A*B");
        assert_eq!(norm("(A + B) * S"), "(A + B)*S");
    }
}
