//! The exact sign of a multivariate polynomial at a point with real algebraic
//! coordinates, decided by a cascade from cheap to expensive, with [`SignStats`] counting
//! which stage answered.
//!
//! 1. Rational coordinates are substituted exactly (clearing denominators by a positive
//!    factor); a constant result is the answer.
//! 2. Exact rational interval arithmetic over the isolating intervals, refined a few
//!    times; an enclosure away from 0 is the answer.
//! 3. One algebraic coordinate left: the univariate sign routine of [`Algebraic`].
//!    Several: the resultant `R(y)` of `y - p` against each defining polynomial has the
//!    value `p(point)` among its roots; if `R(0) != 0` the value is not zero and refinement
//!    finds its sign; otherwise a bound on the roots of `R` other than 0 gives a radius
//!    `delta`, and an enclosure inside `(-delta, delta)`, or one in which Descartes' rule
//!    finds no root of `R / y^t` (`t` the multiplicity of 0), proves the value is 0.

use crate::algebraic::Algebraic;
use crate::error::CadError;
use crate::float_interval::FloatInterval;
use crate::interval::Interval;
use crate::isolate::root_bound;
use crate::upoly::UPoly;
use polys::{Coeff, Int, Mono, Poly, Rat};
use smallvec::SmallVec;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How many sign queries each stage of the cascade answered. Shared by reference
/// (the counters are atomic), so parallel lifting can count into one instance.
#[derive(Debug, Default)]
pub struct SignStats {
    rational: AtomicU64,
    interval: AtomicU64,
    exact_univariate: AtomicU64,
    exact_resultant: AtomicU64,
    /// The lifting's deadline (set by [`crate::lift::Lifter::with_limits`]): the exact
    /// stage's resultants ask it between primes and evaluation points, since one of them
    /// can take longer than a whole time limit.
    deadline: std::sync::OnceLock<(std::time::Instant, std::time::Duration)>,
    /// The exact stage's resultants `R(y) = Res(y - q, m_1, ..)` by `q` and the defining
    /// polynomials of the coordinates: they do not depend on which real roots of the
    /// `m_i` the coordinates are, and lifting asks for the zero proofs of all candidate
    /// roots of one eliminant, over every sample whose coordinates share their defining
    /// polynomials (the sections of a stack), with the same ones.
    zero_radii: std::sync::Mutex<std::collections::HashMap<ResultantKey, ZeroRadius>>,
    /// Exact-stage queries that took their resultant from `zero_radii`.
    resultants_reused: AtomicU64,
}

/// A polynomial and the variables and defining polynomials of its algebraic coordinates.
type ResultantKey = (Poly, Vec<(usize, UPoly)>);

/// What the exact stage keeps of `R`: when `R(0) = 0`, the other roots' polynomial
/// `S = R / y^t` and a radius around 0 free of its roots.
type ZeroRadius = Option<std::sync::Arc<(UPoly, Rat)>>;

/// Resultants kept per [`SignStats`]; past this the memo is emptied and filled again
/// (a bound on memory: `S` can have degree in the hundreds and long coefficients).
const ZERO_RADII_ENTRIES: usize = 1024;

impl SignStats {
    /// Sets the deadline the exact stage stops at (the first one set stays).
    pub(crate) fn set_deadline(&self, deadline: Option<(std::time::Instant, std::time::Duration)>) {
        if let Some(d) = deadline {
            // Already set: the same lifting's limits, or an earlier attempt's.
            let _ = self.deadline.set(d);
        }
    }

    /// Whether the deadline has passed.
    pub(crate) fn late(&self) -> bool {
        self.deadline
            .get()
            .is_some_and(|(at, _)| std::time::Instant::now() > *at)
    }

    /// How many exact-stage queries reused a resultant of an earlier one.
    pub(crate) fn resultants_reused(&self) -> u64 {
        self.resultants_reused.load(Relaxed)
    }

    /// The error of a computation stopped by [`SignStats::late`].
    pub(crate) fn timed_out(&self) -> CadError {
        let limit = self.deadline.get().map(|d| d.1).unwrap_or_default();
        CadError::Limit(crate::StopReason::TimeLimit(limit))
    }
}

/// A snapshot of [`SignStats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SignCounts {
    /// Decided after substituting the rational coordinates.
    pub rational: u64,
    /// Decided by interval arithmetic over the isolating intervals.
    pub interval: u64,
    /// Decided exactly with one algebraic coordinate left (gcd and root count).
    pub exact_univariate: u64,
    /// Decided exactly with several algebraic coordinates left (resultants).
    pub exact_resultant: u64,
}

impl SignStats {
    /// All counters at zero.
    pub fn new() -> SignStats {
        SignStats::default()
    }

    /// The current counts.
    pub fn snapshot(&self) -> SignCounts {
        SignCounts {
            rational: self.rational.load(Relaxed),
            interval: self.interval.load(Relaxed),
            exact_univariate: self.exact_univariate.load(Relaxed),
            exact_resultant: self.exact_resultant.load(Relaxed),
        }
    }
}

impl SignCounts {
    /// Total number of queries.
    pub fn total(&self) -> u64 {
        self.rational + self.interval + self.exact_univariate + self.exact_resultant
    }
}

impl fmt::Display for SignCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sign queries: {} (rational {}, interval {}, exact univariate {}, exact resultant {})",
            self.total(),
            self.rational,
            self.interval,
            self.exact_univariate,
            self.exact_resultant
        )
    }
}

/// Rounds of refinement stage 2 tries before going exact.
const INTERVAL_ROUNDS: usize = 3;
/// Bisections of every coordinate per round.
const BISECTIONS_PER_ROUND: usize = 4;

/// The exact sign (-1, 0, 1) of `p` at `point` (`point[v]` is the value of `x_v`; every
/// variable of `p` needs a coordinate).
///
/// ```
/// use cad::{sign_at, Algebraic, SignStats, UPoly};
/// use polys::{Poly, Vars};
/// let mut v = Vars::from_names(["x", "y"]);
/// let p = Poly::parse("x^2 - 2*y", &mut v).unwrap();
/// let sqrt2 = Algebraic::roots_of(&UPoly::from_i64s(&[-2, 0, 1])).unwrap().pop().unwrap();
/// let stats = SignStats::new();
/// assert_eq!(sign_at(&p, &[sqrt2.clone(), Algebraic::from(1)], &stats), Ok(0));
/// assert_eq!(sign_at(&p, &[sqrt2, Algebraic::from(0)], &stats), Ok(1));
/// ```
pub fn sign_at(p: &Poly, point: &[Algebraic], stats: &SignStats) -> Result<i32, CadError> {
    match cheap_stages(p, point, stats)? {
        Ok(s) => Ok(s),
        Err((q, roots)) => exact_stage(q, roots, stats),
    }
}

/// The sign when stages 1 and 2 decide it (rational substitution, intervals), `None` when
/// only the exact stage could: for callers that have another exact way to settle the
/// undecided cases (e.g. by counting) and want to skip the costly zero proofs.
pub(crate) fn sign_if_cheap(
    p: &Poly,
    point: &[Algebraic],
    stats: &SignStats,
) -> Result<Option<i32>, CadError> {
    Ok(cheap_stages(p, point, stats)?.ok())
}

/// What is left for the exact stage: the polynomial with the rational coordinates
/// substituted and the algebraic coordinates it still depends on.
type Undecided = (Poly, Vec<(usize, Algebraic)>);

/// Stages 1 and 2.
fn cheap_stages(
    p: &Poly,
    point: &[Algebraic],
    stats: &SignStats,
) -> Result<Result<i32, Undecided>, CadError> {
    // On the stack: a sign query is the commonest call of lifting, and three heap
    // vectors per query were a sixth of its cost.
    let vars = variables_of(p);
    if let Some(&v) = vars.iter().find(|&&v| v >= point.len()) {
        return Err(CadError::MissingCoordinate(v));
    }
    // Stage 1: rational coordinates.
    let mut irrational: SmallVec<[usize; 8]> = SmallVec::new();
    let mut rationals: SmallVec<[(usize, &Rat); 8]> = SmallVec::new();
    for &v in &vars {
        match &point[v] {
            Algebraic::Rational(r) => rationals.push((v, r)),
            Algebraic::Root(_) => irrational.push(v),
        }
    }
    if irrational.is_empty() {
        // The usual case (integer samples): a number, not a polynomial, to build.
        stats.rational.fetch_add(1, Relaxed);
        return Ok(Ok(rational_value_sign(p, &rationals)));
    }
    // Stage 2 on `p` itself first: an outward-rounded f64 evaluation over the rational
    // coordinates (points where they are integers) and the cached boxes of the algebraic
    // ones settles most non-zero signs without building the substituted polynomial.
    if let Some(s) = direct_float_sign(p, &vars, point) {
        stats.interval.fetch_add(1, Relaxed);
        return Ok(Ok(s));
    }
    let mut q = subst_rationals(p, &rationals);
    if let Some(c) = q.constant_value() {
        stats.rational.fetch_add(1, Relaxed);
        return Ok(Ok(c.signum()));
    }
    irrational.retain(|v| q.has_var(*v));

    // Stage 2: interval arithmetic over the isolating intervals, refined a few times:
    // outward-rounded f64 first (cheap), exact rationals only where f64 went out of range.
    // With one algebraic coordinate left the exact univariate test is cheaper than
    // refining towards a sign that may be 0: one refinement round at most.
    let rounds = if irrational.len() == 1 {
        1
    } else {
        INTERVAL_ROUNDS
    };
    // First with f64 enclosures of the roots narrowed by f64 bisection (no rational
    // arithmetic): most non-zero signs are settled here, on the caller's numbers (whose
    // cached boxes later queries at the same point find), without copying them.
    if let Some(s) = narrow_float_enclosure(&q, irrational.iter().map(|&v| (v, &point[v])))
        .and_then(FloatInterval::sign)
    {
        stats.interval.fetch_add(1, Relaxed);
        return Ok(Ok(s));
    }
    let mut roots: Vec<(usize, Algebraic)> = irrational
        .into_iter()
        .map(|v| (v, point[v].clone()))
        .collect();
    for round in 0..=rounds {
        if round > 0 {
            refine_all(&mut q, &mut roots, BISECTIONS_PER_ROUND);
            if let Some(c) = q.constant_value() {
                // Refinement hit the coordinates exactly; the enclosure became a point.
                stats.interval.fetch_add(1, Relaxed);
                return Ok(Ok(c.signum()));
            }
        }
        let s = match float_enclosure(&q, &roots) {
            Some(f) if f.lo.is_finite() && f.hi.is_finite() => f.sign(),
            _ => enclosure(&q, &roots).sign(),
        };
        if let Some(s) = s {
            stats.interval.fetch_add(1, Relaxed);
            return Ok(Ok(s));
        }
    }
    Ok(Err((q, roots)))
}

/// The variables that occur in `p`, increasing, from one pass over the terms (asking
/// `has_var` for each index walks all terms once per variable).
fn variables_of(p: &Poly) -> SmallVec<[usize; 8]> {
    if p.nvars() > 64 {
        return (0..p.nvars()).filter(|&v| p.has_var(v)).collect();
    }
    let mut mask = 0u64;
    for (m, _) in p.terms() {
        for (v, &e) in m.exps().iter().enumerate() {
            if e > 0 {
                mask |= 1 << v;
            }
        }
    }
    let mut vars = SmallVec::new();
    while mask != 0 {
        vars.push(mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
    vars
}

/// Stage 3: exact.
fn exact_stage(
    q: Poly,
    roots: Vec<(usize, Algebraic)>,
    stats: &SignStats,
) -> Result<i32, CadError> {
    if let [(v, a)] = roots.as_slice() {
        stats.exact_univariate.fetch_add(1, Relaxed);
        return a
            .sign_of_until(&UPoly::from_poly(&q, *v)?, &|| stats.late())
            .ok_or_else(|| stats.timed_out());
    }
    stats.exact_resultant.fetch_add(1, Relaxed);
    sign_by_resultant(q, roots, stats)
}

/// For every `x_v = n/d` of `values`: `v`, the powers `n^e` and the factors `d^(deg - e)`
/// for `e = 0..=deg_v(p)`.
fn power_tables(p: &Poly, values: &[(usize, &Rat)]) -> Vec<(usize, Vec<Int>, Vec<Int>)> {
    values
        .iter()
        .map(|&(v, r)| {
            let deg = p.degree(v) as usize;
            let (n, d) = (r.numer(), r.denom());
            let mut np = Vec::with_capacity(deg + 1);
            let mut dp = Vec::with_capacity(deg + 1);
            np.push(Int::one());
            dp.push(Int::one());
            for e in 1..=deg {
                np.push(np[e - 1].mul(n));
                dp.push(dp[e - 1].mul(d));
            }
            // dp[e] is d^e; the factor for exponent e is d^(deg - e).
            dp.reverse();
            (v, np, dp)
        })
        .collect()
}

/// The sign of `p` at a point where every variable of `p` has a rational value in
/// `values`: the sign of `p(values) * prod d^deg_v(p)`, summed term by term.
fn rational_value_sign(p: &Poly, values: &[(usize, &Rat)]) -> i32 {
    if let Some(s) = small_rational_value_sign(p, values) {
        return s;
    }
    let powers = power_tables(p, values);
    let mut sum = Int::zero();
    for (m, c) in p.terms() {
        let mut t = c.clone();
        for (v, np, dp) in &powers {
            let e = m.exp(*v) as usize;
            t = t.mul(&np[e]).mul(&dp[e]);
        }
        sum.add_assign(&t);
    }
    sum.signum()
}

/// Rational coordinates `n/d` of machine-word size, for evaluating terms in `i128` with
/// overflow checks: lifting samples sectors at integers and small fractions, so this is
/// what the sign cascade and the specialisation of basis polynomials meet most, and
/// tables of [`Int`] powers cost ten times the arithmetic.
struct SmallPoint<'v> {
    values: &'v [(usize, &'v Rat)],
    num: [i64; SmallPoint::MAX_VARS],
    den: [i64; SmallPoint::MAX_VARS],
    /// `deg_v(p)` where `d_v != 1`: the power of `d_v` that clears `x_v`'s denominators.
    deg: [u32; SmallPoint::MAX_VARS],
}

impl<'v> SmallPoint<'v> {
    const MAX_VARS: usize = 16;

    /// `None` when a value or a variable index does not fit.
    fn new(p: &Poly, values: &'v [(usize, &'v Rat)]) -> Option<SmallPoint<'v>> {
        let mut pt = SmallPoint {
            values,
            num: [0; Self::MAX_VARS],
            den: [1; Self::MAX_VARS],
            deg: [0; Self::MAX_VARS],
        };
        for &(v, r) in values {
            *pt.num.get_mut(v)? = r.numer().to_i64()?;
            *pt.den.get_mut(v)? = r.denom().to_i64()?;
            if pt.den[v] != 1 {
                pt.deg[v] = p.degree(v);
            }
        }
        Some(pt)
    }

    /// `c m` with the variables of `values` substituted, times `prod d_v^deg_v`; other
    /// variables' exponents are left to the caller. `None` on overflow or a big `c`.
    fn term(&self, m: &Mono, c: &Int) -> Option<i128> {
        let Int::Small(c) = c else { return None };
        // In i64 first: one multiply-with-overflow-flag per factor, where i128's checked
        // multiplication is a call; the values of small samples rarely leave i64.
        if let Some(t) = self.term_in::<i64>(m, *c) {
            return Some(i128::from(t));
        }
        self.term_in::<i128>(m, *c)
    }

    fn term_in<T: CheckedRing>(&self, m: &Mono, c: i64) -> Option<T> {
        let mut t = T::from(c);
        for &(v, _) in self.values {
            let e = m.exp(v);
            if e > 0 {
                let x = T::from(self.num[v]);
                for _ in 0..e {
                    t = t.checked_mul(x)?;
                }
            }
            if self.den[v] != 1 {
                let d = T::from(self.den[v]);
                for _ in e..self.deg[v] {
                    t = t.checked_mul(d)?;
                }
            }
        }
        Some(t)
    }
}

/// The checked multiplication of `i64` and `i128`, for [`SmallPoint::term_in`].
trait CheckedRing: Copy + From<i64> {
    fn checked_mul(self, o: Self) -> Option<Self>;
}

impl CheckedRing for i64 {
    fn checked_mul(self, o: i64) -> Option<i64> {
        i64::checked_mul(self, o)
    }
}

impl CheckedRing for i128 {
    fn checked_mul(self, o: i128) -> Option<i128> {
        i128::checked_mul(self, o)
    }
}

/// The sign of `p` at a point where every variable has a machine-word rational value,
/// in `i128`; `None` (the general path decides) on a big number or an overflow.
fn small_rational_value_sign(p: &Poly, values: &[(usize, &Rat)]) -> Option<i32> {
    let pt = SmallPoint::new(p, values)?;
    let mut sum: i128 = 0;
    for (m, c) in p.terms() {
        sum = sum.checked_add(pt.term(m, c)?)?;
    }
    Some(sum.signum() as i32)
}

/// `p` with every variable other than `x_k` set to its value in `values`, times the
/// positive factor `prod d^deg_v(p)` that clears the denominators (same roots), as a
/// dense polynomial in `x_k`: what lifting isolates roots of over a rational sample,
/// built without the sorting and merging of a sparse [`Poly`].
pub(crate) fn subst_rationals_univariate(
    p: &Poly,
    k: usize,
    values: &[(usize, &Rat)],
) -> Result<UPoly, CadError> {
    let n = p.degree(k) as usize + 1;
    let small = SmallPoint::new(p, values).and_then(|pt| {
        let mut c = vec![0i128; n];
        for (m, a) in p.terms() {
            let e = m.exp(k) as usize;
            c[e] = c[e].checked_add(pt.term(m, a)?)?;
        }
        Some(c)
    });
    match small {
        Some(c) => Ok(UPoly::new(c.into_iter().map(int_of_i128).collect())),
        // Numbers past the machine words: the general substitution (rare).
        None => UPoly::from_poly(&subst_rationals(p, values), k),
    }
}

fn int_of_i128(v: i128) -> Int {
    match i64::try_from(v) {
        Ok(s) => Int::from(s),
        Err(_) => Int::from(polys::BigInt::from(v)),
    }
}

/// `p` with every `x_v = n/d` of `values` substituted in one pass over the terms, times
/// the positive factor `prod d^deg_v(p)` that clears the denominators (same sign).
pub(crate) fn subst_rationals(p: &Poly, values: &[(usize, &Rat)]) -> Poly {
    if values.is_empty() {
        return p.clone();
    }
    let powers = power_tables(p, values);
    let terms = p
        .terms()
        .iter()
        .map(|(m, c)| {
            let mut m = m.clone();
            let mut c = c.clone();
            for (v, np, dp) in &powers {
                let e = m.exp(*v) as usize;
                c = c.mul(&np[e]).mul(&dp[e]);
                if e > 0 {
                    m.set(*v, 0);
                }
            }
            (m, c)
        })
        .collect();
    Poly::from_terms(terms)
}

/// `q` at `x_v = r`, times a positive constant when `r` is not an integer (the callers
/// want signs only).
fn subst(q: &Poly, v: usize, r: &Rat) -> Poly {
    if r.is_integer() {
        q.subst_int(v, r.numer())
    } else {
        subst_rationals(q, &[(v, r)])
    }
}

/// Bisects every coordinate `times` times; coordinates that become rational are
/// substituted into `q` and dropped.
fn refine_all(q: &mut Poly, roots: &mut Vec<(usize, Algebraic)>, times: usize) {
    for (_, a) in roots.iter_mut() {
        for _ in 0..times {
            a.refine();
        }
    }
    let mut kept = Vec::with_capacity(roots.len());
    for (v, a) in roots.drain(..) {
        match &a {
            Algebraic::Rational(r) => *q = subst(q, v, r),
            Algebraic::Root(_) => kept.push((v, a)),
        }
    }
    kept.retain(|(v, _)| q.has_var(*v));
    *roots = kept;
}

/// An enclosure of `q` over the isolating intervals of `roots` (which cover every
/// variable of `q`).
fn enclosure(q: &Poly, roots: &[(usize, Algebraic)]) -> Interval {
    let mut boxes = vec![Interval::point(Rat::zero()); q.nvars()];
    for (v, a) in roots {
        let (lo, hi) = a.bounds();
        boxes[*v] = Interval::new(lo, hi);
    }
    Interval::enclose(q, &boxes)
}

/// An f64 enclosure of `q` over the isolating intervals of `roots`.
fn float_enclosure(q: &Poly, roots: &[(usize, Algebraic)]) -> Option<FloatInterval> {
    let zero = FloatInterval { lo: 0.0, hi: 0.0 };
    let mut boxes = vec![zero; q.nvars()];
    for (v, a) in roots {
        let (lo, hi) = a.bounds();
        boxes[*v] = FloatInterval::hull(&lo, &hi)?;
    }
    FloatInterval::enclose(q, &boxes)
}

/// An f64 enclosure of `q` over f64 enclosures of the roots, each narrowed by bisection.
fn narrow_float_enclosure<'a>(
    q: &Poly,
    roots: impl Iterator<Item = (usize, &'a Algebraic)>,
) -> Option<FloatInterval> {
    let zero = FloatInterval { lo: 0.0, hi: 0.0 };
    let mut boxes = vec![zero; q.nvars()];
    for (v, a) in roots {
        boxes[v] = match a {
            Algebraic::Root(x) => x.float_box()?,
            Algebraic::Rational(r) => FloatInterval::of_rational(r)?,
        };
    }
    FloatInterval::enclose(q, &boxes)
}

/// The sign of `p` at `point` when an outward-rounded f64 evaluation over point boxes for
/// integer coordinates, rounded boxes for other rationals and the roots' cached boxes
/// excludes 0; `None` otherwise (a zero, a box too wide, or values beyond f64).
fn direct_float_sign(p: &Poly, vars: &[usize], point: &[Algebraic]) -> Option<i32> {
    // 2^53: integers up to this size are exact in f64.
    const EXACT: i64 = 1 << 53;
    let mut boxes = [FloatInterval { lo: 0.0, hi: 0.0 }; 16];
    for &v in vars {
        let b = match &point[v] {
            Algebraic::Rational(r) => match r.numer().to_i64() {
                Some(n) if r.is_integer() && n.abs() <= EXACT => FloatInterval {
                    lo: n as f64,
                    hi: n as f64,
                },
                _ => FloatInterval::of_rational(r)?,
            },
            Algebraic::Root(x) => x.float_box()?,
        };
        *boxes.get_mut(v)? = b;
    }
    FloatInterval::enclose(p, &boxes).and_then(FloatInterval::sign)
}

/// Stage 3 with several algebraic coordinates.
fn sign_by_resultant(
    mut q: Poly,
    mut roots: Vec<(usize, Algebraic)>,
    stats: &SignStats,
) -> Result<i32, CadError> {
    let key: ResultantKey = (
        q.clone(),
        roots.iter().map(|(v, a)| (*v, a.defining_poly())).collect(),
    );
    let known = stats
        .zero_radii
        .lock()
        .ok()
        .and_then(|m| m.get(&key).cloned());
    let others = match known {
        Some(o) => {
            stats.resultants_reused.fetch_add(1, Relaxed);
            o
        }
        None => {
            let o = zero_radius(&q, &roots, stats)?;
            if let Ok(mut m) = stats.zero_radii.lock() {
                if m.len() >= ZERO_RADII_ENTRIES {
                    m.clear();
                }
                m.insert(key, o.clone());
            }
            o
        }
    };
    for round in 1u32.. {
        // A tiny radius can take many rounds, each with big rationals: ask the deadline.
        if stats.late() {
            return Err(stats.timed_out());
        }
        let e = enclosure(&q, &roots);
        if let Some(s) = e.sign() {
            return Ok(s);
        }
        if let Some(o) = &others {
            let (s, d) = &**o;
            if -d < e.lo && &e.hi < d {
                return Ok(0);
            }
            // The complex roots of S near 0 may keep the radius far below the real ones:
            // at rounds 1, 2, 4, 8, .. ask Descartes whether S has a root in the closed
            // enclosure at all. None: the value, a root of R in there, is 0.
            if round.is_power_of_two()
                && s.sign_at(&e.lo) != 0
                && s.sign_at(&e.hi) != 0
                && s.descartes_bound(&e.lo, &e.hi) == 0
            {
                return Ok(0);
            }
        }
        refine_all(&mut q, &mut roots, 1);
        if let Some(c) = q.constant_value() {
            return Ok(c.signum());
        }
    }
    unreachable!("the rounds of the refinement are not counted past u32::MAX")
}

/// `R(y) = Res(y - q, m_1, ..)` over the defining polynomials `m_i` of the coordinates
/// `roots`, reduced to what the exact stage needs of it: see [`ZeroRadius`].
fn zero_radius(
    q: &Poly,
    roots: &[(usize, Algebraic)],
    stats: &SignStats,
) -> Result<ZeroRadius, CadError> {
    let y = q.nvars();
    let mut r = Poly::var(y).sub(q);
    for (v, a) in roots {
        r = r
            .resultant_until(&a.defining_poly().to_poly(*v), *v, &|| stats.late())
            .ok_or_else(|| stats.timed_out())?;
    }
    let r = UPoly::from_poly(&r, y)?;
    if r.is_zero() {
        return Err(CadError::Invariant(
            "the resultant of y - p against defining polynomials is non-zero",
        ));
    }
    // When 0 is a root of R: S = R / y^t, whose roots are the other roots of R, and a
    // radius around 0 free of them. Every root z of S has |z| > 2^-k for Fujiwara's bound
    // 2^k on the roots 1/z of S reversed, which is within a factor of about 2 deg R of the
    // nearest root: a few more bisections of the enclosure, where isolating every real
    // root of R (as this stage once did for the radius) cost as much as all the rest of
    // the lifting on the hard random domains of issue 23.
    Ok(if r.coeffs()[0].is_zero() {
        let s = r.shift_down(r.trailing_zeros());
        let k = root_bound(&s.reverse())?;
        Some(std::sync::Arc::new((s, Rat::dyadic(Int::one(), k))))
    } else {
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    fn root(c: &[i64], index: usize) -> Algebraic {
        Algebraic::roots_of(&UPoly::from_i64s(c)).unwrap()[index].clone()
    }

    #[test]
    fn machine_word_rational_signs_match_exact_evaluation() {
        let mut v = Vars::from_names(["x", "y", "z"]);
        let polys: Vec<Poly> = [
            "x^2 + y^2 - 4z^2",
            "3x^3*y - 7y^2 + z - 1",
            "x*y*z - 2",
            "5y^4 - x",
            "1000000000000x^3 - 999999999999y^3 + z^2",
        ]
        .iter()
        .map(|t| Poly::parse(t, &mut v).unwrap())
        .collect();
        let values = [
            Rat::ratio(1, 2),
            Rat::ratio(-3, 7),
            Rat::from(5),
            Rat::ratio(2_000_000_001, 3),
            Rat::from(0),
        ];
        for p in &polys {
            for a in &values {
                for b in &values {
                    for c in &values {
                        let point = [(0, a), (1, b), (2, c)];
                        let value = p.eval_rational(&[a.to_big(), b.to_big(), c.to_big()]);
                        let want = num_traits::Signed::signum(&value).to_integer();
                        if let Some(s) = small_rational_value_sign(p, &point) {
                            assert_eq!(polys::BigInt::from(s), want, "{p:?} at {a} {b} {c}");
                        }
                        assert_eq!(
                            polys::BigInt::from(rational_value_sign(p, &point)),
                            want,
                            "{p:?} at {a} {b} {c}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn narrowed_float_boxes_enclose_the_root() {
        for (c, index, approx) in [
            (&[-2i64, 0, 1][..], 1, std::f64::consts::SQRT_2),
            (&[-2, 0, 1], 0, -std::f64::consts::SQRT_2),
            (&[-1, 0, 2], 1, std::f64::consts::FRAC_1_SQRT_2),
            (&[-3, 0, 0, 1], 0, 3f64.cbrt()),
            (&[-1_000_003, 0, 1], 1, 1_000_003f64.sqrt()),
            (&[-1, -1, 0, 1], 0, 1.324_717_957_244_746),
            (&[1, -1_000_000, 0, 0, 0, 1], 1, 1e-6),
        ] {
            let Algebraic::Root(x) = root(c, index) else {
                panic!("irrational")
            };
            let b =
                crate::root_box::narrow_root_box(x.poly(), x.lo(), x.hi(), x.lo_sign()).unwrap();
            // The exact root lies in (lo, hi) of the isolating interval and in the box.
            assert!(b.lo <= approx && approx <= b.hi, "{b:?} {approx}");
            assert!(b.hi - b.lo < 1e-6 * approx.abs().max(1.0), "{b:?}");
            // Exactly: the defining polynomial changes sign between the box's ends.
            let at = |f: f64| x.poly().sign_at(&Rat::from_f64(f).unwrap());
            assert_eq!(at(b.lo), x.lo_sign(), "{b:?}");
            assert_eq!(at(b.hi), -x.lo_sign(), "{b:?}");
            let (lo, hi) = (x.lo().clone(), x.hi().clone());
            assert!(FloatInterval::hull(&lo, &hi).unwrap().lo <= b.lo);
        }
    }

    #[test]
    fn cascade_stages_are_counted() {
        let mut v = Vars::from_names(["x", "y", "z"]);
        let mut p = |s: &str| Poly::parse(s, &mut v).unwrap();
        let s2 = root(&[-2, 0, 1], 1);
        let c3 = root(&[-3, 0, 0, 1], 0);
        let stats = SignStats::new();
        let pt = [s2.clone(), c3.clone(), Algebraic::ratio(1, 2).unwrap()];
        // Rational stage.
        assert_eq!(sign_at(&p("4z^2 - 1"), &pt, &stats), Ok(0));
        // Interval stage.
        assert_eq!(sign_at(&p("x*y - 1"), &pt, &stats), Ok(1));
        // Univariate exact: x^2 - 4z.
        assert_eq!(sign_at(&p("x^2 - 4z"), &pt, &stats), Ok(0));
        // Resultant exact: (x^2 - 2) y + (y^3 - 3) x = 0 at the point.
        assert_eq!(sign_at(&p("(x^2 - 2)*y + (y^3 - 3)*x"), &pt, &stats), Ok(0));
        // x^6 y^3 = 8 * 3 = 24.
        assert_eq!(sign_at(&p("x^6*y^3 - 24"), &pt, &stats), Ok(0));
        assert_eq!(sign_at(&p("2x^6*y^3 - 48 + 2z - 1"), &pt, &stats), Ok(0));
        assert_eq!(sign_at(&p("x^6*y^3 - 24 + z"), &pt, &stats), Ok(1));
        let c = stats.snapshot();
        assert_eq!(c.rational, 1);
        assert_eq!(c.interval, 2);
        assert_eq!(c.exact_univariate, 1);
        assert!(c.exact_resultant >= 2, "{c}");
        assert_eq!(
            sign_at(&p("z"), &pt[..2], &stats),
            Err(CadError::MissingCoordinate(2))
        );
    }

    #[test]
    fn zero_and_near_zero_values_at_three_algebraic_coordinates() {
        // x = +-sqrt(a), y = cbrt(b), z = +-sqrt(a b^2 + e): p = x y^3 - z is
        // x b - z, zero exactly when e = 0 and the signs of x b and z agree, and otherwise
        // of the sign of x b - z, known from the signs alone (|x b| < |z| when e > 0).
        let mut v = Vars::from_names(["x", "y", "z"]);
        let p = Poly::parse("x*y^3 - z", &mut v).unwrap();
        let stats = SignStats::new();
        let mut zeros = 0;
        for a in [2i64, 3, 5, 7] {
            for b in [-3i64, -2, 2, 5] {
                for e in [0i64, 1] {
                    for (xi, zi) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        let x = root(&[-a, 0, 1], xi);
                        let y = root(&[-b, 0, 0, 1], 0);
                        let z = root(&[-(a * b * b + e), 0, 1], zi);
                        // The oracle: x b and z from the chosen roots' signs.
                        let xb = if xi == 1 { b.signum() } else { -b.signum() };
                        let zs = if zi == 1 { 1 } else { -1 };
                        let expected = if e == 0 && xb == zs {
                            0
                        } else if xb != zs {
                            xb
                        } else {
                            -zs
                        };
                        let got = sign_at(&p, &[x, y, z], &stats).unwrap();
                        assert_eq!(
                            i64::from(got),
                            expected,
                            "a = {a}, b = {b}, e = {e}, roots {xi} {zi}"
                        );
                        zeros += usize::from(expected == 0);
                    }
                }
            }
        }
        assert!(zeros >= 16);
        assert!(
            stats.snapshot().exact_resultant >= 16,
            "{}",
            stats.snapshot()
        );
        // The conjugate points (other signs of x and z) share their resultants.
        assert!(stats.resultants_reused() > 0);
    }

    #[test]
    fn remembered_resultants_are_not_mixed_up() {
        // As above with a = 2 10^16: x b - z = -e / (x b + z) is about -10^-9 for e = 1,
        // beyond f64 and the interval rounds, so the exact stage decides it, with one
        // `SignStats` for all points. A resultant taken for e = 0 (0 a root of R, a
        // radius around 0 far wider than 10^-9) must not serve e = 1.
        let mut v = Vars::from_names(["x", "y", "z"]);
        let p = Poly::parse("x*y^3 - z", &mut v).unwrap();
        let stats = SignStats::new();
        let a = 2 * 10i64.pow(16);
        for b in [2i64, -2, 3] {
            for (xi, zi) in [(1, 1), (0, 0), (1, 0)] {
                for e in [0i64, 1] {
                    let x = root(&[-a, 0, 1], xi);
                    let y = root(&[-b, 0, 0, 1], 0);
                    let z = root(&[-(a * b * b + e), 0, 1], zi);
                    let xb = if xi == 1 { b.signum() } else { -b.signum() };
                    let zs = if zi == 1 { 1 } else { -1 };
                    let expected = match (e, xb == zs) {
                        (0, true) => 0,
                        (_, false) => xb,
                        (_, true) => -zs,
                    };
                    let got = sign_at(&p, &[x, y, z], &stats).unwrap();
                    assert_eq!(
                        i64::from(got),
                        expected,
                        "b = {b}, e = {e}, roots {xi} {zi}"
                    );
                }
            }
        }
        assert!(stats.resultants_reused() > 0);
    }

    #[test]
    fn a_passed_deadline_stops_the_univariate_exact_stage() {
        use crate::algebraic::tests::{near_sqrt2, near_sqrt2_sign};
        use polys::BigInt;
        let s2 = [root(&[-2, 0, 1], 1)];
        let m = (BigInt::from(2u32) * BigInt::from(10u32).pow(80)).sqrt();
        let p = near_sqrt2(&m).to_poly(0);
        // Without a deadline: the exact sign, from the exact stage (so the stop below is
        // the exact stage's, not a cheap stage's).
        let free = SignStats::new();
        assert_eq!(sign_at(&p, &s2, &free), Ok(near_sqrt2_sign(&m)));
        assert_eq!(free.snapshot().exact_univariate, 1);
        let now = std::time::Instant::now();
        let past = now
            .checked_sub(std::time::Duration::from_millis(1))
            .unwrap_or(now);
        let late = SignStats::new();
        late.set_deadline(Some((past, std::time::Duration::from_secs(5))));
        assert_eq!(
            sign_at(&p, &s2, &late),
            Err(CadError::Limit(crate::StopReason::TimeLimit(
                std::time::Duration::from_secs(5)
            )))
        );
    }
}
