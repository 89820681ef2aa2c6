//! Random domains with equalities (equational constraints in the projection): each
//! statement conjoins a box, an equation `c*x = q` that fixes the innermost iterator `x`
//! in terms of the outer variables (degree up to 2), and one or two random atoms, some
//! of them `or`s, so that the CAD's last level is projected against the equation only.
//! Generated with the CAD always (`linear: false`), compared with brute force as the
//! other kinds. [`EQUATION_BIT`] marks the seeds.

use super::*;

/// A seed with this bit set names `equation_domain(seed & !EQUATION_BIT)`.
pub const EQUATION_BIT: u64 = 1 << 61;

/// The domain with equalities of `seed`.
pub fn equation_domain(seed: u64) -> Domain {
    let mut rng = Rng::new(seed ^ 0x4551_5541_5449_4f4e);
    let np = rng.range(0, 2) as usize;
    let depth = rng.range(2, 3) as usize;
    let params: Vec<String> = PARAM_NAMES[..np].iter().map(|s| s.to_string()).collect();
    let mut names = params.clone();
    names.extend(ITER_NAMES[..depth].iter().map(|s| s.to_string()));
    let nvars = np + depth;
    let nstmts = rng.range(1, 2) as usize;
    let mut statements = Vec::new();
    let mut body = Vec::new();
    for s in 0..nstmts {
        let mut parts = Vec::new();
        let mut sides = Vec::new();
        for it in 0..depth {
            let (lo, hi) = (
                random_side(&mut rng, np, true),
                random_side(&mut rng, np, false),
            );
            sides.push((lo, hi));
            parts.push(F::Chain(
                vec![lo.expr(), E::Var(np + it), hi.expr()],
                vec![Rel::Le, Rel::Le],
            ));
        }
        // c*x = q(outer variables): x is the last variable of the CAD.
        let outer: Vec<usize> = (0..nvars - 1).collect();
        let c = *rng.pick(&[1, 1, 1, 2, -1, 3]);
        let x = if c == 1 {
            E::Var(nvars - 1)
        } else {
            E::Mul(vec![E::Const(c), E::Var(nvars - 1)])
        };
        let deg = if rng.chance(1, 2) { 1 } else { 2 };
        let equation = F::Chain(vec![x, random_poly(&mut rng, &outer, deg)], vec![Rel::Eq]);
        let mut others = vec![equation];
        for _ in 0..rng.range(1, 2) {
            others.push(random_formula(&mut rng, nvars, np, 1, false));
        }
        // Sometimes the equation holds in one branch of an `or` only.
        if rng.chance(1, 4) {
            let alt = random_atom(&mut rng, nvars, np, false);
            let clause = F::And(others);
            parts.push(F::Or(vec![clause, alt]));
        } else {
            parts.extend(others);
        }
        let f = F::And(parts);
        body.push(format!(
            "S{s}[{}] : {}",
            ITER_NAMES[..depth].join(", "),
            f.text(&names, false)
        ));
        statements.push((f, sides));
    }
    Domain::assemble(
        &format!("equation seed {seed}"),
        seed | EQUATION_BIT,
        params,
        depth,
        &body,
        statements,
        &mut rng,
        false,
    )
}
