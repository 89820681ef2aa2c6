//! The linear-algebra mapping layer: problems in Linnea's input language, property
//! inference, a kernel catalogue and the search for a cheap kernel sequence.
