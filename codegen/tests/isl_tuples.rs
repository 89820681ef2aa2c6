//! isl's tuple syntax, as isl itself prints sets (`S[i, 0]`, `S[i, j = 1 + i]`, `S[i = 0]`,
//! several pieces of one statement): each input runs the same instance sequence as a
//! hand-written equivalent in the plain syntax (named iterators, constraints, `or`), at
//! parameter values on both sides of every case boundary. The pieces' texts in
//! `isl_printed` are isl's own output for the plain sets (isl 0.25, `isl_union_set_to_str`).

mod instances;
use instances::{refused_at, same_instances};

#[test]
fn values_in_the_tuple_pin_their_positions() {
    same_instances(
        "[n] -> { S[i, 0] : 0 <= i <= n }",
        "[n] -> { S[i, j] : 0 <= i <= n and j = 0 }",
    );
    same_instances(
        "[n] -> { S[i, i + 1] : 0 <= i <= n }",
        "[n] -> { S[i, j] : 0 <= i <= n and j = i + 1 }",
    );
    same_instances(
        "[n] -> { S[i, n - i] : 0 <= i <= n }",
        "[n] -> { S[i, j] : 0 <= i <= n and j = n - i }",
    );
}

#[test]
fn named_values_are_iterators_with_an_equality() {
    same_instances(
        "[n] -> { S[i, j = 1 + i] : 0 <= i <= n }",
        "[n] -> { S[i, j] : 0 <= i <= n and j = 1 + i }",
    );
    same_instances(
        "[n] -> { S[i = 0] : n >= 0 }",
        "[n] -> { S[i] : i = 0 and n >= 0 }",
    );
}

#[test]
fn isl_printed_pieces_of_one_statement_are_a_union() {
    // isl prints `{ S[i] : 0 <= i <= n and (i mod 3 = 1 or i = 0) }` so.
    same_instances(
        "[n] -> { S[i] : (-1 + i) mod 3 = 0 and 0 <= i <= n; S[i = 0] : n >= 0 }",
        "[n] -> { S[i] : 0 <= i <= n and (i mod 3 = 1 or i = 0) }",
    );
    // Two statements, one in two overlapping pieces with divisions of their own.
    same_instances(
        "[n] -> { S[i, j] : 0 <= j < i <= n and j mod 2 = 0; T[i, 2i] : 0 <= i <= n; S[i, j = i] : 0 <= i <= n and i mod 3 = 0; S[i, j] : 0 <= j < i <= n and j mod 3 = 0 }",
        "[n] -> { S[i, j] : (0 <= j < i <= n and (j mod 2 = 0 or j mod 3 = 0)) or (j = i and 0 <= i <= n and i mod 3 = 0); T[i, j] : 0 <= i <= n and j = 2i }",
    );
}

#[test]
fn ambiguous_or_unjoinable_tuples_are_refused_with_positions() {
    for (src, col, needle) in [
        ("[n] -> { S[n] : n >= 0 }", 12, "name of a parameter"),
        ("{ S[i, i] : i >= 0 }", 8, "declared twice"),
        ("{ S[i, j = i, j] : i >= 0 }", 15, "declared twice"),
        ("[n] -> { S[n = 1] : n >= 0 }", 12, "already a parameter"),
        (
            "{ S[i] : i >= 0; S[i, j] : i < 3 }",
            18,
            "different numbers of iterators",
        ),
        (
            "{ S[i] : exists (e : i = 2e) and 0 <= i <= 9; S[i] : i = 1 }",
            47,
            "'exists'",
        ),
        ("{ S[i, ] : i >= 0 }", 8, "expected an iterator name"),
    ] {
        refused_at(src, col, needle);
    }
}
