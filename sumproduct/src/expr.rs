//! Element-wise linear algebra as SPORES takes it as input: products, element-wise products
//! and sums, powers, aggregates and transposes over named operands of known shape and
//! sparsity.

use std::collections::BTreeMap;

use crate::error::SumProductError;
use crate::relation::Coef;

/// A linear-algebra expression.
#[derive(Debug, Clone, PartialEq)]
pub enum La {
    /// A named operand (its shape is in [`Shapes`]).
    Operand(String),
    /// A constant scalar.
    Num(Coef),
    /// The matrix product.
    MatMul(Box<La>, Box<La>),
    /// The element-wise product; a `1 x 1` factor scales the other, a column (row) vector
    /// multiplies every column (row) of a matrix, as SystemML broadcasts.
    Times(Box<La>, Box<La>),
    /// The element-wise sum; a scalar, row or column is broadcast as in [`La::Times`].
    Plus(Box<La>, Box<La>),
    /// The element-wise power `k >= 1`.
    Power(Box<La>, u32),
    /// A function applied to every entry.
    Apply(Func, Box<La>),
    /// The sum of all entries (`1 x 1`).
    Sum(Box<La>),
    /// The sum of the diagonal of a square matrix (`1 x 1`).
    Trace(Box<La>),
    /// The diagonal of a square matrix, as a column.
    Diag(Box<La>),
    /// The sums of the rows (a column).
    RowSums(Box<La>),
    /// The sums of the columns (a row).
    ColSums(Box<La>),
    /// The transpose.
    Trans(Box<La>),
}

#[allow(clippy::should_implement_trait)]
impl La {
    /// The operand `name`.
    pub fn op(name: &str) -> La {
        La::Operand(name.to_string())
    }
    /// The constant `n`.
    pub fn num(n: i64) -> La {
        La::Num(Coef::int(n))
    }
    /// `self * o` (matrix product).
    pub fn mm(self, o: La) -> La {
        La::MatMul(Box::new(self), Box::new(o))
    }
    /// `self .* o`.
    pub fn times(self, o: La) -> La {
        La::Times(Box::new(self), Box::new(o))
    }
    /// `self + o`.
    pub fn plus(self, o: La) -> La {
        La::Plus(Box::new(self), Box::new(o))
    }
    /// `self - o`, as `self + (-1) .* o`.
    pub fn minus(self, o: La) -> La {
        self.plus(La::num(-1).times(o))
    }
    /// `self .^ k`.
    pub fn pow(self, k: u32) -> La {
        La::Power(Box::new(self), k)
    }
    /// `f(self)` entry by entry.
    pub fn apply(self, f: Func) -> La {
        La::Apply(f, Box::new(self))
    }
    /// `self ./ o`, as `self .* recip(o)`.
    pub fn divide(self, o: La) -> La {
        self.times(o.apply(Func::Recip))
    }
    /// `trace(self)`.
    pub fn trace(self) -> La {
        La::Trace(Box::new(self))
    }
    /// `diag(self)`.
    pub fn diag(self) -> La {
        La::Diag(Box::new(self))
    }
    /// `sum(self)`.
    pub fn sum(self) -> La {
        La::Sum(Box::new(self))
    }
    /// `rowSums(self)`.
    pub fn row_sums(self) -> La {
        La::RowSums(Box::new(self))
    }
    /// `colSums(self)`.
    pub fn col_sums(self) -> La {
        La::ColSums(Box::new(self))
    }
    /// `trans(self)`.
    pub fn t(self) -> La {
        La::Trans(Box::new(self))
    }
}

/// A function of one entry, as SPORES treats custom functions: opaque to the rules (the plan
/// is optimised below and above it), dense unless it maps 0 to 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Func {
    /// `1 / x` (element-wise division is a product with the reciprocal).
    Recip,
    /// `exp(x)`.
    Exp,
    /// `log(x)`.
    Log,
    /// `sqrt(x)`.
    Sqrt,
    /// `abs(x)`.
    Abs,
}

impl Func {
    /// The name in plans and in C (`recip` is printed as a division).
    pub fn name(self) -> &'static str {
        match self {
            Func::Recip => "recip",
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Sqrt => "sqrt",
            Func::Abs => "fabs",
        }
    }
    /// The function named `s`, as [`Func::name`] prints it.
    pub fn from_name(s: &str) -> Option<Func> {
        [Func::Recip, Func::Exp, Func::Log, Func::Sqrt, Func::Abs]
            .into_iter()
            .find(|f| f.name() == s)
    }
    /// Whether `f(0) = 0`, so the result is as sparse as the argument.
    pub fn keeps_zero(self) -> bool {
        matches!(self, Func::Sqrt | Func::Abs)
    }
    /// The value at `x`, for numerical evaluation.
    pub fn eval(self, x: f64) -> f64 {
        match self {
            Func::Recip => 1.0 / x,
            Func::Exp => x.exp(),
            Func::Log => x.ln(),
            Func::Sqrt => x.sqrt(),
            Func::Abs => x.abs(),
        }
    }
}

/// The name of the all-ones relation that broadcasting adds (`x + 1` is `x + 1 * ones`);
/// no operand of the language can have it.
pub const ONES: &str = "#ones";

/// An operand's shape and the number of its nonzero entries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Operand {
    /// Rows.
    pub rows: u64,
    /// Columns.
    pub cols: u64,
    /// Nonzero entries (`rows * cols` for a dense operand).
    pub nnz: f64,
}

impl Operand {
    /// A dense operand.
    pub fn dense(rows: u64, cols: u64) -> Operand {
        Operand {
            rows,
            cols,
            nnz: rows as f64 * cols as f64,
        }
    }
    /// A sparse operand with `nnz` nonzeros.
    pub fn sparse(rows: u64, cols: u64, nnz: f64) -> Operand {
        Operand { rows, cols, nnz }
    }
    /// Nonzeros over entries.
    pub fn density(&self) -> f64 {
        let size = self.rows as f64 * self.cols as f64;
        if size == 0.0 {
            0.0
        } else {
            (self.nnz / size).min(1.0)
        }
    }
}

/// The operands of an expression by name.
pub type Shapes = BTreeMap<String, Operand>;

impl La {
    /// The shape `(rows, cols)` of the value, checking every operation's operands.
    pub fn shape(&self, shapes: &Shapes) -> Result<(u64, u64), SumProductError> {
        let bad = |op, l: (u64, u64), r: (u64, u64)| SumProductError::Shape {
            op,
            left: format!("{} x {}", l.0, l.1),
            right: format!("{} x {}", r.0, r.1),
        };
        Ok(match self {
            La::Operand(n) => {
                let o = shapes
                    .get(n)
                    .ok_or_else(|| SumProductError::UnknownOperand(n.clone()))?;
                (o.rows, o.cols)
            }
            La::Num(_) => (1, 1),
            La::MatMul(a, b) => {
                let (l, r) = (a.shape(shapes)?, b.shape(shapes)?);
                if l.1 != r.0 {
                    return Err(bad("matrix product", l, r));
                }
                (l.0, r.1)
            }
            La::Times(a, b) => {
                let (l, r) = (a.shape(shapes)?, b.shape(shapes)?);
                let out = (l.0.max(r.0), l.1.max(r.1));
                if !(broadcasts(l, out) && broadcasts(r, out)) {
                    return Err(bad("element-wise product", l, r));
                }
                out
            }
            La::Plus(a, b) => {
                let (l, r) = (a.shape(shapes)?, b.shape(shapes)?);
                let out = (l.0.max(r.0), l.1.max(r.1));
                if !(broadcasts(l, out) && broadcasts(r, out)) {
                    return Err(bad("sum", l, r));
                }
                out
            }
            La::Power(a, _) | La::Apply(_, a) => a.shape(shapes)?,
            La::Trace(a) | La::Diag(a) => {
                let (r, c) = a.shape(shapes)?;
                if r != c {
                    return Err(bad("trace or diagonal", (r, c), (r, c)));
                }
                if matches!(self, La::Trace(_)) {
                    (1, 1)
                } else {
                    (r, 1)
                }
            }
            La::Sum(a) => {
                a.shape(shapes)?;
                (1, 1)
            }
            La::RowSums(a) => (a.shape(shapes)?.0, 1),
            La::ColSums(a) => (1, a.shape(shapes)?.1),
            La::Trans(a) => {
                let (r, c) = a.shape(shapes)?;
                (c, r)
            }
        })
    }
}

/// Whether a value of shape `s` broadcasts to shape `out`: equal, a scalar, or a column or
/// row of it.
pub fn broadcasts(s: (u64, u64), out: (u64, u64)) -> bool {
    s == out || s == (1, 1) || (s.1 == 1 && s.0 == out.0) || (s.0 == 1 && s.1 == out.1)
}
