//! Roots bracketed by constant sections: a bound found by bisection between neighbours
//! of the stack that are constants over the whole parent cell (a box bound
//! `-3 <= i <= 5`, a factor `i`) or a quadratic's vertex, chosen where the closed form's
//! `int64_t` arithmetic would overflow for small parameters.
//!
//! The quadratic formula squares its coefficients: a root of `a i^2 + b i + c` whose
//! coefficients have degree 17 in `n` becomes an integer square root of a polynomial of
//! degree 34, which leaves `int64_t` at `n = 3`. Evaluating `a i^2 + b i + c` itself at
//! integers `i` of a constant range needs only the coefficients (in `int64_t`) and the
//! products (in `__int128`, as `ps_root_search` does).

use crate::bounds::{divide, root_of, RootForm, RootSite};
use crate::expr::Expr;
use cad::lift::{Bound, Cell, CellKind};
use cad::sign_at;
use polys::{Coeff, Int, Poly};

/// Bits of headroom the closed form must keep: it stays when its polynomials cannot
/// overflow for every variable in `[-2^KEEP_CLOSED_BITS, 2^KEEP_CLOSED_BITS]` (by
/// [`safe_bits`]), which every bound a person would write does.
pub(crate) const KEEP_CLOSED_BITS: u32 = 12;

/// Root `j` (1-based) of the basis polynomial `f` in `x_k` (`k = site.prefix.len()`) by
/// bisection between separators `L < root < U` with no other root of `f` strictly between
/// them: on each side the nearest section that is a constant over the parent cell, or,
/// for a quadratic whose other root comes first, the vertex `-b / 2a`. `None` where a
/// side has neither, or `f` does not change sign at the root (a root of even
/// multiplicity; bisection needs the sign change).
///
/// The search evaluates `f` at the integers from `floor(L) + 1` up to the last one below
/// `U` (`ceil(U) - 1` for a constant section, which may be a root of `f` itself;
/// `floor(U)` for the vertex, which is not): those left of the root lie in cells between
/// `L` and the root, where `f` has the sign of the cell just below the root's section
/// (sign-invariance of the stack's cells over the parent cell, and no root of `f`
/// between), and those right of it the opposite sign, so that a zero it meets is the
/// root itself.
pub(crate) fn bracketed_search(f: &Poly, j: usize, site: &RootSite) -> Option<RootForm> {
    let k = site.prefix.len();
    let (fi, p) = site.section_of(f, j)?;
    // Coefficients in x_k, without leading ones that vanish on the cell (all of them are
    // then projection factors and vanish on the whole cell), made to lead positively.
    let sign = |q: &Poly| sign_at(q, site.prefix, site.stats).ok();
    let mut coeffs = f.coeffs(k);
    let mut flip = 1;
    while let Some(c) = coeffs.last() {
        match sign(c)? {
            0 => {
                coeffs.pop();
            }
            s => {
                flip = s;
                break;
            }
        }
    }
    if coeffs.len() < 2 {
        return None;
    }
    if flip < 0 {
        coeffs = coeffs.iter().map(Poly::neg).collect();
    }
    // Between two roots of a quadratic lies its vertex -b / 2a (a > 0 now): its floor
    // separates them.
    let vertex = (coeffs.len() == 3).then(|| {
        divide(
            Expr::Poly(coeffs[1].neg()),
            &coeffs[2].scale(&Int::from(2)),
            false,
        )
    });
    // The floor of the nearest constant section among `cells`, or the vertex if a root of
    // `f` comes first (it would lie between the separator and the root).
    let constant = |c: &Cell| match &c.lower {
        Bound::Roots(refs) => refs
            .iter()
            .any(|r| (0..k).all(|v| site.basis[r.poly].degree(v) == 0)),
        _ => false,
    };
    // `above`: the largest integer strictly below the section, not its floor. A constant
    // section may itself be an integer root of `f` (f = i (i^2 + 3i - 1)...: the roots
    // -0.92 and 0), and the search reads a zero at its last integer as the root it
    // looks for being that integer.
    let separator = |cells: &mut dyn Iterator<Item = &Cell>, above: bool| -> Option<Expr> {
        for c in cells.filter(|c| c.kind == CellKind::Section) {
            if constant(c) {
                let end = if above {
                    Int::from(c.sample.ceil()).sub(&Int::from(1))
                } else {
                    Int::from(c.sample.floor())
                };
                return Some(Expr::Poly(Poly::constant(end)));
            }
            if root_of(c, fi).is_some() {
                // Never a root of `f`: the sign change at the root rules out a double one.
                return vertex.clone();
            }
        }
        None
    };
    let lo = separator(&mut site.stack[..p].iter().rev(), false)?;
    let hi = separator(&mut site.stack[p + 1..].iter(), true)?;
    let before = site.sign_before(f, p, flip)?;
    Some(RootForm::Search {
        coeffs,
        lo,
        hi,
        before,
    })
}

/// An estimate of how far the variables may range before evaluating `e` in `int64_t`
/// can overflow: the largest `b` such that every polynomial of `e` has all its terms
/// within `2^62 / (number of terms)` for variables in `[-2^b, 2^b]` (Horner's partial
/// results are sums of such terms divided by powers of the variable). Square roots and
/// divisions only shrink values; the estimate chooses between forms, the exact analysis
/// is [`crate::overflow`].
pub(crate) fn safe_bits(e: &Expr) -> u32 {
    let mut polys = Vec::new();
    e.polys_into(&mut polys);
    polys.into_iter().map(poly_safe_bits).min().unwrap_or(62)
}

fn poly_safe_bits(p: &Poly) -> u32 {
    // ceil(log2(terms)): the bits a sum of that many terms can add.
    let spread = usize::BITS - p.len().saturating_sub(1).leading_zeros();
    p.terms()
        .iter()
        .filter_map(|(m, c)| {
            let d = m.total_degree();
            let room = 62i64 - i64::from(spread) - c.bits() as i64;
            (d > 0).then(|| (room.max(0) / d as i64) as u32)
        })
        .min()
        .unwrap_or(62)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polys::Vars;

    /// Variables in order of appearance: `n` first in every test.
    fn parse(s: &str) -> Poly {
        let mut vars = Vars::new();
        Poly::parse("n", &mut vars).expect("a variable");
        Poly::parse(s, &mut vars).expect("test polynomial")
    }

    #[test]
    fn safe_bits_shrinks_with_degree_and_size() {
        let e = |s: &str| Expr::Poly(parse(s));
        // n - i*i: 2 terms, degree 2: (62 - 1 - 1) / 2.
        assert_eq!(safe_bits(&e("n - i*i")), 30);
        assert_eq!(safe_bits(&e("5")), 62);
        // 65536 n^34: (62 - 0 - 17) / 34.
        assert_eq!(safe_bits(&e("65536*n^34")), 1);
        let sqrt = Expr::Isqrt(parse("65536*n^34 + n"));
        assert_eq!(safe_bits(&Expr::Sum(vec![e("n"), sqrt])), 1);
    }
}
