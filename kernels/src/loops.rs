//! The loops over one variable in a printed C fragment: where each starts and what its
//! body is, for the passes that wrap those bodies in text (OpenMP regions, a solver's
//! per-block set-up) without parsing C.

/// A piece of a fragment: a line outside every loop over the variable, or one such loop.
pub(crate) enum Piece<'a> {
    /// A line as printed (no trailing newline).
    Line(&'a str),
    /// A loop over the variable: its indentation, its header without a trailing `{`, and
    /// the lines of its body (without the closing brace).
    Loop {
        pad: &'a str,
        header: &'a str,
        body: &'a [&'a str],
    },
}

/// Splits `lines` into [`Piece`]s at the loops over `var` not nested in another such loop.
/// Loops have the printed form `for (int64_t var = ...)` with the body on the following,
/// further indented lines, braced or not. `None` when a braced loop's closing brace is not
/// where the printer puts it.
pub(crate) fn loops_over<'a>(lines: &'a [&'a str], var: &str) -> Option<Vec<Piece<'a>>> {
    let head = format!("for (int64_t {var} = ");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        let trimmed = line.trim_start();
        if !trimmed.starts_with(&head) {
            out.push(Piece::Line(line));
            at += 1;
            continue;
        }
        // The body: the lines indented further, and with a brace its closing one.
        let d = indent(line);
        let mut end = at + 1;
        while end < lines.len() && indent(lines[end]) > d {
            end += 1;
        }
        let braced = trimmed.ends_with('{');
        if braced && !(end < lines.len() && lines[end].trim() == "}" && indent(lines[end]) == d) {
            return None;
        }
        out.push(Piece::Loop {
            pad: &line[..d],
            header: trimmed.trim_end_matches('{').trim_end(),
            body: &lines[at + 1..end],
        });
        at = if braced { end + 1 } else { end };
    }
    Some(out)
}
