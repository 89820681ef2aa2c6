//! Tiled code for domains whose constraints are not linear (a tiled disc): the point
//! loops are the untiled domain's own loops, moved into tile coordinates and clamped to
//! each tile, and the tile loops scan the tiles that meet the domain's bounding box.
//!
//! Why not the CAD of the tiled system: with the sizes as parameters it has twice the
//! variables and products `w*t`, and its decomposition does not finish (the seed thesis
//! needed seconds even for rectangles). Clamping is exact: the untiled loops visit each
//! point of the domain once; intersected with the Fourier–Motzkin bounds of one tile
//! (each tile constraint bounds the loop of its innermost variable) they visit exactly
//! the domain's points in that tile, in lexicographic order of the point coordinates.
//! The bounding box comes from one untiled decomposition per dimension with that
//! dimension outermost; its bounds are bound to variables (`x_lo`, `x_hi`) by loops that
//! run once, since they may be square roots or other non-polynomial expressions.

use crate::ast::Node;
use crate::error::GenError;
use crate::expr::Expr;
use crate::generated::Generated;
use crate::input::Problem;
use crate::linear::{level_bounds, max_of, min_of};
use cad::formula::Formula;
use polys::{Coeff, Int, Poly, Vars};

/// What the clamping generator needs to know about a tiling (tile loops outside point
/// loops).
#[derive(Clone, Debug)]
pub struct ClampTiling {
    /// The problem before tiling.
    pub original: Problem,
    /// Parametric sizes, appended to the parameters.
    pub size_params: Vec<String>,
    /// Each size as a polynomial over the parameters and size parameters.
    pub sizes: Vec<Poly>,
    /// The shape matrix `K`.
    pub shape: Vec<Vec<Int>>,
    /// Names of the tile coordinates `t_k`, outermost first.
    pub t_names: Vec<String>,
    /// Names of the point coordinates `o_k` (offsets within a tile, with
    /// `x = K diag(sizes) t + o`), outermost first.
    pub o_names: Vec<String>,
    /// The tile's points, polynomials `>= 0` over parameters, sizes, `t`, `o`.
    pub tile: Vec<Poly>,
    /// Per statement: the tiled domain over the same variables.
    pub domains: Vec<Formula>,
}

/// Generates clamped tiled loops (see the module documentation). `extra_context` is the
/// caller's extra context on the parameters; `untiled(order)` generates the raw loops of
/// `c.original` (the CAD's, without the clean-up passes) in that iterator order (`None`:
/// file order). The generator is passed in so that this module stays below the one that
/// dispatches to it.
pub fn generate_clamped(
    c: &ClampTiling,
    extra_context: Option<&Formula>,
    untiled: &dyn Fn(Option<Vec<String>>) -> Result<Generated, GenError>,
) -> Result<Generated, GenError> {
    let problem = &c.original;
    let np = problem.params.len();
    let n = problem.depth();
    let big_np = np + c.size_params.len();
    // Layout: parameters and sizes | x_lo, x_hi per dimension | t | o.
    let beta_lo = |k: usize| big_np + 2 * k;
    let beta_hi = |k: usize| big_np + 2 * k + 1;
    let t_var = |k: usize| big_np + 2 * n + k;
    let o_var = |k: usize| big_np + 3 * n + k;
    let nvars = big_np + 4 * n;
    let file_vars = problem.vars();
    let mut names: Vec<String> = problem.params.clone();
    names.extend(c.size_params.iter().cloned());
    let mut taken: Vec<String> = names.clone();
    taken.extend(c.t_names.iter().cloned());
    taken.extend(c.o_names.iter().cloned());
    for k in 0..n {
        let x = file_vars.name(np + k);
        for side in ["lo", "hi"] {
            let mut name = format!("{x}_{side}");
            while taken.contains(&name) {
                name.push('_');
            }
            taken.push(name.clone());
            names.push(name);
        }
    }
    names.extend(c.t_names.iter().cloned());
    names.extend(c.o_names.iter().cloned());
    let vars = Vars::from_names(names);
    // The tiled variables (parameters, sizes, t, o) moved into this layout.
    let shift: Vec<usize> = (0..big_np + 2 * n)
        .map(|i| if i < big_np { i } else { i + 2 * n })
        .collect();
    // x_k = sum_j K_kj s_j t_j + o_k
    let a_t: Vec<Poly> = (0..n)
        .map(|r| {
            let mut p = Poly::zero();
            for j in 0..n {
                if !c.shape[r][j].is_zero() {
                    p = p.add(&c.sizes[j].mul(&Poly::var(t_var(j))).scale(&c.shape[r][j]));
                }
            }
            p
        })
        .collect();
    let x_of = |k: usize| a_t[k].add(&Poly::var(o_var(k)));
    // Tile loops and the tile's bounds on the point coordinates: Fourier–Motzkin over
    // the tile inside the box, with the box bounds as symbols.
    let mut system: Vec<Poly> = c.tile.iter().map(|p| p.rename(&shift)).collect();
    for k in 0..n {
        system.push(x_of(k).sub(&Poly::var(beta_lo(k))));
        system.push(Poly::var(beta_hi(k)).sub(&x_of(k)));
    }
    let mut context = vec![problem.context.tighten_strict()];
    if let Some(ctx) = extra_context {
        context.push(ctx.tighten_strict());
    }
    for s in &c.sizes {
        if !s.is_constant() {
            context.push(Formula::Atom(cad::formula::Atom {
                poly: s.sub(&Poly::one()),
                rel: cad::formula::Rel::Ge,
            }));
        }
    }
    let Some(levels) = level_bounds(system, big_np + 2 * n, nvars, &context, &vars)? else {
        return Err(GenError::Tiling(
            "the tile shape gives constraints whose signs are not known".into(),
        ));
    };
    // The untiled code in file order, then per dimension with that dimension outermost.
    let points = untiled(None)?;
    let mut boxes = Vec::with_capacity(n);
    for k in 0..n {
        if k == 0 {
            boxes.push(points.nodes.clone());
            continue;
        }
        let mut order: Vec<String> = vec![file_vars.name(np + k)];
        order.extend((0..n).filter(|&q| q != k).map(|q| file_vars.name(np + q)));
        let g = untiled(Some(order))?;
        boxes.push(g.nodes);
    }
    // The point code in tile coordinates, clamped to the tile.
    let temp = nvars;
    let to_tile = |e: &Expr| -> Expr {
        let mut e = e.clone();
        for k in 0..n {
            e = e.subst(np + k, &Poly::var(temp + k));
        }
        for k in 0..n {
            e = e.subst(temp + k, &x_of(k));
        }
        e
    };
    let clamp = Clamp {
        np,
        n,
        to_tile: &to_tile,
        a_t: &a_t,
        levels: &levels[n..],
        o_var: &o_var,
    };
    let inner = clamp.nodes(&points.nodes);
    // Tile loops.
    let mut tiles = inner;
    for k in (0..n).rev() {
        let (lo, hi) = &levels[k];
        tiles = vec![Node::Loop {
            var: t_var(k),
            lower: lo.clone(),
            upper: hi.clone(),
            step: 1,
            body: tiles,
        }];
    }
    let mut nodes = tiles;
    for k in (0..n).rev() {
        nodes = bind_box(&boxes[k], np, beta_lo(k), beta_hi(k), &nodes)?;
    }
    // The three nested decompositions repeat the same parameter case distinctions.
    let nodes = prune_guards(nodes, &mut vec![(None, None); big_np]);
    let nodes = crate::simplify::drop_redundant_guards(nodes);
    let mut nodes = crate::simplify::inline_single_iterations(nodes);
    // Divisions by the sizes need them positive, as the tiled system requires.
    for v in (np..big_np).rev() {
        nodes = vec![Node::Guard {
            var: v,
            lower: Some(Expr::constant(1)),
            upper: None,
            body: nodes,
        }];
    }
    let calls: Vec<Vec<Poly>> = problem
        .statements
        .iter()
        .map(|s| (0..s.iterators.len()).map(x_of).collect())
        .collect();
    Ok(Generated {
        vars,
        nparams: big_np,
        ntime: 0,
        statements: problem
            .statements
            .iter()
            .map(|s| (s.name.clone(), s.iterators.len()))
            .collect(),
        nodes,
        cad: points.cad,
        formulas: c.domains.iter().map(|d| d.rename(&shift)).collect(),
        pruning: context,
        calls: Some(calls),
        stmt_args: problem
            .statements
            .iter()
            .map(|s| (0..s.iterators.len()).map(o_var).collect())
            .collect(),
        times: vec![Vec::new(); problem.statements.len()],
        guarded: None,
    })
}

/// Rewrites the untiled point code into tile coordinates, clamped to the tile.
struct Clamp<'a> {
    np: usize,
    n: usize,
    to_tile: &'a dyn Fn(&Expr) -> Expr,
    a_t: &'a [Poly],
    /// The tile's bounds on each point coordinate.
    levels: &'a [(Expr, Expr)],
    o_var: &'a dyn Fn(usize) -> usize,
}

impl Clamp<'_> {
    fn nodes(&self, nodes: &[Node]) -> Vec<Node> {
        nodes.iter().map(|n| self.node(n)).collect()
    }

    fn node(&self, node: &Node) -> Node {
        match node {
            Node::Loop {
                var,
                lower,
                upper,
                body,
                ..
            } => {
                let k = var - self.np;
                debug_assert!(k < self.n);
                let shift = Expr::Poly(self.a_t[k].neg());
                let (tlo, thi) = &self.levels[k];
                let lo = max_of(vec![sum((self.to_tile)(lower), shift.clone()), tlo.clone()]);
                let hi = min_of(vec![sum((self.to_tile)(upper), shift), thi.clone()]);
                Node::Loop {
                    var: (self.o_var)(k),
                    lower: lo,
                    upper: hi,
                    step: 1,
                    body: self.nodes(body),
                }
            }
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => Node::Guard {
                var: *var,
                lower: lower.as_ref().map(|e| (self.to_tile)(e)),
                upper: upper.as_ref().map(|e| (self.to_tile)(e)),
                body: self.nodes(body),
            },
            Node::Test { cond, body } => Node::Test {
                cond: cond
                    .try_map(&|e| Some((self.to_tile)(e)))
                    .unwrap_or_else(|| unreachable!("a total map")),
                body: self.nodes(body),
            },
            Node::Stmt { stmt, args } => Node::Stmt {
                stmt: *stmt,
                args: args.iter().map(|a| (self.to_tile)(a)).collect(),
            },
        }
    }
}

fn sum(a: Expr, b: Expr) -> Expr {
    match (a, b) {
        (Expr::Poly(p), Expr::Poly(q)) => Expr::Poly(p.add(&q)),
        (a, b) => Expr::Sum(vec![a, b]),
    }
}

/// Wraps `inner` in the parameter guards of `code` (a decomposition with dimension `k`
/// outermost, at variable `x`), binding `lo`/`hi` to the hull of the dimension's loops
/// under each guard.
fn bind_box(
    code: &[Node],
    x: usize,
    lo: usize,
    hi: usize,
    inner: &[Node],
) -> Result<Vec<Node>, GenError> {
    let loops: Vec<(&Expr, &Expr)> = code
        .iter()
        .filter_map(|n| match n {
            Node::Loop {
                var, lower, upper, ..
            } if *var == x => Some((lower, upper)),
            _ => None,
        })
        .collect();
    let guards = code
        .iter()
        .filter(|n| matches!(n, Node::Guard { .. }))
        .count();
    if !loops.is_empty() && guards > 0 {
        // The inner code would run once for the loops and again under a guard.
        return Err(GenError::Tiling(
            "the bounding box of a tiled dimension could not be read off its decomposition".into(),
        ));
    }
    let mut out = Vec::new();
    if !loops.is_empty() {
        let l = min_of(loops.iter().map(|(l, _)| (*l).clone()).collect());
        let h = max_of(loops.iter().map(|(_, h)| (*h).clone()).collect());
        out.push(Node::Loop {
            var: lo,
            lower: l.clone(),
            upper: l,
            step: 1,
            body: vec![Node::Loop {
                var: hi,
                lower: h.clone(),
                upper: h,
                step: 1,
                body: inner.to_vec(),
            }],
        });
    }
    for n in code {
        match n {
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } => {
                let body = bind_box(body, x, lo, hi, inner)?;
                if !body.is_empty() {
                    out.push(Node::Guard {
                        var: *var,
                        lower: lower.clone(),
                        upper: upper.clone(),
                        body,
                    });
                }
            }
            Node::Loop { var, .. } if *var == x => {}
            _ => {
                return Err(GenError::Tiling(
                    "the bounding box of a tiled dimension could not be read off its decomposition"
                        .into(),
                ))
            }
        }
    }
    Ok(out)
}

/// Constant bounds known for a parameter on the way down: `(lower, upper)`.
type Known = (Option<Int>, Option<Int>);

/// Drops guards on parameters that the enclosing guards already decide: implied ones
/// are replaced by their body, contradicted ones by nothing.
fn prune_guards(nodes: Vec<Node>, known: &mut Vec<Known>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        match n {
            Node::Guard {
                var,
                lower,
                upper,
                body,
            } if var < known.len() => {
                let cl = lower.as_ref().map(Expr::constant_value);
                let cu = upper.as_ref().map(Expr::constant_value);
                if matches!(cl, Some(None)) || matches!(cu, Some(None)) {
                    let body = prune_guards(body, known);
                    out.push(Node::Guard {
                        var,
                        lower,
                        upper,
                        body,
                    });
                    continue;
                }
                let (cl, cu) = (cl.flatten(), cu.flatten());
                let saved = known[var].clone();
                let lo = match (&saved.0, &cl) {
                    (Some(a), Some(b)) => Some(a.max(b).clone()),
                    (a, b) => a.clone().or(b.clone()),
                };
                let hi = match (&saved.1, &cu) {
                    (Some(a), Some(b)) => Some(a.min(b).clone()),
                    (a, b) => a.clone().or(b.clone()),
                };
                if let (Some(l), Some(h)) = (&lo, &hi) {
                    if l > h {
                        continue; // contradicted by an enclosing guard
                    }
                }
                let implied = cl
                    .as_ref()
                    .is_none_or(|b| saved.0.as_ref().is_some_and(|a| a >= b))
                    && cu
                        .as_ref()
                        .is_none_or(|b| saved.1.as_ref().is_some_and(|a| a <= b));
                known[var] = (lo, hi);
                let body = prune_guards(body, known);
                known[var] = saved;
                if implied {
                    out.extend(body);
                } else if !body.is_empty() {
                    out.push(Node::Guard {
                        var,
                        lower,
                        upper,
                        body,
                    });
                }
            }
            other => out.push(other.map_body(|b| prune_guards(b, known))),
        }
    }
    out
}
