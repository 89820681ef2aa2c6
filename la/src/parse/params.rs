//! The parameters of parameterised properties in declarations: `Banded(lower, upper)`,
//! `Sparse(density or count)` and `BlockDiagonal(b)`, each checked against the operand's
//! shape with the position of the offending token.

use super::{Parser, Tok};
use crate::error::LaError;

/// The `(lower, upper)` after `Banded` (at column `pc`): two non-negative integers.
pub(super) fn bandwidths(p: &mut Parser, pc: usize) -> Result<(u64, u64), LaError> {
    if p.peek() != Some(&Tok::Sym('(')) {
        return Err(LaError::at(
            p.line,
            pc,
            "`Banded` needs its bandwidths: `Banded(lower, upper)`",
        ));
    }
    p.i += 1;
    let one = |p: &mut Parser, which: &str| match p.peek() {
        // Bandwidths beyond u32 are no restriction for any matrix the tool can handle.
        Some(&Tok::Number(v, true)) if v >= 0.0 && v <= f64::from(u32::MAX - 1) => {
            p.i += 1;
            Ok(v as u64)
        }
        _ => p.err(format!(
            "expected the {which} bandwidth of `Banded` (a non-negative integer)"
        )),
    };
    let lo = one(p, "lower")?;
    p.expect_sym(',')?;
    let up = one(p, "upper")?;
    p.expect_sym(')')?;
    Ok((lo, up))
}

/// The argument of `Sparse(...)` after its name (at column `pc`) for a `rows x cols`
/// operand: a density in (0, 1], or a nonzero count above 1 (at most the entries).
pub(super) fn sparsity(p: &mut Parser, pc: usize, rows: u64, cols: u64) -> Result<f64, LaError> {
    let usage =
        "`Sparse` needs a density in (0, 1] or a nonzero count: `Sparse(0.01)`, `Sparse(5000)`";
    if p.peek() != Some(&Tok::Sym('(')) {
        return Err(LaError::at(p.line, pc, usage));
    }
    p.i += 1;
    let entries = rows as f64 * cols as f64;
    let d = match p.peek().cloned() {
        Some(Tok::Number(v, _)) if v > 0.0 && v <= 1.0 => v,
        Some(Tok::Number(v, true)) if v > 1.0 && v <= entries => v / entries,
        _ => return p.err(usage),
    };
    p.i += 1;
    p.expect_sym(')')?;
    Ok(d)
}

/// The block size after `BlockDiagonal` (at column `pc`) for a `rows x cols` operand: a
/// positive integer dividing the size of a square operand.
pub(super) fn block_size(p: &mut Parser, pc: usize, rows: u64, cols: u64) -> Result<u64, LaError> {
    let usage = "`BlockDiagonal` needs its block size: `BlockDiagonal(b)`";
    if p.peek() != Some(&Tok::Sym('(')) {
        return Err(LaError::at(p.line, pc, usage));
    }
    p.i += 1;
    let col = p.col();
    let b = match p.peek() {
        Some(&Tok::Number(v, true)) if v >= 1.0 && v <= f64::from(u32::MAX - 1) => v as u64,
        _ => return p.err("expected the block size of `BlockDiagonal` (a positive integer)"),
    };
    p.i += 1;
    p.expect_sym(')')?;
    if rows != cols {
        return Err(LaError::at(
            p.line,
            pc,
            format!("BlockDiagonal requires a square matrix, but the operand is {rows} x {cols}"),
        ));
    }
    if !rows.is_multiple_of(b) {
        return Err(LaError::at(
            p.line,
            col,
            format!("the block size {b} does not divide the size {rows}"),
        ));
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use crate::parse::parse;
    use crate::parse::tests::err_pos;
    use crate::properties::Prop;

    #[test]
    fn block_diagonal_declarations() {
        let p = parse(
            "n = 15\nMatrix T(n, n) <BlockDiagonal(3), FullRank>\nMatrix X(n, n) <>\nX = inv(T)\n",
        )
        .unwrap();
        assert_eq!(p.operands[0].props.block(), Some(3));
        assert!(p.operands[0].props.has(Prop::BlockDiagonal));
        // Blocks of 1: diagonal.
        let p =
            parse("n = 4\nMatrix T(n, n) <BlockDiagonal(1)>\nMatrix X(n, n) <>\nX = T\n").unwrap();
        assert!(p.operands[0].props.has(Prop::Diagonal));
        let cases = [
            // b must divide the size: the column of the number.
            (
                "n = 15\nMatrix T(n, n) <BlockDiagonal(4)>\n",
                (2, 31),
                "does not divide",
            ),
            // square only: the column of the property.
            (
                "n = 6\nm = 3\nMatrix T(n, m) <BlockDiagonal(3)>\n",
                (3, 17),
                "square",
            ),
            (
                "n = 6\nMatrix T(n, n) <BlockDiagonal>\n",
                (2, 17),
                "block size",
            ),
            (
                "n = 6\nMatrix T(n, n) <BlockDiagonal(0)>\n",
                (2, 31),
                "positive integer",
            ),
            (
                "n = 6\nMatrix T(n, n) <BlockDiagonal(1.5)>\n",
                (2, 31),
                "positive integer",
            ),
            ("n = 6\nMatrix T(n, n) <BlockDiagonal(3>\n", (2, 32), "`)`"),
        ];
        for (src, pos, msg) in cases {
            let (l, c, m) = err_pos(src);
            assert_eq!((l, c), pos, "{src}: {m}");
            assert!(m.contains(msg), "{src}: {m}");
        }
    }
}
