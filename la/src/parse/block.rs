//! Block matrix literals `[A, B; C, D]` (issue 22): block rows separated by `;`, blocks by
//! `,`, each block any formula. Every block row has as many blocks, the blocks of a block
//! row as many rows and those of a block column as many columns; errors point at the
//! offending block (or separator). Formulas combining block matrices are checked when the
//! assignment is complete (`blocks::expand`).

use super::{Builder, Parser, Tok, Typed};
use crate::ast::Expr;
use crate::blocks::has_blocks;
use crate::error::LaError;

impl Builder {
    /// The block matrix whose `[` is at column `col` (the parser at the `[`).
    pub(super) fn block_matrix(&mut self, p: &mut Parser, col: usize) -> Result<Typed, LaError> {
        p.i += 1;
        let mut rows: Vec<Vec<Typed>> = vec![Vec::new()];
        loop {
            let t = self.expr(p)?;
            if has_blocks(&t.e) {
                return Err(LaError::at(
                    p.line,
                    t.col,
                    "a block of a block matrix cannot itself be a block matrix",
                ));
            }
            let row = rows.len() - 1;
            if let Some(first) = rows[row].first() {
                if first.rows != t.rows {
                    return Err(LaError::at(
                        p.line,
                        t.col,
                        format!(
                            "this block has {} rows, the first one of its block row {}",
                            t.rows, first.rows
                        ),
                    ));
                }
            }
            let j = rows[row].len();
            if row > 0 {
                match rows[0].get(j) {
                    Some(above) if above.cols != t.cols => {
                        return Err(LaError::at(
                            p.line,
                            t.col,
                            format!(
                                "this block has {} columns, the first one of its block column {}",
                                t.cols, above.cols
                            ),
                        ))
                    }
                    None => {
                        return Err(LaError::at(
                            p.line,
                            t.col,
                            format!("block row {} has more blocks than the first one", row + 1),
                        ))
                    }
                    _ => {}
                }
            }
            rows[row].push(t);
            let sep = p.col();
            match p.peek() {
                Some(Tok::Sym(',')) => p.i += 1,
                Some(Tok::Sym(';')) | Some(Tok::Sym(']')) => {
                    if rows[row].len() != rows[0].len() {
                        return Err(LaError::at(
                            p.line,
                            sep,
                            format!(
                                "block row {} has {} blocks, the first one {}",
                                row + 1,
                                rows[row].len(),
                                rows[0].len()
                            ),
                        ));
                    }
                    let end = p.peek() == Some(&Tok::Sym(']'));
                    p.i += 1;
                    if end {
                        break;
                    }
                    rows.push(Vec::new());
                }
                _ => return p.err("expected `,`, `;` or `]` in a block matrix"),
            }
        }
        let r = rows
            .iter()
            .filter_map(|row| row.first())
            .map(|t| t.rows)
            .sum();
        let c = rows[0].iter().map(|t| t.cols).sum();
        Ok(Typed {
            e: Expr::Block(
                rows.into_iter()
                    .map(|row| row.into_iter().map(|t| t.e).collect())
                    .collect(),
            ),
            rows: r,
            cols: c,
            col,
        })
    }
}
