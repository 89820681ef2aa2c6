//! Errors of the sum-product optimiser.

/// What can go wrong when translating or optimising an expression.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SumProductError {
    /// An operand that the shapes do not declare.
    #[error("unknown operand `{0}`")]
    UnknownOperand(String),
    /// Operand shapes that do not fit the operation.
    #[error("{op}: shapes {left} and {right} do not fit")]
    Shape {
        /// The operation.
        op: &'static str,
        /// The left operand's shape, as `rows x cols`.
        left: String,
        /// The right operand's shape.
        right: String,
    },
    /// An operation the relational form does not express.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A coefficient that overflows the exact rational range.
    #[error("coefficient out of range")]
    Overflow,
}
