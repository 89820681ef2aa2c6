//! C text helpers every emitter uses: the catalogue body rewritten for the emitted
//! function ([`c_body`]), element access by layout, indentation.

use crate::request::Layout;
use std::fmt::Write;

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

/// `text` with every line prefixed by `pad` (each line ends in a newline).
pub(crate) fn indent(text: &str, pad: &str) -> String {
    text.lines()
        .map(|l| format!("{pad}{l}\n"))
        .collect::<String>()
}
