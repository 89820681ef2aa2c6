//! The emitted C's expressions as a typed tree ([`CAst`]), read back from the text the
//! C printer emits: literals, variables, `+ - *` with C's precedence and left
//! associativity, unary minus, `ps_*` helper calls and the `(const int64_t[]){...}`
//! coefficient arrays of root searches, with constants folded as the C compiler folds
//! them.
//!
//! Reading the text back (rather than walking [`Expr`](crate::expr::Expr)) gives exactly
//! the operations, operand order and associativity the C compiler sees: the printer
//! splices nested sums into one left-associated chain.

use std::fmt;

/// An expression of the emitted C, parsed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CAst {
    /// A literal or a constant subexpression the C compiler folds (within `int64_t`).
    Lit(i128),
    /// A variable, by index into the problem's variables.
    Var(usize),
    /// Unary minus.
    Neg(Box<CAst>),
    /// A binary operation, left operand first.
    Bin(BinOp, Box<CAst>, Box<CAst>),
    /// A call of a `ps_*` helper.
    Call(String, Vec<CAst>),
    /// A compound literal `(const int64_t[]){...}` (root search coefficients).
    Array(Vec<CAst>),
}

/// The binary operators the printer emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-` (binary).
    Sub,
    /// `*`.
    Mul,
}

/// Why a printed expression could not be read back (a bug of the printer or the reader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CParseError {
    /// The printed text.
    pub text: String,
    /// What did not parse.
    pub message: String,
}

impl fmt::Display for CParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read back the emitted expression `{}`: {}",
            self.text, self.message
        )
    }
}

impl std::error::Error for CParseError {}

pub(crate) const I64_MIN: i128 = i64::MIN as i128;
pub(crate) const I64_MAX: i128 = i64::MAX as i128;

pub(crate) fn fits(v: i128) -> bool {
    (I64_MIN..=I64_MAX).contains(&v)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Num(i128),
    Ident(String),
    P(char),
}

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < cs.len() && cs[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = cs[start..i].iter().collect();
            let v: i128 = s.parse().map_err(|_| format!("literal {s} too large"))?;
            if v > I64_MAX {
                return Err(format!("literal {s} does not fit in int64_t"));
            }
            out.push(Tok::Num(v));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(cs[start..i].iter().collect()));
        } else if "(){}[],+-*".contains(c) {
            out.push(Tok::P(c));
            i += 1;
        } else {
            return Err(format!("unexpected character {c:?}"));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    var: &'a dyn Fn(&str) -> Option<usize>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::P(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{c}' at token {}", self.at))
        }
    }

    fn expect_ident(&mut self, name: &str) -> Result<(), String> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == name => {
                self.at += 1;
                Ok(())
            }
            _ => Err(format!("expected '{name}' at token {}", self.at)),
        }
    }

    /// `term (('+' | '-') term)*`, left-associative as in C.
    fn expr(&mut self) -> Result<CAst, String> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat('+') {
                BinOp::Add
            } else if self.eat('-') {
                BinOp::Sub
            } else {
                return Ok(left);
            };
            let right = self.term()?;
            left = fold_bin(op, left, right);
        }
    }

    fn term(&mut self) -> Result<CAst, String> {
        let mut left = self.unary()?;
        while self.eat('*') {
            let right = self.unary()?;
            left = fold_bin(BinOp::Mul, left, right);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<CAst, String> {
        if self.eat('-') {
            let inner = self.unary()?;
            // `-5` is a constant expression: the compiler folds it, nothing runs.
            return Ok(match inner {
                CAst::Lit(v) if fits(-v) => CAst::Lit(-v),
                e => CAst::Neg(Box::new(e)),
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<CAst, String> {
        match self.peek().cloned() {
            Some(Tok::Num(v)) => {
                self.at += 1;
                Ok(CAst::Lit(v))
            }
            Some(Tok::Ident(name)) => {
                self.at += 1;
                if self.eat('(') {
                    let mut args = Vec::new();
                    if !self.eat(')') {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(')') {
                                break;
                            }
                            self.expect(',')?;
                        }
                    }
                    Ok(CAst::Call(name, args))
                } else {
                    (self.var)(&name)
                        .map(CAst::Var)
                        .ok_or_else(|| format!("unknown variable '{name}'"))
                }
            }
            Some(Tok::P('(')) => {
                self.at += 1;
                if self.peek() == Some(&Tok::Ident("const".into())) {
                    self.at += 1;
                    self.expect_ident("int64_t")?;
                    self.expect('[')?;
                    self.expect(']')?;
                    self.expect(')')?;
                    self.expect('{')?;
                    let mut items = Vec::new();
                    if !self.eat('}') {
                        loop {
                            items.push(self.expr()?);
                            if self.eat('}') {
                                break;
                            }
                            self.expect(',')?;
                        }
                    }
                    return Ok(CAst::Array(items));
                }
                let e = self.expr()?;
                self.expect(')')?;
                Ok(e)
            }
            other => Err(format!("unexpected {other:?} at token {}", self.at)),
        }
    }
}

/// A binary operation, folded when both operands are constants and the result fits (as
/// the C compiler folds `(-9223372036854775807 - 1)`).
fn fold_bin(op: BinOp, a: CAst, b: CAst) -> CAst {
    if let (CAst::Lit(x), CAst::Lit(y)) = (&a, &b) {
        let v = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
        };
        if fits(v) {
            return CAst::Lit(v);
        }
    }
    CAst::Bin(op, Box::new(a), Box::new(b))
}

/// Parses an expression the C printer emitted; `var` resolves variable names.
pub fn parse_c(text: &str, var: &dyn Fn(&str) -> Option<usize>) -> Result<CAst, CParseError> {
    let fail = |message: String| CParseError {
        text: text.to_string(),
        message,
    };
    let toks = tokenize(text).map_err(fail)?;
    let mut p = Parser { toks, at: 0, var };
    let e = p.expr().map_err(fail)?;
    if p.at != p.toks.len() {
        return Err(fail(format!("trailing input at token {}", p.at)));
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> CAst {
        let names = ["n", "m", "x", "y"];
        parse_c(text, &|s: &str| names.iter().position(|n| *n == s)).unwrap()
    }

    #[test]
    fn parses_the_printers_text_with_c_associativity() {
        assert_eq!(
            parse("x - (y) + 3"),
            CAst::Bin(
                BinOp::Add,
                Box::new(CAst::Bin(
                    BinOp::Sub,
                    Box::new(CAst::Var(2)),
                    Box::new(CAst::Var(3))
                )),
                Box::new(CAst::Lit(3))
            )
        );
        assert_eq!(parse("(-9223372036854775807 - 1)"), CAst::Lit(I64_MIN));
        assert_eq!(parse("(-5)"), CAst::Lit(-5));
        let rs = parse("ps_root_search(3, (const int64_t[]){x + (-n), -3, 0, 1}, -1, 4, -1, 0)");
        assert!(matches!(rs, CAst::Call(ref f, ref a) if f == "ps_root_search" && a.len() == 6));
        assert!(parse_c("x / 2", &|_| Some(0)).is_err());
    }
}
