//! Roots bracketed by constant sections: a bound found by bisection between neighbours
//! of the stack that are constants over the whole parent cell (a box bound
//! `-3 <= i <= 5`, a factor `i`), a quadratic's vertex or a cubic's critical points
//! (themselves searched), chosen where the closed form's `int64_t` arithmetic would
//! overflow for small parameters or where a root of degree 3 has no closed form.
//!
//! The quadratic formula squares its coefficients: a root of `a i^2 + b i + c` whose
//! coefficients have degree 17 in `n` becomes an integer square root of a polynomial of
//! degree 34, which leaves `int64_t` at `n = 3`. Evaluating `a i^2 + b i + c` itself at
//! integers `i` of a constant range needs only the coefficients (in `int64_t`) and the
//! products (in `__int128`, as `ps_root_search` does).

use crate::bounds::{divide, root_of, RootForm, RootSite, Round};
use crate::expr::Expr;
use cad::lift::{Bound, Cell, CellKind};
use polys::{Coeff, Int, Poly};

/// Bits of headroom the closed form must keep: it stays when its polynomials cannot
/// overflow for every variable in `[-2^KEEP_CLOSED_BITS, 2^KEEP_CLOSED_BITS]` (by
/// [`safe_bits`]), which every bound a person would write does.
pub(crate) const KEEP_CLOSED_BITS: u32 = 12;

/// Root `j` (1-based) of the basis polynomial `f` in `x_k` (`k = site.prefix.len()`) by
/// bisection between separators `L < root < U` with no other root of `f` strictly between
/// them: on each side the nearest section that is a constant over the parent cell, or,
/// where another root of `f` comes first, the vertex `-b / 2a` of a quadratic or the
/// critical point of a cubic between the two roots. A cubic's double root (no sign
/// change) is the critical point itself, searched on `f'`. `None` where a side has
/// none of these, or `f` of another degree does not change sign at the root (bisection
/// needs the sign change).
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
    let (coeffs, flip) = site.leading_positive(f).ok()?;
    if coeffs.len() < 2 {
        return None;
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
    let constant = |c: &Cell| match &c.lower {
        Bound::Roots(refs) => refs
            .iter()
            .any(|r| (0..k).all(|v| site.basis[r.poly].degree(v) == 0)),
        _ => false,
    };
    // The search's end at a constant section: below the root its floor, above it the
    // largest integer strictly below it (it may itself be an integer root of `f`,
    // f = i (i^2 + 3i - 1)...: the roots -0.92 and 0, and the search would read a zero at
    // its last integer as the root it looks for).
    let end = |c: &Cell, above: bool| {
        Expr::Poly(Poly::constant(if above {
            Int::from(c.sample.ceil()).sub(&Int::from(1))
        } else {
            Int::from(c.sample.floor())
        }))
    };
    let sections = |range: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
        range
            .filter(|&q| site.stack[q].kind == CellKind::Section)
            .collect()
    };
    // Walking away from the root over the sections at `qs`: the end at the first constant
    // one, or `Err` with the position of a root of `f` met first.
    let nearest = |qs: &[usize], above: bool| -> Option<Result<Expr, usize>> {
        qs.iter().find_map(|&q| {
            let c = &site.stack[q];
            if constant(c) {
                Some(Ok(end(c, above)))
            } else {
                root_of(c, fi).map(|_| Err(q))
            }
        })
    };
    // The end at the first constant section below (above) stack position `q`, past any
    // roots of `f`.
    let below = |q: usize| {
        let qs = sections(&mut (0..q).rev());
        qs.iter()
            .map(|&q| &site.stack[q])
            .find(|c| constant(c))
            .map(|c| end(c, false))
    };
    let above = |q: usize| {
        let qs = sections(&mut (q + 1..site.stack.len()));
        qs.iter()
            .map(|&q| &site.stack[q])
            .find(|c| constant(c))
            .map(|c| end(c, true))
    };
    // A critical point of a cubic: the roots c1 < v0 < c2 of `f'` (v0 = -b / 3a, the root
    // of `f''`), each found by a search on `f'` between v0 and a constant section beyond
    // the stack position `at` (`f' > 0` left of c1 and right of c2, `< 0` between them).
    let critical = |first: bool, at: usize| -> Option<RootForm> {
        let v0 = divide(
            Expr::Poly(coeffs[2].neg()),
            &coeffs[3].scale(&Int::from(3)),
            false,
        );
        let (lo, hi, before) = if first {
            (below(at)?, v0, 1)
        } else {
            (v0, above(at)?, -1)
        };
        Some(RootForm::Search {
            coeffs: (1..4)
                .map(|e| coeffs[e].scale(&Int::from(e as i64)))
                .collect(),
            lo,
            hi,
            before,
        })
    };
    // Between two roots of `f` lies a root of `f'` (Rolle), never a root of `f` (the sign
    // change at the root rules out a double one): its floor separates them. A quadratic's
    // is its vertex. A cubic with three real roots has r1 < c1 < r2 < c2 < r3; with a
    // simple root s and a double one d (itself a critical point) s < c1 < d = c2 or
    // d = c1 < c2 < s, where c1 = d separates them as well (the search starts right of
    // it). So a pair whose lower root is the first is separated by c1, any other by c2.
    let between = |lower: usize| -> Option<Expr> {
        match coeffs.len() {
            3 => vertex.clone(),
            4 => Some(critical(root_of(&site.stack[lower], fi)? == 1, lower)?.bound(Round::Upper)),
            _ => None,
        }
    };
    let Some(before) = site.sign_before(f, p, flip) else {
        // No sign change: a double root of a cubic (f has two real roots, d and a simple
        // one), which is the critical point on its side: c1 if it comes first, else c2,
        // both simple roots of `f'`, found by its search.
        if coeffs.len() != 4 || site.nroots[fi] != 2 {
            return None;
        }
        return critical(j == 1, p);
    };
    let lo = match nearest(&sections(&mut (0..p).rev()), false)? {
        Ok(e) => e,
        Err(q) => between(q)?,
    };
    let hi = match nearest(&sections(&mut (p + 1..site.stack.len())), true)? {
        Ok(e) => e,
        Err(_) => between(p)?,
    };
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
