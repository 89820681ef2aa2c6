//! Divisions of the parameters alone (`4*floor(m/4) <= x`) as parameters of their own
//! while the scanners run, replaced by their values in the generated code: `for (c0 =
//! 4*ps_floord(m, 4); c0 <= n; ...)`, as isl prints them, instead of a witness loop
//! below `c0` whose projection loses the rounding (`c0 >= m - 3`) and must then be
//! searched.
//!
//! A division `q = floor(e/d)` of the parameters has one value for every parameter
//! value, so adding `q` as a parameter with `d*q <= e <= d*q + d - 1` in the context
//! changes no instance. The scanners treat it like any parameter; afterwards every bound
//! and argument that reads `q` linearly with a constant coefficient gets
//! `k*floor(e/d)` in its place. Where `q` is read otherwise (a guard on `q` itself, a
//! divisor), [`substitute`] gives up and the caller generates without the lift.

use crate::ast::Node;
use crate::expr::Expr;
use crate::generated::Generated;
use crate::input::{Problem, Statement};
use cad::formula::{Atom, Formula, Rel};
use polys::{Int, Poly, Vars};

/// The divisions lifted to parameters: `(e, d)` for `floor(e/d)`, over the original
/// parameters; division `j` is parameter `j`, original parameter `v` is `nd + v`.
pub type Divisions = Vec<(Poly, Int)>;

/// `problem` (quantified variables already simplified) with every division of the
/// parameters alone turned into a parameter before the original ones, and the divisions;
/// `None` when there is none.
pub fn lift(problem: &Problem) -> Option<(Problem, Divisions)> {
    let np = problem.params.len();
    let mut divisions: Divisions = Vec::new();
    for s in &problem.statements {
        for e in &s.existentials {
            if let Some((num, d)) = &e.division {
                if num.vars().iter().all(|&v| v < np)
                    && !divisions.contains(&(num.clone(), d.clone()))
                {
                    divisions.push((num.clone(), d.clone()));
                }
            }
        }
    }
    if divisions.is_empty() {
        return None;
    }
    let nd = divisions.len();
    // The divisions go first, so that a guard the scanners put on the innermost parameter
    // is on an original one (`if (m >= 8*ps_floord(m + 1, 8))`): every variable moves up.
    let up = |n: usize| -> Vec<usize> { (0..n).map(|v| v + nd).collect() };
    let shift = |p: &Poly| p.rename(&up(p.nvars()));
    let statements = problem
        .statements
        .iter()
        .map(|s| lift_statement(s, np, &divisions))
        .collect();
    let mut taken: Vec<String> = problem.params.clone();
    for s in &problem.statements {
        taken.extend(s.iterators.iter().cloned());
        taken.extend(s.existentials.iter().map(|e| e.name.clone()));
    }
    let mut params = Vec::with_capacity(np + nd);
    let mut context = vec![problem.context.rename(&up(np))];
    for (j, (num, d)) in divisions.iter().enumerate() {
        let mut k = j;
        while taken.contains(&format!("q{k}")) {
            k += 1;
        }
        taken.push(format!("q{k}"));
        params.push(format!("q{k}"));
        // d*q <= e <= d*q + d - 1.
        let num = &shift(num);
        let dq = Poly::var(j).mul(&Poly::constant(d.clone()));
        let slack = Poly::constant(d.clone()).sub(&Poly::one());
        context.push(Formula::Atom(Atom::compare(&dq, Rel::Le, num)));
        context.push(Formula::Atom(Atom::compare(num, Rel::Le, &dq.add(&slack))));
    }
    params.extend(problem.params.iter().cloned());
    let schedule = problem.schedule.as_ref().map(|entries| {
        entries
            .iter()
            .map(|e| {
                let mut e = e.clone();
                e.time = e.time.iter().map(shift).collect();
                let n = e.constraint.polynomials().iter().map(Poly::nvars).max();
                e.constraint = e.constraint.rename(&up(n.unwrap_or(0)));
                for q in &mut e.existentials {
                    if let Some((num, _)) = &mut q.division {
                        *num = shift(num);
                    }
                }
                e
            })
            .collect()
    });
    Some((
        Problem {
            params,
            statements,
            context: Formula::and(context),
            schedule,
        },
        divisions,
    ))
}

/// Statement `s` over the lifted parameters: its divisions of the parameters read the new
/// parameters instead, the other variables move up by their number.
fn lift_statement(s: &Statement, np: usize, divisions: &Divisions) -> Statement {
    let nd = divisions.len();
    let len = s.iterators.len();
    let mut map: Vec<usize> = (0..np + len).map(|v| v + nd).collect();
    let mut kept = Vec::new();
    for e in &s.existentials {
        let lifted = e
            .division
            .as_ref()
            .and_then(|div| divisions.iter().position(|x| x == div));
        match lifted {
            Some(j) => map.push(j),
            None => {
                map.push(np + nd + len + kept.len());
                kept.push(e.clone());
            }
        }
    }
    for e in &mut kept {
        if let Some((num, _)) = &mut e.division {
            *num = num.rename(&map);
        }
    }
    Statement {
        name: s.name.clone(),
        iterators: s.iterators.clone(),
        domain: s.domain.rename(&map),
        existentials: kept,
        span: s.span,
    }
}

/// `g`, generated for the lifted problem, with every division parameter replaced by its
/// value and moved after the loop variables (formulas and pruning keep reading it there,
/// the code no longer does); `None` where a value cannot replace it.
pub fn substitute(g: Generated, divisions: &Divisions) -> Option<Generated> {
    let nd = divisions.len();
    let np = g.nparams - nd;
    let up: Vec<usize> = (0..np).map(|v| v + nd).collect();
    let value = |j: usize| {
        let (num, d) = &divisions[j];
        Expr::FloorDiv(
            Box::new(Expr::Poly(num.rename(&up))),
            Poly::constant(d.clone()),
        )
    };
    let lifted = |v: usize| v < nd;
    let mut nodes: Vec<Node> = g.nodes;
    for j in 0..nd {
        let q = j;
        nodes = nodes
            .iter()
            .map(|n| {
                n.try_map(&|e: &Expr| e.subst_expr(q, &value(j)), &|v| {
                    (v != q).then_some(v)
                })
            })
            .collect::<Option<_>>()?;
    }
    let total = g.vars.len();
    let map: Vec<usize> = (0..total)
        .map(|v| if lifted(v) { total - nd + v } else { v - nd })
        .collect();
    let nodes = nodes
        .iter()
        .map(|n| n.try_map(&|e: &Expr| Some(e.rename(&map)), &|v| Some(map[v])))
        .collect::<Option<_>>()?;
    let mut names = vec![String::new(); total];
    for (v, name) in g.vars.names().iter().enumerate() {
        names[map[v]] = name.clone();
    }
    // Context constraints on the division parameters said only what they are.
    let pruning = g
        .pruning
        .iter()
        .filter(|f| {
            !f.polynomials()
                .iter()
                .any(|p| p.vars().into_iter().any(lifted))
        })
        .map(|f| f.rename(&map))
        .collect();
    Some(Generated {
        vars: Vars::from_names(names),
        nparams: g.nparams - nd,
        statements: g.statements,
        nodes,
        cad: g.cad,
        formulas: g.formulas.iter().map(|f| f.rename(&map)).collect(),
        pruning,
        calls: g.calls.map(|cs| {
            cs.iter()
                .map(|c| c.iter().map(|p| p.rename(&map)).collect())
                .collect()
        }),
        ntime: g.ntime,
        stmt_args: g
            .stmt_args
            .iter()
            .map(|a| a.iter().map(|&v| map[v]).collect())
            .collect(),
        times: g
            .times
            .iter()
            .map(|t| t.iter().map(|p| p.rename(&map)).collect())
            .collect(),
        guarded: g.guarded,
    })
}
