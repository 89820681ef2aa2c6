//! Random domains of the harder kind (issue 23): the shape users write by hand, but with
//! less luck. Two or three loop variables, one or two parameters, a constant box, two
//! statements, and constraints whose terms have degree up to 3 and mix parameters with
//! iterators (`-3*j*i*n - 4*n*n - j*j*j + 4*j*i <= 4`), joined with `or` and using `!=`.
//!
//! Their projections give resultants with large coefficients and high degree, which is
//! what the modular gcd and root isolation have to cope with. The seeds live in their own
//! space: [`HARD_BIT`] marks a seed as hard, so that the differential runner and its child
//! processes tell the two kinds apart through the seed alone ([`domain_of`]).

use super::*;

/// A seed with this bit set names `hard_domain(seed & !HARD_BIT)`.
pub const HARD_BIT: u64 = 1 << 62;

/// The domain a differential seed names: hard when [`HARD_BIT`] is set, else the ordinary
/// random domain.
pub fn domain_of(seed: u64) -> Domain {
    if seed & EQUATION_BIT != 0 {
        equation_domain(seed & !EQUATION_BIT)
    } else if seed & HARD_BIT != 0 {
        hard_domain(seed & !HARD_BIT)
    } else {
        random_domain(seed)
    }
}

/// A sum of two to four monomials of degree 1 to 3 over `vars` (parameters and iterators
/// alike), coefficients in -4..=4 without 0, maybe a constant.
fn mixed_poly(rng: &mut Rng, vars: &[usize]) -> E {
    let nterms = rng.range(2, 4);
    let mut terms = Vec::new();
    for _ in 0..nterms {
        let deg: u32 = *rng.pick(&[1, 2, 2, 3, 3, 3]);
        let mut factors: Vec<E> = Vec::new();
        let c: i64 = *rng.pick(&[-4, -3, -2, -1, 1, 2, 3, 4]);
        if c.abs() != 1 {
            factors.push(E::Const(c.abs()));
        }
        for _ in 0..deg {
            factors.push(E::Var(*rng.pick(vars)));
        }
        let t = if factors.len() == 1 {
            factors.pop().expect("one factor")
        } else {
            E::Mul(factors)
        };
        terms.push(if c < 0 { E::Neg(Box::new(t)) } else { t });
    }
    if rng.chance(1, 3) {
        terms.push(E::Const(rng.range(-6, 6)));
    }
    E::Add(terms)
}

/// One constraint `poly ~ c` over two or three of the variables, at least one an iterator.
fn mixed_atom(rng: &mut Rng, np: usize, depth: usize) -> F {
    let nvars = np + depth;
    let mut vars = vec![np + rng.range(0, depth as i64 - 1) as usize];
    for _ in 0..rng.range(1, 2) {
        let v = rng.range(0, nvars as i64 - 1) as usize;
        if !vars.contains(&v) {
            vars.push(v);
        }
    }
    let lhs = mixed_poly(rng, &vars);
    let rel = *rng.pick(&[
        Rel::Le,
        Rel::Le,
        Rel::Lt,
        Rel::Ge,
        Rel::Ge,
        Rel::Gt,
        Rel::Ne,
        Rel::Eq,
    ]);
    F::Chain(vec![lhs, E::Const(rng.range(-8, 8))], vec![rel])
}

/// The hard domain of `seed` (seeds of this kind are independent of [`random_domain`]'s).
pub fn hard_domain(seed: u64) -> Domain {
    // Its own stream: hard seed s and ordinary seed s share nothing.
    let mut rng = Rng::new(seed ^ 0x4a52_445f_4841_5244);
    let np = rng.range(1, 2) as usize;
    let depth = rng.range(2, 3) as usize;
    let params: Vec<String> = PARAM_NAMES[..np].iter().map(|s| s.to_string()).collect();
    let mut names = params.clone();
    names.extend(ITER_NAMES[..depth].iter().map(|s| s.to_string()));
    // One constant box for the whole domain, as users write it.
    let sides: Vec<(Side, Side)> = (0..depth)
        .map(|_| {
            let lo = Side {
                c: rng.range(-5, 0),
                param: None,
            };
            let hi = Side {
                c: rng.range(3, 8),
                param: None,
            };
            (lo, hi)
        })
        .collect();
    let mut statements = Vec::new();
    let mut body = Vec::new();
    for s in 0..2 {
        let mut parts: Vec<F> = sides
            .iter()
            .enumerate()
            .map(|(it, (lo, hi))| {
                F::Chain(
                    vec![lo.expr(), E::Var(np + it), hi.expr()],
                    vec![Rel::Le, Rel::Le],
                )
            })
            .collect();
        for _ in 0..rng.range(1, 2) {
            let f = if rng.chance(1, 3) {
                F::Or(vec![
                    mixed_atom(&mut rng, np, depth),
                    mixed_atom(&mut rng, np, depth),
                ])
            } else {
                mixed_atom(&mut rng, np, depth)
            };
            parts.push(f);
        }
        let f = F::And(parts);
        body.push(format!(
            "S{s}[{}] : {}",
            ITER_NAMES[..depth].join(", "),
            f.text(&names, false)
        ));
        statements.push((f, sides.clone()));
    }
    // Like the ordinary kind: even seeds with the linear scanner where it applies.
    Domain::assemble(
        &format!("hard seed {seed}"),
        seed | HARD_BIT,
        params,
        depth,
        &body,
        statements,
        &mut rng,
        seed.is_multiple_of(2),
    )
}
