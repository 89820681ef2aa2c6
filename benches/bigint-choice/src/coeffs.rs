//! `polys::Coeff` for newtypes around rug's and malachite's integers (the orphan rule
//! forbids implementing the foreign trait on the foreign types directly).
//!
//! Semantics follow the `BigInt` instance in polys: `div_mod_floor` rounds the quotient
//! toward negative infinity, `gcd` is non-negative, `bits` counts the bits of `|x|`.

use num_bigint::{BigInt, BigUint, Sign};
use polys::Coeff;
use std::fmt;

/// Splits the magnitude of a `BigInt` into little-endian 64-bit limbs.
fn bigint_limbs(v: &BigInt) -> (bool, Vec<u64>) {
    let (sign, limbs) = v.to_u64_digits();
    (sign == Sign::Minus, limbs)
}

/// Builds a `BigInt` from a sign and little-endian 64-bit limbs.
fn bigint_from_limbs(negative: bool, limbs: &[u64]) -> BigInt {
    let halves: Vec<u32> = limbs
        .iter()
        .flat_map(|&l| [l as u32, (l >> 32) as u32])
        .collect();
    let mag = BigUint::new(halves);
    let sign = if negative { Sign::Minus } else { Sign::Plus };
    BigInt::from_biguint(sign, mag)
}

// ---------------------------------------------------------------------------------------
// rug (GMP)
// ---------------------------------------------------------------------------------------

/// `rug::Integer` (GMP's mpz_t) as a polynomial coefficient.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Rug(pub rug::Integer);

impl fmt::Display for Rug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Coeff for Rug {
    fn from_i64(v: i64) -> Self {
        Rug(rug::Integer::from(v))
    }
    fn from_bigint(v: BigInt) -> Self {
        let (neg, limbs) = bigint_limbs(&v);
        let m = rug::Integer::from_digits(&limbs, rug::integer::Order::Lsf);
        Rug(if neg { -m } else { m })
    }
    fn to_bigint(&self) -> BigInt {
        let limbs: Vec<u64> = self.0.to_digits(rug::integer::Order::Lsf);
        bigint_from_limbs(self.0.cmp0().is_lt(), &limbs)
    }
    fn to_i64(&self) -> Option<i64> {
        self.0.to_i64()
    }
    fn is_zero(&self) -> bool {
        self.0.cmp0().is_eq()
    }
    fn is_one(&self) -> bool {
        self.0 == 1
    }
    fn signum(&self) -> i32 {
        self.0.cmp0() as i32
    }
    fn add(&self, o: &Self) -> Self {
        Rug(rug::Integer::from(&self.0 + &o.0))
    }
    fn sub(&self, o: &Self) -> Self {
        Rug(rug::Integer::from(&self.0 - &o.0))
    }
    fn mul(&self, o: &Self) -> Self {
        Rug(rug::Integer::from(&self.0 * &o.0))
    }
    fn neg(&self) -> Self {
        Rug(rug::Integer::from(-&self.0))
    }
    fn abs(&self) -> Self {
        Rug(rug::Integer::from(self.0.abs_ref()))
    }
    fn div_exact(&self, o: &Self) -> Self {
        Rug(rug::Integer::from(self.0.div_exact_ref(&o.0)))
    }
    fn div_mod_floor(&self, o: &Self) -> (Self, Self) {
        let (q, r) = <(rug::Integer, rug::Integer)>::from(self.0.div_rem_floor_ref(&o.0));
        (Rug(q), Rug(r))
    }
    fn gcd(&self, o: &Self) -> Self {
        Rug(rug::Integer::from(self.0.gcd_ref(&o.0)))
    }
    fn pow(&self, e: u32) -> Self {
        use rug::ops::Pow;
        Rug(rug::Integer::from((&self.0).pow(e)))
    }
    fn add_assign(&mut self, o: &Self) {
        self.0 += &o.0;
    }
    fn bits(&self) -> u64 {
        u64::from(self.0.significant_bits())
    }
}

// ---------------------------------------------------------------------------------------
// malachite
// ---------------------------------------------------------------------------------------

use malachite_base::num::arithmetic::traits::{Abs, DivExact, DivMod, Gcd, Pow, Sign as _};
use malachite_base::num::logic::traits::SignificantBits;
use malachite_nz::integer::Integer as MInteger;
use malachite_nz::natural::Natural;

/// `malachite_nz::integer::Integer` (pure Rust, GMP-derived algorithms) as a coefficient.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Mal(pub MInteger);

impl fmt::Display for Mal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Coeff for Mal {
    fn from_i64(v: i64) -> Self {
        Mal(MInteger::from(v))
    }
    fn from_bigint(v: BigInt) -> Self {
        let (neg, limbs) = bigint_limbs(&v);
        let mag = Natural::from_owned_limbs_asc(limbs);
        Mal(MInteger::from_sign_and_abs(!neg, mag))
    }
    fn to_bigint(&self) -> BigInt {
        let limbs = self.0.unsigned_abs_ref().to_limbs_asc();
        bigint_from_limbs(self.0 < 0i32, &limbs)
    }
    fn to_i64(&self) -> Option<i64> {
        i64::try_from(&self.0).ok()
    }
    fn is_zero(&self) -> bool {
        self.0 == 0i32
    }
    fn is_one(&self) -> bool {
        self.0 == 1i32
    }
    fn signum(&self) -> i32 {
        self.0.sign() as i32
    }
    fn add(&self, o: &Self) -> Self {
        Mal(&self.0 + &o.0)
    }
    fn sub(&self, o: &Self) -> Self {
        Mal(&self.0 - &o.0)
    }
    fn mul(&self, o: &Self) -> Self {
        Mal(&self.0 * &o.0)
    }
    fn neg(&self) -> Self {
        Mal(-&self.0)
    }
    fn abs(&self) -> Self {
        Mal((&self.0).abs())
    }
    fn div_exact(&self, o: &Self) -> Self {
        Mal((&self.0).div_exact(&o.0))
    }
    fn div_mod_floor(&self, o: &Self) -> (Self, Self) {
        let (q, r) = (&self.0).div_mod(&o.0);
        (Mal(q), Mal(r))
    }
    fn gcd(&self, o: &Self) -> Self {
        Mal(MInteger::from((self.0.unsigned_abs_ref()).gcd(o.0.unsigned_abs_ref())))
    }
    fn pow(&self, e: u32) -> Self {
        Mal((&self.0).pow(u64::from(e)))
    }
    fn add_assign(&mut self, o: &Self) {
        self.0 += &o.0;
    }
    fn bits(&self) -> u64 {
        self.0.unsigned_abs_ref().significant_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<C: Coeff>() {
        let vals: Vec<BigInt> = [
            "0",
            "1",
            "-1",
            "12",
            "-7",
            "9223372036854775807",
            "-9223372036854775807",
            "-9223372036854775808",
            "9223372036854775808",
            "-18446744073709551616",
            "340282366920938463463374607431768211457",
            "-1234567890123456789012345678901234567890123",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
        for a in &vals {
            let ca = C::from_bigint(a.clone());
            assert_eq!(&ca.to_bigint(), a);
            assert_eq!(ca.to_string(), a.to_string());
            assert_eq!(ca.bits(), <BigInt as Coeff>::bits(a));
            assert_eq!(ca.signum(), <BigInt as Coeff>::signum(a));
            assert_eq!(ca.to_i64(), <BigInt as Coeff>::to_i64(a));
            for b in &vals {
                let cb = C::from_bigint(b.clone());
                assert_eq!(ca.add(&cb).to_bigint(), a + b);
                assert_eq!(ca.sub(&cb).to_bigint(), a - b);
                assert_eq!(ca.mul(&cb).to_bigint(), a * b);
                assert_eq!(ca.gcd(&cb).to_bigint(), <BigInt as Coeff>::gcd(a, b));
                assert_eq!(ca.cmp(&cb), a.cmp(b));
                if !num_traits::Zero::is_zero(b) {
                    let (q, r) = ca.div_mod_floor(&cb);
                    let (bq, br) = <BigInt as Coeff>::div_mod_floor(a, b);
                    assert_eq!((q.to_bigint(), r.to_bigint()), (bq, br));
                    let p = ca.mul(&cb);
                    assert_eq!(p.div_exact(&cb).to_bigint(), a.clone());
                }
            }
            assert_eq!(ca.pow(5).to_bigint(), num_traits::Pow::pow(a, 5u32));
        }
    }

    #[test]
    fn rug_matches_bigint() {
        check::<Rug>();
    }

    #[test]
    fn malachite_matches_bigint() {
        check::<Mal>();
    }

    #[test]
    fn fast_paths_match_bigint() {
        use crate::fast::Fast;
        check::<Fast<BigInt>>();
        check::<Fast<Rug>>();
        check::<Fast<Mal>>();
    }
}
