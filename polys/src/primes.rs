//! Word-sized primes and arithmetic modulo them, for the modular algorithms (`modgcd`).
//!
//! The primes lie just below 2^62, so a residue fits in a `u64` with room to add two of them,
//! and a product of residues in a `u128`; each prime carries 62 bits of a Chinese
//! remainder reconstruction. They are found once, on demand, by a Miller–Rabin test that is
//! deterministic for 64-bit numbers, and kept for the life of the process.

use std::sync::{PoisonError, RwLock};

/// Primes below 2^62 in decreasing order, as many as have been asked for.
static PRIMES: RwLock<Vec<u64>> = RwLock::new(Vec::new());

/// The `i`-th prime below 2^62, counting down from the largest (i = 0).
pub(crate) fn word_prime(i: usize) -> u64 {
    {
        let known = PRIMES.read().unwrap_or_else(PoisonError::into_inner);
        if let Some(&p) = known.get(i) {
            return p;
        }
    }
    let mut known = PRIMES.write().unwrap_or_else(PoisonError::into_inner);
    // Odd candidates counting down; 2^62 - 1 is odd. A poisoned lock still holds a valid
    // prefix of the list (pushes are atomic with respect to the list's contents).
    let mut n = known.last().map_or((1u64 << 62) + 1, |&p| p);
    while known.len() <= i {
        n -= 2;
        if is_prime(n) {
            known.push(n);
        }
    }
    known[i]
}

/// `a * b mod p`.
pub(crate) fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

/// `a - b mod p` for residues `a, b < p`.
pub(crate) fn sub_mod(a: u64, b: u64, p: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        a + p - b
    }
}

/// `x^e mod p`.
pub(crate) fn pow_mod(x: u64, mut e: u64, p: u64) -> u64 {
    let (mut acc, mut base) = (1u64 % p, x % p);
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_mod(acc, base, p);
        }
        e >>= 1;
        base = mul_mod(base, base, p);
    }
    acc
}

/// The inverse of `a` modulo the prime `p < 2^63` (`a` not divisible by `p`), by the
/// extended Euclidean algorithm in machine words (every remainder and Bezout coefficient
/// is below `p` in absolute value); 0 when `a` is 0 modulo `p` (no inverse: callers
/// exclude it).
pub(crate) fn inv_mod(a: u64, p: u64) -> u64 {
    let (mut r0, mut r1) = (p as i64, (a % p) as i64);
    let (mut s0, mut s1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return 0;
    }
    s0.rem_euclid(p as i64) as u64
}

/// Deterministic for every `u64`: the first twelve primes as Miller–Rabin bases are enough
/// below 3.3 * 10^24.
fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for &b in &BASES {
        if n.is_multiple_of(b) {
            return n == b;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for &b in &BASES {
        let mut x = pow_mod(b, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_agree_with_trial_division_and_count_down() {
        let trial = |n: u64| {
            n >= 2
                && (2..)
                    .take_while(|d| d * d <= n)
                    .all(|d| !n.is_multiple_of(d))
        };
        for n in 0..2000 {
            assert_eq!(is_prime(n), trial(n), "{n}");
        }
        // Strong pseudoprimes to several small bases.
        for n in [3_215_031_751u64, 2_152_302_898_747, 3_474_749_660_383] {
            assert!(!is_prime(n), "{n}");
        }
        let (p0, p1) = (word_prime(0), word_prime(1));
        assert!(p0 < 1 << 62 && p1 < p0);
        // Counting down skips no prime (by the same test, so only a check of the search).
        assert!(((p1 + 2)..p0).step_by(2).all(|n| !is_prime(n)));
        assert!(((p0 + 2)..(1 << 62)).step_by(2).all(|n| !is_prime(n)));
        assert_eq!(mul_mod(inv_mod(12345, p0), 12345, p0), 1);
        assert_eq!(inv_mod(0, p0), 0);
        assert_eq!(pow_mod(3, p0 - 1, p0), 1);
    }
}
