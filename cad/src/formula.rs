//! Quantifier-free formulas over polynomial sign conditions: the constraints a CAD is
//! adapted to, and the truth values its cells carry.

use polys::{Coeff, Int, ParseError, Poly, Vars};

/// The relation of an atom `p ~ 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    /// `p < 0`.
    Lt,
    /// `p <= 0`.
    Le,
    /// `p = 0`.
    Eq,
    /// `p != 0`.
    Ne,
    /// `p >= 0`.
    Ge,
    /// `p > 0`.
    Gt,
}

impl Rel {
    /// Whether a value of sign `s` (-1, 0, 1) satisfies `s ~ 0`.
    pub fn holds(self, s: i32) -> bool {
        match self {
            Rel::Lt => s < 0,
            Rel::Le => s <= 0,
            Rel::Eq => s == 0,
            Rel::Ne => s != 0,
            Rel::Ge => s >= 0,
            Rel::Gt => s > 0,
        }
    }

    /// The relation with both sides swapped: `a ~ b` iff `b ~.flip() a`.
    pub fn flip(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Ge => Rel::Le,
            Rel::Gt => Rel::Lt,
            r => r,
        }
    }

    /// The negated relation: `not (p ~ 0)` iff `p ~.negate() 0`.
    pub fn negate(self) -> Rel {
        match self {
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Ge => Rel::Lt,
            Rel::Gt => Rel::Le,
        }
    }

    /// The relation as text: `<`, `<=`, `=`, `!=`, `>=` or `>`.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Eq => "=",
            Rel::Ne => "!=",
            Rel::Ge => ">=",
            Rel::Gt => ">",
        }
    }
}

/// An atom `poly ~ 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The polynomial compared with zero.
    pub poly: Poly,
    /// How it compares with zero.
    pub rel: Rel,
}

impl Atom {
    /// `lhs ~ rhs` as `lhs - rhs ~ 0`, divided by the positive integer content (which
    /// keeps the truth value and shrinks the projection's input).
    pub fn compare(lhs: &Poly, rel: Rel, rhs: &Poly) -> Atom {
        let p = lhs.sub(rhs);
        let c = p.integer_content();
        let poly = if c.is_zero() || c.is_one() {
            p
        } else {
            p.div_scalar_exact(&c)
        };
        Atom { poly, rel }
    }
}

/// A formula built from atoms with and, or, not.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// Holds everywhere.
    True,
    /// Holds nowhere.
    False,
    /// A sign condition `p ~ 0`.
    Atom(Atom),
    /// Conjunction: holds where every part holds (true when empty).
    And(Vec<Formula>),
    /// Disjunction: holds where some part holds (false when empty).
    Or(Vec<Formula>),
    /// Negation.
    Not(Box<Formula>),
}

impl Formula {
    /// The conjunction of `parts`, without a wrapper when there are fewer than two
    /// ([`Formula::True`] for none, the part itself for one).
    pub fn and(parts: Vec<Formula>) -> Formula {
        match parts.len() {
            0 => Formula::True,
            1 => parts.into_iter().next().expect("one element"),
            _ => Formula::And(parts),
        }
    }

    /// The disjunction of `parts`, without a wrapper when there are fewer than two
    /// ([`Formula::False`] for none, the part itself for one).
    pub fn or(parts: Vec<Formula>) -> Formula {
        match parts.len() {
            0 => Formula::False,
            1 => parts.into_iter().next().expect("one element"),
            _ => Formula::Or(parts),
        }
    }

    /// Three-valued evaluation: `sign(p)` returns the sign of an atom's polynomial where it
    /// is decided (e.g. all its variables are assigned in a partial sample) and `None`
    /// otherwise. The result is `None` only when the known signs do not decide the formula.
    pub fn eval_partial<'f>(
        &'f self,
        sign: &mut impl FnMut(&'f Poly) -> Option<i32>,
    ) -> Option<bool> {
        match self {
            Formula::True => Some(true),
            Formula::False => Some(false),
            Formula::Atom(a) => {
                if let Some(c) = a.poly.constant_value() {
                    return Some(a.rel.holds(c.signum()));
                }
                sign(&a.poly).map(|s| a.rel.holds(s))
            }
            Formula::And(fs) => {
                let mut unknown = false;
                for f in fs {
                    match f.eval_partial(sign) {
                        Some(false) => return Some(false),
                        None => unknown = true,
                        Some(true) => {}
                    }
                }
                (!unknown).then_some(true)
            }
            Formula::Or(fs) => {
                let mut unknown = false;
                for f in fs {
                    match f.eval_partial(sign) {
                        Some(true) => return Some(true),
                        None => unknown = true,
                        Some(false) => {}
                    }
                }
                (!unknown).then_some(false)
            }
            Formula::Not(f) => f.eval_partial(sign).map(|b| !b),
        }
    }

    /// Exact truth value at an integer point covering every variable.
    pub fn eval_int(&self, point: &[Int]) -> bool {
        self.eval_partial(&mut |p| Some(p.eval(point).signum()))
            .expect("every variable has a value, so every atom is decided")
    }

    /// The atoms' polynomials, each once, in order of first occurrence.
    pub fn polynomials(&self) -> Vec<Poly> {
        let mut out: Vec<Poly> = Vec::new();
        for p in self.atom_polys() {
            if !p.is_constant() && !out.contains(p) {
                out.push(p.clone());
            }
        }
        out
    }

    /// Every atom's polynomial as stored in the formula, once per occurrence: the
    /// references [`Formula::eval_partial`] hands to its closure.
    pub fn atom_polys(&self) -> Vec<&Poly> {
        let mut out = Vec::new();
        self.collect_atoms(&mut out);
        out
    }

    fn collect_atoms<'f>(&'f self, out: &mut Vec<&'f Poly>) {
        match self {
            Formula::True | Formula::False => {}
            Formula::Atom(a) => out.push(&a.poly),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| f.collect_atoms(out)),
            Formula::Not(f) => f.collect_atoms(out),
        }
    }

    /// The conjunction of constraints written `lhs REL rhs` with polynomial sides and REL
    /// one of `<=`, `>=`, `!=`, `<`, `>`, `=` (for tests, benchmarks and small tools; the
    /// full input language is codegen's).
    ///
    /// ```
    /// use cad::formula::Formula;
    /// use polys::{Int, Vars};
    /// let v = Vars::from_names(["x", "y"]);
    /// let f = Formula::conjunction(&v, &["x^2 + y^2 <= 4", "x > 0"]).unwrap();
    /// assert!(f.eval_int(&[Int::from(1), Int::from(1)]));
    /// ```
    pub fn conjunction(vars: &Vars, constraints: &[&str]) -> Result<Formula, ParseError> {
        let mut parts = Vec::with_capacity(constraints.len());
        for c in constraints {
            let (rel, tok) = [
                (Rel::Le, "<="),
                (Rel::Ge, ">="),
                (Rel::Ne, "!="),
                (Rel::Lt, "<"),
                (Rel::Gt, ">"),
                (Rel::Eq, "="),
            ]
            .into_iter()
            .find(|(_, t)| c.contains(t))
            .ok_or_else(|| ParseError {
                column: 1,
                offset: 0,
                message: format!("no relation in '{c}'"),
            })?;
            let (l, r) = c.split_once(tok).expect("the relation occurs in the text");
            let mut v = vars.clone();
            let lhs = Poly::parse(l, &mut v)?;
            let rhs = Poly::parse(r, &mut v)?;
            parts.push(Formula::Atom(Atom::compare(&lhs, rel, &rhs)));
        }
        Ok(Formula::and(parts))
    }

    /// Over the integers, `p < 0` is `p + 1 <= 0` and `p > 0` is `p - 1 >= 0` (an
    /// integer polynomial takes integer values at integer points): the same integer
    /// points with closed constraints only, which lets sections merge into sectors.
    pub fn tighten_strict(&self) -> Formula {
        match self {
            Formula::Atom(a) => match a.rel {
                Rel::Lt => Formula::Atom(Atom {
                    poly: a.poly.add(&Poly::one()),
                    rel: Rel::Le,
                }),
                Rel::Gt => Formula::Atom(Atom {
                    poly: a.poly.sub(&Poly::one()),
                    rel: Rel::Ge,
                }),
                _ => self.clone(),
            },
            Formula::And(fs) => Formula::And(fs.iter().map(Formula::tighten_strict).collect()),
            Formula::Or(fs) => Formula::Or(fs.iter().map(Formula::tighten_strict).collect()),
            Formula::Not(g) => Formula::Not(Box::new(g.tighten_strict())),
            Formula::True | Formula::False => self.clone(),
        }
    }

    /// Renames variables: `x_i` becomes `x_map[i]` in every atom.
    pub fn rename(&self, map: &[usize]) -> Formula {
        match self {
            Formula::True => Formula::True,
            Formula::False => Formula::False,
            Formula::Atom(a) => Formula::Atom(Atom {
                poly: a.poly.rename(map),
                rel: a.rel,
            }),
            Formula::And(fs) => Formula::And(fs.iter().map(|g| g.rename(map)).collect()),
            Formula::Or(fs) => Formula::Or(fs.iter().map(|g| g.rename(map)).collect()),
            Formula::Not(g) => Formula::Not(Box::new(g.rename(map))),
        }
    }

    /// Text in the input language (`and`, `or`, `not`, relations against 0).
    pub fn to_text(&self, vars: &Vars) -> String {
        match self {
            Formula::True => "true".into(),
            Formula::False => "false".into(),
            Formula::Atom(a) => format!("{} {} 0", a.poly.to_text(vars), a.rel.symbol()),
            Formula::And(fs) => join(fs, " and ", vars),
            Formula::Or(fs) => join(fs, " or ", vars),
            Formula::Not(f) => format!("not ({})", f.to_text(vars)),
        }
    }
}

fn join(fs: &[Formula], sep: &str, vars: &Vars) -> String {
    fs.iter()
        .map(|f| match f {
            Formula::And(_) | Formula::Or(_) => format!("({})", f.to_text(vars)),
            _ => f.to_text(vars),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_evaluation_decides_early() {
        let mut v = Vars::from_names(["x", "y"]);
        let x = Poly::parse("x - 1", &mut v).unwrap();
        let y = Poly::parse("y", &mut v).unwrap();
        let f = Formula::And(vec![
            Formula::Atom(Atom {
                poly: x.clone(),
                rel: Rel::Ge,
            }),
            Formula::Atom(Atom {
                poly: y.clone(),
                rel: Rel::Gt,
            }),
        ]);
        // x = 0: the first atom fails, so the conjunction fails whatever y is.
        let mut sign = |p: &Poly| (p == &x).then_some(-1);
        assert_eq!(f.eval_partial(&mut sign), Some(false));
        let mut sign = |p: &Poly| (p == &x).then_some(1);
        assert_eq!(f.eval_partial(&mut sign), None);
        assert!(f.eval_int(&[Int::from(2), Int::from(1)]));
        assert_eq!(f.polynomials().len(), 2);
    }
}
