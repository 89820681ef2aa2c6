//! [`Int`]: an exact integer that stays a machine word while it fits.
//!
//! Code generation meets mostly tiny coefficients, so every operation first tries checked
//! 64-bit (or 128-bit) arithmetic and only on overflow switches to [`BigInt`]. The
//! representation is canonical: a value that fits in `i64` is always `Small`, so derived
//! equality and hashing are value equality.

use crate::coeff::Coeff;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// An arbitrary-precision integer with an allocation-free fast path for values in `i64`.
///
/// ```
/// use polys::Int;
/// let a = Int::from(i64::MAX);
/// let b = &a + &Int::from(1);          // overflows i64: exact big result
/// assert_eq!(b.to_string(), "9223372036854775808");
/// assert!((&b - &Int::from(1)).is_small()); // and back to a machine word
/// ```
#[derive(Clone)]
pub enum Int {
    /// Invariant: every value in `i64` range is stored here.
    Small(i64),
    /// Invariant: never holds a value that fits in `i64`. Boxed: big values are rare,
    /// and the box keeps `Int` at 16 bytes, which halves every coefficient vector and the
    /// rationals, samples and cells of the CAD that are copied around.
    Big(Box<BigInt>),
}

impl Int {
    /// Builds the canonical representation of a big integer.
    pub fn from_big(b: BigInt) -> Int {
        match ToPrimitive::to_i64(&b) {
            Some(v) => Int::Small(v),
            None => Int::Big(Box::new(b)),
        }
    }

    pub(crate) fn from_i128(v: i128) -> Int {
        match i64::try_from(v) {
            Ok(s) => Int::Small(s),
            Err(_) => Int::Big(Box::new(BigInt::from(v))),
        }
    }

    /// The integer square root `floor(sqrt(self))` of a non-negative value.
    ///
    /// # Panics
    /// When the value is negative.
    pub fn isqrt(&self) -> Int {
        match self {
            Int::Small(v) => Int::Small(
                u64::try_from(*v)
                    .expect("square root of a negative integer")
                    .isqrt() as i64,
            ),
            Int::Big(b) => Int::from_big(b.sqrt()),
        }
    }

    /// `gcd(x, y)` of two magnitudes, as an `Int`.
    fn gcd_u64(mut x: u64, mut y: u64) -> Int {
        while y != 0 {
            let t = x % y;
            x = y;
            y = t;
        }
        match i64::try_from(x) {
            Ok(v) => Int::Small(v),
            Err(_) => Int::Big(Box::new(BigInt::from(x))),
        }
    }

    /// True when the value is held in a machine word.
    pub fn is_small(&self) -> bool {
        matches!(self, Int::Small(_))
    }

    fn big(&self) -> BigInt {
        match self {
            Int::Small(v) => BigInt::from(*v),
            Int::Big(b) => BigInt::clone(b),
        }
    }

    /// The value as a borrowed big integer, converting (not cloning) only small values:
    /// the slow path should not copy big operands.
    fn as_big(&self) -> std::borrow::Cow<'_, BigInt> {
        match self {
            Int::Small(v) => std::borrow::Cow::Owned(BigInt::from(*v)),
            Int::Big(b) => std::borrow::Cow::Borrowed(&**b),
        }
    }
}

impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int::Small(v)
    }
}

impl From<i32> for Int {
    fn from(v: i32) -> Int {
        Int::Small(v as i64)
    }
}

impl From<BigInt> for Int {
    fn from(v: BigInt) -> Int {
        Int::from_big(v)
    }
}

impl From<&Int> for BigInt {
    fn from(v: &Int) -> BigInt {
        v.big()
    }
}

impl PartialEq for Int {
    fn eq(&self, o: &Int) -> bool {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => a == b,
            (Int::Big(a), Int::Big(b)) => a == b,
            // Canonical representation: a small and a big value never coincide.
            _ => false,
        }
    }
}
impl Eq for Int {}

impl Hash for Int {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            Int::Small(v) => {
                0u8.hash(h);
                v.hash(h)
            }
            Int::Big(b) => {
                1u8.hash(h);
                b.hash(h)
            }
        }
    }
}

impl Ord for Int {
    fn cmp(&self, o: &Int) -> Ordering {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            (Int::Big(a), Int::Big(b)) => a.cmp(b),
            // A big value lies outside i64, so its sign decides.
            (Int::Small(_), Int::Big(b)) => {
                if b.is_positive() {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Int::Big(a), Int::Small(_)) => {
                if a.is_positive() {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
        }
    }
}
impl PartialOrd for Int {
    fn partial_cmp(&self, o: &Int) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(v) => write!(f, "{v}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}
impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Coeff for Int {
    fn from_i64(v: i64) -> Self {
        Int::Small(v)
    }
    fn from_bigint(v: BigInt) -> Self {
        Int::from_big(v)
    }
    fn to_bigint(&self) -> BigInt {
        self.big()
    }
    fn to_i64(&self) -> Option<i64> {
        match self {
            Int::Small(v) => Some(*v),
            Int::Big(_) => None,
        }
    }
    fn is_zero(&self) -> bool {
        matches!(self, Int::Small(0))
    }
    fn is_one(&self) -> bool {
        matches!(self, Int::Small(1))
    }
    fn signum(&self) -> i32 {
        match self {
            Int::Small(v) => v.signum() as i32,
            Int::Big(b) => {
                if b.is_positive() {
                    1
                } else {
                    -1
                }
            }
        }
    }
    fn add(&self, o: &Self) -> Self {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => match a.checked_add(*b) {
                Some(v) => Int::Small(v),
                None => Int::from_i128(*a as i128 + *b as i128),
            },
            _ => Int::from_big(&*self.as_big() + &*o.as_big()),
        }
    }
    fn sub(&self, o: &Self) -> Self {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => match a.checked_sub(*b) {
                Some(v) => Int::Small(v),
                None => Int::from_i128(*a as i128 - *b as i128),
            },
            _ => Int::from_big(&*self.as_big() - &*o.as_big()),
        }
    }
    fn mul(&self, o: &Self) -> Self {
        match (self, o) {
            // The product of two i64 always fits in i128.
            (Int::Small(a), Int::Small(b)) => Int::from_i128(*a as i128 * *b as i128),
            (Int::Small(0), _) | (_, Int::Small(0)) => Int::Small(0),
            _ => Int::from_big(&*self.as_big() * &*o.as_big()),
        }
    }
    fn neg(&self) -> Self {
        match self {
            Int::Small(a) => match a.checked_neg() {
                Some(v) => Int::Small(v),
                None => Int::Big(Box::new(-BigInt::from(*a))),
            },
            Int::Big(b) => Int::from_big(-&**b),
        }
    }
    fn div_exact(&self, o: &Self) -> Self {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) => {
                debug_assert!(
                    *b != 0 && a.checked_rem(*b).unwrap_or(0) == 0,
                    "inexact division {a} / {b}"
                );
                // i64::MIN / -1 is the one quotient that leaves i64.
                match a.checked_div(*b) {
                    Some(v) => Int::Small(v),
                    None => Int::from_i128(*a as i128 / *b as i128),
                }
            }
            _ => {
                let (a, b) = (self.as_big(), o.as_big());
                debug_assert!(Zero::is_zero(&(&*a % &*b)), "inexact division {a} / {b}");
                Int::from_big(&*a / &*b)
            }
        }
    }
    fn div_mod_floor(&self, o: &Self) -> (Self, Self) {
        match (self, o) {
            (Int::Small(a), Int::Small(b)) if !(*a == i64::MIN && *b == -1) => {
                let (q, r) = a.div_mod_floor(b);
                (Int::Small(q), Int::Small(r))
            }
            _ => {
                let (q, r) = Integer::div_mod_floor(&*self.as_big(), &*o.as_big());
                (Int::from_big(q), Int::from_big(r))
            }
        }
    }
    fn gcd(&self, o: &Self) -> Self {
        match (self, o) {
            // Magnitudes in u64, so that |i64::MIN| is representable.
            (Int::Small(a), Int::Small(b)) => Int::gcd_u64(a.unsigned_abs(), b.unsigned_abs()),
            // A big value modulo a small one first: num-bigint's binary gcd would take
            // one subtraction and shift of the whole big value per bit instead.
            (Int::Small(s), Int::Big(b)) | (Int::Big(b), Int::Small(s)) => {
                let m = s.unsigned_abs();
                if m == 0 {
                    return Int::from_big(Signed::abs(&**b));
                }
                let r = crate::modgcd::bigint_rem_u64(b, m);
                Int::gcd_u64(m, r)
            }
            (Int::Big(a), Int::Big(b)) => Int::from_big(big_gcd(a, b)),
        }
    }
    fn rem_u64(&self, p: u64) -> u64 {
        match self {
            Int::Small(v) => (*v as i128).rem_euclid(p as i128) as u64,
            Int::Big(b) => crate::modgcd::bigint_rem_u64(b, p),
        }
    }
    fn bits(&self) -> u64 {
        match self {
            Int::Small(v) => 64 - v.unsigned_abs().leading_zeros() as u64,
            Int::Big(b) => b.magnitude().bits(),
        }
    }
}

/// The gcd of two big values: the larger reduced modulo the smaller while their sizes
/// differ by more than a word (one division instead of a binary gcd's bit-by-bit steps
/// over the excess), then num-bigint's binary gcd.
fn big_gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut x, mut y) = (a.magnitude().clone(), b.magnitude().clone());
    if x < y {
        std::mem::swap(&mut x, &mut y);
    }
    while !y.is_zero() && x.bits() > y.bits() + 64 {
        x %= &y;
        std::mem::swap(&mut x, &mut y);
    }
    BigInt::from(Integer::gcd(&x, &y))
}

macro_rules! forward_binop {
    ($tr:ident, $m:ident, $f:path) => {
        impl std::ops::$tr<&Int> for &Int {
            type Output = Int;
            fn $m(self, o: &Int) -> Int {
                $f(self, o)
            }
        }
        impl std::ops::$tr<Int> for Int {
            type Output = Int;
            fn $m(self, o: Int) -> Int {
                $f(&self, &o)
            }
        }
    };
}
forward_binop!(Add, add, Coeff::add);
forward_binop!(Sub, sub, Coeff::sub);
forward_binop!(Mul, mul, Coeff::mul);

impl std::ops::Neg for &Int {
    type Output = Int;
    fn neg(self) -> Int {
        Coeff::neg(self)
    }
}
impl std::ops::Neg for Int {
    type Output = Int;
    fn neg(self) -> Int {
        Coeff::neg(&self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_is_two_words() {
        assert_eq!(std::mem::size_of::<Int>(), 16);
    }

    #[test]
    fn overflow_switches_to_big_and_back() {
        let m = Int::from(i64::MIN);
        let n = Coeff::neg(&m);
        assert!(!n.is_small());
        assert_eq!(n.to_string(), "9223372036854775808");
        assert!(Coeff::neg(&n).is_small());
        assert_eq!(Coeff::div_exact(&m, &Int::from(-1)), n);
        assert_eq!(Coeff::gcd(&m, &Int::from(0)), n);
        assert_eq!(m.cmp(&n), Ordering::Less);
    }
}
