//! Parsing polynomials from text: `(y-4)^2 - 3*x + 12`, `2x`, `2(x+1)`.
//!
//! Grammar (whitespace between tokens is ignored):
//! ```text
//! expr   := sign? term (("+" | "-") term)*
//! term   := unary ("*" unary | <number> (ident | "(") ...)*
//! unary  := ("-" | "+") unary | power
//! power  := atom ("^" natural)?
//! atom   := natural | ident | "(" expr ")"
//! ```
//! A number immediately followed by an identifier or `(` multiplies it. Division,
//! decimals, negative exponents and any other character are errors naming the column.
//!
//! Embedded in a language with integer division ([`Poly::parse_prefix_with`]), a term may
//! also be `unary ("mod" | "%") divisor`, the remainder of the product's last factor (as
//! isl: `2i mod 3` and `2*i mod 3` are `2*(i mod 3)`), and an atom `floor(expr / divisor)`,
//! `ceil(expr / divisor)` or `[expr / divisor]` (isl's syntax), with a positive integer
//! constant as divisor; the embedding says which polynomial stands for each floor
//! ([`Divisions`]), and `ceil` and `mod` are written through it.
//!
//! With isl's affine extensions as well ([`Poly::parse_prefix_ratio`]), `e / d` with a
//! positive integer literal `d` is a rational coefficient (the value is a polynomial over
//! a denominator, kept exact) and `min(e, ...)`, `max(e, ...)` are read through the
//! embedding ([`Divisions::extremum`]). A leading sign applies to the whole term, as in
//! isl: `-i mod 3` is `-(i mod 3)`.

mod ratio;

use crate::coeff::Coeff;
use crate::int::Int;
use crate::poly::Poly;
use crate::vars::Vars;
use num_bigint::BigInt;
use ratio::{lcm, Ratio};
use thiserror::Error;

/// Largest exponent the parser accepts; larger ones are almost always typos and would
/// exhaust memory on expansion.
pub const MAX_EXPONENT: u32 = 10_000;

/// Powers of sums whose expansion would hold more coefficient bits than this are refused
/// (`(y - 40)^2666` alone is tens of megabits): memory and time, not mathematics, are the
/// limit. Fuzzing found inputs of 20 bytes near the earlier limits of 2^24 and 2^22 bits
/// that took seconds and half a gigabyte to expand, print and parse back
/// (`(9y - 4)^742`, 2.7 megabits).
pub const MAX_EXPANDED_BITS: u64 = 1 << 20;

/// No coefficient may grow beyond this many bits (about 19,700 decimal digits) through a
/// power or a product: far beyond any loop bound, and printing or reducing such numbers
/// costs seconds (fuzzing found `444...4^4462`, 340,000 bits, taking over a second).
pub const MAX_COEFFICIENT_BITS: u64 = 1 << 16;

/// Powers of sums whose expansion could have more terms than this are refused as well:
/// multiplying out `(y - w - 4i - 71474)^31` (5,984 terms) took most of a second, and
/// loop bounds never need that many (`(a + b + c + d + 1)^9` has 715).
pub const MAX_EXPANDED_TERMS: u64 = 5000;

/// Bits of the largest coefficient.
fn bits(p: &Poly) -> u64 {
    p.terms()
        .iter()
        .map(|(_, c)| c.to_bigint().bits())
        .max()
        .unwrap_or(1)
}

/// An upper estimate of the total size in bits of `base^e` expanded: at most
/// `C(e + t - 1, t - 1)` terms for `t` terms in the base, each coefficient at most
/// `e * (bits of the largest coefficient + log2 t)` bits. `None` when it does not fit in
/// `u64` (certainly too large).
fn expanded_size(base: &Poly, e: u32) -> Option<u64> {
    let terms = expanded_terms(base, e)?;
    if terms > MAX_EXPANDED_TERMS {
        return None;
    }
    let t = base.len() as u64;
    if t <= 1 {
        let bits = base
            .terms()
            .first()
            .map_or(1, |(_, c)| c.to_bigint().bits().max(1));
        return bits.checked_mul(u64::from(e).max(1));
    }
    let e = u64::from(e);
    let max_bits = base
        .terms()
        .iter()
        .map(|(_, c)| c.to_bigint().bits())
        .max()
        .unwrap_or(1);
    let per = e.checked_mul(max_bits + 64 - t.leading_zeros() as u64)?;
    terms.checked_mul(per.max(1))
}

/// The largest exponent of any variable in `p`.
fn largest_exponent(p: &Poly) -> u64 {
    p.terms()
        .iter()
        .flat_map(|(m, _)| m.exps().iter().copied())
        .max()
        .map_or(0, u64::from)
}

/// `C(e + t - 1, t - 1)`, a bound on the number of terms of `base^e` for `t` terms in
/// `base`; `None` when it does not fit in `u64`.
fn expanded_terms(base: &Poly, e: u32) -> Option<u64> {
    let t = base.len() as u64;
    let e = u64::from(e);
    let mut terms: u64 = 1;
    for i in 1..t {
        terms = terms.checked_mul(e + i)? / i;
    }
    Some(terms)
}

/// A parse error at a 1-based column of the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("column {column}: {message}")]
pub struct ParseError {
    /// 1-based column (in characters) where the problem starts.
    pub column: usize,
    /// Byte offset of the same position.
    pub offset: usize,
    /// What went wrong, in words (without the position).
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(BigInt),
    Ident(String),
    Plus,
    Minus,
    Star,
    Caret,
    LParen,
    RParen,
    Slash,
    Percent,
    LBracket,
    RBracket,
    /// A comma between the arguments of `min(` or `max(`.
    Comma,
    End,
}

/// What a language that embeds polynomials makes of an integer division: the parser reads
/// `floor(e/d)`, `ceil(e/d)`, `[e/d]`, `e mod d` and `e % d`, and asks for the polynomial
/// that stands for `floor(e/d)` (typically a new variable `q` with `d*q <= e <= d*q + d - 1`);
/// `ceil(e/d)` is `floor((e + d - 1)/d)` and `e mod d` is `e - d*floor(e/d)`.
pub trait Divisions {
    /// The polynomial for `floor(numerator / denominator)`, `denominator > 0`; an error
    /// message (reported at the division) when the embedding refuses it.
    fn floor(&mut self, numerator: &Poly, denominator: &Int) -> Result<Poly, String>;

    /// The polynomial for `max(args)` (`max` true) or `min(args)`, with at least two
    /// arguments; an error message (reported at the call) when the embedding refuses it,
    /// which is what the default does.
    fn extremum(&mut self, args: &[Poly], max: bool) -> Result<Poly, String> {
        let _ = (args, max);
        Err("min and max are not allowed here".into())
    }
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Num(n) => format!("number {n}"),
            Tok::Ident(s) => format!("identifier '{s}'"),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Star => "'*'".into(),
            Tok::Caret => "'^'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Slash => "'/'".into(),
            Tok::Percent => "'%'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::Comma => "','".into(),
            Tok::End => "end of input".into(),
        }
    }
}

/// Where lexing stops in prefix mode: words of the surrounding language.
const PREFIX_RESERVED: [&str; 3] = ["and", "or", "not"];

fn column_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].chars().count() + 1
}

fn error(src: &str, offset: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        column: column_of(src, offset),
        offset,
        message: message.into(),
    }
}

/// Lexes `src[start..]`. In prefix mode (`reserved` is `Some`) lexing ends, without an
/// error, at the first character that cannot occur in a polynomial or at a reserved
/// word; otherwise such a character is an error. With `divisions`, `/`, `%`, `[` and `]`
/// are tokens.
fn lex(
    src: &str,
    start: usize,
    reserved: Option<&[&str]>,
    divisions: bool,
    extended: bool,
) -> Result<Vec<(Tok, usize)>, ParseError> {
    let mut toks: Vec<(Tok, usize)> = Vec::new();
    // For each open parenthesis, whether it opens the arguments of `min` or `max` (where a
    // comma separates arguments instead of ending the polynomial).
    let mut calls: Vec<bool> = Vec::new();
    let bytes = src.as_bytes();
    let mut i = start;
    let mut end = src.len();
    while i < bytes.len() {
        let c = src[i..].chars().next().expect("i is a char boundary");
        let start = i;
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'.' {
                return Err(error(
                    src,
                    i,
                    "decimal numbers are not allowed: coefficients are integers",
                ));
            }
            let n: BigInt = src[start..i].parse().expect("a run of ASCII digits");
            toks.push((Tok::Num(n), start));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            while i < bytes.len() {
                let d = src[i..].chars().next().expect("i is a char boundary");
                if d.is_alphanumeric() || d == '_' || d == '\'' {
                    i += d.len_utf8();
                } else {
                    break;
                }
            }
            let word = &src[start..i];
            if let Some(r) = reserved {
                if PREFIX_RESERVED.contains(&word) || r.contains(&word) {
                    end = start;
                    break;
                }
            }
            toks.push((Tok::Ident(word.to_string()), start));
            continue;
        }
        let t = match c {
                '+' => Tok::Plus,
                '-' => Tok::Minus,
                '*' => {
                    if src[i + 1..].starts_with('*') {
                        return Err(error(src, i, "'**' is not allowed: write powers with '^'"));
                    }
                    Tok::Star
                }
                '^' => Tok::Caret,
                '(' => {
                    calls.push(
                        extended
                            && matches!(toks.last(), Some((Tok::Ident(w), _)) if w == "min" || w == "max"),
                    );
                    Tok::LParen
                }
                ')' => {
                    calls.pop();
                    Tok::RParen
                }
                ',' if calls.last() == Some(&true) => Tok::Comma,
                '/' if divisions => Tok::Slash,
                '%' if divisions => Tok::Percent,
                '[' if divisions => Tok::LBracket,
                ']' if divisions => Tok::RBracket,
                '/' => return Err(error(src, i, "division is not allowed in a polynomial")),
                '.' => return Err(error(src, i, "decimal numbers are not allowed")),
                _ if reserved.is_some() => {
                    end = start;
                    break;
                }
                _ => {
                    return Err(error(
                        src,
                        i,
                        format!("unexpected character '{c}': expected a number, a variable, an operator or a parenthesis"),
                    ))
                }
            };
        toks.push((t, start));
        i += c.len_utf8();
    }
    toks.push((Tok::End, end));
    Ok(toks)
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<(Tok, usize)>,
    pos: usize,
    vars: &'a mut Vars,
    divisions: Option<&'a mut dyn Divisions>,
    /// How many `floor(`, `ceil(` or `[` enclose the position: a `/` there ends the
    /// numerator instead of being an error.
    quotients: usize,
    /// Whether isl's rational coefficients and `min`/`max` are read.
    extended: bool,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn offset(&self) -> usize {
        self.toks[self.pos].1
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn err(&self, message: impl Into<String>) -> ParseError {
        error(self.src, self.offset(), message)
    }

    fn expected(&self, what: &str) -> ParseError {
        let found = match (self.peek(), self.src[self.offset()..].chars().next()) {
            // In prefix mode lexing ended early: name what stands there.
            (Tok::End, Some(c)) => format!("'{c}'"),
            (t, _) => t.describe(),
        };
        self.err(format!("expected {what}, found {found}"))
    }

    fn expr(&mut self) -> Result<Ratio, ParseError> {
        let mut acc = self.term()?;
        loop {
            match self.peek() {
                Tok::Plus => {
                    self.bump();
                    acc = acc.add(&self.term()?);
                }
                Tok::Minus => {
                    self.bump();
                    acc = acc.sub(&self.term()?);
                }
                _ => return Ok(acc),
            }
        }
    }

    fn term(&mut self) -> Result<Ratio, ParseError> {
        // A sign before a term applies to all of it (isl reads `-i mod 3` as
        // `-(i mod 3)`); for products and powers the two readings agree.
        match self.peek() {
            Tok::Minus => {
                self.bump();
                return Ok(self.term()?.neg());
            }
            Tok::Plus => {
                self.bump();
                return self.term();
            }
            _ => {}
        }
        // The product so far is `before * last`; `mod` takes the remainder of `last`, the
        // last factor alone, as isl does: `2i mod 3` and `2*i mod 3` are `2*(i mod 3)`.
        let (mut before, mut last) = self.factor()?;
        loop {
            match self.peek() {
                Tok::Star => {
                    self.bump();
                    let at = self.offset();
                    let acc = before.mul(&last);
                    let (factor_before, factor_last) = self.factor()?;
                    let factor = factor_before.mul(&factor_last);
                    // The product has at most |acc| * |factor| terms of at most the summed
                    // coefficient sizes: refuse before allocating what cannot fit.
                    let size = (acc.num.len() as u64)
                        .checked_mul(factor.num.len() as u64)
                        .and_then(|t| t.checked_mul(ratio_bits(&acc) + ratio_bits(&factor) + 64));
                    if size.is_none_or(|s| s > MAX_EXPANDED_BITS) {
                        return Err(error(
                            self.src,
                            at,
                            format!("this product expands to more than {MAX_EXPANDED_BITS} bits of coefficients"),
                        ));
                    }
                    // Every exponent must stay one the parser accepts, so that printed
                    // polynomials parse back.
                    // (The degree in a variable of a product over Z is the sum of the
                    // factors' degrees in it: leading coefficients do not cancel.)
                    let (a, f) = (&acc.num, &factor.num);
                    let exponent = a
                        .vars()
                        .into_iter()
                        .chain(f.vars())
                        .map(|v| u64::from(a.degree(v)) + u64::from(f.degree(v)))
                        .max()
                        .unwrap_or(0);
                    if exponent > u64::from(MAX_EXPONENT) {
                        return Err(error(
                            self.src,
                            at,
                            format!("this product raises a variable to the power {exponent} (at most {MAX_EXPONENT})"),
                        ));
                    }
                    if ratio_bits(&acc) + ratio_bits(&factor) > MAX_COEFFICIENT_BITS {
                        return Err(error(
                            self.src,
                            at,
                            format!("this product has coefficients of more than {MAX_COEFFICIENT_BITS} bits"),
                        ));
                    }
                    before = acc.mul(&factor_before);
                    last = factor_last;
                }
                Tok::Slash if self.quotients > 0 => return Ok(before.mul(&last)),
                Tok::Slash if self.extended => {
                    self.bump();
                    last = self.fraction(before.mul(&last))?;
                    before = Ratio::whole(Poly::one());
                }
                Tok::Slash => return Err(self.err(
                    "division is allowed only as integer division: floor(e/d), ceil(e/d) or [e/d]",
                )),
                Tok::Percent => {
                    let at = self.offset();
                    self.bump();
                    last = self.remainder(last, at)?;
                }
                Tok::Ident(w) if w == "mod" && self.divisions.is_some() => {
                    let at = self.offset();
                    self.bump();
                    last = self.remainder(last, at)?;
                }
                _ => return Ok(before.mul(&last)),
            }
        }
    }

    /// `acc / d` after the `/` of a rational coefficient: `d` is a positive integer
    /// literal, as isl requires. isl reads `e/d*f` as `e/(d*f)`, against the usual
    /// convention, so a product right after the divisor is refused rather than read
    /// differently.
    fn fraction(&mut self, acc: Ratio) -> Result<Ratio, ParseError> {
        let d = match self.peek() {
            Tok::Num(n) if n.sign() == num_bigint::Sign::NoSign => {
                return Err(self.err("division by zero"))
            }
            Tok::Num(_) | Tok::LParen => self.divisor()?,
            _ => {
                return Err(self.expected(
                    "a positive integer after '/' (a rational coefficient divides by a number)",
                ))
            }
        };
        if d.bits() > MAX_COEFFICIENT_BITS || ratio_bits(&acc) + d.bits() > MAX_COEFFICIENT_BITS {
            return Err(self.err(format!(
                "this fraction has coefficients of more than {MAX_COEFFICIENT_BITS} bits"
            )));
        }
        if *self.peek() == Tok::Star {
            return Err(self.err("isl reads 'e/d*f' as 'e/(d*f)': write '(e/d)*f' or 'e/(d*f)'"));
        }
        Ok(acc.div_int(&d))
    }

    /// A factor of a product (`unary` of the grammar) as `(coefficient, last)`, whose
    /// product is its value: a sign and the numbers written before a variable or a
    /// parenthesis (`-2i`, `3(x+1)`) go to the coefficient, so that a `mod` after it takes
    /// the remainder of `last` only, as isl reads `-2i mod 3` (`-2*(i mod 3)`).
    fn factor(&mut self) -> Result<(Ratio, Ratio), ParseError> {
        match self.peek() {
            Tok::Minus => {
                self.bump();
                let (coefficient, last) = self.factor()?;
                Ok((coefficient.neg(), last))
            }
            Tok::Plus => {
                self.bump();
                self.factor()
            }
            _ => self.power_factor(),
        }
    }

    /// `power` of the grammar as `(coefficient, last)` (see [`Parser::factor`]).
    fn power_factor(&mut self) -> Result<(Ratio, Ratio), ParseError> {
        let one = Ratio::whole(Poly::one());
        let (base, was_number) = self.atom()?;
        if !was_number {
            return Ok((one, self.exponent(base)?));
        }
        // `2x`, `2(x+1)`, `3x^2`: a number followed by a variable or a parenthesis.
        match self.peek() {
            Tok::Ident(w) if w == "mod" && self.divisions.is_some() => Ok((one, base)),
            Tok::Ident(_) | Tok::LParen => {
                let (coefficient, last) = self.power_factor()?;
                Ok((base.mul(&coefficient), last))
            }
            _ => Ok((one, self.exponent(base)?)),
        }
    }

    fn exponent(&mut self, base: Ratio) -> Result<Ratio, ParseError> {
        if *self.peek() != Tok::Caret {
            return Ok(base);
        }
        self.bump();
        let at = self.offset();
        match self.bump() {
            Tok::Num(n) => {
                let e = u32::try_from(&n)
                    .ok()
                    .filter(|&e| e <= MAX_EXPONENT)
                    .ok_or_else(|| {
                        error(
                            self.src,
                            at,
                            format!("exponent {n} is too large (at most {MAX_EXPONENT})"),
                        )
                    })?;
                if *self.peek() == Tok::Caret {
                    return Err(self.err("chained exponents are ambiguous: add parentheses"));
                }
                let num = &base.num;
                let exponent = largest_exponent(num) * u64::from(e);
                if exponent > u64::from(MAX_EXPONENT) {
                    return Err(error(
                        self.src,
                        at,
                        format!(
                            "this power raises a variable to the power {exponent} (at most {MAX_EXPONENT})"
                        ),
                    ));
                }
                if let Some(t) = expanded_terms(num, e).filter(|&t| t > MAX_EXPANDED_TERMS) {
                    return Err(error(
                        self.src,
                        at,
                        format!(
                            "this power expands to up to {t} terms (at most {MAX_EXPANDED_TERMS}): lower the exponent or factor the base"
                        ),
                    ));
                }
                // Bits of the largest coefficient of the power: at most e times those of
                // the base plus log2 of its number of terms (the denominator likewise).
                let coefficient = u64::from(e).checked_mul(
                    ratio_bits(&base) + 64 - (num.len() as u64).leading_zeros() as u64,
                );
                if let Some(c) = coefficient.filter(|&c| c > MAX_COEFFICIENT_BITS) {
                    return Err(error(
                        self.src,
                        at,
                        format!(
                            "this power has coefficients of up to {c} bits (at most {MAX_COEFFICIENT_BITS}): lower the exponent"
                        ),
                    ));
                }
                let size = expanded_size(num, e);
                if size.is_none_or(|s| s > MAX_EXPANDED_BITS) {
                    let about = size.map_or("more than 2^64".to_string(), |s| s.to_string());
                    return Err(error(
                        self.src,
                        at,
                        format!(
                            "this power expands to about {about} bits of coefficients (at most {MAX_EXPANDED_BITS}): lower the exponent or factor the base"
                        ),
                    ));
                }
                Ok(base.pow(e))
            }
            Tok::Minus => Err(error(self.src, at, "negative exponents are not allowed")),
            t => Err(error(
                self.src,
                at,
                format!(
                    "expected a non-negative integer exponent, found {}",
                    t.describe()
                ),
            )),
        }
    }

    /// An expression inside parentheses of its own, where a `/` is not the one of an
    /// enclosing `floor(e/d)`.
    fn nested_expr(&mut self) -> Result<Ratio, ParseError> {
        let quotients = std::mem::replace(&mut self.quotients, 0);
        let e = self.expr();
        self.quotients = quotients;
        e
    }

    /// An atom, and whether it was a number literal.
    fn atom(&mut self) -> Result<(Ratio, bool), ParseError> {
        let at = self.offset();
        let next_is_paren = self.toks.get(self.pos + 1).map(|t| &t.0) == Some(&Tok::LParen);
        match self.peek().clone() {
            Tok::Num(n) => {
                self.bump();
                Ok((Ratio::whole(Poly::constant(Int::from_bigint(n))), true))
            }
            Tok::Ident(name)
                if self.divisions.is_some()
                    && (name == "floor" || name == "ceil")
                    && next_is_paren =>
            {
                self.bump();
                self.bump();
                let q = self.quotient(Tok::RParen, "')'", name == "ceil", at)?;
                Ok((q, false))
            }
            Tok::Ident(name)
                if self.extended && (name == "min" || name == "max") && next_is_paren =>
            {
                self.bump();
                self.bump();
                Ok((self.extremum(name == "max", at)?, false))
            }
            Tok::LBracket if self.divisions.is_some() => {
                self.bump();
                let q = self.quotient(Tok::RBracket, "']'", false, at)?;
                Ok((q, false))
            }
            Tok::Ident(name) => {
                self.bump();
                match self.vars.intern(&name) {
                    Some(i) => Ok((Ratio::whole(Poly::var(i)), false)),
                    None => Err(error(
                        self.src,
                        at,
                        format!(
                            "unknown variable '{name}' (known: {})",
                            self.vars.names().join(", ")
                        ),
                    )),
                }
            }
            Tok::LParen => {
                self.bump();
                let e = self.nested_expr()?;
                if *self.peek() != Tok::RParen {
                    return Err(self.expected("')'"));
                }
                self.bump();
                Ok((e, false))
            }
            _ => Err(self.expected("a number, a variable or '('")),
        }
    }

    /// The arguments of `max(` (`max`) or `min(` after the parenthesis, and the closing
    /// one; `at` is the offset of the name. One argument is its own value; for more, the
    /// embedding gives the polynomial, over the common denominator of the arguments.
    fn extremum(&mut self, max: bool, at: usize) -> Result<Ratio, ParseError> {
        let mut args = vec![self.nested_expr()?];
        loop {
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                    args.push(self.nested_expr()?);
                }
                Tok::RParen => {
                    self.bump();
                    break;
                }
                _ => return Err(self.expected("',' or ')'")),
            }
        }
        if args.len() == 1 {
            return Ok(args.remove(0));
        }
        let den = lcm(args.iter().map(|a| &a.den));
        let nums: Vec<Poly> = args.iter().map(|a| a.numerator_over(&den)).collect();
        let src = self.src;
        let m = match self.divisions.as_mut() {
            Some(div) => div.extremum(&nums, max).map_err(|m| error(src, at, m))?,
            None => return Err(error(src, at, "min and max are not allowed here")),
        };
        Ok(Ratio { num: m, den })
    }

    /// `floor(e / d)` through the embedding, `at` the offset of the division.
    fn floor(&mut self, e: &Poly, d: &Int, at: usize) -> Result<Poly, ParseError> {
        let src = self.src;
        match self.divisions.as_mut() {
            Some(div) => div.floor(e, d).map_err(|m| error(src, at, m)),
            None => Err(error(src, at, "integer division is not allowed here")),
        }
    }

    /// `floor(num/den)` or `ceil(num/den)` (`den > 0`) through the embedding's division
    /// (`ceil(N/D) = floor((N + D - 1)/D)`); with `den` 1 the value is `num` itself.
    fn rounded(&mut self, num: Poly, den: Int, ceil: bool, at: usize) -> Result<Ratio, ParseError> {
        if den.is_one() {
            return Ok(Ratio::whole(num));
        }
        let n = if ceil {
            num.add(&Poly::constant(den.clone())).sub(&Poly::one())
        } else {
            num
        };
        Ok(Ratio::whole(self.floor(&n, &den, at)?))
    }

    /// The rest of `floor(`, `ceil(` or `[` after the opening token: `expr ("/" divisor)?`
    /// and the closing token. Without a divisor the value is the expression itself
    /// (rounded, when isl's rational coefficients made it a fraction).
    fn quotient(
        &mut self,
        close: Tok,
        what: &str,
        ceil: bool,
        at: usize,
    ) -> Result<Ratio, ParseError> {
        if self.extended {
            // isl's reading: the argument is an expression with rational coefficients
            // (`floor(i + i/2)` is `floor(3i/2)`), rounded as a whole.
            let e = self.nested_expr()?;
            if *self.peek() != close {
                return Err(self.expected(what));
            }
            self.bump();
            return self.rounded(e.num, e.den, ceil, at);
        }
        self.quotients += 1;
        let e = self.expr();
        self.quotients -= 1;
        let e = e?;
        let q = if *self.peek() == Tok::Slash {
            self.bump();
            let d = self.divisor()?;
            // Not reduced: `floor(2i/4)` stays the division of `2i` by 4.
            self.rounded(e.num, e.den.mul(&d), ceil, at)?
        } else {
            self.rounded(e.num, e.den, ceil, at)?
        };
        if *self.peek() != close {
            return Err(self.expected(&format!("'/' or {what}")));
        }
        self.bump();
        Ok(q)
    }

    /// `acc mod d` after the operator (at `at`): `acc - d*floor(acc/d)`.
    fn remainder(&mut self, acc: Ratio, at: usize) -> Result<Ratio, ParseError> {
        if !acc.is_whole() {
            return Err(error(
                self.src,
                at,
                "the remainder of a fraction is not defined: 'mod' needs an integer value",
            ));
        }
        let d = self.divisor()?;
        let q = self.floor(&acc.num, &d, at)?;
        Ok(Ratio::whole(acc.num.sub(&q.mul(&Poly::constant(d)))))
    }

    /// A divisor: a positive integer, possibly in parentheses or a constant expression.
    fn divisor(&mut self) -> Result<Int, ParseError> {
        let at = self.offset();
        let (d, _) = self.atom()?;
        match d.num.constant_value() {
            Some(c) if c.signum() > 0 && d.is_whole() => Ok(c),
            _ => Err(error(
                self.src,
                at,
                "the divisor of an integer division must be a positive integer constant",
            )),
        }
    }
}

impl Poly<Int> {
    /// Parses a polynomial, interning variable names into `vars`.
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut vars = Vars::new();
    /// let p = Poly::parse("(y-4)^2 - 3*x + 12", &mut vars).unwrap();
    /// assert_eq!(vars.names(), ["y", "x"]);
    /// assert_eq!(p.to_text(&vars), "-3*x + y^2 - 8*y + 28");
    /// let err = Poly::parse("x / 2", &mut vars).unwrap_err();
    /// assert_eq!(err.column, 3);
    /// ```
    pub fn parse(src: &str, vars: &mut Vars) -> Result<Poly, ParseError> {
        let toks = lex(src, 0, None, false, false)?;
        let (e, p) = parse_one(
            src,
            toks,
            vars,
            None,
            false,
            "empty input: expected a polynomial",
        )?;
        if *p.peek() != Tok::End {
            return Err(p.expected("an operator or the end of the polynomial"));
        }
        Ok(e.num)
    }

    /// Parses the longest polynomial starting at byte `start` of `src`, for embedding
    /// polynomials in a larger language. Stops before the first character that cannot
    /// occur in a polynomial (`<`, `,`, `]`, ...), before the words `and`, `or`, `not`
    /// and the words in `reserved`, and before a token that cannot continue the
    /// polynomial (an unmatched `)`, a second operand). Returns the polynomial and the
    /// byte offset where it ends. Error offsets are offsets into `src`.
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut vars = Vars::from_names(["i", "n"]);
    /// let src = "0 <= 2i + 1 < n and i >= 0";
    /// let (p, end) = Poly::parse_prefix(src, 4, &mut vars, &[]).unwrap();
    /// assert_eq!(p.to_text(&vars), "2*i + 1");
    /// assert_eq!(&src[end..], "< n and i >= 0");
    /// ```
    pub fn parse_prefix(
        src: &str,
        start: usize,
        vars: &mut Vars,
        reserved: &[&str],
    ) -> Result<(Poly, usize), ParseError> {
        let toks = lex(src, start, Some(reserved), false, false)?;
        let (e, p) = parse_one(src, toks, vars, None, false, "expected a polynomial")?;
        Ok((e.num, p.offset()))
    }

    /// [`Poly::parse_prefix`] in a language with integer division: `floor(e/d)`,
    /// `ceil(e/d)`, `[e/d]`, `e mod d` and `e % d` are read, and `divisions` gives the
    /// polynomial for each floor.
    ///
    /// ```
    /// use polys::{Divisions, Int, Poly, Vars};
    /// // Each floor becomes a new variable q, recorded with its division.
    /// struct Quotients(Vec<(Poly, Int)>);
    /// impl Divisions for Quotients {
    ///     fn floor(&mut self, e: &Poly, d: &Int) -> Result<Poly, String> {
    ///         self.0.push((e.clone(), d.clone()));
    ///         Ok(Poly::var(1))
    ///     }
    /// }
    /// let mut vars = Vars::from_names(["i", "q"]);
    /// let mut qs = Quotients(Vec::new());
    /// let (p, end) = Poly::parse_prefix_with("i mod 4 = 1", 0, &mut vars, &[], &mut qs).unwrap();
    /// assert_eq!(p.to_text(&vars), "-4*q + i");
    /// assert_eq!(end, 8);
    /// assert_eq!(qs.0[0].1, Int::from(4));
    /// ```
    pub fn parse_prefix_with(
        src: &str,
        start: usize,
        vars: &mut Vars,
        reserved: &[&str],
        divisions: &mut dyn Divisions,
    ) -> Result<(Poly, usize), ParseError> {
        let toks = lex(src, start, Some(reserved), true, false)?;
        let (e, p) = parse_one(
            src,
            toks,
            vars,
            Some(divisions),
            false,
            "expected a polynomial",
        )?;
        // Without the extensions no `/` outside a division is read: the value is whole.
        debug_assert!(e.is_whole());
        Ok((e.num, p.offset()))
    }

    /// [`Poly::parse_prefix_with`] with isl's affine extensions: `e / d` with a positive
    /// integer literal `d` is a rational coefficient (`i/2 <= 3`) and `min(e, ...)`,
    /// `max(e, ...)` are read through [`Divisions::extremum`]; the argument of `floor(`,
    /// `ceil(` or `[` is such an expression, rounded (`floor(i + i/2)` is `floor(3i/2)`).
    /// Returns the numerator, the positive denominator (1 unless a fraction was read)
    /// and the byte offset where the polynomial ends.
    ///
    /// ```
    /// use polys::{Divisions, Int, Poly, Vars};
    /// struct Plain;
    /// impl Divisions for Plain {
    ///     fn floor(&mut self, _: &Poly, _: &Int) -> Result<Poly, String> {
    ///         Err("no divisions".into())
    ///     }
    /// }
    /// let mut vars = Vars::from_names(["i", "n"]);
    /// let (p, d, end) = Poly::parse_prefix_ratio("i/2 + n/3 <= 1", 0, &mut vars, &[], &mut Plain).unwrap();
    /// assert_eq!((p.to_text(&vars), d), ("2*n + 3*i".to_string(), Int::from(6)));
    /// assert_eq!(end, 10);
    /// ```
    pub fn parse_prefix_ratio(
        src: &str,
        start: usize,
        vars: &mut Vars,
        reserved: &[&str],
        divisions: &mut dyn Divisions,
    ) -> Result<(Poly, Int, usize), ParseError> {
        let toks = lex(src, start, Some(reserved), true, true)?;
        let (e, p) = parse_one(
            src,
            toks,
            vars,
            Some(divisions),
            true,
            "expected a polynomial",
        )?;
        Ok((e.num, e.den, p.offset()))
    }
}

/// One polynomial from the tokens, and the parser positioned after it; `empty` is the
/// message when there is none.
fn parse_one<'a>(
    src: &'a str,
    toks: Vec<(Tok, usize)>,
    vars: &'a mut Vars,
    divisions: Option<&'a mut dyn Divisions>,
    extended: bool,
    empty: &str,
) -> Result<(Ratio, Parser<'a>), ParseError> {
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        vars,
        divisions,
        quotients: 0,
        extended,
    };
    if *p.peek() == Tok::End {
        return Err(p.err(empty));
    }
    let e = p.expr()?;
    Ok((e, p))
}

/// Bits of the larger of a value's largest coefficient and its denominator.
fn ratio_bits(r: &Ratio) -> u64 {
    bits(&r.num).max(r.den.bits())
}

#[cfg(test)]
mod tests;
