//! QEPCAD B on a seed case: the partial CAD's `d-stat` time and leaf count, and the full
//! CAD's leaves where the partial one was cheap.

use crate::cases::{system, Case};
use cad::qepcad;
use std::path::Path;
use std::time::{Duration, Instant};

/// QEPCAD's result on one case.
pub struct QepcadRow {
    /// Mean `d-stat` milliseconds of the partial CAD and the number of runs.
    pub ms: Option<(f64, usize)>,
    /// Leaves of the partial CAD.
    pub partial: Option<usize>,
    /// Full CAD: leaves, or why not.
    pub full: Result<usize, String>,
    /// Why QEPCAD gave no time.
    pub failure: Option<String>,
}

/// Gives the case's polynomial system to QEPCAD B at `exe`.
pub fn measure_qepcad(exe: &Path, case: &Case, quick: bool) -> QepcadRow {
    let mut row = QepcadRow {
        ms: None,
        partial: None,
        full: Err("not tried".into()),
        failure: None,
    };
    let problem = match system(case) {
        Ok(p) => p,
        Err(e) => {
            row.failure = Some(e);
            return row;
        }
    };
    let vars = problem.vars();
    let mut parts = vec![problem.context.clone()];
    parts.extend(problem.statements.iter().map(|s| s.domain.clone()));
    let f = cad::formula::Formula::and(parts);
    let limit = Duration::from_secs(if quick { 15 } else { 120 });
    let partial = qepcad::script(
        case.name,
        &vars,
        &f,
        false,
        &["d-number-leaf-cells", "d-stat"],
    );
    // d-stat counts whole milliseconds: repeat small cases (at least 3 runs, for 2 s) and
    // take the mean; one run of a slow case is measurement enough.
    let started = Instant::now();
    let mut ms = Vec::new();
    let min_runs = if quick { 1 } else { 3 };
    while ms.len() < min_runs || (started.elapsed() < Duration::from_secs(2) && ms.len() < 20) {
        let out = match qepcad::run_growing(exe, &partial, limit) {
            Ok(out) => out,
            Err(e) => {
                row.failure = Some(e.to_string());
                break;
            }
        };
        match (qepcad::stat_ms(&out), qepcad::leaf_count(&out)) {
            (Some(t), Some(k)) => {
                ms.push(t as f64);
                row.partial = Some(k);
            }
            _ => {
                row.failure = Some("no d-stat or leaf count in QEPCAD's output".into());
                break;
            }
        }
        if started.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    if ms.is_empty() {
        return row;
    }
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    row.ms = Some((mean, ms.len()));
    // The full CAD only where the partial one was cheap: it has many times the cells.
    row.full = if mean > if quick { 100.0 } else { 2000.0 } {
        Err("not tried (partial CAD too slow)".into())
    } else {
        let full = qepcad::script(case.name, &vars, &f, true, &["d-number-leaf-cells"]);
        match qepcad::run_growing(exe, &full, limit) {
            Ok(out) => qepcad::leaf_count(&out).ok_or_else(|| "no leaf count".to_string()),
            Err(e) => Err(e.to_string()),
        }
    };
    row
}
