//! [`Cad`]: projection plus pruned lifting for a set of formulas, with the McCallum
//! fallback when Brown's projection is not valid, and point location for checking.

use crate::algebraic::Algebraic;
use crate::equational::Equations;
use crate::error::CadError;
use crate::formula::Formula;
use crate::lift::{Bound, Cell, CellKind, LiftOutcome, LiftStats, Lifter};
use crate::project::Projection;
use polys::{Int, Poly};
use std::sync::atomic::Ordering::Relaxed;

/// A cylindrical algebraic decomposition of R^n adapted to formulas, pruned for code
/// generation: variables `x_0 .. x_(n-1)`, outermost first.
#[derive(Debug)]
pub struct Cad {
    /// Number of variables `n`; every sample and located point has this many coordinates.
    pub nvars: usize,
    /// The projection factors per level; the cells' bounds refer to them by index.
    pub projection: Projection,
    /// `full[k][i]`: basis polynomial `i` of level `k` contributes all its coefficients.
    pub full: Vec<Vec<bool>>,
    /// The stack over R^0: the level-0 cells.
    pub cells: Vec<Cell>,
    /// How often the projection was redone with McCallum's coefficients for a polynomial
    /// whose leading coefficient vanished over a cell of positive dimension.
    pub restarts: usize,
    /// The polynomials projected with all their coefficients (McCallum's set for them):
    /// those given to [`Cad::with_full`] and those a restart added. A caller decomposing
    /// again for more polynomials hands them back, so that the restarts are not repeated.
    pub full_polys: Vec<Poly>,
    /// The formulas decomposed for, one per statement; a cell's `truth` is indexed like them.
    pub formulas: Vec<Formula>,
    /// Constraints that hold wherever a formula holds, used only to cut the tree.
    pub pruning: Vec<Formula>,
}

impl Cad {
    /// Decomposes for `formulas` (one per statement) over `nvars` variables; `pruning`
    /// formulas must hold wherever a formula holds and only cut the tree.
    ///
    /// ```
    /// use cad::{formula::{Atom, Formula, Rel}, Cad, LiftStats};
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::from_names(["x", "y"]);
    /// let atom = |s: &str, v: &mut Vars| Formula::Atom(Atom { poly: Poly::parse(s, v).unwrap(), rel: Rel::Ge });
    /// let disc = Formula::and(vec![atom("4 - x^2 - y^2", &mut v)]);
    /// let cad = Cad::new(vec![disc], vec![], 2, &LiftStats::default()).unwrap();
    /// assert!(cad.leaf_count() > 0);
    /// ```
    pub fn new(
        formulas: Vec<Formula>,
        pruning: Vec<Formula>,
        nvars: usize,
        stats: &LiftStats,
    ) -> Result<Cad, CadError> {
        Cad::with_limits(formulas, pruning, nvars, stats, &crate::Limits::none())
    }

    /// As [`Cad::new`], stopping with [`CadError::Limit`] when projection or lifting
    /// reaches `limits`.
    pub fn with_limits(
        formulas: Vec<Formula>,
        pruning: Vec<Formula>,
        nvars: usize,
        stats: &LiftStats,
        limits: &crate::Limits,
    ) -> Result<Cad, CadError> {
        Cad::with_full(formulas, pruning, nvars, stats, limits, Vec::new())
    }

    /// As [`Cad::with_limits`], projecting the polynomials `full_polys` (where they are
    /// basis polynomials) with all their coefficients from the start. Any set is valid:
    /// more coefficients only add projection factors; a good guess (a previous
    /// decomposition's [`Cad::full_polys`]) saves the liftings that a restart throws away.
    pub fn with_full(
        formulas: Vec<Formula>,
        pruning: Vec<Formula>,
        nvars: usize,
        stats: &LiftStats,
        limits: &crate::Limits,
        mut full_polys: Vec<Poly>,
    ) -> Result<Cad, CadError> {
        let mut polys: Vec<Poly> = Vec::new();
        for f in formulas.iter().chain(&pruning) {
            for p in f.polynomials() {
                if !polys.contains(&p) {
                    polys.push(p);
                }
            }
        }
        if let Some(v) = polys
            .iter()
            .filter_map(Poly::main_var)
            .find(|&v| v >= nvars)
        {
            return Err(CadError::MissingCoordinate(v));
        }
        // Clauses with an equation in the last variable restrict its projection.
        let eqs = match nvars {
            0 => Equations::default(),
            n => Equations::of(&formulas, &pruning, n - 1),
        };
        let max_restarts = 8 + polys.len();
        for restarts in 0..=max_restarts {
            let projection = Projection::restricted(&polys, nvars, &full_polys, &eqs, limits)?;
            let full = projection.full.clone();
            let lifter = Lifter::new(&projection.levels, &full, &formulas, &pruning, stats)
                .with_restricted(&projection.restricted)
                .with_limits(*limits);
            with_level_zero_roots(&lifter, &projection);
            match lifter.lift()? {
                LiftOutcome::Tree(cells) => {
                    return Ok(Cad {
                        nvars,
                        projection,
                        full,
                        cells,
                        restarts,
                        full_polys,
                        formulas,
                        pruning,
                    })
                }
                LiftOutcome::Nullified(bad) => {
                    let before = full_polys.len();
                    for (k, i) in bad {
                        let p = projection.levels[k][i].clone();
                        if !full_polys.contains(&p) {
                            full_polys.push(p);
                        }
                    }
                    if full_polys.len() == before {
                        break;
                    }
                }
            }
        }
        Err(CadError::Invariant(
            "the McCallum fallback did not make the projection valid",
        ))
    }

    /// Number of leaves (including pruned cells).
    pub fn leaf_count(&self) -> usize {
        let mut n = 0;
        for c in &self.cells {
            c.leaves(&mut Vec::new(), &mut |_| n += 1);
        }
        n
    }

    /// Number of cells in the tree.
    pub fn cell_count(&self) -> usize {
        fn count(c: &Cell) -> usize {
            1 + c.children.iter().map(count).sum::<usize>()
        }
        self.cells.iter().map(count).sum()
    }

    /// Visits every leaf with its path from level 0.
    pub fn for_each_leaf(&self, mut f: impl FnMut(&[&Cell])) {
        for c in &self.cells {
            c.leaves(&mut Vec::new(), &mut f);
        }
    }

    /// The path of cells containing an integer point (all `nvars` coordinates), found by
    /// evaluating the cell bounds at the point's own coordinates. Stops early at a pruned
    /// cell. Fails only if the decomposition is inconsistent (a bound has no root there),
    /// which would be a bug. For many points, [`Cad::locator`] builds the lifting state
    /// once.
    pub fn locate(&self, point: &[Int], stats: &LiftStats) -> Result<Vec<&Cell>, CadError> {
        self.locator(stats).locate(point)
    }

    /// [`Cad::locate`] for a point with real algebraic coordinates (e.g. another CAD's
    /// sample points). A point in a cell cut for holding no integer ends the path there,
    /// like any pruned cell.
    pub fn locate_point(
        &self,
        point: &[Algebraic],
        stats: &LiftStats,
    ) -> Result<Vec<&Cell>, CadError> {
        self.locator(stats).locate_point(point)
    }

    /// Point location for many points: the lifter (the table of which basis polynomials
    /// divide the formulas' polynomials, and the memo of roots over coordinates already
    /// seen) is built once instead of per point.
    pub fn locator<'c: 's, 's>(&'c self, stats: &'s LiftStats) -> Locator<'c, 's> {
        let lifter = Lifter::new(
            &self.projection.levels,
            &self.full,
            &self.formulas,
            &self.pruning,
            stats,
        )
        .with_restricted(&self.projection.restricted);
        with_level_zero_roots(&lifter, &self.projection);
        Locator { cad: self, lifter }
    }
}

/// Hands the roots of the level-0 basis, isolated while the projection built it, to the
/// lifting's memo of roots: the stack over R^0 does not isolate them again. (Over R^0 a
/// member's roots depend on no coordinate, so the entry matches every lookup.)
fn with_level_zero_roots(lifter: &Lifter, projection: &Projection) {
    let n = projection.levels.first().map_or(0, Vec::len);
    if projection.level_roots.len() != n {
        return;
    }
    if let Ok(mut memo) = lifter.roots_memo.lock() {
        for (i, rs) in projection.level_roots.iter().enumerate() {
            memo.insert((0, i), vec![(Vec::new(), rs.clone())]);
        }
    }
}

/// Locates points in one decomposition `'c`, with statistics and lifting state that live
/// as long as `'s`; see [`Cad::locator`].
pub struct Locator<'c, 's> {
    cad: &'c Cad,
    lifter: Lifter<'s>,
}

impl<'c, 's> Locator<'c, 's> {
    /// As [`Cad::locate`].
    pub fn locate(&self, point: &[Int]) -> Result<Vec<&'c Cell>, CadError> {
        let point: Vec<Algebraic> = point.iter().map(|x| Algebraic::from(x.clone())).collect();
        self.locate_point(&point)
    }

    /// As [`Cad::locate_point`].
    pub fn locate_point(&self, point: &[Algebraic]) -> Result<Vec<&'c Cell>, CadError> {
        let cad: &'c Cad = self.cad;
        let mut path: Vec<&'c Cell> = Vec::new();
        let mut cells: &[Cell] = &cad.cells;
        let mut prefix: Vec<Algebraic> = Vec::new();
        let mut zero_dim = true;
        for xv in point.iter().take(cad.nvars) {
            let roots = match self.lifter.stack_roots(&prefix, zero_dim)? {
                Ok(r) => r,
                Err(_) => return Err(CadError::Invariant("nullification at a located point")),
            };
            let value = |b: &Bound| -> Result<Option<Algebraic>, CadError> {
                match b {
                    Bound::NegInf | Bound::PosInf => Ok(None),
                    Bound::Roots(refs) => {
                        let r = refs[0];
                        roots
                            .iter()
                            .find(|(_, rs)| rs.contains(&r))
                            .map(|(a, _)| Some(a.clone()))
                            .ok_or(CadError::Invariant("a cell bound has no root at the point"))
                    }
                }
            };
            let mut found = None;
            for c in cells {
                let inside = match c.kind {
                    CellKind::Section => value(&c.lower)?.is_some_and(|v| v == *xv),
                    CellKind::Sector => {
                        value(&c.lower)?.is_none_or(|v| v < *xv)
                            && value(&c.upper)?.is_none_or(|v| *xv < v)
                    }
                };
                if inside {
                    found = Some(c);
                    break;
                }
            }
            let c = found.ok_or(CadError::Invariant(
                "no cell of the stack contains the point",
            ))?;
            path.push(c);
            if c.pruned.is_some() || c.children.is_empty() {
                break;
            }
            zero_dim &= c.kind == CellKind::Section;
            prefix.push(xv.clone());
            cells = &c.children;
        }
        Ok(path)
    }
}

/// Summary line for `--stats`.
pub fn stats_summary(stats: &LiftStats) -> String {
    format!(
        "cells {} (leaves {}, pruned: false {}, no integers {}; {} dropped in all-false stacks), delineating {}, minimal polynomials {}, eliminants reused {}, exact resultants reused {}, Sturm counts {}; signs: {}",
        stats.cells.load(Relaxed),
        stats.leaves.load(Relaxed),
        stats.pruned_false.load(Relaxed),
        stats.pruned_integer.load(Relaxed),
        stats.collapsed.load(Relaxed),
        stats.delineating.load(Relaxed),
        stats.minimal_polys.load(Relaxed),
        stats.eliminants_reused.load(Relaxed),
        stats.signs.resultants_reused(),
        stats.sturm_settled.load(Relaxed),
        stats.signs.snapshot()
    )
}
