//! Statements with quantified variables (`exists`, integer divisions) as problems the
//! scanners take: each quantified variable becomes a loop dimension after the iterators
//! (a witness), the domain admits exactly one witness per point, and the statement
//! receives its iterators only.
//!
//! Exactly one witness: a division, or a variable that an equality with a constant
//! coefficient fixes given the others, has at most one value per point. One further
//! variable may be free if the domain, for fixed other variables, is an interval in it
//! (it appears only in top-level constraints of degree at most one in it); the domain
//! then keeps its least witness, `D(x, f) and not D(x, f - 1)`. Everything else is
//! refused with a message. A dimension after the iterators, pinned to the statement's
//! index, keeps statements at the same point in file order whatever their witnesses.

use crate::input::{Existential, Problem, Statement};
use cad::formula::{Atom, Formula, Rel};
use polys::{Coeff, Int, Poly};

/// A problem without quantified variables that generates the same instances.
#[derive(Clone, Debug)]
pub struct Witnessed {
    /// Every statement with all iterator positions: its own, zeros up to the longest
    /// statement, the statement index (with several statements), then its witnesses.
    pub problem: Problem,
    /// Per statement: how many leading iterators its macro receives.
    pub arity: Vec<usize>,
    /// Divisions of the parameters alone, made parameters after the original ones (see
    /// `derived`); empty unless asked for.
    pub divisions: crate::derived::Divisions,
}

/// The witnessed problem, or `None` when no statement quantifies a variable; an error
/// names the statement and the variables polyscan cannot yet handle. With `lift`,
/// divisions of the parameters alone become parameters (see `derived`).
pub fn witness(problem: &Problem, lift: bool) -> Result<Option<Witnessed>, String> {
    if problem.statements.iter().all(|s| s.existentials.is_empty()) {
        return Ok(None);
    }
    let np = problem.params.len();
    let simplified: Vec<Statement> = problem
        .statements
        .iter()
        .map(|s| eliminate(s.clone(), np))
        .collect();
    let lifted = lift
        .then(|| {
            crate::derived::lift(&Problem {
                statements: simplified.clone(),
                ..problem.clone()
            })
        })
        .flatten();
    let (problem, simplified, divisions) = match lifted {
        Some((p, divisions)) => {
            let simplified = p.statements.clone();
            (p, simplified, divisions)
        }
        None => (problem.clone(), simplified, Vec::new()),
    };
    let problem = &problem;
    let np = problem.params.len();
    let arity: Vec<usize> = simplified.iter().map(|s| s.iterators.len()).collect();
    if simplified.iter().all(|s| s.existentials.is_empty()) {
        return Ok(Some(Witnessed {
            problem: Problem {
                statements: simplified,
                ..problem.clone()
            },
            arity,
            divisions,
        }));
    }
    let witnessed: Vec<Statement> = simplified
        .iter()
        .map(|s| least_witness(s, np))
        .collect::<Result<_, _>>()?;
    let problem = &Problem {
        statements: witnessed,
        ..problem.clone()
    };
    let depth = problem.depth();
    let order_dim = problem.statements.len() > 1;
    let first_witness = depth + usize::from(order_dim);
    let width = problem
        .statements
        .iter()
        .map(|s| s.existentials.len())
        .max()
        .unwrap_or(0);
    let mut taken: Vec<String> = problem.params.clone();
    for s in &problem.statements {
        taken.extend(s.iterators.iter().cloned());
        taken.extend(s.existentials.iter().map(|e| e.name.clone()));
    }
    let mut fresh = |stem: &str| {
        let mut n = 0;
        while taken.contains(&format!("{stem}{n}")) {
            n += 1;
        }
        let name = format!("{stem}{n}");
        taken.push(name.clone());
        name
    };
    // One name per new position, shared by every statement (the first statement names
    // the positions of the generated code).
    let pads: Vec<String> = (0..depth).map(|_| fresh("z")).collect();
    let order_name = fresh("s");
    let witness_names: Vec<String> = (0..width).map(|_| fresh("w")).collect();
    let mut statements = Vec::with_capacity(problem.statements.len());
    for (index, s) in problem.statements.iter().enumerate() {
        let len = s.iterators.len();
        let domain = &s.domain;
        // Quantified variable k moves from np + len + k to np + first_witness + k.
        let map: Vec<usize> = (0..np + len)
            .chain((0..s.existentials.len()).map(|k| np + first_witness + k))
            .collect();
        let mut parts = vec![domain.rename(&map)];
        let pin = |pos: usize, value: i64| {
            Formula::Atom(Atom::compare(
                &Poly::var(np + pos),
                Rel::Eq,
                &Poly::constant(Int::from(value)),
            ))
        };
        parts.extend((len..depth).map(|pos| pin(pos, 0)));
        if order_dim {
            parts.push(pin(depth, index as i64));
        }
        parts.extend((s.existentials.len()..width).map(|k| pin(first_witness + k, 0)));
        let mut iterators = s.iterators.clone();
        iterators.extend(pads[len..].iter().cloned());
        if order_dim {
            iterators.push(order_name.clone());
        }
        iterators.extend(s.existentials.iter().map(|e| e.name.clone()));
        iterators.extend(witness_names[s.existentials.len()..].iter().cloned());
        statements.push(Statement {
            name: s.name.clone(),
            iterators,
            domain: Formula::and(parts),
            existentials: Vec::new(),
            span: s.span,
        });
    }
    Ok(Some(Witnessed {
        arity,
        divisions,
        problem: Problem {
            params: problem.params.clone(),
            statements,
            context: problem.context.clone(),
            schedule: problem.schedule.clone(),
        },
    }))
}

/// The conjuncts of a formula's top-level conjunction.
pub(crate) fn conjuncts(f: &Formula) -> Vec<&Formula> {
    match f {
        Formula::And(parts) => parts.iter().flat_map(conjuncts).collect(),
        other => vec![other],
    }
}

/// The variables an atom or formula mentions.
fn mentions(f: &Formula, v: usize) -> bool {
    match f {
        Formula::True | Formula::False => false,
        Formula::Atom(a) => a.poly.degree(v) > 0,
        Formula::And(fs) | Formula::Or(fs) => fs.iter().any(|g| mentions(g, v)),
        Formula::Not(g) => mentions(g, v),
    }
}

/// `f` with variable `v` replaced by `value`.
fn subst(f: &Formula, v: usize, value: &Poly) -> Formula {
    match f {
        Formula::True | Formula::False => f.clone(),
        Formula::Atom(a) => {
            Formula::Atom(Atom::compare(&a.poly.subst(v, value), a.rel, &Poly::zero()))
        }
        Formula::And(fs) => Formula::And(fs.iter().map(|g| subst(g, v, value)).collect()),
        Formula::Or(fs) => Formula::Or(fs.iter().map(|g| subst(g, v, value)).collect()),
        Formula::Not(g) => Formula::Not(Box::new(subst(g, v, value))),
    }
}

/// The statement with a domain admitting one witness per point (see the module comment).
fn least_witness(s: &Statement, np: usize) -> Result<Statement, String> {
    let first = np + s.iterators.len();
    let n = s.existentials.len();
    let top = conjuncts(&s.domain);
    // Which quantified variables have one value per point given the non-quantified ones.
    let mut fixed = vec![false; n];
    let quantified_fixed = |p: &Poly, fixed: &[bool], except: usize| {
        p.vars()
            .into_iter()
            .filter(|&v| v >= first && v - first != except)
            .all(|v| fixed[v - first])
    };
    loop {
        let mut changed = false;
        for k in 0..n {
            if fixed[k] {
                continue;
            }
            let v = first + k;
            fixed[k] = match &s.existentials[k].division {
                // A division is a function of its numerator, unless that reads the
                // variable itself (`floor((2q + 1)/2)` after `e = 2q + 1` was substituted:
                // its definition then holds for every q).
                Some((e, _)) => e.degree(v) == 0 && quantified_fixed(e, &fixed, k),
                None => top.iter().any(|c| match c {
                    Formula::Atom(a) if a.rel == Rel::Eq && a.poly.degree(v) == 1 => {
                        a.poly.coeffs(v)[1].is_constant() && quantified_fixed(&a.poly, &fixed, k)
                    }
                    _ => false,
                }),
            };
            changed |= fixed[k];
        }
        if !changed {
            break;
        }
    }
    let free: Vec<usize> = (0..n).filter(|&k| !fixed[k]).collect();
    let names = |ks: &[usize]| {
        ks.iter()
            .map(|&k| s.existentials[k].name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match free.as_slice() {
        [] => Ok(s.clone()),
        [k] => {
            let v = first + k;
            let interval = top.iter().all(|c| match c {
                _ if !mentions(c, v) => true,
                Formula::Atom(a) => a.rel != Rel::Ne && a.poly.degree(v) <= 1,
                _ => false,
            });
            if !interval {
                return Err(format!(
                    "statement {}: the quantified variable {} is not fixed by an equality, and its values for a point need not form an interval (it appears under 'or' or 'not', in '!=' or with a power); polyscan handles such a variable only in constraints of degree one in it joined by 'and'",
                    s.name,
                    names(&free)
                ));
            }
            let before = Poly::var(v).sub(&Poly::one());
            // Given D(x, f), D(x, f - 1) fails exactly when a lower bound on f does (the
            // other conjuncts do not change or, upper bounds, still hold at f - 1): the
            // negation needs only those, which keeps its disjunction small.
            let lower_bounds: Option<Vec<Formula>> = top
                .iter()
                .filter(|c| mentions(c, v))
                .filter_map(|c| match c {
                    Formula::Atom(a) => match a.poly.coeffs(v)[1].constant_value() {
                        None => Some(None),
                        Some(k) => {
                            let up = a.rel != Rel::Eq
                                && (matches!(a.rel, Rel::Le | Rel::Lt) == (k.signum() > 0));
                            (!up).then(|| Some((*c).clone()))
                        }
                    },
                    _ => Some(None),
                })
                .collect();
            let moved = match lower_bounds {
                Some(l) => subst(&Formula::and(l), v, &before),
                None => subst(&s.domain, v, &before),
            };
            // No division reads f (one that did would count as a second free variable,
            // refused below), so shifting f alone shifts the whole formula.
            Ok(Statement {
                domain: Formula::and(vec![s.domain.clone(), Formula::Not(Box::new(moved))]),
                ..s.clone()
            })
        }
        _ => Err(format!(
            "statement {}: the quantified variables {} are not fixed by equalities; polyscan handles one such variable per statement",
            s.name,
            names(&free)
        )),
    }
}

/// The statement with the quantified variables that need no witness loop substituted
/// away: a variable an equality with coefficient 1 or -1 fixes is replaced by its value,
/// and a division that appears elsewhere only with coefficient 1 or -1 is replaced in
/// each such constraint by the equivalent constraint on its numerator
/// (`j <= floor(e/d)` is `d*j <= e` for integer `j`).
fn eliminate(mut s: Statement, np: usize) -> Statement {
    'again: loop {
        let first = np + s.iterators.len();
        for k in 0..s.existentials.len() {
            let v = first + k;
            if let Some(value) = unit_equality(&s.domain, v) {
                s.domain = subst(&s.domain, v, &value);
                for e in &mut s.existentials {
                    if let Some((num, _)) = &mut e.division {
                        *num = num.subst(v, &value);
                    }
                }
                remove(&mut s, np, k);
                continue 'again;
            }
            if let Some(domain) = division_free(&s, np, k) {
                s.domain = domain;
                remove(&mut s, np, k);
                continue 'again;
            }
        }
        return s;
    }
}

/// The value of `v` from a top-level equality `v = value` (coefficient 1 or -1, `value`
/// free of `v`).
fn unit_equality(f: &Formula, v: usize) -> Option<Poly> {
    conjuncts(f).into_iter().find_map(|c| match c {
        Formula::Atom(a) if a.rel == Rel::Eq && a.poly.degree(v) == 1 => {
            let cs = a.poly.coeffs(v);
            let c = cs[1].constant_value()?;
            // a = c*v + r = 0 with c = 1 or -1: v = -r/c = -c*r.
            if c != Int::from(1) && c != Int::from(-1) {
                return None;
            }
            let r = &cs[0];
            Some(if c.signum() > 0 { r.neg() } else { r.clone() })
        }
        _ => None,
    })
}

/// Drops quantified variable `k`, which no longer occurs, renumbering the later ones.
fn remove(s: &mut Statement, np: usize, k: usize) {
    let first = np + s.iterators.len();
    let total = first + s.existentials.len();
    let map: Vec<usize> = (0..total)
        .map(|i| if i > first + k { i - 1 } else { i })
        .collect();
    s.domain = s.domain.rename(&map);
    s.existentials.remove(k);
    for e in &mut s.existentials {
        if let Some((num, _)) = &mut e.division {
            *num = num.rename(&map);
        }
    }
}

/// The domain without division variable `k` when, besides its two defining constraints,
/// it occurs only in atoms of degree one with coefficient 1 or -1 and in no other
/// division.
fn division_free(s: &Statement, np: usize, k: usize) -> Option<Formula> {
    let first = np + s.iterators.len();
    let v = first + k;
    let (e, d) = s.existentials[k].division.clone()?;
    if s.existentials.iter().any(|x| {
        x.division
            .as_ref()
            .is_some_and(|(num, _)| num.degree(v) > 0)
    }) {
        return None;
    }
    let dq = Poly::var(v).mul(&Poly::constant(d.clone()));
    let slack = Poly::constant(d.clone()).sub(&Poly::one());
    let defining = [
        Atom::compare(&dq, Rel::Le, &e),
        Atom::compare(&e, Rel::Le, &dq.add(&slack)),
    ];
    let without: Vec<Formula> = conjuncts(&s.domain)
        .into_iter()
        .filter(|c| !matches!(c, Formula::Atom(a) if defining.contains(a)))
        .cloned()
        .collect();
    let rest = Formula::and(without);
    replace_division(&rest, v, &e, &d)
}

/// Each atom mentioning `v = floor(e/d)` rewritten on `e`, or `None` if one cannot be.
fn replace_division(f: &Formula, v: usize, e: &Poly, d: &Int) -> Option<Formula> {
    let all = |fs: &[Formula]| -> Option<Vec<Formula>> {
        fs.iter().map(|g| replace_division(g, v, e, d)).collect()
    };
    Some(match f {
        Formula::True | Formula::False => f.clone(),
        Formula::Atom(a) if a.poly.degree(v) == 0 => f.clone(),
        Formula::Atom(a) => {
            if a.poly.degree(v) != 1 {
                return None;
            }
            let cs = a.poly.coeffs(v);
            let c = cs[1].constant_value()?;
            if c != Int::from(1) && c != Int::from(-1) {
                return None;
            }
            // c*q + r ~ 0 as q ~' m with m = -r/c (relation flipped for c = -1).
            let (m, rel) = if c.signum() > 0 {
                (cs[0].neg(), a.rel)
            } else {
                (cs[0].clone(), a.rel.flip())
            };
            let dm = m.mul(&Poly::constant(d.clone()));
            let dd = Poly::constant(d.clone());
            // floor(e/d) >= m  <=>  e >= d*m;  floor(e/d) <= m  <=>  e <= d*m + d - 1.
            let ge = |m: &Poly| Formula::Atom(Atom::compare(e, Rel::Ge, m));
            let le =
                |m: &Poly| Formula::Atom(Atom::compare(e, Rel::Le, &m.add(&dd).sub(&Poly::one())));
            match rel {
                Rel::Ge => ge(&dm),
                Rel::Gt => ge(&dm.add(&dd)),
                Rel::Le => le(&dm),
                Rel::Lt => le(&dm.sub(&dd)),
                Rel::Eq => Formula::and(vec![ge(&dm), le(&dm)]),
                Rel::Ne => Formula::Not(Box::new(Formula::and(vec![ge(&dm), le(&dm)]))),
            }
        }
        Formula::And(fs) => Formula::And(all(fs)?),
        Formula::Or(fs) => Formula::Or(all(fs)?),
        Formula::Not(g) => Formula::Not(Box::new(replace_division(g, v, e, d)?)),
    })
}

/// Whether values of the quantified variables `quantified[k..]` (variables `first + k`
/// onwards of `point`) satisfy `f`: divisions computed, the others searched in
/// `[-reach, reach]`. On success `point` holds the values found.
pub(crate) fn witnessed(
    f: &Formula,
    quantified: &[Existential],
    first: usize,
    k: usize,
    point: &mut Vec<Int>,
    reach: i64,
) -> bool {
    if k == quantified.len() {
        return f.eval_int(point);
    }
    match &quantified[k].division {
        Some((e, d)) => {
            point[first + k] = e.eval(point).div_mod_floor(d).0;
            witnessed(f, quantified, first, k + 1, point, reach)
        }
        None => (-reach..=reach).any(|q| {
            point[first + k] = Int::from(q);
            witnessed(f, quantified, first, k + 1, point, reach)
        }),
    }
}
