//! The coefficient ring interface: what a polynomial needs from its integers.
//!
//! Polynomials are generic over [`Coeff`] so that the same algorithms run on the
//! machine-integer fast path ([`crate::Int`]) and on plain big integers
//! ([`num_bigint::BigInt`]); the benchmark compares the two, and the property tests use the
//! big-integer instance as an oracle for the fast path.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// An exact integer type usable as polynomial coefficient.
///
/// All operations are exact; [`Coeff::div_exact`] is only called when the divisor is known
/// to divide the dividend.
pub trait Coeff: Clone + Eq + Ord + Hash + Debug + Display + Send + Sync + 'static {
    /// The machine integer `v`.
    fn from_i64(v: i64) -> Self;
    /// The big integer `v` (an implementation may store it in a smaller form when it fits).
    fn from_bigint(v: BigInt) -> Self;
    /// The value as a big integer.
    fn to_bigint(&self) -> BigInt;
    /// The value as `i64` when it fits.
    fn to_i64(&self) -> Option<i64>;
    /// The additive identity 0.
    fn zero() -> Self {
        Self::from_i64(0)
    }
    /// The multiplicative identity 1.
    fn one() -> Self {
        Self::from_i64(1)
    }
    /// Whether the value is 0.
    fn is_zero(&self) -> bool;
    /// Whether the value is 1.
    fn is_one(&self) -> bool;
    /// -1, 0 or 1.
    fn signum(&self) -> i32;
    /// `self + o`.
    fn add(&self, o: &Self) -> Self;
    /// `self - o`.
    fn sub(&self, o: &Self) -> Self;
    /// `self * o`.
    fn mul(&self, o: &Self) -> Self;
    /// `-self`.
    fn neg(&self) -> Self;
    /// The absolute value `|self|`.
    fn abs(&self) -> Self {
        if self.signum() < 0 {
            self.neg()
        } else {
            self.clone()
        }
    }
    /// `self / o`, where `o` divides `self` exactly.
    fn div_exact(&self, o: &Self) -> Self;
    /// Floor division and the matching non-negative remainder (`o != 0`).
    fn div_mod_floor(&self, o: &Self) -> (Self, Self);
    /// Non-negative greatest common divisor; `gcd(0, 0) = 0`.
    fn gcd(&self, o: &Self) -> Self;
    /// `self^e` (with `0^0 = 1`); the default squares repeatedly.
    fn pow(&self, e: u32) -> Self {
        let mut acc = Self::one();
        let mut base = self.clone();
        let mut e = e;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(&base);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base);
            }
        }
        acc
    }
    /// `self += o`; implementations may update in place instead of building a new value.
    fn add_assign(&mut self, o: &Self) {
        *self = Coeff::add(self, o);
    }
    /// Number of bits of the absolute value (0 for 0).
    fn bits(&self) -> u64;
    /// The residue modulo `p` (`p > 0`), in `0..p`; the default goes through a big integer.
    fn rem_u64(&self, p: u64) -> u64 {
        crate::modgcd::bigint_rem_u64(&self.to_bigint(), p)
    }
}

impl Coeff for BigInt {
    fn from_i64(v: i64) -> Self {
        BigInt::from(v)
    }
    fn from_bigint(v: BigInt) -> Self {
        v
    }
    fn to_bigint(&self) -> BigInt {
        self.clone()
    }
    fn to_i64(&self) -> Option<i64> {
        ToPrimitive::to_i64(self)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_one(&self) -> bool {
        One::is_one(self)
    }
    fn signum(&self) -> i32 {
        match self.sign() {
            num_bigint::Sign::Minus => -1,
            num_bigint::Sign::NoSign => 0,
            num_bigint::Sign::Plus => 1,
        }
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn neg(&self) -> Self {
        -self
    }
    fn abs(&self) -> Self {
        Signed::abs(self)
    }
    fn div_exact(&self, o: &Self) -> Self {
        debug_assert!(Zero::is_zero(&(self % o)), "inexact division {self} / {o}");
        self / o
    }
    fn div_mod_floor(&self, o: &Self) -> (Self, Self) {
        Integer::div_mod_floor(self, o)
    }
    fn gcd(&self, o: &Self) -> Self {
        Integer::gcd(self, o)
    }
    fn pow(&self, e: u32) -> Self {
        num_traits::Pow::pow(self, e)
    }
    fn add_assign(&mut self, o: &Self) {
        *self += o;
    }
    fn bits(&self) -> u64 {
        self.magnitude().bits()
    }
    fn rem_u64(&self, p: u64) -> u64 {
        crate::modgcd::bigint_rem_u64(self, p)
    }
}
