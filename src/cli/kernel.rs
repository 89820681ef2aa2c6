//! `polyscan kernel NAME`: a blocked BLAS kernel as C (see `polyscan_kernels`), and
//! `--tune`, a short search for tile sizes on this machine.

use super::files::write_atomically;
use super::{Diagnostic, ExitCode};
use clap::{Args, ValueEnum};
use polyscan_kernels::{emit, Blas, Caches, Diag, KernelError, Layout, Request, Side, Trans, Uplo};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum LayoutArg {
    /// Column-major (CblasColMajor).
    Col,
    /// Row-major (CblasRowMajor).
    Row,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum UploArg {
    /// Lower triangle (CblasLower).
    #[value(name = "L", alias = "l", alias = "lower")]
    L,
    /// Upper triangle (CblasUpper).
    #[value(name = "U", alias = "u", alias = "upper")]
    U,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum TransArg {
    /// op(A) = A (CblasNoTrans).
    #[value(name = "N", alias = "n")]
    N,
    /// op(A) = A^T (CblasTrans).
    #[value(name = "T", alias = "t")]
    T,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SideArg {
    /// The triangle multiplies from the left (CblasLeft).
    #[value(name = "L", alias = "l", alias = "left")]
    L,
    /// From the right (CblasRight).
    #[value(name = "R", alias = "r", alias = "right")]
    R,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum DiagArg {
    /// The diagonal is read (CblasNonUnit).
    #[value(name = "N", alias = "n")]
    N,
    /// The diagonal is taken as ones and not read (CblasUnit).
    #[value(name = "U", alias = "u")]
    U,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum KernelEmit {
    /// C99 with GCC vector extensions: `polyscan_dNAME` and `polyscan_dNAME_tiled`.
    C,
}

/// Emit a blocked kernel (CBLAS arguments after the enumerations, int64_t integers) whose
/// loop nest is the catalogue domain tiled with run-time sizes.
#[derive(Args, Debug)]
pub struct KernelArgs {
    /// Kernel name: GEMM, SYRK, SYMM, TRMM, GEMV, TRSM, TRSV, POTRF, GETRF, TRTRI or LAUUM
    /// (also dgemm, cblas_dgemm, LAPACKE_dpotrf, ...).
    pub name: String,
    /// Triangle of the symmetric or triangular operand or result (SYRK, SYMM, TRMM, TRSM,
    /// TRSV, POTRF, TRTRI; default L; LAUUM takes L only).
    #[arg(long)]
    pub uplo: Option<UploArg>,
    /// Transposition of the triangular operand (TRMM, TRSM, TRSV) or of A (GEMM; default N;
    /// SYRK: T only, the C := alpha*A^T*A + beta*C it computes).
    #[arg(long)]
    pub trans: Option<TransArg>,
    /// Transposition of B (GEMM, SYMM; default N). SYMM with T computes A*B^T, which
    /// BLAS's DSYMM cannot without a copy of B.
    #[arg(long)]
    pub transb: Option<TransArg>,
    /// Side of the triangular operand (TRSM; default L).
    #[arg(long)]
    pub side: Option<SideArg>,
    /// Unit or non-unit diagonal of the triangular operand (TRSM, TRSV, TRTRI; default N).
    #[arg(long)]
    pub diag: Option<DiagArg>,
    /// `#pragma omp parallel for` on the tile loops that carry no dependence (compile
    /// with -fopenmp to use them; without it the code runs serially).
    #[arg(long)]
    pub openmp: bool,
    /// Storage order of the matrices.
    #[arg(long, value_enum, default_value = "col")]
    pub layout: LayoutArg,
    /// Output language.
    #[arg(long, value_enum, default_value = "c")]
    pub emit: KernelEmit,
    /// Write the C file here (atomically) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Instead of emitting: compile the kernel (GEMM; gcc -O2 -march=native), time tile
    /// sizes around the cache model's (caches read from sysfs) and print the best.
    #[arg(long)]
    pub tune: bool,
    /// Problem size (m = n = k) that --tune times.
    #[arg(long, default_value_t = 1024, requires = "tune")]
    pub tune_size: i64,
}

fn diag(e: KernelError) -> Diagnostic {
    match e {
        KernelError::BadInput(m) => Diagnostic::new(ExitCode::BadInput, m),
        KernelError::Generation(m) => Diagnostic::new(ExitCode::BadInput, m),
    }
}

pub fn request(args: &KernelArgs, caches: Caches) -> Result<Request, Diagnostic> {
    Ok(Request {
        kernel: Blas::parse(&args.name).map_err(diag)?,
        layout: match args.layout {
            LayoutArg::Col => Layout::Col,
            LayoutArg::Row => Layout::Row,
        },
        uplo: args.uplo.map(|u| match u {
            UploArg::L => Uplo::Lower,
            UploArg::U => Uplo::Upper,
        }),
        trans: args.trans.map(|t| match t {
            TransArg::N => Trans::No,
            TransArg::T => Trans::Yes,
        }),
        transb: args.transb.map(|t| match t {
            TransArg::N => Trans::No,
            TransArg::T => Trans::Yes,
        }),
        side: args.side.map(|t| match t {
            SideArg::L => Side::Left,
            SideArg::R => Side::Right,
        }),
        diag: args.diag.map(|t| match t {
            DiagArg::N => Diag::NonUnit,
            DiagArg::U => Diag::Unit,
        }),
        openmp: args.openmp,
        defaults: caches.model_sizes(),
    })
}

pub fn run(args: KernelArgs) -> Result<(), Diagnostic> {
    if args.tune {
        return tune(&args);
    }
    let req = request(&args, Caches::DEFAULT)?;
    let text = emit(&req).map_err(diag)?;
    match &args.output {
        None => {
            print!("{text}");
            Ok(())
        }
        Some(p) => write_atomically(p, &text),
    }
}

/// Times `polyscan_<name>_tiled` for one square problem and each `[mc, nc, kc]`, best of
/// three calls each (a driver in C, so that the timing is the C code's alone).
const TUNE_DRIVER: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void polyscan_dgemm_tiled(int64_t M, int64_t N, int64_t K, double alpha, const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc, const int64_t *tile_sizes);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec; }
int main(int argc, char **argv)
{
  int64_t n = atoll(argv[1]);
  double *A = malloc(sizeof(double) * (size_t)(n * n)), *B = malloc(sizeof(double) * (size_t)(n * n)), *C = malloc(sizeof(double) * (size_t)(n * n));
  if (!A || !B || !C) return 3;
  for (int64_t x = 0; x < n * n; x++) { A[x] = (double)(x % 7) - 3.0; B[x] = (double)(x % 5) - 2.0; C[x] = 0.0; }
  for (int a = 2; a + 2 < argc; a += 3) {
    int64_t ts[3] = { atoll(argv[a]), atoll(argv[a + 1]), atoll(argv[a + 2]) };
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
      double t = now();
      polyscan_dgemm_tiled(n, n, n, 1.0, A, n, B, n, 0.0, C, n, ts);
      t = now() - t;
      if (t < best) best = t;
    }
    printf("%ld %ld %ld %.3f\n", (long)ts[0], (long)ts[1], (long)ts[2], 2.0 * (double)n * (double)n * (double)n / best * 1e-9);
    fflush(stdout);
  }
  return 0;
}
"#;

fn tune(args: &KernelArgs) -> Result<(), Diagnostic> {
    let caches = Caches::from_sysfs();
    let req = request(args, caches.unwrap_or(Caches::DEFAULT))?;
    if req.kernel != Blas::Gemm {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            "--tune supports GEMM only",
        ));
    }
    let n = args.tune_size;
    if !(16..=8192).contains(&n) {
        return Err(Diagnostic::new(
            ExitCode::BadInput,
            "--tune-size must be in 16..=8192",
        ));
    }
    let text = emit(&req).map_err(diag)?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let missing = |e: String| Diagnostic::new(ExitCode::Resource, e);
    let dir = tempfile::tempdir().map_err(|e| missing(format!("temporary directory: {e}")))?;
    let (kernel, driver, exe) = (
        dir.path().join("kernel.c"),
        dir.path().join("driver.c"),
        dir.path().join("tune"),
    );
    std::fs::write(&kernel, text).map_err(|e| missing(e.to_string()))?;
    std::fs::write(&driver, TUNE_DRIVER).map_err(|e| missing(e.to_string()))?;
    let out = std::process::Command::new(&cc)
        .args(["-O2", "-march=native"])
        .arg(&kernel)
        .arg(&driver)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| missing(format!("cannot run the C compiler '{cc}': {e}")))?;
    if !out.status.success() {
        return Err(missing(format!(
            "{cc} failed on the kernel:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let measure = |cands: &[[i64; 3]]| -> Result<Vec<([i64; 3], f64)>, Diagnostic> {
        let mut cmd = std::process::Command::new(&exe);
        cmd.arg(n.to_string());
        for c in cands {
            cmd.args(c.iter().map(|v| v.to_string()));
        }
        let out = cmd
            .output()
            .map_err(|e| missing(format!("cannot run the timing driver: {e}")))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let rows: Vec<([i64; 3], f64)> = text
            .lines()
            .filter_map(|l| {
                let v: Vec<&str> = l.split_whitespace().collect();
                let s = [v.first()?, v.get(1)?, v.get(2)?].map(|x| x.parse::<i64>().unwrap_or(0));
                Some((s, v.get(3)?.parse().ok()?))
            })
            .collect();
        if rows.len() != cands.len() {
            return Err(missing("the timing driver failed".into()));
        }
        for (s, g) in &rows {
            println!(
                "  mc={:<5} nc={:<5} kc={:<5} {g:6.2} GFLOP/s",
                s[0], s[1], s[2]
            );
        }
        Ok(rows)
    };
    let model = req.defaults;
    println!(
        "caches: {}; model sizes mc={} nc={} kc={}; timing m = n = k = {n}",
        match caches {
            Some(c) => format!(
                "L1 {} KiB, L2 {} KiB, L3 {} KiB (sysfs)",
                c.l1 >> 10,
                c.l2 >> 10,
                c.l3 >> 10
            ),
            None => "sysfs unreadable, fixed defaults".into(),
        },
        model[0],
        model[1],
        model[2]
    );
    // Coordinate search, kc first (it sets the other two's footprints), each over
    // multiples of the model's value; the whole extent counts as a candidate for nc.
    let mut best = [model[0], model[1].min(n), model[2]];
    let mut best_g = 0.0;
    for (dim, unit) in [
        (2usize, 1i64),
        (0, polyscan_kernels::runtime::MR),
        (1, polyscan_kernels::runtime::NR),
    ] {
        let mut cands = Vec::new();
        for f in [0.5, 0.75, 1.0, 1.5, 2.0] {
            let v = ((model[dim] as f64 * f) as i64 / unit * unit).clamp(unit, n);
            let mut c = best;
            c[dim] = v;
            if !cands.contains(&c) {
                cands.push(c);
            }
        }
        if dim == 1 && !cands.iter().any(|c| c[1] == n) {
            let mut c = best;
            c[1] = n;
            cands.push(c);
        }
        for (s, g) in measure(&cands)? {
            if g > best_g {
                best = s;
                best_g = g;
            }
        }
    }
    println!(
        "best: mc={} nc={} kc={} ({best_g:.2} GFLOP/s); pass them to {}_tiled as {{{}, {}, {}}}",
        best[0],
        best[1],
        best[2],
        req.kernel.function(),
        best[0],
        best[1],
        best[2]
    );
    Ok(())
}
