//! Integer Fourier–Motzkin over dense affine constraints (the union scanner's): formulas
//! as disjoint conjunctions of integer constraints, normalisation with integer
//! tightening, elimination of one variable, projections of a polyhedron onto its outer
//! variables, and proofs of integer infeasibility.
//!
//! Every coefficient is an integer (at most 32 bits on input, so that elimination stays
//! within 64), so constraints are dense vectors and one emptiness test takes
//! microseconds. Projections are real shadows with integer tightening (divide by the gcd,
//! floor the constant), valid at every integer point; a proof of rational infeasibility
//! of tightened constraints is therefore sound for integer points.

use cad::formula::{Atom, Formula, Rel};
use polys::{Coeff, Poly};
use std::collections::HashMap;

/// `sum c[k] x_k + c[width] >= 0`: dense integer coefficients, the constant last.
pub(crate) type Con = Vec<i64>;

/// A constraint during elimination: whether the input stated it (rather than elimination
/// deriving it), and the input constraints it is a combination of (bit `i` for input `i`;
/// `None` when untracked: inputs past 128, and everything derived from them).
type Row = (Con, bool, Option<u128>);

/// A bound on the eliminated variable with its history (see [`Row`]).
type Bound = (Con, Option<u128>);

/// The history of a sum of two constraints.
fn combined(a: Option<u128>, b: Option<u128>) -> Option<u128> {
    Some(a? | b?)
}

/// The rows with an input constraint each, in order, tracked where there are bits.
fn tracked(cons: impl IntoIterator<Item = (Con, bool)>) -> Vec<Row> {
    cons.into_iter()
        .enumerate()
        .map(|(i, (c, s))| (c, s, (i < 128).then(|| 1u128 << i)))
        .collect()
}

/// Chernikov's rule (Imbert's first acceleration theorem): after `k` eliminations, a
/// derived constraint that combines more than `k + 1` input constraints is implied by
/// the others over the reals, so it goes. It keeps Fourier–Motzkin's quadratic growth
/// per step from compounding (omega's lefur04, eight nested loops).
fn chernikov(rows: &mut Vec<Row>, k: u32) {
    rows.retain(|(_, _, h)| h.is_none_or(|h| h.count_ones() <= k + 1));
}

/// Polyhedra per statement after making disjunctions disjoint.
const MAX_CONJUNCTIONS: usize = 256;
/// Constraints in one Fourier–Motzkin step before giving up (projection) or answering
/// "maybe feasible" (tests).
const FM_LIMIT: usize = 300;

/// A proof that the constraints (over `width` variable slots) have no integer point
/// (rational infeasibility after integer tightening); `false` also when the proof is too
/// costly.
pub(crate) fn infeasible(cons: Vec<Con>, width: usize) -> bool {
    let w = width;
    let Some(cons) = substitute_equalities(cons, w) else {
        return false;
    };
    if cons
        .iter()
        .any(|c| c[w] < 0 && c[..w].iter().all(|&a| a == 0))
    {
        return true;
    }
    // Two opposite bounds that leave no room (`x >= 0` and `-x - 1 >= 0`): the usual
    // proof that a stated bound is implied, found before elimination, which on many
    // constraints may pass its limit first.
    let mut opposite: HashMap<&[i64], i64> = HashMap::new();
    for c in &cons {
        let e = opposite.entry(&c[..w]).or_insert(c[w]);
        *e = (*e).min(c[w]);
    }
    for c in &cons {
        let neg: Vec<i64> = c[..w].iter().map(|a| -a).collect();
        if opposite
            .get(&neg[..])
            .is_some_and(|&d| i128::from(d) + i128::from(c[w]) < 0)
        {
            return true;
        }
    }
    let mut cons: Vec<Row> = tracked(cons.into_iter().map(|c| (c, false)));
    let mut k = 0;
    loop {
        // The variable whose elimination adds the fewest constraints; one bounded on
        // one side only takes its constraints with it.
        let mut best: Option<(i64, usize)> = None;
        for v in 0..w {
            let lo = cons.iter().filter(|(c, ..)| c[v] > 0).count() as i64;
            let up = cons.iter().filter(|(c, ..)| c[v] < 0).count() as i64;
            if lo + up == 0 {
                continue;
            }
            let growth = lo * up - lo - up;
            if best.is_none_or(|(g, _)| growth < g) {
                best = Some((growth, v));
            }
        }
        let Some((_, v)) = best else {
            return false;
        };
        let cons_before: Vec<Con> = cons.iter().map(|(c, ..)| c.clone()).collect();
        match eliminate(cons, v, w) {
            Some(Step::Contradiction) => return true,
            Some(Step::Rest(rest, by_equality)) => {
                cons = rest;
                if !by_equality {
                    k += 1;
                    chernikov(&mut cons, k);
                }
            }
            // Past the limit: the cheaper, weaker proof by bounds.
            None => return bounds_infeasible(&cons_before, w),
        }
    }
}

/// Whether propagating integer bounds through the constraints empties a variable's range
/// (`x5 - c5 >= 0`, `c5 >= 0` and `-x5 - 1 >= 0`): each constraint bounds each of its
/// variables by the others' current ranges, rounded inwards, until nothing changes or a
/// round limit. Sound and incomplete: what Fourier–Motzkin proves past its limit.
fn bounds_infeasible(cons: &[Con], w: usize) -> bool {
    /// Rounds of propagation; ranges that still shrink after this many are left.
    const ROUNDS: usize = 32;
    let mut lo: Vec<Option<i128>> = vec![None; w];
    let mut hi: Vec<Option<i128>> = vec![None; w];
    for _ in 0..ROUNDS {
        let mut changed = false;
        for c in cons {
            for j in (0..w).filter(|&j| c[j] != 0) {
                // a_j x_j >= -c_w - sum_{k != j} a_k x_k >= -c_w - sum max(a_k x_k).
                let mut rest = i128::from(c[w]);
                let mut finite = true;
                for k in (0..w).filter(|&k| k != j && c[k] != 0) {
                    let a = i128::from(c[k]);
                    let most = if a > 0 { hi[k] } else { lo[k] };
                    match most
                        .and_then(|b| a.checked_mul(b))
                        .and_then(|p| rest.checked_add(p))
                    {
                        Some(r) => rest = r,
                        None => {
                            finite = false;
                            break;
                        }
                    }
                }
                if !finite {
                    continue;
                }
                let a = i128::from(c[j]);
                let Some(need) = rest.checked_neg() else {
                    continue;
                };
                // a x >= need.
                if a > 0 {
                    let b = need.div_euclid(a) + i128::from(need.rem_euclid(a) != 0);
                    if lo[j].is_none_or(|l| b > l) {
                        lo[j] = Some(b);
                        changed = true;
                    }
                } else {
                    let b = rest.div_euclid(-a);
                    if hi[j].is_none_or(|h| b < h) {
                        hi[j] = Some(b);
                        changed = true;
                    }
                }
                if let (Some(l), Some(h)) = (lo[j], hi[j]) {
                    if l > h {
                        return true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    false
}

/// `q < 0` over the integers: `-q - 1 >= 0`.
pub(crate) fn negate(q: &Con) -> Con {
    let mut n: Con = q.iter().map(|a| -a).collect();
    if let Some(last) = n.last_mut() {
        *last -= 1;
    }
    n
}

enum Step {
    Contradiction,
    /// The constraints left, and whether an equality substituted the variable away (an
    /// exact step that Chernikov's rule does not count).
    Rest(Vec<Row>, bool),
}

/// `c` divided by the gcd of its coefficients with the constant floored (valid at
/// integer points), or `None` beyond 64 bits.
fn normalize(c: &[i128]) -> Option<Con> {
    let n = c.len() - 1;
    let g = c[..n].iter().fold(0i128, |g, &a| gcd(g, a.abs()));
    let out: Vec<i128> = if g <= 1 {
        c.to_vec()
    } else {
        let mut d: Vec<i128> = c[..n].iter().map(|a| a / g).collect();
        d.push(c[n].div_euclid(g));
        d
    };
    out.into_iter().map(|a| i64::try_from(a).ok()).collect()
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One Fourier–Motzkin step on `v`: constraints without `v` and every sum of a lower and
/// an upper bound, normalised, parallel ones reduced to the tightest. `None`: overflow or
/// too many constraints.
fn eliminate(cons: Vec<Row>, v: usize, width: usize) -> Option<Step> {
    let mut rest: Vec<Row> = Vec::new();
    let (mut lowers, mut uppers): (Vec<Bound>, Vec<Bound>) = (Vec::new(), Vec::new());
    for (c, s, h) in cons {
        match c[v].signum() {
            1 => lowers.push((c, h)),
            -1 => uppers.push((c, h)),
            _ => rest.push((c, s, h)),
        }
    }
    // With an equality on `v` (a lower bound whose negation is an upper bound), the
    // shadow is the substitution: the other pairs are implied by those with it.
    let equality = lowers.iter().enumerate().find_map(|(i, (l, _))| {
        let j = uppers
            .iter()
            .position(|(u, _)| u.iter().zip(l).all(|(a, b)| *a == -b))?;
        Some((i, j))
    });
    if let Some((i, j)) = equality {
        // A substitution rewrites each constraint without combining it with another: the
        // equality adds nothing to the histories.
        let (l, u) = (
            (lowers[i].0.clone(), Some(0)),
            (uppers[j].0.clone(), Some(0)),
        );
        let (li, uj) = (lowers[i].clone(), uppers[j].clone());
        lowers.retain(|c| *c != li);
        uppers.retain(|c| *c != uj);
        let (lo_only, up_only) = (std::mem::take(&mut lowers), std::mem::take(&mut uppers));
        // Each other bound meets the equality's opposite half.
        let mut pairs: Vec<(Bound, Bound)> = lo_only.into_iter().map(|c| (c, u.clone())).collect();
        pairs.extend(up_only.into_iter().map(|c| (l.clone(), c)));
        pairs.push((l, u));
        return combine_pairs(rest, pairs, v, width, true);
    }
    if rest.len() + lowers.len() * uppers.len() > FM_LIMIT {
        return None;
    }
    let pairs: Vec<(Bound, Bound)> = lowers
        .iter()
        .flat_map(|l| uppers.iter().map(move |u| (l.clone(), u.clone())))
        .collect();
    combine_pairs(rest, pairs, v, width, false)
}

/// The constraints without the variable and the sums of the (lower, upper) pairs that
/// cancel it, normalised, parallel ones reduced to the tightest.
fn combine_pairs(
    rest: Vec<Row>,
    pairs: Vec<(Bound, Bound)>,
    v: usize,
    width: usize,
    by_equality: bool,
) -> Option<Step> {
    let mut out: Vec<Row> = Vec::with_capacity(rest.len() + pairs.len());
    let mut index: HashMap<Vec<i64>, usize> = HashMap::new();
    let mut add = |c: Con, stated: bool, hist: Option<u128>| -> bool {
        if c[..width].iter().all(|&a| a == 0) {
            return c[width] < 0;
        }
        match index.get(&c[..width]) {
            Some(&k) => {
                let (d, s, h) = &mut out[k];
                if c[width] < d[width] {
                    *d = c;
                    *s = stated;
                    *h = hist;
                } else if c[width] == d[width] {
                    *s |= stated;
                    // The same constraint derived twice: the shorter derivation, which
                    // the rule keeps longer.
                    if let (Some(new), Some(old)) = (hist, *h) {
                        if new.count_ones() < old.count_ones() {
                            *h = hist;
                        }
                    }
                }
            }
            None => {
                index.insert(c[..width].to_vec(), out.len());
                out.push((c, stated, hist));
            }
        }
        false
    };
    for (c, s, h) in rest {
        if add(c, s, h) {
            return Some(Step::Contradiction);
        }
    }
    for ((l, hl), (u, hu)) in &pairs {
        let hist = combined(*hl, *hu);
        let (a, b) = (i128::from(l[v]), -i128::from(u[v]));
        let sum: Vec<i128> = l
            .iter()
            .zip(u)
            .map(|(&x, &y)| b * i128::from(x) + a * i128::from(y))
            .collect();
        if add(normalize(&sum)?, false, hist) {
            return Some(Step::Contradiction);
        }
    }
    if out.len() > FM_LIMIT {
        return None;
    }
    Some(Step::Rest(out, by_equality))
}

/// Substitutes away variables fixed by an equality with a unit coefficient (a pair
/// `e >= 0`, `-e >= 0`): exact, and it keeps Fourier–Motzkin from multiplying the
/// schedule's equalities. `None` on overflow.
fn substitute_equalities(mut cons: Vec<Con>, width: usize) -> Option<Vec<Con>> {
    loop {
        let mut found = None;
        'search: for (i, e) in cons.iter().enumerate() {
            let Some(u) = (0..width).find(|&k| e[k].abs() == 1) else {
                continue;
            };
            for f in &cons[i + 1..] {
                if f.iter().zip(e).all(|(a, b)| *a == -b) {
                    found = Some((e.clone(), u));
                    break 'search;
                }
            }
        }
        let Some((e, u)) = found else {
            return Some(cons);
        };
        let mut next = Vec::with_capacity(cons.len());
        for c in &cons {
            if c[u] == 0 {
                next.push(c.clone());
                continue;
            }
            let f = i128::from(c[u]) * i128::from(e[u]);
            let d: Vec<i128> = c
                .iter()
                .zip(&e)
                .map(|(&a, &b)| i128::from(a) - f * i128::from(b))
                .collect();
            next.push(normalize(&d)?);
        }
        cons = next;
    }
}

/// The constraints without those the others imply at every integer point (each proven by
/// [`infeasible`] on the others and its negation, dropped one at a time): only where
/// Fourier–Motzkin would otherwise multiply them past its limit, since the test costs
/// one elimination per constraint. A dropped stated constraint needs no guard: the
/// remaining ones, which loops enforce, imply it.
fn without_redundant(mut cons: Vec<Row>, width: usize) -> Vec<Row> {
    let mut k = 0;
    while k < cons.len() {
        let mut test: Vec<Con> = cons
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, (c, ..))| c.clone())
            .collect();
        test.push(negate(&cons[k].0));
        if infeasible(test, width) {
            cons.remove(k);
        } else {
            k += 1;
        }
    }
    cons
}

/// The projections of one polyhedron onto the parameters and outer loop variables
/// (`proj[v]` for `v` in `np..=nvars`, empty below); `Some(None)`: no point for any
/// parameter value; `None`: too large or beyond 64 bits.
#[allow(clippy::type_complexity)]
pub(crate) fn project(
    conj: &[Con],
    np: usize,
    nvars: usize,
    width: usize,
) -> Option<Option<Vec<Vec<(Con, bool)>>>> {
    let mut stated: Vec<(Con, bool)> = Vec::new();
    for c in conj {
        let wide: Vec<i128> = c.iter().map(|&a| i128::from(a)).collect();
        let n = normalize(&wide)?;
        if n[..width].iter().all(|&a| a == 0) {
            if n[width] < 0 {
                return Some(None);
            }
            continue;
        }
        if !stated.iter().any(|(d, _)| *d == n) {
            stated.push((n, true));
        }
    }
    // Parallel stated constraints: keep the tightest (as elimination does); the spare
    // slot `width - 1` is in no constraint, so this step only merges.
    let mut proj = vec![Vec::new(); nvars + 1];
    let mut cur = match eliminate(tracked(stated), width - 1, width)? {
        Step::Contradiction => return Some(None),
        Step::Rest(r, _) => r,
    };
    let rows =
        |cur: &[Row]| -> Vec<(Con, bool)> { cur.iter().map(|(c, s, _)| (c.clone(), *s)).collect() };
    proj[nvars] = rows(&cur);
    let mut k = 0;
    for v in (np..nvars).rev() {
        let (lo, up) = (
            cur.iter().filter(|(c, ..)| c[v] > 0).count(),
            cur.iter().filter(|(c, ..)| c[v] < 0).count(),
        );
        if cur.len() + lo * up > FM_LIMIT / 2 {
            cur = without_redundant(cur, width);
        }
        cur = match eliminate(cur, v, width)? {
            Step::Contradiction => return Some(None),
            Step::Rest(r, by_equality) => {
                if !by_equality {
                    k += 1;
                }
                r
            }
        };
        chernikov(&mut cur, k);
        proj[v] = rows(&cur);
    }
    Some(Some(proj))
}

/// `f` with the disjunctions of its top-level conjunction simplified where the rest of it
/// and `context` decide them: a disjunct that cannot hold there is dropped, and a
/// disjunction that must hold is `true` (`0 < i <= n and (i >= m or i <= 2m)` is one
/// interval, not three pieces). Each decision is a proof of integer infeasibility;
/// without one the disjunction stays.
pub(crate) fn without_implied_disjunctions(f: &Formula, context: &[Con], width: usize) -> Formula {
    fn conjuncts(f: &Formula, out: &mut Vec<Formula>) {
        match f {
            Formula::And(fs) => fs.iter().for_each(|g| conjuncts(g, out)),
            g => out.push(g.clone()),
        }
    }
    let mut parts = Vec::new();
    conjuncts(f, &mut parts);
    if !parts.iter().any(|p| matches!(p, Formula::Or(_))) {
        return f.clone();
    }
    // Infeasible for every conjunction of the formula's disjoint pieces.
    let never = |g: &Formula| {
        dnf(g, false, width).is_some_and(|pieces| {
            pieces.into_iter().all(|mut c| {
                c.extend(context.iter().cloned());
                infeasible(c, width)
            })
        })
    };
    for k in 0..parts.len() {
        let Formula::Or(disjuncts) = &parts[k] else {
            continue;
        };
        let rest: Vec<Formula> = parts
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, p)| p.clone())
            .collect();
        let with = |g: Formula| {
            let mut all = rest.clone();
            all.push(g);
            Formula::And(all)
        };
        let kept: Vec<Formula> = disjuncts
            .iter()
            .filter(|d| !never(&with((*d).clone())))
            .cloned()
            .collect();
        let or = Formula::or(kept);
        parts[k] = if never(&with(Formula::Not(Box::new(or.clone())))) {
            Formula::True
        } else {
            or
        };
    }
    Formula::and(parts)
}

/// A formula as a union of disjoint conjunctions of affine constraints (`neg`: of its
/// negation), or `None` if some atom is not affine or there are too many conjunctions.
pub(crate) fn dnf(f: &Formula, neg: bool, width: usize) -> Option<Vec<Vec<Con>>> {
    let out = match (f, neg) {
        (Formula::True, false) | (Formula::False, true) => vec![Vec::new()],
        (Formula::True, true) | (Formula::False, false) => Vec::new(),
        (Formula::Atom(a), _) => atom(a, neg, width)?,
        (Formula::Not(g), _) => dnf(g, !neg, width)?,
        (Formula::And(fs), false) | (Formula::Or(fs), true) => {
            let mut acc = vec![Vec::new()];
            for g in fs {
                acc = product(&acc, &dnf(g, neg, width)?)?;
            }
            acc
        }
        (Formula::Or(fs), false) | (Formula::And(fs), true) => {
            // `a or b` as `a`, or `not a and b`: disjoint pieces.
            let mut out = Vec::new();
            let mut none_before: Vec<Vec<Con>> = vec![Vec::new()];
            for g in fs {
                out.extend(product(&none_before, &dnf(g, neg, width)?)?);
                none_before = product(&none_before, &dnf(g, !neg, width)?)?;
                if out.len() > MAX_CONJUNCTIONS {
                    return None;
                }
            }
            out
        }
    };
    (out.len() <= MAX_CONJUNCTIONS).then_some(out)
}

fn product(a: &[Vec<Con>], b: &[Vec<Con>]) -> Option<Vec<Vec<Con>>> {
    if a.len() * b.len() > MAX_CONJUNCTIONS {
        return None;
    }
    Some(
        a.iter()
            .flat_map(|x| {
                b.iter().map(move |y| {
                    let mut z = x.clone();
                    z.extend(y.iter().cloned());
                    z
                })
            })
            .collect(),
    )
}

/// An atom `p ~ 0` (or its negation) as disjoint conjunctions over the integers:
/// `p > 0` is `p - 1 >= 0`, `p != 0` is `p <= -1` or `p >= 1`.
fn atom(a: &Atom, neg: bool, width: usize) -> Option<Vec<Vec<Con>>> {
    let rel = if neg { a.rel.negate() } else { a.rel };
    if let Some(holds) = int64_decided(&a.poly, rel) {
        return Some(if holds { vec![Vec::new()] } else { Vec::new() });
    }
    let p = con_of(&a.poly, width)?;
    let minus: Con = p.iter().map(|x| -x).collect();
    let shift = |c: &Con, d: i64| -> Option<Con> {
        let mut c = c.clone();
        c[width] = c[width].checked_add(d)?;
        Some(c)
    };
    Some(match rel {
        Rel::Ge => vec![vec![p]],
        Rel::Le => vec![vec![minus]],
        Rel::Gt => vec![vec![shift(&p, -1)?]],
        Rel::Lt => vec![vec![shift(&minus, -1)?]],
        Rel::Eq => vec![vec![p, minus]],
        Rel::Ne => vec![vec![shift(&minus, -1)?], vec![shift(&p, -1)?]],
    })
}

/// Whether `x + c ~ 0` or `-x + c ~ 0` (one variable, coefficient 1 or -1) holds or fails
/// for every 64-bit value of `x`: every variable of the generated code is an `int64_t`,
/// so isl's `n <= 9223372036854775807` says nothing (and its constant would not fit the
/// scanner's 32-bit coefficients).
fn int64_decided(p: &Poly, rel: Rel) -> Option<bool> {
    if p.total_degree() != 1 || p.vars().len() != 1 {
        return None;
    }
    let v = p.vars()[0];
    let cs = p.coeffs(v);
    let a = cs[1].constant_value()?.to_i64()?;
    let c = cs[0].constant_value()?;
    if a.abs() != 1 {
        return None;
    }
    // a*x + c over x in [MIN, MAX] spans [lo, hi].
    let (min, max) = (polys::Int::from(i64::MIN), polys::Int::from(i64::MAX));
    let (lo, hi) = if a > 0 {
        (min + c.clone(), max + c)
    } else {
        (c.clone() - max, c - min)
    };
    let zero = polys::Int::from(0);
    match rel {
        Rel::Ge if lo >= zero => Some(true),
        Rel::Gt if lo > zero => Some(true),
        Rel::Le if hi <= zero => Some(true),
        Rel::Lt if hi < zero => Some(true),
        Rel::Ge if hi < zero => Some(false),
        Rel::Le if lo > zero => Some(false),
        _ => None,
    }
}

/// An affine polynomial's coefficients, or `None` if it is not affine, a coefficient of a
/// variable exceeds 32 bits or the constant 40 (room for elimination).
fn con_of(p: &Poly, width: usize) -> Option<Con> {
    if p.total_degree() > 1 {
        return None;
    }
    let mut c = vec![0i64; width + 1];
    for (m, k) in p.terms() {
        let k = k.to_i64()?;
        match m.exps().iter().position(|&e| e == 1) {
            Some(v) if v < width - 1 && k.unsigned_abs() < 1 << 31 => c[v] = k,
            Some(_) => return None,
            // Constants up to 2^40 (isl's `n <= 2147483647`): a sum of two products of a
            // coefficient and a constant stays far within the i128 of elimination, and
            // `normalize` refuses a result beyond 64 bits.
            None if k.unsigned_abs() < 1 << 40 => c[width] = k,
            None => return None,
        }
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_prove_what_chains_of_bounds_imply() {
        // x - y >= 0, y >= 0, -x - 1 >= 0 (x <= -1): empty.
        let cons = vec![vec![1, -1, 0], vec![0, 1, 0], vec![-1, 0, -1]];
        assert!(bounds_infeasible(&cons, 2));
        // With x <= 0 instead, x = y = 0 is a point.
        let cons = vec![vec![1, -1, 0], vec![0, 1, 0], vec![-1, 0, 0]];
        assert!(!bounds_infeasible(&cons, 2));
        // Integer rounding: 2x >= 1 and 2x <= 1 has a rational point only.
        let cons = vec![vec![2, -1], vec![-2, 1]];
        assert!(bounds_infeasible(&cons, 1));
    }

    #[test]
    fn chernikov_drops_sums_of_too_many_inputs() {
        let row = |h: u128| (vec![1, 0], false, Some(h));
        let mut rows = vec![row(0b1), row(0b11), row(0b111), (vec![1, 0], false, None)];
        // After one elimination a derived constraint may combine two inputs, not three.
        chernikov(&mut rows, 1);
        let kept: Vec<Option<u128>> = rows.iter().map(|r| r.2).collect();
        assert_eq!(kept, vec![Some(0b1), Some(0b11), None]);
    }

    #[test]
    fn projection_keeps_the_shadow() {
        // 0 <= y <= x <= 10 and x + y <= 12 over (x, y): x in 0..10, y in 0..min(x, 12 - x).
        let width = 3; // x, y and the spare slot
        let cons = vec![
            vec![0, 1, 0, 0],
            vec![1, -1, 0, 0],
            vec![-1, 0, 0, 10],
            vec![-1, -1, 0, 12],
        ];
        let proj = project(&cons, 0, 2, width).unwrap().unwrap();
        let on_x: Vec<&Con> = proj[1].iter().map(|(c, _)| c).collect();
        // x >= 0 (from y <= x and y >= 0) and x <= 10; x <= 12 from x + y <= 12, y >= 0
        // is implied and x's own two bounds remain.
        assert!(on_x.contains(&&vec![1, 0, 0, 0]));
        assert!(on_x.contains(&&vec![-1, 0, 0, 10]));
        assert!(!infeasible(
            proj[1]
                .iter()
                .map(|(c, _)| c.clone())
                .chain([vec![1, 0, 0, -10]])
                .collect(),
            width
        ));
    }
}
