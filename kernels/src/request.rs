//! What to emit: the kernel, its CBLAS flags and storage layout, the default tile sizes
//! (with the cache model behind them), and why emission can fail. Every emitter reads a
//! [`Request`]; nothing here knows about C text.

use crate::catalogue::Kernel;
use crate::runtime;
use std::fmt;

/// Storage order of every matrix argument (CBLAS's `CblasColMajor` / `CblasRowMajor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Column-major: element (r, c) at `r + c * ld`.
    Col,
    /// Row-major: element (r, c) at `r * ld + c`.
    Row,
}

/// Which triangle a symmetric or triangular operand or result uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uplo {
    /// The lower triangle (`CblasLower`).
    Lower,
    /// The upper triangle (`CblasUpper`).
    Upper,
}

/// Whether the triangular operand is used transposed (CBLAS's `CblasNoTrans` / `CblasTrans`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trans {
    /// op(A) = A (`CblasNoTrans`).
    No,
    /// op(A) = A^T (`CblasTrans`).
    Yes,
}

/// Which side the triangular operand multiplies from (`CblasLeft` / `CblasRight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// op(A) X = alpha B (`CblasLeft`).
    Left,
    /// X op(A) = alpha B (`CblasRight`).
    Right,
}

/// Whether the triangle's diagonal is read or taken as ones (`CblasNonUnit` / `CblasUnit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diag {
    /// The diagonal is read (`CblasNonUnit`).
    NonUnit,
    /// The diagonal is taken as ones and never read (`CblasUnit`).
    Unit,
}

/// Kernels `polyscan kernel` can emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blas {
    /// `C := alpha A B + beta C`.
    Gemm,
    /// `C := alpha A^T A + beta C`, one triangle of C.
    Syrk,
    /// `C := alpha A B + beta C` with A symmetric (one triangle stored).
    Symm,
    /// `B := alpha A B` with A lower triangular.
    Trmm,
    /// `y := alpha A x + beta y`.
    Gemv,
    /// `B := alpha inv(op(A)) B` or `B := alpha B inv(op(A))`, A triangular.
    Trsm,
    /// `x := inv(op(A)) x`, A triangular.
    Trsv,
    /// Cholesky factorisation `A = L L^T` (or `U^T U`).
    Potrf,
    /// LU factorisation with partial pivoting `A = P L U`.
    Getrf,
    /// Inverse of a triangular matrix.
    Trtri,
    /// `C := alpha L^T L + beta C` with L lower triangular, the lower triangle of C
    /// (LAPACK's LAUUM, out of place).
    Lauum,
}

/// Why no kernel could be emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelError {
    /// A name or option the kernel does not take.
    BadInput(String),
    /// The generator failed on the catalogue domain (a bug, reported rather than hidden).
    Generation(String),
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::BadInput(m) | KernelError::Generation(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for KernelError {}

impl Blas {
    /// Every kernel, in the order `polyscan kernel --help` lists them.
    pub const ALL: &'static [Blas] = &[
        Blas::Gemm,
        Blas::Syrk,
        Blas::Symm,
        Blas::Trmm,
        Blas::Gemv,
        Blas::Trsm,
        Blas::Trsv,
        Blas::Potrf,
        Blas::Getrf,
        Blas::Trtri,
        Blas::Lauum,
    ];

    /// Parses a kernel name as in the catalogue (`GEMM`) or CBLAS (`dgemm`), any case.
    pub fn parse(name: &str) -> Result<Blas, KernelError> {
        let lower = name.to_ascii_lowercase();
        let bare = lower.strip_prefix("cblas_").unwrap_or(&lower);
        let bare = bare
            .strip_prefix("lapacke_")
            .unwrap_or(bare)
            .trim_end_matches('_');
        let bare = bare
            .strip_prefix('d')
            .filter(|b| b.len() == 4 || b.len() == 5)
            .unwrap_or(bare);
        match bare {
            "gemm" => Ok(Blas::Gemm),
            "syrk" => Ok(Blas::Syrk),
            "symm" => Ok(Blas::Symm),
            "trmm" => Ok(Blas::Trmm),
            "gemv" => Ok(Blas::Gemv),
            "trsm" => Ok(Blas::Trsm),
            "trsv" => Ok(Blas::Trsv),
            "potrf" => Ok(Blas::Potrf),
            "getrf" => Ok(Blas::Getrf),
            "trtri" => Ok(Blas::Trtri),
            "lauum" => Ok(Blas::Lauum),
            _ => Err(KernelError::BadInput(format!(
                "unknown kernel '{name}': available: {}",
                Blas::ALL
                    .iter()
                    .map(|b| b.catalogue().name().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// The catalogue entry whose domain and body the kernel is generated from.
    pub fn catalogue(self) -> Kernel {
        match self {
            Blas::Gemm => Kernel::Gemm,
            Blas::Syrk => Kernel::Syrk,
            Blas::Symm => Kernel::Symm,
            Blas::Trmm => Kernel::Trmm,
            Blas::Gemv => Kernel::Gemv,
            Blas::Trsm => Kernel::Trsm,
            Blas::Trsv => Kernel::Trsv,
            Blas::Potrf => Kernel::Potrf,
            Blas::Getrf => Kernel::Getrf,
            Blas::Trtri => Kernel::Trtri,
            Blas::Lauum => Kernel::Lauum,
        }
    }

    /// The C function name (`polyscan_dgemm`).
    pub fn function(self) -> &'static str {
        match self {
            Blas::Gemm => "polyscan_dgemm",
            Blas::Syrk => "polyscan_dsyrk",
            Blas::Symm => "polyscan_dsymm",
            Blas::Trmm => "polyscan_dtrmm",
            Blas::Gemv => "polyscan_dgemv",
            Blas::Trsm => "polyscan_dtrsm",
            Blas::Trsv => "polyscan_dtrsv",
            Blas::Potrf => "polyscan_dpotrf",
            Blas::Getrf => "polyscan_dgetrf",
            Blas::Trtri => "polyscan_dtrtri",
            Blas::Lauum => "polyscan_dlauum",
        }
    }

    /// Number of iterators of the catalogue domain (= number of tile sizes).
    pub fn dims(self) -> usize {
        if matches!(self, Blas::Gemv | Blas::Trsv) {
            2
        } else {
            3
        }
    }

    /// Whether `--uplo` means something for this kernel.
    pub fn takes_uplo(self) -> bool {
        !matches!(self, Blas::Gemm | Blas::Gemv | Blas::Getrf)
    }

    /// Whether `--trans` means something for this kernel (GEMM: op(A); TRMM, TRSM, TRSV:
    /// the triangle).
    pub fn takes_trans(self) -> bool {
        matches!(
            self,
            Blas::Trmm | Blas::Trsm | Blas::Trsv | Blas::Gemm | Blas::Syrk
        )
    }

    /// Whether `--transb` means something for this kernel (GEMM, SYMM: op(B)).
    pub fn takes_transb(self) -> bool {
        matches!(self, Blas::Gemm | Blas::Symm)
    }

    /// Whether `--diag` means something for this kernel.
    pub fn takes_diag(self) -> bool {
        matches!(self, Blas::Trsm | Blas::Trsv | Blas::Trtri)
    }

    /// Whether `--side` means something for this kernel.
    pub fn takes_side(self) -> bool {
        self == Blas::Trsm
    }
}

/// The most columns of a tile of C (nc). The macro-kernel sweeps a tile's mc x nc block of
/// C once per packed block of op(A); with a leading dimension of 512 or more every column
/// is on its own 4 KiB page, and a sweep over thousands of them misses the second-level
/// TLB on each micro-tile (Zen 4: 3072 entries, shared with the packed buffers). GEMM at
/// m = n = k = 5000, one thread: nc = 2500 (the cache rule's 4092, fitted to n) 1.11-1.17x
/// OpenBLAS's time, nc = 384-768 1.03-1.07x.
pub const NC_PAGES: i64 = 768;

/// Cache capacities in bytes (per core for L1 and L2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    /// Level-1 data cache, per core.
    pub l1: u64,
    /// Level-2 cache, per core.
    pub l2: u64,
    /// Level-3 cache (shared).
    pub l3: u64,
}

impl Caches {
    /// The fixed defaults: this project's benchmark machine (AMD EPYC, Zen 2: 32 KiB L1d,
    /// 512 KiB L2, 16 MiB L3), also typical of current x86 cores.
    pub const DEFAULT: Caches = Caches {
        l1: 32 << 10,
        l2: 512 << 10,
        l3: 16 << 20,
    };

    /// Data and unified caches of cpu0 from sysfs; `None` where the files are missing.
    pub fn from_sysfs() -> Option<Caches> {
        let base = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
        let mut c = Caches {
            l1: 0,
            l2: 0,
            l3: 0,
        };
        for e in std::fs::read_dir(base).ok()?.flatten() {
            let read = |f: &str| std::fs::read_to_string(e.path().join(f)).ok();
            let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
            else {
                continue;
            };
            if kind.trim() == "Instruction" {
                continue;
            }
            let size = size.trim();
            let bytes = match size.strip_suffix('K') {
                Some(v) => v.parse::<u64>().ok()? << 10,
                None => match size.strip_suffix('M') {
                    Some(v) => v.parse::<u64>().ok()? << 20,
                    None => size.parse::<u64>().ok()?,
                },
            };
            match level.trim() {
                "1" => c.l1 = bytes,
                "2" => c.l2 = bytes,
                "3" => c.l3 = bytes,
                _ => {}
            }
        }
        (c.l1 > 0 && c.l2 > 0).then(|| Caches {
            l3: if c.l3 > 0 { c.l3 } else { c.l2 * 8 },
            ..c
        })
    }

    /// Tile sizes `[mc, nc, kc]` by the analytical model of Low et al. (2016), reduced to
    /// capacities: one MR x kc micro-panel of packed A and one kc x NR sliver of packed B
    /// share L1 with one of its 8 ways left to C (kc), the mc x kc block of packed A
    /// fills half of L2 (the rest holds the B sliver in flight and C), the kc x nc panel
    /// of B half of L3, but at most [`NC_PAGES`] columns. mc and nc are rounded down to
    /// whole micro-tiles. With the default caches: kc = 256, mc = 128, nc = 768.
    pub fn model_sizes(&self) -> [i64; 3] {
        let d = 8u64; // sizeof(double)
        let (mr, nr) = (runtime::MR as u64, runtime::NR as u64);
        let kc = (self.l1 * 7 / 8 / ((mr + nr) * d)).max(1);
        let round = |v: u64, unit: u64| (v / unit * unit).max(unit) as i64;
        let mc = round(self.l2 / 2 / (kc * d), mr);
        let nc = round(self.l3 / 2 / (kc * d), nr).min(NC_PAGES);
        [mc, nc, kc as i64]
    }
}

/// What to emit.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// The kernel.
    pub kernel: Blas,
    /// Storage order of every matrix argument.
    pub layout: Layout,
    /// SYRK, SYMM, TRMM, TRSM, TRSV, POTRF, TRTRI (default: lower).
    pub uplo: Option<Uplo>,
    /// TRMM, TRSM, TRSV: the triangular operand; GEMM: A (default: no transpose).
    pub trans: Option<Trans>,
    /// GEMM: B (default: no transpose).
    pub transb: Option<Trans>,
    /// TRSM (default: left).
    pub side: Option<Side>,
    /// TRSM, TRSV, TRTRI (default: non-unit).
    pub diag: Option<Diag>,
    /// `#pragma omp parallel for` on the tile loops that carry no dependence.
    pub openmp: bool,
    /// Model sizes `[mc, nc, kc]` behind `polyscan_<name>` (adjusted per call to the
    /// problem's extents; see `ps_pick_size`).
    pub defaults: [i64; 3],
}

impl Request {
    /// `kernel` with the defaults of `polyscan kernel`: column-major, no transpose, left
    /// side, non-unit diagonal, no OpenMP, the model sizes of [`Caches::DEFAULT`]. Callers
    /// set the fields they need on top (`Request { uplo: .., ..Request::new(k) }`), so that
    /// a new option does not break them.
    pub fn new(kernel: Blas) -> Request {
        Request {
            kernel,
            layout: Layout::Col,
            uplo: None,
            trans: None,
            transb: None,
            side: None,
            diag: None,
            openmp: false,
            defaults: Caches::DEFAULT.model_sizes(),
        }
    }
}
