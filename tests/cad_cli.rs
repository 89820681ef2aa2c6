//! End-to-end tests of `polyscan cad`, whose text and JSON are written cell by cell as
//! the tree is walked (no whole-tree string or `Value`, BENCHMARKS.md, issue 23): the
//! JSON is exactly what serde_json's pretty printer gives for the parsed value (keys
//! sorted, two-space indentation), and the text has one line per cell of the JSON.

use serde_json::Value;
use std::process::Command;

fn cad(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .arg("cad")
        .args(args)
        .output()
        .expect("the polyscan binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn count_cells(cells: &Value) -> usize {
    cells.as_array().map_or(0, |cs| {
        cs.iter().map(|c| 1 + count_cells(&c["children"])).sum()
    })
}

#[test]
fn json_and_text_describe_the_same_tree() {
    let root = env!("CARGO_MANIFEST_DIR");
    for file in [
        "examples/domains/disc.pset",
        "examples/domains/annulus.pset",
    ] {
        let path = format!("{root}/{file}");
        let json = cad(&[&path, "--json"]);
        let v: Value = serde_json::from_str(&json).expect("valid JSON");
        let pretty = serde_json::to_string_pretty(&v).expect("printable") + "\n";
        assert_eq!(json, pretty, "{file}: not serde_json's pretty form");
        let cells = count_cells(&v["cells"]);
        assert!(cells > 5, "{file}: {cells} cells");
        let text = cad(&[&path]);
        let lines = text.lines().skip_while(|l| *l != "cells").count() - 1;
        assert_eq!(lines, cells, "{file}");
    }
}
