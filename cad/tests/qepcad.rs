//! Cross-check against QEPCAD B on the seed systems: QEPCAD decomposes the same formula
//! over the same variables in the same order (partial CAD, and full CAD where its cell
//! listing stays affordable); at every sample point of its leaf cells, the truth value it
//! reports, the exact value of the formula and the truth value of the cell of ours that
//! contains the point must agree. Skips (and says so) when `qepcad` is not on PATH.
//!
//! Run: `cargo test -p cad --test qepcad -- --nocapture` for the table of cell counts.

#[path = "common/qepcad.rs"]
mod qepcad;
#[path = "common/seed_domains.rs"]
mod seed_domains;

use cad::formula::Formula;
use cad::lift::Prune;
use cad::{Algebraic, Cad, LiftStats};
use polys::Vars;
use qepcad::{QCell, Route};
use seed_domains::{Case, CASES, RECT_RECT};
use std::path::Path;
use std::time::Duration;

/// Above this many leaves the full CAD is counted but its cells are not listed (rect-rect
/// has 265,225: hundreds of megabytes of output).
const MAX_LISTED: usize = 20_000;
/// Per QEPCAD run.
const LIMIT: Duration = Duration::from_secs(300);

/// What the comparison at one decomposition's leaves found.
#[derive(Default)]
struct Tally {
    /// Points compared, by how the exact value was decided.
    rational: usize,
    primitive: usize,
    sign_at: usize,
    /// Points in a cell of ours cut for holding no integer (no truth value there).
    no_integers: usize,
    /// Samples that could not be read.
    unread: usize,
    mismatches: Vec<String>,
}

impl Tally {
    fn compared(&self) -> usize {
        self.rational + self.primitive + self.sign_at
    }
}

/// Compares the leaves of one QEPCAD decomposition with ours and with exact evaluation.
fn compare(case: &str, f: &Formula, cad: &Cad, nvars: usize, qcells: &[QCell]) -> Tally {
    let stats = LiftStats::default();
    let mut t = Tally::default();
    let locator = cad.locator(&stats);
    for c in qcells.iter().filter(|c| c.children == 0 && c.level > 0) {
        let Some(theirs) = c.truth else {
            t.mismatches.push(format!(
                "{case}: QEPCAD leaf {} has no truth value",
                c.index
            ));
            continue;
        };
        let sample = match &c.sample {
            Ok(s) => s,
            Err(e) => {
                if t.unread == 0 {
                    eprintln!("{case}: cannot read the sample of {}: {e}", c.index);
                }
                t.unread += 1;
                continue;
            }
        };
        // A leaf above the last level (partial CAD) carries its truth value for the whole
        // cylinder over it: any completion of the sample will do.
        let ext = vec![Algebraic::from(0); nvars - c.level];
        let (exact, route) = qepcad::truth_at(f, sample, &ext);
        let mut point = sample.coords.clone();
        point.extend(ext);
        let path = match locator.locate_point(&point) {
            Ok(p) => p,
            Err(e) => {
                t.mismatches.push(format!(
                    "{case}: locating QEPCAD's sample of {} failed: {e:?}",
                    c.index
                ));
                continue;
            }
        };
        let leaf = path.last().expect("a located path is not empty");
        let ours = match leaf.pruned {
            Some(Prune::NoIntegers) => {
                t.no_integers += 1;
                continue;
            }
            Some(Prune::False) => false,
            None if path.len() == nvars => leaf.truth[0],
            None => {
                t.mismatches.push(format!(
                    "{case}: the path to QEPCAD's sample of {} ends at level {} unpruned",
                    c.index,
                    path.len()
                ));
                continue;
            }
        };
        match route {
            Route::Rational => t.rational += 1,
            Route::Primitive => t.primitive += 1,
            Route::SignAt => t.sign_at += 1,
        }
        if ours != exact || theirs != exact {
            t.mismatches.push(format!(
                "{case}: QEPCAD cell {} at {}: exact {exact} ({route:?}), QEPCAD {theirs}, ours {ours}",
                c.index,
                point
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    t
}

/// One row of the cell-count table.
struct Row {
    name: String,
    ours_leaves: usize,
    ours_cells: usize,
    partial: Option<usize>,
    full: Option<usize>,
    compared: String,
}

fn check(exe: &Path, case: &Case, mismatches: &mut Vec<String>) -> Row {
    let vars = Vars::from_names(case.vars.iter().copied());
    let f = Formula::conjunction(&vars, case.constraints).expect("constraints parse");
    let n = case.vars.len();
    let cad = Cad::new(vec![f.clone()], vec![], n, &LiftStats::default()).expect("cad");
    let name = case.name.split_whitespace().next().unwrap_or(case.name);
    let listing = ["d-number-leaf-cells", "d-all-cells-in-subtree ()"];

    let partial_out = qepcad::run_growing(
        exe,
        &qepcad::script(name, &vars, &f, false, &listing),
        LIMIT,
    )
    .unwrap_or_else(|e| panic!("{}: QEPCAD (partial CAD) failed: {e}", case.name));
    let partial = qepcad::leaf_count(&partial_out);
    let pcells = qepcad::cells(&partial_out);
    assert_eq!(
        Some(pcells.iter().filter(|c| c.children == 0).count()),
        partial,
        "{}: the listing holds every leaf QEPCAD counts",
        case.name
    );
    let tp = compare(&format!("{name} (partial)"), &f, &cad, n, &pcells);

    // The full CAD: counted first, listed only when that stays affordable.
    let count = qepcad::script(name, &vars, &f, true, &listing[..1]);
    let full = qepcad::run_growing(exe, &count, LIMIT)
        .ok()
        .and_then(|o| qepcad::leaf_count(&o));
    let tf = match full {
        Some(k) if k <= MAX_LISTED => {
            let out =
                qepcad::run_growing(exe, &qepcad::script(name, &vars, &f, true, &listing), LIMIT)
                    .unwrap_or_else(|e| panic!("{}: QEPCAD (full CAD) failed: {e}", case.name));
            compare(&format!("{name} (full)"), &f, &cad, n, &qepcad::cells(&out))
        }
        _ => Tally::default(),
    };
    for t in [&tp, &tf] {
        mismatches.extend(t.mismatches.iter().cloned());
    }
    assert!(
        tp.compared() > 0,
        "{}: no QEPCAD sample point could be compared",
        case.name
    );
    let describe = |t: &Tally| {
        format!(
            "{} ({} rational, {} primitive, {} extended; {} in cells without integers, {} unread)",
            t.compared(),
            t.rational,
            t.primitive,
            t.sign_at,
            t.no_integers,
            t.unread
        )
    };
    Row {
        name: case.name.to_string(),
        ours_leaves: cad.leaf_count(),
        ours_cells: cad.cell_count(),
        partial,
        full,
        compared: format!(
            "partial: {}; full: {}",
            describe(&tp),
            if full.is_some_and(|k| k <= MAX_LISTED) {
                describe(&tf)
            } else {
                "not listed".into()
            }
        ),
    }
}

#[test]
fn agrees_with_qepcad_on_the_seed_systems() {
    let Some(exe) = qepcad::find() else {
        eprintln!(
            "SKIPPED: qepcad is not on PATH (Debian: apt-get install --no-install-recommends \
             qepcad; scripts/test installs it), so there is nothing to compare with"
        );
        return;
    };
    let mut mismatches = Vec::new();
    let mut rows = Vec::new();
    for case in CASES.iter().chain([&RECT_RECT]) {
        rows.push(check(&exe, case, &mut mismatches));
    }
    let opt = |k: Option<usize>| k.map_or("-".to_string(), |k| k.to_string());
    eprintln!("| case | ours: leaves (cells) | QEPCAD partial leaves | QEPCAD full leaves | sample points compared |");
    eprintln!("|---|---|---|---|---|");
    for r in &rows {
        eprintln!(
            "| {} | {} ({}) | {} | {} | {} |",
            r.name,
            r.ours_leaves,
            r.ours_cells,
            opt(r.partial),
            opt(r.full),
            r.compared
        );
    }
    assert!(
        mismatches.is_empty(),
        "{} disagreements, first ones:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The parts of the QEPCAD driver that need no QEPCAD: its input syntax and the reading
/// of a cell in both sample representations.
#[test]
fn reads_qepcad_cells() {
    let vars = Vars::from_names(["x", "y"]);
    let f = Formula::conjunction(&vars, &["x^2 + 2*x*y <= 3", "y > 0"]).expect("parses");
    assert_eq!(
        qepcad::formula_text(&f, &vars),
        "[ [ 2 x y + x^2 - 3 <= 0 ] /\\ [ y > 0 ] ]"
    );
    let out = "---------- Information about the cell (3,2) ----------

Level                       : 2
Number of children          : 0
Truth value                 : T    by trial evaluation.
----------   Sample point  ---------- 
The sample point is in a PRIMITIVE representation.

alpha = the unique root of 2 x^2 - 1 between 1/2 and 3/4
      = 0.7071067812-

Coordinate 1 = -alpha
             = -0.7071067812-
Coordinate 2 = 1/2 alpha + 3
             = 3.3535533906-

---------- Information about the cell (3,9) ----------

Level                       : 2
Number of children          : 0
Truth value                 : F    by trial evaluation.
----------   Sample point  ---------- 
The sample point is in an EXTENDED representation.

alpha = the unique root of 2 x^2 - 1 between 1/2 and 3/4
      = 0.7071067812-

Coordinate 1 = alpha
             = 0.7071067812-
Coordinate 2 = the unique root of x^2 - alpha x - 1 between 1 and 2
             = 1.3660254038-
";
    let cells = qepcad::cells(out);
    assert_eq!(cells.len(), 2);
    assert_eq!(cells[0].index, "(3,2)");
    assert_eq!((cells[0].level, cells[0].truth), (2, Some(true)));
    let s = cells[0].sample.as_ref().expect("primitive sample reads");
    let half_sqrt2 = Algebraic::roots_of(&cad::UPoly::from_i64s(&[-1, 0, 2])).expect("roots");
    assert_eq!(s.coords[0], half_sqrt2[0]);
    // 1/2 alpha + 3 is a root of 8 y^2 - 48 y + 71, the larger one.
    let y = Algebraic::roots_of(&cad::UPoly::from_i64s(&[71, -48, 8])).expect("roots");
    assert_eq!(s.coords[1], y[1]);
    // At (-0.707, 3.35): x^2 + 2xy - 3 < 0 and y > 0.
    assert_eq!(qepcad::truth_at(&f, s, &[]), (true, Route::Primitive));
    let s = cells[1].sample.as_ref().expect("extended sample reads");
    assert_eq!(cells[1].truth, Some(false));
    // (alpha + sqrt(alpha^2 + 4)) / 2 = (sqrt 2 + sqrt 18) / 4 = sqrt 2.
    let sqrt2 = Algebraic::roots_of(&cad::UPoly::from_i64s(&[-2, 0, 1])).expect("roots");
    assert_eq!(s.coords[1], sqrt2[1]);
    // x^2 + 2xy - 3 = 1/2 + 2 - 3 < 0, y > 0: true, although QEPCAD's made-up cell says F.
    assert_eq!(qepcad::truth_at(&f, s, &[]), (true, Route::SignAt));
}
