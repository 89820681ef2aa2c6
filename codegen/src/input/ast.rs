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

/// One piece of a schedule map, `S[i, j] -> [t0, t1, ...] : constraints` as isl writes
/// it: the times at which each point of statement `S` runs. A piece without constraints
/// whose times are expressions of the iterators is a function (one time per point); with
/// output variables (`[i, o] : 2o = i`), named outputs (`[o1 = 1]`), fixed coordinates
/// (`S[j, i = 51]`) or several pieces for one statement it is a relation, and a point runs
/// once for every time the relation gives it (none, one or several), as in isl.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleEntry {
    /// Index of the scheduled statement in [`Problem::statements`].
    pub statement: usize,
    /// The names of the entry's own tuple (`S[a, b]`), one per iterator of the statement;
    /// a fixed coordinate gets a fresh name and an equality in [`ScheduleEntry::constraint`].
    pub iterators: Vec<String>,
    /// One output variable per time position: the name written there (`o1` in
    /// `[i, o1]`), or a fresh name for a position written as an expression.
    pub outputs: Vec<String>,
    /// The time vector, outermost dimension first, over the parameters (domain order),
    /// the statement's iterators (shared indices), then the outputs (output `l` is
    /// variable `params + iterators + l`) and the entry's quantified variables; every
    /// entry of a problem has the same length.
    pub time: Vec<Poly>,
    /// The entry's constraints over the same variables (`true` for a function); the
    /// defining constraints of its divisions are part of it.
    pub constraint: Formula,
    /// Variables the entry quantifies (`exists`, integer divisions), after the outputs.
    pub existentials: Vec<Existential>,
    /// Where the entry is in the input.
    pub span: Span,
}

impl ScheduleEntry {
    /// Whether the entry gives each point exactly one time that is an expression of the
    /// parameters and the iterators alone (`S[i, j] -> [i + j, j]`).
    pub fn is_function(&self, params: usize) -> bool {
        let first_output = params + self.iterators.len();
        self.constraint == Formula::True
            && self.existentials.is_empty()
            && self
                .time
                .iter()
                .all(|t| t.vars().into_iter().all(|v| v < first_output))
    }

    /// The entry's variables: parameters, its tuple names, outputs, quantified variables.
    pub fn vars(&self, params: &[String]) -> Vars {
        let mut names = params.to_vec();
        names.extend(self.iterators.iter().cloned());
        names.extend(self.outputs.iter().cloned());
        names.extend(self.existentials.iter().map(|e| e.name.clone()));
        Vars::from_names(names)
    }
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
    /// The schedule's pieces in input order, when a schedule was given: every statement
    /// has at least one; several for one statement are a union (a piecewise schedule).
    pub schedule: Option<Vec<ScheduleEntry>>,
}

impl Problem {
    /// Whether the schedule is one function per statement (or there is none): otherwise
    /// `codegen::relation` turns its relations into iterators before generation.
    pub fn schedule_is_function(&self) -> bool {
        self.schedule.as_ref().is_none_or(|sch| {
            sch.iter().all(|e| e.is_function(self.params.len()))
                && (0..self.statements.len())
                    .all(|k| sch.iter().filter(|e| e.statement == k).count() == 1)
        })
    }

    /// The time vector of statement `k` under a schedule that is one function per
    /// statement (`None` without a schedule or for a relation).
    pub fn time_of(&self, k: usize) -> Option<&[Poly]> {
        let sch = self.schedule.as_ref()?;
        let mut entries = sch.iter().filter(|e| e.statement == k);
        let e = entries.next()?;
        (entries.next().is_none() && e.is_function(self.params.len())).then_some(e.time.as_slice())
    }

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
