//! The pipeline: a parsed problem to a decomposition to loops.

use crate::ast::Node;
use crate::error::GenError;
use crate::expr::Expr;
use crate::generated::Generated;
pub use crate::guarded::Budget;
use crate::input::Problem;
use crate::linear::{LinearInput, Separation};
use crate::lower::{Lowered, Lowering};
use crate::tiled::{generate_clamped, ClampTiling};
use cad::formula::{Atom, Formula, Rel};
use cad::{Cad, LiftStats};
use polys::{Poly, Vars};

/// Choices of `polyscan gen`; the defaults are the command's (the scanners where they
/// apply, the compact shape, no limit).
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Iterator names, outermost first (a permutation of the statements' positions), or
    /// the single word `brown` for Brown's heuristic; `None`: file order.
    pub order: Option<Vec<String>>,
    /// Extra constraints on the parameters (`--context`), over the parameters.
    pub context: Option<Formula>,
    /// Assert that the domain is convex (enables section elimination beyond polyhedra).
    pub convex: bool,
    /// Constraints that hold wherever a statement's domain does (over the file's
    /// variables); they only prune the decomposition (tiling's overapproximation).
    pub pruning: Vec<Formula>,
    /// Per statement: the values its macro receives, as polynomials over the file's
    /// variables (tiling passes the original coordinates); `None`: its iterators.
    pub calls: Option<Vec<Vec<Poly>>>,
    /// Per statement: how many of its leading iterators its macro receives (the others
    /// are witnesses of quantified variables, see `existential`); `None`: all.
    pub arity: Option<Vec<usize>>,
    /// Scan affine inputs (unions of polyhedra, several statements, schedules: see
    /// `union`) and tiled problems (where every constraint is linear in each loop
    /// variable with a coefficient of known sign: see `linear`) by Fourier–Motzkin
    /// elimination, max/min bounds instead of cells, as isl prints them; the CAD otherwise.
    pub linear: bool,
    /// Full/partial tile separation for the linear scanner (over the file's variables).
    pub separation: Option<Separation>,
    /// Where the linear scanner does not apply to a tiled problem: clamp the untiled
    /// loops to each tile instead of decomposing the tiled system (see `tiled`).
    pub clamp: Option<ClampTiling>,
    /// Skip the clean-up passes (the clamping generator reads raw loops).
    pub raw: bool,
    /// With `linear`: keep the CAD's cell-by-cell shape for polynomial domains (`gen
    /// --separate`: guard-free inner loops, one nest per cell) instead of the compact one
    /// (one loop per variable from the max of its lower to the min of its upper bounds,
    /// see `intervals`).
    pub separate: bool,
    /// Where the decomposition and the lowering stop early.
    pub limits: cad::Limits,
    /// With `linear`: where the CAD gives way to the guarded scan (affine constraints as
    /// loops, polynomial ones as tests; see `guarded`), if that scan bounds every loop;
    /// `None`: the CAD however long it takes.
    pub budget: Option<Budget>,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            order: None,
            context: None,
            convex: false,
            pruning: Vec::new(),
            calls: None,
            arity: None,
            linear: true,
            separation: None,
            clamp: None,
            raw: false,
            separate: false,
            limits: cad::Limits::none(),
            budget: Some(Budget::default()),
        }
    }
}

/// Generates loops for `problem`.
///
/// ```
/// use codegen::{generate, input::parse_problem, GenOptions};
/// use cad::LiftStats;
/// let p = parse_problem("{ T[x, y] : 1 <= x <= 7 and 1 <= y <= 9 and (y - 4)^2 - 3x + 12 >= 0 }").unwrap();
/// // The CAD's cells, as Listing 2.3 of the seed thesis has them: two x-loops, three y-loops.
/// let cad = GenOptions { linear: false, ..GenOptions::default() };
/// let g = generate(&p, &cad, &LiftStats::default()).unwrap();
/// assert_eq!(codegen::ast::shape(&g.nodes).loops, 5);
/// ```
pub fn generate(
    problem: &Problem,
    opts: &GenOptions,
    stats: &LiftStats,
) -> Result<Generated, GenError> {
    // Relational schedules: their outputs become iterators (see `relation`).
    if let Some(l) = crate::relation::lift(problem) {
        if opts.order.is_some() {
            return Err(GenError::Order(
                "a schedule fixes the loop order; --order applies only without one".into(),
            ));
        }
        let opts = GenOptions {
            arity: Some(l.arity),
            ..opts.clone()
        };
        return generate(&l.problem, &opts, stats);
    }
    // Quantified variables become witness loops after the iterators (see `existential`),
    // divisions of the parameters alone parameters of their own (see `derived`).
    // Caller's pruning and call arguments read the original variable numbering: no lift.
    let lift = opts.calls.is_none() && opts.pruning.is_empty();
    if let Some(w) = crate::existential::witness(problem, lift).map_err(GenError::Quantified)? {
        if opts.order.is_some() {
            return Err(GenError::Order(
                "statements with quantified variables or integer divisions keep the file's order for now".into(),
            ));
        }
        // Leading iterators the macro receives: the lifted problem's count, if lifted.
        let opts = GenOptions {
            arity: Some(opts.arity.clone().unwrap_or(w.arity)),
            ..opts.clone()
        };
        if w.divisions.is_empty() {
            return generate(&w.problem, &opts, stats);
        }
        // The caller's context reads the parameters, which the divisions now precede.
        let nd = w.divisions.len();
        let lifted = GenOptions {
            context: opts.context.as_ref().map(|c| {
                let n = c.polynomials().iter().map(Poly::nvars).max().unwrap_or(0);
                c.rename(&(0..n).map(|v| v + nd).collect::<Vec<_>>())
            }),
            ..opts.clone()
        };
        let g = generate(&w.problem, &lifted, stats)?;
        if let Some(g) = crate::derived::substitute(g, &w.divisions) {
            return Ok(g);
        }
        let w = crate::existential::witness(problem, false)
            .map_err(GenError::Quantified)?
            .unwrap_or_else(|| unreachable!("the problem quantified a variable above"));
        return generate(&w.problem, &opts, stats);
    }
    let nparams = problem.params.len();
    let depth = problem.depth();
    let file_vars = problem.vars();
    let ntime = problem
        .schedule
        .as_ref()
        .and_then(|s| s.first())
        .map_or(0, |e| e.time.len());
    if ntime > 0 && opts.order.is_some() {
        return Err(GenError::Order(
            "a schedule fixes the loop order; --order applies only without one".into(),
        ));
    }
    let position: Vec<usize> = match &opts.order {
        None => (0..depth).collect(),
        Some(names) if names.len() == 1 && names[0] == "brown" => {
            let polys: Vec<Poly> = problem
                .statements
                .iter()
                .flat_map(|s| s.domain.polynomials())
                .collect();
            let iters: Vec<usize> = (nparams..nparams + depth).collect();
            cad::order::brown_order(&polys, &iters)
                .into_iter()
                .map(|v| v - nparams)
                .collect()
        }
        Some(names) => order_positions(names, &file_vars, nparams, depth)?,
    };
    // Loop variables: parameters, schedule dimensions, then iterator positions (in the
    // order asked for). `map` sends the file's variable indices to loop variables.
    let first_iter = nparams + ntime;
    let mut map: Vec<usize> = (0..nparams).collect();
    map.resize(nparams + depth, 0);
    for (c, &p) in position.iter().enumerate() {
        map[nparams + p] = first_iter + c;
    }
    let mut names: Vec<String> = problem.params.clone();
    for l in 0..ntime {
        let mut n = format!("c{l}");
        while file_vars.index(&n).is_some() {
            n.push('_');
        }
        names.push(n);
    }
    names.extend(position.iter().map(|&p| file_vars.name(nparams + p)));
    let vars = Vars::from_names(names);
    let mut formulas = Vec::with_capacity(problem.statements.len());
    let mut stmt_args: Vec<Vec<usize>> = Vec::with_capacity(problem.statements.len());
    let mut times = Vec::with_capacity(problem.statements.len());
    for (k, s) in problem.statements.iter().enumerate() {
        let mut parts = vec![s.domain.rename(&map).tighten_strict()];
        let mut time = Vec::new();
        if let Some(sch) = problem.time_of(k) {
            for (l, t) in sch.iter().enumerate() {
                let t = t.rename(&map);
                parts.push(Formula::Atom(Atom::compare(
                    &Poly::var(nparams + l),
                    Rel::Eq,
                    &t,
                )));
                time.push(t);
            }
        }
        // Positions a shorter statement does not have are pinned to 0.
        for q in s.iterators.len()..depth {
            parts.push(Formula::Atom(Atom::compare(
                &Poly::var(map[nparams + q]),
                Rel::Eq,
                &Poly::zero(),
            )));
        }
        formulas.push(Formula::and(parts));
        let arity = opts.arity.as_ref().map_or(s.iterators.len(), |a| a[k]);
        stmt_args.push((0..arity).map(|q| map[nparams + q]).collect());
        times.push(time);
    }
    let mut context = vec![problem.context.tighten_strict()];
    if let Some(c) = &opts.context {
        context.push(c.tighten_strict());
    }
    let calls: Option<Vec<Vec<Poly>>> = opts.calls.as_ref().map(|cs| {
        cs.iter()
            .map(|c| c.iter().map(|p| p.rename(&map)).collect())
            .collect()
    });
    let statements: Vec<(String, usize)> = problem
        .statements
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let arity = match (&calls, &opts.arity) {
                (Some(c), _) => c[k].len(),
                (None, Some(a)) => a[k],
                (None, None) => s.iterators.len(),
            };
            (s.name.clone(), arity)
        })
        .collect();
    // Loops by one of the scanners, or by the CAD; the rest of the output is shared.
    let mut stopped = None;
    let (nodes, cad, pruning) = 'generated: {
        let tiled = calls.is_some();
        let affine = !tiled && is_affine(problem);
        let call_exprs: Vec<Vec<Expr>> = match &calls {
            Some(cs) => cs
                .iter()
                .map(|c| c.iter().cloned().map(Expr::Poly).collect())
                .collect(),
            None => stmt_args
                .iter()
                .map(|a| a.iter().map(|&v| Expr::Poly(Poly::var(v))).collect())
                .collect(),
        };
        // Loops without the CAD: the union and Fourier-Motzkin scanners for affine and tiled
        // input, the compact shape for polynomial domains.
        let mut scanned: Option<Vec<Node>> = None;
        let separation = opts.separation.as_ref().map(|s| Separation {
            tile_levels: s.tile_levels,
            full: s.full.iter().map(|p| p.rename(&map)).collect(),
            tile: s.tile.iter().map(|p| p.rename(&map)).collect(),
        });
        let input = LinearInput {
            vars: &vars,
            nparams,
            formulas: &formulas,
            context: &context,
            calls: &call_exprs,
            separation: separation.as_ref(),
            limits: &opts.limits,
        };
        if opts.linear && (tiled || affine) {
            // Unions of polyhedra (statements, disjunctions, `!=`, schedules) first; single
            // polyhedra it leaves go to the Fourier-Motzkin scanner of one polyhedron.
            if affine {
                scanned = crate::union::scan(&input);
            }
            if scanned.is_none() && (tiled || (ntime == 0 && is_polyhedron(problem))) {
                scanned = match crate::linear::scan(&input) {
                    // The CAD names where the domain is unbounded; let it say so.
                    Err(GenError::Unbounded { .. }) if !tiled => None,
                    other => other?,
                };
            }
            if scanned.is_none() && tiled {
                return match &opts.clamp {
                Some(c) => clamped(c, opts, stats),
                None => Err(GenError::Tiling(
                    "this tiling needs constraints linear in every loop variable (with tile loops outside, other domains are clamped to tiles); the CAD of the tiled system (--engine cad) is exact but rarely finishes".into(),
                )),
            };
            }
        }
        if scanned.is_none()
            && opts.linear
            && !opts.separate
            && !tiled
            && ntime == 0
            && opts.pruning.is_empty()
        {
            scanned = crate::intervals::scan(&input)?;
        }
        if let Some(nodes) = scanned {
            let nodes = crate::simplify::drop_redundant_guards(nodes);
            let nodes = crate::simplify::inline_single_iterations(nodes);
            break 'generated (nodes, None, context);
        }
        // The guarded scan, kept for when the CAD passes its budget.
        let budget = opts
            .budget
            .filter(|_| opts.linear && !tiled && opts.pruning.is_empty() && opts.clamp.is_none());
        let emitter = crate::emit_c::CEmitter {
            vars: &vars,
            nparams,
            statements: &statements,
        };
        let guarded = budget
            .and_then(|_| crate::guarded::scan(&input))
            .filter(|nodes| crate::guarded::safe_enough(&emitter, nodes))
            .map(|nodes| (nodes, context.clone()));
        // Without a guarded scan to fall back on, the CAD has no budget.
        let budget = budget.filter(|_| guarded.is_some());
        let limits = match (budget, &guarded) {
            (Some(b), Some(_)) => cad::Limits {
                max_cells: Some(
                    opts.limits
                        .max_cells
                        .map_or(b.max_cells, |m| m.min(b.max_cells)),
                ),
                max_degree: Some(b.max_degree),
                ..opts.limits
            },
            _ => opts.limits,
        };
        // The budget's stop, not the caller's limit: the guarded scan takes over.
        let over_budget = |e: &GenError| match (e.stop_reason(), budget) {
            (Some(cad::StopReason::DegreeLimit(_)), Some(_)) => true,
            (Some(cad::StopReason::CellLimit(m)), Some(b)) => {
                m == b.max_cells && opts.limits.max_cells.is_none_or(|u| u > b.max_cells)
            }
            _ => false,
        };
        // What the context promises about the parameters: guards that say no more are not
        // printed (outside the context nothing is promised).
        let promised = context_constraints(&context);
        let mut pruning = context;
        pruning.extend(opts.pruning.iter().map(|f| f.rename(&map)));
        if first_iter + depth == 0 {
            // No variables at all: each statement runs once if its (constant) formula holds.
            let holds = |f: &Formula| f.eval_int(&[]);
            let nodes = if pruning.iter().all(holds) {
                formulas
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| holds(f))
                    .map(|(s, _)| Node::Stmt {
                        stmt: s,
                        args: Vec::new(),
                    })
                    .collect()
            } else {
                Vec::new()
            };
            break 'generated (nodes, None, pruning);
        }
        let convex = opts.convex || (ntime == 0 && is_polyhedron(problem));
        // Bounds of degree 3 and more need the roots of their derivatives in the same
        // stacks as separators: when lowering meets some, the derivatives of all of them
        // join the projection (as pruning formulas that always hold) and the decomposition
        // is redone, projecting from the start with all coefficients the polynomials the
        // previous one had to (its McCallum restarts are not repeated).
        let mut separators: Vec<Poly> = Vec::new();
        let mut full_polys: Vec<Poly> = Vec::new();
        let (cad, nodes) = loop {
            let built = Cad::with_full(
                formulas.clone(),
                pruning.clone(),
                first_iter + depth,
                stats,
                &limits,
                std::mem::take(&mut full_polys),
            )
            .map_err(GenError::from)
            .and_then(|cad| {
                let lowered = Lowering {
                    cad: &cad,
                    nparams,
                    vars: &vars,
                    stats: &stats.signs,
                    convex,
                    stmt_args: &stmt_args,
                    limits: &limits,
                }
                .lower_all()?;
                Ok((cad, lowered))
            });
            let (cad, lowered) = match built {
                Ok(b) => b,
                Err(e) if over_budget(&e) => {
                    let Some((nodes, context)) = guarded else {
                        unreachable!("the budget applies only with a guarded scan")
                    };
                    stopped = e.stop_reason();
                    let nodes = crate::simplify::drop_redundant_guards(nodes);
                    let nodes = crate::simplify::inline_single_iterations(nodes);
                    break 'generated (nodes, None, context);
                }
                Err(e) => return Err(e),
            };
            let mut missing = match lowered {
                Lowered::Nodes(nodes) => break (cad, nodes),
                Lowered::Missing(missing) => missing,
            };
            let mut added = false;
            for e in &missing {
                let crate::bounds::BoundError::Degree { poly, .. } = e else {
                    continue;
                };
                // The derivative separates the roots; its own roots (degree 3 and more)
                // need the next derivative, down to a quadratic.
                let k = poly.main_var().unwrap_or(0);
                let mut d = poly.derivative(k);
                if separators.contains(&d) {
                    continue;
                }
                added = true;
                loop {
                    // d >= 0 or d < 0: never prunes, but puts d into the projection.
                    pruning.push(Formula::or(vec![
                        Formula::Atom(Atom::compare(&d, Rel::Ge, &Poly::zero())),
                        Formula::Atom(Atom::compare(&d, Rel::Lt, &Poly::zero())).tighten_strict(),
                    ]));
                    separators.push(d.clone());
                    if d.degree(k) < 3 {
                        break;
                    }
                    d = d.derivative(k);
                }
            }
            if !added {
                // The separators are there and the bound still has no form.
                return Err(missing.swap_remove(0).into());
            }
            full_polys = cad.full_polys;
        };
        let nodes = match &calls {
            Some(cs) => with_calls(nodes, cs),
            None => nodes,
        };
        let nodes = if opts.raw {
            nodes
        } else {
            let nodes = crate::simplify::drop_redundant_guards(nodes);
            let nodes = crate::simplify::drop_promised_guards(nodes, &promised, nparams);
            crate::simplify::inline_single_iterations(nodes)
        };
        (nodes, Some(cad), pruning)
    };
    // Strides last: the passes above read loops with step 1 only.
    let nodes = if opts.raw {
        nodes
    } else {
        crate::simplify::merge_equal_guards(crate::stride::strides(nodes))
    };
    Ok(Generated {
        vars,
        nparams,
        ntime,
        statements,
        nodes,
        cad,
        formulas,
        pruning,
        calls,
        stmt_args,
        times,
        guarded: stopped,
    })
}

/// Clamped tiled loops for `c` (see `tiled`), whose untiled loops are this module's raw
/// CAD loops of the original problem.
fn clamped(c: &ClampTiling, opts: &GenOptions, stats: &LiftStats) -> Result<Generated, GenError> {
    let raw = GenOptions {
        order: None,
        context: opts.context.clone(),
        convex: opts.convex,
        raw: true,
        linear: false,
        limits: opts.limits,
        ..GenOptions::default()
    };
    let untiled = |order: Option<Vec<String>>| {
        generate(
            &c.original,
            &GenOptions {
                order,
                ..raw.clone()
            },
            stats,
        )
    };
    generate_clamped(c, opts.context.as_ref(), &untiled)
}

/// The context as constraints `q >= 0` (none where it is not a conjunction).
fn context_constraints(context: &[Formula]) -> Vec<Poly> {
    let mut cons = Vec::new();
    for f in context {
        match crate::linear::conjunction(f) {
            Some(Some(c)) => cons.extend(c),
            _ => return Vec::new(),
        }
    }
    cons
}

/// Statement instances receive `calls` instead of their iterators.
fn with_calls(nodes: Vec<Node>, calls: &[Vec<Poly>]) -> Vec<Node> {
    nodes
        .into_iter()
        .map(|n| match n {
            Node::Stmt { stmt, .. } => Node::Stmt {
                stmt,
                args: calls[stmt].iter().cloned().map(Expr::Poly).collect(),
            },
            other => other.map_body(|b| with_calls(b, calls)),
        })
        .collect()
}

fn order_positions(
    names: &[String],
    vars: &Vars,
    nparams: usize,
    depth: usize,
) -> Result<Vec<usize>, GenError> {
    let iters: Vec<String> = (0..depth).map(|p| vars.name(nparams + p)).collect();
    if names.len() != depth {
        return Err(GenError::Order(format!(
            "expected all {depth} iterators ({}), got {}",
            iters.join(", "),
            names.join(", ")
        )));
    }
    let mut out = Vec::with_capacity(depth);
    for n in names {
        let p = iters.iter().position(|i| i == n).ok_or_else(|| {
            GenError::Order(format!("'{n}' is not an iterator ({})", iters.join(", ")))
        })?;
        if out.contains(&p) {
            return Err(GenError::Order(format!("'{n}' is named twice")));
        }
        out.push(p);
    }
    Ok(out)
}

/// Every constraint and schedule dimension affine (any number of statements, `and`,
/// `or`, `not`, `!=`): input for the union scanner.
fn is_affine(problem: &Problem) -> bool {
    let affine = |f: &Formula| f.polynomials().iter().all(|p| p.total_degree() <= 1);
    problem.statements.iter().all(|s| affine(&s.domain))
        && affine(&problem.context)
        && problem.schedule.as_ref().is_none_or(|sch| {
            sch.iter()
                .all(|e| e.time.iter().all(|t| t.total_degree() <= 1))
        })
}

/// One statement whose domain is a conjunction of affine constraints (strict ones are
/// tightened over the integers) without `!=`: a
/// polyhedron, hence convex (Lemma B.1 of the seed thesis).
fn is_polyhedron(problem: &Problem) -> bool {
    fn affine_conj(f: &Formula) -> bool {
        match f {
            Formula::True => true,
            Formula::Atom(a) => {
                a.poly.total_degree() <= 1 && !matches!(a.rel, cad::formula::Rel::Ne)
            }
            Formula::And(fs) => fs.iter().all(affine_conj),
            _ => false,
        }
    }
    problem.statements.len() == 1
        && affine_conj(&problem.statements[0].domain)
        && affine_conj(&problem.context)
}
