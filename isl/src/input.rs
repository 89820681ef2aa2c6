//! isl's input for a parsed polyscan problem: the domain as a union set, the schedule as a
//! union map and the parameter context, printed in isl's syntax from the parsed formulas
//! (affine ones only).
//!
//! The schedule sends statement `k` with iterators `x` to `[t(x), x', k]`: its time vector
//! (when the file has a schedule), then its iterators padded with zeros to the longest
//! statement, then its index. That is exactly polyscan's execution order (time, then the
//! iterator positions, then statements in textual order at the same point), and it makes
//! isl's order total, so the two programs must run identical instance sequences.

use cad::formula::{Formula, Rel};
use codegen::input::Problem;
use polys::{Coeff, Int, Poly};
use std::collections::HashSet;
use thiserror::Error;

/// The three strings isl's AST generator is called with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IslInput {
    /// Parameter names as isl sees them (the file's, unless renamed to be safe in isl and C).
    pub params: Vec<String>,
    /// Statement names as isl sees them.
    pub statements: Vec<String>,
    /// `[n] -> { S[i, j] : ...; T[i] : ... }`
    pub domain: String,
    /// `[n] -> { S[i, j] -> [i, j, 0]; ... }`
    pub schedule: String,
    /// `[n] -> { : ... }`
    pub context: String,
}

/// A polynomial term that isl cannot take.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{place} is not affine ({poly} has degree {degree}); isl takes affine constraints only")]
pub struct NotAffine {
    /// Where: `the domain of S`, `the schedule of S`, `the context`.
    pub place: String,
    /// The offending polynomial, printed with the names isl sees (after any renaming).
    pub poly: String,
    /// Its total degree (at least 2).
    pub degree: u64,
}

/// Words isl's parser reserves, and C keywords and names the harness uses: a name from
/// the input that is one of them is renamed.
const RESERVED: &[&str] = &[
    "and", "or", "not", "implies", "exists", "mod", "floor", "ceil", "floord", "ceild", "min",
    "max", "true", "false", "infty", "NaN", "rat", "domain", "range", "to", "by", "sum", "cst",
    "int", "for", "if", "else", "while", "do", "return", "void", "char", "long", "short",
    "unsigned", "signed", "double", "float", "const", "static", "struct", "union", "enum",
    "switch", "case", "default", "break", "continue", "goto", "sizeof", "typedef", "extern",
    "register", "volatile", "auto", "inline", "restrict", "main", "scan", "printf", "exit",
    "int64_t", "ps_count", "ps_limit",
];

/// A name both isl and C accept and that cannot meet isl's own iterators `c0, c1, ...`.
fn is_safe(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let rest_ok = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let isl_iterator =
        name.len() > 1 && name.starts_with('c') && name[1..].chars().all(|c| c.is_ascii_digit());
    first_ok && rest_ok && !isl_iterator && !RESERVED.contains(&name) && !name.starts_with("ps_")
}

/// `name` if safe and free, otherwise `{fallback}{k}` for the first free `k`.
fn pick(name: &str, fallback: &str, taken: &mut HashSet<String>) -> String {
    let out = if is_safe(name) && !taken.contains(name) {
        name.to_string()
    } else {
        (0..)
            .map(|k| format!("{fallback}{k}"))
            .find(|n| !taken.contains(n) && !RESERVED.contains(&n.as_str()))
            .expect("an unbounded range always has a free name")
    };
    taken.insert(out.clone());
    out
}

/// An affine polynomial in isl syntax over `names` (one per variable index), or why not.
fn affine_text(p: &Poly, names: &[String], place: &str) -> Result<String, NotAffine> {
    let degree = p.total_degree();
    let plain = || {
        let parts: Vec<String> = p
            .terms()
            .iter()
            .map(|(m, c)| {
                let vars: Vec<String> = m
                    .exps()
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| **e > 0)
                    .map(|(v, e)| {
                        let n = names.get(v).cloned().unwrap_or_else(|| format!("x{v}"));
                        if *e == 1 {
                            n
                        } else {
                            format!("{n}^{e}")
                        }
                    })
                    .collect();
                format!("{c}*{}", vars.join("*"))
            })
            .collect();
        parts.join(" + ")
    };
    if degree > 1 {
        return Err(NotAffine {
            place: place.into(),
            poly: plain(),
            degree,
        });
    }
    let mut out = String::new();
    // Variable terms first (isl reads any order; this one reads naturally).
    let mut terms: Vec<(Option<usize>, &Int)> = p
        .terms()
        .iter()
        .map(|(m, c)| (m.exps().iter().position(|&e| e > 0), c))
        .collect();
    terms.sort_by_key(|(v, _)| v.map_or(usize::MAX, |v| v));
    for (v, c) in terms {
        let negative = c.signum() < 0;
        let abs = c.abs();
        let body = match v {
            None => abs.to_string(),
            Some(v) => {
                let n = names.get(v).cloned().unwrap_or_else(|| format!("x{v}"));
                if abs.is_one() {
                    n
                } else {
                    format!("{abs}*{n}")
                }
            }
        };
        match (out.is_empty(), negative) {
            (true, false) => out.push_str(&body),
            (true, true) => {
                out.push('-');
                out.push_str(&body);
            }
            (false, false) => {
                out.push_str(" + ");
                out.push_str(&body);
            }
            (false, true) => {
                out.push_str(" - ");
                out.push_str(&body);
            }
        }
    }
    if out.is_empty() {
        out.push('0');
    }
    Ok(out)
}

/// A formula in isl syntax (`and`, `or`, `not`, relations against 0).
fn formula_text(f: &Formula, names: &[String], place: &str) -> Result<String, NotAffine> {
    Ok(match f {
        Formula::True => "true".into(),
        Formula::False => "false".into(),
        Formula::Atom(a) => {
            let rel = match a.rel {
                Rel::Lt => "<",
                Rel::Le => "<=",
                Rel::Eq => "=",
                Rel::Ne => "!=",
                Rel::Ge => ">=",
                Rel::Gt => ">",
            };
            format!("{} {rel} 0", affine_text(&a.poly, names, place)?)
        }
        Formula::And(fs) | Formula::Or(fs) => {
            let sep = if matches!(f, Formula::And(_)) {
                " and "
            } else {
                " or "
            };
            let parts: Result<Vec<String>, NotAffine> = fs
                .iter()
                .map(|g| {
                    let t = formula_text(g, names, place)?;
                    Ok(match g {
                        Formula::And(_) | Formula::Or(_) => format!("({t})"),
                        _ => t,
                    })
                })
                .collect();
            parts?.join(sep)
        }
        Formula::Not(g) => format!("not ({})", formula_text(g, names, place)?),
    })
}

/// Whether every constraint and time expression of the problem is affine.
pub fn check_affine(problem: &Problem) -> Result<(), NotAffine> {
    from_problem(problem).map(|_| ())
}

/// The isl input of a problem: domain, schedule (with the iterator and statement-index
/// dimensions appended) and context.
pub fn from_problem(problem: &Problem) -> Result<IslInput, NotAffine> {
    let mut taken = HashSet::new();
    let params: Vec<String> = problem
        .params
        .iter()
        .map(|p| pick(p, "p", &mut taken))
        .collect();
    let statements: Vec<String> = problem
        .statements
        .iter()
        .map(|s| pick(&s.name, "S", &mut taken))
        .collect();
    let prefix = if params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", params.join(", "))
    };
    let depth = problem.depth();
    let mut dom_parts = Vec::new();
    let mut sched_parts = Vec::new();
    for (k, s) in problem.statements.iter().enumerate() {
        // Iterator names are local to the statement's tuple; they only must not meet the
        // parameters.
        let mut local = taken.clone();
        let iters: Vec<String> = s
            .iterators
            .iter()
            .map(|i| pick(i, "i", &mut local))
            .collect();
        let mut names = params.clone();
        names.extend(iters.iter().cloned());
        let tuple = format!("{}[{}]", statements[k], iters.join(", "));
        let place = format!("the domain of {}", s.name);
        // Quantified variables (`exists`, integer divisions, whose defining constraints
        // are in the domain) follow the iterators, as isl's own existentials.
        let quantified: Vec<String> = s
            .existentials
            .iter()
            .map(|e| pick(&e.name, "e", &mut local))
            .collect();
        let mut all = names.clone();
        all.extend(quantified.iter().cloned());
        let dom = formula_text(&s.domain, &all, &place)?;
        if quantified.is_empty() {
            dom_parts.push(format!("{tuple} : {dom}"));
        } else {
            dom_parts.push(format!(
                "{tuple} : exists ({} : {dom})",
                quantified.join(", ")
            ));
        }
        // Each schedule piece, its outputs named and defined by constraints, followed by
        // the iterators and the statement index (polyscan's order at equal times).
        let mut tail: Vec<String> = iters.clone();
        tail.extend(std::iter::repeat_n("0".to_string(), depth - iters.len()));
        tail.push(k.to_string());
        match &problem.schedule {
            None => sched_parts.push(format!("{tuple} -> [{}]", tail.join(", "))),
            Some(entries) => {
                let place = format!("the schedule of {}", s.name);
                for e in entries.iter().filter(|e| e.statement == k) {
                    let mut piece_names = local.clone();
                    let outputs: Vec<String> = e
                        .outputs
                        .iter()
                        .map(|o| pick(o, "o", &mut piece_names))
                        .collect();
                    let quantified: Vec<String> = e
                        .existentials
                        .iter()
                        .map(|q| pick(&q.name, "e", &mut piece_names))
                        .collect();
                    let mut all = names.clone();
                    all.extend(outputs.iter().cloned());
                    all.extend(quantified.iter().cloned());
                    let first_output = names.len();
                    let mut conds = Vec::new();
                    // An expression of the parameters and iterators prints as itself; one
                    // that reads outputs or quantified variables names its output.
                    let mut range = Vec::new();
                    for (l, t) in e.time.iter().enumerate() {
                        let o = Poly::var(first_output + l);
                        if *t == o {
                            range.push(outputs[l].clone());
                        } else if t.vars().iter().all(|&v| v < first_output) {
                            range.push(affine_text(t, &all, &place)?);
                        } else {
                            range.push(outputs[l].clone());
                            conds.push(format!(
                                "{} = {}",
                                outputs[l],
                                affine_text(t, &all, &place)?
                            ));
                        }
                    }
                    if e.constraint != Formula::True {
                        conds.push(format!("({})", formula_text(&e.constraint, &all, &place)?));
                    }
                    range.extend(tail.iter().cloned());
                    let cond = conds.join(" and ");
                    let cond = match (cond.is_empty(), quantified.is_empty()) {
                        (true, _) => String::new(),
                        (false, true) => format!(" : {cond}"),
                        (false, false) => format!(" : exists ({} : {cond})", quantified.join(", ")),
                    };
                    sched_parts.push(format!("{tuple} -> [{}]{cond}", range.join(", ")));
                }
            }
        }
    }
    let context = formula_text(&problem.context, &params, "the context")?;
    Ok(IslInput {
        params,
        statements,
        domain: format!("{prefix}{{ {} }}", dom_parts.join("; ")),
        schedule: format!("{prefix}{{ {} }}", sched_parts.join("; ")),
        context: format!("{prefix}{{ : {context} }}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use codegen::input::parse_problem;

    #[test]
    fn prints_domain_schedule_and_context() {
        let p = parse_problem(
            "[n] -> { S1[i] : 0 <= i < n; S2[i, j] : 0 <= i < n and 0 <= j < i }\n\
             { S1[i] -> [i, 0, 0]; S2[i, j] -> [i, 1, j] }\n[n] -> { : n >= 2 }",
        )
        .unwrap();
        let x = from_problem(&p).unwrap();
        assert_eq!(x.params, ["n"]);
        assert!(x.domain.starts_with("[n] -> { S1[i] : "), "{}", x.domain);
        assert_eq!(
            x.schedule,
            "[n] -> { S1[i] -> [i, 0, 0, i, 0, 0]; S2[i, j] -> [i, 1, j, i, j, 1] }"
        );
        assert!(x.context.contains("n - 2 >= 0"), "{}", x.context);
    }

    #[test]
    fn rejects_polynomial_terms_with_their_place() {
        let p = parse_problem("[n] -> { S[i, j] : 0 <= i and i*j <= n and 0 <= j }").unwrap();
        let e = from_problem(&p).unwrap_err();
        assert_eq!(e.place, "the domain of S");
        assert_eq!(e.degree, 2);
    }

    #[test]
    fn quantified_variables_are_isl_existentials() {
        let p = parse_problem("[n] -> { S[i] : 0 <= i <= n and i mod 3 = 1 }").unwrap();
        let x = from_problem(&p).unwrap();
        assert!(x.domain.contains("exists (e0 : "), "{}", x.domain);
        assert!(
            x.domain.contains(" mod ") || x.domain.contains("e0"),
            "{}",
            x.domain
        );
    }

    #[test]
    fn renames_names_isl_or_c_reserve() {
        // `for` and other C keywords no longer parse; isl's `min` and the `c0` of its
        // generated loops still do, and `floord` is a helper name of isl's output.
        let p = parse_problem("[c0, min] -> { floord[i] : 0 <= i <= c0 + min }").unwrap();
        let x = from_problem(&p).unwrap();
        assert_eq!(x.params, ["p0", "p1"]);
        assert_eq!(x.statements, ["S0"]);
    }
}
