//! Relational and piecewise schedules as problems with one function per statement: the
//! output variables of a schedule relation become iterators of their statement (which
//! its macro does not receive), so a point runs once for every time the relation gives
//! it, as in isl; and the search of those times that the oracle uses instead.
//!
//! One piece (`S[i] -> [i, o] : 2o = i`): the outputs the piece mentions become iterators
//! after the statement's own, its constraint joins the domain, and its time vector is an
//! expression of them. Several pieces for one statement (a piecewise schedule, or a union
//! of relations): every time position becomes an iterator `u`, and the domain joins the
//! disjunction over pieces of `constraint and u = time`; a pair `(point, time)` in two
//! pieces is one pair of the union, run once.

use crate::existential::witnessed;
use crate::input::{Existential, Problem, ScheduleEntry, Statement};
use cad::formula::{Atom, Formula, Rel};
use polys::{Coeff, Int, Poly};
use std::collections::BTreeSet;

/// A problem whose schedule is one function per statement, generating the same instances.
#[derive(Clone, Debug)]
pub struct Lifted {
    /// Statements with the lifted outputs after their iterators.
    pub problem: Problem,
    /// Per statement: how many leading iterators its macro receives.
    pub arity: Vec<usize>,
}

/// The lifted problem, or `None` when the schedule (if any) is already one function per
/// statement.
pub fn lift(problem: &Problem) -> Option<Lifted> {
    if problem.schedule_is_function() {
        return None;
    }
    let sch = problem.schedule.as_ref()?;
    let np = problem.params.len();
    let depth = problem.depth();
    let mut statements = Vec::with_capacity(problem.statements.len());
    let mut entries = Vec::with_capacity(problem.statements.len());
    let mut arity = Vec::with_capacity(problem.statements.len());
    for (k, s) in problem.statements.iter().enumerate() {
        let pieces: Vec<&ScheduleEntry> = sch.iter().filter(|e| e.statement == k).collect();
        arity.push(s.iterators.len());
        if let [e] = pieces.as_slice() {
            if e.is_function(np) {
                statements.push(s.clone());
                entries.push((*e).clone());
                continue;
            }
        }
        let (s, e) = lift_statement(s, &pieces, np, depth);
        statements.push(s);
        entries.push(e);
    }
    Some(Lifted {
        problem: Problem {
            statements,
            schedule: Some(entries),
            ..problem.clone()
        },
        arity,
    })
}

/// The defining constraints `d*q <= e <= d*q + d - 1` of division variable `q`.
fn division_definition(q: usize, e: &Poly, d: &Int) -> [Formula; 2] {
    let dq = Poly::var(q).mul(&Poly::constant(d.clone()));
    let slack = Poly::constant(d.clone()).sub(&Poly::one());
    [
        Formula::Atom(Atom::compare(&dq, Rel::Le, e)),
        Formula::Atom(Atom::compare(e, Rel::Le, &dq.add(&slack))),
    ]
}

/// One statement with the outputs of its schedule pieces as iterators, and its new
/// (functional) schedule entry.
fn lift_statement(
    s: &Statement,
    pieces: &[&ScheduleEntry],
    np: usize,
    depth: usize,
) -> (Statement, ScheduleEntry) {
    // The statement's own iterators, then zeros up to the problem's depth: lifted
    // outputs of different statements share positions after every original iterator.
    let own = s.iterators.len();
    let len = depth;
    let outs = pieces[0].outputs.len();
    let first_output = np + len;
    // Which output positions become iterators.
    let lifted: Vec<usize> = match pieces {
        [e] => {
            let mut polys: Vec<Poly> = e.time.clone();
            polys.extend(e.constraint.polynomials());
            polys.extend(
                e.existentials
                    .iter()
                    .filter_map(|q| q.division.as_ref().map(|d| d.0.clone())),
            );
            (0..outs)
                .filter(|&l| polys.iter().any(|p| p.degree(np + own + l) > 0))
                .collect()
        }
        _ => (0..outs).collect(),
    };
    let nl = lifted.len();
    let mut taken: Vec<String> = s.iterators.clone();
    taken.extend(s.existentials.iter().map(|e| e.name.clone()));
    for e in pieces {
        taken.extend(e.outputs.iter().cloned());
    }
    let mut iterators = s.iterators.clone();
    let mut pins = Vec::new();
    for pos in own..depth {
        let mut name = format!("z{pos}");
        while taken.contains(&name) {
            name.push('_');
        }
        taken.push(name.clone());
        iterators.push(name);
        pins.push(Formula::Atom(Atom::compare(
            &Poly::var(np + pos),
            Rel::Eq,
            &Poly::zero(),
        )));
    }
    for &l in &lifted {
        let mut name = pieces[0].outputs[l].clone();
        while taken.contains(&name) {
            name.push('_');
        }
        taken.push(name.clone());
        iterators.push(name);
    }
    // The domain's quantified variables move after the lifted outputs.
    let domain_map: Vec<usize> = (0..np + own)
        .chain((0..s.existentials.len()).map(|j| first_output + nl + j))
        .collect();
    let mut existentials: Vec<Existential> = s
        .existentials
        .iter()
        .map(|q| rename_existential(q, &domain_map))
        .collect();
    let mut parts = vec![s.domain.rename(&domain_map)];
    parts.extend(pins);
    let mut definitions = Vec::new();
    let mut disjuncts = Vec::new();
    let mut time = Vec::new();
    for e in pieces {
        // Outputs to their iterators (an output a lone piece does not mention goes
        // nowhere: index 0 is never looked up), quantified variables after all others.
        let first_q = first_output + nl + existentials.len();
        let map: Vec<usize> = (0..np + own)
            .chain((0..outs).map(|l| {
                lifted
                    .iter()
                    .position(|&x| x == l)
                    .map_or(0, |i| first_output + i)
            }))
            .chain((0..e.existentials.len()).map(|j| first_q + j))
            .collect();
        for (j, q) in e.existentials.iter().enumerate() {
            let q = rename_existential(q, &map);
            if let Some((num, d)) = &q.division {
                definitions.extend(division_definition(first_q + j, num, d));
            }
            existentials.push(q);
        }
        let t: Vec<Poly> = e.time.iter().map(|t| t.rename(&map)).collect();
        if pieces.len() == 1 {
            parts.push(e.constraint.rename(&map));
            time = t;
        } else {
            let mut piece = vec![e.constraint.rename(&map)];
            for (l, t) in t.iter().enumerate() {
                let u = Poly::var(first_output + l);
                if *t != u {
                    piece.push(Formula::Atom(Atom::compare(&u, Rel::Eq, t)));
                }
            }
            disjuncts.push(Formula::and(piece));
        }
    }
    if pieces.len() > 1 {
        // Division variables are functions of their numerators in every piece: their
        // definitions hold outside the disjunction, so each has one value per point.
        parts.extend(definitions);
        parts.push(Formula::or(disjuncts));
        time = (0..outs).map(|l| Poly::var(first_output + l)).collect();
    }
    let entry = ScheduleEntry {
        statement: pieces[0].statement,
        iterators: iterators.clone(),
        outputs: pieces[0].outputs.clone(),
        time,
        constraint: Formula::True,
        existentials: Vec::new(),
        span: pieces[0].span,
    };
    let statement = Statement {
        name: s.name.clone(),
        iterators,
        domain: Formula::and(parts),
        existentials,
        span: s.span,
    };
    (statement, entry)
}

fn rename_existential(q: &Existential, map: &[usize]) -> Existential {
    Existential {
        name: q.name.clone(),
        division: q.division.as_ref().map(|(e, d)| (e.rename(map), d.clone())),
    }
}

/// The times the schedule gives statement `k`'s point (parameters and iterators in
/// `point`), without repetition and in increasing order: directly for a function, by
/// search for a relation. Outputs are searched between the bounds that the constraint's
/// top-level linear atoms give them once the variables before them are known, else in
/// `[-reach, reach]`, and `exists` variables in `[-reach, reach]`: an oracle independent
/// of [`lift`]. `Err` with the count when more than `budget` candidates would be tried.
pub fn times(
    problem: &Problem,
    k: usize,
    point: &[Int],
    reach: i64,
    budget: &mut u128,
) -> Result<Vec<Vec<Int>>, u128> {
    let Some(sch) = &problem.schedule else {
        return Ok(vec![Vec::new()]);
    };
    let np = problem.params.len();
    let mut found = BTreeSet::new();
    for e in sch.iter().filter(|e| e.statement == k) {
        if e.is_function(np) {
            found.insert(e.time.iter().map(|t| t.eval(point)).collect());
            continue;
        }
        let first_output = point.len();
        let mut full = point.to_vec();
        full.resize(
            first_output + e.outputs.len() + e.existentials.len(),
            Int::from(0),
        );
        let top = conjuncts(&e.constraint);
        search(
            e,
            &top,
            first_output,
            0,
            &mut full,
            reach,
            budget,
            &mut found,
        )?;
    }
    Ok(found.into_iter().collect())
}

/// The conjuncts of a formula's top-level conjunction.
fn conjuncts(f: &Formula) -> Vec<&Atom> {
    match f {
        Formula::And(parts) => parts.iter().flat_map(conjuncts).collect(),
        Formula::Atom(a) => vec![a],
        _ => Vec::new(),
    }
}

/// Assigns output `l` onwards, then checks the constraint with its quantified variables.
#[allow(clippy::too_many_arguments)]
fn search(
    e: &ScheduleEntry,
    top: &[&Atom],
    first_output: usize,
    l: usize,
    point: &mut Vec<Int>,
    reach: i64,
    budget: &mut u128,
    found: &mut BTreeSet<Vec<Int>>,
) -> Result<(), u128> {
    if l == e.outputs.len() {
        *budget = budget.checked_sub(1).ok_or(u128::MAX)?;
        let first_q = first_output + e.outputs.len();
        if witnessed(&e.constraint, &e.existentials, first_q, 0, point, reach) {
            found.insert(e.time.iter().map(|t| t.eval(point)).collect());
        }
        return Ok(());
    }
    let v = first_output + l;
    if !mentioned(e, v) {
        point[v] = Int::from(0);
        return search(e, top, first_output, l + 1, point, reach, budget, found);
    }
    let (lo, hi) = bounds(top, v, point, reach);
    let mut x = lo;
    while x <= hi {
        point[v] = x.clone();
        search(e, top, first_output, l + 1, point, reach, budget, found)?;
        x = x + Int::from(1);
    }
    Ok(())
}

/// Whether the entry's time, constraint or divisions mention variable `v`.
fn mentioned(e: &ScheduleEntry, v: usize) -> bool {
    e.time.iter().any(|t| t.degree(v) > 0)
        || e.constraint.polynomials().iter().any(|p| p.degree(v) > 0)
        || e.existentials
            .iter()
            .any(|q| q.division.as_ref().is_some_and(|(n, _)| n.degree(v) > 0))
}

/// Bounds on variable `v` from the atoms linear in it whose other variables all come
/// before it; `[-reach, reach]` on a side no atom bounds.
fn bounds(top: &[&Atom], v: usize, point: &[Int], reach: i64) -> (Int, Int) {
    let (mut lo, mut hi): (Option<Int>, Option<Int>) = (None, None);
    let one = Int::from(1);
    for a in top {
        if a.poly.degree(v) != 1 || a.poly.vars().iter().any(|&w| w > v) {
            continue;
        }
        let cs = a.poly.coeffs(v);
        let Some(c) = cs[1].constant_value() else {
            continue;
        };
        // c*v + r ~ 0 with r known: v ~ -r/c, the relation flipped for c < 0.
        let r = cs[0].eval(point);
        let (num, rel) = if c.signum() > 0 {
            (r.neg(), a.rel)
        } else {
            (r, a.rel.flip())
        };
        let den = if c.signum() > 0 { c } else { c.neg() };
        let floor = num.div_mod_floor(&den).0;
        let ceil = num.neg().div_mod_floor(&den).0.neg();
        let (l, h) = match rel {
            Rel::Le => (None, Some(floor)),
            Rel::Lt => (None, Some(ceil - one.clone())),
            Rel::Ge => (Some(ceil), None),
            Rel::Gt => (Some(floor + one.clone()), None),
            Rel::Eq => (Some(ceil), Some(floor)),
            Rel::Ne => (None, None),
        };
        if let Some(l) = l {
            lo = Some(lo.map_or(l.clone(), |x| x.max(l)));
        }
        if let Some(h) = h {
            hi = Some(hi.map_or(h.clone(), |x| x.min(h)));
        }
    }
    (
        lo.unwrap_or_else(|| Int::from(-reach)),
        hi.unwrap_or_else(|| Int::from(reach)),
    )
}
