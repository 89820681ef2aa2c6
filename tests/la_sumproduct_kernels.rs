//! The sum-product plans' terms as catalogue kernels (issue 22): element-wise maps
//! (EWMAP), reductions (REDUCE) and CSR kernels (CSRMAP, CSRREDUCE, CSRMM) appear in the
//! programs and C APIs as catalogue nests and in the realisation listing; the programs
//! agree with direct evaluation; each kernel's nest, made wrong by 0.1%, fails the
//! program's check against direct evaluation (the oracle); and files with element-wise
//! statements take `--backend`, `--size` and `--scale`.

mod common;
use common::la::polyscan;

/// Element-wise statements alone, with a sparse X: ALS's gradient (CSRMM, REDUCE, EWMAP),
/// a map and a reduction over X's nonzeros (CSRMAP, CSRREDUCE) and a dense reduction.
const ELEMENTWISE: &str = "m = 50\nn = 40\nk = 4\nMatrix X(m, n) <Sparse(0.1)>\nMatrix Y(m, n) <>\nMatrix U(m, k) <>\nMatrix V(n, k) <>\nMatrix G(m, k) <>\nMatrix Z(m, n) <>\nScalar s <>\nColumnVector r(m) <>\nG = (U * trans(V) - X) * V\nZ = X .* exp(Y)\ns = sum(X .^ 2)\nr = rowSums(Y .* Y) + 1\n";

/// A file mixing a kernel sequence with plans that read a sparse operand.
const MIXED: &str = "n = 40\nm = 30\nMatrix A(n, n) <SPD>\nMatrix B(n, m) <>\nMatrix X(n, m) <>\nMatrix S(n, m) <Sparse(0.1)>\nMatrix C(m, m) <>\nMatrix Z(n, m) <>\nScalar s <>\nX = inv(A) * B\ns = sum(X .* X)\nZ = S .* X + 1\nC = trans(S) * X\n";

const KERNELS: [&str; 5] = ["EWMAP", "REDUCE", "CSRMAP", "CSRREDUCE", "CSRMM"];

fn write(dir: &std::path::Path, stem: &str, src: &str) -> String {
    let f = dir.join(format!("{stem}.la"));
    std::fs::write(&f, src).expect("write problem");
    f.to_string_lossy().into_owned()
}

/// Compiles C program `text` and runs it: its exit code and output.
fn compile_and_run(dir: &std::path::Path, stem: &str, text: &str) -> (Option<i32>, String) {
    let c = dir.join(format!("{stem}.c"));
    std::fs::write(&c, text).expect("write C");
    let exe = dir.join(stem);
    let cc = std::process::Command::new("cc")
        .args(["-O1", "-std=gnu11", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lm")
        .output()
        .expect("cc");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = std::process::Command::new(&exe).output().expect("run");
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stdout).into_owned(),
    )
}

/// `text` with the first `S` of `kernel`'s first nest scaled by 1 + 1e-3.
fn scale_first_nest(text: &str, kernel: &str) -> String {
    let at = text
        .find(&format!("{{ /* {kernel} "))
        .unwrap_or_else(|| panic!("no {kernel} nest"));
    let define = at + text[at..].find("#define S(").expect("its S");
    let plus = define + text[define..].find(" += ").expect("its update");
    format!("{} += 1.001 * {}", &text[..plus], &text[plus + 4..])
}

#[test]
fn element_wise_programs_use_every_term_kernel_and_a_wrong_nest_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "ew", ELEMENTWISE);
    let (code, out, err) = polyscan(&["la", &path, "--run"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("result: ok"), "{out}");
    let listed = out
        .lines()
        .find_map(|l| l.strip_prefix("kernels: "))
        .expect("a kernels line");
    for k in KERNELS {
        assert!(listed.split(' ').any(|w| w == k), "{k} in {out}");
    }
    let (code, text, err) = polyscan(&["la", &path, "--emit", "c"]);
    assert_eq!(code, 0, "{err}");
    let (code, out) = compile_and_run(dir.path(), "right", &text);
    assert_eq!(code, Some(0), "{out}");
    // The oracle sees a kernel 0.1% off: the program's direct evaluation disagrees.
    for k in KERNELS {
        let (code, out) = compile_and_run(dir.path(), k, &scale_first_nest(&text, k));
        assert_eq!(code, Some(1), "{k} off by 0.1% passed:\n{out}");
        assert!(out.contains("FAILED"), "{out}");
    }
}

#[test]
fn mixed_programs_and_c_apis_call_the_kernels_on_every_back_end() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "mixed", MIXED);
    let mut backends = vec!["generated", "nests"];
    if common::la::openblas_available() {
        backends.push("blas");
    }
    for b in backends {
        let (code, out, err) = polyscan(&["la", &path, "--run", "--backend", b]);
        assert_eq!(code, 0, "{b}\n{out}\n{err}");
        assert!(out.contains("result: ok"), "{b}\n{out}");
        for k in ["REDUCE", "CSRMAP", "CSRMM"] {
            assert!(
                out.lines().any(|l| l.starts_with(&format!("kernel {k} "))),
                "{b}: {k}\n{out}"
            );
        }
        let c = dir.path().join(format!("api_{b}.c"));
        let c = c.to_string_lossy();
        let (code, _, err) = polyscan(&["la", &path, "--emit", "c-api", "-o", &c, "--backend", b]);
        assert_eq!(code, 0, "{b}\n{err}");
        let api = std::fs::read_to_string(&*c).expect("read the C API");
        for k in ["REDUCE", "CSRMAP", "CSRMM"] {
            assert!(
                api.contains(&format!("{{ /* {k} ")),
                "{b}: {k} nest in the C API"
            );
        }
    }
    // The program of the mixed file is checked too: a wrong CSRMM fails it.
    let (code, text, err) = polyscan(&["la", &path, "--emit", "c", "--backend", "nests"]);
    assert_eq!(code, 0, "{err}");
    let (code, out) = compile_and_run(dir.path(), "mixed_right", &text);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = compile_and_run(dir.path(), "mixed_wrong", &scale_first_nest(&text, "CSRMM"));
    assert_eq!(code, Some(1), "{out}");
}

/// The report prices each plan's kernels by their catalogue formulas, counted by hand here:
/// S has 0.1 * 40 * 30 = 120 nonzeros.
#[test]
fn the_report_prices_each_kernel_by_its_formula() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "mixed", MIXED);
    let (code, out, err) = polyscan(&["la", &path]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("kernels: "))
        .collect();
    let nnz = 120.0;
    let expect = [
        // s = sum(X .* X): a multiplication and an addition at each of 40 x 30 points.
        format!("REDUCE {:.4e}", 2.0 * 40.0 * 30.0),
        // Z = S .* X + 1: one multiplication per nonzero, then 1 added at every entry.
        format!("CSRMAP {nnz:.4e}, EWMAP {:.4e}", 40.0 * 30.0),
        // C = S^T X: a multiplication and an addition per nonzero and column of X.
        format!("CSRMM {:.4e}", 2.0 * nnz * 30.0),
    ];
    assert_eq!(lines, expect, "{out}");
    // `--json` lists the same kernels and FLOPs.
    let (code, out, err) = polyscan(&["la", &path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let listed: Vec<String> = v["elementwise"]
        .as_array()
        .expect("plans")
        .iter()
        .map(|p| {
            let ks: Vec<String> = p["kernels"]
                .as_array()
                .expect("kernels")
                .iter()
                .map(|k| {
                    format!(
                        "{} {:.4e}",
                        k["name"].as_str().unwrap_or("?"),
                        k["flops"].as_f64().unwrap_or(-1.0)
                    )
                })
                .collect();
            ks.join(", ")
        })
        .collect();
    assert_eq!(listed, expect, "{out}");
}

/// Files with element-wise statements take `--backend`, `--size` and `--scale` like matrix
/// files: solved and emitted at the run sizes, checked against direct evaluation there.
#[test]
fn element_wise_files_take_back_ends_and_sizes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ew = write(dir.path(), "ew", ELEMENTWISE);
    let mixed = write(dir.path(), "mixed", MIXED);
    let mut backends = vec!["generated", "nests"];
    if common::la::openblas_available() {
        backends.push("blas");
    }
    for b in backends {
        let (code, out, err) = polyscan(&["la", &ew, "--run", "--backend", b]);
        assert_eq!(code, 0, "{b}\n{out}\n{err}");
        assert!(out.contains("result: ok"), "{b}\n{out}");
        assert_eq!(
            out.lines().filter(|l| l.starts_with("residual ")).count(),
            4,
            "{b}\n{out}"
        );
        assert!(out.contains("kernel CSRMM "), "{b}\n{out}");
    }
    let runs: [(&str, &[&str], &str); 3] = [
        (&ew, &["--scale", "0.5"], "sizes: m = 25, n = 20, k = 2"),
        (&ew, &["--size", "n=17"], "sizes: m = 50, n = 17, k = 4"),
        (
            &mixed,
            &["--size", "n=20", "--size", "m=15"],
            "sizes: n = 20, m = 15",
        ),
    ];
    for (file, flags, sizes) in runs {
        let mut args = vec!["la", file, "--run"];
        args.extend_from_slice(flags);
        let (code, out, err) = polyscan(&args);
        assert_eq!(code, 0, "{flags:?}\n{out}\n{err}");
        assert!(out.contains("result: ok"), "{flags:?}\n{out}");
        assert!(out.lines().any(|l| l == sizes), "{flags:?}\n{out}");
    }
    // The C API at other sizes, checked by the generic driver's direct evaluation.
    let c = dir.path().join("mixed_api.c");
    let c = c.to_string_lossy();
    let (code, _, err) = polyscan(&["la", &mixed, "--emit", "c-api", "-o", &c, "--size", "n=20"]);
    assert_eq!(code, 0, "{err}");
    let exe = dir.path().join("mixed_api");
    let out = common::la::capi_driver_cc(
        &["-O1", "-std=gnu11"],
        std::path::Path::new(&*c),
        "mixed_api",
        &exe,
        "generated",
    )
    .output()
    .expect("cc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = std::process::Command::new(&exe).output().expect("run");
    let report = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{report}");
    assert!(report.contains("result: ok"), "{report}");
}
