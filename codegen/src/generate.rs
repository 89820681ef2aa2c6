//! The pipeline: a parsed problem to a decomposition to loops.

use crate::ast::Node;
use crate::error::GenError;
use crate::input::Problem;
use crate::lower::Lowering;
use cad::formula::Formula;
use cad::{Cad, LiftStats};
use polys::Vars;

/// Choices of `polyscan gen`.
#[derive(Clone, Debug, Default)]
pub struct GenOptions {
    /// Iterator names, outermost first (a permutation of the statements' positions);
    /// `None`: file order.
    pub order: Option<Vec<String>>,
    /// Extra constraints on the parameters (`--context`), over the parameters.
    pub context: Option<Formula>,
    /// Assert that the domain is convex (enables section elimination beyond polyhedra).
    pub convex: bool,
}

/// A generated program and what it was generated from.
#[derive(Debug)]
pub struct Generated {
    /// Variables in loop order: parameters, then iterators outermost first.
    pub vars: Vars,
    pub nparams: usize,
    /// Statement names and iterator counts, in file order.
    pub statements: Vec<(String, usize)>,
    pub nodes: Vec<Node>,
    pub cad: Cad,
    /// `position[c]`: the original iterator position of loop variable `nparams + c`.
    pub position: Vec<usize>,
}

/// Generates loops for `problem`.
///
/// ```
/// use codegen::{generate, input::parse_problem, GenOptions};
/// use cad::LiftStats;
/// let p = parse_problem("{ T[x, y] : 1 <= x <= 7 and 1 <= y <= 9 and (y - 4)^2 - 3x + 12 >= 0 }").unwrap();
/// let g = generate(&p, &GenOptions::default(), &LiftStats::default()).unwrap();
/// assert_eq!(codegen::ast::shape(&g.nodes).loops, 5); // Listing 2.3: two x-loops, three y-loops
/// ```
pub fn generate(
    problem: &Problem,
    opts: &GenOptions,
    stats: &LiftStats,
) -> Result<Generated, GenError> {
    if problem.schedule.is_some() {
        return Err(GenError::Limit(
            "schedules are not supported yet: give statements of the same dimension".into(),
        ));
    }
    let nparams = problem.params.len();
    let depth = problem.depth();
    let file_vars = problem.vars();
    let position: Vec<usize> = match &opts.order {
        None => (0..depth).collect(),
        Some(names) => order_positions(names, &file_vars, nparams, depth)?,
    };
    // Rename: original variable nparams + position[c] becomes nparams + c.
    let mut map: Vec<usize> = (0..nparams).collect();
    map.resize(nparams + depth, 0);
    for (c, &p) in position.iter().enumerate() {
        map[nparams + p] = nparams + c;
    }
    let mut names: Vec<String> = problem.params.clone();
    names.extend(position.iter().map(|&p| file_vars.name(nparams + p)));
    let vars = Vars::from_names(names);
    let formulas: Vec<Formula> = problem
        .statements
        .iter()
        .map(|s| s.domain.rename(&map).tighten_strict())
        .collect();
    let mut pruning = vec![problem.context.tighten_strict()];
    if let Some(c) = &opts.context {
        pruning.push(c.tighten_strict());
    }
    let cad = Cad::new(formulas, pruning, nparams + depth, stats)?;
    let convex = opts.convex || is_polyhedron(problem);
    let nodes = Lowering {
        cad: &cad,
        nparams,
        vars: &vars,
        stats: &stats.signs,
        convex,
    }
    .lower()?;
    let nodes = crate::simplify::drop_redundant_guards(nodes);
    // Statement arguments are the iterators in the statement's own order.
    let statements = problem
        .statements
        .iter()
        .map(|s| (s.name.clone(), s.iterators.len()))
        .collect();
    Ok(Generated {
        vars,
        nparams,
        statements,
        nodes,
        cad,
        position,
    })
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
