//! Random problems made the way the Linnea thesis (chapter 10, "Test problems") describes its
//! 100 synthetic test problems: one assignment of 4 to 7 operands, every dimension uniform in
//! 50..=2000 in steps of 50, square operands with a 75% chance of one of diagonal, lower
//! triangular, upper triangular, symmetric or SPD, and some expressions holding the common
//! subexpression patterns `X X^T` and `X M X^T` (X of up to two matrices, M symmetric).
//! Shapes as in the thesis's own random examples: products with transposes and inverses
//! (also of products, `M1 (M2^T M3 M4)^-1 M5`), sums of such products and of transposed
//! operands (`M1 M2^T + M3 M3^T + M4^T + M5^T`), a parenthesised sum inside a product, and a
//! vector at the end of some products. The thesis gives no more detail than this; the
//! choices here (how often each shape, when an inverse) are this generator's own.
//!
//! Every inverse is of something invertible: square operands are declared full rank (or SPD),
//! and an inverted product `A B` or `A^T A` has inner dimension at least its outer one, at the
//! declared sizes and at every scaled-down copy (scaling keeps the order of the sizes).

#![allow(dead_code)] // each test file uses its own subset

use std::collections::HashMap;

use polyscan_la::interp::Rng;

/// One factor of a product, as generated.
#[derive(Debug, Clone)]
enum F {
    /// A declared operand, transposed and/or inverted.
    Op {
        name: String,
        trans: bool,
        inv: bool,
    },
    /// `inv(product)`.
    InvProd(Vec<F>),
    /// A parenthesised sum of products.
    Sum(Vec<Vec<F>>),
}

impl F {
    fn show(&self) -> String {
        match self {
            F::Op { name, trans, inv } => {
                let t = if *trans {
                    format!("trans({name})")
                } else {
                    name.clone()
                };
                if *inv {
                    format!("inv({t})")
                } else {
                    t
                }
            }
            F::InvProd(fs) => format!("inv({})", show_product(fs)),
            F::Sum(ts) => format!(
                "({})",
                ts.iter()
                    .map(|t| show_product(t))
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
        }
    }

    /// The transpose of a plain operand factor (patterns are built from those only).
    fn transposed(&self) -> F {
        match self {
            F::Op { name, trans, inv } => F::Op {
                name: name.clone(),
                trans: !trans,
                inv: *inv,
            },
            other => other.clone(),
        }
    }
}

fn show_product(fs: &[F]) -> String {
    fs.iter().map(F::show).collect::<Vec<_>>().join(" * ")
}

/// Where a product must end.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    /// Anywhere (a new dimension or the current one).
    Free,
    /// At this dimension (index into the sizes).
    Dim(usize),
    /// In a column vector.
    Vector,
}

/// The state of one problem being generated.
struct Gen<'a> {
    rng: &'a mut Rng,
    sizes: Vec<u64>,
    decls: String,
    operands: usize,
    /// Declared matrices' (rows, cols) as dimension indices.
    shapes: HashMap<String, (usize, usize)>,
}

impl Gen<'_> {
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.rng.below(den) < num
    }

    /// A new dimension, uniform in 50..=2000 in steps of 50.
    fn dim(&mut self) -> usize {
        self.sizes.push(50 * (1 + self.rng.below(40)) as u64);
        self.sizes.len() - 1
    }

    /// A new dimension at least as large as dimension `d` (for invertible products).
    fn dim_at_least(&mut self, d: usize) -> usize {
        let lo = self.sizes[d] / 50;
        self.sizes
            .push(50 * (lo + self.rng.below((41 - lo) as usize) as u64));
        self.sizes.len() - 1
    }

    fn declare(&mut self, rows: usize, cols: usize, props: &str) -> String {
        self.operands += 1;
        let name = format!("M{}", self.operands);
        self.decls += &format!("Matrix {name}(d{rows}, d{cols}) <{props}>\n");
        self.shapes.insert(name.clone(), (rows, cols));
        name
    }

    /// An operand used as a `rows x cols` factor, declared transposed a third of the time.
    fn rect(&mut self, rows: usize, cols: usize) -> F {
        let trans = self.chance(1, 3);
        let name = if trans {
            self.declare(cols, rows, "FullRank")
        } else {
            self.declare(rows, cols, "FullRank")
        };
        F::Op {
            name,
            trans,
            inv: false,
        }
    }

    /// A square `d x d` operand: 75% one of the thesis's five properties, else general
    /// (full rank, so it may be inverted).
    fn square(&mut self, d: usize, may_invert: bool) -> F {
        let props = match self.rng.below(20) {
            0..=2 => "Diagonal, FullRank",
            3..=5 => "LowerTriangular, FullRank",
            6..=8 => "UpperTriangular, FullRank",
            9..=11 => "Symmetric, FullRank",
            12..=14 => "SPD",
            _ => "FullRank",
        };
        let name = self.declare(d, d, props);
        // Transposing a diagonal or symmetric operand changes nothing.
        let transposable = props.contains("Triangular") || props == "FullRank";
        F::Op {
            name,
            trans: transposable && self.chance(1, 3),
            inv: may_invert && self.chance(1, 3),
        }
    }

    /// A symmetric `d x d` operand (the M of `X M X^T`).
    fn symmetric(&mut self, d: usize) -> F {
        let props = if self.chance(1, 2) {
            "SPD"
        } else {
            "Symmetric"
        };
        F::Op {
            name: self.declare(d, d, props),
            trans: false,
            inv: false,
        }
    }

    /// X of the patterns: one or two operands from `d` to a new dimension.
    fn pattern_x(&mut self, d: usize, two: bool) -> Vec<F> {
        let q = self.dim();
        if two {
            let mid = self.dim();
            vec![self.rect(d, mid), self.rect(mid, q)]
        } else {
            vec![self.rect(d, q)]
        }
    }

    /// `X X^T` or `X M X^T` at dimension `d`, using at most `budget` operands; how many used.
    fn pattern(&mut self, d: usize, budget: usize, out: &mut Vec<F>) -> usize {
        let with_m = budget >= 2 && self.chance(1, 2);
        let two = budget >= 2 + usize::from(with_m) && self.chance(1, 2);
        let x = self.pattern_x(d, two);
        let xt: Vec<F> = x.iter().rev().map(F::transposed).collect();
        let used = x.len() + usize::from(with_m);
        out.extend(x);
        if with_m {
            // X is d x q: M is q x q.
            let q = match out.last() {
                Some(F::Op { name, trans, .. }) => self.cols_of(name, *trans),
                _ => d,
            };
            out.push(self.symmetric(q));
        }
        out.extend(xt);
        used
    }

    /// Columns of a declared matrix as used (its dimension index).
    fn cols_of(&self, name: &str, trans: bool) -> usize {
        let (r, c) = self.shapes.get(name).copied().unwrap_or_default();
        if trans {
            r
        } else {
            c
        }
    }

    /// An SPD `d x d` operand.
    fn spd(&mut self, d: usize) -> F {
        F::Op {
            name: self.declare(d, d, "SPD"),
            trans: false,
            inv: false,
        }
    }

    /// An invertible `d x d` product under an inverse, using at most `budget` (>= 1)
    /// operands; the factor and how many operands it used.
    fn inverted_product(&mut self, d: usize, budget: usize) -> (F, usize) {
        let before = self.operands;
        let q = self.dim_at_least(d);
        let shape = if budget == 1 { 0 } else { self.rng.below(4) };
        let fs = match shape {
            // X^T X, X of full column rank.
            0 => {
                let x = self.rect(q, d);
                vec![x.transposed(), x]
            }
            // X^T S X with S SPD.
            1 => {
                let x = self.rect(q, d);
                let s = self.spd(q);
                vec![x.transposed(), s, x]
            }
            // A B, or A C B with C square; full rank with inner dimension >= d.
            _ => {
                let mut v = vec![self.rect(d, q)];
                if budget >= 3 && self.chance(1, 2) {
                    v.push(self.square(q, false));
                }
                v.push(self.rect(q, d));
                v
            }
        };
        (F::InvProd(fs), self.operands - before)
    }

    /// A product from dimension `from` using `budget` (>= 1) operands, ending as `end` says;
    /// returns the factors and the dimension it ends at (`None` for a vector).
    fn product(&mut self, from: usize, budget: usize, end: End) -> (Vec<F>, Option<usize>) {
        let mut out = Vec::new();
        let mut cur = from;
        let mut left = budget;
        while left > 1 {
            match self.rng.below(10) {
                0 | 1 => left -= self.pattern(cur, left - 1, &mut out),
                2 => {
                    let (f, used) = self.inverted_product(cur, left - 1);
                    out.push(f);
                    left -= used;
                }
                3 if left >= 3 => {
                    let q = self.dim();
                    let a = self.rect(cur, q);
                    let b = self.rect(cur, q);
                    out.push(F::Sum(vec![vec![a], vec![b]]));
                    cur = q;
                    left -= 2;
                }
                4..=6 => {
                    out.push(self.square(cur, true));
                    left -= 1;
                }
                _ => {
                    let q = self.dim();
                    out.push(self.rect(cur, q));
                    cur = q;
                    left -= 1;
                }
            }
        }
        // The last operand is never inverted, so no product is a lone inverse.
        let last = match end {
            End::Vector => {
                self.operands += 1;
                let name = format!("v{}", self.operands);
                self.decls += &format!("ColumnVector {name}(d{cur}) <>\n");
                out.push(F::Op {
                    name,
                    trans: false,
                    inv: false,
                });
                return (out, None);
            }
            End::Dim(d) if d == cur => self.square(cur, false),
            End::Dim(d) => self.rect(cur, d),
            End::Free if self.chance(1, 3) => self.square(cur, false),
            End::Free => {
                let q = self.dim();
                self.rect(cur, q)
            }
        };
        let end_dim = match (&last, end) {
            (_, End::Dim(d)) => d,
            (F::Op { name, trans, .. }, _) => self.cols_of(name, *trans),
            _ => cur,
        };
        out.push(last);
        (out, Some(end_dim))
    }
}

/// One random problem (source text in the input language) from `rng`.
pub fn problem(rng: &mut Rng) -> String {
    let mut g = Gen {
        rng,
        sizes: Vec::new(),
        decls: String::new(),
        operands: 0,
        shapes: HashMap::new(),
    };
    let k = 4 + g.rng.below(4);
    let rows = g.dim();
    let (rhs, end) = if g.chance(1, 2) {
        // One product.
        let end = if g.chance(1, 4) {
            End::Vector
        } else {
            End::Free
        };
        let (fs, d) = g.product(rows, k, end);
        (show_product(&fs), d)
    } else {
        // A sum of two or three products (single operands allowed), subtracted sometimes.
        let nterms = 2 + g.rng.below(2).min(k - 2);
        let end = if g.chance(1, 5) {
            End::Vector
        } else if g.chance(1, 3) {
            End::Dim(rows)
        } else {
            let c = g.dim();
            End::Dim(c)
        };
        let mut budgets = vec![1; nterms];
        for _ in nterms..k {
            let t = g.rng.below(nterms);
            budgets[t] += 1;
        }
        let mut text = String::new();
        let mut d = None;
        for (i, b) in budgets.into_iter().enumerate() {
            let (fs, e) = g.product(rows, b, end);
            d = e;
            if i > 0 {
                text += if g.chance(1, 4) { " - " } else { " + " };
            }
            text += &show_product(&fs);
        }
        (text, d)
    };
    let out = match end {
        Some(c) => format!("Matrix X(d{rows}, d{c}) <>\n"),
        None => format!("ColumnVector X(d{rows}) <>\n"),
    };
    let sizes: String = g
        .sizes
        .iter()
        .enumerate()
        .map(|(i, v)| format!("d{i} = {v}\n"))
        .collect();
    format!("{sizes}{}{out}X = {rhs}\n", g.decls)
}
