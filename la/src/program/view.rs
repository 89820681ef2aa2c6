//! Views: how a canonical operand reads a stored (column-major) matrix, composed of
//! transposes and index reversals.

use super::dim::Dim;

#[derive(Debug, Clone)]
pub(super) enum View {
    Base {
        ptr: String,
        ld: Dim,
    },
    T(Box<View>),
    /// Index reversal: `rows`/`cols` is the extent reversed, if that index is.
    Rev {
        inner: Box<View>,
        rows: Option<Dim>,
        cols: Option<Dim>,
    },
}

#[derive(Debug, Clone)]
pub(super) struct V {
    pub(super) view: View,
    pub(super) rows: Dim,
    pub(super) cols: Dim,
}

impl View {
    pub(super) fn at(&self, r: &str, c: &str) -> String {
        match self {
            View::Base { ptr, ld } => {
                if *ld == 1 {
                    format!("{ptr}[({r}) + ({c})]")
                } else {
                    format!("{ptr}[({r}) + ({c}) * {ld}]")
                }
            }
            View::T(inner) => inner.at(c, r),
            View::Rev { inner, rows, cols } => {
                let r2 = match rows {
                    Some(n) => format!("{} - ({r})", n - 1),
                    None => r.to_string(),
                };
                let c2 = match cols {
                    Some(n) => format!("{} - ({c})", n - 1),
                    None => c.to_string(),
                };
                inner.at(&r2, &c2)
            }
        }
    }
}

impl V {
    pub(super) fn at(&self, r: &str, c: &str) -> String {
        self.view.at(r, c)
    }
    pub(super) fn t(&self) -> V {
        let view = match &self.view {
            View::T(inner) => (**inner).clone(),
            v => View::T(Box::new(v.clone())),
        };
        V {
            view,
            rows: self.cols.clone(),
            cols: self.rows.clone(),
        }
    }
    pub(super) fn rev(&self, rows: bool, cols: bool) -> V {
        V {
            view: View::Rev {
                inner: Box::new(self.view.clone()),
                rows: rows.then(|| self.rows.clone()),
                cols: cols.then(|| self.cols.clone()),
            },
            rows: self.rows.clone(),
            cols: self.cols.clone(),
        }
    }
    /// `(pointer, leading dimension, transposed)` when the view reads stored data directly.
    pub(super) fn plain(&self) -> Option<(String, Dim, bool)> {
        match &self.view {
            View::Base { ptr, ld } => Some((ptr.clone(), ld.clone(), false)),
            View::T(inner) => match &**inner {
                View::Base { ptr, ld } => Some((ptr.clone(), ld.clone(), true)),
                _ => None,
            },
            View::Rev { .. } => None,
        }
    }
    /// Element `e` of a column (the forms always pass vectors as n x 1 views).
    pub(super) fn el(&self, e: &str) -> String {
        if self.cols == 1 {
            self.at(e, "0")
        } else {
            self.at("0", e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_compose_transposes_and_reversals() {
        let v = V {
            view: View::Base {
                ptr: "a".into(),
                ld: Dim::lit(5),
            },
            rows: Dim::lit(5),
            cols: Dim::lit(3),
        };
        assert_eq!(v.t().at("r", "c"), "a[(c) + (r) * 5]");
        assert!(v.t().t().plain().is_some_and(|(_, _, t)| !t));
        assert_eq!(v.rev(true, false).at("r", "c"), "a[(4 - (r)) + (c) * 5]");
    }
}
