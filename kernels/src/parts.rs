//! One kernel's C in parts: its head (comment and includes), the helpers every kernel file
//! repeats, its own code, and the macros it leaves defined. [`KernelParts::file`] is the
//! file `polyscan kernel` prints; a program that includes several kernels prints the
//! shared helpers once and each kernel's [`KernelParts::own`] text.

use crate::omp;
use crate::request::{Diag, Layout, Request, Side, Trans, Uplo};
use crate::runtime;

/// The C library headers every kernel file includes.
const INCLUDES: &str = include_str!("c/includes.h");

/// A kernel's C file split where a program including several kernels needs it split.
/// In file order: `head`, `shared`, `packing`, the solver runtime when `solver` is set,
/// `body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelParts {
    /// The opening comment (the `polyscan kernel` command that reproduces the file and how
    /// to compile it), the `#include`s and, with `--openmp`, the OpenMP prelude; ends
    /// with a blank line.
    pub head: String,
    /// The helpers every kernel file repeats, the same text for every request: codegen's
    /// exact integer helpers (`codegen::emit_c::HELPERS`), a blank line, then
    /// [`runtime::COMMON`] (micro-kernel, block state, default-size choice).
    pub shared: String,
    /// The kernel's own code that comes before the solver runtime: its accessor macros
    /// and packing routines (`ps_<tag>_*`), where it has them.
    pub packing: String,
    /// Whether the kernel uses [`runtime::SOLVER`] (solvers and factorisations): shared
    /// with the other kernels that use it, printed between `packing` and `body`.
    pub solver: bool,
    /// The rest of the kernel's own code: its step routines and the entry points
    /// `polyscan_d<name>_tiled` and `polyscan_d<name>`.
    pub body: String,
    /// The macros the kernel's own text (`head`, `packing`, `body`) defines, in order of
    /// definition (a name defined twice is listed twice). Some are `#undef`ined again
    /// within the text; a program that includes several kernels undefines all of them
    /// after each kernel, so that the next one can define its own.
    pub defines: Vec<String>,
}

impl KernelParts {
    /// The parts of the kernel `req` asks for, from its own code (see the fields).
    pub(crate) fn new(req: &Request, packing: String, solver: bool, body: String) -> KernelParts {
        let head = head(req);
        let defines = defined_macros(&[&head, &packing, &body]);
        KernelParts {
            head,
            shared: format!("{}\n{}", codegen::emit_c::HELPERS, runtime::COMMON),
            packing,
            solver,
            body,
            defines,
        }
    }

    /// The complete C file, as `polyscan kernel` prints it.
    pub fn file(&self) -> String {
        let mut s = String::with_capacity(
            self.head.len() + self.shared.len() + self.packing.len() + self.body.len() + 8192,
        );
        s.push_str(&self.head);
        s.push_str(&self.shared);
        s.push_str(&self.packing);
        if self.solver {
            s.push_str(runtime::SOLVER);
        }
        s.push_str(&self.body);
        s
    }

    /// The kernel's own text: the file without `shared` (a blank line in its place) and
    /// without the solver runtime. It compiles after `shared` (or codegen's helpers and
    /// [`runtime::COMMON`] printed once) and, where `solver` is set, [`runtime::SOLVER`].
    pub fn own(&self) -> String {
        format!("{}\n{}{}", self.head, self.packing, self.body)
    }

    /// [`KernelParts::own`] with every function it defines renamed `NAME<suffix>`
    /// (`polyscan_dtrsm` becomes `polyscan_dtrsm_ut`, `polyscan_dtrsm_tiled`
    /// `polyscan_dtrsm_ut_tiled`, and so do its static helpers), so
    /// that instances of one kernel with different flags can share a file. Names of
    /// the shared helpers and runtimes, which the text uses but does not define, stay.
    pub fn own_renamed(&self, suffix: &str) -> String {
        let own = self.own();
        let names = defined_functions(&own);
        rename_identifiers(&own, &names, suffix)
    }
}

/// Names of the functions `text` declares or defines at file scope: lines that start a
/// declaration in column 0 (this crate's C puts every one there, attributes on the same
/// line), whose name, the identifier before the parameter list, starts with `ps_` or
/// `polyscan_`.
fn defined_functions(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in text.lines() {
        if !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || line.starts_with("typedef")
            || line.starts_with("_Static_assert")
        {
            continue;
        }
        let bare = strip_attributes(line);
        let Some(open) = bare.find('(') else {
            continue;
        };
        let head = bare[..open].trim_end();
        let start = head
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |p| p + 1);
        let name = &head[start..];
        if (name.starts_with("ps_") || name.starts_with("polyscan_"))
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
    }
    names
}

/// `line` without its `__attribute__((...))` groups (balanced parentheses).
fn strip_attributes(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("__attribute__") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "__attribute__".len()..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// `text` with every identifier token in `names` followed by `suffix` (whole tokens only:
/// `ps_trsm_step` is not a match inside `ps_trsm_step2`).
fn rename_identifiers(text: &str, names: &[String], suffix: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64 * names.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if names.iter().any(|n| n == token) {
            // The entry point with tile sizes keeps `_tiled` last: polyscan_dgemv_r_tiled.
            match token.strip_suffix("_tiled") {
                Some(stem) if token.starts_with("polyscan_") => {
                    out.push_str(stem);
                    out.push_str(suffix);
                    out.push_str("_tiled");
                }
                _ => {
                    out.push_str(token);
                    out.push_str(suffix);
                }
            }
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// The opening comment (with the command that reproduces the file), the includes and,
/// with `--openmp`, the OpenMP prelude, then a blank line.
fn head(req: &Request) -> String {
    let mut flags = String::new();
    if let Some(u) = req.uplo {
        flags.push_str(if u == Uplo::Lower {
            " --uplo L"
        } else {
            " --uplo U"
        });
    }
    if let Some(t) = req.trans {
        flags.push_str(if t == Trans::No {
            " --trans N"
        } else {
            " --trans T"
        });
    }
    if let Some(t) = req.transb {
        flags.push_str(if t == Trans::No {
            " --transb N"
        } else {
            " --transb T"
        });
    }
    if let Some(d) = req.side {
        flags.push_str(if d == Side::Left {
            " --side L"
        } else {
            " --side R"
        });
    }
    if let Some(d) = req.diag {
        flags.push_str(if d == Diag::NonUnit {
            " --diag N"
        } else {
            " --diag U"
        });
    }
    if req.openmp {
        flags.push_str(" --openmp");
    }
    let mut s = format!(
        "/* {}: generated by `polyscan kernel {} --layout {}{}`.\n   Compile with -O2 -march=native \
         (GCC vector extensions need the target's vector unit){}. */\n",
        req.kernel.function(),
        req.kernel.catalogue().name(),
        if req.layout == Layout::Col { "col" } else { "row" },
        flags,
        if req.openmp {
            "; -fopenmp runs the independent tile loops in parallel (without it the pragmas are ignored)"
        } else {
            ""
        }
    );
    s.push_str(INCLUDES);
    if req.openmp {
        s.push_str(omp::PRELUDE);
    }
    s.push('\n');
    s
}

/// Names of the macros `texts` define, in order: each definition is a line of this
/// crate's own C (templates and emitters) starting with `#define`, so the list follows
/// the text instead of being kept by hand next to it.
fn defined_macros(texts: &[&str]) -> Vec<String> {
    texts
        .iter()
        .flat_map(|t| t.lines())
        .filter_map(|line| line.trim_start().strip_prefix("#define "))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renaming_takes_definitions_and_leaves_what_is_used_only() {
        let text = "static __attribute__((unused)) void ps_x_pack(int a) { ps_shared(a); }\n\
                    void polyscan_dx_tiled(int a) { ps_x_pack(a); ps_x_pack2(a); }\n\
                    void polyscan_dx(int a) { polyscan_dx_tiled(a); }\n  int ps_local(int);\n";
        assert_eq!(
            defined_functions(text),
            ["ps_x_pack", "polyscan_dx_tiled", "polyscan_dx"]
        );
        let names = defined_functions(text);
        let renamed = rename_identifiers(text, &names, "_ut");
        assert!(renamed.contains("void ps_x_pack_ut(int a) { ps_shared(a); }"));
        assert!(renamed
            .contains("void polyscan_dx_ut_tiled(int a) { ps_x_pack_ut(a); ps_x_pack2(a); }"));
        assert!(renamed.contains("void polyscan_dx_ut(int a) { polyscan_dx_ut_tiled(a); }"));
        assert!(renamed.contains("int ps_local(int);"));
    }

    #[test]
    fn defined_macros_in_order_with_repeats() {
        let text = "#define A 1\nint x;\n  #define B(r) r\n#undef A\n#define A 2\n";
        assert_eq!(defined_macros(&[text, "#define C\n"]), ["A", "B", "A", "C"]);
    }
}
