//! polyscan against isl on one affine input: both programs generated (timed), compiled
//! with the C harness and run at each parameter vector, their instance sequences compared.
//! `polyscan compare` renders a [`Report`]; the seed benchmark reads its times.

use crate::harness::{self, HarnessError, RunOutput};
use crate::input::{self, IslInput, NotAffine};
use crate::tile::{polyscan_tiled_input, TileError};
use crate::{Isl, IslError};
use codegen::input::{parse_problem, InputError, Problem};
use codegen::tile_problem::tile_problem;
use codegen::{Generated, Pipeline, PipelineError, Tiling};
use polys::CPrintError;
use std::time::Duration;
use thiserror::Error;

/// How a comparison runs.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Generation runs per tool (the median time is reported).
    pub runs: usize,
    /// Instances after which a program is stopped (prefixes are compared).
    pub max_instances: u64,
    /// Per run of a compiled program.
    pub run_timeout: Duration,
    /// Cell limit of polyscan's generation.
    pub max_cells: Option<u64>,
    /// Time limit of polyscan's generation.
    pub time_limit: Option<Duration>,
    /// Fixed-size tiling applied to both tools (isl cannot take parametric sizes).
    pub tiling: Option<Tiling>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            runs: 20,
            max_instances: 1_000_000,
            run_timeout: Duration::from_secs(60),
            max_cells: None,
            time_limit: None,
            tiling: None,
        }
    }
}

/// Why a comparison could not be made. A difference between the programs is not an
/// error: it is an [`Outcome::Different`] in the report.
#[derive(Debug, Error)]
pub enum CompareError {
    /// The input text does not parse.
    #[error("{0}")]
    Input(#[from] InputError),
    /// The input has polynomial terms, which isl cannot take.
    #[error("{0}")]
    NotAffine(#[from] NotAffine),
    /// isl is missing or failed.
    #[error("{0}")]
    Isl(#[from] IslError),
    /// The tiling request is malformed (the message says how).
    #[error("{0}")]
    Tiling(String),
    /// The tiling puts point loops between tile loops; compare orders by whole tiles only.
    #[error("compare runs tiled code with tile loops outside point loops only")]
    TileOrder,
    /// isl's tiled schedule could not be built, e.g. for parametric sizes.
    #[error("{0}; isl cannot take parametric tile sizes (w*t1 is not affine): give integers, e.g. --tile-sizes 4,3")]
    IslTiling(TileError),
    /// polyscan's generation failed or reached a limit.
    #[error("{0}")]
    Generation(#[from] PipelineError),
    /// polyscan's code has a constant beyond 64-bit C.
    #[error("cannot print the code in 64-bit C: {0}")]
    Print(#[from] CPrintError),
    /// Compiling or running a program failed.
    #[error("{0}")]
    Harness(#[from] HarnessError),
}

/// Lines, loops and conditionals of a program's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Non-empty lines.
    pub lines: usize,
    /// `for (` occurrences.
    pub loops: usize,
    /// `if (` occurrences.
    pub ifs: usize,
}

/// Counted on the C text, the same way for both tools.
pub fn size_of(code: &str) -> Size {
    Size {
        lines: code.lines().filter(|l| !l.trim().is_empty()).count(),
        loops: code.matches("for (").count(),
        ifs: code.matches("if (").count(),
    }
}

/// One tool's program.
#[derive(Clone, Debug)]
pub struct Side {
    /// The generated C.
    pub code: String,
    /// Median generation time over the runs.
    pub median: Duration,
    /// Its size.
    pub size: Size,
}

/// The result of one parameter vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Identical sequences (prefixes of `instances` when both hit the instance cap).
    Identical {
        /// Instances compared.
        instances: usize,
        /// Both programs stopped at the instance cap.
        truncated: bool,
    },
    /// The sequences differ; the text says where.
    Different(String),
    /// The values violate the file's context: both programs assume it, so not run.
    OutsideContext,
}

/// The comparison at one parameter vector.
#[derive(Clone, Debug)]
pub struct Check {
    /// The parameter values.
    pub params: Vec<i64>,
    /// The same as `n=5,m=3`.
    pub shown: String,
    /// What the two programs did.
    pub outcome: Outcome,
}

/// A whole comparison: both programs and every check.
#[derive(Clone, Debug)]
pub struct Report {
    /// What isl was given.
    pub input: IslInput,
    /// Parameter names, in order.
    pub param_names: Vec<String>,
    /// polyscan's program.
    pub polyscan: Side,
    /// isl's program.
    pub isl: Side,
    /// One per parameter vector.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether every check found identical sequences (or was outside the context).
    pub fn all_identical(&self) -> bool {
        self.checks
            .iter()
            .all(|c| !matches!(c.outcome, Outcome::Different(_)))
    }
}

/// Median process CPU time of `runs` calls (at least one), and the last result.
fn timed<T>(
    runs: usize,
    mut f: impl FnMut() -> Result<T, CompareError>,
) -> Result<(T, Duration), CompareError> {
    let mut times = Vec::with_capacity(runs.max(1));
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = crate::process_cpu_time();
        let r = f()?;
        times.push(crate::process_cpu_time().saturating_sub(t));
        last = Some(r);
    }
    times.sort();
    let median = times[times.len() / 2];
    // Invariant: the loop ran at least once, so `last` is set.
    let last = last.expect("at least one run");
    Ok((last, median))
}

/// Default parameter vectors: every parameter set to the same value, from degenerate ones
/// (negative, 0, 1) to values large enough for contexts such as `n >= 25`; with several
/// parameters also ascending and descending ones (`n < m` and `n > m`).
pub fn default_params(nparams: usize) -> Vec<Vec<i64>> {
    if nparams == 0 {
        return vec![vec![]];
    }
    let mut out: Vec<Vec<i64>> = [-1, 0, 1, 2, 5, 8, 13, 30]
        .iter()
        .map(|&v| vec![v; nparams])
        .collect();
    if nparams > 1 {
        for base in [1, 4, 10] {
            let up: Vec<i64> = (0..nparams as i64).map(|k| base + 3 * k).collect();
            let mut down = up.clone();
            down.reverse();
            out.push(up);
            out.push(down);
        }
    }
    out
}

/// [`default_params`], and when none of them satisfies `problem`'s context (`n = 6 and
/// m >= 7`, `125 <= t1 <= 127`), up to three that do: each parameter takes values near
/// the bounds the context's one-parameter constraints give it, and the combinations
/// (at most 200,000) are tried in order.
pub fn params_for(problem: &Problem) -> Vec<Vec<i64>> {
    let n = problem.params.len();
    let mut out = default_params(n);
    let inside = |v: &[i64]| {
        let point: Vec<polys::Int> = v.iter().map(|&x| polys::Int::from(x)).collect();
        problem.context.eval_int(&point)
    };
    if n == 0 || out.iter().any(|v| inside(v)) {
        return out;
    }
    // As many values per parameter as the budget allows for all of them.
    let per = (1..=64usize)
        .take_while(|r| r.checked_pow(n as u32).is_some_and(|x| x <= 200_000))
        .last()
        .unwrap_or(1);
    let values: Vec<Vec<i64>> = (0..n)
        .map(|k| {
            let (lo, hi) = param_bounds(&problem.context, k);
            let vs: Vec<i64> = match (lo, hi) {
                (Some(l), Some(h)) => [0, 1, 5, h.saturating_sub(l), 2, 12, 3, 8, 20]
                    .iter()
                    .map(|&d| l.saturating_add(d))
                    .chain([l.saturating_add(h.saturating_sub(l) / 2)])
                    .filter(|&v| v <= h)
                    .collect(),
                (Some(l), None) => [0, 1, 5, 2, 12, 3, 8, 20, 30]
                    .iter()
                    .map(|&d| l.saturating_add(d))
                    .collect(),
                (None, Some(h)) => [0, 1, 5, 2, 12, 3, 8, 20, 30]
                    .iter()
                    .map(|&d| h.saturating_sub(d))
                    .collect(),
                (None, None) => vec![5, 0, 1, 13, 2, -1, 8, 30, 3],
            };
            // First occurrences only, in order of preference.
            let mut unique: Vec<i64> = Vec::new();
            for v in vs {
                if !unique.contains(&v) {
                    unique.push(v);
                }
            }
            unique.truncate(per.max(1));
            unique
        })
        .collect();
    let mut found: Vec<Vec<i64>> = Vec::new();
    let mut index = vec![0usize; n];
    'all: loop {
        let v: Vec<i64> = index
            .iter()
            .enumerate()
            .map(|(k, &i)| values[k][i])
            .collect();
        if inside(&v) {
            found.push(v);
        }
        let mut k = n;
        loop {
            if k == 0 {
                break 'all;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < values[k].len() {
                break;
            }
            index[k] = 0;
        }
    }
    if let (Some(first), Some(last)) = (found.first(), found.last()) {
        let middle = &found[found.len() / 2];
        for p in [first, middle, last] {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// The bounds on parameter `k` that the context's top-level constraints in `k` alone
/// give (`a*k + c >= 0` and the like, `a` constant), where they fit in 64 bits.
fn param_bounds(context: &cad::formula::Formula, k: usize) -> (Option<i64>, Option<i64>) {
    use cad::formula::{Formula, Rel};
    use polys::Coeff;
    fn atoms(f: &Formula, out: &mut Vec<cad::formula::Atom>) {
        match f {
            Formula::And(fs) => fs.iter().for_each(|g| atoms(g, out)),
            Formula::Atom(a) => out.push(a.clone()),
            _ => {}
        }
    }
    let mut all = Vec::new();
    atoms(context, &mut all);
    let (mut lo, mut hi): (Option<i64>, Option<i64>) = (None, None);
    for a in all {
        if a.poly.vars() != [k] || a.poly.degree(k) != 1 {
            continue;
        }
        let cs = a.poly.coeffs(k);
        let (Some(c1), Some(c0)) = (cs[1].constant_value(), cs[0].constant_value()) else {
            continue;
        };
        // c1*x + c0 ~ 0: x ~ -c0/c1, the relation flipped for c1 < 0.
        let (num, den, rel) = if c1.signum() > 0 {
            (c0.neg(), c1, a.rel)
        } else {
            (c0, c1.neg(), a.rel.flip())
        };
        let floor = num.div_mod_floor(&den).0;
        let ceil = num.neg().div_mod_floor(&den).0.neg();
        let one = polys::Int::from(1);
        let (l, h) = match rel {
            Rel::Ge => (Some(ceil), None),
            Rel::Gt => (Some(floor + one), None),
            Rel::Le => (None, Some(floor)),
            Rel::Lt => (None, Some(ceil - one)),
            Rel::Eq => (Some(ceil), Some(floor)),
            Rel::Ne => (None, None),
        };
        if let Some(l) = l.and_then(|l| l.to_i64()) {
            lo = Some(lo.map_or(l, |x| x.max(l)));
        }
        if let Some(h) = h.and_then(|h| h.to_i64()) {
            hi = Some(hi.map_or(h, |x| x.min(h)));
        }
    }
    (lo, hi)
}

/// isl's input for `problem`, tiled as `tiling` asks (tile loops outside only).
fn isl_input_for(problem: &Problem, tiling: Option<&Tiling>) -> Result<IslInput, CompareError> {
    let base = input::from_problem(problem)?;
    let Some(how) = tiling else {
        return Ok(base);
    };
    let t = tile_problem(problem, how).map_err(CompareError::Tiling)?;
    if t.order != tiling::TileOrder::TilesOutside {
        return Err(CompareError::TileOrder);
    }
    polyscan_tiled_input(problem, &base, &t.spec).map_err(CompareError::IslTiling)
}

/// polyscan's generation of `src` with the options' limits and tiling, as `polyscan gen`
/// does by default.
fn generate(src: &str, opts: &CompareOptions) -> Result<Generated, CompareError> {
    let mut pipeline = Pipeline::new(parse_problem(src)?);
    if let Some(t) = &opts.tiling {
        pipeline = pipeline.tiling(t.clone());
    }
    if let Some(n) = opts.max_cells {
        pipeline = pipeline.max_cells(n);
    }
    if let Some(d) = opts.time_limit {
        pipeline = pipeline.time_limit(d);
    }
    Ok(pipeline.run()?.generated)
}

/// Compares polyscan and isl on the source text of an input file at each parameter
/// vector of `params` (values outside the file's context are not run).
pub fn compare_source(
    src: &str,
    params: &[Vec<i64>],
    opts: &CompareOptions,
) -> Result<Report, CompareError> {
    let problem = parse_problem(src)?;
    let isl_in = isl_input_for(&problem, opts.tiling.as_ref())?;
    let isl = Isl::new()?;

    // polyscan: parse, decompose, lower and print, as `polyscan gen` does.
    let ((g, poly_code, poly_function), poly_time) = timed(opts.runs, || {
        let g = generate(src, opts)?;
        let emitter = g.emitter();
        let fragment = emitter.fragment(&g.nodes)?;
        let function = emitter.function(&g.nodes, &[])?;
        Ok((g, fragment, function))
    })?;
    // isl: build its input, read it, generate the AST and print it.
    let (isl_code, isl_time) = timed(opts.runs, || {
        let p = isl_input_for(&problem, opts.tiling.as_ref())?;
        Ok(isl.ast_c(&p)?)
    })?;

    let isl_stmts: Vec<(String, usize)> = isl_in
        .statements
        .iter()
        .zip(&problem.statements)
        .map(|(n, s)| (n.clone(), s.iterators.len()))
        .collect();
    let nparams = problem.params.len();
    let poly_prog = harness::compile(
        "polyscan",
        &poly_function,
        &g.statements,
        nparams,
        opts.max_instances,
        opts.run_timeout,
    )?;
    let isl_prog = harness::compile(
        "isl",
        &harness::isl_scan_function(&isl_code, &isl_in.params),
        &isl_stmts,
        nparams,
        opts.max_instances,
        opts.run_timeout,
    )?;
    let names: Vec<String> = problem.statements.iter().map(|s| s.name.clone()).collect();
    let mut checks = Vec::new();
    for ps in params {
        let shown = codegen::verify::params_label(&problem.params, ps);
        let point: Vec<polys::Int> = ps.iter().map(|&v| polys::Int::from(v)).collect();
        let outcome = if !problem.context.eval_int(&point) {
            Outcome::OutsideContext
        } else {
            outcome(&poly_prog.run(ps)?, &isl_prog.run(ps)?, &names)
        };
        checks.push(Check {
            params: ps.clone(),
            shown,
            outcome,
        });
    }
    Ok(Report {
        input: isl_in,
        param_names: problem.params.clone(),
        polyscan: Side {
            size: size_of(&poly_code),
            code: poly_code,
            median: poly_time,
        },
        isl: Side {
            size: size_of(&isl_code),
            code: isl_code,
            median: isl_time,
        },
        checks,
    })
}

fn outcome(a: &RunOutput, b: &RunOutput, names: &[String]) -> Outcome {
    // With a cap, only the common prefix is meaningful: compare the shorter prefix when
    // either side stopped early.
    let n = if a.truncated || b.truncated {
        a.instances.len().min(b.instances.len())
    } else {
        usize::MAX
    };
    let ai = &a.instances[..a.instances.len().min(n)];
    let bi = &b.instances[..b.instances.len().min(n)];
    match harness::first_difference(("polyscan", ai), ("isl", bi), names) {
        None if a.truncated != b.truncated => Outcome::Different(format!(
            "{} stops at the instance cap after {} instances, the other finishes",
            if a.truncated { "polyscan" } else { "isl" },
            ai.len()
        )),
        None => Outcome::Identical {
            instances: ai.len(),
            truncated: a.truncated,
        },
        Some(d) => Outcome::Different(d),
    }
}
