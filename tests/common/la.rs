//! Helpers the `polyscan la` program tests share: running the binary, the 25 application
//! problems of examples/la, and the scale that brings them to test sizes.

#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit code, standard output and standard error of `polyscan ARGS`.
pub fn polyscan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(args)
        .output()
        .expect("run polyscan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The 25 application problems, sorted.
pub fn problems() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/la");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/la")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "la"))
        .collect();
    v.sort();
    assert_eq!(v.len(), 25, "the 25 problems of Linnea's Appendix A");
    v
}

/// The factor that brings the largest declared size down to about 48.
pub fn scale_for(path: &Path) -> f64 {
    let src = std::fs::read_to_string(path).expect("read problem");
    let largest = src
        .lines()
        .filter_map(|l| {
            let (name, value) = l.split_once('=')?;
            let name = name.trim();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            value.trim().parse::<u64>().ok()
        })
        .max()
        .unwrap_or(48);
    (48.0 / largest as f64).min(1.0)
}
