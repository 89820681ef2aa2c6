//! The C printer's lowering of an [`Expr`] to its typed C expression ([`CAst`]): the
//! tree whose text the printer writes, built once per expression, with the operations in
//! the order and association the C compiler reads from that text (a sum's parts spliced
//! into one chain, a part whose text starts with `-` joined with ` - `, a minus before a
//! compound operand in parentheses and before a simple one bare). Polynomials are written
//! as a person writes them, or in Horner's form from degree 4.

use crate::c_ast::{BinOp, CAst, Helper};
use crate::expr::Expr;
use polys::{CPrintError, Coeff, Int, Poly};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// The trees of one printing pass. Generated code repeats a few bounds many times
/// (steinmetz prints `ps_isqrt((-x)*x + a*a)` dozens of times), and lowering a polynomial
/// costs far more than hashing it, so the tree of every expression lowered is kept, keyed
/// by the expression (borrowed from the loop tree for the pass).
#[derive(Default)]
pub(crate) struct Lowering<'t> {
    trees: RefCell<FxHashMap<&'t Expr, Lowered>>,
}

/// An expression's C tree, and whether the printer parenthesises it as the operand of a
/// minus: a sum (even of one part), or a polynomial whose text starts with `-`.
#[derive(Clone)]
struct Lowered {
    ast: CAst,
    compound: bool,
}

impl Lowered {
    fn simple(ast: CAst) -> Lowered {
        Lowered {
            ast,
            compound: false,
        }
    }

    /// As the operand of a minus: compound expressions in parentheses.
    fn operand(self) -> CAst {
        if self.compound {
            self.ast.parenthesised()
        } else {
            self.ast
        }
    }

    /// `-` and the expression as the operand of a minus.
    fn negated(self) -> CAst {
        if self.compound {
            CAst::Neg(Box::new(self.ast.parenthesised()))
        } else {
            self.ast.minus_prefixed()
        }
    }
}

impl<'t> Lowering<'t> {
    /// The tree of `e`, from the pass's memory if lowered before.
    pub(crate) fn tree(&self, e: &'t Expr) -> Result<CAst, CPrintError> {
        Ok(self.lowered(e)?.ast)
    }

    /// The tree of `e` with its parenthesisation, from the pass's memory if lowered before.
    fn lowered(&self, e: &'t Expr) -> Result<Lowered, CPrintError> {
        if let Some(known) = self.trees.borrow().get(e) {
            return Ok(known.clone());
        }
        let lowered = self.lower(e)?;
        self.trees.borrow_mut().insert(e, lowered.clone());
        Ok(lowered)
    }

    /// [`Lowering::lowered`] without the memory.
    fn lower(&self, e: &'t Expr) -> Result<Lowered, CPrintError> {
        let call = |h: Helper, args: Vec<CAst>| Lowered::simple(CAst::Call(h, args));
        Ok(match e {
            Expr::Poly(p) => poly(p)?,
            Expr::Sum(parts) => {
                let mut sum: Option<CAst> = None;
                for p in parts {
                    let (neg, term) = match p {
                        Expr::Neg(inner) => (true, &**inner),
                        _ => (false, p),
                    };
                    if let Some(c) = term.constant_value() {
                        if c.is_zero() {
                            continue;
                        }
                    }
                    let t = self.lowered(term)?;
                    // The text is `-t`, `t`, `s - (t)`, `s - t'` for a `t` written `-t'`, or
                    // `s + t`; C reads `t`'s own chain as continuing `s`'s.
                    sum = Some(match sum {
                        None if neg => t.negated(),
                        None => t.ast,
                        Some(s) if neg => CAst::Bin(BinOp::Sub, Box::new(s), Box::new(t.operand())),
                        Some(s) if t.ast.starts_with_minus() => {
                            s.chained(BinOp::Sub, t.ast.without_leading_minus())
                        }
                        Some(s) => s.chained(BinOp::Add, t.ast),
                    });
                }
                match sum {
                    None => Lowered::simple(CAst::Lit(0)),
                    Some(ast) => Lowered {
                        ast,
                        compound: true,
                    },
                }
            }
            Expr::Neg(inner) => Lowered::simple(self.lowered(inner)?.negated()),
            // `k*e`, the operand parenthesised when it is a sum.
            Expr::Scaled(k, inner) => Lowered::simple(CAst::Bin(
                BinOp::Mul,
                Box::new(integer(k.to_i64().ok_or_else(|| {
                    CPrintError::CoefficientTooLarge(k.to_string())
                })?)),
                Box::new(self.lowered(inner)?.operand()),
            )),
            Expr::FloorDiv(n, d) => self.division(n, d, false)?,
            Expr::CeilDiv(n, d) => self.division(n, d, true)?,
            Expr::Isqrt(p) => call(Helper::Isqrt, vec![poly(p)?.ast]),
            Expr::CeilSqrt(p) => call(Helper::CeilSqrt, vec![poly(p)?.ast]),
            // The square-root helpers take every argument the same way ps_iroot(n, 2)
            // does, and read as what they are.
            Expr::Root { arg, k: 2, ceil } => {
                let f = if *ceil {
                    Helper::CeilSqrt
                } else {
                    Helper::Isqrt
                };
                call(f, vec![self.lowered(arg)?.ast])
            }
            Expr::Root { arg, k, ceil } => {
                let f = if *ceil {
                    Helper::CeilIroot
                } else {
                    Helper::Iroot
                };
                call(f, vec![self.lowered(arg)?.ast, CAst::Lit(i64::from(*k))])
            }
            Expr::RootSearch {
                coeffs,
                lo,
                hi,
                before,
                ceil,
            } => {
                let mut cs = Vec::with_capacity(coeffs.len());
                for c in coeffs {
                    cs.push(poly(c)?.ast);
                }
                let (lo, hi) = (self.lowered(lo)?.ast, self.lowered(hi)?.ast);
                let degree = (coeffs.len() - 1) as i64;
                call(
                    Helper::RootSearch,
                    vec![
                        CAst::Lit(degree),
                        CAst::Array(cs),
                        lo,
                        hi,
                        integer(i64::from(*before)),
                        CAst::Lit(i64::from(*ceil)),
                    ],
                )
            }
            // `step*ps_ceild(offset, step) + residue`, as CLooG and isl print a stride's
            // first value.
            Expr::Aligned {
                offset,
                residue,
                step,
            } => {
                let multiple = CAst::Bin(
                    BinOp::Mul,
                    Box::new(CAst::Lit(*step)),
                    Box::new(self.division(offset, &Poly::from_i64(*step), true)?.ast),
                );
                let r = poly(residue)?.ast;
                let ast = if residue.is_zero() {
                    multiple
                } else if r.starts_with_minus() {
                    multiple.chained(BinOp::Sub, r.without_leading_minus())
                } else {
                    multiple.chained(BinOp::Add, r)
                };
                Lowered {
                    ast,
                    compound: !residue.is_zero(),
                }
            }
            Expr::Max(es) | Expr::Min(es) => {
                let f = if matches!(e, Expr::Max(_)) {
                    Helper::Max
                } else {
                    Helper::Min
                };
                let mut it = es.iter();
                let mut acc = match it.next() {
                    Some(x) => self.lowered(x)?.ast,
                    None => CAst::Lit(0),
                };
                for x in it {
                    acc = CAst::Call(f, vec![acc, self.lowered(x)?.ast]);
                }
                Lowered::simple(acc)
            }
        })
    }

    /// `ps_floord(n, d)` or `ps_ceild(n, d)`, with a common factor of `d` and of the
    /// numerator's non-constant part divided out first (exact, see
    /// [`crate::expr::reduce_division`]): coefficients scaled beyond 64 bits by a huge
    /// common factor still print.
    fn division(&self, n: &'t Expr, d: &Poly, ceil: bool) -> Result<Lowered, CPrintError> {
        let f = if ceil { Helper::Ceild } else { Helper::Floord };
        let (n, d) = match n {
            Expr::Poly(p) => {
                let (p, d) = crate::expr::reduce_division(p, d, ceil);
                if d.is_one() {
                    return poly(&p);
                }
                (poly(&p)?.ast, poly_sum(&d)?)
            }
            _ => (self.lowered(n)?.ast, poly_sum(d)?),
        };
        Ok(Lowered::simple(CAst::Call(f, vec![n, d])))
    }
}

/// An integer as `to_string` writes it: a negative one with a bare minus (`-1`), which C
/// reads as the minus of a literal. Callers never pass `i64::MIN`, whose magnitude no C
/// literal holds.
fn integer(v: i64) -> CAst {
    match v.checked_neg() {
        Some(m) if v < 0 => CAst::Neg(Box::new(CAst::Lit(m))),
        _ => CAst::Lit(v),
    }
}

/// A polynomial's tree, compound when it has several terms or starts with a minus.
fn poly(p: &Poly) -> Result<Lowered, CPrintError> {
    Ok(match p.constant_value().and_then(|c| c.to_i64()) {
        Some(c) if c != i64::MIN => Lowered::simple(integer(c)),
        _ => {
            // A leading minus needs parentheses after another `-` as well.
            let ast = poly_sum(p)?;
            let compound = p.len() > 1 || ast.starts_with_minus();
            Lowered { ast, compound }
        }
    })
}

/// A polynomial as a person writes it: a sum of products, positive terms first, then the
/// subtracted ones, in each group the constant last and the terms of outer variables
/// first (`a*a - x*x - y*y`, `4 - x*x`, `L - m*i - 1`). Polynomials of degree 4 and more
/// in one variable keep Horner's form, which needs fewer multiplications there.
fn poly_sum(p: &Poly) -> Result<CAst, CPrintError> {
    if p.terms()
        .iter()
        .any(|(m, _)| m.exps().iter().any(|&e| e >= 4))
    {
        return Ok(horner(p)?.ast);
    }
    let mut terms: Vec<(&polys::Mono, &Int)> = p.terms().iter().map(|(m, c)| (m, c)).collect();
    // Sort key: subtracted after added, within each the constant last, then outer
    // variables first and higher degree first (`4 - x*x`, `n - i - 1`).
    terms.sort_by_key(|(m, c)| {
        let top = m.exps().iter().rposition(|&e| e > 0);
        (
            c.signum() < 0,
            m.is_one(),
            top,
            std::cmp::Reverse(m.total_degree()),
        )
    });
    let mut sum: Option<CAst> = None;
    for (m, c) in terms {
        let mag = c
            .abs()
            .to_i64()
            .ok_or_else(|| CPrintError::CoefficientTooLarge(c.to_string()))?;
        let mut factors: Vec<CAst> = Vec::new();
        if mag != 1 || m.is_one() {
            factors.push(CAst::Lit(mag));
        }
        for (v, &e) in m.exps().iter().enumerate() {
            for _ in 0..e {
                factors.push(CAst::Var(v));
            }
        }
        let mut it = factors.into_iter();
        let first = it.next().unwrap_or(CAst::Lit(1));
        let term = it.fold(first, |acc, f| {
            CAst::Bin(BinOp::Mul, Box::new(acc), Box::new(f))
        });
        let negative = c.signum() < 0;
        sum = Some(match sum {
            None if negative => term.minus_prefixed(),
            None => term,
            Some(s) => {
                let op = if negative { BinOp::Sub } else { BinOp::Add };
                CAst::Bin(op, Box::new(s), Box::new(term))
            }
        });
    }
    Ok(sum.unwrap_or(CAst::Lit(0)))
}

/// A polynomial in Horner form with respect to its highest variable, recursively in the
/// coefficients, as `polys::Poly::to_c` writes it: `(y*x + 3)*x - 4`, a coefficient 1
/// or -1 as `x` or `(-x)`, a negative constant subtracted.
struct Horner {
    ast: CAst,
    /// The expression is a literal: `1*x` and `-1*x` simplify.
    literal: Option<i64>,
}

fn horner(p: &Poly) -> Result<Horner, CPrintError> {
    let Some(v) = p.main_var() else {
        return horner_literal(&p.constant_value().unwrap_or_else(Int::zero));
    };
    let cs = p.coeffs(v);
    if cs.len() <= 1 {
        return match cs.first() {
            Some(c) => horner(c),
            None => horner_literal(&Int::zero()),
        };
    }
    // acc = c_d; for i = d-1..0: acc = acc*x (+ c_i)
    let mut acc = horner(&cs[cs.len() - 1])?;
    for c in cs[..cs.len() - 1].iter().rev() {
        acc = acc.times_var(v);
        if !c.is_zero() {
            acc = acc.plus(horner(c)?);
        }
    }
    Ok(acc)
}

fn horner_literal(c: &Int) -> Result<Horner, CPrintError> {
    let v = c
        .to_i64()
        .ok_or_else(|| CPrintError::CoefficientTooLarge(c.to_string()))?;
    Ok(Horner {
        ast: CAst::Lit(v),
        literal: Some(v),
    })
}

impl Horner {
    fn times_var(self, x: usize) -> Horner {
        let ast = match self.literal {
            Some(1) => CAst::Var(x),
            Some(-1) => CAst::Paren(Box::new(CAst::Neg(Box::new(CAst::Var(x))))),
            _ => CAst::Bin(BinOp::Mul, Box::new(self.ast), Box::new(CAst::Var(x))),
        };
        Horner { ast, literal: None }
    }

    fn plus(self, o: Horner) -> Horner {
        let ast = match o.literal {
            // i64::MIN has no positive counterpart; keep the parenthesised literal.
            Some(v) if v < 0 && v != i64::MIN => {
                CAst::Bin(BinOp::Sub, Box::new(self.ast), Box::new(CAst::Lit(-v)))
            }
            _ => CAst::Bin(BinOp::Add, Box::new(self.ast), Box::new(o.ast)),
        };
        Horner { ast, literal: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c_ast::Lang;
    use polys::Vars;

    #[test]
    fn horner_trees_print_as_the_polynomial_crate_writes_horner_form() {
        let mut vars = Vars::from_names(["x", "y", "z"]).open();
        for text in [
            "x^4 - 3x + 2",
            "-x^4",
            "-x^4 - 5",
            "x^4*y - y^5 + 7",
            "-y*x^5 + x - 1",
            "(x + y)^4",
            "-z^4 + 2*z^2*y - x*y + 3",
            "x^4 - 9223372036854775808",
            "-9223372036854775808*x^4 + 1",
            "x^4 + 9223372036854775808",
        ] {
            let p = Poly::parse(text, &mut vars).unwrap();
            let tree = horner(&p).map(|h| h.ast.text(&vars, Lang::C));
            assert_eq!(tree, p.to_c(&vars), "{text}");
        }
    }
}
