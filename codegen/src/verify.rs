//! Verification: compile the generated C with the system compiler, run it for parameter
//! values, and compare its instance sequence with a brute-force enumeration of the
//! domain's formulas over a box.

use crate::generated::Generated;
use polys::{Coeff, Int};
use std::fmt::Write as _;
use std::process::Command;
use thiserror::Error;

/// One statement instance: statement index and iterator values in statement order.
pub type Instance = (usize, Vec<i64>);

/// Why a generated program could not be compiled, run or enumerated. `params` fields
/// hold the parameter values of the failing run, as text.
#[derive(Debug, Error)]
pub enum VerifyError {
    /// No working C compiler (see [`compiler`]).
    #[error("no C compiler found (tried $CC, cc, gcc): install gcc")]
    NoCompiler,
    /// The compiler failed; the payload is its diagnostic output.
    #[error("the C compiler rejected the generated code:\n{0}")]
    Compile(String),
    /// The program failed (wrong parameter count, a non-zero exit, unreadable output).
    #[error("the generated program failed for {params}: {message}")]
    Run {
        /// The parameter values of the run.
        params: String,
        /// What went wrong.
        message: String,
    },
    /// The AST cannot be printed as C with 64-bit integers.
    #[error("cannot print the code in 64-bit C: {0}")]
    Print(String),
    /// Writing, compiling or running the program failed at the operating system.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The brute-force enumeration box has this many points, more than it may enumerate.
    #[error("a box of {0} points is too large to enumerate")]
    BoxTooLarge(u128),
    /// The program ran longer than the run time limit and was killed.
    #[error("the generated program ran longer than {secs} s for {params} and was killed (--run-timeout)")]
    Timeout {
        /// The parameter values of the run.
        params: String,
        /// The time limit, in seconds.
        secs: f64,
    },
    /// The checked program (`--check-overflow`) stopped at an overflow.
    #[error("the generated program overflowed int64_t for {params}:\n{message}")]
    Overflow {
        /// The parameter values of the run.
        params: String,
        /// The program's report: which expression overflowed, where.
        message: String,
    },
    /// The program printed more than the output limit and was stopped.
    #[error("the generated program printed more than {limit} bytes for {params}")]
    OutputTooLarge {
        /// The parameter values of the run.
        params: String,
        /// The limit, in bytes ([`OUTPUT_LIMIT`]).
        limit: u64,
    },
}

/// The most output a run may produce (instances are compared in memory).
pub const OUTPUT_LIMIT: u64 = 1 << 30;

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
    compile_with(g, false)
}

/// [`compile`], with `check_overflow`: the `--check-overflow` variant, which aborts with a
/// message on stderr at the first overflowing operation.
pub fn compile_with(g: &Generated, check_overflow: bool) -> Result<Compiled, VerifyError> {
    let cc = compiler().ok_or(VerifyError::NoCompiler)?;
    let emitter = g.emitter();
    let scan = if check_overflow {
        emitter
            .checked()
            .function(&g.nodes, &[])
            .map_err(|e| VerifyError::Print(e.to_string()))?
    } else {
        emitter
            .function(&g.nodes, &[])
            .map_err(|e| VerifyError::Print(e.to_string()))?
    };
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
    /// Runs the program for `params` and parses its instances (no time limit).
    pub fn run(&self, params: &[i64]) -> Result<Vec<Instance>, VerifyError> {
        self.run_with_timeout(params, None)
    }

    /// Runs the program for `params` and parses its instances; a run longer than `limit`
    /// is killed ([`VerifyError::Timeout`]). Output is read while the program runs (so a
    /// full pipe cannot stall it) and capped at [`OUTPUT_LIMIT`].
    pub fn run_with_timeout(
        &self,
        params: &[i64],
        limit: Option<std::time::Duration>,
    ) -> Result<Vec<Instance>, VerifyError> {
        use std::io::Read;
        use std::process::Stdio;
        let show = || format!("{params:?}");
        if params.len() != self.nparams {
            return Err(VerifyError::Run {
                params: show(),
                message: format!(
                    "{} parameter values for {} parameters",
                    params.len(),
                    self.nparams
                ),
            });
        }
        let mut child = Command::new(&self.exe)
            .args(params.iter().map(i64::to_string))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(VerifyError::Run {
                params: show(),
                message: "no pipes to the program".into(),
            });
        };
        // Dropping the pipe after the limit makes the program's next write fail (SIGPIPE).
        let out_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let r = (&mut stdout).take(OUTPUT_LIMIT + 1).read_to_end(&mut buf);
            r.map(|_| buf)
        });
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = (&mut stderr).take(1 << 20).read_to_end(&mut buf);
            buf
        });
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break Some(status);
            }
            if limit.is_some_and(|l| started.elapsed() >= l) {
                // Our own child, by its handle.
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        let stdout = out_reader.join().map_err(|_| VerifyError::Run {
            params: show(),
            message: "the output reader failed".into(),
        })??;
        let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
        let Some(status) = status else {
            return Err(VerifyError::Timeout {
                params: show(),
                secs: limit.map_or(0.0, |l| l.as_secs_f64()),
            });
        };
        if stdout.len() as u64 > OUTPUT_LIMIT {
            return Err(VerifyError::OutputTooLarge {
                params: show(),
                limit: OUTPUT_LIMIT,
            });
        }
        if !status.success() {
            if stderr.contains("polyscan: ") && stderr.contains("overflow") {
                return Err(VerifyError::Overflow {
                    params: show(),
                    message: stderr.trim_end().to_string(),
                });
            }
            let message = if stderr.trim().is_empty() {
                format!("{status}")
            } else {
                format!("{status}: {stderr}")
            };
            return Err(VerifyError::Run {
                params: show(),
                message,
            });
        }
        let text = String::from_utf8_lossy(&stdout);
        text.lines()
            .map(|l| {
                let nums: Result<Vec<i64>, _> = l.split_whitespace().map(str::parse).collect();
                match nums {
                    Ok(v) if !v.is_empty() && v[0] >= 0 => Ok((v[0] as usize, v[1..].to_vec())),
                    _ => Err(VerifyError::Run {
                        params: show(),
                        message: format!("unreadable output line {l:?}"),
                    }),
                }
            })
            .collect()
    }
}

/// Parameter values as runs report them: `n=5,m=3`, or `no parameters`.
pub fn params_label(names: &[String], values: &[i64]) -> String {
    if names.is_empty() {
        return "no parameters".into();
    }
    names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(",")
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
    let volume: u128 = bx
        .iter()
        .map(|&(l, h)| (h as i128 - l as i128 + 1).max(0) as u128)
        .fold(1u128, u128::saturating_mul);
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
            // Near the ends of i64 (huge parameters) the box stops at the end.
            let m = margin.max(((h as i128 - l as i128) / 2) as i64);
            (l.saturating_sub(m), h.saturating_add(m))
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
