//! The choice between the default factorisations (Cholesky of Gram products, LU) and the
//! orthogonal ones (QR, SYEV, SVD): what the user asks for ([`FactorChoice`]) and the
//! pricing of every form with each alternative its lowering met ([`lower_priced`]).

use crate::error::LaError;
use crate::lower::{lower_with, Factoring, Lowered};
use crate::norm::{Env, Sum};

/// A factorisation the user prefers where it applies (`polyscan la --prefer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preferred {
    /// QR of Y for inverted Gram products `inv(Y^T Y)` (Y tall, full rank), least squares
    /// as `R^-1 Q^T B`.
    Qr,
    /// The symmetric eigendecomposition for inverses of symmetric matrices not known SPD.
    Eigen,
    /// The SVD for inverses of other general square matrices.
    Svd,
}

/// Which factorisations the search may use (a field of `SearchOptions`). By default every
/// alternative is priced and the cheapest sequence wins (ties keep the default
/// factorisation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FactorChoice {
    /// Numerical stability first (`--stable`): inverses of Gram products `Y^T Y` are never
    /// formed; QR of Y is used instead, whatever it costs.
    pub stable: bool,
    /// A factorisation used wherever it applies, whatever it costs (`--prefer`).
    pub prefer: Option<Preferred>,
}

impl FactorChoice {
    /// The factorisations every lowering must use.
    pub fn forced(self) -> Factoring {
        Factoring {
            gram_qr: self.stable || self.prefer == Some(Preferred::Qr),
            eigen: self.prefer == Some(Preferred::Eigen),
            svd: self.prefer == Some(Preferred::Svd),
        }
    }
}

/// Lowers `state` with the forced factorisations, then once more per alternative the
/// lowering met and the choice leaves open (with that one switched on); the cheapest
/// wins, the forced lowering on a tie.
pub fn lower_priced(
    env: &Env,
    state: &[(usize, Sum)],
    choice: FactorChoice,
) -> Result<Lowered, LaError> {
    let forced = choice.forced();
    let mut best = lower_with(env, state, forced)?;
    let met = best.alternatives;
    let options = [
        (met.gram_qr && !forced.gram_qr).then_some(Factoring {
            gram_qr: true,
            ..forced
        }),
        (met.eigen && !forced.eigen).then_some(Factoring {
            eigen: true,
            ..forced
        }),
        (met.svd && !forced.svd).then_some(Factoring {
            svd: true,
            ..forced
        }),
    ];
    for policy in options.into_iter().flatten() {
        // A form the alternative cannot lower keeps the default lowering.
        if let Ok(l) = lower_with(env, state, policy) {
            if l.flops < best.flops {
                best = l;
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{check, scaled};
    use crate::kernels::{cost, Kernel};
    use crate::parse::parse;
    use crate::search::{solve, SearchOptions, Solution};

    /// The solution of `src` under `factor`, checked against direct evaluation at a third
    /// of the sizes (seeds 1, 2).
    fn solved(src: &str, factor: FactorChoice) -> Solution {
        let p = parse(src).unwrap_or_else(|e| panic!("{e}"));
        let opts = SearchOptions {
            factor,
            ..SearchOptions::default()
        };
        let s = solve(&p, opts).unwrap_or_else(|e| panic!("{e}"));
        for seed in [1, 2] {
            let rel = check(&scaled(&p, 3, 3), &s.lowered.env, &s.lowered.steps, seed)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(rel < 1e-8, "relative difference {rel:e}\n{src}");
        }
        s
    }

    fn kernels(s: &Solution) -> Vec<Kernel> {
        let steps = &s.lowered.steps;
        steps
            .iter()
            .map(|s| s.kernel)
            .filter(|k| *k != Kernel::Bind)
            .collect()
    }

    const STABLE: FactorChoice = FactorChoice {
        stable: true,
        prefer: None,
    };

    fn least_squares(rows: u64) -> String {
        format!("n = {rows}\nm = 50\np = 40\nMatrix A(n, m) <FullRank>\nMatrix B(n, p) <>\nMatrix X(m, p) <>\nX = inv(trans(A) * A) * trans(A) * B\n")
    }

    #[test]
    fn least_squares_by_qr_where_cheaper_or_asked() {
        // Nearly square A, many right-hand sides: QR (GEQRF, ORMQR, TRSM) costs less than
        // SYRK, POTRF, GEMM and two TRSMs.
        let qr = cost::geqrf(60, 50) + cost::ormqr(60, 40, 50) + cost::trsm(50, 40);
        let normal = cost::syrk(50, 60) + cost::potrf(50) + cost::gemm(50, 40, 60);
        let normal = normal + 2.0 * cost::trsm(50, 40);
        assert!(qr < normal);
        let s = solved(&least_squares(60), FactorChoice::default());
        assert_eq!(kernels(&s), [Kernel::Geqrf, Kernel::Ormqr, Kernel::Trsm]);
        assert!((s.lowered.flops - qr).abs() < 1e-6 * qr);
        // A tall A: the normal equations by default, QR when stability is asked for.
        let normal = cost::syrk(50, 400) + cost::potrf(50) + cost::gemm(50, 40, 400);
        let normal = normal + 2.0 * cost::trsm(50, 40);
        let s = solved(&least_squares(400), FactorChoice::default());
        assert_eq!(
            kernels(&s),
            [
                Kernel::Syrk,
                Kernel::Potrf,
                Kernel::Gemm,
                Kernel::Trsm,
                Kernel::Trsm
            ]
        );
        assert!((s.lowered.flops - normal).abs() < 1e-6 * normal);
        let s = solved(&least_squares(400), STABLE);
        assert_eq!(kernels(&s), [Kernel::Geqrf, Kernel::Ormqr, Kernel::Trsm]);
        let qr = cost::geqrf(400, 50) + cost::ormqr(400, 40, 50) + cost::trsm(50, 40);
        assert!((s.lowered.flops - qr).abs() < 1e-6 * qr);
        assert!(s.lowered.flops > normal);
    }

    #[test]
    fn stable_never_forms_a_gram_inverse() {
        let d = "n = 80\nm = 20\nMatrix A(n, m) <FullRank>\nMatrix C(m, m) <FullRank>\nMatrix B(n, m) <>\nColumnVector c(m) <>\nColumnVector x(m) <>\nMatrix Y(m, n) <>\nMatrix Z(m, m) <>\n";
        // The Gram inverse alone: inv(A^T A) = R^-1 R^-T.
        let s = solved(&format!("{d}x = inv(trans(A) * A) * c\n"), STABLE);
        assert_eq!(kernels(&s), [Kernel::Geqrf, Kernel::Trsv, Kernel::Trsv]);
        // Least squares transposed (B^T A inv(A^T A)), and with a factor on the left.
        let s = solved(
            &format!("{d}Z = trans(B) * A * inv(trans(A) * A)\n"),
            STABLE,
        );
        let k = kernels(&s);
        assert!(
            k.contains(&Kernel::Ormqr) && !k.contains(&Kernel::Syrk),
            "{k:?}"
        );
        let s = solved(
            &format!("{d}Z = C * inv(trans(A) * A) * trans(A) * B\n"),
            STABLE,
        );
        let k = kernels(&s);
        assert!(
            k.contains(&Kernel::Ormqr) && !k.contains(&Kernel::Potrf),
            "{k:?}"
        );
        // A wide W of full rank: inv(W W^T) W c by QR of W^T.
        let wide = "n = 80\nm = 20\nMatrix W(m, n) <FullRank>\nColumnVector c(n) <>\nColumnVector x(m) <>\nx = inv(W * trans(W)) * W * c\n";
        let s = solved(wide, STABLE);
        assert_eq!(kernels(&s), [Kernel::Geqrf, Kernel::Ormqr, Kernel::Trsv]);
        let qr = cost::geqrf(80, 20) + cost::ormqr(80, 1, 20) + cost::trsm(20, 1);
        assert!((s.lowered.flops - qr).abs() < 1e-6 * qr);
        // The pseudo-inverse itself (no right-hand side): R^-1 R^-T A^T.
        let s = solved(&format!("{d}Y = inv(trans(A) * A) * trans(A)\n"), STABLE);
        let k = kernels(&s);
        assert!(
            k.contains(&Kernel::Geqrf) && !k.contains(&Kernel::Syrk),
            "{k:?}"
        );
    }

    const SOLVE: &str = "n = 60\nk = 7\nMatrix B(n, k) <>\nMatrix X(n, k) <>\n";

    #[test]
    fn eigen_and_svd_solves_are_priced_and_taken_when_asked() {
        let sym = format!("{SOLVE}Matrix S(n, n) <Symmetric, FullRank>\nX = inv(S) * B\n");
        let gen = format!("{SOLVE}Matrix A(n, n) <FullRank>\nX = inv(trans(A)) * B\n");
        // By default LU: SYEV and SVD cost more.
        for src in [&sym, &gen] {
            let s = solved(src, FactorChoice::default());
            assert_eq!(kernels(&s)[0], Kernel::Getrf);
        }
        let per_rhs = 2.0 * cost::gemm(60, 7, 60) + cost::elementwise(60, 7);
        let eigen = FactorChoice {
            stable: false,
            prefer: Some(Preferred::Eigen),
        };
        let s = solved(&sym, eigen);
        assert_eq!(
            kernels(&s),
            [Kernel::Syev, Kernel::Gemm, Kernel::DiagSolve, Kernel::Gemm]
        );
        let want = cost::syev(60) + per_rhs;
        assert!((s.lowered.flops - want).abs() < 1e-6 * want);
        let svd = FactorChoice {
            stable: false,
            prefer: Some(Preferred::Svd),
        };
        let s = solved(&gen, svd);
        assert_eq!(
            kernels(&s),
            [Kernel::Gesvd, Kernel::Gemm, Kernel::DiagSolve, Kernel::Gemm]
        );
        let want = cost::gesvd(60, 60) + per_rhs;
        assert!((s.lowered.flops - want).abs() < 1e-6 * want);
        // An SPD matrix keeps Cholesky; a symmetric one is not given to the SVD.
        let spd = format!("{SOLVE}Matrix S(n, n) <SPD>\nX = inv(S) * B\n");
        assert_eq!(kernels(&solved(&spd, eigen))[0], Kernel::Potrf);
        assert_eq!(kernels(&solved(&sym, svd))[0], Kernel::Getrf);
    }

    #[test]
    fn cost_polynomials_of_the_orthogonal_factorisations() {
        let eigen = FactorChoice {
            stable: false,
            prefer: Some(Preferred::Eigen),
        };
        let svd = FactorChoice {
            stable: false,
            prefer: Some(Preferred::Svd),
        };
        let cases = [
            (least_squares(400), STABLE),
            (
                format!("{SOLVE}Matrix S(n, n) <Symmetric, FullRank>\nX = inv(S) * B\n"),
                eigen,
            ),
            (
                format!("{SOLVE}Matrix A(n, n) <FullRank>\nX = inv(A) * B\n"),
                svd,
            ),
        ];
        for (src, choice) in cases {
            let s = solved(&src, choice);
            let p = parse(&src).unwrap_or_else(|e| panic!("{e}"));
            let names: Vec<String> = p.sizes.iter().map(|(n, _)| n.clone()).collect();
            let c = crate::symbolic::symbolic_cost(&p, &s.lowered, &names)
                .unwrap_or_else(|e| panic!("{e}"));
            let v = c.eval(&p.sizes);
            assert!(
                (v - s.lowered.flops).abs() <= 1e-9 * s.lowered.flops,
                "{v} vs {}: {}",
                s.lowered.flops,
                c.to_text()
            );
        }
    }
}
