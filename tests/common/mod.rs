//! Helpers shared by the integration tests.

pub mod brute;
pub mod brute_price;
pub mod la;
pub mod linnea_random;
