//! The loop AST: loops over iterators, guards on parameters, tests of polynomial
//! conditions, statement instances.

use crate::cond::Cond;
use crate::expr::Expr;
use polys::{Coeff, Poly};

/// A node of generated code. Variables are indices into the problem's variable list
/// (parameters first, then iterator positions).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// `for (var = lower; var <= upper; var += step) body`.
    Loop {
        /// The iterator's variable index.
        var: usize,
        /// Inclusive lower bound, an exact integer expression in outer variables; for a
        /// strided loop its first value ([`Expr::Aligned`]).
        lower: Expr,
        /// Inclusive upper bound, an exact integer expression in outer variables.
        upper: Expr,
        /// The increment: 1, or the stride of a loop over one residue class (see
        /// `stride`), which only the last pass creates.
        step: i64,
        /// The nodes executed for each value of `var`, in order.
        body: Vec<Node>,
    },
    /// `if (lower <= var && var <= upper) body` on a parameter; a missing side is
    /// unbounded.
    Guard {
        /// The guarded parameter's variable index.
        var: usize,
        /// Inclusive lower bound on `var`, or `None` for no lower bound.
        lower: Option<Expr>,
        /// Inclusive upper bound on `var`, or `None` for no upper bound.
        upper: Option<Expr>,
        /// The nodes executed when the guard holds.
        body: Vec<Node>,
    },
    /// `if (cond) body`: constraints no loop bound enforces, as the input states them
    /// (the guarded scan's polynomial constraints, see `guarded`).
    Test {
        /// The condition, over the enclosing loops' variables and the parameters.
        cond: Cond,
        /// The nodes executed when the condition holds.
        body: Vec<Node>,
    },
    /// An instance of statement `stmt`; `args` are its iterator values, in the
    /// statement's own order.
    Stmt {
        /// Index of the statement in the problem's statement list.
        stmt: usize,
        /// The statement's arguments, in its own order: its iterator values (with
        /// tiling, the original coordinates it receives).
        args: Vec<Expr>,
    },
}

impl Node {
    /// The node with the body of a loop or guard replaced by `f(body)` (statements are
    /// returned unchanged): the recursion step of every AST pass.
    pub fn map_body(self, f: impl FnOnce(Vec<Node>) -> Vec<Node>) -> Node {
        match self {
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => Node::Loop {
                var,
                lower,
                upper,
                step,
                body: f(body),
            },
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => Node::Guard {
                var,
                lower,
                upper,
                body: f(body),
            },
            Node::Test { cond, body } => Node::Test {
                cond,
                body: f(body),
            },
            s @ Node::Stmt { .. } => s,
        }
    }

    /// For a guard whose body is a single guard, and so on down: each guard's variable
    /// and sides, outermost first, and the innermost body. The printers write such a
    /// chain as one `if` joined by `&&`, as a person writes it and isl prints it
    /// (`if (a >= 0 && a <= 2 && b >= 2)`); `None` for a loop or a statement.
    #[allow(clippy::type_complexity)]
    pub fn guard_chain(&self) -> Option<(Vec<(usize, &Option<Expr>, &Option<Expr>)>, &[Node])> {
        let mut chain = Vec::new();
        let mut n = self;
        while let Node::Guard {
            var,
            lower,
            upper,
            body,
        } = n
        {
            chain.push((*var, lower, upper));
            match body.as_slice() {
                [inner @ Node::Guard { .. }] => n = inner,
                _ => return Some((chain, body)),
            }
        }
        None
    }

    /// The node with every expression replaced by `expr` of it and every loop or guard
    /// variable by `var` of it, or `None` where either gives none: renaming and
    /// substitutions that may fail.
    pub fn try_map(
        &self,
        expr: &impl Fn(&Expr) -> Option<Expr>,
        var: &impl Fn(usize) -> Option<usize>,
    ) -> Option<Node> {
        let body =
            |b: &[Node]| -> Option<Vec<Node>> { b.iter().map(|n| n.try_map(expr, var)).collect() };
        Some(match self {
            Node::Stmt { stmt, args } => Node::Stmt {
                stmt: *stmt,
                args: args.iter().map(expr).collect::<Option<_>>()?,
            },
            Node::Loop {
                var: v,
                lower,
                upper,
                step,
                body: b,
            } => Node::Loop {
                var: var(*v)?,
                lower: expr(lower)?,
                upper: expr(upper)?,
                step: *step,
                body: body(b)?,
            },
            Node::Guard {
                var: v,
                lower,
                upper,
                body: b,
            } => Node::Guard {
                var: var(*v)?,
                lower: match lower {
                    Some(e) => Some(expr(e)?),
                    None => None,
                },
                upper: match upper {
                    Some(e) => Some(expr(e)?),
                    None => None,
                },
                body: body(b)?,
            },
            Node::Test { cond, body: b } => Node::Test {
                cond: cond.try_map(expr)?,
                body: body(b)?,
            },
        })
    }

    /// The node with variable `var` replaced by `value` in every bound and argument.
    pub fn subst(&self, var: usize, value: &Poly) -> Node {
        self.try_map(&|e: &Expr| Some(e.subst(var, value)), &Some)
            // Both maps give a value for everything, so the mapping cannot fail.
            .unwrap_or_else(|| unreachable!("total maps"))
    }
}

/// How a node of a list is printed after the node before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// On its own.
    Alone,
    /// `else if`: a guard that excludes every guard of the `if`/`else if` chain before it,
    /// so that `else` changes nothing (`if (m <= 1) ... else if (m >= 2 && m <= n - 1)`).
    ElseIf,
    /// `else`: a guard that is exactly the negation of the single guard before it
    /// (`if (m >= n) ... else ...` for `m <= n - 1`).
    Else,
}

/// The [`Branch`] of each node of a list, decided on the bounds' text alone (a
/// difference of two polynomial bounds that is a constant): a guard joins the chain
/// before it only where that proves the two exclusive, whatever the variables' values.
pub fn branches(nodes: &[Node]) -> Vec<Branch> {
    type Side<'a> = (usize, &'a Option<Expr>, &'a Option<Expr>);
    // `u < l` everywhere: `l - u` a positive constant, through a min of uppers or a max of
    // lowers (one part is enough).
    fn less(u: &Expr, l: &Expr) -> bool {
        match (u, l) {
            (Expr::Min(parts), _) => parts.iter().any(|p| less(p, l)),
            (_, Expr::Max(parts)) => parts.iter().any(|p| less(u, p)),
            (Expr::Poly(u), Expr::Poly(l)) => {
                l.sub(u).constant_value().is_some_and(|d| d.signum() > 0)
            }
            _ => false,
        }
    }
    fn disjoint(a: &Side, b: &Side) -> bool {
        let apart = |u: &Option<Expr>, l: &Option<Expr>| match (u, l) {
            (Some(u), Some(l)) => less(u, l),
            _ => false,
        };
        a.0 == b.0 && (apart(a.2, b.1) || apart(b.2, a.1))
    }
    fn complement(a: &[Side], b: &[Side]) -> bool {
        let ([(va, la, ua)], [(vb, lb, ub)]) = (a, b) else {
            return false;
        };
        let next = |u: &Expr, l: &Expr| match (u, l) {
            (Expr::Poly(u), Expr::Poly(l)) => l.sub(u) == Poly::one(),
            _ => false,
        };
        va == vb
            && match (la, ua, lb, ub) {
                (None, Some(u), Some(l), None) | (Some(l), None, None, Some(u)) => next(u, l),
                _ => false,
            }
    }
    let mut out = Vec::with_capacity(nodes.len());
    let mut chain: Vec<Vec<Side>> = Vec::new();
    for n in nodes {
        let Some((sides, _)) = n.guard_chain() else {
            out.push(Branch::Alone);
            chain.clear();
            continue;
        };
        let exclusive = !chain.is_empty()
            && chain
                .iter()
                .all(|g| g.iter().any(|a| sides.iter().any(|b| disjoint(a, b))));
        if chain.len() == 1 && complement(&chain[0], &sides) {
            out.push(Branch::Else);
            chain.clear();
        } else if exclusive {
            out.push(Branch::ElseIf);
            chain.push(sides);
        } else {
            out.push(Branch::Alone);
            chain = vec![sides];
        }
    }
    out
}

/// Counts of what a program contains, for comparisons with isl.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Number of [`Node::Loop`]s.
    pub loops: usize,
    /// Number of [`Node::Guard`]s.
    pub guards: usize,
    /// Number of [`Node::Test`]s.
    pub tests: usize,
    /// Number of [`Node::Stmt`]s (statement occurrences in the text, not instances
    /// executed).
    pub statements: usize,
}

/// The shape of a list of nodes.
pub fn shape(nodes: &[Node]) -> Shape {
    let mut s = Shape::default();
    fn walk(nodes: &[Node], s: &mut Shape) {
        for n in nodes {
            match n {
                Node::Loop { body, .. } => {
                    s.loops += 1;
                    walk(body, s);
                }
                Node::Guard { body, .. } => {
                    s.guards += 1;
                    walk(body, s);
                }
                Node::Test { body, .. } => {
                    s.tests += 1;
                    walk(body, s);
                }
                Node::Stmt { .. } => s.statements += 1,
            }
        }
    }
    walk(nodes, &mut s);
    s
}
