//! Cancellation of adjacent factors of a product whose product is an identity matrix:
//! `inv(A)*A`, `A*inv(A)` (and their transposes), `trans(Q)*Q` for Q with orthonormal
//! columns and `Q*trans(Q)` for Q with orthonormal rows (thesis section 7, "simplification").

use super::infer::{base_props, factor_props};
use super::norm::{Env, Factor};
use super::properties::Prop;

/// Whether `g * f` is an identity matrix, by an identity that holds for every matrix with
/// the properties the factors are known to have:
///
/// - `inv(X) * X = X * inv(X) = I` for a square non-singular X. `X` is the same base with
///   the same transposition on both sides (so `trans(inv(A)) * trans(A)` is covered); its
///   non-singularity is what [`base_props`] infers for an inverted factor, which includes
///   the convention that `inv(X)` written in a formula presupposes X invertible.
/// - `trans(F) * F = I` for any factor F with orthonormal columns (`OrthogonalColumns`,
///   implied by `Orthogonal` and `Permutation`). `Q * trans(Q)` is this rule with
///   F = trans(Q), whose columns are orthonormal when Q's rows are; the inverse of an
///   orthogonal matrix is orthogonal, so inverted factors are covered as well.
fn is_identity_pair(env: &Env, g: &Factor, f: &Factor) -> bool {
    if g.base == f.base && g.trans == f.trans && g.inv != f.inv {
        let (r, c) = f.shape(env);
        let inverted = if g.inv { g } else { f };
        return r == c && base_props(env, inverted).has(Prop::NonSingular);
    }
    *g == f.transpose(env) && factor_props(env, f).has(Prop::OrthogonalColumns)
}

/// The chain with every adjacent pair whose product is an identity matrix removed,
/// repeatedly (`inv(B)*inv(A)*A*B` vanishes completely). Removing such a pair leaves the
/// neighbours' sizes matching, because the identity is square. A chain that would vanish
/// completely becomes `identity` if one is given (an identity entity of its size), else
/// stays as it is: a term needs a factor to have a matrix shape.
pub fn cancel(env: &Env, factors: Vec<Factor>, identity: Option<usize>) -> Vec<Factor> {
    let mut kept: Vec<Factor> = Vec::with_capacity(factors.len());
    for f in &factors {
        match kept.last() {
            Some(g) if is_identity_pair(env, g, f) => {
                kept.pop();
            }
            _ => kept.push(f.clone()),
        }
    }
    if kept.is_empty() && !factors.is_empty() {
        return match identity {
            Some(id) => vec![Factor::op(id)],
            None => factors,
        };
    }
    kept
}

/// An entity with the `Identity` property of size `n x n`, if the environment has one.
pub fn identity_of_size(env: &Env, n: u64) -> Option<usize> {
    env.entities
        .iter()
        .position(|e| e.props.has(Prop::Identity) && e.rows == n && e.cols == n)
}

#[cfg(test)]
mod tests {
    use crate::norm::{normalise, Env};
    use crate::parse::parse;

    fn norm(decls: &str, rhs: &str) -> String {
        let src = format!("n = 5\nk = 3\nMatrix B(n, k) <>\n{decls}Matrix O(n, k) <>\nO = {rhs}\n");
        let p = parse(&src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        normalise(&p, &env, &p.assignments[0].rhs)
            .unwrap_or_else(|e| panic!("{e}"))
            .show(&env)
    }

    #[test]
    fn inverse_pairs_vanish() {
        let a = "Matrix A(n, n) <FullRank>\nMatrix C(n, n) <>\n";
        assert_eq!(norm(a, "inv(A) * A * B"), "B");
        assert_eq!(norm(a, "A * inv(A) * B"), "B");
        assert_eq!(norm(a, "trans(inv(A)) * trans(A) * B"), "B");
        assert_eq!(norm(a, "inv(A * C) * A * C * B"), "B");
        assert_eq!(norm(a, "C * inv(A) * A * B"), "C*B");
        // Not adjacent, or not the same matrix: nothing cancels.
        assert_eq!(norm(a, "inv(A) * C * A * B"), "inv(A)*C*A*B");
        assert_eq!(norm(a, "inv(A) * trans(A) * B"), "inv(A)*trans(A)*B");
        // A parenthesised sum cancels with its own inverse.
        assert_eq!(norm(a, "inv(A + C) * (A + C) * B"), "B");
    }

    #[test]
    fn orthonormal_columns_and_rows() {
        let q = "Matrix Q(n, n) <Orthogonal>\nMatrix W(n, k) <OrthogonalColumns>\nMatrix R(k, n) <OrthogonalRows>\nMatrix D(k, k) <>\n";
        assert_eq!(norm(q, "trans(Q) * Q * B"), "B");
        assert_eq!(norm(q, "Q * trans(Q) * B"), "B");
        assert_eq!(norm(q, "W * trans(W) * W"), "W");
        assert_eq!(norm(q, "trans(R) * R * trans(R)"), "trans(R)");
        assert_eq!(norm(q, "trans(R) * D * R * trans(R)"), "trans(R)*D");
        // W has orthonormal columns only: W W^T is a projection, not I.
        assert_eq!(norm(q, "W * trans(W) * B"), "W*trans(W)*B");
        let p = "Matrix P(n, n) <Permutation>\n";
        assert_eq!(norm(p, "trans(P) * P * B"), "B");
        assert_eq!(norm(p, "inv(trans(P)) * trans(P) * B"), "B");
    }

    #[test]
    fn a_product_that_vanishes_completely() {
        // With an identity of the right size the product becomes it ...
        let src = "n = 5\nMatrix A(n, n) <FullRank>\nIdentityMatrix I(n, n)\nMatrix O(n, n) <>\nO = inv(A) * A\n";
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        let s = normalise(&p, &env, &p.assignments[0].rhs).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.show(&env), "I");
        // ... without one it stays (a term needs a matrix factor).
        let src = "n = 5\nMatrix A(n, n) <FullRank>\nMatrix O(n, n) <>\nO = inv(A) * A\n";
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        let s = normalise(&p, &env, &p.assignments[0].rhs).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.show(&env), "inv(A)*A");
    }
}
