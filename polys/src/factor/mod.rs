//! Factorisation over Z.
//!
//! Univariate polynomials factor into irreducibles by the Berlekamp-Zassenhaus scheme:
//! square-free decomposition over Z, then for each square-free part a prime p that keeps
//! it square-free and of full degree, a factorisation modulo p ([`cantor_zassenhaus`]),
//! Hensel lifting to a power of p beyond a coefficient bound ([`hensel`]), and
//! recombination of the lifted factors into true factors ([`recombine`]).
//!
//! Multivariate square-free factors are returned as they are (square-free and pairwise
//! coprime, not necessarily irreducible).

mod cantor_zassenhaus;
mod hensel;
mod recombine;
mod zm;
mod zp;

use crate::coeff::Coeff;
use crate::int::Int;
use crate::poly::Poly;
use recombine::Dense;
use zm::Zm;
use zp::{degree, Zp, ZpPoly};

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
///
/// ```
/// use polys::{factor, Poly, Vars};
/// let mut v = Vars::new();
/// let f = Poly::parse("2x^5 - 2x", &mut v).unwrap();
/// let fs = factor(&f);
/// assert_eq!(fs.unit, polys::Int::from(2));
/// let texts: Vec<String> = fs.factors.iter().map(|(g, _)| g.to_text(&v)).collect();
/// assert_eq!(texts, ["x", "x - 1", "x + 1", "x^2 + 1"]);
/// ```
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

/// Irreducible factors over Z of `f`, which should be square-free, Z-primitive, with
/// positive leading coefficient, and involve only `var`. Sorted by degree, then by terms.
///
/// Outside that contract nothing panics: the integer content and sign are dropped, a
/// repeated factor is listed as often as it occurs, and a polynomial involving another
/// variable comes back unchanged.
pub fn factor_univariate(f: &Poly, var: usize) -> Vec<Poly> {
    let Some(dense) = to_dense(f, var) else {
        return vec![f.clone()];
    };
    let mut out: Vec<Poly> = factor_dense(&dense)
        .iter()
        .map(|g| from_dense(g, var))
        .collect();
    out.sort_by(|a, b| (a.degree(var), a).cmp(&(b.degree(var), b)));
    out
}

fn to_dense(f: &Poly, var: usize) -> Option<Dense> {
    f.coeffs(var).iter().map(Poly::constant_value).collect()
}

fn from_dense(g: &[Int], var: usize) -> Poly {
    let cs: Vec<Poly> = g.iter().map(|c| Poly::constant(c.clone())).collect();
    Poly::from_coeffs(var, &cs)
}

/// Irreducible factors (primitive, positive leading coefficient) of the primitive part of
/// `f`.
fn factor_dense(f: &[Int]) -> Vec<Dense> {
    let f = recombine::primitive_part(f);
    let mut out = Vec::new();
    // Powers of x come off first: the rest then has f(0) != 0, which the recombination's
    // constant-term filter relies on.
    let zeros = f.iter().take_while(|c| c.is_zero()).count();
    for _ in 0..zeros {
        out.push(vec![Int::from(0), Int::from(1)]);
    }
    let f = f[zeros..].to_vec();
    match f.len() {
        0 | 1 => {}
        2 => out.push(f),
        _ => out.extend(zassenhaus(&f)),
    }
    out
}

/// Products of the irreducible factors of each degree, with that degree.
type DistinctDegree = Vec<(ZpPoly, usize)>;

/// What the search for a good prime found out about `f`.
enum PrimeChoice {
    /// Irreducible modulo some prime of good reduction, hence over Z.
    Irreducible,
    /// The prime with the fewest modular factors, and the distinct-degree splitting there.
    Prime(Zp, DistinctDegree),
    /// `f` has a repeated factor over Z.
    NotSquareFree,
}

/// How many primes of good reduction to compare; each costs one distinct-degree
/// factorisation, and fewer modular factors make recombination cheaper.
const PRIMES_COMPARED: usize = 4;

/// Unlucky primes tolerated before checking over Z that `f` is square-free at all.
const UNLUCKY_BEFORE_CHECK: usize = 24;

/// Picks a prime p not dividing lc(f) with `f mod p` square-free.
fn choose_prime(f: &[Int]) -> PrimeChoice {
    let lc = f.last().expect("choose_prime: f is non-constant");
    // The fewest modular factors so far, with their prime and distinct-degree splitting.
    let mut best: Option<(usize, Zp, DistinctDegree)> = None;
    let (mut lucky, mut unlucky) = (0, 0);
    let mut p = 2;
    while lucky < PRIMES_COMPARED {
        p = next_prime(p);
        if p >= 1 << 31 {
            break;
        }
        if unlucky == UNLUCKY_BEFORE_CHECK && best.is_none() && !is_square_free(f) {
            return PrimeChoice::NotSquareFree;
        }
        let field = Zp::new(p);
        if field.reduce(lc) == 0 {
            unlucky += 1;
            continue;
        }
        let fp = field.monic(&field.reduce_poly(f));
        if degree(&field.gcd(&fp, &field.derivative(&fp))) > 0 {
            unlucky += 1;
            continue;
        }
        lucky += 1;
        let ddf = cantor_zassenhaus::distinct_degree(&fp, field);
        let count = cantor_zassenhaus::factor_count(&ddf);
        if count == 1 {
            return PrimeChoice::Irreducible;
        }
        if best.as_ref().is_none_or(|(c, _, _)| count < *c) {
            best = Some((count, field, ddf));
        }
        // Two modular factors leave recombination nothing to search.
        if count == 2 {
            break;
        }
    }
    match best {
        Some((_, field, ddf)) => PrimeChoice::Prime(field, ddf),
        // Only reachable if every prime below 2^31 divides the discriminant or lc(f):
        // impossible for any polynomial that fits in memory.
        None => PrimeChoice::Irreducible,
    }
}

fn next_prime(p: u64) -> u64 {
    let mut q = p + 1;
    while (2..q)
        .take_while(|d| d * d <= q)
        .any(|d| q.is_multiple_of(d))
    {
        q += 1;
    }
    q
}

fn is_square_free(f: &[Int]) -> bool {
    let g = from_dense(f, 0);
    g.gcd(&g.derivative(0)).degree(0) == 0
}

/// Irreducible factors of a primitive `f` of degree >= 2 with positive leading
/// coefficient and `f(0) != 0`.
fn zassenhaus(f: &Dense) -> Vec<Dense> {
    let (field, ddf) = match choose_prime(f) {
        PrimeChoice::Irreducible => return vec![f.clone()],
        PrimeChoice::Prime(field, ddf) => (field, ddf),
        PrimeChoice::NotSquareFree => return factor_with_multiplicity(f),
    };
    let modular = cantor_zassenhaus::factor_from_ddf(&ddf, field);
    let mut out = Vec::new();
    let mut f = f.clone();
    let mut modular = modular;
    // Past a word-sized modulus, lifting runs on big integers. Factors that stay
    // irreducible modulo p usually show at a word-sized modulus already, so look for
    // those first, and lift only what remains to the full bound.
    if recombine::coefficient_bound_bits(&f) > WORD_BITS {
        let ring = Zm::new(power_below(field, WORD_BITS));
        let lifted = lift_monic(&f, &modular, field, &ring);
        let (found, rest, cofactor) = recombine::single_factors(&f, &lifted, &ring);
        if !found.is_empty() {
            out.extend(found);
            modular = rest.iter().map(|&i| modular[i].clone()).collect();
            f = cofactor;
            if modular.len() <= 1 {
                // One modular factor left: irreducible. None: the cofactor is 1.
                if f.len() >= 2 {
                    out.push(f);
                }
                return out;
            }
        }
    }
    let ring = Zm::new(power_beyond(field, recombine::coefficient_bound_bits(&f)));
    let lifted = lift_monic(&f, &modular, field, &ring);
    out.extend(recombine::recombine(&f, lifted, &ring));
    out
}

/// Bits of the largest modulus whose residues keep [`Zm`] on its machine-word path.
const WORD_BITS: u64 = 62;

/// The largest power of p below 2^bits (p itself at least).
fn power_below(field: Zp, bits: u64) -> Int {
    let p = Int::from(field.modulus() as i64);
    let mut m = p.clone();
    loop {
        let next = &m * &p;
        if next.bits() > bits {
            return m;
        }
        m = next;
    }
}

/// The least power of p that is at least 2^bits.
fn power_beyond(field: Zp, bits: u64) -> Int {
    let p = Int::from(field.modulus() as i64);
    let mut m = p.clone();
    while m.bits() <= bits {
        m = &m * &p;
    }
    m
}

/// Monic factors of `f` modulo m (`ring`), lifted from its monic factors modulo p.
fn lift_monic(f: &[Int], modular: &[ZpPoly], field: Zp, ring: &Zm) -> Vec<zm::ZmPoly> {
    let lc = f.last().expect("zassenhaus: f is non-constant");
    let lc_inv = ring
        .inv(lc)
        .expect("the chosen prime does not divide lc(f), so lc(f) is a unit mod p^k");
    // The lifted factors are monic, so lift f / lc(f), which is monic modulo p^k.
    let target = ring.scale(&ring.reduce_poly(f), &lc_inv);
    hensel::lift(&target, modular, field, ring)
}

/// Irreducible factors of a non-square-free `f`, each repeated by its multiplicity.
fn factor_with_multiplicity(f: &[Int]) -> Vec<Dense> {
    let (_, parts) = from_dense(f, 0).square_free();
    let mut out = Vec::new();
    for (g, m) in parts {
        let Some(g) = to_dense(&g, 0) else { continue };
        for h in factor_dense(&g) {
            for _ in 0..m {
                out.push(h.clone());
            }
        }
    }
    out
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
