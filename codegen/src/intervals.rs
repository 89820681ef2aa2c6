//! The compact shape for polynomial domains: elimination of interval constraints, with
//! each loop running from the max of its lower to the min of its upper bounds, as a
//! person writes `for (z = max(-isqrt(a*a - y*y), -isqrt(a*a - x*x)); ...)`.
//!
//! Why not the CAD's cells: over the outer variables, each constraint on a loop variable
//! `v` usually admits an interval of `v` (linear with a coefficient of known sign, a
//! quadratic opening downwards, `v^k` bounded by a polynomial). The loop needs the largest
//! lower and smallest upper end, not which constraint gives it, so the resultants that
//! split the outer space where another constraint becomes tighter are not needed. A
//! quadratic opening upwards (`x^2 + y^2 >= r^2` in `y`) excludes an open interval: the
//! loop splits into the part left of it and the part right of it, unless a bound of the
//! same side already keeps `v` on one side of the vertex.
//!
//! What the outer loops need from the inner ones is a region that contains every outer
//! point with an inner point and on which every loop is finite (a superset of the real
//! shadow): pairs of a lower and an upper linear bound (Fourier–Motzkin), a linear bound
//! against the far root of a quadratic, and that a quadratic interval is real
//! (discriminant `>= 0`). Outer points without inner points get empty inner loops: every
//! root helper is defined for every argument so that a bound taken where its root is not
//! real gives an empty range (`ps_isqrt` of a negative number is -1, `ps_ceil_sqrt` 0).
//! So every point still runs exactly once, in lexicographic order.
//!
//! One statement, a conjunction; anything else (a constraint of degree 3 that is not a
//! binomial, a coefficient whose sign the outer bounds do not decide, two excluded
//! intervals at one level, an unbounded variable) returns `None` and the caller uses the
//! CAD.

use crate::ast::Node;
use crate::bounds::{divide, square_root};
use crate::error::GenError;
use crate::expr::Expr;
use crate::linear::{conjunction, div, guard, max_of, min_of, primitive, LinearInput};
use crate::signs::Facts;
use polys::{Coeff, Int, Poly};

/// Most constraints kept between two levels before the scanner gives up.
const MAX_CONSTRAINTS: usize = 400;

/// The loop bounds of one variable.
#[derive(Default)]
struct Level {
    lowers: Vec<Expr>,
    uppers: Vec<Expr>,
    /// Excluded open intervals, left to right, each as the end of the part before it
    /// (`v <= .0`) and the start of the part after it (`v >= .1`): the loop splits into
    /// one part more than there are intervals.
    holes: Vec<(Expr, Expr)>,
}

/// A constraint `q >= 0`, the input constraints it was derived from, and whether it was
/// derived (a necessary condition for an inner point, which may be dropped: the outer
/// loops then range over a larger superset of the projection) rather than stated.
type Tracked = (Poly, Vec<usize>, bool);

/// One statement after elimination: the bounds of each loop variable, innermost first,
/// and its constraints on the parameters alone that its input states.
struct Scanned {
    stmt: usize,
    levels: Vec<(usize, Level)>,
    guards: Vec<Poly>,
}

/// Loops for the statements' conjunctions, or `None` where the shape does not apply.
pub(crate) fn scan(input: &LinearInput) -> Result<Option<Vec<Node>>, GenError> {
    let np = input.nparams;
    let context = match input.context_constraints() {
        Some(Some(c)) => c,
        Some(None) => return Ok(Some(Vec::new())),
        None => return Ok(None),
    };
    let mut stmts = Vec::new();
    for (stmt, formula) in input.formulas.iter().enumerate() {
        match conjunction(formula) {
            Some(Some(c)) => stmts.push((stmt, c)),
            Some(None) => {}
            None => return Ok(None),
        }
    }
    let nvars = input.vars.len();
    let facts = if let [(_, cons)] = &stmts[..] {
        // One statement: its stated parameter constraints guard the whole nest.
        let mut all = cons.clone();
        all.extend(context.iter().cloned());
        Facts::new(&all, nvars)
    } else {
        // Several: the loops run outside each statement's guards, over the union of
        // the ranges, so a sign may rest only on the context and on lower bounds that
        // every statement gives its iterators.
        let per: Vec<Facts> = stmts
            .iter()
            .map(|(_, cons)| {
                let mut all: Vec<Poly> = cons
                    .iter()
                    .filter(|q| q.main_var().is_some_and(|v| v >= np))
                    .cloned()
                    .collect();
                all.extend(context.iter().cloned());
                Facts::new(&all, nvars)
            })
            .collect();
        Facts::weakest(&per, nvars)
    };
    let mut scanned = Vec::new();
    for (stmt, cons) in stmts {
        match statement(input, stmt, cons, &context, &facts) {
            Some(Some(s)) => scanned.push(s),
            Some(None) => {} // empty wherever the context holds
            None => return Ok(None),
        }
    }
    let ctx_facts = Facts::new(&context, np);
    Ok(match scanned.len() {
        0 => Some(Vec::new()),
        1 => {
            let s = scanned.pop().expect("one statement");
            let mut body = vec![call(input, s.stmt)];
            for (v, level) in s.levels {
                body = nest(v, level, body);
            }
            wrap_guards(&s.guards, np, &ctx_facts, body)
        }
        _ => several(input, scanned, &ctx_facts, &facts),
    })
}

fn call(input: &LinearInput, stmt: usize) -> Node {
    Node::Stmt {
        stmt,
        args: input.calls[stmt].clone(),
    }
}

/// `body` inside guards for the stated parameter constraints; `None` if one is not a
/// bound on one parameter.
fn wrap_guards(
    guards: &[Poly],
    np: usize,
    facts: &Facts,
    mut body: Vec<Node>,
) -> Option<Vec<Node>> {
    for q in guards.iter().rev() {
        body = guard(q, np, facts, body)?;
    }
    Some(body)
}

/// Eliminates one statement's constraints, innermost variable first. `Some(None)`: no
/// point for any parameter value of the context.
fn statement(
    input: &LinearInput,
    stmt: usize,
    cons: Vec<Poly>,
    context: &[Poly],
    facts: &Facts,
) -> Option<Option<Scanned>> {
    let np = input.nparams;
    let nvars = input.vars.len();
    // The context is the caller's promise: it decides signs and redundancy but is never
    // printed as a guard. Lower bounds of iterators stated in the domain decide the signs
    // of coefficients of inner variables (`facts`): the outer loops enforce them.
    let ctx_facts = Facts::new(context, np);
    let cons: Vec<Tracked> = cons
        .into_iter()
        .enumerate()
        .map(|(i, q)| (q, vec![i], false))
        .collect();
    let Some(mut cons) = simplify(cons, &ctx_facts) else {
        return Some(None);
    };
    let mut levels = Vec::with_capacity(nvars - np);
    for v in (np..nvars).rev() {
        let (level, rest) = eliminate(cons, v, nvars - v, &facts.below(v))?;
        // Unbounded (the CAD says where) or too many constraints: not this shape.
        if level.lowers.is_empty() || level.uppers.is_empty() || rest.len() > MAX_CONSTRAINTS {
            return None;
        }
        let Some(c) = simplify(rest, &ctx_facts) else {
            return Some(None);
        };
        cons = c;
        levels.push((v, level));
    }
    // What is left is on the parameters alone. Stated constraints (or derived ones that
    // replaced a stated one they imply) become guards: the signs decided above may rest
    // on them. Derived ones only say that some loop is not empty, which it checks itself.
    let guards = cons
        .into_iter()
        .filter(|(_, _, derived)| !derived)
        .map(|(q, _, _)| q)
        .collect();
    Some(Some(Scanned {
        stmt,
        levels,
        guards,
    }))
}

/// Several statements: each loop runs over the union of the statements' ranges (the min
/// of their lower and the max of their upper bounds), and each instance is guarded by the
/// bounds of its own statement where they differ from the loop's. Instances at the same
/// point run in file order. Excluded intervals would need two guards: not this shape.
fn several(
    input: &LinearInput,
    stmts: Vec<Scanned>,
    facts: &Facts,
    signs: &Facts,
) -> Option<Vec<Node>> {
    let np = input.nparams;
    let nlevels = stmts[0].levels.len();
    let mut ranges: Vec<Vec<(Expr, Expr)>> = Vec::with_capacity(stmts.len());
    for s in &stmts {
        let mut r = Vec::with_capacity(nlevels);
        for (_, level) in &s.levels {
            if !level.holes.is_empty() {
                return None;
            }
            r.push((max_of(level.lowers.clone()), min_of(level.uppers.clone())));
        }
        ranges.push(r);
    }
    if let Some(order) = consecutive(&ranges, signs) {
        // One after the other at the innermost level, as a person writes them: no
        // instance of one lies between two of another, so the order is lexicographic.
        let mut body = Vec::new();
        for i in order {
            let s = &stmts[i];
            let (lo, hi) = ranges[i][0].clone();
            let inner = vec![Node::Loop {
                var: s.levels[0].0,
                lower: lo,
                upper: hi,
                step: 1,
                body: vec![call(input, s.stmt)],
            }];
            body.extend(wrap_guards(&s.guards, np, facts, inner)?);
        }
        for (k, (lo, hi)) in ranges[0].iter().enumerate().skip(1) {
            body = vec![Node::Loop {
                var: stmts[0].levels[k].0,
                lower: lo.clone(),
                upper: hi.clone(),
                step: 1,
                body,
            }];
        }
        return Some(body);
    }
    if let Some(body) = shared_start(input, &stmts, &ranges) {
        return Some(body);
    }
    let union: Vec<(Expr, Expr)> = (0..nlevels)
        .map(|k| {
            (
                min_of(ranges.iter().map(|r| r[k].0.clone()).collect()),
                max_of(ranges.iter().map(|r| r[k].1.clone()).collect()),
            )
        })
        .collect();
    let mut body = Vec::new();
    for (s, r) in stmts.iter().zip(&ranges) {
        let mut inner = vec![call(input, s.stmt)];
        for (k, (lo, hi)) in r.iter().enumerate() {
            let lower = (*lo != union[k].0).then(|| lo.clone());
            let upper = (*hi != union[k].1).then(|| hi.clone());
            if lower.is_some() || upper.is_some() {
                inner = vec![Node::Guard {
                    var: s.levels[k].0,
                    lower,
                    upper,
                    body: inner,
                }];
            }
        }
        body.extend(wrap_guards(&s.guards, np, facts, inner)?);
    }
    for (k, (lo, hi)) in union.into_iter().enumerate() {
        body = vec![Node::Loop {
            var: stmts[0].levels[k].0,
            lower: lo,
            upper: hi,
            step: 1,
            body,
        }];
    }
    Some(body)
}

/// Two statements whose innermost ranges start at the same bound (and whose outer ranges
/// agree): the part both cover, both at each point in file order, then the rest of each
/// range, of which at most one is non-empty at any outer point. No guard per instance.
fn shared_start(
    input: &LinearInput,
    stmts: &[Scanned],
    ranges: &[Vec<(Expr, Expr)>],
) -> Option<Vec<Node>> {
    let ([a, b], [ra, rb]) = (stmts, ranges) else {
        return None;
    };
    if ra[1..] != rb[1..] || ra[0].0 != rb[0].0 || !a.guards.is_empty() || !b.guards.is_empty() {
        return None;
    }
    let v = a.levels[0].0;
    let lo = ra[0].0.clone();
    let common = min_of(vec![ra[0].1.clone(), rb[0].1.clone()]);
    let rest = max_of(vec![lo.clone(), common.clone().plus(1)]);
    let lp = |lower: Expr, upper: Expr, body: Vec<Node>| Node::Loop {
        var: v,
        lower,
        upper,
        step: 1,
        body,
    };
    let mut body = vec![
        lp(lo, common, vec![call(input, a.stmt), call(input, b.stmt)]),
        lp(rest.clone(), ra[0].1.clone(), vec![call(input, a.stmt)]),
        lp(rest, rb[0].1.clone(), vec![call(input, b.stmt)]),
    ];
    for (k, (lo, hi)) in ra.iter().enumerate().skip(1) {
        body = vec![Node::Loop {
            var: a.levels[k].0,
            lower: lo.clone(),
            upper: hi.clone(),
            step: 1,
            body,
        }];
    }
    Some(body)
}

/// An order of the statements in which each one's innermost range ends below the start
/// of the next one's, when their outer ranges are the same: then their innermost loops
/// can follow each other.
fn consecutive(ranges: &[Vec<(Expr, Expr)>], signs: &Facts) -> Option<Vec<usize>> {
    let outer_same = ranges.iter().all(|r| r[1..] == ranges[0][1..]);
    if !outer_same || ranges.len() > 8 {
        return None;
    }
    let before = |a: usize, b: usize| less(&ranges[a][0].1, &ranges[b][0].0, signs);
    let mut order: Vec<usize> = Vec::with_capacity(ranges.len());
    for i in 0..ranges.len() {
        // Insert where it follows its predecessor and precedes its successor.
        let at = (0..=order.len()).find(|&k| {
            (k == 0 || before(order[k - 1], i)) && (k == order.len() || before(i, order[k]))
        })?;
        order.insert(at, i);
    }
    Some(order)
}

/// Whether `a < b` wherever the variables are at least their lower bounds, read off the
/// forms of the two bounds (sound, far from complete): `min(x, ...) < b` if `x < b`,
/// `isqrt(p) < ceil_sqrt(q)` if `q >= p + 1`, and the like.
fn less(a: &Expr, b: &Expr, signs: &Facts) -> bool {
    match (a, b) {
        (Expr::Min(ps), _) => ps.iter().any(|p| less(p, b, signs)),
        (Expr::Max(ps), _) => ps.iter().all(|p| less(p, b, signs)),
        (_, Expr::Max(ps)) => ps.iter().any(|p| less(a, p, signs)),
        (_, Expr::Min(ps)) => ps.iter().all(|p| less(a, p, signs)),
        (Expr::Poly(p), Expr::Poly(q)) => signs.nonneg(&q.sub(p).sub(&Poly::one())),
        // isqrt(p) <= sqrt(p) < sqrt(p + 1) <= ceil_sqrt(q); for p < 0, -1 < 0.
        (Expr::Isqrt(p), Expr::CeilSqrt(q)) => signs.nonneg(&q.sub(p).sub(&Poly::one())),
        (Expr::Isqrt(p), Expr::Poly(q)) | (Expr::Poly(q), Expr::CeilSqrt(p)) => {
            // isqrt(p) < q if q >= 0 and p < q^2 (and the mirror for ceil_sqrt > q
            // when p > q^2, q >= 0).
            let (p2, q2) = (p, q);
            let q_sq = q2.mul(q2);
            let p_first = matches!(a, Expr::Isqrt(_));
            signs.nonneg(q2)
                && if p_first {
                    signs.nonneg(&q_sq.sub(p2).sub(&Poly::one()))
                } else {
                    signs.nonneg(&p2.sub(&q_sq).sub(&Poly::one()))
                }
        }
        _ => false,
    }
}

/// The loop (or, around an excluded interval, the two loops) of variable `v`.
fn nest(v: usize, level: Level, body: Vec<Node>) -> Vec<Node> {
    let lo = max_of(level.lowers);
    let hi = min_of(level.uppers);
    let lp = |lower: Expr, upper: Expr, body: Vec<Node>| Node::Loop {
        var: v,
        lower,
        upper,
        step: 1,
        body,
    };
    // Each part ends before the next excluded interval and starts after the previous
    // one, and past the previous part as well: where an interval's roots are not real,
    // the parts on its two sides meet and must not overlap.
    let mut out = Vec::with_capacity(level.holes.len() + 1);
    let mut start = lo.clone();
    for (left, right) in level.holes {
        out.push(lp(
            start,
            min_of(vec![hi.clone(), left.clone()]),
            body.clone(),
        ));
        start = max_of(vec![lo.clone(), right, left.plus(1)]);
    }
    out.push(lp(start, hi, body));
    out
}

/// The bounds of `v` from the constraints that mention it, and the constraints left for
/// the outer variables; `None` where a constraint is not of a supported kind.
fn eliminate(
    cons: Vec<Tracked>,
    v: usize,
    eliminated: usize,
    facts: &Facts,
) -> Option<(Level, Vec<Tracked>)> {
    let mut level = Level::default();
    let mut rest: Vec<Tracked> = Vec::new();
    // Linear bounds `a v + b >= 0` (a > 0) and `-c v + d >= 0` (c > 0).
    let mut low: Vec<(Poly, Poly, Vec<usize>)> = Vec::new();
    let mut up: Vec<(Poly, Poly, Vec<usize>)> = Vec::new();
    // Quadratics opening upwards, `A v^2 + B v + C >= 0` with A > 0.
    let mut holes: Vec<(Vec<Poly>, Vec<usize>, bool)> = Vec::new();
    // Quadratics opening downwards, `A v^2 + B v + C >= 0` with A < 0.
    let mut intervals: Vec<(Vec<Poly>, Vec<usize>)> = Vec::new();
    for (q, h, derived) in cons {
        let cs = q.coeffs(v);
        let sign = |c: &Poly| facts.sign(c);
        match (cs.len(), cs.last().and_then(sign)) {
            (0 | 1, _) => rest.push((q, h, derived)),
            (2, Some(1)) => low.push((cs[1].clone(), cs[0].clone(), h)),
            (2, Some(_)) => up.push((cs[1].neg(), cs[0].clone(), h)),
            (3, Some(1)) => holes.push((cs, h, derived)),
            (3, Some(_)) => intervals.push((cs, h)),
            _ => match binomial_bounds(&cs, facts) {
                Some((lo, hi, exists)) => {
                    level.lowers.extend(lo);
                    level.uppers.extend(hi);
                    rest.extend(exists.map(|e| (e, h, true)));
                }
                // A derived condition that bounds nothing here is only dropped.
                None if derived => {}
                None => return None,
            },
        }
    }
    // Fourier–Motzkin on the linear pairs, with Kohler's criterion against blow-up.
    for (a, b, hl) in &low {
        for (c, d, hu) in &up {
            let h = joined(&[hl, hu]);
            // Kohler: a combination of more than `eliminated + 1` input constraints is
            // implied by the others for the real shadow.
            if h.len() <= eliminated + 1 {
                rest.push((positive_part(&c.mul(b).add(&a.mul(d)), facts), h, true));
            }
        }
    }
    // Linear bounds as points p / r (r > 0) on the axis of `v`.
    let lower_points: Vec<(Poly, &Poly, &Vec<usize>)> =
        low.iter().map(|(a, b, h)| (b.neg(), a, h)).collect();
    let upper_points: Vec<(Poly, &Poly, &Vec<usize>)> =
        up.iter().map(|(c, d, h)| (d.clone(), c, h)).collect();
    // The sign of `2A p + B r` (see `at_point`): with `A > 0`, non-negative right of the
    // vertex and non-positive left of it; with `A < 0` the other way round.
    let side_nonneg = |cs: &[Poly], p: &Poly, r: &Poly| facts.nonneg(&at_point(cs, p, r).1);
    let side_nonpos = |cs: &[Poly], p: &Poly, r: &Poly| facts.nonneg(&at_point(cs, p, r).1.neg());
    for (cs, h) in intervals {
        let (lo, hi, exists) = quadratic_interval(&cs, facts);
        // A root on the near side of a linear bound that is beyond the vertex never
        // binds: `j >= 0` makes `-isqrt(i) <= j` redundant.
        // (A < 0 here: a lower bound right of the vertex has `2A p + B r <= 0`.)
        if !lower_points.iter().any(|(p, r, _)| side_nonpos(&cs, p, r)) {
            level.lowers.push(lo);
        }
        if !upper_points.iter().any(|(p, r, _)| side_nonneg(&cs, p, r)) {
            level.uppers.push(hi);
        }
        rest.push((exists, h, true));
    }
    let mut open: Vec<(Vec<Poly>, Expr, Expr, bool)> = Vec::new();
    for (cs, h, derived) in holes {
        // A linear bound on the far side of the vertex turns the excluded interval into
        // one bound: v >= the upper root (or v <= the lower root). Some v then exists
        // below (above) each linear bound on the other side only if that bound is beyond
        // the vertex too and q >= 0 there.
        let (left, right) = hole_ends(&cs, facts);
        let beyond_lower = lower_points.iter().find(|(p, r, _)| side_nonneg(&cs, p, r));
        let beyond_upper = upper_points.iter().find(|(p, r, _)| side_nonpos(&cs, p, r));
        let (others, hb, right_side) = match (beyond_lower, beyond_upper) {
            (Some((_, _, hl)), _) => {
                level.lowers.push(right);
                (&upper_points, hl, true)
            }
            (None, Some((_, _, hu))) => {
                level.uppers.push(left);
                (&lower_points, hu, false)
            }
            (None, None) => {
                open.push((cs, left, right, derived));
                continue;
            }
        };
        for (p, r, ho) in others {
            let hh = joined(&[hb, ho, &h]);
            let (value, side) = at_point(&cs, p, r);
            let side = if right_side { side } else { side.neg() };
            rest.push((value, hh.clone(), true));
            rest.push((side, hh, true));
        }
    }
    // Excluded intervals that stay: one splits the loop; several only in an order in
    // which each one provably ends before the next begins.
    match order_holes(&open, facts) {
        Some(order) => {
            level.holes = order
                .into_iter()
                .map(|k| (open[k].1.clone(), open[k].2.clone()))
                .collect()
        }
        // Conditions derived for outer variables may be dropped; stated ones may not.
        None if open.iter().all(|h| h.3) => {}
        None => return None,
    }
    level
        .lowers
        .extend(low.iter().map(|(a, b, _)| div(b.neg(), a, true)));
    level
        .uppers
        .extend(up.iter().map(|(c, d, _)| div(d.clone(), c, false)));
    Some((level, rest))
}

/// An order of the excluded intervals of `A v^2 + B v + C >= 0` (`A > 0`, constant) in
/// which each one's upper root is at most the next one's lower root for every value of
/// the outer variables within their bounds (ranges of `-B` and of the discriminant over
/// that box; where the roots are not real both are the vertex, which the same bounds
/// cover). `None` if there is no such order that these bounds prove.
fn order_holes(open: &[(Vec<Poly>, Expr, Expr, bool)], facts: &Facts) -> Option<Vec<usize>> {
    if open.len() <= 1 {
        return Some((0..open.len()).collect());
    }
    // Per interval: 2A, an upper bound of 2A * (upper root), a lower bound of 2A * (lower
    // root): -B +- sqrt(D) with -B and D over the box.
    let ends: Vec<(Int, Int, Int)> = open
        .iter()
        .map(|(cs, ..)| {
            let two_a = cs[2].constant_value()?.mul(&Int::from(2));
            let minus_b = facts.range(&cs[1].neg());
            let disc = cs[1]
                .mul(&cs[1])
                .sub(&cs[2].mul(&cs[0]).scale(&Int::from(4)));
            let d = facts.range(&disc).1?.max(Int::from(0));
            let s = d.isqrt();
            let root = if s.mul(&s) == d {
                s
            } else {
                s.add(&Int::from(1))
            };
            Some((two_a, minus_b.1?.add(&root), minus_b.0?.sub(&root)))
        })
        .collect::<Option<_>>()?;
    // i before j: upper root of i <= lower root of j, i.e. U_i / 2A_i <= L_j / 2A_j.
    let before = |i: usize, j: usize| ends[i].1.mul(&ends[j].0) <= ends[j].2.mul(&ends[i].0);
    let mut order: Vec<usize> = Vec::with_capacity(open.len());
    for i in 0..open.len() {
        let at = (0..=order.len()).find(|&k| {
            (k == 0 || before(order[k - 1], i)) && (k == order.len() || before(i, order[k]))
        })?;
        order.insert(at, i);
    }
    Some(order)
}

/// For `q = A v^2 + B v + C` (coefficients `cs`) at the point `v = p / r` (`r > 0`):
/// `r^2 q(p / r)`, and `2A p + B r = 2A r (p / r - vertex)` with the vertex `-B / (2A)`.
fn at_point(cs: &[Poly], p: &Poly, r: &Poly) -> (Poly, Poly) {
    let (a, b, c) = (&cs[2], &cs[1], &cs[0]);
    let value = a
        .mul(&p.mul(p))
        .add(&b.mul(&p.mul(r)))
        .add(&c.mul(&r.mul(r)));
    let side = a.mul(p).scale(&Int::from(2)).add(&b.mul(r));
    (value, side)
}

/// The input constraints behind a combination: the union of its parts' lists.
fn joined(parts: &[&Vec<usize>]) -> Vec<usize> {
    let mut h: Vec<usize> = parts.iter().flat_map(|p| p.iter().copied()).collect();
    h.sort_unstable();
    h.dedup();
    h
}

/// `A v^2 + B v + C >= 0` with `A < 0`: the interval between the roots
/// `(B' ± sqrt(D)) / (2A')` (`A' = -A`, `B' = B`, `D = B^2 - 4AC`), rounded inwards, and
/// the condition `D >= 0` that it is real.
fn quadratic_interval(cs: &[Poly], facts: &Facts) -> (Expr, Expr, Poly) {
    let (a, b, c) = (cs[2].neg(), &cs[1], &cs[0]);
    if b.is_zero() {
        // a v^2 <= c: |v| <= floor(sqrt(c / a)).
        let r = sqrt_of_quotient(c, &a, false, facts);
        return (neg(r.clone()), r, c.clone());
    }
    let disc = b.mul(b).add(&a.mul(c).scale(&Int::from(4)));
    let (num, rad, den) = reduced_roots(b, &disc, &a.scale(&Int::from(2)));
    let s = sqrt_poly(&rad, false, facts);
    let lo = divide(
        Expr::Sum(vec![Expr::Poly(num.clone()), neg(s.clone())]),
        &den,
        true,
    );
    let hi = divide(Expr::Sum(vec![Expr::Poly(num), s]), &den, false);
    (lo, hi, positive_part(&disc, facts))
}

/// `A v^2 + B v + C >= 0` with `A > 0`: the end of the part left of the excluded
/// interval (`v <=` the floor of the lower root) and the start of the part right of it
/// (`v >=` the ceiling of the upper root). Where the roots are not real the square roots
/// are 0 and both ends are the rounded vertex.
fn hole_ends(cs: &[Poly], facts: &Facts) -> (Expr, Expr) {
    let (a, b, c) = (&cs[2], &cs[1], &cs[0]);
    if b.is_zero() {
        // v^2 >= -c / a: |v| >= s = ceil(sqrt(-c / a)), with s = 0 where -c <= 0.
        let s = sqrt_of_quotient(&c.neg(), a, true, facts);
        return (neg(s.clone()), s);
    }
    let disc = b.mul(b).sub(&a.mul(c).scale(&Int::from(4)));
    let (num, rad, den) = reduced_roots(&b.neg(), &disc, &a.scale(&Int::from(2)));
    let s = sqrt_poly(&rad, true, facts);
    let left = divide(
        Expr::Sum(vec![Expr::Poly(num.clone()), neg(s.clone())]),
        &den,
        false,
    );
    let right = divide(Expr::Sum(vec![Expr::Poly(num), s]), &den, true);
    (left, right)
}

/// `A v^k + C` (`k >= 3`, no other powers of `v`) compared with 0: the bounds of `v`
/// and, for even `k`, the condition that the interval is real. `None` for any other
/// polynomial of degree 3 or more.
fn binomial_bounds(
    cs: &[Poly],
    facts: &Facts,
) -> Option<(Option<Expr>, Option<Expr>, Option<Poly>)> {
    let k = cs.len() - 1;
    if cs[1..k].iter().any(|c| !c.is_zero()) {
        return None;
    }
    let (a, c) = (&cs[k], &cs[0]);
    let kk = u32::try_from(k).ok()?;
    let sign = facts.sign(a)?;
    let root = |num: Poly, den: &Poly, ceil: bool| Expr::Root {
        arg: Box::new(div(num, den, ceil)),
        k: kk,
        ceil,
    };
    if k % 2 == 0 {
        if sign > 0 {
            return None; // an excluded interval of degree >= 4: left to the CAD
        }
        // |v| <= floor((c / -a)^(1/k)).
        let r = root(c.clone(), &a.neg(), false);
        return Some((Some(neg(r.clone())), Some(r), Some(positive_part(c, facts))));
    }
    if sign > 0 {
        // v^k >= -c / a: v >= ceil of the real root.
        Some((Some(root(c.neg(), a, true)), None, None))
    } else {
        Some((None, Some(root(c.clone(), &a.neg(), false)), None))
    }
}

/// `floor(sqrt(num / den))` (or the ceiling of it) for `den > 0`: exact, since rounding
/// the quotient first does not change the rounded root.
fn sqrt_of_quotient(num: &Poly, den: &Poly, ceil: bool, facts: &Facts) -> Expr {
    if den.is_one() {
        return sqrt_poly(num, ceil, facts);
    }
    if let Some(d) = den.constant_value() {
        if num.integer_content().div_mod_floor(&d).1.is_zero() {
            return sqrt_poly(&num.div_scalar_exact(&d), ceil, facts);
        }
    }
    Expr::Root {
        arg: Box::new(div(num.clone(), den, ceil)),
        k: 2,
        ceil,
    }
}

/// `floor(sqrt(p))` (or its ceiling), as a polynomial when `p` is the square of one whose
/// sign the bounds decide (`isqrt(a*a)` is `a` for `a >= 0`).
fn sqrt_poly(p: &Poly, ceil: bool, facts: &Facts) -> Expr {
    if p.is_constant() {
        let root = if ceil {
            Expr::CeilSqrt(p.clone())
        } else {
            Expr::Isqrt(p.clone())
        };
        return root.fold_constants();
    }
    if let Some(r) = square_root(p) {
        if facts.nonneg(&r) {
            return Expr::Poly(r);
        }
        if facts.nonneg(&r.neg()) {
            return Expr::Poly(r.neg());
        }
    }
    if ceil {
        Expr::CeilSqrt(p.clone())
    } else {
        Expr::Isqrt(p.clone())
    }
}

/// The roots `(num ± sqrt(rad)) / den` of `(b ± sqrt(disc)) / den` with the largest
/// common factor `g` of `b`, `den` and `sqrt` of the discriminant's content taken out
/// (`(8 ± sqrt(12x - 48)) / 2` is `4 ± sqrt(3x - 12)`).
fn reduced_roots(b: &Poly, disc: &Poly, den: &Poly) -> (Poly, Poly, Poly) {
    let g = square_part(&disc.integer_content())
        .gcd(&b.integer_content())
        .gcd(&den.integer_content());
    if g.is_zero() || g.is_one() {
        return (b.clone(), disc.clone(), den.clone());
    }
    (
        b.div_scalar_exact(&g),
        disc.div_scalar_exact(&g.mul(&g)),
        den.div_scalar_exact(&g),
    )
}

/// The largest `s` with `s^2` dividing `n` (by trial division: contents are small).
fn square_part(n: &Int) -> Int {
    let mut n = n.abs();
    let mut s = Int::from(1);
    let mut p = Int::from(2);
    let mut steps = 0;
    while p.mul(&p) <= n && steps < 10_000 {
        let pp = p.mul(&p);
        while n.div_mod_floor(&pp).1.is_zero() {
            n = n.div_mod_floor(&pp).0;
            s = s.mul(&p);
        }
        while n.div_mod_floor(&p).1.is_zero() {
            n = n.div_mod_floor(&p).0;
        }
        p = p.add(&Int::from(1));
        steps += 1;
    }
    s
}

/// `-e`, folded into a polynomial when `e` is one.
fn neg(e: Expr) -> Expr {
    match e {
        Expr::Poly(p) => Expr::Poly(p.neg()),
        Expr::Neg(inner) => *inner,
        other => Expr::Neg(Box::new(other)),
    }
}

/// `p` without factors that are positive wherever the bounds hold, and without its
/// content (the sign of `p >= 0` is that of what is left): the discriminant of
/// `b x^2 + a y^2 <= r` in `y` is `-4a (b x^2 - r)`, and the condition is `r - b x^2 >= 0`;
/// the pair `n <= i*j <= 2n` gives `i*n >= 0`, which is `n >= 0` for `i >= 1`. Only for
/// derived conditions: they need to hold on the domain, where the bounds do.
fn positive_part(p: &Poly, facts: &Facts) -> Poly {
    let p = without_positive_variables(p, facts);
    let (unit, factors) = p.square_free();
    if factors.len() < 2 {
        return primitive(&p);
    }
    let mut out = Poly::constant(if unit.signum() < 0 {
        Int::from(-1)
    } else {
        Int::from(1)
    });
    for (g, m) in factors {
        match facts.sign(&g) {
            Some(1) => {}
            Some(_) if m % 2 == 0 => {}
            Some(_) => out = out.neg(),
            None => out = out.mul(&g.pow(m)),
        }
    }
    out
}

/// `p` divided by the powers of variables that divide every term and are positive
/// wherever the bounds hold.
fn without_positive_variables(p: &Poly, facts: &Facts) -> Poly {
    let mut q = p.clone();
    for v in p.vars() {
        let e = p.terms().iter().map(|(m, _)| m.exp(v)).min().unwrap_or(0);
        if e == 0 || facts.sign(&Poly::var(v)) != Some(1) {
            continue;
        }
        if let Some(d) = q.div_exact(&Poly::var(v).pow(e)) {
            q = d;
        }
    }
    q
}

/// Drops constraints implied by another one plus something non-negative, and constants
/// that hold; `None` on a constraint that never holds.
fn simplify(cons: Vec<Tracked>, facts: &Facts) -> Option<Vec<Tracked>> {
    let mut out: Vec<Tracked> = Vec::with_capacity(cons.len());
    'next: for (q, h, derived) in cons {
        let q = primitive(&q);
        if let Some(v) = q.constant_value() {
            if v.signum() < 0 {
                return None;
            }
            continue;
        }
        if facts.nonneg(&q) {
            continue;
        }
        let mut derived = derived;
        let mut k = 0;
        while k < out.len() {
            let d = q.sub(&out[k].0);
            if facts.nonneg(&d) {
                // q = out[k] + (d >= 0): implied; out[k] now stands for q as well.
                out[k].2 &= derived;
                continue 'next;
            }
            if facts.nonneg(&d.neg()) {
                derived &= out[k].2;
                out.swap_remove(k);
                continue;
            }
            k += 1;
        }
        out.push((q, h, derived));
    }
    Some(out)
}
