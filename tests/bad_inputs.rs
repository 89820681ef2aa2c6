//! The table of bad inputs (`docs/bad-inputs.md`), one case per row, run through the built
//! binary: each gives a message that says what is wrong and where, exit code 2 (3 for
//! resource limits), never a panic, and with `-o FILE` no file at all. The inputs that are
//! unusual but valid (huge coefficients, degree 20, empty domains) must generate, and the
//! ones with coefficients beyond 64 bits must also verify against brute force.

use std::path::Path;
use std::process::Command;

#[path = "bad_inputs/la.rs"]
mod la;
use la::LA;

/// One row of the table.
pub(crate) struct Case {
    /// The row's name in `docs/bad-inputs.md`.
    pub(crate) id: &'static str,
    /// `gen` (input in the set language) or `la` (Linnea's language).
    pub(crate) cmd: &'static str,
    pub(crate) input: &'static str,
    /// Extra arguments after the file.
    pub(crate) args: &'static [&'static str],
    /// Expected exit code.
    pub(crate) code: i32,
    /// Each must occur in standard error (for code 0: in standard output).
    pub(crate) needles: &'static [&'static str],
}

const GEN: &[Case] = &[
    Case {
        id: "empty-file",
        cmd: "gen",
        input: "",
        args: &[],
        code: 2,
        needles: &["expected a set of statements", ":1, column 1"],
    },
    Case {
        id: "only-comment",
        cmd: "gen",
        input: "# nothing here\n",
        args: &[],
        code: 2,
        needles: &["expected a set of statements", ":2, column 1"],
    },
    Case {
        id: "unclosed-set",
        cmd: "gen",
        input: "{",
        args: &[],
        code: 2,
        needles: &[
            "expected a statement name, '[' or ':'",
            "end of the input",
            "column 2",
        ],
    },
    Case {
        id: "params-no-close",
        cmd: "gen",
        input: "[n -> { S[i] : 0 <= i <= n }",
        args: &[],
        code: 2,
        needles: &["expected ',' or ']' after the parameters", "column 4"],
    },
    Case {
        id: "params-no-arrow",
        cmd: "gen",
        input: "[n] { S[i] : 0 <= i <= n }",
        args: &[],
        code: 2,
        needles: &["expected '->' after the parameter list", "column 5"],
    },
    Case {
        id: "statement-name-a-number",
        cmd: "gen",
        input: "{ 1[i] : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected a statement name, '[' or ':'", "column 3"],
    },
    Case {
        id: "iterators-no-close",
        cmd: "gen",
        input: "{ S[i : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected ',' or ']' after the iterators", "column 7"],
    },
    Case {
        id: "iterator-trailing-comma",
        cmd: "gen",
        input: "{ S[i,] : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected an iterator name", "column 7"],
    },
    Case {
        id: "keyword-as-name",
        cmd: "gen",
        input: "{ S[and] : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["'and' is a keyword", "column 5"],
    },
    Case {
        id: "missing-colon",
        cmd: "gen",
        input: "{ S[i] 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected ';' or '}'", "column 8"],
    },
    Case {
        id: "missing-operand",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= }",
        args: &[],
        code: 2,
        needles: &["expected a polynomial", "column 20"],
    },
    Case {
        id: "dangling-and",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and }",
        args: &[],
        code: 2,
        needles: &["expected a polynomial", "column 26"],
    },
    Case {
        id: "double-or",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 or or i = 2 }",
        args: &[],
        code: 2,
        needles: &["expected a polynomial", "column 25"],
    },
    Case {
        id: "dangling-not",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and not }",
        args: &[],
        code: 2,
        needles: &["expected a polynomial", "column 30"],
    },
    Case {
        id: "double-relation",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and i = = 2 }",
        args: &[],
        code: 2,
        needles: &["expected a polynomial", "column 30"],
    },
    Case {
        id: "dangling-plus",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and i + }",
        args: &[],
        code: 2,
        needles: &["expected a number, a variable or '('", "column 30"],
    },
    Case {
        id: "no-comparison",
        cmd: "gen",
        input: "{ S[i] : i }",
        args: &[],
        code: 2,
        needles: &["expected a comparison", "column 12"],
    },
    Case {
        id: "stray-paren",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 ) }",
        args: &[],
        code: 2,
        needles: &["expected ';' or '}', found ')'", "column 22"],
    },
    Case {
        id: "unclosed-paren",
        cmd: "gen",
        input: "{ S[i] : (0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected ')' or a connective", "column 23"],
    },
    Case {
        id: "extra-brace",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 } }",
        args: &[],
        code: 2,
        needles: &["expected '{' to start a set", "column 24"],
    },
    Case {
        id: "trailing-semicolon",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 ; }",
        args: &[],
        code: 2,
        needles: &["expected a statement name, '[' or ':'", "column 24"],
    },
    Case {
        id: "bad-character",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 $ }",
        args: &[],
        code: 2,
        needles: &["found '$'", "column 22"],
    },
    Case {
        id: "unicode-relation",
        cmd: "gen",
        input: "{ S[i] : 0 <= i ≤ 3 }",
        args: &[],
        code: 2,
        needles: &["found '≤'", "column 17"],
    },
    Case {
        id: "error-on-line-4",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n\n\n  { T",
        args: &[],
        code: 2,
        needles: &["expected '[' after the statement name", ":4, column 6"],
    },
    Case {
        id: "decimal-coefficient",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3.5 }",
        args: &[],
        code: 2,
        needles: &["decimal numbers are not allowed", "column 21"],
    },
    Case {
        id: "division-by-variable",
        cmd: "gen",
        input: "{ S[i] : 0 <= i / i <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected a positive integer after '/'", "column 19"],
    },
    Case {
        id: "fraction-times",
        cmd: "gen",
        input: "{ S[i] : 0 <= i/3*2 <= 3 }",
        args: &[],
        code: 2,
        needles: &["isl reads 'e/d*f' as 'e/(d*f)'", "column 18"],
    },
    Case {
        id: "max-unclosed",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= max(n, 3 }",
        args: &[],
        code: 2,
        needles: &["expected ',' or ')'", "column 36"],
    },
    Case {
        id: "implies-chained",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and (i > 0 implies i > 1 implies i > 2) }",
        args: &[],
        code: 2,
        needles: &["'implies' does not chain", "column 47"],
    },
    Case {
        id: "unknown-identifier",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= n }",
        args: &[],
        code: 2,
        needles: &["unknown variable 'n' (known: i)", "column 20"],
    },
    Case {
        id: "unknown-iterator",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n and j >= 0 }",
        args: &[],
        code: 2,
        needles: &["unknown variable 'j' (known: n, i)", "column 33"],
    },
    Case {
        id: "negative-exponent",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^-1 <= 3 }",
        args: &[],
        code: 2,
        needles: &["negative exponents are not allowed", "column 17"],
    },
    Case {
        id: "non-integer-exponent",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^1.5 <= 3 }",
        args: &[],
        code: 2,
        needles: &["decimal numbers are not allowed", "column 18"],
    },
    Case {
        id: "parenthesised-exponent",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^(2) <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected a non-negative integer exponent", "column 17"],
    },
    Case {
        id: "chained-exponent",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^2^2 <= 3 }",
        args: &[],
        code: 2,
        needles: &["chained exponents are ambiguous", "column 18"],
    },
    Case {
        id: "huge-exponent",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^99999999999999999999 <= 3 }",
        args: &[],
        code: 2,
        needles: &["exponent 99999999999999999999 is too large (at most 10000)", "column 17"],
    },
    Case {
        id: "power-of-sum-too-large",
        cmd: "gen",
        input: "{ S[i] : 0 <= (i - 40)^2666 }",
        args: &[],
        code: 2,
        needles: &["this power expands to about", "column 24"],
    },
    Case {
        id: "c-keyword-as-name",
        cmd: "gen",
        input: "[int] -> { S[i] : 0 <= i <= int }",
        args: &[],
        code: 2,
        needles: &["'int' cannot be a name here: it is a keyword of C or Rust", "column 2"],
    },
    Case {
        id: "reserved-helper-name",
        cmd: "gen",
        input: "[n] -> { S[ps_isqrt] : 0 <= ps_isqrt <= n }",
        args: &[],
        code: 2,
        needles: &["names starting with 'ps_', 'PS_' or '__' are reserved", "column 12"],
    },
    Case {
        id: "primed-name",
        cmd: "gen",
        input: "{ S[x'] : 0 <= x' <= 3 }",
        args: &[],
        code: 2,
        needles: &["C has no primes in names", "column 5"],
    },
    Case {
        id: "power-with-too-many-terms",
        cmd: "gen",
        input: "[n, w] -> { S[i] : 0 <= (i - 71474 - w - 4n)^31 }",
        args: &[],
        code: 2,
        needles: &["this power expands to up to 5984 terms (at most 5000)", "column 46"],
    },
    Case {
        id: "power-of-long-sum-slow",
        cmd: "gen",
        input: "[h, w] -> { S[y] : 0 <= (y - h*y - 74*w^42 - 2)^47 }",
        args: &[],
        code: 2,
        needles: &["this power expands to up to 19600 terms", "column 49"],
    },
    Case {
        id: "power-of-power-degree",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and 0 <= (i^818 + 1)^16 }",
        args: &[],
        code: 2,
        needles: &["this power raises a variable to the power 13088 (at most 10000)", "column 43"],
    },
    Case {
        id: "huge-constant-power",
        cmd: "gen",
        input: "{ S[x, y] : 0 <= x <= 3 and 0 <= y and 2y^2 <= 44444448884444444444444^4462 }",
        args: &[],
        code: 2,
        needles: &["this power has coefficients of up to 343574 bits (at most 65536)", "column 72"],
    },
    Case {
        id: "largest-exponent-timeout",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^10000 <= 3 }",
        // The CAD's cells (--separate): the decomposition of i^10000 runs into the limit.
        args: &["--timeout", "1", "--separate"],
        code: 3,
        needles: &["time limit of 1 s reached (--timeout); no output written"],
    },
    Case {
        id: "largest-exponent-compact",
        cmd: "gen",
        input: "{ S[i] : 0 <= i^10000 <= 3 }",
        // The compact shape bounds i by an integer 10000th root, folded to a constant.
        args: &["--timeout", "1"],
        code: 0,
        needles: &["for (int64_t i = -1; i <= 1; i += 1)"],
    },
    Case {
        id: "degree-20-binomial",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i <= 3 and 0 <= j <= 3 and i^20 + j^20 <= 3^20 }",
        args: &[],
        code: 0,
        needles: &["ps_iroot"],
    },
    Case {
        id: "degree-20-general",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i <= 3 and 0 <= j <= 3 and (i + j)^20 <= 4^20 + i }",
        args: &["--timeout", "20"],
        code: 0,
        needles: &["S(i, j)"],
    },
    Case {
        id: "ten-variables",
        cmd: "gen",
        input: "[a, b, c, d] -> { S[i, j, k, l, m, o] : 0 <= i, j, k, l, m, o <= a and i*j + k*l + m*o <= b + c*d }",
        // The CAD without the budget of the default engine (see `ten-variables-guarded`).
        args: &["--engine", "cad", "--max-cells", "20000", "--timeout", "60"],
        code: 3,
        needles: &["more than 20000 cells (--max-cells); no output written"],
    },
    Case {
        id: "ten-variables-timeout",
        cmd: "gen",
        input: "[a, b, c, d] -> { S[i, j, k, l, m, o] : 0 <= i, j, k, l, m, o <= a and i*j + k*l + m*o <= b + c*d }",
        args: &["--engine", "cad", "--timeout", "0.5"],
        code: 3,
        needles: &["(--timeout); no output written"],
    },
    Case {
        id: "ten-variables-guarded",
        cmd: "gen",
        input: "[a, b, c, d] -> { S[i, j, k, l, m, o] : 0 <= i, j, k, l, m, o <= a and i*j + k*l + m*o <= b + c*d }",
        // The default engine: past the CAD's budget the affine bounds are the loops and
        // the polynomial constraint a test.
        args: &[],
        code: 0,
        needles: &["if (i*j + k*l + m*o - b - c*d <= 0)"],
    },
    Case {
        id: "unbounded",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i <= 3 and j >= i }",
        args: &[],
        code: 2,
        needles: &["the domain is unbounded in j above"],
    },
    Case {
        id: "unbounded-parametric",
        cmd: "gen",
        input: "[n] -> { S[i] : i >= n }",
        args: &[],
        code: 2,
        needles: &["the domain is unbounded in i above"],
    },
    Case {
        id: "empty-domain",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i <= 3 and i^2 + j^2 < 0 }",
        args: &[],
        code: 0,
        needles: &["empty domain"],
    },
    Case {
        id: "false-domain",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and false }",
        args: &[],
        code: 0,
        needles: &["empty domain"],
    },
    Case {
        id: "duplicate-statement",
        cmd: "gen",
        // Pieces of one tuple are a union as in isl (`S[i] : ...; S[i = 0]`); only a
        // different number of iterators is refused.
        input: "{ S[i] : 0 <= i <= 3; S[i, j] : 0 <= i <= 2 }",
        args: &[],
        code: 2,
        needles: &[
            "statement 'S' is declared twice with different numbers of iterators",
            "column 23",
        ],
    },
    Case {
        id: "duplicate-iterator",
        cmd: "gen",
        input: "{ S[i, i] : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["iterator 'i' is declared twice", "column 8"],
    },
    Case {
        id: "duplicate-parameter",
        cmd: "gen",
        input: "[n, n] -> { S[i] : 0 <= i <= n }",
        args: &[],
        code: 2,
        needles: &["parameter 'n' is declared twice", "column 5"],
    },
    Case {
        id: "iterator-named-like-parameter",
        cmd: "gen",
        input: "[n] -> { S[n] : 0 <= n <= 3 }",
        args: &[],
        code: 2,
        needles: &["iterator 'n' has the name of a parameter", "column 12"],
    },
    Case {
        id: "second-statement-iterator-named-like-parameter",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n; T[n] : 0 <= n <= 3 }",
        args: &[],
        code: 2,
        needles: &["iterator 'n' has the name of a parameter", "column 32"],
    },
    Case {
        id: "second-domain",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n{ T[i] : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["a second domain is not allowed", ":2, column 1"],
    },
    Case {
        id: "context-unknown-parameter",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n }\n[m] -> { : m >= 0 }",
        args: &[],
        code: 2,
        needles: &["'m' is not a parameter of the domain", ":2, column 2"],
    },
    Case {
        id: "mixed-set",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 ; : 1 >= 0 }",
        args: &[],
        code: 2,
        needles: &["a set mixes statements, context constraints and schedule entries"],
    },
    Case {
        id: "schedule-unknown-statement",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n{ T[i] -> [i] }",
        args: &[],
        code: 2,
        needles: &["unknown statement 'T' in the schedule", ":2, column 3"],
    },
    Case {
        id: "schedule-lengths",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n{ S[i] -> [i, 0] ; S[i] -> [i] }",
        args: &[],
        code: 2,
        needles: &["time vectors of different lengths", ":2, column 20"],
    },
    Case {
        id: "different-dimensions",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i <= 3 and 0 <= j <= 3; T[i] : 0 <= i <= 3 }",
        args: &[],
        code: 2,
        needles: &["statements of different dimension need a schedule", "column 42"],
    },
    Case {
        id: "order-unknown-iterator",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }",
        args: &["--order", "j"],
        code: 2,
        needles: &["--order: 'j' is not an iterator (i)"],
    },
    Case {
        id: "context-unknown-identifier",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n }",
        args: &["--context", "m >= 1"],
        code: 2,
        needles: &["unknown variable 'm' (known: n)", "--context:1, column 1"],
    },
    Case {
        id: "coefficients-beyond-64-bits",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i <= 5 and 0 <= j and 100000000000000000000*j <= 300000000000000000000*i }",
        args: &[],
        code: 0,
        needles: &["j <= 3*i"],
    },
    Case {
        id: "coefficients-beyond-64-bits-in-bound",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i and 18446744073709551616*i <= 18446744073709551616*n + 5 }",
        args: &[],
        code: 0,
        needles: &["i <= n"],
    },
    Case {
        id: "coefficients-beyond-64-bits-quadratic",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 5 and 99999999999999999999999999*i^2 - 99999999999999999999999999*i >= 0 }",
        args: &[],
        code: 0,
        needles: &["S(i)"],
    },
    Case {
        id: "constants-at-the-64-bit-edge",
        cmd: "gen",
        input: "{ S[i] : -9223372036854775808 <= i - 9223372036854775807 <= -9223372036854775800 }",
        args: &[],
        code: 0,
        needles: &["i <= 7"],
    },
    Case {
        id: "exists-under-not",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and not exists k : i = 2k }",
        args: &[],
        code: 2,
        needles: &["'exists' under 'not' is a universal quantifier", "column 30"],
    },
    Case {
        id: "exists-missing-colon",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and exists k i = 2k }",
        args: &[],
        code: 2,
        needles: &["expected ',' or ':' after the quantified variables", "column 35"],
    },
    Case {
        id: "exists-rebinds-an-iterator",
        cmd: "gen",
        input: "{ S[i] : exists i : i = 2 }",
        args: &[],
        code: 2,
        needles: &["'i' is already a parameter, an iterator or a bound name", "column 17"],
    },
    Case {
        id: "divisor-not-constant",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n and i mod n = 0 }",
        args: &[],
        code: 2,
        needles: &["divisor of an integer division must be a positive integer constant", "column 39"],
    },
    Case {
        id: "divisor-zero",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 and floor(i/0) = 1 }",
        args: &[],
        code: 2,
        needles: &["division by zero", "column 34"],
    },
    Case {
        id: "floor-unclosed",
        cmd: "gen",
        input: "{ S[i] : 0 <= floor(i/2 <= 3 }",
        args: &[],
        code: 2,
        needles: &["expected ')'", "column 25"],
    },
    Case {
        id: "division-in-context",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n }\n[n] -> { : n mod 2 = 0 }",
        args: &[],
        code: 0,
        needles: &["ps_floord(n, 2)", "S(i)"],
    },
    Case {
        id: "division-in-context-flag",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n }",
        args: &["--context", "n mod 2 = 0"],
        code: 2,
        needles: &["integer division is not supported here", "--context:1, column 3"],
    },
    Case {
        id: "schedule-coordinates",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n{ S[i, j] -> [i] }",
        args: &[],
        code: 2,
        needles: &["the schedule gives 'S' 2 coordinates but the statement has 1 iterators", ":2, column 3"],
    },
    Case {
        id: "schedule-exists-in-pieces",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n{ S[i] -> [i] : exists k : i = 2k + 1 ; S[i] -> [i] : i = 0 }",
        args: &[],
        code: 2,
        needles: &["the quantified variable k is not fixed by an equality", "under 'or'"],
    },
    Case {
        id: "schedule-relation-unbounded",
        cmd: "gen",
        input: "{ S[i] : 0 <= i <= 3 }\n{ S[i] -> [o] : o >= i }",
        args: &[],
        code: 2,
        needles: &["unbounded"],
    },
    Case {
        id: "schedule-relation-with-order",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i, j <= 3 }\n{ S[i, j] -> [o] : 2o = i }",
        args: &["--order", "j,i"],
        code: 2,
        needles: &["a schedule fixes the loop order"],
    },
    Case {
        id: "schedule-relation-many-times",
        cmd: "gen",
        input: "{ sync[] }\n{ sync[] -> [t] : 0 <= t <= 4 }",
        args: &[],
        code: 0,
        needles: &["for (int64_t c0 = 0; c0 <= 4; c0 += 1)", "sync();"],
    },
    Case {
        id: "quantified-two-free",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n and exists k, l : k + l <= i and 0 <= k and 0 <= l }",
        args: &[],
        code: 2,
        needles: &["quantified variables k, l are not fixed by equalities"],
    },
    Case {
        id: "quantified-power",
        cmd: "gen",
        input: "[n] -> { S[i] : 0 <= i <= n and exists k : k*k = i }",
        args: &[],
        code: 2,
        needles: &["quantified variable k is not fixed by an equality", "need not form an interval"],
    },
    Case {
        id: "quantified-with-order",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i, j <= 3 and i mod 2 = 0 }",
        args: &["--order", "j,i"],
        code: 2,
        needles: &["keep the file's order"],
    },
    Case {
        id: "quantified-with-tiling",
        cmd: "gen",
        input: "{ S[i, j] : 0 <= i, j <= 3 and i mod 2 = 0 }",
        args: &["--tile-sizes", "2,2"],
        code: 2,
        needles: &["tiling a statement with quantified variables or integer divisions (S) is not supported yet"],
    },
];

fn polyscan(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(args)
        .output()
        .expect("the polyscan binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs one case; returns a description of what went wrong, if anything.
fn check(case: &Case, dir: &Path) -> Result<(), String> {
    let ext = if case.cmd == "la" { "la" } else { "pset" };
    let input = dir.join(format!("{}.{ext}", case.id));
    std::fs::write(&input, case.input).map_err(|e| e.to_string())?;
    let output = dir.join(format!("{}.out", case.id));
    let mut args: Vec<&std::ffi::OsStr> = vec![case.cmd.as_ref(), input.as_os_str()];
    args.extend(case.args.iter().map(|a| -> &std::ffi::OsStr { a.as_ref() }));
    // `la` writes to standard output only; `gen` also to a file, atomically.
    if case.cmd == "gen" {
        args.push("-o".as_ref());
        args.push(output.as_os_str());
    }
    let (code, out, err) = polyscan(&args);
    let fail = |what: String| Err(format!("{}: {what}\nstdout: {out}\nstderr: {err}", case.id));
    if err.contains("panicked") || code == 101 {
        return fail("panicked".into());
    }
    if code != case.code {
        return fail(format!("exit code {code}, expected {}", case.code));
    }
    let text = if case.code == 0 {
        if case.cmd == "gen" {
            std::fs::read_to_string(&output).unwrap_or_default()
        } else {
            out.clone()
        }
    } else {
        err.clone()
    };
    for n in case.needles {
        if !text.contains(n) {
            return fail(format!("missing {n:?}"));
        }
    }
    if case.code != 0 {
        if !out.is_empty() {
            return fail("printed to standard output".into());
        }
        if output.exists() {
            return fail("left an output file".into());
        }
        if !err.starts_with("error: ") {
            return fail("no 'error:' line".into());
        }
    }
    Ok(())
}

#[test]
fn every_bad_input_is_diagnosed() {
    let dir = tempfile::tempdir().expect("scratch directory");
    let failures: Vec<String> = GEN
        .iter()
        .chain(LA)
        .filter_map(|c| check(c, dir.path()).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every case is a row of `docs/bad-inputs.md`, and every row is a case.
#[test]
fn the_table_lists_every_case() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/bad-inputs.md"))
        .expect("docs/bad-inputs.md");
    let rows: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let ids: Vec<&str> = GEN.iter().chain(LA).map(|c| c.id).collect();
    for id in &ids {
        assert!(rows.contains(id), "{id} is not a row of docs/bad-inputs.md");
    }
    for r in &rows {
        assert!(ids.contains(r), "row {r} of docs/bad-inputs.md has no test");
    }
}

/// The valid inputs with coefficients beyond 64 bits also run exactly: generated code
/// compiled and compared with brute force.
#[test]
fn huge_coefficients_verify() {
    let dir = tempfile::tempdir().expect("scratch directory");
    for (id, params) in [
        ("coefficients-beyond-64-bits", vec![]),
        (
            "coefficients-beyond-64-bits-in-bound",
            vec!["n=3", "n=0", "n=-2"],
        ),
        ("coefficients-beyond-64-bits-quadratic", vec![]),
        ("constants-at-the-64-bit-edge", vec![]),
    ] {
        let case = GEN
            .iter()
            .find(|c| c.id == id)
            .expect("a case of the table");
        let input = dir.path().join(format!("{id}.pset"));
        std::fs::write(&input, case.input).expect("write input");
        let mut args: Vec<&std::ffi::OsStr> = vec!["verify".as_ref(), input.as_os_str()];
        for p in &params {
            args.push("--params".as_ref());
            args.push(p.as_ref());
        }
        let (code, out, err) = polyscan(&args);
        if code == 3 && err.contains("no C compiler") {
            eprintln!("no C compiler: skipping");
            return;
        }
        assert_eq!(code, 0, "{id}: {out}{err}");
        assert!(out.contains("ok"), "{id}: {out}");
    }
}

/// `-o /dev/null` writes to the device and leaves it one: an atomic rename over it would
/// replace the machine's /dev/null by a regular file (it happened once, and broke cargo).
#[cfg(unix)]
#[test]
fn output_to_a_device_is_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let null = std::path::Path::new("/dev/null");
    let is_device = || {
        std::fs::metadata(null)
            .map(|m| m.file_type().is_char_device())
            .unwrap_or(false)
    };
    assert!(
        is_device(),
        "/dev/null is not a character device before the test"
    );
    let dir = tempfile::tempdir().expect("scratch directory");
    let input = dir.path().join("d.pset");
    std::fs::write(&input, "[n] -> { S[i] : 0 <= i <= n }").expect("write input");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args(["gen", input.to_str().unwrap_or(""), "-o", "/dev/null"])
        .output()
        .expect("run polyscan");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(is_device(), "polyscan gen -o /dev/null replaced the device");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_polyscan"))
        .args([
            "gen",
            input.to_str().unwrap_or(""),
            "-o",
            dir.path().to_str().unwrap_or(""),
        ])
        .output()
        .expect("run polyscan");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
}
