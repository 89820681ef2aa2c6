//! From linear algebra to relations (SPORES' rules R_LR): every dimension of size above 1
//! becomes an attribute, a matrix product an aggregate over a join, an element-wise product
//! a join, a sum a union, an aggregate an aggregation, and a transpose a renaming. Every
//! aggregated attribute gets a fresh name, so the side conditions of the rules ("i is not an
//! attribute of A") are plain schema tests.

use std::collections::BTreeMap;

use egg::{Id, RecExpr, Symbol};

use crate::error::SumProductError;
use crate::expr::{La, Shapes, ONES};
use crate::relation::Rel;

/// An expression in relational form, with what the optimiser needs to know about it.
#[derive(Debug, Clone)]
pub struct Relational {
    /// The plan.
    pub expr: RecExpr<Rel>,
    /// The size of every attribute.
    pub dims: BTreeMap<Symbol, u64>,
    /// Attribute of the result's rows (`None` for one row).
    pub rows: Option<Symbol>,
    /// Attribute of the result's columns (`None` for one column).
    pub cols: Option<Symbol>,
}

struct Translator<'a> {
    shapes: &'a Shapes,
    expr: RecExpr<Rel>,
    dims: BTreeMap<Symbol, u64>,
    next: usize,
}

/// Translates `e` with operands `shapes` to relational form.
pub fn translate(e: &La, shapes: &Shapes) -> Result<Relational, SumProductError> {
    let (rows, cols) = e.shape(shapes)?;
    let mut t = Translator {
        shapes,
        expr: RecExpr::default(),
        dims: BTreeMap::new(),
        next: 0,
    };
    let (r, c) = (t.attr(rows), t.attr(cols));
    t.go(e, r, c)?;
    Ok(Relational {
        expr: t.expr,
        dims: t.dims,
        rows: r,
        cols: c,
    })
}

impl Translator<'_> {
    /// A fresh attribute of `size` values; none for a dimension of 1.
    fn attr(&mut self, size: u64) -> Option<Symbol> {
        if size == 1 {
            return None;
        }
        let s = Symbol::from(format!("i{}", self.next));
        self.next += 1;
        self.dims.insert(s, size);
        Some(s)
    }

    fn name(&mut self, s: Symbol) -> Id {
        self.expr.add(Rel::Name(s))
    }

    fn aggregate(&mut self, over: Option<Symbol>, x: Id) -> Id {
        match over {
            Some(i) => {
                let i = self.name(i);
                self.expr.add(Rel::Agg([i, x]))
            }
            None => x,
        }
    }

    /// The relation of `x`, a factor of an element-wise product of shape `out`: a scalar
    /// binds nothing, a column only the rows, a row only the columns.
    fn broadcast(
        &mut self,
        x: &La,
        out: (u64, u64),
        r: Option<Symbol>,
        c: Option<Symbol>,
    ) -> Result<Id, SumProductError> {
        let s = x.shape(self.shapes)?;
        if s == out {
            self.go(x, r, c)
        } else if s == (1, 1) {
            self.go(x, None, None)
        } else if s.1 == 1 {
            self.go(x, r, None)
        } else {
            self.go(x, None, c)
        }
    }

    /// The relation of `x`, a summand of a sum of shape `out`: a scalar, row or column is
    /// joined with the all-ones relation over the attributes it lacks, so both sides of the
    /// union have one schema.
    fn summand(
        &mut self,
        x: &La,
        out: (u64, u64),
        r: Option<Symbol>,
        c: Option<Symbol>,
    ) -> Result<Id, SumProductError> {
        let s = x.shape(self.shapes)?;
        let v = self.broadcast(x, out, r, c)?;
        let missing: Vec<Symbol> = [(s.0 != out.0, r), (s.1 != out.1, c)]
            .into_iter()
            .filter_map(|(lacks, a)| if lacks { a } else { None })
            .collect();
        if missing.is_empty() {
            return Ok(v);
        }
        let ones = self.name(Symbol::from(ONES));
        let attrs: Vec<Id> = missing.iter().map(|a| self.name(*a)).collect();
        let o = match attrs.as_slice() {
            [i] => self.expr.add(Rel::Vector([ones, *i])),
            [i, j] => self.expr.add(Rel::Matrix([ones, *i, *j])),
            _ => return Err(SumProductError::Unsupported("a malformed broadcast".into())),
        };
        Ok(self.expr.add(Rel::Join([v, o])))
    }

    /// The relation of `e` with its rows bound to `r` and its columns to `c`.
    fn go(&mut self, e: &La, r: Option<Symbol>, c: Option<Symbol>) -> Result<Id, SumProductError> {
        Ok(match e {
            La::Operand(n) => {
                let x = self.name(Symbol::from(n.as_str()));
                match (r, c) {
                    (Some(r), Some(c)) => {
                        let (r, c) = (self.name(r), self.name(c));
                        self.expr.add(Rel::Matrix([x, r, c]))
                    }
                    (Some(a), None) | (None, Some(a)) => {
                        let a = self.name(a);
                        self.expr.add(Rel::Vector([x, a]))
                    }
                    (None, None) => self.expr.add(Rel::Scalar(x)),
                }
            }
            La::Num(v) => self.expr.add(Rel::Num(*v)),
            La::MatMul(a, b) => {
                let (_, inner) = a.shape(self.shapes)?;
                let k = self.attr(inner);
                let (x, y) = (self.go(a, r, k)?, self.go(b, k, c)?);
                let j = self.expr.add(Rel::Join([x, y]));
                self.aggregate(k, j)
            }
            La::Times(a, b) => {
                let out = e.shape(self.shapes)?;
                let x = self.broadcast(a, out, r, c)?;
                let y = self.broadcast(b, out, r, c)?;
                self.expr.add(Rel::Join([x, y]))
            }
            La::Plus(a, b) => {
                let out = e.shape(self.shapes)?;
                let x = self.summand(a, out, r, c)?;
                let y = self.summand(b, out, r, c)?;
                self.expr.add(Rel::Union([x, y]))
            }
            La::Power(a, k) => {
                if *k == 0 {
                    return Err(SumProductError::Unsupported(
                        "the element-wise power 0 (a matrix of ones)".into(),
                    ));
                }
                let x = self.go(a, r, c)?;
                let mut p = x;
                for _ in 1..*k {
                    p = self.expr.add(Rel::Join([p, x]));
                }
                p
            }
            La::Sum(a) => {
                let (m, n) = a.shape(self.shapes)?;
                let (i, j) = (self.attr(m), self.attr(n));
                let x = self.go(a, i, j)?;
                let x = self.aggregate(j, x);
                self.aggregate(i, x)
            }
            La::Apply(f, a) => {
                let x = self.go(a, r, c)?;
                let f = self.name(Symbol::from(f.name()));
                self.expr.add(Rel::Apply([f, x]))
            }
            La::Trace(a) => {
                let (n, _) = a.shape(self.shapes)?;
                let i = self.attr(n);
                let x = self.go(a, i, i)?;
                self.aggregate(i, x)
            }
            La::Diag(a) => self.go(a, r, r)?,
            La::RowSums(a) => {
                let (_, n) = a.shape(self.shapes)?;
                let j = self.attr(n);
                let x = self.go(a, r, j)?;
                self.aggregate(j, x)
            }
            La::ColSums(a) => {
                let (m, _) = a.shape(self.shapes)?;
                let i = self.attr(m);
                let x = self.go(a, i, c)?;
                self.aggregate(i, x)
            }
            La::Trans(a) => self.go(a, c, r)?,
        })
    }
}
