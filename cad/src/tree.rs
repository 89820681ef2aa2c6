//! The lifting tree's cells: where each lies along its variable (sections and sectors
//! between roots of basis polynomials), its sample coordinate, its stack and why it was cut.
//! Kept small: a large decomposition holds millions (`cad/tests/cell_size.rs`).

use crate::algebraic::Algebraic;
use std::sync::Arc;

/// One end of a cell along its variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Unbounded below (the lowest sector of a stack).
    NegInf,
    /// Unbounded above (the highest sector of a stack).
    PosInf,
    /// The `root`-th (1-based, increasing) real root of basis polynomial `poly` of the
    /// cell's level, over the parent cell. Several pairs when several basis polynomials
    /// share the root; the first is the one of lowest degree. Shared: a root bounds the
    /// sector below it, its own section and the sector above. A `Vec` behind the `Arc`
    /// keeps the pointer thin (8 bytes instead of a slice's 16): two bounds in every cell.
    Roots(Arc<Vec<RootRef>>),
}

/// A root of a basis polynomial over a parent cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootRef {
    /// Index into the level's basis.
    pub poly: usize,
    /// 1-based index among the real roots of that polynomial over the parent cell.
    pub root: usize,
}

/// Section (a root) or sector (between two roots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// The cell is a root of some basis polynomials: one point along its variable.
    Section,
    /// The open interval between two consecutive roots (or a root and infinity).
    Sector,
}

/// A cell of the lifting tree.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The variable this cell fixes: `x_level`.
    pub level: usize,
    /// Whether the cell is a section or a sector along `x_level`.
    pub kind: CellKind,
    /// For a section both bounds are the same root.
    pub lower: Bound,
    /// The upper end of the cell along `x_level`.
    pub upper: Bound,
    /// The sample's coordinate `x_level`; the full sample is the path from the root.
    pub sample: Algebraic,
    /// The stack above this cell (empty at the last level and at pruned cells). A boxed
    /// slice: the stack is complete when stored, and 8 bytes less than a `Vec` in each
    /// of millions of cells.
    pub children: Box<[Cell]>,
    /// Which formulas hold in the cell, one entry per formula, at the cells lifted to the
    /// last level. Empty at pruned cells: none holds at [`Prune::False`] (most cells of a
    /// large tree, so no vector is allocated for them), and none was decided at
    /// [`Prune::NoIntegers`].
    pub truth: Vec<bool>,
    /// Why the subtree was cut here, if it was; `None` for cells lifted as usual.
    pub pruned: Option<Prune>,
}

/// Why a subtree was cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prune {
    /// No formula can hold in the cell (or a pruning constraint fails there), decided at
    /// its sample or because every cell of the stack above it was cut so (the stack is
    /// then not kept, see [`crate::LiftStats::collapsed`]).
    False,
    /// The cell contains no integer point.
    NoIntegers,
}

/// The full sample point of a path of cells.
pub fn sample_of(path: &[&Cell]) -> Vec<Algebraic> {
    path.iter().map(|c| c.sample.clone()).collect()
}

impl Cell {
    /// Leaves of the subtree (including pruned cells), depth first.
    pub fn leaves<'c>(&'c self, path: &mut Vec<&'c Cell>, out: &mut impl FnMut(&[&Cell])) {
        path.push(self);
        if self.children.is_empty() {
            out(path);
        } else {
            for c in &self.children {
                c.leaves(path, out);
            }
        }
        path.pop();
    }
}
