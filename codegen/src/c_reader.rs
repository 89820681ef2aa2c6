//! A test oracle for the C printer's trees: a reader of the printed C text back into a
//! [`CAst`] with constants folded as the compiler folds them, the way the analysis once
//! obtained its trees. For every expression printed across the shipped examples, reading
//! the printed text back must give exactly the tree the printer built, folded; otherwise
//! the tree and the text disagree about what the C compiler computes.
//!
//! Test-only: the printer builds its trees directly (see `c_ast`).

use crate::c_ast::{BinOp, CAst, Helper};

/// Why a printed expression could not be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CParseError {
    /// The printed text.
    pub text: String,
    /// What did not parse.
    pub message: String,
}

impl std::fmt::Display for CParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot read back the emitted expression `{}`: {}",
            self.text, self.message
        )
    }
}

const I64_MAX: i128 = i64::MAX as i128;

fn fits(v: i128) -> bool {
    i64::try_from(v).is_ok()
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
                CAst::Lit(v) if fits(-i128::from(v)) => CAst::Lit(-v),
                e => CAst::Neg(Box::new(e)),
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<CAst, String> {
        match self.peek().cloned() {
            Some(Tok::Num(v)) => {
                self.at += 1;
                Ok(CAst::Lit(v as i64))
            }
            Some(Tok::Ident(name)) => {
                self.at += 1;
                if self.eat('(') {
                    let helper = Helper::ALL
                        .into_iter()
                        .find(|h| h.name() == name)
                        .ok_or_else(|| format!("unknown helper {name}"))?;
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
                    Ok(CAst::Call(helper, args))
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
        let (x, y) = (i128::from(*x), i128::from(*y));
        let v = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
        };
        if fits(v) {
            return CAst::Lit(v as i64);
        }
    }
    CAst::Bin(op, Box::new(a), Box::new(b))
}

/// Reads back an expression the C printer emitted, folded; `var` resolves variable names.
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
    use crate::ast::Node;
    use crate::c_ast::Lang;
    use crate::emit_c::CEmitter;
    use crate::expr::Expr;
    use crate::input::parse_problem;
    use crate::{Engine, Pipeline, Shape, Tiling};

    fn parse(text: &str) -> CAst {
        let names = ["n", "m", "x", "y"];
        parse_c(text, &|s: &str| names.iter().position(|n| *n == s)).unwrap()
    }

    #[test]
    fn reads_the_printers_text_with_c_associativity() {
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
        assert_eq!(parse("(-9223372036854775807 - 1)"), CAst::Lit(i64::MIN));
        assert_eq!(parse("(-5)"), CAst::Lit(-5));
        let rs = parse("ps_root_search(3, (const int64_t[]){x + (-n), -3, 0, 1}, -1, 4, -1, 0)");
        assert!(
            matches!(rs, CAst::Call(Helper::RootSearch, ref a) if a.len() == 6),
            "{rs:?}"
        );
        assert!(parse_c("x / 2", &|_| Some(0)).is_err());
    }

    /// Every expression of `nodes`: the printer's tree, folded, is what its text reads.
    fn check_nodes(c: &CEmitter, nodes: &[Node], file: &str, count: &mut usize) {
        let check = |e: &Expr, count: &mut usize| {
            let Ok(ast) = c.c_ast(e) else {
                return; // not printable in 64 bits: no tree, no text
            };
            let text = ast.text(c.vars, Lang::C);
            assert_eq!(text, c.expr(e).unwrap(), "{file}");
            let read = parse_c(&text, &|name: &str| c.vars.index(name))
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(read, ast.folded(), "{file}: {text}");
            // The Rust text differs only in the arrays of root searches.
            let rust = ast.text(c.vars, Lang::Rust);
            let arrays = text.replace("(const int64_t[]){", "&[").replace('}', "]");
            assert_eq!(rust, arrays, "{file}");
            *count += 1;
        };
        for n in nodes {
            match n {
                Node::Stmt { args, .. } => args.iter().for_each(|a| check(a, count)),
                Node::Loop {
                    lower, upper, body, ..
                } => {
                    check(lower, count);
                    check(upper, count);
                    check_nodes(c, body, file, count);
                }
                Node::Guard {
                    lower, upper, body, ..
                } => {
                    lower.iter().chain(upper).for_each(|e| check(e, count));
                    check_nodes(c, body, file, count);
                }
                Node::Test { cond, body } => {
                    cond.exprs().into_iter().for_each(|e| check(e, count));
                    check_nodes(c, body, file, count);
                }
            }
        }
    }

    #[test]
    fn every_printed_example_expression_reads_back_as_its_tree() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut files = Vec::new();
        for dir in ["seed", "domains", "tiling"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
                if e.path().extension().is_some_and(|x| x == "pset") {
                    files.push(e.path());
                }
            }
        }
        files.sort();
        assert!(files.len() >= 30, "{files:?}");
        let mut count = 0;
        for path in &files {
            let src = std::fs::read_to_string(path).unwrap();
            let Ok(problem) = parse_problem(&src) else {
                continue;
            };
            // The tilings the file's header names (`# tile-sizes: w,h`).
            let header = |key: &str| {
                src.lines()
                    .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
            };
            let tiling = header("# tile-sizes:").map(|sizes| Tiling {
                shape: header("# tile-shape:"),
                ..Tiling::sizes(sizes)
            });
            let mut runs = vec![
                (Engine::Auto, Shape::Compact),
                (Engine::Cad, Shape::Compact),
                (Engine::Cad, Shape::Separate),
            ];
            if tiling.is_some() {
                // The CAD of a tiled polynomial domain takes minutes.
                runs.truncate(1);
            }
            for (engine, shape) in runs {
                let mut pipeline = Pipeline::new(problem.clone()).engine(engine).shape(shape);
                if let Some(t) = &tiling {
                    pipeline = pipeline.tiling(t.clone());
                }
                let Ok(out) = pipeline.run() else {
                    continue;
                };
                let g = &out.generated;
                let file = format!("{} ({engine:?}, {shape:?})", path.display());
                check_nodes(&g.emitter(), &g.nodes, &file, &mut count);
            }
        }
        assert!(count >= 500, "only {count} expressions");
    }
}
