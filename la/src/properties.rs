//! Matrix properties as a small bit set, their implication order (closure) and the
//! contradictions that make a declaration invalid.

use std::fmt;

/// One property of an operand or expression (Linnea's Table 6.1 plus internal ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Prop {
    /// As many rows as columns.
    Square,
    /// Rank `min(rows, cols)`.
    FullRank,
    /// Square and invertible.
    NonSingular,
    /// Symmetric positive definite (`SPD`).
    Spd,
    /// Symmetric positive semi-definite (`SPSD`).
    Spsd,
    /// Equal to its transpose.
    Symmetric,
    /// Zero off the diagonal.
    Diagonal,
    /// Zero above the diagonal.
    LowerTriangular,
    /// Zero below the diagonal.
    UpperTriangular,
    /// Ones on the diagonal.
    UnitDiagonal,
    /// Square with `Q^T Q = Q Q^T = I`.
    Orthogonal,
    /// Orthonormal columns: `Q^T Q = I`.
    OrthogonalColumns,
    /// Orthonormal rows: `Q Q^T = I`.
    OrthogonalRows,
    /// A permutation matrix.
    Permutation,
    /// A positive scalar (scalars only).
    Positive,
    /// The identity matrix.
    Identity,
    /// All zeros.
    Zero,
}

/// Every property, in declaration (bit) order.
pub const ALL_PROPS: [Prop; 17] = [
    Prop::Square,
    Prop::FullRank,
    Prop::NonSingular,
    Prop::Spd,
    Prop::Spsd,
    Prop::Symmetric,
    Prop::Diagonal,
    Prop::LowerTriangular,
    Prop::UpperTriangular,
    Prop::UnitDiagonal,
    Prop::Orthogonal,
    Prop::OrthogonalColumns,
    Prop::OrthogonalRows,
    Prop::Permutation,
    Prop::Positive,
    Prop::Identity,
    Prop::Zero,
];

impl Prop {
    /// The spelling in Linnea's input language.
    pub fn name(self) -> &'static str {
        match self {
            Prop::Square => "Square",
            Prop::FullRank => "FullRank",
            Prop::NonSingular => "NonSingular",
            Prop::Spd => "SPD",
            Prop::Spsd => "SPSD",
            Prop::Symmetric => "Symmetric",
            Prop::Diagonal => "Diagonal",
            Prop::LowerTriangular => "LowerTriangular",
            Prop::UpperTriangular => "UpperTriangular",
            Prop::UnitDiagonal => "UnitDiagonal",
            Prop::Orthogonal => "Orthogonal",
            Prop::OrthogonalColumns => "OrthogonalColumns",
            Prop::OrthogonalRows => "OrthogonalRows",
            Prop::Permutation => "Permutation",
            Prop::Positive => "Positive",
            Prop::Identity => "Identity",
            Prop::Zero => "Zero",
        }
    }

    /// Parses a property name of the input language.
    pub fn from_name(s: &str) -> Option<Prop> {
        ALL_PROPS.iter().copied().find(|p| p.name() == s)
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Props(u32);

impl Props {
    /// No properties.
    pub const EMPTY: Props = Props(0);

    /// Whether `p` is in the set.
    pub fn has(self, p: Prop) -> bool {
        self.0 & p.bit() != 0
    }
    /// The set with `p` added.
    pub fn with(self, p: Prop) -> Props {
        Props(self.0 | p.bit())
    }
    /// The set with `p` removed.
    pub fn without(self, p: Prop) -> Props {
        Props(self.0 & !p.bit())
    }
    /// Adds `p` in place.
    pub fn insert(&mut self, p: Prop) {
        self.0 |= p.bit();
    }
    /// Properties in either set.
    pub fn union(self, o: Props) -> Props {
        Props(self.0 | o.0)
    }
    /// Properties in both sets.
    pub fn intersect(self, o: Props) -> Props {
        Props(self.0 & o.0)
    }
    /// The set of the listed properties (no closure applied).
    pub fn of(ps: &[Prop]) -> Props {
        ps.iter().fold(Props::EMPTY, |a, &p| a.with(p))
    }
    /// The properties in the set, in [`ALL_PROPS`] order.
    pub fn iter(self) -> impl Iterator<Item = Prop> {
        ALL_PROPS.into_iter().filter(move |&p| self.has(p))
    }
    /// Whether the set has `LowerTriangular` or `UpperTriangular`.
    pub fn is_triangular(self) -> bool {
        self.has(Prop::LowerTriangular) || self.has(Prop::UpperTriangular)
    }

    /// The implication order applied to a fixpoint, for an operand of the given shape.
    /// Every rule is a theorem about real matrices of that shape.
    pub fn closure(self, rows: u64, cols: u64) -> Props {
        let square = rows == cols;
        let mut p = self;
        if square {
            p.insert(Prop::Square);
        }
        loop {
            let before = p;
            if p.has(Prop::Identity) {
                p = p.union(Props::of(&[
                    Prop::Diagonal,
                    Prop::Permutation,
                    Prop::Spd,
                    Prop::UnitDiagonal,
                ]));
            }
            if p.has(Prop::Permutation) {
                p.insert(Prop::Orthogonal);
            }
            if p.has(Prop::Orthogonal) {
                p = p.union(Props::of(&[
                    Prop::NonSingular,
                    Prop::OrthogonalColumns,
                    Prop::OrthogonalRows,
                ]));
            }
            if p.has(Prop::OrthogonalColumns) || p.has(Prop::OrthogonalRows) {
                p.insert(Prop::FullRank);
            }
            if p.has(Prop::OrthogonalColumns) && p.has(Prop::OrthogonalRows) && square {
                p.insert(Prop::Orthogonal);
            }
            if p.has(Prop::Diagonal) {
                p = p.union(Props::of(&[Prop::LowerTriangular, Prop::UpperTriangular]));
                if square {
                    p.insert(Prop::Symmetric);
                }
            }
            if p.has(Prop::LowerTriangular) && p.has(Prop::UpperTriangular) {
                p.insert(Prop::Diagonal);
            }
            // A symmetric triangular matrix has no off-diagonal entries.
            if p.has(Prop::Symmetric) && p.is_triangular() {
                p.insert(Prop::Diagonal);
            }
            if p.has(Prop::Spd) {
                p = p.union(Props::of(&[Prop::Spsd, Prop::NonSingular]));
            }
            if p.has(Prop::Spsd) {
                p.insert(Prop::Symmetric);
            }
            if p.has(Prop::NonSingular) {
                p.insert(Prop::FullRank);
            }
            if p.has(Prop::FullRank) && square {
                p.insert(Prop::NonSingular);
            }
            if p.has(Prop::Spsd) && p.has(Prop::NonSingular) {
                p.insert(Prop::Spd);
            }
            // det of a unit triangular matrix is 1.
            if p.has(Prop::UnitDiagonal) && p.is_triangular() && square {
                p.insert(Prop::NonSingular);
            }
            if p == before {
                return p;
            }
        }
    }

    /// Why a declared set of properties cannot hold for an operand of this shape, if it
    /// cannot. `scalar` is true for operands declared `Scalar`.
    pub fn contradiction(self, rows: u64, cols: u64, scalar: bool) -> Option<String> {
        let square = rows == cols;
        let p = self.closure(rows, cols);
        if p.has(Prop::Positive) && !scalar {
            return Some("Positive applies to scalars only".into());
        }
        if scalar {
            let bad = p
                .iter()
                .find(|q| !matches!(q, Prop::Positive | Prop::Zero | Prop::Square));
            if let Some(q) = bad {
                return Some(format!("{} does not apply to a scalar", q.name()));
            }
            if p.has(Prop::Positive) && p.has(Prop::Zero) {
                return Some("Positive and Zero contradict each other".into());
            }
            return None;
        }
        let need_square = [
            Prop::NonSingular,
            Prop::Spd,
            Prop::Spsd,
            Prop::Symmetric,
            Prop::Orthogonal,
            Prop::Permutation,
            Prop::Identity,
        ];
        if !square {
            if let Some(q) = need_square.iter().find(|&&q| self.has(q)) {
                return Some(format!(
                    "{} requires a square matrix, but the operand is {rows} x {cols}",
                    q.name()
                ));
            }
        }
        if p.has(Prop::OrthogonalColumns) && rows < cols {
            return Some(format!(
                "OrthogonalColumns requires at least as many rows as columns ({rows} x {cols})"
            ));
        }
        if p.has(Prop::OrthogonalRows) && cols < rows {
            return Some(format!(
                "OrthogonalRows requires at least as many columns as rows ({rows} x {cols})"
            ));
        }
        if p.has(Prop::Zero) {
            for q in [Prop::FullRank, Prop::UnitDiagonal, Prop::OrthogonalColumns] {
                if p.has(q) {
                    return Some(format!("Zero contradicts {}", q.name()));
                }
            }
        }
        // Orthogonal and triangular: Q = D with D diagonal of +-1, never SPD unless D = I,
        // which is fine; but an orthogonal unit-triangular matrix is the identity, also fine.
        None
    }
}

impl fmt::Display for Props {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Prop::name).collect();
        write!(f, "{}", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_and_upper_is_diagonal() {
        let p = Props::of(&[Prop::LowerTriangular, Prop::UpperTriangular]).closure(4, 4);
        assert!(p.has(Prop::Diagonal) && p.has(Prop::Symmetric));
        assert!(!p.has(Prop::NonSingular));
    }

    #[test]
    fn spd_implies_nonsingular_and_symmetric() {
        let p = Props::of(&[Prop::Spd]).closure(3, 3);
        assert!(p.has(Prop::NonSingular) && p.has(Prop::Symmetric) && p.has(Prop::FullRank));
    }

    #[test]
    fn orthogonal_does_not_imply_spd() {
        let p = Props::of(&[Prop::Orthogonal]).closure(3, 3);
        assert!(!p.has(Prop::Spd) && !p.has(Prop::Spsd) && p.has(Prop::NonSingular));
    }

    #[test]
    fn spsd_and_nonsingular_is_spd() {
        let p = Props::of(&[Prop::Spsd, Prop::FullRank]).closure(3, 3);
        assert!(p.has(Prop::Spd));
    }

    #[test]
    fn full_rank_rectangular_is_not_nonsingular() {
        let p = Props::of(&[Prop::FullRank]).closure(5, 3);
        assert!(!p.has(Prop::NonSingular));
    }

    #[test]
    fn unit_triangular_is_nonsingular() {
        let p = Props::of(&[Prop::UnitDiagonal, Prop::LowerTriangular]).closure(3, 3);
        assert!(p.has(Prop::NonSingular));
        let q = Props::of(&[Prop::UnitDiagonal]).closure(3, 3);
        assert!(!q.has(Prop::NonSingular));
    }

    #[test]
    fn contradictions() {
        assert!(Props::of(&[Prop::Spd]).contradiction(3, 4, false).is_some());
        assert!(Props::of(&[Prop::Orthogonal])
            .contradiction(3, 4, false)
            .is_some());
        assert!(Props::of(&[Prop::Positive])
            .contradiction(3, 3, false)
            .is_some());
        assert!(Props::of(&[Prop::Spd]).contradiction(1, 1, true).is_some());
        assert!(Props::of(&[Prop::OrthogonalColumns])
            .contradiction(3, 4, false)
            .is_some());
        assert!(Props::of(&[Prop::LowerTriangular, Prop::UpperTriangular])
            .contradiction(3, 3, false)
            .is_none());
        assert!(Props::of(&[Prop::UpperTriangular])
            .contradiction(3, 4, false)
            .is_none());
    }
}
