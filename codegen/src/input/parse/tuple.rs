//! A statement's tuple as isl writes and prints it: iterator names, positions given as
//! values (`S[i, 0]`, `S[i, i + 1]`) and named values (`S[i, j = 1 + i]`, `S[i = 0]`).
//! A valued position is an iterator of its own, pinned by an equality in the domain, as
//! isl reads it.

use super::Parser;
use crate::input::error::InputError;
use cad::formula::{Atom, Formula, Rel};
use polys::{Poly, Vars};

/// A statement tuple read: each position's name and offset, and the equalities pinning
/// the valued positions.
type Tuple = (Vec<(String, usize)>, Vec<Formula>);

/// A placeholder for a name chosen at the end of an entry (a position written as a value,
/// an output); it cannot be written in the input. [`fresh_names`] replaces it.
pub(super) fn placeholder(kind: &str, k: usize) -> String {
    format!("<{kind} {k}>")
}

/// The provisional name of an unnamed tuple (isl's `[i] : ...`) with `len` positions;
/// [`name_anonymous`] gives the final one.
pub(super) fn anonymous(len: usize) -> String {
    placeholder("unnamed tuple with positions:", len)
}

/// The names of the unnamed tuples: every number of positions that a statement of the
/// domain writes without a name is one statement (isl's space without a tuple name),
/// named `S0`, `S1`, ... in order of first appearance, skipping the names in `taken`
/// (the named statements). Returns the provisional names with their final ones.
pub(super) fn anonymous_names<'n>(
    provisional: impl Iterator<Item = &'n String>,
    taken: &[&String],
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut next = 0;
    for p in provisional {
        if out.iter().any(|(q, _)| q == p) {
            continue;
        }
        while taken.iter().any(|t| **t == format!("S{next}")) {
            next += 1;
        }
        out.push((p.clone(), format!("S{next}")));
        next += 1;
    }
    out
}

impl Parser<'_> {
    /// The tuple after `NAME [`, up to and including its `]`: each position's name and
    /// where it is (a placeholder for a position written as a value), and the equalities
    /// that pin the valued positions, over the parameters `params` and then the positions.
    /// A value may use the parameters and the positions before it. A bare name is an
    /// iterator, and one named like a parameter is refused (isl would read it as that
    /// parameter's value, which is rarely what the writer meant).
    pub(super) fn statement_tuple(&mut self, params: &[String]) -> Result<Tuple, InputError> {
        let np = params.len();
        let mut names: Vec<String> = params.to_vec();
        let mut positions: Vec<(String, usize)> = Vec::new();
        let mut pins = Vec::new();
        self.ws();
        if self.eat("]") {
            return Ok((positions, pins));
        }
        loop {
            self.ws();
            let k = positions.len();
            let at = self.pos;
            let mut named = None;
            let mut value = None;
            if self
                .peek_char()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
            {
                let (name, name_at) = self.ident("an iterator name")?;
                self.ws();
                let rest = self.rest();
                // A name not known yet cannot start a value: it is an iterator, and
                // whatever follows it other than `,` `]` `=` is reported as such.
                let declares = rest.starts_with(',')
                    || rest.starts_with(']')
                    || (!names.contains(&name) && !rest.starts_with('='));
                if declares {
                    if params.contains(&name) {
                        return Err(self.error_at(
                            name_at,
                            format!("iterator '{name}' has the name of a parameter"),
                        ));
                    }
                    named = Some((name, name_at));
                } else if rest.starts_with('=') && !rest.starts_with("==") {
                    if names.contains(&name) {
                        return Err(self.error_at(
                            name_at,
                            format!("'{name}' is already a parameter or an iterator here"),
                        ));
                    }
                    self.pos += 1;
                    value = Some(self.poly(&Vars::from_names(names.clone()))?);
                    named = Some((name, name_at));
                } else {
                    // A value that starts with a name (`i + 1`): read it whole below.
                    self.pos = at;
                }
            } else if self.rest().starts_with(']') || self.rest().starts_with(',') {
                return Err(self.expected("an iterator name"));
            }
            let (name, name_at) = match named {
                Some(n) => n,
                None => {
                    value = Some(self.poly(&Vars::from_names(names.clone()))?);
                    (placeholder("position", k), at)
                }
            };
            if let Some(v) = value {
                pins.push(Formula::Atom(Atom::compare(
                    &Poly::var(np + k),
                    Rel::Eq,
                    &v,
                )));
            }
            names.push(name.clone());
            positions.push((name, name_at));
            if !self.eat(",") {
                break;
            }
        }
        self.expect("]", "',' or ']' after the iterators")?;
        Ok((positions, pins))
    }
}

/// Replaces the placeholders in `names` by `<stem><k>` (`k` the position in `names`), with
/// `_` appended until distinct from every name in `taken` and in `names`.
pub(super) fn fresh_names(names: &mut [String], taken: &[String], stem: &str) {
    let mut used: Vec<String> = taken.to_vec();
    used.extend(names.iter().cloned());
    for (k, n) in names.iter_mut().enumerate() {
        if n.starts_with('<') {
            let mut fresh = format!("{stem}{k}");
            while used.contains(&fresh) {
                fresh.push('_');
            }
            used.push(fresh.clone());
            *n = fresh;
        }
    }
}
