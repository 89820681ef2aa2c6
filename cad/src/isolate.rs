//! Real root isolation by Descartes' rule of signs with Vincent-Collins-Akritas bisection,
//! refinement of isolating intervals, and root counting in an interval.
//!
//! All endpoints are exact rationals (dyadic during the bisection). A root that an
//! endpoint of the bisection hits is reported as an exact point, and every open interval
//! returned has endpoints at which the polynomial does not vanish.

use crate::error::CadError;
use crate::upoly::{pow2, UPoly};
use polys::{Coeff, Int, Rat};

/// One real root, isolated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootInterval {
    /// The root itself, known exactly.
    Exact(Rat),
    /// The open interval `(lo, hi)`, `lo < hi`, containing exactly one root; the
    /// polynomial does not vanish at `lo` or `hi`.
    Open {
        /// Lower endpoint.
        lo: Rat,
        /// Upper endpoint.
        hi: Rat,
    },
}

impl RootInterval {
    /// Lower end: the root itself for an exact root.
    pub fn lo(&self) -> &Rat {
        match self {
            RootInterval::Exact(r) => r,
            RootInterval::Open { lo, .. } => lo,
        }
    }

    /// Upper end: the root itself for an exact root.
    pub fn hi(&self) -> &Rat {
        match self {
            RootInterval::Exact(r) => r,
            RootInterval::Open { hi, .. } => hi,
        }
    }
}

/// A root of the polynomial moved onto (0, 1), found by the bisection: either the point
/// `a / 2^j` or the open interval `(a / 2^j, (a + 1) / 2^j)`.
#[derive(Clone, Debug)]
enum Leaf {
    Point { a: Int, j: u64 },
    Open { a: Int, j: u64 },
}

/// Vincent-Collins-Akritas bisection on (0, 1).
///
/// `q` must be square-free and non-zero at 0 and 1; `q`'s roots in (0, 1) stand for the
/// roots in `(a / 2^j, (a + 1) / 2^j)` of the polynomial being isolated. Leaves are pushed
/// in increasing order. `None` as soon as `stop()` says so (asked at every node: a
/// resultant of degree in the hundreds makes each Taylor shift expensive).
fn vca(q: UPoly, a: Int, j: u64, out: &mut Vec<Leaf>, stop: &dyn Fn() -> bool) -> Option<()> {
    if stop() {
        return None;
    }
    // Cheap pre-test: no sign change at all means no positive root.
    if q.sign_variations() == 0 {
        return Some(());
    }
    match q.reverse().taylor_shift_one().sign_variations() {
        0 => return Some(()),
        1 => {
            out.push(Leaf::Open { a, j });
            return Some(());
        }
        _ => {}
    }
    let two_a = &a + &a;
    let mut left = q.scale_half();
    // left(1) = 0 exactly when the midpoint is a root: record it and divide it out, so
    // that neither half has a root on its boundary.
    let at_mid: Int = left.coeffs().iter().fold(Int::zero(), |acc, c| &acc + c);
    let mid_is_root = at_mid.is_zero();
    if mid_is_root {
        left = left
            .div_exact(&UPoly::from_i64s(&[-1, 1]))
            .expect("x - 1 divides a polynomial vanishing at 1");
    }
    let right = left.taylor_shift_one();
    vca(left, two_a.clone(), j + 1, out, stop)?;
    if mid_is_root {
        out.push(Leaf::Point {
            a: &two_a + &Int::one(),
            j: j + 1,
        });
    }
    vca(right, &two_a + &Int::one(), j + 1, out, stop)
}

fn dyadic(a: &Int, j: u64) -> Rat {
    Rat::dyadic(a.clone(), j)
}

/// Exponent `k` with every root of `p` (non-zero, degree >= 1) of absolute value strictly
/// below `2^k` (Fujiwara's bound, rounded up to a power of two).
fn root_bound_log2(p: &UPoly) -> u64 {
    let c = p.coeffs();
    let d = c.len() - 1;
    let lc_bits = c[d].bits() as i64;
    let mut k: i64 = 0;
    for i in 1..=d {
        let a = &c[d - i];
        if a.is_zero() {
            continue;
        }
        // |a / lc| < 2^(bits(a) - bits(lc) + 1), so its i-th root is below 2^ceil(that / i).
        let e = a.bits() as i64 - lc_bits + 1;
        k = k.max(e.div_euclid(i as i64) + i64::from(e.rem_euclid(i as i64) != 0));
    }
    // Fujiwara: |z| <= 2 max |a_(d-i) / a_d|^(1/i).
    k as u64 + 1
}

/// Positive roots of the square-free `p` (with `p(0) != 0`), as leaves over `(0, 2^k)`.
fn positive_roots(p: &UPoly, k: u64, stop: &dyn Fn() -> bool) -> Option<Vec<RootInterval>> {
    let mut leaves = Vec::new();
    vca(p.scale_pow2(k), Int::zero(), 0, &mut leaves, stop)?;
    // Leaf (a, j) stands for (a 2^k / 2^j, (a + 1) 2^k / 2^j): numerators over 2^e.
    let over = |a: &Int, j: u64| -> (Int, u64) {
        if j >= k {
            (a.clone(), j - k)
        } else {
            (a * &pow2(k - j), 0)
        }
    };
    let mut out = Vec::with_capacity(leaves.len());
    for l in leaves {
        if stop() {
            return None;
        }
        out.push(match l {
            Leaf::Point { a, j } => {
                let (n, e) = over(&a, j);
                RootInterval::Exact(dyadic(&n, e))
            }
            Leaf::Open { a, j } => {
                let (lo, e) = over(&a, j);
                let (hi, _) = over(&(&a + &Int::one()), j);
                exact_if_rational_dyadic(p, lo, hi, e)
            }
        });
    }
    Some(out)
}

/// [`exact_if_rational`] for the dyadic interval `(lo / 2^e, hi / 2^e)` of a root of `p`,
/// in integer arithmetic (the bisection's intervals are dyadic, and rational arithmetic
/// would cost a gcd per operation).
fn exact_if_rational_dyadic(p: &UPoly, mut lo: Int, mut hi: Int, mut e: u64) -> RootInterval {
    let lc = p.lc().abs();
    if lc.bits() <= 64 {
        // The sign of p just right of lo: an end may be a neighbouring root that the
        // bisection hit (detach_ends moves it later), and at a simple root p' gives it.
        let lo_sign = match p.sign_at_dyadic(&lo, e) {
            0 => p.derivative().sign_at_dyadic(&lo, e),
            s => s,
        };
        loop {
            // Multiples w / lc in (lo, hi]: w in (floor(lo lc / 2^e), floor(hi lc / 2^e)].
            let d = pow2(e);
            let (a, _) = (&lo * &lc).div_mod_floor(&d);
            let (b, _) = (&hi * &lc).div_mod_floor(&d);
            if &b - &a <= Int::from(2) {
                let mut w = &a + &Int::one();
                let hi_lc = &hi * &lc;
                // w / lc < hi / 2^e: the end hi itself may be another root.
                while w <= b && &w * &d < hi_lc {
                    // The interval holds one root, so a rational root in it is that root.
                    if p.eval_homogeneous(&w, &lc).is_zero() {
                        return RootInterval::Exact(Rat::new(w, lc));
                    }
                    w = &w + &Int::one();
                }
                break;
            }
            let mid = &lo + &hi;
            lo = &lo + &lo;
            hi = &hi + &hi;
            e += 1;
            match p.sign_at_dyadic(&mid, e) {
                0 => return RootInterval::Exact(dyadic(&mid, e)),
                s if s == lo_sign => lo = mid,
                _ => hi = mid,
            }
        }
    }
    RootInterval::Open {
        lo: dyadic(&lo, e),
        hi: dyadic(&hi, e),
    }
}

/// Shrinks an interval around a simple root of `s` whose ends may be other roots of `s`
/// (the bisection records a midpoint root exactly and its neighbours keep it as an end)
/// until neither end is a root.
fn detach_ends(s: &UPoly, r: RootInterval) -> RootInterval {
    let RootInterval::Open { mut lo, mut hi } = r else {
        return r;
    };
    let mut ds: Option<UPoly> = None;
    loop {
        let lo_sign = s.sign_at(&lo);
        if lo_sign != 0 && s.sign_at(&hi) != 0 {
            return RootInterval::Open { lo, hi };
        }
        // The sign of s just right of lo; at a simple root that is the sign of s'.
        let inside = if lo_sign != 0 {
            lo_sign
        } else {
            ds.get_or_insert_with(|| s.derivative()).sign_at(&lo)
        };
        let mid = lo.midpoint(&hi);
        match s.sign_at(&mid) {
            0 => return RootInterval::Exact(mid),
            v if v == inside => lo = mid,
            _ => hi = mid,
        }
    }
}

fn negate(r: RootInterval) -> RootInterval {
    match r {
        RootInterval::Exact(x) => RootInterval::Exact(-x),
        RootInterval::Open { lo, hi } => RootInterval::Open { lo: -hi, hi: -lo },
    }
}

/// All real roots of `p`, each once whatever its multiplicity, sorted increasingly.
///
/// ```
/// use cad::{isolate_roots, RootInterval, UPoly};
/// use polys::Rat;
/// // (x - 1)(x^2 - 2)
/// let p = UPoly::from_i64s(&[2, -2, -1, 1]);
/// let roots = isolate_roots(&p).unwrap();
/// assert_eq!(roots.len(), 3);
/// assert_eq!(roots[1], RootInterval::Exact(Rat::ratio(1, 1)));
/// ```
pub fn isolate_roots(p: &UPoly) -> Result<Vec<RootInterval>, CadError> {
    if p.is_zero() {
        return Err(CadError::ZeroPolynomial);
    }
    if p.degree() == 0 {
        return Ok(Vec::new());
    }
    Ok(isolate_square_free(&p.square_free_part()))
}

/// [`isolate_roots`] for a polynomial already known to be square-free and non-constant.
pub(crate) fn isolate_square_free(s: &UPoly) -> Vec<RootInterval> {
    isolate_square_free_until(s, &|| false).expect("never stopped")
}

/// [`isolate_square_free`], or `None` as soon as `stop()` says so.
pub(crate) fn isolate_square_free_until(
    s: &UPoly,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<RootInterval>> {
    if s.degree() == 0 {
        return Some(Vec::new());
    }
    if s.degree() == 1 {
        let c = s.coeffs();
        return Some(vec![RootInterval::Exact(Rat::new(
            c[0].neg(),
            c[1].clone(),
        ))]);
    }
    let zero_root = s.trailing_zeros() > 0;
    let deflated = s.shift_down(s.trailing_zeros());
    let k = root_bound_log2(&deflated);
    let mut out: Vec<RootInterval> = positive_roots(&deflated.negate_x(), k, stop)?
        .into_iter()
        .rev()
        .map(negate)
        .collect();
    if zero_root {
        out.push(RootInterval::Exact(Rat::zero()));
    }
    out.extend(positive_roots(&deflated, k, stop)?);
    Some(out.into_iter().map(|r| detach_ends(s, r)).collect())
}

/// Turns an isolated rational root into an exact one. A rational root `u/q` of the
/// integer polynomial `s` has `q | lc(s)`, so it is a multiple of `1/lc`; once the interval
/// is narrower than `1/|lc|` it holds at most one such multiple, and one evaluation
/// decides (the refinement stops as soon as at most two multiples remain, which are then
/// tested). Skipped when `lc` has more than 64 bits (the refinement would cost that many
/// bisections); the root then stays an interval, which is still correct.
fn exact_if_rational(s: &UPoly, r: RootInterval) -> RootInterval {
    let RootInterval::Open { lo, hi } = &r else {
        return r;
    };
    let lc = s.lc().abs();
    if lc.bits() > 64 {
        return r;
    }
    let lc_q = Rat::from_integer(lc.clone());
    // Multiples of 1/lc in (lo, hi]: w/lc for w in (floor(lo lc), floor(hi lc)].
    let candidates = |lo: &Rat, hi: &Rat| ((lo * &lc_q).floor(), (hi * &lc_q).floor());
    let few = |lo: &Rat, hi: &Rat| {
        let (a, b) = candidates(lo, hi);
        b - a <= Int::from(2)
    };
    let refined = refine_interval(s, lo.clone(), hi.clone(), few);
    let RootInterval::Open { lo, hi } = &refined else {
        return refined;
    };
    let (a, b) = candidates(lo, hi);
    let mut w = a + Int::one();
    while w <= b {
        let x = Rat::new(w.clone(), lc.clone());
        // The interval holds one root, so a rational root found in it is that root.
        if s.sign_at(&x) == 0 {
            return RootInterval::Exact(x);
        }
        w = w + Int::one();
    }
    refined
}

/// Bisects `(lo, hi)`, which contains exactly one root of `p`, a root at which `p` changes
/// sign, until `done(lo, hi)` holds or a midpoint hits the root.
fn refine_interval(
    p: &UPoly,
    mut lo: Rat,
    mut hi: Rat,
    done: impl Fn(&Rat, &Rat) -> bool,
) -> RootInterval {
    let lo_sign = p.sign_at(&lo);
    while !done(&lo, &hi) {
        let mid = lo.midpoint(&hi);
        match p.sign_at(&mid) {
            0 => return RootInterval::Exact(mid),
            s if s == lo_sign => lo = mid,
            _ => hi = mid,
        }
    }
    RootInterval::Open { lo, hi }
}

/// Refines an isolating interval of a root of `p` (at which `p` changes sign, as at every
/// root of a square-free polynomial) until it is narrower than `width`, or the root is
/// found exactly.
pub fn refine_root(p: &UPoly, r: &RootInterval, width: &Rat) -> RootInterval {
    match r {
        RootInterval::Exact(_) => r.clone(),
        RootInterval::Open { lo, hi } => {
            refine_interval(p, lo.clone(), hi.clone(), |lo, hi| &(hi - lo) < width)
        }
    }
}

/// The number of distinct real roots of `p` in the open interval `(lo, hi)` (0 when
/// `lo >= hi`).
pub fn count_roots(p: &UPoly, lo: &Rat, hi: &Rat) -> Result<usize, CadError> {
    Ok(leaves_in(p, lo, hi)?.map_or(0, |(_, leaves)| leaves.len()))
}

/// The square-free part of `p` and the bisection leaves of its roots in `(lo, hi)` moved
/// onto (0, 1); `None` when there is nothing to isolate.
fn leaves_in(p: &UPoly, lo: &Rat, hi: &Rat) -> Result<Option<(UPoly, Vec<Leaf>)>, CadError> {
    if p.is_zero() {
        return Err(CadError::ZeroPolynomial);
    }
    if lo >= hi || p.degree() == 0 {
        return Ok(None);
    }
    let s = p.square_free_part();
    let mut q = s.onto_unit_interval(lo, hi);
    // Roots on the boundary are outside the open interval; divide them out.
    q = q.shift_down(q.trailing_zeros());
    if q.eval(&Int::one()).is_zero() {
        q = q
            .div_exact(&UPoly::from_i64s(&[-1, 1]))
            .expect("x - 1 divides a polynomial vanishing at 1");
    }
    let mut leaves = Vec::new();
    vca(q, Int::zero(), 0, &mut leaves, &|| false).expect("never stopped");
    Ok(Some((s, leaves)))
}

/// The distinct real roots of `p` in the open interval `(lo, hi)`, sorted increasingly.
pub fn isolate_roots_in(p: &UPoly, lo: &Rat, hi: &Rat) -> Result<Vec<RootInterval>, CadError> {
    let Some((s, leaves)) = leaves_in(p, lo, hi)? else {
        return Ok(Vec::new());
    };
    let w = hi - lo;
    let at = |a: &Int, j: u64| lo + &(&w * &dyadic(a, j));
    Ok(leaves
        .into_iter()
        .map(|l| match l {
            Leaf::Point { a, j } => RootInterval::Exact(at(&a, j)),
            Leaf::Open { a, j } => exact_if_rational(
                &s,
                detach_ends(
                    &s,
                    RootInterval::Open {
                        lo: at(&a, j),
                        hi: at(&(&a + &Int::one()), j),
                    },
                ),
            ),
        })
        .collect())
}

/// A root bound: every root of `p` has absolute value strictly below `2^root_bound(p)`
/// (Fujiwara's bound rounded up to a power of two; 0 for constants).
pub fn root_bound(p: &UPoly) -> Result<u64, CadError> {
    if p.is_zero() {
        return Err(CadError::ZeroPolynomial);
    }
    if p.degree() == 0 {
        return Ok(0);
    }
    let s = p.shift_down(p.trailing_zeros());
    if s.degree() == 0 {
        return Ok(0);
    }
    Ok(root_bound_log2(&s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(roots: &[(i64, i64)]) -> UPoly {
        // prod (b x - a) for roots a/b
        roots.iter().fold(UPoly::from_i64s(&[1]), |acc, &(a, b)| {
            acc.mul(&UPoly::from_i64s(&[-a, b]))
        })
    }

    fn check_isolating(p: &UPoly, roots: &[RootInterval]) {
        let s = p.square_free_part();
        for w in roots.windows(2) {
            assert!(w[0].hi() <= w[1].lo(), "not sorted/disjoint: {w:?}");
        }
        for r in roots {
            match r {
                RootInterval::Exact(x) => assert_eq!(p.sign_at(x), 0),
                RootInterval::Open { lo, hi } => {
                    assert!(lo < hi);
                    assert_ne!(p.sign_at(lo), 0);
                    assert_ne!(p.sign_at(hi), 0);
                    assert_eq!(count_roots(&s, lo, hi).unwrap(), 1);
                    assert_ne!(s.sign_at(lo), s.sign_at(hi));
                }
            }
        }
    }

    #[test]
    fn wilkinson_roots_are_exact() {
        let rs: Vec<(i64, i64)> = (1..=12).map(|i| (i, 1)).collect();
        let p = product(&rs);
        let roots = isolate_roots(&p).unwrap();
        assert_eq!(roots.len(), 12);
        check_isolating(&p, &roots);
        for (i, r) in roots.iter().enumerate() {
            let x = Rat::ratio(i as i64 + 1, 1);
            let inside = match r {
                RootInterval::Exact(e) => *e == x,
                RootInterval::Open { lo, hi } => *lo < x && x < *hi,
            };
            assert!(inside, "root {} not in {r:?}", i + 1);
        }
    }

    #[test]
    fn a_stop_ends_the_isolation_and_no_stop_changes_nothing() {
        // Wilkinson-like: (x - 1)(x - 2)...(x - 8), counting the bisection nodes asked.
        let roots: Vec<(i64, i64)> = (1..=8).map(|k| (k, 1)).collect();
        let p = product(&roots);
        let asked = std::cell::Cell::new(0u32);
        let s = p.square_free_part();
        let all = isolate_square_free_until(&s, &|| {
            asked.set(asked.get() + 1);
            false
        })
        .unwrap();
        assert_eq!(all, isolate_roots(&p).unwrap());
        assert!(asked.get() > 8, "asked {} times", asked.get());
        // Stopped after a few nodes: no partial answer.
        let n = std::cell::Cell::new(0u32);
        let stop = || {
            n.set(n.get() + 1);
            n.get() > 3
        };
        assert_eq!(isolate_square_free_until(&s, &stop), None);
    }

    #[test]
    fn zero_and_multiple_roots() {
        // x^3 (x - 1)^2 (x + 3/2)
        let p = product(&[(0, 1), (0, 1), (0, 1), (1, 1), (1, 1), (-3, 2)]);
        let roots = isolate_roots(&p).unwrap();
        assert_eq!(roots.len(), 3);
        check_isolating(&p, &roots);
        assert_eq!(roots[1], RootInterval::Exact(Rat::ratio(0, 1)));
        // x (x - 1/3): the interval of 1/3 must not end at the root 0.
        let q = product(&[(0, 1), (1, 3)]);
        let roots = isolate_roots(&q).unwrap();
        check_isolating(&q, &roots);
        let q = product(&[(0, 1), (1, 3), (-1, 5)]);
        let roots = isolate_roots(&q).unwrap();
        assert_eq!(roots.len(), 3);
        check_isolating(&q, &roots);
    }

    #[test]
    fn close_roots() {
        // (x^2 - 2)(10000 x^2 - 20001)
        let p = UPoly::from_i64s(&[-2, 0, 1]).mul(&UPoly::from_i64s(&[-20001, 0, 10000]));
        let roots = isolate_roots(&p).unwrap();
        assert_eq!(roots.len(), 4);
        check_isolating(&p, &roots);
        let refined = refine_root(&p, &roots[3], &Rat::ratio(1, 1 << 40));
        assert!(refined.hi() - refined.lo() < Rat::ratio(1, 1 << 40));
        assert!(*refined.lo() > Rat::ratio(1414, 1000));
    }

    #[test]
    fn no_real_roots_and_errors() {
        assert!(isolate_roots(&UPoly::from_i64s(&[1, 0, 1]))
            .unwrap()
            .is_empty());
        assert!(isolate_roots(&UPoly::from_i64s(&[5])).unwrap().is_empty());
        assert_eq!(isolate_roots(&UPoly::zero()), Err(CadError::ZeroPolynomial));
    }

    #[test]
    fn counting_in_intervals() {
        let p = product(&[(1, 1), (2, 1), (3, 1), (7, 3)]);
        assert_eq!(
            count_roots(&p, &Rat::ratio(1, 1), &Rat::ratio(3, 1)).unwrap(),
            2
        );
        assert_eq!(
            count_roots(&p, &Rat::ratio(0, 1), &Rat::ratio(4, 1)).unwrap(),
            4
        );
        assert_eq!(
            count_roots(&p, &Rat::ratio(3, 1), &Rat::ratio(1, 1)).unwrap(),
            0
        );
        let inside = isolate_roots_in(&p, &Rat::ratio(2, 1), &Rat::ratio(3, 1)).unwrap();
        assert_eq!(inside.len(), 1);
        // 7/3 is rational with denominator dividing lc = 3: found exactly.
        assert_eq!(inside[0], RootInterval::Exact(Rat::ratio(7, 3)));
    }
}
