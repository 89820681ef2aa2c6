//! Raw `extern "C"` declarations of the few libisl functions polyscan calls (isl 0.20 and
//! later; measured with Debian's 0.25). Only [`super::Isl`] uses them: it owns the context
//! and frees every object, so nothing here is public outside the `isl` module.
//!
//! Ownership follows isl's annotations: a `take` argument is consumed by the call (also on
//! failure), a `keep` argument is only borrowed, a returned pointer is owned by the caller
//! and is null on error.

use std::ffi::{c_char, c_int, c_void};

/// Opaque isl types: only ever behind raw pointers.
#[repr(C)]
pub struct IslCtx {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslSet {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslUnionSet {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslUnionMap {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslAstBuild {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslAstNode {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslPrinter {
    _private: [u8; 0],
}
#[repr(C)]
pub struct IslSchedule {
    _private: [u8; 0],
}

/// `ISL_ON_ERROR_CONTINUE` (isl/options.h): errors are recorded, not printed or fatal.
pub const ISL_ON_ERROR_CONTINUE: c_int = 1;
/// `ISL_FORMAT_C` (isl/printer.h).
pub const ISL_FORMAT_C: c_int = 4;

// The library itself is linked by build.rs (pkg-config: -lisl -lgmp).
extern "C" {
    pub fn isl_ctx_alloc() -> *mut IslCtx;
    pub fn isl_ctx_free(ctx: *mut IslCtx);
    pub fn isl_options_set_on_error(ctx: *mut IslCtx, val: c_int) -> c_int;
    pub fn isl_ctx_last_error_msg(ctx: *mut IslCtx) -> *const c_char;
    pub fn isl_ctx_reset_error(ctx: *mut IslCtx);

    pub fn isl_set_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslSet;
    pub fn isl_set_to_str(set: *const IslSet) -> *mut c_char;
    pub fn isl_set_free(set: *mut IslSet) -> *mut IslSet;

    pub fn isl_union_set_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslUnionSet;
    pub fn isl_union_set_copy(uset: *mut IslUnionSet) -> *mut IslUnionSet;
    pub fn isl_union_set_to_str(uset: *const IslUnionSet) -> *mut c_char;
    pub fn isl_union_set_free(uset: *mut IslUnionSet) -> *mut IslUnionSet;

    pub fn isl_union_map_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslUnionMap;
    pub fn isl_union_map_copy(umap: *mut IslUnionMap) -> *mut IslUnionMap;
    pub fn isl_union_map_domain(umap: *mut IslUnionMap) -> *mut IslUnionSet;
    pub fn isl_union_map_intersect_domain(
        umap: *mut IslUnionMap,
        uset: *mut IslUnionSet,
    ) -> *mut IslUnionMap;
    pub fn isl_union_map_gist_domain(
        umap: *mut IslUnionMap,
        uset: *mut IslUnionSet,
    ) -> *mut IslUnionMap;
    pub fn isl_union_map_to_str(umap: *const IslUnionMap) -> *mut c_char;
    pub fn isl_union_map_free(umap: *mut IslUnionMap) -> *mut IslUnionMap;

    pub fn isl_schedule_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslSchedule;
    pub fn isl_schedule_get_map(sched: *const IslSchedule) -> *mut IslUnionMap;
    pub fn isl_schedule_get_domain(sched: *const IslSchedule) -> *mut IslUnionSet;
    pub fn isl_schedule_free(sched: *mut IslSchedule) -> *mut IslSchedule;

    pub fn isl_ast_build_from_context(set: *mut IslSet) -> *mut IslAstBuild;
    pub fn isl_ast_build_node_from_schedule_map(
        build: *mut IslAstBuild,
        schedule: *mut IslUnionMap,
    ) -> *mut IslAstNode;
    pub fn isl_ast_build_free(build: *mut IslAstBuild) -> *mut IslAstBuild;
    pub fn isl_ast_node_free(node: *mut IslAstNode) -> *mut IslAstNode;

    pub fn isl_printer_to_str(ctx: *mut IslCtx) -> *mut IslPrinter;
    pub fn isl_printer_set_output_format(p: *mut IslPrinter, format: c_int) -> *mut IslPrinter;
    pub fn isl_printer_print_ast_node(
        p: *mut IslPrinter,
        node: *const IslAstNode,
    ) -> *mut IslPrinter;
    pub fn isl_printer_get_str(p: *const IslPrinter) -> *mut c_char;
    pub fn isl_printer_free(p: *mut IslPrinter) -> *mut IslPrinter;

    /// isl's strings come from `malloc`: they go back to the C library's `free`.
    pub fn free(p: *mut c_void);
}
