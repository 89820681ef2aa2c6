//! End-to-end tests of `polyscan poly`: results on known inputs, and bad polynomial text
//! giving a positioned message with exit code 2, never a panic.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .arg("poly")
        .args(args)
        .output()
        .expect("the polyscan binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn resultant_discriminant_gcd_sqfree_factor() {
    let (code, out, _) = run(&["resultant", "x^2 + y^2 - 4", "x*y - 1", "y"]);
    assert_eq!((code, out.as_str()), (0, "x^4 - 4*x^2 + 1\n"));
    let (code, out, _) = run(&["discriminant", "x^2 + b*x + c", "x"]);
    assert_eq!((code, out.as_str()), (0, "-4*c + b^2\n"));
    let (code, out, _) = run(&["gcd", "(x+y)^2*(x-3)", "6*(x+y)*(x+3)"]);
    assert_eq!((code, out.as_str()), (0, "y + x\n"));
    let (code, out, _) = run(&["sqfree", "-2*(x-1)^2*(x+y)^3"]);
    assert_eq!((code, out.as_str()), (0, "-2\n(x - 1)^2\n(y + x)^3\n"));
    let (code, out, _) = run(&["factor", "x^2 - 1"]);
    assert_eq!(code, 0);
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(lines, ["x + 1", "x - 1"]);
}

#[test]
fn bad_polynomials_are_exit_2_with_a_caret() {
    let cases: &[(&[&str], &str)] = &[
        (&["resultant", "x^2 +", "y", "x"], "column 6"),
        (&["discriminant", "x / 2", "x"], "division"),
        (&["factor", "1.5*x"], "decimal"),
        (&["gcd", "x^-2", "x"], "negative exponents"),
        (&["sqfree", "x^99999999999999999999"], "too large"),
        (&["factor", "x $ y"], "unexpected character"),
        (&["factor", ""], "empty input"),
        (&["resultant", "x", "y", "z"], "'z' does not occur"),
        (&["discriminant", "((x)", "x"], "expected ')'"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let (_, _, err) = run(&["factor", "x + * y"]);
    assert!(err.contains("x + * y\n   |     ^"), "{err}");
}

#[test]
fn huge_coefficients_are_exact() {
    let (code, out, _) = run(&["resultant", "100000000000000000000*x - 1", "x^2 - 3", "x"]);
    assert_eq!(code, 0);
    // res(a x - 1, x^2 - 3) = 1 - 3 a^2 with a = 10^20
    assert_eq!(out.trim(), "-29999999999999999999999999999999999999999");
}

/// Resource limits: exit code 3, a message, and no output file. `--timeout` covers the
/// whole generation (here a projection that would take very long); `--max-cells` bounds
/// the lifting.
#[test]
fn limits_stop_with_exit_3_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let heavy = dir.path().join("heavy.pset");
    std::fs::write(
        &heavy,
        "[n] -> { S[i, j, k] : i^3 + j^3 + k^3 <= n and i*j*k >= 1 and (i - j)^2 + (j - k)^2 <= n }",
    )
    .unwrap();
    let ball = dir.path().join("ball.pset");
    std::fs::write(&ball, "[a] -> { T[x, y, z] : x^2 + y^2 + z^2 <= a^2 }").unwrap();
    let out_file = dir.path().join("out.c");
    // The ball has the compact shape, which builds no cells: --separate asks for them.
    for (input, limit) in [
        (&heavy, &["--timeout", "0.5"][..]),
        (&ball, &["--max-cells", "5", "--separate"][..]),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
            .args([
                "gen",
                input.to_str().unwrap(),
                "-o",
                out_file.to_str().unwrap(),
            ])
            .args(limit)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{limit:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("limit"));
        assert!(!out_file.exists());
    }
}
