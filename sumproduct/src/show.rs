//! Plans in index notation, for reports and tests: `sum_{i1} X(i0,i1) * v(i1)`.

use egg::{Id, RecExpr};

use crate::relation::Rel;

/// `plan` in index notation.
pub fn show(plan: &RecExpr<Rel>) -> String {
    let root = Id::from(plan.as_ref().len().saturating_sub(1));
    node(plan, root)
}

fn node(p: &RecExpr<Rel>, id: Id) -> String {
    let go = |c: Id| node(p, c);
    match &p[id] {
        Rel::Name(s) => s.to_string(),
        Rel::Num(c) => c.to_string(),
        Rel::Dim(i) => format!("|{}|", go(*i)),
        Rel::Matrix([x, i, j]) => format!("{}({},{})", go(*x), go(*i), go(*j)),
        Rel::Vector([x, i]) => format!("{}({})", go(*x), go(*i)),
        Rel::Scalar(x) => go(*x),
        Rel::Join([a, b]) => format!("{} * {}", factor(p, *a), factor(p, *b)),
        Rel::Union([a, b]) => format!("{} + {}", go(*a), go(*b)),
        Rel::Agg([i, x]) => format!("sum_{}({})", go(*i), go(*x)),
        Rel::Apply([f, x]) => format!("{}({})", go(*f), go(*x)),
    }
}

/// A join's factor, parenthesised if it is a union.
fn factor(p: &RecExpr<Rel>, id: Id) -> String {
    match &p[id] {
        Rel::Union(_) => format!("({})", node(p, id)),
        _ => node(p, id),
    }
}
