//! Dense numerical evaluation of expressions (directly, by their linear-algebra meaning) and
//! of relational plans (by the meaning of join, union and aggregation): the oracle the tests
//! compare every chosen plan with.

use std::collections::BTreeMap;

use egg::{RecExpr, Symbol};

use crate::error::SumProductError;
use crate::expr::{Func, La, ONES};
use crate::relation::Rel;

/// A dense matrix, column-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Entries, column by column.
    pub data: Vec<f64>,
}

impl Dense {
    /// A matrix from a function of (row, column).
    pub fn from_fn(rows: usize, cols: usize, f: impl Fn(usize, usize) -> f64) -> Dense {
        let mut data = Vec::with_capacity(rows * cols);
        for j in 0..cols {
            for i in 0..rows {
                data.push(f(i, j));
            }
        }
        Dense { rows, cols, data }
    }
    /// Entry (i, j).
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.data[i + j * self.rows]
    }
    /// The largest entry-wise difference relative to the largest entry of `self` (at least 1).
    pub fn relative_difference(&self, o: &Dense) -> f64 {
        if (self.rows, self.cols) != (o.rows, o.cols) {
            return f64::INFINITY;
        }
        let scale = self.data.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
        let diff = self
            .data
            .iter()
            .zip(&o.data)
            .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
        diff / scale
    }
}

/// Operand values by name.
pub type Values = BTreeMap<String, Dense>;

fn missing(n: &str) -> SumProductError {
    SumProductError::UnknownOperand(n.to_string())
}

/// The value of `e`, computed as its operations say.
pub fn eval_la(e: &La, v: &Values) -> Result<Dense, SumProductError> {
    let go = |x: &La| eval_la(x, v);
    Ok(match e {
        La::Operand(n) => v.get(n).cloned().ok_or_else(|| missing(n))?,
        La::Num(c) => Dense::from_fn(1, 1, |_, _| c.to_f64()),
        La::MatMul(a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            Dense::from_fn(a.rows, b.cols, |i, j| {
                (0..a.cols).map(|k| a.at(i, k) * b.at(k, j)).sum()
            })
        }
        La::Times(a, b) | La::Plus(a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            let (rows, cols) = (a.rows.max(b.rows), a.cols.max(b.cols));
            // A dimension of 1 is broadcast.
            let get = |m: &Dense, i: usize, j: usize| {
                m.at(
                    if m.rows == 1 { 0 } else { i },
                    if m.cols == 1 { 0 } else { j },
                )
            };
            let times = matches!(e, La::Times(..));
            Dense::from_fn(rows, cols, |i, j| {
                let (x, y) = (get(&a, i, j), get(&b, i, j));
                if times {
                    x * y
                } else {
                    x + y
                }
            })
        }
        La::Power(a, k) => {
            let a = go(a)?;
            let k = i32::try_from(*k).map_err(|_| SumProductError::Overflow)?;
            Dense::from_fn(a.rows, a.cols, |i, j| a.at(i, j).powi(k))
        }
        La::Apply(f, a) => {
            let a = go(a)?;
            Dense::from_fn(a.rows, a.cols, |i, j| f.eval(a.at(i, j)))
        }
        La::Trace(a) => {
            let a = go(a)?;
            Dense::from_fn(1, 1, |_, _| (0..a.rows).map(|i| a.at(i, i)).sum())
        }
        La::Diag(a) => {
            let a = go(a)?;
            Dense::from_fn(a.rows, 1, |i, _| a.at(i, i))
        }
        La::Sum(a) => {
            let a = go(a)?;
            Dense::from_fn(1, 1, |_, _| a.data.iter().sum())
        }
        La::RowSums(a) => {
            let a = go(a)?;
            Dense::from_fn(a.rows, 1, |i, _| (0..a.cols).map(|j| a.at(i, j)).sum())
        }
        La::ColSums(a) => {
            let a = go(a)?;
            Dense::from_fn(1, a.cols, |_, j| (0..a.rows).map(|i| a.at(i, j)).sum())
        }
        La::Trans(a) => {
            let a = go(a)?;
            Dense::from_fn(a.cols, a.rows, |i, j| a.at(j, i))
        }
    })
}

/// A relation as a dense table over its attributes.
#[derive(Debug, Clone)]
struct Table {
    attrs: Vec<Symbol>,
    data: Vec<f64>,
}

/// Every assignment of values to `attrs` (sizes from `dims`), in the table's order.
fn assignments(attrs: &[Symbol], dims: &BTreeMap<Symbol, u64>) -> Vec<BTreeMap<Symbol, usize>> {
    let mut all = vec![BTreeMap::new()];
    for a in attrs {
        let size = dims.get(a).copied().unwrap_or(1) as usize;
        all = all
            .into_iter()
            .flat_map(|m| {
                (0..size).map(move |k| {
                    let mut m = m.clone();
                    m.insert(*a, k);
                    m
                })
            })
            .collect();
    }
    all
}

impl Table {
    fn get(&self, at: &BTreeMap<Symbol, usize>, dims: &BTreeMap<Symbol, u64>) -> f64 {
        let mut index = 0;
        for a in &self.attrs {
            let size = dims.get(a).copied().unwrap_or(1) as usize;
            index = index * size + at.get(a).copied().unwrap_or(0);
        }
        self.data[index]
    }

    fn build(
        attrs: Vec<Symbol>,
        dims: &BTreeMap<Symbol, u64>,
        f: impl Fn(&BTreeMap<Symbol, usize>) -> f64,
    ) -> Table {
        let data = assignments(&attrs, dims).iter().map(f).collect();
        Table { attrs, data }
    }
}

/// The value of `plan` (attribute sizes `dims`) as a matrix whose rows are attribute `rows`
/// and columns `cols` (`None`: one row or column).
pub fn eval_plan(
    plan: &RecExpr<Rel>,
    dims: &BTreeMap<Symbol, u64>,
    v: &Values,
    rows: Option<Symbol>,
    cols: Option<Symbol>,
) -> Result<Dense, SumProductError> {
    let nodes = plan.as_ref();
    let mut tables: Vec<Table> = Vec::with_capacity(nodes.len());
    let name = |id: egg::Id| match &plan[id] {
        Rel::Name(s) => Ok(*s),
        _ => Err(SumProductError::Unsupported("a malformed plan".into())),
    };
    let ones = Dense::from_fn(1, 1, |_, _| 1.0);
    let operand = |x: egg::Id| {
        let n = name(x)?;
        if n.as_str() == ONES {
            return Ok(&ones);
        }
        v.get(n.as_str()).ok_or_else(|| missing(n.as_str()))
    };
    for node in nodes {
        let t = |id: egg::Id| &tables[usize::from(id)];
        let table = match node {
            Rel::Name(_) => Table {
                attrs: vec![],
                data: vec![0.0],
            },
            Rel::Num(c) => Table {
                attrs: vec![],
                data: vec![c.to_f64()],
            },
            Rel::Dim(i) => Table {
                attrs: vec![],
                data: vec![dims.get(&name(*i)?).copied().unwrap_or(1) as f64],
            },
            Rel::Matrix([x, i, j]) => {
                let m = operand(*x)?;
                let (i, j) = (name(*i)?, name(*j)?);
                let one = m.rows * m.cols == 1;
                Table::build(vec![i, j], dims, |at| {
                    if one {
                        m.data[0]
                    } else {
                        m.at(at[&i], at[&j])
                    }
                })
            }
            Rel::Vector([x, i]) => {
                let m = operand(*x)?;
                let i = name(*i)?;
                let one = m.data.len() == 1;
                Table::build(vec![i], dims, |at| m.data[if one { 0 } else { at[&i] }])
            }
            Rel::Scalar(x) => {
                let m = operand(*x)?;
                Table {
                    attrs: vec![],
                    data: vec![m.data[0]],
                }
            }
            Rel::Join([a, b]) | Rel::Union([a, b]) => {
                let (a, b) = (t(*a), t(*b));
                let mut attrs = a.attrs.clone();
                attrs.extend(b.attrs.iter().filter(|x| !a.attrs.contains(x)));
                let join = matches!(node, Rel::Join(_));
                Table::build(attrs, dims, |at| {
                    let (x, y) = (a.get(at, dims), b.get(at, dims));
                    if join {
                        x * y
                    } else {
                        x + y
                    }
                })
            }
            Rel::Apply([f, x]) => {
                let f = Func::from_name(name(*f)?.as_str())
                    .ok_or_else(|| SumProductError::Unsupported("an unknown function".into()))?;
                let x = t(*x);
                Table {
                    attrs: x.attrs.clone(),
                    data: x.data.iter().map(|v| f.eval(*v)).collect(),
                }
            }
            Rel::Agg([i, x]) => {
                let (i, x) = (name(*i)?, t(*x));
                let attrs: Vec<Symbol> = x.attrs.iter().copied().filter(|a| *a != i).collect();
                let size = dims.get(&i).copied().unwrap_or(1) as usize;
                Table::build(attrs, dims, |at| {
                    (0..size)
                        .map(|k| {
                            let mut at = at.clone();
                            at.insert(i, k);
                            x.get(&at, dims)
                        })
                        .sum()
                })
            }
        };
        tables.push(table);
    }
    let root = tables
        .last()
        .ok_or_else(|| SumProductError::Unsupported("an empty plan".into()))?;
    let size = |a: Option<Symbol>| a.map_or(1, |a| dims.get(&a).copied().unwrap_or(1) as usize);
    Ok(Dense::from_fn(size(rows), size(cols), |i, j| {
        let mut at = BTreeMap::new();
        if let Some(r) = rows {
            at.insert(r, i);
        }
        if let Some(c) = cols {
            at.insert(c, j);
        }
        root.get(&at, dims)
    }))
}
