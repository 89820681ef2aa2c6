//! Integer overflow in generated code (`docs/overflow.md`): the documented safe parameter
//! range `[-B, B]` of `codegen::overflow::safe_parameter_bound` is checked by running the
//! `--check-overflow` program at `B` on domains that stay tiny there, and comparing with
//! brute force; far beyond `B`, where the arithmetic really overflows, the checked program
//! must stop with a message instead of producing instances. Also the CLI flags
//! (`gen --check-overflow`, `verify --check-overflow`, `verify --run-timeout`).

use cad::LiftStats;
use codegen::input::parse_problem;
use codegen::overflow::{safe_parameter_bound, SafeRange};
use codegen::verify::{brute_force, compile_with, first_difference, VerifyError};
use codegen::{generate, GenOptions, Generated};
use std::process::Command;

fn gen(src: &str, linear: bool) -> Generated {
    let p = parse_problem(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let opts = GenOptions {
        linear,
        ..GenOptions::default()
    };
    generate(&p, &opts, &LiftStats::default()).unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn bound(g: &Generated) -> i64 {
    match safe_parameter_bound(g) {
        SafeRange::Bound { bound, .. } => bound,
        other => panic!("expected a bound, got {other:?}"),
    }
}

/// Runs the checked program at `params` and compares with brute force around its
/// instances; returns the number of instances.
fn checked_matches_brute_force(g: &Generated, params: &[i64], what: &str) -> usize {
    let prog = compile_with(g, true).unwrap_or_else(|e| panic!("{what}: {e}"));
    let got = prog
        .run(params)
        .unwrap_or_else(|e| panic!("{what} at {params:?}: {e}"));
    let bx = tight_box(&got, g, params);
    let want = brute_force(g, params, &bx).unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(d) = first_difference(&want, &got, g) {
        panic!("{what} at {params:?}: {d}");
    }
    got.len()
}

/// The hull of the instances widened by 4, or a box around the first parameter when
/// there are none (every domain here has its points near it). `box_around` would stretch
/// the box to the origin, which is 2^63 away at the bound.
fn tight_box(got: &[(usize, Vec<i64>)], g: &Generated, params: &[i64]) -> Vec<(i64, i64)> {
    let depth = g.vars.len() - g.nparams - g.ntime;
    if got.is_empty() {
        let n = params.first().copied().unwrap_or(0);
        return vec![(n.saturating_sub(8), n.saturating_add(8)); depth];
    }
    let mut bx = vec![(i64::MAX, i64::MIN); depth];
    for (s, vals) in got {
        for (q, &v) in g.stmt_args[*s].iter().enumerate() {
            let c = v - g.nparams - g.ntime;
            bx[c] = (bx[c].0.min(vals[q]), bx[c].1.max(vals[q]));
        }
    }
    bx.into_iter()
        .map(|(l, h)| {
            if l > h {
                (0, 0)
            } else {
                (l.saturating_sub(4), h.saturating_add(4))
            }
        })
        .collect()
}

/// Domains whose point count stays small for every parameter value, with the number of
/// points they have at large parameters.
const TINY: &[(&str, usize)] = &[
    // A box that moves with n: B is INT64_MAX minus the offset.
    ("[n] -> { S[i, j] : n <= i <= n + 3 and 0 <= j <= 2 }", 12),
    // A triangle with an offset.
    ("[n] -> { S[i, j] : n <= i <= n + 4 and n <= j <= i }", 15),
    // A quadratic band: i^2 + i in [n^2, n^2 + 4n], a few i near n; the quadratic formula
    // squares n, so B is near 2^31.
    (
        "[n] -> { S[i] : n*n <= i*i + i <= n*n + 4*n and n >= 1 and i >= 0 }",
        2,
    ),
];

#[test]
fn checked_code_at_the_bound_matches_brute_force() {
    for (src, points) in TINY {
        for linear in [true, false] {
            let g = gen(src, linear);
            let b = bound(&g);
            assert!(b >= 1 << 20, "{src}: B = {b}");
            for n in [b, -b, b / 2 + 1, 0, 7] {
                let count = checked_matches_brute_force(&g, &[n], src);
                if n > 1 << 20 {
                    assert_eq!(count, *points, "{src} at n = {n}");
                }
            }
        }
    }
}

#[test]
fn bounds_of_the_tiny_domains() {
    // The moving box: its loops compute n + 3 (and the increment past it).
    let b = bound(&gen(TINY[0].0, true));
    assert!((i64::MAX - 8..i64::MAX - 3).contains(&b), "B = {b}");
    // The band squares n: B is below 2^32 and not far below 2^31.5 / 2.
    let b = bound(&gen(TINY[2].0, true));
    assert!((1 << 29..1 << 32).contains(&b), "B = {b}");
}

/// The square root bound at n up to 2^40 (2^20 + 1 instances) and its documented range.
#[test]
fn square_root_bound_at_large_n() {
    let src = "[n] -> { S[i] : i*i <= n and i >= 0 }";
    let g = gen(src, true);
    let b = bound(&g);
    assert!(b >= 1 << 40, "B = {b}");
    for n in [(1 << 40) - 1, 1 << 40, (1 << 36) + 5] {
        let count = checked_matches_brute_force(&g, &[n], src);
        assert_eq!(count as i64, (n as f64).sqrt().floor() as i64 + 1);
    }
}

/// A cubic bound found by `ps_root_search`, which evaluates the polynomial in 128 bits:
/// at B it still matches brute force; far beyond, the checked program stops.
#[test]
fn root_search_at_the_bound() {
    let src = "[n] -> { S[i] : 0 <= i and i^3 + i <= n }";
    let g = gen(src, false);
    let b = bound(&g);
    assert!(b >= 1 << 30, "B = {b}");
    let count = checked_matches_brute_force(&g, &[b], src);
    assert!(count > 1000);
    checked_matches_brute_force(&g, &[1 << 30], src);
}

/// Far beyond B, where the arithmetic really overflows, the checked program aborts with a
/// message naming what overflowed; the unchecked one is allowed to misbehave.
#[test]
fn checked_code_beyond_the_bound_aborts() {
    let cases: &[(&str, i64, &str)] = &[
        (TINY[0].0, i64::MAX - 1, "n + 3"),
        (TINY[1].0, i64::MAX - 2, "n + 4"),
        (TINY[2].0, 1 << 40, "int64 overflow"),
        (TINY[2].0, i64::MAX / 2, "int64 overflow"),
    ];
    for (src, n, needle) in cases {
        let g = gen(src, true);
        assert!(*n > bound(&g), "{src}: {n} is within the bound");
        let prog = compile_with(&g, true).unwrap();
        match prog.run(&[*n]) {
            Err(VerifyError::Overflow { message, .. }) => {
                assert!(message.contains("polyscan: "), "{message}");
                assert!(message.contains("line "), "{message}");
                assert!(message.contains(needle), "{src}: {message}");
            }
            other => panic!("{src} at n = {n}: expected an overflow, got {other:?}"),
        }
    }
}

/// An expression known to overflow at 2^32: `n*m` as a loop bound. The analysis gives
/// exactly the largest B with B^2 <= INT64_MAX - 1 (the increment past the bound).
#[test]
fn interval_analysis_of_a_product() {
    let g = gen("[n, m] -> { S[i] : 0 <= i <= n*m }", false);
    let b = bound(&g);
    assert!(b < 1 << 32, "B = {b}");
    assert!(b >= 3_000_000_000, "B = {b}");
    let b128 = b as i128;
    assert!(b128 * b128 < i64::MAX as i128);
    assert!((b128 + 1) * (b128 + 1) >= i64::MAX as i128);
    // Cubes overflow at 2^21.
    let g = gen("[n] -> { S[i] : 0 <= i <= n*n*n }", false);
    let b = bound(&g);
    assert!((1 << 20..1 << 21).contains(&b), "B = {b}");
    // Without parameters: a plain statement.
    let g = gen("{ S[i] : 0 <= i <= 10 }", true);
    assert_eq!(safe_parameter_bound(&g), SafeRange::Safe);
    assert!(SafeRange::Safe.comment().contains("cannot overflow"));
}

/// Soundness at the edges: every shipped example's checked program, run with each
/// parameter at -B, 0 or B (all combinations), never reports an overflow. Runs are cut
/// after a fraction of a second (the domains are large there): a cut run is inconclusive,
/// never a failure.
#[test]
fn examples_never_overflow_inside_the_bound() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files = Vec::new();
    for dir in ["seed", "domains", "tiling"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "pset") {
                files.push(e.path());
            }
        }
    }
    files.sort();
    let mut runs = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        if src.contains("# expect: error") {
            continue;
        }
        let Ok(p) = parse_problem(&src) else { continue };
        let Ok(g) = generate(
            &p,
            &GenOptions {
                linear: true,
                ..GenOptions::default()
            },
            &LiftStats::default(),
        ) else {
            continue;
        };
        let b = match safe_parameter_bound(&g) {
            SafeRange::Bound { bound, .. } => bound,
            SafeRange::Safe => 0,
            SafeRange::Unsafe(o) => panic!("{}: {o}", path.display()),
        };
        let prog = compile_with(&g, true).unwrap();
        let mut sets = vec![vec![]];
        for _ in 0..g.nparams {
            sets = sets
                .into_iter()
                .flat_map(|s: Vec<i64>| {
                    [-b, 0, b].into_iter().map(move |v| {
                        let mut t = s.clone();
                        t.push(v);
                        t
                    })
                })
                .collect();
        }
        for params in sets {
            match prog.run_with_timeout(&params, Some(std::time::Duration::from_millis(300))) {
                Err(VerifyError::Overflow { message, .. }) => {
                    panic!("{} at {params:?} (B = {b}): {message}", path.display())
                }
                Err(VerifyError::Run { message, .. }) => {
                    panic!("{} at {params:?} (B = {b}): {message}", path.display())
                }
                _ => runs += 1,
            }
        }
    }
    assert!(runs > 30);
}

/// `--emit rust --check-overflow`: the checked Rust runs the same instances as the C at
/// ordinary values and panics with the message where the arithmetic overflows.
#[test]
fn checked_rust_panics_with_the_message() {
    use codegen::emit_rust::{closure_name, function_checked};
    let g = gen(TINY[0].0, true);
    let c = g.emitter();
    let header = safe_parameter_bound(&g).comment();
    let mut src = function_checked(&c, &g.nodes, &header).unwrap();
    // The statement's closure parameter is `stmt_s: &mut impl FnMut(i64, i64)`.
    src.push_str(
        "\nfn main() {\n    let n: i64 = std::env::args().nth(1).unwrap().parse().unwrap();\n    \
         let mut s = |i: i64, j: i64| println!(\"0 {} {}\", i, j);\n    scan(n, &mut s);\n}\n",
    );
    assert!(src.contains(&closure_name("S")));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scan.rs");
    std::fs::write(&file, &src).unwrap();
    let exe = dir.path().join("scan");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c_prog = compile_with(&g, true).unwrap();
    for n in [-5i64, 0, 1 << 40] {
        let r = Command::new(&exe).arg(n.to_string()).output().unwrap();
        assert!(r.status.success());
        let rust: Vec<(usize, Vec<i64>)> = String::from_utf8_lossy(&r.stdout)
            .lines()
            .map(|l| {
                let v: Vec<i64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
                (v[0] as usize, v[1..].to_vec())
            })
            .collect();
        assert_eq!(rust, c_prog.run(&[n]).unwrap(), "n = {n}");
    }
    let r = Command::new(&exe)
        .arg((i64::MAX - 1).to_string())
        .output()
        .unwrap();
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("polyscan: i64 overflow") && err.contains("n + 3"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// The command line.

fn polyscan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_polyscan"))
}

fn write_input(dir: &tempfile::TempDir, text: &str) -> std::path::PathBuf {
    let path = dir.path().join("in.pset");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn gen_flag_heads_the_output_with_the_range_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_input(&dir, TINY[0].0);
    let plain = polyscan().arg("gen").arg(&f).output().unwrap();
    assert!(plain.status.success());
    let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
    assert!(!plain.contains("overflow"), "{plain}");
    for emit in ["c", "c-function", "rust"] {
        let out = polyscan()
            .args(["gen", "--check-overflow", "--emit", emit])
            .arg(&f)
            .output()
            .unwrap();
        assert!(out.status.success(), "{emit}");
        let text = String::from_utf8_lossy(&out.stdout);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("/* integer arithmetic cannot overflow for parameters in [-"),
            "{emit}: {first}"
        );
        assert!(text.contains("ps_add_ck("), "{emit}: {text}");
    }
    // --stats prints the range and puts the comment on the unchecked code.
    let out = polyscan()
        .args(["gen", "--stats"])
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("/* integer arithmetic cannot overflow"));
    assert!(text.ends_with(&plain), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("overflow: safe for parameters in"));
}

/// A safe range narrower than 2^12 is reported on standard error even unasked; a wide
/// one (every tiny domain's) is not, and the code on standard output is the same.
#[test]
fn gen_warns_of_a_narrow_safe_range() {
    let dir = tempfile::tempdir().unwrap();
    // x's bound has a coefficient of degree 12 in n: n^12 leaves int64_t from n = 39.
    let narrow = write_input(
        &dir,
        "[n] -> { S[x] : 0 <= x <= 9 and n*n*n*n*n*n*n*n*n*n*n*n*x <= 7 + n*n }",
    );
    let out = polyscan().arg("gen").arg(&narrow).output().unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("int64_t arithmetic is proven safe only for parameters in [-"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("overflow"));
    for (src, _) in TINY {
        let f = write_input(&dir, src);
        let out = polyscan().arg("gen").arg(&f).output().unwrap();
        assert!(out.status.success());
        assert!(
            out.stderr.is_empty(),
            "{src}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn verify_with_checks_reports_overflow_with_exit_code_3() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_input(&dir, TINY[0].0);
    let ok = polyscan()
        .args(["verify", "--check-overflow", "--params", "n=1000000"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    let bad = polyscan()
        .args(["verify", "--check-overflow", "--params"])
        .arg(format!("n={}", i64::MAX - 1))
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(3), "{bad:?}");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("overflow") && err.contains("n + 3"), "{err}");
}

#[test]
fn verify_run_timeout_kills_a_long_run() {
    let dir = tempfile::tempdir().unwrap();
    // j*j = i: the loop over i runs n times, but prints only sqrt(n) instances.
    let f = write_input(
        &dir,
        "[n] -> { S[i, j] : 0 <= i <= n and j >= 0 and j*j = i }",
    );
    let t0 = std::time::Instant::now();
    let out = polyscan()
        .args([
            "verify",
            "--run-timeout",
            "1",
            "--params",
            "n=1000000000000000",
        ])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--run-timeout"), "{err}");
    assert!(t0.elapsed().as_secs() < 30);
    let bad = polyscan()
        .args(["verify", "--run-timeout", "0", "--params", "n=3"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
