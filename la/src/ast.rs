//! The parsed problem: sizes, operand declarations and SSA assignments, as written.

use super::properties::Props;

/// Where an operand comes from in the source (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// Line number, from 1.
    pub line: usize,
    /// Column number, from 1.
    pub column: usize,
}

/// The declared kind of an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `Matrix A(rows, cols)`.
    Matrix,
    /// `ColumnVector x(n)`: an `n x 1` matrix.
    ColumnVector,
    /// `RowVector x(n)`: a `1 x n` matrix.
    RowVector,
    /// `Scalar a`: a `1 x 1` operand.
    Scalar,
    /// `IdentityMatrix I(n, n)`: square, with the `Identity` property.
    Identity,
    /// `ZeroMatrix Z(rows, cols)`, with the `Zero` property.
    Zero,
    /// A number literal of the formula, stored as an operand so it can be evaluated.
    Constant,
}

/// A declared operand (or a number literal).
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// The declared name (for a number literal, its value as text).
    pub name: String,
    /// What was declared.
    pub kind: Kind,
    /// Number of rows at the current size values.
    pub rows: u64,
    /// Number of columns at the current size values.
    pub cols: u64,
    /// Names of the size variables (rows, cols), for scaling sizes down.
    pub dims: (Option<String>, Option<String>),
    /// Declared properties after the implication closure.
    pub props: Props,
    /// Value of a [`Kind::Constant`].
    pub value: f64,
    /// Nonzeros over entries, if declared `Sparse(...)` (used by element-wise statements).
    pub density: Option<f64>,
    /// Where the operand is declared (for a literal, where it occurs).
    pub pos: Pos,
}

/// A right-hand side expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An operand, by index into [`Program::operands`].
    Operand(usize),
    /// `a + b`.
    Add(Box<Expr>, Box<Expr>),
    /// `a - b`.
    Sub(Box<Expr>, Box<Expr>),
    /// `a * b`: a matrix product, or a scaling when one side is `1 x 1`.
    Mul(Box<Expr>, Box<Expr>),
    /// `-a`.
    Neg(Box<Expr>),
    /// `trans(a)`.
    Trans(Box<Expr>),
    /// `inv(a)`.
    Inv(Box<Expr>),
    /// A block matrix `[a, b; c, d]`: rows of blocks; blocks in a block row have as many
    /// rows, blocks in a block column as many columns (checked by the parser).
    Block(Vec<Vec<Expr>>),
}

/// `lhs = rhs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The assigned operand, by index into [`Program::operands`].
    pub lhs: usize,
    /// The formula assigned to it.
    pub rhs: Expr,
    /// Where the left-hand side's name stands.
    pub pos: Pos,
}

/// `lhs = rhs` with element-wise operators or aggregates, optimised by
/// `polyscan_sumproduct` (operands by name).
#[derive(Debug, Clone, PartialEq)]
pub struct ElementwiseAssignment {
    /// The assigned operand, by index into [`Program::operands`].
    pub lhs: usize,
    /// The formula, over the operands' names.
    pub rhs: polyscan_sumproduct::La,
    /// Where the left-hand side's name stands.
    pub pos: Pos,
}

/// A whole problem file.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Size variables and their values, in declaration order.
    pub sizes: Vec<(String, u64)>,
    /// Declared operands and the number literals of the formulas, in the order they were
    /// read; [`Expr::Operand`] indexes this list.
    pub operands: Vec<Operand>,
    /// The assignments in source order; each assigns a different operand.
    pub assignments: Vec<Assignment>,
    /// Assignments with element-wise operators or aggregates, in source order.
    pub elementwise: Vec<ElementwiseAssignment>,
    /// Sizes left open (`n = ?`, optionally `n = ? [lo, hi]`); each also has a nominal
    /// value in `sizes` at which the search compares costs.
    pub open_sizes: Vec<OpenSize>,
}

/// A size left open, with optional bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenSize {
    /// The size variable.
    pub name: String,
    /// Smallest value, inclusive (`lo` in `n = ? [lo, hi]`).
    pub lo: Option<u64>,
    /// Largest value, inclusive; at least `lo` when both are given.
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
            Expr::Block(rows) => {
                let r = rows
                    .iter()
                    .filter_map(|row| row.first())
                    .map(|e| self.shape(e).0)
                    .sum();
                let c = rows
                    .first()
                    .map_or(0, |row| row.iter().map(|e| self.shape(e).1).sum());
                (r, c)
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
            Expr::Block(rows) => {
                let rows: Vec<String> = rows
                    .iter()
                    .map(|row| {
                        row.iter()
                            .map(|e| self.show(e))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .collect();
                format!("[{}]", rows.join("; "))
            }
        }
    }
}
