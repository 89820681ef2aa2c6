//! The pruned lifting tree: cells level by level, one sample point each, cut as soon as no
//! formula can hold or the cell can hold no integer point.
//!
//! Over a cell with sample `(s_0, .., s_k)` the level-`k+1` basis polynomials are
//! specialised at the sample and their real roots, merged and sorted, define the stack of
//! sections and sectors above it. Algebraic coordinates are handled without towers of
//! field extensions: the candidates are the roots of the resultant against the defining
//! polynomials, and exact sign checks keep the true ones.
//!
//! Validity of Brown's projection is checked on the way: a basis polynomial that vanishes
//! identically over a cell of positive dimension makes the lifting return
//! [`LiftOutcome::Nullified`], and the caller projects again with all coefficients of that
//! polynomial (McCallum's set for it). Over a 0-dimensional cell the first non-vanishing
//! partial derivative delineates instead.

use crate::algebraic::Algebraic;
use crate::error::CadError;
use crate::formula::Formula;
use crate::sign::{sign_at, sign_if_cheap, subst_rationals, subst_rationals_univariate, SignStats};
use crate::sturm::SturmSequence;
pub use crate::tree::{sample_of, Bound, Cell, CellKind, Prune, RootRef};
use crate::upoly::UPoly;
use polys::{factor_univariate, Poly};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Counters for `--stats`.
#[derive(Debug, Default)]
pub struct LiftStats {
    /// Cells created, pruned ones included.
    pub cells: AtomicU64,
    /// Cells at the last level whose formulas were decided and which were not pruned.
    pub leaves: AtomicU64,
    /// Cells cut with [`Prune::False`] at their sample (not the ones cut because every
    /// cell of their stack was).
    pub pruned_false: AtomicU64,
    /// Cells cut with [`Prune::NoIntegers`].
    pub pruned_integer: AtomicU64,
    /// Cells dropped from the tree with their stack because every cell of it was cut
    /// with [`Prune::False`] (the cell over them is then cut so too).
    pub collapsed: AtomicU64,
    /// Stacks over 0-dimensional cells where a delineating derivative replaced a
    /// nullified polynomial.
    pub delineating: AtomicU64,
    /// Defining polynomials replaced by an irreducible factor to lift over a tower.
    pub minimal_polys: AtomicU64,
    /// Candidate roots over an algebraic sample taken from an earlier sample with the
    /// same defining polynomials instead of a new eliminant.
    pub eliminants_reused: AtomicU64,
    /// Open candidate roots over an algebraic sample for which a Sturm sequence was built
    /// ([`crate::sturm`]): settled by its counts (a rational one by an exact sign)
    /// instead of exact zero proofs.
    pub sturm_settled: AtomicU64,
    /// How the signs of polynomials at samples were decided (see [`crate::sign_at`]).
    pub signs: SignStats,
}

/// Result of lifting: a tree, or the polynomials that invalidate Brown's projection.
#[derive(Debug)]
pub enum LiftOutcome {
    /// Brown's projection was valid: the level-0 cells of the tree.
    Tree(Vec<Cell>),
    /// Basis polynomials (level, index) nullified over a cell of positive dimension.
    Nullified(Vec<(usize, usize)>),
}

/// What the lifting needs: the basis per level and the formulas.
pub struct Lifter<'a> {
    /// `levels[k]`: the projection's basis polynomials with main variable `x_k`.
    pub levels: &'a [Vec<Poly>],
    /// `full[k][i]`: basis polynomial `i` of level `k` was projected with all its
    /// coefficients, so a vanishing leading coefficient needs no restart.
    pub full: &'a [Vec<bool>],
    /// One formula per statement.
    pub formulas: &'a [Formula],
    /// Constraints that must hold wherever any formula holds (e.g. from tiling); they only
    /// prune.
    pub pruning: &'a [Formula],
    /// Counters updated while lifting (shared, so parallel stacks add to the same totals).
    pub stats: &'a LiftStats,
    /// Where lifting stops early (none by default; see [`Lifter::with_limits`]).
    pub limits: crate::Limits,
    /// `restricted[k][i]`: basis polynomial `i` of level `k` is not delineable (projected
    /// only against equational constraints, [`crate::project::Projection::restricted`]),
    /// so its roots bound no cell. Empty by default; see [`Lifter::with_restricted`].
    pub restricted: &'a [Vec<bool>],
    /// Every polynomial of the formulas and pruning constraints, with the basis
    /// polynomials (level, index) that divide it: on a section of one of those it is 0
    /// with no arithmetic at all. Built once, since lifting asks at every section.
    divisors: Vec<(Poly, Vec<(usize, usize)>)>,
    /// Each atom of the formulas and pruning constraints, by the address of its
    /// polynomial (what [`Formula::eval_partial`] hands over), with the index of that
    /// polynomial in `divisors`: the signs known along a path are kept by index, so
    /// looking one up compares two integers instead of two polynomials, and recording one
    /// copies nothing. Sorted by address: every atom of every cell looks itself up here.
    atom_ids: Vec<(usize, usize)>,
    /// Roots already isolated, per basis polynomial (level, index): the coordinates of
    /// the variables it has, and its roots there (see [`Lifter::memo_roots`]).
    pub(crate) roots_memo: Mutex<HashMap<(usize, usize), Vec<MemoRoots>>>,
    /// Candidate roots already found by [`Lifter::eliminate`], by the specialised
    /// polynomial and the defining polynomials of the irrational coordinates: the
    /// eliminant depends on nothing else, so every sample whose coordinates are other
    /// real roots of the same defining polynomials (the sections of one stack, the cells
    /// above them) has the same candidates, and isolating an eliminant of degree near 200
    /// takes up to seconds.
    eliminant_memo: Option<Mutex<HashMap<EliminantKey, Vec<Algebraic>>>>,
    /// Whether open candidate roots are settled by Sturm counts (on by default).
    sturm_counts: bool,
}

/// The polynomial specialised at the sample's rational coordinates, and the variables
/// and defining polynomials of its irrational ones.
type EliminantKey = (Poly, Vec<(usize, UPoly)>);

/// Eliminants remembered per lifting; past this the memo is emptied and filled again
/// (a bound on memory, the recent entries being the ones asked again).
const ELIMINANT_MEMO_ENTRIES: usize = 4096;

/// The coordinates a basis polynomial has at a sample, and its roots there.
pub(crate) type MemoRoots = (Vec<Algebraic>, Vec<Algebraic>);

/// Entries kept per basis polynomial; beyond them roots are isolated afresh (the memo
/// pays off through the few coordinates that recur, not through a long search).
const ROOTS_MEMO_ENTRIES: usize = 64;

struct Nullified;

/// A cell lifted on its own, with the polynomials it found nullified.
type LiftedCell = (Cell, Vec<(usize, usize)>);

/// Stacks at levels below this are lifted in parallel (deeper ones are too small for the
/// overhead to pay).
const PARALLEL_LEVELS: usize = 2;

impl<'a> Lifter<'a> {
    /// A lifter over the projection `levels` (with `full` as in the field) for the
    /// formulas and pruning constraints.
    pub fn new(
        levels: &'a [Vec<Poly>],
        full: &'a [Vec<bool>],
        formulas: &'a [Formula],
        pruning: &'a [Formula],
        stats: &'a LiftStats,
    ) -> Lifter<'a> {
        let mut divisors: Vec<(Poly, Vec<(usize, usize)>)> = Vec::new();
        for p in formulas
            .iter()
            .chain(pruning)
            .flat_map(Formula::polynomials)
        {
            if divisors.iter().any(|(q, _)| *q == p) {
                continue;
            }
            let mut by = Vec::new();
            if let Some(k) = p.main_var().filter(|&k| k < levels.len()) {
                for (i, b) in levels[k].iter().enumerate() {
                    if b.degree(k) <= p.degree(k) && (*b == p || p.div_exact(b).is_some()) {
                        by.push((k, i));
                    }
                }
            }
            divisors.push((p, by));
        }
        let address = |p: &Poly| p as *const Poly as usize;
        let mut atom_ids: Vec<(usize, usize)> = formulas
            .iter()
            .chain(pruning)
            .flat_map(Formula::atom_polys)
            .filter_map(|p| {
                let id = divisors.iter().position(|(q, _)| q == p)?;
                Some((address(p), id))
            })
            .collect();
        atom_ids.sort_unstable();
        Lifter {
            levels,
            full,
            formulas,
            pruning,
            stats,
            limits: crate::Limits::none(),
            restricted: &[],
            divisors,
            atom_ids,
            roots_memo: Mutex::new(HashMap::new()),
            eliminant_memo: Some(Mutex::new(HashMap::new())),
            sturm_counts: true,
        }
    }

    /// The same lifter, stopping with [`CadError::Limit`] at `limits`.
    pub fn with_limits(self, limits: crate::Limits) -> Lifter<'a> {
        self.stats.signs.set_deadline(limits.deadline);
        Lifter { limits, ..self }
    }

    /// The same lifter without the memo of eliminants (on by default): every sample
    /// isolates its own, as a check that the memo changes nothing.
    pub fn without_eliminant_memo(self) -> Lifter<'a> {
        Lifter {
            eliminant_memo: None,
            ..self
        }
    }

    /// The same lifter with every open candidate root settled by an exact zero proof, as
    /// a check that the Sturm counts change nothing.
    pub fn without_sturm_counts(self) -> Lifter<'a> {
        Lifter {
            sturm_counts: false,
            ..self
        }
    }

    /// The same lifter for a projection with equational constraints: the basis
    /// polynomials `restricted` marks give no roots to stacks (a projection's
    /// [`crate::project::Projection::restricted`]).
    pub fn with_restricted(self, restricted: &'a [Vec<bool>]) -> Lifter<'a> {
        Lifter { restricted, ..self }
    }

    /// Builds the tree over the whole space.
    pub fn lift(&self) -> Result<LiftOutcome, CadError> {
        let mut nullified = Vec::new();
        let cells = self.stack(&mut Vec::new(), true, &mut nullified, &mut Vec::new())?;
        if nullified.is_empty() {
            Ok(LiftOutcome::Tree(cells))
        } else {
            nullified.sort_unstable();
            nullified.dedup();
            Ok(LiftOutcome::Nullified(nullified))
        }
    }

    /// The stack over the cell with sample `prefix` (`zero_dim`: every coordinate so far
    /// is a section), lifted recursively.
    fn stack(
        &self,
        prefix: &mut Vec<Algebraic>,
        zero_dim: bool,
        nullified: &mut Vec<(usize, usize)>,
        known: &mut Vec<(usize, i32)>,
    ) -> Result<Vec<Cell>, CadError> {
        let roots = match self.stack_roots(prefix, zero_dim)? {
            Ok(r) => r,
            Err(mut bad) => {
                nullified.append(&mut bad);
                return Ok(Vec::new());
            }
        };
        // The stack's cells, described before any is lifted.
        let mut specs: Vec<(Algebraic, CellKind, Bound, Bound)> =
            Vec::with_capacity(2 * roots.len() + 1);
        let mut below = Bound::NegInf;
        let mut prev: Option<&Algebraic> = None;
        for (r, refs) in &roots {
            let sample = match prev {
                None => Algebraic::from(r.integer_below()),
                Some(p) => Algebraic::Rational(p.rational_between(r)?),
            };
            let here = Bound::Roots(Arc::new(refs.clone()));
            specs.push((sample, CellKind::Sector, below, here.clone()));
            specs.push((r.clone(), CellKind::Section, here.clone(), here.clone()));
            below = here;
            prev = Some(r);
        }
        let last = match prev {
            None => Algebraic::from(0),
            Some(p) => Algebraic::from(p.integer_above()),
        };
        specs.push((last, CellKind::Sector, below, Bound::PosInf));
        let cells = if prefix.len() < PARALLEL_LEVELS && specs.len() > 1 {
            // Independent subtrees: lift them in parallel, each with its own copies of the
            // path state; collecting in order keeps the output identical to a sequential run.
            // Collecting into a `Result` stops taking subtrees at the first error: once one
            // meets the time or cell limit, the others would meet it too, each only after
            // lifting up to 64 cells of its own (the clock is read every 64 cells), which
            // on tetra-3d kept the lifting going for seconds past `--timeout`.
            let results: Result<Vec<LiftedCell>, CadError> = specs
                .into_par_iter()
                .map(|(sample, kind, lo, hi)| {
                    let mut prefix = prefix.clone();
                    let mut known = known.clone();
                    let mut bad = Vec::new();
                    self.cell(
                        &mut known,
                        &mut prefix,
                        sample,
                        kind,
                        lo,
                        hi,
                        zero_dim,
                        &mut bad,
                    )
                    .map(|c| (c, bad))
                })
                .collect();
            let results = results?;
            let mut cells = Vec::with_capacity(results.len());
            for (c, mut bad) in results {
                nullified.append(&mut bad);
                cells.push(c);
            }
            cells
        } else {
            let mut cells = Vec::with_capacity(specs.len());
            for (sample, kind, lo, hi) in specs {
                cells.push(self.cell(known, prefix, sample, kind, lo, hi, zero_dim, nullified)?);
            }
            cells
        };
        Ok(cells)
    }

    /// The distinct real roots, increasing, of the level's basis over the cell with sample
    /// `prefix`, each with the basis polynomials it is a root of. `Err` lists the
    /// polynomials (level, index) whose leading coefficient vanishes over a cell of positive
    /// dimension: Brown's projection does not cover them.
    #[allow(clippy::type_complexity)]
    pub fn stack_roots(
        &self,
        prefix: &[Algebraic],
        zero_dim: bool,
    ) -> Result<Result<Vec<(Algebraic, Vec<RootRef>)>, Vec<(usize, usize)>>, CadError> {
        let k = prefix.len();
        let mut roots: Vec<(Algebraic, Vec<RootRef>)> = Vec::new();
        let mut invalid = Vec::new();
        for (i, f) in self.levels[k].iter().enumerate() {
            if self.restricted.get(k).and_then(|l| l.get(i)) == Some(&true) {
                // Sign-invariant on the sections of its clause's equation, which are
                // among the roots below; its own roots need not be continuous over the
                // cell, so they bound nothing.
                continue;
            }
            let full = self.full[k][i];
            if !full && !zero_dim && sign_at(&f.lc(k), prefix, &self.stats.signs)? == 0 {
                invalid.push((k, i));
                continue;
            }
            let rs = match self.memo_roots(f, (k, i), prefix)? {
                Ok(rs) => rs,
                // All coefficients are projection factors: f vanishes on the whole
                // cylinder over the cell, and a polynomial that is zero everywhere bounds
                // nothing. Over a point a delineating derivative refines the stack all
                // the same, as for the others (more roots over a point are always valid).
                Err(Nullified) if full && !zero_dim => Vec::new(),
                Err(Nullified) => {
                    self.stats.delineating.fetch_add(1, Relaxed);
                    let mut rs = self.delineating_roots(f, prefix, k)?;
                    rs.iter_mut().for_each(Algebraic::settle_integer_part);
                    rs
                }
            };
            let late = || self.stats.signs.late();
            for (j, r) in rs.into_iter().enumerate() {
                let rref = RootRef {
                    poly: i,
                    root: j + 1,
                };
                let mut stopped = false;
                let found = roots.binary_search_by(|(a, _)| {
                    a.cmp_until(&r, &late).unwrap_or_else(|| {
                        // `Equal` ends the search; its answer is dropped below.
                        stopped = true;
                        std::cmp::Ordering::Equal
                    })
                });
                if stopped {
                    return Err(self.stats.signs.timed_out());
                }
                match found {
                    Ok(at) => roots[at].1.push(rref),
                    Err(at) => roots.insert(at, (r, vec![rref])),
                }
            }
        }
        if !invalid.is_empty() {
            return Ok(Err(invalid));
        }
        let levels = self.levels;
        for (_, refs) in roots.iter_mut() {
            // For code generation: the lowest degree, then the polynomial with the most
            // variables, which is the one the neighbouring sectors use for this root
            // (so their code matches and fuses), then the simplest.
            refs.sort_by_key(|r| {
                let p = &levels[k][r.poly];
                (
                    p.degree(k),
                    std::cmp::Reverse(p.vars().len()),
                    p.total_degree(),
                    p.len(),
                )
            });
        }
        Ok(Ok(roots))
    }

    #[allow(clippy::too_many_arguments)]
    fn cell(
        &self,
        known: &mut Vec<(usize, i32)>,
        prefix: &mut Vec<Algebraic>,
        sample: Algebraic,
        kind: CellKind,
        lower: Bound,
        upper: Bound,
        parent_zero_dim: bool,
        nullified: &mut Vec<(usize, usize)>,
    ) -> Result<Cell, CadError> {
        let made = self.stats.cells.fetch_add(1, Relaxed) + 1;
        self.limits.check_cells(made)?;
        // Checking the clock every 64 cells keeps the cost negligible; at the levels lifted
        // in parallel at every cell, so that a subtree started after the deadline stops at
        // once.
        if made.is_multiple_of(64) || prefix.len() < PARALLEL_LEVELS {
            self.limits.check_time()?;
        }
        let level = prefix.len();
        let mut cell = Cell {
            level,
            kind,
            lower,
            upper,
            sample,
            children: Box::default(),
            truth: Vec::new(),
            pruned: None,
        };
        let zero_dim = parent_zero_dim && kind == CellKind::Section;
        // Over a point, the cell's coordinate is the sample's range itself: exact integer
        // tests decide whether the cell can hold an integer point.
        let no_integers = if parent_zero_dim {
            match kind {
                CellKind::Section => !is_integer(&cell.sample),
                CellKind::Sector => !sector_has_integer(&cell.lower, &cell.upper, &cell.sample),
            }
        } else {
            kind == CellKind::Sector && self.integer_gap(level, &cell.lower, &cell.upper)
        };
        if no_integers {
            self.stats.pruned_integer.fetch_add(1, Relaxed);
            cell.pruned = Some(Prune::NoIntegers);
            return Ok(cell);
        }
        prefix.push(cell.sample.clone());
        let mark = known.len();
        let result = self.decide_and_descend(prefix, zero_dim, &mut cell, nullified, known);
        // Signs decided at this sample are not valid for its siblings.
        known.truncate(mark);
        prefix.pop();
        result.map(|()| cell)
    }

    fn decide_and_descend(
        &self,
        prefix: &mut Vec<Algebraic>,
        zero_dim: bool,
        cell: &mut Cell,
        nullified: &mut Vec<(usize, usize)>,
        known: &mut Vec<(usize, i32)>,
    ) -> Result<(), CadError> {
        let n = self.levels.len();
        let assigned = prefix.len();
        let mut failure = None;
        // A section is a root of these basis polynomials of its level.
        let section_of: &[RootRef] = match (cell.kind, &cell.lower) {
            (CellKind::Section, Bound::Roots(refs)) => refs,
            _ => &[],
        };
        let level = cell.level;
        // Signs decided at an ancestor's sample hold here too (same leading
        // coordinates); new ones are recorded for the descendants.
        let mut sign = |p: &'a Poly| {
            if p.nvars() > assigned || failure.is_some() {
                return None;
            }
            let id = self.atom_id(p);
            if let Some((_, s)) = known.iter().find(|(q, _)| *q == id) {
                return Some(*s);
            }
            // Zero by construction: no exact zero test needed (the costly case of the
            // sign cascade, which intervals alone can never decide).
            if self.vanishes_on_section(p, id, level, section_of) {
                known.push((id, 0));
                return Some(0);
            }
            match sign_at(p, prefix, &self.stats.signs) {
                Ok(s) => {
                    known.push((id, s));
                    Some(s)
                }
                Err(e) => {
                    failure = Some(e);
                    None
                }
            }
        };
        let truth: Vec<Option<bool>> = self
            .formulas
            .iter()
            .map(|f| f.eval_partial(&mut sign))
            .collect();
        let pruning_fails = self
            .pruning
            .iter()
            .any(|f| f.eval_partial(&mut sign) == Some(false));
        if let Some(e) = failure {
            return Err(e);
        }
        if pruning_fails || truth.iter().all(|t| *t == Some(false)) {
            self.stats.pruned_false.fetch_add(1, Relaxed);
            cell.pruned = Some(Prune::False);
            return Ok(());
        }
        if assigned == n {
            self.stats.leaves.fetch_add(1, Relaxed);
            cell.truth = truth
                .into_iter()
                .map(|t| t.expect("at a full sample every atom is decided"))
                .collect();
            return Ok(());
        }
        let children = self.stack(prefix, zero_dim, nullified, known)?;
        if !children.is_empty() && children.iter().all(|c| c.pruned == Some(Prune::False)) {
            // No formula holds in any cell of the stack, so none holds in this cell: it
            // is cut like one decided at once, and the stack is not kept (most cells of
            // a large tiled tree lie in such stacks: 73% of tri-invpar's 7.2 M).
            self.stats
                .collapsed
                .fetch_add(children.len() as u64, Relaxed);
            cell.pruned = Some(Prune::False);
            return Ok(());
        }
        cell.children = children.into_boxed_slice();
        Ok(())
    }

    /// Whether a sector of level `k` over a cell of positive dimension holds no integer
    /// point because its bounds are `x_k = g1(x')` and `x_k = g2(x')` with integer
    /// polynomials `g1`, `g2` (roots of basis polynomials linear in `x_k` with leading
    /// coefficient +-1) whose difference is a constant at most 1: at every integer `x'` the
    /// open interval between two integers at most 1 apart holds no integer, and a point
    /// with a non-integer `x'` is no integer point.
    fn integer_gap(&self, k: usize, lower: &Bound, upper: &Bound) -> bool {
        let root = |b: &Bound| -> Option<Poly> {
            let Bound::Roots(refs) = b else {
                return None;
            };
            refs.iter().find_map(|r| {
                let p = self.levels.get(k)?.get(r.poly)?;
                if p.degree(k) != 1 {
                    return None;
                }
                let cs = p.coeffs(k);
                let lc = cs.get(1)?.constant_value()?;
                // p = lc*x + c0 with lc = +-1: x = -c0/lc = -lc*c0.
                (lc == polys::Int::from(1) || lc == polys::Int::from(-1))
                    .then(|| cs[0].scale(&lc).neg())
            })
        };
        let (Some(g1), Some(g2)) = (root(lower), root(upper)) else {
            return false;
        };
        g2.sub(&g1)
            .constant_value()
            .is_some_and(|d| d <= polys::Int::from(1))
    }

    /// The index in `divisors` of an atom's polynomial, found by its address.
    fn atom_id(&self, p: &Poly) -> usize {
        let at = p as *const Poly as usize;
        match self.atom_ids.binary_search_by_key(&at, |(a, _)| *a) {
            Ok(i) => self.atom_ids[i].1,
            // Every atom was registered in `new`, and eval_partial hands over only those.
            Err(_) => unreachable!("the polynomial of an atom not given to Lifter::new"),
        }
    }

    /// Whether `p` (of main variable `x_level`, index `id` in `divisors`) vanishes on a
    /// section that is a root of the basis polynomials `refs` of its level: one of them
    /// divides `p`. (Over a cell where such a polynomial is nullified and a delineating
    /// derivative gave the root, it vanishes on the whole fibre, so the answer stays
    /// right.)
    fn vanishes_on_section(&self, p: &Poly, id: usize, level: usize, refs: &[RootRef]) -> bool {
        if refs.is_empty() || p.main_var() != Some(level) {
            return false;
        }
        let by = &self.divisors[id].1;
        refs.iter().any(|r| by.contains(&(level, r.poly)))
    }

    /// [`Lifter::roots_over`] through the memo. A polynomial of level `k` rarely has every
    /// variable below it (steinmetz: `y^2 + z^2 - a^2` has no `x`), so cylinders over cells
    /// that differ only in the missing coordinates ask for the same roots, and those that
    /// recur are the costly ones: sections such as `y = a/sqrt(2)` recur in every cell of
    /// `x`, and their roots need resultants. Coordinates match by representation (the same
    /// defining polynomial and interval, which deterministic isolation reproduces), so a
    /// hit is always the same number; a miss only costs the isolation.
    fn memo_roots(
        &self,
        f: &Poly,
        key: (usize, usize),
        prefix: &[Algebraic],
    ) -> Result<Result<Vec<Algebraic>, Nullified>, CadError> {
        let k = key.0;
        let vars: Vec<usize> = (0..k).filter(|&v| f.has_var(v)).collect();
        let same = |a: &[Algebraic]| a.iter().zip(&vars).all(|(x, &v)| x.same_repr(&prefix[v]));
        if let Some(entries) = self.roots_memo.lock().ok().and_then(|m| {
            m.get(&key)
                .and_then(|es| es.iter().find(|(c, _)| same(c)).map(|(_, r)| r.clone()))
        }) {
            return Ok(Ok(entries));
        }
        let mut out = self.roots_over(f, prefix, k)?;
        if let Ok(rs) = &mut out {
            // Integer roots become exact, other intervals hold no integer: samples,
            // floors, comparisons and code get simpler. Done before memoising, so that a
            // hit needs no refinement.
            rs.iter_mut().for_each(Algebraic::settle_integer_part);
        }
        if let (Ok(rs), Ok(mut m)) = (&out, self.roots_memo.lock()) {
            let es = m.entry(key).or_default();
            if es.len() < ROOTS_MEMO_ENTRIES {
                es.push((
                    vars.iter().map(|&v| prefix[v].clone()).collect(),
                    rs.clone(),
                ));
            }
        }
        Ok(out)
    }

    /// The real roots in `x_k` of `f` specialised at `prefix` (coordinates of
    /// `x_0..x_(k-1)`), increasing; `Err(Nullified)` when the specialisation is identically
    /// zero.
    fn roots_over(
        &self,
        f: &Poly,
        prefix: &[Algebraic],
        k: usize,
    ) -> Result<Result<Vec<Algebraic>, Nullified>, CadError> {
        let mut irrational = Vec::new();
        let mut rationals = Vec::new();
        for (i, a) in prefix.iter().enumerate() {
            if !f.has_var(i) {
                continue;
            }
            match a {
                Algebraic::Rational(r) => rationals.push((i, r)),
                Algebraic::Root(_) => irrational.push(i),
            }
        }
        // One pass over the terms; clearing denominators multiplies by a positive
        // constant: same roots.
        if irrational.is_empty() {
            let u = subst_rationals_univariate(f, k, &rationals)?;
            if u.is_zero() {
                return Ok(Err(Nullified));
            }
            if u.degree() == 0 {
                return Ok(Ok(Vec::new()));
            }
            return Algebraic::roots_of_until(&u, &|| self.stats.signs.late())?
                .ok_or_else(|| self.stats.signs.timed_out())
                .map(Ok);
        }
        let g = subst_rationals(f, &rationals);
        if g.is_zero() {
            return Ok(Err(Nullified));
        }
        // Identically zero at the sample: every coefficient in x_k vanishes there.
        let mut all_zero = true;
        for c in g.coeffs(k) {
            if sign_at(&c, prefix, &self.stats.signs)? != 0 {
                all_zero = false;
                break;
            }
        }
        if all_zero {
            return Ok(Err(Nullified));
        }
        let candidates = self.eliminate(&g, prefix, &irrational, k)?;
        // The candidates include every real root of g over the sample. When the number of
        // those roots is known, candidates that intervals show to be no root are dropped
        // until the count is reached, and no root needs an exact zero proof. Degree 1 and
        // 2 count at once; a cubic's count (its discriminant's sign at the sample, which
        // may need a zero proof of its own, one algebraic coordinate short of the
        // candidates') only for candidates nothing cheaper settles.
        let cubic = g.degree(k) == 3;
        let mut count = match cubic {
            true => None,
            false => self.real_root_count(&g, prefix, k)?,
        };
        if count == Some(candidates.len()) {
            return Ok(Ok(candidates));
        }
        let mut point: Vec<Algebraic> = prefix.to_vec();
        // (candidate, is a root: decided or not yet)
        let mut marked: Vec<(Algebraic, Option<bool>)> = Vec::with_capacity(candidates.len());
        for beta in candidates {
            point.push(beta);
            let cheap = sign_if_cheap(&g, &point, &self.stats.signs)?;
            let beta = point.pop().expect("pushed just above");
            // Intervals never prove a zero: a sign change of g across the candidate's
            // isolating interval does, for roots of odd multiplicity (`sign_change`),
            // before the exact stage is asked.
            let s = match cheap {
                Some(s) => Some(s),
                None if crate::sign_change::proves_root(&g, prefix, &beta, &self.stats.signs)? => {
                    Some(0)
                }
                // Settled below, by the count or exactly.
                None => None,
            };
            marked.push((beta, s.map(|s| s == 0)));
        }
        let roots = marked.iter().filter(|(_, m)| *m == Some(true)).count();
        let open = marked.iter().filter(|(_, m)| m.is_none()).count();
        if open > 0 && cubic {
            count = self.real_root_count(&g, prefix, k)?;
        }
        // Still open: the Sturm sequence of g over the sample counts its roots in all and
        // in each candidate's isolating interval (which holds no other candidate), from
        // signs at the sample alone.
        let mut sign = |p: &Poly| sign_at(p, prefix, &self.stats.signs);
        let mut sturm = None;
        if open > 0 && count != Some(roots) && count != Some(roots + open) && self.sturm_counts {
            let late = || self.stats.signs.late();
            let seq = SturmSequence::new(&g, k, &mut sign, &late)?
                .ok_or_else(|| self.stats.signs.timed_out())?;
            count = Some(seq.real_roots());
            sturm = Some(seq);
            self.stats.sturm_settled.fetch_add(open as u64, Relaxed);
        }
        let mut out = Vec::new();
        for (beta, m) in marked {
            let root = match m {
                Some(r) => r,
                // Every undecided candidate must be a root to reach the count.
                None if count == Some(roots + open) => true,
                // The count is reached without them: none is a root.
                None if count == Some(roots) => false,
                None => match (&sturm, &beta) {
                    (Some(seq), Algebraic::Root(b)) => {
                        seq.roots_between(b.lo(), b.hi(), &mut sign)? == 1
                    }
                    _ => {
                        point.push(beta);
                        let s = sign_at(&g, &point, &self.stats.signs)?;
                        let beta = point.pop().expect("pushed just above");
                        if s == 0 {
                            out.push(beta);
                        }
                        continue;
                    }
                },
            };
            if root {
                out.push(beta);
            }
        }
        Ok(Ok(out))
    }

    /// The number of distinct real roots in `x_k` of `g` over the sample `prefix` for
    /// degrees 1 to 3 with a leading coefficient that does not vanish there
    /// ([`crate::root_count`]).
    fn real_root_count(
        &self,
        g: &Poly,
        prefix: &[Algebraic],
        k: usize,
    ) -> Result<Option<usize>, CadError> {
        crate::root_count::distinct_real_roots(g, k, &mut |p| sign_at(p, prefix, &self.stats.signs))
    }

    /// Candidate roots: real roots of the resultant of `g` against the defining polynomials
    /// of the irrational coordinates. If the resultant vanishes identically although `g`
    /// does not vanish at the sample, some defining polynomial shares a factor with `g` at a
    /// conjugate; replacing each by its irreducible factor through the coordinate fixes it.
    fn eliminate(
        &self,
        g: &Poly,
        prefix: &[Algebraic],
        irrational: &[usize],
        k: usize,
    ) -> Result<Vec<Algebraic>, CadError> {
        let key: EliminantKey = (
            g.clone(),
            irrational
                .iter()
                .map(|&i| (i, prefix[i].defining_poly()))
                .collect(),
        );
        let memo = self.eliminant_memo.as_ref();
        if let Some(hit) = memo
            .and_then(|m| m.lock().ok())
            .and_then(|m| m.get(&key).cloned())
        {
            self.stats.eliminants_reused.fetch_add(1, Relaxed);
            return Ok(hit);
        }
        let r = UPoly::from_poly(&self.eliminant(g, prefix, irrational, false)?, k)?;
        if !r.is_zero() {
            let roots = self.candidates(&r)?;
            if let Some(mut m) = memo.and_then(|m| m.lock().ok()) {
                if m.len() >= ELIMINANT_MEMO_ENTRIES {
                    m.clear();
                }
                m.insert(key, roots.clone());
            }
            return Ok(roots);
        }
        // With minimal polynomials the eliminant depends on which roots the coordinates
        // are: not remembered.
        let r = UPoly::from_poly(&self.eliminant(g, prefix, irrational, true)?, k)?;
        if !r.is_zero() {
            return self.candidates(&r);
        }
        Err(CadError::Invariant(
            "resultant against minimal polynomials vanished for a non-nullified polynomial",
        ))
    }

    /// The real roots of the eliminant `r` (non-zero).
    fn candidates(&self, r: &UPoly) -> Result<Vec<Algebraic>, CadError> {
        if r.degree() == 0 {
            return Ok(Vec::new());
        }
        Algebraic::roots_of_until(r, &|| self.stats.signs.late())?
            .ok_or_else(|| self.stats.signs.timed_out())
    }

    /// `Res(.. Res(g, m_j) .., m_1)` over the irrational coordinates, with their
    /// defining polynomials `m_i`, or with the irreducible factors of those through the
    /// coordinates if `minimal`.
    fn eliminant(
        &self,
        g: &Poly,
        prefix: &[Algebraic],
        irrational: &[usize],
        minimal: bool,
    ) -> Result<Poly, CadError> {
        let mut r = g.clone();
        for &i in irrational.iter().rev() {
            let mut m = prefix[i].defining_poly();
            if minimal {
                m = minimal_factor(&prefix[i], &m, i, &|| self.stats.signs.late())
                    .ok_or_else(|| self.stats.signs.timed_out())?;
                self.stats.minimal_polys.fetch_add(1, Relaxed);
            }
            let late = || self.stats.signs.late();
            r = r
                .resultant_until(&m.to_poly(i), i, &late)
                .ok_or_else(|| self.stats.signs.timed_out())?;
        }
        Ok(r)
    }

    /// Over a 0-dimensional cell where `f` vanishes identically: the roots of the first
    /// partial derivative (in the variables below `k`, then higher orders) that does not.
    fn delineating_roots(
        &self,
        f: &Poly,
        prefix: &[Algebraic],
        k: usize,
    ) -> Result<Vec<Algebraic>, CadError> {
        let mut frontier = vec![f.clone()];
        // Some derivative of order <= total degree is a non-zero constant in the lower
        // variables, so this terminates.
        for _ in 0..=f.total_degree() {
            let mut next = Vec::new();
            for p in &frontier {
                for v in 0..k {
                    let d = p.derivative(v);
                    if d.is_zero() {
                        continue;
                    }
                    if let Ok(rs) = self.roots_over(&d, prefix, k)? {
                        return Ok(rs);
                    }
                    next.push(d);
                }
            }
            frontier = next;
        }
        Err(CadError::Invariant("no delineating derivative was found"))
    }
}

/// The irreducible factor of `m` (in variable `var`) that has `a` as a root, or `None`
/// once `stop()` says so (the exact signs at `a` ask it).
fn minimal_factor(a: &Algebraic, m: &UPoly, var: usize, stop: &dyn Fn() -> bool) -> Option<UPoly> {
    let p = m.to_poly(var);
    let sf = p.square_free_part().integer_primitive();
    for f in factor_univariate(&sf, var) {
        if let Ok(u) = UPoly::from_poly(&f, var) {
            if a.sign_of_until(&u, stop)? == 0 {
                return Some(u);
            }
        }
    }
    // The product of the factors vanishes at a, so one of them does.
    Some(m.clone())
}

/// Exact integrality test.
pub fn is_integer(a: &Algebraic) -> bool {
    match a {
        Algebraic::Rational(r) => r.is_integer(),
        Algebraic::Root(_) => *a == Algebraic::from(a.floor()),
    }
}

/// Whether the open interval of a sector (over a point) contains an integer. The sample
/// was chosen as an integer whenever one lies in the sector, so the sample decides.
fn sector_has_integer(_lower: &Bound, _upper: &Bound, sample: &Algebraic) -> bool {
    is_integer(sample)
}

/// Integer value of an algebraic number that is known to be an integer.
pub fn as_integer(a: &Algebraic) -> Option<polys::BigInt> {
    is_integer(a).then(|| a.floor())
}
