//! A subprocess driver for QEPCAD B, the reference partial-CAD program: finding the
//! executable, writing its input (formula and commands), running it with a heap size and
//! a time limit, and reading back the leaf counts and the `d-stat` CPU time. Shared by
//! the cad crate's QEPCAD cross-check, its seed benchmark and `seed-bench`, so the
//! input syntax and the output parsing exist once.

use crate::formula::{Formula, Rel};
use polys::Vars;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a QEPCAD run gave no output to read.
#[derive(Debug, Error)]
pub enum QepcadError {
    /// The executable could not be started.
    #[error("cannot start {exe}: {message}")]
    Start {
        /// The executable's path, as displayed.
        exe: String,
        /// The operating system's error.
        message: String,
    },
    /// QEPCAD did not finish within the given time limit and was killed.
    #[error("time limit of {0:?} reached")]
    Timeout(Duration),
    /// QEPCAD's garbage collector could not free enough of its fixed heap.
    #[error("heap too small (Too few cells reclaimed)")]
    HeapTooSmall,
    /// Writing its input or reading its output failed; the text says what happened.
    #[error("talking to qepcad: {0}")]
    Io(String),
}

/// The `qepcad` executable on `PATH`, if any.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("qepcad"))
        .find(|p| p.is_file())
}

/// The formula in QEPCAD's syntax: `[ p rel 0 ]` atoms with `/\`, `\/`, `~`, products by
/// juxtaposition.
pub fn formula_text(f: &Formula, vars: &Vars) -> String {
    match f {
        Formula::True => "[ 0 = 0 ]".into(),
        Formula::False => "[ 0 = 1 ]".into(),
        Formula::Atom(a) => {
            let rel = match a.rel {
                Rel::Lt => "<",
                Rel::Le => "<=",
                Rel::Eq => "=",
                Rel::Ne => "/=",
                Rel::Ge => ">=",
                Rel::Gt => ">",
            };
            format!("[ {} {rel} 0 ]", a.poly.to_text(vars).replace('*', " "))
        }
        Formula::And(fs) => join(fs, " /\\ ", vars),
        Formula::Or(fs) => join(fs, " \\/ ", vars),
        Formula::Not(g) => format!("[ ~{} ]", formula_text(g, vars)),
    }
}

fn join(fs: &[Formula], sep: &str, vars: &Vars) -> String {
    let parts: Vec<String> = fs.iter().map(|g| formula_text(g, vars)).collect();
    format!("[ {} ]", parts.join(sep))
}

/// QEPCAD's input: all variables free (a CAD of the whole space), `full-cad` if asked,
/// then the three phases and the given display commands.
pub fn script(name: &str, vars: &Vars, f: &Formula, full: bool, commands: &[&str]) -> String {
    let mut s = format!(
        "[ {name} ]\n({})\n{}\n{}.\n",
        vars.names().join(","),
        vars.len(),
        formula_text(f, vars)
    );
    if full {
        s.push_str("full-cad\n");
    }
    s.push_str("go\ngo\ngo\n");
    for c in commands {
        s.push_str(c);
        s.push('\n');
    }
    s.push_str("quit\n");
    s
}

/// Runs QEPCAD with a heap of `heap` words on `input`, killing it after `limit`.
pub fn run(exe: &Path, heap: u64, input: &str, limit: Duration) -> Result<String, QepcadError> {
    let mut child = Command::new(exe)
        .arg(format!("+N{heap}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| QepcadError::Start {
            exe: exe.display().to_string(),
            message: e.to_string(),
        })?;
    let (Some(mut stdin), Some(mut stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(QepcadError::Io("no pipe to qepcad".into()));
    };
    let input = input.to_string();
    // Separate threads for both pipes: QEPCAD may fill its output pipe before it has read
    // all of its input.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                let _ = writer.join();
                let _ = reader.join();
                return Err(QepcadError::Timeout(limit));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(QepcadError::Io(format!("waiting for qepcad: {e}")));
            }
        }
    }
    let _ = writer.join();
    let out = reader
        .join()
        .map_err(|_| QepcadError::Io("the reader thread panicked".into()))?;
    if out.contains("Too few cells reclaimed") {
        return Err(QepcadError::HeapTooSmall);
    }
    Ok(out)
}

/// [`run`] with growing heaps until QEPCAD does not run out of memory: a large heap
/// costs start-up time, so small cases get a small one.
pub fn run_growing(exe: &Path, input: &str, limit: Duration) -> Result<String, QepcadError> {
    let mut last = QepcadError::HeapTooSmall;
    for heap in [4_000_000u64, 40_000_000, 400_000_000] {
        match run(exe, heap, input, limit) {
            Ok(out) => return Ok(out),
            Err(QepcadError::HeapTooSmall) => last = QepcadError::HeapTooSmall,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// `Number of leaf cells = N` from `d-number-leaf-cells`.
pub fn leaf_count(out: &str) -> Option<usize> {
    out.lines()
        .find_map(|l| l.trim().strip_prefix("Number of leaf cells = "))
        .and_then(|n| n.trim().parse().ok())
}

/// `d-stat`'s total CPU time in milliseconds (with garbage collection).
pub fn stat_ms(out: &str) -> Option<u64> {
    out.lines()
        .find_map(|l| l.trim().strip_prefix("Total time with garbage collection"))
        .and_then(|r| r.trim_start_matches([' ', ':']).trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_counts_and_times() {
        let out = "  Number of leaf cells = 37\nTotal time with garbage collection:   12\n";
        assert_eq!(leaf_count(out), Some(37));
        assert_eq!(stat_ms(out), Some(12));
        assert_eq!(leaf_count("nothing"), None);
    }

    #[test]
    fn writes_the_input() {
        let vars = Vars::from_names(["x", "y"]);
        let f = Formula::conjunction(&vars, &["x <= 2", "y > 0"]).expect("parses");
        let s = script("t", &vars, &f, true, &["d-stat"]);
        assert!(s.starts_with("[ t ]\n(x,y)\n2\n[ [ x - 2 <= 0 ] /\\ [ y > 0 ] ].\nfull-cad\n"));
        assert!(s.ends_with("go\ngo\ngo\nd-stat\nquit\n"));
    }
}
