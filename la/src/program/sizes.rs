//! The problem at the sizes the program runs at: declared sizes scaled and overridden,
//! and every entity's shape propagated through the steps, which must keep the structure
//! (dimensions of 1, square operands) the sequence was chosen for.

use std::collections::HashMap;

use crate::ast::{Kind, Program};
use crate::error::LaError;
use crate::lower::{Arg, Op, Step};
use crate::norm::Env;

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

/// Shapes of every entity at the run sizes, propagated through the steps.
pub(super) fn run_shapes(
    env: &Env,
    steps: &[Step],
    q: &Program,
) -> Result<Vec<(u64, u64)>, LaError> {
    let mut sh: Vec<Option<(u64, u64)>> = vec![None; env.entities.len()];
    for (i, o) in q.operands.iter().enumerate() {
        sh[i] = Some((o.rows, o.cols));
    }
    for (i, e) in env.entities.iter().enumerate() {
        if sh[i].is_none() && e.kind == Kind::Constant {
            sh[i] = Some((1, 1));
        }
    }
    let get = |sh: &[Option<(u64, u64)>], a: Arg| -> Result<(u64, u64), LaError> {
        let (r, c) = sh.get(a.id).copied().flatten().ok_or_else(|| {
            LaError::Unsupported(format!(
                "entity {} is used before it is computed",
                env.entities[a.id].name
            ))
        })?;
        Ok(if a.trans { (c, r) } else { (r, c) })
    };
    for s in steps {
        let shape = match &s.op {
            Op::Mul { a, b } => {
                let (ar, ac) = get(&sh, *a)?;
                let (br, bc) = get(&sh, *b)?;
                if ac == br {
                    (ar, bc)
                } else if (ar, ac) == (1, 1) {
                    (br, bc)
                } else if (br, bc) == (1, 1) {
                    (ar, ac)
                } else {
                    return Err(LaError::Unsupported(format!(
                        "shapes {ar} x {ac} and {br} x {bc} do not conform at the requested sizes"
                    )));
                }
            }
            Op::Solve { b, .. } => get(&sh, *b)?,
            Op::Syr2k { a, .. } => {
                let (n, _) = get(&sh, *a)?;
                (n, n)
            }
            Op::Add { terms } => {
                let (_, a) = terms
                    .first()
                    .ok_or_else(|| LaError::Unsupported("an empty sum".into()))?;
                get(&sh, *a)?
            }
            Op::Scale { a, .. } | Op::Potrf { a } | Op::Inverse { a } | Op::Bind { a } => {
                get(&sh, *a)?
            }
            Op::Getrf { a, l, u } => {
                let s = get(&sh, *a)?;
                sh[*l] = Some(s);
                sh[*u] = Some(s);
                s
            }
            Op::Orth(o) => {
                let written = o
                    .shapes(
                        s.out,
                        |a| get(&sh, a).ok(),
                        |id| sh.get(id).copied().flatten(),
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
        let s = s.unwrap_or((e.rows, e.cols));
        same_structure(&e.name, (e.rows, e.cols), s)?;
        out.push(s);
    }
    Ok(out)
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
