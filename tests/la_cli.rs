//! `polyscan la` end to end: text and JSON output, and errors rendered with the source line,
//! a caret and exit code 2.

use std::process::Command;

fn polyscan(args: &[&str]) -> (i32, String, String) {
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

fn example(name: &str) -> String {
    format!("{}/examples/la/{name}.la", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn json_output_has_the_documented_fields() {
    let (code, out, err) = polyscan(&[
        "la",
        &example("a01_least_squares"),
        "--json",
        "--time-limit",
        "0.2",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let names: Vec<&str> = v["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| k["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["SYRK", "POTRF", "GEMV", "TRSV", "TRSV"]);
    let flops = v["flops"].as_f64().expect("flops");
    assert!((flops - 6.697e8).abs() < 1e5, "{flops}");
    assert!(v["naive_flops"].as_f64().expect("naive") > flops);
    assert!(v["first_solution_s"].as_f64().expect("first") >= 0.0);
    assert!(
        v["final_solution_s"].as_f64().expect("final")
            >= v["first_solution_s"].as_f64().unwrap_or(0.0)
    );
    for k in v["kernels"].as_array().into_iter().flatten() {
        assert!(k["flops"].as_f64().is_some());
    }
}

#[test]
fn text_output_lists_kernels_and_totals() {
    let (code, out, err) = polyscan(&["la", &example("a19_tikhonov"), "--time-limit", "0.1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("SYRK") && out.contains("POTRF") && out.contains("[SPD]"),
        "{out}"
    );
    assert!(out.contains("total:") && out.contains("naive:"), "{out}");
}

#[test]
fn errors_show_line_column_and_caret() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.la");
    std::fs::write(
        &path,
        "n = 3\nm = 4\nMatrix A(n, m) <>\nMatrix B(n, m) <>\nMatrix C(n, m) <>\nC = A * B\n",
    )
    .expect("write");
    let (code, _, err) = polyscan(&["la", path.to_str().unwrap_or("")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot multiply") && err.contains(":6") && err.contains("column 7"),
        "{err}"
    );
    assert!(
        err.contains("| C = A * B") && err.contains("|       ^"),
        "{err}"
    );

    std::fs::write(&path, "n = 3\nm = 4\nMatrix A(n, m) <SPD>\n").expect("write");
    let (code, _, err) = polyscan(&["la", path.to_str().unwrap_or("")]);
    assert_eq!(code, 2);
    assert!(err.contains("SPD requires a square matrix"), "{err}");

    let (code, _, _) = polyscan(&["la", "/nonexistent/problem.la"]);
    assert_eq!(code, 2);
    let (code, _, _) = polyscan(&["la", &example("a01_least_squares"), "--time-limit", "-1"]);
    assert_eq!(code, 2);
}

#[test]
fn region_splitting_stops_at_its_limits_with_exit_code_3() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("open.la");
    std::fs::write(
        &path,
        "n = ?\nm = ?\nMatrix A(n, m) <>\nMatrix B(m, n) <>\nMatrix C(n, m) <>\nMatrix X(n, m) <>\nX = A * B * C\n",
    )
    .expect("write");
    let file = path.to_str().unwrap_or("");
    let (code, out, err) = polyscan(&["la", file, "--time-limit", "0.1", "--max-cells", "3"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("more than 3 cells (--max-cells)"), "{err}");
    let (code, out, err) = polyscan(&["la", file, "--time-limit", "0.1", "--timeout", "0"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("time limit"), "{err}");
    let (code, out, err) = polyscan(&["la", file, "--time-limit", "0.1", "--max-cells", "100000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("m > n"), "{out}");
}
