//! The Sturm sequence of a polynomial specialised at a sample point, built from signs at
//! the point alone: the number of distinct real roots of `g(sample, x_k)`, in all and in
//! an interval with rational ends. Lifting over an algebraic sample settles candidate roots
//! of its eliminant by these counts (a candidate's isolating interval holds one root of the
//! eliminant, so `g` has one root there or none) instead of exact zero proofs at a point
//! with one algebraic coordinate more, whose resultants have the degree of the eliminant
//! times that of the sample's defining polynomials.
//!
//! Sturm's theorem holds over any real closed field: for `h = g(sample, x)`, the sequence
//! `S_0 = h`, `S_1 = h'`, `S_(i+1) = -rem(S_(i-1), S_i)` up to positive factors, ending at
//! the last non-zero member, gives for `a < b` with `h(a) h(b) != 0` the number of distinct
//! roots of `h` in `(a, b)` as `V(a) - V(b)` (sign variations, zeros dropped). Here each
//! member is a polynomial over Z in the sample's variables and `x_k`, whose leading
//! coefficients that vanish at the sample are dropped (so its degree is that of the
//! specialisation), computed by pseudo-remainders whose factor `lc^(d + 1)` has a sign
//! known at the sample, and divided by its content in the lower variables (a factor of
//! known, non-zero sign there) to keep it small.

use crate::error::CadError;
use crate::sign::subst_rationals;
use polys::{Poly, Rat};

/// The members of the Sturm sequence of `g(sample, x_k)`, each with the sign of its
/// leading coefficient at the sample; degrees in `x_k` strictly decreasing.
#[derive(Clone, Debug)]
pub(crate) struct SturmSequence {
    k: usize,
    members: Vec<(Poly, i32)>,
}

/// The sign at the sample of a polynomial in the lower variables.
pub(crate) type SignAtSample<'a> = dyn FnMut(&Poly) -> Result<i32, CadError> + 'a;

/// `p` without the leading coefficients in `x_k` that vanish at the sample, and the sign of
/// the new leading coefficient there (0 for the zero polynomial).
fn trim(p: &Poly, k: usize, sign: &mut SignAtSample) -> Result<(Poly, i32), CadError> {
    let mut cs = p.coeffs(k);
    while let Some(c) = cs.last() {
        let s = sign(c)?;
        if s != 0 {
            return Ok((Poly::from_coeffs(k, &cs), s));
        }
        cs.pop();
    }
    Ok((Poly::zero(), 0))
}

impl SturmSequence {
    /// The sequence of `g(sample, x_k)`, where `sign` gives signs at the sample of
    /// polynomials in `x_0 .. x_(k-1)`; `None` once `stop()` says so (asked at each step).
    /// `g` must not vanish identically at the sample.
    pub(crate) fn new(
        g: &Poly,
        k: usize,
        sign: &mut SignAtSample,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<SturmSequence>, CadError> {
        let (h, s) = trim(g, k, sign)?;
        if s == 0 {
            return Err(CadError::Invariant(
                "a Sturm sequence of a polynomial that vanishes at the sample",
            ));
        }
        let mut members = vec![(h.clone(), s)];
        if h.degree(k) > 0 {
            // The derivative's leading coefficient is deg h times h's: same sign.
            members.push((h.derivative(k), s));
        }
        while members.len() >= 2 && members[members.len() - 1].0.degree(k) > 0 {
            if stop() {
                return Ok(None);
            }
            let (a, _) = &members[members.len() - 2];
            let (b, sb) = &members[members.len() - 1];
            let delta = a.degree(k) - b.degree(k);
            // prem = lc(b)^(delta + 1) rem(a, b); -rem up to the positive factor
            // |lc(b)|^(delta + 1) is -sign(lc(b))^(delta + 1) prem.
            let r = a.prem(b, k);
            let r = if *sb > 0 || delta % 2 == 1 {
                r.neg()
            } else {
                r
            };
            let (r, sr) = trim(&r, k, sign)?;
            if sr == 0 {
                break;
            }
            let r = match r.content_until(k, stop) {
                None => return Ok(None),
                // The content divides the leading coefficient, which does not vanish at
                // the sample: neither does it, and dividing by it with its sign there is
                // a positive factor.
                Some(c) if !c.is_constant() => {
                    let q = r
                        .div_exact(&c)
                        .ok_or(CadError::Invariant("the content divides the polynomial"))?;
                    if sign(&c)? < 0 {
                        q.neg()
                    } else {
                        q
                    }
                }
                Some(_) => {
                    let c = r.integer_content();
                    r.div_scalar_exact(&polys::Coeff::abs(&c))
                }
            };
            // Dividing by the content kept the sign of the leading coefficient up to the
            // sign applied: ask again (cheap; intervals settle a known non-zero sign).
            let s = sign(&r.lc(k))?;
            members.push((r, s));
        }
        Ok(Some(SturmSequence { k, members }))
    }

    /// Sign variations of the members' signs `signs` (zeros dropped).
    fn variations(signs: impl Iterator<Item = i32>) -> usize {
        let mut last = 0;
        let mut v = 0;
        for s in signs.filter(|&s| s != 0) {
            if last != 0 && s != last {
                v += 1;
            }
            last = s;
        }
        v
    }

    /// The number of distinct real roots of `g(sample, x_k)`, from the signs at -oo and
    /// +oo, which the leading coefficients give.
    pub(crate) fn real_roots(&self) -> usize {
        let k = self.k;
        let at_minus =
            Self::variations(
                self.members
                    .iter()
                    .map(|(p, s)| if p.degree(k) % 2 == 1 { -s } else { *s }),
            );
        let at_plus = Self::variations(self.members.iter().map(|(_, s)| *s));
        at_minus.saturating_sub(at_plus)
    }

    /// The variations at `x_k = t`.
    fn variations_at(&self, t: &Rat, sign: &mut SignAtSample) -> Result<usize, CadError> {
        let mut signs = Vec::with_capacity(self.members.len());
        for (p, _) in &self.members {
            // Clearing the denominator of t multiplies by a positive factor.
            signs.push(sign(&subst_rationals(p, &[(self.k, t)]))?);
        }
        Ok(Self::variations(signs.into_iter()))
    }

    /// The number of distinct roots of `g(sample, x_k)` in the open interval `(lo, hi)`;
    /// `lo < hi` must be no roots of it.
    pub(crate) fn roots_between(
        &self,
        lo: &Rat,
        hi: &Rat,
        sign: &mut SignAtSample,
    ) -> Result<usize, CadError> {
        let a = self.variations_at(lo, sign)?;
        let b = self.variations_at(hi, sign)?;
        a.checked_sub(b).ok_or(CadError::Invariant(
            "Sturm variations do not decrease from lo to hi",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebraic::Algebraic;
    use crate::sign::{sign_at, SignStats};
    use crate::upoly::UPoly;
    use polys::{Int, Vars};

    /// A small deterministic generator (splitmix64), so that failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + (self.next() % (hi - lo + 1) as u64) as i64
        }
    }

    /// A polynomial in x0 of degree at most `d` with small coefficients.
    fn random_in_x(rng: &mut Rng, d: u32) -> Poly {
        let mut p = Poly::zero();
        for e in 0..=d {
            let c = Poly::constant(Int::from(rng.range(-3, 3)));
            p = p.add(&c.mul(&Poly::var(0).pow(e)));
        }
        p
    }

    /// `g(x0, y)` (y = x1) of degree 2 to 4 in y, often with a multiple root over some x0
    /// by construction: `c (y - a(x0))^2 (y - b(x0)) + e(x0)` and the like.
    fn random_g(rng: &mut Rng) -> Poly {
        let y = Poly::var(1);
        let a = y.sub(&random_in_x(rng, 2));
        let b = y.sub(&random_in_x(rng, 1));
        let c = Poly::constant(Int::from(rng.range(1, 3)));
        let base = match rng.range(0, 3) {
            0 => a.mul(&a).mul(&b),
            1 => a.mul(&a),
            2 => a.mul(&a).mul(&b).mul(&b),
            _ => a.mul(&b).mul(&y.sub(&random_in_x(rng, 2))),
        };
        let tail = match rng.range(0, 2) {
            0 => Poly::zero(),
            _ => random_in_x(rng, 2)
                .mul(&Poly::var(0).sub(&Poly::constant(Int::from(rng.range(-2, 2))))),
        };
        base.mul(&c).add(&tail)
    }

    /// Over real roots of random quadratics and cubics in x0: every candidate (real root
    /// of the eliminant `Res_x0(g, m)`) is a root of `g(alpha, y)` exactly when the count
    /// in its isolating interval is 1, with the exact sign cascade at `(alpha, beta)` as
    /// the oracle; the total count is the number of candidates that are roots.
    #[test]
    fn counts_match_exact_zero_proofs() {
        let mut rng = Rng(23);
        let stats = SignStats::new();
        let mut vars = Vars::from_names(["x", "y"]);
        let defining = [
            "x^2 - 2",
            "x^2 - 3",
            "x^3 - 3*x - 1",
            "x^3 - 2",
            "2*x^2 - 3*x - 1",
            "x^3 - x - 1",
        ]
        .map(|t| UPoly::from_poly(&Poly::parse(t, &mut vars).unwrap(), 0).unwrap());
        let (mut roots_seen, mut non_roots_seen, mut multiple) = (0, 0, 0);
        for case in 0..120 {
            let g = random_g(&mut rng);
            let m = &defining[case % defining.len()];
            let r = g.resultant(&m.to_poly(0), 0);
            if r.is_zero() {
                continue;
            }
            let r = UPoly::from_poly(&r, 1).unwrap();
            if r.degree() == 0 {
                continue;
            }
            let candidates = Algebraic::roots_of(&r).unwrap();
            for alpha in Algebraic::roots_of(m).unwrap() {
                let prefix = [alpha.clone()];
                let mut sign = |p: &Poly| sign_at(p, &prefix, &stats);
                let lc = sign(&g.lc(1)).unwrap();
                if lc == 0 && g.coeffs(1).iter().all(|c| sign(c).unwrap() == 0) {
                    continue;
                }
                let seq = SturmSequence::new(&g, 1, &mut sign, &|| false)
                    .unwrap()
                    .expect("never stopped");
                let mut roots = 0;
                for beta in &candidates {
                    let is_root = sign_at(&g, &[alpha.clone(), beta.clone()], &stats).unwrap() == 0;
                    roots += usize::from(is_root);
                    if let Algebraic::Root(b) = beta {
                        let n = seq.roots_between(b.lo(), b.hi(), &mut sign).unwrap();
                        assert_eq!(n == 1, is_root, "case {case}: g = {g:?}, {alpha} {beta}");
                        assert!(n <= 1, "case {case}");
                        if is_root {
                            roots_seen += 1;
                            // A root of g that the sign change cannot see: even multiplicity.
                            let d = g.derivative(1);
                            let at = [alpha.clone(), beta.clone()];
                            multiple += usize::from(sign_at(&d, &at, &stats).unwrap() == 0);
                        } else {
                            non_roots_seen += 1;
                        }
                    }
                }
                assert_eq!(seq.real_roots(), roots, "case {case}: g = {g:?} at {alpha}");
            }
        }
        assert!(roots_seen > 50, "{roots_seen}");
        assert!(non_roots_seen > 50, "{non_roots_seen}");
        assert!(multiple > 10, "{multiple}");
    }

    /// At integer points the count in every interval between consecutive integers and in
    /// all matches root isolation of the specialised polynomial.
    #[test]
    fn counts_at_integer_points_match_isolation() {
        let mut rng = Rng(7);
        let stats = SignStats::new();
        for case in 0..200 {
            let g = random_g(&mut rng);
            let x = Algebraic::from(rng.range(-3, 3));
            let prefix = [x.clone()];
            let mut sign = |p: &Poly| sign_at(p, &prefix, &stats);
            let h = g.subst_int(0, x.to_rational().unwrap().numer());
            let u = UPoly::from_poly(&h, 1).unwrap();
            if u.is_zero() {
                continue;
            }
            let roots = Algebraic::roots_of(&u).unwrap();
            let seq = SturmSequence::new(&g, 1, &mut sign, &|| false)
                .unwrap()
                .expect("never stopped");
            assert_eq!(seq.real_roots(), roots.len(), "case {case}: {g:?} at {x}");
            // Quarter-integer intervals whose ends are no roots.
            for a in -40..40 {
                let (lo, hi) = (Rat::ratio(a, 4), Rat::ratio(a + 1, 4));
                if u.sign_at(&lo) == 0 || u.sign_at(&hi) == 0 {
                    continue;
                }
                let want = roots
                    .iter()
                    .filter(|r| {
                        Algebraic::Rational(lo.clone()) < **r
                            && **r < Algebraic::Rational(hi.clone())
                    })
                    .count();
                let got = seq.roots_between(&lo, &hi, &mut sign).unwrap();
                assert_eq!(got, want, "case {case}: {g:?} at {x}, ({lo}, {hi})");
            }
        }
    }
}
