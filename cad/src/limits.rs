//! Resource limits of a decomposition and the reason one stopped: kept apart from the
//! statistics ([`crate::LiftStats`] counts what was built; [`Limits`] bounds it), like
//! egg's `Runner` limits and `StopReason`.

use std::time::{Duration, Instant};

/// How far a decomposition may go. The default has no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after building this many cells.
    pub max_cells: Option<u64>,
    /// Stop at this instant, with the time limit it came from (for the message).
    pub deadline: Option<(Instant, Duration)>,
    /// Stop before projecting a level with a factor of higher total degree (a budget
    /// of callers that have another way, e.g. codegen's guarded scan).
    pub max_degree: Option<u64>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A cell limit and a time limit counted from now; a negative, infinite or NaN time
    /// means no time limit.
    pub fn new(max_cells: Option<u64>, seconds: Option<f64>) -> Limits {
        let deadline = seconds
            .filter(|t| t.is_finite() && *t >= 0.0)
            .map(|t| Duration::from_secs_f64(t.min(1e9)))
            .map(|d| (Instant::now() + d, d));
        Limits {
            max_cells,
            deadline,
            max_degree: None,
        }
    }

    /// `Err` once the deadline has passed.
    pub fn check_time(&self) -> Result<(), StopReason> {
        match self.deadline {
            Some((at, limit)) if Instant::now() > at => Err(StopReason::TimeLimit(limit)),
            _ => Ok(()),
        }
    }

    /// `Err` if a factor of `basis` (one level's, before its projection) has a total
    /// degree above `max_degree`, or if Bezout's bound on the total degree of the
    /// resultants and discriminants its projection would compute (`deg f * deg g`,
    /// `deg f * (deg f - 1)`) passes twice that: the bound is pessimistic (factors
    /// split), but past it the resultants themselves are what takes minutes.
    /// Level 0 (`projected` false) computes no resultants: only the degree counts there.
    pub fn check_degree(&self, basis: &[polys::Poly], projected: bool) -> Result<(), StopReason> {
        let Some(m) = self.max_degree else {
            return Ok(());
        };
        let mut degrees: Vec<u64> = basis.iter().map(polys::Poly::total_degree).collect();
        degrees.sort_unstable_by(|a, b| b.cmp(a));
        let (d0, d1) = match degrees[..] {
            [] => (0, 0),
            [d] => (d, 0),
            [d, e, ..] => (d, e),
        };
        let bezout = (d0 * d1).max(d0 * d0.saturating_sub(1));
        if d0 > m || (projected && bezout > 2 * m) {
            return Err(StopReason::DegreeLimit(m));
        }
        Ok(())
    }

    /// `Err` once more than `max_cells` cells were built.
    pub fn check_cells(&self, built: u64) -> Result<(), StopReason> {
        match self.max_cells {
            Some(m) if built > m => Err(StopReason::CellLimit(m)),
            _ => Ok(()),
        }
    }
}

/// Why a decomposition (or a generation around it) stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StopReason {
    /// More cells than the limit allows were needed.
    #[error("more than {0} cells (--max-cells)")]
    CellLimit(u64),
    /// The time limit passed.
    #[error("time limit of {} s reached (--timeout)", .0.as_secs_f64())]
    TimeLimit(Duration),
    /// A projection factor's total degree passed the limit.
    #[error("a projection factor of total degree above {0}, or resultants above twice that by Bezout's bound")]
    DegreeLimit(u64),
}
