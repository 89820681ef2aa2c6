//! The variables a statement's domain quantifies: names bound by `exists` and the integer
//! divisions `floor(e/d)` of its terms (isl's existentially quantified variables and
//! divs), each a new variable after the statement's iterators.
//!
//! A division is a function of the variables in its numerator, so the variable standing
//! for it exists exactly once wherever the division is written: its defining constraints
//! `d*q <= e <= d*q + d - 1` are conjoined with the whole domain, whatever connective the
//! division sits under.

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
}

impl Quantified {
    /// No quantified variable yet, after `base` parameters and iterators.
    pub fn new(base: usize) -> Quantified {
        Quantified {
            base,
            vars: Vec::new(),
            visible: Vec::new(),
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

impl Divisions for Quantified {
    fn floor(&mut self, numerator: &Poly, denominator: &Int) -> Result<Poly, String> {
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
