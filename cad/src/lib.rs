//! Cylindrical algebraic decomposition adapted to polynomial constraints: root isolation,
//! real algebraic numbers, projection and a pruned lifting tree. Built on `polys`.
