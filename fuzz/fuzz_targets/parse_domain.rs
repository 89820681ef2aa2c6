//! The domain parser on arbitrary text: never a panic, and whatever parses prints back
//! to text that parses to the same statements.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = codegen::input::parse_problem(text) {
        let printed = p.to_text();
        let again = codegen::input::parse_problem(&printed)
            .unwrap_or_else(|e| panic!("printed problem does not parse: {e}\n{printed}"));
        assert_eq!(again.statements.len(), p.statements.len());
        for (a, b) in again.statements.iter().zip(&p.statements) {
            assert_eq!(a.domain, b.domain, "{printed}");
        }
    }
});
