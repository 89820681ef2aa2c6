//! Shared pieces of the differential tester: a seeded PRNG, random bounded domains written
//! as input text together with an independent evaluator of their formulas (the oracle),
//! and a runner that compiles many generated programs into one C file, runs it once and
//! compares every instance sequence with brute-force enumeration.
//!
//! The oracle evaluates the generator's own expression trees with `i128` arithmetic, not
//! the parsed formulas, so that parser, strict tightening, CAD, lowering and C emission
//! are all under test.

#![allow(dead_code)]

use cad::LiftStats;
use codegen::emit_c::HELPERS;
use codegen::input::parse_problem;
use codegen::{generate, GenError, GenOptions, Generated};
use std::fmt::Write as _;
use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod batch;
mod equation;
mod hard;
pub use batch::*;
pub use equation::*;
pub use hard::*;

/// splitmix64: tiny, fast and good enough to draw test cases; one state per domain seed
/// keeps every domain reproducible on its own.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1) as u64;
        lo + (self.next_u64() % span) as i64
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next_u64() % xs.len() as u64) as usize]
    }
}

/// An integer expression over the variables (parameters first, then iterators).
#[derive(Clone, Debug)]
pub enum E {
    Const(i64),
    Var(usize),
    Add(Vec<E>),
    /// `a - b`.
    Sub(Box<E>, Box<E>),
    Mul(Vec<E>),
    Neg(Box<E>),
    Pow(Box<E>, u32),
}

impl E {
    pub fn eval(&self, pt: &[i128]) -> i128 {
        match self {
            E::Const(c) => *c as i128,
            E::Var(v) => pt[*v],
            E::Add(es) => es.iter().map(|e| e.eval(pt)).sum(),
            E::Sub(a, b) => a.eval(pt) - b.eval(pt),
            E::Mul(es) => es.iter().map(|e| e.eval(pt)).product(),
            E::Neg(e) => -e.eval(pt),
            E::Pow(e, k) => e.eval(pt).pow(*k),
        }
    }

    /// Printed so that it parses back to the same polynomial; `atom`: the caller needs
    /// an operand that binds tighter than `*` and `^`.
    fn print(&self, names: &[String], atom: bool, out: &mut String) {
        let wrap = |s: String, need: bool| if need { format!("({s})") } else { s };
        let text = match self {
            E::Const(c) => wrap(c.to_string(), atom && *c < 0),
            E::Var(v) => names[*v].clone(),
            E::Add(es) => {
                let mut s = String::new();
                for (k, e) in es.iter().enumerate() {
                    let t = e.text(names, false);
                    if k == 0 {
                        s = t;
                    } else if let Some(rest) = t.strip_prefix('-') {
                        // `a + -b` is also valid, but print the usual way.
                        let _ = write!(s, " - {rest}");
                    } else {
                        let _ = write!(s, " + {t}");
                    }
                }
                wrap(s, atom && es.len() > 1)
            }
            E::Sub(a, b) => {
                let s = format!("{} - {}", a.text(names, false), b.text(names, true));
                wrap(s, atom)
            }
            E::Mul(es) => {
                let mut s = String::new();
                for (k, e) in es.iter().enumerate() {
                    let t = e.text(names, true);
                    // `2i` and `2(i + 1)`: a number directly followed by a name or `(`.
                    let implicit = k == 1
                        && matches!(es[0], E::Const(c) if c > 0)
                        && (matches!(e, E::Var(_)) || t.starts_with('('))
                        && names.len().is_multiple_of(2);
                    if k > 0 {
                        s.push_str(if implicit { "" } else { "*" });
                    }
                    s.push_str(&t);
                }
                wrap(s, atom)
            }
            E::Neg(e) => wrap(format!("-{}", e.text(names, true)), atom),
            E::Pow(e, k) => format!("{}^{k}", e.text(names, true)),
        };
        out.push_str(&text);
    }

    pub fn text(&self, names: &[String], atom: bool) -> String {
        let mut s = String::new();
        self.print(names, atom, &mut s);
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

impl Rel {
    const ALL: [Rel; 6] = [Rel::Lt, Rel::Le, Rel::Eq, Rel::Ne, Rel::Ge, Rel::Gt];

    fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Rel::Lt => a < b,
            Rel::Le => a <= b,
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Ge => a >= b,
            Rel::Gt => a > b,
        }
    }

    fn text(self, alt: bool) -> &'static str {
        match self {
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Eq if alt => "==",
            Rel::Eq => "=",
            Rel::Ne => "!=",
            Rel::Ge => ">=",
            Rel::Gt => ">",
        }
    }
}

/// A formula of the input language.
#[derive(Clone, Debug)]
pub enum F {
    /// A comparison chain `e0 r0 e1 r1 e2 ...`.
    Chain(Vec<E>, Vec<Rel>),
    And(Vec<F>),
    Or(Vec<F>),
    Not(Box<F>),
}

impl F {
    pub fn eval(&self, pt: &[i128]) -> bool {
        match self {
            F::Chain(es, rs) => rs
                .iter()
                .enumerate()
                .all(|(k, r)| r.holds(es[k].eval(pt), es[k + 1].eval(pt))),
            F::And(fs) => fs.iter().all(|f| f.eval(pt)),
            F::Or(fs) => fs.iter().any(|f| f.eval(pt)),
            F::Not(f) => !f.eval(pt),
        }
    }

    /// `alt`: spell connectives `&&`, `||`, `!`, `==` instead of the words.
    fn text(&self, names: &[String], alt: bool) -> String {
        match self {
            F::Chain(es, rs) => {
                let mut s = es[0].text(names, false);
                for (k, r) in rs.iter().enumerate() {
                    let _ = write!(s, " {} {}", r.text(alt), es[k + 1].text(names, false));
                }
                s
            }
            F::And(fs) => {
                let parts: Vec<String> = fs
                    .iter()
                    .map(|f| match f {
                        F::Or(_) => format!("({})", f.text(names, alt)),
                        _ => f.text(names, alt),
                    })
                    .collect();
                parts.join(if alt { " && " } else { " and " })
            }
            F::Or(fs) => {
                let parts: Vec<String> = fs
                    .iter()
                    .map(|f| match f {
                        F::And(_) => format!("({})", f.text(names, alt)),
                        _ => f.text(names, alt),
                    })
                    .collect();
                parts.join(if alt { " || " } else { " or " })
            }
            F::Not(f) => {
                let inner = match **f {
                    F::Chain(..) | F::Not(_) if !alt => f.text(names, alt),
                    _ => format!("({})", f.text(names, alt)),
                };
                if alt {
                    format!("!{inner}")
                } else {
                    format!("not {inner}")
                }
            }
        }
    }
}

/// A bound of a box side: `c + a * param` (a in -1..=2).
#[derive(Clone, Copy, Debug)]
pub struct Side {
    pub c: i64,
    pub param: Option<(usize, i64)>,
}

impl Side {
    fn expr(self) -> E {
        match self.param {
            None => E::Const(self.c),
            Some((p, a)) => {
                let t = if a == 1 {
                    E::Var(p)
                } else {
                    E::Mul(vec![E::Const(a), E::Var(p)])
                };
                if self.c == 0 {
                    t
                } else {
                    E::Add(vec![t, E::Const(self.c)])
                }
            }
        }
    }

    fn value(self, params: &[i64]) -> i64 {
        self.c + self.param.map_or(0, |(p, a)| a * params[p])
    }
}

/// One random domain: its text and everything the oracle needs.
#[derive(Clone, Debug)]
pub struct Domain {
    pub seed: u64,
    pub text: String,
    pub params: Vec<String>,
    pub depth: usize,
    /// Per statement: its formula (box included) and its box, one side pair per iterator.
    pub statements: Vec<(F, Vec<(Side, Side)>)>,
    /// Parameter values to run.
    pub param_sets: Vec<Vec<i64>>,
    /// Generate with the linear scanner where it applies (the CLI's default engine), or
    /// always with the CAD: even seeds take the first, odd seeds the second.
    pub linear: bool,
}

const PARAM_NAMES: [&str; 2] = ["n", "m"];
const ITER_NAMES: [&str; 4] = ["i", "j", "k", "l"];

/// A random expression of total degree at most `deg` over `nvars` variables, with small
/// coefficients.
fn random_poly(rng: &mut Rng, vars: &[usize], deg: u32) -> E {
    let var = |rng: &mut Rng| *rng.pick(vars);
    let nterms = rng.range(1, 3) as usize;
    let mut terms = Vec::new();
    for _ in 0..nterms {
        let mut budget = rng.range(0, deg as i64) as u32;
        let mut factors = Vec::new();
        let c = *rng.pick(&[-3, -2, -1, 1, 1, 1, 2, 3]);
        if c != 1 || budget == 0 {
            factors.push(E::Const(c));
        }
        while budget > 0 {
            let e = rng.range(1, budget as i64) as u32;
            budget -= e;
            let base = if rng.chance(1, 4) {
                // A shifted variable or a small affine form, as in `(i - 4)^2`.
                let a = E::Var(var(rng));
                let b = if rng.chance(1, 2) {
                    E::Const(rng.range(-4, 4))
                } else {
                    E::Var(var(rng))
                };
                if rng.chance(1, 2) {
                    E::Add(vec![a, b])
                } else {
                    E::Sub(Box::new(a), Box::new(b))
                }
            } else {
                E::Var(var(rng))
            };
            factors.push(if e == 1 {
                base
            } else {
                E::Pow(Box::new(base), e)
            });
        }
        terms.push(if factors.len() == 1 {
            factors.pop().expect("one factor")
        } else {
            E::Mul(factors)
        });
    }
    if rng.chance(2, 3) {
        terms.push(E::Const(rng.range(-12, 12)));
    }
    if terms.len() == 1 {
        terms.pop().expect("one term")
    } else {
        E::Add(terms)
    }
}

/// A random atom over `nvars` variables (the first `np` are parameters). Nonlinear
/// polynomials read one to three variables: the projection of several quartics in six
/// variables is far beyond any CAD, and real loop bounds are rarely like that.
fn random_atom(rng: &mut Rng, nvars: usize, np: usize, affine: bool) -> F {
    let deg = if affine || rng.chance(2, 5) {
        1
    } else {
        rng.range(2, 4) as u32
    };
    let rel = if rng.chance(1, 8) {
        Rel::Eq
    } else if !affine && rng.chance(1, 8) {
        Rel::Ne
    } else if affine {
        *rng.pick(&[Rel::Lt, Rel::Le, Rel::Ge, Rel::Gt])
    } else {
        *rng.pick(&Rel::ALL)
    };
    // Equalities of high degree are almost always empty: keep them mostly affine.
    let deg = if rel == Rel::Eq && rng.chance(3, 4) {
        1
    } else {
        deg
    };
    let nread = if deg == 1 {
        rng.range(1, 3)
    } else if rng.chance(1, 6) {
        3
    } else {
        rng.range(1, 2)
    };
    let mut vars: Vec<usize> = Vec::new();
    for _ in 0..nread {
        // Iterators more often than parameters.
        let v = if np > 0 && rng.chance(1, 4) {
            rng.range(0, np as i64 - 1)
        } else {
            rng.range(np as i64, nvars as i64 - 1)
        } as usize;
        if !vars.contains(&v) {
            vars.push(v);
        }
    }
    let lhs = random_poly(rng, &vars, deg);
    let rhs = if rng.chance(1, 2) {
        E::Const(rng.range(-10, 10))
    } else if np > 0 && rng.chance(1, 2) {
        E::Var(rng.range(0, np as i64 - 1) as usize)
    } else {
        random_poly(rng, &vars, 1)
    };
    F::Chain(vec![lhs, rhs], vec![rel])
}

/// A random formula; `affine`: a conjunction of affine inequalities (a polyhedron, for
/// which the generator eliminates sections).
fn random_formula(rng: &mut Rng, nvars: usize, np: usize, depth: u32, affine: bool) -> F {
    if depth == 0 || rng.chance(1, 2) {
        return random_atom(rng, nvars, np, affine);
    }
    let n = rng.range(2, 3) as usize;
    let parts: Vec<F> = (0..n)
        .map(|_| random_formula(rng, nvars, np, depth - 1, affine))
        .collect();
    if affine {
        return F::And(parts);
    }
    match rng.range(0, 4) {
        0 | 1 => F::And(parts),
        2 | 3 => F::Or(parts),
        _ => F::Not(Box::new(F::Or(parts))),
    }
}

fn random_side(rng: &mut Rng, np: usize, lower: bool) -> Side {
    if np > 0 && rng.chance(1, 3) {
        let p = rng.range(0, np as i64 - 1) as usize;
        let a = if lower {
            *rng.pick(&[1, -1])
        } else {
            *rng.pick(&[1, 1, 2, -1])
        };
        let c = if lower {
            rng.range(-3, 0)
        } else {
            rng.range(0, 3)
        };
        Side {
            c,
            param: Some((p, a)),
        }
    } else if lower {
        Side {
            c: rng.range(-3, 1),
            param: None,
        }
    } else {
        Side {
            c: rng.range(0, 5),
            param: None,
        }
    }
}

/// The random domain of `seed`.
pub fn random_domain(seed: u64) -> Domain {
    let mut rng = Rng::new(seed);
    let np = rng.range(0, 2) as usize;
    let depth = rng.range(2, 4) as usize;
    let nstmts = *rng.pick(&[1, 1, 1, 2, 2, 3]);
    let affine = rng.chance(1, 4);
    let params: Vec<String> = PARAM_NAMES[..np].iter().map(|s| s.to_string()).collect();
    let mut names = params.clone();
    names.extend(ITER_NAMES[..depth].iter().map(|s| s.to_string()));
    let nvars = np + depth;
    let alt = rng.chance(1, 4);
    let mut statements = Vec::new();
    let mut body = Vec::new();
    for s in 0..nstmts {
        let mut parts = Vec::new();
        let mut sides = Vec::new();
        for it in 0..depth {
            let (lo, hi) = (
                random_side(&mut rng, np, true),
                random_side(&mut rng, np, false),
            );
            sides.push((lo, hi));
            let v = E::Var(np + it);
            // Chains (`lo <= i <= hi`), or two atoms, with `<` tightened by hand.
            if rng.chance(1, 2) {
                parts.push(F::Chain(
                    vec![lo.expr(), v, hi.expr()],
                    vec![Rel::Le, Rel::Le],
                ));
            } else {
                let lo_strict = Side { c: lo.c - 1, ..lo };
                parts.push(F::Chain(vec![lo_strict.expr(), v.clone()], vec![Rel::Lt]));
                parts.push(F::Chain(vec![v, hi.expr()], vec![Rel::Le]));
            }
        }
        let nconstraints = rng.range(1, 2);
        for _ in 0..nconstraints {
            let depth = if rng.chance(1, 3) { 2 } else { 1 };
            parts.push(random_formula(&mut rng, nvars, np, depth, affine));
        }
        // Shuffle so box constraints are not always first.
        for k in (1..parts.len()).rev() {
            let j = rng.range(0, k as i64) as usize;
            parts.swap(k, j);
        }
        let f = F::And(parts);
        body.push(format!(
            "S{s}[{}] : {}",
            ITER_NAMES[..depth].join(", "),
            f.text(&names, alt)
        ));
        statements.push((f, sides));
    }
    Domain::assemble(
        &format!("seed {seed}"),
        seed,
        params,
        depth,
        &body,
        statements,
        &mut rng,
        seed.is_multiple_of(2),
    )
}

/// Statement instances in lexicographic order: `(statement, iterator values)`.
pub type Instances = Vec<(usize, Vec<i64>)>;

impl Domain {
    /// A domain from its statements (`body`: their text, `statements`: their formulas and
    /// boxes): the set under a `# {title}` line, parameters in front where there are any,
    /// and parameter values drawn from `rng` (four sets, one without parameters).
    #[allow(clippy::too_many_arguments)]
    pub fn assemble(
        title: &str,
        seed: u64,
        params: Vec<String>,
        depth: usize,
        body: &[String],
        statements: Vec<(F, Vec<(Side, Side)>)>,
        rng: &mut Rng,
        linear: bool,
    ) -> Domain {
        let np = params.len();
        let head = if np > 0 {
            format!("[{}] -> ", params.join(", "))
        } else {
            String::new()
        };
        let text = format!("# {title}\n{head}{{ {} }}\n", body.join("; "));
        let nsets = if np == 0 { 1 } else { 4 };
        let param_sets = (0..nsets)
            .map(|_| (0..np).map(|_| rng.range(-3, 8)).collect())
            .collect();
        Domain {
            seed,
            text,
            params,
            depth,
            statements,
            param_sets,
            linear,
        }
    }

    /// Brute force over the hull of the statements' boxes, from the oracle formulas.
    pub fn brute_force(&self, params: &[i64]) -> Instances {
        let np = params.len();
        let mut bx = vec![(i64::MAX, i64::MIN); self.depth];
        for (_, sides) in &self.statements {
            for (q, (lo, hi)) in sides.iter().enumerate() {
                bx[q].0 = bx[q].0.min(lo.value(params));
                bx[q].1 = bx[q].1.max(hi.value(params));
            }
        }
        let mut out = Vec::new();
        let mut pt: Vec<i128> = params.iter().map(|&p| p as i128).collect();
        pt.resize(np + self.depth, 0);
        self.scan(&bx, 0, &mut pt, &mut out);
        out
    }

    fn scan(&self, bx: &[(i64, i64)], q: usize, pt: &mut Vec<i128>, out: &mut Instances) {
        let np = pt.len() - self.depth;
        if q == self.depth {
            for (s, (f, _)) in self.statements.iter().enumerate() {
                if f.eval(pt) {
                    out.push((s, pt[np..].iter().map(|&v| v as i64).collect()));
                }
            }
            return;
        }
        for v in bx[q].0..=bx[q].1 {
            pt[np + q] = v as i128;
            self.scan(bx, q + 1, pt, out);
        }
    }
}

/// How one domain ended.
#[derive(Debug)]
pub enum Outcome {
    /// Generated, compiled and every parameter set matched brute force.
    Pass,
    /// A root of degree 3 or more that is not a binomial: not supported (allowed).
    Degree,
    /// The cell limit or the time limit (allowed).
    Limit,
    /// A wrong instance sequence, a panic, an unexpected error.
    Fail(String),
}

/// Limits per domain, so that a slow domain cannot hang the run.
pub const MAX_CELLS: u64 = 20_000;
pub const DOMAIN_SECONDS: f64 = 1.5;

/// Parses and generates `text` in this process, classifying errors; panics are caught
/// and reported.
pub fn generate_text(text: &str, linear: bool) -> Result<Generated, Outcome> {
    let problem = parse_problem(text).map_err(|e| Outcome::Fail(format!("parse error: {e}")))?;
    let opts = GenOptions {
        linear,
        limits: cad::Limits::new(Some(MAX_CELLS), Some(DOMAIN_SECONDS)),
        ..GenOptions::default()
    };
    match std::panic::catch_unwind(|| generate(&problem, &opts, &LiftStats::default())) {
        Ok(Ok(g)) => Ok(g),
        Ok(Err(e)) => Err(classify(e)),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(Outcome::Fail(format!("panic in generate: {msg}")))
        }
    }
}

/// The C function `scan(...)` for `text`, generated in this process.
pub fn c_function(text: &str, linear: bool) -> Result<String, Outcome> {
    let g = generate_text(text, linear)?;
    let emitter = g.emitter();
    emitter
        .function(&g.nodes, &[])
        .map_err(|e| Outcome::Fail(format!("cannot print C: {e}")))
}

/// Environment variables of the child mode: the seed to generate and the file to write.
pub const CHILD_SEED: &str = "POLYSCAN_DIFF_CHILD_SEED";
pub const CHILD_OUT: &str = "POLYSCAN_DIFF_CHILD_OUT";
/// Name of the test function that serves the child mode.
pub const CHILD_TEST: &str = "child_generate";

/// The child side: generates the domain of `$POLYSCAN_DIFF_CHILD_SEED` ([`domain_of`]) and writes the
/// outcome (first line) and the C function to `$POLYSCAN_DIFF_CHILD_OUT`.
pub fn child_main() {
    let (Some(seed), Ok(out)) = (
        std::env::var(CHILD_SEED).ok().and_then(|s| s.parse().ok()),
        std::env::var(CHILD_OUT),
    ) else {
        return;
    };
    // Panics are reported through the file, not on standard error.
    std::panic::set_hook(Box::new(|_| {}));
    let d = domain_of(seed);
    let text = match c_function(&d.text, d.linear) {
        Ok(c) => format!("ok\n{c}"),
        Err(Outcome::Degree) => "degree\n".into(),
        Err(Outcome::Limit) => "limit\n".into(),
        Err(Outcome::Fail(m)) => format!("fail {}\n", m.replace('\n', " | ")),
        Err(Outcome::Pass) => "fail impossible outcome\n".into(),
    };
    std::fs::write(out, text).expect("the parent's scratch file is writable");
}

/// Generates domain `d` in a child process (this test binary, running [`CHILD_TEST`])
/// under a memory limit and killed after twice the time limit: the projection checks no
/// deadline and can grow without bound, and only a process can be stopped from outside.
pub fn generate_in_child(d: &Domain, scratch: &std::path::Path) -> Result<String, Outcome> {
    let exe = std::env::current_exe().map_err(|e| Outcome::Fail(e.to_string()))?;
    let out = scratch.join(format!("out-{}", d.seed));
    let _ = std::fs::remove_file(&out);
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {CHILD_MEMORY_KB} 2>/dev/null; exec \"$0\" \"$@\""
        ))
        .arg(&exe)
        .args([CHILD_TEST, "--exact", "--test-threads=1", "-q"])
        .env(CHILD_SEED, d.seed.to_string())
        .env(CHILD_OUT, &out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| Outcome::Fail(format!("cannot start the child: {e}")))?;
    let start = Instant::now();
    let timeout = Duration::from_secs_f64(2.0 * DOMAIN_SECONDS);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > timeout => {
                // Our own child, by its handle (`exec` made it the test binary itself).
                let _ = child.kill();
                let _ = child.wait();
                return Err(Outcome::Limit);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(Outcome::Fail(e.to_string())),
        }
    }
    let text = match std::fs::read_to_string(&out) {
        Ok(t) => t,
        // No file: the child died, most likely at the memory limit.
        Err(_) => return Err(Outcome::Limit),
    };
    let _ = std::fs::remove_file(&out);
    let (head, rest) = text.split_once('\n').unwrap_or((&text, ""));
    match head {
        "ok" => Ok(rest.to_string()),
        "degree" => Err(Outcome::Degree),
        "limit" => Err(Outcome::Limit),
        h => Err(Outcome::Fail(
            h.strip_prefix("fail ").unwrap_or(h).to_string(),
        )),
    }
}

/// Address-space limit of a child, in KiB.
const CHILD_MEMORY_KB: u64 = 3_000_000;

fn classify(e: GenError) -> Outcome {
    match e {
        GenError::Bound(codegen::bounds::BoundError::Degree { .. }) => Outcome::Degree,
        e if e.stop_reason().is_some() => Outcome::Limit,
        other => Outcome::Fail(format!("generate: {other}")),
    }
}
