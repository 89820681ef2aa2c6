//! Verification: compile the generated C with the system compiler, run it for parameter
//! values, and compare its instance sequence with a brute-force enumeration of the
//! domain's formulas over a box.

use crate::emit_c::CEmitter;
use crate::generate::Generated;
use polys::{Coeff, Int};
use std::fmt::Write as _;
use std::process::Command;
use thiserror::Error;

/// One statement instance: statement index and iterator values in statement order.
pub type Instance = (usize, Vec<i64>);

#[derive(Debug, Error)]
pub enum VerifyError {
    #[error("no C compiler found (tried $CC, cc, gcc): install gcc")]
    NoCompiler,
    #[error("the C compiler rejected the generated code:\n{0}")]
    Compile(String),
    #[error("the generated program failed for {params}: {message}")]
    Run { params: String, message: String },
    #[error("cannot print the code in 64-bit C: {0}")]
    Print(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("a box of {0} points is too large to enumerate")]
    BoxTooLarge(u128),
}

/// The generated program compiled once, runnable for many parameter values.
pub struct Compiled {
    _dir: tempfile::TempDir,
    exe: std::path::PathBuf,
    nparams: usize,
}

/// The system C compiler: `$CC`, else `cc`, else `gcc`, whichever answers `--version`.
pub fn compiler() -> Option<String> {
    let candidates = std::env::var("CC")
        .ok()
        .into_iter()
        .chain(["cc".into(), "gcc".into()]);
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Compiles `scan_c` (which defines `scan(params...)`) after `prelude` (includes and
/// statement macros), with a `main` that passes the command-line arguments to `scan`: the
/// program every instance-sequence check runs. `Ok(Err(message))` when the compiler
/// rejects it.
pub fn build_scan_program(
    cc: &str,
    mut prelude: String,
    scan_c: &str,
    nparams: usize,
) -> std::io::Result<Result<(tempfile::TempDir, std::path::PathBuf), String>> {
    prelude.push_str("#include \"scan.c\"\n");
    let pargs: Vec<String> = (0..nparams)
        .map(|i| format!("atoll(argv[{}])", i + 1))
        .collect();
    let _ = writeln!(
        prelude,
        "int main(int argc, char **argv) {{ if (argc < {}) return 2; scan({}); return 0; }}",
        nparams + 1,
        pargs.join(", ")
    );
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("scan.c"), scan_c)?;
    std::fs::write(dir.path().join("main.c"), prelude)?;
    let exe = dir.path().join("scan");
    let out = Command::new(cc)
        .args(["-std=c99", "-O1", "-w", "-o"])
        .arg(&exe)
        .arg(dir.path().join("main.c"))
        .current_dir(dir.path())
        .output()?;
    if !out.status.success() {
        return Ok(Err(String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    Ok(Ok((dir, exe)))
}

/// Compiles `g` as `scan(...)` with statement macros that print their instances.
pub fn compile(g: &Generated) -> Result<Compiled, VerifyError> {
    let cc = compiler().ok_or(VerifyError::NoCompiler)?;
    let emitter = CEmitter {
        vars: &g.vars,
        nparams: g.nparams,
        statements: &g.statements,
    };
    let scan = emitter
        .function(&g.nodes, &[])
        .map_err(|e| VerifyError::Print(e.to_string()))?;
    let mut main = String::from("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n");
    for (k, (name, arity)) in g.statements.iter().enumerate() {
        let args: Vec<String> = (0..*arity).map(|i| format!("a{i}")).collect();
        let fmt = " %lld".repeat(*arity);
        let casts: String = args.iter().map(|a| format!(", (long long)({a})")).collect();
        let _ = writeln!(
            main,
            "#define {name}({}) printf(\"{k}{fmt}\\n\"{casts})",
            args.join(", ")
        );
    }
    let (dir, exe) = match build_scan_program(&cc, main, &scan, g.nparams)? {
        Ok(built) => built,
        Err(message) => return Err(VerifyError::Compile(message)),
    };
    Ok(Compiled {
        _dir: dir,
        exe,
        nparams: g.nparams,
    })
}

impl Compiled {
    /// Runs the program for `params` and parses its instances.
    pub fn run(&self, params: &[i64]) -> Result<Vec<Instance>, VerifyError> {
        assert_eq!(params.len(), self.nparams, "one value per parameter");
        let out = Command::new(&self.exe)
            .args(params.iter().map(i64::to_string))
            .output()?;
        let show = || format!("{params:?}");
        if !out.status.success() {
            return Err(VerifyError::Run {
                params: show(),
                message: String::from_utf8_lossy(&out.stderr).into_owned(),
            });
        }
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines()
            .map(|l| {
                let nums: Result<Vec<i64>, _> = l.split_whitespace().map(str::parse).collect();
                match nums {
                    Ok(v) if !v.is_empty() => Ok((v[0] as usize, v[1..].to_vec())),
                    _ => Err(VerifyError::Run {
                        params: show(),
                        message: format!("unreadable output line {l:?}"),
                    }),
                }
            })
            .collect()
    }
}

/// All instances of the problem's formulas for `params` with iterator positions in the
/// box `bx` (one range per iterator loop variable, loop order), in execution order: by time
/// vector (when there is a schedule), then lexicographically by the iterators in loop
/// order, statements in file order at the same point. Iterator values are reported in each
/// statement's own order.
pub fn brute_force(
    g: &Generated,
    params: &[i64],
    bx: &[(i64, i64)],
) -> Result<Vec<Instance>, VerifyError> {
    let volume: u128 = bx.iter().map(|(l, h)| (h - l + 1).max(0) as u128).product();
    if volume > 50_000_000 {
        return Err(VerifyError::BoxTooLarge(volume));
    }
    let first_iter = g.nparams + g.ntime;
    let mut point: Vec<Int> = params.iter().map(|&p| Int::from(p)).collect();
    point.resize(first_iter + bx.len(), Int::from(0));
    let mut found: Vec<(Vec<Int>, usize, Vec<i64>)> = Vec::new();
    scan_box(g, bx, 0, &mut point, &mut found);
    // Execution order: time vector, then iterators in loop order, then statement order.
    found.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    Ok(found.into_iter().map(|(_, s, args)| (s, args)).collect())
}

fn scan_box(
    g: &Generated,
    bx: &[(i64, i64)],
    k: usize,
    point: &mut Vec<Int>,
    out: &mut Vec<(Vec<Int>, usize, Vec<i64>)>,
) {
    let first_iter = g.nparams + g.ntime;
    if k == bx.len() {
        for (s, f) in g.formulas.iter().enumerate() {
            // The time dimensions are functions of the iterators.
            for (l, t) in g.times[s].iter().enumerate() {
                point[g.nparams + l] = t.eval(point);
            }
            if g.pruning.iter().all(|c| c.eval_int(point)) && f.eval_int(point) {
                let args = match &g.calls {
                    Some(calls) => calls[s]
                        .iter()
                        .map(|p| p.eval(point).to_i64().unwrap_or(i64::MAX))
                        .collect(),
                    None => g.stmt_args[s]
                        .iter()
                        .map(|&v| point[v].to_i64().expect("box values fit in i64"))
                        .collect(),
                };
                out.push((point[g.nparams..].to_vec(), s, args));
            }
        }
        return;
    }
    for v in bx[k].0..=bx[k].1 {
        point[first_iter + k] = Int::from(v);
        scan_box(g, bx, k + 1, point, out);
    }
}

/// A box around the iterator values of `instances` (one range per iterator loop
/// variable), widened by `margin` on every side, or by half the extent if that is more.
pub fn box_around(instances: &[Instance], g: &Generated, margin: i64) -> Vec<(i64, i64)> {
    let first_iter = g.nparams + g.ntime;
    let depth = g.vars.len() - first_iter;
    // Positions a statement does not have are pinned to 0.
    let mut bx = vec![(0i64, 0i64); depth];
    let mut seen = vec![false; depth];
    for (s, vals) in instances {
        for (q, &v) in g.stmt_args[*s].iter().enumerate() {
            let c = v - first_iter;
            let x = vals[q];
            if seen[c] {
                bx[c] = (bx[c].0.min(x), bx[c].1.max(x));
            } else {
                bx[c] = (x.min(0), x.max(0));
                seen[c] = true;
            }
        }
    }
    bx.into_iter()
        .map(|(l, h)| {
            let m = margin.max((h - l) / 2);
            (l - m, h + m)
        })
        .collect()
}

/// The first position where two instance sequences differ, described for a person.
pub fn first_difference(expected: &[Instance], got: &[Instance], g: &Generated) -> Option<String> {
    first_difference_with(expected, got, &|i: &Instance| {
        let vals: Vec<String> = i.1.iter().map(i64::to_string).collect();
        format!("{}({})", g.statements[i.0].0, vals.join(", "))
    })
}

/// [`first_difference`] with instances shown by `show`.
pub fn first_difference_with(
    expected: &[Instance],
    got: &[Instance],
    show: &dyn Fn(&Instance) -> String,
) -> Option<String> {
    for (k, (e, o)) in expected.iter().zip(got).enumerate() {
        if e != o {
            return Some(format!(
                "instance {k}: expected {}, generated code ran {}",
                show(e),
                show(o)
            ));
        }
    }
    match expected.len().cmp(&got.len()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(format!(
            "generated code stops after {} instances ({} missing); next expected {}",
            got.len(),
            expected.len() - got.len(),
            show(&expected[got.len()])
        )),
        std::cmp::Ordering::Less => Some(format!(
            "generated code runs {} extra instances, first {}",
            got.len() - expected.len(),
            show(&got[expected.len()])
        )),
    }
}
