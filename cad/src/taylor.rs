//! The Taylor shift by one, `p(x + 1)`, of root isolation on fixed-width two's complement
//! limbs: Horner's quadratic scheme of additions with no allocation per addition.
//!
//! Vincent-Collins-Akritas spends most of its time here (two shifts per bisection node).
//! Adding [`Int`]s allocates a fresh big integer per addition and checks it for the small
//! form; here every coefficient gets the same number of 64-bit limbs, enough for every
//! intermediate value (`|sum_i c_i binom(i, j)| <= 2^(bits + n)`), so an addition is one
//! carry chain over a flat buffer and two's complement makes signs free. Exact: the width
//! is a bound, not an estimate, so no addition overflows.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::ToPrimitive;
use polys::{Coeff, Int};

/// `sum_j c_j (x + 1)^j` for the coefficients `c` (lowest degree first), as coefficients.
pub(crate) fn shift_one(c: &[Int]) -> Vec<Int> {
    let n = c.len();
    if n <= 1 {
        return c.to_vec();
    }
    let bits = c.iter().map(Coeff::bits).max().unwrap_or(0);
    // Magnitudes below 2^(bits + n - 1), plus a sign bit.
    let need = bits + n as u64;
    if need <= 63 {
        return shift_small(c);
    }
    if need <= 127 {
        return shift_i128(c);
    }
    let w = need.div_ceil(64) as usize;
    let mut buf = vec![0u64; n * w];
    for (slot, a) in buf.chunks_exact_mut(w).zip(c) {
        store(slot, a);
    }
    for i in 0..n - 1 {
        for j in (i..n - 1).rev() {
            let (lo, hi) = buf.split_at_mut((j + 1) * w);
            add_assign(&mut lo[j * w..], &hi[..w]);
        }
    }
    buf.chunks_exact(w).map(load).collect()
}

/// [`shift_one`] when every intermediate value fits in an `i64`.
fn shift_small(c: &[Int]) -> Vec<Int> {
    let mut v: Vec<i64> = c
        .iter()
        .map(|a| match a {
            Int::Small(x) => *x,
            // The caller checked that every coefficient has at most 63 - n bits.
            Int::Big(_) => unreachable!("a big coefficient in the small Taylor shift"),
        })
        .collect();
    let n = v.len();
    for i in 0..n - 1 {
        for j in (i..n - 1).rev() {
            v[j] += v[j + 1];
        }
    }
    v.into_iter().map(Int::from).collect()
}

/// [`shift_one`] when every intermediate value fits in an `i128`.
fn shift_i128(c: &[Int]) -> Vec<Int> {
    let mut v: Vec<i128> = c
        .iter()
        .map(|a| match a {
            Int::Small(x) => i128::from(*x),
            // The caller checked that every coefficient has at most 127 - n bits.
            Int::Big(b) => b.to_i128().expect("a coefficient of at most 127 bits"),
        })
        .collect();
    let n = v.len();
    for i in 0..n - 1 {
        for j in (i..n - 1).rev() {
            v[j] += v[j + 1];
        }
    }
    v.into_iter()
        .map(|x| match i64::try_from(x) {
            Ok(w) => Int::from(w),
            Err(_) => Int::from_big(BigInt::from(x)),
        })
        .collect()
}

/// `a += b` on two's complement numbers of the same width (the carry out is dropped: the
/// width holds the exact sum).
fn add_assign(a: &mut [u64], b: &[u64]) {
    let mut carry = 0u64;
    for (x, y) in a.iter_mut().zip(b) {
        let s = u128::from(*x) + u128::from(*y) + u128::from(carry);
        *x = s as u64;
        carry = (s >> 64) as u64;
    }
}

/// Writes `a` into `slot` in two's complement.
fn store(slot: &mut [u64], a: &Int) {
    match a {
        Int::Small(v) => {
            slot[0] = *v as u64;
            let fill = if *v < 0 { u64::MAX } else { 0 };
            slot[1..].iter_mut().for_each(|x| *x = fill);
        }
        Int::Big(b) => {
            slot.iter_mut().for_each(|x| *x = 0);
            for (x, d) in slot.iter_mut().zip(b.iter_u64_digits()) {
                *x = d;
            }
            if b.sign() == Sign::Minus {
                negate(slot);
            }
        }
    }
}

/// Two's complement negation in place.
fn negate(x: &mut [u64]) {
    let mut carry = 1u64;
    for l in x.iter_mut() {
        let (s, c) = (!*l).overflowing_add(carry);
        *l = s;
        carry = u64::from(c);
    }
}

/// Reads a two's complement number back.
fn load(slot: &[u64]) -> Int {
    let negative = slot[slot.len() - 1] >> 63 == 1;
    // Most values of a shift fit in a word: every limb above the first is then the sign
    // extension of the first.
    let fill = if negative { u64::MAX } else { 0 };
    if slot[1..].iter().all(|&l| l == fill) && (slot[0] >> 63 == 1) == negative {
        return Int::from(slot[0] as i64);
    }
    let mut mag = slot.to_vec();
    if negative {
        negate(&mut mag);
    }
    while mag.last() == Some(&0) {
        mag.pop();
    }
    match mag.as_slice() {
        [] => Int::from(0),
        [m] if *m <= i64::MAX as u64 => {
            let v = *m as i64;
            Int::from(if negative { -v } else { v })
        }
        _ => {
            let digits: Vec<u32> = mag
                .iter()
                .flat_map(|&l| [l as u32, (l >> 32) as u32])
                .collect();
            let sign = if negative { Sign::Minus } else { Sign::Plus };
            // from_big keeps the canonical form (-2^63 is small).
            Int::from_big(BigInt::from_biguint(sign, BigUint::new(digits)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shift by Horner's scheme on `Int`s, the oracle.
    fn naive(c: &[Int]) -> Vec<Int> {
        let mut c = c.to_vec();
        let n = c.len();
        for i in 0..n.saturating_sub(1) {
            for j in (i..n - 1).rev() {
                c[j] = &c[j] + &c[j + 1];
            }
        }
        c
    }

    /// A deterministic pseudo-random integer of up to `bits` bits, either sign.
    fn random_int(state: &mut u64, bits: u64) -> Int {
        let mut next = || {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            *state
        };
        let words = bits.div_ceil(64).max(1);
        let mut b = BigInt::from(0);
        for _ in 0..words {
            b = (b << 64usize) + BigInt::from(next());
        }
        b >>= (words * 64 - bits) as usize;
        if next() % 2 == 0 {
            b = -b;
        }
        if next() % 5 == 0 {
            b = BigInt::from(0);
        }
        Int::from_big(b)
    }

    #[test]
    fn matches_horner_on_ints() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for n in [1usize, 2, 3, 5, 17, 40, 90] {
            for bits in [1u64, 3, 20, 40, 62, 63, 64, 65, 90, 126, 130, 700] {
                let c: Vec<Int> = (0..n).map(|_| random_int(&mut state, bits)).collect();
                assert_eq!(shift_one(&c), naive(&c), "n = {n}, bits = {bits}");
            }
        }
    }

    #[test]
    fn largest_coefficients_at_each_width_boundary() {
        // All coefficients +-(2^bits - 1) with bits + n at the edges of the i64, i128
        // and limb paths: the largest sums the width must hold.
        for need in [63u64, 64, 65, 127, 128, 129, 191, 192] {
            for n in [2usize, 3, 10, 30] {
                let bits = need - n as u64;
                let m = Int::from_big((BigInt::from(1) << bits as usize) - 1);
                for sign in [1i64, -1] {
                    let c = vec![&m * &Int::from(sign); n];
                    assert_eq!(shift_one(&c), naive(&c), "need = {need}, n = {n}");
                }
            }
        }
    }

    #[test]
    fn extreme_values_round_trip() {
        let c = vec![
            Int::from(i64::MIN),
            Int::from(i64::MAX),
            Int::from(-1),
            Int::from_big(-(BigInt::from(1) << 64usize)),
            Int::from_big((BigInt::from(1) << 127usize) - 1),
        ];
        assert_eq!(shift_one(&c), naive(&c));
        let single = vec![Int::from(i64::MIN)];
        assert_eq!(shift_one(&single), single);
    }
}
