//! Scanning by Fourier–Motzkin elimination, for domains whose constraints are linear in
//! every loop variable with coefficients of known sign: tiled affine domains
//! (`w*t1 + o1 <= n` with `w >= 1`) and affine ones.
//!
//! Why not the CAD there: a loop needs the largest lower and the smallest upper bound of
//! its variable, not which of them is tighter, so the emitted `max`/`min` replace the
//! resultants of two lower (or two upper) bounds that split the outer space into cells
//! (for the tiled seed cases those splits are millions of cells). What the loops still
//! need from the outer space is that each variable is bounded there: the real shadow that
//! Fourier–Motzkin computes from pairs of one lower and one upper bound. Over the
//! integers the shadow may contain outer values with no inner point; the inner loop is
//! then empty, so every point still runs exactly once.
//!
//! A coefficient's sign is decided from lower bounds of the parameters in the context
//! (tile sizes are at least 1): shifted to those bounds, a polynomial with only
//! non-negative coefficients is non-negative. Anything else returns `None` and the caller
//! uses the CAD.

use crate::ast::Node;
use crate::error::GenError;
use crate::expr::Expr;
use crate::signs::Facts;
use cad::formula::{Formula, Rel};
use polys::{Coeff, Int, Poly, Vars};

/// Full/partial tile separation: the `n = tile_levels` loops after the parameters are
/// tile loops, the next `n` point loops. Full tiles get point loops of the tile's constant
/// shape; partial tiles keep the exact bounds.
#[derive(Clone, Debug)]
pub struct Separation {
    /// Number `n` of tiled dimensions: the variables are the parameters, then `n` tile
    /// coordinates, then `n` point coordinates.
    pub tile_levels: usize,
    /// Polynomials `>= 0` over parameters and tile coordinates: the tile is full.
    pub full: Vec<Poly>,
    /// Polynomials `>= 0` over point coordinates and parameters: the tile's points.
    pub tile: Vec<Poly>,
}

/// Bounds of one loop variable for one statement: `a v + b >= 0` with `a > 0` (lower) and
/// `-c v + d >= 0` with `c > 0` (upper), as `(a, b)` and `(c, d)`.
#[derive(Clone, Debug, Default)]
struct Level {
    lowers: Vec<(Poly, Poly)>,
    uppers: Vec<(Poly, Poly)>,
}

impl Level {
    fn lower_expr(&self) -> Expr {
        combine(
            self.lowers
                .iter()
                .map(|(a, b)| div(b.neg(), a, true))
                .collect(),
            Expr::Max,
        )
    }

    fn upper_expr(&self) -> Expr {
        combine(
            self.uppers
                .iter()
                .map(|(c, d)| div(d.clone(), c, false))
                .collect(),
            Expr::Min,
        )
    }
}

pub(crate) fn div(num: Poly, den: &Poly, ceil: bool) -> Expr {
    if den.is_one() {
        Expr::Poly(num)
    } else if ceil {
        Expr::CeilDiv(Box::new(Expr::Poly(num)), den.clone())
    } else {
        Expr::FloorDiv(Box::new(Expr::Poly(num)), den.clone())
    }
}

fn combine(mut parts: Vec<Expr>, f: fn(Vec<Expr>) -> Expr) -> Expr {
    parts.dedup();
    if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        f(parts)
    }
}

/// One statement after elimination: bounds per loop level and the constraints left on
/// the parameters.
struct Eliminated {
    levels: Vec<Level>,
    guards: Vec<Poly>,
}

/// A conjunction as polynomials `>= 0`, or `None` if the formula is not a conjunction of
/// (in)equalities. `Some(None)`: the formula is false.
pub(crate) fn conjunction(f: &Formula) -> Option<Option<Vec<Poly>>> {
    let mut out = Vec::new();
    let mut stack = vec![f.tighten_strict()];
    while let Some(g) = stack.pop() {
        match g {
            Formula::True => {}
            Formula::False => return Some(None),
            Formula::And(fs) => stack.extend(fs),
            Formula::Atom(a) => match a.rel {
                Rel::Ge => out.push(a.poly),
                Rel::Le => out.push(a.poly.neg()),
                Rel::Eq => {
                    out.push(a.poly.neg());
                    out.push(a.poly);
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    Some(Some(out))
}

/// The scanner's input: statement formulas over `vars` (parameters first), the context
/// and pruning formulas over the parameters, and each statement's call arguments.
pub struct LinearInput<'a> {
    /// Parameters, then loop variables outermost first.
    pub vars: &'a Vars,
    /// Number of parameters (the first `nparams` of `vars`).
    pub nparams: usize,
    /// Per statement: its domain over `vars`.
    pub formulas: &'a [Formula],
    /// Formulas over the parameters that hold wherever a domain does (the context, the
    /// caller's pruning); a scanner declines the input (the caller then uses the CAD)
    /// when they are not conjunctions on the parameters alone.
    pub context: &'a [Formula],
    /// Per statement: the arguments of its [`Node::Stmt`] over `vars`.
    pub calls: &'a [Vec<Expr>],
    /// Full/partial tile separation to apply, if any (tiled input only).
    pub separation: Option<&'a Separation>,
    /// The caller's limits: the scanners check the time as they go.
    pub limits: &'a cad::Limits,
}

impl LinearInput<'_> {
    /// The context as constraints `q >= 0` on the parameters; `Some(None)` if it is
    /// false, `None` if it is not a conjunction on the parameters alone.
    pub(crate) fn context_constraints(&self) -> Option<Option<Vec<Poly>>> {
        let mut context = Vec::new();
        for f in self.context {
            match conjunction(f)? {
                Some(c) => context.extend(c),
                None => return Some(None),
            }
        }
        if context
            .iter()
            .any(|q| q.main_var().is_some_and(|v| v >= self.nparams))
        {
            return None;
        }
        Some(Some(context))
    }
}

/// Loops for the input, or `None` when some constraint is not linear in a loop variable
/// with a coefficient of known sign (the caller then uses the CAD).
pub fn scan(input: &LinearInput) -> Result<Option<Vec<Node>>, GenError> {
    input.limits.check_time()?;
    let nvars = input.vars.len();
    let np = input.nparams;
    let context = match input.context_constraints() {
        Some(Some(c)) => c,
        Some(None) => return Ok(Some(Vec::new())),
        None => return Ok(None),
    };
    let facts = Facts::new(&context, np);
    let mut stmts: Vec<(usize, Eliminated)> = Vec::new();
    for (s, f) in input.formulas.iter().enumerate() {
        let cons = match conjunction(f) {
            Some(Some(c)) => c,
            Some(None) => continue,
            None => return Ok(None),
        };
        let mut cons = cons;
        cons.extend(context.iter().cloned());
        match eliminate(cons, np, np, nvars, &facts, input.vars)? {
            Some(Some(e)) => stmts.push((s, e)),
            Some(None) => {} // empty for every parameter value
            None => return Ok(None),
        }
    }
    // The facts used to decide signs hold only inside the context: check them first.
    let mut wrap: Vec<(usize, Int)> = facts
        .lower
        .iter()
        .enumerate()
        .filter_map(|(v, l)| l.clone().map(|l| (v, l)))
        .collect();
    wrap.reverse();
    let body = match (&stmts[..], input.separation) {
        ([], _) => return Ok(Some(Vec::new())),
        ([(s, e)], sep) => {
            let mut body = match sep.and_then(|sep| separate(input, e, *s, sep, &facts, np)) {
                Some(nodes) => nodes,
                None => single(input, e, *s, np, np),
            };
            for q in e.guards.iter().rev() {
                match guard(q, np, &facts, body) {
                    Some(b) => body = b,
                    None => return Ok(None),
                }
            }
            body
        }
        _ => match several(input, &stmts, np, &facts) {
            Some(b) => b,
            None => return Ok(None),
        },
    };
    let mut body = body;
    for (v, l) in wrap {
        body = vec![Node::Guard {
            var: v,
            lower: Some(Expr::Poly(Poly::constant(l))),
            upper: None,
            body,
        }];
    }
    Ok(Some(body))
}

/// Lower and upper bound of every variable from `fm_np` on (the ones before are treated
/// as parameters; only those with a lower bound in `context` have known signs), or
/// `None` if the constraints are not linear with known signs or contradict each other.
pub(crate) fn level_bounds(
    cons: Vec<Poly>,
    fm_np: usize,
    nvars: usize,
    context: &[Formula],
    vars: &Vars,
) -> Result<Option<Vec<(Expr, Expr)>>, GenError> {
    let mut ctx = Vec::new();
    for f in context {
        match conjunction(f) {
            Some(Some(c)) => ctx.extend(c),
            _ => return Ok(None),
        }
    }
    let facts = Facts::new(&ctx, fm_np);
    Ok(match eliminate(cons, fm_np, fm_np, nvars, &facts, vars)? {
        Some(Some(e)) => Some(
            e.levels
                .iter()
                .map(|l| (l.lower_expr(), l.upper_expr()))
                .collect(),
        ),
        _ => None,
    })
}

/// Fourier–Motzkin from the innermost loop variable out to variable `from`. `Some(None)`: a contradiction
/// (no point for any parameter value); `None`: not linear with known signs.
fn eliminate(
    cons: Vec<Poly>,
    np: usize,
    from: usize,
    nvars: usize,
    facts: &Facts,
    vars: &Vars,
) -> Result<Option<Option<Eliminated>>, GenError> {
    // Constraints on the parameters alone that the input states need guards; those that
    // elimination derives say that some loop's range is non-empty, which the loop checks.
    let stated: Vec<Poly> = cons
        .iter()
        .filter(|q| q.main_var().is_none_or(|v| v < from))
        .map(primitive)
        .collect();
    // Each constraint with the input constraints it combines (Kohler's criterion below).
    let mut cons: Vec<(Poly, Vec<usize>)> = cons
        .into_iter()
        .enumerate()
        .map(|(i, q)| (q, vec![i]))
        .collect();
    let mut levels = vec![Level::default(); nvars - np];
    for v in (from..nvars).rev() {
        let mut rest = Vec::new();
        let mut level = Level::default();
        let (mut low_h, mut up_h) = (Vec::new(), Vec::new());
        for (q, h) in cons {
            let cs = q.coeffs(v);
            match cs.len() {
                0 | 1 => rest.push((q, h)),
                2 => {
                    let a = &cs[1];
                    if a.main_var().is_some_and(|u| u >= np) {
                        return Ok(None);
                    }
                    match facts.sign(a) {
                        Some(1) => {
                            level.lowers.push((a.clone(), cs[0].clone()));
                            low_h.push(h);
                        }
                        Some(_) => {
                            level.uppers.push((a.neg(), cs[0].clone()));
                            up_h.push(h);
                        }
                        None => return Ok(None),
                    }
                }
                _ => return Ok(None),
            }
        }
        let side = if level.lowers.is_empty() {
            Some("below")
        } else if level.uppers.is_empty() {
            Some("above")
        } else {
            None
        };
        if let Some(side) = side {
            return Err(GenError::Unbounded {
                var: vars.name(v),
                side,
                region: String::new(),
            });
        }
        // Kohler: after eliminating `e` variables, a combination of more than `e + 1`
        // input constraints is implied by the others (for the real shadow), so it is
        // dropped before it multiplies.
        let eliminated = nvars - v;
        for ((a, b), hl) in level.lowers.iter().zip(&low_h) {
            for ((c, d), hu) in level.uppers.iter().zip(&up_h) {
                let mut h: Vec<usize> = hl.iter().chain(hu).copied().collect();
                h.sort_unstable();
                h.dedup();
                if h.len() <= eliminated + 1 {
                    rest.push((c.mul(b).add(&a.mul(d)), h));
                }
            }
        }
        if rest.len() > 4000 {
            return Ok(None); // leave it to the other engines rather than blow up
        }
        cons = match simplify(rest, np, facts) {
            Some(c) => c,
            None => return Ok(Some(None)),
        };
        levels[v - np] = level;
    }
    let guards = cons
        .into_iter()
        .map(|(q, _)| q)
        .filter(|q| stated.contains(q))
        .collect();
    Ok(Some(Some(Eliminated { levels, guards })))
}

/// Drops constraints implied by a parallel one or by the parameters' lower bounds and
/// normalises contents; `None` on a contradiction.
fn simplify(
    cons: Vec<(Poly, Vec<usize>)>,
    np: usize,
    facts: &Facts,
) -> Option<Vec<(Poly, Vec<usize>)>> {
    let params_only = |p: &Poly| p.main_var().is_none_or(|v| v < np);
    let mut out: Vec<(Poly, Vec<usize>)> = Vec::with_capacity(cons.len());
    'next: for (q, h) in cons {
        let q = primitive(&q);
        if let Some(v) = q.constant_value() {
            if v.signum() < 0 {
                return None;
            }
            continue;
        }
        if params_only(&q) && facts.nonneg(&q) {
            continue;
        }
        let mut k = 0;
        while k < out.len() {
            let d = q.sub(&out[k].0);
            if params_only(&d) {
                if facts.nonneg(&d) {
                    continue 'next; // q = out[k] + (d >= 0): implied
                }
                if facts.nonneg(&d.neg()) {
                    out.swap_remove(k);
                    continue;
                }
            }
            k += 1;
        }
        out.push((q, h));
    }
    Some(out)
}

/// `q` divided by its positive integer content.
pub(crate) fn primitive(q: &Poly) -> Poly {
    let c = q.integer_content();
    if c.is_zero() || c.is_one() {
        q.clone()
    } else {
        q.div_scalar_exact(&c)
    }
}

/// A parameter constraint as a guard on one parameter with a coefficient of known sign.
pub(crate) fn guard(q: &Poly, np: usize, facts: &Facts, body: Vec<Node>) -> Option<Vec<Node>> {
    for v in (0..np).rev() {
        let cs = q.coeffs(v);
        if cs.len() != 2 {
            continue;
        }
        let (lower, upper) = match facts.sign(&cs[1]) {
            Some(1) => (Some(div(cs[0].neg(), &cs[1], true)), None),
            Some(_) => (None, Some(div(cs[0].clone(), &cs[1].neg(), false))),
            None => continue,
        };
        return Some(vec![Node::Guard {
            var: v,
            lower,
            upper,
            body,
        }]);
    }
    None
}

fn call(input: &LinearInput, s: usize) -> Node {
    Node::Stmt {
        stmt: s,
        args: input.calls[s].clone(),
    }
}

/// The loop nest of one statement from loop variable `from` inwards.
fn single(input: &LinearInput, e: &Eliminated, s: usize, np: usize, from: usize) -> Vec<Node> {
    let mut body = vec![call(input, s)];
    for v in (from..input.vars.len()).rev() {
        let level = &e.levels[v - np];
        body = vec![Node::Loop {
            var: v,
            lower: level.lower_expr(),
            upper: level.upper_expr(),
            step: 1,
            body,
        }];
    }
    body
}

/// Several statements: each loop runs over the union of the statements' ranges, and
/// each statement's instances are guarded by its own ranges and parameter constraints.
fn several(
    input: &LinearInput,
    stmts: &[(usize, Eliminated)],
    np: usize,
    facts: &Facts,
) -> Option<Vec<Node>> {
    let nvars = input.vars.len();
    let mut body = Vec::new();
    for (s, e) in stmts {
        let mut inner = vec![call(input, *s)];
        for v in (np..nvars).rev() {
            let level = &e.levels[v - np];
            inner = vec![Node::Guard {
                var: v,
                lower: Some(level.lower_expr()),
                upper: Some(level.upper_expr()),
                body: inner,
            }];
        }
        for q in e.guards.iter().rev() {
            inner = guard(q, np, facts, inner)?;
        }
        body.extend(inner);
    }
    for v in (np..nvars).rev() {
        let lowers = stmts
            .iter()
            .map(|(_, e)| e.levels[v - np].lower_expr())
            .collect();
        let uppers = stmts
            .iter()
            .map(|(_, e)| e.levels[v - np].upper_expr())
            .collect();
        body = vec![Node::Loop {
            var: v,
            lower: combine(lowers, Expr::Min),
            upper: combine(uppers, Expr::Max),
            step: 1,
            body,
        }];
    }
    Some(body)
}

/// Full/partial tile separation: each tile loop splits into the tiles before, inside and
/// after the range where the full-tile constraints hold; inside all of them the point
/// loops have the tile's constant shape.
fn separate(
    input: &LinearInput,
    e: &Eliminated,
    s: usize,
    sep: &Separation,
    facts: &Facts,
    np: usize,
) -> Option<Vec<Node>> {
    let n = sep.tile_levels;
    let nvars = input.vars.len();
    if nvars != np + 2 * n {
        return None;
    }
    // The tile's own shape for the point loops.
    let tile = match eliminate(sep.tile.clone(), np, np + n, nvars, facts, input.vars) {
        Ok(Some(Some(t))) => t,
        _ => return None,
    };
    let mut box_nest = vec![call(input, s)];
    for v in (np + n..nvars).rev() {
        let level = &tile.levels[v - np];
        box_nest = vec![Node::Loop {
            var: v,
            lower: level.lower_expr(),
            upper: level.upper_expr(),
            step: 1,
            body: box_nest,
        }];
    }
    // Full-tile constraints by their innermost tile variable.
    let mut full: Vec<Level> = vec![Level::default(); n];
    for q in &sep.full {
        let Some(v) = q.main_var() else {
            if q.constant_value().is_some_and(|c| c.signum() < 0) {
                return None; // no full tiles at all
            }
            continue;
        };
        if v < np {
            if facts.nonneg(q) {
                continue;
            }
            return None;
        }
        if v >= np + n {
            return None;
        }
        let cs = q.coeffs(v);
        if cs.len() != 2 || cs[1].main_var().is_some_and(|u| u >= np) {
            return None;
        }
        match facts.sign(&cs[1])? {
            1 => full[v - np].lowers.push((cs[1].clone(), cs[0].clone())),
            _ => full[v - np].uppers.push((cs[1].neg(), cs[0].clone())),
        }
    }
    let splitter = Splitter {
        input,
        e,
        s,
        np,
        n,
        full: &full,
        box_nest: &box_nest,
    };
    Some(splitter.split(0))
}

/// The pieces [`separate`] splits tile loops with.
struct Splitter<'a> {
    input: &'a LinearInput<'a>,
    e: &'a Eliminated,
    s: usize,
    np: usize,
    n: usize,
    full: &'a [Level],
    box_nest: &'a [Node],
}

impl Splitter<'_> {
    /// Tile loop `k` and everything inside it.
    fn split(&self, k: usize) -> Vec<Node> {
        if k == self.n {
            return self.box_nest.to_vec();
        }
        let v = self.np + k;
        let level = &self.e.levels[k];
        let (lo, hi) = (level.lower_expr(), level.upper_expr());
        let full = &self.full[k];
        let flo = (!full.lowers.is_empty()).then(|| full.lower_expr());
        let fhi = (!full.uppers.is_empty()).then(|| full.upper_expr());
        let generic = || single(self.input, self.e, self.s, self.np, v + 1);
        let lp = |lower: Expr, upper: Expr, body: Vec<Node>| Node::Loop {
            var: v,
            lower,
            upper,
            step: 1,
            body,
        };
        let mut out = Vec::new();
        // Tiles before the full range, the full range, tiles after it: disjoint and in
        // order also when the full range is empty (then the last starts at `flo`).
        if let Some(f) = &flo {
            out.push(lp(
                lo.clone(),
                min_of(vec![hi.clone(), f.clone().plus(-1)]),
                generic(),
            ));
        }
        let mid_lo = match &flo {
            Some(f) => max_of(vec![lo.clone(), f.clone()]),
            None => lo.clone(),
        };
        let mid_hi = match &fhi {
            Some(f) => min_of(vec![hi.clone(), f.clone()]),
            None => hi.clone(),
        };
        out.push(lp(mid_lo, mid_hi, self.split(k + 1)));
        if let Some(f) = &fhi {
            let mut starts = vec![lo.clone()];
            starts.extend(flo.clone());
            starts.push(f.clone().plus(1));
            out.push(lp(max_of(starts), hi.clone(), generic()));
        }
        out
    }
}

/// `max` of the parts, with nested maxima flattened, constants folded into one and
/// duplicates removed.
pub(crate) fn max_of(parts: Vec<Expr>) -> Expr {
    extremum(parts, true)
}

/// `min` of the parts, like [`max_of`].
pub(crate) fn min_of(parts: Vec<Expr>) -> Expr {
    extremum(parts, false)
}

fn extremum(parts: Vec<Expr>, max: bool) -> Expr {
    let mut flat = Vec::new();
    let mut constant: Option<Int> = None;
    let mut stack = parts;
    while let Some(p) = stack.pop() {
        match p {
            Expr::Max(inner) if max => stack.extend(inner),
            Expr::Min(inner) if !max => stack.extend(inner),
            other => match other.constant_value() {
                Some(c) => {
                    constant = Some(match constant {
                        Some(k) if (c > k) == max => c,
                        Some(k) => k,
                        None => c,
                    })
                }
                None => flat.push(other),
            },
        }
    }
    flat.reverse();
    if let Some(c) = constant {
        flat.push(Expr::Poly(Poly::constant(c)));
    }
    dedup(&mut flat);
    // Absorption: min(a, max(a, x)) = a and max(a, min(a, x)) = a.
    let absorbed: Vec<bool> = flat
        .iter()
        .map(|p| match p {
            Expr::Max(inner) if !max => inner.iter().any(|e| flat.contains(e)),
            Expr::Min(inner) if max => inner.iter().any(|e| flat.contains(e)),
            _ => false,
        })
        .collect();
    let mut keep = absorbed.iter().map(|a| !a);
    flat.retain(|_| keep.next().unwrap_or(true));
    // A constant bound that another part never goes below (`ps_ceil_sqrt` is at least
    // 0): max(c, x) = x for x >= c, and min(c, x) = c.
    if let Some(c) = flat.last().and_then(Expr::constant_value) {
        let above = |e: &Expr| at_least(e).is_some_and(|l| l >= c);
        if max && flat.len() > 1 && flat[..flat.len() - 1].iter().any(above) {
            flat.pop();
        } else if !max {
            let n = flat.len() - 1;
            let mut k = 0;
            flat.retain(|e| {
                k += 1;
                k > n || !above(e)
            });
        }
    }
    combine(flat, if max { Expr::Max } else { Expr::Min })
}

/// A constant the expression is never below, read off its form.
fn at_least(e: &Expr) -> Option<Int> {
    match e {
        Expr::CeilSqrt(_) => Some(Int::from(0)),
        Expr::Isqrt(_) => Some(Int::from(-1)),
        Expr::Root { k, ceil, .. } if k % 2 == 0 => Some(Int::from(if *ceil { 0 } else { -1 })),
        Expr::Max(es) => es.iter().filter_map(at_least).max(),
        Expr::Min(es) => es
            .iter()
            .map(at_least)
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .min(),
        other => other.constant_value(),
    }
}

fn dedup(parts: &mut Vec<Expr>) {
    let mut seen: Vec<Expr> = Vec::with_capacity(parts.len());
    parts.retain(|p| {
        if seen.contains(p) {
            false
        } else {
            seen.push(p.clone());
            true
        }
    });
}
