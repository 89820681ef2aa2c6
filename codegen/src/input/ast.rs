//! The parsed input: parameters, statements with their domains, the parameter context and
//! an optional schedule, all over one shared variable list.

use cad::formula::Formula;
use polys::{Int, Poly, Vars};

/// A byte range of the input, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset just past the last character.
    pub end: usize,
}

/// One statement `NAME[i, j] : formula`.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// The statement's name (`S` in `S[i, j]`), also the macro the emitted code calls.
    pub name: String,
    /// The statement's own iterator names; iterator `k` is variable `params + k` of
    /// [`Problem::vars`].
    pub iterators: Vec<String>,
    /// The domain over parameters, iterators (shared variable indices) and then the
    /// statement's quantified variables: quantified variable `k` is variable
    /// `params + iterators.len() + k` of the domain.
    pub domain: Formula,
    /// Variables the domain quantifies existentially (`exists` and integer divisions).
    pub existentials: Vec<Existential>,
    /// Where the statement (name, iterators and domain) is in the input.
    pub span: Span,
}

/// A variable of a statement's domain that is not an iterator: bound by `exists`, or
/// standing for an integer division of the input (`floor(e/d)`, `e mod d`, ...), whose
/// defining constraints `d*q <= e <= d*q + d - 1` are part of the domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Existential {
    /// The name in the input, or a fresh one (`e0`, ...) for a division.
    pub name: String,
    /// `Some((e, d))` when the variable is `floor(e/d)` (`e` over the variables before
    /// it); `None` for a variable bound by `exists`.
    pub division: Option<(Poly, Int)>,
}

impl Statement {
    /// The statement's domain variables: the problem's parameters, its iterators, its
    /// quantified variables.
    pub fn domain_vars(&self, params: &[String]) -> Vars {
        let mut names = params.to_vec();
        names.extend(self.iterators.iter().cloned());
        names.extend(self.existentials.iter().map(|e| e.name.clone()));
        Vars::from_names(names)
    }
}

/// An affine schedule of one statement: the time vector as polynomials over the
/// parameters and the statement's iterators (shared variable indices).
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleEntry {
    /// Index of the scheduled statement in [`Problem::statements`].
    pub statement: usize,
    /// The time vector, outermost dimension first; all entries have the same length.
    pub time: Vec<Poly>,
    /// Where the entry is in the input.
    pub span: Span,
}

/// A whole input file.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// Parameter names, outermost first.
    pub params: Vec<String>,
    /// The statements, in file order.
    pub statements: Vec<Statement>,
    /// Constraints on the parameters (`true` when none were given).
    pub context: Formula,
    /// One entry per statement, in statement order, when a schedule was given.
    pub schedule: Option<Vec<ScheduleEntry>>,
}

impl Problem {
    /// Number of iterator positions (the longest statement).
    pub fn depth(&self) -> usize {
        self.statements
            .iter()
            .map(|s| s.iterators.len())
            .max()
            .unwrap_or(0)
    }

    /// Parameters, then iterator positions named after the first statement that has
    /// them: the variable list every formula of the problem is written over.
    pub fn vars(&self) -> Vars {
        let mut names = self.params.clone();
        for k in 0..self.depth() {
            let name = self
                .statements
                .iter()
                .find_map(|s| s.iterators.get(k).cloned())
                .expect("depth counts positions some statement has");
            names.push(name);
        }
        Vars::from_names(names)
    }
}
