//! Open sizes (`n = ?`): the size space split into regions, each with its cheapest kernel
//! sequence.
//!
//! Candidate sequences come from searching at several sample sizes; their costs are
//! polynomials in the open sizes (`symbolic`). A CAD of the size space adapted to the
//! cost differences (the cad crate) decides, cell by cell, which candidate is cheapest:
//! the first one not more expensive than any other, ties going to the earlier candidate.

use super::ast::Program;
use super::error::LaError;
use super::notation;
use super::search::{solve, SearchOptions, Solution};
use super::symbolic::{symbolic_cost, SymbolicCost};
use cad::formula::{Atom, Formula, Rel};
use cad::lift::{Bound, Cell, CellKind, Prune};
use cad::{Algebraic, Cad, LiftStats};
use polys::{Poly, Vars};

/// A candidate sequence and its cost.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Kernels with their operands in order, e.g. `GEMM T1 := B * C; GEMM T2 := A * T1`.
    pub kernels: String,
    /// Its cost as a polynomial in the open sizes.
    pub cost: SymbolicCost,
    /// The open sizes' values where the search chose it.
    pub at: Vec<(String, u64)>,
    /// The sequence itself (what `--emit c-api` dispatches to).
    pub solution: Solution,
}

/// Where one candidate is the cheapest.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// A conjunction over the open sizes, e.g. `1 <= n <= 37` or `m = 5 and n >= 11`.
    pub description: String,
    /// Index into the candidates.
    pub candidate: usize,
}

/// The split of the size space.
#[derive(Debug)]
pub struct Regions {
    /// The distinct sequences the search chose at the nominal sizes and at grid points
    /// of the size space (no two with the same cost polynomial), nominal one first.
    pub candidates: Vec<Candidate>,
    /// Parts of the size space, each with the candidate that is cheapest there.
    pub regions: Vec<Region>,
    /// The decomposition behind the regions (`None` with a single candidate).
    pub cad: Option<Cad>,
}

impl Regions {
    /// The candidate chosen for concrete sizes (in the order of the open sizes), found by
    /// locating the point in the decomposition; `None` outside the declared bounds.
    pub fn winner_at(&self, sizes: &[i64]) -> Option<usize> {
        let Some(cad) = &self.cad else {
            return Some(0);
        };
        let point: Vec<polys::Int> = sizes.iter().map(|&v| polys::Int::from(v)).collect();
        let path = cad.locate(&point, &LiftStats::default()).ok()?;
        let leaf = path.last()?;
        if leaf.pruned.is_some() {
            return None;
        }
        leaf.truth.iter().position(|t| *t)
    }
}

/// Sample values of an open size: its bounds and the geometric mean, or powers of ten.
fn samples(lo: Option<u64>, hi: Option<u64>) -> Vec<u64> {
    let mut v: Vec<u64> = match (lo, hi) {
        (Some(l), Some(h)) => vec![l, ((l as f64) * (h as f64)).sqrt().round() as u64, h],
        (Some(l), None) => vec![l, l.saturating_mul(10), l.saturating_mul(1000)],
        (None, Some(h)) => vec![1, (h / 10).max(1), h],
        (None, None) => vec![10, 100, 1000, 10000],
    };
    v.retain(|&x| x >= 1);
    v.sort_unstable();
    v.dedup();
    v
}

/// The program with its open sizes set to `values`.
fn at_sizes(p: &Program, values: &[(String, u64)]) -> Program {
    let mut q = p.clone();
    let value = |n: &Option<String>| {
        n.as_ref()
            .and_then(|n| values.iter().find(|(m, _)| m == n).map(|(_, v)| *v))
    };
    for (name, v) in q.sizes.iter_mut() {
        if let Some((_, x)) = values.iter().find(|(m, _)| m == name) {
            *v = *x;
        }
    }
    for o in q.operands.iter_mut() {
        if let Some(r) = value(&o.dims.0) {
            o.rows = r;
        }
        if let Some(c) = value(&o.dims.1) {
            o.cols = c;
        }
    }
    q
}

/// Splits the space of the open sizes of `p` (at most three) into regions.
pub fn split(p: &Program, opts: SearchOptions) -> Result<Regions, LaError> {
    split_within(p, opts, &cad::Limits::none())
}

/// [`split`] with the decomposition's limits (`max_cells`, `deadline`) taken from `limits`;
/// hitting one is [`LaError::Resource`].
pub fn split_within(
    p: &Program,
    opts: SearchOptions,
    limits: &cad::Limits,
) -> Result<Regions, LaError> {
    let open: Vec<String> = p.open_sizes.iter().map(|o| o.name.clone()).collect();
    if open.is_empty() || open.len() > 3 {
        return Err(LaError::Resource(format!(
            "region splitting takes one to three open sizes, not {}",
            open.len()
        )));
    }
    // Candidates: the best sequence at every point of a small grid of sizes.
    let mut grid: Vec<Vec<(String, u64)>> = vec![Vec::new()];
    for o in &p.open_sizes {
        let vals = samples(o.lo, o.hi);
        grid = grid
            .into_iter()
            .flat_map(|g| {
                vals.iter().map(move |&v| {
                    let mut h = g.clone();
                    h.push((o.name.clone(), v));
                    h
                })
            })
            .collect();
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    // The nominal sizes first: at degenerate grid points (a size of 1) a product of the
    // same cost is named differently (GEMV for GEMM), and ties go to earlier candidates.
    let nominal: Vec<(String, u64)> = p
        .sizes
        .iter()
        .filter(|(n, _)| open.contains(n))
        .cloned()
        .collect();
    for point in std::iter::once(&nominal).chain(&grid) {
        let q = at_sizes(p, point);
        let sol = solve(&q, opts)?;
        // Kernel names with their operands: two parenthesisations share the names.
        let kernels: Vec<String> = sol
            .lowered
            .steps
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    s.kernel.name(),
                    notation::describe(&sol.lowered.env, s)
                )
            })
            .collect();
        let kernels = kernels.join("; ");
        if candidates.iter().any(|c| c.kernels == kernels) {
            continue;
        }
        let cost = symbolic_cost(&q, &sol.lowered, &open)?;
        // A sequence of the same cost polynomial as an earlier one never wins a region.
        if candidates.iter().any(|c| c.cost.times3 == cost.times3) {
            continue;
        }
        candidates.push(Candidate {
            kernels,
            cost,
            at: point.clone(),
            solution: sol,
        });
    }
    let vars = Vars::from_names(open.iter().map(String::as_str));
    if candidates.len() == 1 {
        return Ok(Regions {
            candidates,
            regions: vec![Region {
                description: "every size".into(),
                candidate: 0,
            }],
            cad: None,
        });
    }
    // Candidate i wins where it is strictly cheaper than every earlier one and no more
    // expensive than every later one.
    let formulas: Vec<Formula> = (0..candidates.len())
        .map(|i| {
            let ci = &candidates[i].cost.times3;
            Formula::and(
                candidates
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(j, c)| {
                        let rel = if j < i { Rel::Lt } else { Rel::Le };
                        Formula::Atom(Atom::compare(ci, rel, &c.cost.times3))
                    })
                    .collect(),
            )
        })
        .collect();
    let mut bounds = Vec::new();
    for (k, o) in p.open_sizes.iter().enumerate() {
        let x = Poly::var(k);
        let lo = o.lo.unwrap_or(1).max(1);
        bounds.push(Formula::Atom(Atom::compare(
            &x,
            Rel::Ge,
            &Poly::from_i64(lo as i64),
        )));
        if let Some(h) = o.hi {
            bounds.push(Formula::Atom(Atom::compare(
                &x,
                Rel::Le,
                &Poly::from_i64(h as i64),
            )));
        }
    }
    let stats = LiftStats::default();
    let cad = Cad::with_limits(
        formulas,
        vec![Formula::and(bounds)],
        open.len(),
        &stats,
        limits,
    )
    .map_err(|e| LaError::Resource(format!("region splitting: {e}")))?;
    let mut regions: Vec<Region> = Vec::new();
    cad.for_each_leaf(|path: &[&Cell]| {
        let leaf = path.last().expect("a path has a leaf");
        if leaf.pruned.is_some() || path.len() < open.len() {
            return;
        }
        let Some(winner) = leaf.truth.iter().position(|t| *t) else {
            return;
        };
        let parts: Vec<String> = path
            .iter()
            .enumerate()
            .map(|(k, c)| describe(c, k, path, &cad, &vars))
            .collect();
        regions.push(Region {
            description: parts.join(" and "),
            candidate: winner,
        });
    });
    // Neighbouring one-dimensional regions with the same winner read better as one range.
    if open.len() == 1 {
        regions = merge_ranges(regions, &cad, &vars);
    }
    Ok(Regions {
        candidates,
        regions,
        cad: Some(cad),
    })
}

/// `lower < x < upper` or `x = root` for one cell, with integer bounds where the roots are
/// rational (open sizes are integers).
fn describe(c: &Cell, k: usize, path: &[&Cell], cad: &Cad, vars: &Vars) -> String {
    let x = vars.name(k);
    let root_text = |b: &Bound| match b {
        Bound::Roots(refs) => {
            let f = &cad.projection.levels[k][refs[0].poly];
            let cs = f.coeffs(k);
            // x + b = 0 reads better as x = -b.
            if cs.len() == 2 && cs[1].is_one() {
                cs[0].neg().to_text(vars)
            } else {
                format!("(root {} of {} = 0)", refs[0].root, f.to_text(vars))
            }
        }
        Bound::NegInf => "-oo".into(),
        Bound::PosInf => "+oo".into(),
    };
    let _ = path;
    match c.kind {
        // At the first level a section is a number; further in it depends on the outer sizes.
        CellKind::Section => match c.sample.to_rational() {
            Some(r) if k == 0 => format!("{x} = {r}"),
            _ => format!("{x} = {}", root_text(&c.lower)),
        },
        CellKind::Sector => match (&c.lower, &c.upper) {
            (Bound::NegInf, Bound::PosInf) => format!("any {x}"),
            (Bound::NegInf, u) => format!("{x} < {}", root_text(u)),
            (l, Bound::PosInf) => format!("{x} > {}", root_text(l)),
            (l, u) => format!("{} < {x} < {}", root_text(l), root_text(u)),
        },
    }
}

/// In one dimension: integer ranges `[lo, hi]` per winner, merged across neighbours.
fn merge_ranges(regions: Vec<Region>, cad: &Cad, vars: &Vars) -> Vec<Region> {
    let x = vars.name(0);
    let mut ranges: Vec<(Option<i128>, Option<i128>, usize)> = Vec::new();
    let cells: Vec<&Cell> = cad.cells.iter().collect();
    for (i, c) in cells.iter().enumerate() {
        if c.pruned == Some(Prune::False) || c.pruned == Some(Prune::NoIntegers) {
            continue;
        }
        let Some(w) = c.truth.iter().position(|t| *t) else {
            continue;
        };
        let as_int = |a: &Algebraic, up: bool| -> i128 {
            let v = if up { a.ceil() } else { a.floor() };
            v.to_string()
                .parse()
                .unwrap_or(if up { i128::MAX } else { i128::MIN })
        };
        let (lo, hi) = match c.kind {
            CellKind::Section => {
                let v = &c.sample;
                (Some(as_int(v, true)), Some(as_int(v, false)))
            }
            CellKind::Sector => (
                i.checked_sub(1)
                    .map(|j| as_int(&cells[j].sample, false) + 1),
                cells.get(i + 1).map(|n| as_int(&n.sample, true) - 1),
            ),
        };
        if let (Some(l), Some(h)) = (lo, hi) {
            if l > h {
                continue;
            }
        }
        match ranges.last_mut() {
            Some((_, last_hi, lw))
                if *lw == w && last_hi.zip(lo).is_some_and(|(a, b)| a + 1 == b) =>
            {
                *last_hi = hi;
            }
            _ => ranges.push((lo, hi, w)),
        }
    }
    if ranges.is_empty() {
        return regions;
    }
    ranges
        .into_iter()
        .map(|(lo, hi, w)| Region {
            description: match (lo, hi) {
                (Some(l), Some(h)) if l == h => format!("{x} = {l}"),
                (Some(l), Some(h)) => format!("{l} <= {x} <= {h}"),
                (Some(l), None) => format!("{x} >= {l}"),
                (None, Some(h)) => format!("{x} <= {h}"),
                (None, None) => "every size".into(),
            },
            candidate: w,
        })
        .collect()
}
