//! The relational language SPORES optimises in: K-relations over the reals (a matrix is a
//! relation whose tuple `(i, j)` has multiplicity `X[i, j]`), with natural join `*`, union
//! `+` and aggregation `sum`, as egg terms.

use std::fmt;
use std::str::FromStr;

use egg::{define_language, Id, Symbol};
use num_rational::Ratio;
use num_traits::{One, Zero};

/// An exact rational coefficient (scalars of the formulas, multiplicities of constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Coef(pub Ratio<i64>);

impl Coef {
    /// The coefficient `n`.
    pub fn int(n: i64) -> Coef {
        Coef(Ratio::from_integer(n))
    }
    /// Whether this is 0.
    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }
    /// Whether this is 1.
    pub fn is_one(self) -> bool {
        self.0.is_one()
    }
    /// The product, unless it overflows `i64` numerators or denominators.
    pub fn checked_mul(self, o: Coef) -> Option<Coef> {
        num_traits::CheckedMul::checked_mul(&self.0, &o.0).map(Coef)
    }
    /// The sum, unless it overflows.
    pub fn checked_add(self, o: Coef) -> Option<Coef> {
        num_traits::CheckedAdd::checked_add(&self.0, &o.0).map(Coef)
    }
    /// The value as a float, for numerical evaluation only.
    pub fn to_f64(self) -> f64 {
        *self.0.numer() as f64 / *self.0.denom() as f64
    }
}

impl fmt::Display for Coef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Coef {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // Only numerals: names (which egg also tries to parse as coefficients) must fail.
        if !s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            return Err(format!("not a number: {s}"));
        }
        Ratio::from_str(s).map(Coef).map_err(|e| e.to_string())
    }
}

define_language! {
    /// A relational plan; attributes and operand names are `Name` leaves.
    ///
    /// - `(* a b)`, `Join`: natural join, the product of multiplicities on the union of the
    ///   schemas;
    /// - `(+ a b)`, `Union`: the sum of multiplicities (both sides have one schema);
    /// - `(sum i e)`, `Agg`: group by all attributes but `i`, adding multiplicities;
    /// - `(dim i)`, `Dim`: the number of values of attribute `i`, as a scalar;
    /// - `(m X i j)`, `Matrix`: matrix `X` with its rows bound to `i`, its columns to `j`;
    /// - `(v x i)`, `Vector`: vector `x` (either orientation) with its entries bound to `i`;
    /// - `(s a)`, `Scalar`: the scalar operand `a`;
    /// - `(fn f e)`, `Apply`: the function `f` (a [`crate::expr::Func`] name) of every entry;
    /// - `Num`: a constant; `Name`: an operand or attribute name.
    #[allow(missing_docs)]
    pub enum Rel {
        "*" = Join([Id; 2]),
        "+" = Union([Id; 2]),
        "sum" = Agg([Id; 2]),
        "dim" = Dim(Id),
        "m" = Matrix([Id; 3]),
        "v" = Vector([Id; 2]),
        "s" = Scalar(Id),
        "fn" = Apply([Id; 2]),
        Num(Coef),
        Name(Symbol),
    }
}
