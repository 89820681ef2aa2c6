//! Printing polynomials: as text in the parser's syntax, and as C expressions in Horner form.

use crate::coeff::Coeff;
use crate::mono::Mono;
use crate::poly::Poly;
use crate::vars::Vars;
use std::fmt::{self, Write};
use thiserror::Error;

/// Why a polynomial cannot be printed as a C expression.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CPrintError {
    /// A coefficient (given in decimal) is outside the `int64_t` range.
    #[error("coefficient {0} does not fit in a 64-bit C integer")]
    CoefficientTooLarge(String),
}

fn write_mono(out: &mut String, m: &Mono, vars: &Vars) {
    let mut first = true;
    for (v, &e) in m.exps().iter().enumerate() {
        if e == 0 {
            continue;
        }
        if !first {
            out.push('*');
        }
        first = false;
        out.push_str(&vars.name(v));
        if e > 1 {
            let _ = write!(out, "^{e}");
        }
    }
}

impl<C: Coeff> Poly<C> {
    /// Text in the syntax [`Poly::parse`] reads, terms in decreasing order.
    pub fn to_text(&self, vars: &Vars) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let mut out = String::new();
        for (i, (m, c)) in self.terms().iter().enumerate() {
            let neg = c.signum() < 0;
            let a = c.abs();
            match (i, neg) {
                (0, true) => out.push('-'),
                (0, false) => {}
                (_, true) => out.push_str(" - "),
                (_, false) => out.push_str(" + "),
            }
            if m.is_one() {
                let _ = write!(out, "{a}");
            } else {
                if !a.is_one() {
                    let _ = write!(out, "{a}*");
                }
                write_mono(&mut out, m, vars);
            }
        }
        out
    }

    /// A C expression equal to the polynomial, in Horner form with respect to `var` (and
    /// recursively in the highest remaining variable for the coefficients). No `pow()`;
    /// every sum used as a factor is parenthesised, so C precedence cannot change the value.
    /// Variables print by name; their C type is the caller's business (int64_t in
    /// generated code).
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::from_names(["x", "y"]);
    /// let p = Poly::parse("x^2*y + 3x - 4", &mut v).unwrap();
    /// assert_eq!(p.to_c_horner(0, &v).unwrap(), "(y*x + 3)*x - 4");
    /// ```
    pub fn to_c_horner(&self, var: usize, vars: &Vars) -> Result<String, CPrintError> {
        Ok(self.horner(Some(var), vars)?.text)
    }

    /// [`Poly::to_c_horner`] in the highest variable that occurs.
    pub fn to_c(&self, vars: &Vars) -> Result<String, CPrintError> {
        Ok(self.horner(None, vars)?.text)
    }

    fn horner(&self, var: Option<usize>, vars: &Vars) -> Result<CExpr, CPrintError> {
        let Some(v) = var.or_else(|| self.main_var()) else {
            return c_literal(&self.constant_value().unwrap_or_else(C::zero));
        };
        let cs = self.coeffs(v);
        if cs.len() <= 1 {
            return match cs.first() {
                Some(c) => c.horner(None, vars),
                None => c_literal(&C::zero()),
            };
        }
        let x = vars.name(v);
        // acc = c_d; for i = d-1..0: acc = acc*x (+ c_i)
        let mut acc = cs[cs.len() - 1].horner(None, vars)?;
        for c in cs[..cs.len() - 1].iter().rev() {
            acc = acc.times_var(&x);
            if !c.is_zero() {
                acc = acc.plus(c.horner(None, vars)?);
            }
        }
        Ok(acc)
    }
}

/// A C expression and whether it is a sum at the top (needs parentheses as a factor).
struct CExpr {
    text: String,
    is_sum: bool,
    /// The expression is a literal (possibly negative): `1*x` and `-1*x` simplify.
    literal: Option<i64>,
}

fn c_literal<C: Coeff>(c: &C) -> Result<CExpr, CPrintError> {
    let v = c
        .to_i64()
        .ok_or_else(|| CPrintError::CoefficientTooLarge(c.to_string()))?;
    let text = if v == i64::MIN {
        // The literal 9223372036854775808 does not exist in C.
        "(-9223372036854775807 - 1)".to_string()
    } else if v < 0 {
        format!("({v})")
    } else {
        v.to_string()
    };
    Ok(CExpr {
        text,
        is_sum: false,
        literal: Some(v),
    })
}

impl CExpr {
    fn times_var(self, x: &str) -> CExpr {
        let text = match self.literal {
            Some(1) => x.to_string(),
            Some(-1) => format!("(-{x})"),
            _ if self.is_sum => format!("({})*{x}", self.text),
            _ => format!("{}*{x}", self.text),
        };
        CExpr {
            text,
            is_sum: false,
            literal: None,
        }
    }

    fn plus(self, o: CExpr) -> CExpr {
        let text = match o.literal {
            // i64::MIN has no positive counterpart; keep the parenthesised literal.
            Some(v) if v < 0 && v != i64::MIN => format!("{} - {}", self.text, -(v as i128)),
            _ if o.is_sum => format!("{} + ({})", self.text, o.text),
            _ => format!("{} + {}", self.text, o.text),
        };
        CExpr {
            text,
            is_sum: true,
            literal: None,
        }
    }
}

impl<C: Coeff> fmt::Debug for Poly<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text(&Vars::new()))
    }
}
