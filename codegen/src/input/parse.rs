//! Parser for the input language: isl's set and map syntax with polynomial terms.
//!
//! ```text
//! file      := item*
//! item      := ("[" names "]" "->")? "{" entry (";" entry)* "}"
//! entry     := NAME? "[" coords "]" (":" formula)?      a statement (domain); several
//!                                                        entries of one statement: a union;
//!                                                        unnamed tuples are `S0`, `S1`, ...
//!                                                        by number of positions
//!            | ":" formula                               a parameter context
//!            | NAME "[" coords "]" "->" "[" outputs "]" (":" formula)?
//!                                                        a schedule entry (map piece)
//! coords    := coord ("," coord)*     coord: NAME | NAME "=" polynomial | polynomial
//! outputs   := output ("," output)*   output: NAME | NAME "=" polynomial | polynomial
//! formula   := disj ("implies" disj)?     `a implies b` is `not a or b`
//! disj      := conj (("or" | "||") conj)*
//! conj      := unary (("and" | "&&") unary)*
//! unary     := ("not" | "!") unary | "(" formula ")" | "true" | "false" | exists | chain
//! exists    := "exists" "(" binders ":" formula ")" | "exists" binders ":" formula
//! binders   := NAME ("=" polynomial)? ("," NAME ("=" polynomial)?)*
//! chain     := exprs (relop exprs)+        relop: < <= = == != >= >
//! exprs     := polynomial ("," polynomial)*   (isl's `0 <= i, j < n`)
//! ```
//! Comments run from `#` to the end of the line. Polynomials are read by
//! [`polys::Poly::parse_prefix_with`] with the parameters, the statement's iterators and
//! the names bound by enclosing `exists` as the only known names; in statement domains
//! they may contain isl's integer divisions (`floor(e/d)`, `ceil(e/d)`, `[e/d]`,
//! `e mod d`, `e % d`), each a quantified variable (see `quantifiers`). An `exists` under
//! `not` or before `implies` (a universal quantifier) is refused. A comparison reads isl's
//! rational coefficients (`i/2 <= n`: both sides over their denominators, scaled exactly)
//! and `min(...)`/`max(...)` (expanded into the cases of the extreme argument); a value
//! that is not compared (a tuple position, a binding, a time) must be a whole polynomial.

mod schedule;
mod tuple;

use super::ast::{Existential, Problem, ScheduleEntry, Span, Statement};
use super::error::InputError;
use super::quantifiers::{self, NoDivisions, Quantified};
use cad::formula::{Atom, Formula, Rel};
use polys::{Coeff, Int, Poly, Vars};

/// Words that end a polynomial and cannot name a variable.
const KEYWORDS: [&str; 7] = ["and", "or", "not", "true", "false", "exists", "implies"];

/// Words of integer division, which cannot name a variable either.
const DIVISION_WORDS: [&str; 3] = ["mod", "floor", "ceil"];

/// Words the generated C and Rust cannot use as variable or statement names: keywords of
/// either language and the names the emitted code itself uses.
const RESERVED: [&str; 66] = [
    // C99/C11
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    // Rust (those that are not C keywords too)
    "as",
    "crate",
    "fn",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "self",
    "Self",
    "super",
    "trait",
    "type",
    "unsafe",
    "use",
    "where",
    "async",
    "await",
    "dyn",
    // used by the emitted code
    "int64_t",
    "uint64_t",
    "INT64_MAX",
    "INT64_MIN",
    "abort",
    "fprintf",
    "stderr",
    "i64",
];

/// Why `name` cannot appear in the generated code, if it cannot.
fn not_a_code_name(name: &str) -> Option<&'static str> {
    if name.contains('\'') {
        Some("the generated code uses the input's names, and C has no primes in names")
    } else if RESERVED.contains(&name) {
        Some("it is a keyword of C or Rust or a name the generated code uses")
    } else if name.starts_with("ps_") || name.starts_with("PS_") || name.starts_with("__") {
        Some("names starting with 'ps_', 'PS_' or '__' are reserved for the generated code")
    } else {
        None
    }
}

/// Parses a whole input file.
///
/// ```
/// use codegen::input::parse_problem;
/// let p = parse_problem("[n] -> { S[i, j] : 0 <= i < n and 0 <= j and i*j <= n }").unwrap();
/// assert_eq!(p.params, ["n"]);
/// assert_eq!(p.statements[0].iterators, ["i", "j"]);
/// ```
pub fn parse_problem(src: &str) -> Result<Problem, InputError> {
    let blanked = blank_comments(src);
    let mut p = Parser::new(&blanked, src);
    p.file()
}

/// Parses a parameter context such as `[n] -> { : n >= 1 }` or just `n >= 1`, over the
/// given parameters.
pub fn parse_context(src: &str, params: &[String]) -> Result<Formula, InputError> {
    let blanked = blank_comments(src);
    let mut p = Parser::new(&blanked, src);
    p.ws();
    if p.peek_char() == Some('[') || p.peek_char() == Some('{') {
        let item = p.item()?;
        let f = match item.entries.as_slice() {
            [Entry::Context(f, q)] if q.is_empty() => f.clone(),
            [Entry::Context(..)] => {
                return Err(p.error_at(
                    0,
                    "integer division and 'exists' are not supported in a context given on the command line; put the context in the input file",
                ))
            }
            _ => return Err(p.error_at(0, "expected a context `{ : formula }`")),
        };
        p.ws();
        if !p.at_end() {
            return Err(p.error("unexpected text after the context"));
        }
        check_param_subset(&p, &item, params)?;
        return Ok(f.rename(&param_map(&item, params)));
    }
    let vars = Vars::from_names(params.iter().cloned());
    let f = p.formula(&vars)?;
    p.ws();
    if !p.at_end() {
        return Err(p.error("expected 'and', 'or' or the end of the context"));
    }
    Ok(f)
}

/// Replaces comments by spaces, keeping every offset and line break.
fn blank_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut in_comment = false;
    for c in src.chars() {
        match c {
            '#' => in_comment = true,
            '\n' => in_comment = false,
            _ => {}
        }
        if in_comment {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

struct Parser<'a> {
    /// The input with comments blanked.
    src: &'a str,
    /// The input as given, for error lines.
    orig: &'a str,
    pos: usize,
    /// The quantified variables of the statement whose domain is being read.
    quantified: Option<Quantified>,
    /// How many `not`s enclose the current position.
    negated: usize,
    /// An error that no other reading of the text can avoid (an `exists` under `not`):
    /// reported even where a parenthesis could open a polynomial instead.
    fatal: Option<InputError>,
}

/// One `{ ... }` block before classification.
struct Item {
    params: Vec<(String, usize)>,
    entries: Vec<Entry>,
    start: usize,
}

enum Entry {
    Statement(Statement),
    /// Constraints on the parameters, with the variables they quantify.
    Context(Formula, Vec<Existential>),
    Schedule {
        name: String,
        name_at: usize,
        entry: ScheduleEntry,
    },
}

fn check_param_subset(p: &Parser, item: &Item, params: &[String]) -> Result<(), InputError> {
    for (name, at) in &item.params {
        if !params.contains(name) {
            return Err(p.error_at(*at, format!("'{name}' is not a parameter of the domain")));
        }
    }
    Ok(())
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, orig: &'a str) -> Parser<'a> {
        Parser {
            src,
            orig,
            pos: 0,
            quantified: None,
            negated: 0,
            fatal: None,
        }
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> InputError {
        InputError::at(self.orig, offset, message)
    }

    fn error(&self, message: impl Into<String>) -> InputError {
        self.error_at(self.pos, message)
    }

    fn found(&self) -> String {
        match self.peek_char() {
            None => "the end of the input".into(),
            Some(c) => format!("'{c}'"),
        }
    }

    fn expected(&self, what: &str) -> InputError {
        self.error(format!("expected {what}, found {}", self.found()))
    }

    fn ws(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn peek_char(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    /// Consumes `tok` (after whitespace) if it is next.
    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.rest().starts_with(tok) {
            // A keyword must not be the prefix of a longer identifier.
            let is_word = tok.chars().all(|c| c.is_alphanumeric());
            if is_word {
                let next = self.rest()[tok.len()..].chars().next();
                if next.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    return false;
                }
            }
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &str, what: &str) -> Result<(), InputError> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, usize), InputError> {
        self.ws();
        let start = self.pos;
        let mut end = start;
        for (i, c) in self.rest().char_indices() {
            let ok = if i == 0 {
                c.is_alphabetic() || c == '_'
            } else {
                c.is_alphanumeric() || c == '_' || c == '\''
            };
            if !ok {
                break;
            }
            end = start + i + c.len_utf8();
        }
        if end == start {
            return Err(self.expected(what));
        }
        let name = self.src[start..end].to_string();
        if KEYWORDS.contains(&name.as_str()) || DIVISION_WORDS.contains(&name.as_str()) {
            return Err(self.error(format!("'{name}' is a keyword, not a name")));
        }
        if let Some(why) = not_a_code_name(&name) {
            return Err(self.error(format!("'{name}' cannot be a name here: {why}")));
        }
        self.pos = end;
        Ok((name, start))
    }

    /// `a, b, c` up to (not including) `close`; empty lists allowed.
    fn names(&mut self, close: &str, what: &str) -> Result<Vec<(String, usize)>, InputError> {
        let mut out = Vec::new();
        self.ws();
        if self.rest().starts_with(close) {
            return Ok(out);
        }
        loop {
            out.push(self.ident(what)?);
            if !self.eat(",") {
                return Ok(out);
            }
        }
    }

    fn file(&mut self) -> Result<Problem, InputError> {
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.at_end() {
                break;
            }
            items.push(self.item()?);
        }
        assemble(self, items)
    }

    fn item(&mut self) -> Result<Item, InputError> {
        self.ws();
        let start = self.pos;
        let mut params = Vec::new();
        if self.eat("[") {
            params = self.names("]", "a parameter name")?;
            self.expect("]", "',' or ']' after the parameters")?;
            self.expect("->", "'->' after the parameter list")?;
        }
        check_unique(self, &params, "parameter")?;
        self.expect("{", "'{' to start a set")?;
        let pnames: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
        let mut entries = Vec::new();
        self.ws();
        if !self.eat("}") {
            loop {
                entries.push(self.entry(&pnames)?);
                if self.eat(";") {
                    continue;
                }
                self.expect("}", "';' or '}'")?;
                break;
            }
        }
        Ok(Item {
            params,
            entries,
            start,
        })
    }

    fn entry(&mut self, params: &[String]) -> Result<Entry, InputError> {
        self.ws();
        let start = self.pos;
        if self.eat(":") {
            let vars = Vars::from_names(params.iter().cloned());
            self.quantified = Some(Quantified::new(vars.len()));
            let f = self.formula(&vars);
            // Invariant: set just above, and only this function takes it.
            let quantified = self.quantified.take().expect("set for this context");
            let (existentials, definitions) = quantified.finish(vars.names());
            let mut parts = vec![f?];
            parts.extend(definitions);
            return Ok(Entry::Context(Formula::and(parts), existentials));
        }
        let (name, name_at) = if self.peek_char() == Some('[') {
            // isl's unnamed tuple `[i] : ...`: named once the whole set is read.
            self.pos += 1;
            (tuple::anonymous(self.tuple_len()), start)
        } else {
            let named = self.ident("a statement name, '[' or ':'")?;
            self.expect("[", "'[' after the statement name")?;
            named
        };
        if self.tuple_is_map() {
            return self.schedule_entry(params, name, name_at, start);
        }
        let (iters, pins) = self.statement_tuple(params)?;
        check_unique(self, &iters, "iterator")?;
        let mut names: Vec<String> = params.to_vec();
        names.extend(iters.iter().map(|(n, _)| n.clone()));
        let vars = Vars::from_names(names);
        self.quantified = Some(Quantified::new(vars.len()));
        let domain = if self.eat(":") {
            self.formula(&vars)
        } else {
            Ok(Formula::True)
        };
        // Invariant: set just above, and only this function takes it.
        let quantified = self.quantified.take().expect("set for this statement");
        let domain = domain?;
        let (existentials, definitions) = quantified.finish(vars.names());
        let mut parts = vec![domain];
        parts.extend(pins);
        parts.extend(definitions);
        let mut iterators: Vec<String> = iters.into_iter().map(|(n, _)| n).collect();
        let mut taken = params.to_vec();
        taken.extend(existentials.iter().map(|e| e.name.clone()));
        tuple::fresh_names(&mut iterators, &taken, "x");
        Ok(Entry::Statement(Statement {
            name,
            iterators,
            domain: Formula::and(parts),
            existentials,
            span: Span {
                start,
                end: self.pos,
            },
        }))
    }

    /// A polynomial with isl's rational coefficients: its numerator and positive
    /// denominator. `min`/`max` in it are placeholders until the comparison is expanded.
    fn ratio(&mut self, vars: &Vars) -> Result<(Poly, Int), InputError> {
        self.ws();
        let mut v = vars.clone();
        let (src, pos) = (self.src, self.pos);
        let read = match self.quantified.as_mut() {
            Some(q) => Poly::parse_prefix_ratio(src, pos, &mut v, &KEYWORDS, q),
            None => Poly::parse_prefix_ratio(src, pos, &mut v, &KEYWORDS, &mut NoDivisions),
        };
        let (p, d, end) = read.map_err(|e| self.error_at(e.offset, e.message))?;
        self.pos = end;
        Ok((p, d))
    }

    /// A polynomial standing for an integer value (a tuple position, a binding, a time):
    /// no fraction and no `min`/`max`, which only comparisons can take apart.
    fn poly(&mut self, vars: &Vars) -> Result<Poly, InputError> {
        self.ws();
        let at = self.pos;
        let (p, d) = self.ratio(vars)?;
        if !d.is_one() {
            return Err(self.error_at(
                at,
                "a fraction is allowed only in a comparison (this value must be an integer): use floor(e/d)",
            ));
        }
        if self.quantified.as_ref().is_some_and(|q| q.has_extremum(&p)) {
            return Err(self.error_at(
                at,
                "min and max are allowed only in comparisons, not as a value here",
            ));
        }
        Ok(p)
    }

    /// After `exists`: the bound names (each possibly `= polynomial`), `:` and the
    /// formula they scope, in parentheses or to the end of the enclosing formula.
    fn exists(&mut self, vars: &Vars, at: usize) -> Result<Formula, InputError> {
        if self.negated > 0 {
            let e = self.error_at(
                at,
                "'exists' under 'not' is a universal quantifier, which is not supported",
            );
            self.fatal = Some(e.clone());
            return Err(e);
        }
        let Some(from) = self.quantified.as_ref().map(Quantified::len) else {
            return Err(self.error_at(at, "'exists' is allowed in statement domains only"));
        };
        let paren = self.eat("(");
        let mut parts = Vec::new();
        loop {
            let (name, name_at) = self.ident("a variable name after 'exists'")?;
            let scope = self.quantified_scope(vars);
            if scope.index(&name).is_some() {
                return Err(self.error_at(
                    name_at,
                    format!("'{name}' is already a parameter, an iterator or a bound name here"),
                ));
            }
            let binding = if self.eat("=") {
                Some(self.poly(&scope)?)
            } else {
                None
            };
            // Invariant: checked above that this is a statement's domain.
            let q = self.quantified.as_mut().expect("inside a statement");
            let k = q.bind(name);
            if let Some(value) = binding {
                parts.push(Formula::Atom(Atom::compare(&Poly::var(k), Rel::Eq, &value)));
            }
            if !self.eat(",") {
                break;
            }
        }
        self.expect(":", "',' or ':' after the quantified variables")?;
        let scope = self.quantified_scope(vars);
        parts.push(self.formula(&scope)?);
        if paren {
            self.expect(")", "')' to close 'exists ('")?;
        }
        if let Some(q) = self.quantified.as_mut() {
            q.close(from);
        }
        Ok(Formula::and(parts))
    }

    /// The names usable inside the current statement's domain.
    fn quantified_scope(&self, vars: &Vars) -> Vars {
        match &self.quantified {
            Some(q) => q.scope(vars),
            None => vars.clone(),
        }
    }

    /// `disjunction ("implies" disjunction)?`: isl's `a implies b`, which is
    /// `not a or b`, binds more loosely than `or` and does not chain.
    fn formula(&mut self, vars: &Vars) -> Result<Formula, InputError> {
        let from = self.quantified.as_ref().map(Quantified::len);
        let lhs = self.disjunction(vars)?;
        self.ws();
        let at = self.pos;
        if !self.eat("implies") {
            return Ok(lhs);
        }
        if let (Some(q), Some(from)) = (self.quantified.as_ref(), from) {
            if q.binds_since(from) {
                return Err(self.error_at(
                    at,
                    "'exists' before 'implies' is a universal quantifier, which is not supported",
                ));
            }
        }
        let rhs = self.disjunction(vars)?;
        self.ws();
        if self.rest().starts_with("implies") {
            return Err(self.error(
                "'implies' does not chain (isl refuses 'a implies b implies c'): add parentheses",
            ));
        }
        Ok(Formula::or(vec![Formula::Not(Box::new(lhs)), rhs]))
    }

    fn disjunction(&mut self, vars: &Vars) -> Result<Formula, InputError> {
        let mut parts = vec![self.conj(vars)?];
        while self.eat("or") || self.eat("||") {
            parts.push(self.conj(vars)?);
        }
        Ok(Formula::or(parts))
    }

    fn conj(&mut self, vars: &Vars) -> Result<Formula, InputError> {
        let mut parts = vec![self.unary(vars)?];
        while self.eat("and") || self.eat("&&") {
            parts.push(self.unary(vars)?);
        }
        Ok(Formula::and(parts))
    }

    fn negation(&mut self, vars: &Vars) -> Result<Formula, InputError> {
        self.negated += 1;
        let f = self.unary(vars);
        self.negated -= 1;
        Ok(Formula::Not(Box::new(f?)))
    }

    fn unary(&mut self, vars: &Vars) -> Result<Formula, InputError> {
        if self.eat("not") {
            return self.negation(vars);
        }
        self.ws();
        if self.rest().starts_with('!') && !self.rest().starts_with("!=") {
            self.pos += 1;
            return self.negation(vars);
        }
        let at = self.pos;
        if self.eat("exists") {
            return self.exists(vars, at);
        }
        if self.eat("true") {
            return Ok(Formula::True);
        }
        if self.eat("false") {
            return Ok(Formula::False);
        }
        self.ws();
        let start = self.pos;
        let quantified = self.quantified.as_ref().map(Quantified::len);
        // A parenthesis opens either a polynomial (`(i - 4)^2 <= n`) or a formula
        // (`(i < n or j < n)`): try the comparison chain first, then the formula.
        let chain_err = match self.chain(vars) {
            Ok(f) => return Ok(f),
            Err(e) => e,
        };
        // Divisions read by the abandoned reading are not part of the domain.
        if let (Some(q), Some(len)) = (self.quantified.as_mut(), quantified) {
            q.truncate(len);
        }
        if self.src[start..].starts_with('(') {
            self.pos = start + 1;
            match self.formula(vars).and_then(|f| {
                self.expect(")", "')' or a connective")?;
                Ok(f)
            }) {
                Ok(f) => return Ok(f),
                // Report whichever reading got further into the input.
                Err(e) if e.offset > chain_err.offset => return Err(e),
                Err(_) => {}
            }
        }
        Err(self.fatal.clone().unwrap_or(chain_err))
    }

    fn exprs(&mut self, vars: &Vars) -> Result<Vec<(Poly, Int)>, InputError> {
        let mut out = vec![self.ratio(vars)?];
        while self.eat(",") {
            out.push(self.ratio(vars)?);
        }
        Ok(out)
    }

    fn relop(&mut self) -> Option<Rel> {
        self.ws();
        for (tok, rel) in [
            ("<=", Rel::Le),
            (">=", Rel::Ge),
            ("==", Rel::Eq),
            ("!=", Rel::Ne),
            ("<", Rel::Lt),
            (">", Rel::Gt),
            ("=", Rel::Eq),
        ] {
            if self.eat(tok) {
                return Some(rel);
            }
        }
        None
    }

    /// A comparison chain. Fractions compare exactly: `a/d ~ b/e` is `a*e ~ b*d` (both
    /// denominators positive), isl's scaling of a constraint by its denominators.
    fn chain(&mut self, vars: &Vars) -> Result<Formula, InputError> {
        let from = self.quantified.as_ref().map(Quantified::len);
        let mut lhs = self.exprs(vars)?;
        let mut atoms = Vec::new();
        while let Some(rel) = self.relop() {
            let rhs = self.exprs(vars)?;
            for (a, d) in &lhs {
                for (b, e) in &rhs {
                    atoms.push(Formula::Atom(Atom::compare(&a.scale(e), rel, &b.scale(d))));
                }
            }
            lhs = rhs;
        }
        if atoms.is_empty() {
            return Err(self.expected("a comparison (<, <=, =, !=, >=, >)"));
        }
        let f = Formula::and(atoms);
        Ok(match (self.quantified.as_mut(), from) {
            (Some(q), Some(from)) => q.expand_extrema(from, f),
            _ => f,
        })
    }
}

fn check_unique(p: &Parser, names: &[(String, usize)], what: &str) -> Result<(), InputError> {
    for (k, (n, at)) in names.iter().enumerate() {
        if names[..k].iter().any(|(m, _)| m == n) {
            return Err(p.error_at(*at, format!("{what} '{n}' is declared twice")));
        }
    }
    Ok(())
}

/// Classifies the blocks of a file into domain, context and schedule.
/// Adds the piece `s` of statement `t` (same name and number of iterators) to `t`'s
/// domain as a disjunct: `s`'s quantified variables follow `t`'s, renamed where their
/// names clash; `t` keeps its iterator names (variables are positions, so the pieces'
/// formulas already agree on them). Every division's definition holds outside the
/// disjunction too, so that each point keeps exactly one value of every quantified
/// variable; a variable bound by `exists` would be free in the other piece, so pieces
/// with one are refused.
fn join_piece(t: &mut Statement, s: Statement, params: usize) -> Result<(), String> {
    if t.existentials
        .iter()
        .chain(&s.existentials)
        .any(|e| e.division.is_none())
    {
        return Err(format!(
            "statement '{}' is declared twice, and a piece binds a variable by 'exists': write the pieces as one domain joined by 'or'",
            t.name
        ));
    }
    let first = params + t.iterators.len();
    let shift = t.existentials.len();
    let map: Vec<usize> = (0..first + s.existentials.len())
        .map(|v| if v < first { v } else { v + shift })
        .collect();
    let mut taken: Vec<String> = t.existentials.iter().map(|e| e.name.clone()).collect();
    taken.extend(t.iterators.iter().cloned());
    for mut e in s.existentials {
        while taken.contains(&e.name) {
            e.name.push('_');
        }
        taken.push(e.name.clone());
        e.division = e.division.map(|(num, d)| (num.rename(&map), d));
        t.existentials.push(e);
    }
    let mut parts = vec![Formula::or(vec![t.domain.clone(), s.domain.rename(&map)])];
    for (k, e) in t.existentials.iter().enumerate() {
        if let Some((num, d)) = &e.division {
            parts.extend(quantifiers::division_definition(first + k, num, d));
        }
    }
    t.domain = Formula::and(parts);
    t.span.end = t.span.end.max(s.span.end);
    Ok(())
}

fn assemble(p: &Parser, items: Vec<Item>) -> Result<Problem, InputError> {
    let mut domain: Option<Item> = None;
    let mut context: Option<Item> = None;
    let mut schedule: Option<Item> = None;
    for item in items {
        let kinds: Vec<u8> = item
            .entries
            .iter()
            .map(|e| match e {
                Entry::Statement(_) => 0,
                Entry::Context(..) => 1,
                Entry::Schedule { .. } => 2,
            })
            .collect();
        let kind = match kinds.first() {
            Some(&k) => k,
            None if domain.is_none() => 0,
            None => {
                return Err(p.error_at(item.start, "an empty set is allowed only as the domain"))
            }
        };
        if kinds.iter().any(|&k| k != kind) {
            return Err(p.error_at(
                item.start,
                "a set mixes statements, context constraints and schedule entries",
            ));
        }
        let slot = match kind {
            0 => &mut domain,
            1 => &mut context,
            _ => &mut schedule,
        };
        if slot.is_some() {
            let what = ["domain", "context", "schedule"][kind as usize];
            return Err(p.error_at(item.start, format!("a second {what} is not allowed")));
        }
        *slot = Some(item);
    }
    let mut domain =
        domain.ok_or_else(|| p.error_at(p.src.len(), "expected a set of statements"))?;
    name_anonymous(&mut domain, schedule.as_mut());
    let params: Vec<String> = domain.params.iter().map(|(n, _)| n.clone()).collect();
    let mut statements: Vec<Statement> = Vec::new();
    for e in domain.entries {
        if let Entry::Statement(s) = e {
            match statements.iter_mut().find(|t| t.name == s.name) {
                // isl prints a set whose pieces differ as several entries of one tuple
                // (`S[i] : i >= 2; S[i = 0]`): their union.
                Some(t) if t.iterators.len() == s.iterators.len() => {
                    let at = s.span.start;
                    join_piece(t, s, params.len()).map_err(|why| p.error_at(at, why))?
                }
                Some(_) => {
                    return Err(p.error_at(
                        s.span.start,
                        format!(
                            "statement '{}' is declared twice with different numbers of iterators",
                            s.name
                        ),
                    ))
                }
                None => statements.push(s),
            }
        }
    }
    let mut context_formula = Formula::True;
    if let Some(c) = context {
        check_param_subset(p, &c, &params)?;
        // The context was parsed over its own parameter list: re-index to the domain's.
        let mut map = param_map(&c, &params);
        let mut parts = Vec::new();
        for e in c.entries {
            let Entry::Context(f, quantified) = e else {
                unreachable!("classified as context")
            };
            map.truncate(c.params.len());
            map.extend((0..quantified.len()).map(|k| params.len() + k));
            if quantified.is_empty() {
                parts.push(f.rename(&map));
            } else {
                // Constraints with quantified variables (`n mod 2 = 0`) restrict every
                // statement's domain instead, with their variables after its own.
                let f = f.rename(&map);
                for s in &mut statements {
                    quantified_context(s, &f, &quantified, &map, params.len());
                }
            }
        }
        context_formula = Formula::and(parts);
    }
    let schedule = match schedule {
        None => {
            let depth = statements.first().map(|s| s.iterators.len());
            if let Some(s) = statements.iter().find(|s| Some(s.iterators.len()) != depth) {
                return Err(p.error_at(
                    s.span.start,
                    format!(
                        "statement '{}' has {} iterators but the first has {}: statements of different dimension need a schedule",
                        s.name,
                        s.iterators.len(),
                        depth.unwrap_or(0)
                    ),
                ));
            }
            None
        }
        Some(sch) => Some(schedule::schedule_entries(p, sch, &params, &statements)?),
    };
    Ok(Problem {
        params,
        statements,
        context: context_formula,
        schedule,
    })
}

/// Gives the domain's unnamed tuples their statement names ([`tuple::anonymous_names`]),
/// and the schedule entries of the same unnamed tuples the same names.
fn name_anonymous(domain: &mut Item, schedule: Option<&mut Item>) {
    let is_provisional = |n: &String| n.starts_with('<');
    let statement_names = |item: &Item| -> Vec<String> {
        item.entries
            .iter()
            .filter_map(|e| match e {
                Entry::Statement(s) => Some(s.name.clone()),
                _ => None,
            })
            .collect()
    };
    let names = statement_names(domain);
    let taken: Vec<&String> = names.iter().filter(|n| !is_provisional(n)).collect();
    let renames = tuple::anonymous_names(names.iter().filter(|n| is_provisional(n)), &taken);
    let rename = |name: &mut String| {
        if let Some((_, to)) = renames.iter().find(|(from, _)| from == name) {
            *name = to.clone();
        }
    };
    for e in &mut domain.entries {
        if let Entry::Statement(s) = e {
            rename(&mut s.name);
        }
    }
    for e in schedule.into_iter().flat_map(|s| s.entries.iter_mut()) {
        if let Entry::Schedule { name, .. } = e {
            rename(name);
        }
    }
}

/// Conjoins a context formula `f` over the parameters and its own quantified variables
/// (indices from `params` on; `map` re-indexed their divisions' numerators) with statement
/// `s`'s domain, its variables after the statement's own.
fn quantified_context(
    s: &mut Statement,
    f: &Formula,
    quantified: &[Existential],
    map: &[usize],
    params: usize,
) {
    let first = params + s.iterators.len() + s.existentials.len();
    let shift: Vec<usize> = (0..params)
        .chain((0..quantified.len()).map(|k| first + k))
        .collect();
    let domain = std::mem::replace(&mut s.domain, Formula::True);
    s.domain = Formula::and(vec![domain, f.rename(&shift)]);
    for q in quantified {
        let mut name = q.name.clone();
        while s.iterators.contains(&name) || s.existentials.iter().any(|e| e.name == name) {
            name.push('_');
        }
        s.existentials.push(Existential {
            name,
            division: q
                .division
                .as_ref()
                .map(|(e, d)| (e.rename(map).rename(&shift), d.clone())),
        });
    }
}

/// Where each parameter of `item` sits in the domain's list (`item`'s parameters are a
/// checked subset of `params`).
fn param_map(item: &Item, params: &[String]) -> Vec<usize> {
    item.params
        .iter()
        .map(|(n, _)| params.iter().position(|m| m == n).expect("checked subset"))
        .collect()
}
