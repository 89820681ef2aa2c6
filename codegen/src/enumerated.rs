//! Loops decided by evaluation: under enclosing loops with constant bounds, a loop whose
//! bounds read only their variables runs exactly once for each of their values if it does
//! at every combination, which a few thousand evaluations check exactly. Symbolic reasoning
//! would need the floor semantics of strided starts (`10*ps_ceild(-c0, 10) + c0` is
//! `c0 mod 10`); evaluating them does not.

use crate::expr::Expr;
use polys::Coeff;

/// An enclosing loop with constant bounds: its variable, first and last value, step.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    /// The loop's variable.
    pub(crate) var: usize,
    /// Its first value.
    pub(crate) first: i64,
    /// Its last bound (the last value is at most this).
    pub(crate) last: i64,
    /// Its step.
    pub(crate) step: i64,
}

/// Value combinations of enclosing constant loops that [`once_on`] evaluates at most.
const MAX_ENUMERATED: u64 = 4096;

/// The value of a loop's variable when, for every value of the enclosing constant loops
/// (`spans`, at most [`MAX_ENUMERATED`] combinations) that its bounds read, it runs exactly
/// once (dagstuhl's `for (c1 = 10*ps_ceild(max(c0 - 90, 0) - c0, 10) + c0; c1 <= min(c0,
/// 9); c1 += 10)` under `0 <= c0 <= 99`: `c1` is `c0 mod 10`). Decided by evaluating the
/// bounds at every combination, so exact.
pub(crate) fn once_on(lower: &Expr, upper: &Expr, step: i64, spans: &[Span]) -> Option<Expr> {
    let mut read = std::collections::BTreeSet::new();
    lower.vars_into(&mut read);
    upper.vars_into(&mut read);
    let used: Vec<Span> = spans
        .iter()
        .filter(|s| read.contains(&s.var))
        .copied()
        .collect();
    if read.len() != used.len() || used.is_empty() {
        return None;
    }
    // Values per loop; a range too wide for i64 arithmetic is too wide to enumerate.
    let values =
        |s: &Span| -> Option<u64> { u64::try_from(s.last.checked_sub(s.first)? / s.step + 1).ok() };
    let count = used.iter().try_fold(1u64, |acc, s| {
        acc.checked_mul(values(s)?).filter(|&c| c <= MAX_ENUMERATED)
    })?;
    let width = read.iter().max().map_or(0, |&v| v + 1);
    let mut point = vec![polys::Int::from(0); width];
    // Simpler first values that agree everywhere: a strided loop's start from one part of
    // its max alone (`10*ps_ceild(-c0, 10) + c0` where `max(c0 - 90, 0)` never matters).
    let mut simpler: Vec<Expr> = match lower {
        Expr::Aligned {
            offset,
            residue,
            step,
        } => match &**offset {
            Expr::Sum(terms) => match terms.as_slice() {
                [Expr::Max(parts), rest @ ..] => parts
                    .iter()
                    .map(|p| Expr::Aligned {
                        offset: Box::new(
                            Expr::Sum(
                                [p.clone()]
                                    .into_iter()
                                    .chain(rest.iter().cloned())
                                    .collect(),
                            )
                            .fold_constants(),
                        ),
                        residue: residue.clone(),
                        step: *step,
                    })
                    .collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    for k in 0..count {
        let mut rest = k;
        for s in &used {
            let n = values(s)?;
            let i = i64::try_from(rest % n).ok()?;
            rest /= n;
            point[s.var] = polys::Int::from(s.first + i * s.step);
        }
        let (l, u) = (lower.eval(&point).ok()?, upper.eval(&point).ok()?);
        let d = u.sub(&l);
        if d.signum() < 0 || d >= polys::Int::from(step) {
            return None;
        }
        simpler.retain(|e| e.eval(&point).ok().as_ref() == Some(&l));
    }
    Some(simpler.into_iter().next().unwrap_or_else(|| lower.clone()))
}
