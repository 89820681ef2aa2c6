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

pub mod catalogue;
mod defs;
mod factor;
mod gemv;
pub mod nest;
pub mod omp;
pub mod runtime;
mod solve;

use crate::catalogue::Kernel;
use std::fmt::{self, Write};

/// Storage order of every matrix argument (CBLAS's `CblasColMajor` / `CblasRowMajor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Col,
    Row,
}

/// Which triangle a symmetric or triangular operand or result uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uplo {
    Lower,
    Upper,
}

/// Whether the triangular operand is used transposed (CBLAS's `CblasNoTrans` / `CblasTrans`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trans {
    No,
    Yes,
}

/// Which side the triangular operand multiplies from (`CblasLeft` / `CblasRight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// Whether the triangle's diagonal is read or taken as ones (`CblasNonUnit` / `CblasUnit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diag {
    NonUnit,
    Unit,
}

/// Kernels `polyscan kernel` can emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blas {
    Gemm,
    Syrk,
    Symm,
    Trmm,
    Gemv,
    Trsm,
    Trsv,
    Potrf,
    Getrf,
    Trtri,
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

    /// Whether `--trans` means something for this kernel.
    pub fn takes_trans(self) -> bool {
        matches!(self, Blas::Trsm | Blas::Trsv)
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

/// Cache capacities in bytes (per core for L1 and L2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    pub l1: u64,
    pub l2: u64,
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
    /// of B half of L3. mc and nc are rounded down to whole micro-tiles. With the default
    /// caches: kc = 256, mc = 128, nc = 4092.
    pub fn model_sizes(&self) -> [i64; 3] {
        let d = 8u64; // sizeof(double)
        let (mr, nr) = (runtime::MR as u64, runtime::NR as u64);
        let kc = (self.l1 * 7 / 8 / ((mr + nr) * d)).max(1);
        let round = |v: u64, unit: u64| (v / unit * unit).max(unit) as i64;
        let mc = round(self.l2 / 2 / (kc * d), mr);
        let nc = round(self.l3 / 2 / (kc * d), nr);
        [mc, nc, kc as i64]
    }
}

/// What to emit.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub kernel: Blas,
    pub layout: Layout,
    pub uplo: Option<Uplo>,
    /// TRSM, TRSV (default: no transpose).
    pub trans: Option<Trans>,
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
            side: None,
            diag: None,
            openmp: false,
            defaults: Caches::DEFAULT.model_sizes(),
        }
    }
}

/// Rewrites the catalogue body for the emitted function: `X[e1][e2]` becomes the layout
/// macro `PS_X(e1, e2)` (a vector's `x[e]` becomes `PS_x(e)`), and an update `lhs += rhs` becomes `lhs += alpha * (rhs)` (the
/// catalogue states the unscaled operation; alpha and beta are the BLAS interface's).
pub fn c_body(body: &str) -> String {
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let ident_start = c.is_ascii_alphabetic()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_'));
        if ident_start {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let name: String = chars[i..j].iter().collect();
            // Bracketed subscripts directly after the name: a matrix or vector element.
            if let Some((e1, after1)) = subscript(&chars, j) {
                if let Some((e2, after2)) = subscript(&chars, after1) {
                    let _ = write!(out, "PS_{name}({}, {})", c_body(&e1), c_body(&e2));
                    i = after2;
                } else {
                    let _ = write!(out, "PS_{name}({})", c_body(&e1));
                    i = after1;
                }
                continue;
            }
            out.push_str(&name);
            i = j;
            continue;
        }
        out.push(c);
        i += 1;
    }
    match out.split_once("+=") {
        Some((lhs, rhs)) => format!("{}+= alpha * ({})", lhs, rhs.trim()),
        None => out,
    }
}

/// `[expr]` starting at `at` (nested brackets allowed): its text and the index after it.
pub fn subscript(chars: &[char], at: usize) -> Option<(String, usize)> {
    if chars.get(at) != Some(&'[') {
        return None;
    }
    let mut depth = 0;
    for (k, &c) in chars.iter().enumerate().skip(at) {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some((chars[at + 1..k].iter().collect(), k + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Element access `X(r, c)` of a matrix stored in `layout` with leading dimension `ld`.
pub(crate) fn element(x: &str, ld: &str, layout: Layout, r: &str, c: &str) -> String {
    match layout {
        Layout::Col => format!("{x}[({r}) + ({c}) * {ld}]"),
        Layout::Row => format!("{x}[({r}) * {ld} + ({c})]"),
    }
}

/// The complete C file for a request.
pub fn emit(req: &Request) -> Result<String, KernelError> {
    let name = req.kernel.catalogue().name();
    let misplaced = [
        ("--uplo", req.uplo.is_some() && !req.kernel.takes_uplo()),
        ("--trans", req.trans.is_some() && !req.kernel.takes_trans()),
        ("--diag", req.diag.is_some() && !req.kernel.takes_diag()),
        ("--side", req.side.is_some() && !req.kernel.takes_side()),
    ];
    if let Some((flag, _)) = misplaced.iter().find(|(_, bad)| *bad) {
        return Err(KernelError::BadInput(format!(
            "{flag} does not apply to {name}"
        )));
    }
    match req.kernel {
        Blas::Gemv => return gemv::emit(req),
        Blas::Trsm => return solve::emit_trsm(req),
        Blas::Trsv => return solve::emit_trsv(req),
        Blas::Potrf => return factor::emit_potrf(req),
        Blas::Getrf => return factor::emit_getrf(req),
        Blas::Trtri => return solve::emit_trtri(req),
        _ => {}
    }
    let def = defs::definition(req)?;
    let kernel = req.kernel.catalogue();
    // Triangular domains: partial tiles (along the diagonal, a large share of the work)
    // run the packed path with masks; rectangular ones keep the generic nest there.
    let masked = def.ops.a_mask.is_some() || def.ops.c_mask.is_some();
    // Loops j, l, i: BLIS's jc, pc, ic (the packed panel of op(B) is reused across the
    // innermost tile loop); i innermost in the partial tiles too.
    let (spec, nest) = nest::catalogue_nest(
        kernel,
        &[1, 2, 0],
        &["sz_j", "sz_l", "sz_i"],
        masked,
        &["j", "l", "i"],
    )?;
    if nest.full_branches == 0 {
        return Err(KernelError::Generation(format!(
            "no full-tile branch in the {} nest",
            kernel.name()
        )));
    }
    // Tiles along i (BLIS's ic loop) write disjoint rows of the result and read only
    // operands no tile writes: the i-tile loops carry no dependence.
    let fragment = if req.openmp {
        omp::parallelize(&nest.fragment, "t3", |_| {
            "sz_i * sz_j * sz_l >= PS_OMP_MIN".into()
        })
    } else {
        nest.fragment.clone()
    };
    let fname = req.kernel.function();
    let tag = &fname["polyscan_d".len()..];
    let mut s = header(req);
    s.push_str(&def.accessors);
    s.push_str(&runtime::blocked(tag, &def.ops));
    let [dm, dn, dk] = req.defaults;
    let body = c_body(spec.body);
    let full_call = format!(
        "do {{ if (packed) ps_{tag}_full(PS_BLK, (t3) * sz_i, (t1) * sz_j, (t2) * sz_l); \
         else for (int64_t ps_o1 = 0; ps_o1 < sz_j; ps_o1++) \
         for (int64_t ps_o2 = 0; ps_o2 < sz_l; ps_o2++) \
         for (int64_t ps_o3 = 0; ps_o3 < sz_i; ps_o3++) \
         S((t1) * sz_j + ps_o1, (t2) * sz_l + ps_o2, (t3) * sz_i + ps_o3); }} while (0)"
    );
    let [ei, ej, el] = def.extents;
    let mut part_macros = String::new();
    for (k, text) in nest.partial_nests.iter().enumerate() {
        let generic: Vec<&str> = text.lines().map(str::trim).collect();
        let _ = writeln!(
            part_macros,
            "#define PS_PART_{k}(t1, t2, t3) do {{ if (packed) ps_{tag}_part(PS_BLK, (t3) * sz_i, (t1) * sz_j, (t2) * sz_l); else {{ {} }} }} while (0)",
            generic.join(" ")
        );
    }
    let mut part_undefs = String::new();
    for k in 0..nest.partial_nests.len() {
        let _ = writeln!(part_undefs, "#undef PS_PART_{k}");
    }
    let _ = write!(
        s,
        r#"
/* {what}
   tile_sizes = {{size along i, j, l}} of the catalogue domain {domain}
   (i, j: rows and columns of the result, l: the reduction); values below 1 count as 1,
   values above an extent as the extent. */
void {fname}_tiled({args}, const int64_t *tile_sizes)
{{
{prologue}  {bind}
  /* Sizes beyond an extent are cut to it: the same instances, one full tile instead of a
     partial one, and pack buffers no larger than the operands. */
  const int64_t sz_i = tile_sizes[0] < 1 ? 1 : tile_sizes[0] > {ei} ? {ei} : tile_sizes[0];
  const int64_t sz_j = tile_sizes[1] < 1 ? 1 : tile_sizes[1] > {ej} ? {ej} : tile_sizes[1];
  const int64_t sz_l = tile_sizes[2] < 1 ? 1 : tile_sizes[2] > {el} ? {el} : tile_sizes[2];
  const ps_blk blk0 = {{ .a = {a}, .b = {b}, .lda = {lda}, .ldb = {ldb}, .c = {c}, .rs_c = {rs}, .cs_c = {cs}, .alpha = alpha,
                       .m = {ei}, .n = {ej}, .k = {el} }};
{blk_decl}#define S({iters}) {body}
#define PS_FULL(t1, t2, t3) {full_call}
{part_macros}{fragment}#undef S
#undef PS_FULL
{part_undefs}{blk_free}{epilogue}}}

/* Default tile sizes: the cache model's {{{dm}, {dn}, {dk}}} (mc, nc, kc), each moved
   within [s/2, s] to fit this call's extents (see ps_pick_size). */
void {fname}({args})
{{
  const int64_t ts[3] = {{ ps_pick_size({ei}, {dm}, PS_MR), ps_pick_size({ej}, {dn}, PS_NR),
                           ps_pick_size({el}, {dk}, 1) }};
  {fname}_tiled({call}, ts);
}}
"#,
        what = def.what,
        domain = spec.domain,
        args = def.args,
        call = def.call,
        prologue = def.prologue,
        bind = def.bind,
        epilogue = def.epilogue,
        a = def.blk[0],
        b = def.blk[1],
        lda = def.blk[2],
        ldb = def.blk[3],
        c = def.blk[4],
        rs = def.blk[5],
        cs = def.blk[6],
        iters = nest.iterators.join(", "),
        fragment = indent(&fragment, "  "),
        blk_decl = omp::state_decl(
            req.openmp,
            "ps_blk",
            "PS_BLK",
            "(*{p} = blk0, ps_blk_init({p}, sz_i, sz_j, sz_l))"
        ),
        blk_free = omp::state_free(req.openmp, "PS_BLK", "ps_blk_free"),
    );
    Ok(s)
}

pub(crate) fn header(req: &Request) -> String {
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
    s.push_str(
        "#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n",
    );
    if req.openmp {
        s.push_str(omp::PRELUDE);
    }
    s.push('\n');
    s.push_str(codegen::emit_c::HELPERS);
    s.push('\n');
    s.push_str(&runtime::common());
    s
}

pub(crate) fn indent(text: &str, pad: &str) -> String {
    text.lines()
        .map(|l| format!("{pad}{l}\n"))
        .collect::<String>()
}
