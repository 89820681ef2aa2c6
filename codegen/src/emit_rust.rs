//! Rust emission: a function `scan(params..., statements...)` taking one closure per
//! statement, equivalent to the C output (same exact helpers, same bounds).

use crate::ast::Node;
use crate::emit_c::CEmitter;
use polys::CPrintError;
use std::fmt::Write;

/// The helpers in Rust: `d > 0` in divisions, `n >= 0` in square roots.
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
fn ps_ceil_sqrt(n: i64) -> i64 { let s = ps_isqrt(n); if s * s == n { s } else { s + 1 } }
#[allow(dead_code)]
fn ps_pow_le(b: i64, k: i32, n: i64) -> bool {
    let mut r: i64 = 1;
    for _ in 0..k { if b != 0 && r > n / b { return false; } r *= b; }
    true
}
#[allow(dead_code)]
fn ps_iroot(n: i64, k: i32) -> i64 {
    if n < 2 { return n; }
    let (mut lo, mut hi) = (1i64, 2i64);
    while ps_pow_le(hi, k, n) { lo = hi; hi *= 2; }
    while hi - lo > 1 { let mid = lo + (hi - lo) / 2; if ps_pow_le(mid, k, n) { lo = mid; } else { hi = mid; } }
    lo
}
#[allow(dead_code)]
fn ps_ceil_iroot(n: i64, k: i32) -> i64 { let s = ps_iroot(n, k); if s.pow(k as u32) == n { s } else { s + 1 } }
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
    for n in nodes {
        node(c, n, 1, &mut out)?;
    }
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
            let args: Result<Vec<String>, _> = args.iter().map(|a| c.expr(a)).collect();
            let name = closure_name(&c.statements[*stmt].0);
            let _ = writeln!(out, "{pad}{name}({});", args?.join(", "));
        }
        Node::Loop {
            var,
            lower,
            upper,
            body,
        } => {
            let x = c.vars.name(*var);
            let _ = writeln!(
                out,
                "{pad}for {x} in ({})..=({}) {{",
                c.expr(lower)?,
                c.expr(upper)?
            );
            for b in body {
                node(c, b, depth + 1, out)?;
            }
            let _ = writeln!(out, "{pad}}}");
        }
        Node::Guard {
            var,
            lower,
            upper,
            body,
        } => {
            let conds = c.guard_conditions(*var, lower, upper)?;
            let _ = writeln!(out, "{pad}if {} {{", conds.join(" && "));
            for b in body {
                node(c, b, depth + 1, out)?;
            }
            let _ = writeln!(out, "{pad}}}");
        }
    }
    Ok(())
}
