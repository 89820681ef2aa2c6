//! [`Algebraic`]: real algebraic numbers, either rationals kept as rationals or a root of
//! a square-free integer polynomial in an isolating interval; exact comparison, floor and
//! ceiling, signs of univariate polynomials, and the rational samples CAD puts in sectors.
//!
//! Every question is answered exactly. Refinement (bisection of the isolating interval)
//! settles the generic case quickly; equality, which refinement alone can never prove, is
//! decided by a gcd and a sign test.

use crate::error::CadError;
use crate::float_interval::FloatInterval;
use crate::isolate::{count_roots, isolate_square_free, isolate_square_free_until, RootInterval};
use crate::upoly::UPoly;
use polys::{BigInt, Coeff, Int, Rat};
use std::cmp::Ordering;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// An irrational-or-unknown root: the unique root of `poly` in the open interval
/// `(lo, hi)`.
///
/// Invariants: `poly` is square-free, primitive, of degree at least 2, with exactly one
/// root in `(lo, hi)` and no root at `lo` or `hi`; `lo_sign` is the sign of `poly(lo)`,
/// the opposite of the sign of `poly(hi)`.
#[derive(Clone, Debug)]
pub struct RealRoot {
    /// Shared: lifting copies sample coordinates and memoised roots at every cell, and a
    /// copy should not copy the polynomial.
    poly: Arc<UPoly>,
    lo: Rat,
    hi: Rat,
    lo_sign: i32,
    /// A narrow f64 enclosure of the root, computed on first use by the sign cascade and
    /// kept by clones: the same sample coordinate is asked about for every atom of every
    /// cell above it. Refinement of `(lo, hi)` leaves it valid (same number).
    float_box: OnceLock<Option<FloatInterval>>,
}

impl RealRoot {
    /// The square-free defining polynomial.
    pub fn poly(&self) -> &UPoly {
        &self.poly
    }

    /// Lower end of the isolating interval.
    pub fn lo(&self) -> &Rat {
        &self.lo
    }

    /// Upper end of the isolating interval.
    pub fn hi(&self) -> &Rat {
        &self.hi
    }

    /// The sign of the defining polynomial at `lo` (the opposite of its sign at `hi`).
    #[cfg(test)]
    pub(crate) fn lo_sign(&self) -> i32 {
        self.lo_sign
    }

    /// The cached f64 enclosure (see the field); `None` when f64 cannot hold the interval.
    pub(crate) fn float_box(&self) -> Option<FloatInterval> {
        *self.float_box.get_or_init(|| {
            crate::root_box::narrow_root_box(&self.poly, &self.lo, &self.hi, self.lo_sign)
        })
    }

    /// Halves the interval; returns the midpoint when it is the root.
    fn bisect(&mut self) -> Option<Rat> {
        let mid = self.lo.midpoint(&self.hi);
        match self.poly.sign_at(&mid) {
            0 => Some(mid),
            s if s == self.lo_sign => {
                self.lo = mid;
                None
            }
            _ => {
                self.hi = mid;
                None
            }
        }
    }

    /// Compares the root with a rational, exactly.
    fn cmp_rational(&self, r: &Rat) -> Ordering {
        if r <= &self.lo {
            return Ordering::Greater;
        }
        if r >= &self.hi {
            return Ordering::Less;
        }
        match self.poly.sign_at(r) {
            0 => Ordering::Equal,
            // Same sign as at lo: the sign change, hence the root, lies in (r, hi).
            s if s == self.lo_sign => Ordering::Greater,
            _ => Ordering::Less,
        }
    }

    /// Whether two roots are the same number: then it is a root of the gcd of the defining
    /// polynomials inside both intervals.
    fn same_as(&self, o: &RealRoot) -> bool {
        let lo = (&self.lo).max(&o.lo);
        let hi = (&self.hi).min(&o.hi);
        if lo >= hi {
            return false;
        }
        let g = self.poly.gcd(&o.poly);
        // g divides both square-free polynomials, so its roots are simple, it has at most
        // one root in the intersection and vanishes at neither end: a root is there
        // exactly when g changes sign.
        g.degree() > 0 && g.sign_at(lo) != g.sign_at(hi)
    }
}

/// A real algebraic number.
#[derive(Clone, Debug)]
pub enum Algebraic {
    /// A rational number, exactly.
    Rational(Rat),
    /// A root given by a defining polynomial and an isolating interval. Boxed: a
    /// [`RealRoot`] is 104 bytes against a rational's 32, and every cell of a lifting tree
    /// holds a sample coordinate, most of them rational (7.2 M cells on tri-invpar, all
    /// rational: the box makes an `Algebraic` 32 bytes instead of 112, BENCHMARKS.md,
    /// issue 23).
    Root(Box<RealRoot>),
}

impl From<Rat> for Algebraic {
    fn from(r: Rat) -> Algebraic {
        Algebraic::Rational(r)
    }
}

impl From<Int> for Algebraic {
    fn from(n: Int) -> Algebraic {
        Algebraic::Rational(Rat::from_integer(n))
    }
}

impl From<BigInt> for Algebraic {
    fn from(n: BigInt) -> Algebraic {
        Algebraic::from(Int::from_big(n))
    }
}

impl From<i64> for Algebraic {
    fn from(n: i64) -> Algebraic {
        Algebraic::from(Int::from(n))
    }
}

/// The real roots, increasing, of `p` of degree 1 or 2, by formula: lifting meets
/// quadratics in every cell of a sphere or a cylinder, and the formula needs one integer
/// square root where the isolation of the general case needs a Descartes search.
fn low_degree_roots(p: &UPoly) -> Vec<Algebraic> {
    let c = p.coeffs();
    let q = |n: Int, d: Int| Rat::new(n, d);
    if c.len() == 2 {
        return vec![Algebraic::Rational(q(-&c[0], c[1].clone()))];
    }
    // Make the leading coefficient positive: same roots.
    let (c0, c1, c2) = if c[2].signum() < 0 {
        (-&c[0], -&c[1], -&c[2])
    } else {
        (c[0].clone(), c[1].clone(), c[2].clone())
    };
    let disc = &(&c1 * &c1) - &(&(&Int::from(4) * &c2) * &c0);
    let two_a = &Int::from(2) * &c2;
    match disc.signum() {
        -1 => Vec::new(),
        0 => vec![Algebraic::Rational(q(-&c1, two_a))],
        _ => {
            let s = disc.isqrt();
            if &s * &s == disc {
                return vec![
                    Algebraic::Rational(q(&-&c1 - &s, two_a.clone())),
                    Algebraic::Rational(q(&-&c1 + &s, two_a)),
                ];
            }
            // s < sqrt(disc) < s + 1 with s >= 1 (disc >= 2 is not a square), so the two
            // intervals are disjoint and their rational ends are no roots.
            let one = Int::one();
            let f = p.primitive();
            let (minus, plus) = (&-&c1 - &s, &-&c1 + &s);
            let lower = RootInterval::Open {
                lo: q(&minus - &one, two_a.clone()),
                hi: q(minus, two_a.clone()),
            };
            let upper = RootInterval::Open {
                lo: q(plus.clone(), two_a.clone()),
                hi: q(&plus + &one, two_a),
            };
            vec![
                Algebraic::from_interval(f.clone(), lower),
                Algebraic::from_interval(f, upper),
            ]
        }
    }
}

/// A rational strictly between `a < b`: the smallest integer above `a` when it is below
/// `b`; otherwise an end of an isolating interval once the two intervals are apart. No
/// integer lies between `a` and `b` then, so no integer point takes this coordinate over
/// the sample and any rational serves: an end that is already at hand costs no
/// arithmetic at all.
fn sample_between(a: &Algebraic, b: &Algebraic) -> Rat {
    let next = Rat::from_integer(&a.floor_int() + &Int::one());
    if b.cmp_rat(&next) == Ordering::Greater {
        return next;
    }
    // Apart already (the usual case once roots are sorted): no copies.
    match (a, b) {
        (Algebraic::Root(x), Algebraic::Root(y)) if x.hi <= y.lo => return x.hi.clone(),
        (Algebraic::Rational(x), Algebraic::Root(y)) if x < &y.lo => return y.lo.clone(),
        (Algebraic::Root(x), Algebraic::Rational(y)) if &x.hi < y => return x.hi.clone(),
        _ => {}
    }
    let (mut a, mut b) = (a.clone(), b.clone());
    loop {
        match (&a, &b) {
            (Algebraic::Rational(x), Algebraic::Rational(y)) => return x.midpoint(y),
            // a < hi(a) <= lo(b) < b, or a < lo(b) < b.
            (Algebraic::Root(x), Algebraic::Root(y)) if x.hi <= y.lo => return x.hi.clone(),
            (Algebraic::Rational(x), Algebraic::Root(y)) if x < &y.lo => return y.lo.clone(),
            (Algebraic::Root(x), Algebraic::Rational(y)) if &x.hi < y => return x.hi.clone(),
            (Algebraic::Root(x), Algebraic::Root(y)) => {
                if &x.hi - &x.lo >= &y.hi - &y.lo {
                    a.refine()
                } else {
                    b.refine()
                }
            }
            (Algebraic::Rational(_), _) => b.refine(),
            (_, Algebraic::Rational(_)) => a.refine(),
        }
    }
}

impl Algebraic {
    /// The rational `n / d`; `None` when `d = 0`.
    pub fn ratio(n: i64, d: i64) -> Option<Algebraic> {
        (d != 0).then(|| Algebraic::Rational(Rat::ratio(n, d)))
    }

    /// The unique root of `p` in the open interval `(lo, hi)`. Fails unless `p` has
    /// exactly one root there and none at `lo` or `hi`.
    pub fn from_root(p: &UPoly, lo: Rat, hi: Rat) -> Result<Algebraic, CadError> {
        let s = p.square_free_part();
        if s.is_zero() {
            return Err(CadError::ZeroPolynomial);
        }
        let not_isolating = || CadError::NotIsolating {
            lo: lo.to_string(),
            hi: hi.to_string(),
        };
        let lo_sign = s.sign_at(&lo);
        if lo >= hi || lo_sign == 0 || s.sign_at(&hi) == 0 || count_roots(&s, &lo, &hi)? != 1 {
            return Err(not_isolating());
        }
        Ok(Algebraic::from_interval(s, RootInterval::Open { lo, hi }))
    }

    /// Builds the number from an isolating interval of a root of the square-free `s`.
    fn from_interval(s: UPoly, r: RootInterval) -> Algebraic {
        match r {
            RootInterval::Exact(x) => Algebraic::Rational(x),
            RootInterval::Open { lo, hi } => {
                if s.degree() == 1 {
                    let c = s.coeffs();
                    return Algebraic::Rational(Rat::new(-&c[0], c[1].clone()));
                }
                let lo_sign = s.sign_at(&lo);
                Algebraic::Root(Box::new(RealRoot {
                    poly: Arc::new(s),
                    lo,
                    hi,
                    lo_sign,
                    float_box: OnceLock::new(),
                }))
            }
        }
    }

    /// The distinct real roots of `p`, increasing.
    ///
    /// ```
    /// use cad::{Algebraic, UPoly};
    /// let roots = Algebraic::roots_of(&UPoly::from_i64s(&[-2, 0, 1])).unwrap(); // x^2 - 2
    /// assert_eq!(roots.len(), 2);
    /// assert_eq!(roots[1].floor(), 1.into());
    /// assert!(roots[0] < roots[1]);
    /// ```
    pub fn roots_of(p: &UPoly) -> Result<Vec<Algebraic>, CadError> {
        if p.is_zero() {
            return Err(CadError::ZeroPolynomial);
        }
        match p.degree() {
            0 => return Ok(Vec::new()),
            1 | 2 => return Ok(low_degree_roots(p)),
            _ => {}
        }
        let s = p.square_free_part();
        Ok(isolate_square_free(&s)
            .into_iter()
            .map(|r| Algebraic::from_interval(s.clone(), r))
            .collect())
    }

    /// [`Algebraic::roots_of`], or `Ok(None)` as soon as `stop()` says so (asked at every
    /// node of the root isolation's bisection).
    pub(crate) fn roots_of_until(
        p: &UPoly,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Vec<Algebraic>>, CadError> {
        if p.is_zero() {
            return Err(CadError::ZeroPolynomial);
        }
        match p.degree() {
            0 => return Ok(Some(Vec::new())),
            1 | 2 => return Ok(Some(low_degree_roots(p))),
            _ => {}
        }
        let s = p.square_free_part();
        Ok(isolate_square_free_until(&s, stop).map(|roots| {
            roots
                .into_iter()
                .map(|r| Algebraic::from_interval(s.clone(), r))
                .collect()
        }))
    }

    /// [`Algebraic::roots_of_until`] for a polynomial known to be square-free, primitive
    /// and non-constant (the level-0 basis's members, [`crate::root_basis`]): the same
    /// roots, without a gcd with the derivative.
    pub(crate) fn roots_of_square_free_until(
        s: &UPoly,
        stop: &dyn Fn() -> bool,
    ) -> Option<Vec<Algebraic>> {
        match s.degree() {
            0 => return Some(Vec::new()),
            1 | 2 => return Some(low_degree_roots(s)),
            _ => {}
        }
        isolate_square_free_until(s, stop).map(|roots| {
            roots
                .into_iter()
                .map(|r| Algebraic::from_interval(s.clone(), r))
                .collect()
        })
    }

    /// Whether the two are stored alike: equal rationals, or roots with the same defining
    /// polynomial and isolating interval. Implies equality; unlike `==` it never
    /// refines or computes a gcd, so it suits cache lookups, where a miss is harmless.
    pub fn same_repr(&self, o: &Algebraic) -> bool {
        match (self, o) {
            (Algebraic::Rational(a), Algebraic::Rational(b)) => a == b,
            (Algebraic::Root(x), Algebraic::Root(y)) => {
                x.lo == y.lo && x.hi == y.hi && (Arc::ptr_eq(&x.poly, &y.poly) || x.poly == y.poly)
            }
            _ => false,
        }
    }

    /// The value as a rational, when it is stored as one.
    pub fn to_rational(&self) -> Option<&Rat> {
        match self {
            Algebraic::Rational(r) => Some(r),
            Algebraic::Root(_) => None,
        }
    }

    /// Whether the number is stored as a rational. (A root whose defining polynomial has a
    /// rational root elsewhere is still irrational; a rational root found only inside an
    /// isolating interval stays a [`Algebraic::Root`] until refinement hits it.)
    pub fn is_rational(&self) -> bool {
        matches!(self, Algebraic::Rational(_))
    }

    /// A closed interval containing the number (a point for rationals).
    pub fn bounds(&self) -> (Rat, Rat) {
        match self {
            Algebraic::Rational(r) => (r.clone(), r.clone()),
            Algebraic::Root(x) => (x.lo.clone(), x.hi.clone()),
        }
    }

    /// A square-free integer polynomial with the number as a root (`q x - p` for `p/q`).
    pub fn defining_poly(&self) -> UPoly {
        match self {
            Algebraic::Rational(r) => UPoly::linear_for(r),
            Algebraic::Root(x) => UPoly::clone(&x.poly),
        }
    }

    /// Halves the isolating interval (no-op for rationals); becomes a rational when the
    /// midpoint is the root.
    pub fn refine(&mut self) {
        if let Algebraic::Root(x) = self {
            if let Some(r) = x.bisect() {
                *self = Algebraic::Rational(r);
            }
        }
    }

    /// Refines until the isolating interval is narrower than `width`.
    pub fn refine_to(&mut self, width: &Rat) {
        while let Algebraic::Root(x) = self {
            if &(&x.hi - &x.lo) < width {
                return;
            }
            self.refine();
        }
    }

    /// `-self`.
    pub fn neg(&self) -> Algebraic {
        match self {
            Algebraic::Rational(r) => Algebraic::Rational(-r),
            Algebraic::Root(x) => {
                let poly = Arc::new(x.poly.negate_x().primitive());
                let lo = -&x.hi;
                let lo_sign = poly.sign_at(&lo);
                Algebraic::Root(Box::new(RealRoot {
                    poly,
                    lo,
                    hi: -&x.lo,
                    lo_sign,
                    float_box: OnceLock::new(),
                }))
            }
        }
    }

    /// The sign (-1, 0, 1) of the univariate `q` at this number, exactly.
    pub fn sign_of(&self, q: &UPoly) -> i32 {
        // A stop that never fires cannot make the refinement give up.
        self.sign_of_until(q, &|| false).expect("never stopped")
    }

    /// [`Algebraic::sign_of`], or `None` as soon as `stop()` says so (asked before the gcd
    /// and before every bisection; lifting passes its deadline). The number of bisections
    /// grows with how close a root of `q` lies to this one, without a bound known in
    /// advance.
    pub(crate) fn sign_of_until(&self, q: &UPoly, stop: &dyn Fn() -> bool) -> Option<i32> {
        match self {
            Algebraic::Rational(r) => Some(q.sign_at(r)),
            Algebraic::Root(x) => sign_at_root(RealRoot::clone(x), q, stop),
        }
    }

    /// The largest integer `<= self`.
    pub fn floor(&self) -> BigInt {
        self.floor_int().to_bigint()
    }

    /// [`Algebraic::floor`] as an [`Int`], the form lifting computes with.
    pub(crate) fn floor_int(&self) -> Int {
        let x = match self {
            Algebraic::Rational(r) => return r.floor(),
            Algebraic::Root(x) => x,
        };
        // Settled roots (see `settle_integer_part`) hold no integer: answered in place.
        let f = x.lo.floor();
        if x.hi <= Rat::from_integer(&f + &Int::one()) {
            return f;
        }
        // Otherwise settle a copy: then lo < self < hi <= floor(lo) + 1.
        let mut settled = self.clone();
        settled.settle_integer_part();
        match &settled {
            Algebraic::Rational(r) => r.floor(),
            Algebraic::Root(x) => x.lo.floor(),
        }
    }

    /// The smallest integer `>= self`.
    pub fn ceil(&self) -> BigInt {
        self.ceil_int().to_bigint()
    }

    fn ceil_int(&self) -> Int {
        match self {
            Algebraic::Rational(r) => r.ceil(),
            // No integer in (lo, hi): the root's ceiling is hi's.
            Algebraic::Root(x) if Rat::from_integer(&x.hi.ceil() - &Int::one()) <= x.lo => {
                x.hi.ceil()
            }
            Algebraic::Root(_) => -self.neg().floor_int(),
        }
    }

    /// Narrows the isolating interval until it holds no integer, so that [`floor`] and
    /// [`ceil`] answer at once afterwards; a root found to be an integer (or any rational
    /// hit by bisection) becomes [`Algebraic::Rational`].
    ///
    /// [`floor`]: Algebraic::floor
    /// [`ceil`]: Algebraic::ceil
    pub fn settle_integer_part(&mut self) {
        while let Algebraic::Root(x) = self {
            let n = Rat::from_integer(&x.lo.floor() + &Int::one());
            if n >= x.hi {
                return;
            }
            if &x.hi - &x.lo > Rat::one() {
                self.refine();
                continue;
            }
            // Width at most 1: n is the only integer in (lo, hi).
            match x.poly.sign_at(&n) {
                0 => *self = Algebraic::Rational(n),
                s if s == x.lo_sign => x.lo = n,
                _ => x.hi = n,
            }
            return;
        }
    }

    /// Compares with a rational without building an [`Algebraic`] for it.
    fn cmp_rat(&self, r: &Rat) -> Ordering {
        match self {
            Algebraic::Rational(a) => a.cmp(r),
            Algebraic::Root(x) => x.cmp_rational(r),
        }
    }

    /// The integer just below: the largest integer strictly less than `self`. CAD uses it
    /// as the sample of the sector below the lowest root.
    pub fn integer_below(&self) -> BigInt {
        (&self.ceil_int() - &Int::one()).to_bigint()
    }

    /// The integer just above: the smallest integer strictly greater than `self`, the
    /// sample of the sector above the highest root.
    pub fn integer_above(&self) -> BigInt {
        (&self.floor_int() + &Int::one()).to_bigint()
    }

    /// A rational strictly between `self` and `upper`: the smallest integer above `self`
    /// when that is below `upper` (so a sector containing an integer gets an integer
    /// sample), otherwise the rational of smallest denominator in between.
    pub fn rational_between(&self, upper: &Algebraic) -> Result<Rat, CadError> {
        if self >= upper {
            return Err(CadError::EmptyInterval {
                lo: self.to_string(),
                hi: upper.to_string(),
            });
        }
        Ok(sample_between(self, upper))
    }

    /// An approximation for display; never used for decisions.
    pub fn to_f64(&self) -> f64 {
        let mut x = self.clone();
        x.refine_to(&Rat::dyadic(Int::one(), 60));
        let (lo, hi) = x.bounds();
        lo.midpoint(&hi).to_f64()
    }
}

/// Sign of `q` at the root `x` (a local copy, refined freely), or `None` once `stop()`
/// says so; a sign already proved is returned even then.
fn sign_at_root(mut x: RealRoot, q: &UPoly, stop: &dyn Fn() -> bool) -> Option<i32> {
    if q.degree() == 0 {
        return Some(q.lc().signum());
    }
    let mut gcd_checked = false;
    let mut round = 0u32;
    loop {
        if q.descartes_bound(&x.lo, &x.hi) == 0 {
            // q has no root in (lo, hi), so its sign there is its sign at the root.
            return Some(q.sign_at(&x.lo.midpoint(&x.hi)));
        }
        if stop() {
            return None;
        }
        // Refinement alone never proves q(root) = 0; after a few rounds ask the gcd.
        if !gcd_checked && round >= 2 {
            gcd_checked = true;
            let g = x.poly.gcd(q);
            if g.degree() > 0 && g.sign_at(&x.lo) != g.sign_at(&x.hi) {
                return Some(0);
            }
        }
        if let Some(r) = x.bisect() {
            return Some(q.sign_at(&r));
        }
        round = round.saturating_add(1);
    }
}

/// Compares two roots exactly on local copies, or `None` once `stop()` says so.
fn cmp_roots(mut x: RealRoot, mut y: RealRoot, stop: &dyn Fn() -> bool) -> Option<Ordering> {
    let mut equality_checked = false;
    let mut round = 0u32;
    loop {
        if x.hi <= y.lo {
            return Some(Ordering::Less);
        }
        if y.hi <= x.lo {
            return Some(Ordering::Greater);
        }
        if stop() {
            return None;
        }
        // Refinement separates distinct numbers but never equal ones: after a few rounds
        // (at once when the polynomials agree) decide equality exactly.
        if !equality_checked && (round >= 3 || x.poly == y.poly) {
            equality_checked = true;
            if x.same_as(&y) {
                return Some(Ordering::Equal);
            }
        }
        if &x.hi - &x.lo >= &y.hi - &y.lo {
            if let Some(r) = x.bisect() {
                return Some(y.cmp_rational(&r).reverse());
            }
        } else if let Some(r) = y.bisect() {
            return Some(x.cmp_rational(&r));
        }
        round = round.saturating_add(1);
    }
}

impl Algebraic {
    /// [`Ord::cmp`], or `None` as soon as `stop()` says so (asked before every bisection
    /// of two overlapping roots; lifting passes its deadline when it merges the roots of
    /// a stack). Close roots of big polynomials can need many bisections.
    pub(crate) fn cmp_until(&self, o: &Algebraic, stop: &dyn Fn() -> bool) -> Option<Ordering> {
        Some(match (self, o) {
            (Algebraic::Rational(a), Algebraic::Rational(b)) => a.cmp(b),
            (Algebraic::Root(x), Algebraic::Rational(r)) => x.cmp_rational(r),
            (Algebraic::Rational(r), Algebraic::Root(x)) => x.cmp_rational(r).reverse(),
            // Apart already: no copies, no refinement.
            (Algebraic::Root(x), Algebraic::Root(y)) if x.hi <= y.lo => Ordering::Less,
            (Algebraic::Root(x), Algebraic::Root(y)) if y.hi <= x.lo => Ordering::Greater,
            (Algebraic::Root(x), Algebraic::Root(y)) => {
                cmp_roots(RealRoot::clone(x), RealRoot::clone(y), stop)?
            }
        })
    }
}

impl Ord for Algebraic {
    fn cmp(&self, o: &Algebraic) -> Ordering {
        // A stop that never fires cannot make the comparison give up.
        self.cmp_until(o, &|| false).expect("never stopped")
    }
}

impl PartialOrd for Algebraic {
    fn partial_cmp(&self, o: &Algebraic) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl PartialEq for Algebraic {
    fn eq(&self, o: &Algebraic) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Algebraic {}

impl fmt::Display for Algebraic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Algebraic::Rational(r) => write!(f, "{r}"),
            Algebraic::Root(x) => {
                let c: Vec<String> = x.poly.coeffs().iter().map(|c| c.to_string()).collect();
                write!(
                    f,
                    "root of [{}] in ({}, {}) ~ {:.6}",
                    c.join(", "),
                    x.lo,
                    x.hi,
                    self.to_f64()
                )
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    fn rational(n: i64, d: i64) -> Rat {
        Rat::ratio(n, d)
    }

    fn sqrt(n: i64) -> Algebraic {
        Algebraic::roots_of(&UPoly::from_i64s(&[-n, 0, 1]))
            .unwrap()
            .pop()
            .unwrap()
    }

    #[test]
    fn ordering_and_equality() {
        let s2 = sqrt(2);
        let s3 = sqrt(3);
        assert!(s2 < s3);
        assert!(s2 > Algebraic::ratio(1414, 1000).unwrap());
        assert!(s2 < Algebraic::ratio(1415, 1000).unwrap());
        // sqrt 2 as the positive real root of x^6 - 8 = (x^2 - 2)(x^4 + 2x^2 + 4).
        let other = Algebraic::from_root(
            &UPoly::from_i64s(&[-8, 0, 0, 0, 0, 0, 1]),
            rational(1, 1),
            rational(3, 2),
        )
        .unwrap();
        assert_eq!(s2, other);
        assert_eq!(sqrt(4), Algebraic::from(2));
        assert_eq!(s2.neg().neg(), s2);
        assert!(s2.neg() < Algebraic::from(-1));
        // 2 sqrt 2 = sqrt 8, with different polynomials.
        let two_s2 = Algebraic::from_root(
            &UPoly::from_i64s(&[-2, 0, 1]).compose_affine(&0.into(), &1.into(), &2.into()),
            rational(2, 1),
            rational(3, 1),
        )
        .unwrap();
        assert_eq!(two_s2, sqrt(8));
    }

    #[test]
    fn from_root_rejects_bad_intervals() {
        let p = UPoly::from_i64s(&[-2, 0, 1]);
        assert!(Algebraic::from_root(&p, rational(-2, 1), rational(2, 1)).is_err());
        assert!(Algebraic::from_root(&p, rational(0, 1), rational(1, 1)).is_err());
        // A linear polynomial gives a rational.
        let r = Algebraic::from_root(
            &UPoly::from_i64s(&[-37, 3]),
            rational(12, 1),
            rational(13, 1),
        );
        assert_eq!(r.unwrap().to_rational(), Some(&rational(37, 3)));
    }

    #[test]
    fn quadratic_formula_agrees_with_isolation() {
        for a in -4i64..=4 {
            for b in -9i64..=9 {
                for c in -9i64..=9 {
                    if a == 0 && b == 0 {
                        continue;
                    }
                    let p = UPoly::from_i64s(&[c, b, a]);
                    let by_formula = Algebraic::roots_of(&p).unwrap();
                    let s = p.square_free_part();
                    let isolated: Vec<Algebraic> = isolate_square_free(&s)
                        .into_iter()
                        .map(|r| Algebraic::from_interval(s.clone(), r))
                        .collect();
                    assert_eq!(by_formula.len(), isolated.len(), "{c} + {b}x + {a}x^2");
                    for (x, y) in by_formula.iter().zip(&isolated) {
                        assert_eq!(x, y, "{c} + {b}x + {a}x^2");
                        assert_eq!(x.sign_of(&p), 0);
                    }
                }
            }
        }
    }

    #[test]
    fn floor_ceil_and_samples() {
        let s2 = sqrt(2);
        assert_eq!(s2.floor(), 1.into());
        assert_eq!(s2.ceil(), 2.into());
        assert_eq!(s2.neg().floor(), (-2).into());
        assert_eq!(s2.neg().ceil(), (-1).into());
        assert_eq!(sqrt(9).floor(), 3.into());
        let big = sqrt(1_000_001);
        assert_eq!(big.floor(), 1000.into());
        let s3 = sqrt(3);
        // No integer strictly between sqrt 2 and sqrt 3: some rational strictly inside.
        let r = Algebraic::Rational(s2.rational_between(&s3).unwrap());
        assert!(s2 < r && r < s3);
        assert_eq!(
            Algebraic::from(1).rational_between(&sqrt(5)).unwrap(),
            rational(2, 1)
        );
        assert!(s3.rational_between(&s2).is_err());
        assert_eq!(
            Algebraic::ratio(7, 1)
                .unwrap()
                .rational_between(&Algebraic::ratio(37, 3).unwrap())
                .unwrap(),
            rational(8, 1)
        );
        assert_eq!(
            Algebraic::ratio(1, 3)
                .unwrap()
                .rational_between(&Algebraic::ratio(1, 2).unwrap())
                .unwrap(),
            rational(5, 12)
        );
        assert_eq!(s2.integer_below(), 1.into());
        assert_eq!(Algebraic::from(4).integer_below(), 3.into());
        assert_eq!(Algebraic::from(4).integer_above(), 5.into());
    }

    #[test]
    fn univariate_signs() {
        let s2 = sqrt(2);
        assert_eq!(s2.sign_of(&UPoly::from_i64s(&[-2, 0, 1])), 0);
        assert_eq!(s2.sign_of(&UPoly::from_i64s(&[-3, 0, 1])), -1);
        // x^4 - 4 = (x^2 - 2)(x^2 + 2) vanishes at sqrt 2.
        assert_eq!(s2.sign_of(&UPoly::from_i64s(&[-4, 0, 0, 0, 1])), 0);
        // 1000 x - 1414 > 0, 1000 x - 1415 < 0.
        assert_eq!(s2.sign_of(&UPoly::from_i64s(&[-1414, 1000])), 1);
        assert_eq!(s2.sign_of(&UPoly::from_i64s(&[-1415, 1000])), -1);
        assert_eq!(s2.sign_of(&UPoly::from_i64s(&[5])), 1);
    }

    /// `10^40 x - m`: for `m` next to `10^40 sqrt 2` its root lies within `10^-40` of
    /// sqrt 2, so the sign there needs over a hundred bisections.
    pub(crate) fn near_sqrt2(m: &BigInt) -> UPoly {
        UPoly::new(vec![Int::from(-m), Int::from(BigInt::from(10u32).pow(40))])
    }

    /// The sign of `10^40 sqrt 2 - m` for `m > 0`, by integers alone: that of
    /// `2 10^80 - m^2`.
    pub(crate) fn near_sqrt2_sign(m: &BigInt) -> i32 {
        let two_scale_sq = BigInt::from(2u32) * BigInt::from(10u32).pow(80);
        match two_scale_sq.cmp(&(m * m)) {
            Ordering::Greater => 1,
            Ordering::Equal => 0,
            Ordering::Less => -1,
        }
    }

    #[test]
    fn refinement_towards_a_close_root_stops_when_asked() {
        let s2 = sqrt(2);
        let floor = (BigInt::from(2u32) * BigInt::from(10u32).pow(80)).sqrt();
        for m in [&floor - 1, floor.clone(), &floor + 1] {
            let q = near_sqrt2(&m);
            let expected = near_sqrt2_sign(&m);
            assert_eq!(s2.sign_of(&q), expected, "m = {m}");
            let asked = std::cell::Cell::new(0u32);
            let counting = || {
                asked.set(asked.get() + 1);
                false
            };
            assert_eq!(s2.sign_of_until(&q, &counting), Some(expected));
            assert!(asked.get() > 100, "asked {} times", asked.get());
            assert_eq!(s2.sign_of_until(&q, &|| true), None);
        }
    }

    #[test]
    fn comparing_close_roots_stops_when_asked() {
        let s2 = sqrt(2);
        let scale_sq = BigInt::from(10u32).pow(80);
        let two_scale_sq = BigInt::from(2u32) * &scale_sq;
        for m in [&two_scale_sq - 1, &two_scale_sq + 1] {
            // sqrt(m) / 10^40, within 10^-80 of sqrt 2; for positive numbers the order is
            // that of the squares, m / 10^80 against 2.
            let q = UPoly::new(vec![
                Int::from(-&m),
                Int::zero(),
                Int::from(scale_sq.clone()),
            ]);
            let y = Algebraic::roots_of(&q).unwrap().pop().unwrap();
            assert!(!y.is_rational());
            let expected = two_scale_sq.cmp(&m);
            assert_eq!(s2.cmp(&y), expected, "m = {m}");
            assert_eq!(y.cmp(&s2), expected.reverse());
            let asked = std::cell::Cell::new(0u32);
            let counting = || {
                asked.set(asked.get() + 1);
                false
            };
            assert_eq!(s2.cmp_until(&y, &counting), Some(expected));
            assert!(asked.get() > 100, "asked {} times", asked.get());
            assert_eq!(s2.cmp_until(&y, &|| true), None);
        }
    }
}
