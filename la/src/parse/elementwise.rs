//! Element-wise statements (SPORES' operators, issue 22): `.*`, `./`, `.^k`, the aggregates
//! `sum`, `rowSums`, `colSums`, `trace`, `diag`, and the entry functions `exp`, `log`,
//! `sqrt`, `abs`, besides `+`, `-`, `*` and `trans`. A statement that uses any of them, or
//! reads a `Sparse` operand without inverting anything, is parsed here into a
//! `polyscan_sumproduct::La` with every shape checked at its operator's position; the rest of
//! the language is parsed as before.

use polyscan_sumproduct::expr::{broadcasts, Func};
use polyscan_sumproduct::{Coef, La};

use super::{Builder, Parser, Tok, Token};
use crate::ast::{ElementwiseAssignment, Pos};
use crate::error::LaError;

/// Aggregates and entry functions, by their names in the language.
const FUNCTIONS: &[&str] = &[
    "sum", "rowSums", "colSums", "trace", "diag", "exp", "log", "sqrt", "abs",
];

/// Whether a right-hand side uses an element-wise operator, an aggregate or an entry function.
pub(super) fn is_elementwise(toks: &[Token]) -> bool {
    toks.iter().enumerate().any(|(k, t)| match &t.tok {
        Tok::Dot(_) => true,
        Tok::Ident(s) => {
            FUNCTIONS.contains(&s.as_str())
                && toks.get(k + 1).map(|t| &t.tok) == Some(&Tok::Sym('('))
        }
        _ => false,
    })
}

/// An element-wise expression with its shape and column.
struct Shaped {
    e: La,
    rows: u64,
    cols: u64,
}

impl Builder {
    /// Whether a right-hand side reads an operand declared `Sparse(...)` and inverts nothing:
    /// the sum-product optimiser prices such products by nonzeros, the kernel search would
    /// price them as dense.
    pub(super) fn reads_sparse(&self, toks: &[Token]) -> bool {
        let ident = |t: &Token| match &t.tok {
            Tok::Ident(s) => Some(s.clone()),
            _ => None,
        };
        let names: Vec<String> = toks.iter().filter_map(ident).collect();
        !names.iter().any(|n| n == "inv")
            && names.iter().any(|n| {
                self.find_operand(n)
                    .is_some_and(|i| self.prog.operands[i].density.is_some_and(|d| d < 1.0))
            })
    }

    /// The right-hand side of `lhs = ...` (at `name_col`) as an element-wise statement.
    pub(super) fn elementwise_assignment(
        &mut self,
        p: &mut Parser,
        lhs: usize,
        name_col: usize,
    ) -> Result<(), LaError> {
        let start = p.col();
        let rhs = self.ew_expr(p)?;
        if !p.at_end() {
            return p.err("unexpected text after the expression");
        }
        let o = &self.prog.operands[lhs];
        if (o.rows, o.cols) != (rhs.rows, rhs.cols) {
            return Err(LaError::at(
                p.line,
                start,
                format!(
                    "`{}` is {} x {} but the right-hand side is {} x {}",
                    o.name, o.rows, o.cols, rhs.rows, rhs.cols
                ),
            ));
        }
        self.assigned[lhs] = true;
        self.pending_outputs[lhs] = false;
        self.prog.elementwise.push(ElementwiseAssignment {
            lhs,
            rhs: rhs.e,
            pos: Pos {
                line: p.line,
                column: name_col,
            },
        });
        Ok(())
    }

    fn ew_expr(&mut self, p: &mut Parser) -> Result<Shaped, LaError> {
        let mut acc = self.ew_term(p)?;
        while let Some(Tok::Sym(c @ ('+' | '-'))) = p.peek().cloned() {
            let col = p.col();
            p.i += 1;
            let rhs = self.ew_term(p)?;
            let (l, r) = ((acc.rows, acc.cols), (rhs.rows, rhs.cols));
            let out = (l.0.max(r.0), l.1.max(r.1));
            if !(broadcasts(l, out) && broadcasts(r, out)) {
                return Err(LaError::at(
                    p.line,
                    col,
                    format!(
                        "operands of `{c}` do not fit: {} x {} and {} x {} (equal sizes, a scalar, or a row or column of the other)",
                        l.0, l.1, r.0, r.1
                    ),
                ));
            }
            acc = Shaped {
                e: if c == '+' {
                    acc.e.plus(rhs.e)
                } else {
                    acc.e.minus(rhs.e)
                },
                rows: out.0,
                cols: out.1,
            };
        }
        Ok(acc)
    }

    /// Products, element-wise products and quotients, left to right.
    fn ew_term(&mut self, p: &mut Parser) -> Result<Shaped, LaError> {
        let mut acc = self.ew_power(p)?;
        loop {
            let op = match p.peek() {
                Some(Tok::Sym('*')) => '*',
                Some(Tok::Dot(c @ ('*' | '/'))) => {
                    if *c == '*' {
                        'x'
                    } else {
                        '/'
                    }
                }
                _ => break,
            };
            let col = p.col();
            p.i += 1;
            let rhs = self.ew_power(p)?;
            let (l, r) = ((acc.rows, acc.cols), (rhs.rows, rhs.cols));
            let scalar = |s: (u64, u64)| s == (1, 1);
            acc = if op == '*' {
                if scalar(l) || scalar(r) {
                    let (rows, cols) = if scalar(l) { r } else { l };
                    Shaped {
                        e: acc.e.times(rhs.e),
                        rows,
                        cols,
                    }
                } else if l.1 == r.0 {
                    Shaped {
                        e: acc.e.mm(rhs.e),
                        rows: l.0,
                        cols: r.1,
                    }
                } else {
                    return Err(LaError::at(
                        p.line,
                        col,
                        format!(
                            "cannot multiply a {} x {} by a {} x {} operand",
                            l.0, l.1, r.0, r.1
                        ),
                    ));
                }
            } else {
                let out = (l.0.max(r.0), l.1.max(r.1));
                if !(broadcasts(l, out) && broadcasts(r, out)) {
                    let name = if op == '/' { "./" } else { ".*" };
                    return Err(LaError::at(
                        p.line,
                        col,
                        format!(
                            "operands of `{name}` do not fit: {} x {} and {} x {} (equal sizes, a scalar, or a row or column of the other)",
                            l.0, l.1, r.0, r.1
                        ),
                    ));
                }
                Shaped {
                    e: if op == '/' {
                        acc.e.divide(rhs.e)
                    } else {
                        acc.e.times(rhs.e)
                    },
                    rows: out.0,
                    cols: out.1,
                }
            };
        }
        Ok(acc)
    }

    /// `x .^ k` for a positive integer `k`.
    fn ew_power(&mut self, p: &mut Parser) -> Result<Shaped, LaError> {
        let base = self.ew_unary(p)?;
        if p.peek() != Some(&Tok::Dot('^')) {
            return Ok(base);
        }
        p.i += 1;
        match p.peek().cloned() {
            Some(Tok::Number(v, true)) if (1.0..=64.0).contains(&v) => {
                p.i += 1;
                Ok(Shaped {
                    e: base.e.pow(v as u32),
                    ..base
                })
            }
            _ => p.err("expected an integer exponent from 1 to 64 after `.^`"),
        }
    }

    fn ew_unary(&mut self, p: &mut Parser) -> Result<Shaped, LaError> {
        self.nested(p, Self::ew_primary)
    }

    fn ew_primary(&mut self, p: &mut Parser) -> Result<Shaped, LaError> {
        let col = p.col();
        match p.peek().cloned() {
            Some(Tok::Sym('(')) => {
                p.i += 1;
                let e = self.ew_expr(p)?;
                p.expect_sym(')')?;
                Ok(e)
            }
            Some(Tok::Sym('-')) => {
                p.i += 1;
                let e = self.ew_unary(p)?;
                Ok(Shaped {
                    e: La::num(-1).times(e.e),
                    ..e
                })
            }
            Some(Tok::Number(v, _)) => {
                p.i += 1;
                let c = num_rational::Ratio::<i64>::approximate_float(v)
                    .filter(|r| (*r.numer() as f64 / *r.denom() as f64) == v)
                    .ok_or_else(|| {
                        LaError::at(
                            p.line,
                            col,
                            format!("the number {v} has no exact fraction of 64-bit integers"),
                        )
                    })?;
                Ok(Shaped {
                    e: La::Num(Coef(c)),
                    rows: 1,
                    cols: 1,
                })
            }
            Some(Tok::Ident(s)) if p.toks.get(p.i + 1).map(|t| &t.tok) == Some(&Tok::Sym('(')) => {
                p.i += 2;
                if s == "inv" {
                    return Err(LaError::at(
                        p.line,
                        col,
                        "`inv` is not supported in an element-wise expression (assign the inverse in a statement of its own)",
                    ));
                }
                let inner = self.ew_expr(p)?;
                p.expect_sym(')')?;
                self.function(p, &s, col, inner)
            }
            Some(Tok::Ident(s)) => {
                p.i += 1;
                let i = self.operand_use(p, &s, col)?;
                let o = &self.prog.operands[i];
                Ok(Shaped {
                    e: La::op(&s),
                    rows: o.rows,
                    cols: o.cols,
                })
            }
            _ => p.err("expected an operand, a number, `(`, a function such as `sum(`, or `-`"),
        }
    }

    /// `name(inner)` for a function of the language (at column `col`).
    fn function(
        &mut self,
        p: &Parser,
        name: &str,
        col: usize,
        inner: Shaped,
    ) -> Result<Shaped, LaError> {
        let (r, c) = (inner.rows, inner.cols);
        let square = |what: &str| {
            if r == c {
                Ok(())
            } else {
                Err(LaError::at(
                    p.line,
                    col,
                    format!("`{what}` needs a square operand, not {r} x {c}"),
                ))
            }
        };
        let e = inner.e;
        Ok(match name {
            "trans" => Shaped {
                e: e.t(),
                rows: c,
                cols: r,
            },
            "sum" => Shaped {
                e: e.sum(),
                rows: 1,
                cols: 1,
            },
            "rowSums" => Shaped {
                e: e.row_sums(),
                rows: r,
                cols: 1,
            },
            "colSums" => Shaped {
                e: e.col_sums(),
                rows: 1,
                cols: c,
            },
            "trace" => {
                square("trace")?;
                Shaped {
                    e: e.trace(),
                    rows: 1,
                    cols: 1,
                }
            }
            "diag" => {
                square("diag")?;
                Shaped {
                    e: e.diag(),
                    rows: r,
                    cols: 1,
                }
            }
            "exp" | "log" | "sqrt" | "abs" => {
                let f = match name {
                    "exp" => Func::Exp,
                    "log" => Func::Log,
                    "sqrt" => Func::Sqrt,
                    _ => Func::Abs,
                };
                Shaped {
                    e: e.apply(f),
                    rows: r,
                    cols: c,
                }
            }
            _ => {
                return Err(LaError::at(
                    p.line,
                    col,
                    format!(
                        "unknown function `{name}` (element-wise expressions know trans, {})",
                        FUNCTIONS.join(", ")
                    ),
                ))
            }
        })
    }
}
