//! Brown's variable-order heuristic (section 3.3.1 of the seed thesis): eliminate first
//! (place innermost) the variable of lowest degree, breaking ties by the highest total
//! degree of the terms it occurs in, then by the number of terms containing it.

use polys::Poly;

/// Orders `candidates` outermost first, so that the last is eliminated first.
///
/// ```
/// use cad::order::brown_order;
/// use polys::{Poly, Vars};
/// let mut v = Vars::from_names(["x", "y", "z"]);
/// let ps = [Poly::parse("x^2 + y^2 + z - 1", &mut v).unwrap()];
/// assert_eq!(brown_order(&ps, &[0, 1, 2]).last(), Some(&2)); // z is linear: innermost
/// ```
pub fn brown_order(polys: &[Poly], candidates: &[usize]) -> Vec<usize> {
    let key = |v: usize| {
        let mut degree = 0u32;
        let mut tdeg = 0u64;
        let mut terms = 0usize;
        for p in polys {
            for (m, _) in p.terms() {
                let e = m.exp(v);
                if e > 0 {
                    degree = degree.max(e);
                    tdeg = tdeg.max(m.total_degree());
                    terms += 1;
                }
            }
        }
        (degree, tdeg, terms)
    };
    let mut out = candidates.to_vec();
    // Largest key outermost; a stable sort keeps the given order among equals.
    out.sort_by_key(|&v| std::cmp::Reverse(key(v)));
    out
}
