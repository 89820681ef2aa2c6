//! Property inference for normalised expressions (thesis chapter 6): rules for transposes,
//! inverses, products, symmetric sandwiches `G^T M G`, scalar multiples and sums.
//!
//! Every rule is a theorem. Two deliberate omissions: a sum is never inferred
//! non-singular from its terms (A + (-A) = 0), and orthogonality never implies
//! definiteness (-I is orthogonal). An inverted expression is taken to be non-singular,
//! because the formula has no meaning otherwise; with SPSD that yields SPD.

use super::norm::{chain_key, Base, Env, Factor, Sum, Term};
use super::properties::{lcm_block, Prop, Props};

/// Properties of the transpose of a matrix with properties `p`: entry `(i, j)` moves to
/// `(j, i)`, so the lower and upper bandwidths swap (triangles and Hessenberg forms swap
/// sides; diagonal, tridiagonal and banded stay), orthonormal columns become orthonormal
/// rows, and symmetric, normal (`A A^T = A^T A` reads the same for `A^T`), orthogonal and
/// definite matrices stay so.
pub fn transpose_props(p: Props) -> Props {
    let (lo, up) = p.band();
    let mut q = p
        .without(Prop::OrthogonalColumns)
        .without(Prop::OrthogonalRows)
        .replace_band(up, lo);
    let swapped = [
        (Prop::LowerTriangular, Prop::UpperTriangular),
        (Prop::UpperTriangular, Prop::LowerTriangular),
        (Prop::UpperHessenberg, Prop::LowerHessenberg),
        (Prop::LowerHessenberg, Prop::UpperHessenberg),
        (Prop::OrthogonalColumns, Prop::OrthogonalRows),
        (Prop::OrthogonalRows, Prop::OrthogonalColumns),
        (Prop::Diagonal, Prop::Diagonal),
        (Prop::Tridiagonal, Prop::Tridiagonal),
        (Prop::Banded, Prop::Banded),
    ];
    for (from, to) in swapped {
        if p.has(from) {
            q.insert(to);
        }
    }
    q
}

/// Properties of the inverse of a square matrix with properties `p` (which is hence
/// non-singular).
pub fn inverse_props(p: Props, n: u64) -> Props {
    let p = p.with(Prop::NonSingular).closure(n, n);
    let kept = Props::of(&[
        Prop::Square,
        Prop::NonSingular,
        Prop::FullRank,
        Prop::LowerTriangular,
        Prop::UpperTriangular,
        Prop::Diagonal,
        Prop::Symmetric,
        Prop::Spd,
        Prop::Spsd,
        Prop::Orthogonal,
        Prop::OrthogonalColumns,
        Prop::OrthogonalRows,
        Prop::Permutation,
        Prop::Identity,
        Prop::Positive,
        Prop::Unitary,
        Prop::Normal,
    ]);
    // Kept: triangles and diagonals (the band `lo = 0` or `up = 0` survives inversion),
    // Q^-1 = Q^T for orthogonal (unitary) Q, and A^-1 A^-T = (A^T A)^-1 = (A A^T)^-1 =
    // A^-T A^-1 for normal A. Not kept: tridiagonal, Hessenberg and other bands (the
    // inverse of a tridiagonal matrix is dense in general); the mask drops the band and
    // closure gives back what the kept triangles say.
    // A block-diagonal matrix's inverse is block-diagonal with the same blocks (the
    // blocks' inverses).
    let mut q = p.intersect(kept).with_block(p.block());
    // The inverse of a unit triangular matrix is unit triangular.
    if p.has(Prop::UnitDiagonal) && p.is_triangular() {
        q.insert(Prop::UnitDiagonal);
    }
    q.closure(n, n)
}

/// Properties of a base operand or parenthesised sum, as the solver may use them when the
/// factor is inverted (non-singularity added, see the module comment).
pub fn base_props(env: &Env, f: &Factor) -> Props {
    let (p, (r, c)) = match &f.base {
        Base::Op(id) => (env.props(*id), env.shape(*id)),
        Base::Sum(s) => (sum_props(env, s), (s.rows, s.cols)),
    };
    if f.inv {
        p.with(Prop::NonSingular).closure(r, c)
    } else {
        p
    }
}

/// Properties of one factor.
pub fn factor_props(env: &Env, f: &Factor) -> Props {
    let (p, (r, c)) = match &f.base {
        Base::Op(id) => (env.props(*id), env.shape(*id)),
        Base::Sum(s) => (sum_props(env, s), (s.rows, s.cols)),
    };
    let p = if f.trans { transpose_props(p) } else { p };
    if f.inv {
        inverse_props(p, r)
    } else if f.trans {
        p.closure(c, r)
    } else {
        p
    }
}

/// Properties of the product of two matrices with the given properties and shapes.
pub fn product_props(a: Props, (m, k): (u64, u64), b: Props, (k2, n): (u64, u64)) -> Props {
    debug_assert_eq!(k, k2);
    let mut q = Props::EMPTY;
    let square = m == k && k == n;
    if square {
        for t in [
            Prop::LowerTriangular,
            Prop::UpperTriangular,
            Prop::Diagonal,
            Prop::Orthogonal,
            Prop::Permutation,
            Prop::NonSingular,
        ] {
            if a.has(t) && b.has(t) {
                q.insert(t);
            }
        }
        for t in [Prop::LowerTriangular, Prop::UpperTriangular] {
            if a.has(t) && b.has(t) && a.has(Prop::UnitDiagonal) && b.has(Prop::UnitDiagonal) {
                q.insert(Prop::UnitDiagonal);
            }
        }
    }
    if m == 1 && k == 1 && n == 1 && a.has(Prop::Positive) && b.has(Prop::Positive) {
        q.insert(Prop::Positive);
    }
    // (QR)^T (QR) = I when both have orthonormal columns.
    if a.has(Prop::OrthogonalColumns) && b.has(Prop::OrthogonalColumns) {
        q.insert(Prop::OrthogonalColumns);
    }
    if a.has(Prop::OrthogonalRows) && b.has(Prop::OrthogonalRows) {
        q.insert(Prop::OrthogonalRows);
    }
    // Rank: an injective A and a surjective B give rank k.
    let a_injective = a.has(Prop::FullRank) && m >= k;
    let b_surjective = b.has(Prop::FullRank) && n >= k;
    if a_injective && b_surjective && k == m.min(n) {
        q.insert(Prop::FullRank);
    }
    // Multiplying by a non-singular matrix keeps the rank.
    if (a.has(Prop::NonSingular) && b.has(Prop::FullRank))
        || (b.has(Prop::NonSingular) && a.has(Prop::FullRank))
    {
        q.insert(Prop::FullRank);
    }
    // Bands add up: (AB)(i, j) = sum_k A(i, k) B(k, j) needs i - k <= loA and
    // k - j <= loB, so it is zero when i - j > loA + loB (likewise above the diagonal).
    // Hence UpperHessenberg * UpperTriangular is UpperHessenberg, and Tridiagonal *
    // Tridiagonal is only Banded(2, 2) (pentadiagonal), not tridiagonal.
    let add = |x: Option<u64>, y: Option<u64>| x.zip(y).and_then(|(x, y)| x.checked_add(y));
    let ((alo, aup), (blo, bup)) = (a.band(), b.band());
    q = q.with_band(add(alo, blo), add(aup, bup));
    // Block-diagonal times block-diagonal: both are block-diagonal with blocks of the lcm
    // of their sizes, and so is the product of the blocks.
    if square {
        q = q.with_block(lcm_block(a.block(), b.block()));
    }
    q.closure(m, n)
}

/// Sign knowledge about a scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// Known to be positive.
    Positive,
    /// Known to be negative.
    Negative,
    /// Not known (or zero).
    Unknown,
}

fn scalar_positive(env: &Env, f: &Factor) -> bool {
    match &f.base {
        Base::Op(id) => env.props(*id).has(Prop::Positive),
        Base::Sum(s) => sum_props(env, s).has(Prop::Positive),
    }
}

/// The sign of a term's scalar part (coefficient times scalar factors).
pub fn term_sign(env: &Env, t: &Term) -> Sign {
    let all_pos = t.scalars.iter().all(|f| scalar_positive(env, f));
    if !all_pos || t.coef == 0.0 {
        Sign::Unknown
    } else if t.coef > 0.0 {
        Sign::Positive
    } else {
        Sign::Negative
    }
}

fn chain_props(env: &Env, fs: &[Factor]) -> (Props, (u64, u64)) {
    let Some(first) = fs.first() else {
        return (Props::EMPTY, (1, 1));
    };
    let mut p = factor_props(env, first);
    let mut shape = first.shape(env);
    for f in &fs[1..] {
        let s = f.shape(env);
        p = product_props(p, shape, factor_props(env, f), s);
        shape = (shape.0, s.1);
    }
    if fs.len() > 1 {
        p = p.union(sandwich_props(env, fs));
    }
    (p, shape)
}

/// `G^T M G` is SPSD for SPSD M (or no M), SPD if moreover M is SPD (or absent) and G has
/// full column rank; symmetric for symmetric M.
fn sandwich_props(env: &Env, fs: &[Factor]) -> Props {
    let n = fs.len();
    let mut q = Props::EMPTY;
    for k in 1..=n / 2 {
        let g = &fs[n - k..];
        let gt: Vec<Factor> = g.iter().rev().map(|f| f.transpose(env)).collect();
        if chain_key(&fs[..k]) != chain_key(&gt) {
            continue;
        }
        let (gp, (gr, gc)) = chain_props(env, g);
        let g_injective = gp.has(Prop::FullRank) && gr >= gc;
        let middle = &fs[k..n - k];
        let (mp, _) = if middle.is_empty() {
            (Props::of(&[Prop::Spd]).closure(gr, gr), (gr, gr))
        } else {
            chain_props(env, middle)
        };
        if mp.has(Prop::Symmetric) {
            q.insert(Prop::Symmetric);
        }
        if mp.has(Prop::Spsd) {
            q.insert(Prop::Spsd);
        }
        if mp.has(Prop::Spd) && g_injective {
            q.insert(Prop::Spd);
        }
    }
    let (_, c) = fs[n - 1].shape(env);
    q.closure(c, c)
}

/// Properties of a term.
pub fn term_props(env: &Env, t: &Term) -> Props {
    let (p, (r, c)) = if t.factors.is_empty() {
        (Props::of(&[Prop::Square]), (1, 1))
    } else {
        chain_props(env, &t.factors)
    };
    let scalar = r == 1 && c == 1;
    let sign = term_sign(env, t);
    let plain = t.coef == 1.0 && t.scalars.is_empty();
    if plain {
        return p;
    }
    // c A has A's zeros (so its band) and its symmetry; c A commutes with (c A)^T when A
    // commutes with A^T.
    let mut q = p
        .intersect(Props::of(&[
            Prop::Square,
            Prop::Symmetric,
            Prop::LowerTriangular,
            Prop::UpperTriangular,
            Prop::Diagonal,
            Prop::Zero,
            Prop::Tridiagonal,
            Prop::Banded,
            Prop::UpperHessenberg,
            Prop::LowerHessenberg,
            Prop::Normal,
        ]))
        .with_band(p.band().0, p.band().1)
        .with_block(p.block());
    let nonzero = sign != Sign::Unknown;
    if nonzero {
        q = q.union(p.intersect(Props::of(&[Prop::NonSingular, Prop::FullRank])));
    }
    if t.coef == -1.0 && t.scalars.is_empty() {
        q = q.union(p.intersect(Props::of(&[
            Prop::Orthogonal,
            Prop::OrthogonalColumns,
            Prop::OrthogonalRows,
            Prop::Unitary,
        ])));
    }
    if sign == Sign::Positive {
        q = q.union(p.intersect(Props::of(&[Prop::Spd, Prop::Spsd])));
        if scalar && (t.factors.is_empty() || p.has(Prop::Positive)) {
            q.insert(Prop::Positive);
        }
    }
    q.closure(r, c)
}

/// Properties of a sum.
pub fn sum_props(env: &Env, s: &Sum) -> Props {
    if s.terms.is_empty() {
        return Props::of(&[Prop::Zero]).closure(s.rows, s.cols);
    }
    let ps: Vec<Props> = s.terms.iter().map(|t| term_props(env, t)).collect();
    if ps.len() == 1 {
        return ps[0];
    }
    let all = |p: Prop| ps.iter().all(|q| q.has(p));
    let mut q = Props::EMPTY;
    for p in [
        Prop::Symmetric,
        Prop::Spsd,
        Prop::LowerTriangular,
        Prop::UpperTriangular,
        Prop::Diagonal,
        Prop::Positive,
    ] {
        if all(p) {
            q.insert(p);
        }
    }
    // A sum is zero where every term is: the widest of the terms' bands (so a sum of
    // tridiagonal matrices is tridiagonal, and of Banded(1, 0) and Banded(0, 2) is
    // Banded(1, 2)). Normal is not kept: [[1, 1], [-1, 1]] + [[0, 1], [1, 0]] is not.
    // Likewise blocks: of the lcm of the terms' block sizes (see `Props::intersect`).
    let either = ps.iter().fold(ps[0], |a, b| a.intersect(*b));
    let widest = either.band();
    q = q.with_band(widest.0, widest.1).with_block(either.block());
    // SPD + SPSD is SPD: x^T (A + B) x >= x^T A x > 0.
    if all(Prop::Spsd) && ps.iter().any(|p| p.has(Prop::Spd)) {
        q.insert(Prop::Spd);
    }
    q.closure(s.rows, s.cols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::normalise;
    use crate::parse::parse;

    fn props_of(decls: &str, rhs_shape: &str, rhs: &str) -> Props {
        let src = format!("{decls}\nMatrix OUT({rhs_shape}) <>\nOUT = {rhs}\n");
        let p = parse(&src).unwrap();
        let env = Env::from_program(&p);
        let s = normalise(&p, &env, &p.assignments[0].rhs).unwrap();
        sum_props(&env, &s)
    }

    const D: &str = "n = 6\nm = 3\nMatrix A(n, m) <FullRank>\nMatrix B(m, n) <FullRank>\nMatrix S(n, n) <SPD>\nMatrix P(n, n) <SPSD>\nMatrix N(n, n) <FullRank>\nMatrix L(n, n) <LowerTriangular, FullRank>\nMatrix Q(n, n) <Orthogonal>\nIdentityMatrix I(n, n)\nScalar k <Positive>\nScalar s <>";

    #[test]
    fn block_diagonal_rules() {
        let d = "n = 12\nMatrix T(n, n) <BlockDiagonal(3)>\nMatrix U(n, n) <BlockDiagonal(3)>\nMatrix V(n, n) <BlockDiagonal(2)>\nMatrix D(n, n) <Diagonal>\nMatrix G(n, n) <>";
        let block = |rhs: &str| props_of(d, "n, n", rhs).block();
        assert_eq!(block("T * U"), Some(3));
        assert_eq!(block("T + U"), Some(3));
        assert_eq!(block("T - 2 * U"), Some(3));
        assert_eq!(block("inv(T)"), Some(3));
        assert_eq!(block("trans(T)"), Some(3));
        assert_eq!(block("inv(trans(T)) * U"), Some(3));
        assert_eq!(block("T * D"), Some(3));
        // Blocks of 2 and of 3 are both blocks of 6 (which divide 12).
        assert_eq!(block("T * V"), Some(6));
        assert_eq!(block("T + V"), Some(6));
        assert_eq!(block("T * G"), None);
        assert_eq!(block("T + G"), None);
        assert_eq!(block("D"), Some(1));
        assert!(props_of(d, "n, n", "T * U").has(Prop::BlockDiagonal));
    }

    #[test]
    fn gram_of_full_column_rank_is_spd() {
        assert!(props_of(D, "m, m", "trans(A) * A").has(Prop::Spd));
        // B^T B with B 3 x 6 has rank 3 < 6: only SPSD.
        let p = props_of(D, "n, n", "trans(B) * B");
        assert!(p.has(Prop::Spsd) && !p.has(Prop::Spd));
    }

    #[test]
    fn sandwich_with_spd_middle() {
        assert!(props_of(D, "m, m", "trans(A) * S * A").has(Prop::Spd));
        assert!(props_of(D, "m, m", "trans(A) * inv(S) * A").has(Prop::Spd));
        let p = props_of(D, "m, m", "trans(A) * P * A");
        assert!(p.has(Prop::Spsd) && !p.has(Prop::Spd));
        assert!(!props_of(D, "m, m", "trans(A) * N * A").has(Prop::Symmetric));
    }

    #[test]
    fn sums() {
        assert!(props_of(D, "n, n", "trans(B) * B + k * I").has(Prop::Spd));
        assert!(props_of(D, "n, n", "S + P").has(Prop::Spd));
        assert!(!props_of(D, "n, n", "S - P").has(Prop::Spsd));
        // Sums of non-singular matrices are not inferred non-singular.
        assert!(!props_of(D, "n, n", "N + L").has(Prop::NonSingular));
        assert!(!props_of(D, "n, n", "trans(B) * B + s * I").has(Prop::Spd));
        assert!(props_of(D, "n, n", "L + L").has(Prop::LowerTriangular));
    }

    #[test]
    fn transposes_inverses_products() {
        assert!(props_of(D, "n, n", "trans(L)").has(Prop::UpperTriangular));
        let p = props_of(D, "n, n", "inv(L)");
        assert!(p.has(Prop::LowerTriangular) && p.has(Prop::NonSingular));
        assert!(props_of(D, "n, n", "L * L").has(Prop::LowerTriangular));
        let q = props_of(D, "n, n", "Q * trans(Q)");
        assert!(q.has(Prop::Orthogonal) && q.has(Prop::Spd));
        let q = props_of(D, "n, n", "Q * Q");
        assert!(q.has(Prop::Orthogonal) && !q.has(Prop::Spd) && !q.has(Prop::Symmetric));
        assert!(props_of(D, "n, n", "inv(P)").has(Prop::Spd));
        assert!(props_of(D, "n, n", "N * L").has(Prop::NonSingular));
        assert!(!props_of(D, "n, n", "-1 * S").has(Prop::Spsd));
    }
}
