//! Greatest common divisors in Z[x0, ..., xn]: contents, primitive parts and the
//! recursive subresultant gcd.
//!
//! The gcd works one variable at a time: split off the content (a gcd one variable down),
//! run the subresultant PRS on the primitive parts, and take the primitive part of the last
//! non-zero remainder (Gauss's lemma makes that the gcd of the primitive parts). Results are
//! normalised to a positive leading coefficient, so equal ideals give equal polynomials.

use crate::brown::brown_gcd;
use crate::coeff::Coeff;
use crate::modgcd::modular_gcd;
use crate::modres::ModFail;
use crate::modular::{coprime_at_point, coprime_mod_p, only_in, square_free_at_point};
use crate::mono::Mono;
use crate::poly::Poly;
use smallvec::SmallVec;

impl<C: Coeff> Poly<C> {
    /// `self` or `-self`, whichever has a positive leading coefficient.
    pub fn normalize_sign(self) -> Poly<C> {
        if self.leading_sign() < 0 {
            self.neg()
        } else {
            self
        }
    }

    /// Greatest common divisor, with positive leading coefficient; `gcd(0, 0) = 0`.
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::new();
    /// let f = Poly::parse("(x + y)^2*(x - 3)", &mut v).unwrap();
    /// let g = Poly::parse("(x + y)*(x + 3)*6", &mut v).unwrap();
    /// assert_eq!(f.gcd(&g), Poly::parse("x + y", &mut v).unwrap());
    /// ```
    pub fn gcd(&self, o: &Poly<C>) -> Poly<C> {
        self.gcd_until(o, &|| false).expect("never stopped")
    }

    /// [`Poly::gcd`], or `None` as soon as `stop()` says so (asked per prime and per
    /// evaluation point of the modular method, per step of the PRS it falls back to, and
    /// between the gcds of contents).
    pub fn gcd_until(&self, o: &Poly<C>, stop: &dyn Fn() -> bool) -> Option<Poly<C>> {
        gcd_with(self, o, Method::Modular, stop)
    }

    /// The gcd by the primitive subresultant PRS alone, contents included (no modular
    /// method and no coprimality shortcut): the property tests' oracle for [`Poly::gcd`].
    pub fn gcd_prs(&self, o: &Poly<C>) -> Poly<C> {
        gcd_with(self, o, Method::Prs, &|| false).expect("never stopped")
    }

    /// The content with respect to `var`: the gcd of the coefficients of `self` as a
    /// polynomial in `var`, with positive leading coefficient.
    pub fn content(&self, var: usize) -> Poly<C> {
        self.content_until(var, &|| false).expect("never stopped")
    }

    /// [`Poly::content`], or `None` as soon as `stop()` says so (see [`Poly::gcd_until`]).
    pub fn content_until(&self, var: usize, stop: &dyn Fn() -> bool) -> Option<Poly<C>> {
        content_with(self, var, Method::Modular, stop)
    }

    /// `self / content(var)`, with the sign of `self` kept.
    pub fn primitive_part(&self, var: usize) -> Poly<C> {
        self.primitive_part_until(var, &|| false)
            .expect("never stopped")
    }

    /// [`Poly::primitive_part`], or `None` as soon as `stop()` says so.
    pub fn primitive_part_until(&self, var: usize, stop: &dyn Fn() -> bool) -> Option<Poly<C>> {
        if self.is_zero() {
            return Some(Poly::zero());
        }
        Some(divide(self, &self.content_until(var, stop)?))
    }

    /// `self` divided by the gcd of its integer coefficients, with positive leading
    /// coefficient.
    pub fn integer_primitive(&self) -> Poly<C> {
        if self.is_zero() {
            return Poly::zero();
        }
        self.div_scalar_exact(&self.integer_content())
            .normalize_sign()
    }
}

/// How the gcd of two polynomials of positive degree in their main variable is computed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    /// Coprimality shortcuts, then the modular method (univariate: `modgcd`; several
    /// variables: Brown's, `brown`), the PRS only where those give up.
    Modular,
    /// The primitive subresultant PRS alone (the oracle).
    Prs,
}

fn gcd_with<C: Coeff>(
    a: &Poly<C>,
    o: &Poly<C>,
    method: Method,
    stop: &dyn Fn() -> bool,
) -> Option<Poly<C>> {
    if a.is_zero() {
        return Some(o.clone().normalize_sign());
    }
    if o.is_zero() || a == o {
        return Some(a.clone().normalize_sign());
    }
    if a.is_constant() || o.is_constant() {
        return Some(Poly::constant(
            a.integer_content().gcd(&o.integer_content()),
        ));
    }
    let modular = method == Method::Modular;
    // Both non-constant, so both have a main variable.
    let v = a.nvars().max(o.nvars()) - 1;
    let univariate = only_in(a, v) && only_in(o, v);
    if univariate && modular {
        // Coprime over Q (the usual case): the gcd is that of the contents.
        if coprime_at_point(a, o, v, &[]) == Some(true) {
            return Some(Poly::constant(
                a.integer_content().gcd(&o.integer_content()),
            ));
        }
        // Otherwise by the modular method (exact: checked by division), not the PRS.
        if let Some(g) = modular_gcd(&dense_in(a, v), &dense_in(o, v)) {
            let c = a.integer_content().gcd(&o.integer_content());
            let g = Poly::from_terms(
                g.into_iter()
                    .enumerate()
                    .filter(|(_, x)| !x.is_zero())
                    .map(|(e, x)| (Mono::var(v, e as u32), x))
                    .collect(),
            );
            return Some(g.scale(&c));
        }
    } else if !univariate {
        match (a.has_var(v), o.has_var(v)) {
            (true, false) => return gcd_with(&content_with(a, v, method, stop)?, o, method, stop),
            (false, true) => return gcd_with(a, &content_with(o, v, method, stop)?, method, stop),
            _ => {}
        }
        // Both have positive degree in v: the usual coprime case needs no contents or
        // primitive parts.
        if modular && coprime_proven(a, o) {
            return Some(Poly::constant(
                a.integer_content().gcd(&o.integer_content()),
            ));
        }
    }
    let ca = content_with(a, v, method, stop)?;
    let cb = content_with(o, v, method, stop)?;
    let c = gcd_with(&ca, &cb, method, stop)?;
    let pa = divide(a, &ca);
    let pb = divide(o, &cb);
    // In one variable the modular method above has already failed on associates of pa, pb.
    let g = primitive_gcd(pa, pb, v, modular && !univariate, stop)?;
    if g.is_one() {
        // c is a gcd, so already normalised.
        return Some(c);
    }
    Some(c.mul(&g).normalize_sign())
}

fn content_with<C: Coeff>(
    p: &Poly<C>,
    var: usize,
    method: Method,
    stop: &dyn Fn() -> bool,
) -> Option<Poly<C>> {
    if p.is_zero() {
        return Some(Poly::zero());
    }
    if method == Method::Modular && content_is_integer(p, var) {
        return Some(Poly::constant(p.integer_content()));
    }
    let mut cs = p.coeffs(var);
    // Small coefficients first: their gcds are cheap and often already trivial.
    cs.sort_by_key(|c| (c.len(), c.total_degree()));
    let mut g = Poly::zero();
    for c in &cs {
        if stop() {
            return None;
        }
        g = gcd_with(&g, c, method, stop)?;
        if g.is_one() {
            break;
        }
    }
    Some(g)
}

/// The dense coefficients (index = exponent) of a polynomial in `v` alone.
fn dense_in<C: Coeff>(a: &Poly<C>, v: usize) -> Vec<C> {
    let mut c = vec![C::zero(); a.degree(v) as usize + 1];
    for (m, x) in a.terms() {
        c[m.exp(v) as usize] = x.clone();
    }
    c
}

fn divide<C: Coeff>(a: &Poly<C>, d: &Poly<C>) -> Poly<C> {
    // Invariant: d is a content or gcd of a, hence divides it (an integer one divides
    // every coefficient, so the coefficient-wise division is exact).
    match d.constant_value() {
        Some(c) if !c.is_zero() => a.div_scalar_exact(&c),
        _ => a
            .div_exact(d)
            .expect("gcd: a divisor of the polynomial did not divide it"),
    }
}

/// `true` proves that `gcd(a, b)` is an integer (`a`, `b` non-zero), i.e. that the two
/// share no factor of positive degree. With `v` the highest variable of either: a common
/// factor of positive degree in `v` is ruled out by a specialisation (see
/// `coprime_by_specialisation`), and one free of `v` divides both contents in `v`, so it is
/// an integer as soon as one of them is (a polynomial free of `v` is its own content, so
/// the other's must then be an integer). `false`: not proven.
pub(crate) fn coprime_proven<C: Coeff>(a: &Poly<C>, b: &Poly<C>) -> bool {
    let n = a.nvars().max(b.nvars());
    if n == 0 {
        return true;
    }
    let v = n - 1;
    if only_in(a, v) && only_in(b, v) {
        // Polynomials in v alone have integer contents.
        return coprime_at_point(a, b, v, &[]) == Some(true);
    }
    // One of them free of v: a common factor is free of v too, so it divides the other's
    // content in v.
    if !a.has_var(v) {
        return content_is_integer(b, v);
    }
    if !b.has_var(v) {
        return content_is_integer(a, v);
    }
    if !(content_is_integer(a, v) || content_is_integer(b, v)) {
        return false;
    }
    coprime_by_specialisation(a, b, v)
}

/// `true` proves that the content of `p` (non-zero) in `var` is an integer. The content
/// divides every coefficient `c_e` of `p` in `var`, so its degree in any other variable
/// `u` is at most `deg_u c_e` for every `e`; when each other variable is missing from
/// some coefficient, the content has degree 0 in all of them. `false`: not proven.
pub(crate) fn content_is_integer<C: Coeff>(p: &Poly<C>, var: usize) -> bool {
    if p.nvars() > 63 {
        return false;
    }
    // The variables other than `var` that occur in a term.
    let others = |m: &Mono| {
        m.exps()
            .iter()
            .enumerate()
            .filter(|&(u, &k)| k > 0 && u != var)
            .fold(0u64, |acc, (u, _)| acc | 1u64 << u)
    };
    if p.main_var() == Some(var) {
        // The most significant variable: the terms of each coefficient form one run.
        let (mut acc, mut cur, mut run) = (u64::MAX, 0u64, None);
        for (m, _) in p.terms() {
            let e = m.exp(var);
            if run != Some(e) {
                if run.is_some() {
                    acc &= cur;
                    if acc == 0 {
                        return true;
                    }
                }
                run = Some(e);
                cur = 0;
            }
            cur |= others(m);
        }
        return acc & cur == 0;
    }
    // masks[e]: the variables of coefficient e, with bit 63 marking that it occurs.
    const SEEN: u64 = 1 << 63;
    let mut masks: SmallVec<[u64; 8]> = SmallVec::new();
    for (m, _) in p.terms() {
        let e = m.exp(var) as usize;
        if e >= masks.len() {
            masks.resize(e + 1, 0);
        }
        masks[e] |= SEEN | others(m);
    }
    masks
        .iter()
        .filter(|&&b| b != 0)
        .fold(u64::MAX, |acc, &b| acc & b)
        == SEEN
}

/// Gcd of two polynomials primitive in `v`, both of positive degree in `v`.
/// `modular`: whether to try `coprime_by_specialisation` and Brown's modular method first
/// (else the PRS alone).
fn primitive_gcd<C: Coeff>(
    a: Poly<C>,
    b: Poly<C>,
    v: usize,
    modular: bool,
    stop: &dyn Fn() -> bool,
) -> Option<Poly<C>> {
    let (mut a, mut b) = (a, b);
    if a.degree(v) < b.degree(v) {
        std::mem::swap(&mut a, &mut b);
    }
    if modular {
        // Cheap exits first: a specialisation modulo a prime proves the two coprime (the
        // usual case in CAD projection), or one divides the other.
        if coprime_by_specialisation(&a, &b, v) {
            return Some(Poly::one());
        }
        if a.div_exact(&b).is_some() {
            return Some(b.normalize_sign());
        }
        match brown_gcd(&a, &b, v, stop) {
            Ok(g) => return Some(g),
            Err(ModFail::Stopped) => return None,
            Err(ModFail::TooLarge) => {}
        }
    }
    let last = a.prs_last_until(&b, v, stop)?;
    Some(if last.degree(v) == 0 {
        Poly::one()
    } else {
        let method = if modular {
            Method::Modular
        } else {
            Method::Prs
        };
        divide(&last, &content_with(&last, v, method, stop)?).normalize_sign()
    })
}

/// Substitutes small integers for every variable but `v`; where both leading
/// coefficients in `v` stay non-zero, `deg gcd(a(pt), b(pt)) >= deg_v gcd(a, b)`, so a
/// constant gcd of the specialisations proves `a` and `b` coprime (both primitive in `v`).
/// `false` means "not proven", never "not coprime".
fn coprime_by_specialisation<C: Coeff>(a: &Poly<C>, b: &Poly<C>, v: usize) -> bool {
    let n = a.nvars().max(b.nvars());
    let others: Vec<usize> = (0..n)
        .filter(|&x| x != v && (a.has_var(x) || b.has_var(x)))
        .collect();
    if others.is_empty() {
        return coprime_mod_p(a, b, v);
    }
    // The images are taken modulo word-sized primes straight from the terms (see
    // `coprime_at_point`). A prime failing to separate the images at a point where the
    // degrees are kept: a common factor is all but certain (CAD projection meets them as
    // squares from resultants), and further points would only repeat the PRS that follows.
    at_points(n, &others, |point| coprime_at_point(a, b, v, point))
}

/// `true` proves that `p` (primitive in `v`, of positive degree in `v`) has no repeated
/// factor of positive degree in `v`, so that `gcd(p, dp/dv) = 1`: a square `h^2` dividing
/// `p` with `deg_v h > 0` would leave a square of the same degree in the image at a point
/// where `lc_v(p)` survives (see `square_free_at_point`). Over Q a common factor of `p` and
/// its derivative of positive degree in `v` is always such a square, and a common factor
/// free of `v` divides the content, 1. `false`: not proven.
pub(crate) fn square_free_proven<C: Coeff>(p: &Poly<C>, v: usize) -> bool {
    let n = p.nvars();
    let others: Vec<usize> = (0..n).filter(|&x| x != v && p.has_var(x)).collect();
    if others.is_empty() {
        return square_free_at_point(p, v, &[]) == Some(true);
    }
    at_points(n, &others, |point| square_free_at_point(p, v, point))
}

/// Runs `test` at up to three integer points (values for the variables `others`, 0 for
/// the rest of `0..n`), moving on only while it has no answer.
fn at_points(n: usize, others: &[usize], test: impl Fn(&[i64]) -> Option<bool>) -> bool {
    const VALUES: [i64; 6] = [2, -3, 5, 7, -11, 13];
    let mut point = vec![0i64; n];
    for attempt in 0..3 {
        // Another point only where a leading coefficient vanished at this one.
        for (i, &x) in others.iter().enumerate() {
            point[x] = VALUES[(i + 2 * attempt) % VALUES.len()] + attempt as i64;
        }
        if let Some(answer) = test(&point) {
            return answer;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::{Poly, Vars};

    #[test]
    fn gcd_cases() {
        let mut v = Vars::from_names(["x", "y", "z"]);
        let mut p = |s: &str| Poly::parse(s, &mut v).unwrap();
        let a = p("(x*y - z)*(x + 1)^2*(2y + z)");
        let b = p("(x*y - z)*(x + 1)*(y - z)*4");
        assert_eq!(a.gcd(&b), p("(x*y - z)*(x + 1)").normalize_sign());
        assert_eq!(p("6x + 4").gcd(&p("9x + 6")), p("3x + 2"));
        assert_eq!(p("6").gcd(&p("-4x")), p("2"));
        assert_eq!(p("-x").gcd(&Poly::zero()), p("x"));
        assert_eq!(p("x^2*y + x").content(1), p("x"));
        assert_eq!(p("-2x^2*y - 2x").primitive_part(1), p("-x*y - 1"));
    }

    #[test]
    fn shortcuts_prove_only_what_holds() {
        use super::{content_is_integer, coprime_proven, square_free_proven};
        let mut v = Vars::from_names(["x", "y", "z"]);
        let mut p = |s: &str| Poly::parse(s, &mut v).unwrap();
        // Contents in y: x*z divides every coefficient of the first; the others have a
        // coefficient free of x and one free of z.
        assert!(!content_is_integer(&p("x*z*y^2 + x^2*z"), 1));
        assert!(content_is_integer(&p("x*y^2 + z"), 1));
        assert!(content_is_integer(&p("6*y^2 + 4"), 1));
        // In a variable that is not the main one (coefficients in z are not runs).
        assert!(!content_is_integer(&p("x*z^2 + x*y"), 1));
        assert!(content_is_integer(&p("x*z^2 + y"), 1));
        // Coprimality: proven for coprime pairs, never for a common factor.
        assert!(coprime_proven(&p("y^2 + x"), &p("y - x*z")));
        assert!(coprime_proven(&p("x - 1"), &p("y - 1")));
        assert!(!coprime_proven(&p("(y - x)*(y + 1)"), &p("(y - x)*z")));
        assert!(!coprime_proven(&p("x*y + x"), &p("x*z")));
        // Square-freeness in the main variable.
        assert!(square_free_proven(&p("y^2 - x"), 1));
        assert!(!square_free_proven(&p("(y - x)^2*(y + z)"), 1));
        assert!(!square_free_proven(&p("(x - 3)^2*(x + 1)"), 0));
    }
}
