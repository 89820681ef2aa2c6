//! The lowest level's basis by real roots: square-free polynomials in `x_0` that share no
//! real root, proved by isolating intervals, with a gcd only where two intervals still
//! overlap after refinement.
//!
//! The stack over R^0 has the real roots of the level-0 basis as its sections, and a member
//! with no root at a section is non-zero there. That is all the lifting asks of level 0:
//! members that share only complex roots, or have no real root at all, change no cell. The
//! square-free basis of the other levels ([`polys::square_free_basis_until`]) proves every
//! pair coprime over C, a test per pair; on the hard random domains of issue 23 level 0 has
//! thousands of members and those tests took most of the projection. Here the roots are
//! isolated (which the lifting needed anyway, and now takes over, see
//! [`crate::project::Projection::level_roots`]), refined where they overlap, and only the
//! pairs whose roots cannot be told apart by a few bisections pay for a gcd: a non-trivial
//! one splits both members, as the square-free basis does.

use crate::algebraic::Algebraic;
use crate::error::CadError;
use crate::upoly::UPoly;
use polys::{Poly, Rat};
use std::collections::{HashMap, HashSet};

/// Rounds of refinement before overlapping roots are settled by a gcd: each round bisects
/// every root whose interval meets another member's. Distinct roots closer than about
/// `2^-REFINEMENTS` (intervals start at most 1 wide) are left to the gcd, which proves
/// them distinct all the same.
const REFINEMENTS: usize = 24;

/// The level-0 basis: its members and the real roots of each.
#[derive(Clone, Debug, Default)]
pub struct RootBasis {
    /// Non-constant, square-free, Z-primitive polynomials in `x_0` with positive leading
    /// coefficients and at least one real root, no two with a common real root, such that
    /// every real root of an input is a root of a member. Order: as found.
    pub polys: Vec<Poly>,
    /// `roots[i]`: the real roots of `polys[i]`, increasing, as
    /// [`crate::lift::Lifter`] isolates them (integer parts settled).
    pub roots: Vec<Vec<Algebraic>>,
}

/// A member: the polynomial, its roots as isolated (handed over to the lifting), and
/// copies refined while looking for overlaps.
struct Member {
    poly: Poly,
    roots: Vec<Algebraic>,
    work: Vec<Algebraic>,
}

/// The basis under construction: members by id (`None` once split), the live ones by
/// polynomial, and the pairs proven coprime (ids are never reused).
#[derive(Default)]
struct Builder {
    members: Vec<Option<Member>>,
    live: HashMap<Poly, usize>,
    coprime: HashSet<(usize, usize)>,
}

/// The level-0 basis of the univariate polynomials `polys` (all in `x_0`), or `Ok(None)`
/// as soon as `stop()` says so (asked between polynomials, inside gcds and at every node
/// of the root isolation).
pub(crate) fn real_root_basis(
    polys: &[Poly],
    stop: &dyn Fn() -> bool,
) -> Result<Option<RootBasis>, CadError> {
    let mut b = Builder::default();
    for p in polys {
        if stop() {
            return Ok(None);
        }
        let Some((_, factors)) = p.square_free_until(stop) else {
            return Ok(None);
        };
        for (f, _) in factors {
            if b.add(f, stop)?.is_none() {
                return Ok(None);
            }
        }
    }
    loop {
        if stop() {
            return Ok(None);
        }
        let pairs = b.unresolved_pairs();
        if pairs.is_empty() {
            break;
        }
        for (i, j) in pairs {
            if b.split(i, j, stop)?.is_none() {
                return Ok(None);
            }
        }
    }
    let mut out = RootBasis::default();
    for m in b.members.into_iter().flatten() {
        // No real root: no section, and a constant sign everywhere.
        if !m.roots.is_empty() {
            out.polys.push(m.poly);
            out.roots.push(m.roots);
        }
    }
    Ok(Some(out))
}

impl Builder {
    /// Adds the square-free `f` (Z-primitive, positive leading coefficient) unless it is
    /// constant or already a member; `None` when stopped.
    fn add(&mut self, f: Poly, stop: &dyn Fn() -> bool) -> Result<Option<()>, CadError> {
        if f.is_constant() || self.live.contains_key(&f) {
            return Ok(Some(()));
        }
        let u = UPoly::from_poly(&f, 0)?;
        let Some(mut roots) = Algebraic::roots_of_square_free_until(&u, stop) else {
            return Ok(None);
        };
        // As the lifting's memo of roots stores them: integer roots exact, other intervals
        // within one unit (which also keeps the intervals compared below narrow).
        roots.iter_mut().for_each(Algebraic::settle_integer_part);
        self.live.insert(f.clone(), self.members.len());
        self.members.push(Some(Member {
            poly: f,
            work: roots.clone(),
            roots,
        }));
        Ok(Some(()))
    }

    /// The pairs of members (ids, increasing) not proven coprime whose roots still overlap
    /// after [`REFINEMENTS`] rounds of bisection of the overlapping ones.
    fn unresolved_pairs(&mut self) -> Vec<(usize, usize)> {
        let mut involved: Vec<(usize, usize)> = self
            .members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.as_ref().map(|m| (i, m)))
            .flat_map(|(i, m)| (0..m.work.len()).map(move |r| (i, r)))
            .collect();
        for _ in 0..REFINEMENTS {
            let marks = overlapping(&self.intervals(&involved));
            involved = involved
                .into_iter()
                .zip(marks)
                .filter_map(|(x, m)| m.then_some(x))
                .collect();
            if involved.is_empty() {
                return Vec::new();
            }
            for &(i, r) in &involved {
                // `involved` lists live members only.
                if let Some(m) = self.members[i].as_mut() {
                    m.work[r].refine();
                }
            }
        }
        let mut pairs: Vec<(usize, usize)> = overlapping_pairs(&self.intervals(&involved))
            .into_iter()
            .map(|(a, b)| {
                let (i, j) = (involved[a].0, involved[b].0);
                (i.min(j), i.max(j))
            })
            // Roots of one member never meet (isolation keeps them apart); the test only
            // guards the loop against splitting a member by itself.
            .filter(|p| p.0 != p.1 && !self.coprime.contains(p))
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// The current intervals of the roots `ids` (member, root).
    fn intervals(&self, ids: &[(usize, usize)]) -> Vec<Interval> {
        ids.iter()
            .filter_map(|&(i, r)| self.members[i].as_ref().map(|m| Interval::of(&m.work[r])))
            .collect()
    }

    /// Settles a pair whose roots overlap: proven coprime by their gcd, or both replaced
    /// by the gcd and their cofactors. `None` when stopped.
    fn split(
        &mut self,
        i: usize,
        j: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<()>, CadError> {
        // A member split earlier in this round: its pieces are compared in the next one.
        let (Some(a), Some(b)) = (&self.members[i], &self.members[j]) else {
            return Ok(Some(()));
        };
        let Some(g) = a.poly.gcd_until(&b.poly, stop) else {
            return Ok(None);
        };
        if g.is_constant() {
            self.coprime.insert((i, j));
            return Ok(Some(()));
        }
        // g divides both by construction.
        let exact = |p: &Poly| p.div_exact(&g).expect("a gcd divides").normalize_sign();
        let pieces = [exact(&a.poly), exact(&b.poly), g.clone().normalize_sign()];
        for k in [i, j] {
            if let Some(m) = self.members[k].take() {
                self.live.remove(&m.poly);
            }
        }
        for p in pieces {
            if self.add(p, stop)?.is_none() {
                return Ok(None);
            }
        }
        Ok(Some(()))
    }
}

/// A root's isolating interval: the open `(lo, hi)`, or the point `lo = hi` of a rational.
struct Interval {
    lo: Rat,
    hi: Rat,
    point: bool,
}

impl Interval {
    fn of(a: &Algebraic) -> Interval {
        let (lo, hi) = a.bounds();
        Interval {
            lo,
            hi,
            point: a.is_rational(),
        }
    }

    /// Whether some number lies in both (exactly: open intervals that only touch do not
    /// meet, nor does a point at the end of an open interval).
    fn meets(&self, o: &Interval) -> bool {
        match (self.point, o.point) {
            (true, true) => self.lo == o.lo,
            (false, true) => self.lo < o.lo && o.lo < self.hi,
            (true, false) => o.lo < self.lo && self.lo < o.hi,
            (false, false) => (&self.lo).max(&o.lo) < (&self.hi).min(&o.hi),
        }
    }
}

/// The order of a sweep: by lower end, a point before an open interval starting there
/// (which does not contain it).
fn sweep_order(xs: &[Interval]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| (&xs[a].lo, !xs[a].point).cmp(&(&xs[b].lo, !xs[b].point)));
    order
}

/// For each interval, whether it meets another one, in `O(n log n)`: in the sweep order an
/// interval meets an earlier one exactly when an earlier open interval reaches past its
/// lower end (or the one before is the same point), and a later one exactly when the next
/// one meets it (the later ones start no lower).
fn overlapping(xs: &[Interval]) -> Vec<bool> {
    let order = sweep_order(xs);
    let mut marks = vec![false; xs.len()];
    let mut reach: Option<&Rat> = None;
    for (t, &a) in order.iter().enumerate() {
        let x = &xs[a];
        let before = reach.is_some_and(|h| h > &x.lo)
            || (t > 0 && x.point && xs[order[t - 1]].point && xs[order[t - 1]].lo == x.lo);
        let after = order.get(t + 1).is_some_and(|&b| x.meets(&xs[b]));
        marks[a] = before || after;
        if !x.point {
            reach = Some(reach.map_or(&x.hi, |h| h.max(&x.hi)));
        }
    }
    marks
}

/// Every pair `(a, b)` of intervals that meet (`a`, `b` indices into `xs`), by a sweep that
/// keeps the intervals still open at the current lower end.
fn overlapping_pairs(xs: &[Interval]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    for a in sweep_order(xs) {
        let x = &xs[a];
        // Those ending at or before x's lower end meet nothing from here on (a point at
        // x's lower end can still be x itself).
        active.retain(|&b| xs[b].hi > x.lo || (xs[b].point && xs[b].hi == x.lo));
        pairs.extend(active.iter().filter(|&&b| xs[b].meets(x)).map(|&b| (b, a)));
        active.push(a);
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(lo: i64, hi: i64) -> Interval {
        Interval {
            lo: Rat::from(lo),
            hi: Rat::from(hi),
            point: false,
        }
    }

    fn point(x: i64) -> Interval {
        Interval {
            lo: Rat::from(x),
            hi: Rat::from(x),
            point: true,
        }
    }

    /// The sweeps against every pair tested directly.
    #[test]
    fn sweeps_agree_with_all_pairs() {
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % m) as i64
        };
        for _ in 0..300 {
            let n = 1 + next(12) as usize;
            let xs: Vec<Interval> = (0..n)
                .map(|_| {
                    let lo = next(10);
                    match next(3) {
                        0 => point(lo),
                        _ => open(lo, lo + 1 + next(4)),
                    }
                })
                .collect();
            let mut want = Vec::new();
            let mut marks = vec![false; n];
            for a in 0..n {
                for b in a + 1..n {
                    assert_eq!(xs[a].meets(&xs[b]), xs[b].meets(&xs[a]));
                    if xs[a].meets(&xs[b]) {
                        want.push((a, b));
                        marks[a] = true;
                        marks[b] = true;
                    }
                }
            }
            let mut got: Vec<(usize, usize)> = overlapping_pairs(&xs)
                .into_iter()
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            got.sort_unstable();
            assert_eq!(got, want);
            assert_eq!(overlapping(&xs), marks);
        }
    }
}
