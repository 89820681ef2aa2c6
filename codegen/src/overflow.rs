//! Integer overflow in generated code: the parameter range within which the emitted
//! `int64_t` arithmetic provably cannot overflow ([`safe_parameter_bound`]), and the
//! rewriting of emitted expressions into checked helper calls (`--check-overflow`).
//!
//! Both work on the C text the printer emits, parsed back into a small expression tree
//! ([`CAst`]): the analysis then sees exactly the operations, operand order and
//! associativity that the C compiler sees (the printer splices nested sums into one
//! left-associated chain, which a walk over [`Expr`](crate::expr::Expr) would get wrong),
//! and the checked code performs exactly the operations the analysis cleared.
//!
//! The analysis is interval arithmetic over the AST: parameters range over `[-B, B]`, a
//! loop variable over the hull of its bounds' enclosures, a guarded parameter is
//! intersected with its guard; every operation's exact result interval (in `i128`) must lie
//! in `int64_t`, and the `__int128` evaluation inside `ps_root_search` in `__int128`. Every
//! step is inclusion-monotone, so the largest safe `B` is found by bisection. It relies on
//! the generator's documented invariants (divisors positive and root arguments
//! non-negative wherever evaluated); the checked helpers test those at run time too.

use crate::ast::Node;
use crate::emit_c::CEmitter;
use crate::generate::Generated;
use std::fmt;

/// An expression of the emitted C, parsed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CAst {
    /// A literal or a constant subexpression the C compiler folds (within `int64_t`).
    Lit(i128),
    /// A variable, by index into the problem's variables.
    Var(usize),
    /// Unary minus.
    Neg(Box<CAst>),
    /// A binary operation, left operand first.
    Bin(BinOp, Box<CAst>, Box<CAst>),
    /// A call of a `ps_*` helper.
    Call(String, Vec<CAst>),
    /// A compound literal `(const int64_t[]){...}` (root search coefficients).
    Array(Vec<CAst>),
}

/// The binary operators the printer emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
}

/// Why an emitted expression could not be read back or checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckedError {
    /// The printer could not print the code in 64-bit C at all.
    Print(String),
    /// The printed text is not in the expected grammar (a bug of this module).
    Unparsed { text: String, message: String },
}

impl fmt::Display for CheckedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckedError::Print(m) => write!(f, "cannot print the code in 64-bit C: {m}"),
            CheckedError::Unparsed { text, message } => {
                write!(
                    f,
                    "cannot read back the emitted expression `{text}`: {message}"
                )
            }
        }
    }
}

impl std::error::Error for CheckedError {}

const I64_MIN: i128 = i64::MIN as i128;
const I64_MAX: i128 = i64::MAX as i128;

fn fits(v: i128) -> bool {
    (I64_MIN..=I64_MAX).contains(&v)
}

// ---------------------------------------------------------------------------------------
// Parsing the printer's C text.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Num(i128),
    Ident(String),
    P(char),
}

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < cs.len() && cs[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = cs[start..i].iter().collect();
            let v: i128 = s.parse().map_err(|_| format!("literal {s} too large"))?;
            if v > I64_MAX {
                return Err(format!("literal {s} does not fit in int64_t"));
            }
            out.push(Tok::Num(v));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(cs[start..i].iter().collect()));
        } else if "(){}[],+-*".contains(c) {
            out.push(Tok::P(c));
            i += 1;
        } else {
            return Err(format!("unexpected character {c:?}"));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    var: &'a dyn Fn(&str) -> Option<usize>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::P(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{c}' at token {}", self.at))
        }
    }

    fn expect_ident(&mut self, name: &str) -> Result<(), String> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == name => {
                self.at += 1;
                Ok(())
            }
            _ => Err(format!("expected '{name}' at token {}", self.at)),
        }
    }

    /// `term (('+' | '-') term)*`, left-associative as in C.
    fn expr(&mut self) -> Result<CAst, String> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat('+') {
                BinOp::Add
            } else if self.eat('-') {
                BinOp::Sub
            } else {
                return Ok(left);
            };
            let right = self.term()?;
            left = fold_bin(op, left, right);
        }
    }

    fn term(&mut self) -> Result<CAst, String> {
        let mut left = self.unary()?;
        while self.eat('*') {
            let right = self.unary()?;
            left = fold_bin(BinOp::Mul, left, right);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<CAst, String> {
        if self.eat('-') {
            let inner = self.unary()?;
            // `-5` is a constant expression: the compiler folds it, nothing runs.
            return Ok(match inner {
                CAst::Lit(v) if fits(-v) => CAst::Lit(-v),
                e => CAst::Neg(Box::new(e)),
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<CAst, String> {
        match self.peek().cloned() {
            Some(Tok::Num(v)) => {
                self.at += 1;
                Ok(CAst::Lit(v))
            }
            Some(Tok::Ident(name)) => {
                self.at += 1;
                if self.eat('(') {
                    let mut args = Vec::new();
                    if !self.eat(')') {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(')') {
                                break;
                            }
                            self.expect(',')?;
                        }
                    }
                    Ok(CAst::Call(name, args))
                } else {
                    (self.var)(&name)
                        .map(CAst::Var)
                        .ok_or_else(|| format!("unknown variable '{name}'"))
                }
            }
            Some(Tok::P('(')) => {
                self.at += 1;
                if self.peek() == Some(&Tok::Ident("const".into())) {
                    self.at += 1;
                    self.expect_ident("int64_t")?;
                    self.expect('[')?;
                    self.expect(']')?;
                    self.expect(')')?;
                    self.expect('{')?;
                    let mut items = Vec::new();
                    if !self.eat('}') {
                        loop {
                            items.push(self.expr()?);
                            if self.eat('}') {
                                break;
                            }
                            self.expect(',')?;
                        }
                    }
                    return Ok(CAst::Array(items));
                }
                let e = self.expr()?;
                self.expect(')')?;
                Ok(e)
            }
            other => Err(format!("unexpected {other:?} at token {}", self.at)),
        }
    }
}

/// A binary operation, folded when both operands are constants and the result fits (as
/// the C compiler folds `(-9223372036854775807 - 1)`).
fn fold_bin(op: BinOp, a: CAst, b: CAst) -> CAst {
    if let (CAst::Lit(x), CAst::Lit(y)) = (&a, &b) {
        let v = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
        };
        if fits(v) {
            return CAst::Lit(v);
        }
    }
    CAst::Bin(op, Box::new(a), Box::new(b))
}

/// Parses an expression the C printer emitted; `var` resolves variable names.
pub fn parse_c(text: &str, var: &dyn Fn(&str) -> Option<usize>) -> Result<CAst, CheckedError> {
    let fail = |message: String| CheckedError::Unparsed {
        text: text.to_string(),
        message,
    };
    let toks = tokenize(text).map_err(fail)?;
    let mut p = Parser { toks, at: 0, var };
    let e = p.expr().map_err(fail)?;
    if p.at != p.toks.len() {
        return Err(fail(format!("trailing input at token {}", p.at)));
    }
    Ok(e)
}

// ---------------------------------------------------------------------------------------
// Checked rendering.

/// The target language of checked rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// C99 with GCC builtins.
    C,
    /// Rust (`&[...]` for coefficient arrays).
    Rust,
}

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

/// `e` with every operation through a checked helper that names `site` (already a string
/// literal) when it fails. `names` gives the variables' names.
pub fn render_checked(e: &CAst, site: &str, names: &dyn Fn(usize) -> String, lang: Lang) -> String {
    let r = |x: &CAst| render_checked(x, site, names, lang);
    match e {
        CAst::Lit(v) => {
            let v = *v;
            if v == I64_MIN {
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
        CAst::Var(k) => names(*k),
        CAst::Neg(a) => format!("ps_neg_ck({}, {site})", r(a)),
        CAst::Bin(op, a, b) => {
            let f = match op {
                BinOp::Add => "ps_add_ck",
                BinOp::Sub => "ps_sub_ck",
                BinOp::Mul => "ps_mul_ck",
            };
            format!("{f}({}, {}, {site})", r(a), r(b))
        }
        CAst::Call(name, args) => {
            let args: Vec<String> = args.iter().map(r).collect();
            match name.as_str() {
                // No arithmetic that can overflow inside: unchanged.
                "ps_max" | "ps_min" | "ps_isqrt" => format!("{name}({})", args.join(", ")),
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

// ---------------------------------------------------------------------------------------
// Interval analysis.

/// A closed integer interval (non-empty: `lo <= hi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iv {
    /// Least value.
    pub lo: i128,
    /// Greatest value.
    pub hi: i128,
}

impl Iv {
    /// `[lo, hi]`; callers keep `lo <= hi`.
    pub fn new(lo: i128, hi: i128) -> Iv {
        Iv { lo, hi }
    }

    fn point(v: i128) -> Iv {
        Iv { lo: v, hi: v }
    }

    /// The intersection with `[lo, hi]`, `None` when empty.
    fn clamp(self, lo: i128, hi: i128) -> Option<Iv> {
        let (l, h) = (self.lo.max(lo), self.hi.min(hi));
        (l <= h).then_some(Iv { lo: l, hi: h })
    }
}

/// Enclosure of one evaluation: `Ok(None)` when the expression is never evaluated there
/// (its operands can only take values the generator never evaluates it at, by the
/// invariants), `Err(operation)` when an operation may leave its range.
type Enc = Result<Option<Iv>, String>;

fn in_i64(v: Iv, what: &str) -> Enc {
    if fits(v.lo) && fits(v.hi) {
        Ok(Some(v))
    } else {
        Err(format!(
            "{what} (result in [{}, {}] may leave int64_t)",
            v.lo, v.hi
        ))
    }
}

/// Interval product of `i128` intervals, `None` if a corner overflows `i128`.
fn mul_iv(a: Iv, b: Iv) -> Option<Iv> {
    let cs = [
        a.lo.checked_mul(b.lo)?,
        a.lo.checked_mul(b.hi)?,
        a.hi.checked_mul(b.lo)?,
        a.hi.checked_mul(b.hi)?,
    ];
    Some(Iv::new(*cs.iter().min()?, *cs.iter().max()?))
}

fn floor_div(n: i128, d: i128) -> i128 {
    n.div_euclid(d)
}

fn ceil_div(n: i128, d: i128) -> i128 {
    -(-n).div_euclid(d)
}

/// `floor(sqrt(n))` for `n >= 0`.
fn isqrt(n: i128) -> i128 {
    if n < 2 {
        return n;
    }
    let mut r = (n as f64).sqrt() as i128;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// `floor(n^(1/k))` for `n >= 0`, `k >= 1`, `n` within `int64_t`.
fn iroot(n: i128, k: u32) -> i128 {
    if n < 2 || k <= 1 {
        return n;
    }
    let pow_le = |b: i128| {
        let mut r: i128 = 1;
        for _ in 0..k {
            r = match r.checked_mul(b) {
                Some(v) if v <= n => v,
                _ => return false,
            };
        }
        true
    };
    let (mut lo, mut hi) = (1i128, 2i128);
    while pow_le(hi) {
        lo = hi;
        hi *= 2;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pow_le(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn ceil_root(n: i128, k: u32) -> i128 {
    let s = if k == 2 { isqrt(n) } else { iroot(n, k) };
    if s.checked_pow(k) == Some(n) {
        s
    } else {
        s + 1
    }
}

/// Enclosure of `e` where variable `k` ranges over `env[k]` (`None`: not bound, which a
/// correct program never reads).
fn enclose(e: &CAst, env: &[Option<Iv>]) -> Enc {
    macro_rules! sub {
        ($x:expr) => {
            match enclose($x, env)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
    }
    match e {
        CAst::Lit(v) => in_i64(Iv::point(*v), "constant"),
        CAst::Var(k) => match env.get(*k).copied().flatten() {
            Some(v) => Ok(Some(v)),
            None => Err(format!("variable {k} read outside its loop")),
        },
        CAst::Neg(a) => {
            let a = sub!(a);
            in_i64(Iv::new(-a.hi, -a.lo), "-a")
        }
        CAst::Bin(op, a, b) => {
            let same = a == b;
            let (x, y) = (sub!(a), sub!(b));
            match op {
                BinOp::Add => in_i64(Iv::new(x.lo + y.lo, x.hi + y.hi), "a + b"),
                BinOp::Sub => in_i64(Iv::new(x.lo - y.hi, x.hi - y.lo), "a - b"),
                BinOp::Mul if same => {
                    // A square is not negative: `r*r` is not enclosed by `[-r^2, r^2]`.
                    let m = x.lo.abs().max(x.hi.abs());
                    let l = if x.lo <= 0 && x.hi >= 0 {
                        0
                    } else {
                        x.lo.abs().min(x.hi.abs())
                    };
                    in_i64(Iv::new(l * l, m * m), "a * a")
                }
                BinOp::Mul => match mul_iv(x, y) {
                    Some(v) => in_i64(v, "a * b"),
                    None => Err("a * b".into()),
                },
            }
        }
        CAst::Array(_) => Err("array outside ps_root_search".into()),
        CAst::Call(name, args) => enclose_call(name, args, env),
    }
}

fn enclose_call(name: &str, args: &[CAst], env: &[Option<Iv>]) -> Enc {
    macro_rules! sub {
        ($x:expr) => {
            match enclose($x, env)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
    }
    let literal = |k: usize| match args.get(k) {
        Some(CAst::Lit(v)) => Ok(*v),
        _ => Err(format!("{name}: argument {} is not a literal", k + 1)),
    };
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("{name}: {} arguments, expected {n}", args.len()))
        }
    };
    match name {
        "ps_max" | "ps_min" => {
            arity(2)?;
            let (a, b) = (sub!(&args[0]), sub!(&args[1]));
            Ok(Some(if name == "ps_max" {
                Iv::new(a.lo.max(b.lo), a.hi.max(b.hi))
            } else {
                Iv::new(a.lo.min(b.lo), a.hi.min(b.hi))
            }))
        }
        "ps_floord" | "ps_ceild" => {
            arity(2)?;
            let n = sub!(&args[0]);
            // Divisors are positive wherever the generator evaluates a division.
            let Some(d) = sub!(&args[1]).clamp(1, I64_MAX) else {
                return Ok(None);
            };
            if name == "ps_floord" {
                // n >= 0 ? n / d : -((-n + d - 1) / d)
                if n.lo < 0 {
                    in_i64(Iv::new(1, -n.lo), "ps_floord: -n")?;
                    in_i64(Iv::new(1 + d.lo, -n.lo + d.hi), "ps_floord: -n + d")?;
                }
            } else {
                // n >= 0 ? (n + d - 1) / d : -((-n) / d)
                if n.hi >= 0 {
                    in_i64(Iv::new(d.lo, n.hi + d.hi), "ps_ceild: n + d")?;
                }
                if n.lo < 0 {
                    in_i64(Iv::new(1, -n.lo), "ps_ceild: -n")?;
                }
            }
            let f = if name == "ps_floord" {
                floor_div
            } else {
                ceil_div
            };
            // Monotone in n, and in d for fixed n: the extremes are at the corners.
            let cs = [f(n.lo, d.lo), f(n.lo, d.hi), f(n.hi, d.lo), f(n.hi, d.hi)];
            Ok(Some(Iv::new(
                *cs.iter().min().unwrap_or(&0),
                *cs.iter().max().unwrap_or(&0),
            )))
        }
        "ps_isqrt" | "ps_ceil_sqrt" | "ps_iroot" | "ps_ceil_iroot" => {
            let k = match name {
                "ps_isqrt" | "ps_ceil_sqrt" => {
                    arity(1)?;
                    2
                }
                _ => {
                    arity(2)?;
                    let k = literal(1)?;
                    u32::try_from(k)
                        .ok()
                        .filter(|k| *k >= 2)
                        .ok_or_else(|| format!("{name}: degree {k}"))?
                }
            };
            // The helpers' own arithmetic stays below the argument (s*s <= n, hi <= 2
            // n^(1/k)); a negative argument gives -1 or 0 (even k) or the negated root of
            // its absolute value (odd k), so the result is monotone in the argument.
            let n = sub!(&args[0]);
            if n.lo < -I64_MAX {
                return Err(format!("{name}: argument below -INT64_MAX"));
            }
            let ceil = name.starts_with("ps_ceil");
            let f = |v: i128| {
                if v < 0 {
                    let neg_root = |c: bool| {
                        if c {
                            ceil_root(-v, k)
                        } else if k == 2 {
                            isqrt(-v)
                        } else {
                            iroot(-v, k)
                        }
                    };
                    if k % 2 == 0 {
                        -1 + ceil as i128
                    } else {
                        -neg_root(!ceil)
                    }
                } else if ceil {
                    ceil_root(v, k)
                } else if k == 2 {
                    isqrt(v)
                } else {
                    iroot(v, k)
                }
            };
            Ok(Some(Iv::new(f(n.lo), f(n.hi))))
        }
        "ps_root_search" => enclose_root_search(args, env),
        other => Err(format!("unknown helper {other}")),
    }
}

/// `ps_root_search(deg, coeffs, lo, hi, before, ceil)`: the coefficients in `int64_t`,
/// the search's own steps (`lo + 1`, `hi - last`, a step doubling up to twice `hi - lo`,
/// `ans + 1`), and the polynomial in `__int128` at every `y` in `lo + 1 ..= hi`.
fn enclose_root_search(args: &[CAst], env: &[Option<Iv>]) -> Enc {
    macro_rules! sub {
        ($x:expr) => {
            match enclose($x, env)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
    }
    let [_, CAst::Array(cs), lo, hi, _, _] = args else {
        return Err("ps_root_search: unexpected arguments".into());
    };
    let mut coeffs = Vec::with_capacity(cs.len());
    for c in cs {
        coeffs.push(sub!(c));
    }
    let (lo, hi) = (sub!(lo), sub!(hi));
    in_i64(Iv::new(lo.lo, lo.hi + 1), "ps_root_search: lo + 1")?;
    in_i64(Iv::new(hi.lo, hi.hi + 1), "ps_root_search: ans + 1")?;
    let span = (hi.hi - lo.lo).max(0);
    in_i64(
        Iv::new(0, 2 * span + 2),
        "ps_root_search: step (2 (hi - lo))",
    )?;
    // The polynomial is evaluated only when lo < hi, at y in lo+1..=hi.
    if lo.lo < hi.hi {
        let y = Iv::new(lo.lo + 1, hi.hi);
        let overflow = || Err("ps_poly_sign: __int128 Horner step".to_string());
        let Some((last, rest)) = coeffs.split_last() else {
            return Err("ps_root_search: no coefficients".into());
        };
        let mut acc = *last;
        for c in rest.iter().rev() {
            let Some(t) = mul_iv(acc, y) else {
                return overflow();
            };
            match (t.lo.checked_add(c.lo), t.hi.checked_add(c.hi)) {
                (Some(l), Some(h)) => acc = Iv::new(l, h),
                _ => return overflow(),
            }
        }
    }
    Ok(Some(Iv::new(lo.lo, lo.hi.max(hi.hi) + 1)))
}

// ---------------------------------------------------------------------------------------
// The program as the analysis sees it.

/// One expression of the program, parsed, with a description for messages.
#[derive(Clone, Debug)]
pub struct Site {
    /// The expression as the compiler sees it.
    pub ast: CAst,
    /// What the expression is, e.g. "upper bound of the loop over j: n - 1".
    pub what: String,
}

/// The loop AST with every expression parsed back from its C text.
#[derive(Clone, Debug)]
pub enum ANode {
    /// `for (var = lower; var <= upper; var += 1) body`.
    Loop {
        var: usize,
        lower: Site,
        upper: Site,
        body: Vec<ANode>,
    },
    Guard {
        var: usize,
        lower: Option<Site>,
        upper: Option<Site>,
        body: Vec<ANode>,
    },
    Stmt {
        args: Vec<Site>,
    },
}

/// The emitted program's expressions, parsed (once) for repeated analysis.
pub struct Program {
    nodes: Vec<ANode>,
    nvars: usize,
    nparams: usize,
}

/// Resolves names of `vars` to indices.
pub fn var_lookup<'c>(c: &'c CEmitter<'_>) -> impl Fn(&str) -> Option<usize> + 'c {
    move |name: &str| c.vars.index(name)
}

fn site(c: &CEmitter, e: &crate::expr::Expr, what: String) -> Result<Site, CheckedError> {
    let text = c.expr(e).map_err(|e| CheckedError::Print(e.to_string()))?;
    let lookup = var_lookup(c);
    let ast = parse_c(&text, &lookup)?;
    Ok(Site {
        ast,
        what: format!("{what}: {text}"),
    })
}

impl Program {
    /// Parses every expression `c` prints for `nodes`.
    pub fn new(c: &CEmitter, nodes: &[Node]) -> Result<Program, CheckedError> {
        fn walk(c: &CEmitter, nodes: &[Node]) -> Result<Vec<ANode>, CheckedError> {
            nodes
                .iter()
                .map(|n| {
                    Ok(match n {
                        Node::Loop {
                            var,
                            lower,
                            upper,
                            body,
                        } => {
                            let x = c.vars.name(*var);
                            ANode::Loop {
                                var: *var,
                                lower: site(c, lower, format!("lower bound of the loop over {x}"))?,
                                upper: site(c, upper, format!("upper bound of the loop over {x}"))?,
                                body: walk(c, body)?,
                            }
                        }
                        Node::Guard {
                            var,
                            lower,
                            upper,
                            body,
                        } => {
                            let p = c.vars.name(*var);
                            ANode::Guard {
                                var: *var,
                                lower: lower
                                    .as_ref()
                                    .map(|e| site(c, e, format!("guard {p} >= ...")))
                                    .transpose()?,
                                upper: upper
                                    .as_ref()
                                    .map(|e| site(c, e, format!("guard {p} <= ...")))
                                    .transpose()?,
                                body: walk(c, body)?,
                            }
                        }
                        Node::Stmt { stmt, args } => {
                            let name = c.statements.get(*stmt).map_or("S", |s| s.0.as_str());
                            ANode::Stmt {
                                args: args
                                    .iter()
                                    .enumerate()
                                    .map(|(k, a)| {
                                        site(c, a, format!("argument {} of {name}", k + 1))
                                    })
                                    .collect::<Result<_, _>>()?,
                            }
                        }
                    })
                })
                .collect()
        }
        Ok(Program {
            nodes: walk(c, nodes)?,
            nvars: c.vars.len(),
            nparams: c.nparams,
        })
    }

    /// Checks that no operation can overflow when every parameter lies in `[-b, b]`; the
    /// error names the first operation that may.
    pub fn check(&self, b: i64) -> Result<(), Overflow> {
        let mut env: Vec<Option<Iv>> = vec![None; self.nvars];
        for v in env.iter_mut().take(self.nparams) {
            *v = Some(Iv::new(-(b as i128), b as i128));
        }
        check_nodes(&self.nodes, &mut env)
    }
}

/// An operation that may overflow, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overflow {
    /// The operation, e.g. "a * b (result in [..] may leave int64_t)".
    pub operation: String,
    /// The expression it belongs to, e.g. "upper bound of the loop over j: n*n".
    pub site: String,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in the {}", self.operation, self.site)
    }
}

fn eval_site(s: &Site, env: &[Option<Iv>]) -> Result<Option<Iv>, Overflow> {
    enclose(&s.ast, env).map_err(|operation| Overflow {
        operation,
        site: s.what.clone(),
    })
}

fn check_nodes(nodes: &[ANode], env: &mut Vec<Option<Iv>>) -> Result<(), Overflow> {
    for n in nodes {
        match n {
            ANode::Stmt { args } => {
                for a in args {
                    eval_site(a, env)?;
                }
            }
            ANode::Loop {
                var,
                lower,
                upper,
                body,
            } => {
                let (Some(l), Some(u)) = (eval_site(lower, env)?, eval_site(upper, env)?) else {
                    continue; // never reached
                };
                if l.lo > u.hi {
                    continue; // the body never runs
                }
                // `x += 1` after the last iteration, at x = upper.
                if u.hi >= I64_MAX {
                    return Err(Overflow {
                        operation: "loop increment (the upper bound may be INT64_MAX)".into(),
                        site: upper.what.clone(),
                    });
                }
                let saved = env[*var];
                env[*var] = Some(Iv::new(l.lo, u.hi));
                let r = check_nodes(body, env);
                env[*var] = saved;
                r?;
            }
            ANode::Guard {
                var,
                lower,
                upper,
                body,
            } => {
                let Some(mut p) = env[*var] else {
                    return Err(Overflow {
                        operation: format!("guard on unbound variable {var}"),
                        site: String::new(),
                    });
                };
                let mut reached = true;
                for (side, is_lower) in [(lower, true), (upper, false)] {
                    if let Some(s) = side {
                        match eval_site(s, env)? {
                            None => reached = false,
                            Some(v) => {
                                let r = if is_lower {
                                    p.clamp(v.lo, I64_MAX)
                                } else {
                                    p.clamp(I64_MIN, v.hi)
                                };
                                match r {
                                    Some(r) => p = r,
                                    None => reached = false,
                                }
                            }
                        }
                    }
                }
                if !reached {
                    continue;
                }
                let saved = env[*var];
                env[*var] = Some(p);
                let r = check_nodes(body, env);
                env[*var] = saved;
                r?;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The documented range.

/// The parameter range within which a generated program's integer arithmetic cannot
/// overflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SafeRange {
    /// No parameters, and no operation can overflow.
    Safe,
    /// No operation can overflow while every parameter lies in `[-bound, bound]`;
    /// `beyond` is an operation that may overflow for `bound + 1` (`None` when `bound`
    /// is `i64::MAX`).
    Bound {
        bound: i64,
        beyond: Option<Overflow>,
    },
    /// An operation may overflow even without parameters, or with all of them 0 (or the
    /// code could not be analysed: `operation` says why).
    Unsafe(Overflow),
}

impl SafeRange {
    /// The one-line C comment for the top of the output.
    pub fn comment(&self) -> String {
        // No `*/` may end the comment early.
        let clean = |s: String| s.replace("*/", "* /");
        match self {
            SafeRange::Safe => {
                "/* integer arithmetic cannot overflow (no parameters) */".to_string()
            }
            SafeRange::Bound { bound, .. } => {
                format!("/* integer arithmetic cannot overflow for parameters in [-{bound}, {bound}] */")
            }
            SafeRange::Unsafe(o) => clean(format!("/* integer arithmetic may overflow: {o} */")),
        }
    }

    /// A sentence for `--stats`.
    pub fn describe(&self) -> String {
        match self {
            SafeRange::Safe => "overflow: no parameters, integer arithmetic cannot overflow".into(),
            SafeRange::Bound { bound, beyond } => {
                let pow = power_of_two(*bound);
                match beyond {
                    Some(o) => format!(
                        "overflow: safe for parameters in [-{bound}, {bound}]{pow}; beyond: {o}"
                    ),
                    None => format!("overflow: safe for parameters in [-{bound}, {bound}]{pow}"),
                }
            }
            SafeRange::Unsafe(o) => format!("overflow: may overflow at every parameter value: {o}"),
        }
    }
}

/// ` (= 2^k)`, ` (= 2^k - 1)` or ` (about 2^x)` with `x` rounded down, for messages.
fn power_of_two(b: i64) -> String {
    if b <= 0 {
        return String::new();
    }
    let v = b as u64;
    let above = v.next_power_of_two();
    let below = if v.is_power_of_two() { v } else { above / 2 };
    if v == below {
        format!(" (= 2^{})", v.trailing_zeros())
    } else if above - v <= 1024 {
        format!(" (= 2^{} - {})", above.trailing_zeros(), above - v)
    } else if v - below <= 1024 {
        format!(" (= 2^{} + {})", below.trailing_zeros(), v - below)
    } else {
        format!(
            " (about 2^{:.2})",
            ((b as f64).log2() * 100.0).floor() / 100.0
        )
    }
}

/// The largest `B` (bisection over `0..=i64::MAX`) such that no `int64_t` operation of
/// the C code emitted for `g` (and no `__int128` step of its root searches) can overflow
/// when every parameter lies in `[-B, B]`. Sound: intervals over-approximate every value
/// the program computes there.
///
/// ```
/// use codegen::{generate, input::parse_problem, GenOptions, overflow::*};
/// let p = parse_problem("[n] -> { S[i] : 0 <= i and i*i <= n }").unwrap();
/// let g = generate(&p, &GenOptions::default(), &cad::LiftStats::default()).unwrap();
/// match safe_parameter_bound(&g) {
///     SafeRange::Bound { bound, .. } => assert!(bound >= 1 << 40),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn safe_parameter_bound(g: &Generated) -> SafeRange {
    let c = g.emitter();
    safe_bound_of(&c, &g.nodes)
}

/// [`safe_parameter_bound`] for the nodes `c` prints.
pub fn safe_bound_of(c: &CEmitter, nodes: &[Node]) -> SafeRange {
    let prog = match Program::new(c, nodes) {
        Ok(p) => p,
        Err(e) => {
            return SafeRange::Unsafe(Overflow {
                operation: e.to_string(),
                site: "the program".into(),
            })
        }
    };
    if let Err(o) = prog.check(0) {
        return SafeRange::Unsafe(o);
    }
    if prog.nparams == 0 {
        return SafeRange::Safe;
    }
    if prog.check(i64::MAX).is_ok() {
        return SafeRange::Bound {
            bound: i64::MAX,
            beyond: None,
        };
    }
    // check(lo) passes, check(hi) fails.
    let (mut lo, mut hi) = (0i64, i64::MAX);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if prog.check(mid).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    SafeRange::Bound {
        bound: lo,
        beyond: prog.check(hi).err(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> CAst {
        let names = ["n", "m", "x", "y"];
        parse_c(text, &|s: &str| names.iter().position(|n| *n == s)).unwrap()
    }

    fn enc(text: &str, n: i64) -> Enc {
        let env = vec![
            Some(Iv::new(-(n as i128), n as i128)),
            Some(Iv::new(-(n as i128), n as i128)),
            Some(Iv::new(0, 10)),
            Some(Iv::new(-3, 3)),
        ];
        enclose(&parse(text), &env)
    }

    #[test]
    fn parses_the_printers_text_with_c_associativity() {
        assert_eq!(
            parse("x - (y) + 3"),
            CAst::Bin(
                BinOp::Add,
                Box::new(CAst::Bin(
                    BinOp::Sub,
                    Box::new(CAst::Var(2)),
                    Box::new(CAst::Var(3))
                )),
                Box::new(CAst::Lit(3))
            )
        );
        assert_eq!(parse("(-9223372036854775807 - 1)"), CAst::Lit(I64_MIN));
        assert_eq!(parse("(-5)"), CAst::Lit(-5));
        let rs = parse("ps_root_search(3, (const int64_t[]){x + (-n), -3, 0, 1}, -1, 4, -1, 0)");
        assert!(matches!(rs, CAst::Call(ref f, ref a) if f == "ps_root_search" && a.len() == 6));
        assert!(parse_c("x / 2", &|_| Some(0)).is_err());
    }

    #[test]
    fn intervals_flag_products_that_leave_int64() {
        // n*n*n overflows once n > 2^21.
        assert!(enc("n*n*n", 1 << 20).is_ok());
        assert!(enc("n*n*n", 1 << 22).is_err());
        // n*m overflows at 2^32.
        assert!(enc("n*m", (1 << 31) - 1).is_ok());
        assert!(enc("n*m", 1 << 32).is_err());
        // A square is not negative.
        assert_eq!(enc("n*n", 4), Ok(Some(Iv::new(0, 16))));
        assert_eq!(enc("-n", 4), Ok(Some(Iv::new(-4, 4))));
        assert!(enc("-n", i64::MAX).is_ok());
    }

    #[test]
    fn helpers_are_enclosed_and_their_inner_steps_checked() {
        // n runs over -100..=100: a negative argument gives -1.
        assert_eq!(enc("ps_isqrt(n)", 100), Ok(Some(Iv::new(-1, 10))));
        assert_eq!(enc("ps_ceil_sqrt(n)", 99), Ok(Some(Iv::new(0, 10))));
        assert_eq!(enc("ps_iroot(n, 3)", 1000), Ok(Some(Iv::new(-10, 10))));
        assert_eq!(enc("ps_floord(n, 2)", 5), Ok(Some(Iv::new(-3, 2))));
        assert_eq!(enc("ps_ceild(n, 2)", 5), Ok(Some(Iv::new(-2, 3))));
        // ps_ceild computes n + d - 1: at n = INT64_MAX it overflows.
        assert!(enc("ps_ceild(n, 2)", i64::MAX).is_err());
        assert!(enc("ps_floord(n, 2)", i64::MAX - 2).is_ok());
        // A root of a negative argument is -1 (even, rounded down), 0 (rounded up) or the
        // real one (odd).
        assert_eq!(enc("ps_isqrt(-1 - x)", 5), Ok(Some(Iv::new(-1, -1))));
        assert_eq!(enc("ps_ceil_sqrt(-1 - x)", 5), Ok(Some(Iv::new(0, 0))));
        assert_eq!(enc("ps_iroot(-8 - n, 3)", 0), Ok(Some(Iv::new(-2, -2))));
        // The 128-bit evaluation of a degree-3 polynomial at y ~ 2^43 leaves __int128.
        let rs = "ps_root_search(3, (const int64_t[]){n, 0, 0, 1}, -n, n, -1, 0)";
        assert!(enc(rs, 1 << 40).is_ok());
        assert!(enc(rs, 1 << 43).is_err());
    }
}
