//! Greatest common divisors in Z[x0, ..., xn]: contents, primitive parts and the
//! recursive subresultant gcd.
//!
//! The gcd works one variable at a time: split off the content (a gcd one variable down),
//! run the subresultant PRS on the primitive parts, and take the primitive part of the last
//! non-zero remainder (Gauss's lemma makes that the gcd of the primitive parts). Results are
//! normalised to a positive leading coefficient, so equal ideals give equal polynomials.

use crate::coeff::Coeff;
use crate::modular::coprime_mod_p;
use crate::poly::Poly;

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
        if self.is_zero() {
            return o.clone().normalize_sign();
        }
        if o.is_zero() || self == o {
            return self.clone().normalize_sign();
        }
        if self.is_constant() || o.is_constant() {
            return Poly::constant(self.integer_content().gcd(&o.integer_content()));
        }
        // Both non-constant, so both have a main variable.
        let v = self.nvars().max(o.nvars()) - 1;
        // Univariate and coprime over Q (the usual case): the gcd is that of the contents.
        if coprime_mod_p(self, o, v) {
            return Poly::constant(self.integer_content().gcd(&o.integer_content()));
        }
        match (self.has_var(v), o.has_var(v)) {
            (true, false) => return self.content(v).gcd(o),
            (false, true) => return self.gcd(&o.content(v)),
            _ => {}
        }
        let (ca, cb) = (self.content(v), o.content(v));
        let c = ca.gcd(&cb);
        let pa = divide(self, &ca);
        let pb = divide(o, &cb);
        let g = primitive_gcd(pa, pb, v);
        c.mul(&g).normalize_sign()
    }

    /// The content with respect to `var`: the gcd of the coefficients of `self` as a
    /// polynomial in `var`, with positive leading coefficient.
    pub fn content(&self, var: usize) -> Poly<C> {
        let mut cs = self.coeffs(var);
        // Small coefficients first: their gcds are cheap and often already trivial.
        cs.sort_by_key(|c| (c.len(), c.total_degree()));
        let mut g = Poly::zero();
        for c in &cs {
            g = g.gcd(c);
            if g.is_one() {
                break;
            }
        }
        g
    }

    /// `self / content(var)`, with the sign of `self` kept.
    pub fn primitive_part(&self, var: usize) -> Poly<C> {
        if self.is_zero() {
            return Poly::zero();
        }
        divide(self, &self.content(var))
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

fn divide<C: Coeff>(a: &Poly<C>, d: &Poly<C>) -> Poly<C> {
    // Invariant: d is a content or gcd of a, hence divides it.
    a.div_exact(d)
        .expect("gcd: a divisor of the polynomial did not divide it")
}

/// Gcd of two polynomials primitive in `v`, both of positive degree in `v`.
fn primitive_gcd<C: Coeff>(a: Poly<C>, b: Poly<C>, v: usize) -> Poly<C> {
    let (mut a, mut b) = (a, b);
    if a.degree(v) < b.degree(v) {
        std::mem::swap(&mut a, &mut b);
    }
    // Cheap exits before the PRS: a specialisation modulo a prime proves the two coprime
    // (the usual case in CAD projection), or one divides the other.
    if coprime_by_specialisation(&a, &b, v) {
        return Poly::one();
    }
    if a.div_exact(&b).is_some() {
        return b.normalize_sign();
    }
    let prs = a.subresultant_prs(&b, v);
    let last = prs.last().expect("the PRS starts with its two arguments");
    if last.degree(v) == 0 {
        Poly::one()
    } else {
        last.primitive_part(v).normalize_sign()
    }
}

/// Substitutes small integers for every variable but `v`; where both leading
/// coefficients in `v` stay non-zero, `deg gcd(a(pt), b(pt)) >= deg_v gcd(a, b)`, so a
/// constant gcd of the specialisations proves `a` and `b` coprime (both primitive in `v`).
/// `false` means "not proven", never "not coprime".
fn coprime_by_specialisation<C: Coeff>(a: &Poly<C>, b: &Poly<C>, v: usize) -> bool {
    let mut others: Vec<usize> = a
        .vars()
        .into_iter()
        .chain(b.vars())
        .filter(|&x| x != v)
        .collect();
    others.sort_unstable();
    others.dedup();
    if others.is_empty() {
        return coprime_mod_p(a, b, v);
    }
    const VALUES: [i64; 6] = [2, -3, 5, 7, -11, 13];
    for attempt in 0..3 {
        // Another point only where a leading coefficient vanished at this one.
        let point: Vec<(usize, C)> = others
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                (
                    x,
                    C::from_i64(VALUES[(i + 2 * attempt) % VALUES.len()] + attempt as i64),
                )
            })
            .collect();
        let (la, lb) = (a.lc(v).partial_eval(&point), b.lc(v).partial_eval(&point));
        if la.is_zero() || lb.is_zero() {
            continue;
        }
        // Several primes failed to separate the images: a common factor is all but
        // certain (CAD projection meets them as squares from resultants), and exact gcds
        // of further specialisations would only repeat the PRS that follows.
        let (sa, sb) = (a.partial_eval(&point), b.partial_eval(&point));
        return coprime_mod_p(&sa, &sb, v);
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
}
