//! Conditions of [`Node::Test`](crate::ast::Node::Test): sign conditions of polynomials
//! under `and` and `or`, as the input states them, for constraints that no loop bound
//! enforces (see `guarded`).
//!
//! Negations are pushed into the relations when a condition is built (`not (p < 0)` is
//! `p >= 0`), so that printing and evaluation need no `!`.

use crate::expr::{EvalError, Expr};
use cad::formula::{Formula, Rel};
use polys::{Coeff, Int, Poly};

/// A condition over the problem's variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// `lhs ~ rhs`: a polynomial without constant term (as [`Expr::Poly`]) compared with
    /// the constant, which is how a person writes `i*j - n <= 0` as `i*j - n <= 0` and
    /// `2*i*j - i*i == 3` rather than `2*i*j - i*i - 3 == 0`.
    Atom {
        /// The non-constant part of the polynomial.
        lhs: Expr,
        /// The relation.
        rel: Rel,
        /// Minus the polynomial's constant term.
        rhs: Int,
    },
    /// Every part holds.
    And(Vec<Cond>),
    /// Some part holds.
    Or(Vec<Cond>),
}

impl Cond {
    /// The condition `f` states, or `Err(truth)` when `f` is constant (`True`, `False`,
    /// or an atom whose polynomial is a constant).
    pub fn of(f: &Formula) -> Result<Cond, bool> {
        Cond::signed(f, false)
    }

    fn signed(f: &Formula, negated: bool) -> Result<Cond, bool> {
        match f {
            Formula::True => Err(!negated),
            Formula::False => Err(negated),
            Formula::Not(g) => Cond::signed(g, !negated),
            Formula::Atom(a) => {
                let rel = if negated { a.rel.negate() } else { a.rel };
                let c = a
                    .poly
                    .terms()
                    .iter()
                    .find(|(m, _)| m.is_one())
                    .map_or_else(|| Int::from(0), |(_, c)| c.clone());
                let lhs = a.poly.sub(&Poly::constant(c.clone()));
                if lhs.is_zero() {
                    return Err(rel.holds(c.signum()));
                }
                Ok(Cond::Atom {
                    lhs: Expr::Poly(lhs),
                    rel,
                    rhs: c.neg(),
                })
            }
            Formula::And(fs) | Formula::Or(fs) => {
                // Under a negation `and` and `or` trade places (De Morgan).
                let conjunction = matches!(f, Formula::And(_)) != negated;
                let mut parts = Vec::with_capacity(fs.len());
                for g in fs {
                    match Cond::signed(g, negated) {
                        Ok(c) => parts.push(c),
                        // A part that decides the whole: false in a conjunction, true in a
                        // disjunction; the other constant parts drop out.
                        Err(t) if t != conjunction => return Err(t),
                        Err(_) => {}
                    }
                }
                match parts.len() {
                    0 => Err(conjunction),
                    1 => Ok(parts.swap_remove(0)),
                    _ if conjunction => Ok(Cond::And(parts)),
                    _ => Ok(Cond::Or(parts)),
                }
            }
        }
    }

    /// Whether the condition holds at `point` (exactly, in big integers).
    pub fn holds(&self, point: &[Int]) -> Result<bool, EvalError> {
        Ok(match self {
            Cond::Atom { lhs, rel, rhs } => rel.holds(lhs.eval(point)?.sub(rhs).signum()),
            Cond::And(cs) => {
                for c in cs {
                    if !c.holds(point)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Or(cs) => {
                for c in cs {
                    if c.holds(point)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }

    /// The atoms' left-hand sides, left to right.
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Cond::Atom { lhs, .. } => vec![lhs],
            Cond::And(cs) | Cond::Or(cs) => cs.iter().flat_map(Cond::exprs).collect(),
        }
    }

    /// Whether some atom reads variable `v`.
    pub fn reads(&self, v: usize) -> bool {
        self.exprs().iter().any(|e| e.reads(v))
    }

    /// The condition with every left-hand side replaced by `f` of it, or `None` where `f`
    /// gives none.
    pub fn try_map(&self, f: &impl Fn(&Expr) -> Option<Expr>) -> Option<Cond> {
        Some(match self {
            Cond::Atom { lhs, rel, rhs } => Cond::Atom {
                lhs: f(lhs)?,
                rel: *rel,
                rhs: rhs.clone(),
            },
            Cond::And(cs) => Cond::And(cs.iter().map(|c| c.try_map(f)).collect::<Option<_>>()?),
            Cond::Or(cs) => Cond::Or(cs.iter().map(|c| c.try_map(f)).collect::<Option<_>>()?),
        })
    }

    /// The condition as C or Rust text (both read `&&`, `||`, `==` alike), each atom's
    /// left-hand side printed by `text`; parts of the other connective in parentheses.
    pub fn text<'a, E>(
        &'a self,
        text: &mut impl FnMut(&'a Expr) -> Result<String, E>,
    ) -> Result<String, E> {
        Ok(match self {
            Cond::Atom { lhs, rel, rhs } => {
                let op = match rel {
                    Rel::Eq => "==",
                    r => r.symbol(),
                };
                format!("{} {op} {rhs}", text(lhs)?)
            }
            Cond::And(cs) | Cond::Or(cs) => {
                let join = if matches!(self, Cond::And(_)) {
                    " && "
                } else {
                    " || "
                };
                let mut parts = Vec::with_capacity(cs.len());
                for c in cs {
                    let t = c.text(text)?;
                    parts.push(match c {
                        Cond::Atom { .. } => t,
                        _ => format!("({t})"),
                    });
                }
                parts.join(join)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    fn cond(vars: &Vars, text: &str) -> Result<Cond, bool> {
        let f = cad::formula::Formula::conjunction(vars, &[text]).unwrap();
        Cond::of(&f)
    }

    #[test]
    fn negations_move_into_the_relations_and_constants_to_the_right() {
        let v = Vars::from_names(["n", "i", "j"]);
        let f = cad::formula::Formula::conjunction(&v, &["i*j - 3 >= n"]).unwrap();
        let c = Cond::of(&Formula::Not(Box::new(f))).unwrap();
        let mut print = |e: &Expr| -> Result<String, ()> {
            Ok(e.as_poly().map_or_else(String::new, |p| p.to_text(&v)))
        };
        assert_eq!(c.text(&mut print).unwrap(), "i*j - n < 3");
        for (i, j, n, holds) in [(1, 2, 0, true), (2, 2, 0, false), (2, 2, 2, true)] {
            let p = [Int::from(n), Int::from(i), Int::from(j)];
            assert_eq!(c.holds(&p).unwrap(), holds, "{i} {j} {n}");
        }
        assert_eq!(cond(&v, "0 <= 1"), Err(true));
        assert_eq!(cond(&v, "1 <= 0"), Err(false));
    }

    #[test]
    fn constant_parts_decide_or_drop_out() {
        let v = Vars::from_names(["i"]);
        let atom = |t: &str| cad::formula::Formula::conjunction(&v, &[t]).unwrap();
        let or = Formula::Or(vec![atom("i*i >= 4"), Formula::True]);
        assert_eq!(Cond::of(&or), Err(true));
        let and = Formula::And(vec![atom("i*i >= 4"), Formula::True]);
        assert!(matches!(Cond::of(&and), Ok(Cond::Atom { .. })));
        let not_or = Formula::Not(Box::new(Formula::Or(vec![
            atom("i*i >= 4"),
            atom("i >= 7"),
        ])));
        let c = Cond::of(&not_or).unwrap();
        let mut print = |e: &Expr| -> Result<String, ()> {
            Ok(e.as_poly().map_or_else(String::new, |p| p.to_text(&v)))
        };
        assert_eq!(c.text(&mut print).unwrap(), "i^2 < 4 && i < 7");
    }
}
