//! The overapproximation of section 3.8 of the seed thesis: a box around one tile in
//! point coordinates that depends on the sizes only (Algorithm 4, which terminates for
//! every shape), and the extreme value substitution that turns each affine constraint
//! of the domain into a constraint on tile coordinates alone. The same vertex argument
//! gives the constraints under which a whole tile lies inside the domain.

use crate::spec::TileSpec;
use cad::formula::{Formula, Rel};
use polys::{Coeff, Int, Poly};

/// Bounds `lo_k <= o_k <= hi_k` valid for every point of a tile (Algorithm 4), and the
/// per-column extents `e_j` they are built from.
pub(crate) struct Box {
    lo: Vec<Poly>,
    hi: Vec<Poly>,
    /// `K`'s columns as integers.
    columns: Vec<Vec<Int>>,
    /// `s_j - 1` when `K` is unimodular (the tile's integer points are `K u` with
    /// `0 <= u_j <= s_j - 1`); `s_j` otherwise (the closure of the real tile).
    extent: Vec<Poly>,
}

impl Box {
    pub(crate) fn new(spec: &TileSpec, sizes: &[Poly]) -> Box {
        let n = sizes.len();
        let unimodular = spec.shape.is_unimodular();
        let extent: Vec<Poly> = sizes
            .iter()
            .map(|s| {
                if unimodular {
                    s.sub(&Poly::one())
                } else {
                    s.clone()
                }
            })
            .collect();
        let mut lo = Vec::with_capacity(n);
        let mut hi = Vec::with_capacity(n);
        for r in 0..n {
            let (mut l, mut h) = (Poly::zero(), Poly::zero());
            for (j, e) in extent.iter().enumerate() {
                let kj = spec.shape.get(r, j);
                match kj.signum() {
                    -1 => l = l.add(&e.scale(kj)),
                    1 => h = h.add(&e.scale(kj)),
                    _ => {}
                }
            }
            lo.push(l);
            hi.push(h);
        }
        let columns = (0..n)
            .map(|j| (0..n).map(|r| spec.shape.get(r, j).clone()).collect())
            .collect();
        Box {
            lo,
            hi,
            columns,
            extent,
        }
    }
}

/// The domain's top-level conjuncts that are affine in the iterators with constant
/// coefficients, as `(a, c)` meaning `a . x + c(params) >= 0`; `None` for a conjunct that
/// is not of that form (only when `strict` is asked for).
fn affine_conjuncts(
    d: &Formula,
    np: usize,
    n: usize,
    strict: bool,
) -> Option<Vec<(Vec<Int>, Poly)>> {
    let mut parts = Vec::new();
    let mut stack = vec![d.tighten_strict()];
    while let Some(f) = stack.pop() {
        match f {
            Formula::And(fs) => stack.extend(fs),
            Formula::True => {}
            Formula::Atom(a) => {
                let split = split_affine(&a.poly, np, n);
                match (split, a.rel) {
                    (Some((a_, c)), Rel::Ge) => parts.push((a_, c)),
                    (Some((a_, c)), Rel::Le) => parts.push(negate(a_, c)),
                    (Some((a_, c)), Rel::Eq) => {
                        parts.push(negate(a_.clone(), c.clone()));
                        parts.push((a_, c));
                    }
                    _ if strict => return None,
                    _ => {}
                }
            }
            _ if strict => return None,
            _ => {}
        }
    }
    Some(parts)
}

fn negate(a: Vec<Int>, c: Poly) -> (Vec<Int>, Poly) {
    (a.iter().map(Coeff::neg).collect(), c.neg())
}

/// `p = a . x + c(params)` with constant `a`, where `x_k` is variable `np + k`.
fn split_affine(p: &Poly, np: usize, n: usize) -> Option<(Vec<Int>, Poly)> {
    let mut rest = p.clone();
    let mut a = Vec::with_capacity(n);
    for k in 0..n {
        let v = np + k;
        let cs = rest.coeffs(v);
        match cs.len() {
            0 | 1 => a.push(Int::from(0)),
            2 => {
                a.push(cs[1].constant_value()?);
                rest = cs[0].clone();
            }
            _ => return None,
        }
    }
    Some((a, rest))
}

/// `a . (A t) + c + max over the tile box of a . o`: for every affine conjunct, a
/// constraint on tile coordinates and parameters that holds wherever the domain does.
pub(crate) fn relaxations(d: &Formula, np: usize, n: usize, a_t: &[Poly], bx: &Box) -> Vec<Poly> {
    let parts = affine_conjuncts(d, np, n, false).unwrap_or_default();
    parts
        .into_iter()
        .map(|(a, c)| {
            let mut q = c;
            for k in 0..n {
                if a[k].is_zero() {
                    continue;
                }
                let extreme = if a[k].signum() > 0 {
                    &bx.hi[k]
                } else {
                    &bx.lo[k]
                };
                q = q.add(&a_t[k].add(extreme).scale(&a[k]));
            }
            q
        })
        .filter(|q| !q.is_constant() || q.constant_value().is_some_and(|v| v.signum() < 0))
        .collect()
}

/// For a domain that is a conjunction of affine constraints: `a . (A t) + c + min over
/// the tile of a . o >= 0` for each, which together say that every point of tile `t` is
/// in the domain. The minimum is taken at a vertex `K u`, `u_j in {0, e_j}`, so it is
/// `sum_j min(0, a . K_j) e_j`.
pub(crate) fn full_tile_constraints(
    d: &Formula,
    np: usize,
    n: usize,
    a_t: &[Poly],
    bx: &Box,
) -> Option<Vec<Poly>> {
    let parts = affine_conjuncts(d, np, n, true)?;
    Some(
        parts
            .into_iter()
            .map(|(a, c)| {
                let mut q = c;
                for k in 0..n {
                    if !a[k].is_zero() {
                        q = q.add(&a_t[k].scale(&a[k]));
                    }
                }
                for (col, e) in bx.columns.iter().zip(&bx.extent) {
                    let mut dot = Int::from(0);
                    for (ak, kk) in a.iter().zip(col) {
                        dot = dot.add(&ak.mul(kk));
                    }
                    if dot.signum() < 0 {
                        q = q.add(&e.scale(&dot));
                    }
                }
                q
            })
            .collect(),
    )
}
