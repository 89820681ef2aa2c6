//! The problem at the sizes the program runs at: declared sizes scaled and overridden,
//! and every entity's shape propagated through the steps, which must keep the structure
//! (dimensions of 1, square operands) the sequence was chosen for.

use std::collections::HashMap;

use super::dim::Dim;
use crate::ast::{Kind, Program};
use crate::error::LaError;
use crate::lower::{Arg, Op, Step};
use crate::norm::Env;
use crate::properties::Prop;

/// The problem at the requested sizes: `scale` first (floors, at least 2, order and
/// distinctness of the declared sizes kept), then the overrides.
pub fn resize(
    p: &Program,
    overrides: &[(String, u64)],
    scale: Option<f64>,
) -> Result<Program, LaError> {
    let mut q = p.clone();
    if let Some(s) = scale {
        if !(s.is_finite() && s > 0.0) {
            return Err(LaError::Unsupported(
                "--scale must be a positive number".into(),
            ));
        }
        let mut distinct: Vec<u64> = p.sizes.iter().map(|(_, v)| *v).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let mut mapped: HashMap<u64, u64> = HashMap::new();
        let mut prev = 0u64;
        for v in distinct {
            let target = if v <= 1 {
                v
            } else {
                ((v as f64 * s).floor() as u64).max(2)
            };
            // Distinct declared sizes stay distinct and ordered: a square operand stays
            // square and a non-square one non-square.
            let nv = if prev > 0 {
                target.max(prev + 1)
            } else {
                target
            };
            mapped.insert(v, nv);
            prev = nv;
        }
        for (_, v) in q.sizes.iter_mut() {
            *v = mapped.get(v).copied().unwrap_or(*v);
        }
    }
    for (name, value) in overrides {
        let Some(slot) = q.sizes.iter_mut().find(|(n, _)| n == name) else {
            let known: Vec<&str> = p.sizes.iter().map(|(n, _)| n.as_str()).collect();
            return Err(LaError::Unsupported(format!(
                "--size {name}={value}: the problem has no size '{name}' (sizes: {})",
                known.join(", ")
            )));
        };
        if *value == 0 {
            return Err(LaError::Unsupported(format!(
                "--size {name}=0: sizes must be positive"
            )));
        }
        slot.1 = *value;
    }
    q.resize_operands();
    for (o, orig) in q.operands.iter().zip(&p.operands) {
        if (o.rows, o.cols) == (orig.rows, orig.cols) {
            continue;
        }
        if let Some(why) = o
            .props
            .contradiction(o.rows, o.cols, o.kind == Kind::Scalar)
        {
            return Err(LaError::Unsupported(format!(
                "at the requested sizes, operand {} is {} x {}: {why}",
                o.name, o.rows, o.cols
            )));
        }
        same_structure(&o.name, (orig.rows, orig.cols), (o.rows, o.cols))?;
    }
    Ok(q)
}

/// The sequence was chosen for the declared shapes: a dimension that is 1 (a vector, a
/// scalar) or a square operand must stay so.
fn same_structure(name: &str, nominal: (u64, u64), run: (u64, u64)) -> Result<(), LaError> {
    let ok = (nominal.0 == 1) == (run.0 == 1)
        && (nominal.1 == 1) == (run.1 == 1)
        && (nominal.0 == nominal.1) == (run.0 == run.1);
    if ok {
        Ok(())
    } else {
        Err(LaError::Unsupported(format!(
            "at the requested sizes {name} is {} x {} but the sequence was chosen for {} x {} \
             (dimensions of 1 and square shapes must be kept)",
            run.0, run.1, nominal.0, nominal.1
        )))
    }
}

/// The C variable of a size passed at run time (a prefix keeps it apart from the
/// catalogue nests' parameters `m`, `n`, `k`).
pub(super) fn size_var(name: &str) -> String {
    format!("ps_z_{name}")
}

/// Rows and columns of every operand of `q`: numbers, except that with `open` the sizes
/// declared `?` are the run-time variables of [`size_var`].
pub(super) fn operand_dims(q: &Program, open: bool) -> Vec<(Dim, Dim)> {
    let dim = |name: &Option<String>, v: u64| match name {
        Some(n) if open && q.open_sizes.iter().any(|o| &o.name == n) => Dim::var(size_var(n), v),
        _ => Dim::lit(v),
    };
    q.operands
        .iter()
        .map(|o| (dim(&o.dims.0, o.rows), dim(&o.dims.1, o.cols)))
        .collect()
}

/// Pairs of dimensions that must be equal at run time.
pub(super) type Ties = Vec<(Dim, Dim)>;

/// Every entity's shape, and the equalities between sizes passed at run time that the
/// sequence relies on (sizes that are different variables but were equal where it was
/// chosen: a product's inner dimensions, a square factor or inverse).
pub(super) struct RunShapes {
    /// Rows and columns of each entity.
    pub(super) shapes: Vec<(Dim, Dim)>,
    /// Pairs that must be equal at run time.
    pub(super) ties: Ties,
}

/// Shapes of every entity at the run sizes (operands' `dims`), propagated through the
/// steps.
pub(super) fn run_shapes(
    env: &Env,
    steps: &[Step],
    dims: Vec<(Dim, Dim)>,
) -> Result<RunShapes, LaError> {
    let mut sh: Vec<Option<(Dim, Dim)>> = vec![None; env.entities.len()];
    for (i, d) in dims.into_iter().enumerate() {
        if let Some(slot) = sh.get_mut(i) {
            *slot = Some(d);
        }
    }
    for (i, e) in env.entities.iter().enumerate() {
        if sh[i].is_none() && e.kind == Kind::Constant {
            sh[i] = Some((Dim::lit(1), Dim::lit(1)));
        }
    }
    let mut ties: Vec<(Dim, Dim)> = Vec::new();
    // Different variables with equal nominal values: the sequence needs them equal.
    let mut tie = |a: &Dim, b: &Dim| {
        if a != b && a.nominal() == b.nominal() && !ties.iter().any(|(x, y)| x == a && y == b) {
            ties.push((a.clone(), b.clone()));
        }
    };
    let get = |sh: &[Option<(Dim, Dim)>], a: Arg| -> Result<(Dim, Dim), LaError> {
        let (r, c) = sh.get(a.id).cloned().flatten().ok_or_else(|| {
            LaError::Unsupported(format!(
                "entity {} is used before it is computed",
                env.entities[a.id].name
            ))
        })?;
        Ok(if a.trans { (c, r) } else { (r, c) })
    };
    let one = |(r, c): &(Dim, Dim)| *r == 1 && *c == 1;
    for s in steps {
        let shape = match &s.op {
            Op::Mul { a, b } => {
                let (ar, ac) = get(&sh, *a)?;
                let (br, bc) = get(&sh, *b)?;
                if ac == br {
                    (ar, bc)
                } else if one(&(ar.clone(), ac.clone())) {
                    (br, bc)
                } else if one(&(br.clone(), bc.clone())) {
                    (ar, ac)
                } else if ac.nominal() == br.nominal() {
                    tie(&ac, &br);
                    (ar, bc)
                } else {
                    return Err(LaError::Unsupported(format!(
                        "shapes {ar} x {ac} and {br} x {bc} do not conform at the requested sizes"
                    )));
                }
            }
            Op::Solve { t, b, left } => {
                let (tr, tc) = get(&sh, *t)?;
                let (br, bc) = get(&sh, *b)?;
                tie(&tr, &tc);
                if !one(&(tr.clone(), tc.clone())) {
                    tie(&tc, if *left { &br } else { &bc });
                }
                (br, bc)
            }
            Op::BlockSolve {
                t,
                b,
                left,
                lu,
                piv,
                ..
            } => {
                let (tr, tc) = get(&sh, *t)?;
                let (br, bc) = get(&sh, *b)?;
                tie(&tr, &tc);
                tie(&tc, if *left { &br } else { &bc });
                // The stacked blocks (n x b) and their pivots (n x 1).
                let bs = crate::lower::blocks(env.props(t.id)).unwrap_or(1);
                sh[*lu] = Some((tr.clone(), Dim::lit(bs)));
                sh[*piv] = Some((tr, Dim::lit(1)));
                (br, bc)
            }
            Op::Syr2k { a, .. } => {
                let (n, _) = get(&sh, *a)?;
                (n.clone(), n)
            }
            Op::Add { terms } => {
                let (_, a) = terms
                    .first()
                    .ok_or_else(|| LaError::Unsupported("an empty sum".into()))?;
                let first = get(&sh, *a)?;
                for (_, x) in terms {
                    let (r, c) = get(&sh, *x)?;
                    tie(&first.0, &r);
                    tie(&first.1, &c);
                }
                first
            }
            Op::Scale { a, .. } | Op::Bind { a } => get(&sh, *a)?,
            Op::Assemble { cells } => {
                let cell = |id: usize| get(&sh, Arg { id, trans: false });
                let mut rows = Dim::lit(0);
                for r in cells {
                    if let Some(&c) = r.first() {
                        rows = &rows + &cell(c)?.0;
                    }
                }
                let mut cols = Dim::lit(0);
                for &c in cells.first().map_or(&[][..], |r| &r[..]) {
                    cols = &cols + &cell(c)?.1;
                }
                // The output's own shape at these sizes must be the blocks' (sizes that
                // add up, as `n = m + d`, are not kept so by `--scale`).
                if let Some((r, c)) = sh.get(s.out).cloned().flatten() {
                    if (r.nominal(), c.nominal()) != (rows.nominal(), cols.nominal()) {
                        return Err(LaError::Unsupported(format!(
                            "the blocks of `{}` make a {rows} x {cols} matrix, but it is {r} x {c} at these sizes",
                            env.entities[s.out].name
                        )));
                    }
                    tie(&r, &rows);
                    tie(&c, &cols);
                }
                (rows, cols)
            }
            Op::Potrf { a } | Op::Inverse { a } => {
                let (r, c) = get(&sh, *a)?;
                tie(&r, &c);
                (r, c)
            }
            Op::Getrf { a, l, u } => {
                let (r, c) = get(&sh, *a)?;
                tie(&r, &c);
                sh[*l] = Some((r.clone(), c.clone()));
                sh[*u] = Some((r.clone(), c.clone()));
                (r, c)
            }
            Op::Orth(o) => {
                let written = o
                    .shapes(
                        s.out,
                        |a| get(&sh, a).ok(),
                        |id| sh.get(id).cloned().flatten(),
                        Dim::lit(1),
                    )
                    .ok_or_else(|| {
                        LaError::Unsupported("a factorisation's operand is not computed".into())
                    })?;
                let mut own = None;
                for (id, shape) in written {
                    if id == s.out {
                        own = Some(shape);
                    } else if let Some(slot) = sh.get_mut(id) {
                        *slot = Some(shape);
                    }
                }
                own.ok_or_else(|| LaError::Unsupported("a factorisation without output".into()))?
            }
        };
        sh[s.out] = Some(shape);
    }
    let mut out = Vec::with_capacity(sh.len());
    for (i, s) in sh.into_iter().enumerate() {
        let e = &env.entities[i];
        // Entities no step computes (unused temporaries) keep their nominal shape.
        let s = s.unwrap_or((Dim::lit(e.rows), Dim::lit(e.cols)));
        same_structure(&e.name, (e.rows, e.cols), (s.0.nominal(), s.1.nominal()))?;
        // Properties that need a square matrix (symmetric, SPD, orthogonal, ...), and
        // triangles and diagonals, which the kernels (TRMM, TRSM, diagonal scaling) take
        // square: a sequence chosen where the entity was square relies on it.
        let square_only = e.props.contradiction(2, 3, false).is_some()
            && e.props.contradiction(3, 3, false).is_none();
        let square_kernels = e.props.is_triangular() || e.props.has(Prop::Diagonal);
        if (square_only || square_kernels) && e.kind != Kind::Scalar {
            tie(&s.0, &s.1);
        }
        out.push(s);
    }
    Ok(RunShapes { shapes: out, ties })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_keeps_sizes_distinct_and_ordered() {
        let src = "n = 2000\nm = 1999\nk = 3\nMatrix A(n, m) <FullRank>\nMatrix B(m, k) <>\nMatrix X(n, k) <>\nX = A * B\n";
        let p = crate::parse::parse(src).unwrap_or_else(|e| panic!("{e}"));
        let q = resize(&p, &[], Some(0.02)).unwrap_or_else(|e| panic!("{e}"));
        let size = |n: &str| q.sizes.iter().find(|(m, _)| m == n).map(|(_, v)| *v);
        assert_eq!(size("n"), Some(40));
        assert_eq!(size("m"), Some(39));
        assert_eq!(size("k"), Some(2));
        let q = resize(&p, &[("k".into(), 5)], Some(0.02)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(q.operands[1].cols, 5);
        assert!(resize(&p, &[("zz".into(), 5)], None).is_err());
        // A (n x m) must not become square.
        assert!(resize(&p, &[("m".into(), 2000)], None).is_err());
    }
}
