//! Linnea-style notation of a step's operation, e.g. `T3 := L1^-1 * X`: shared by the
//! report, the regions' candidate names and the comments of emitted programs.

use super::lower::{Alpha, Arg, Op, Orth, Step};
use super::norm::Env;

fn arg(env: &Env, a: Arg) -> String {
    let n = &env.entities[a.id].name;
    if a.trans {
        format!("{n}^T")
    } else {
        n.clone()
    }
}

fn alpha(env: &Env, a: &Alpha) -> String {
    let mut parts = Vec::new();
    if a.coef != 1.0 || a.scalars.is_empty() {
        parts.push(format!("{}", a.coef));
    }
    parts.extend(a.scalars.iter().map(|&s| env.entities[s].name.clone()));
    parts.join("*")
}

/// The operation of a step as text, e.g. `T3 := L1^-1 * X`.
pub fn describe(env: &Env, s: &Step) -> String {
    let out = &env.entities[s.out].name;
    match &s.op {
        Op::Mul { a, b } => format!("{out} := {} * {}", arg(env, *a), arg(env, *b)),
        Op::Solve { t, b, left: true } => {
            format!("{out} := {}^-1 * {}", arg(env, *t), arg(env, *b))
        }
        Op::Solve { t, b, left: false } => {
            format!("{out} := {} * {}^-1", arg(env, *b), arg(env, *t))
        }
        Op::BlockSolve { t, b, left, .. } => {
            if *left {
                format!("{out} := {}^-1 * {}", arg(env, *t), arg(env, *b))
            } else {
                format!("{out} := {} * {}^-1", arg(env, *b), arg(env, *t))
            }
        }
        Op::Add { terms } => {
            let ts: Vec<String> = terms
                .iter()
                .map(|(al, a)| {
                    if al.is_one() {
                        arg(env, *a)
                    } else {
                        format!("{}*{}", alpha(env, al), arg(env, *a))
                    }
                })
                .collect();
            format!("{out} := {}", ts.join(" + "))
        }
        Op::Scale { alpha: al, a } => format!("{out} := {} * {}", alpha(env, al), arg(env, *a)),
        Op::Syr2k { alpha: al, a, b } => {
            let (a, b) = (arg(env, *a), arg(env, *b));
            let prod = format!("{a} * {b} + ({a} * {b})^T");
            if al.is_one() {
                format!("{out} := {prod}")
            } else {
                format!("{out} := {} * ({prod})", alpha(env, al))
            }
        }
        Op::Potrf { a } => format!("{out} := chol({})", arg(env, *a)),
        Op::Getrf { a, l, u } => format!(
            "{out}, {}, {} := lu({})",
            env.entities[*l].name,
            env.entities[*u].name,
            arg(env, *a)
        ),
        Op::Inverse { a } => format!("{out} := {}^-1", arg(env, *a)),
        Op::Orth(o) => orth(env, out, o),
        Op::Bind { a } => format!("{out} := {}", arg(env, *a)),
        Op::Assemble { cells } => {
            let rows: Vec<String> = cells
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&c| env.entities[c].name.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect();
            format!("{out} := [{}]", rows.join("; "))
        }
    }
}

/// An orthogonal factorisation or a product with its Q, e.g. `T4, T2, T3 := qr(X)`.
fn orth(env: &Env, out: &str, o: &Orth) -> String {
    let name = |id: usize| env.entities[id].name.clone();
    match o {
        Orth::Geqrf { a, h, tau } => {
            format!(
                "{out}, {}, {} := qr({})",
                name(*h),
                name(*tau),
                arg(env, *a)
            )
        }
        Orth::Ormqr { h, b, trans, .. } => {
            let t = if *trans { "^T" } else { "" };
            format!("{out} := Q({}){t} * {}", name(*h), arg(env, *b))
        }
        Orth::Syev { a, w } => format!("{out}, {} := eig({})", name(*w), arg(env, *a)),
        Orth::Gesvd { a, s, v } => {
            format!("{out}, {}, {} := svd({})", name(*s), name(*v), arg(env, *a))
        }
    }
}
