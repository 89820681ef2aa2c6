//! `UPoly::gcd` (modular) against `UPoly::gcd_prs` (the primitive PRS it replaced), and
//! square-free parts checked by their definition, on random products with repeated
//! factors and coefficients beyond 64 bits.

use cad::UPoly;
use polys::{BigInt, Coeff, Int};
use proptest::prelude::*;

/// A coefficient: small, or small times a power of a 60-bit number.
fn coeff() -> impl Strategy<Value = Int> {
    (-30i64..30, 0u32..4).prop_map(|(v, e)| {
        Int::from(BigInt::from(v) * BigInt::from(1_152_921_504_606_846_883i64).pow(e))
    })
}

fn upoly(max_len: usize) -> impl Strategy<Value = UPoly> {
    prop::collection::vec(coeff(), 1..max_len).prop_map(UPoly::new)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn modular_gcd_matches_the_primitive_prs(
        a in upoly(6), b in upoly(6), c in upoly(4), d in upoly(3)
    ) {
        // Common factor c * d^2.
        let common = c.mul(&d).mul(&d);
        let (a, b) = (a.mul(&common), b.mul(&common));
        prop_assert_eq!(a.gcd(&b), a.gcd_prs(&b));
        prop_assert_eq!(b.gcd(&a), a.gcd_prs(&b));
    }

    #[test]
    fn square_free_parts_by_definition(a in upoly(5), b in upoly(4)) {
        // p = a * b^3; its square-free part s divides p, has no repeated factor (gcd with
        // its derivative 1, by the PRS), and p divides s^deg(p) (every factor of p is in s).
        let p = a.mul(&b).mul(&b).mul(&b);
        prop_assume!(p.degree() > 0);
        let s = p.square_free_part();
        prop_assert!(p.div_exact(&s).is_some());
        prop_assert_eq!(s.gcd_prs(&s.derivative()).degree(), 0);
        let mut power = UPoly::constant(Int::from(1));
        for _ in 0..p.degree() {
            power = power.mul(&s);
        }
        prop_assert!(power.div_exact(&p.primitive()).is_some());
        prop_assert_eq!(s.lc().signum(), 1);
        prop_assert_eq!(s.content(), Int::from(1));
    }
}
