//! Matrix properties as a small bit set plus a known band (lower and upper bandwidth),
//! their implication order (closure) and the contradictions that make a declaration
//! invalid.

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
    /// Zero outside the three central diagonals (band `(1, 1)`).
    Tridiagonal,
    /// Zero outside a known band; the bandwidths are carried by [`Props::band`] (the input
    /// language spells it `Banded(lower, upper)`).
    Banded,
    /// Zero below the first subdiagonal (lower bandwidth at most 1).
    UpperHessenberg,
    /// Zero above the first superdiagonal (upper bandwidth at most 1).
    LowerHessenberg,
    /// `Q^H Q = Q Q^H = I`; over the reals the same as [`Prop::Orthogonal`].
    Unitary,
    /// Square with `A^T A = A A^T`.
    Normal,
    /// Square and zero outside diagonal blocks of a known size `b` (rows and columns
    /// `k b .. (k + 1) b`, the last block possibly smaller); the size is carried by
    /// [`Props::block`] (the input language spells it `BlockDiagonal(b)`).
    BlockDiagonal,
}

/// Every property, in declaration (bit) order.
pub const ALL_PROPS: [Prop; 24] = [
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
    Prop::Tridiagonal,
    Prop::Banded,
    Prop::UpperHessenberg,
    Prop::LowerHessenberg,
    Prop::Unitary,
    Prop::Normal,
    Prop::BlockDiagonal,
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
            Prop::Tridiagonal => "Tridiagonal",
            Prop::Banded => "Banded",
            Prop::UpperHessenberg => "UpperHessenberg",
            Prop::LowerHessenberg => "LowerHessenberg",
            Prop::Unitary => "Unitary",
            Prop::Normal => "Normal",
            Prop::BlockDiagonal => "BlockDiagonal",
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

/// No known bandwidth (the value of a band field meaning "no bound").
const NO_BAND: u32 = u32::MAX;

/// The flags that say the matrix is zero outside some band: they follow from the band
/// and give it (see [`Props::closure`]).
const BAND_FLAGS: [Prop; 7] = [
    Prop::Diagonal,
    Prop::LowerTriangular,
    Prop::UpperTriangular,
    Prop::Tridiagonal,
    Prop::Banded,
    Prop::UpperHessenberg,
    Prop::LowerHessenberg,
];

/// A set of properties: each is a fact about the matrix, so a set is their conjunction.
/// Besides the flags it carries the best known band: entry `(i, j)` is zero when
/// `i - j > lo` or `j - i > up` ([`NO_BAND`] where nothing is known). The flags
/// `UpperTriangular` (`lo = 0`), `LowerTriangular` (`up = 0`), `Diagonal`, `UpperHessenberg`
/// (`lo <= 1`), `LowerHessenberg` (`up <= 1`), `Tridiagonal` and `Banded` (both finite) and
/// the band are kept consistent by [`Props::closure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Props {
    bits: u32,
    lo: u32,
    up: u32,
    /// Size of the diagonal blocks ([`NO_BAND`]: none known); kept consistent with the
    /// flag [`Prop::BlockDiagonal`] by [`Props::closure`].
    block: u32,
}

impl Default for Props {
    fn default() -> Props {
        Props::EMPTY
    }
}

fn band_of(b: u32) -> Option<u64> {
    (b != NO_BAND).then_some(u64::from(b))
}

/// A bandwidth as stored; bandwidths too large for the field are no bound at all, which is
/// the weaker (sound) fact.
fn band_field(b: Option<u64>) -> u32 {
    b.and_then(|v| u32::try_from(v).ok()).unwrap_or(NO_BAND)
}

/// What "block-diagonal with blocks of `a`" or "with blocks of `b`" implies: blocks of
/// any multiple of a block size (each block lies within one larger block, as both
/// partitions start at 0), so blocks of lcm(a, b); none if either is unknown or the
/// lcm does not fit.
fn common_block(a: u32, b: u32) -> u32 {
    if a == NO_BAND || b == NO_BAND || a == 0 || b == 0 {
        return NO_BAND;
    }
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x)
        .checked_mul(b)
        .filter(|&l| l != NO_BAND)
        .unwrap_or(NO_BAND)
}

/// Block size `b` of a "block-diagonal with blocks of `a`" or "of `b`" fact, as a
/// public helper for the inference rules: see [`Props::intersect`].
pub fn lcm_block(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    band_of(common_block(band_field(a), band_field(b)))
}

impl Props {
    /// No properties.
    pub const EMPTY: Props = Props {
        bits: 0,
        lo: NO_BAND,
        up: NO_BAND,
        block: NO_BAND,
    };

    /// Whether `p` is in the set.
    pub fn has(self, p: Prop) -> bool {
        self.bits & p.bit() != 0
    }
    /// The set with `p` added. `Banded` as a bare flag says nothing (every finite matrix is
    /// banded); its bandwidths come from [`Props::with_band`].
    pub fn with(self, p: Prop) -> Props {
        Props {
            bits: self.bits | p.bit(),
            ..self
        }
    }
    /// The set with the flag `p` removed (the band is kept: see [`Props::replace_band`]).
    pub fn without(self, p: Prop) -> Props {
        Props {
            bits: self.bits & !p.bit(),
            ..self
        }
    }
    /// Adds `p` in place.
    pub fn insert(&mut self, p: Prop) {
        self.bits |= p.bit();
    }
    /// Properties in either set (both facts hold: the narrower band).
    pub fn union(self, o: Props) -> Props {
        Props {
            bits: self.bits | o.bits,
            lo: self.lo.min(o.lo),
            up: self.up.min(o.up),
            // Either block size is a true fact; the smaller one says more.
            block: self.block.min(o.block),
        }
    }
    /// Properties in both sets (what holds for either: the wider band). With a mask from
    /// [`Props::of`], which knows no band, this drops the band; callers that keep band
    /// facts add them back with [`Props::with_band`].
    pub fn intersect(self, o: Props) -> Props {
        Props {
            bits: self.bits & o.bits,
            lo: self.lo.max(o.lo),
            up: self.up.max(o.up),
            block: common_block(self.block, o.block),
        }
    }
    /// The set of the listed properties (no closure applied).
    pub fn of(ps: &[Prop]) -> Props {
        ps.iter().fold(Props::EMPTY, |a, &p| a.with(p))
    }
    /// The known lower and upper bandwidths (`None`: no bound known).
    pub fn band(self) -> (Option<u64>, Option<u64>) {
        (band_of(self.lo), band_of(self.up))
    }
    /// The set with the facts "lower bandwidth at most `lo`" and "upper bandwidth at most
    /// `up`" added (`None` adds nothing).
    pub fn with_band(self, lo: Option<u64>, up: Option<u64>) -> Props {
        Props {
            lo: self.lo.min(band_field(lo)),
            up: self.up.min(band_field(up)),
            ..self
        }
    }
    /// The known size of the diagonal blocks (`None`: not known block-diagonal).
    pub fn block(self) -> Option<u64> {
        band_of(self.block)
    }
    /// The set with the fact "block-diagonal with blocks of `b`" added (`None` or 0 adds
    /// nothing; a smaller known block size is kept, being the stronger fact).
    pub fn with_block(self, b: Option<u64>) -> Props {
        let b = band_field(b.filter(|&b| b > 0));
        Props {
            block: self.block.min(b),
            ..self
        }
    }
    /// The set with its band replaced (for the transpose, which swaps the bandwidths). The
    /// band-derived flags are removed too, as the band may widen; closure restores them.
    pub fn replace_band(self, lo: Option<u64>, up: Option<u64>) -> Props {
        let mut q = self;
        for p in BAND_FLAGS {
            q = q.without(p);
        }
        Props {
            lo: band_field(lo),
            up: band_field(up),
            ..q
        }
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
            // Over the reals Q^H = Q^T, so unitary and orthogonal are the same property.
            if p.has(Prop::Unitary) {
                p.insert(Prop::Orthogonal);
            }
            if p.has(Prop::Orthogonal) {
                p.insert(Prop::Unitary);
            }
            // Q^T Q = I = Q Q^T, and S^T S = S S = S S^T: orthogonal and symmetric matrices
            // commute with their transpose.
            if (p.has(Prop::Orthogonal) || p.has(Prop::Symmetric)) && square {
                p.insert(Prop::Normal);
            }
            // A normal triangular matrix is diagonal (compare the diagonal entries of
            // A^T A and A A^T row by row); this covers orthogonal triangular ones.
            if p.has(Prop::Normal) && p.is_triangular() {
                p.insert(Prop::Diagonal);
            }
            p = p.block_closure(rows, cols);
            p = p.band_closure();
            if p == before {
                return p;
            }
        }
    }

    /// One round of the band rules: the flags give bandwidth bounds (Diagonal `(0, 0)`,
    /// UpperTriangular `lo = 0`, LowerTriangular `up = 0`, UpperHessenberg `lo <= 1`,
    /// LowerHessenberg `up <= 1`, Tridiagonal `(1, 1)`), a symmetric matrix has equal
    /// bandwidths (entry `(i, j)` is entry `(j, i)`), and the bounds give the flags back.
    fn band_closure(self) -> Props {
        let mut p = self;
        let flag_bands = [
            (Prop::Diagonal, Some(0), Some(0)),
            (Prop::UpperTriangular, Some(0), None),
            (Prop::LowerTriangular, None, Some(0)),
            (Prop::UpperHessenberg, Some(1), None),
            (Prop::LowerHessenberg, None, Some(1)),
            (Prop::Tridiagonal, Some(1), Some(1)),
        ];
        for (f, lo, up) in flag_bands {
            if p.has(f) {
                p = p.with_band(lo, up);
            }
        }
        if p.has(Prop::Symmetric) {
            let b = p.lo.min(p.up);
            p.lo = b;
            p.up = b;
        }
        let (lo, up) = (p.lo, p.up);
        if lo == 0 {
            p.insert(Prop::UpperTriangular);
        }
        if up == 0 {
            p.insert(Prop::LowerTriangular);
        }
        if lo <= 1 {
            p.insert(Prop::UpperHessenberg);
        }
        if up <= 1 {
            p.insert(Prop::LowerHessenberg);
        }
        if lo <= 1 && up <= 1 {
            p.insert(Prop::Tridiagonal);
        }
        if lo != NO_BAND && up != NO_BAND {
            p.insert(Prop::Banded);
        }
        p
    }

    /// The block rules: a diagonal matrix has blocks of 1, blocks of `b` confine the band
    /// to `(b - 1, b - 1)`, and a block as large as the matrix (or a non-square shape, for
    /// which the property is not defined) says nothing, so it is dropped with its flag.
    fn block_closure(self, rows: u64, cols: u64) -> Props {
        let mut p = self;
        if p.has(Prop::Diagonal) {
            p = p.with_block(Some(1));
        }
        match p.block() {
            Some(b) if rows == cols && b < rows => {
                p.insert(Prop::BlockDiagonal);
                p = p.with_band(Some(b - 1), Some(b - 1));
            }
            _ => {
                p = p.without(Prop::BlockDiagonal);
                p.block = NO_BAND;
            }
        }
        p
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
            Prop::Unitary,
            Prop::Normal,
            Prop::BlockDiagonal,
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
        let (lo, up) = (self.lo, self.up);
        // Blocks of 1 are what Diagonal says; not printed twice.
        let names: Vec<String> = self
            .iter()
            .filter(|&p| !(p == Prop::BlockDiagonal && self.has(Prop::Diagonal)))
            .map(|p| match p {
                Prop::Banded if lo != NO_BAND && up != NO_BAND => format!("Banded({lo}, {up})"),
                Prop::BlockDiagonal if self.block != NO_BAND => {
                    format!("BlockDiagonal({})", self.block)
                }
                _ => p.name().to_string(),
            })
            .collect();
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
    fn bands_and_their_flags() {
        let t = Props::of(&[Prop::Tridiagonal]).closure(4, 4);
        assert_eq!(t.band(), (Some(1), Some(1)));
        assert!(t.has(Prop::Banded) && t.has(Prop::UpperHessenberg) && !t.is_triangular());
        let b = Props::EMPTY.with_band(Some(0), Some(2)).closure(4, 4);
        assert!(b.has(Prop::UpperTriangular) && b.has(Prop::Banded));
        assert!(!b.has(Prop::LowerHessenberg));
        // Symmetric: the narrower bandwidth on both sides.
        let s = Props::of(&[Prop::Symmetric, Prop::UpperHessenberg]).closure(4, 4);
        assert!(s.has(Prop::Tridiagonal));
        let u = Props::of(&[Prop::UpperTriangular]).closure(4, 4);
        assert_eq!(u.band(), (Some(0), None));
        assert!(!u.has(Prop::Banded) && u.has(Prop::UpperHessenberg));
        // union: both facts (narrower band); intersect: either (wider band).
        let x = Props::EMPTY.with_band(Some(1), Some(3));
        let y = Props::EMPTY.with_band(Some(2), None);
        assert_eq!(x.union(y).band(), (Some(1), Some(3)));
        assert_eq!(x.intersect(y).band(), (Some(2), None));
        assert_eq!(
            Props::of(&[Prop::Banded])
                .with_band(Some(2), Some(1))
                .closure(5, 5)
                .to_string(),
            "Square, Banded(2, 1), LowerHessenberg"
        );
    }

    #[test]
    fn blocks_and_their_consequences() {
        // Diagonal is blocks of 1 (not printed twice); blocks of b bound the band.
        let d = Props::of(&[Prop::Diagonal]).closure(6, 6);
        assert_eq!(d.block(), Some(1));
        assert!(d.has(Prop::BlockDiagonal) && !d.to_string().contains("BlockDiagonal"));
        let b = Props::EMPTY.with_block(Some(3)).closure(6, 6);
        assert!(b.has(Prop::BlockDiagonal) && b.has(Prop::Banded));
        assert_eq!(b.band(), (Some(2), Some(2)));
        assert_eq!(b.to_string(), "Square, Banded(2, 2), BlockDiagonal(3)");
        // Blocks of 1 are diagonal; a block as large as the matrix says nothing.
        assert!(Props::EMPTY
            .with_block(Some(1))
            .closure(4, 4)
            .has(Prop::Diagonal));
        let whole = Props::EMPTY.with_block(Some(6)).closure(6, 6);
        assert!(!whole.has(Prop::BlockDiagonal) && whole.block().is_none());
        assert!(Props::EMPTY
            .with_block(Some(2))
            .closure(6, 4)
            .block()
            .is_none());
        // Both facts: the smaller blocks; either fact: blocks of the lcm.
        let (x, y) = (
            Props::EMPTY.with_block(Some(2)),
            Props::EMPTY.with_block(Some(3)),
        );
        assert_eq!(x.union(y).block(), Some(2));
        assert_eq!(x.intersect(y).block(), Some(6));
        assert_eq!(x.intersect(Props::EMPTY).block(), None);
        assert_eq!(lcm_block(Some(4), Some(6)), Some(12));
        assert!(Props::of(&[Prop::BlockDiagonal])
            .contradiction(3, 4, false)
            .is_some());
    }

    #[test]
    fn unitary_and_normal() {
        let q = Props::of(&[Prop::Unitary]).closure(3, 3);
        assert!(q.has(Prop::Orthogonal) && q.has(Prop::NonSingular) && q.has(Prop::Normal));
        assert!(Props::of(&[Prop::Symmetric])
            .closure(3, 3)
            .has(Prop::Normal));
        let n = Props::of(&[Prop::Normal, Prop::UpperTriangular]).closure(3, 3);
        assert!(n.has(Prop::Diagonal));
        assert!(!Props::of(&[Prop::Normal])
            .closure(3, 3)
            .has(Prop::Symmetric));
        assert!(Props::of(&[Prop::Normal])
            .contradiction(3, 4, false)
            .is_some());
        assert!(Props::of(&[Prop::Unitary])
            .contradiction(3, 4, false)
            .is_some());
        assert!(Props::of(&[Prop::Tridiagonal])
            .contradiction(3, 4, false)
            .is_none());
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
