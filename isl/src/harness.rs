//! Compiling and running loop nests that call statement macros, for `compare`: a C file
//! defining `void scan(int64_t params...)` is compiled with the system C compiler against
//! macros that print each instance, and run with a cap on the number of instances and on
//! the time, so that a wrong or huge program cannot hang the comparison.
//!
//! This mirrors `codegen::verify::compile` (which takes a polyscan `Generated` only) so that
//! isl's code and polyscan's code run through exactly the same driver.

use codegen::verify::Instance;
use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Exit status of a program that reached the instance cap.
const LIMIT_STATUS: i32 = 97;

/// Why a program could not be built or run.
#[derive(Debug, Error)]
pub enum HarnessError {
    /// No system C compiler was found.
    #[error("no C compiler found (tried $CC, cc, gcc): install gcc")]
    NoCompiler,
    /// The C compiler failed on the generated code.
    #[error("the C compiler rejected the {who} code:\n{message}")]
    Compile {
        /// Whose code it was (e.g. `isl` or `polyscan`), for the message.
        who: String,
        /// The compiler's diagnostics.
        message: String,
    },
    /// The program was given the wrong number of parameters, exited with a failure
    /// status other than the instance cap's, or printed a line that is not an instance.
    #[error("the {who} program failed for {params}: {message}")]
    Run {
        /// Whose program it was.
        who: String,
        /// The parameter values of the run, as `[a, b]`.
        params: String,
        /// What went wrong.
        message: String,
    },
    /// The program did not finish within the timeout and was killed.
    #[error("the {who} program ran longer than {secs} s for {params}")]
    Timeout {
        /// Whose program it was.
        who: String,
        /// The parameter values of the run, as `[a, b]`.
        params: String,
        /// The timeout, in whole seconds.
        secs: u64,
    },
    /// Spawning, waiting for or reading from the program failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What a run printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutput {
    /// The instances in execution order: statement index and iterator values.
    pub instances: Vec<Instance>,
    /// The program reached the instance cap; `instances` is a prefix.
    pub truncated: bool,
}

/// A compiled program, runnable for many parameter values.
pub struct Program {
    _dir: tempfile::TempDir,
    exe: PathBuf,
    nparams: usize,
    who: String,
    timeout: Duration,
}

/// isl's C output as a `scan` function: isl's helpers as macros, 64-bit iterators.
pub fn isl_scan_function(code: &str, params: &[String]) -> String {
    let mut out = String::from(
        "#include <stdint.h>\n\
         /* isl's helpers: floord divides by a positive constant, rounding down. */\n\
         #define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))\n\
         #define min(x, y) ((x) < (y) ? (x) : (y))\n\
         #define max(x, y) ((x) > (y) ? (x) : (y))\n",
    );
    let ps: Vec<String> = params.iter().map(|p| format!("int64_t {p}")).collect();
    let ps = if ps.is_empty() {
        "void".to_string()
    } else {
        ps.join(", ")
    };
    let _ = writeln!(out, "void scan({ps})\n{{");
    for line in code.lines() {
        // isl declares its iterators `int`; parameters are 64-bit here, so are they.
        let l = line.replace("for (int ", "for (int64_t ");
        let trimmed = l.trim_start();
        let l = match trimmed.strip_prefix("int ") {
            Some(rest) => format!("{}int64_t {rest}", &l[..l.len() - trimmed.len()]),
            None => l,
        };
        let _ = writeln!(out, "  {l}");
    }
    out.push_str("}\n");
    out
}

/// Compiles `scan_c` (defining `void scan(int64_t ...)`) with one printing macro per
/// statement; a run stops with a truncated result after `limit` instances or after
/// `timeout`.
pub fn compile(
    who: &str,
    scan_c: &str,
    statements: &[(String, usize)],
    nparams: usize,
    limit: u64,
    timeout: Duration,
) -> Result<Program, HarnessError> {
    let cc = codegen::verify::compiler().ok_or(HarnessError::NoCompiler)?;
    let mut main = String::from("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n");
    let _ = writeln!(
        main,
        "static long long ps_count = 0;\nstatic const long long ps_limit = {limit};"
    );
    for (k, (name, arity)) in statements.iter().enumerate() {
        let args: Vec<String> = (0..*arity).map(|i| format!("a{i}")).collect();
        let fmt = " %lld".repeat(*arity);
        let casts: String = args.iter().map(|a| format!(", (long long)({a})")).collect();
        let _ = writeln!(
            main,
            "#define {name}({}) do {{ if (++ps_count > ps_limit) {{ fflush(stdout); exit({LIMIT_STATUS}); }} printf(\"{k}{fmt}\\n\"{casts}); }} while (0)",
            args.join(", ")
        );
    }
    let (dir, exe) = match codegen::verify::build_scan_program(&cc, main, scan_c, nparams)? {
        Ok(built) => built,
        Err(message) => {
            return Err(HarnessError::Compile {
                who: who.into(),
                message,
            })
        }
    };
    Ok(Program {
        _dir: dir,
        exe,
        nparams,
        who: who.into(),
        timeout,
    })
}

impl Program {
    /// Runs the program for `params` and parses its instances.
    pub fn run(&self, params: &[i64]) -> Result<RunOutput, HarnessError> {
        let show = format!("{params:?}");
        if params.len() != self.nparams {
            return Err(HarnessError::Run {
                who: self.who.clone(),
                params: show,
                message: format!("expected {} parameter values", self.nparams),
            });
        }
        let mut child = Command::new(&self.exe)
            .args(params.iter().map(i64::to_string))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        // Read on a thread so a large output cannot block the child while we wait.
        let mut stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("the child's standard output was not captured"))?;
        let reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            stdout.read_to_end(&mut buf).map(|_| buf)
        });
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            if let Some(s) = child.try_wait()? {
                break s;
            }
            if Instant::now() >= deadline {
                // Ours to end: the child was spawned just above.
                let _ = child.kill();
                let _ = child.wait();
                let _ = reader.join();
                return Err(HarnessError::Timeout {
                    who: self.who.clone(),
                    params: show,
                    secs: self.timeout.as_secs(),
                });
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let bytes = reader
            .join()
            .map_err(|_| std::io::Error::other("the output reader panicked"))??;
        let truncated = status.code() == Some(LIMIT_STATUS);
        if !status.success() && !truncated {
            return Err(HarnessError::Run {
                who: self.who.clone(),
                params: show,
                message: format!("exit status {status}"),
            });
        }
        let text = String::from_utf8_lossy(&bytes);
        let instances = text
            .lines()
            .map(|l| {
                let nums: Result<Vec<i64>, _> = l.split_whitespace().map(str::parse).collect();
                match nums {
                    Ok(v) if !v.is_empty() && v[0] >= 0 => Ok((v[0] as usize, v[1..].to_vec())),
                    _ => Err(HarnessError::Run {
                        who: self.who.clone(),
                        params: show.clone(),
                        message: format!("unreadable output line {l:?}"),
                    }),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RunOutput {
            instances,
            truncated,
        })
    }
}

/// The first position where two instance sequences differ, described for a person, with
/// statement names; `None` when they are identical.
pub fn first_difference(
    a: (&str, &[Instance]),
    b: (&str, &[Instance]),
    names: &[String],
) -> Option<String> {
    let show = |i: &Instance| {
        let vals: Vec<String> = i.1.iter().map(i64::to_string).collect();
        let name = names.get(i.0).map_or("?", String::as_str);
        format!("{name}({})", vals.join(", "))
    };
    for (k, (x, y)) in a.1.iter().zip(b.1).enumerate() {
        if x != y {
            return Some(format!(
                "instance {k}: {} runs {}, {} runs {}",
                a.0,
                show(x),
                b.0,
                show(y)
            ));
        }
    }
    let (short, long) = if a.1.len() < b.1.len() {
        (a, b)
    } else {
        (b, a)
    };
    (short.1.len() != long.1.len()).then(|| {
        format!(
            "{} stops after {} instances; {} goes on with {} more, first {}",
            short.0,
            short.1.len(),
            long.0,
            long.1.len() - short.1.len(),
            show(&long.1[short.1.len()])
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isl_iterators_become_64_bit() {
        let f = isl_scan_function(
            "for (int c0 = 0; c0 <= n; c0 += 1)\n  S(c0);\n",
            &["n".to_string()],
        );
        assert!(f.contains("void scan(int64_t n)"));
        assert!(f.contains("for (int64_t c0 = 0;"));
    }

    #[test]
    fn differences_name_the_first_instance() {
        let names = vec!["S".to_string()];
        let a = vec![(0, vec![1]), (0, vec![2])];
        let b = vec![(0, vec![1])];
        assert_eq!(first_difference(("x", &a), ("y", &a), &names), None);
        let d = first_difference(("x", &a), ("y", &b), &names).unwrap();
        assert!(d.contains("y stops after 1"), "{d}");
        assert!(d.contains("S(2)"), "{d}");
    }
}
