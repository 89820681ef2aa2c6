//! Emitted blocked kernels (`polyscan kernel`: GEMM, SYRK, SYMM, TRMM, GEMV, LAUUM; the solvers
//! and factorisations TRSM, TRSV, POTRF, GETRF further down), compiled
//! with gcc -O2 -march=native and checked against a naive loop nest in C: every
//! m = n = k in 1..=40, a few hundred random (m, n, k) up to 40, several tile sizes
//! (1x1x1, 3x5x7, 8x6x32, 16x12x8, larger than the problem, and the default-size entry
//! point), both layouts, both triangles, padded leading dimensions, several alpha/beta
//! including beta = 0 over NaN. One compile per configuration; the driver loops over the
//! cases in C.

use polyscan_kernels::{emit, Blas, Diag, KernelError, Layout, Request, Side, Trans, Uplo};
use std::process::Command;

/// Finishes a compiler or linker command: writes `exe` (with -lm) and asserts that it
/// succeeded (`what` names the step in the failure message).
fn build(cmd: &mut Command, exe: &std::path::Path, what: &str) {
    let out = cmd
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .expect("run the C compiler");
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn compiler() -> String {
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let ok = Command::new(&cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "a C compiler ({cc}) is needed: apt-get install -y gcc");
    cc
}

/// The checking driver, for the kernel selected by `-DKERNEL=1..6` (GEMM, SYRK, SYMM,
/// TRMM, GEMV, LAUUM), `-DROWMAJOR=0|1` and `-DUPPER=0|1`. Triangles a kernel must not read hold NaN;
/// elements it must not write are compared bit for bit.
const DRIVER: &str = include_str!("data/kernels/blas3_driver.c");

fn request(kernel: Blas, layout: Layout, uplo: Option<Uplo>) -> Request {
    Request {
        layout,
        uplo,
        ..Request::new(kernel)
    }
}

fn run_with(kernel: Blas, layout: Layout, uplo: Option<Uplo>, openmp: bool) {
    run_request(&Request {
        openmp,
        ..request(kernel, layout, uplo)
    });
}

/// Compiles `req`'s kernel with the checking driver and runs it.
fn run_request(req: &Request) {
    run_request_with(req, &[]);
}

/// [`run_request`] with extra compiler flags.
fn run_request_with(req: &Request, cflags: &[&str]) {
    run_request_on(req, cflags, &["2"]);
}

/// [`run_request_with`], the one build run once per OpenMP thread count in `threads`.
fn run_request_on(req: &Request, cflags: &[&str], threads: &[&str]) {
    let (kernel, layout, uplo, openmp) = (req.kernel, req.layout, req.uplo, req.openmp);
    let cc = compiler();
    let text = emit(req).expect("the kernel emits");
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("kernel.c");
    let driver = dir.path().join("driver.c");
    let exe = dir.path().join("driver");
    std::fs::write(&src, &text).expect("write kernel");
    std::fs::write(&driver, DRIVER).expect("write driver");
    let id = match kernel {
        Blas::Gemm => 1,
        Blas::Syrk => 2,
        Blas::Symm => 3,
        Blas::Trmm => 4,
        Blas::Gemv => 5,
        Blas::Lauum => 6,
        other => panic!("{other:?} has its own driver (run_solver)"),
    };
    build(
        Command::new(&cc)
            .args(["-O2", "-march=native", "-std=gnu11", "-Wall", "-Werror"])
            .args(if openmp {
                &["-fopenmp", "-DPS_OMP_MIN=512"][..]
            } else {
                &[]
            })
            .args(cflags)
            .arg(format!("-DKERNEL={id}"))
            .arg(format!("-DROWMAJOR={}", u8::from(layout == Layout::Row)))
            .arg(format!("-DUPPER={}", u8::from(uplo == Some(Uplo::Upper))))
            .arg(format!(
                "-DTRANSA={}",
                u8::from(req.trans == Some(Trans::Yes))
            ))
            .arg(format!(
                "-DTRANSB={}",
                u8::from(req.transb == Some(Trans::Yes))
            ))
            .arg(&src)
            .arg(&driver),
        &exe,
        "compile",
    );
    for t in threads {
        let run = Command::new(&exe)
            .env("OMP_NUM_THREADS", t)
            .output()
            .expect("run the driver");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{kernel:?} {layout:?} {uplo:?} on {t} threads: {stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            stdout.contains(", 0 failures"),
            "{kernel:?} {layout:?} {uplo:?} on {t} threads: {stdout}"
        );
    }
}

/// The requests of [`blas3_requests`] for `kernel`.
fn requests_of(kernel: Blas) -> Vec<Request> {
    blas3_requests()
        .into_iter()
        .filter(|r| r.kernel == kernel)
        .collect()
}

#[test]
fn gemm_matches_naive_loops_in_both_layouts_with_every_transposition() {
    requests_of(Blas::Gemm).iter().for_each(run_request);
}

#[test]
fn syrk_matches_naive_loops() {
    requests_of(Blas::Syrk).iter().for_each(run_request);
}

#[test]
fn symm_matches_naive_loops() {
    requests_of(Blas::Symm).iter().for_each(run_request);
}

#[test]
fn gemv_matches_naive_loops() {
    requests_of(Blas::Gemv).iter().for_each(run_request);
}

#[test]
fn trmm_matches_naive_loops_for_both_triangles_and_transposes() {
    requests_of(Blas::Trmm).iter().for_each(run_request);
    // The upper variant's tile loops in parallel (its own domain, `i <= l`).
    run_request(&Request {
        openmp: true,
        ..request(Blas::Trmm, Layout::Col, Some(Uplo::Upper))
    });
}

#[test]
fn lauum_matches_naive_loops() {
    requests_of(Blas::Lauum).iter().for_each(run_request);
    run_with(Blas::Lauum, Layout::Col, None, true);
    let upper = emit(&request(Blas::Lauum, Layout::Col, Some(Uplo::Upper)));
    assert!(matches!(upper, Err(KernelError::BadInput(_))));
}

#[test]
fn unknown_kernel_and_misplaced_uplo_are_bad_input() {
    assert!(Blas::parse("GEMMX").is_err());
    assert_eq!(Blas::parse("dgemm"), Ok(Blas::Gemm));
    assert_eq!(Blas::parse("cblas_dgemm"), Ok(Blas::Gemm));
    let r = emit(&request(Blas::Gemm, Layout::Col, Some(Uplo::Lower)));
    assert!(r.is_err());
    let bin = env!("CARGO_BIN_EXE_polyscan");
    let out = Command::new(bin)
        .args(["kernel", "NOPE"])
        .output()
        .expect("run polyscan");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(bin)
        .args(["kernel", "LAUUM", "--uplo", "U"])
        .output()
        .expect("run polyscan");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cli_writes_the_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("syrk.c");
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(["kernel", "dsyrk", "--uplo", "U", "--layout", "row", "-o"])
        .arg(&path)
        .output()
        .expect("run polyscan");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).expect("the output file");
    assert!(text.contains("void polyscan_dsyrk(int64_t N, int64_t K, double alpha"));
    assert!(text.contains("void polyscan_dsyrk_tiled("));
    assert!(text.contains("PS_FULL(t1, t2, t3);"));
}

#[test]
fn body_rewrite_uses_layout_macros_and_alpha() {
    assert_eq!(
        polyscan_kernels::c_body("C[i][j] += A[i][l] * B[l][j]"),
        "PS_C(i, j) += alpha * (PS_A(i, l) * PS_B(l, j))"
    );
}

/// Checking driver of the solvers and factorisations. `cases.h` (written by the test)
/// declares the kernels of every flag combination, each renamed `<name>_c<index>`, and
/// the table `cases` of their flags; `-DKIND=1..5` selects TRSM, TRSV, POTRF, GETRF, TRTRI.
/// Each case is compared with a naive unblocked loop nest on the same input for every
/// size 1..=40 (square, and a second extent varied), random rectangular sizes, several
/// tile sizes and the default entry point; triangles a kernel must not read hold NaN, and
/// elements it must not write (other triangle, padding, A of TRSM) are compared bit for bit.
const SOLVE_DRIVER: &str = include_str!("data/kernels/solve_driver.c");

/// Every flag combination of a solver or factorisation: (right, upper, trans, unit, row).
fn combos(kernel: Blas) -> Vec<[bool; 5]> {
    let b = [false, true];
    let mut out = Vec::new();
    for right in b {
        for upper in b {
            for trans in b {
                for unit in b {
                    for row in b {
                        let ok = match kernel {
                            Blas::Trsm => true,
                            Blas::Trsv => !right,
                            Blas::Potrf => !right && !trans && !unit,
                            Blas::Trtri => !right && !trans,
                            _ => !right && !upper && !trans && !unit,
                        };
                        if ok {
                            out.push([right, upper, trans, unit, row]);
                        }
                    }
                }
            }
        }
    }
    out
}

fn solver_request(kernel: Blas, c: [bool; 5], openmp: bool) -> Request {
    let [right, upper, trans, unit, row] = c;
    Request {
        kernel,
        layout: if row { Layout::Row } else { Layout::Col },
        uplo: (kernel != Blas::Getrf).then_some(if upper { Uplo::Upper } else { Uplo::Lower }),
        trans: kernel
            .takes_trans()
            .then_some(if trans { Trans::Yes } else { Trans::No }),
        side: (kernel == Blas::Trsm).then_some(if right { Side::Right } else { Side::Left }),
        diag: kernel
            .takes_diag()
            .then_some(if unit { Diag::Unit } else { Diag::NonUnit }),
        openmp,
        ..Request::new(kernel)
    }
}

/// Emits every combination of `kernel`, compiles each (two compilers at a time) and links
/// them with the checking driver; runs it (with `env`) and asserts no failure.
fn run_solver(kernel: Blas, openmp: bool, env: &[(&str, &str)]) -> String {
    run_solver_cases(kernel, openmp, env, 1)
}

/// As [`run_solver`], for every `every`-th flag combination only.
fn run_solver_cases(kernel: Blas, openmp: bool, env: &[(&str, &str)], every: usize) -> String {
    run_solver_cases_with(kernel, openmp, env, every, &[])
}

/// [`run_solver_cases`] with extra compiler flags.
fn run_solver_cases_with(
    kernel: Blas,
    openmp: bool,
    env: &[(&str, &str)],
    every: usize,
    cflags: &[&str],
) -> String {
    run_solver_cases_on(kernel, openmp, &[env], every, cflags)
        .pop()
        .expect("one output per environment")
}

/// [`run_solver_cases_with`], the one build run once in each environment of `envs`; the
/// driver's outputs in that order.
fn run_solver_cases_on(
    kernel: Blas,
    openmp: bool,
    envs: &[&[(&str, &str)]],
    every: usize,
    cflags: &[&str],
) -> Vec<String> {
    let cc = compiler();
    let dir = tempfile::tempdir().expect("temporary directory");
    let fname = kernel.function();
    let kind = match kernel {
        Blas::Trsm => 1,
        Blas::Trsv => 2,
        Blas::Potrf => 3,
        Blas::Getrf => 4,
        _ => 5,
    };
    let cases: Vec<[bool; 5]> = combos(kernel).into_iter().step_by(every).collect();
    let start = std::time::Instant::now();
    let mut header = String::new();
    let mut table = String::from("static const struct ps_case cases[] = {\n");
    let mut sources = Vec::new();
    for (idx, &c) in cases.iter().enumerate() {
        let text = emit(&solver_request(kernel, c, openmp)).expect("the kernel emits");
        let mentions = ["pragma omp", "omp.h", "OPENMP", "OpenMP", "openmp"];
        assert_eq!(
            mentions.iter().any(|m| text.contains(m)),
            openmp,
            "OpenMP named exactly with --openmp"
        );
        let renamed = format!("{fname}_c{idx}");
        let path = dir.path().join(format!("k{idx}.c"));
        std::fs::write(&path, text.replace(fname, &renamed)).expect("write kernel");
        sources.push(path);
        header.push_str(&format!("ps_f {renamed};\nps_tf {renamed}_tiled;\n"));
        let [right, upper, trans, unit, row] = c.map(u8::from);
        table.push_str(&format!(
            "  {{ {right}, {upper}, {trans}, {unit}, {row}, {renamed}, {renamed}_tiled }},\n"
        ));
    }
    table.push_str("};\n");
    std::fs::write(dir.path().join("cases.h"), header + &table).expect("write cases.h");
    let driver = dir.path().join("driver.c");
    std::fs::write(&driver, SOLVE_DRIVER).expect("write driver");
    // Parallel loops over tiles of 512 multiply-adds and more: the 16 x 16 x 16 tiles
    // (unless `cflags` sets PS_OMP_MIN itself).
    let own_min = cflags.iter().any(|f| f.starts_with("-DPS_OMP_MIN="));
    let omp_flag: &[&str] = match (openmp, own_min) {
        (true, false) => &["-fopenmp", "-DPS_OMP_MIN=512"],
        (true, true) => &["-fopenmp"],
        (false, _) => &[],
    };
    let compile = |src: &std::path::Path, out: &std::path::Path, extra: &[String]| {
        let o = Command::new(&cc)
            .args([
                "-O2",
                "-march=native",
                "-std=gnu11",
                "-Wall",
                "-Werror",
                "-c",
            ])
            .args(omp_flag)
            .args(cflags)
            .args(extra)
            .arg(src)
            .arg("-o")
            .arg(out)
            .output()
            .expect("run the compiler");
        assert!(
            o.status.success(),
            "compile of {} failed:\n{}",
            src.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let objects: Vec<std::path::PathBuf> = sources.iter().map(|s| s.with_extension("o")).collect();
    for chunk in sources.chunks(2).zip(objects.chunks(2)) {
        std::thread::scope(|sc| {
            for (s, o) in chunk.0.iter().zip(chunk.1) {
                sc.spawn(|| compile(s, o, &[]));
            }
        });
    }
    let driver_o = dir.path().join("driver.o");
    let mut defines = vec![
        format!("-DKIND={kind}"),
        format!("-I{}", dir.path().display()),
    ];
    if openmp {
        defines.push("-DQUICK".into());
    }
    compile(&driver, &driver_o, &defines);
    let exe = dir.path().join("driver");
    build(
        Command::new(&cc)
            .args(omp_flag)
            .arg(&driver_o)
            .args(&objects),
        &exe,
        "link",
    );
    let built = start.elapsed();
    let mut outputs = Vec::new();
    for env in envs {
        let run = Command::new(&exe)
            .envs(env.iter().copied())
            .output()
            .expect("run the driver");
        let stdout = String::from_utf8_lossy(&run.stdout).to_string();
        eprintln!(
            "{kernel:?} openmp={openmp} {env:?}: built in {:.1} s, ran in {:.1} s",
            built.as_secs_f64(),
            (start.elapsed() - built).as_secs_f64()
        );
        assert!(
            run.status.success() && stdout.contains(", 0 failures"),
            "{kernel:?} openmp={openmp} {env:?}: {stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        eprintln!("{kernel:?} openmp={openmp} {env:?}: {}", stdout.trim());
        outputs.push(stdout);
    }
    outputs
}

#[test]
fn trsm_matches_naive_loops_for_every_flag_combination() {
    run_solver(Blas::Trsm, false, &[]);
}

#[test]
fn trsv_matches_naive_loops_for_every_flag_combination() {
    run_solver(Blas::Trsv, false, &[]);
}

/// `--openmp`: TRSV's parallel solve (`c/trsv_parallel.c`: look-ahead, rows split across
/// threads) on two threads, and the tile nest it gives way to on one, for every flag
/// combination; PS_OMP_MIN=1 makes every solve from n = 5 on with square tiles smaller
/// than n parallel (tiles of 1, 5 and 16, and the default sizes at n = 300).
#[test]
fn openmp_trsv_matches_naive_loops_on_one_and_two_threads() {
    let min = ["-DPS_OMP_MIN=1"];
    run_solver_cases_with(Blas::Trsv, true, &[("OMP_NUM_THREADS", "2")], 1, &min);
    run_solver_cases_with(Blas::Trsv, true, &[("OMP_NUM_THREADS", "1")], 1, &min);
}

#[test]
fn potrf_matches_naive_cholesky_in_both_triangles_and_layouts() {
    run_solver(Blas::Potrf, false, &[]);
}

#[test]
fn trtri_matches_naive_inverse_for_every_flag_combination() {
    run_solver(Blas::Trtri, false, &[]);
}

/// `--openmp`: TRTRI's column blocks set up and copied back by the thread that runs them
/// (`PS_COLS_IN`, `PS_COLS_OUT`): at once on one thread, after the nest on two (a block
/// finished early holds columns of L that a running block still reads), for every flag
/// combination; PS_OMP_MIN=1 makes every nest with two column blocks or more parallel.
#[test]
fn openmp_trtri_matches_naive_inverse_on_one_and_two_threads() {
    let min = ["-DPS_OMP_MIN=1"];
    run_solver_cases_with(Blas::Trtri, true, &[("OMP_NUM_THREADS", "2")], 1, &min);
    run_solver_cases_with(Blas::Trtri, true, &[("OMP_NUM_THREADS", "1")], 1, &min);
}

#[test]
fn getrf_matches_naive_pivoted_lu_including_pivots_and_info() {
    run_solver(Blas::Getrf, false, &[]);
}

/// The portable micro-kernel (8 x 6, two 4-wide vectors per column), which machines without
/// AVX-512 compile: here forced by -DPS_NO_AVX512 where -march=native would pick the 8 x 8
/// one. GEMM in both layouts and with a transposed operand, SYRK (masked tiles), and
/// TRSM (its diagonal solve packs slivers of PS_NR columns).
#[test]
fn portable_micro_kernel_matches_naive_loops() {
    let portable = ["-DPS_NO_AVX512"];
    for layout in [Layout::Col, Layout::Row] {
        run_request_with(&request(Blas::Gemm, layout, None), &portable);
        run_request_with(
            &Request {
                trans: Some(Trans::Yes),
                ..request(Blas::Gemm, layout, None)
            },
            &portable,
        );
    }
    run_request_with(
        &request(Blas::Syrk, Layout::Col, Some(Uplo::Lower)),
        &portable,
    );
    run_solver_cases_with(Blas::Trsm, false, &[], 3, &portable);
}

/// The BLAS-3 and GEMV requests the tests above check without `--openmp`: GEMM in both
/// layouts with every transposition, SYRK, SYMM and TRMM in both layouts and triangles (TRMM
/// with both transpositions, SYMM with both of B's), GEMV in both layouts, LAUUM's two.
fn blas3_requests() -> Vec<Request> {
    let mut out = Vec::new();
    for layout in [Layout::Col, Layout::Row] {
        for (ta, tb) in [
            (Trans::No, Trans::No),
            (Trans::Yes, Trans::No),
            (Trans::No, Trans::Yes),
            (Trans::Yes, Trans::Yes),
        ] {
            out.push(Request {
                trans: Some(ta),
                transb: Some(tb),
                ..request(Blas::Gemm, layout, None)
            });
        }
        for uplo in [Uplo::Lower, Uplo::Upper] {
            out.push(request(Blas::Syrk, layout, Some(uplo)));
            for transb in [Trans::No, Trans::Yes] {
                out.push(Request {
                    transb: Some(transb),
                    ..request(Blas::Symm, layout, Some(uplo))
                });
            }
            for trans in [Trans::No, Trans::Yes] {
                out.push(Request {
                    trans: Some(trans),
                    ..request(Blas::Trmm, layout, Some(uplo))
                });
            }
        }
        out.push(request(Blas::Gemv, layout, None));
    }
    out.push(request(Blas::Lauum, Layout::Col, None));
    out.push(request(Blas::Lauum, Layout::Row, Some(Uplo::Lower)));
    out
}

/// `--openmp`: every flag combination the tests above check without it, compiled with
/// -fopenmp and each build run on one thread and on two, gives the naive loops' results
/// (the driver's shapes include results taller than wide, so GEMM's and SYMM's row split
/// runs with partial row, column and reduction tiles: tile sizes 3 x 5 x 7, and the
/// defaults at 301 x 97 x 530):
/// the BLAS-3 kernels and GEMV ([`blas3_requests`]; GEMM's, SYMM's, SYRK's, TRMM's and
/// LAUUM's column-tile loops in parallel, GEMM's and SYMM's row tiles where m > n, GEMV's
/// row tiles (row-major) or column tiles (column-major, each thread into its own copy of
/// y)), and every combination of TRSM, POTRF and GETRF (GETRF's block steps parallel
/// regions with look-ahead where its tiles are equal: PS_OMP_MIN=512 makes steps of 8 x 8
/// tiles parallel). TRSV and TRTRI have their own tests on one and two threads above.
#[test]
fn openmp_kernels_match_naive_loops_on_one_and_two_threads() {
    let reqs: Vec<Request> = blas3_requests()
        .into_iter()
        .map(|r| Request { openmp: true, ..r })
        .collect();
    // Two builds at a time, as the solvers' cases are compiled.
    for pair in reqs.chunks(2) {
        std::thread::scope(|sc| {
            for req in pair {
                sc.spawn(|| run_request_on(req, &[], &["1", "2"]));
            }
        });
    }
    let envs: [&[(&str, &str)]; 2] = [&[("OMP_NUM_THREADS", "1")], &[("OMP_NUM_THREADS", "2")]];
    for kernel in [Blas::Trsm, Blas::Potrf, Blas::Getrf] {
        run_solver_cases_on(kernel, true, &envs, 1, &[]);
    }
}

/// The thread-count driver: the GEMM-shaped kernels with given tile sizes on one thread
/// and on two, compared bit for bit.
const THREADS_DRIVER: &str = include_str!("data/kernels/threads_driver.c");

/// `--openmp`: GEMM, SYMM, TRMM, SYRK and LAUUM give bit-identical results on one thread and
/// on two (same tile sizes), square and (GEMM, SYMM) taller than wide: each thread runs
/// every reduction step of the result tiles it takes (column tiles, or a block of row tiles
/// where the result is taller than wide), in the one-thread order.
#[test]
fn openmp_kernels_are_bit_identical_on_one_and_two_threads() {
    let cc = compiler();
    let dir = tempfile::tempdir().expect("temporary directory");
    let kernels = [
        (Blas::Gemm, None),
        (Blas::Symm, Some(Uplo::Lower)),
        (Blas::Trmm, Some(Uplo::Lower)),
        (Blas::Syrk, Some(Uplo::Lower)),
        (Blas::Lauum, None),
    ];
    let mut sources = Vec::new();
    for (kernel, uplo) in kernels {
        let req = Request {
            openmp: true,
            ..request(kernel, Layout::Col, uplo)
        };
        let path = dir.path().join(format!("{kernel:?}.c"));
        std::fs::write(&path, emit(&req).expect("the kernel emits")).expect("write kernel");
        sources.push(path);
    }
    let driver = dir.path().join("threads_driver.c");
    std::fs::write(&driver, THREADS_DRIVER).expect("write driver");
    let exe = dir.path().join("threads");
    build(
        Command::new(&cc)
            .args(["-O2", "-march=native", "-std=gnu11", "-Wall", "-Werror"])
            .args(["-fopenmp", "-DPS_OMP_MIN=512"])
            .args(&sources)
            .arg(&driver),
        &exe,
        "compile",
    );
    let run = Command::new(&exe).output().expect("run the driver");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(stdout.contains(", 0 failures"), "{stdout}");
}

/// SYRK computes A^T A: `--trans T` names that form (the same code, the flag in the
/// header's command), `--trans N` (A A^T) is refused as bad input.
#[test]
fn syrk_takes_trans_t_only() {
    let bin = env!("CARGO_BIN_EXE_polyscan");
    let run = |extra: &[&str]| {
        Command::new(bin)
            .args(["kernel", "SYRK", "--uplo", "L"])
            .args(extra)
            .output()
            .expect("run polyscan")
    };
    let plain = run(&[]);
    let t = run(&["--trans", "T"]);
    assert!(plain.status.success() && t.status.success());
    let body = |o: &std::process::Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines()
            .filter(|l| !l.contains("polyscan kernel"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&plain), body(&t));
    assert!(String::from_utf8_lossy(&t.stdout).contains("--trans T"));
    let n = run(&["--trans", "N"]);
    assert_eq!(n.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&n.stderr).contains("A^T*A"));
}

#[test]
fn flags_a_kernel_does_not_take_are_bad_input() {
    let bin = env!("CARGO_BIN_EXE_polyscan");
    for args in [
        &["kernel", "GEMM", "--side", "R"][..],
        &["kernel", "SYRK", "--transb", "T"],
        &["kernel", "POTRF", "--side", "R"],
        &["kernel", "GETRF", "--uplo", "U"],
        &["kernel", "TRSV", "--side", "L"],
        &["kernel", "SYRK", "--diag", "U"],
    ] {
        let out = Command::new(bin).args(args).output().expect("run polyscan");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("does not apply to"), "{args:?}: {err}");
    }
    let out = Command::new(bin)
        .args([
            "kernel", "dtrsm", "--side", "R", "--uplo", "U", "--trans", "T", "--diag", "U",
        ])
        .output()
        .expect("run polyscan");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("void polyscan_dtrsm(int64_t M, int64_t N, double alpha"));
    assert!(text.contains("CblasRight, CblasUpper, CblasTrans, CblasUnit"));
    assert!(!text.contains("pragma omp"));
    let out = Command::new(bin)
        .args(["kernel", "LAPACKE_dgetrf", "--openmp"])
        .output()
        .expect("run polyscan");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(
        "int64_t polyscan_dgetrf(int64_t M, int64_t N, double *A, int64_t lda, int64_t *ipiv)"
    ));
    // One region per block step, the step's column tiles shared in it.
    assert!(text.contains("#pragma omp parallel if (ps_getrf_ready("));
    assert!(text.contains("#pragma omp for schedule(dynamic, 1) nowait"));
}
