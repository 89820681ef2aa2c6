//! Conversion of isl's code generation test corpus (test_inputs/codegen in isl's sources,
//! adapted from CLooG and Omega) into polyscan input files, for `scripts/isl-corpus`.
//!
//! isl reads the test file (`.in`: schedule map with domain constraints, context, options;
//! `.st`: a schedule tree) and prints the domain and the schedule (simplified against the
//! domain) back in its own syntax, which is close to polyscan's input language; the
//! printed text is then rewritten into polyscan's form: one entry per statement (isl's
//! disjuncts joined with `or`), plain iterator names (isl prints fixed coordinates such as
//! `S[0, i]`; they become equalities), time vectors padded to one length. Existentials and
//! integer divisions pass through in domains (polyscan reads them there); anything polyscan
//! cannot express (divisions in schedules and contexts, piecewise schedules) is reported as
//! not convertible. The options are ignored: they change the shape of isl's code, not the
//! instances it runs.

use super::{Isl, IslError};
use std::collections::BTreeMap;
use thiserror::Error;

/// Why a corpus file could not be converted.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConvertError {
    /// isl could not read or print the file's objects (or is not linked).
    #[error("{0}")]
    Isl(#[from] IslError),
    /// The file uses something polyscan's input language lacks (integer division outside
    /// domains, piecewise schedules, an empty domain, ...); the text says what.
    #[error("not expressible in polyscan's input language: {0}")]
    Unsupported(String),
    /// A file or isl's printed text did not have the expected shape (or could not be read).
    #[error("unexpected isl output: {0}")]
    Format(String),
}

/// The top-level `... { ... }` objects of an `.in` file, in order.
fn objects(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(text[start..=i].trim().to_string());
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    out
}

/// Splits `[n, m] -> { body }` into the parameter list and the body.
fn split_params(text: &str) -> Result<(Vec<String>, String), ConvertError> {
    let t = text.trim();
    let (params, rest) = if t.starts_with('[') {
        let (p, r) = t
            .split_once("->")
            .ok_or_else(|| ConvertError::Format(t.to_string()))?;
        let p = p.trim().trim_start_matches('[').trim_end_matches(']');
        let names: Vec<String> = p
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        (names, r.trim())
    } else {
        (Vec::new(), t)
    };
    let body = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .ok_or_else(|| ConvertError::Format(t.to_string()))?;
    Ok((params, body.trim().to_string()))
}

/// Splits at `sep` outside brackets and parentheses.
fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|s| s.trim().to_string()).collect()
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
}

/// Replaces identifiers by their image under `map` (numbers glued to a name, as in `2i`,
/// stay numbers).
fn rename(text: &str, map: &BTreeMap<String, String>) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        if c.is_ascii_digit() {
            while k < chars.len() && chars[k].is_ascii_digit() {
                out.push(chars[k]);
                k += 1;
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = k;
            while k < chars.len()
                && (chars[k].is_ascii_alphanumeric() || chars[k] == '_' || chars[k] == '\'')
            {
                k += 1;
            }
            let word: String = chars[start..k].iter().collect();
            out.push_str(map.get(&word).map_or(word.as_str(), String::as_str));
        } else {
            out.push(c);
            k += 1;
        }
    }
    out
}

fn check_expressible(text: &str) -> Result<(), ConvertError> {
    for bad in [
        "exists", "floor", "ceil", "mod", "/", "%", "min", "max", "?",
    ] {
        if text.contains(bad) {
            return Err(ConvertError::Unsupported(format!("'{bad}' in {text}")));
        }
    }
    Ok(())
}

/// Constraints of a statement's domain: there polyscan reads isl's existentials and
/// integer divisions too.
fn check_domain_expressible(text: &str) -> Result<(), ConvertError> {
    for bad in ["min", "max", "?"] {
        if text.contains(bad) {
            return Err(ConvertError::Unsupported(format!("'{bad}' in {text}")));
        }
    }
    Ok(())
}

/// `Name[a, b]` and what follows it.
fn tuple(entry: &str) -> Result<(String, Vec<String>, String), ConvertError> {
    let open = entry
        .find('[')
        .ok_or_else(|| ConvertError::Format(entry.to_string()))?;
    let name = entry[..open].trim().to_string();
    if name.is_empty() {
        return Err(ConvertError::Unsupported(format!(
            "unnamed tuple in {entry}"
        )));
    }
    let mut depth = 0;
    let mut close = None;
    for (i, c) in entry[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close.ok_or_else(|| ConvertError::Format(entry.to_string()))?;
    let elems = split_top(&entry[open + 1..close], ',');
    Ok((name, elems, entry[close + 1..].trim().to_string()))
}

/// One statement's iterators named canonically; fixed or repeated coordinates become
/// equalities.
fn canonical(
    elems: &[String],
    iters: &[String],
    params: &[String],
) -> Result<(BTreeMap<String, String>, Vec<String>), ConvertError> {
    let mut map = BTreeMap::new();
    let mut eqs = Vec::new();
    for (k, e) in elems.iter().enumerate() {
        // isl prints a fixed coordinate as `i0 = 0` (or just `0`).
        let (var, fixed) = match e.split_once('=') {
            Some((v, x)) => (v.trim().to_string(), Some(x.trim().to_string())),
            None => (e.clone(), None),
        };
        let fresh = is_ident(&var) && !params.contains(&var) && !map.contains_key(&var);
        if fresh {
            map.insert(var, iters[k].clone());
        }
        match (fresh, fixed) {
            (true, None) => {}
            (true, Some(x)) | (false, Some(x)) => {
                check_expressible(&x)?;
                eqs.push((k, x));
            }
            (false, None) => {
                check_expressible(e)?;
                eqs.push((k, e.clone()));
            }
        }
    }
    let eqs = eqs
        .into_iter()
        .map(|(k, e)| format!("{} = {}", iters[k], rename(&e, &map)))
        .collect();
    Ok((map, eqs))
}

/// The polyscan input for a schedule map with domain constraints and a context, both in
/// isl syntax.
pub fn convert(isl: &Isl, schedule: &str, context: &str) -> Result<String, ConvertError> {
    let (domain, sched) = isl.split_schedule(schedule)?;
    let (params, dom_body) = split_params(&domain)?;
    let iter_name = |k: usize| {
        let mut n = format!("x{k}");
        while params.contains(&n) {
            n.push('_');
        }
        n
    };
    // Statement name -> (arity, disjuncts), in order of first appearance.
    let mut order: Vec<String> = Vec::new();
    let mut stmts: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    for entry in split_top(&dom_body, ';') {
        let (name, elems, rest) = tuple(&entry)?;
        let iters: Vec<String> = (0..elems.len()).map(iter_name).collect();
        let (map, mut parts) = canonical(&elems, &iters, &params)?;
        if let Some(c) = rest.strip_prefix(':') {
            check_domain_expressible(c)?;
            if !c.trim().is_empty() {
                parts.push(format!("({})", rename(c.trim(), &map)));
            }
        } else if !rest.is_empty() {
            return Err(ConvertError::Format(entry));
        }
        let conj = if parts.is_empty() {
            "true".to_string()
        } else {
            parts.join(" and ")
        };
        let slot = stmts.entry(name.clone()).or_insert_with(|| {
            order.push(name.clone());
            (elems.len(), Vec::new())
        });
        if slot.0 != elems.len() {
            return Err(ConvertError::Unsupported(format!(
                "statement {name} with two dimensions"
            )));
        }
        slot.1.push(conj);
    }
    let prefix = if params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", params.join(", "))
    };
    // The schedule's pieces as isl prints them (polyscan reads relations, piecewise
    // schedules, named outputs and fixed coordinates), time vectors padded with zeros to
    // one length.
    let (sparams, sched_body) = split_params(&sched)?;
    let mut pieces: Vec<(String, Vec<String>, Vec<String>, String)> = Vec::new();
    for entry in split_top(&sched_body, ';') {
        let (name, elems, rest) = tuple(&entry)?;
        let rest = rest
            .strip_prefix("->")
            .ok_or_else(|| ConvertError::Format(entry.clone()))?
            .trim();
        let (_, range, cond) = tuple(&format!("T{rest}"))?;
        check_domain_expressible(&range.join(", "))?;
        check_domain_expressible(&cond)?;
        pieces.push((name, elems, range, cond));
    }
    let len = pieces.iter().map(|p| p.2.len()).max().unwrap_or(0);
    let mut sched_entries = Vec::new();
    for (name, elems, mut range, cond) in pieces {
        if !stmts.contains_key(&name) {
            // A piece for points outside the domain runs nothing.
            continue;
        }
        range.resize(len, "0".into());
        sched_entries.push(format!(
            "{name}[{}] -> [{}]{}{}",
            elems.join(", "),
            range.join(", "),
            if cond.is_empty() { "" } else { " " },
            cond
        ));
    }
    let mut dom_entries = Vec::new();
    for name in &order {
        let (arity, disj) = &stmts[name];
        let iters: Vec<String> = (0..*arity).map(iter_name).collect();
        let f = if disj.len() == 1 {
            disj[0].clone()
        } else {
            disj.iter()
                .map(|d| format!("({d})"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        dom_entries.push(format!("{name}[{}] : {f}", iters.join(", ")));
    }
    let mut out = format!("{prefix}{{ {} }}\n", dom_entries.join("; "));
    let ctx = isl.set_text(context)?;
    let (cparams, cbody) = split_params(&ctx)?;
    // A zero-dimensional set prints as `{ [] : ... }`: only the constraints matter. A
    // context node inside a schedule tree may constrain the outer schedule dimensions
    // (`[n] -> { [i] : 0 <= n <= i }`), which a parameter context cannot say.
    let cbody = cbody.trim();
    if cbody.starts_with('[') && !cbody.starts_with("[]") {
        return Err(ConvertError::Unsupported(format!(
            "a context node on schedule dimensions: {ctx}"
        )));
    }
    let cbody = cbody.trim_start_matches("[]").trim();
    let cbody = cbody.trim_start_matches(':').trim().to_string();
    if !cbody.is_empty() {
        check_domain_expressible(&cbody)?;
        let cprefix = if cparams.is_empty() {
            String::new()
        } else {
            format!("[{}] -> ", cparams.join(", "))
        };
        out.push_str(&format!("{cprefix}{{ : {cbody} }}\n"));
    }
    if !order.is_empty() {
        let sprefix = if sparams.is_empty() {
            String::new()
        } else {
            format!("[{}] -> ", sparams.join(", "))
        };
        out.push_str(&format!("{sprefix}{{ {} }}\n", sched_entries.join("; ")));
    }
    Ok(out)
}

/// Converts one corpus file (`.in` or `.st`).
pub fn convert_file(isl: &Isl, path: &std::path::Path) -> Result<String, ConvertError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConvertError::Format(format!("cannot read {}: {e}", path.display())))?;
    if path.extension().is_some_and(|e| e == "st") {
        let map = isl.schedule_tree_map(&text)?;
        // The tree's context node, if any: `context: "[M] -> { [] : M >= 1 }"`.
        let context = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("context:"))
            .map(|c| c.trim().trim_matches('"').to_string())
            .unwrap_or_else(|| "{ : }".into());
        convert(isl, &map, &context)
    } else {
        let objs = objects(&text);
        let schedule = objs
            .first()
            .ok_or_else(|| ConvertError::Format("no schedule".into()))?;
        let context = objs.get(1).cloned().unwrap_or_else(|| "{ : }".into());
        convert(isl, schedule, &context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_helpers() {
        assert_eq!(
            objects("{ A[i] -> [i] : 0 <= i }\n{ : }\n{ }"),
            ["{ A[i] -> [i] : 0 <= i }", "{ : }", "{ }"]
        );
        let map: BTreeMap<String, String> = [("i".to_string(), "x0".to_string())].into();
        assert_eq!(rename("2i + i1 - i", &map), "2x0 + i1 - x0");
        assert_eq!(split_top("a[1, 2], b; c", ';'), ["a[1, 2], b", "c"]);
        let (name, elems, rest) = tuple("S1[0, i1] : i1 >= 0").unwrap();
        assert_eq!((name.as_str(), rest.as_str()), ("S1", ": i1 >= 0"));
        assert_eq!(elems, ["0", "i1"]);
    }

    #[test]
    fn converts_an_in_file() {
        let Ok(isl) = Isl::new() else {
            return;
        };
        let out = convert(
            &isl,
            "[n] -> { A[i] -> [2i] : 0 <= i < n; B[0, j] -> [j, 1] : 0 <= j <= 3 }",
            "[n] -> { : n >= 2 }",
        )
        .unwrap();
        let p = codegen::input::parse_problem(&out).unwrap_or_else(|e| panic!("{out}\n{e:?}"));
        assert_eq!(p.statements.len(), 2);
        // The schedule's pieces pass through with their own names, padded to one length.
        assert!(out.contains("B[i0, j] -> [j, 1]"), "{out}");
        assert!(out.contains("A[i] -> [2i, 0]"), "{out}");
        assert!(out.contains("x0 = 0"), "{out}");
    }
}
