//! The polynomial parser on arbitrary text: never a panic, and what parses prints back to
//! the same polynomial.
#![no_main]

use libfuzzer_sys::fuzz_target;
use polys::{Poly, Vars};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut vars = Vars::new();
    if let Ok(p) = Poly::parse(text, &mut vars) {
        let printed = p.to_text(&vars);
        let again = Poly::parse(&printed, &mut vars)
            .unwrap_or_else(|e| panic!("printed polynomial does not parse: {e}\n{printed}"));
        assert_eq!(again, p, "{printed}");
    }
});
