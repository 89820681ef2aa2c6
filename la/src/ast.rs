//! The parsed problem: sizes, operand declarations and SSA assignments, as written.

use super::properties::Props;

/// Where an operand comes from in the source (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// The declared kind of an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Matrix,
    ColumnVector,
    RowVector,
    Scalar,
    Identity,
    Zero,
    /// A number literal of the formula, stored as an operand so it can be evaluated.
    Constant,
}

/// A declared operand (or a number literal).
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    pub name: String,
    pub kind: Kind,
    pub rows: u64,
    pub cols: u64,
    /// Names of the size variables (rows, cols), for scaling sizes down.
    pub dims: (Option<String>, Option<String>),
    /// Declared properties after the implication closure.
    pub props: Props,
    /// Value of a [`Kind::Constant`].
    pub value: f64,
    pub pos: Pos,
}

/// A right-hand side expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Operand(usize),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Trans(Box<Expr>),
    Inv(Box<Expr>),
}

/// `lhs = rhs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub lhs: usize,
    pub rhs: Expr,
    pub pos: Pos,
}

/// A whole problem file.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Size variables and their values, in declaration order.
    pub sizes: Vec<(String, u64)>,
    pub operands: Vec<Operand>,
    pub assignments: Vec<Assignment>,
    /// Sizes left open (`n = ?`, optionally `n = ? [lo, hi]`); each also has a nominal
    /// value in `sizes` at which the search compares costs.
    pub open_sizes: Vec<OpenSize>,
}

/// A size left open, with optional bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenSize {
    pub name: String,
    pub lo: Option<u64>,
    pub hi: Option<u64>,
}

impl Program {
    /// Recomputes every operand's rows and columns from its named dimensions, after the
    /// values in `sizes` changed (operands declared with literal dimensions keep them).
    pub fn resize_operands(&mut self) {
        let sizes = &self.sizes;
        let size_of = |name: &Option<String>, old: u64| match name {
            Some(n) => sizes.iter().find(|(m, _)| m == n).map_or(old, |(_, v)| *v),
            None => old,
        };
        let dims: Vec<(u64, u64)> = self
            .operands
            .iter()
            .map(|o| (size_of(&o.dims.0, o.rows), size_of(&o.dims.1, o.cols)))
            .collect();
        for (o, (r, c)) in self.operands.iter_mut().zip(dims) {
            o.rows = r;
            o.cols = c;
        }
    }

    /// Rows and columns of an expression (already checked by the parser).
    pub fn shape(&self, e: &Expr) -> (u64, u64) {
        match e {
            Expr::Operand(i) => (self.operands[*i].rows, self.operands[*i].cols),
            Expr::Add(a, _) | Expr::Sub(a, _) => self.shape(a),
            Expr::Neg(a) | Expr::Inv(a) => self.shape(a),
            Expr::Trans(a) => {
                let (r, c) = self.shape(a);
                (c, r)
            }
            Expr::Mul(a, b) => {
                let (ar, ac) = self.shape(a);
                let (br, bc) = self.shape(b);
                if ar == 1 && ac == 1 {
                    (br, bc)
                } else if br == 1 && bc == 1 {
                    (ar, ac)
                } else {
                    (ar, bc)
                }
            }
        }
    }

    /// Indices of operands that are assigned by the program.
    pub fn outputs(&self) -> Vec<usize> {
        self.assignments.iter().map(|a| a.lhs).collect()
    }

    /// Renders an expression in the input language.
    pub fn show(&self, e: &Expr) -> String {
        match e {
            Expr::Operand(i) => self.operands[*i].name.clone(),
            Expr::Add(a, b) => format!("({} + {})", self.show(a), self.show(b)),
            Expr::Sub(a, b) => format!("({} - {})", self.show(a), self.show(b)),
            Expr::Mul(a, b) => format!("{}*{}", self.show(a), self.show(b)),
            Expr::Neg(a) => format!("-{}", self.show(a)),
            Expr::Trans(a) => format!("trans({})", self.show(a)),
            Expr::Inv(a) => format!("inv({})", self.show(a)),
        }
    }
}
