//! Moving inverses over products (thesis chapter 7, "pushing an inverse up"): adjacent
//! inverted factors merged into the inverse of one product, and an inverted product split
//! into the inverses of its parts. Both are alternatives the search prices; neither is
//! applied unconditionally (normalisation splits inverses of square products by default).

use super::norm::{simplify, Base, Env, Factor, Sum, Term};

/// Whether `f` is square with `n` rows.
fn square(env: &Env, f: &Factor) -> Option<u64> {
    let (r, c) = f.shape(env);
    (r == c).then_some(r)
}

/// `f` with its inversion toggled: the factor of `inv(f)`.
fn inverted(f: &Factor) -> Factor {
    Factor {
        inv: !f.inv,
        ..f.clone()
    }
}

/// The inverse of the product `fs` as a single factor: the factor itself (inversion
/// toggled) for one factor, else an inverted parenthesised product.
fn inverse_of_product(env: &Env, fs: Vec<Factor>) -> Option<Factor> {
    if fs.len() == 1 {
        return fs.first().map(inverted);
    }
    let (rows, _) = fs.first()?.shape(env);
    let (_, cols) = fs.last()?.shape(env);
    let t = simplify(
        env,
        Term {
            coef: 1.0,
            scalars: vec![],
            factors: fs,
        },
    )
    .ok()?;
    Some(Factor {
        base: Base::Sum(Box::new(Sum {
            terms: vec![t],
            rows,
            cols,
        })),
        trans: false,
        inv: true,
    })
}

/// Every term obtained from `t` by merging one pair of adjacent inverted factors:
///
/// `inv(X) * inv(Y) = inv(Y * X)` for square, invertible X and Y of one size. Invertible:
/// both are written inverted in the formula, which presupposes it (the convention
/// `cancel` and inference use as well). Square of one size: checked here; a non-square
/// inverted factor cannot occur, but a 1x1 chain next to a matrix is not merged either.
/// What is known about `Y * X` is inferred by the product rules (`infer::product_props`:
/// two lower triangles give a lower triangle, two SPD matrices give no SPD product), so
/// lowering factorises the product by what it soundly is. Merging pays for the product
/// and one factorisation instead of two, and one solve instead of two: cheaper when the
/// right-hand side is wider than the factors (`inv(A)*inv(B)*C` with C n x m, m > n).
pub fn merges(env: &Env, t: &Term) -> Vec<Term> {
    let mut out = Vec::new();
    for i in 1..t.factors.len() {
        let (x, y) = (&t.factors[i - 1], &t.factors[i]);
        if !(x.inv && y.inv) {
            continue;
        }
        match (square(env, x), square(env, y)) {
            (Some(a), Some(b)) if a == b && a > 1 => {}
            _ => continue,
        }
        let Some(merged) = inverse_of_product(env, vec![inverted(y), inverted(x)]) else {
            continue;
        };
        let mut factors = t.factors[..i - 1].to_vec();
        factors.push(merged);
        factors.extend(t.factors[i + 1..].iter().cloned());
        if let Ok(nt) = simplify(
            env,
            Term {
                coef: t.coef,
                scalars: t.scalars.clone(),
                factors,
            },
        ) {
            out.push(nt);
        }
    }
    out
}

/// Every term obtained from `t` by splitting one inverted product factor at one point:
///
/// `inv(c * P * Q) = c^-1 * inv(Q) * inv(P)` when P and Q (each a product of factors) are
/// both square. Then `P * Q` invertible implies `det P * det Q != 0`, so P and Q are
/// invertible and the identity holds. It does not hold for non-square parts: `X^T X` is
/// invertible for X of full column rank, but X has no inverse, so such a cut is skipped
/// (the cut after `X^T` gives parts k x n and n x k). Scalar factors of the product are
/// inverted one by one (non-zero, as the product is invertible).
pub fn splits(env: &Env, t: &Term) -> Vec<Term> {
    let mut out = Vec::new();
    for (fi, f) in t.factors.iter().enumerate() {
        let (Base::Sum(s), true) = (&f.base, f.inv) else {
            continue;
        };
        let [inner] = s.terms.as_slice() else {
            continue;
        };
        if inner.coef == 0.0 || inner.factors.len() < 2 {
            continue;
        }
        // inv(trans(S)) = inv(S^T): push the transposition into the product first.
        let inner = if f.trans {
            inner.transpose(env)
        } else {
            inner.clone()
        };
        let fs = &inner.factors;
        for cut in 1..fs.len() {
            let (r, _) = fs[0].shape(env);
            let (_, m) = fs[cut - 1].shape(env);
            let (_, c) = fs[fs.len() - 1].shape(env);
            if !(r == m && m == c) {
                continue;
            }
            let (Some(inv_q), Some(inv_p)) = (
                inverse_of_product(env, fs[cut..].to_vec()),
                inverse_of_product(env, fs[..cut].to_vec()),
            ) else {
                continue;
            };
            let mut factors = t.factors[..fi].to_vec();
            factors.push(inv_q);
            factors.push(inv_p);
            factors.extend(t.factors[fi + 1..].iter().cloned());
            let mut scalars = t.scalars.clone();
            scalars.extend(inner.scalars.iter().map(inverted));
            if let Ok(nt) = simplify(
                env,
                Term {
                    coef: t.coef / inner.coef,
                    scalars,
                    factors,
                },
            ) {
                out.push(nt);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::normalise;
    use crate::parse::parse;

    /// The merges and splits of the single term of `rhs`, shown.
    fn alternatives(rhs: &str) -> (Vec<String>, Vec<String>) {
        let src = format!("n = 4\nk = 2\nMatrix A(n, n) <FullRank>\nMatrix B(n, n) <FullRank>\nMatrix W(n, k) <FullRank>\nMatrix C(k, k) <FullRank>\nMatrix O(n, n) <>\nO = {rhs}\n");
        let p = parse(&src).unwrap_or_else(|e| panic!("{e}"));
        let env = Env::from_program(&p);
        let s = normalise(&p, &env, &p.assignments[0].rhs).unwrap_or_else(|e| panic!("{e}"));
        let t = &s.terms[0];
        let show = |ts: Vec<Term>| ts.iter().map(|t| t.show(&env)).collect();
        (show(merges(&env, t)), show(splits(&env, t)))
    }

    #[test]
    fn adjacent_inverses_merge_and_split_back() {
        let (m, s) = alternatives("inv(A) * inv(B)");
        assert_eq!(m, ["inv((B*A))"]);
        assert!(s.is_empty());
        let (m, _) = alternatives("inv(A) * B * inv(A)");
        assert!(m.is_empty(), "{m:?}");
    }

    #[test]
    fn only_square_parts_are_split() {
        // W^T W is k x k but W is not square: no cut inside it.
        let (_, s) = alternatives("W * inv(trans(W) * W * C) * trans(W)");
        assert_eq!(s, ["W*inv(C)*inv((trans(W)*W))*trans(W)"]);
        let (_, s) = alternatives("W * inv(trans(W) * A * W) * trans(W)");
        assert!(s.is_empty(), "{s:?}");
    }
}
