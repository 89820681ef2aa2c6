//! A complete C99 program for a solved problem (`polyscan la PROBLEM --emit c`): every
//! operand allocated at the (possibly overridden) sizes, inputs filled with deterministic
//! pseudo-random data that has the declared properties, the chosen kernel sequence, a timed
//! naive evaluation of the formula (explicit inverses, products left to right: plain loops
//! with Gauss-Jordan inverses, or with `-DPS_NAIVE_BLAS` OpenBLAS's DGEMM and LAPACK's
//! DGETRF + DGETRI) and the relative residual of every output; the program's exit status
//! is 1 when a residual exceeds the tolerance.
//!
//! Kernels come from two back ends. `Generated`: the blocked kernels of `polyscan_kernels`
//! where it can emit them, else the catalogue body over its iteration domain, scanned by
//! codegen. `Blas`: CBLAS and Fortran LAPACK calls (OpenBLAS; prototypes declared here so
//! no header is needed). Both see each step through a canonical form (the catalogue's
//! lower-triangular, left-sided operation) reached by composing views of the stored
//! matrices: transposes (right-sided operations) and index reversals (upper triangles).
//! Where a call needs plain storage, the view is copied (O(n^2) next to O(n^3) kernels).
//!
//! The sequence is searched at the declared sizes; the program may run it at smaller ones
//! (tests): shapes are propagated through the steps and must keep which dimensions are 1
//! and which operands are square, so that every kernel's conditions still hold.
//!
//! Files: `options` (what the program is built for), `sizes` (the problem and its shapes at
//! the run sizes), `view` (views of stored matrices), `form` (a step in canonical shape),
//! `catalogue` (catalogue nests as C), `library` (blocked kernels from `polyscan_kernels`),
//! `emitter` (the state shared by the back ends), `backend_nests`, `backend_generated` and
//! `backend_blas` (a form as code), `orth` (QR, SYEV and SVD steps, with `c/orth.c`),
//! `block` (block-diagonal steps, block by block, with `c/block.c`),
//! `step` (a step as code), `assemble` (the whole program, around the C runtime in `c/`),
//! `dim` (a dimension: a number, or an expression in sizes the C API takes at run time),
//! `capi` (the sequences as a C function with a workspace, `--emit c-api`), `capi_check`
//! (its header's part for the checking driver `c/capi_driver.c`) and `sumproduct` (the
//! element-wise statements' plans before or after the sequence, CSR operands, and their
//! direct evaluation).

mod assemble;
mod backend_blas;
mod backend_generated;
mod backend_nests;
mod block;
mod capi;
mod capi_check;
mod catalogue;
mod dim;
mod emitter;
mod form;
mod library;
mod options;
mod orth;
mod sizes;
mod step;
mod sumproduct;
mod view;

pub use assemble::{emit, emit_threads};
pub use capi::{
    c_identifier, emit_api, emit_api_threads, emit_api_variants, ApiVariant, EmittedApi,
};
pub use options::{Backend, EmittedProgram, ProgramOptions};
pub use sizes::resize;

pub(crate) use catalogue::CatalogueScan;
