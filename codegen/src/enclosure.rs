//! Interval enclosures of the emitted arithmetic: the range of every value an emitted
//! expression ([`CAst`]) computes when its variables range over given intervals, and
//! whether any `int64_t` operation (or `__int128` step of `ps_root_search`) may leave its
//! type there.
//!
//! Exact results of each operation are taken in `i128`; the helpers (`ps_floord`,
//! `ps_isqrt`, `ps_iroot`, `ps_root_search`, ...) are enclosed with their own inner steps
//! checked. Every step is inclusion-monotone. It relies on the generator's documented
//! invariants (divisors positive and root arguments non-negative wherever evaluated).

use crate::c_ast::{BinOp, CAst, Helper};

/// `int64_t`'s range, in the `i128` the exact results are taken in.
pub(crate) const I64_MIN: i128 = i64::MIN as i128;
/// See [`I64_MIN`].
pub(crate) const I64_MAX: i128 = i64::MAX as i128;

fn fits(v: i128) -> bool {
    (I64_MIN..=I64_MAX).contains(&v)
}

/// A closed integer interval (non-empty: `lo <= hi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iv {
    /// Least value.
    pub lo: i128,
    /// Greatest value.
    pub hi: i128,
}

impl Iv {
    /// `[lo, hi]`; callers keep `lo <= hi`.
    pub fn new(lo: i128, hi: i128) -> Iv {
        Iv { lo, hi }
    }

    fn point(v: i128) -> Iv {
        Iv { lo: v, hi: v }
    }

    /// The intersection with `[lo, hi]`, `None` when empty.
    pub(crate) fn clamp(self, lo: i128, hi: i128) -> Option<Iv> {
        let (l, h) = (self.lo.max(lo), self.hi.min(hi));
        (l <= h).then_some(Iv { lo: l, hi: h })
    }
}

/// Enclosure of one evaluation: `Ok(None)` when the expression is never evaluated there
/// (its operands can only take values the generator never evaluates it at, by the
/// invariants), `Err(operation)` when an operation may leave its range.
pub(crate) type Enc = Result<Option<Iv>, String>;

fn in_i64(v: Iv, what: &str) -> Enc {
    if fits(v.lo) && fits(v.hi) {
        Ok(Some(v))
    } else {
        Err(format!(
            "{what} (result in [{}, {}] may leave int64_t)",
            v.lo, v.hi
        ))
    }
}

/// Interval product of `i128` intervals, `None` if a corner overflows `i128`.
fn mul_iv(a: Iv, b: Iv) -> Option<Iv> {
    let cs = [
        a.lo.checked_mul(b.lo)?,
        a.lo.checked_mul(b.hi)?,
        a.hi.checked_mul(b.lo)?,
        a.hi.checked_mul(b.hi)?,
    ];
    Some(Iv::new(*cs.iter().min()?, *cs.iter().max()?))
}

fn floor_div(n: i128, d: i128) -> i128 {
    n.div_euclid(d)
}

fn ceil_div(n: i128, d: i128) -> i128 {
    -(-n).div_euclid(d)
}

/// `floor(sqrt(n))` for `n >= 0`.
fn isqrt(n: i128) -> i128 {
    if n < 2 {
        return n;
    }
    let mut r = (n as f64).sqrt() as i128;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// `floor(n^(1/k))` for `n >= 0`, `k >= 1`, `n` within `int64_t`.
fn iroot(n: i128, k: u32) -> i128 {
    if n < 2 || k <= 1 {
        return n;
    }
    let pow_le = |b: i128| {
        let mut r: i128 = 1;
        for _ in 0..k {
            r = match r.checked_mul(b) {
                Some(v) if v <= n => v,
                _ => return false,
            };
        }
        true
    };
    let (mut lo, mut hi) = (1i128, 2i128);
    while pow_le(hi) {
        lo = hi;
        hi *= 2;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pow_le(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn ceil_root(n: i128, k: u32) -> i128 {
    let s = if k == 2 { isqrt(n) } else { iroot(n, k) };
    if s.checked_pow(k) == Some(n) {
        s
    } else {
        s + 1
    }
}

/// Enclosure of `e` (folded, see [`CAst::folded`]) where variable `k` ranges over
/// `env[k]` (`None`: not bound, which a correct program never reads).
pub(crate) fn enclose(e: &CAst, env: &[Option<Iv>]) -> Enc {
    macro_rules! sub {
        ($x:expr) => {
            match enclose($x, env)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
    }
    match e {
        CAst::Lit(v) => in_i64(Iv::point(i128::from(*v)), "constant"),
        CAst::Var(k) => match env.get(*k).copied().flatten() {
            Some(v) => Ok(Some(v)),
            None => Err(format!("variable {k} read outside its loop")),
        },
        CAst::Neg(a) => {
            let a = sub!(a);
            in_i64(Iv::new(-a.hi, -a.lo), "-a")
        }
        CAst::Bin(op, a, b) => {
            let same = a == b;
            let (x, y) = (sub!(a), sub!(b));
            match op {
                BinOp::Add => in_i64(Iv::new(x.lo + y.lo, x.hi + y.hi), "a + b"),
                BinOp::Sub => in_i64(Iv::new(x.lo - y.hi, x.hi - y.lo), "a - b"),
                BinOp::Mul if same => {
                    // A square is not negative: `r*r` is not enclosed by `[-r^2, r^2]`.
                    let m = x.lo.abs().max(x.hi.abs());
                    let l = if x.lo <= 0 && x.hi >= 0 {
                        0
                    } else {
                        x.lo.abs().min(x.hi.abs())
                    };
                    in_i64(Iv::new(l * l, m * m), "a * a")
                }
                BinOp::Mul => match mul_iv(x, y) {
                    Some(v) => in_i64(v, "a * b"),
                    None => Err("a * b".into()),
                },
            }
        }
        // Only in unfolded trees: the compiler ignores them.
        CAst::Paren(a) => enclose(a, env),
        CAst::Array(_) => Err("array outside ps_root_search".into()),
        CAst::Call(h, args) => enclose_call(*h, args, env),
    }
}

fn enclose_call(h: Helper, args: &[CAst], env: &[Option<Iv>]) -> Enc {
    let name = h.name();
    macro_rules! sub {
        ($x:expr) => {
            match enclose($x, env)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
    }
    let literal = |k: usize| match args.get(k) {
        Some(CAst::Lit(v)) => Ok(i128::from(*v)),
        _ => Err(format!("{name}: argument {} is not a literal", k + 1)),
    };
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("{name}: {} arguments, expected {n}", args.len()))
        }
    };
    match h {
        Helper::Max | Helper::Min => {
            arity(2)?;
            let (a, b) = (sub!(&args[0]), sub!(&args[1]));
            Ok(Some(if h == Helper::Max {
                Iv::new(a.lo.max(b.lo), a.hi.max(b.hi))
            } else {
                Iv::new(a.lo.min(b.lo), a.hi.min(b.hi))
            }))
        }
        Helper::Floord | Helper::Ceild => {
            arity(2)?;
            let n = sub!(&args[0]);
            // Divisors are positive wherever the generator evaluates a division.
            let Some(d) = sub!(&args[1]).clamp(1, I64_MAX) else {
                return Ok(None);
            };
            if h == Helper::Floord {
                // n >= 0 ? n / d : -((-n + d - 1) / d)
                if n.lo < 0 {
                    in_i64(Iv::new(1, -n.lo), "ps_floord: -n")?;
                    in_i64(Iv::new(1 + d.lo, -n.lo + d.hi), "ps_floord: -n + d")?;
                }
            } else {
                // n >= 0 ? (n + d - 1) / d : -((-n) / d)
                if n.hi >= 0 {
                    in_i64(Iv::new(d.lo, n.hi + d.hi), "ps_ceild: n + d")?;
                }
                if n.lo < 0 {
                    in_i64(Iv::new(1, -n.lo), "ps_ceild: -n")?;
                }
            }
            let f = if h == Helper::Floord {
                floor_div
            } else {
                ceil_div
            };
            // Monotone in n, and in d for fixed n: the extremes are at the corners.
            let cs = [f(n.lo, d.lo), f(n.lo, d.hi), f(n.hi, d.lo), f(n.hi, d.hi)];
            Ok(Some(Iv::new(
                *cs.iter().min().unwrap_or(&0),
                *cs.iter().max().unwrap_or(&0),
            )))
        }
        Helper::Isqrt | Helper::CeilSqrt | Helper::Iroot | Helper::CeilIroot => {
            let k = match h {
                Helper::Isqrt | Helper::CeilSqrt => {
                    arity(1)?;
                    2
                }
                _ => {
                    arity(2)?;
                    let k = literal(1)?;
                    u32::try_from(k)
                        .ok()
                        .filter(|k| *k >= 2)
                        .ok_or_else(|| format!("{name}: degree {k}"))?
                }
            };
            // The helpers' own arithmetic stays below the argument (s*s <= n, hi <= 2
            // n^(1/k)); a negative argument gives -1 or 0 (even k) or the negated root of
            // its absolute value (odd k), so the result is monotone in the argument.
            let n = sub!(&args[0]);
            if n.lo < -I64_MAX {
                return Err(format!("{name}: argument below -INT64_MAX"));
            }
            let ceil = matches!(h, Helper::CeilSqrt | Helper::CeilIroot);
            let f = |v: i128| {
                if v < 0 {
                    let neg_root = |c: bool| {
                        if c {
                            ceil_root(-v, k)
                        } else if k == 2 {
                            isqrt(-v)
                        } else {
                            iroot(-v, k)
                        }
                    };
                    if k % 2 == 0 {
                        -1 + ceil as i128
                    } else {
                        -neg_root(!ceil)
                    }
                } else if ceil {
                    ceil_root(v, k)
                } else if k == 2 {
                    isqrt(v)
                } else {
                    iroot(v, k)
                }
            };
            Ok(Some(Iv::new(f(n.lo), f(n.hi))))
        }
        Helper::RootSearch => enclose_root_search(args, env),
    }
}

/// `ps_root_search(deg, coeffs, lo, hi, before, ceil)`: the coefficients in `int64_t`,
/// the search's own steps (`lo + 1`, `hi - last`, a step doubling up to twice `hi - lo`,
/// `ans + 1`), and the polynomial in `__int128` at every `y` in `lo + 1 ..= hi`.
fn enclose_root_search(args: &[CAst], env: &[Option<Iv>]) -> Enc {
    macro_rules! sub {
        ($x:expr) => {
            match enclose($x, env)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
    }
    let [_, CAst::Array(cs), lo, hi, _, _] = args else {
        return Err("ps_root_search: unexpected arguments".into());
    };
    let mut coeffs = Vec::with_capacity(cs.len());
    for c in cs {
        coeffs.push(sub!(c));
    }
    let (lo, hi) = (sub!(lo), sub!(hi));
    in_i64(Iv::new(lo.lo, lo.hi + 1), "ps_root_search: lo + 1")?;
    in_i64(Iv::new(hi.lo, hi.hi + 1), "ps_root_search: ans + 1")?;
    let span = (hi.hi - lo.lo).max(0);
    in_i64(
        Iv::new(0, 2 * span + 2),
        "ps_root_search: step (2 (hi - lo))",
    )?;
    // The polynomial is evaluated only when lo < hi, at y in lo+1..=hi.
    if lo.lo < hi.hi {
        let y = Iv::new(lo.lo + 1, hi.hi);
        let overflow = || Err("ps_poly_sign: __int128 Horner step".to_string());
        let Some((last, rest)) = coeffs.split_last() else {
            return Err("ps_root_search: no coefficients".into());
        };
        let mut acc = *last;
        for c in rest.iter().rev() {
            let Some(t) = mul_iv(acc, y) else {
                return overflow();
            };
            match (t.lo.checked_add(c.lo), t.hi.checked_add(c.hi)) {
                (Some(l), Some(h)) => acc = Iv::new(l, h),
                _ => return overflow(),
            }
        }
    }
    Ok(Some(Iv::new(lo.lo, lo.hi.max(hi.hi) + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c_reader::parse_c;

    fn parse(text: &str) -> CAst {
        let names = ["n", "m", "x", "y"];
        parse_c(text, &|s: &str| names.iter().position(|n| *n == s)).unwrap()
    }

    fn enc(text: &str, n: i64) -> Enc {
        let env = vec![
            Some(Iv::new(-(n as i128), n as i128)),
            Some(Iv::new(-(n as i128), n as i128)),
            Some(Iv::new(0, 10)),
            Some(Iv::new(-3, 3)),
        ];
        enclose(&parse(text), &env)
    }

    #[test]
    fn intervals_flag_products_that_leave_int64() {
        // n*n*n overflows once n > 2^21.
        assert!(enc("n*n*n", 1 << 20).is_ok());
        assert!(enc("n*n*n", 1 << 22).is_err());
        // n*m overflows at 2^32.
        assert!(enc("n*m", (1 << 31) - 1).is_ok());
        assert!(enc("n*m", 1 << 32).is_err());
        // A square is not negative.
        assert_eq!(enc("n*n", 4), Ok(Some(Iv::new(0, 16))));
        assert_eq!(enc("-n", 4), Ok(Some(Iv::new(-4, 4))));
        assert!(enc("-n", i64::MAX).is_ok());
    }

    #[test]
    fn helpers_are_enclosed_and_their_inner_steps_checked() {
        // n runs over -100..=100: a negative argument gives -1.
        assert_eq!(enc("ps_isqrt(n)", 100), Ok(Some(Iv::new(-1, 10))));
        assert_eq!(enc("ps_ceil_sqrt(n)", 99), Ok(Some(Iv::new(0, 10))));
        assert_eq!(enc("ps_iroot(n, 3)", 1000), Ok(Some(Iv::new(-10, 10))));
        assert_eq!(enc("ps_floord(n, 2)", 5), Ok(Some(Iv::new(-3, 2))));
        assert_eq!(enc("ps_ceild(n, 2)", 5), Ok(Some(Iv::new(-2, 3))));
        // ps_ceild computes n + d - 1: at n = INT64_MAX it overflows.
        assert!(enc("ps_ceild(n, 2)", i64::MAX).is_err());
        assert!(enc("ps_floord(n, 2)", i64::MAX - 2).is_ok());
        // A root of a negative argument is -1 (even, rounded down), 0 (rounded up) or the
        // real one (odd).
        assert_eq!(enc("ps_isqrt(-1 - x)", 5), Ok(Some(Iv::new(-1, -1))));
        assert_eq!(enc("ps_ceil_sqrt(-1 - x)", 5), Ok(Some(Iv::new(0, 0))));
        assert_eq!(enc("ps_iroot(-8 - n, 3)", 0), Ok(Some(Iv::new(-2, -2))));
        // The 128-bit evaluation of a degree-3 polynomial at y ~ 2^43 leaves __int128.
        let rs = "ps_root_search(3, (const int64_t[]){n, 0, 0, 1}, -n, n, -1, 0)";
        assert!(enc(rs, 1 << 40).is_ok());
        assert!(enc(rs, 1 << 43).is_err());
    }
}
