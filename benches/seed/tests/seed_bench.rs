//! `seed-bench --quick` on one cheap case, without QEPCAD or isl: the command runs,
//! its progress goes to standard error, and standard output is a Markdown table with one
//! row for the case and as many cells in every row as in the header.

use std::process::Command;

fn cells(line: &str) -> usize {
    line.trim().trim_matches('|').split('|').count()
}

#[test]
fn quick_bench_prints_a_table() {
    let out = Command::new(env!("CARGO_BIN_EXE_seed-bench"))
        .args(["--quick", "--runs", "2", "nonconvex2"])
        .output()
        .expect("seed-bench runs");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("nonconvex2"),
        "progress on stderr: {stderr}"
    );
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), 3, "header, rule and one row:\n{stdout}");
    assert!(rows[0].starts_with("| case |"), "{}", rows[0]);
    assert!(rows[1].starts_with("|---|"), "{}", rows[1]);
    assert!(rows[2].starts_with("| nonconvex2 |"), "{}", rows[2]);
    let n = cells(rows[0]);
    assert!(
        rows.iter().all(|r| cells(r) == n),
        "ragged table:\n{stdout}"
    );
    // The thesis's published time for D3 is beside ours.
    assert!(rows[2].contains("22.3 ms"), "{}", rows[2]);
    assert!(!rows[2].contains("failed"), "{}", rows[2]);
}

#[test]
fn unknown_case_is_bad_input() {
    let out = Command::new(env!("CARGO_BIN_EXE_seed-bench"))
        .args(["--quick", "no-such-case"])
        .output()
        .expect("seed-bench runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nonconvex2"));
}

#[test]
fn a_case_at_a_limit_shows_the_reason_in_its_row() {
    let out = Command::new(env!("CARGO_BIN_EXE_seed-bench"))
        .args([
            "--quick",
            "--runs",
            "1",
            "--max-cells",
            "10",
            // The CAD's cells: the compact shape builds none for the seed cases.
            "--separate",
            "nonconvex",
        ])
        .output()
        .expect("seed-bench runs");
    assert!(out.status.success(), "exit {:?}", out.status.code());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let row = stdout
        .lines()
        .find(|l| l.starts_with("| nonconvex |"))
        .unwrap_or_else(|| panic!("no nonconvex row:\n{stdout}"));
    assert!(row.contains("more than 10 cells"), "{row}");
}
