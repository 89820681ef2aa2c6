//! Element-wise statements in C APIs and beside matrix statements (issue 22): `--emit
//! c-api` for files with element-wise statements alone (sparse operands in CSR) and for
//! files mixing them with the kernel search's statements, compiled with the generic checking
//! driver and checked against direct evaluation with every back end; the mixed files also
//! as programs (`--run`) and in the report.

mod common;
use common::la::{capi_driver_cc, openblas_available, polyscan, run_capi_driver};

/// Files the C API and the programs must get right: element-wise alone (the SPORES loss
/// with a sparse X, a sparse product with dense factors, aggregates), and mixed with
/// matrix statements (plans after the kernel sequence reading its results, and before it
/// producing an operand the sequence reads).
const FILES: &[(&str, &str)] = &[
    (
        "loss",
        "m = 60\nn = 40\nMatrix X(m, n) <Sparse(0.05)>\nColumnVector U(m) <>\nColumnVector V(n) <>\nScalar loss <>\nloss = sum((X - U * trans(V)) .^ 2)\n",
    ),
    (
        "als",
        "m = 50\nn = 40\nk = 4\nMatrix X(m, n) <Sparse(0.1)>\nMatrix U(m, k) <>\nMatrix V(n, k) <>\nMatrix G(m, k) <>\nRowVector c(n) <>\nG = (U * trans(V) - X) * V\nc = colSums(X .* X) + 1\n",
    ),
    (
        "aggregates",
        "n = 30\nk = 20\nMatrix A(n, k) <>\nMatrix B(k, n) <>\nScalar t <>\nColumnVector d(n) <>\nt = trace(A * B)\nd = diag(A * B) + 2 * rowSums(abs(A))\n",
    ),
    (
        "after",
        "n = 40\nm = 30\nMatrix A(n, n) <FullRank>\nMatrix B(n, m) <>\nMatrix Y(n, m) <>\nMatrix X(n, m) <>\nMatrix S(n, m) <Sparse(0.1)>\nMatrix Z(n, m) <>\nScalar s <>\nMatrix W(m, m) <>\nX = inv(A) * B\ns = sum(X .* Y)\nZ = S .* X + Y\nW = trans(Y) * Y\n",
    ),
    (
        "before",
        "n = 40\nm = 30\nMatrix A(n, n) <SPD>\nMatrix S(n, m) <Sparse(0.1)>\nMatrix Y(n, m) <>\nMatrix P(n, m) <>\nMatrix Q(n, m) <>\nColumnVector r(n) <>\nP = S .* Y + Y\nQ = inv(A) * P\nr = rowSums(Q .* Q)\n",
    ),
    (
        "dense",
        "n = 30\nk = 20\nMatrix A(n, k) <>\nMatrix B(k, n) <>\nMatrix C(n, n) <>\nMatrix D(n, n) <>\nC = A * B\nD = (A * B) .* C + 2 * trans(B) * trans(A)\n",
    ),
];

/// Statements of a problem file (assignments other than sizes).
fn statements(src: &str) -> Vec<&str> {
    src.lines()
        .filter(|l| {
            l.split_once(" = ")
                .is_some_and(|(_, v)| v.trim().parse::<u64>().is_err())
        })
        .collect()
}

/// Its element-wise statements.
fn elementwise(src: &str) -> usize {
    statements(src)
        .iter()
        .filter(|l| l.contains(".*") || l.contains("sum") || l.contains("Sums"))
        .count()
}

fn backends() -> Vec<&'static str> {
    let mut b = vec!["generated", "nests"];
    if openblas_available() {
        b.push("blas");
    }
    b
}

#[test]
fn c_apis_agree_with_direct_evaluation() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (stem, src) in FILES {
        let la = dir.path().join(format!("{stem}.la"));
        std::fs::write(&la, src).expect("write problem");
        for backend in backends() {
            let c = dir.path().join(format!("{stem}.c"));
            let (code, _, err) = polyscan(&[
                "la",
                &la.to_string_lossy(),
                "--emit",
                "c-api",
                "-o",
                &c.to_string_lossy(),
                "--backend",
                backend,
            ]);
            assert_eq!(code, 0, "{stem} {backend}: {err}");
            let header =
                std::fs::read_to_string(dir.path().join(format!("{stem}.h"))).expect("read header");
            if src.contains("Sparse") {
                assert!(
                    header.contains("_rowptr"),
                    "{stem}: no CSR parameter\n{header}"
                );
            }
            if *stem == "dense" {
                // Dense products inside the plan go to the back end's GEMM.
                let text = std::fs::read_to_string(&c).expect("read source");
                let gemm = match backend {
                    "generated" => "polyscan_dgemm(m, n, k",
                    "blas" => "cblas_dgemm(CblasColMajor, CblasNoTrans",
                    _ => "GEMM's catalogue nest",
                };
                assert!(
                    text.contains("  ps_plan_gemm(") && text.contains(gemm),
                    "{backend}"
                );
            }
            let exe = dir.path().join(format!("{stem}_{backend}"));
            let what = format!("{stem} ({backend})");
            let (text, res) = run_capi_driver(&c, stem, &exe, backend, &what);
            let outputs = statements(src).len();
            // Two calls (packed and padded operands), every output checked in each.
            assert_eq!(res.len(), 2 * outputs, "{what}\n{text}");
            assert!(res.iter().all(|r| *r < 1e-12), "{what}\n{text}");
            assert!(text.contains("result: ok"), "{what}\n{text}");
        }
    }
}

/// The driver's check is live: a plan whose result is off by 1e-3 in one entry fails it.
#[test]
fn a_wrong_plan_fails_the_c_api_check() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (stem, src) = FILES[3];
    let la = dir.path().join(format!("{stem}.la"));
    std::fs::write(&la, src).expect("write problem");
    let c = dir.path().join(format!("{stem}.c"));
    let (code, _, err) = polyscan(&[
        "la",
        &la.to_string_lossy(),
        "--emit",
        "c-api",
        "-o",
        &c.to_string_lossy(),
        "--backend",
        "nests",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&c).expect("read");
    let start = text.find("static int ps_plan_0(").expect("a plan function");
    let end = start + text[start..].find("  return 0;\n}").expect("its end");
    let wrong = format!("{}  out[0] += 1e-3;\n{}", &text[..end], &text[end..]);
    std::fs::write(&c, wrong).expect("write");
    let exe = dir.path().join("wrong");
    let out = capi_driver_cc(&["-O1", "-std=gnu11"], &c, stem, &exe, "nests")
        .output()
        .expect("cc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = std::process::Command::new(&exe).output().expect("run");
    let report = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{report}");
    assert!(report.contains("RESIDUAL TOO LARGE"), "{report}");
}

#[test]
fn mixed_files_run_and_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (stem, src) in &FILES[3..] {
        let la = dir.path().join(format!("{stem}.la"));
        std::fs::write(&la, src).expect("write problem");
        let path = la.to_string_lossy().into_owned();
        // The report: the kernel sequence and each plan, placed.
        let (code, out, err) = polyscan(&["la", &path]);
        assert_eq!(code, 0, "{err}");
        let plans = out.lines().filter(|l| l.starts_with("SUMPRODUCT")).count();
        assert_eq!(plans, elementwise(src), "{out}");
        assert!(out.contains("TRSM") || out.contains("GEMM"), "{out}");
        let place = if *stem == "before" { "before" } else { "after" };
        assert!(
            out.contains(&format!("({place} the kernel sequence)")),
            "{out}"
        );
        let (code, json, err) = polyscan(&["la", &path, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(
            v["elementwise"].as_array().map(Vec::len),
            Some(plans),
            "{json}"
        );
        for backend in backends() {
            let (code, out, err) = polyscan(&["la", &path, "--run", "--backend", backend]);
            assert_eq!(code, 0, "{stem} {backend}: {out}\n{err}");
            let res = common::la::residuals(&out);
            assert_eq!(res.len(), statements(src).len(), "{out}");
            assert!(res.iter().all(|r| *r < 1e-12), "{stem} {backend}: {out}");
            assert!(out.contains("SUMPRODUCT"), "{out}");
        }
    }
}
