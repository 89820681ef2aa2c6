//! Schedule entries as isl writes maps: `S[a, b = 3, 28] -> [a, o1, o2 = a - o1] : 2o1 = a`,
//! with fixed coordinates in the tuple, output variables, named outputs, a constraint and
//! its quantified variables; and the assembly of the entries into the problem's schedule.

use super::tuple::{fresh_names, placeholder};
use super::{param_map, Entry, Item, Parser};
use crate::input::ast::{ScheduleEntry, Span, Statement};
use crate::input::error::InputError;
use crate::input::quantifiers::Quantified;
use cad::formula::{Atom, Formula, Rel};
use polys::{Poly, Vars};

impl Parser<'_> {
    /// Whether the `[...]` tuple starting at the current position (just after its `[`) is
    /// followed by `->`: the entry is then a schedule entry.
    pub(super) fn tuple_is_map(&self) -> bool {
        let mut depth = 0usize;
        for (i, c) in self.rest().char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ']' if depth == 0 => {
                    return self.rest()[i + 1..].trim_start().starts_with("->");
                }
                ']' => depth -= 1,
                _ => {}
            }
        }
        false
    }

    /// Number of comma-separated items before the `]` closing the current tuple.
    pub(super) fn tuple_len(&self) -> usize {
        let (mut depth, mut commas) = (0usize, 0);
        for c in self.rest().chars() {
            match c {
                '(' | '[' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ']' if depth == 0 => break,
                ']' => depth -= 1,
                ',' if depth == 0 => commas += 1,
                _ => {}
            }
        }
        if self.rest().trim_start().starts_with(']') {
            0
        } else {
            commas + 1
        }
    }

    /// A name not in `known` followed by `,`, `]` or `=` (a declaration), consumed; the
    /// position is left unchanged otherwise.
    fn declared_name(&mut self, known: &[String]) -> Option<(String, usize)> {
        let save = self.pos;
        if let Ok((name, at)) = self.ident("a name") {
            self.ws();
            let rest = self.rest();
            let declares = rest.starts_with(',')
                || rest.starts_with(']')
                || (rest.starts_with('=') && !rest.starts_with("=="));
            if declares && !known.contains(&name) {
                return Some((name, at));
            }
        }
        self.pos = save;
        None
    }

    /// The rest of a schedule entry after `NAME [`: its tuple, `->`, the time vector and
    /// an optional constraint. Variable indices are over the schedule's own parameters.
    pub(super) fn schedule_entry(
        &mut self,
        params: &[String],
        name: String,
        name_at: usize,
        start: usize,
    ) -> Result<Entry, InputError> {
        let np = params.len();
        let mut names: Vec<String> = params.to_vec();
        let mut parts: Vec<Formula> = Vec::new();
        // The tuple: names, `name = value` and values (fixed coordinates).
        let len = self.tuple_len();
        for k in 0..len {
            if k > 0 {
                self.expect(",", "',' or ']' after a coordinate")?;
            }
            let value = match self.declared_name(&names) {
                Some((n, _)) => {
                    names.push(n);
                    if self.eat("=") {
                        Some(self.poly(&Vars::from_names(names.clone()))?)
                    } else {
                        None
                    }
                }
                None => {
                    let v = self.poly(&Vars::from_names(names.clone()))?;
                    names.push(placeholder("fixed", k));
                    Some(v)
                }
            };
            if let Some(v) = value {
                parts.push(Formula::Atom(Atom::compare(
                    &Poly::var(np + k),
                    Rel::Eq,
                    &v,
                )));
            }
        }
        self.expect("]", "',' or ']' after the coordinates")?;
        self.expect("->", "'->' after the statement's coordinates")?;
        self.expect("[", "'[' to start the schedule's time vector")?;
        // The time vector: output variables, `name = value` and expressions, with the
        // entry's divisions after its outputs.
        let outs = self.tuple_len();
        let first_output = np + len;
        names.extend((0..outs).map(|l| placeholder("output", l)));
        self.quantified = Some(Quantified::new(names.len()));
        let read = self.time_and_constraint(&mut names, first_output, outs, &mut parts);
        // Invariant: set just above, and only this function takes it.
        let quantified = self.quantified.take().expect("set for this entry");
        let (time, constraint) = read?;
        parts.push(constraint);
        let (existentials, definitions) = quantified.finish(&names);
        parts.extend(definitions);
        // Names for the positions written as values, distinct from every other name.
        let mut taken: Vec<String> = names.clone();
        taken.extend(existentials.iter().map(|e| e.name.clone()));
        fresh_names(&mut names[np..first_output], &taken, "x");
        taken.extend(names[np..first_output].iter().cloned());
        fresh_names(&mut names[first_output..], &taken, "o");
        Ok(Entry::Schedule {
            name,
            name_at,
            entry: ScheduleEntry {
                statement: usize::MAX,
                iterators: names[np..first_output].to_vec(),
                outputs: names[first_output..].to_vec(),
                time,
                constraint: Formula::and(parts),
                existentials,
                span: Span {
                    start,
                    end: self.pos,
                },
            },
        })
    }

    /// The time vector up to its `]` and the optional `: constraint`; declares the output
    /// names in `names` as they are read and pushes their definitions to `parts`.
    fn time_and_constraint(
        &mut self,
        names: &mut [String],
        first_output: usize,
        outs: usize,
        parts: &mut Vec<Formula>,
    ) -> Result<(Vec<Poly>, Formula), InputError> {
        let mut time = Vec::with_capacity(outs);
        for l in 0..outs {
            if l > 0 {
                self.expect(",", "',' or ']' in the time vector")?;
            }
            let v = first_output + l;
            let known: Vec<String> = names[..v].to_vec();
            if let Some((n, _)) = self.declared_name(&known) {
                names[v] = n;
                if self.eat("=") {
                    let scope = self.quantified_scope(&Vars::from_names(names.to_vec()));
                    let value = self.poly(&scope)?;
                    parts.push(Formula::Atom(Atom::compare(&Poly::var(v), Rel::Eq, &value)));
                }
                time.push(Poly::var(v));
            } else {
                let scope = self.quantified_scope(&Vars::from_names(names.to_vec()));
                time.push(self.poly(&scope)?);
            }
        }
        self.expect("]", "',' or ']' in the time vector")?;
        let constraint = if self.eat(":") {
            let scope = self.quantified_scope(&Vars::from_names(names.to_vec()));
            self.formula(&scope)?
        } else {
            Formula::True
        };
        Ok((time, constraint))
    }
}

/// The schedule's entries, re-indexed from the schedule's parameter list to the domain's,
/// each pointing to its statement; every statement needs at least one.
pub(super) fn schedule_entries(
    p: &Parser,
    sch: Item,
    params: &[String],
    statements: &[Statement],
) -> Result<Vec<ScheduleEntry>, InputError> {
    super::check_param_subset(p, &sch, params)?;
    let pmap = param_map(&sch, params);
    let mut out: Vec<ScheduleEntry> = Vec::new();
    let mut len = None;
    for e in sch.entries {
        let Entry::Schedule {
            name,
            name_at,
            mut entry,
        } = e
        else {
            unreachable!("classified as schedule")
        };
        let Some(k) = statements.iter().position(|s| s.name == name) else {
            return Err(p.error_at(
                name_at,
                format!("unknown statement '{name}' in the schedule"),
            ));
        };
        let arity = statements[k].iterators.len();
        if entry.iterators.len() != arity {
            return Err(p.error_at(
                name_at,
                format!(
                    "the schedule gives '{name}' {} coordinates but the statement has {arity} iterators",
                    entry.iterators.len()
                ),
            ));
        }
        if *len.get_or_insert(entry.time.len()) != entry.time.len() {
            return Err(p.error_at(entry.span.start, "time vectors of different lengths"));
        }
        // Parsed over (schedule params, tuple, outputs, quantified): the domain's
        // parameters come first instead.
        let own = entry.iterators.len() + entry.outputs.len() + entry.existentials.len();
        let mut map = pmap.clone();
        map.extend((0..own).map(|i| params.len() + i));
        entry.statement = k;
        entry.time = entry.time.iter().map(|t| t.rename(&map)).collect();
        entry.constraint = entry.constraint.rename(&map);
        for q in &mut entry.existentials {
            if let Some((num, _)) = &mut q.division {
                *num = num.rename(&map);
            }
        }
        out.push(entry);
    }
    if let Some(s) = statements
        .iter()
        .enumerate()
        .find(|(k, _)| out.iter().all(|e| e.statement != *k))
    {
        return Err(p.error_at(
            sch.start,
            format!("the schedule has no entry for statement '{}'", s.1.name),
        ));
    }
    Ok(out)
}
