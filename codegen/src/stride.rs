//! Strides, the last pass over the loop AST: a loop whose body is only the loop of a
//! variable that runs once exactly when `m` divides `a*x + g` (`a` = 1 or -1, the body
//! not reading the variable: a witness of a quantified variable) visits one residue class
//! of `x` modulo `m`. It becomes `for (x = m*ps_ceild(L - r, m) + r; x <= U; x += m)`
//! with `r = -a*g`, as CLooG and isl print strides, and the inner loop goes. A loop that
//! always runs exactly once (`ceil(f/m)` to `floor((f + m - 1)/m)`) and whose body does
//! not read its variable is replaced by its body.

use crate::ast::Node;
use crate::expr::Expr;
use polys::{Coeff, Poly};

/// The nodes with strides made and one-iteration witness loops removed.
pub fn strides(nodes: Vec<Node>) -> Vec<Node> {
    nodes.into_iter().flat_map(stride_node).collect()
}

fn stride_node(n: Node) -> Vec<Node> {
    match n.map_body(strides) {
        Node::Loop {
            var,
            lower,
            upper,
            step: 1,
            body,
        } => {
            if let Some(body) = once(var, &lower, &upper, &body) {
                return body;
            }
            if let [inner] = body.as_slice() {
                if let Some((m, r, inner_body)) = congruence(inner, var) {
                    let offset = match &lower {
                        Expr::Poly(l) => Expr::Poly(l.sub(&r)),
                        l => Expr::Sum(vec![l.clone(), Expr::Poly(r.neg())]),
                    };
                    let aligned = |residue: Poly| Expr::Aligned {
                        offset: Box::new(offset.clone()),
                        residue,
                        step: m,
                    };
                    // A constant offset: the residue plus a constant multiple of m.
                    let first = match aligned(Poly::zero()).constant_value() {
                        Some(k) => Expr::Poly(r.add(&Poly::constant(k))),
                        None => aligned(r),
                    };
                    return vec![Node::Loop {
                        var,
                        lower: first,
                        upper,
                        step: m,
                        body: inner_body,
                    }];
                }
            }
            vec![Node::Loop {
                var,
                lower,
                upper,
                step: 1,
                body,
            }]
        }
        other => vec![other],
    }
}

/// Whether any bound or argument of `nodes` reads variable `v`.
fn reads(nodes: &[Node], v: usize) -> bool {
    nodes.iter().any(|n| match n {
        Node::Stmt { args, .. } => args.iter().any(|a| a.reads(v)),
        Node::Loop {
            lower, upper, body, ..
        } => lower.reads(v) || upper.reads(v) || reads(body, v),
        Node::Guard {
            lower, upper, body, ..
        } => [lower, upper].into_iter().flatten().any(|e| e.reads(v)) || reads(body, v),
    })
}

/// `ceil(f/m)` and `floor(f'/m)` of a loop's bounds: `(f, f', m)` with `m >= 2` constant.
fn divisions<'e>(lower: &'e Expr, upper: &'e Expr) -> Option<(&'e Poly, &'e Poly, i64)> {
    let (Expr::CeilDiv(lo, dl), Expr::FloorDiv(hi, du)) = (lower, upper) else {
        return None;
    };
    let (Expr::Poly(f), Expr::Poly(g)) = (&**lo, &**hi) else {
        return None;
    };
    let m = dl.constant_value()?.to_i64()?;
    (dl == du && m >= 2).then_some((f, g, m))
}

/// The body of a loop over `w` that runs exactly once for every outer value and whose
/// body does not read `w`.
fn once(w: usize, lower: &Expr, upper: &Expr, body: &[Node]) -> Option<Vec<Node>> {
    let (f, g, m) = divisions(lower, upper)?;
    // floor((f + m - 1)/m) = ceil(f/m) for every integer f.
    let once = g.sub(f) == Poly::from_i64(m - 1) && f.degree(w) == 0;
    (once && !reads(body, w)).then(|| body.to_vec())
}

/// For `for (w = ceil(f/m); w <= floor(f/m); w++) B` with `B` not reading `w` and
/// `f = a*x + g` (`a` = 1 or -1, `g` free of `x`): the step `m`, the residue `-a*g` of
/// `x` modulo `m`, and `B`.
fn congruence(n: &Node, x: usize) -> Option<(i64, Poly, Vec<Node>)> {
    let Node::Loop {
        var: w,
        lower,
        upper,
        step: 1,
        body,
    } = n
    else {
        return None;
    };
    let (f, g, m) = divisions(lower, upper)?;
    if f != g || f.degree(*w) > 0 || f.degree(x) != 1 || reads(body, *w) {
        return None;
    }
    let cs = f.coeffs(x);
    let a = cs[1].constant_value()?.to_i64()?;
    match a {
        1 => Some((m, cs[0].neg(), body.clone())),
        -1 => Some((m, cs[0].clone(), body.clone())),
        _ => None,
    }
}
