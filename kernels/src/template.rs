//! Instantiation of the C templates under `src/c/`: fixed C with `@name@` placeholders
//! for the parts that depend on the request.

/// The C template `template` with each placeholder `@name@` replaced by the value of
/// `name` in `vars`. Templates are this crate's own files (`include_str!`): a placeholder
/// without a value is a bug in the emitter, so it panics (every template is instantiated
/// by the tests). Values are inserted as they are, never scanned for placeholders.
pub(crate) fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 1024);
    let mut rest = template;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after
            .find('@')
            .unwrap_or_else(|| panic!("unterminated placeholder in a C template: {after:.40}"));
        let name = &after[..end];
        let value = vars
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("placeholder @{name}@ of a C template has no value"));
        out.push_str(value.1);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_placeholders_once() {
        assert_eq!(
            fill("a @x@ b @y@ @x@\n", &[("x", "1"), ("y", "@x@")]),
            "a 1 b @x@ 1\n"
        );
    }

    #[test]
    #[should_panic(expected = "@z@")]
    fn fill_reports_missing_values() {
        fill("@z@", &[]);
    }
}
