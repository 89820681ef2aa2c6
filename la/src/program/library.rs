//! The blocked kernels of `polyscan_kernels` a program includes: emitted on first use, with
//! the runtime they share with the program's own left out.

use std::fmt::Write as _;

use crate::error::LaError;
use crate::kernels::Kernel;

/// The blocked kernels `polyscan_kernels` emitted for this program, by catalogue kernel.
pub(super) struct Library {
    /// Catalogue kernels whose blocked version is included.
    available: Vec<Kernel>,
    /// Their own C text (`KernelParts::own`: without the shared helpers) followed by
    /// `#undef`s of its macros, in first-use order.
    chunks: Vec<String>,
    /// Whether the solvers' shared workspace code is needed.
    solver: bool,
    /// Kernels emitted with `#pragma omp parallel for` on their independent tile loops
    /// (`polyscan kernel --openmp`; `--threads N` above 1).
    openmp: bool,
}

/// Catalogue kernels whose `polyscan_d*` argument conventions this module knows.
const CALLABLE: [Kernel; 10] = [
    Kernel::Gemm,
    Kernel::Syrk,
    Kernel::Symm,
    Kernel::Trmm,
    Kernel::Gemv,
    Kernel::Trsm,
    Kernel::Trsv,
    Kernel::Potrf,
    Kernel::Getrf,
    Kernel::Trtri,
];

impl Library {
    pub(super) fn new() -> Library {
        Library {
            available: Vec::new(),
            chunks: Vec::new(),
            solver: false,
            openmp: false,
        }
    }

    /// Kernels included from now on are emitted as `polyscan kernel --openmp` emits them
    /// (each brings the OpenMP prelude, guarded by `#ifdef _OPENMP`).
    pub(super) fn set_openmp(&mut self, openmp: bool) {
        self.openmp = openmp;
    }

    /// Whether `kernel` can be called from the generated library (emitting it on first
    /// use); `BadInput` from the emitter (a name it does not take) means "not available".
    pub(super) fn has(&mut self, kernel: Kernel) -> Result<bool, LaError> {
        if self.available.contains(&kernel) {
            return Ok(true);
        }
        if !CALLABLE.contains(&kernel) {
            return Ok(false);
        }
        let blas = match polyscan_kernels::Blas::parse(kernel.name()) {
            Ok(b) => b,
            Err(polyscan_kernels::KernelError::BadInput(_)) => return Ok(false),
            Err(e) => return Err(LaError::Unsupported(e.to_string())),
        };
        let req = polyscan_kernels::Request {
            openmp: self.openmp,
            ..polyscan_kernels::Request::new(blas)
        };
        let parts = match polyscan_kernels::emit_parts(&req) {
            Ok(p) => p,
            Err(polyscan_kernels::KernelError::BadInput(_)) => return Ok(false),
            Err(e) => return Err(LaError::Unsupported(e.to_string())),
        };
        // The shared helpers (and the solvers' runtime) are printed once at the top of
        // the program; each kernel brings its own text, and its macros are undefined
        // after it so that the next kernel can define its own.
        let mut text = parts.own();
        for name in &parts.defines {
            // The OpenMP prelude's macros are the same in every kernel (`PS_OMP_MIN` only
            // where not yet defined): kept, so that `-DPS_OMP_MIN=...` reaches them all.
            if self.openmp && is_prelude_macro(name) {
                continue;
            }
            let _ = writeln!(text, "#undef {name}");
        }
        self.solver |= parts.solver;
        self.chunks.push(text);
        self.available.push(kernel);
        Ok(true)
    }

    /// The included kernels after the runtime they share; nothing when none is included.
    pub(super) fn append_to(&self, src: &mut String) {
        if !self.chunks.is_empty() {
            src.push('\n');
            src.push_str(polyscan_kernels::runtime::COMMON);
            if self.solver {
                src.push_str(polyscan_kernels::runtime::SOLVER);
            }
            for c in &self.chunks {
                src.push('\n');
                src.push_str(c);
            }
        }
    }
}

/// Whether `name` is defined by the OpenMP prelude every `--openmp` kernel starts with.
fn is_prelude_macro(name: &str) -> bool {
    polyscan_kernels::omp::PRELUDE.lines().any(|l| {
        l.strip_prefix("#define ")
            .and_then(|d| d.split_whitespace().next())
            == Some(name)
    })
}
