//! Blocked BLAS-style kernels emitted as C: `polyscan kernel NAME`. Owns the kernel
//! definitions (CBLAS-compatible signatures, storage layouts, how the catalogue body reads
//! its operands), the analytical default tile sizes, and the assembly of one C file from
//! the tiled nest ([`nest`]) and the run-time part ([`runtime`]).
//!
//! The loop nest is the catalogue domain (`crate::catalogue`) tiled with parametric
//! sizes and scanned by codegen; full tiles run a packed micro-kernel, partial tiles the
//! catalogue body, except in triangular domains (SYRK, TRMM), where the tiles along the
//! diagonal carry a large share of the work: there partial tiles run the packed path too,
//! with the domain's constraint applied as a mask (zeros packed into op(A), or result
//! elements left unwritten), and the generated partial nest remains the fallback when
//! the pack buffers cannot be allocated.
//!
//! Solvers and factorisations (TRSM, TRSV, TRTRI in `solve`, POTRF, GETRF in `factor`) have
//! dependences between tiles; their domains are fully permutable (every dependence
//! distance is non-negative), so the tiled nest is legal in the blocked LAPACK order, and
//! each tile is classified at run time: pure updates go through the packed path, aligned
//! diagonal blocks through small solvers, anything else through the catalogue body in the
//! nest's own order.
//!
//! [`emit`] returns a kernel's whole C file; [`emit_parts`] the same file in parts
//! ([`KernelParts`]): the helpers every kernel file repeats apart from the kernel's own
//! code, for programs that include several kernels and print the helpers once.
//!
//! The C itself lives in `src/c/` (`include_str!`): fixed blocks as they are, the parts
//! that depend on the request as `@name@` placeholders filled by the emitters.
//!
//! ```
//! use polyscan_kernels::{emit, emit_parts, Blas, Layout, Request};
//!
//! let req = Request { layout: Layout::Row, ..Request::new(Blas::Gemm) };
//! let c = emit(&req).unwrap();
//! assert!(c.contains("void polyscan_dgemm(int64_t M, int64_t N, int64_t K"));
//! assert!(c.contains("static __attribute__((noinline, unused)) void ps_ukernel("));
//!
//! // The same file in parts: the micro-kernel is shared, the entry points are GEMM's own.
//! let parts = emit_parts(&req).unwrap();
//! assert_eq!(parts.file(), c);
//! assert!(parts.shared.contains("ps_ukernel(") && !parts.own().contains("void ps_ukernel("));
//! assert!(parts.defines.iter().any(|m| m == "PS_FULL"));
//! ```

#![warn(missing_docs)]

mod blas3;
pub mod catalogue;
mod defs;
mod factor;
mod gemv;
mod loops;
pub mod nest;
pub mod omp;
mod parts;
mod request;
pub mod runtime;
mod solve;
mod template;
mod text;

pub use crate::parts::KernelParts;
pub use crate::request::{Blas, Caches, Diag, KernelError, Layout, Request, Side, Trans, Uplo};
pub use crate::text::{c_body, subscript};

/// The complete C file for a request: the text `polyscan kernel` prints
/// ([`KernelParts::file`] of [`emit_parts`]).
pub fn emit(req: &Request) -> Result<String, KernelError> {
    emit_parts(req).map(|p| p.file())
}

/// The C file for a request in parts: the shared helpers apart from the kernel's own
/// code, and the macros that code defines. `BadInput` for a flag the kernel does not take
/// (or a value it does not support); `Generation` when the generator fails on the
/// catalogue domain.
pub fn emit_parts(req: &Request) -> Result<KernelParts, KernelError> {
    let name = req.kernel.catalogue().name();
    let misplaced = [
        ("--uplo", req.uplo.is_some() && !req.kernel.takes_uplo()),
        ("--trans", req.trans.is_some() && !req.kernel.takes_trans()),
        (
            "--transb",
            req.transb.is_some() && !req.kernel.takes_transb(),
        ),
        ("--diag", req.diag.is_some() && !req.kernel.takes_diag()),
        ("--side", req.side.is_some() && !req.kernel.takes_side()),
    ];
    if let Some((flag, _)) = misplaced.iter().find(|(_, bad)| *bad) {
        return Err(KernelError::BadInput(format!(
            "{flag} does not apply to {name}"
        )));
    }
    // SYRK is generated in its CblasTrans form (C := alpha A^T A + beta C), which
    // `--trans T` names; the other form is a different domain.
    if req.kernel == Blas::Syrk && req.trans == Some(Trans::No) {
        return Err(KernelError::BadInput(
            "SYRK is generated as C := alpha*A^T*A + beta*C (--trans T, the default); \
             --trans N (A*A^T) is not generated"
                .into(),
        ));
    }
    match req.kernel {
        Blas::Gemm | Blas::Syrk | Blas::Symm | Blas::Trmm | Blas::Lauum => blas3::emit(req),
        Blas::Gemv => gemv::emit(req),
        Blas::Trsm => solve::emit_trsm(req),
        Blas::Trsv => solve::emit_trsv(req),
        Blas::Trtri => solve::emit_trtri(req),
        Blas::Potrf => factor::emit_potrf(req),
        Blas::Getrf => factor::emit_getrf(req),
    }
}
