//! isl's set syntax beyond tuples, read as isl 0.25 reads it: rational coefficients
//! (`i/2 <= n`, a constraint scaled by its denominators), `min` and `max` (cases of which
//! argument is the extreme one), `implies` (looser than `or`, not chained), a leading
//! sign over a whole term (`-i mod 3` is `-(i mod 3)`), and unnamed tuples (`[i] : ...`,
//! the statements `S0`, `S1`, ...). Each input runs the same instance sequence as a
//! hand-written equivalent without the form, at parameter values on both sides of every
//! case boundary; where the comment quotes isl, the equivalent is isl's own printout of
//! the input (`isl_union_set_read_from_str`, then `isl_union_set_to_str`). Malformed
//! variants are refused with their position.

mod instances;
use codegen::input::parse_problem;
use instances::{refused_at, same_instances};

#[test]
fn rational_coefficients_scale_the_constraint() {
    // isl: `{ [i] : i/2 <= 3 and 0 <= i }` is `{ [i] : 0 <= i <= 6 }`.
    same_instances(
        "[n] -> { S[i] : i/2 <= n and 0 <= i }",
        "[n] -> { S[i] : i <= 2n and 0 <= i }",
    );
    // isl: `-i/2 >= -2` is `i <= 4`; `2i/3 >= 1` is `i >= 2`; `(i+1)/2 <= 1` is `i <= 1`.
    same_instances(
        "[n] -> { S[i] : -i/2 >= -n and 2i/3 >= 1 and (i + 1)/2 <= n/3 + 2 }",
        "[n] -> { S[i] : i <= 2n and 2i >= 3 and 3i + 3 <= 2n + 12 }",
    );
    // Several fractions in one comparison, equalities and `!=`, in a chain.
    same_instances(
        "[n] -> { S[i, j] : 0 <= i/2 + i/3 <= n and j/3 = i/2 and i/4 != 1 }",
        "[n] -> { S[i, j] : 0 <= 5i <= 6n and 2j = 3i and i != 4 }",
    );
    // Fractions inside and around integer divisions (isl: `floor((i/2 + 1)/3) = 1` on
    // 0..10 is `4 <= i <= 9`, `floor(i/3)/2 >= 1` is `i >= 6`).
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and floor((i/2 + 1)/3) = 1 }",
        "[n] -> { S[i] : 0 <= i <= n and 4 <= i <= 9 }",
    );
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and floor(i/3)/2 >= 1 and ceil(i/2 - 1/2) <= 4 }",
        "[n] -> { S[i] : 0 <= i <= n and 6 <= i <= 9 }",
    );
    // A fraction inside a division is part of its argument, as isl reads it (isl:
    // `floor(i + i/2) = 4` on 0..6 is `i = 3`, not `floor((i + i)/2)`).
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and floor(i + i/2) = 4 and [(i + 1)/2] >= 0 }",
        "[n] -> { S[i] : 0 <= i <= n and 8 <= 3i <= 9 }",
    );
    // A polynomial term over a denominator: the constraint is scaled as a whole.
    same_instances(
        "[n] -> { S[i, j] : 0 <= i, j <= n and i*j/2 <= n - 1 }",
        "[n] -> { S[i, j] : 0 <= i, j <= n and i*j <= 2n - 2 }",
    );
}

#[test]
fn min_and_max_are_cases_of_the_extreme_argument() {
    // isl: `[n] -> { S[i] : 0 <= i <= max(n, 3) }` is
    // `i >= 0 and ((n >= 3 and i <= n) or (n <= 2 and i <= 3))`.
    same_instances(
        "[n] -> { S[i] : 0 <= i <= max(n, 3) }",
        "[n] -> { S[i] : i >= 0 and ((n >= 3 and i <= n) or (n <= 2 and i <= 3)) }",
    );
    // Several arguments, nesting, one argument, and both in one chain.
    same_instances(
        "[n] -> { S[i] : min(2, n - 5, 7) <= i <= max(max(1, n), max(n - 1)) and i <= n + min(0, n - 6) + 3 }",
        "[n] -> { S[i] : (i >= 2 or i >= n - 5) and (i <= 1 or i <= n) and i <= n + 3 and i <= 2n - 3 }",
    );
    // Under `not` the cases still describe the value: `i < max(3, n - 2)`.
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and not (i >= max(3, n - 2)) }",
        "[n] -> { S[i] : 0 <= i <= n and (i < 3 or i < n - 2) }",
    );
    // Over fractions (a common denominator) and polynomial arguments.
    same_instances(
        "[n] -> { S[i, j] : 0 <= i, j <= n and j <= min(i, n/2) and max(i*j, n) <= 12 }",
        "[n] -> { S[i, j] : 0 <= i, j <= n and j <= i and 2j <= n and i*j <= 12 and n <= 12 }",
    );
}

#[test]
fn min_and_max_next_to_integer_divisions() {
    // A division read after the placeholder in the same comparison, and one in a later
    // comparison: both keep their meaning when the placeholder goes.
    same_instances(
        "[n] -> { S[i] : -2 <= i and max(i, 3) + floor(i/2) <= n and i mod 3 != 1 }",
        "[n] -> { S[i] : -2 <= i and ((i >= 3 and i + floor(i/2) <= n) or (i <= 3 and 3 + floor(i/2) <= n)) and i mod 3 != 1 }",
    );
    // A division before it, shared with a later one (`floor(i/2)` twice).
    same_instances(
        "[n] -> { S[i] : 0 <= i and floor(i/2) <= min(n, 4) and i - 2*floor(i/2) = 0 }",
        "[n] -> { S[i] : 0 <= i and floor(i/2) <= n and floor(i/2) <= 4 and i mod 2 = 0 }",
    );
}

#[test]
fn implies_is_a_disjunction_looser_than_or() {
    // isl: `0 <= i <= 5 and (i > 2 implies i mod 2 = 0)` is `(i <= 2 or (i) mod 2 = 0)`.
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and (i > 2 implies i mod 2 = 0) }",
        "[n] -> { S[i] : 0 <= i <= n and (i <= 2 or i mod 2 = 0) }",
    );
    // `a and b or c implies d` is `(a and b or c) implies d` (isl prints
    // `0<=i<=10 and i > 8 or i < 1 implies i mod 2 = 0` as
    // `i >= 11 or (0 < i <= 8) or (i) mod 2 = 0`).
    same_instances(
        "[n] -> { S[i] : -n <= i <= n and (0 <= i and i > 4 or i < 1 implies i mod 2 = 0) }",
        "[n] -> { S[i] : -n <= i <= n and ((1 <= i <= 4) or i mod 2 = 0) }",
    );
    // Under `not` (isl: `not (i >= 2 implies i >= 5)` on 0..10 is `2 <= i <= 4`), and in
    // an `exists` body.
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and not (i >= 2 implies i >= 5) }",
        "[n] -> { S[i] : 0 <= i <= n and 2 <= i <= 4 }",
    );
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and exists (k : i = 2k and (k > 1 implies k mod 2 = 0)) }",
        "[n] -> { S[i] : 0 <= i <= n and (i = 0 or i = 2 or i mod 4 = 0) }",
    );
}

#[test]
fn a_leading_sign_covers_the_whole_term() {
    // isl: `-i mod 3 = 1` is empty (`-(i mod 3)`), `0 - i mod 3 = -1` is
    // `(-1 + i) mod 3 = 0`; `(-i) mod 3 = 1` is `(1 + i) mod 3 = 0`.
    same_instances(
        "[n] -> { S[i] : -n <= i <= n and -i mod 3 = -1 }",
        "[n] -> { S[i] : -n <= i <= n and i mod 3 = 1 }",
    );
    same_instances(
        "[n] -> { S[i] : -n <= i <= n and ((-i) mod 3 = 1 or 5 - -2i mod 3 = 6) }",
        "[n] -> { S[i] : -n <= i <= n and ((i + 1) mod 3 = 0 or (2i) mod 3 = 1) }",
    );
    // isl on 0..10: `floor(-i/3) = -2` is `4 <= i <= 6`, `-floor(i/3) = -2` is `6 <= i <= 8`.
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and (floor(-i/3) = -2 or -floor(i/3) = -3) }",
        "[n] -> { S[i] : 0 <= i <= n and (4 <= i <= 6 or 9 <= i <= 11) }",
    );
}

#[test]
fn mod_takes_the_remainder_of_the_last_factor() {
    // isl 0.25 on 0..9: `2i mod 3 = 4` and `2*i mod 3 = 4` are 2, 5, 8 (`2*(i mod 3)`;
    // `(2i) mod 3 = 4` is empty), `5 - -2i mod 3 = 7` is `i mod 3 = 1`, `3 * floor(i/2) mod
    // 4 = 3` is 2, 3. A product of variables follows the same rule: `i*j mod 2` is
    // `i*(j mod 2)`.
    same_instances(
        "[n] -> { S[i] : -n <= i <= n and 2i mod 3 = 4 }",
        "[n] -> { S[i] : -n <= i <= n and i mod 3 = 2 }",
    );
    same_instances(
        "[n] -> { S[i] : -n <= i <= n and (2*i mod 3 = 4 or (2i) mod 3 = 2) }",
        "[n] -> { S[i] : -n <= i <= n and (i mod 3 = 2 or i mod 3 = 1) }",
    );
    same_instances(
        "[n] -> { S[i] : -n <= i <= n and 5 - -2i mod 3 = 7 }",
        "[n] -> { S[i] : -n <= i <= n and i mod 3 = 1 }",
    );
    same_instances(
        "[n] -> { S[i] : 0 <= i <= n and 3 * floor(i/2) mod 4 = 3 }",
        "[n] -> { S[i] : 0 <= i <= n and floor(i/2) mod 4 = 1 }",
    );
    same_instances(
        "[n] -> { S[i, j] : 0 <= i <= n and 0 <= j <= n and i*j mod 2 = 1 }",
        "[n] -> { S[i, j] : i = 1 and i <= n and 0 <= j <= n and j mod 2 = 1 }",
    );
}

#[test]
fn unnamed_tuples_are_statements_s0_s1_in_order() {
    same_instances(
        "[n] -> { [i] : 0 <= i <= n }",
        "[n] -> { S0[i] : 0 <= i <= n }",
    );
    // Pieces of one unnamed tuple are a union; a named `S0` is skipped.
    same_instances(
        "[n] -> { [i, j] : 0 <= i < j <= n; S0[i, j] : i = j = n; [i, j = 0] : 0 <= i <= n }",
        "[n] -> { S1[i, j] : (0 <= i < j <= n) or (j = 0 and 0 <= i <= n); S0[i, j] : i = j = n }",
    );
    // Two numbers of positions are two statements, ordered by an unnamed schedule.
    same_instances(
        "[n] -> { [i] : 0 <= i <= n; [i, j] : 0 <= j <= i <= n }\n{ [i] -> [i, 1, 0]; [i, j] -> [i, 0, j] }",
        "[n] -> { S0[i] : 0 <= i <= n; S1[i, j] : 0 <= j <= i <= n }\n{ S0[i] -> [i, 1, 0]; S1[i, j] -> [i, 0, j] }",
    );
}

#[test]
fn malformed_forms_are_refused_with_positions() {
    for (src, col, needle) in [
        ("[n] -> { S[i] : 0 <= i <= max( }", 32, "expected a number"),
        (
            "[n] -> { S[i] : 0 <= i <= max(n }",
            33,
            "expected ',' or ')'",
        ),
        (
            "[n] -> { S[i] : 0 <= i <= min(,) }",
            31,
            "expected a number",
        ),
        ("[n] -> { S[i] : 0 <= i <= max() }", 31, "expected a number"),
        ("[n] -> { S[i] : 0 <= i <= n implies }", 37, "expected"),
        (
            "[n] -> { S[i] : i < n implies i > 0 implies i > 1 }",
            37,
            "does not chain",
        ),
        ("[n] -> { S[i] : 0 <= i/0 <= n }", 24, "division by zero"),
        (
            "[n] -> { S[i] : 0 <= i/n <= n }",
            24,
            "positive integer after '/'",
        ),
        (
            "[n] -> { S[i] : 0 <= i/-2 <= n }",
            24,
            "positive integer after '/'",
        ),
        ("[n] -> { S[i] : 0 <= i/3*2 <= n }", 25, "e/(d*f)"),
        (
            "[n] -> { S[i] : i/2 mod 3 = 1 }",
            21,
            "remainder of a fraction",
        ),
        (
            "[n] -> { S[i] : floor(max(i, 2)/3) = n }",
            17,
            "inside an integer division",
        ),
        (
            "[n] -> { S[i, i/2] : 0 <= i <= n }",
            15,
            "fraction is allowed only",
        ),
        // isl reads a tuple position `max(i, 2)` as pieces; refused here.
        (
            "[n] -> { S[i, max(i, 2)] : 0 <= i <= n }",
            18,
            "after the iterators",
        ),
        (
            "[n] -> { S[i] : exists (k = max(i, 1) : k <= n) }",
            29,
            "only in comparisons",
        ),
        (
            "[n] -> { S[i] : (exists k : i = 2k) implies i <= n }",
            37,
            "universal quantifier",
        ),
        ("{ [i] : i >= 0; [i, j] : j >= 0 }", 17, "need a schedule"),
    ] {
        refused_at(src, col, needle);
    }
}

/// Every prefix of every input above, and each with one character dropped, is read or
/// refused with a position inside the text: never a panic.
#[test]
fn truncated_and_damaged_forms_never_panic() {
    let src = include_str!("isl_forms.rs");
    let inputs: Vec<&str> = src
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| s.contains('{'))
        .collect();
    assert!(inputs.len() > 40, "found {} inputs", inputs.len());
    for input in inputs {
        let input = input.replace("\\n", "\n");
        let chars: Vec<(usize, char)> = input.char_indices().collect();
        for &(at, c) in &chars {
            let cut = &input[..at];
            let dropped = format!("{cut}{}", &input[at + c.len_utf8()..]);
            for text in [cut, dropped.as_str()] {
                if let Err(e) = parse_problem(text) {
                    assert!(e.offset <= text.len(), "{text}: {e}");
                }
            }
        }
    }
}
