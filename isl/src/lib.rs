//! isl, the integer set library, as a reference for `polyscan compare`: a safe wrapper
//! ([`Isl`]) around a hand-written FFI layer (`ffi`, about 30 declarations) over the system
//! libisl, the translation of a parsed polyscan problem into isl's input ([`input`]), tiled
//! schedule maps for fixed tile sizes ([`tile`]), the C harness that compiles and runs
//! both programs ([`harness`]), and the comparison of the two tools on one input
//! ([`compare`]).
//!
//! The library is optional: build.rs sets `cfg(polyscan_has_isl)` when the `isl` feature is
//! on and pkg-config finds libisl. Without it [`Isl::new`] returns [`IslError::Missing`], and
//! everything else (input translation, harness) still works.
//!
//! # Example
//!
//! A parsed polyscan problem (two statements, a schedule and a context) translated into
//! the three strings isl's AST generator takes. The translation is plain text and needs no
//! libisl; the last step runs isl on it only when this build links the library.
//!
//! ```
//! use codegen::input::parse_problem;
//! use polyscan_isl::{input, Isl, IslError};
//!
//! let problem = parse_problem(
//!     "[n] -> { S1[i] : 0 <= i < n; S2[i, j] : 0 <= i < n and 0 <= j < i }\n\
//!      { S1[i] -> [i, 0, 0]; S2[i, j] -> [i, 1, j] }\n\
//!      [n] -> { : n >= 2 }",
//! )
//! .unwrap();
//! let x = input::from_problem(&problem).unwrap();
//! assert_eq!(x.params, ["n"]);
//! assert_eq!(x.statements, ["S1", "S2"]);
//! assert!(x.domain.starts_with("[n] -> { S1[i] : "));
//! // Each statement's time vector, then its iterators padded to depth 2, then its index:
//! // a total order that matches polyscan's.
//! assert_eq!(
//!     x.schedule,
//!     "[n] -> { S1[i] -> [i, 0, 0, i, 0, 0]; S2[i, j] -> [i, 1, j, i, j, 1] }"
//! );
//!
//! // Non-affine constraints are refused, saying where they are.
//! let cubic = parse_problem("[n] -> { S[i, j] : 0 <= i and i*j <= n and 0 <= j }").unwrap();
//! assert_eq!(input::from_problem(&cubic).unwrap_err().place, "the domain of S");
//!
//! // isl itself only when linked; otherwise `Isl::new` says how to install it.
//! match Isl::new() {
//!     Ok(isl) => {
//!         assert!(polyscan_isl::available());
//!         assert!(isl.ast_c(&x).unwrap().contains("for ("));
//!     }
//!     Err(e) => {
//!         assert!(!polyscan_isl::available());
//!         assert_eq!(e, IslError::Missing);
//!     }
//! }
//! ```

#![warn(missing_docs)]

pub mod compare;
pub mod corpus;
#[cfg(polyscan_has_isl)]
mod ffi;
pub mod harness;
pub mod input;
pub mod tile;

pub use input::{IslInput, NotAffine};

use thiserror::Error;

/// CPU time of the whole process so far (all threads: polyscan lifts in parallel), for
/// generation times: on a loaded machine wall time mostly measures the scheduler, and it
/// penalises runs longer than a time slice far more than short ones. Falls back to a
/// monotonic clock where the CPU clock is unavailable.
pub fn process_cpu_time() -> std::time::Duration {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            tv_sec: i64,
            tv_nsec: i64,
        }
        extern "C" {
            fn clock_gettime(clock: std::ffi::c_int, tp: *mut Timespec) -> std::ffi::c_int;
        }
        // CLOCK_PROCESS_CPUTIME_ID in Linux's <time.h>.
        const CLOCK_PROCESS_CPUTIME_ID: std::ffi::c_int = 2;
        let mut t = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec (64-bit time_t and long on the 64-bit
        // Linux targets this builds for).
        if unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0 {
            return std::time::Duration::new(
                t.tv_sec.max(0) as u64,
                t.tv_nsec.clamp(0, 999_999_999) as u32,
            );
        }
    }
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// How to get the library on Debian or Ubuntu.
pub const INSTALL_HINT: &str = "apt-get install -y libisl-dev pkg-config";

/// Whether this build links libisl.
pub fn available() -> bool {
    cfg!(polyscan_has_isl)
}

/// Why a call to isl failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum IslError {
    /// This build does not link libisl (see [`available`] and [`INSTALL_HINT`]).
    #[error(
        "this polyscan was built without isl (libisl not found by pkg-config, or the `isl` feature off); install it with `{INSTALL_HINT}` and rebuild"
    )]
    Missing,
    /// isl returned null; `message` is the error isl recorded in its context.
    #[error("isl failed to {what}: {message}")]
    Isl {
        /// The step that failed, e.g. `read the map ...` or `generate the AST`.
        what: String,
        /// isl's last error message (`unknown error` when it recorded none).
        message: String,
    },
    /// Text passed to isl contains a NUL byte, so it cannot become a C string.
    #[error("the text for isl contains a NUL byte")]
    Nul,
}

#[cfg(polyscan_has_isl)]
pub use linked::Isl;
#[cfg(not(polyscan_has_isl))]
pub use missing::Isl;

#[cfg(not(polyscan_has_isl))]
mod missing {
    use super::IslError;

    /// Stand-in when libisl is absent: it cannot be constructed.
    pub struct Isl {
        never: std::convert::Infallible,
    }

    impl Isl {
        /// Always [`IslError::Missing`]: this build does not link libisl.
        pub fn new() -> Result<Isl, IslError> {
            Err(IslError::Missing)
        }
        /// Unreachable (no `Isl` exists); see the linked version.
        pub fn ast_c(&self, _: &super::IslInput) -> Result<String, IslError> {
            match self.never {}
        }
        /// Unreachable (no `Isl` exists); see the linked version.
        pub fn union_map_text(&self, _: &str) -> Result<String, IslError> {
            match self.never {}
        }
        /// Unreachable (no `Isl` exists); see the linked version.
        pub fn set_text(&self, _: &str) -> Result<String, IslError> {
            match self.never {}
        }
        /// Unreachable (no `Isl` exists); see the linked version.
        pub fn split_schedule(&self, _: &str) -> Result<(String, String), IslError> {
            match self.never {}
        }
        /// Unreachable (no `Isl` exists); see the linked version.
        pub fn schedule_tree_map(&self, _: &str) -> Result<String, IslError> {
            match self.never {}
        }
    }
}

#[cfg(polyscan_has_isl)]
mod linked {
    use super::ffi::{self, IslCtx};
    use super::{IslError, IslInput};
    use std::ffi::{c_char, CStr, CString};
    use std::ptr::NonNull;

    /// An isl context; every object made through it is freed before the call that made it
    /// returns, and the context itself on drop. Not `Send`: isl contexts are not
    /// thread-safe (the raw pointer keeps the type on one thread).
    pub struct Isl {
        ctx: NonNull<IslCtx>,
    }

    impl Drop for Isl {
        fn drop(&mut self) {
            // SAFETY: the context came from isl_ctx_alloc and every object allocated in it
            // was freed by its `Owned` guard before its method returned.
            unsafe { ffi::isl_ctx_free(self.ctx.as_ptr()) }
        }
    }

    /// An owned isl object, freed on drop unless handed to a consuming (`take`) call.
    struct Owned<T> {
        ptr: *mut T,
        free: unsafe extern "C" fn(*mut T) -> *mut T,
    }

    impl<T> Owned<T> {
        /// Hands ownership to an isl function that consumes its argument.
        fn take(mut self) -> *mut T {
            std::mem::replace(&mut self.ptr, std::ptr::null_mut())
        }
        fn get(&self) -> *mut T {
            self.ptr
        }
    }

    impl<T> Drop for Owned<T> {
        fn drop(&mut self) {
            if !self.ptr.is_null() {
                // SAFETY: `ptr` is an object we own (never handed on: `take` nulls it).
                unsafe {
                    (self.free)(self.ptr);
                }
            }
        }
    }

    impl Isl {
        /// A fresh context that records errors instead of printing them.
        pub fn new() -> Result<Isl, IslError> {
            // SAFETY: plain allocation; a null result is handled.
            let ctx = NonNull::new(unsafe { ffi::isl_ctx_alloc() }).ok_or(IslError::Isl {
                what: "allocate a context".into(),
                message: "out of memory".into(),
            })?;
            // SAFETY: ctx is valid; the option only changes error reporting.
            unsafe { ffi::isl_options_set_on_error(ctx.as_ptr(), ffi::ISL_ON_ERROR_CONTINUE) };
            Ok(Isl { ctx })
        }

        fn ctx(&self) -> *mut IslCtx {
            self.ctx.as_ptr()
        }

        /// The error isl recorded for a failed call, and a reset for the next one.
        fn error(&self, what: &str) -> IslError {
            // SAFETY: ctx is valid; the message is a static or context-owned C string that
            // is copied before the reset.
            let message = unsafe {
                let m = ffi::isl_ctx_last_error_msg(self.ctx());
                let text = if m.is_null() {
                    "unknown error".to_string()
                } else {
                    CStr::from_ptr(m).to_string_lossy().into_owned()
                };
                ffi::isl_ctx_reset_error(self.ctx());
                text
            };
            IslError::Isl {
                what: what.into(),
                message,
            }
        }

        fn own<T>(
            &self,
            ptr: *mut T,
            free: unsafe extern "C" fn(*mut T) -> *mut T,
            what: &str,
        ) -> Result<Owned<T>, IslError> {
            if ptr.is_null() {
                Err(self.error(what))
            } else {
                Ok(Owned { ptr, free })
            }
        }

        /// Copies and frees a string isl allocated.
        fn string(&self, s: *mut c_char, what: &str) -> Result<String, IslError> {
            if s.is_null() {
                return Err(self.error(what));
            }
            // SAFETY: `s` is a NUL-terminated string from malloc that we own.
            unsafe {
                let text = CStr::from_ptr(s).to_string_lossy().into_owned();
                ffi::free(s.cast());
                Ok(text)
            }
        }

        fn c(text: &str) -> Result<CString, IslError> {
            CString::new(text).map_err(|_| IslError::Nul)
        }

        fn read_union_map(&self, text: &str) -> Result<Owned<ffi::IslUnionMap>, IslError> {
            let t = Self::c(text)?;
            // SAFETY: ctx and the C string are valid for the call.
            let p = unsafe { ffi::isl_union_map_read_from_str(self.ctx(), t.as_ptr()) };
            self.own(p, ffi::isl_union_map_free, &format!("read the map {text}"))
        }

        fn read_union_set(&self, text: &str) -> Result<Owned<ffi::IslUnionSet>, IslError> {
            let t = Self::c(text)?;
            // SAFETY: as above.
            let p = unsafe { ffi::isl_union_set_read_from_str(self.ctx(), t.as_ptr()) };
            self.own(p, ffi::isl_union_set_free, &format!("read the set {text}"))
        }

        fn read_set(&self, text: &str) -> Result<Owned<ffi::IslSet>, IslError> {
            let t = Self::c(text)?;
            // SAFETY: as above.
            let p = unsafe { ffi::isl_set_read_from_str(self.ctx(), t.as_ptr()) };
            self.own(p, ffi::isl_set_free, &format!("read the set {text}"))
        }

        /// isl's C code (`for (int c0 = ...)`, `min`, `max`, `floord`) for the schedule
        /// restricted to the domain, valid under the context.
        pub fn ast_c(&self, input: &IslInput) -> Result<String, IslError> {
            let schedule = self.read_union_map(&input.schedule)?;
            let domain = self.read_union_set(&input.domain)?;
            let context = self.read_set(&input.context)?;
            // SAFETY: both arguments are consumed (taken); the result is owned.
            let p = unsafe { ffi::isl_union_map_intersect_domain(schedule.take(), domain.take()) };
            let schedule = self.own(p, ffi::isl_union_map_free, "restrict the schedule")?;
            // SAFETY: the context set is consumed.
            let p = unsafe { ffi::isl_ast_build_from_context(context.take()) };
            let build = self.own(p, ffi::isl_ast_build_free, "make an AST build")?;
            // SAFETY: the build is kept (borrowed), the schedule consumed.
            let p =
                unsafe { ffi::isl_ast_build_node_from_schedule_map(build.get(), schedule.take()) };
            let node = self.own(p, ffi::isl_ast_node_free, "generate the AST")?;
            self.print_c(&node)
        }

        fn print_c(&self, node: &Owned<ffi::IslAstNode>) -> Result<String, IslError> {
            // SAFETY: each printer call consumes the printer and returns a new owned one
            // (or null, after freeing it); the node is only borrowed.
            unsafe {
                let p = ffi::isl_printer_to_str(self.ctx());
                let p = self.own(p, ffi::isl_printer_free, "make a printer")?;
                let p = ffi::isl_printer_set_output_format(p.take(), ffi::ISL_FORMAT_C);
                let p = self.own(p, ffi::isl_printer_free, "set the C format")?;
                let p = ffi::isl_printer_print_ast_node(p.take(), node.get());
                let p = self.own(p, ffi::isl_printer_free, "print the AST")?;
                self.string(ffi::isl_printer_get_str(p.get()), "print the AST")
            }
        }

        /// A union map as isl prints it (normalised: equalities solved, constraints
        /// simplified).
        pub fn union_map_text(&self, text: &str) -> Result<String, IslError> {
            let m = self.read_union_map(text)?;
            // SAFETY: the map is borrowed.
            self.string(unsafe { ffi::isl_union_map_to_str(m.get()) }, "print a map")
        }

        /// A set as isl prints it.
        pub fn set_text(&self, text: &str) -> Result<String, IslError> {
            let s = self.read_set(text)?;
            // SAFETY: the set is borrowed.
            self.string(unsafe { ffi::isl_set_to_str(s.get()) }, "print a set")
        }

        /// Splits a schedule map with domain constraints (isl's `.in` test files) into its
        /// domain and the map without the constraints the domain implies.
        pub fn split_schedule(&self, schedule: &str) -> Result<(String, String), IslError> {
            let m = self.read_union_map(schedule)?;
            // SAFETY: copies are owned; `domain` consumes its argument.
            let dom = unsafe { ffi::isl_union_map_domain(ffi::isl_union_map_copy(m.get())) };
            let dom = self.own(dom, ffi::isl_union_set_free, "take the domain")?;
            // SAFETY: the domain is borrowed; the text is owned.
            let dom_text = self.string(
                unsafe { ffi::isl_union_set_to_str(dom.get()) },
                "print a set",
            )?;
            // SAFETY: the map and a copy of the domain are consumed.
            let g = unsafe {
                ffi::isl_union_map_gist_domain(m.take(), ffi::isl_union_set_copy(dom.get()))
            };
            let g = self.own(g, ffi::isl_union_map_free, "simplify the schedule")?;
            // SAFETY: borrowed.
            let g_text =
                self.string(unsafe { ffi::isl_union_map_to_str(g.get()) }, "print a map")?;
            Ok((dom_text, g_text))
        }

        /// The flat schedule map of a schedule tree (isl's `.st` files, YAML), restricted
        /// to the tree's domain.
        pub fn schedule_tree_map(&self, yaml: &str) -> Result<String, IslError> {
            let t = Self::c(yaml)?;
            // SAFETY: ctx and the text are valid for the call.
            let s = unsafe { ffi::isl_schedule_read_from_str(self.ctx(), t.as_ptr()) };
            let s = self.own(s, ffi::isl_schedule_free, "read the schedule tree")?;
            // SAFETY: the tree is borrowed by both getters; the results are owned.
            let (m, d) = unsafe {
                (
                    ffi::isl_schedule_get_map(s.get()),
                    ffi::isl_schedule_get_domain(s.get()),
                )
            };
            let m = self.own(m, ffi::isl_union_map_free, "flatten the schedule tree")?;
            let d = self.own(d, ffi::isl_union_set_free, "take the tree's domain")?;
            // SAFETY: both consumed.
            let r = unsafe { ffi::isl_union_map_intersect_domain(m.take(), d.take()) };
            let r = self.own(r, ffi::isl_union_map_free, "restrict the schedule")?;
            // SAFETY: borrowed.
            self.string(unsafe { ffi::isl_union_map_to_str(r.get()) }, "print a map")
        }
    }
}
