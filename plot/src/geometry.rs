//! Lines for the picture: zero sets of polynomials traced on a grid (marching squares),
//! the cell boundaries of a CAD over the plotted plane (exact roots, converted to floating
//! point only for drawing), tile outlines (a window clipped by half-planes) and clipping.
//!
//! Nothing here decides which integer points belong to the set: that is the generated
//! code's job, run by the exact interpreter.

use super::{CadLines, Line, Window};
use cad::lift::{Bound, CellKind, Lifter, RootRef};
use cad::{Algebraic, Cad, CadError, LiftStats};
use polys::{Coeff, Int, Poly};
use std::collections::HashMap;

/// An integer as a float, for drawing only.
pub fn int_f64(v: &Int) -> f64 {
    match v.to_i64() {
        Some(x) => x as f64,
        None => v.to_string().parse().unwrap_or(f64::NAN),
    }
}

/// A polynomial evaluated in floating point with all variables fixed except two: the
/// picture's `x` and `y`.
pub struct PlaneFn {
    /// Per term: the coefficient times the fixed variables' powers, and the powers of x
    /// and y.
    terms: Vec<(f64, i32, i32)>,
}

impl PlaneFn {
    /// `fixed[v]` is the value of variable `v` unless `v` is `x` or `y`.
    pub fn new(p: &Poly, fixed: &[f64], x: usize, y: usize) -> PlaneFn {
        let terms = p
            .terms()
            .iter()
            .map(|(m, c)| {
                let mut k = int_f64(c);
                for (v, &e) in m.exps().iter().enumerate() {
                    if v != x && v != y && e > 0 {
                        k *= fixed.get(v).copied().unwrap_or(0.0).powi(e as i32);
                    }
                }
                (k, m.exp(x) as i32, m.exp(y) as i32)
            })
            .collect();
        PlaneFn { terms }
    }

    /// Whether the polynomial depends on x or y at all (after fixing the rest).
    pub fn is_constant(&self) -> bool {
        self.terms
            .iter()
            .all(|&(k, ex, ey)| k == 0.0 || (ex == 0 && ey == 0))
    }

    /// The polynomial's value at `(x, y)`.
    pub fn eval(&self, x: f64, y: f64) -> f64 {
        self.terms
            .iter()
            .map(|&(k, ex, ey)| k * x.powi(ex) * y.powi(ey))
            .sum()
    }
}

/// A crossing of the zero set with a grid edge: horizontal (`true`) or vertical, by the
/// grid vertex it starts from.
type EdgeId = (bool, usize, usize);

/// The zero set of `f` over the window, traced by marching squares on an `nx` by `ny`
/// grid and chained into polylines. Sign changes only: a double zero (a square) that does
/// not change sign is invisible, which is fine for a picture.
pub fn zero_set(f: &dyn Fn(f64, f64) -> f64, w: &Window, nx: usize, ny: usize) -> Vec<Line> {
    let nx = nx.max(2);
    let ny = ny.max(2);
    let gx = |i: usize| w.x0 + w.width() * i as f64 / nx as f64;
    let gy = |j: usize| w.y0 + w.height() * j as f64 / ny as f64;
    let values: Vec<Vec<f64>> = (0..=ny)
        .map(|j| (0..=nx).map(|i| f(gx(i), gy(j))).collect())
        .collect();
    let pos = |i: usize, j: usize| values[j][i] > 0.0;
    let mut at: HashMap<EdgeId, (f64, f64)> = HashMap::new();
    let mut crossing = |e: EdgeId| -> EdgeId {
        at.entry(e).or_insert_with(|| {
            let (horizontal, i, j) = e;
            let (i2, j2) = if horizontal { (i + 1, j) } else { (i, j + 1) };
            let (a, b) = (values[j][i], values[j2][i2]);
            let t = if (a - b).abs() > 0.0 && a.is_finite() && b.is_finite() {
                (a / (a - b)).clamp(0.0, 1.0)
            } else {
                0.5
            };
            (gx(i) + t * (gx(i2) - gx(i)), gy(j) + t * (gy(j2) - gy(j)))
        });
        e
    };
    let mut segments: Vec<(EdgeId, EdgeId)> = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            // Corners counter-clockwise from the bottom left; edges bottom, right, top, left.
            let s = [pos(i, j), pos(i + 1, j), pos(i + 1, j + 1), pos(i, j + 1)];
            let edges = [
                (true, i, j),
                (false, i + 1, j),
                (true, i, j + 1),
                (false, i, j),
            ];
            let crossed: Vec<usize> = (0..4).filter(|&k| s[k] != s[(k + 1) % 4]).collect();
            match crossed.len() {
                2 => segments.push((crossing(edges[crossed[0]]), crossing(edges[crossed[1]]))),
                4 => {
                    // A saddle: the centre's sign says which diagonal corners connect.
                    let centre =
                        (values[j][i] + values[j][i + 1] + values[j + 1][i + 1] + values[j + 1][i])
                            / 4.0;
                    if (centre > 0.0) == s[0] {
                        // Corners 0 and 2 connect: cut off corners 1 and 3.
                        segments.push((crossing(edges[0]), crossing(edges[1])));
                        segments.push((crossing(edges[2]), crossing(edges[3])));
                    } else {
                        segments.push((crossing(edges[3]), crossing(edges[0])));
                        segments.push((crossing(edges[1]), crossing(edges[2])));
                    }
                }
                _ => {}
            }
        }
    }
    chain(&segments)
        .into_iter()
        .map(|ids| ids.iter().filter_map(|e| at.get(e).copied()).collect())
        .collect()
}

/// Joins segments that share an edge crossing into polylines (each crossing lies on at
/// most two cells, so the walk never branches).
fn chain(segments: &[(EdgeId, EdgeId)]) -> Vec<Vec<EdgeId>> {
    let mut touching: HashMap<EdgeId, Vec<usize>> = HashMap::new();
    for (k, (a, b)) in segments.iter().enumerate() {
        touching.entry(*a).or_default().push(k);
        touching.entry(*b).or_default().push(k);
    }
    let mut used = vec![false; segments.len()];
    let mut out = Vec::new();
    for start in 0..segments.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        let (a, b) = segments[start];
        let mut forward = vec![a, b];
        let mut backward: Vec<EdgeId> = Vec::new();
        for (list, mut end) in [(&mut forward, b), (&mut backward, a)] {
            while let Some(&k) = touching
                .get(&end)
                .and_then(|ks| ks.iter().find(|&&k| !used[k]))
            {
                used[k] = true;
                let (p, q) = segments[k];
                end = if p == end { q } else { p };
                list.push(end);
            }
        }
        backward.reverse();
        backward.extend(forward);
        out.push(backward);
    }
    out
}

/// The parts of a polyline inside the window (segments clipped by Liang-Barsky).
pub fn clip_polyline(line: &[(f64, f64)], w: &Window) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut current: Line = Vec::new();
    for pair in line.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        match clip_segment(p, q, w) {
            Some((a, b)) => {
                if current.last() != Some(&a) {
                    if current.len() > 1 {
                        out.push(std::mem::take(&mut current));
                    }
                    current.clear();
                    current.push(a);
                }
                current.push(b);
            }
            None => {
                if current.len() > 1 {
                    out.push(std::mem::take(&mut current));
                }
                current.clear();
            }
        }
    }
    if current.len() > 1 {
        out.push(current);
    }
    out
}

fn clip_segment(p: (f64, f64), q: (f64, f64), w: &Window) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (den, num) in [
        (-dx, p.0 - w.x0),
        (dx, w.x1 - p.0),
        (-dy, p.1 - w.y0),
        (dy, w.y1 - p.1),
    ] {
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = num / den;
            if den < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    // An empty parameter range, or NaN from a degenerate segment, drops the segment.
    if t0 > t1 || t0.is_nan() || t1.is_nan() {
        return None;
    }
    let at = |t: f64| (p.0 + t * dx, p.1 + t * dy);
    Some((
        if t0 > 0.0 { at(t0) } else { p },
        if t1 < 1.0 { at(t1) } else { q },
    ))
}

/// The window clipped by half-planes `a*x + b*y + c >= 0` (Sutherland-Hodgman), as a
/// closed polyline (first point repeated), or `None` when nothing is left.
pub fn clip_window(w: &Window, halfplanes: &[(f64, f64, f64)]) -> Option<Line> {
    let mut poly: Line = vec![(w.x0, w.y0), (w.x1, w.y0), (w.x1, w.y1), (w.x0, w.y1)];
    for &(a, b, c) in halfplanes {
        let side = |p: (f64, f64)| a * p.0 + b * p.1 + c;
        let mut next = Vec::with_capacity(poly.len() + 1);
        for k in 0..poly.len() {
            let p = poly[k];
            let q = poly[(k + 1) % poly.len()];
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                next.push(p);
            }
            // Strictly opposite sides only: a vertex on the line is kept once, above.
            if (sp > 0.0 && sq < 0.0) || (sp < 0.0 && sq > 0.0) {
                let t = sp / (sp - sq);
                next.push((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)));
            }
        }
        poly = next;
        if poly.len() < 3 {
            return None;
        }
    }
    poly.push(poly[0]);
    Some(poly)
}

/// The cell boundaries of `cad` in the plane of its last two variables over the integer
/// point `prefix` (values of all earlier variables): the x-sections as walls, and the
/// y-sections of every x-cell that was lifted (pruned cells have no stack). The roots are
/// exact (the CAD's own lifting); curves over a sector are sampled at `samples` rational
/// abscissae inside it and the window.
pub fn cad_lines(
    cad: &Cad,
    prefix: &[Int],
    w: &Window,
    samples: usize,
    stats: &LiftStats,
) -> Result<CadLines, CadError> {
    let mut out = CadLines::default();
    if cad.nvars != prefix.len() + 2 {
        return Err(CadError::Invariant(
            "the plotted CAD must have exactly two variables after the fixed ones",
        ));
    }
    let lifter = Lifter::new(
        &cad.projection.levels,
        &cad.full,
        &cad.formulas,
        &cad.pruning,
        stats,
    )
    .with_restricted(&cad.projection.restricted);
    let mut point: Vec<Algebraic> = prefix
        .iter()
        .map(|v| Algebraic::from(v.to_bigint()))
        .collect();
    let (stack, zero_dim) = if prefix.is_empty() {
        (cad.cells.as_slice(), true)
    } else {
        let path = cad.locate_point(&point, stats)?;
        match path.last() {
            Some(c) if path.len() == prefix.len() && c.pruned.is_none() => (
                &c.children[..],
                path.iter().all(|c| c.kind == CellKind::Section),
            ),
            // The fixed values lie in a pruned cell: the set is empty there and the
            // decomposition has nothing to show in this plane.
            _ => return Ok(out),
        }
    };
    let Ok(xroots) = lifter.stack_roots(&point, zero_dim)? else {
        return Ok(out);
    };
    let find = |roots: &[(Algebraic, Vec<RootRef>)], b: &Bound| -> Option<Algebraic> {
        match b {
            Bound::Roots(refs) => roots
                .iter()
                .find(|(_, rs)| rs.contains(&refs[0]))
                .map(|(a, _)| a.clone()),
            _ => None,
        }
    };
    for cell in stack {
        match cell.kind {
            CellKind::Section => {
                // The root at this prefix, not the cell's sample: the tree's samples lie
                // over the parent cell's sample, which need not be the plotted point.
                let Some(xa) = find(&xroots, &cell.lower) else {
                    continue;
                };
                let x = xa.to_f64();
                out.walls.push(x);
                if cell.children.is_empty() {
                    continue;
                }
                point.push(xa);
                if let Ok(yroots) = lifter.stack_roots(&point, zero_dim)? {
                    for child in cell.children.iter().filter(|c| c.kind == CellKind::Section) {
                        if let Some(y) = find(&yroots, &child.lower) {
                            out.points.push((x, y.to_f64()));
                        }
                    }
                }
                point.pop();
            }
            CellKind::Sector => {
                let refs: Vec<RootRef> = cell
                    .children
                    .iter()
                    .filter(|c| c.kind == CellKind::Section)
                    .filter_map(|c| match &c.lower {
                        Bound::Roots(r) => r.first().copied(),
                        _ => None,
                    })
                    .collect();
                if refs.is_empty() {
                    continue;
                }
                let lo = find(&xroots, &cell.lower);
                let hi = find(&xroots, &cell.upper);
                let a = lo.as_ref().map_or(w.x0, |v| v.to_f64().max(w.x0));
                let b = hi.as_ref().map_or(w.x1, |v| v.to_f64().min(w.x1));
                if a >= b {
                    continue;
                }
                let mut lines: Vec<Line> = vec![Vec::new(); refs.len()];
                for k in 0..=samples {
                    // Abscissae crowd towards the ends, where curves may turn sharply.
                    let s = 0.5 - 0.5 * (std::f64::consts::PI * k as f64 / samples as f64).cos();
                    let Some(xa) = dyadic(a + (b - a) * s) else {
                        continue;
                    };
                    if lo.as_ref().is_some_and(|l| xa <= *l)
                        || hi.as_ref().is_some_and(|h| xa >= *h)
                    {
                        continue;
                    }
                    let x = xa.to_f64();
                    point.push(xa);
                    let roots = lifter.stack_roots(&point, false)?;
                    point.pop();
                    let Ok(yroots) = roots else {
                        continue;
                    };
                    for (line, r) in lines.iter_mut().zip(&refs) {
                        if let Some((y, _)) = yroots.iter().find(|(_, rs)| rs.contains(r)) {
                            line.push((x, y.to_f64()));
                        }
                    }
                }
                out.sections
                    .extend(lines.into_iter().filter(|l| l.len() > 1));
            }
        }
    }
    Ok(out)
}

/// A rational close to `x` with a power-of-two denominator (exact input for the lifting).
fn dyadic(x: f64) -> Option<Algebraic> {
    const SCALE: i64 = 1 << 20;
    let n = (x * SCALE as f64).round();
    if !n.is_finite() || n.abs() >= 9.0e15 {
        return None;
    }
    Algebraic::ratio(n as i64, SCALE)
}
