//! Tiled systems: from a shape matrix and tile sizes to the polynomial constraints of the
//! tiled domain, plus the overapproximation constraints that prune the lifting.
