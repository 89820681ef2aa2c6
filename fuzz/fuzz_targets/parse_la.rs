//! The linear-algebra problem parser (Linnea's language) on arbitrary text: never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = polyscan::la::parse::parse(text);
    }
});
