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
use crate::enumerated::{once_on, Span};
use crate::expr::Expr;
use crate::residue::{at_most_once, class_of, divisions, implied, Implied};
use polys::{Coeff, Poly};

/// `x ≡ residue (mod step)` for the variable of an enclosing strided loop: what the
/// stride of an inner loop may use (its lower bound may already be in its class); step 0
/// for a loop that pins `x` to `residue`.
#[derive(Clone)]
struct Known {
    var: usize,
    residue: Poly,
    step: i64,
}

/// The nodes with strides made and one-iteration witness loops removed.
pub fn strides(nodes: Vec<Node>) -> Vec<Node> {
    single_values(strides_in(hoist_all(nodes), &[]), &[])
}

/// The stride pass over `nodes` inside loops whose congruences are `known`.
fn strides_in(nodes: Vec<Node>, known: &[Known]) -> Vec<Node> {
    nodes
        .into_iter()
        .flat_map(|n| stride_node(n, known))
        .collect()
}

/// Loops from a polynomial to itself (left by a change of variable, `for (x = c; x <= c;
/// x++)`), and strided loops whose range is shorter than their step (`for (x0 = n + 1;
/// x0 <= n + 16; x0 += 18)`), replaced by their body with the one value substituted.
///
/// Under enclosing loops with constant bounds (`spans`), also a loop that runs exactly once
/// for each of their values (see [`once_on`]).
fn single_values(nodes: Vec<Node>, spans: &[Span]) -> Vec<Node> {
    nodes
        .into_iter()
        .flat_map(|n| {
            let mut inner = spans.to_vec();
            if let Node::Loop {
                var,
                lower,
                upper,
                step,
                ..
            } = &n
            {
                let constant = |e: &Expr| e.constant_value().and_then(|c| c.to_i64());
                if let (Some(first), Some(last)) = (constant(lower), constant(upper)) {
                    if first <= last {
                        inner.push(Span {
                            var: *var,
                            first,
                            last,
                            step: *step,
                        });
                    }
                }
            }
            single_value(n.map_body(|b| single_values(b, &inner)), spans)
        })
        .collect()
}

/// [`single_values`] on one node whose body is done.
fn single_value(n: Node, spans: &[Span]) -> Vec<Node> {
    match n {
        Node::Loop {
            lower,
            upper,
            var,
            body,
            step,
        } => match (polynomial(&lower), polynomial(&upper)) {
            // One value: `u - l` is a constant in `[0, step)` (`l == u` for step 1).
            (Some(l), Some(u))
                if u.sub(&l)
                    .constant_value()
                    .is_some_and(|d| d.signum() >= 0 && d < polys::Int::from(step)) =>
            {
                body.iter().map(|b| b.subst(var, &l)).collect()
            }
            _ => match pinned(&lower, &upper, step) {
                Some((value, y, low, up)) => {
                    let body = body.iter().map(|b| b.subst(var, &value)).collect();
                    if low.is_none() && up.is_none() {
                        body
                    } else {
                        vec![Node::Guard {
                            var: y,
                            lower: low,
                            upper: up,
                            body,
                        }]
                    }
                }
                None => {
                    let value = once_on(&lower, &upper, step, spans);
                    let inlined: Option<Vec<Node>> = value.and_then(|value| {
                        body.iter()
                            .map(|b| {
                                // A guard on `var` itself has no variable left to test.
                                b.try_map(&|e: &Expr| e.subst_expr(var, &value), &|v| {
                                    (v != var).then_some(v)
                                })
                            })
                            .collect()
                    });
                    inlined.unwrap_or_else(|| {
                        vec![Node::Loop {
                            lower,
                            upper,
                            var,
                            body,
                            step,
                        }]
                    })
                }
            },
        },
        other => vec![other],
    }
}

/// A loop `for (x = max(y + k, L...); x <= min(y + k, U...); x++)` (one bound of each side
/// the same `y + k`, `y` an outer variable) runs once, for `x = y + k`, where
/// `L... <= y + k <= U...`: the value, `y`, and the guard's sides on `y` (`L - k`, `U - k`;
/// for `-y + k`, `k - U` and `k - L` with polynomial `L`, `U`).
/// isl prints `if (c0 >= 2) S2(c0)` where the loop would be `for (x0 = max(c0, 2); x0 <= c0;
/// ...)`.
#[allow(clippy::type_complexity)]
fn pinned(
    lower: &Expr,
    upper: &Expr,
    step: i64,
) -> Option<(Poly, usize, Option<Expr>, Option<Expr>)> {
    if step != 1 {
        return None;
    }
    let parts = |e: &Expr, max: bool| -> Vec<Expr> {
        match (e, max) {
            (Expr::Max(ps), true) | (Expr::Min(ps), false) => ps.clone(),
            (e, _) => vec![e.clone()],
        }
    };
    let (lows, ups) = (parts(lower, true), parts(upper, false));
    // `p = s*y + k` with `s = ±1`.
    let shifted = |p: &Poly| -> Option<(usize, i64, i64)> {
        let [y] = p.vars()[..] else { return None };
        let cs = p.coeffs(y);
        let s = match cs.get(1).and_then(Poly::constant_value)?.to_i64()? {
            s @ (1 | -1) if cs.len() == 2 => s,
            _ => return None,
        };
        Some((y, s, cs[0].constant_value()?.to_i64()?))
    };
    for (i, l) in lows.iter().enumerate() {
        let Some(p) = polynomial(l) else { continue };
        let Some((y, s, k)) = shifted(&p) else {
            continue;
        };
        let Some(j) = ups.iter().position(|u| polynomial(u).as_ref() == Some(&p)) else {
            continue;
        };
        let others = |bounds: &[Expr], skip: usize| -> Option<Vec<Expr>> {
            bounds
                .iter()
                .enumerate()
                .filter(|&(q, _)| q != skip)
                .map(|(_, e)| match s {
                    // `y + k >= L` is `y >= L - k`.
                    1 => Some(e.clone().plus(-k)),
                    // `-y + k >= L` is `y <= k - L`, kept to polynomial `L`.
                    _ => Some(Expr::Poly(Poly::from_i64(k).sub(&polynomial(e)?))),
                })
                .collect()
        };
        let (Some(from_lows), Some(from_ups)) = (others(&lows, i), others(&ups, j)) else {
            continue;
        };
        // For `s = -1` the lower bounds of `x` become upper bounds of `y`.
        let (ys_lows, ys_ups) = if s == 1 {
            (from_lows, from_ups)
        } else {
            (from_ups, from_lows)
        };
        let low = (!ys_lows.is_empty()).then(|| crate::linear::max_of(ys_lows));
        let up = (!ys_ups.is_empty()).then(|| crate::linear::min_of(ys_ups));
        return Some((p, y, low, up));
    }
    None
}

/// The polynomial a bound is: itself, or `ceil(p/d)` and `floor(p/d)` where the constant
/// `d` divides every coefficient of `p` but the constant term `c`: `q + ceil(c/d)` and
/// `q + floor(c/d)` for `p = d*q + c` (`floor((3*c1 + 1)/3)` is `c1`).
fn polynomial(e: &Expr) -> Option<Poly> {
    let (num, d, ceil) = match e {
        Expr::Poly(p) => return Some(p.clone()),
        Expr::CeilDiv(num, d) => (num, d, true),
        Expr::FloorDiv(num, d) => (num, d, false),
        _ => return None,
    };
    let (Expr::Poly(p), Some(d)) = (&**num, d.constant_value()) else {
        return None;
    };
    if d.signum() <= 0 {
        return None;
    }
    let zero = polys::Int::from(0);
    let c = p
        .terms()
        .iter()
        .find(|(m, _)| m.is_one())
        .map_or_else(|| zero.clone(), |(_, c)| c.clone());
    let q = p.sub(&Poly::constant(c.clone()));
    if !q.terms().iter().all(|(_, a)| a.div_mod_floor(&d).1 == zero) {
        return None;
    }
    let (fl, r) = c.div_mod_floor(&d);
    let k = if ceil && r != zero {
        fl.add(&1.into())
    } else {
        fl
    };
    Some(q.div_scalar_exact(&d).add(&Poly::constant(k)))
}

/// Every at-most-once loop raised as far as it goes (see the module comment).
fn hoist_all(nodes: Vec<Node>) -> Vec<Node> {
    fuse_at_most_once(nodes)
        .into_iter()
        .map(hoist_chain)
        .collect()
}

/// Adjacent at-most-once loops of the same variable with the same bounds as one loop
/// (`for (x1 = ceild(c0, 2); x1 <= floord(c0, 2); ...) s0(c1, x1);` then the same loop for
/// `s1`): both run for the same single value or not at all, so one loop over both bodies
/// runs the same instances in the same order, and it can rise and become a stride.
fn fuse_at_most_once(nodes: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    for n in nodes {
        if let (
            Some(Node::Loop {
                var: v0,
                lower: l0,
                upper: u0,
                step: 1,
                body: b0,
            }),
            Node::Loop {
                var,
                lower,
                upper,
                step: 1,
                body,
            },
        ) = (out.last_mut(), &n)
        {
            if at_most_once(l0, u0).is_some() && v0 == var && l0 == lower && u0 == upper {
                b0.extend(body.iter().cloned());
                continue;
            }
        }
        out.push(n);
    }
    out
}

/// One loop of a perfect nest, without its body.
struct Header {
    var: usize,
    lower: Expr,
    upper: Expr,
    step: i64,
}

impl Header {
    /// The `f` of an at-most-once loop `ceil(f/m)..floor(f/m)`.
    fn at_most_once(&self) -> Option<&Poly> {
        if self.step != 1 {
            return None;
        }
        at_most_once(&self.lower, &self.upper).map(|(f, _)| f)
    }
}

/// The perfect nest from `n` down (loops whose body is one loop) with its at-most-once
/// loops raised: each goes right below the innermost loop whose variable its `f` reads
/// (to the top if none), behind at-most-once loops placed there before it; the other
/// loops keep their order. Done on the whole chain at once because two such loops that do
/// not read each other commute, and swapping them pairwise would only undo itself.
fn hoist_chain(n: Node) -> Node {
    let mut chain: Vec<Header> = Vec::new();
    let mut cur = n;
    let body = loop {
        match cur {
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                chain.push(Header {
                    var,
                    lower,
                    upper,
                    step,
                });
                let body = fuse_at_most_once(body);
                if let [Node::Loop { .. }] = body.as_slice() {
                    cur = body.into_iter().next().unwrap_or_else(|| unreachable!());
                } else {
                    break hoist_all(body);
                }
            }
            other => return other.map_body(hoist_all),
        }
    };
    let mut order: Vec<Header> = Vec::with_capacity(chain.len());
    for h in chain {
        let Some(f) = h.at_most_once() else {
            order.push(h);
            continue;
        };
        let mut p = order
            .iter()
            .rposition(|o| f.degree(o.var) > 0)
            .map_or(0, |q| q + 1);
        while p < order.len() && order[p].at_most_once().is_some() {
            p += 1;
        }
        order.insert(p, h);
    }
    let mut nest = body;
    for h in order.into_iter().rev() {
        nest = vec![Node::Loop {
            var: h.var,
            lower: h.lower,
            upper: h.upper,
            step: h.step,
            body: nest,
        }];
    }
    nest.into_iter()
        .next()
        .unwrap_or_else(|| unreachable!("the chain has a loop"))
}

/// One node of the pass: a loop's own stride is decided before its body (top down), so
/// that the body's strides know it.
fn stride_node(n: Node, known: &[Known]) -> Vec<Node> {
    let Node::Loop {
        var,
        lower,
        upper,
        step: 1,
        body,
    } = n
    else {
        return vec![n.map_body(|b| strides_in(b, known))];
    };
    if let Some(body) = once(var, &lower, &upper, &body) {
        return strides_in(body, known);
    }
    // A loop that pins its variable (`max(c0, c1)..min(c0, c1)` runs only with `var = c0`)
    // tells its body that value: a class modulo 0, so that witnesses the value makes
    // exact go instead of striding this loop.
    let with_pin: Vec<Known>;
    let known = match crate::residue::pin(&lower, &upper, 1, var) {
        Some(residue) => {
            with_pin = known
                .iter()
                .cloned()
                .chain([Known {
                    var,
                    residue,
                    step: 0,
                }])
                .collect();
            &with_pin[..]
        }
        None => known,
    };
    // `ceil(f/m)..floor(f/m)` where the outer strides make `m` divide `f`: exactly once.
    if let Some((f, m)) = at_most_once(&lower, &upper) {
        if f.degree(var) == 0 && multiple_under(f, m, known) {
            if let Some(body) = with_value(&body, var, &upper, Some((f, m))) {
                return strides_in(body, known);
            }
            // Inner witnesses may read `var` where no value can replace it; once their
            // own pass has removed them, it may.
            let inner = strides_in(body.clone(), known);
            if let Some(body) = with_value(&inner, var, &upper, Some((f, m))) {
                return body;
            }
        }
    }
    let strided = |c: Congruence| -> Vec<Node> {
        let mut inner = known.to_vec();
        inner.push(Known {
            var,
            residue: c.residue,
            step: c.step,
        });
        vec![Node::Loop {
            var,
            lower: c.first,
            upper: upper.clone(),
            step: c.step,
            body: strides_in(c.body, &inner),
        }]
    };
    if let [inner] = body.as_slice() {
        if let Some(c) = congruence(inner, var, &lower, known, false) {
            return strided(c);
        }
    }
    // A lone witness of `var` that the statements read is left to the change of variable.
    let body = match body.as_slice() {
        [inner] if residue_loop(inner, var).is_some() => body,
        _ => match common_class(body, var, &lower, known) {
            Ok(c) => return strided(c),
            Err(body) => match split_classes(var, &lower, &upper, &body) {
                Some(c) => return strided(c),
                None => body,
            },
        },
    };
    let body = strides_in(body, known);
    if let [inner] = body.as_slice() {
        if let Some(n) = change_of_variable(inner, var, &lower, &upper) {
            // The new loop may stride in turn (each change removes a loop: this ends).
            return stride_node(n, known);
        }
        // Where no change of variable applies, a witness the statements receive gets its
        // value `f/m`, exact in the class (`S1(1, ps_floord(3 - x0, 2), ...)`).
        if let Some(c) = congruence(inner, var, &lower, known, true) {
            return strided(c);
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
        Node::Test { cond, body } => cond.reads(v) || reads(body, v),
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

/// The body of a loop over `w` that runs exactly once for every outer value, with `w`'s
/// value `floor(g/m)` as the statements' argument where they pass `w` itself (isl's
/// `S1(1, floord(M + 1, 2))`); `None` if anything else reads `w`.
fn once(w: usize, lower: &Expr, upper: &Expr, body: &[Node]) -> Option<Vec<Node>> {
    let (f, g, m) = divisions(lower, upper)?;
    // floor((f + m - 1)/m) = ceil(f/m) for every integer f.
    if g.sub(f) != Poly::from_i64(m - 1) || f.degree(w) > 0 {
        return None;
    }
    with_value(body, w, upper, None)
}

/// `nodes` with every statement argument and bound that is the variable `w` itself
/// replaced by `value`; with `exact = (f, m)` (`m` divides `f` wherever the nodes run, `w = f/m`),
/// also arguments `k*w + q` become `k*f/m + q` (`S1(2*c1, c1)` is `S1(c0, c0/2)`).
/// `None` if anything else reads `w`.
fn with_value(
    nodes: &[Node],
    w: usize,
    value: &Expr,
    exact: Option<(&Poly, i64)>,
) -> Option<Vec<Node>> {
    let arg = |a: &Expr| -> Option<Expr> {
        match a {
            Expr::Poly(p) if *p == Poly::var(w) => Some(value.clone()),
            a if !a.reads(w) => Some(a.clone()),
            a => exact_quotient(a, w, exact?),
        }
    };
    nodes
        .iter()
        .map(|n| match n {
            Node::Stmt { stmt, args } => {
                let args: Option<Vec<Expr>> = args.iter().map(arg).collect();
                Some(Node::Stmt {
                    stmt: *stmt,
                    args: args?,
                })
            }
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => Some(Node::Loop {
                var: *var,
                lower: arg(lower)?,
                upper: arg(upper)?,
                step: *step,
                body: with_value(body, w, value, exact)?,
            }),
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => Some(Node::Guard {
                var: *var,
                lower: match lower {
                    Some(e) => Some(arg(e)?),
                    None => None,
                },
                upper: match upper {
                    Some(e) => Some(arg(e)?),
                    None => None,
                },
                body: with_value(body, w, value, exact)?,
            }),
            Node::Test { cond, body } => Some(Node::Test {
                cond: cond.try_map(&arg)?,
                body: with_value(body, w, value, exact)?,
            }),
        })
        .collect()
}

/// `e` with `w = f/m` (`m` divides `f`) where `e` reads `w` as `k*w + q` or a rounded
/// division of that by a constant: `k*f/m + q`, and `floor((k*f + m*q)/(m*d))` for
/// `floor((k*w + q)/d)` (`k*f/m` is an integer, so the rounding is the same).
fn exact_quotient(e: &Expr, w: usize, (f, m): (&Poly, i64)) -> Option<Expr> {
    let linear = |p: &Poly| -> Option<(i64, Poly)> {
        if p.degree(w) != 1 {
            return None;
        }
        let cs = p.coeffs(w);
        Some((cs[1].constant_value()?.to_i64()?, cs[0].clone()))
    };
    let divided = |num: Poly, den: Poly, ceil: bool| -> Expr {
        let (num, den) = crate::expr::reduce_division(&num, &den, ceil);
        match (den.constant_value(), ceil) {
            (Some(d), _) if d.is_one() => Expr::Poly(num),
            (_, true) => Expr::CeilDiv(Box::new(Expr::Poly(num)), den),
            (_, false) => Expr::FloorDiv(Box::new(Expr::Poly(num)), den),
        }
    };
    let mm = Poly::from_i64(m);
    match e {
        Expr::Poly(p) => {
            let (k, q) = linear(p)?;
            let quotient = divided(f.scale(&k.into()), mm, false);
            Some(if q.is_zero() {
                quotient
            } else {
                Expr::Sum(vec![quotient, Expr::Poly(q)]).fold_constants()
            })
        }
        Expr::FloorDiv(num, d) | Expr::CeilDiv(num, d) => {
            let (k, q) = linear(num.as_poly()?)?;
            d.constant_value()?;
            let num = f.scale(&k.into()).add(&q.mul(&mm));
            Some(divided(num, d.mul(&mm), matches!(e, Expr::CeilDiv(..))))
        }
        _ => None,
    }
}

/// For a loop from `lower` to `upper` (constants) whose witnesses ask for several
/// classes of `x` modulo one small `m` (`A` at even values, `B` at odd ones): one loop with
/// step `m` whose body is the body once per class, `x + k` in the `k`-th copy, each copy
/// without the witnesses of the other classes (isl's `A(c0); B(c0);` for a shift). The
/// `x` values run in the same order; a copy that the last iteration would take past
/// `upper` is guarded.
fn split_classes(x: usize, lower: &Expr, upper: &Expr, body: &[Node]) -> Option<Congruence> {
    /// More copies of the body than this are code growth, not a simplification.
    const MAX_CLASSES: i64 = 4;
    let classes = crate::residue::witness_classes(body, x);
    let m = classes.first()?.1;
    let (l, u) = (
        lower.constant_value()?.to_i64()?,
        upper.constant_value()?.to_i64()?,
    );
    if m > MAX_CLASSES
        || u.checked_sub(l)? < m - 1
        || classes
            .iter()
            .any(|(r, s)| *s != m || r.constant_value().is_none())
        || guards_on(body, x)
    {
        return None;
    }
    let last = l + (u - l) / m * m;
    let mut copies = Vec::new();
    for k in 0..m {
        let copy = crate::residue::in_class(body, x, (l + k).rem_euclid(m), m);
        if copy == body {
            return None;
        }
        let shifted = Poly::var(x).add(&Poly::from_i64(k));
        let copy: Vec<Node> = copy.iter().map(|n| n.subst(x, &shifted)).collect();
        if copy.is_empty() {
            continue;
        }
        if last.checked_add(k).is_none_or(|v| v > u) {
            copies.push(Node::Guard {
                var: x,
                lower: None,
                upper: Some(Expr::constant(u - k)),
                body: copy,
            });
        } else {
            copies.extend(copy);
        }
    }
    Some(Congruence {
        step: m,
        first: lower.clone(),
        residue: Poly::from_i64(l),
        body: copies,
    })
}

/// Whether a guard in `nodes` tests variable `x` (which a substitution cannot reach).
fn guards_on(nodes: &[Node], x: usize) -> bool {
    nodes.iter().any(|n| match n {
        Node::Guard { var, body, .. } => *var == x || guards_on(body, x),
        Node::Loop { body, .. } | Node::Test { body, .. } => guards_on(body, x),
        Node::Stmt { .. } => false,
    })
}

/// The lower bound of a loop node.
fn lower_of(n: &Node) -> Option<&Expr> {
    match n {
        Node::Loop { lower, .. } => Some(lower),
        _ => None,
    }
}

/// A loop over one residue class: its step, first value, the residue its values have,
/// and the body without the witness loop.
struct Congruence {
    step: i64,
    first: Expr,
    residue: Poly,
    body: Vec<Node>,
}

/// For `for (w = ceil(f/m); w <= floor(f/m); w++) B` with `B` not reading `w` and
/// `f = a*x + g` (`g` free of `x`), inside a loop of `x` from `lower`: the values of `x`
/// for which `m` divides `f`. With `d = gcd(a, m)` they are one class modulo `m/d`:
/// - the class of `lower` itself when `m` divides `a*lower + g` under the `known`
///   congruences of the outer loops (isl's `for (c1 = c0; c1 <= n; c1 += 3)` where
///   `c0 ≡ 1 (mod 4)` makes `4*c0 - c0 - 3` a multiple of 12): the loop starts there;
/// - otherwise, when `d` divides `g` coefficientwise, `-(g/d) * (a/d)^-1` modulo `m/d`,
///   and the loop starts at the first value of that class at or above `lower`.
///
/// `None` when `m` divides `a` (the condition does not depend on `x`) or neither applies.
fn congruence(
    n: &Node,
    x: usize,
    lower: &Expr,
    known: &[Known],
    valued: bool,
) -> Option<Congruence> {
    let (w, m, a, rest, body) = residue_loop(n, x)?;
    // Exact already (a pinned `x`): the witness goes in the recursion, no stride needed.
    if multiple_under(&Poly::var(x).scale(&a.into()).add(&rest), m, known) {
        return None;
    }
    let body = match (reads(body, w), valued, n) {
        (false, _, _) => body.clone(),
        (true, true, Node::Loop { upper, .. }) => {
            let f = at_most_once(lower_of(n)?, upper)?.0;
            with_value(body, w, upper, Some((f, m)))?
        }
        _ => return None,
    };
    let step = m / crate::residue::gcd(a, m);
    if step < 2 {
        return None;
    }
    if let Expr::Poly(l) = lower {
        let f = l.scale(&a.into()).add(&rest);
        if multiple_under(&f, m, known) {
            return Some(Congruence {
                step,
                first: lower.clone(),
                residue: l.clone(),
                body,
            });
        }
    }
    let (residue, step) = class_of(a, &rest, m)?;
    Some(Congruence {
        step,
        first: first_in_class(lower, &residue, step),
        residue,
        body,
    })
}

/// The first value at or above `lower` that is `residue` modulo `step`.
fn first_in_class(lower: &Expr, residue: &Poly, step: i64) -> Expr {
    let offset = match lower {
        Expr::Poly(l) => Expr::Poly(l.sub(residue)),
        l => Expr::Sum(vec![l.clone(), Expr::Poly(residue.neg())]),
    };
    let aligned = |r: Poly| Expr::Aligned {
        offset: Box::new(offset.clone()),
        residue: r,
        step,
    };
    // A constant offset: the residue plus a constant multiple of the step.
    match aligned(Poly::zero()).constant_value() {
        Some(k) => Expr::Poly(residue.add(&Poly::constant(k))),
        None => aligned(residue.clone()),
    }
}

/// For a loop over `x` from `lower` whose body runs instances only in one class of `x`
/// (several statements' witnesses, or one witness below other loops: see
/// [`implied`]), that class as a stride, the body unchanged (its witnesses then run
/// exactly once under the new known congruence and go in the recursion). The class of
/// `lower` itself when the known congruences put it there.
fn common_class(
    body: Vec<Node>,
    x: usize,
    lower: &Expr,
    known: &[Known],
) -> Result<Congruence, Vec<Node>> {
    let Implied::Class { residue, step } = implied(&body, x) else {
        return Err(body);
    };
    if let Expr::Poly(l) = lower {
        if multiple_under(&l.sub(&residue), step, known) {
            return Ok(Congruence {
                step,
                first: lower.clone(),
                residue: l.clone(),
                body,
            });
        }
    }
    Ok(Congruence {
        step,
        first: first_in_class(lower, &residue, step),
        residue,
        body,
    })
}

/// Whether `m` divides `f` for every value of the variables allowed by `known`: each
/// known variable is written `step*t + residue` (innermost first, since a residue reads
/// only outer variables; `t` takes the variable's own index), then every coefficient
/// must be a multiple of `m`.
fn multiple_under(f: &Poly, m: i64, known: &[Known]) -> bool {
    let mut f = f.clone();
    for k in known.iter().rev() {
        let value = Poly::var(k.var).scale(&k.step.into()).add(&k.residue);
        f = f.subst(k.var, &value);
    }
    let m = polys::Int::from(m);
    f.terms()
        .iter()
        .all(|(_, c)| c.div_mod_floor(&m).1 == 0.into())
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
    let (f, m) = at_most_once(lower, upper)?;
    if f.degree(*w) > 0 || f.degree(x) != 1 {
        return None;
    }
    let cs = f.coeffs(x);
    let a = cs[1].constant_value()?.to_i64()?;
    Some((*w, m, a, cs[0].clone(), body))
}
