//! Scanning finite unions of affine polyhedra (several statements, disjunctions, `!=`,
//! affine schedules) in the style of Quilleré–Rajopadhye–Wilde and CLooG: at each loop
//! level the statements' polyhedra are projected onto the outer variables, grouped into
//! pieces that are disjoint and ordered for every value of the outer variables, and each
//! piece becomes one loop whose body is scanned the same way.
//!
//! Why not the CAD there: the CAD splits the outer space wherever two bounds cross, while
//! a loop only needs its largest lower and smallest upper bound (`max`/`min`), and
//! polyhedra of one statement that never share a value of the loop variable need no
//! separation at all. The CAD stays the fallback: this module returns `None` for anything
//! it does not take (polynomial constraints, more than a few polyhedra, unbounded
//! variables, coefficients beyond 64 bits, too much work).
//!
//! Exactness over the integers rests on three facts:
//! - Disjunctions are made disjoint before scanning (`a or b` is `a`, or `not a and b`;
//!   `p != 0` is `p < 0` or `p > 0`), so no point belongs to two polyhedra of a statement.
//! - Fourier–Motzkin projections are real shadows with integer tightening (divide by the
//!   gcd, floor the constant), valid for every integer point. A bound that elimination
//!   derives is a non-negative combination of constraints on inner variables, so it holds
//!   wherever those hold: only constraints the input states must be enforced (by the loop
//!   range, the outer context or a guard); where a derived one fails, inner loops are
//!   empty. Empty loops are fine; visiting a point twice or missing one is not.
//! - Every decision (a piece is empty, a bound is implied, one polyhedron runs before
//!   another) is a proof of rational infeasibility of integer-tightened constraints, hence
//!   sound for integer points; when no proof is found the pieces stay together (one loop
//!   over the hull, guards where a stated bound is not implied) or are split by formulas
//!   that are disjoint and ordered for every outer value, empty polyhedra included.
//!
//! `linear`'s elimination works on polynomials because tiled coefficients contain
//! parameters; here every coefficient is an integer, so constraints are dense integer
//! vectors and the few hundred emptiness tests of a scan take microseconds each (that
//! integer elimination is `fourier_motzkin`'s). The bounds are printed with `linear`'s
//! `div`, `max_of` and `min_of`.

use crate::ast::Node;
use crate::expr::Expr;
use crate::fourier_motzkin::{dnf, infeasible, negate, project, Con};
use crate::linear::{div, max_of, min_of, LinearInput};
use polys::Poly;
use std::cell::Cell;

/// Polyhedra in all.
const MAX_ITEMS: usize = 200;
/// Emptiness tests per scan before leaving the input to the CAD.
const MAX_TESTS: usize = 200_000;

/// One polyhedron of one statement.
struct Item {
    stmt: usize,
    /// `proj[v]`: the constraints over variables `< v` (those from `v` on eliminated),
    /// each with whether the input states it; `proj[nvars]` is the polyhedron itself.
    proj: Vec<Vec<(Con, bool)>>,
}

/// A polyhedron active in the current loop nest, with the constraints on outer variables
/// that its instances must still check (stated bounds the loops do not enforce).
#[derive(Clone)]
struct Active {
    item: usize,
    pending: Vec<Con>,
}

/// The bounds of one polyhedron on the current loop variable.
#[derive(Clone)]
struct Bounds {
    lowers: Vec<(Con, bool)>,
    uppers: Vec<(Con, bool)>,
}

/// A loop range over part of the current variable with the polyhedra active in it.
struct Piece {
    lower: Expr,
    upper: Expr,
    /// Convex constraints that hold on the range (may be fewer than the range's own).
    cons: Vec<Con>,
    members: Vec<Active>,
}

struct Scanner<'a> {
    input: &'a LinearInput<'a>,
    nvars: usize,
    /// Variable slots: the loop variables and one spare, for a second copy of the
    /// current variable in order tests.
    width: usize,
    items: Vec<Item>,
    tests: Cell<usize>,
}

/// Loops for a union of affine polyhedra, or `None` when the input is not one this
/// scanner takes (the caller then uses the CAD).
pub fn scan(input: &LinearInput) -> Option<Vec<Node>> {
    if input.separation.is_some() {
        return None;
    }
    let np = input.nparams;
    let nvars = input.vars.len();
    let width = nvars + 1;
    let mut scanner = Scanner {
        input,
        nvars,
        width,
        items: Vec::new(),
        tests: Cell::new(0),
    };
    let mut context: Vec<Con> = Vec::new();
    for f in input.context {
        let mut d = dnf(f, false, width)?;
        match d.len() {
            0 => return Some(Vec::new()),
            1 => context.extend(d.pop()?),
            _ => return None,
        }
    }
    if context.iter().any(|c| c[np..width].iter().any(|&a| a != 0)) {
        return None;
    }
    if scanner.infeasible(context.clone()) {
        return Some(Vec::new());
    }
    let mut actives = Vec::new();
    for (s, f) in input.formulas.iter().enumerate() {
        let f = crate::fourier_motzkin::without_implied_disjunctions(f, &context, width);
        for conj in dnf(&f, false, width)? {
            let mut all = conj.clone();
            all.extend(context.iter().cloned());
            if scanner.infeasible(all) {
                continue;
            }
            let Some(proj) = project(&conj, np, nvars, width)? else {
                continue; // a contradiction: empty for every parameter value
            };
            // Constraints the input states on the parameters alone need a guard unless
            // the context implies them; derived ones say an inner loop is non-empty.
            let pending: Vec<Con> = proj[np]
                .iter()
                .filter(|(c, stated)| *stated && !scanner.implies(&context, &[], c))
                .map(|(c, _)| c.clone())
                .collect();
            actives.push(Active {
                item: scanner.items.len(),
                pending,
            });
            scanner.items.push(Item { stmt: s, proj });
            if scanner.items.len() > MAX_ITEMS {
                return None;
            }
        }
    }
    // The context is assumed, as isl assumes it and as the CAD path does: outside it
    // nothing is promised, so it needs no guard of its own.
    scanner.level(np, &context, actives)
}

impl Scanner<'_> {
    /// The loops of variable `v` and everything inside, for the active polyhedra, where
    /// `ctx` (over variables `< v`) holds.
    fn level(&self, v: usize, ctx: &[Con], active: Vec<Active>) -> Option<Vec<Node>> {
        // Out of time: give up like on any input the scanner does not take; the CAD that
        // would come next stops at once with the reason.
        self.input.limits.check_time().ok()?;
        if v == self.nvars {
            let mut active = active;
            active.sort_by_key(|a| (self.items[a.item].stmt, a.item));
            let mut out = Vec::new();
            for a in active {
                let stmt = self.items[a.item].stmt;
                let call = Node::Stmt {
                    stmt,
                    args: self.input.calls[stmt].clone(),
                };
                let pending = self.unimplied(ctx, &a.pending);
                out.extend(self.guarded(ctx, &pending, vec![call]));
            }
            return Some(out);
        }
        let mut live: Vec<(Active, Bounds)> = Vec::new();
        for a in active {
            let proj = &self.items[a.item].proj[v + 1];
            let mut all: Vec<Con> = ctx.to_vec();
            all.extend(proj.iter().map(|(c, _)| c.clone()));
            all.extend(a.pending.iter().cloned());
            if self.infeasible(all) {
                continue; // no point of this polyhedron under the outer loops
            }
            let b = self.tidy(ctx, v, proj);
            if b.lowers.is_empty() || b.uppers.is_empty() {
                return None; // unbounded: the CAD says where
            }
            live.push((a, b));
        }
        let k = live.len();
        if k == 0 {
            return Some(Vec::new());
        }
        // Pairwise: `before[i][j]`: every point of i comes before every point of j at
        // the same outer values; `exclusive`: never both at the same outer values.
        let mut before = vec![vec![false; k]; k];
        let mut comp: Vec<usize> = (0..k).collect();
        // Whether each live polyhedron has one value of `v`, asked once per level.
        let singles: Vec<Cell<Option<bool>>> = vec![Cell::new(None); k];
        let single = |i: usize| match singles[i].get() {
            Some(s) => s,
            None => {
                let s = self.single_valued(ctx, v, live[i].0.item);
                singles[i].set(Some(s));
                s
            }
        };
        for i in 0..k {
            for j in i + 1..k {
                let (pi, pj) = (live[i].0.item, live[j].0.item);
                if self.exclusive(ctx, v, pi, pj) {
                    continue;
                }
                // Ordered by the inner variables too, but only where one of the two has a
                // single value of `v` (`A[] -> [0, 0]` beside `B[i] -> [i, 1]`): it then
                // stands alone instead of as a guard in every iteration of the other's
                // loop. Two ranges, or two single values that are always the same
                // (`c1 = (c0 + 1)/3` for both), stay one loop, as a person writes them.
                if self.precedes(ctx, v, pi, pj) {
                    before[i][j] = true;
                    continue;
                }
                if self.precedes(ctx, v, pj, pi) {
                    before[j][i] = true;
                    continue;
                }
                let lex = match (single(i), single(j)) {
                    (true, true) => !self.same_value(ctx, v, pi, pj),
                    (a, b) => a != b,
                };
                if lex && self.precedes_lex(ctx, v, pi, pj) {
                    before[i][j] = true;
                } else if lex && self.precedes_lex(ctx, v, pj, pi) {
                    before[j][i] = true;
                } else {
                    let (ci, cj) = (find(&mut comp, i), find(&mut comp, j));
                    comp[ci.max(cj)] = ci.min(cj);
                }
            }
        }
        let roots: Vec<usize> = (0..k).map(|i| find(&mut comp, i)).collect();
        let order = component_order(&roots, &before);
        let mut out = Vec::new();
        for group in order {
            let members: Vec<(Active, Bounds)> = group.iter().map(|&i| live[i].clone()).collect();
            out.extend(self.component(v, ctx, members)?);
        }
        Some(out)
    }

    /// Loops for polyhedra that may share values of `v`.
    fn component(
        &self,
        v: usize,
        ctx: &[Con],
        members: Vec<(Active, Bounds)>,
    ) -> Option<Vec<Node>> {
        if members.len() == 1 {
            let (a, b) = &members[0];
            let cons: Vec<Con> = b
                .lowers
                .iter()
                .chain(&b.uppers)
                .map(|(c, _)| c.clone())
                .collect();
            let piece = Piece {
                lower: self.lower_of(v, &b.lowers, 0),
                upper: self.upper_of(v, &b.uppers, 0),
                cons,
                members: vec![a.clone()],
            };
            return self.emit(v, ctx, piece);
        }
        let hull = self.hull(v, ctx, &members);
        let guards = hull
            .members
            .iter()
            .zip(&members)
            .filter(|(h, (a, _))| h.pending.len() > a.pending.len())
            .count();
        // Two polyhedra of one value each (`x0 = c0` of two statements under the time
        // loops) differ only in conditions on the outer variables: one loop of one value
        // with guards, not the pieces of `separate` with bounds like `min(c0, max(c0 - 1,
        // 4))`.
        let single = || {
            members
                .iter()
                .all(|(a, _)| self.single_valued(ctx, v, a.item))
        };
        if guards == 0 || members.len() != 2 || single() {
            return self.emit(v, ctx, hull);
        }
        let mut out = Vec::new();
        for piece in self.separate(v, ctx, &members[0], &members[1]) {
            out.extend(self.emit(v, ctx, piece)?);
        }
        Some(out)
    }

    /// One loop over the union of the ranges; a polyhedron whose stated bounds the range
    /// does not imply checks them at its instances.
    fn hull(&self, v: usize, ctx: &[Con], members: &[(Active, Bounds)]) -> Piece {
        let side = |b: &Bounds, lower: bool| -> Vec<Con> {
            let s = if lower { &b.lowers } else { &b.uppers };
            s.iter().map(|(c, _)| c.clone()).collect()
        };
        // A bound is valid on the hull if every polyhedron's own bounds on that side
        // imply it (then it holds from the smallest lower to the largest upper bound).
        let mut valid: Vec<Con> = Vec::new();
        let mut dominant = [None, None];
        for (m, (_, b)) in members.iter().enumerate() {
            for (d, lower) in [true, false].into_iter().enumerate() {
                let mine = side(b, lower);
                let mut all_valid = true;
                for q in &mine {
                    let ok = members
                        .iter()
                        .enumerate()
                        .all(|(o, (_, ob))| o == m || self.implies(ctx, &side(ob, lower), q));
                    if ok {
                        if !valid.contains(q) {
                            valid.push(q.clone());
                        }
                    } else {
                        all_valid = false;
                    }
                }
                if all_valid && dominant[d].is_none() {
                    dominant[d] = Some(m);
                }
            }
        }
        let lower = match dominant[0] {
            Some(m) => self.lower_of(v, &members[m].1.lowers, 0),
            None => min_of(
                members
                    .iter()
                    .map(|(_, b)| self.lower_of(v, &b.lowers, 0))
                    .collect(),
            ),
        };
        let upper = match dominant[1] {
            Some(m) => self.upper_of(v, &members[m].1.uppers, 0),
            None => max_of(
                members
                    .iter()
                    .map(|(_, b)| self.upper_of(v, &b.uppers, 0))
                    .collect(),
            ),
        };
        let mut hctx = ctx.to_vec();
        hctx.extend(valid.iter().cloned());
        let members = members
            .iter()
            .map(|(a, b)| {
                let mut pending = a.pending.clone();
                for (q, stated) in b.lowers.iter().chain(&b.uppers) {
                    if *stated && !self.implies(&hctx, &[], q) {
                        pending.push(q.clone());
                    }
                }
                Active {
                    item: a.item,
                    pending,
                }
            })
            .collect();
        Piece {
            lower,
            upper,
            cons: valid,
            members,
        }
    }

    /// Two overlapping polyhedra A, B split by where the other's range starts and ends:
    /// A before B's start, B before A's start, both, A after B's end, B after A's end.
    /// At most one of the two "before" (and of the two "after") pieces is non-empty at
    /// any outer values, and each piece lies wholly before the next, also when A or B is
    /// empty there (the "after" pieces start no earlier than the other's start, so an
    /// empty range of the other does not make them overlap the "before" pieces). The
    /// common piece then absorbs one "after" piece with a guard on the other's end, as
    /// isl does, when that saves a loop.
    fn separate(
        &self,
        v: usize,
        ctx: &[Con],
        a: &(Active, Bounds),
        b: &(Active, Bounds),
    ) -> Vec<Piece> {
        let cons = |bs: &[(Con, bool)]| -> Vec<Con> { bs.iter().map(|(c, _)| c.clone()).collect() };
        let single = |bs: &[(Con, bool)]| -> Vec<Con> {
            // `v` outside a single bound is a convex constraint; outside several is not.
            match bs {
                [(c, _)] => vec![negate(c)],
                _ => Vec::new(),
            }
        };
        let (la, ua) = (
            self.lower_of(v, &a.1.lowers, 0),
            self.upper_of(v, &a.1.uppers, 0),
        );
        let (lb, ub) = (
            self.lower_of(v, &b.1.lowers, 0),
            self.upper_of(v, &b.1.uppers, 0),
        );
        let one = |x: &(Active, Bounds)| vec![x.0.clone()];
        let before = |x: &(Active, Bounds), y: &(Active, Bounds), lx: &Expr, ux: &Expr| {
            let mut c = cons(&x.1.lowers);
            c.extend(cons(&x.1.uppers));
            c.extend(single(&y.1.lowers));
            Piece {
                lower: lx.clone(),
                upper: min_of(vec![ux.clone(), self.lower_of(v, &y.1.lowers, -1)]),
                cons: c,
                members: one(x),
            }
        };
        let after =
            |x: &(Active, Bounds), y: &(Active, Bounds), lx: &Expr, ly: &Expr, ux: &Expr| {
                let mut c = cons(&x.1.lowers);
                c.extend(cons(&x.1.uppers));
                c.extend(cons(&y.1.lowers));
                c.extend(single(&y.1.uppers));
                Piece {
                    lower: max_of(vec![
                        lx.clone(),
                        ly.clone(),
                        self.upper_of(v, &y.1.uppers, 1),
                    ]),
                    upper: ux.clone(),
                    cons: c,
                    members: one(x),
                }
            };
        let mut both = cons(&a.1.lowers);
        both.extend(cons(&a.1.uppers));
        both.extend(cons(&b.1.lowers));
        both.extend(cons(&b.1.uppers));
        let common = Piece {
            lower: max_of(vec![la.clone(), lb.clone()]),
            upper: min_of(vec![ua.clone(), ub.clone()]),
            cons: both,
            members: vec![a.0.clone(), b.0.clone()],
        };
        let alive = |p: &Piece| {
            let mut all = ctx.to_vec();
            all.extend(p.cons.iter().cloned());
            !self.infeasible(all)
        };
        let pieces = [
            Some(before(a, b, &la, &ua)),
            Some(before(b, a, &lb, &ub)),
            Some(common),
            Some(after(a, b, &la, &lb, &ua)),
            Some(after(b, a, &lb, &la, &ub)),
        ];
        let mut pieces: Vec<Option<Piece>> =
            pieces.into_iter().map(|p| p.filter(|p| alive(p))).collect();
        // The common piece and the "after" piece of x are x from y's start on: one loop,
        // y guarded by its stated upper bounds.
        if pieces[2].is_some() {
            for (k, (x, y)) in [(3, (a, b)), (4, (b, a))] {
                // Not for a y of one value (`S1[] -> [25, 0]` amid a strided S2): the
                // guard would then sit in every iteration of x's rest, which without it
                // keeps its own shape (a stride).
                if pieces[k].is_none()
                    || self.lower_of(v, &y.1.lowers, 0) == self.upper_of(v, &y.1.uppers, 0)
                {
                    continue;
                }
                let (lx, ly, ux) = if k == 3 {
                    (&la, &lb, &ua)
                } else {
                    (&lb, &la, &ub)
                };
                let mut c = cons(&x.1.lowers);
                c.extend(cons(&x.1.uppers));
                c.extend(cons(&y.1.lowers));
                let mut mctx = ctx.to_vec();
                mctx.extend(c.iter().cloned());
                let mut guarded = y.0.clone();
                for (q, stated) in &y.1.uppers {
                    if *stated && !self.implies(&mctx, &[], q) {
                        guarded.pending.push(q.clone());
                    }
                }
                let members = if k == 3 {
                    vec![x.0.clone(), guarded]
                } else {
                    vec![guarded, x.0.clone()]
                };
                pieces[2] = Some(Piece {
                    lower: max_of(vec![lx.clone(), ly.clone()]),
                    upper: ux.clone(),
                    cons: c,
                    members,
                });
                pieces[k] = None;
                break;
            }
        }
        pieces.into_iter().flatten().collect()
    }

    /// The loop of one piece, its polyhedra scanned inside; a single polyhedron's pending
    /// guards go around its loop.
    fn emit(&self, v: usize, ctx: &[Con], piece: Piece) -> Option<Vec<Node>> {
        let mut inner = ctx.to_vec();
        inner.extend(piece.cons.iter().cloned());
        let (outside, members) = match <[Active; 1]>::try_from(piece.members) {
            Ok([a]) => {
                let outside = self.unimplied(ctx, &a.pending);
                inner.extend(outside.iter().cloned());
                (
                    outside,
                    vec![Active {
                        item: a.item,
                        pending: Vec::new(),
                    }],
                )
            }
            Err(members) => (Vec::new(), members),
        };
        let body = self.level(v + 1, &inner, members)?;
        if body.is_empty() {
            return Some(Vec::new());
        }
        let lp = Node::Loop {
            var: v,
            lower: piece.lower,
            upper: piece.upper,
            step: 1,
            body,
        };
        Some(self.guarded(ctx, &outside, vec![lp]))
    }

    /// The bounds of item's projection on `v`, without those another bound implies
    /// where `ctx` holds.
    fn tidy(&self, ctx: &[Con], v: usize, proj: &[(Con, bool)]) -> Bounds {
        let mut lowers: Vec<(Con, bool)> = Vec::new();
        let mut uppers: Vec<(Con, bool)> = Vec::new();
        for (c, stated) in proj {
            match c[v].signum() {
                1 => lowers.push((c.clone(), *stated)),
                -1 => uppers.push((c.clone(), *stated)),
                _ => {}
            }
        }
        // Dropping a stated bound for a derived one that implies it is safe: the derived
        // one holds wherever the inner constraints do.
        // Of two bounds that imply each other (`x >= c` and `10x >= y - 9` where the outer
        // loops give `10c <= y <= 10c + 9`), the simpler stays: candidates for removal are
        // tried from the most complex (coefficient of `v`, then variables), and the kept
        // ones keep their order.
        let prune = |bs: Vec<(Con, bool)>| {
            let complexity = |c: &Con| {
                (
                    c[v].unsigned_abs(),
                    c[..self.width].iter().filter(|&&a| a != 0).count(),
                )
            };
            let mut order: Vec<usize> = (0..bs.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(complexity(&bs[i].0)));
            let mut kept = vec![true; bs.len()];
            for i in order {
                let dominated = (0..bs.len()).any(|j| {
                    j != i && kept[j] && self.implies(ctx, std::slice::from_ref(&bs[j].0), &bs[i].0)
                });
                if dominated {
                    kept[i] = false;
                }
            }
            bs.into_iter()
                .zip(kept)
                .filter_map(|(b, k)| k.then_some(b))
                .collect::<Vec<_>>()
        };
        Bounds {
            lowers: prune(lowers),
            uppers: prune(uppers),
        }
    }

    /// Whether every point of item `i` comes before every point of item `j` with the same
    /// outer values: no `w <= v` with `v` in i and `w` in j.
    fn precedes(&self, ctx: &[Con], v: usize, i: usize, j: usize) -> bool {
        self.never_apart(ctx, v, i, j, 1, 0)
    }

    /// Whether no point of item `i` (value `v` of the variable) and point of item `j`
    /// (value `w`) at the same outer values have `sign*(v - w) + offset >= 0`.
    fn never_apart(
        &self,
        ctx: &[Con],
        v: usize,
        i: usize,
        j: usize,
        sign: i64,
        offset: i64,
    ) -> bool {
        let mut all = self.pair(ctx, v, i, j);
        let mut apart = vec![0; self.width + 1];
        apart[v] = sign;
        apart[v + 1] = -sign;
        apart[self.width] = offset;
        all.push(apart);
        self.infeasible(all)
    }

    /// Whether every instance of item `i` runs before every instance of item `j` with the
    /// same outer values in the order of the whole nest: lexicographic over the variables
    /// from `v` on, then (at equal points) by statement, as the innermost level orders
    /// them. Weaker than [`Self::precedes`], which asks it of `v` alone: `S1[i] -> [0, 0]`
    /// before `S2[i] -> [i, 1]` shares `c0 = 0` but still runs first, so it needs no
    /// guard inside the other's loop (isl places it before that loop too).
    ///
    /// The test: no pair p of i and q of j, both copies of all variables from `v` on in
    /// one system (j's in slots after i's), with q first at some position `k` (equal
    /// before it, smaller at it) or equal everywhere when j's statement comes first.
    fn precedes_lex(&self, ctx: &[Con], v: usize, i: usize, j: usize) -> bool {
        let n = self.nvars;
        let w = n + (n - v);
        let widen = |c: &Con, shift: bool| -> Con {
            let mut d = vec![0; w + 1];
            for (k, &a) in c[..n].iter().enumerate() {
                let slot = if shift && k >= v { n + (k - v) } else { k };
                d[slot] = a;
            }
            d[w] = c[self.width];
            d
        };
        let mut base: Vec<Con> = ctx.iter().map(|c| widen(c, false)).collect();
        base.extend(self.items[i].proj[n].iter().map(|(c, _)| widen(c, false)));
        base.extend(self.items[j].proj[n].iter().map(|(c, _)| widen(c, true)));
        // `sign * (p_k - q_k) + offset >= 0`.
        let diff = |k: usize, sign: i64, offset: i64| -> Con {
            let mut d = vec![0; w + 1];
            d[k] = sign;
            d[n + (k - v)] = -sign;
            d[w] = offset;
            d
        };
        let ties = self.items[j].stmt <= self.items[i].stmt;
        let mut equal = base;
        for k in v..n {
            let mut first = equal.clone();
            first.push(diff(k, 1, -1)); // q_k <= p_k - 1
            if !self.infeasible_in(first, w) {
                return false;
            }
            equal.push(diff(k, 1, 0));
            equal.push(diff(k, -1, 0));
        }
        !ties || self.infeasible_in(equal, w)
    }

    /// Whether item `i` has at most one value of `v` for each outer value (no two points
    /// with `w >= v + 1`).
    fn single_valued(&self, ctx: &[Con], v: usize, i: usize) -> bool {
        self.never_apart(ctx, v, i, i, -1, -1)
    }

    /// Whether items `i` and `j`, where both have points at the same outer values, have
    /// the same value of `v` there.
    fn same_value(&self, ctx: &[Con], v: usize, i: usize, j: usize) -> bool {
        [1, -1]
            .into_iter()
            .all(|sign| self.never_apart(ctx, v, i, j, sign, -1))
    }

    /// Whether items `i` and `j` never both have points at the same outer values.
    fn exclusive(&self, ctx: &[Con], v: usize, i: usize, j: usize) -> bool {
        let all = self.pair(ctx, v, i, j);
        self.infeasible(all)
    }

    /// `ctx`, item i's projection onto variables `<= v`, and item j's with `v` renamed to
    /// the spare slot `v + 1` (unused: the projection has no variables after `v`).
    fn pair(&self, ctx: &[Con], v: usize, i: usize, j: usize) -> Vec<Con> {
        let mut all = ctx.to_vec();
        all.extend(self.items[i].proj[v + 1].iter().map(|(c, _)| c.clone()));
        for (c, _) in &self.items[j].proj[v + 1] {
            let mut d = c.clone();
            d[v + 1] = d[v];
            d[v] = 0;
            all.push(d);
        }
        all
    }

    /// `max` of the lower bounds' values, each plus `shift`.
    fn lower_of(&self, v: usize, lowers: &[(Con, bool)], shift: i64) -> Expr {
        max_of(
            lowers
                .iter()
                .map(|(c, _)| self.bound(c, v, shift))
                .collect(),
        )
    }

    /// `min` of the upper bounds' values, each plus `shift`.
    fn upper_of(&self, v: usize, uppers: &[(Con, bool)], shift: i64) -> Expr {
        min_of(
            uppers
                .iter()
                .map(|(c, _)| self.bound(c, v, shift))
                .collect(),
        )
    }

    /// The value `c` bounds `v` by, plus `shift`: `a v + r >= 0` is `v >= ceil(-r / a)`
    /// for `a > 0` and `v <= floor(r / -a)` for `a < 0`; `ceil(x) + s = ceil(x + s)`.
    fn bound(&self, c: &Con, v: usize, shift: i64) -> Expr {
        let a = c[v];
        let rest = self.poly(c, v);
        // In polynomial (arbitrary-precision) arithmetic: `-a` and `shift * a` can leave
        // the 64-bit range.
        let a_poly = Poly::from_i64(a);
        let shift_poly = Poly::from_i64(shift);
        if a > 0 {
            let num = rest.neg().add(&shift_poly.mul(&a_poly));
            div(num, &a_poly, true)
        } else {
            let minus_a = a_poly.neg();
            let num = rest.add(&shift_poly.mul(&minus_a));
            div(num, &minus_a, false)
        }
    }

    /// `c` without the term of `v`, as a polynomial over the loop variables.
    fn poly(&self, c: &Con, v: usize) -> Poly {
        let mut p = Poly::from_i64(c[self.width]);
        for (k, &a) in c[..self.width].iter().enumerate() {
            if k != v && a != 0 {
                p = p.add(&Poly::var(k).scale(&a.into()));
            }
        }
        p
    }

    /// `body` inside guards for the constraints (over outer variables), one guard per
    /// variable bounded, on each constraint's last variable after substituting the
    /// variables `ctx` fixes by an equality: their loops run once and are inlined later,
    /// which must not leave a guard on a variable that no longer exists.
    fn guarded(&self, ctx: &[Con], cons: &[Con], body: Vec<Node>) -> Vec<Node> {
        let mut by_var: Vec<(usize, Vec<Expr>, Vec<Expr>)> = Vec::new();
        for c in cons {
            let c = self.substitute_fixed(ctx, c);
            let Some(u) = (0..self.width).rev().find(|&k| c[k] != 0) else {
                if c[self.width] < 0 {
                    return Vec::new(); // false wherever ctx holds
                }
                continue;
            };
            let e = self.bound(&c, u, 0);
            let slot = match by_var.iter().position(|(w, _, _)| *w == u) {
                Some(s) => s,
                None => {
                    by_var.push((u, Vec::new(), Vec::new()));
                    by_var.len() - 1
                }
            };
            if c[u] > 0 {
                by_var[slot].1.push(e);
            } else {
                by_var[slot].2.push(e);
            }
        }
        by_var.sort_by_key(|(u, _, _)| *u);
        let mut body = body;
        for (u, lowers, uppers) in by_var.into_iter().rev() {
            body = vec![Node::Guard {
                var: u,
                lower: (!lowers.is_empty()).then(|| max_of(lowers)),
                upper: (!uppers.is_empty()).then(|| min_of(uppers)),
                body,
            }];
        }
        body
    }

    /// `c` with its last variable replaced while `ctx` states `x_u = e` with a unit
    /// coefficient (the pair `x_u - e >= 0`, `e - x_u >= 0`).
    fn substitute_fixed(&self, ctx: &[Con], c: &Con) -> Con {
        let w = self.width;
        let mut c = c.clone();
        while let Some(u) = (0..w).rev().find(|&k| c[k] != 0) {
            let fixes = |e: &&Con| {
                e[u].abs() == 1
                    && e[u + 1..w].iter().all(|&a| a == 0)
                    && ctx
                        .iter()
                        .any(|f| f.iter().zip(e.iter()).all(|(a, b)| *a == -b))
            };
            let Some(e) = ctx.iter().find(fixes) else {
                break;
            };
            // c - (c_u / e_u) e has no x_u (e_u = +-1).
            let f = i128::from(c[u]) * i128::from(e[u]);
            let next: Option<Con> = c
                .iter()
                .zip(e.iter())
                .map(|(&a, &b)| i64::try_from(i128::from(a) - f * i128::from(b)).ok())
                .collect();
            match next {
                Some(n) => c = n,
                None => break,
            }
        }
        c
    }

    /// The constraints of `cons` that `ctx` does not imply.
    fn unimplied(&self, ctx: &[Con], cons: &[Con]) -> Vec<Con> {
        cons.iter()
            .filter(|q| !self.implies(ctx, &[], q))
            .cloned()
            .collect()
    }

    /// Whether `ctx` and `extra` imply `q >= 0` at every integer point.
    fn implies(&self, ctx: &[Con], extra: &[Con], q: &Con) -> bool {
        let mut all = ctx.to_vec();
        all.extend(extra.iter().cloned());
        all.push(negate(q));
        self.infeasible(all)
    }

    /// A proof that the constraints have no integer point (see
    /// [`fourier_motzkin::infeasible`](crate::fourier_motzkin::infeasible)); `false` also
    /// when the proof is too costly or the scan has run too many tests.
    fn infeasible(&self, cons: Vec<Con>) -> bool {
        self.infeasible_in(cons, self.width)
    }

    /// [`Self::infeasible`] for constraints over `width` slots.
    fn infeasible_in(&self, cons: Vec<Con>, width: usize) -> bool {
        self.tests.set(self.tests.get() + 1);
        if self.tests.get() > MAX_TESTS {
            return false;
        }
        infeasible(cons, width)
    }
}

fn find(comp: &mut [usize], i: usize) -> usize {
    let mut r = i;
    while comp[r] != r {
        r = comp[r];
    }
    comp[i] = r;
    r
}

/// Groups (by root) in an order that respects `before` between groups; a cycle merges
/// everything into one group.
fn component_order(roots: &[usize], before: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let k = roots.len();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = vec![0; k];
    for i in 0..k {
        match groups.iter().position(|g| roots[g[0]] == roots[i]) {
            Some(g) => {
                groups[g].push(i);
                group_of[i] = g;
            }
            None => {
                group_of[i] = groups.len();
                groups.push(vec![i]);
            }
        }
    }
    let n = groups.len();
    let mut edge = vec![vec![false; n]; n];
    for i in 0..k {
        for j in 0..k {
            if before[i][j] && group_of[i] != group_of[j] {
                edge[group_of[i]][group_of[j]] = true;
            }
        }
    }
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let next =
            (0..n).find(|&g| !placed[g] && (0..n).all(|h| placed[h] || h == g || !edge[h][g]));
        match next {
            Some(g) => {
                placed[g] = true;
                order.push(g);
            }
            None => return vec![(0..k).collect()],
        }
    }
    order.into_iter().map(|g| groups[g].clone()).collect()
}
