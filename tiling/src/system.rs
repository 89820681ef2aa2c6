//! [`tile`]: the tiled system `x = K diag(s) t + o`, `0 <= K^-1 o < s`, `s >= 1` of
//! section 2.2.3 of the seed thesis, for every statement of a domain, over new variables:
//! parameters, parametric sizes, then tile and point coordinates in loop order.

use crate::error::TileError;
use crate::overapprox::{full_tile_constraints, relaxations, Box as TileBox};
use crate::spec::{Size, TileSpec};
use cad::formula::{Atom, Formula, Rel};
use polys::{Coeff, Poly, Vars};

/// Where the point loops go relative to the tile loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TileOrder {
    /// `t1 .. tn` outside `o1 .. on`: what users expect of tiled code, and what full-tile
    /// separation needs.
    #[default]
    TilesOutside,
    /// `t1, o1, t2, o2, ...`: the pairing of Definition 3.1 of the seed thesis (each point
    /// loop directly inside its tile loop), dimensions outermost first.
    Interleaved,
}

/// A tiled domain, ready for the code generator.
#[derive(Clone, Debug)]
pub struct Tiled {
    /// Original parameters, then the parametric tile sizes in the order given.
    pub params: Vec<String>,
    /// Loop variables, outermost first.
    pub loops: Vec<String>,
    /// `params` then `loops`: the variables every formula below is written over.
    pub vars: Vars,
    /// Per statement: its tiled domain.
    pub domains: Vec<Formula>,
    /// The original coordinates `x_k = (K diag(s) t)_k + o_k`, what statements receive.
    pub calls: Vec<Poly>,
    /// The original context and `s >= 1` for every parametric size.
    pub context: Formula,
    /// The tile's integer points as polynomials `>= 0` in the point coordinates and sizes.
    pub tile_constraints: Vec<Poly>,
    /// Redundant constraints on tile coordinates and parameters only (Algorithm 4 and the
    /// extreme value substitution of section 3.8): they hold wherever a domain does and
    /// prune the lifting before any point coordinate is assigned.
    pub overapprox: Vec<Formula>,
    /// For one statement with an affine conjunction as domain: polynomials `>= 0` in the
    /// tile coordinates and parameters that imply that the whole tile lies in the domain.
    pub full_tile: Option<Vec<Poly>>,
    /// Number of outermost loops that are tile loops before any point loop (`n` with
    /// [`TileOrder::TilesOutside`], 1 when interleaved).
    pub tile_levels: usize,
    /// Where the point loops are relative to the tile loops.
    pub order: TileOrder,
    /// Each tile size as a polynomial over the parameters (a constant when fixed).
    pub sizes: Vec<Poly>,
    /// Variable index (into `vars`) of the tile coordinate `t_k`, for each dimension `k`.
    pub t_var: Vec<usize>,
    /// Variable index (into `vars`) of the point coordinate `o_k`, for each dimension `k`.
    pub o_var: Vec<usize>,
}

/// Tiles `domains` (one per statement, over `params` then the original iterators
/// `x_1..x_n`, where `n` is the number of tile sizes) with `spec`.
pub fn tile(
    params: &[String],
    domains: &[Formula],
    context: &Formula,
    spec: &TileSpec,
    order: TileOrder,
) -> Result<Tiled, TileError> {
    let n = spec.sizes.len();
    let np = params.len();
    let size_params = spec.size_params();
    for s in &size_params {
        if params.contains(s) {
            return Err(TileError::NameClash(s.clone()));
        }
    }
    let mut all_params: Vec<String> = params.to_vec();
    all_params.extend(size_params.iter().cloned());
    let nparams = all_params.len();
    // Sizes as polynomials over the new variables.
    let mut next = np;
    let sizes: Vec<Poly> = spec
        .sizes
        .iter()
        .map(|s| match s {
            Size::Param(_) => {
                next += 1;
                Poly::var(next - 1)
            }
            Size::Fixed(v) => Poly::from_i64(*v),
        })
        .collect();
    let (t_var, o_var): (Vec<usize>, Vec<usize>) = (0..n)
        .map(|k| match order {
            TileOrder::TilesOutside => (nparams + k, nparams + n + k),
            TileOrder::Interleaved => (nparams + 2 * k, nparams + 2 * k + 1),
        })
        .unzip();
    let mut loops = vec![String::new(); 2 * n];
    for k in 0..n {
        loops[t_var[k] - nparams] = fresh(&format!("t{}", k + 1), &all_params);
        loops[o_var[k] - nparams] = fresh(&format!("o{}", k + 1), &all_params);
    }
    let mut names = all_params.clone();
    names.extend(loops.iter().cloned());
    let vars = Vars::from_names(names);
    let k = &spec.shape;
    // x_k = sum_j K_kj s_j t_j + o_k
    let calls: Vec<Poly> = (0..n)
        .map(|r| {
            let mut x = Poly::var(o_var[r]);
            for j in 0..n {
                let kj = k.get(r, j);
                if !kj.is_zero() {
                    x = x.add(&sizes[j].mul(&Poly::var(t_var[j])).scale(kj));
                }
            }
            x
        })
        .collect();
    // Rename x_k out of the way of the new variables, then substitute.
    let high = nparams + 2 * n;
    let mut rename: Vec<usize> = (0..np).collect();
    rename.extend((0..n).map(|q| high + q));
    // Tile: sigma * adj(K) o in [0, |det| s_i - 1] row by row.
    let det = k.det();
    let adj = k.adjugate();
    let mut tile_constraints = Vec::with_capacity(2 * n);
    for (i, row) in adj.iter().enumerate() {
        let mut r = Poly::zero();
        for (j, a) in row.iter().enumerate() {
            let a = if det.signum() < 0 { a.neg() } else { a.clone() };
            if !a.is_zero() {
                r = r.add(&Poly::var(o_var[j]).scale(&a));
            }
        }
        let upper = sizes[i].scale(&det.abs()).sub(&Poly::one()).sub(&r);
        tile_constraints.push(r);
        tile_constraints.push(upper);
    }
    let tile_atoms: Vec<Formula> = tile_constraints.iter().cloned().map(ge).collect();
    let tiled_domains = domains
        .iter()
        .map(|d| {
            let d = map_polys(&d.tighten_strict().rename(&rename), &|p| {
                let mut p = p.clone();
                for (q, x) in calls.iter().enumerate() {
                    if p.has_var(high + q) {
                        p = p.subst(high + q, x);
                    }
                }
                p
            });
            let mut parts = vec![d];
            parts.extend(tile_atoms.iter().cloned());
            Formula::and(parts)
        })
        .collect();
    let mut ctx: Vec<Formula> = match context {
        Formula::True => Vec::new(),
        c => vec![c.clone()],
    };
    for s in &sizes {
        if !s.is_constant() {
            ctx.push(Formula::Atom(Atom {
                poly: s.sub(&Poly::one()),
                rel: Rel::Ge,
            }));
        }
    }
    let bx = TileBox::new(spec, &sizes);
    let a_t: Vec<Poly> = (0..n).map(|r| calls[r].sub(&Poly::var(o_var[r]))).collect();
    let per_statement: Vec<Vec<Poly>> = domains
        .iter()
        .map(|d| relaxations(d, np, n, &a_t, &bx))
        .collect();
    let overapprox = if per_statement.iter().all(|r| !r.is_empty()) {
        vec![Formula::or(
            per_statement
                .into_iter()
                .map(|r| Formula::and(r.into_iter().map(ge).collect()))
                .collect(),
        )]
    } else {
        Vec::new()
    };
    let full_tile = match domains {
        [d] => full_tile_constraints(d, np, n, &a_t, &bx),
        _ => None,
    };
    Ok(Tiled {
        params: all_params,
        loops,
        vars,
        domains: tiled_domains,
        calls,
        context: Formula::and(ctx),
        tile_constraints,
        overapprox,
        full_tile,
        tile_levels: match order {
            TileOrder::TilesOutside => n,
            TileOrder::Interleaved => 1,
        },
        order,
        sizes,
        t_var,
        o_var,
    })
}

impl Tiled {
    /// The loop order for the CAD of the tiled system: each dimension's tile loop with
    /// its point loop right inside it (`t_k, o_k`), the dimension with the fewest tile
    /// coordinates in its original coordinate (`x_k = (K diag(s) t)_k + o_k`, so the
    /// fewest non-zeros in row `k` of `K`) outermost, the later dimension first among
    /// equals. On the seed's four tilings this is `t2, o2, t1, o1`, with which each
    /// decomposes in a fraction of the cells of the placed orders (BENCHMARKS.md, "the
    /// tiled seed systems", issue 23).
    pub fn cad_loop_order(&self) -> Vec<String> {
        let names = self.vars.names();
        let mut dims: Vec<usize> = (0..self.t_var.len()).collect();
        let tiles_in = |k: usize| {
            self.t_var
                .iter()
                .filter(|&&t| self.calls[k].has_var(t))
                .count()
        };
        dims.sort_by_key(|&k| (tiles_in(k), std::cmp::Reverse(k)));
        dims.iter()
            .flat_map(|&k| [names[self.t_var[k]].clone(), names[self.o_var[k]].clone()])
            .collect()
    }

    /// The same system with its loops in the order `names` (outermost first; a
    /// permutation of [`Tiled::loops`]), for the CAD of the tiled system: on the seed's
    /// parallelogram tilings the order `t2, o2, t1, o1` (the dimension whose row of `K`
    /// has fewer tile coordinates first) has a fraction of the cells of any other.
    /// `tile_levels` becomes 0 unless the tile loops still come first in their order.
    pub fn with_loop_order(self, names: &[String]) -> Result<Tiled, String> {
        let nparams = self.params.len();
        let mut sorted = names.to_vec();
        sorted.sort();
        let mut have = self.loops.clone();
        have.sort();
        if sorted != have {
            return Err(format!(
                "the loop order must name each of the tiled loops {} once",
                self.loops.join(", ")
            ));
        }
        // map[old variable] = new variable.
        let mut map: Vec<usize> = (0..self.vars.len()).collect();
        for (i, old) in self.loops.iter().enumerate() {
            let at = names.iter().position(|n| n == old).unwrap_or(i);
            map[nparams + i] = nparams + at;
        }
        let polys = |ps: Vec<Poly>| -> Vec<Poly> { ps.iter().map(|p| p.rename(&map)).collect() };
        let t_var: Vec<usize> = self.t_var.iter().map(|&v| map[v]).collect();
        let o_var: Vec<usize> = self.o_var.iter().map(|&v| map[v]).collect();
        let n = t_var.len();
        let tiles_outside = t_var.iter().all(|&v| v < nparams + n);
        let mut names_all = self.params.clone();
        names_all.extend(names.iter().cloned());
        Ok(Tiled {
            loops: names.to_vec(),
            vars: Vars::from_names(names_all),
            domains: self.domains.iter().map(|d| d.rename(&map)).collect(),
            calls: polys(self.calls),
            tile_constraints: polys(self.tile_constraints),
            overapprox: self.overapprox.iter().map(|f| f.rename(&map)).collect(),
            full_tile: self.full_tile.map(polys),
            tile_levels: if tiles_outside { self.tile_levels } else { 0 },
            t_var,
            o_var,
            ..self
        })
    }

    /// The same system with the parametric tile sizes moved before the original
    /// parameters in the variable order (loops stay last, in their order). For the CAD of
    /// the tiled system: the original parameters, which the domain's constraints mix with
    /// the tile coordinates, are then projected onto last, and on the seed's tiled systems
    /// the decomposition has several times fewer cells (QEPCAD B's best order too).
    pub fn sizes_first(self) -> Tiled {
        let ns = self.sizes.iter().filter(|s| !s.is_constant()).count();
        let np = self.params.len() - ns;
        if np == 0 || ns == 0 {
            return self;
        }
        // map[old variable] = new variable: sizes np..np+ns go to 0..ns, the original
        // parameters 0..np to ns..ns+np; loops keep their index.
        let map: Vec<usize> = (0..self.vars.len())
            .map(|v| match v {
                v if v < np => v + ns,
                v if v < np + ns => v - np,
                v => v,
            })
            .collect();
        let polys = |ps: Vec<Poly>| -> Vec<Poly> { ps.iter().map(|p| p.rename(&map)).collect() };
        let mut params = self.params;
        params.rotate_left(np);
        let mut names = params.clone();
        names.extend(self.loops.iter().cloned());
        Tiled {
            params,
            vars: Vars::from_names(names),
            domains: self.domains.iter().map(|d| d.rename(&map)).collect(),
            calls: polys(self.calls),
            context: self.context.rename(&map),
            tile_constraints: polys(self.tile_constraints),
            overapprox: self.overapprox.iter().map(|f| f.rename(&map)).collect(),
            full_tile: self.full_tile.map(polys),
            sizes: polys(self.sizes),
            ..self
        }
    }
}

fn ge(p: Poly) -> Formula {
    Formula::Atom(Atom {
        poly: p,
        rel: Rel::Ge,
    })
}

/// `name`, with `_` appended until it is not taken.
fn fresh(name: &str, taken: &[String]) -> String {
    let mut n = name.to_string();
    while taken.contains(&n) {
        n.push('_');
    }
    n
}

/// The formula with every atom's polynomial replaced by `f(poly)` (content divided out).
pub(crate) fn map_polys(f: &Formula, g: &dyn Fn(&Poly) -> Poly) -> Formula {
    match f {
        Formula::True | Formula::False => f.clone(),
        Formula::Atom(a) => Formula::Atom(Atom::compare(&g(&a.poly), a.rel, &Poly::zero())),
        Formula::And(fs) => Formula::And(fs.iter().map(|h| map_polys(h, g)).collect()),
        Formula::Or(fs) => Formula::Or(fs.iter().map(|h| map_polys(h, g)).collect()),
        Formula::Not(h) => Formula::Not(std::boxed::Box::new(map_polys(h, g))),
    }
}
