//! The variables a statement's domain quantifies: names bound by `exists` and the integer
//! divisions `floor(e/d)` of its terms (isl's existentially quantified variables and
//! divs), each a new variable after the statement's iterators.
//!
//! A division is a function of the variables in its numerator, so the variable standing
//! for it exists exactly once wherever the division is written: its defining constraints
//! `d*q <= e <= d*q + d - 1` are conjoined with the whole domain, whatever connective the
//! division sits under.
//!
//! `min(...)` and `max(...)` stand for a placeholder variable only while their comparison
//! chain is read: [`Quantified::expand_extrema`] then splits the chain into the cases of
//! which argument is the extreme one (isl's reading) and the placeholder goes.

use super::ast::Existential;
use cad::formula::{Atom, Formula, Rel};
use polys::{Divisions, Int, Poly, Vars};

/// The quantified variables of the statement being parsed.
pub(super) struct Quantified {
    /// Number of variables before the first quantified one (parameters and iterators).
    base: usize,
    /// Every quantified variable so far, in index order.
    vars: Vec<Existential>,
    /// Whether each one's name may be used now (bound by an enclosing `exists`).
    visible: Vec<bool>,
    /// The `min`/`max` placeholders not yet expanded: position among `vars`, arguments
    /// and whether it is a `max`.
    extrema: Vec<(usize, Vec<Poly>, bool)>,
}

impl Quantified {
    /// No quantified variable yet, after `base` parameters and iterators.
    pub fn new(base: usize) -> Quantified {
        Quantified {
            base,
            vars: Vec::new(),
            visible: Vec::new(),
            extrema: Vec::new(),
        }
    }

    /// How many variables are quantified so far.
    pub fn len(&self) -> usize {
        self.vars.len()
    }

    /// Forgets the variables from `len` on (those of a reading that was abandoned).
    pub fn truncate(&mut self, len: usize) {
        self.vars.truncate(len);
        self.visible.truncate(len);
        self.extrema.retain(|(k, _, _)| *k < len);
    }

    /// Whether a variable from the `from`-th quantified one on was bound by `exists`.
    pub fn binds_since(&self, from: usize) -> bool {
        let placeholders: Vec<usize> = self.extrema.iter().map(|(k, _, _)| *k).collect();
        (from..self.vars.len())
            .any(|k| self.vars[k].division.is_none() && !placeholders.contains(&k))
    }

    /// Whether `p` contains a `min`/`max` placeholder (one that no comparison expanded).
    pub fn has_extremum(&self, p: &Poly) -> bool {
        self.extrema
            .iter()
            .any(|(k, _, _)| p.has_var(self.base + k))
    }

    /// Replaces each `min`/`max` placeholder from the `from`-th quantified variable on in
    /// `f` by the cases of its arguments, `OR_j (a_j >= a_l for all l) and f[a_j]` for a
    /// `max` (`<=` for a `min`): at a point the cases that hold are those whose argument
    /// is the extreme value, so the result is equivalent to `f` with the value in place,
    /// and stays so under `not`. The placeholders leave the variable list and the later
    /// variables move down (the returned formula is over the new indices).
    pub fn expand_extrema(&mut self, from: usize, mut f: Formula) -> Formula {
        let mut gone = Vec::new();
        // Latest first: a nested call is an argument of the enclosing one.
        while self.extrema.last().is_some_and(|(k, _, _)| *k >= from) {
            // Invariant: checked by the loop condition.
            let (k, args, max) = self.extrema.pop().expect("a placeholder");
            let var = self.base + k;
            let cases = args
                .iter()
                .enumerate()
                .map(|(j, a)| {
                    let mut parts: Vec<Formula> = args
                        .iter()
                        .enumerate()
                        .filter(|&(l, _)| l != j)
                        .map(|(_, b)| {
                            let rel = if max { Rel::Ge } else { Rel::Le };
                            Formula::Atom(Atom::compare(a, rel, b))
                        })
                        .collect();
                    parts.push(substitute(&f, var, a));
                    Formula::and(parts)
                })
                .collect();
            f = Formula::or(cases);
            gone.push(k);
        }
        if gone.is_empty() {
            return f;
        }
        // Renumber: every later quantified variable moves down past the removed ones.
        let total = self.base + self.vars.len();
        let map: Vec<usize> = (0..total)
            .map(|v| {
                if v < self.base {
                    v
                } else {
                    v - gone.iter().filter(|&&k| self.base + k < v).count()
                }
            })
            .collect();
        let mut k = 0;
        self.vars.retain(|_| {
            k += 1;
            !gone.contains(&(k - 1))
        });
        let mut k = 0;
        self.visible.retain(|_| {
            k += 1;
            !gone.contains(&(k - 1))
        });
        for v in &mut self.vars {
            if let Some((num, _)) = &mut v.division {
                *num = num.rename(&map);
            }
        }
        f.rename(&map)
    }

    /// The names usable now: the parameters and iterators of `vars`, then every
    /// quantified variable (a name that cannot be written for those out of scope).
    pub fn scope(&self, vars: &Vars) -> Vars {
        let mut names: Vec<String> = vars.names()[..self.base].to_vec();
        for (k, (v, &shown)) in self.vars.iter().zip(&self.visible).enumerate() {
            names.push(if shown {
                v.name.clone()
            } else {
                format!("<hidden {k}>")
            });
        }
        Vars::from_names(names)
    }

    /// Binds `name` for an `exists`; returns its variable index.
    pub fn bind(&mut self, name: String) -> usize {
        self.vars.push(Existential {
            name,
            division: None,
        });
        self.visible.push(true);
        self.base + self.vars.len() - 1
    }

    /// Ends the scope of the names bound from the `from`-th variable on.
    pub fn close(&mut self, from: usize) {
        for v in &mut self.visible[from..] {
            *v = false;
        }
    }

    /// The defining constraints of the divisions, to conjoin with the domain, and the
    /// variables with names for the divisions that differ from every name in `taken` and
    /// from each other (`e0`, `e1`, ... as isl names them).
    pub fn finish(mut self, taken: &[String]) -> (Vec<Existential>, Vec<Formula>) {
        let mut used: Vec<String> = taken.to_vec();
        used.extend(self.vars.iter().map(|v| v.name.clone()));
        let mut next = 0;
        let mut defs = Vec::new();
        for (k, v) in self.vars.iter_mut().enumerate() {
            let Some((e, d)) = &v.division else {
                continue;
            };
            while used.contains(&format!("e{next}")) {
                next += 1;
            }
            v.name = format!("e{next}");
            used.push(v.name.clone());
            defs.extend(division_definition(self.base + k, e, d));
        }
        (self.vars, defs)
    }
}

/// The constraints `d*q <= e <= d*q + d - 1` that make variable `q` the division
/// `floor(e/d)` (`d > 0`).
pub(super) fn division_definition(q: usize, e: &Poly, d: &Int) -> [Formula; 2] {
    let dq = Poly::var(q).mul(&Poly::constant(d.clone()));
    let slack = Poly::constant(d.clone()).sub(&Poly::one());
    [
        Formula::Atom(Atom::compare(&dq, Rel::Le, e)),
        Formula::Atom(Atom::compare(e, Rel::Le, &dq.add(&slack))),
    ]
}

/// `f` with variable `var` replaced by `value` in every atom.
fn substitute(f: &Formula, var: usize, value: &Poly) -> Formula {
    match f {
        Formula::Atom(a) => Formula::Atom(Atom::compare(
            &a.poly.subst(var, value),
            a.rel,
            &Poly::zero(),
        )),
        Formula::And(parts) => {
            Formula::And(parts.iter().map(|p| substitute(p, var, value)).collect())
        }
        Formula::Or(parts) => {
            Formula::Or(parts.iter().map(|p| substitute(p, var, value)).collect())
        }
        Formula::Not(g) => Formula::Not(Box::new(substitute(g, var, value))),
        Formula::True | Formula::False => f.clone(),
    }
}

impl Divisions for Quantified {
    fn extremum(&mut self, args: &[Poly], max: bool) -> Result<Poly, String> {
        let k = self.vars.len();
        self.vars.push(Existential {
            name: format!("<{} {k}>", if max { "max" } else { "min" }),
            division: None,
        });
        self.visible.push(false);
        self.extrema.push((k, args.to_vec(), max));
        Ok(Poly::var(self.base + k))
    }

    fn floor(&mut self, numerator: &Poly, denominator: &Int) -> Result<Poly, String> {
        if self.has_extremum(numerator) {
            return Err("min and max inside an integer division or 'mod' are not supported: write the cases with 'or'".into());
        }
        let key = Some((numerator.clone(), denominator.clone()));
        let k = match self.vars.iter().position(|v| v.division == key) {
            Some(k) => k,
            None => {
                self.vars.push(Existential {
                    name: String::new(),
                    division: key,
                });
                self.visible.push(false);
                self.vars.len() - 1
            }
        };
        Ok(Poly::var(self.base + k))
    }
}

/// Divisions where no variable can be introduced (a context given on the command line,
/// the coordinates of a schedule entry's tuple).
pub(super) struct NoDivisions;

impl Divisions for NoDivisions {
    fn floor(&mut self, _: &Poly, _: &Int) -> Result<Poly, String> {
        Err("integer division is not supported here: only in domains, schedule constraints and time vectors, and contexts of the input file".into())
    }
}
