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

/// `x ≡ residue (mod step)` for the variable of an enclosing strided loop: what the
/// stride of an inner loop may use (its lower bound may already be in its class).
#[derive(Clone)]
struct Known {
    var: usize,
    residue: Poly,
    step: i64,
}

/// The nodes with strides made and one-iteration witness loops removed.
pub fn strides(nodes: Vec<Node>) -> Vec<Node> {
    single_values(strides_in(hoist_all(nodes), &[]))
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
                    None => vec![Node::Loop {
                        lower,
                        upper,
                        var,
                        body,
                        step,
                    }],
                },
            },
            other => vec![other],
        })
        .collect()
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
    // `ceil(f/m)..floor(f/m)` where the outer strides make `m` divide `f`: exactly once.
    if let Some((f, m)) = at_most_once(&lower, &upper) {
        if f.degree(var) == 0 && multiple_under(f, m, known) {
            if let Some(body) = with_value(&body, var, &upper) {
                return strides_in(body, known);
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

/// `(f, m)` of an at-most-once loop `ceil(f/m)..floor(f/m)`: it runs once exactly when `m`
/// divides `f`.
fn at_most_once<'e>(lower: &'e Expr, upper: &'e Expr) -> Option<(&'e Poly, i64)> {
    divisions(lower, upper).and_then(|(f, g, m)| (f == g).then_some((f, m)))
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
    let body = match (reads(body, w), valued, n) {
        (false, _, _) => body.clone(),
        (true, true, Node::Loop { upper, .. }) => with_value(body, w, upper)?,
        _ => return None,
    };
    let d = gcd(a, m);
    let step = m / d;
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
    let residue = match a {
        // As CLooG and isl print them: `-g` and `g`, unreduced.
        1 if d == 1 => rest.neg(),
        -1 if d == 1 => rest,
        _ => {
            let dd = polys::Int::from(d);
            if rest
                .terms()
                .iter()
                .any(|(_, c)| c.div_mod_floor(&dd).1 != 0.into())
            {
                return None;
            }
            let g = rest.div_scalar_exact(&dd);
            let inverse = inverse_mod(a / d, step)?;
            symmetric_mod(&g.scale(&(-inverse).into()), step)
        }
    };
    let offset = match lower {
        Expr::Poly(l) => Expr::Poly(l.sub(&residue)),
        l => Expr::Sum(vec![l.clone(), Expr::Poly(residue.neg())]),
    };
    let aligned = |r: Poly| Expr::Aligned {
        offset: Box::new(offset.clone()),
        residue: r,
        step,
    };
    // A constant offset: the residue plus a constant multiple of the step.
    let first = match aligned(Poly::zero()).constant_value() {
        Some(k) => Expr::Poly(residue.add(&Poly::constant(k))),
        None => aligned(residue.clone()),
    };
    Some(Congruence {
        step,
        first,
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

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Both are at most `m`, a positive i64.
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// The inverse of `a` modulo `m >= 2` (`a` and `m` coprime), by the extended Euclid.
fn inverse_mod(a: i64, m: i64) -> Option<i64> {
    let (mut r0, mut r1) = (i128::from(a).rem_euclid(i128::from(m)), i128::from(m));
    let (mut s0, mut s1) = (1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return None;
    }
    i64::try_from(s0.rem_euclid(i128::from(m))).ok()
}

/// `p` with every coefficient replaced by its representative modulo `m` in `(-m/2, m/2]`:
/// the same residue class, printed small.
fn symmetric_mod(p: &Poly, m: i64) -> Poly {
    let mm = polys::Int::from(m);
    let half = polys::Int::from(m / 2);
    let terms = p
        .terms()
        .iter()
        .map(|(mono, c)| {
            let r = c.div_mod_floor(&mm).1;
            let r = if r > half { r.sub(&mm) } else { r };
            (mono.clone(), r)
        })
        .filter(|(_, c)| *c != 0.into())
        .collect();
    Poly::from_terms(terms)
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
