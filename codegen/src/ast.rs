//! The loop AST: loops over iterators, guards on parameters, statement instances.

use crate::expr::Expr;
use polys::Poly;

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

    /// The node with variable `var` replaced by `value` in every bound and argument.
    pub fn subst(&self, var: usize, value: &Poly) -> Node {
        let body = |b: &[Node]| b.iter().map(|m| m.subst(var, value)).collect();
        match self {
            Node::Stmt { stmt, args } => Node::Stmt {
                stmt: *stmt,
                args: args.iter().map(|a| a.subst(var, value)).collect(),
            },
            Node::Loop {
                var: v,
                lower,
                upper,
                step,
                body: b,
            } => Node::Loop {
                var: *v,
                lower: lower.subst(var, value),
                upper: upper.subst(var, value),
                step: *step,
                body: body(b),
            },
            Node::Guard {
                var: v,
                lower,
                upper,
                body: b,
            } => Node::Guard {
                var: *v,
                lower: lower.as_ref().map(|e| e.subst(var, value)),
                upper: upper.as_ref().map(|e| e.subst(var, value)),
                body: body(b),
            },
        }
    }
}

/// Counts of what a program contains, for comparisons with isl.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Number of [`Node::Loop`]s.
    pub loops: usize,
    /// Number of [`Node::Guard`]s.
    pub guards: usize,
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
                Node::Stmt { .. } => s.statements += 1,
            }
        }
    }
    walk(nodes, &mut s);
    s
}
