//! `--openmp`: the per-thread state of an emitted kernel (pack buffers are written by
//! every tile, so each thread owns a copy) and the `#pragma omp parallel for` lines put
//! in front of the tile loops that carry no dependence. Without `--openmp` the emitted
//! code names no OpenMP construct; with it, the code still compiles and runs serially
//! without -fopenmp (the pragmas are ignored and the thread count is 1).

use crate::loops::{loops_over, Piece};

/// Printed after the includes (`c/omp.h`): the thread id, the thread count of the next region
/// and that of the current one (`PS_TID`, `PS_NTHREADS`, `PS_TEAM`; 0, 1, 1 without -fopenmp).
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

/// One parallel region around the whole fragment (if `cond`, a C condition, holds), in
/// which every loop over `var` is a work-sharing loop handing out iterations one at a time
/// without a barrier after it: a thread done with the full tiles takes a partial one, where
/// separate parallel loops ran a lone partial tile on one thread while the others waited.
/// `None` when some statement of the fragment lies outside every loop over `var`: inside
/// the region every thread would run it.
pub fn parallelize_region(fragment: &str, var: &str, cond: &str) -> Option<String> {
    let out = share_loops(fragment, var)?;
    Some(format!(
        "#ifdef _OPENMP\n#pragma omp parallel if ({cond})\n#endif\n{{\n{out}}}\n"
    ))
}

/// The fragment with `#pragma omp for schedule(dynamic, 1) nowait` in front of every loop
/// over `var` (for a region the caller opens). `None` as for [`parallelize_region`].
fn share_loops(fragment: &str, var: &str) -> Option<String> {
    let head = format!("for (int64_t {var} = ");
    let indent = |l: &str| l.len() - l.trim_start().len();
    // The indentation of the loop over `var` the current line is in (the fragment is
    // printed with nested bodies indented further, closing braces at the loop's level).
    let mut open: Option<usize> = None;
    let mut out = String::new();
    for line in fragment.lines() {
        let trimmed = line.trim_start();
        if let Some(d) = open {
            if indent(line) <= d && !(indent(line) == d && trimmed.starts_with('}')) {
                open = None;
            }
        }
        if open.is_none() {
            if trimmed.starts_with(&head) {
                open = Some(indent(line));
                out.push_str(
                    "#ifdef _OPENMP\n#pragma omp for schedule(dynamic, 1) nowait\n#endif\n",
                );
            } else if !is_control(trimmed) {
                return None;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

/// Every loop over `outer` in one of two forms, chosen at run time: where `whole(lb)` holds
/// (`lb` the loop's lower bound: a C condition saying that the `var` iterations of all its
/// iterations are independent of each other), one parallel region (if `cond`) around the
/// loop, every thread running its header and the loops over `var` in it shared out one
/// iteration at a time with no barrier after them; otherwise the loop as `fallback`
/// prints it (its text given whole). For a factorisation's trailing updates: one fork per
/// block step instead of one per block column, and a thread done with one column's tiles
/// takes the next column's where each column's loop waited for its slowest tile (POTRF
/// at n = 5000 on two threads: 0.44-0.47 s against 0.51-0.53). `None` when a loop over
/// `outer` has a statement outside every loop over `var`, or no `for (... = LB; outer <=
/// UB; ...)` header.
pub fn parallelize_outer_regions(
    fragment: &str,
    outer: &str,
    var: &str,
    whole: impl Fn(&str) -> String,
    cond: &str,
    fallback: impl Fn(&str) -> String,
) -> Option<String> {
    rewrite_loops(
        fragment,
        outer,
        |_| true,
        |pad, header, body| {
            let (lb, _) = bounds(header.trim_start(), outer)?;
            let shared = share_loops(body, var)?;
            let whole_loop = format!("{pad}{header} {{\n{body}{pad}}}\n");
            Some(format!(
            "{pad}if ({}) {{\n#ifdef _OPENMP\n#pragma omp parallel if ({cond})\n#endif\n{pad}{header} {{\n{shared}{pad}}}\n{pad}}} else {{\n{}{pad}}}\n",
            whole(lb),
            fallback(&whole_loop)
        ))
        },
    )
}

/// `fragment` with each loop over `outer` (not nested in another) replaced by
/// `rewrite(pad, header, body)` (the body's lines each with its newline, no closing
/// brace) and every other line kept; `None` when `rewrite` refuses a loop or `keep` a line.
fn rewrite_loops(
    fragment: &str,
    outer: &str,
    keep: impl Fn(&str) -> bool,
    rewrite: impl Fn(&str, &str, &str) -> Option<String>,
) -> Option<String> {
    let lines: Vec<&str> = fragment.lines().collect();
    let mut out = String::new();
    for piece in loops_over(&lines, outer)? {
        match piece {
            Piece::Line(line) => {
                if !keep(line) {
                    return None;
                }
                out.push_str(line);
                out.push('\n');
            }
            Piece::Loop { pad, header, body } => {
                let body: String = body.iter().map(|l| format!("{l}\n")).collect();
                out.push_str(&rewrite(pad, header, &body)?);
            }
        }
    }
    Some(out)
}

/// The lower and upper bound (C text) of a printed loop header
/// `for (int64_t var = LB; var <= UB; var += 1)` (a trailing `{` allowed).
fn bounds<'a>(header: &'a str, var: &str) -> Option<(&'a str, &'a str)> {
    let rest = header.strip_prefix(&format!("for (int64_t {var} = "))?;
    let test = format!("; {var} <= ");
    let end = rest.find(&test)?;
    let after = &rest[end + test.len()..];
    let stop = after.find(&format!("; {var} += 1)"))?;
    Some((&rest[..end], &after[..stop]))
}

/// [`parallelize_region`] once per iteration of every loop over `outer`: each iteration's
/// body is its own parallel region (if `cond` holds; it may name `outer`), whose loops over
/// `var` hand out iterations one at a time without a barrier between them. For nests whose
/// `outer` steps depend on each other (a factorisation's block steps) while the `var`
/// iterations of one step do not. `None` when some statement lies outside the loops over
/// `outer`, or inside one of them outside every loop over `var`.
pub fn parallelize_regions_in(
    fragment: &str,
    outer: &str,
    var: &str,
    cond: &str,
) -> Option<String> {
    rewrite_loops(
        fragment,
        outer,
        |line| is_control(line.trim_start()),
        |pad, header, body| {
            let region = parallelize_region(body, var, cond)?;
            Some(format!("{pad}{header} {{\n{region}{pad}}}\n"))
        },
    )
}

/// The loops over `var` of a fragment that every thread of a parallel region runs whole
/// (the region is the caller's): the body of each loop over `var` is guarded by `owns`, a
/// C condition on `var` saying whether the calling thread owns that iteration. With a
/// fixed owner per iteration (a function of `var` alone, the same in every loop over
/// `var`), an iteration's work stays on one thread however often the enclosing loops
/// revisit it, so that no barrier is needed between them: a tile of the result updated at
/// every reduction step is updated in order, by one thread, while another thread's tiles
/// may be steps ahead. The other loops' headers run on every thread (they only count).
/// `None` when some statement of the fragment lies outside every loop over `var`: every
/// thread would run it.
pub fn parallelize_owned(fragment: &str, var: &str, owns: &str) -> Option<String> {
    let head = format!("for (int64_t {var} = ");
    let indent = |l: &str| l.len() - l.trim_start().len();
    // A control line whose statement is on the following lines (not `if (c) S;`).
    let header = |t: &str| {
        (t.starts_with("if (") || t.starts_with("for (")) && (t.ends_with(')') || t.ends_with('{'))
    };
    // The indentation of the loop over `var` the current line is in, and whether its body
    // (under the inserted `if`) is indented further.
    let mut open: Option<(usize, bool)> = None;
    let mut out = String::new();
    for line in fragment.lines() {
        let trimmed = line.trim_start();
        if let Some((d, _)) = open {
            if indent(line) <= d && !(indent(line) == d && trimmed.starts_with('}')) {
                open = None;
            }
        }
        if let Some((_, deeper)) = open {
            if deeper {
                out.push_str("  ");
            }
            out.push_str(line);
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if trimmed.starts_with(&head) && header(trimmed) {
            let pad = " ".repeat(indent(line) + 2);
            let braced = trimmed.ends_with('{');
            open = Some((indent(line), !braced));
            if braced {
                out.push_str(&format!("{pad}if (!({owns})) continue;\n"));
            } else {
                out.push_str(&format!("{pad}if ({owns})\n"));
            }
        } else if !(is_control(trimmed) || header(trimmed)) {
            return None;
        }
    }
    Some(out)
}

/// A line of a fragment that does nothing by itself: blank, a brace, `else`, or the head of
/// an `if` whose statement is on the following lines (`if (c) S;` is a statement: in a
/// parallel region outside the shared loops, every thread would run it).
fn is_control(t: &str) -> bool {
    t.is_empty()
        || t == "{"
        || t == "}"
        || t.starts_with("} else")
        || t == "else"
        || (t.starts_with("if (") && (t.ends_with(')') || t.ends_with('{')))
}

fn parallelize_scheduled(
    fragment: &str,
    var: &str,
    schedule: &str,
    cond: impl Fn(&str) -> String,
) -> String {
    let mut out = String::new();
    for line in fragment.lines() {
        if let Some((lb, ub)) = bounds(line.trim_start(), var) {
            // Guarded, so that -Wall without -fopenmp has no unknown pragma to report.
            out.push_str(&format!(
                "#ifdef _OPENMP\n#pragma omp parallel for{schedule} if (({ub}) > ({lb}) && {})\n#endif\n",
                cond(lb)
            ));
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOPS: &str = "if (n >= 1) {\n  for (int64_t t1 = 0; t1 <= a; t1 += 1)\n    S(t1);\n  for (int64_t t1 = a + 1; t1 <= b; t1 += 1) {\n    for (int64_t t2 = 0; t2 <= c; t2 += 1)\n      S(t1);\n  }\n}\n";

    #[test]
    fn a_region_shares_every_loop_over_the_variable() {
        let region =
            parallelize_region(LOOPS, "t1", "n > 1").expect("every statement in a t1 loop");
        assert_eq!(
            region
                .matches("#pragma omp for schedule(dynamic, 1) nowait")
                .count(),
            2
        );
        assert_eq!(region.matches("#pragma omp parallel if (n > 1)").count(), 1);
        assert_eq!(region.matches("S(t1);").count(), 2);
    }

    #[test]
    fn each_outer_iteration_is_its_own_region() {
        let nested = "if (n >= 1) {\n  for (int64_t t1 = 0; t1 <= a; t1 += 1)\n    for (int64_t t2 = 0; t2 <= c; t2 += 1)\n      S(t1, t2);\n  for (int64_t t1 = a + 1; t1 <= b; t1 += 1) {\n    for (int64_t t2 = 0; t2 <= c; t2 += 1)\n      S(t1, t2);\n    for (int64_t t2 = c + 1; t2 <= d; t2 += 1)\n      S(t1, t2);\n  }\n}\n";
        let regions = parallelize_regions_in(nested, "t1", "t2", "go(t1)").expect("only loops");
        assert_eq!(
            regions.matches("#pragma omp parallel if (go(t1))").count(),
            2
        );
        assert_eq!(
            regions
                .matches("#pragma omp for schedule(dynamic, 1) nowait")
                .count(),
            3
        );
        // Each region sits inside its t1 loop, and the statements are all kept.
        let first = regions.find("for (int64_t t1 = 0;").expect("first t1 loop");
        assert!(regions[first..].find("#pragma omp parallel") > Some(0));
        assert_eq!(regions.matches("S(t1, t2);").count(), 3);
        assert_eq!(regions.matches('{').count(), regions.matches('}').count());
        // A statement in a t1 loop outside the t2 loops would run on every thread.
        let stray = nested.replace("  }\n}\n", "    S(t1, 0);\n  }\n}\n");
        assert_eq!(parallelize_regions_in(&stray, "t1", "t2", "1"), None);
    }

    #[test]
    fn owned_loops_guard_their_bodies_and_keep_the_others() {
        let nested = "if (n >= 1) {\n  for (int64_t t1 = 0; t1 <= a; t1 += 1) {\n    for (int64_t t3 = 0; t3 <= c; t3 += 1)\n      S(t1, t3);\n    for (int64_t t3 = c + 1; t3 <= d; t3 += 1) {\n      S(t1, t3);\n    }\n  }\n}\n";
        let owned =
            parallelize_owned(nested, "t3", "MINE(t3)").expect("every statement in a t3 loop");
        assert_eq!(
            owned
                .matches("      if (MINE(t3))\n        S(t1, t3);")
                .count(),
            1
        );
        assert_eq!(owned.matches("if (!(MINE(t3))) continue;").count(), 1);
        assert_eq!(owned.matches("S(t1, t3);").count(), 2);
        assert!(owned.contains("for (int64_t t1 = 0; t1 <= a; t1 += 1) {\n    for"));
        let outside = nested.replace("  }\n}\n", "    S(t1, 0);\n  }\n}\n");
        assert_eq!(parallelize_owned(&outside, "t3", "1"), None);
        let inline_if = format!("{nested}if (n > 2) S(0, 0);\n");
        assert_eq!(parallelize_owned(&inline_if, "t3", "1"), None);
    }

    #[test]
    fn outer_loops_choose_a_region_or_the_fallback_at_run_time() {
        let nested = "for (int64_t t1 = 0; t1 <= a; t1 += 1) {\n  for (int64_t t2 = t1; t2 <= t1; t2 += 1)\n    for (int64_t t3 = t2; t3 <= c; t3 += 1)\n      S(t1, t2, t3);\n  for (int64_t t2 = t1 + 1; t2 <= c; t2 += 1) {\n    for (int64_t t3 = t2; t3 <= c - 1; t3 += 1)\n      S(t1, t2, t3);\n    for (int64_t t3 = c; t3 <= c; t3 += 1)\n      S(t1, t2, t3);\n  }\n}\n";
        let out = parallelize_outer_regions(
            nested,
            "t2",
            "t3",
            |lb| format!("PAST(t1, {lb})"),
            "BIG",
            |text| format!("FALLBACK\n{text}"),
        )
        .expect("every statement of a t2 loop in a t3 loop");
        // One test per t2 loop, on its own lower bound; the region and the fallback each
        // hold the whole loop.
        assert!(out.contains("  if (PAST(t1, t1)) {\n"));
        assert!(out.contains("  if (PAST(t1, t1 + 1)) {\n"));
        assert_eq!(out.matches("#pragma omp parallel if (BIG)").count(), 2);
        assert_eq!(
            out.matches("#pragma omp for schedule(dynamic, 1) nowait")
                .count(),
            3
        );
        assert_eq!(out.matches("FALLBACK").count(), 2);
        assert_eq!(out.matches("S(t1, t2, t3);").count(), 6);
        assert_eq!(out.matches('{').count(), out.matches('}').count());
        // The region's pragma stands right before the t2 loop it shares.
        assert!(out.contains("#endif\n  for (int64_t t2 = t1 + 1; t2 <= c; t2 += 1) {\n#ifdef"));
        let stray = nested.replace(
            "      S(t1, t2, t3);\n  }\n}",
            "      S(t1, t2, t3);\n    S(t1, t2, 0);\n  }\n}",
        );
        let refused =
            parallelize_outer_regions(&stray, "t2", "t3", |_| "1".into(), "1", |t| t.into());
        assert_eq!(refused, None);
    }

    #[test]
    fn a_statement_outside_the_loops_refuses_a_region() {
        let outside = format!("{LOOPS}S(0);\n");
        assert_eq!(parallelize_region(&outside, "t1", "1"), None);
        let after_loop = LOOPS.replace("    S(t1);\n  for", "    S(t1);\n  S(1);\n  for");
        assert_eq!(parallelize_region(&after_loop, "t1", "1"), None);
        // An `if` with its statement on the same line is a statement too.
        let inline_if = format!("{LOOPS}if (n > 2) S(0);\n");
        assert_eq!(parallelize_region(&inline_if, "t1", "1"), None);
    }
}
