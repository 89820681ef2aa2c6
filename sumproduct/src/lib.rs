//! Sum-product optimisation of element-wise linear algebra by relational equality saturation,
//! after SPORES (Wang et al.; shared/seeds/003): an expression with element-wise products,
//! powers, aggregates and matrix products is translated to relational algebra over
//! K-relations (join, union, aggregation), saturated with the seven identities of relational
//! algebra in an e-graph (egg), and the plan with the fewest estimated FLOPs is extracted,
//! where the cost counts nonzeros (sparsity) and a shared subexpression once.
//!
//! The headline example of SPORES: `sum((X - U V^T) .^ 2)` with a sparse `X` never forms the
//! dense `U V^T`:
//!
//! ```
//! use polyscan_sumproduct::{optimise, La, Limits, Operand, Shapes};
//!
//! let mut shapes = Shapes::new();
//! shapes.insert("X".into(), Operand::sparse(1_000_000, 500_000, 1e7));
//! shapes.insert("U".into(), Operand::dense(1_000_000, 1));
//! shapes.insert("V".into(), Operand::dense(500_000, 1));
//! let loss = La::op("X").minus(La::op("U").mm(La::op("V").t())).pow(2).sum();
//! let o = optimise(&loss, &shapes, Limits::default()).unwrap();
//! assert!(o.before > 5e11); // the dense U V^T, its difference with X and its square
//! assert!(o.after < 4.0 * 1e7 + 1e7); // a few passes over X's nonzeros, U and V
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod emit;
pub mod error;
pub mod evaluate;
pub mod expr;
pub mod extract;
pub mod optimise;
pub mod relation;
pub mod rules;
pub mod show;
pub mod term;
pub mod translate;

pub use error::SumProductError;
pub use expr::{La, Operand, Shapes};
pub use optimise::{cost, optimise, Limits, Optimised, Stop};
pub use relation::{Coef, Rel};
