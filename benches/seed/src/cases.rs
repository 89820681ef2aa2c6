//! The benchmark's inputs: the seed cases of the thesis's Table 4.4 with its published
//! times, the affine cases of the run-time table, and the tiling their headers ask for.

use codegen::input::{parse_problem, Problem};
use codegen::tile_problem::tile_problem;
use codegen::Tiling;

/// A seed case of section 4.1.2.
pub struct Case {
    /// The name on the command line and in the table.
    pub name: &'static str,
    /// The input file's text.
    pub src: &'static str,
    /// The thesis's published generation time (Table 4.4, all optimisations on).
    pub thesis: &'static str,
    /// The same in seconds, for the ratio.
    pub thesis_secs: f64,
}

/// The seed cases, in the thesis's order.
pub const CASES: &[Case] = &[
    Case {
        name: "nonconvex",
        src: include_str!("../../../examples/seed/nonconvex.pset"),
        thesis: "5.7 ms",
        thesis_secs: 5.7e-3,
    },
    Case {
        name: "nonconvex2",
        src: include_str!("../../../examples/seed/nonconvex2.pset"),
        thesis: "22.3 ms",
        thesis_secs: 22.3e-3,
    },
    Case {
        name: "sphere",
        src: include_str!("../../../examples/seed/sphere.pset"),
        thesis: "3.5 ms",
        thesis_secs: 3.5e-3,
    },
    Case {
        name: "steinmetz",
        src: include_str!("../../../examples/seed/steinmetz.pset"),
        thesis: "80.5 ms",
        thesis_secs: 80.5e-3,
    },
    Case {
        name: "rect-rect",
        src: include_str!("../../../examples/tiling/rect-rect.pset"),
        thesis: "0.05-0.06 s",
        thesis_secs: 0.055,
    },
    Case {
        name: "rect-par",
        src: include_str!("../../../examples/tiling/rect-par.pset"),
        thesis: "2 s",
        thesis_secs: 2.0,
    },
    Case {
        name: "rect-invpar",
        src: include_str!("../../../examples/tiling/rect-invpar.pset"),
        thesis: "6 s",
        thesis_secs: 6.0,
    },
    Case {
        name: "tri-rect",
        src: include_str!("../../../examples/tiling/tri-rect.pset"),
        thesis: "2 s (affine proj.)",
        thesis_secs: 2.0,
    },
    Case {
        name: "tri-invpar",
        src: include_str!("../../../examples/tiling/tri-invpar.pset"),
        thesis: "9 s (affine proj.)",
        thesis_secs: 9.0,
    },
];

/// An affine case of the run-time table: the file, the parameter values (full and quick
/// run) and how often one batch repeats the scan (for the small constant domains).
pub struct RunCase {
    /// The name in the table.
    pub name: &'static str,
    /// The input file's text.
    pub src: &'static str,
    /// Parameter values of a full run.
    pub params: &'static [(&'static str, i64)],
    /// Parameter values of a `--quick` run.
    pub quick_params: &'static [(&'static str, i64)],
    /// Scans per timed batch.
    pub reps: u64,
}

/// The run-time cases: affine domains and the tiled seed cases at fixed sizes.
pub const RUN_CASES: &[RunCase] = &[
    RunCase {
        name: "triangular",
        src: include_str!("../../../examples/domains/triangular.pset"),
        params: &[("n", 4000)],
        quick_params: &[("n", 1000)],
        reps: 1,
    },
    RunCase {
        name: "banded",
        src: include_str!("../../../examples/domains/banded.pset"),
        params: &[("n", 4000), ("b", 500)],
        quick_params: &[("n", 1000), ("b", 100)],
        reps: 1,
    },
    RunCase {
        name: "syrk-lower",
        src: include_str!("../../../examples/domains/syrk-lower.pset"),
        params: &[("n", 500), ("m", 64)],
        quick_params: &[("n", 200), ("m", 16)],
        reps: 1,
    },
    RunCase {
        name: "two-params",
        src: include_str!("../../../examples/domains/two-params.pset"),
        params: &[("n", 3000), ("m", 2000)],
        quick_params: &[("n", 800), ("m", 600)],
        reps: 1,
    },
    RunCase {
        name: "rect-rect",
        src: include_str!("../../../examples/tiling/rect-rect.pset"),
        params: &[],
        quick_params: &[],
        reps: 100_000,
    },
    RunCase {
        name: "rect-par",
        src: include_str!("../../../examples/tiling/rect-par.pset"),
        params: &[],
        quick_params: &[],
        reps: 100_000,
    },
    RunCase {
        name: "rect-invpar",
        src: include_str!("../../../examples/tiling/rect-invpar.pset"),
        params: &[],
        quick_params: &[],
        reps: 100_000,
    },
    RunCase {
        name: "tri-rect",
        src: include_str!("../../../examples/tiling/tri-rect.pset"),
        params: &[("p", 4000)],
        quick_params: &[("p", 1000)],
        reps: 1,
    },
    RunCase {
        name: "tri-invpar",
        src: include_str!("../../../examples/tiling/tri-invpar.pset"),
        params: &[("p", 4000)],
        quick_params: &[("p", 1000)],
        reps: 1,
    },
];

/// Fixed tile sizes for isl, which cannot take parametric ones.
pub const FIXED_SIZES: &str = "4,3";

/// The tiling a file's header asks for (`# tile-shape:`, `# tile-sizes:`), tile loops
/// outside; `fixed` replaces the sizes by [`FIXED_SIZES`].
pub fn header_tiling(src: &str, fixed: bool) -> Option<Tiling> {
    let field = |key: &str| {
        src.lines()
            .filter_map(|l| l.trim().strip_prefix('#'))
            .find_map(|l| l.trim().strip_prefix(key))
            .map(|v| v.trim().to_string())
    };
    let sizes = field("tile-sizes:")?;
    Some(Tiling {
        shape: field("tile-shape:"),
        ..Tiling::sizes(if fixed {
            FIXED_SIZES.to_string()
        } else {
            sizes
        })
    })
}

/// The case called `name`, or a message listing the cases.
pub fn find_case(name: &str) -> Result<&'static Case, String> {
    CASES.iter().find(|c| c.name == name).ok_or_else(|| {
        format!(
            "unknown case '{name}'; the cases are: {}",
            CASES.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
        )
    })
}

/// The problem whose CAD QEPCAD is asked for: the file's, or its parametric tiling.
pub fn system(case: &Case) -> Result<Problem, String> {
    let p = parse_problem(case.src).map_err(|e| format!("{}: {e}", case.name))?;
    Ok(match header_tiling(case.src, false) {
        Some(t) => tile_problem(&p, &t)?.problem,
        None => p,
    })
}
