//! Rust emission: a function `scan(params..., statements...)` taking one closure per
//! statement, equivalent to the C output (same exact helpers, same bounds).

use crate::ast::{branches, Branch, Node};
use crate::c_ast::Lang;
use crate::checked::{render_checked, string_literal, CheckedError};
use crate::emit_c::CEmitter;
use polys::CPrintError;
use std::fmt::Write;

/// The helpers in Rust: `d > 0` in divisions; roots of negative arguments as in C (an
/// even root -1 rounded down, 0 rounded up; an odd root the real one).
pub const HELPERS: &str = r#"#[allow(dead_code)]
fn ps_floord(n: i64, d: i64) -> i64 { n.div_euclid(d) }
#[allow(dead_code)]
fn ps_ceild(n: i64, d: i64) -> i64 { -(-n).div_euclid(d) }
#[allow(dead_code)]
fn ps_max(a: i64, b: i64) -> i64 { a.max(b) }
#[allow(dead_code)]
fn ps_min(a: i64, b: i64) -> i64 { a.min(b) }
#[allow(dead_code)]
fn ps_isqrt(n: i64) -> i64 {
    if n < 0 { return -1; }
    if n < 2 { return n; }
    // Newton's iteration from above on integers converges to floor(sqrt(n)).
    let x = n as u64;
    let mut r = 1u64 << ((64 - x.leading_zeros() + 1) / 2);
    loop {
        let y = (r + x / r) / 2;
        if y >= r { return r as i64; }
        r = y;
    }
}
#[allow(dead_code)]
fn ps_ceil_sqrt(n: i64) -> i64 { if n <= 0 { return 0; } let s = ps_isqrt(n); if s * s == n { s } else { s + 1 } }
#[allow(dead_code)]
fn ps_pow_le(b: i64, k: i32, n: i64) -> bool {
    let mut r: i64 = 1;
    for _ in 0..k { if b != 0 && r > n / b { return false; } r *= b; }
    true
}
#[allow(dead_code)]
fn ps_iroot(n: i64, k: i32) -> i64 {
    if n < 0 { return if k % 2 == 0 { -1 } else { -ps_ceil_iroot(-n, k) }; }
    if n < 2 { return n; }
    let (mut lo, mut hi) = (1i64, 2i64);
    while ps_pow_le(hi, k, n) { lo = hi; hi *= 2; }
    while hi - lo > 1 { let mid = lo + (hi - lo) / 2; if ps_pow_le(mid, k, n) { lo = mid; } else { hi = mid; } }
    lo
}
#[allow(dead_code)]
fn ps_ceil_iroot(n: i64, k: i32) -> i64 { if n < 0 { return if k % 2 == 0 { 0 } else { -ps_iroot(-n, k) }; } let s = ps_iroot(n, k); if s.pow(k as u32) == n { s } else { s + 1 } }
#[allow(dead_code)]
fn ps_poly_sign(c: &[i64], y: i64) -> i32 {
    let mut acc: i128 = c[c.len() - 1] as i128;
    for &ci in c[..c.len() - 1].iter().rev() {
        acc = acc.checked_mul(y as i128).and_then(|t| t.checked_add(ci as i128)).expect("128-bit overflow in a loop bound");
    }
    acc.signum() as i32
}
#[allow(dead_code)]
fn ps_root_search(_deg: i32, c: &[i64], lo: i64, hi: i64, before: i32, ceil: i32) -> i64 {
    // Same search as the C helper: gallop from the integer nearest 0, then bisect.
    if lo >= hi { return if ceil != 0 { lo + 1 } else { lo }; }
    let s = (0i64).clamp(lo + 1, hi);
    let (mut a, mut b, mut ans);
    if ps_poly_sign(c, s) == before {
        let (mut step, mut last) = (1i64, s);
        loop {
            let y = if hi - last <= step { hi } else { last + step };
            if ps_poly_sign(c, y) != before { a = last + 1; b = y - 1; ans = last; break; }
            if y == hi { a = 1; b = 0; ans = hi; break; }
            last = y; step *= 2;
        }
    } else {
        let (mut step, mut last) = (1i64, s);
        loop {
            let y = if last - (lo + 1) <= step { lo + 1 } else { last - step };
            if y < last && ps_poly_sign(c, y) == before { a = y + 1; b = last - 1; ans = y; break; }
            if y >= last || y == lo + 1 { a = 1; b = 0; ans = lo; break; }
            last = y; step *= 2;
        }
    }
    while a <= b { let mid = a + (b - a) / 2; if ps_poly_sign(c, mid) == before { ans = mid; a = mid + 1; } else { b = mid - 1; } }
    if ans < hi && ps_poly_sign(c, ans + 1) == 0 { return ans + 1; }
    if ceil != 0 { ans + 1 } else { ans }
}
"#;

/// Prints the Rust function; reuses the C printer's expressions, which are valid Rust
/// for `i64` operands.
pub fn function(c: &CEmitter, nodes: &[Node]) -> Result<String, CPrintError> {
    let mut out = String::from(HELPERS);
    let mut params: Vec<String> = (0..c.nparams)
        .map(|v| format!("{}: i64", c.vars.name(v)))
        .collect();
    for (name, arity) in c.statements {
        let args = vec!["i64"; *arity].join(", ");
        params.push(format!("{}: &mut impl FnMut({args})", closure_name(name)));
    }
    let _ = writeln!(
        out,
        "\n#[allow(unused_variables, clippy::all)]\npub fn scan({}) {{",
        params.join(", ")
    );
    list(c, nodes, 1, &mut out)?;
    out.push_str("}\n");
    Ok(out)
}

/// The closure parameter of a statement: its name in lower case (Rust style).
pub fn closure_name(stmt: &str) -> String {
    format!("stmt_{}", stmt.to_lowercase())
}

fn node(c: &CEmitter, n: &Node, depth: usize, out: &mut String) -> Result<(), CPrintError> {
    let pad = "    ".repeat(depth);
    match n {
        Node::Stmt { stmt, args } => {
            let args: Result<Vec<String>, _> = args.iter().map(|a| expr(c, a)).collect();
            let name = closure_name(&c.statements[*stmt].0);
            let _ = writeln!(out, "{pad}{name}({});", args?.join(", "));
        }
        Node::Loop {
            var,
            lower,
            upper,
            step,
            body,
        } => {
            let x = c.vars.name(*var);
            let range = format!("({})..=({})", expr(c, lower)?, expr(c, upper)?);
            let range = if *step > 1 {
                format!("({range}).step_by({step})")
            } else {
                range
            };
            let _ = writeln!(out, "{pad}for {x} in {range} {{");
            list(c, body, depth + 1, out)?;
            let _ = writeln!(out, "{pad}}}");
        }
        Node::Guard { .. } => guard(c, n, depth, out, Branch::Alone, false)?,
        Node::Test { cond, body } => {
            let _ = writeln!(out, "{pad}if {} {{", cond.text(&mut |e| expr(c, e))?);
            list(c, body, depth + 1, out)?;
            let _ = writeln!(out, "{pad}}}");
        }
    }
    Ok(())
}

/// The nodes of a list, with the C printer's `if`/`else if`/`else` chains.
fn list(c: &CEmitter, nodes: &[Node], depth: usize, out: &mut String) -> Result<(), CPrintError> {
    let kinds = branches(nodes);
    for (i, n) in nodes.iter().enumerate() {
        let continued = kinds.get(i + 1).is_some_and(|k| *k != Branch::Alone);
        match kinds[i] {
            Branch::Alone if !continued => node(c, n, depth, out)?,
            branch => guard(c, n, depth, out, branch, continued)?,
        }
    }
    Ok(())
}

/// A guard (one `if` per chain of single-child guards, as in C), or the `else if`/`else`
/// after the `}` of the guard before it.
fn guard(
    c: &CEmitter,
    n: &Node,
    depth: usize,
    out: &mut String,
    branch: Branch,
    continued: bool,
) -> Result<(), CPrintError> {
    let pad = "    ".repeat(depth);
    let Some((chain, body)) = n.guard_chain() else {
        unreachable!("only guards come here")
    };
    let mut conds = Vec::new();
    for (var, lower, upper) in chain {
        conds.extend(c.guard_conditions_in(var, lower, upper, Lang::Rust)?);
    }
    let conds = conds.join(" && ");
    match branch {
        Branch::Alone => {
            let _ = write!(out, "{pad}if {conds} {{");
        }
        Branch::ElseIf => {
            let _ = write!(out, " else if {conds} {{");
        }
        Branch::Else => out.push_str(" else {"),
    }
    out.push('\n');
    list(c, body, depth + 1, out)?;
    let _ = write!(out, "{pad}}}");
    if !continued {
        out.push('\n');
    }
    Ok(())
}

/// The C printer's expression for `e`, printed as Rust: the same text except for the
/// coefficient arrays of root searches, `&[a, b]` for C99's `(const int64_t[]){a, b}`.
fn expr(c: &CEmitter, e: &crate::expr::Expr) -> Result<String, CPrintError> {
    Ok(c.c_ast(e)?.text(c.vars, Lang::Rust))
}

/// The checked helpers of `--emit rust --check-overflow`, after [`HELPERS`]: the same
/// computations with `checked_*` arithmetic; an overflow panics with what overflowed and
/// the generated code's line and expression.
pub const CHECKED_HELPERS: &str = r#"#[allow(dead_code)]
fn ps_fail(what: &str, site: &str) -> ! { panic!("polyscan: {} at {}", what, site) }
#[allow(dead_code)]
fn ps_add_ck(a: i64, b: i64, site: &str) -> i64 { a.checked_add(b).unwrap_or_else(|| ps_fail("i64 overflow in a + b", site)) }
#[allow(dead_code)]
fn ps_sub_ck(a: i64, b: i64, site: &str) -> i64 { a.checked_sub(b).unwrap_or_else(|| ps_fail("i64 overflow in a - b", site)) }
#[allow(dead_code)]
fn ps_mul_ck(a: i64, b: i64, site: &str) -> i64 { a.checked_mul(b).unwrap_or_else(|| ps_fail("i64 overflow in a * b", site)) }
#[allow(dead_code)]
fn ps_neg_ck(a: i64, site: &str) -> i64 { a.checked_neg().unwrap_or_else(|| ps_fail("i64 overflow in -a", site)) }
#[allow(dead_code)]
fn ps_floord_ck(n: i64, d: i64, site: &str) -> i64 {
    if d <= 0 { ps_fail("ps_floord: divisor is not positive", site); }
    n.div_euclid(d)
}
#[allow(dead_code)]
fn ps_ceild_ck(n: i64, d: i64, site: &str) -> i64 {
    if d <= 0 { ps_fail("ps_ceild: divisor is not positive", site); }
    -n.checked_neg().unwrap_or_else(|| ps_fail("i64 overflow in ps_ceild (-n)", site)).div_euclid(d)
}
#[allow(dead_code)]
fn ps_ceil_sqrt_ck(n: i64, site: &str) -> i64 {
    if n <= 0 { return 0; }
    let s = ps_isqrt(n);
    match s.checked_mul(s) { Some(q) if q == n => s, Some(_) => s + 1, None => ps_fail("i64 overflow in ps_ceil_sqrt (s * s)", site) }
}
#[allow(dead_code)]
fn ps_iroot_ck(n: i64, k: i32, site: &str) -> i64 {
    if n < 0 { return if k % 2 == 0 { -1 } else { -ps_ceil_iroot_ck(ps_neg_ck(n, site), k, site) }; }
    if n < 2 { return n; }
    let (mut lo, mut hi) = (1i64, 2i64);
    while ps_pow_le(hi, k, n) { lo = hi; hi = hi.checked_mul(2).unwrap_or_else(|| ps_fail("i64 overflow in ps_iroot (hi * 2)", site)); }
    while hi - lo > 1 { let mid = lo + (hi - lo) / 2; if ps_pow_le(mid, k, n) { lo = mid; } else { hi = mid; } }
    lo
}
#[allow(dead_code)]
fn ps_ceil_iroot_ck(n: i64, k: i32, site: &str) -> i64 {
    if n < 0 { return if k % 2 == 0 { 0 } else { -ps_iroot_ck(ps_neg_ck(n, site), k, site) }; }
    let s = ps_iroot_ck(n, k, site);
    match s.checked_pow(k as u32) { Some(p) if p == n => s, Some(_) => s + 1, None => ps_fail("i64 overflow in ps_ceil_iroot (s^k)", site) }
}
#[allow(dead_code)]
fn ps_poly_sign_ck(c: &[i64], y: i64, site: &str) -> i32 {
    let mut acc: i128 = c[c.len() - 1] as i128;
    for &ci in c[..c.len() - 1].iter().rev() {
        acc = acc.checked_mul(y as i128).and_then(|t| t.checked_add(ci as i128))
            .unwrap_or_else(|| ps_fail("i128 overflow in ps_root_search (polynomial value)", site));
    }
    acc.signum() as i32
}
#[allow(dead_code)]
fn ps_root_search_ck(_deg: i32, c: &[i64], lo: i64, hi: i64, before: i32, ceil: i32, site: &str) -> i64 {
    // ps_root_search with every step checked.
    let add = |a: i64, b: i64| ps_add_ck(a, b, site);
    let sub = |a: i64, b: i64| ps_sub_ck(a, b, site);
    let sign = |y: i64| ps_poly_sign_ck(c, y, site);
    if lo >= hi { return if ceil != 0 { add(lo, 1) } else { lo }; }
    let lo1 = add(lo, 1);
    let s = (0i64).clamp(lo1, hi);
    let (mut a, mut b, mut ans);
    if sign(s) == before {
        let (mut step, mut last) = (1i64, s);
        loop {
            let y = if sub(hi, last) <= step { hi } else { add(last, step) };
            if sign(y) != before { a = add(last, 1); b = sub(y, 1); ans = last; break; }
            if y == hi { a = 1; b = 0; ans = hi; break; }
            last = y; step = ps_mul_ck(step, 2, site);
        }
    } else {
        let (mut step, mut last) = (1i64, s);
        loop {
            let y = if sub(last, lo1) <= step { lo1 } else { sub(last, step) };
            if y < last && sign(y) == before { a = add(y, 1); b = sub(last, 1); ans = y; break; }
            if y >= last || y == lo1 { a = 1; b = 0; ans = lo; break; }
            last = y; step = ps_mul_ck(step, 2, site);
        }
    }
    while a <= b { let mid = add(a, sub(b, a) / 2); if sign(mid) == before { ans = mid; a = add(mid, 1); } else { b = sub(mid, 1); } }
    if ans < hi && sign(add(ans, 1)) == 0 { return add(ans, 1); }
    if ceil != 0 { add(ans, 1) } else { ans }
}
"#;

/// [`function`] with checked arithmetic (`--check-overflow`): every operation of every
/// bound, guard and statement argument goes through a `ps_*_ck` helper of
/// [`CHECKED_HELPERS`], which panics with the expression and its output line on overflow.
/// `header` (complete comment lines) goes first, counted in those line numbers.
pub fn function_checked(
    c: &CEmitter,
    nodes: &[Node],
    header: &str,
) -> Result<String, CheckedError> {
    let mut out = RustLines {
        text: String::new(),
        line: 1,
    };
    out.push(header);
    if !header.is_empty() && !header.ends_with('\n') {
        out.push("\n");
    }
    out.push(HELPERS);
    out.push(CHECKED_HELPERS);
    let mut params: Vec<String> = (0..c.nparams)
        .map(|v| format!("{}: i64", c.vars.name(v)))
        .collect();
    for (name, arity) in c.statements {
        let args = vec!["i64"; *arity].join(", ");
        params.push(format!("{}: &mut impl FnMut({args})", closure_name(name)));
    }
    out.push(&format!(
        "\n#[allow(unused_variables, clippy::all)]\npub fn scan({}) {{\n",
        params.join(", ")
    ));
    for n in nodes {
        checked_node(c, n, 1, &mut out)?;
    }
    out.push("}\n");
    Ok(out.text)
}

/// Output text with its line count.
struct RustLines {
    text: String,
    line: usize,
}

impl RustLines {
    fn push(&mut self, s: &str) {
        self.line += s.matches('\n').count();
        self.text.push_str(s);
    }
}

fn checked_expr(
    c: &CEmitter,
    e: &crate::expr::Expr,
    what: &str,
    out: &RustLines,
) -> Result<String, CheckedError> {
    let ast = c.c_ast(e).map_err(|e| CheckedError::Print(e.to_string()))?;
    let site = string_literal(&format!(
        "line {} of the generated code, {what}: {}",
        out.line,
        ast.text(c.vars, Lang::Rust)
    ));
    Ok(render_checked(&ast.folded(), &site, c.vars, Lang::Rust))
}

fn checked_node(
    c: &CEmitter,
    n: &Node,
    depth: usize,
    out: &mut RustLines,
) -> Result<(), CheckedError> {
    let pad = "    ".repeat(depth);
    match n {
        Node::Stmt { stmt, args } => {
            let stmt_name = &c.statements[*stmt].0;
            let args: Result<Vec<String>, _> = args
                .iter()
                .enumerate()
                .map(|(k, a)| {
                    checked_expr(c, a, &format!("argument {} of {stmt_name}", k + 1), out)
                })
                .collect();
            let name = closure_name(stmt_name);
            out.push(&format!("{pad}{name}({});\n", args?.join(", ")));
        }
        Node::Loop {
            var,
            lower,
            upper,
            step,
            body,
        } => {
            let x = c.vars.name(*var);
            let lo = checked_expr(c, lower, &format!("lower bound of the loop over {x}"), out)?;
            let hi = checked_expr(c, upper, &format!("upper bound of the loop over {x}"), out)?;
            // Rust's inclusive ranges never step past their end, so a stride cannot
            // overflow the loop variable.
            let range = if *step > 1 {
                format!("(({lo})..=({hi})).step_by({step})")
            } else {
                format!("({lo})..=({hi})")
            };
            out.push(&format!("{pad}for {x} in {range} {{\n"));
            for b in body {
                checked_node(c, b, depth + 1, out)?;
            }
            out.push(&format!("{pad}}}\n"));
        }
        Node::Guard { .. } => {
            let Some((chain, body)) = n.guard_chain() else {
                unreachable!("a guard has a chain")
            };
            let mut conds = Vec::new();
            for (var, lower, upper) in chain {
                let p = c.vars.name(var);
                if let Some(l) = lower {
                    conds.push(format!(
                        "{p} >= {}",
                        checked_expr(c, l, &format!("guard {p} >= ..."), out)?
                    ));
                }
                if let Some(u) = upper {
                    conds.push(format!(
                        "{p} <= {}",
                        checked_expr(c, u, &format!("guard {p} <= ..."), out)?
                    ));
                }
            }
            out.push(&format!("{pad}if {} {{\n", conds.join(" && ")));
            for b in body {
                checked_node(c, b, depth + 1, out)?;
            }
            out.push(&format!("{pad}}}\n"));
        }
        Node::Test { cond, body } => {
            let text = cond.text(&mut |e| checked_expr(c, e, "condition", out))?;
            out.push(&format!("{pad}if {text} {{\n"));
            for b in body {
                checked_node(c, b, depth + 1, out)?;
            }
            out.push(&format!("{pad}}}\n"));
        }
    }
    Ok(())
}
