//! The blocked kernels of `polyscan_kernels` a program includes: emitted on first use, one
//! instance per kernel and flag combination, with the runtime they share left out.

use std::fmt::Write as _;

use crate::error::LaError;
use crate::kernels::Kernel;

/// The flags of one kernel instance, as `polyscan kernel` takes them (all `false`: the
/// default variant, column-major, lower, no transposition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Flags {
    /// `--uplo U`: the triangle is the stored upper one.
    pub(super) upper: bool,
    /// `--trans T`: the triangular operand (TRSM, TRSV) or A (GEMM) transposed.
    pub(super) trans: bool,
    /// `--transb T` (GEMM, SYMM).
    pub(super) transb: bool,
    /// `--layout row`: for GEMV, the transposed product of a column-major matrix; for SYRK,
    /// `t t^T` of a column-major `t`.
    pub(super) row: bool,
}

impl Flags {
    /// The suffix of the instance's function names: empty for the default variant, else
    /// `_` and one letter per flag set (`polyscan_dtrsm_ut`: upper, transposed).
    fn suffix(self) -> String {
        let letters: String = [
            (self.upper, 'u'),
            (self.trans, 't'),
            (self.transb, 'b'),
            (self.row, 'r'),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| *c)
        .collect();
        if letters.is_empty() {
            letters
        } else {
            format!("_{letters}")
        }
    }
}

/// The blocked kernels `polyscan_kernels` emitted for this program, by catalogue kernel
/// and flags.
pub(super) struct Library {
    /// Instances whose blocked code is included.
    available: Vec<(Kernel, Flags)>,
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
const CALLABLE: [Kernel; 11] = [
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
    Kernel::Lauum,
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

    /// Whether the program runs on several threads (`--threads N` above 1, generated back
    /// end): the emitter's own element-wise passes are parallel too.
    pub(super) fn openmp(&self) -> bool {
        self.openmp
    }

    /// Whether the generated library has `kernel` (every flag combination its emitter
    /// takes), without emitting anything: the form decides which instance it calls.
    pub(super) fn knows(&self, kernel: Kernel) -> bool {
        CALLABLE.contains(&kernel)
    }

    /// Whether `kernel`'s default variant can be called from the generated library
    /// (emitting it on first use).
    pub(super) fn has(&mut self, kernel: Kernel) -> Result<bool, LaError> {
        Ok(self.instance(kernel, Flags::default())?.is_some())
    }

    /// The function name (`polyscan_dtrsm_ut`) of `kernel`'s instance with `flags`,
    /// emitting it on first use; `None` when the generated library has no such kernel or
    /// variant (`BadInput` from the emitter: a name or flag it does not take).
    pub(super) fn instance(
        &mut self,
        kernel: Kernel,
        flags: Flags,
    ) -> Result<Option<String>, LaError> {
        if !CALLABLE.contains(&kernel) {
            return Ok(None);
        }
        let blas = match polyscan_kernels::Blas::parse(kernel.name()) {
            Ok(b) => b,
            Err(polyscan_kernels::KernelError::BadInput(_)) => return Ok(None),
            Err(e) => return Err(LaError::Unsupported(e.to_string())),
        };
        let suffix = flags.suffix();
        let name = format!("{}{suffix}", blas.function());
        if self.available.contains(&(kernel, flags)) {
            return Ok(Some(name));
        }
        let yes = |on: bool| on.then_some(polyscan_kernels::Trans::Yes);
        let req = polyscan_kernels::Request {
            openmp: self.openmp,
            uplo: flags.upper.then_some(polyscan_kernels::Uplo::Upper),
            trans: yes(flags.trans),
            transb: yes(flags.transb),
            layout: if flags.row {
                polyscan_kernels::Layout::Row
            } else {
                polyscan_kernels::Layout::Col
            },
            ..polyscan_kernels::Request::new(blas)
        };
        let parts = match polyscan_kernels::emit_parts(&req) {
            Ok(p) => p,
            Err(polyscan_kernels::KernelError::BadInput(_)) => return Ok(None),
            Err(e) => return Err(LaError::Unsupported(e.to_string())),
        };
        // The shared helpers (and the solvers' runtime) are printed once at the top of
        // the program; each instance brings its own text, its functions renamed unless it
        // is the default variant, and its macros are undefined after it so that the next
        // one can define its own.
        let mut text = if suffix.is_empty() {
            parts.own()
        } else {
            parts.own_renamed(&suffix)
        };
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
        self.available.push((kernel, flags));
        Ok(Some(name))
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
