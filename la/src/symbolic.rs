//! Symbolic FLOP counts for sizes left open (`n = ?`): the cost of a kernel sequence as a
//! polynomial in the open size names, with the polys crate. Polynomials hold 3 x FLOPs so
//! their coefficients stay integral (POTRF costs n^3/3).
//!
//! The search itself compares costs at nominal sizes. Splitting the size space into regions
//! with one cheapest sequence each needs the cad crate, which does not exist yet.

use std::collections::HashMap;

use polys::{Coeff, Poly, Vars};

use super::ast::Program;
use super::error::LaError;
use super::kernels::Kernel;
use super::lower::{Arg, Lowered, Op, Orth};
use super::properties::{Prop, Props};

/// A cost polynomial (3 x FLOPs) and the names of its variables.
#[derive(Debug, Clone)]
pub struct SymbolicCost {
    /// Three times the FLOP count, so that the coefficients are integers.
    pub times3: Poly,
    /// Names of the polynomial's variables (the open sizes).
    pub vars: Vars,
}

impl SymbolicCost {
    /// E.g. `(3*m^2*n + m^3)/3`.
    pub fn to_text(&self) -> String {
        format!("({})/3", self.times3.to_text(&self.vars))
    }

    /// The FLOPs at the given values of the variables (by name; missing names count 0).
    pub fn eval(&self, values: &[(String, u64)]) -> f64 {
        let value = |i: usize| {
            let name = self.vars.name(i);
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(0.0, |(_, v)| *v as f64)
        };
        let mut total = 0.0;
        for (mono, c) in self.times3.terms() {
            let coef: f64 = c.to_i64().map_or_else(
                || c.to_bigint().to_string().parse().unwrap_or(f64::NAN),
                |v| v as f64,
            );
            let mut t = coef;
            for (i, &e) in mono.exps().iter().enumerate() {
                if e > 0 {
                    t *= value(i).powi(e as i32);
                }
            }
            total += t;
        }
        total / 3.0
    }
}

type Shape = (Poly, Poly);

/// The cost of `l` (made for `p`) with the sizes named in `open` as variables and every
/// other size at its value.
pub fn symbolic_cost(p: &Program, l: &Lowered, open: &[String]) -> Result<SymbolicCost, LaError> {
    let vars = Vars::from_names(open.iter().map(String::as_str));
    let dim = |name: &Option<String>, value: u64| -> Poly {
        match name.as_ref().and_then(|n| open.iter().position(|o| o == n)) {
            Some(i) => Poly::var(i),
            None => Poly::from_i64(value as i64),
        }
    };
    let mut shapes: HashMap<usize, Shape> = HashMap::new();
    for (i, o) in p.operands.iter().enumerate() {
        shapes.insert(i, (dim(&o.dims.0, o.rows), dim(&o.dims.1, o.cols)));
    }
    let env = &l.env;
    let shape_of = |shapes: &HashMap<usize, Shape>, a: Arg| -> Shape {
        let (r, c) = shapes.get(&a.id).cloned().unwrap_or_else(|| {
            // Entities the lowering made without a recorded shape are numeric constants.
            let (r, c) = env.shape(a.id);
            (Poly::from_i64(r as i64), Poly::from_i64(c as i64))
        });
        if a.trans {
            (c, r)
        } else {
            (r, c)
        }
    };
    let triangular = |a: Arg| env.props(a.id).is_triangular();
    let diagonal = |a: Arg| env.props(a.id).has(Prop::Diagonal);
    let k = |v: i64| Poly::from_i64(v);
    // The block size of a block-diagonal argument (at least 1), as a constant.
    let block = |a: Arg| k(crate::lower::blocks(env.props(a.id)).map_or(1, |b| b as i64));
    let mut total = Poly::zero();
    for st in &l.steps {
        let (cost, out_shape): (Poly, Shape) = match &st.op {
            Op::Mul { a, b } => {
                let (r, kk) = shape_of(&shapes, *a);
                let (kb, c) = shape_of(&shapes, *b);
                let cost = match st.kernel {
                    Kernel::Syrk => k(3).mul(&kb).mul(&c).mul(&c),
                    Kernel::Lauum => c.mul(&c).mul(&c),
                    Kernel::Trmm | Kernel::Trmv => {
                        if triangular(*a) && r == kk {
                            k(3).mul(&r).mul(&r).mul(&c)
                        } else {
                            k(3).mul(&c).mul(&c).mul(&r)
                        }
                    }
                    Kernel::DiagScale => k(3).mul(&r).mul(&c),
                    Kernel::Laswp => Poly::zero(),
                    // 2 b n m with n the block-diagonal side: the same for either side.
                    Kernel::BdGemm => {
                        let pa = env.props(a.id);
                        let pb = env.props(b.id);
                        let (pa, pb) = (
                            if r == kk { pa } else { Props::EMPTY },
                            if kb == c { pb } else { Props::EMPTY },
                        );
                        let bs =
                            crate::lower::block_product_side(pa, pb).map_or(1, |(_, bs)| bs as i64);
                        k(6).mul(&k(bs)).mul(&r).mul(&c)
                    }
                    _ => k(6).mul(&r).mul(&kk).mul(&c),
                };
                (cost, (r, c))
            }
            Op::Solve { t, b, left } => {
                let (br, bc) = shape_of(&shapes, *b);
                let cost = if diagonal(*t) || st.kernel == Kernel::DiagSolve {
                    k(3).mul(&br).mul(&bc)
                } else if *left {
                    k(3).mul(&br).mul(&br).mul(&bc)
                } else {
                    k(3).mul(&bc).mul(&bc).mul(&br)
                };
                (cost, (br, bc))
            }
            Op::BlockSolve {
                t,
                b,
                left,
                lu,
                piv,
                factor,
            } => {
                let (br, bc) = shape_of(&shapes, *b);
                let (n, m) = if *left { (&br, &bc) } else { (&bc, &br) };
                let bs = block(*t);
                // n/b blocks of 2 b^2 m (the solves), and 2 b^3 / 3 (the LU) in a BDGESV;
                // times 3.
                let solve = k(6).mul(n).mul(&bs).mul(m);
                let cost = if *factor {
                    k(2).mul(n).mul(&bs).mul(&bs).add(&solve)
                } else {
                    solve
                };
                shapes.insert(*lu, (n.clone(), bs.clone()));
                shapes.insert(*piv, (n.clone(), k(1)));
                (cost, (br, bc))
            }
            Op::Add { terms } => {
                let s = terms
                    .first()
                    .map(|(_, a)| shape_of(&shapes, *a))
                    .ok_or_else(|| LaError::Unsupported("empty sum".into()))?;
                (elementwise(st.elementwise, &s), s)
            }
            Op::Syr2k { a, .. } => {
                // 2*k*n*n, times 3.
                let (n, kk) = shape_of(&shapes, *a);
                (k(6).mul(&kk).mul(&n).mul(&n), (n.clone(), n))
            }
            Op::Scale { a, .. } => {
                let s = shape_of(&shapes, *a);
                (elementwise(st.elementwise, &s), s)
            }
            Op::Potrf { a } => {
                let s = shape_of(&shapes, *a);
                (s.0.mul(&s.0).mul(&s.0), s)
            }
            Op::Getrf { a, l: lo, u } => {
                let s = shape_of(&shapes, *a);
                shapes.insert(*lo, s.clone());
                shapes.insert(*u, s.clone());
                (k(2).mul(&s.0).mul(&s.0).mul(&s.0), s)
            }
            Op::Inverse { a } => {
                let s = shape_of(&shapes, *a);
                let n3 = s.0.mul(&s.0).mul(&s.0);
                let cost = match st.kernel {
                    Kernel::Trtri => n3,
                    Kernel::Getri => k(4).mul(&n3),
                    Kernel::BdGetri => k(6).mul(&s.0).mul(&block(*a)).mul(&block(*a)),
                    _ => k(3).mul(&s.0),
                };
                (cost, s)
            }
            Op::Orth(o) => {
                let sh = |a: Arg| shape_of(&shapes, a);
                let (cost, written) = orth_cost(o, st.out, &sh);
                for (id, s) in written {
                    shapes.insert(id, s);
                }
                (cost, shapes.get(&st.out).cloned().unwrap_or_default())
            }
            Op::Bind { a } => (Poly::zero(), shape_of(&shapes, *a)),
            // Copies; the output's shape as declared (the blocks' sums).
            Op::Assemble { cells } => {
                let sh = |id: usize| shape_of(&shapes, Arg { id, trans: false });
                let rows = cells
                    .iter()
                    .filter_map(|r| r.first())
                    .fold(Poly::zero(), |acc, &c| acc.add(&sh(c).0));
                let cols = cells.first().map_or(Poly::zero(), |r| {
                    r.iter().fold(Poly::zero(), |acc, &c| acc.add(&sh(c).1))
                });
                (Poly::zero(), (rows, cols))
            }
        };
        total = total.add(&cost);
        shapes.insert(st.out, out_shape);
    }
    Ok(SymbolicCost {
        times3: total,
        vars,
    })
}

/// 3 * (a * rows * cols + b * rows).
fn elementwise((a, b): (f64, f64), (r, c): &Shape) -> Poly {
    let a = Poly::from_i64((3.0 * a).round() as i64);
    let b = Poly::from_i64((3.0 * b).round() as i64);
    a.mul(r).mul(c).add(&b.mul(r))
}

/// 3 x the FLOPs of an orthogonal factorisation step (`kernels::cost`: GEQRF
/// `2mn^2 - 2n^3/3`, ORMQR `4mpk - 2pk^2`, SYEV `10n^3/3 + n^2`, GESVD `14mn^2 + 8n^3`) and
/// the shapes of the entities it writes, its output among them.
fn orth_cost(o: &Orth, out: usize, shape: &dyn Fn(Arg) -> Shape) -> (Poly, Vec<(usize, Shape)>) {
    let k = |v: i64| Poly::from_i64(v);
    let one = k(1);
    let arg = |id: usize| Arg { id, trans: false };
    match o {
        Orth::Geqrf { a, h, tau } => {
            let (m, n) = shape(*a);
            let n2 = n.mul(&n);
            let cost = k(6).mul(&m).mul(&n2).sub(&k(2).mul(&n2).mul(&n));
            let written = vec![
                (out, (n.clone(), n.clone())),
                (*h, (m, n.clone())),
                (*tau, (n, one)),
            ];
            (cost, written)
        }
        Orth::Ormqr { h, b, trans, .. } => {
            let (m, n) = shape(arg(*h));
            let (_, p) = shape(*b);
            let cost = k(12)
                .mul(&m)
                .mul(&p)
                .mul(&n)
                .sub(&k(6).mul(&p).mul(&n).mul(&n));
            let rows = if *trans { n } else { m };
            (cost, vec![(out, (rows, p))])
        }
        Orth::Syev { a, w } => {
            let (n, c) = shape(*a);
            let n2 = n.mul(&n);
            let cost = k(10).mul(&n2).mul(&n).add(&k(3).mul(&n2));
            (cost, vec![(out, (n.clone(), c.clone())), (*w, (n, c))])
        }
        Orth::Gesvd { a, s, v } => {
            let (m, n) = shape(*a);
            let n2 = n.mul(&n);
            let cost = k(42).mul(&m).mul(&n2).add(&k(24).mul(&n2).mul(&n));
            let sq = (n.clone(), n.clone());
            (cost, vec![(out, (m, n)), (*s, sq.clone()), (*v, sq)])
        }
    }
}
