//! Checked rendering (`--check-overflow`): an emitted expression's tree ([`CAst`], the
//! one the plain text prints from, constants folded) printed again in C or Rust with
//! every operation that can overflow through a `ps_*_ck` helper that names the
//! expression's site when it fails, so that the checked program performs exactly the
//! operations of the unchecked one, in the same order.

use crate::c_ast::{BinOp, CAst, Helper, Lang};
use polys::Vars;
use std::fmt;

/// Why an emitted expression could not be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckedError {
    /// The printer could not print the code in 64-bit C at all.
    Print(String),
}

impl fmt::Display for CheckedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckedError::Print(m) => write!(f, "cannot print the code in 64-bit C: {m}"),
        }
    }
}

impl std::error::Error for CheckedError {}

/// A string literal for `site`, valid in C and in Rust.
pub fn string_literal(site: &str) -> String {
    let mut s = String::with_capacity(site.len() + 2);
    s.push('"');
    for c in site.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// `e` (folded, see [`CAst::folded`]) with every operation through a checked helper that
/// names `site` (already a string literal) when it fails. `vars` names the variables.
pub fn render_checked(e: &CAst, site: &str, vars: &Vars, lang: Lang) -> String {
    let r = |x: &CAst| render_checked(x, site, vars, lang);
    match e {
        CAst::Lit(v) => {
            let v = *v;
            if v == i64::MIN {
                match lang {
                    Lang::C => "(-9223372036854775807 - 1)".into(),
                    Lang::Rust => "i64::MIN".into(),
                }
            } else if v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            }
        }
        CAst::Var(k) => vars.name(*k),
        CAst::Neg(a) => format!("ps_neg_ck({}, {site})", r(a)),
        CAst::Bin(op, a, b) => {
            let f = match op {
                BinOp::Add => "ps_add_ck",
                BinOp::Sub => "ps_sub_ck",
                BinOp::Mul => "ps_mul_ck",
            };
            format!("{f}({}, {}, {site})", r(a), r(b))
        }
        // Only in unfolded trees: the compiler ignores them.
        CAst::Paren(a) => r(a),
        CAst::Call(h, args) => {
            let args: Vec<String> = args.iter().map(r).collect();
            let name = h.name();
            match h {
                // No arithmetic that can overflow inside: unchanged.
                Helper::Max | Helper::Min | Helper::Isqrt => {
                    format!("{name}({})", args.join(", "))
                }
                _ => format!("{name}_ck({}, {site})", args.join(", ")),
            }
        }
        CAst::Array(items) => {
            let items: Vec<String> = items.iter().map(r).collect();
            match lang {
                Lang::C => format!("(const int64_t[]){{{}}}", items.join(", ")),
                Lang::Rust => format!("&[{}]", items.join(", ")),
            }
        }
    }
}
