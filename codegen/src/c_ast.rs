//! The emitted C's expressions as a typed tree ([`CAst`]): literals, variables,
//! `+ - *` with C's precedence and left associativity, unary minus, `ps_*` helper calls
//! and the `(const int64_t[]){...}` coefficient arrays of root searches.
//!
//! The C printer (`emit_c`) lowers each [`Expr`](crate::expr::Expr) into one such tree,
//! once, and every rendering reads that tree: the plain C and Rust texts are printed from
//! it ([`CAst::write`]), and the checked rendering of `--check-overflow` (`checked`) and
//! the overflow analysis (`overflow`, `enclosure`) read it with constants folded as the
//! C compiler folds them ([`CAst::folded`]).
//!
//! The tree is the one the C compiler parses from the printed text, not the structure of
//! the [`Expr`](crate::expr::Expr): the printer splices a nested sum into one
//! left-associated chain (`a + b - c`, never `a + (b - c)`) and a leading minus onto the
//! first factor (`-x*y` is `(-x)*y`), and the tree has the operations in that order, so
//! that the checked program and the analysis see exactly the operations the compiler
//! compiles. The operations that build it from the printer's pieces are here, next to
//! the grammar they follow ([`CAst::minus_prefixed`], [`CAst::chained`], ...).
//! Parentheses follow from C's precedence, except the few the printer writes beyond it
//! ([`CAst::Paren`]).

use polys::Vars;

/// An expression of the emitted C, as the C compiler parses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CAst {
    /// An integer literal: `5`; a negative one parenthesised, `(-5)`; `INT64_MIN` as the
    /// constant expression `(-9223372036854775807 - 1)`, since C has no literal
    /// 9223372036854775808. A bare `-5` is [`CAst::Neg`] of `5`, as C parses it.
    Lit(i64),
    /// A variable, by index into the problem's variables.
    Var(usize),
    /// Unary minus.
    Neg(Box<CAst>),
    /// A binary operation, left operand first.
    Bin(BinOp, Box<CAst>, Box<CAst>),
    /// Parentheses C's precedence does not call for but the printer writes: `(-x)*x` of
    /// Horner's form, `-(-x)` and `a - (-x*y)` (where the text must not read `--x`),
    /// `-(ps_isqrt(n))` of a one-part sum. The compiler, and [`CAst::folded`], ignore them.
    Paren(Box<CAst>),
    /// A call of a `ps_*` helper.
    Call(Helper, Vec<CAst>),
    /// A compound literal `(const int64_t[]){...}` (root search coefficients); `&[...]` in
    /// Rust.
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

/// The `ps_*` helpers of [`HELPERS`](crate::emit_c::HELPERS) the printer calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// `ps_floord(n, d)`.
    Floord,
    /// `ps_ceild(n, d)`.
    Ceild,
    /// `ps_isqrt(n)`.
    Isqrt,
    /// `ps_ceil_sqrt(n)`.
    CeilSqrt,
    /// `ps_iroot(n, k)`.
    Iroot,
    /// `ps_ceil_iroot(n, k)`.
    CeilIroot,
    /// `ps_max(a, b)`.
    Max,
    /// `ps_min(a, b)`.
    Min,
    /// `ps_root_search(deg, coeffs, lo, hi, before, ceil)`.
    RootSearch,
}

impl Helper {
    /// Every helper, for reading names back.
    pub const ALL: [Helper; 9] = [
        Helper::Floord,
        Helper::Ceild,
        Helper::Isqrt,
        Helper::CeilSqrt,
        Helper::Iroot,
        Helper::CeilIroot,
        Helper::Max,
        Helper::Min,
        Helper::RootSearch,
    ];

    /// The helper's name in C and in Rust.
    pub fn name(self) -> &'static str {
        match self {
            Helper::Floord => "ps_floord",
            Helper::Ceild => "ps_ceild",
            Helper::Isqrt => "ps_isqrt",
            Helper::CeilSqrt => "ps_ceil_sqrt",
            Helper::Iroot => "ps_iroot",
            Helper::CeilIroot => "ps_ceil_iroot",
            Helper::Max => "ps_max",
            Helper::Min => "ps_min",
            Helper::RootSearch => "ps_root_search",
        }
    }
}

/// The target language of a rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// C99 with GCC builtins.
    C,
    /// Rust (`&[...]` for coefficient arrays).
    Rust,
}

impl CAst {
    /// Appends the expression's text to `out`; `vars` names the variables. The
    /// expressions are valid Rust for `i64` operands too, except the coefficient arrays.
    pub fn write(&self, vars: &Vars, lang: Lang, out: &mut String) {
        match self {
            CAst::Lit(v) => write_literal(*v, out),
            CAst::Var(k) => match vars.names().get(*k) {
                Some(name) => out.push_str(name),
                None => out.push_str(&vars.name(*k)),
            },
            CAst::Neg(a) => {
                out.push('-');
                // `-(-1)`, never `--1`, which C reads as a decrement (found by the hard
                // random domains, `codegen/tests/common/hard.rs`).
                let paren = a.precedence() < UNARY || a.starts_with_minus();
                a.write_operand(paren, vars, lang, out);
            }
            CAst::Bin(op, a, b) => {
                let p = op.precedence();
                a.write_operand(a.precedence() < p, vars, lang, out);
                out.push_str(match op {
                    BinOp::Add => " + ",
                    BinOp::Sub => " - ",
                    BinOp::Mul => "*",
                });
                // Left associative: an operand of the same precedence on the right keeps
                // its parentheses (`a - (b - c)`).
                b.write_operand(b.precedence() <= p, vars, lang, out);
            }
            CAst::Paren(a) => a.write_operand(true, vars, lang, out),
            CAst::Call(h, args) => {
                out.push_str(h.name());
                out.push('(');
                write_list(args, vars, lang, out);
                out.push(')');
            }
            CAst::Array(items) => {
                out.push_str(match lang {
                    Lang::C => "(const int64_t[]){",
                    Lang::Rust => "&[",
                });
                write_list(items, vars, lang, out);
                out.push(match lang {
                    Lang::C => '}',
                    Lang::Rust => ']',
                });
            }
        }
    }

    /// [`CAst::write`] into a new string.
    pub fn text(&self, vars: &Vars, lang: Lang) -> String {
        let mut out = String::new();
        self.write(vars, lang, &mut out);
        out
    }

    fn write_operand(&self, paren: bool, vars: &Vars, lang: Lang, out: &mut String) {
        if paren {
            out.push('(');
        }
        self.write(vars, lang, out);
        if paren {
            out.push(')');
        }
    }

    /// How tightly the expression binds as an operand: sums and differences least,
    /// products next, everything else (unary minus, literals, calls, ...) most.
    fn precedence(&self) -> u8 {
        match self {
            CAst::Bin(op, ..) => op.precedence(),
            _ => UNARY,
        }
    }

    /// Whether the expression is a sum or difference at the top.
    pub(crate) fn is_additive(&self) -> bool {
        matches!(self, CAst::Bin(BinOp::Add | BinOp::Sub, ..))
    }

    /// The expression with its constant subexpressions folded as the C compiler folds
    /// them: unary minus of a literal, and an operation of two constants whose result
    /// fits in `int64_t` (`(-9223372036854775807 - 1)`), become literals; parentheses
    /// go. The checked rendering and the overflow analysis read this form: the compiler
    /// performs no run-time operation for a constant.
    pub fn folded(&self) -> CAst {
        match self {
            CAst::Lit(v) => CAst::Lit(*v),
            CAst::Var(k) => CAst::Var(*k),
            CAst::Paren(a) => a.folded(),
            CAst::Neg(a) => match a.folded() {
                CAst::Lit(v) if v != i64::MIN => CAst::Lit(-v),
                a => CAst::Neg(Box::new(a)),
            },
            CAst::Bin(op, a, b) => {
                let (a, b) = (a.folded(), b.folded());
                if let (CAst::Lit(x), CAst::Lit(y)) = (&a, &b) {
                    let v = match op {
                        BinOp::Add => x.checked_add(*y),
                        BinOp::Sub => x.checked_sub(*y),
                        BinOp::Mul => x.checked_mul(*y),
                    };
                    if let Some(v) = v {
                        return CAst::Lit(v);
                    }
                }
                CAst::Bin(*op, Box::new(a), Box::new(b))
            }
            CAst::Call(h, args) => CAst::Call(*h, args.iter().map(CAst::folded).collect()),
            CAst::Array(items) => CAst::Array(items.iter().map(CAst::folded).collect()),
        }
    }

    /// `-` written before the expression's text: C applies it to the first operand of a
    /// chain (`-x*y` is `(-x)*y`), so the minus goes down the left operands that print
    /// without parentheses.
    pub(crate) fn minus_prefixed(self) -> CAst {
        match self {
            CAst::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                CAst::Bin(op, Box::new(a.minus_prefixed()), b)
            }
            CAst::Bin(BinOp::Mul, a, b) => {
                let a = if a.is_additive() {
                    CAst::Neg(a)
                } else {
                    a.minus_prefixed()
                };
                CAst::Bin(BinOp::Mul, Box::new(a), b)
            }
            e => CAst::Neg(Box::new(e)),
        }
    }

    /// Whether the text starts with `-`: a unary minus on the first operand.
    pub(crate) fn starts_with_minus(&self) -> bool {
        match self {
            CAst::Bin(BinOp::Add | BinOp::Sub, a, _) => a.starts_with_minus(),
            CAst::Bin(BinOp::Mul, a, _) => !a.is_additive() && a.starts_with_minus(),
            CAst::Neg(_) => true,
            _ => false,
        }
    }

    /// The expression whose text is this one's without its leading `-` (see
    /// [`CAst::starts_with_minus`]): the negated operand, parenthesised as it printed.
    pub(crate) fn without_leading_minus(self) -> CAst {
        match self {
            CAst::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                CAst::Bin(op, Box::new(a.without_leading_minus()), b)
            }
            CAst::Bin(BinOp::Mul, a, b) if !a.is_additive() => {
                CAst::Bin(BinOp::Mul, Box::new(a.without_leading_minus()), b)
            }
            CAst::Neg(a) if matches!(*a, CAst::Bin(..)) => CAst::Paren(a),
            CAst::Neg(a) => *a,
            e => e,
        }
    }

    /// `self op t` (`op` additive), `t` written without parentheses: C takes the first
    /// term of `t`'s chain as the right operand of `op`, and the rest of the chain
    /// continues from there (`s + a - b` is `(s + a) - b`).
    pub(crate) fn chained(self, op: BinOp, t: CAst) -> CAst {
        match t {
            CAst::Bin(o @ (BinOp::Add | BinOp::Sub), a, b) => {
                CAst::Bin(o, Box::new(self.chained(op, *a)), b)
            }
            t => CAst::Bin(op, Box::new(self), Box::new(t)),
        }
    }

    /// The expression in parentheses as the operand of a minus (unary, or the right one
    /// of a difference): a sum or difference gets them from precedence there.
    pub(crate) fn parenthesised(self) -> CAst {
        if self.is_additive() {
            self
        } else {
            CAst::Paren(Box::new(self))
        }
    }
}

/// Precedence of unary minus and of primary expressions (see [`CAst::precedence`]).
const UNARY: u8 = 3;

impl BinOp {
    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul => 2,
        }
    }
}

/// A literal as C spells it (see [`CAst::Lit`]).
fn write_literal(v: i64, out: &mut String) {
    use std::fmt::Write;
    if v == i64::MIN {
        out.push_str("(-9223372036854775807 - 1)");
    } else if v < 0 {
        let _ = write!(out, "({v})");
    } else {
        let _ = write!(out, "{v}");
    }
}

fn write_list(items: &[CAst], vars: &Vars, lang: Lang, out: &mut String) {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        x.write(vars, lang, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(k: usize) -> CAst {
        CAst::Var(k)
    }

    fn bin(op: BinOp, a: CAst, b: CAst) -> CAst {
        CAst::Bin(op, Box::new(a), Box::new(b))
    }

    #[test]
    fn prints_by_precedence_and_folds_as_the_compiler() {
        let vars = Vars::from_names(["n", "m", "x", "y"]);
        let text = |e: &CAst| e.text(&vars, Lang::C);
        // a - (b - c) keeps its parentheses, (a - b) - c needs none.
        let e = bin(BinOp::Sub, var(0), bin(BinOp::Sub, var(1), var(2)));
        assert_eq!(text(&e), "n - (m - x)");
        let e = bin(BinOp::Sub, bin(BinOp::Sub, var(0), var(1)), var(2));
        assert_eq!(text(&e), "n - m - x");
        let e = bin(BinOp::Mul, bin(BinOp::Add, var(3), CAst::Lit(3)), var(2));
        assert_eq!(text(&e), "(y + 3)*x");
        assert_eq!(text(&CAst::Lit(i64::MIN)), "(-9223372036854775807 - 1)");
        assert_eq!(text(&CAst::Lit(-5)), "(-5)");
        // -2*x: the minus belongs to the 2, which the compiler folds.
        let e = bin(BinOp::Mul, CAst::Lit(2), var(2)).minus_prefixed();
        assert_eq!(text(&e), "-2*x");
        assert_eq!(e.folded(), bin(BinOp::Mul, CAst::Lit(-2), var(2)));
        let arr = CAst::Array(vec![CAst::Lit(1), var(0)]);
        assert_eq!(arr.text(&vars, Lang::Rust), "&[1, n]");
        assert_eq!(text(&arr), "(const int64_t[]){1, n}");
        // A minus before a minus: parenthesised, as `--` would be a decrement.
        let e = CAst::Lit(1).minus_prefixed().minus_prefixed();
        assert_eq!(text(&e), "-(-1)");
        assert_eq!(e.folded(), CAst::Lit(1));
        let e = bin(BinOp::Mul, var(2), var(3))
            .minus_prefixed()
            .minus_prefixed();
        assert_eq!(text(&e), "-(-x)*y");
    }

    #[test]
    fn splices_chains_as_the_text_reads() {
        let vars = Vars::from_names(["n", "m", "x", "y"]);
        let text = |e: &CAst| e.text(&vars, Lang::C);
        // s + (-x*y + 3) printed as `n - x*y + 3`.
        let t = bin(
            BinOp::Add,
            bin(BinOp::Mul, var(2), var(3)).minus_prefixed(),
            CAst::Lit(3),
        );
        assert!(t.starts_with_minus());
        let e = var(0).chained(BinOp::Sub, t.without_leading_minus());
        assert_eq!(text(&e), "n - x*y + 3");
        assert_eq!(
            e,
            bin(
                BinOp::Add,
                bin(BinOp::Sub, var(0), bin(BinOp::Mul, var(2), var(3))),
                CAst::Lit(3)
            )
        );
        // `-(a + b)*y` loses its minus to `(a + b)*y`.
        let t = bin(BinOp::Mul, bin(BinOp::Add, var(0), var(1)), var(3)).minus_prefixed();
        assert_eq!(text(&t), "-(n + m)*y");
        assert_eq!(text(&t.without_leading_minus()), "(n + m)*y");
    }
}
