//! The loop nest of a blocked kernel: the catalogue domain with its iterators permuted
//! into the blocking order, tiled with parametric sizes by the tiling machinery, scanned
//! by codegen's linear scanner with full/partial tile separation, and with the
//! full-tile branch's point loops replaced by one call `PS_FULL(t...)` so that a
//! register-blocked micro-kernel can run there (and, on request, each partial nest by
//! `PS_PART_<k>(t...)`, its generic code kept as text for the caller).
//!
//! Why a post-pass on the AST: codegen has no hook for the full-tile body. The full-tile
//! branch is recognised structurally (see [`replace_point_nests`]); a codegen hook that
//! hands back the full-tile body would make this pass unnecessary.

use crate::loops::{loops_over, Piece};
use codegen::ast::Node;
use codegen::emit_c::CEmitter;
use codegen::expr::Expr;
use codegen::input::parse_problem;
use codegen::{Pipeline, Tiling};
use polys::Poly;
use std::collections::BTreeSet;

/// What the C printer needs from a blocked nest.
pub struct Nest {
    /// The C fragment: parameters and size names are `int64_t` variables in scope,
    /// partial-tile instances call the macro `S(...)` with the iterators in the permuted
    /// order, full tiles call `PS_FULL(t...)` with the tile coordinates in loop order.
    pub fragment: String,
    /// The permuted iterator names, in the order `S` receives them.
    pub iterators: Vec<String>,
    /// Parameter names of the domain, in its order.
    pub params: Vec<String>,
    /// How many full-tile branches were found (1 for rectangular domains).
    pub full_branches: usize,
    /// With `partial`: the point nests of partial tiles, replaced in the fragment by
    /// `PS_PART_<k>(t...)`, each as a C fragment (the generic code for tile `t`).
    pub partial_nests: Vec<String>,
}

/// The domain text with its tuple reordered: `order[p]` is the catalogue position of the
/// iterator that becomes loop `p`. Reordering the tuple permutes the loop order without
/// touching the constraints (they refer to iterators by name).
pub fn permute_domain(domain: &str, order: &[usize]) -> Result<(String, Vec<String>), String> {
    let open = domain
        .find("S[")
        .ok_or_else(|| format!("no statement tuple S[...] in '{domain}'"))?;
    let close = domain[open..]
        .find(']')
        .map(|c| open + c)
        .ok_or_else(|| format!("unterminated tuple in '{domain}'"))?;
    let names: Vec<String> = domain[open + 2..close]
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let mut seen = vec![false; names.len()];
    if order.len() != names.len() || order.iter().any(|&o| o >= names.len()) {
        return Err(format!("bad iterator order {order:?} for '{domain}'"));
    }
    for &o in order {
        if std::mem::replace(&mut seen[o], true) {
            return Err(format!("iterator order {order:?} repeats {o}"));
        }
    }
    let permuted: Vec<String> = order.iter().map(|&o| names[o].clone()).collect();
    let text = format!(
        "{}S[{}]{}",
        &domain[..open],
        permuted.join(", "),
        &domain[close + 1..]
    );
    Ok((text, permuted))
}

/// The catalogue entry of `kernel` and its blocked nest: loops in `order`, loop `p` tiled
/// by the size named `sizes[p]`. `loops` are the iterator names the emitter's text
/// assumes, in loop order; a catalogue whose domain names them differently is an error
/// rather than a kernel that indexes the wrong operand. `domain`, when given, replaces
/// the entry's domain (a variant over the same iterators and body).
pub fn catalogue_nest(
    kernel: crate::catalogue::Kernel,
    domain: Option<&str>,
    order: &[usize],
    sizes: &[&str],
    partial: bool,
    loops: &[&str],
) -> Result<(&'static crate::catalogue::KernelSpec, Nest), crate::request::KernelError> {
    use crate::request::KernelError::Generation;
    let name = kernel.name();
    let spec = kernel
        .spec()
        .ok_or_else(|| Generation(format!("{name} is missing from the catalogue")))?;
    let sizes: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
    let nest = blocked_nest(domain.unwrap_or(spec.domain), order, &sizes, partial)
        .map_err(|e| Generation(format!("{name} nest: {e}")))?;
    if nest.iterators != loops {
        return Err(Generation(format!(
            "{name}: expected the loops {} from the catalogue domain, found {}",
            loops.join(", "),
            nest.iterators.join(", ")
        )));
    }
    Ok((spec, nest))
}

/// Generate the tiled, separated nest for `domain` with loops in `order` and one size
/// name per loop (`sizes[p]` tiles loop `p`).
pub fn blocked_nest(
    domain: &str,
    order: &[usize],
    sizes: &[String],
    partial: bool,
) -> Result<Nest, String> {
    let (text, iterators) = permute_domain(domain, order)?;
    let problem = parse_problem(&text).map_err(|e| format!("{}: {}", e.message, text))?;
    let out = Pipeline::new(problem)
        .tiling(Tiling::sizes(sizes.join(",")))
        .run()
        .map_err(|e| e.to_string())?;
    if out.tiled.as_ref().is_none_or(|t| t.separation.is_none()) {
        return Err("the tiling has no full-tile constraints to separate".into());
    }
    let params = out.original.params.clone();
    let g = out.generated;
    let n = iterators.len();
    let var_of = |name: &str| (0..g.vars.len()).find(|&v| g.vars.name(v) == name);
    let mut t_vars = Vec::with_capacity(n);
    let mut o_vars = Vec::with_capacity(n);
    for p in 1..=n {
        t_vars.push(var_of(&format!("t{p}")).ok_or("no tile loop variables")?);
        o_vars.push(var_of(&format!("o{p}")).ok_or("no point loop variables")?);
    }
    let mut found = 0;
    let mut parts = Vec::new();
    let vars = Vars {
        t: &t_vars,
        o: &o_vars,
        partial,
    };
    let nodes = replace_point_nests(g.nodes, &vars, &mut found, &mut parts);
    let mut statements = g.statements.clone();
    statements.push(("PS_FULL".into(), n));
    for k in 0..parts.len() {
        statements.push((format!("PS_PART_{k}"), n));
    }
    let emitter = CEmitter {
        vars: &g.vars,
        nparams: g.nparams,
        statements: &statements,
    };
    let fragment = emitter.fragment(&nodes).map_err(|e| e.to_string())?;
    let partial_nests = parts
        .iter()
        .map(|p| emitter.fragment(std::slice::from_ref(p)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(Nest {
        fragment,
        iterators,
        params,
        full_branches: found,
        partial_nests,
    })
}

/// Whether `node` is a complete point-loop nest `o1 { o2 { ... { S } } }`, and whether
/// its bounds mention no tile or point coordinate: the constant-shaped loops the linear
/// scanner gives full tiles (partial tiles clamp their point loops with `t`).
fn point_nest(node: &Node, t_vars: &[usize], o_vars: &[usize]) -> Option<bool> {
    let mut cur = node;
    let mut full = true;
    for &o in o_vars {
        let Node::Loop {
            var,
            lower,
            upper,
            body,
            ..
        } = cur
        else {
            return None;
        };
        if *var != o || body.len() != 1 {
            return None;
        }
        let mut vs = BTreeSet::new();
        lower.vars_into(&mut vs);
        upper.vars_into(&mut vs);
        if vs.iter().any(|v| t_vars.contains(v) || o_vars.contains(v)) {
            full = false;
        }
        cur = &body[0];
    }
    matches!(cur, Node::Stmt { .. }).then_some(full)
}

/// Tile and point loop variables, and whether partial nests are replaced too.
pub struct Vars<'a> {
    /// Variable indices of the tile loops (`t1..tn`).
    pub t: &'a [usize],
    /// Variable indices of the point loops within a tile.
    pub o: &'a [usize],
    /// Whether partial-tile point nests are replaced too.
    pub partial: bool,
}

/// Replaces every full-tile point nest by `PS_FULL(t1, ..., tn)` (statement index one
/// past the problem's single statement) and, with `vars.partial`, every partial one by
/// `PS_PART_<k>(t1, ..., tn)` (index 2 + k), collecting the partial nests in `parts`.
pub fn replace_point_nests(
    nodes: Vec<Node>,
    vars: &Vars,
    found: &mut usize,
    parts: &mut Vec<Node>,
) -> Vec<Node> {
    let call = |stmt: usize| Node::Stmt {
        stmt,
        args: vars.t.iter().map(|&t| Expr::Poly(Poly::var(t))).collect(),
    };
    nodes
        .into_iter()
        .map(|n| match point_nest(&n, vars.t, vars.o) {
            Some(true) => {
                *found += 1;
                call(1)
            }
            Some(false) if vars.partial => {
                parts.push(n);
                call(1 + parts.len())
            }
            _ => n.map_body(|b| replace_point_nests(b, vars, found, parts)),
        })
        .collect()
}

/// Every loop over `var` in a printed fragment with `before` as the first statement of its
/// body and `after` as the last (each a C statement, indented with the body): for work
/// that belongs to one iteration of a tile loop as a whole (TRTRI's column block: its
/// columns of the working copy set up before its first tile, handed back after its last).
/// Loops have the printed form `for (int64_t var = ...)` with the body on the following,
/// further indented lines, braced or not. `None` when a braced loop's closing brace is not
/// where the printer puts it.
pub fn around_loop_bodies(fragment: &str, var: &str, before: &str, after: &str) -> Option<String> {
    let lines: Vec<&str> = fragment.lines().collect();
    let mut out = String::new();
    for piece in loops_over(&lines, var)? {
        match piece {
            Piece::Line(line) => {
                out.push_str(line);
                out.push('\n');
            }
            Piece::Loop { pad, header, body } => {
                out.push_str(&format!("{pad}{header} {{\n{pad}  {before}\n"));
                // The body is kept as printed (with loops over `var` inside it left alone:
                // the loop over `var` is the outermost tile loop wherever this is used).
                for l in body {
                    out.push_str(l);
                    out.push('\n');
                }
                out.push_str(&format!("{pad}  {after}\n{pad}}}\n"));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_loop_over_the_variable_gets_both_statements_once() {
        let loops = "if (n >= 1) {\n  for (int64_t t1 = 0; t1 <= a; t1 += 1)\n    S(t1);\n  for (int64_t t1 = a + 1; t1 <= b; t1 += 1) {\n    for (int64_t t2 = 0; t2 <= c; t2 += 1)\n      S(t1);\n  }\n}\n";
        let out = around_loop_bodies(loops, "t1", "IN(t1);", "OUT(t1);").expect("printed form");
        assert_eq!(
            out,
            "if (n >= 1) {\n  for (int64_t t1 = 0; t1 <= a; t1 += 1) {\n    IN(t1);\n    S(t1);\n    OUT(t1);\n  }\n  for (int64_t t1 = a + 1; t1 <= b; t1 += 1) {\n    IN(t1);\n    for (int64_t t2 = 0; t2 <= c; t2 += 1)\n      S(t1);\n    OUT(t1);\n  }\n}\n"
        );
        // A loop over another variable is left alone.
        assert_eq!(
            around_loop_bodies(loops, "t3", "IN;", "OUT;").as_deref(),
            Some(loops)
        );
        // A braced loop whose closing brace is missing is refused.
        let broken = loops.replace("    OUT", "").replace("  }\n}\n", "}\n");
        assert_eq!(around_loop_bodies(&broken, "t1", "IN;", "OUT;"), None);
    }
}
