//! The instances a generated program must run, found without the program: brute force of
//! the problem as given, over a box around what the program ran. Tiled code is checked
//! against the original domain ordered by tile, statements with quantified variables or
//! relational schedules against a search of their witnesses and times
//! (`existential::brute_force` with `relation::times`), all else against the
//! generated formulas (`verify::brute_force`). `polyscan verify` and the Python package's
//! `verify` both call [`expected_instances`].

use crate::pipeline::Outcome;
use crate::verify::{box_around, brute_force, Instance, VerifyError};

/// An expected instance sequence and the box (one range per iterator) it was enumerated
/// over.
pub type Expected = (Vec<Instance>, Vec<(i64, i64)>);

/// The expected instance sequence for `params`, and the box it was enumerated over, given
/// the instances `got` the generated program ran.
pub fn expected_instances(
    out: &Outcome,
    params: &[i64],
    got: &[Instance],
) -> Result<Expected, VerifyError> {
    let quantified = out
        .original
        .statements
        .iter()
        .any(|s| !s.existentials.is_empty())
        || !out.original.schedule_is_function();
    if let Some(t) = &out.tiled {
        // Instances carry original coordinates: brute force the original domain and order
        // it by tile, independently of the tiled system.
        let bx = original_box(got, out.original.depth(), 4);
        let expected = crate::tile_problem::tiled_brute_force(&out.original, t, params, &bx)
            .map_err(VerifyError::BoxTooLarge)?;
        return Ok((expected, bx));
    }
    if quantified {
        // Witnesses are searched in a range that grows with the box and the parameters.
        let bx = original_box(got, out.original.depth(), 4);
        let reach = bx
            .iter()
            .flat_map(|&(l, h)| [l, h])
            .chain(params.iter().copied())
            .map(i64::saturating_abs)
            .max()
            .unwrap_or(0)
            .saturating_mul(2)
            .saturating_add(8);
        let expected = crate::existential::brute_force(&out.original, params, &bx, reach)
            .map_err(VerifyError::BoxTooLarge)?;
        return Ok((expected, bx));
    }
    let g = &out.generated;
    let bx = box_around(got, g, 4);
    Ok((brute_force(g, params, &bx)?, bx))
}

/// Whether `params` satisfy the context the code was generated for (the problem's and
/// any given to the pipeline): outside it the generated code promises nothing, as isl's
/// code does not, so there is nothing to check.
pub fn in_context(out: &Outcome, params: &[i64]) -> bool {
    let g = &out.generated;
    let point: Vec<polys::Int> = params.iter().map(|&v| polys::Int::from(v)).collect();
    let over_params = |f: &cad::formula::Formula| {
        f.polynomials()
            .iter()
            .all(|p| p.vars().iter().all(|&v| v < g.nparams))
    };
    out.original.context.eval_int(&point)
        && g.pruning
            .iter()
            .filter(|f| over_params(f))
            .all(|f| f.eval_int(&point))
}

/// A box around the original coordinates that `instances` carry, widened by `margin` or
/// by half the extent on every side.
pub fn original_box(instances: &[Instance], depth: usize, margin: i64) -> Vec<(i64, i64)> {
    let mut bx: Vec<Option<(i64, i64)>> = vec![None; depth];
    for (_, vals) in instances {
        for (k, &x) in vals.iter().enumerate() {
            bx[k] = Some(match bx[k] {
                None => (x, x),
                Some((l, h)) => (l.min(x), h.max(x)),
            });
        }
    }
    bx.into_iter()
        .map(|r| {
            let (l, h) = r.unwrap_or((0, 0));
            let m = margin.max((h - l) / 2);
            (l - m, h + m)
        })
        .collect()
}
