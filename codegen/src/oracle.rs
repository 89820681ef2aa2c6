//! The instances a generated program must run, found without the program: brute force of
//! the problem as given, over a box around what the program ran. Tiled code is checked
//! against the original domain ordered by tile, statements with quantified variables or
//! relational schedules against a search of their witnesses and times
//! ([`brute_force_problem`] with `relation::times`), all else against the
//! generated formulas (`verify::brute_force`). `polyscan verify` and the Python package's
//! `verify` both call [`expected_instances`].

use crate::input::Problem;
use crate::pipeline::Outcome;
use crate::verify::{box_around, brute_force, Instance, VerifyError};
use polys::{Coeff, Int};

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
        let expected = brute_force_problem(&out.original, params, &bx, reach)
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

/// The instances of `problem`, whose statements may quantify variables, for `params` with
/// iterators in `bx` (one range per iterator position, file order), in execution order:
/// time vector, iterators (zeros where a statement has fewer), statement index. Each
/// division is computed and every other quantified variable is searched for in
/// `[-reach, reach]`: an oracle independent of [`crate::existential::witness`]. `Err` with the number of
/// points when they exceed 50 million.
pub fn brute_force_problem(
    problem: &Problem,
    params: &[i64],
    bx: &[(i64, i64)],
    reach: i64,
) -> Result<Vec<crate::verify::Instance>, u128> {
    let depth = problem.depth();
    let mut found: Vec<(Vec<Int>, usize, Vec<i64>)> = Vec::new();
    // Candidate times of relational schedules, searched per point, share the budget.
    let mut budget: u128 = 50_000_000;
    for (index, s) in problem.statements.iter().enumerate() {
        let len = s.iterators.len();
        let searched = s
            .existentials
            .iter()
            .filter(|e| e.division.is_none())
            .count();
        let volume = bx[..len]
            .iter()
            .map(|&(l, h)| (h as i128 - l as i128 + 1).max(0) as u128)
            .chain(std::iter::repeat_n(2 * reach.max(0) as u128 + 1, searched))
            .fold(1u128, u128::saturating_mul);
        if volume > 50_000_000 {
            return Err(volume);
        }
        let mut point: Vec<Int> = params.iter().map(|&p| Int::from(p)).collect();
        point.resize(params.len() + len + s.existentials.len(), Int::from(0));
        let mut failed = None;
        let mut iterate = |point: &mut Vec<Int>| {
            if failed.is_some() {
                return;
            }
            let first = params.len() + len;
            if crate::existential::witnessed(&s.domain, &s.existentials, first, 0, point, reach) {
                let args: Vec<i64> = (0..len)
                    .map(|k| {
                        point[params.len() + k]
                            .to_i64()
                            .expect("box values fit in i64")
                    })
                    .collect();
                let times = match crate::relation::times(
                    problem,
                    index,
                    &point[..first],
                    reach,
                    &mut budget,
                ) {
                    Ok(t) => t,
                    Err(n) => {
                        failed = Some(n);
                        return;
                    }
                };
                for mut key in times {
                    key.extend(args.iter().map(|&a| Int::from(a)));
                    key.resize(key.len() + depth - len, Int::from(0));
                    found.push((key, index, args.clone()));
                }
            }
        };
        box_points(&bx[..len], params.len(), &mut point, &mut iterate);
        if let Some(n) = failed {
            return Err(n);
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    Ok(found.into_iter().map(|(_, s, args)| (s, args)).collect())
}

/// Calls `f` with every point of the box in positions `from..` of `point`.
fn box_points(
    bx: &[(i64, i64)],
    from: usize,
    point: &mut Vec<Int>,
    f: &mut impl FnMut(&mut Vec<Int>),
) {
    match bx.split_first() {
        None => f(point),
        Some((&(l, h), rest)) => {
            for v in l..=h {
                point[from] = Int::from(v);
                box_points(rest, from + 1, point, f);
            }
        }
    }
}
