//! From the lifting tree to loops (Algorithm 1 of the seed thesis), with the
//! simplifications that keep the output small:
//!
//! - cells without integer points produce nothing, and neither do cells where no
//!   statement holds;
//! - loop fusion (Lemma 3.1): neighbouring cells whose code is identical become one loop,
//!   also across cells that hold no integer point;
//! - over a fixed outer point, a neighbour's code that runs exactly the same instances on
//!   a cell's whole (finite) range replaces that cell's code, which merges the two
//!   (checked by running both, so it needs no convexity assumption);
//! - a section at a polynomial value joins a neighbouring sector whose code, at that
//!   value, is the section's (checked symbolically, for any domain).

use crate::ast::Node;
use crate::bounds::{root_bound, root_form, BoundError, RootForm, RootSite, Round, Transcript};
use crate::bracket::{bracketed_search, safe_bits, KEEP_CLOSED_BITS};
use crate::error::GenError;
use crate::expr::Expr;
use crate::interp::instances_at;
use cad::lift::{Bound, Cell, CellKind, Prune};
use cad::{sign_at, Algebraic, Cad, SignStats};
use polys::{Coeff, Int, Poly, Vars};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// Largest constant range whose instances are compared point by point when merging.
const MERGE_RANGE: i64 = 64;
/// Instance budget for one such comparison.
const MERGE_BUDGET: usize = 20_000;

/// Lowers a decomposition to loops.
pub struct Lowering<'a> {
    pub cad: &'a Cad,
    /// Variables `0..nparams` are parameters (guards); the rest are loop iterators.
    pub nparams: usize,
    pub vars: &'a Vars,
    pub stats: &'a SignStats,
    /// The domain is one convex set (inferred for polyhedra, or asserted): a section's
    /// points are the limit of a neighbouring sector's, so the sector's code covers it
    /// (section elimination, section 3.9 of the seed thesis).
    pub convex: bool,
    /// Per statement: the loop variable holding each of its iterators.
    pub stmt_args: &'a [Vec<usize>],
    /// The caller's limits: lowering checks the time once per stack.
    pub limits: &'a cad::Limits,
}

/// One end of a cell's integer range: `None` where unbounded. A bound that cannot be
/// written (a root of degree 3 or more without separators in the stack, say) is kept as
/// its error: fusion often drops it (neighbouring cells with the same code need no bound
/// between them), and only a bound that reaches the output is an error. Shared with the
/// bound memo: most bounds are dropped by fusion, so only those that reach the output
/// are copied out.
type Side = Result<Option<Rc<Expr>>, GenError>;

/// What one cell contributes.
enum Item {
    /// Code over the integer range `[lo, hi]`.
    Code { lo: Side, hi: Side, body: Vec<Node> },
    /// No integer point: transparent for fusion.
    NoPoints,
    /// Integer points that must not run: fusion cannot cross it.
    Excluded,
}

/// Roots over cells of positive dimension, by (level, basis polynomial, root index, number
/// of roots), each with the sign queries that decided its form. The cells of a
/// decomposition repeat a few bounds many times (steinmetz asks 548 bounds, of 21 forms),
/// and a form's polynomial arithmetic costs ten times the queries that replay it.
type BoundMemo = RefCell<FxHashMap<RootKey, Vec<KnownRoot>>>;

/// (level, basis polynomial, root index, number of roots).
type RootKey = (usize, usize, usize, usize);

/// A memoised root: the answers that lead to its form, and its bound for each
/// [`Round`] asked so far.
struct KnownRoot {
    queries: Vec<(Poly, i32)>,
    form: RootForm,
    /// Indexed by `Round as usize`.
    bounds: [Option<Rc<Expr>>; 4],
}

impl KnownRoot {
    /// Whether the sign queries have the same answers at `prefix`: then `root_form` takes
    /// the same path there and builds the same form.
    fn holds_at(&self, prefix: &[Algebraic], stats: &SignStats) -> Result<bool, GenError> {
        for (q, s) in &self.queries {
            if sign_at(q, prefix, stats)? != *s {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn bound(&mut self, round: Round) -> Rc<Expr> {
        let form = &self.form;
        Rc::clone(
            self.bounds[round as usize]
                .get_or_insert_with(|| Rc::new(form.bound(round).fold_constants())),
        )
    }
}

/// What one lowering of the whole tree shares: the bound memo, and the bounds of degree
/// 3 and more that reached the output without separators in their stacks.
#[derive(Default)]
struct Pass {
    memo: BoundMemo,
    missing: RefCell<Vec<BoundError>>,
}

/// What [`Lowering::lower_all`] gives: the program, or every bound that has no exact form
/// yet because its stack lacks separators.
pub enum Lowered {
    /// The whole program.
    Nodes(Vec<Node>),
    /// The [`BoundError::Degree`] of each such bound (at least one): the derivatives of
    /// all of them join the projection at once, so one more decomposition suffices where
    /// one per bound was needed.
    Missing(Vec<BoundError>),
}

/// What the cells of one stack share while they are lowered.
struct Level<'s> {
    pass: &'s Pass,
    /// The stack, bottom to top.
    cells: &'s [Cell],
    /// The parent cell is a point (every outer coordinate a fixed integer).
    zero_dim: bool,
    /// Number of distinct real roots of each basis polynomial over the parent cell.
    nroots: Vec<usize>,
    /// The level's variable, for error messages.
    name: String,
    /// Which memo entry holds for a root here: the sign queries are all asked at the
    /// parent's sample, the same for every cell of the stack, so they are replayed once
    /// per stack rather than once per cell.
    holding: RefCell<FxHashMap<RootKey, usize>>,
}

impl Lowering<'_> {
    /// The whole program, or every bound of degree 3 and more without separators (the
    /// lowering goes on past the first one, its code is then thrown away).
    pub fn lower_all(&self) -> Result<Lowered, GenError> {
        let pass = Pass::default();
        let nodes = self.stack(&pass, &self.cad.cells, &mut Vec::new(), true)?;
        let missing = pass.missing.into_inner();
        Ok(if missing.is_empty() {
            Lowered::Nodes(nodes)
        } else {
            Lowered::Missing(missing)
        })
    }

    fn stack(
        &self,
        pass: &Pass,
        cells: &[Cell],
        prefix: &mut Vec<Algebraic>,
        zero_dim: bool,
    ) -> Result<Vec<Node>, GenError> {
        self.limits.check_time()?;
        let k = prefix.len();
        let mut nroots = vec![0usize; self.cad.projection.levels[k].len()];
        for c in cells {
            if let Bound::Roots(refs) = &c.lower {
                for r in refs.iter() {
                    nroots[r.poly] = nroots[r.poly].max(r.root);
                }
            }
        }
        let level = Level {
            pass,
            cells,
            zero_dim,
            nroots,
            name: self.vars.name(k),
            holding: RefCell::default(),
        };
        let mut items = Vec::with_capacity(cells.len());
        for i in 0..cells.len() {
            items.push(self.item(&level, i, prefix)?);
        }
        let items = if self.convex {
            absorb_sections(items, cells)
        } else {
            items
        };
        let items = absorb_sections_at_value(items, cells, k);
        let runs = fuse(items);
        // Comparing instances needs every parameter fixed: only below the parameters.
        let runs = if zero_dim && k + 1 >= self.nparams {
            self.absorb(runs, prefix)
        } else {
            runs
        };
        // A parameter value with code of its own that the neighbouring range's code
        // covers (`n == 1` beside `n >= 2` for `i*j <= n`): no guard for it.
        let runs = if zero_dim && k + 1 == self.nparams {
            absorb_parameter_points(runs, prefix)
        } else {
            runs
        };
        let mut out = Vec::new();
        for run in runs {
            let Item::Code { lo, hi, body } = run else {
                continue;
            };
            let (lo, hi) = match (lo, hi) {
                (Ok(lo), Ok(hi)) => (lo.map(unshare), hi.map(unshare)),
                (lo, hi) => {
                    // A bound without separators is collected and lowering goes on, so
                    // that one more decomposition adds the separators of all of them.
                    for e in [lo.err(), hi.err()].into_iter().flatten() {
                        match e {
                            GenError::Bound(e @ BoundError::Degree { .. }) => {
                                pass.missing.borrow_mut().push(e)
                            }
                            other => return Err(other),
                        }
                    }
                    continue;
                }
            };
            if k < self.nparams {
                match (lo, hi) {
                    (None, None) => out.extend(body),
                    (lower, upper) => out.push(Node::Guard {
                        var: k,
                        lower,
                        upper,
                        body,
                    }),
                }
            } else {
                let side = |s: &'static str| GenError::Unbounded {
                    var: level.name.clone(),
                    side: s,
                    region: self.region(prefix),
                };
                let lower = lo.ok_or_else(|| side("below"))?;
                let upper = hi.ok_or_else(|| side("above"))?;
                out.push(Node::Loop {
                    var: k,
                    lower,
                    upper,
                    step: 1,
                    body,
                });
            }
        }
        Ok(out)
    }

    /// What cell `i` of the level's stack contributes.
    fn item(&self, level: &Level, i: usize, prefix: &mut Vec<Algebraic>) -> Result<Item, GenError> {
        let c = &level.cells[i];
        match c.pruned {
            Some(Prune::NoIntegers) => return Ok(Item::NoPoints),
            Some(Prune::False) => return Ok(Item::Excluded),
            None => {}
        }
        let (lo, hi) = self.range(level, i, prefix);
        let constant = |s: &Side| s.as_ref().ok()?.as_ref()?.constant_value();
        if let (Some(l), Some(h)) = (constant(&lo), constant(&hi)) {
            if l > h {
                return Ok(Item::NoPoints);
            }
        }
        let body = if c.children.is_empty() {
            c.truth
                .iter()
                .enumerate()
                .filter(|(_, t)| **t)
                .map(|(s, _)| Node::Stmt {
                    stmt: s,
                    args: self.stmt_args[s]
                        .iter()
                        .map(|&v| Expr::Poly(polys::Poly::var(v)))
                        .collect(),
                })
                .collect()
        } else {
            prefix.push(c.sample.clone());
            let body = self.stack(
                level.pass,
                &c.children,
                prefix,
                level.zero_dim && c.kind == CellKind::Section,
            );
            prefix.pop();
            body?
        };
        if body.is_empty() {
            return Ok(Item::Excluded);
        }
        Ok(Item::Code { lo, hi, body })
    }

    /// The integer range of cell `i` of the level's stack, each end computed or the reason
    /// why not.
    fn range(&self, level: &Level, i: usize, prefix: &[Algebraic]) -> (Side, Side) {
        let (cells, c) = (level.cells, &level.cells[i]);
        match c.kind {
            CellKind::Section => (
                self.bound(level, prefix, &c.lower, Some(&c.sample), Round::Lower),
                self.bound(level, prefix, &c.upper, Some(&c.sample), Round::Upper),
            ),
            CellKind::Sector => {
                let below = i.checked_sub(1).map(|j| &cells[j].sample);
                let above = cells.get(i + 1).map(|n| &n.sample);
                (
                    self.bound(level, prefix, &c.lower, below, Round::StrictLower),
                    self.bound(level, prefix, &c.upper, above, Round::StrictUpper),
                )
            }
        }
    }

    /// One end of a cell's range: `b` rounded as asked, where `value` is the neighbouring
    /// section's sample (the root at the sample). A closed form whose `int64_t`
    /// arithmetic overflows for small variables gives way to a search between constant
    /// neighbours where one exists and keeps more headroom (see `bracket`).
    fn bound(
        &self,
        level: &Level,
        prefix: &[Algebraic],
        b: &Bound,
        value: Option<&Algebraic>,
        round: Round,
    ) -> Side {
        let Bound::Roots(refs) = b else {
            return Ok(None);
        };
        let (closed, degree) = match self.closed_bound(level, prefix, b, value, round) {
            // A root of degree 3 or more without derivative separators in the stack:
            // constant neighbours can separate it, which spares a decomposition with the
            // derivatives in its projection.
            Err(e @ GenError::Bound(BoundError::Degree { .. })) if !level.zero_dim => {
                (None, Some(e))
            }
            other => (other?, None),
        };
        let bits = closed.as_deref().map_or(0, safe_bits);
        if level.zero_dim || bits >= KEEP_CLOSED_BITS {
            return Ok(closed);
        }
        let r = refs[0];
        let k = prefix.len();
        let site = self.site(level, prefix);
        let f = &self.cad.projection.levels[k][r.poly];
        let search =
            bracketed_search(f, r.root, &site).map(|form| form.bound(round).fold_constants());
        match (search, closed) {
            (Some(s), Some(e)) if safe_bits(&s) <= bits => Ok(Some(e)),
            (Some(s), _) => Ok(Some(Rc::new(s))),
            (None, Some(e)) => Ok(Some(e)),
            // No separators at all: the error that asks for the derivatives.
            (None, None) => degree.map_or(Ok(None), Err),
        }
    }

    /// Where the roots of a stack's cells live, for `bounds` and `bracket`.
    fn site<'s>(&'s self, level: &'s Level, prefix: &'s [Algebraic]) -> RootSite<'s> {
        RootSite {
            prefix,
            zero_dim: level.zero_dim,
            stats: self.stats,
            stack: level.cells,
            basis: &self.cad.projection.levels[prefix.len()],
            nroots: &level.nroots,
            transcript: None,
        }
    }

    /// [`Lowering::bound`] by the closed forms of `bounds` (memoised).
    fn closed_bound(
        &self,
        level: &Level,
        prefix: &[Algebraic],
        b: &Bound,
        value: Option<&Algebraic>,
        round: Round,
    ) -> Side {
        let Bound::Roots(refs) = b else {
            return Ok(None);
        };
        let r = refs[0];
        let k = prefix.len();
        let f = &self.cad.projection.levels[k][r.poly];
        let value = value.expect("a finite bound is a neighbouring section");
        let site = self.site(level, prefix);
        let m = level.nroots[r.poly];
        if level.zero_dim {
            // Over a point the bound is a constant from `value` itself.
            let e = root_bound(f, r.root, m, value, &site, round, &level.name)?;
            return Ok(Some(Rc::new(e.fold_constants())));
        }
        let key = (k, r.poly, r.root, m);
        if let Some(known) = level.pass.memo.borrow_mut().get_mut(&key) {
            let held = level.holding.borrow().get(&key).copied();
            if let Some(i) = held {
                return Ok(Some(known[i].bound(round)));
            }
            for (i, entry) in known.iter_mut().enumerate() {
                if entry.holds_at(prefix, self.stats)? {
                    level.holding.borrow_mut().insert(key, i);
                    return Ok(Some(entry.bound(round)));
                }
            }
        }
        let transcript = RefCell::new(Transcript::default());
        let recording = RootSite {
            transcript: Some(&transcript),
            ..site
        };
        let form = root_form(f, r.root, m, &recording, &level.name)?;
        let t = transcript.into_inner();
        if t.opaque {
            return Ok(Some(Rc::new(form.bound(round).fold_constants())));
        }
        let mut entry = KnownRoot {
            queries: t.queries,
            form,
            bounds: Default::default(),
        };
        let e = entry.bound(round);
        let mut memo = level.pass.memo.borrow_mut();
        let known = memo.entry(key).or_default();
        level.holding.borrow_mut().insert(key, known.len());
        known.push(entry);
        Ok(Some(e))
    }

    /// Over a fixed outer point: merges neighbouring runs when one's code runs exactly
    /// the other's instances on the other's whole range.
    fn absorb(&self, runs: Vec<Item>, prefix: &[Algebraic]) -> Vec<Item> {
        let outer: Vec<Int> = prefix.iter().map(|a| Int::from(a.floor())).collect();
        let mut out: Vec<Item> = Vec::new();
        for item in runs {
            let merged = match (out.last_mut(), &item) {
                (
                    Some(Item::Code {
                        hi: prev_hi,
                        body: prev_body,
                        lo: prev_lo,
                        ..
                    }),
                    Item::Code { lo, hi, body, .. },
                ) => {
                    let range = |a: &Side, b: &Side| {
                        Some((
                            a.as_ref().ok()?.as_ref()?.constant_value()?.to_i64()?,
                            b.as_ref().ok()?.as_ref()?.constant_value()?.to_i64()?,
                        ))
                    };
                    match (range(prev_lo, prev_hi), range(lo, hi)) {
                        (Some((_, ph)), Some((l, h))) if ph + 1 == l => {
                            if same_on(prev_body, body, &outer, l, h) {
                                *prev_hi = hi.clone();
                                true
                            } else if let Some((pl, _)) = range(prev_lo, prev_hi) {
                                if same_on(body, prev_body, &outer, pl, ph) {
                                    *prev_body = body.clone();
                                    *prev_hi = hi.clone();
                                    true
                                } else {
                                    false
                                }
                            } else {
                                false
                            }
                        }
                        _ => false,
                    }
                }
                _ => false,
            };
            if !merged {
                out.push(item);
            }
        }
        out
    }

    /// "for n = 3, m = 1" style description of the outer coordinates of a stack's sample.
    fn region(&self, outer: &[Algebraic]) -> String {
        if outer.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = outer
            .iter()
            .enumerate()
            .map(|(v, a)| format!("{} = {}", self.vars.name(v), a))
            .collect();
        format!(" (for example at {})", parts.join(", "))
    }
}

/// Over fixed outer parameters, at the last parameter's level: a run that covers one
/// value `p` of the parameter joins a neighbouring run whose code, run at `p`, executes
/// exactly the same instances (checked with the exact interpreter, within a budget).
fn absorb_parameter_points(runs: Vec<Item>, prefix: &[Algebraic]) -> Vec<Item> {
    let outer: Vec<Int> = prefix.iter().map(|a| Int::from(a.floor())).collect();
    let constant = |s: &Side| -> Option<Int> { s.as_ref().ok()?.as_ref()?.constant_value() };
    let point_of = |item: &Item| match item {
        Item::Code { lo, hi, .. } => match (constant(lo), constant(hi)) {
            (Some(l), Some(h)) if l == h => Some(l),
            _ => None,
        },
        _ => None,
    };
    let covers = |body: &[Node], point_body: &[Node], p: &Int| {
        let mut pt = outer.clone();
        pt.push(p.clone());
        match (
            instances_at(body, &pt, MERGE_BUDGET),
            instances_at(point_body, &pt, MERGE_BUDGET),
        ) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    };
    let mut items: Vec<Item> = runs;
    let mut i = 0;
    while i < items.len() {
        let Some(p) = point_of(&items[i]) else {
            i += 1;
            continue;
        };
        let one = Int::from(1);
        let Item::Code {
            body: pb,
            lo: plo,
            hi: phi,
        } = &items[i]
        else {
            unreachable!("point_of matched a code item")
        };
        let (pb, plo, phi) = (pb.clone(), plo.clone(), phi.clone());
        // The next run, starting right above p.
        if let Some(Item::Code { lo, body, .. }) = items.get(i + 1) {
            if constant(lo).is_some_and(|l| l == p.add(&one)) && covers(body, &pb, &p) {
                if let Some(Item::Code { lo, .. }) = items.get_mut(i + 1) {
                    *lo = plo;
                }
                items.remove(i);
                continue;
            }
        }
        // The previous run, ending right below p.
        if i > 0 {
            if let Item::Code { hi, body, .. } = &items[i - 1] {
                if constant(hi).is_some_and(|h| h.add(&one) == p) && covers(body, &pb, &p) {
                    if let Item::Code { hi, .. } = &mut items[i - 1] {
                        *hi = phi;
                    }
                    items.remove(i);
                    continue;
                }
            }
        }
        i += 1;
    }
    items
}

/// The bound itself, copied only if the memo or another item still holds it.
fn unshare(e: Rc<Expr>) -> Expr {
    Rc::try_unwrap(e).unwrap_or_else(|shared| (*shared).clone())
}

/// Whether `a` runs exactly the instances of `b` for every `x_k` in `[lo, hi]`, with the
/// outer variables fixed. Gives up (false) on large ranges or many instances.
fn same_on(a: &[Node], b: &[Node], outer: &[Int], lo: i64, hi: i64) -> bool {
    if hi - lo >= MERGE_RANGE {
        return false;
    }
    (lo..=hi).all(|x| {
        let mut pt = outer.to_vec();
        pt.push(Int::from(x));
        match (
            instances_at(a, &pt, MERGE_BUDGET),
            instances_at(b, &pt, MERGE_BUDGET),
        ) {
            (Ok(ia), Ok(ib)) => ia == ib,
            _ => false,
        }
    })
}

/// Section elimination: each section with code whose neighbouring sector `covers` it (the
/// one below first) is dropped and the sector's range extended over it.
/// `covers(items, section, sector)` sees the items as they are at that point.
fn absorb_sections_by(
    mut items: Vec<Item>,
    cells: &[Cell],
    covers: impl Fn(&[Item], usize, usize) -> bool,
) -> Vec<Item> {
    for i in 0..items.len() {
        if cells[i].kind != CellKind::Section {
            continue;
        }
        let Item::Code { lo, hi, .. } = &items[i] else {
            continue;
        };
        let (lo, hi) = (lo.clone(), hi.clone());
        let sector = |j: usize| cells[j].kind == CellKind::Sector && covers(&items, i, j);
        if i > 0 && sector(i - 1) {
            if let Item::Code { hi: end, .. } = &mut items[i - 1] {
                *end = hi;
            }
            items[i] = Item::NoPoints;
        } else if i + 1 < items.len() && sector(i + 1) {
            if let Item::Code { lo: start, .. } = &mut items[i + 1] {
                *start = lo;
            }
            items[i] = Item::NoPoints;
        }
    }
    items
}

/// Section elimination for convex domains: a section with code next to a sector with
/// code is covered by extending the sector's range, as long as the sector's code has no
/// division by a non-constant (which could vanish on the section).
fn absorb_sections(items: Vec<Item>, cells: &[Cell]) -> Vec<Item> {
    absorb_sections_by(
        items,
        cells,
        |items, _, j| matches!(&items[j], Item::Code { body, .. } if body_is_total(body)),
    )
}

/// Section elimination for any domain: a section where `x_k` is one polynomial `p` of the
/// outer variables joins a neighbouring sector when the sector's code with `x_k := p` is
/// the section's code with `x_k := p` (both with single iterations inlined). Both then run
/// the same instances at every point of the section, whatever the set's shape: the annulus'
/// `S(-R, 0)` is its neighbour's `y` loop at `x = -R`.
fn absorb_sections_at_value(items: Vec<Item>, cells: &[Cell], k: usize) -> Vec<Item> {
    let value = |s: &Side| match s {
        Ok(Some(e)) => match &**e {
            Expr::Poly(p) => Some(p.clone()),
            _ => None,
        },
        _ => None,
    };
    let at = |body: &[Node], p: &Poly| {
        let body = body.iter().map(|n| n.subst(k, p)).collect();
        crate::simplify::inline_single_iterations(body)
    };
    absorb_sections_by(items, cells, |items, i, j| {
        let (Item::Code { lo, hi, body }, Item::Code { body: other, .. }) = (&items[i], &items[j])
        else {
            return false;
        };
        match value(lo).filter(|p| value(hi).as_ref() == Some(p)) {
            Some(p) => at(other, &p) == at(body, &p),
            None => false,
        }
    })
}

/// Whether every bound in the code is defined everywhere: divisions only by positive
/// constants (square roots of arguments that are non-negative on the closure of a
/// sector stay non-negative on its boundary by continuity).
fn body_is_total(body: &[Node]) -> bool {
    fn expr_ok(e: &Expr) -> bool {
        match e {
            Expr::Poly(_) | Expr::Isqrt(_) | Expr::CeilSqrt(_) => true,
            Expr::Sum(es) | Expr::Max(es) | Expr::Min(es) => es.iter().all(expr_ok),
            Expr::Neg(e) | Expr::Scaled(_, e) | Expr::Root { arg: e, .. } => expr_ok(e),
            // Strided loops are made after lowering.
            Expr::Aligned { .. } => false,
            Expr::FloorDiv(n, d) | Expr::CeilDiv(n, d) => {
                d.constant_value().is_some_and(|c| c.signum() > 0) && expr_ok(n)
            }
            // Bisection evaluates anywhere; its result is only meaningful on its cell.
            Expr::RootSearch { .. } => false,
        }
    }
    body.iter().all(|n| match n {
        Node::Stmt { .. } => true,
        Node::Loop {
            lower, upper, body, ..
        } => expr_ok(lower) && expr_ok(upper) && body_is_total(body),
        Node::Guard {
            lower, upper, body, ..
        } => {
            lower.as_ref().is_none_or(expr_ok)
                && upper.as_ref().is_none_or(expr_ok)
                && body_is_total(body)
        }
        Node::Test { cond, body } => cond.exprs().into_iter().all(expr_ok) && body_is_total(body),
    })
}

/// Loop fusion: consecutive code items with identical bodies, separated only by items
/// without integer points, become one item spanning them.
fn fuse(items: Vec<Item>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    // Whether only NoPoints items stand between the last output item and the next one.
    let mut adjacent = false;
    for item in items {
        match item {
            Item::NoPoints => continue,
            Item::Excluded => {
                out.push(Item::Excluded);
                adjacent = false;
            }
            Item::Code { lo, hi, body } => {
                if adjacent {
                    if let Some(Item::Code {
                        hi: prev_hi,
                        body: prev_body,
                        ..
                    }) = out.last_mut()
                    {
                        if *prev_body == body {
                            *prev_hi = hi;
                            continue;
                        }
                    }
                }
                out.push(Item::Code { lo, hi, body });
                adjacent = true;
            }
        }
    }
    out
}
