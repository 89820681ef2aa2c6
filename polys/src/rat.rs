//! [`Rat`]: an exact rational number that stays two machine words while it fits.
//!
//! The rationals a CAD handles most are interval ends and sample coordinates: small
//! numerators over small denominators, most of them powers of two. `num_rational`'s
//! `BigRational` allocates two vectors for each and runs a big-integer gcd after every
//! operation; here both parts are [`Int`]s, an operation on small operands is done in
//! `i128` (where no product or sum of two reduced `i64` fractions can overflow) and
//! reduced with a machine-word gcd, and only results that leave `i64` allocate.

use crate::coeff::Coeff;
use crate::int::Int;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::cmp::Ordering;
use std::fmt;

/// A rational number in lowest terms with a positive denominator, so that derived
/// equality and hashing are value equality.
///
/// ```
/// use polys::{Int, Rat};
/// let a = Rat::new(Int::from(3), Int::from(-6));
/// assert_eq!(a, Rat::new(Int::from(-1), Int::from(2)));
/// assert_eq!(a.floor(), Int::from(-1));
/// assert_eq!((&a + &Rat::from(1)).to_string(), "1/2");
/// assert!(a < Rat::from(0));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Rat {
    num: Int,
    /// Invariant: positive, and coprime to `num` (1 when `num` is 0).
    den: Int,
}

/// Binary gcd of magnitudes: no division instructions, and dyadic denominators (the
/// common case) lose their twos in one shift.
fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Rat {
    /// `num / den` in lowest terms.
    ///
    /// # Panics
    /// When `den` is zero: a division by zero is a bug in the caller, as for
    /// `BigRational::new`.
    pub fn new(num: Int, den: Int) -> Rat {
        assert!(!den.is_zero(), "Rat with a zero denominator");
        if let (Int::Small(n), Int::Small(d)) = (&num, &den) {
            return Rat::from_i128(*n as i128, *d as i128);
        }
        let g = num.gcd(&den);
        let (mut num, mut den) = (num.div_exact(&g), den.div_exact(&g));
        if den.signum() < 0 {
            num = -num;
            den = -den;
        }
        Rat { num, den }
    }

    /// Reduces `n / d` (`d != 0`, both of magnitude below `2^127`, which every caller's
    /// cross products of `i64` parts are).
    fn from_i128(n: i128, d: i128) -> Rat {
        debug_assert!(d != 0);
        let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
        let g = gcd_u128(n.unsigned_abs(), d as u128) as i128;
        Rat {
            num: Int::from_i128(n / g),
            den: Int::from_i128(d / g),
        }
    }

    /// `n / d` from machine integers (tests and constants).
    ///
    /// # Panics
    /// When `d` is zero.
    pub fn ratio(n: i64, d: i64) -> Rat {
        assert!(d != 0, "Rat with a zero denominator");
        Rat::from_i128(n as i128, d as i128)
    }

    /// The integer `n` as a rational.
    pub fn from_integer(n: Int) -> Rat {
        Rat {
            num: n,
            den: Int::Small(1),
        }
    }

    /// `m / 2^k`.
    pub fn dyadic(m: Int, k: u64) -> Rat {
        match (&m, k) {
            (Int::Small(v), k) if k < 63 => Rat::from_i128(*v as i128, 1i128 << k),
            _ => Rat::new(m, Int::from_big(BigInt::from(1u8) << k)),
        }
    }

    /// The rational 0.
    pub fn zero() -> Rat {
        Rat::from(0)
    }

    /// The rational 1.
    pub fn one() -> Rat {
        Rat::from(1)
    }

    /// The numerator, carrying the sign and coprime to the denominator.
    pub fn numer(&self) -> &Int {
        &self.num
    }

    /// The denominator, always positive.
    pub fn denom(&self) -> &Int {
        &self.den
    }

    /// Whether the value is 0.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// Whether the value is an integer (the denominator is 1).
    pub fn is_integer(&self) -> bool {
        self.den.is_one()
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        self.num.signum()
    }

    /// The largest integer `<= self`.
    pub fn floor(&self) -> Int {
        match (&self.num, &self.den) {
            (Int::Small(n), Int::Small(d)) => Int::Small(n.div_euclid(*d)),
            _ => self.num.div_mod_floor(&self.den).0,
        }
    }

    /// The smallest integer `>= self`.
    pub fn ceil(&self) -> Int {
        -(-self).floor()
    }

    /// `|self|`.
    pub fn abs(&self) -> Rat {
        if self.signum() < 0 {
            -self
        } else {
            self.clone()
        }
    }

    /// `self^e`.
    pub fn pow(&self, e: u32) -> Rat {
        // Powers of coprime integers stay coprime: no reduction needed.
        Rat {
            num: self.num.pow(e),
            den: self.den.pow(e),
        }
    }

    /// `(self + o) / 2`, the midpoint bisection asks for.
    pub fn midpoint(&self, o: &Rat) -> Rat {
        match (&self.num, &self.den, &o.num, &o.den) {
            (Int::Small(a), Int::Small(b), Int::Small(c), Int::Small(d)) => {
                let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                // |a d + c b| < 2^127 and 2 b d < 2^127 for i64 parts with b, d > 0.
                Rat::from_i128(a * d + c * b, 2 * b * d)
            }
            _ => &(self + o) * &Rat::new(Int::Small(1), Int::Small(2)),
        }
    }

    /// The value as a `BigRational`, for code that needs num-rational.
    pub fn to_big(&self) -> BigRational {
        BigRational::new_raw(self.num.to_bigint(), self.den.to_bigint())
    }

    /// The value of a `BigRational`.
    pub fn from_big(r: &BigRational) -> Rat {
        Rat {
            num: Int::from_big(r.numer().clone()),
            den: Int::from_big(r.denom().clone()),
        }
    }

    /// The exact value of a finite float (`None` for infinities and NaN).
    pub fn from_f64(x: f64) -> Option<Rat> {
        BigRational::from_float(x).map(|r| Rat::from_big(&r))
    }

    /// The nearest `f64` (correctly rounded when both parts have at most 53 bits, within
    /// a few units in the last place otherwise); infinite when out of range. For display
    /// and for float enclosures that widen it, never for decisions.
    pub fn to_f64(&self) -> f64 {
        const EXACT: u64 = 1 << 53;
        match (&self.num, &self.den) {
            (Int::Small(n), Int::Small(d)) if n.unsigned_abs() < EXACT && (*d as u64) < EXACT => {
                *n as f64 / *d as f64
            }
            _ => self.to_big().to_f64().unwrap_or(f64::NAN),
        }
    }

    fn big_op(&self, o: &Rat, f: impl Fn(BigRational, BigRational) -> BigRational) -> Rat {
        Rat::from_big(&f(self.to_big(), o.to_big()))
    }
}

impl From<i64> for Rat {
    fn from(v: i64) -> Rat {
        Rat::from_integer(Int::Small(v))
    }
}

impl From<Int> for Rat {
    fn from(v: Int) -> Rat {
        Rat::from_integer(v)
    }
}

impl Ord for Rat {
    fn cmp(&self, o: &Rat) -> Ordering {
        match (&self.num, &self.den, &o.num, &o.den) {
            (Int::Small(a), Int::Small(1), Int::Small(c), Int::Small(1)) => a.cmp(c),
            // Positive denominators: a/b < c/d iff a d < c b, exact in i128.
            (Int::Small(a), Int::Small(b), Int::Small(c), Int::Small(d)) => {
                (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128))
            }
            _ => (&self.num * &o.den).cmp(&(&o.num * &self.den)),
        }
    }
}

impl PartialOrd for Rat {
    fn partial_cmp(&self, o: &Rat) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl std::ops::Add<&Rat> for &Rat {
    type Output = Rat;
    fn add(self, o: &Rat) -> Rat {
        match (&self.num, &self.den, &o.num, &o.den) {
            (Int::Small(a), Int::Small(b), Int::Small(c), Int::Small(d)) => {
                let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                Rat::from_i128(a * d + c * b, b * d)
            }
            _ => self.big_op(o, |x, y| x + y),
        }
    }
}

impl std::ops::Sub<&Rat> for &Rat {
    type Output = Rat;
    fn sub(self, o: &Rat) -> Rat {
        self + &-o
    }
}

impl std::ops::Mul<&Rat> for &Rat {
    type Output = Rat;
    fn mul(self, o: &Rat) -> Rat {
        match (&self.num, &self.den, &o.num, &o.den) {
            (Int::Small(a), Int::Small(b), Int::Small(c), Int::Small(d)) => {
                Rat::from_i128(*a as i128 * *c as i128, *b as i128 * *d as i128)
            }
            _ => self.big_op(o, |x, y| x * y),
        }
    }
}

impl std::ops::Div<&Rat> for &Rat {
    type Output = Rat;
    /// # Panics
    /// When `o` is zero.
    fn div(self, o: &Rat) -> Rat {
        assert!(!o.is_zero(), "Rat division by zero");
        match (&self.num, &self.den, &o.num, &o.den) {
            (Int::Small(a), Int::Small(b), Int::Small(c), Int::Small(d)) => {
                Rat::from_i128(*a as i128 * *d as i128, *b as i128 * *c as i128)
            }
            _ => self.big_op(o, |x, y| x / y),
        }
    }
}

impl std::ops::Neg for &Rat {
    type Output = Rat;
    fn neg(self) -> Rat {
        Rat {
            num: -&self.num,
            den: self.den.clone(),
        }
    }
}

impl std::ops::Neg for Rat {
    type Output = Rat;
    fn neg(self) -> Rat {
        Rat {
            num: -self.num,
            den: self.den,
        }
    }
}

impl fmt::Display for Rat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den.is_one() {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl fmt::Debug for Rat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(n: i128, d: i128) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn rat(r: &BigRational) -> Rat {
        Rat::from_big(r)
    }

    /// Values at the edges of i64, where the fast paths' overflow reasoning matters.
    fn edge() -> impl Strategy<Value = i128> {
        prop_oneof![
            -5i128..5,
            Just(i64::MIN as i128),
            Just(i64::MAX as i128),
            Just(i64::MIN as i128 + 1),
            any::<i64>().prop_map(i128::from),
            any::<i128>(),
        ]
    }

    fn nonzero() -> impl Strategy<Value = i128> {
        edge().prop_filter("nonzero", |d| *d != 0)
    }

    proptest! {
        #[test]
        fn agrees_with_big_rational(a in edge(), b in nonzero(), c in edge(), d in nonzero()) {
            let (x, y) = (big(a, b), big(c, d));
            let (p, q) = (rat(&x), rat(&y));
            prop_assert_eq!((&p + &q).to_big(), &x + &y);
            prop_assert_eq!((&p - &q).to_big(), &x - &y);
            prop_assert_eq!((&p * &q).to_big(), &x * &y);
            if c != 0 {
                prop_assert_eq!((&p / &q).to_big(), &x / &y);
            }
            prop_assert_eq!(p.cmp(&q), x.cmp(&y));
            prop_assert_eq!(p.midpoint(&q).to_big(), (&x + &y) / BigRational::from_integer(2.into()));
            prop_assert_eq!(p.pow(3).to_big(), num_traits::Pow::pow(&x, 3u32));
            prop_assert_eq!(p.floor().to_bigint(), x.floor().to_integer());
            prop_assert_eq!(p.ceil().to_bigint(), x.ceil().to_integer());
            // Canonical: built from its own parts, the same value and representation.
            prop_assert_eq!(Rat::new(p.numer().clone(), p.denom().clone()), p.clone());
        }

        #[test]
        fn dyadic_is_m_over_a_power_of_two(m in edge(), k in 0u64..130) {
            let d = BigInt::from(1u8) << k;
            prop_assert_eq!(Rat::dyadic(Int::from_big(BigInt::from(m)), k).to_big(), BigRational::new(BigInt::from(m), d));
        }

        #[test]
        fn to_f64_is_close(a in any::<i64>(), b in 1i64..) {
            let x = Rat::new(Int::from(a), Int::from(b));
            let want = big(a as i128, b as i128).to_f64().unwrap();
            let got = x.to_f64();
            prop_assert!((got - want).abs() <= want.abs() * 1e-15);
        }
    }

    #[test]
    fn display_and_zero() {
        assert_eq!(Rat::new(Int::from(0), Int::from(-7)), Rat::zero());
        assert_eq!(Rat::zero().denom(), &Int::from(1));
        assert_eq!(Rat::new(Int::from(4), Int::from(-6)).to_string(), "-2/3");
        assert_eq!(Rat::from_f64(0.375).unwrap().to_string(), "3/8");
    }
}
