//! The size of a lifting cell, which bounds the memory of large decompositions: 7.2 M
//! cells for tri-invpar's tiled system, 1.3 GB in all (BENCHMARKS.md, issue 23). Rational
//! samples (most of them) stay inline; a root's interval is boxed.

use cad::lift::{Bound, Cell};
use cad::Algebraic;
use std::mem::size_of;

#[test]
#[cfg(target_pointer_width = "64")]
fn a_cell_stays_at_most_120_bytes() {
    eprintln!(
        "Cell {} B, Algebraic {} B, Bound {} B",
        size_of::<Cell>(),
        size_of::<Algebraic>(),
        size_of::<Bound>()
    );
    assert!(size_of::<Algebraic>() <= 32, "{}", size_of::<Algebraic>());
    assert!(size_of::<Bound>() <= 16, "{}", size_of::<Bound>());
    assert!(size_of::<Cell>() <= 120, "{}", size_of::<Cell>());
}
