//! Parser for Linnea's input language (thesis Fig. 3.2): sizes, operand declarations with
//! properties, and SSA assignments. One statement per line; `#` starts a comment.
//! Subtraction and addition associate to the left. Sizes, products and inverses are
//! checked here, so later stages can rely on consistent shapes.

use super::ast::{Assignment, Expr, Kind, OpenSize, Operand, Pos, Program};

mod block;
mod elementwise;
mod params;
use super::error::LaError;
use super::properties::{Prop, Props};
use params::{bandwidths, block_size, sparsity};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Number(f64, bool),
    Sym(char),
    /// `.*`, `./` or `.^` (the character after the dot).
    Dot(char),
    Question,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    col: usize,
}

fn lex(line: &str, lineno: usize) -> Result<Vec<Token>, LaError> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c == '#' {
            break;
        }
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                col,
            });
        } else if c == '.' && chars.get(i + 1).is_some_and(|d| "*/^".contains(*d)) {
            out.push(Token {
                tok: Tok::Dot(chars[i + 1]),
                col,
            });
            i += 2;
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                i += 1;
                if i < chars.len() && (chars[i] == '+' || chars[i] == '-') {
                    i += 1;
                }
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let text: String = chars[start..i].iter().collect();
            let v: f64 = text
                .parse()
                .map_err(|_| LaError::at(lineno, col, format!("malformed number `{text}`")))?;
            let integral = !text.contains(['.', 'e', 'E']);
            out.push(Token {
                tok: Tok::Number(v, integral),
                col,
            });
        } else if "=(),<>+-*[];".contains(c) {
            out.push(Token {
                tok: Tok::Sym(c),
                col,
            });
            i += 1;
        } else if c == '?' {
            out.push(Token {
                tok: Tok::Question,
                col,
            });
            i += 1;
        } else {
            return Err(LaError::at(
                lineno,
                col,
                format!("unexpected character `{c}`"),
            ));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    line: usize,
    end_col: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }
    fn col(&self) -> usize {
        self.toks.get(self.i).map_or(self.end_col, |t| t.col)
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, LaError> {
        Err(LaError::at(self.line, self.col(), msg))
    }
    fn expect_sym(&mut self, c: char) -> Result<(), LaError> {
        if self.peek() == Some(&Tok::Sym(c)) {
            self.i += 1;
            Ok(())
        } else {
            self.err(format!("expected `{c}`"))
        }
    }
    fn ident(&mut self) -> Result<(String, usize), LaError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                let c = self.col();
                self.i += 1;
                Ok((s, c))
            }
            _ => self.err("expected an identifier"),
        }
    }
    fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }
}

/// An expression with its shape and the column where it starts.
struct Typed {
    e: Expr,
    rows: u64,
    cols: u64,
    col: usize,
}

struct Builder {
    prog: Program,
    assigned: Vec<bool>,
    /// Operands that are the left-hand side of a later assignment.
    pending_outputs: Vec<bool>,
    /// Current nesting of parentheses, `-`, `trans(` and `inv(`.
    depth: usize,
}

/// Deeper expression trees (long sums and products nest to the left) are rejected, so the
/// recursive passes after parsing stay within the stack.
const MAX_TREE_DEPTH: usize = 400;

/// Depth of an expression tree, computed without recursion.
fn tree_depth(e: &Expr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        match e {
            Expr::Operand(_) => {}
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
            Expr::Neg(a) | Expr::Trans(a) | Expr::Inv(a) => stack.push((a, d + 1)),
            Expr::Block(rows) => stack.extend(rows.iter().flatten().map(|x| (x, d + 1))),
        }
    }
    max
}

/// Deeper nesting is rejected, so that no input can exhaust the stack of the recursive
/// parser and of the passes that follow the tree.
const MAX_DEPTH: usize = 100;

const KEYWORDS: [&str; 6] = [
    "Matrix",
    "ColumnVector",
    "RowVector",
    "Scalar",
    "IdentityMatrix",
    "ZeroMatrix",
];

/// Parses and checks a problem file.
pub fn parse(src: &str) -> Result<Program, LaError> {
    let mut b = Builder {
        prog: Program {
            sizes: Vec::new(),
            open_sizes: Vec::new(),
            operands: Vec::new(),
            assignments: Vec::new(),
            elementwise: Vec::new(),
        },
        assigned: Vec::new(),
        pending_outputs: Vec::new(),
        depth: 0,
    };
    let lines: Vec<(usize, Vec<Token>, usize)> = src
        .lines()
        .enumerate()
        .map(|(i, l)| lex(l, i + 1).map(|t| (i + 1, t, l.chars().count() + 1)))
        .collect::<Result<_, _>>()?;
    // Outputs are known up front so that a use before the assignment can be reported.
    let mut lhs_names: Vec<String> = Vec::new();
    for (_, toks, _) in &lines {
        if let [Token {
            tok: Tok::Ident(name),
            ..
        }, Token {
            tok: Tok::Sym('='), ..
        }, rest @ ..] = toks.as_slice()
        {
            let is_size = matches!(
                rest,
                [Token {
                    tok: Tok::Number(..),
                    ..
                }] | [
                    Token {
                        tok: Tok::Question,
                        ..
                    },
                    ..
                ]
            );
            if !is_size {
                lhs_names.push(name.clone());
            }
        }
    }
    for (lineno, toks, end_col) in &lines {
        if toks.is_empty() {
            continue;
        }
        let mut p = Parser {
            toks,
            i: 0,
            line: *lineno,
            end_col: *end_col,
        };
        match &toks[0].tok {
            Tok::Ident(k) if KEYWORDS.contains(&k.as_str()) => b.declaration(&mut p, &lhs_names)?,
            Tok::Ident(_) => b.size_or_assignment(&mut p)?,
            _ => return p.err("expected a size, a declaration or an assignment"),
        }
    }
    if b.prog.assignments.is_empty() && b.prog.elementwise.is_empty() {
        return Err(LaError::at(
            lines.len().max(1),
            1,
            "the problem has no assignment",
        ));
    }
    Ok(b.prog)
}

impl Builder {
    /// The operand `name` read at column `col`: declared, and assigned before if it is an
    /// output.
    fn operand_use(&self, p: &Parser, name: &str, col: usize) -> Result<usize, LaError> {
        let Some(i) = self.find_operand(name) else {
            return Err(LaError::at(
                p.line,
                col,
                format!("unknown operand `{name}`"),
            ));
        };
        if self.pending_outputs[i] {
            return Err(LaError::at(
                p.line,
                col,
                format!("`{name}` is used before it is assigned"),
            ));
        }
        Ok(i)
    }

    fn find_operand(&self, name: &str) -> Option<usize> {
        self.prog
            .operands
            .iter()
            .position(|o| o.name == name && o.kind != Kind::Constant)
    }

    fn size(&self, p: &mut Parser) -> Result<(u64, Option<String>), LaError> {
        let col = p.col();
        match p.peek().cloned() {
            Some(Tok::Ident(s)) => {
                p.i += 1;
                match self.prog.sizes.iter().find(|(n, _)| *n == s) {
                    Some((_, v)) => Ok((*v, Some(s))),
                    None => Err(LaError::at(p.line, col, format!("unknown size `{s}`"))),
                }
            }
            Some(Tok::Number(v, true)) if v >= 1.0 => {
                p.i += 1;
                Ok((v as u64, None))
            }
            _ => p.err("expected a size name"),
        }
    }

    fn declaration(&mut self, p: &mut Parser, lhs_names: &[String]) -> Result<(), LaError> {
        let (kw, _) = p.ident()?;
        let (name, name_col) = p.ident()?;
        if self.find_operand(&name).is_some() {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("operand `{name}` is declared twice"),
            ));
        }
        if KEYWORDS.contains(&name.as_str()) || name == "trans" || name == "inv" {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("`{name}` is a reserved word"),
            ));
        }
        if self.prog.sizes.iter().any(|(n, _)| *n == name) {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("`{name}` is already a size"),
            ));
        }
        let kind = match kw.as_str() {
            "Matrix" => Kind::Matrix,
            "ColumnVector" => Kind::ColumnVector,
            "RowVector" => Kind::RowVector,
            "Scalar" => Kind::Scalar,
            "IdentityMatrix" => Kind::Identity,
            _ => Kind::Zero,
        };
        let dims_col = p.col();
        let (rows, cols, dims) = match kind {
            Kind::Scalar | Kind::Constant => (1, 1, (None, None)),
            Kind::ColumnVector | Kind::RowVector => {
                p.expect_sym('(')?;
                let (n, d) = self.size(p)?;
                p.expect_sym(')')?;
                if kind == Kind::ColumnVector {
                    (n, 1, (d, None))
                } else {
                    (1, n, (None, d))
                }
            }
            _ => {
                p.expect_sym('(')?;
                let (r, dr) = self.size(p)?;
                p.expect_sym(',')?;
                let (c, dc) = self.size(p)?;
                p.expect_sym(')')?;
                (r, c, (dr, dc))
            }
        };
        if kind == Kind::Identity && rows != cols {
            return Err(LaError::at(
                p.line,
                dims_col,
                "an identity matrix must be square",
            ));
        }
        let mut props = Props::EMPTY;
        let mut density = None;
        let props_col = p.col();
        if p.peek() == Some(&Tok::Sym('<')) {
            p.i += 1;
            while p.peek() != Some(&Tok::Sym('>')) {
                let (pn, pc) = p.ident()?;
                if pn == "Sparse" {
                    density = Some(sparsity(p, pc, rows, cols)?);
                    if p.peek() == Some(&Tok::Sym(',')) {
                        p.i += 1;
                    } else if p.peek() != Some(&Tok::Sym('>')) {
                        return p.err("expected `,` or `>`");
                    }
                    continue;
                }
                let prop = Prop::from_name(&pn)
                    .filter(|q| !matches!(q, Prop::Square | Prop::Identity | Prop::Zero));
                match prop {
                    Some(Prop::Banded) => {
                        let (lo, up) = bandwidths(p, pc)?;
                        props = props.with(Prop::Banded).with_band(Some(lo), Some(up));
                    }
                    Some(Prop::BlockDiagonal) => {
                        let b = block_size(p, pc, rows, cols)?;
                        props = props.with(Prop::BlockDiagonal).with_block(Some(b));
                    }
                    Some(q) => props.insert(q),
                    None => {
                        return Err(LaError::at(p.line, pc, format!("unknown property `{pn}`")))
                    }
                }
                if p.peek() == Some(&Tok::Sym('(')) {
                    return p.err(format!("property `{pn}` takes no parameters"));
                }
                if p.peek() == Some(&Tok::Sym(',')) {
                    p.i += 1;
                } else if p.peek() != Some(&Tok::Sym('>')) {
                    return p.err("expected `,` or `>`");
                }
            }
            p.i += 1;
        } else if !matches!(kind, Kind::Identity | Kind::Zero) {
            return p.err("expected a property list `<...>`");
        }
        if !p.at_end() {
            return p.err("unexpected text after the declaration");
        }
        match kind {
            Kind::Identity => props.insert(Prop::Identity),
            Kind::Zero => props.insert(Prop::Zero),
            _ => {}
        }
        if let Some(why) = props.contradiction(rows, cols, kind == Kind::Scalar) {
            return Err(LaError::at(
                p.line,
                props_col,
                format!("operand `{name}`: {why}"),
            ));
        }
        let is_output = lhs_names.contains(&name);
        self.prog.operands.push(Operand {
            name,
            kind,
            rows,
            cols,
            dims,
            props: props.closure(rows, cols),
            density,
            value: 0.0,
            pos: Pos {
                line: p.line,
                column: name_col,
            },
        });
        self.assigned.push(false);
        self.pending_outputs.push(is_output);
        Ok(())
    }

    fn size_or_assignment(&mut self, p: &mut Parser) -> Result<(), LaError> {
        let (name, name_col) = p.ident()?;
        p.expect_sym('=')?;
        let size_value = match (p.peek().cloned(), p.toks.len()) {
            (Some(Tok::Number(v, integral)), 3) => Some((v, integral)),
            _ => None,
        };
        if let Some((v, integral)) = size_value {
            if self.find_operand(&name).is_none() {
                if !integral || !(1.0..=1e9).contains(&v) {
                    return p.err("a size must be a positive integer");
                }
                if self.prog.sizes.iter().any(|(n, _)| *n == name) {
                    return Err(LaError::at(
                        p.line,
                        name_col,
                        format!("size `{name}` is defined twice"),
                    ));
                }
                self.prog.sizes.push((name, v as u64));
                return Ok(());
            }
        }
        if p.peek() == Some(&Tok::Question) && self.find_operand(&name).is_none() {
            return self.open_size(p, name, name_col);
        }
        let Some(lhs) = self.find_operand(&name) else {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("`{name}` is not a declared operand"),
            ));
        };
        if self.assigned[lhs] {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("`{name}` is assigned twice (assignments must be in SSA form)"),
            ));
        }
        if matches!(self.prog.operands[lhs].kind, Kind::Identity | Kind::Zero) {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("`{name}` is a constant matrix"),
            ));
        }
        if elementwise::is_elementwise(&p.toks[p.i..]) || self.reads_sparse(&p.toks[p.i..]) {
            let operators = p.toks[p.i..]
                .iter()
                .filter(|t| matches!(t.tok, Tok::Dot(_) | Tok::Sym('+' | '-' | '*')))
                .count();
            if operators > MAX_TREE_DEPTH {
                return p.err(format!("more than {MAX_TREE_DEPTH} operators (split the expression into several assignments)"));
            }
            return self.elementwise_assignment(p, lhs, name_col);
        }
        let start = p.col();
        let rhs = self.expr(p)?;
        if tree_depth(&rhs.e) > MAX_TREE_DEPTH {
            return Err(LaError::at(
                p.line,
                start,
                format!("expression tree deeper than {MAX_TREE_DEPTH} levels (split it into several assignments)"),
            ));
        }
        if !p.at_end() {
            return p.err("unexpected text after the expression");
        }
        let o = &self.prog.operands[lhs];
        if (o.rows, o.cols) != (rhs.rows, rhs.cols) {
            return Err(LaError::at(
                p.line,
                start,
                format!(
                    "`{name}` is {} x {} but the right-hand side is {} x {}",
                    o.rows, o.cols, rhs.rows, rhs.cols
                ),
            ));
        }
        if crate::blocks::has_blocks(&rhs.e) {
            let env = crate::norm::Env::from_program(&self.prog);
            crate::blocks::expand(&self.prog, &env, &rhs.e)
                .map_err(|m| LaError::at(p.line, start, m))?;
        }
        self.assigned[lhs] = true;
        self.pending_outputs[lhs] = false;
        self.prog.assignments.push(Assignment {
            lhs,
            rhs: rhs.e,
            pos: Pos {
                line: p.line,
                column: name_col,
            },
        });
        Ok(())
    }

    /// `n = ?` or `n = ? [lo, hi]`.
    fn open_size(&mut self, p: &mut Parser, name: String, name_col: usize) -> Result<(), LaError> {
        p.i += 1;
        let bound = |p: &mut Parser| -> Result<u64, LaError> {
            match p.peek().cloned() {
                Some(Tok::Number(v, true)) if (1.0..=1e9).contains(&v) => {
                    p.i += 1;
                    Ok(v as u64)
                }
                _ => p.err("expected a positive integer bound"),
            }
        };
        let (mut lo, mut hi) = (None, None);
        if p.peek() == Some(&Tok::Sym('[')) {
            p.i += 1;
            lo = Some(bound(p)?);
            p.expect_sym(',')?;
            hi = Some(bound(p)?);
            p.expect_sym(']')?;
        }
        if !p.at_end() {
            return p.err("expected `[lo, hi]` or the end of the line");
        }
        if let (Some(l), Some(h)) = (lo, hi) {
            if l > h {
                return Err(LaError::at(
                    p.line,
                    name_col,
                    format!("size `{name}` has empty bounds [{l}, {h}]"),
                ));
            }
        }
        if self.prog.sizes.iter().any(|(n, _)| *n == name) {
            return Err(LaError::at(
                p.line,
                name_col,
                format!("size `{name}` is defined twice"),
            ));
        }
        // The search compares costs at a nominal value: the geometric mean of the bounds.
        let nominal = match (lo, hi) {
            (Some(l), Some(h)) => ((l as f64 * h as f64).sqrt().round() as u64).clamp(l, h),
            (Some(l), None) => l.max(1000),
            (None, Some(h)) => h.min(1000),
            (None, None) => 1000,
        };
        self.prog.sizes.push((name.clone(), nominal));
        self.prog.open_sizes.push(OpenSize { name, lo, hi });
        Ok(())
    }

    fn expr(&mut self, p: &mut Parser) -> Result<Typed, LaError> {
        let mut acc = self.term(p)?;
        while let Some(Tok::Sym(c @ ('+' | '-'))) = p.peek().cloned() {
            let op_col = p.col();
            p.i += 1;
            let rhs = self.term(p)?;
            if (acc.rows, acc.cols) != (rhs.rows, rhs.cols) {
                return Err(LaError::at(
                    p.line,
                    op_col,
                    format!(
                        "operands of `{c}` have different sizes: {} x {} and {} x {}",
                        acc.rows, acc.cols, rhs.rows, rhs.cols
                    ),
                ));
            }
            let e = if c == '+' {
                Expr::Add(Box::new(acc.e), Box::new(rhs.e))
            } else {
                Expr::Sub(Box::new(acc.e), Box::new(rhs.e))
            };
            acc = Typed { e, ..acc };
        }
        Ok(acc)
    }

    /// A product, checked as a whole: products are associative, so an inner product
    /// anywhere in it (`B * trans(y) * x`) is a scalar factor. Such groups are made explicit
    /// in the tree, so every binary product in it has matching sizes.
    fn term(&mut self, p: &mut Parser) -> Result<Typed, LaError> {
        let mut fs = vec![self.factor(p)?];
        // ops[i]: column of the `*` before fs[i + 1].
        let mut ops = Vec::new();
        while p.peek() == Some(&Tok::Sym('*')) {
            ops.push(p.col());
            p.i += 1;
            fs.push(self.factor(p)?);
        }
        let scalar = |t: &Typed| t.rows == 1 && t.cols == 1;
        // Whether fs[a..e] is an inner product: its matrix factors chain from 1 row to 1 column.
        let inner = |fs: &[Typed]| {
            let m: Vec<&Typed> = fs.iter().filter(|t| !scalar(t)).collect();
            m.windows(2).all(|w| w[0].cols == w[1].rows)
                && m.first().is_some_and(|t| t.rows == 1)
                && m.last().is_some_and(|t| t.cols == 1)
        };
        loop {
            let mats: Vec<usize> = (0..fs.len()).filter(|&i| !scalar(&fs[i])).collect();
            let Some(w) = mats.windows(2).find(|w| fs[w[0]].cols != fs[w[1]].rows) else {
                break;
            };
            let (l, r) = (w[0], w[1]);
            let group = (0..=l)
                .rev()
                .find(|&a| inner(&fs[a..=l]))
                .map(|a| (a, l + 1))
                .or_else(|| {
                    (r + 1..=fs.len())
                        .find(|&e| inner(&fs[r..e]))
                        .map(|e| (r, e))
                });
            let Some((a, e)) = group else {
                return Err(LaError::at(
                    p.line,
                    ops[r - 1],
                    format!(
                        "cannot multiply a {} x {} by a {} x {} operand",
                        fs[l].rows, fs[l].cols, fs[r].rows, fs[r].cols
                    ),
                ));
            };
            let col = fs[a].col;
            let mut it = fs.drain(a..e);
            let mut acc = it.next().map(|t| t.e);
            for t in it {
                acc = acc.map(|x| Expr::Mul(Box::new(x), Box::new(t.e)));
            }
            let Some(e_inner) = acc else {
                return p.err("empty product");
            };
            fs.insert(
                a,
                Typed {
                    e: e_inner,
                    rows: 1,
                    cols: 1,
                    col,
                },
            );
            ops.drain(a..e - 1);
        }
        let mut it = fs.into_iter();
        let Some(mut acc) = it.next() else {
            return p.err("expected an operand");
        };
        for rhs in it {
            let (rows, cols) = if scalar(&acc) {
                (rhs.rows, rhs.cols)
            } else if scalar(&rhs) {
                (acc.rows, acc.cols)
            } else {
                (acc.rows, rhs.cols)
            };
            acc = Typed {
                e: Expr::Mul(Box::new(acc.e), Box::new(rhs.e)),
                rows,
                cols,
                col: acc.col,
            };
        }
        Ok(acc)
    }

    fn factor(&mut self, p: &mut Parser) -> Result<Typed, LaError> {
        self.nested(p, Self::factor_inner)
    }

    /// `inner` one nesting level deeper, refused beyond [`MAX_DEPTH`] so that no input can
    /// exhaust the stack of the recursive descent (both grammars go through here).
    fn nested<T>(
        &mut self,
        p: &mut Parser,
        inner: impl FnOnce(&mut Self, &mut Parser) -> Result<T, LaError>,
    ) -> Result<T, LaError> {
        if self.depth >= MAX_DEPTH {
            return p.err(format!("expression nested deeper than {MAX_DEPTH} levels"));
        }
        self.depth += 1;
        let r = inner(self, p);
        self.depth -= 1;
        r
    }

    fn factor_inner(&mut self, p: &mut Parser) -> Result<Typed, LaError> {
        let col = p.col();
        match p.peek().cloned() {
            Some(Tok::Sym('(')) => {
                p.i += 1;
                let e = self.expr(p)?;
                p.expect_sym(')')?;
                Ok(Typed { col, ..e })
            }
            Some(Tok::Sym('[')) => self.block_matrix(p, col),
            Some(Tok::Sym('-')) => {
                p.i += 1;
                let e = self.factor(p)?;
                Ok(Typed {
                    e: Expr::Neg(Box::new(e.e)),
                    col,
                    ..e
                })
            }
            Some(Tok::Number(v, _)) => {
                p.i += 1;
                self.prog.operands.push(Operand {
                    name: format!("{v}"),
                    kind: Kind::Constant,
                    rows: 1,
                    cols: 1,
                    dims: (None, None),
                    props: if v > 0.0 {
                        Props::of(&[Prop::Positive, Prop::Square])
                    } else if v == 0.0 {
                        Props::of(&[Prop::Zero, Prop::Square])
                    } else {
                        Props::of(&[Prop::Square])
                    },
                    value: v,
                    density: None,
                    pos: Pos {
                        line: p.line,
                        column: col,
                    },
                });
                self.assigned.push(true);
                self.pending_outputs.push(false);
                Ok(Typed {
                    e: Expr::Operand(self.prog.operands.len() - 1),
                    rows: 1,
                    cols: 1,
                    col,
                })
            }
            Some(Tok::Ident(s))
                if (s == "trans" || s == "inv")
                    && p.toks.get(p.i + 1).map(|t| &t.tok) == Some(&Tok::Sym('(')) =>
            {
                p.i += 2;
                let inner = self.expr(p)?;
                p.expect_sym(')')?;
                if s == "trans" {
                    Ok(Typed {
                        e: Expr::Trans(Box::new(inner.e)),
                        rows: inner.cols,
                        cols: inner.rows,
                        col,
                    })
                } else {
                    if inner.rows != inner.cols {
                        return Err(LaError::at(
                            p.line,
                            col,
                            format!(
                                "cannot invert a {} x {} (non-square) expression",
                                inner.rows, inner.cols
                            ),
                        ));
                    }
                    Ok(Typed {
                        e: Expr::Inv(Box::new(inner.e)),
                        col,
                        ..inner
                    })
                }
            }
            Some(Tok::Ident(s)) => {
                p.i += 1;
                let i = self.operand_use(p, &s, col)?;
                let o = &self.prog.operands[i];
                Ok(Typed {
                    e: Expr::Operand(i),
                    rows: o.rows,
                    cols: o.cols,
                    col,
                })
            }
            _ => p.err("expected an operand, a number, `(`, `[`, `trans(`, `inv(` or `-`"),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const LS: &str = "n = 50\nm = 10\nMatrix X(n, m) <FullRank>\nColumnVector y(n) <>\nColumnVector b(m) <>\nb = inv(trans(X)*X)*trans(X)*y\n";

    #[test]
    fn parses_least_squares() {
        let p = parse(LS).unwrap();
        assert_eq!(p.sizes, vec![("n".into(), 50), ("m".into(), 10)]);
        assert_eq!(p.assignments.len(), 1);
        assert_eq!(p.show(&p.assignments[0].rhs), "inv(trans(X)*X)*trans(X)*y");
    }

    #[test]
    fn subtraction_is_left_associative() {
        let src = "n = 3\nColumnVector a(n) <>\nColumnVector b(n) <>\nColumnVector c(n) <>\nColumnVector x(n) <>\nx = a - b + c\n";
        let p = parse(src).unwrap();
        assert_eq!(p.show(&p.assignments[0].rhs), "((a - b) + c)");
    }

    /// Line, column and message of the input error `src` gives (also the other parse
    /// modules' tests).
    pub(crate) fn err_pos(src: &str) -> (usize, usize, String) {
        match parse(src) {
            Err(LaError::Input {
                line,
                column,
                message,
            }) => (line, column, message),
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn reports_line_and_column() {
        let (l, c, m) = err_pos(
            "n = 3\nm = 4\nMatrix A(n, m) <>\nMatrix B(n, m) <>\nMatrix C(n, m) <>\nC = A * B\n",
        );
        assert_eq!((l, c), (6, 7), "{m}");
        let (l, c, _) = err_pos("n = 3\nMatrix A(n, k) <>\n");
        assert_eq!((l, c), (2, 13));
        let (l, c, _) = err_pos("n = 3\nMatrix A(n, n) <Fancy>\n");
        assert_eq!((l, c), (2, 17));
    }

    #[test]
    fn rejects_contradictions_and_bad_inverses() {
        err_pos("n = 3\nm = 4\nMatrix A(n, m) <SPD>\nMatrix B(n, m) <>\nB = A\n");
        err_pos("n = 3\nm = 4\nMatrix A(n, m) <Orthogonal>\nMatrix B(n, m) <>\nB = A\n");
        err_pos("n = 3\nMatrix A(n, n) <Positive>\nMatrix B(n, n) <>\nB = A\n");
        err_pos("n = 3\nm = 4\nMatrix A(n, m) <>\nMatrix B(n, m) <>\nB = inv(A)\n");
        err_pos("n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = A + C\n");
        err_pos("n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = A\nB = A\n");
        err_pos("n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nMatrix C(n, n) <>\nC = B\nB = A\n");
        err_pos("n = ? [5, 3]\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = A\n");
        err_pos("n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = A +\n");
        err_pos("n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = (A\n");
        let deep = format!(
            "n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = {}A{}\n",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        err_pos(&deep);
        let long = format!(
            "n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = A{}\n",
            " + A".repeat(5000)
        );
        err_pos(&long);
        let ok = format!(
            "n = 3\nMatrix A(n, n) <>\nMatrix B(n, n) <>\nB = A{}\n",
            " + A * A".repeat(100)
        );
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn inner_products_are_scalars_anywhere_in_a_product() {
        let src = "n = 4\nm = 3\nColumnVector y(n) <>\nColumnVector x(n) <>\nMatrix B(n, m) <>\nMatrix X(n, m) <>\nX = B * trans(y) * x + trans(x) * y * B\n";
        let p = parse(src).unwrap();
        assert_eq!(
            p.show(&p.assignments[0].rhs),
            "(B*trans(y)*x + trans(x)*y*B)"
        );
        let (l, c, _) = err_pos("n = 4\nm = 3\nColumnVector y(n) <>\nMatrix B(n, m) <>\nMatrix X(n, m) <>\nX = B * trans(y) * B\n");
        assert_eq!((l, c), (6, 7));
    }

    #[test]
    fn open_sizes_get_nominal_values() {
        let p = parse("n = ? [100, 400]\nm = ?\nMatrix A(n, m) <>\nMatrix B(n, m) <>\nB = A\n")
            .unwrap();
        assert_eq!(p.sizes, vec![("n".into(), 200), ("m".into(), 1000)]);
        assert_eq!(p.open_sizes.len(), 2);
    }

    #[test]
    fn scalars_and_numbers() {
        let src = "n = 3\nScalar k <Positive>\nMatrix A(n, n) <SPD>\nMatrix B(n, n) <>\nB = k*inv(k - 1)*A - 2.5*A\n";
        let p = parse(src).unwrap();
        assert_eq!(p.shape(&p.assignments[0].rhs), (3, 3));
    }
}
