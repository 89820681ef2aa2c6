//! Square-free decomposition (Yun's algorithm, one variable at a time) and square-free
//! bases of polynomial sets, the input CAD projection needs.

use crate::coeff::Coeff;
use crate::gcd::{content_is_integer, coprime_proven, square_free_proven};
use crate::modular::UnivariateImage;
use crate::poly::Poly;

impl<C: Coeff> Poly<C> {
    /// Square-free decomposition: `self = unit * prod f_i^(m_i)` where `unit` is an integer
    /// (carrying the sign and the integer content) and the `f_i` are square-free, pairwise
    /// coprime, Z-primitive, non-constant and have positive leading coefficients. A
    /// multiplicity may occur more than once (factors found at different variable levels
    /// are kept apart, which only makes the decomposition finer).
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::new();
    /// let f = Poly::parse("-2*(x - 1)^2*(x + 1)", &mut v).unwrap();
    /// let (unit, fs) = f.square_free();
    /// assert_eq!(unit, polys::Int::from(-2));
    /// assert_eq!(fs.len(), 2);
    /// ```
    pub fn square_free(&self) -> (C, Vec<(Poly<C>, u32)>) {
        self.square_free_until(&|| false).expect("never stopped")
    }

    /// [`Poly::square_free`], or `None` as soon as `stop()` says so (asked inside the gcds,
    /// see [`Poly::gcd_until`]).
    #[allow(clippy::type_complexity)]
    pub fn square_free_until(&self, stop: &dyn Fn() -> bool) -> Option<(C, Vec<(Poly<C>, u32)>)> {
        if self.is_zero() {
            return Some((C::zero(), Vec::new()));
        }
        let icont = self.integer_content();
        let unit = if self.leading_sign() < 0 {
            icont.neg()
        } else {
            icont.clone()
        };
        let prim = self.div_scalar_exact(&unit);
        let mut out = Vec::new();
        square_free_rec(prim, &mut out, stop)?;
        Some((unit, out))
    }

    /// The square-free part: the product of the distinct non-constant factors.
    pub fn square_free_part(&self) -> Poly<C> {
        self.square_free()
            .1
            .iter()
            .fold(Poly::one(), |acc, (f, _)| acc.mul(f))
    }
}

/// `p` is Z-primitive with positive leading coefficient.
fn square_free_rec<C: Coeff>(
    p: Poly<C>,
    out: &mut Vec<(Poly<C>, u32)>,
    stop: &dyn Fn() -> bool,
) -> Option<()> {
    let Some(v) = p.main_var() else {
        return Some(());
    };
    // p is Z-primitive, so an integer content is 1 (the usual case: no gcds needed).
    if content_is_integer(&p, v) {
        return yun(p, v, out, stop);
    }
    let c = p.content_until(v, stop)?;
    let pp = if c.is_one() {
        p
    } else {
        square_free_rec(c.clone(), out, stop)?;
        p.div_exact(&c).expect("the content divides its polynomial")
    };
    yun(pp, v, out, stop)
}

/// Yun's square-free decomposition of `p`, primitive in `v` with `deg_v p > 0`.
fn yun<C: Coeff>(
    p: Poly<C>,
    v: usize,
    out: &mut Vec<(Poly<C>, u32)>,
    stop: &dyn Fn() -> bool,
) -> Option<()> {
    let quo =
        |a: &Poly<C>, b: &Poly<C>| a.div_exact(b).expect("Yun: gcd-derived divisors are exact");
    // p is primitive (content 1 in v, integer content 1): proven free of repeated factors,
    // gcd(p, p') = 1 (the usual case, decided without forming p').
    if square_free_proven(&p, v) {
        out.push((p.normalize_sign(), 1));
        return Some(());
    }
    let d = p.derivative(v);
    let a0 = p.gcd_until(&d, stop)?;
    if a0.is_one() {
        // Already square-free (the usual case): no divisions by 1 or by p itself.
        out.push((p.normalize_sign(), 1));
        return Some(());
    }
    let mut b = quo(&p, &a0);
    let mut c = quo(&d, &a0);
    let mut dd = c.sub(&b.derivative(v));
    let mut i = 1;
    while b.degree(v) > 0 {
        let a = b.gcd_until(&dd, stop)?;
        if a.degree(v) > 0 {
            out.push((a.clone().normalize_sign(), i));
        }
        b = quo(&b, &a);
        c = quo(&dd, &a);
        dd = c.sub(&b.derivative(v));
        i += 1;
    }
    Some(())
}

/// A square-free basis of a set of polynomials: non-constant, square-free, pairwise
/// coprime, Z-primitive polynomials with positive leading coefficients, such that every
/// input is an integer times a product of powers of basis elements. Order: as found,
/// duplicates removed.
///
/// ```
/// use polys::{square_free_basis, Poly, Vars};
/// let mut v = Vars::new();
/// let f = Poly::parse("(x - 1)^2*(x + 1)", &mut v).unwrap();
/// let g = Poly::parse("(x + 1)*(x + 2)", &mut v).unwrap();
/// let basis = square_free_basis(&[f, g]);
/// assert_eq!(basis.len(), 3);
/// ```
pub fn square_free_basis<C: Coeff>(polys: &[Poly<C>]) -> Vec<Poly<C>> {
    square_free_basis_until(polys, &|| false).expect("never stopped")
}

/// [`square_free_basis`], or `None` as soon as `stop()` says so (asked between the
/// polynomials and inside every gcd, see [`Poly::gcd_until`]).
pub fn square_free_basis_until<C: Coeff>(
    polys: &[Poly<C>],
    stop: &dyn Fn() -> bool,
) -> Option<Vec<Poly<C>>> {
    let mut basis = Basis {
        polys: Vec::new(),
        images: Vec::new(),
    };
    for p in polys {
        if stop() {
            return None;
        }
        for (f, _) in p.square_free_until(stop)?.1 {
            for g in split_contents(f, stop)? {
                insert_coprime(&mut basis, g, stop)?;
            }
        }
    }
    Some(basis.polys)
}

/// A basis under construction, with the modular image of each element in one variable
/// (computed once, compared with every later candidate).
struct Basis<C: Coeff> {
    polys: Vec<Poly<C>>,
    images: Vec<Option<UnivariateImage>>,
}

/// Splits `f` along its content in every variable (not only the main one): `m^2 - n*m`
/// has content `m` in `n` and splits into `m` and `m - n`. A cheap partial factorisation
/// that gives the projection smaller polynomials and the code simpler bounds.
fn split_contents<C: Coeff>(f: Poly<C>, stop: &dyn Fn() -> bool) -> Option<Vec<Poly<C>>> {
    for v in f.vars() {
        // An integer content is 1 (f is Z-primitive): nothing to split along v.
        if content_is_integer(&f, v) {
            continue;
        }
        let c = f.content_until(v, stop)?;
        if !c.is_constant() {
            // c divides f by construction.
            let rest = f.div_exact(&c).expect("a content divides its polynomial");
            let mut out = split_contents(c.normalize_sign(), stop)?;
            out.extend(split_contents(rest.normalize_sign(), stop)?);
            return Some(out);
        }
    }
    Some(vec![f])
}

/// Adds `f` to a pairwise coprime set, splitting along common factors so the set stays
/// pairwise coprime.
fn insert_coprime<C: Coeff>(
    basis: &mut Basis<C>,
    f: Poly<C>,
    stop: &dyn Fn() -> bool,
) -> Option<()> {
    let mut pending = vec![f];
    while let Some(f) = pending.pop() {
        if f.is_constant() || basis.polys.contains(&f) {
            continue;
        }
        let image = UnivariateImage::of(&f);
        let mut split = None;
        for (i, b) in basis.polys.iter().enumerate() {
            // Proven coprime: the gcd below would be an integer (the usual case).
            let proven = match (&image, &basis.images[i]) {
                (Some(x), Some(y)) => x.coprime(y),
                _ => coprime_proven(&f, b),
            };
            if proven {
                continue;
            }
            let g = f.gcd_until(b, stop)?;
            if !g.is_constant() {
                split = Some((i, g));
                break;
            }
        }
        match split {
            None => {
                basis.polys.push(f);
                basis.images.push(image);
            }
            Some((i, g)) => {
                let b = basis.polys.swap_remove(i);
                basis.images.swap_remove(i);
                // g divides both by construction.
                let exact = |a: &Poly<C>| a.div_exact(&g).expect("gcd divides").normalize_sign();
                pending.push(exact(&b));
                pending.push(exact(&f));
                pending.push(g);
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use crate::{square_free_basis, Poly, Vars};

    #[test]
    fn multivariate_square_free() {
        let mut v = Vars::from_names(["x", "y"]);
        let f = Poly::parse("3*(x - y)^2*(x + y)^3*(x^2 + 1)", &mut v).unwrap();
        let (unit, fs) = f.square_free();
        assert_eq!(unit.to_string(), "3");
        let back = fs
            .iter()
            .fold(Poly::constant(unit), |acc, (g, m)| acc.mul(&g.pow(*m)));
        assert_eq!(back, f);
        let mults: Vec<u32> = fs.iter().map(|(_, m)| *m).collect();
        assert!(mults.contains(&2) && mults.contains(&3));
    }

    #[test]
    fn basis_is_pairwise_coprime() {
        let mut v = Vars::from_names(["x", "y"]);
        let mut p = |s: &str| Poly::parse(s, &mut v).unwrap();
        let set = [
            p("(x - y)*(x + 1)"),
            p("(x + 1)^2*(y - 2)"),
            p("(x - y)*(y - 2)"),
        ];
        let b = square_free_basis(&set);
        assert_eq!(b.len(), 3);
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                assert!(b[i].gcd(&b[j]).is_one());
            }
        }
    }
}
