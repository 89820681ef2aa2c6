//! Strides, the last pass over the loop AST: a loop whose body is only the loop of a
//! variable that runs once exactly when `m` divides `a*x + g` (`a` = 1 or -1, the body
//! not reading the variable: a witness of a quantified variable) visits one residue class
//! of `x` modulo `m`. It becomes `for (x = m*ps_ceild(L - r, m) + r; x <= U; x += m)`
//! with `r = -a*g`, as CLooG and isl print strides, and the inner loop goes. A loop that
//! always runs exactly once (`ceil(f/m)` to `floor((f + m - 1)/m)`) and whose body does
//! not read its variable is replaced by its body.
//!
//! Before that, such a loop that runs at most once (`ceil(f/m)` to `floor(f/m)`, a
//! witness or a time dimension `o` with `m*o = f`) rises above the loops whose variables
//! `f` does not read: for fixed outer values it has at most one value whatever the inner
//! loops do, so the order of the instances is unchanged, and it comes to sit directly in
//! the loop of the variable it strides. When the body reads the variable `w` of the inner
//! loop (a time dimension of a relational schedule, `S(2*w)`) and `f = x + g`, the pair
//! becomes one loop over `w`, the outer variable `x` replaced by its value `m*w - g`.

use crate::ast::Node;
use crate::expr::Expr;
use polys::{Coeff, Poly};

/// The nodes with strides made and one-iteration witness loops removed.
pub fn strides(nodes: Vec<Node>) -> Vec<Node> {
    let nodes: Vec<Node> = hoist_all(nodes).into_iter().flat_map(stride_node).collect();
    single_values(nodes)
}

/// Loops from a polynomial to itself (left by a change of variable, `for (x = c; x <= c;
/// x++)`) replaced by their body with the value substituted.
fn single_values(nodes: Vec<Node>) -> Vec<Node> {
    nodes
        .into_iter()
        .flat_map(|n| match n.map_body(single_values) {
            Node::Loop {
                lower,
                upper,
                var,
                body,
                step,
            } => match (polynomial(&lower), polynomial(&upper)) {
                (Some(l), Some(u)) if l == u => body.iter().map(|b| b.subst(var, &l)).collect(),
                _ => vec![Node::Loop {
                    lower,
                    upper,
                    var,
                    body,
                    step,
                }],
            },
            other => vec![other],
        })
        .collect()
}

/// The polynomial a bound is: itself, or `ceil(p/d)` and `floor(p/d)` where the constant
/// `d` divides every coefficient of `p`.
fn polynomial(e: &Expr) -> Option<Poly> {
    match e {
        Expr::Poly(p) => Some(p.clone()),
        Expr::CeilDiv(num, d) | Expr::FloorDiv(num, d) => {
            let (Expr::Poly(p), Some(d)) = (&**num, d.constant_value()) else {
                return None;
            };
            let divides = p
                .terms()
                .iter()
                .all(|(_, c)| c.div_mod_floor(&d).1 == polys::Int::from(0));
            (d.signum() > 0 && divides).then(|| p.div_scalar_exact(&d))
        }
        _ => None,
    }
}

/// Every at-most-once loop raised as far as it goes (see the module comment).
fn hoist_all(nodes: Vec<Node>) -> Vec<Node> {
    nodes
        .into_iter()
        .map(|n| hoist(n.map_body(hoist_all)))
        .collect()
}

/// `for y { for w in ceil(f/m)..floor(f/m) { B } }` with `f` not reading `y` as
/// `for w { for y { B } }`, then the same for the new inner loop.
fn hoist(n: Node) -> Node {
    let Node::Loop {
        var: y,
        lower,
        upper,
        step: 1,
        body,
    } = n
    else {
        return n;
    };
    let rises = match body.as_slice() {
        [Node::Loop {
            lower: wl,
            upper: wu,
            step: 1,
            ..
        }] => divisions(wl, wu).is_some_and(|(f, g, _)| f == g && f.degree(y) == 0),
        _ => false,
    };
    if !rises {
        return Node::Loop {
            var: y,
            lower,
            upper,
            step: 1,
            body,
        };
    }
    let Some(Node::Loop {
        var: w,
        lower: wl,
        upper: wu,
        body: inner,
        ..
    }) = body.into_iter().next()
    else {
        unreachable!("matched one loop above")
    };
    let y_loop = hoist(Node::Loop {
        var: y,
        lower,
        upper,
        step: 1,
        body: inner,
    });
    Node::Loop {
        var: w,
        lower: wl,
        upper: wu,
        step: 1,
        body: vec![y_loop],
    }
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
                if let Some(n) = change_of_variable(inner, var, &lower, &upper) {
                    return vec![n];
                }
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

/// For `for (x = L; x <= U; x++) for (w = ceil(f/m); w <= floor(f/m); w++) B` with
/// `f = x + g` (`g` free of `x` and `w`) and `B` reading `w`: one loop over `w` with
/// `x = m*w - g` in `B` (`L <= x <= U` is `ceil((L + g)/m) <= w <= floor((U + g)/m)`).
fn change_of_variable(n: &Node, x: usize, lower: &Expr, upper: &Expr) -> Option<Node> {
    let (w, m, a, rest, body) = residue_loop(n, x)?;
    // Only for a = 1 do x and w increase together; for a = -1 the loop over w would
    // have to run downwards to keep the order of x.
    if a != 1 || !reads(body, w) {
        return None;
    }
    let rest = &rest;
    let mm = Poly::from_i64(m);
    let mw = Poly::var(w).mul(&mm);
    let shifted = |e: &Expr, g: &Poly| -> Expr {
        match e {
            Expr::Poly(p) => Expr::Poly(p.add(g)),
            e => Expr::Sum(vec![e.clone(), Expr::Poly(g.clone())]),
        }
    };
    let (value, lo, hi) = (mw.sub(rest), shifted(lower, rest), shifted(upper, rest));
    let body: Vec<Node> = body.iter().map(|b| b.subst(x, &value)).collect();
    Some(Node::Loop {
        var: w,
        lower: Expr::CeilDiv(Box::new(lo), mm.clone()).fold_constants(),
        upper: Expr::FloorDiv(Box::new(hi), mm).fold_constants(),
        step: 1,
        body,
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

/// The body of a loop over `w` that runs exactly once for every outer value, with `w`'s
/// value `floor(g/m)` as the statements' argument where they pass `w` itself (isl's
/// `S1(1, floord(M + 1, 2))`); `None` if anything else reads `w`.
fn once(w: usize, lower: &Expr, upper: &Expr, body: &[Node]) -> Option<Vec<Node>> {
    let (f, g, m) = divisions(lower, upper)?;
    // floor((f + m - 1)/m) = ceil(f/m) for every integer f.
    if g.sub(f) != Poly::from_i64(m - 1) || f.degree(w) > 0 {
        return None;
    }
    with_value(body, w, upper)
}

/// `nodes` with every statement argument that is the variable `w` itself replaced by
/// `value`; `None` if anything else reads `w`.
fn with_value(nodes: &[Node], w: usize, value: &Expr) -> Option<Vec<Node>> {
    nodes
        .iter()
        .map(|n| match n {
            Node::Stmt { stmt, args } => {
                let args: Option<Vec<Expr>> = args
                    .iter()
                    .map(|a| match a {
                        Expr::Poly(p) if *p == Poly::var(w) => Some(value.clone()),
                        a if a.reads(w) => None,
                        a => Some(a.clone()),
                    })
                    .collect();
                Some(Node::Stmt {
                    stmt: *stmt,
                    args: args?,
                })
            }
            Node::Loop { lower, upper, .. } if lower.reads(w) || upper.reads(w) => None,
            Node::Guard { lower, upper, .. }
                if [lower, upper].into_iter().flatten().any(|e| e.reads(w)) =>
            {
                None
            }
            Node::Loop { body, .. } | Node::Guard { body, .. } => {
                let inner = with_value(body, w, value)?;
                Some(n.clone().map_body(|_| inner))
            }
        })
        .collect()
}

/// For `for (w = ceil(f/m); w <= floor(f/m); w++) B` with `B` not reading `w` and
/// `f = a*x + g` (`a` = 1 or -1, `g` free of `x`): the step `m`, the residue `-a*g` of
/// `x` modulo `m`, and `B`.
fn congruence(n: &Node, x: usize) -> Option<(i64, Poly, Vec<Node>)> {
    let (w, m, a, rest, body) = residue_loop(n, x)?;
    if reads(body, w) {
        return None;
    }
    match a {
        1 => Some((m, rest.neg(), body.clone())),
        -1 => Some((m, rest, body.clone())),
        _ => None,
    }
}

/// `for (w = ceil(f/m); w <= floor(f/m); w++) B` with `f = a*x + g` (`a` constant, `f`
/// free of `w`): `(w, m, a, g, B)`. The loop runs once exactly when `m` divides `f`.
fn residue_loop(n: &Node, x: usize) -> Option<(usize, i64, i64, Poly, &Vec<Node>)> {
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
    if f != g || f.degree(*w) > 0 || f.degree(x) != 1 {
        return None;
    }
    let cs = f.coeffs(x);
    let a = cs[1].constant_value()?.to_i64()?;
    Some((*w, m, a, cs[0].clone(), body))
}
