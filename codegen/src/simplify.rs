//! Clean-ups on the loop AST after lowering: guards on parameters that the loops inside
//! already enforce are dropped (isl prints `for (i = 0; i < n; i++)`, not
//! `if (n >= 1) for ...`), and loops that run exactly once with a polynomial value are
//! replaced by substituting that value (schedule dimensions, equalities).

use crate::ast::Node;
use crate::expr::Expr;
use polys::{Coeff, Int, Poly};

/// Removes redundant guard sides throughout `nodes`.
pub fn drop_redundant_guards(nodes: Vec<Node>) -> Vec<Node> {
    // Below a constant lower bound L, i.e. for var <= L - 1.
    drop_guard_sides(nodes, &|var, e, side, body| {
        side_redundant(body, var, e, side)
    })
}

/// Removes guard sides on parameters that the context constraints `q >= 0` (a
/// conjunction) already imply: `if (a >= 1)` under `a >= 1`, `if (R >= r)` under
/// `1 <= r <= R`. A side `g >= 0` (`g` is `var - lower` or `upper - var`) is implied when
/// `g` or `g - q` for one constraint `q` is non-negative by the bounds the context gives.
pub fn drop_promised_guards(nodes: Vec<Node>, context: &[Poly], nparams: usize) -> Vec<Node> {
    let facts = crate::signs::Facts::new(context, nparams);
    let implied = |g: &Poly| facts.nonneg(g) || context.iter().any(|q| facts.nonneg(&g.sub(q)));
    drop_guard_sides(nodes, &|var, e, side, _| {
        let Expr::Poly(e) = e else { return false };
        let v = Poly::var(var);
        implied(&match side {
            Side::Below => v.sub(e),
            Side::Above => e.sub(&v),
        })
    })
}

/// Guards throughout `nodes`, innermost first, without the sides for which
/// `drop(var, bound, side, body)` holds; a guard left without sides becomes its body.
fn drop_guard_sides(
    nodes: Vec<Node>,
    drop: &impl Fn(usize, &Expr, Side, &[Node]) -> bool,
) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        match n {
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => {
                let body = drop_guard_sides(body, drop);
                let lower = lower.filter(|l| !drop(var, l, Side::Below, &body));
                let upper = upper.filter(|u| !drop(var, u, Side::Above, &body));
                if lower.is_none() && upper.is_none() {
                    out.extend(body);
                } else {
                    out.push(Node::Guard {
                        var,
                        lower,
                        upper,
                        body,
                    });
                }
            }
            other => out.push(other.map_body(|b| drop_guard_sides(b, drop))),
        }
    }
    out
}

/// Replaces `for (x = e; x <= e; x++) body` (same polynomial bound on both sides) by
/// `body` with `x := e`.
pub fn inline_single_iterations(nodes: Vec<Node>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        match n {
            Node::Loop {
                var,
                lower: Expr::Poly(l),
                upper: Expr::Poly(u),
                body,
                ..
            } if l == u => {
                let body = body.iter().map(|b| b.subst(var, &l)).collect();
                out.extend(inline_single_iterations(body));
            }
            other => out.push(other.map_body(inline_single_iterations)),
        }
    }
    out
}

/// Guards raised out of the loops they do not depend on and merged with equal neighbours,
/// innermost first: `for (c1 ...) if (M == 1) S(c1);` is `if (M == 1) for (c1 ...) S(c1);`
/// (the guard reads only variables set outside the loop, so it has the same truth value in
/// every iteration), and adjacent guards with the same condition become one (`if (N == 0)
/// C(); if (N == 0) A();` is `if (N == 0) { C(); A(); }`: the first body changes nothing
/// the second guard reads, and the order is kept). isl prints a condition that every
/// statement shares once, around the code (cloog's swim: `if (M == 1)` around 125
/// statements).
pub fn merge_equal_guards(nodes: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    for n in nodes {
        push_merged(&mut out, lift_guard(n.map_body(merge_equal_guards)));
    }
    out
}

/// Appends `n` (already merged inside) to `out`, into the last node when both are guards
/// with the same condition; the nodes of its body then meet the end of that body the
/// same way, so nothing merged before is visited again.
fn push_merged(out: &mut Vec<Node>, n: Node) {
    if let (
        Some(Node::Guard {
            var: v0,
            lower: l0,
            upper: u0,
            body: b0,
        }),
        Node::Guard {
            var,
            lower,
            upper,
            body,
        },
    ) = (out.last_mut(), &n)
    {
        if v0 == var && l0 == lower && u0 == upper {
            for m in body.iter().cloned() {
                push_merged(b0, m);
            }
            return;
        }
    }
    out.push(n);
}

/// `for (x ...) if (g) B` as `if (g) for (x ...) B` when `g` does not read `x`.
fn lift_guard(n: Node) -> Node {
    let Node::Loop {
        var,
        lower,
        upper,
        step,
        mut body,
    } = n
    else {
        return n;
    };
    let invariant = match body.as_slice() {
        [Node::Guard {
            var: g,
            lower: gl,
            upper: gu,
            ..
        }] => *g != var && [gl, gu].into_iter().flatten().all(|e| !e.reads(var)),
        _ => false,
    };
    if !invariant {
        return Node::Loop {
            var,
            lower,
            upper,
            step,
            body,
        };
    }
    let Some(Node::Guard {
        var: g,
        lower: gl,
        upper: gu,
        body: inner,
    }) = body.pop()
    else {
        unreachable!("matched one guard above")
    };
    Node::Guard {
        var: g,
        lower: gl,
        upper: gu,
        body: vec![Node::Loop {
            var,
            lower,
            upper,
            step,
            body: inner,
        }],
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Below,
    Above,
}

/// Whether every node of `body` runs nothing when `var` is just outside the guard bound
/// `b` (and anywhere further out): each is a loop whose trip count `upper - lower + 1`
/// is an affine function of `var` alone that is non-positive there, or a loop whose
/// body has that property, with bounds that are defined everywhere.
fn side_redundant(body: &[Node], var: usize, b: &Expr, side: Side) -> bool {
    let Some(b) = b.constant_value() else {
        return false;
    };
    let outside = match side {
        Side::Below => b.sub(&Int::from(1)),
        Side::Above => b.add(&Int::from(1)),
    };
    !body.is_empty() && body.iter().all(|n| node_empty(n, var, &outside, side))
}

fn node_empty(n: &Node, var: usize, outside: &Int, side: Side) -> bool {
    let Node::Loop {
        lower, upper, body, ..
    } = n
    else {
        return false;
    };
    let (Expr::Poly(l), Expr::Poly(u)) = (lower, upper) else {
        return false;
    };
    let trip = u.sub(l).add(&Poly::one());
    if affine_in_only(&trip, var) {
        let coeffs = trip.coeffs(var);
        let slope = coeffs
            .get(1)
            .and_then(Poly::constant_value)
            .unwrap_or_else(|| Int::from(0));
        let grows_away = match side {
            // Further below means smaller var: the trip count must not grow as var falls.
            Side::Below => slope.signum() >= 0,
            Side::Above => slope.signum() <= 0,
        };
        let mut point = vec![Int::from(0); var + 1];
        point[var] = outside.clone();
        if grows_away && trip.eval(&point).signum() <= 0 {
            return true;
        }
    }
    !body.is_empty() && body.iter().all(|m| node_empty(m, var, outside, side))
}

/// `p` is `a*x_var + c` with constants a, c.
fn affine_in_only(p: &Poly, var: usize) -> bool {
    p.vars().iter().all(|&v| v == var) && p.total_degree() <= 1
}
