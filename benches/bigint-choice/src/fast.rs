//! `Fast<B>`: an i64 fast path in front of any big-integer `Coeff` `B`, i.e. what
//! `polys::Int` would become with `B` behind it instead of num-bigint.
//!
//! Unlike `polys::Int` (whose fallback clones both operands into `BigInt`s), the fallback
//! here borrows big operands and only materialises a small one, so `Fast<BigInt>` versus
//! `Int` also shows what that clone costs.
//!
//! Invariant: a value that fits in `i64` is always `Small`, so the derived equality and
//! hashing are value equality.

use num_bigint::BigInt;
use polys::Coeff;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Fast<B: Coeff> {
    Small(i64),
    Big(B),
}

impl<B: Coeff> Fast<B> {
    fn norm(b: B) -> Self {
        match b.to_i64() {
            Some(v) => Fast::Small(v),
            None => Fast::Big(b),
        }
    }

    fn as_big(&self) -> Cow<'_, B> {
        match self {
            Fast::Small(v) => Cow::Owned(B::from_i64(*v)),
            Fast::Big(b) => Cow::Borrowed(b),
        }
    }

    fn slow(&self, o: &Self, f: impl FnOnce(&B, &B) -> B) -> Self {
        Self::norm(f(&self.as_big(), &o.as_big()))
    }
}

impl<B: Coeff> Ord for Fast<B> {
    fn cmp(&self, o: &Self) -> Ordering {
        match (self, o) {
            (Fast::Small(a), Fast::Small(b)) => a.cmp(b),
            (Fast::Big(a), Fast::Big(b)) => a.cmp(b),
            // A big value is outside the i64 range: its sign decides.
            (Fast::Small(_), Fast::Big(b)) => 0.cmp(&b.signum()),
            (Fast::Big(a), Fast::Small(_)) => a.signum().cmp(&0),
        }
    }
}

impl<B: Coeff> PartialOrd for Fast<B> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<B: Coeff> fmt::Display for Fast<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fast::Small(v) => fmt::Display::fmt(v, f),
            Fast::Big(b) => fmt::Display::fmt(b, f),
        }
    }
}

impl<B: Coeff> Coeff for Fast<B> {
    fn from_i64(v: i64) -> Self {
        Fast::Small(v)
    }
    fn from_bigint(v: BigInt) -> Self {
        Self::norm(B::from_bigint(v))
    }
    fn to_bigint(&self) -> BigInt {
        match self {
            Fast::Small(v) => BigInt::from(*v),
            Fast::Big(b) => b.to_bigint(),
        }
    }
    fn to_i64(&self) -> Option<i64> {
        match self {
            Fast::Small(v) => Some(*v),
            Fast::Big(_) => None,
        }
    }
    fn is_zero(&self) -> bool {
        matches!(self, Fast::Small(0))
    }
    fn is_one(&self) -> bool {
        matches!(self, Fast::Small(1))
    }
    fn signum(&self) -> i32 {
        match self {
            Fast::Small(v) => v.signum() as i32,
            Fast::Big(b) => b.signum(),
        }
    }
    fn add(&self, o: &Self) -> Self {
        if let (Fast::Small(a), Fast::Small(b)) = (self, o) {
            if let Some(v) = a.checked_add(*b) {
                return Fast::Small(v);
            }
        }
        self.slow(o, |a, b| a.add(b))
    }
    fn sub(&self, o: &Self) -> Self {
        if let (Fast::Small(a), Fast::Small(b)) = (self, o) {
            if let Some(v) = a.checked_sub(*b) {
                return Fast::Small(v);
            }
        }
        self.slow(o, |a, b| a.sub(b))
    }
    fn mul(&self, o: &Self) -> Self {
        match (self, o) {
            (Fast::Small(a), Fast::Small(b)) => match a.checked_mul(*b) {
                Some(v) => Fast::Small(v),
                None => self.slow(o, |a, b| a.mul(b)),
            },
            (Fast::Small(0), _) | (_, Fast::Small(0)) => Fast::Small(0),
            _ => self.slow(o, |a, b| a.mul(b)),
        }
    }
    fn neg(&self) -> Self {
        match self {
            Fast::Small(a) => match a.checked_neg() {
                Some(v) => Fast::Small(v),
                None => Fast::Big(B::from_i64(*a).neg()),
            },
            Fast::Big(b) => Self::norm(b.neg()),
        }
    }
    fn div_exact(&self, o: &Self) -> Self {
        if let (Fast::Small(a), Fast::Small(b)) = (self, o) {
            if let Some(v) = a.checked_div(*b) {
                return Fast::Small(v);
            }
        }
        self.slow(o, |a, b| a.div_exact(b))
    }
    fn div_mod_floor(&self, o: &Self) -> (Self, Self) {
        if let (Fast::Small(a), Fast::Small(b)) = (self, o) {
            if let (Some(mut q), Some(mut r)) = (a.checked_div(*b), a.checked_rem(*b)) {
                // Truncated to floored: move the remainder to the divisor's sign.
                if r != 0 && ((r < 0) != (*b < 0)) {
                    q -= 1;
                    r += b;
                }
                return (Fast::Small(q), Fast::Small(r));
            }
        }
        let (q, r) = self.as_big().div_mod_floor(&o.as_big());
        (Self::norm(q), Self::norm(r))
    }
    fn gcd(&self, o: &Self) -> Self {
        if let (Fast::Small(a), Fast::Small(b)) = (self, o) {
            let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
            while y != 0 {
                (x, y) = (y, x % y);
            }
            if let Ok(v) = i64::try_from(x) {
                return Fast::Small(v);
            }
        }
        self.slow(o, |a, b| a.gcd(b))
    }
    fn add_assign(&mut self, o: &Self) {
        match (&mut *self, o) {
            (Fast::Small(a), Fast::Small(b)) => {
                if let Some(v) = a.checked_add(*b) {
                    *a = v;
                    return;
                }
            }
            (Fast::Big(a), Fast::Big(b)) => {
                a.add_assign(b);
                if let Some(v) = a.to_i64() {
                    *self = Fast::Small(v);
                }
                return;
            }
            _ => {}
        }
        *self = Coeff::add(&*self, o);
    }
    fn bits(&self) -> u64 {
        match self {
            Fast::Small(v) => 64 - u64::from(v.unsigned_abs().leading_zeros()),
            Fast::Big(b) => b.bits(),
        }
    }
}
