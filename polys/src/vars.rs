//! [`Vars`]: the ordered list of variable names that gives polynomial indices their meaning.

/// Variable names; `x_i` of a [`crate::Poly`] is `names()[i]`.
///
/// A list is either open (the parser appends unknown names, in order of first appearance)
/// or closed (unknown names are errors).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    names: Vec<String>,
    closed: bool,
}

impl Vars {
    /// An empty, open list.
    pub fn new() -> Vars {
        Vars::default()
    }

    /// A closed list of the given names.
    pub fn from_names<I, S>(names: I) -> Vars
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Vars {
            names: names.into_iter().map(Into::into).collect(),
            closed: true,
        }
    }

    /// Whether unknown names are rejected.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Lets the parser add unknown names again.
    pub fn open(mut self) -> Vars {
        self.closed = false;
        self
    }

    /// All names, in index order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the list has no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Index of `name`, if it is in the list (never adds it; see [`Vars::intern`]).
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Name of `x_i`; indices beyond the list print as `x<i>`.
    pub fn name(&self, i: usize) -> String {
        self.names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("x{i}"))
    }

    /// Index of `name`, appending it when the list is open.
    pub fn intern(&mut self, name: &str) -> Option<usize> {
        if let Some(i) = self.index(name) {
            return Some(i);
        }
        if self.closed {
            return None;
        }
        self.names.push(name.to_string());
        Some(self.names.len() - 1)
    }
}
