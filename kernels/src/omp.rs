//! `--openmp`: the per-thread state of an emitted kernel (pack buffers are written by
//! every tile, so each thread owns a copy) and the `#pragma omp parallel for` lines put
//! in front of the tile loops that carry no dependence. Without `--openmp` the emitted
//! code names no OpenMP construct; with it, the code still compiles and runs serially
//! without -fopenmp (the pragmas are ignored and the thread count is 1).

/// Printed after the includes (`c/omp.h`): the thread id and count, 0 and 1 without -fopenmp.
/// `PS_OMP_MIN`: the least work (multiply-adds) per parallel iteration for a loop to go
/// parallel; a fork and join costs microseconds, more on a loaded machine, so loops over
/// small tiles stay serial. Overridable with -DPS_OMP_MIN=...
pub const PRELUDE: &str = include_str!("c/omp.h");

/// Declares the per-call state of type `ty` (one per thread with `openmp`), the macro
/// `name` for the calling thread's copy, and `int packed` (whether every copy's
/// `init` succeeded; `init` is a C expression in `{p}`, a pointer to the copy).
pub fn state_decl(openmp: bool, ty: &str, name: &str, init: &str) -> String {
    if openmp {
        let init = init.replace("{p}", "&ps_st[ps_ninit]");
        format!(
            "  /* One state per thread: tiles running at the same time pack into their own buffers. */\n\
             \x20 const int ps_nthr = PS_NTHREADS;\n\
             \x20 {ty} *ps_st = malloc(sizeof({ty}) * (size_t)ps_nthr);\n\
             \x20 int packed = ps_st != NULL, ps_ninit = 0;\n\
             \x20 while (packed && ps_ninit < ps_nthr) {{\n\
             \x20   if ({init}) ps_ninit++;\n\
             \x20   else packed = 0;\n\
             \x20 }}\n\
             #define {name} (&ps_st[PS_TID])\n"
        )
    } else {
        let init = init.replace("{p}", "&ps_st");
        format!(
            "  {ty} ps_st;\n\
             \x20 /* Without buffers, every tile runs the catalogue body. */\n\
             \x20 const int packed = {init};\n\
             #define {name} (&ps_st)\n"
        )
    }
}

/// Frees what [`state_decl`] allocated (`free` releases one copy's buffers).
pub fn state_free(openmp: bool, name: &str, free: &str) -> String {
    if openmp {
        format!(
            "#undef {name}\n  for (int ps_t = 0; ps_t < ps_ninit; ps_t++) {free}(&ps_st[ps_t]);\n  free(ps_st);\n"
        )
    } else {
        format!("#undef {name}\n  if (packed) {free}(&ps_st);\n")
    }
}

/// Puts `#pragma omp parallel for` in front of every loop over `var` in the generated
/// fragment. `cond` gets the loop's lower bound (C text) and returns the run-time
/// condition of the `if` clause (besides: at least two iterations; the loop runs in
/// parallel only when both hold); loops in the fragment have the form
/// `for (int64_t var = LB; var <= UB; var += 1)`.
pub fn parallelize(fragment: &str, var: &str, cond: impl Fn(&str) -> String) -> String {
    parallelize_scheduled(fragment, var, "", cond)
}

/// [`parallelize`] with iterations handed out one at a time as threads become free
/// (`schedule(dynamic, 1)`): for loops whose iterations differ much in work, where the
/// default static split gives one thread most of it (TRTRI's column blocks: the first
/// has the most rows below the diagonal).
pub fn parallelize_dynamic(fragment: &str, var: &str, cond: impl Fn(&str) -> String) -> String {
    parallelize_scheduled(fragment, var, " schedule(dynamic, 1)", cond)
}

fn parallelize_scheduled(
    fragment: &str,
    var: &str,
    schedule: &str,
    cond: impl Fn(&str) -> String,
) -> String {
    let head = format!("for (int64_t {var} = ");
    let test = format!("; {var} <= ");
    let mut out = String::new();
    for line in fragment.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(&head) {
            let bounds = rest.find(&test).and_then(|end| {
                let after = &rest[end + test.len()..];
                let stop = after.find(&format!("; {var} += 1)"))?;
                Some((&rest[..end], &after[..stop]))
            });
            if let Some((lb, ub)) = bounds {
                // Guarded, so that -Wall without -fopenmp has no unknown pragma to report.
                out.push_str(&format!(
                    "#ifdef _OPENMP\n#pragma omp parallel for{schedule} if (({ub}) > ({lb}) && {})\n#endif\n",
                    cond(lb)
                ));
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
