//! Random element-wise expressions over a few operands (sparse and dense matrices, vectors,
//! a scalar): every chosen plan agrees with direct evaluation, never costs more than the
//! expression as written, and compiles to C without error.

use std::collections::BTreeMap;

use polyscan_sumproduct::emit::{c_function, Storage};
use polyscan_sumproduct::evaluate::{eval_la, eval_plan, Dense, Values};
use polyscan_sumproduct::expr::Func;
use polyscan_sumproduct::{optimise, La, Limits, Operand, Shapes};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const M: u64 = 4;
const N: u64 = 3;

/// An expression of shape `(rows, cols)` (each M, N or 1).
fn expr(rng: &mut Rng, rows: u64, cols: u64, depth: u32) -> La {
    let leaf = |rng: &mut Rng| match (rows, cols) {
        (M, N) => La::op(["A", "B"][rng.below(2) as usize]),
        (N, M) => La::op("A").t(),
        (M, 1) => La::op("u"),
        (N, 1) => La::op("v"),
        (1, N) => La::op("v").t(),
        (1, M) => La::op("u").t(),
        (1, 1) => {
            if rng.below(2) == 0 {
                La::op("s")
            } else {
                La::num(rng.below(5) as i64 - 2)
            }
        }
        (M, M) => La::op("u").mm(La::op("u").t()),
        _ => La::op("C"),
    };
    if depth == 0 {
        return leaf(rng);
    }
    let d = depth - 1;
    match rng.below(9) {
        0 => expr(rng, rows, cols, d).plus(expr(rng, rows, cols, d)),
        1 => expr(rng, rows, cols, d).minus(expr(rng, rows, cols, d)),
        2 => expr(rng, rows, cols, d).times(expr(rng, rows, cols, d)),
        3 => La::op("s").times(expr(rng, rows, cols, d)),
        4 => {
            let k = [M, N, 1][rng.below(3) as usize];
            expr(rng, rows, k, d).mm(expr(rng, k, cols, d))
        }
        5 => expr(rng, cols, rows, d).t(),
        6 => expr(rng, rows, cols, d).pow(2),
        7 if (rows, cols) == (1, 1) => expr(rng, M, N, d).sum(),
        7 if cols == 1 => {
            let k = [M, N][rng.below(2) as usize];
            expr(rng, rows, k, d).row_sums()
        }
        8 if rng.below(2) == 0 => expr(rng, rows, cols, d).apply(Func::Abs),
        8 => {
            // A scalar, row or column broadcast over the sum's shape.
            let (r, c) = [(1, 1), (rows, 1), (1, cols)][rng.below(3) as usize];
            expr(rng, rows, cols, d).plus(expr(rng, r, c, d))
        }
        _ => leaf(rng),
    }
}

#[test]
fn random_expressions_agree_with_direct_evaluation() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut shapes: Shapes = BTreeMap::new();
    shapes.insert("A".into(), Operand::dense(M, N));
    shapes.insert("B".into(), Operand::sparse(M, N, 5.0));
    shapes.insert("C".into(), Operand::dense(N, N));
    shapes.insert("u".into(), Operand::dense(M, 1));
    shapes.insert("v".into(), Operand::dense(N, 1));
    shapes.insert("s".into(), Operand::dense(1, 1));
    let mut values: Values = BTreeMap::new();
    for (n, o) in &shapes {
        let sparse = o.density() < 1.0;
        let data = (0..o.rows * o.cols)
            .map(|_| {
                let x = rng.unit() * 2.0 - 1.0;
                if sparse && rng.below(2) == 0 {
                    0.0
                } else {
                    x
                }
            })
            .collect();
        values.insert(
            n.clone(),
            Dense {
                rows: o.rows as usize,
                cols: o.cols as usize,
                data,
            },
        );
    }
    let storage: BTreeMap<String, Storage> = shapes
        .iter()
        .map(|(n, o)| {
            let st = if o.density() < 1.0 {
                Storage::Csr
            } else {
                Storage::Dense { rows: o.rows }
            };
            (n.clone(), st)
        })
        .collect();
    let limits = Limits {
        iterations: 12,
        nodes: 5_000,
        ..Limits::default()
    };
    let mut improved = 0;
    for case in 0..150 {
        let shape = [(M, N), (1, 1), (M, 1), (N, N)][case % 4];
        let e = expr(&mut rng, shape.0, shape.1, 3);
        let o = optimise(&e, &shapes, limits).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        assert!(o.after <= o.before, "{e:?}");
        if o.after < o.before {
            improved += 1;
        }
        let want = eval_la(&e, &values).expect("direct");
        let got =
            eval_plan(&o.plan, &o.input.dims, &values, o.input.rows, o.input.cols).expect("plan");
        let d = want.relative_difference(&got);
        assert!(d < 1e-10, "case {case}: {d:e}\n{e:?}");
        c_function(
            "f",
            &o.plan,
            &o.input.dims,
            &storage,
            o.input.rows,
            o.input.cols,
        )
        .unwrap_or_else(|err| panic!("case {case}: {err}\n{e:?}"));
    }
    assert!(improved > 10, "only {improved} plans improved");
}
