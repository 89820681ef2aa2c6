//! SPORES' rewrites as a table (its section 4: the loss example, ALS, PNMF, MLR, and the
//! sum-product rules of SystemML in its figure 14): each input, optimised at the seed's
//! sizes, costs no more than the expected form; the chosen plans, optimised again at small
//! sizes with random (sparse) data, agree numerically with direct evaluation of the input,
//! and so does each expected form (a check of the table itself).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::process::Command;

use polyscan_sumproduct::emit::{c_function, c_function_in_workspace, Storage, PRELUDE};
use polyscan_sumproduct::evaluate::{eval_la, eval_plan, Dense, Values};
use polyscan_sumproduct::expr::Func;
use polyscan_sumproduct::show::show;
use polyscan_sumproduct::{cost, optimise, La, Limits, Operand, Shapes, Stop};

fn op(n: &str) -> La {
    La::op(n)
}

struct Case {
    name: &'static str,
    input: La,
    expected: La,
    /// (name, rows, cols, density) at the seed's sizes.
    operands: Vec<(&'static str, u64, u64, f64)>,
}

fn shapes(operands: &[(&str, u64, u64, f64)]) -> Shapes {
    operands
        .iter()
        .map(|&(n, r, c, d)| {
            let nnz = d * r as f64 * c as f64;
            (n.to_string(), Operand::sparse(r, c, nnz))
        })
        .collect()
}

/// The same operands at small sizes: every dimension above 1 becomes 3 to 6 by its size
/// class (dimensions equal at the seed's sizes stay equal).
fn small(operands: &[(&'static str, u64, u64, f64)]) -> Vec<(&'static str, u64, u64, f64)> {
    let mut sizes: Vec<u64> = operands.iter().flat_map(|o| [o.1, o.2]).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let shrink = |s: u64| {
        if s == 1 {
            1
        } else {
            3 + sizes.iter().position(|x| *x == s).unwrap_or(0) as u64 % 4
        }
    };
    operands
        .iter()
        .map(|&(n, r, c, d)| (n, shrink(r), shrink(c), d))
        .collect()
}

/// Random values; operands with density below 1 get zeros in about 60% of their entries.
fn values(operands: &[(&str, u64, u64, f64)], seed: u64) -> Values {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    operands
        .iter()
        .map(|&(n, r, c, d)| {
            let data: Vec<f64> = (0..r * c)
                .map(|_| {
                    let x = next() * 2.0 - 1.0;
                    if d < 1.0 && next() < 0.6 {
                        0.0
                    } else {
                        x
                    }
                })
                .collect();
            let m = Dense {
                rows: r as usize,
                cols: c as usize,
                data,
            };
            (n.to_string(), m)
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let two = || La::num(2);
    vec![
        Case {
            name: "loss sum((X - U V^T)^2)",
            input: op("X").minus(op("U").mm(op("V").t())).pow(2).sum(),
            expected: op("X")
                .pow(2)
                .sum()
                .minus(two().times(op("U").t().mm(op("X")).mm(op("V"))))
                .plus(op("U").t().mm(op("U")).times(op("V").t().mm(op("V")))),
            operands: vec![
                ("X", 1_000_000, 500_000, 1e-4),
                ("U", 1_000_000, 1, 1.0),
                ("V", 500_000, 1, 1.0),
            ],
        },
        Case {
            name: "ALS (U V^T - X) V",
            input: op("U").mm(op("V").t()).minus(op("X")).mm(op("V")),
            expected: op("U")
                .mm(op("V").t().mm(op("V")))
                .minus(op("X").mm(op("V"))),
            operands: vec![
                ("X", 100_000, 50_000, 1e-3),
                ("U", 100_000, 10, 1.0),
                ("V", 50_000, 10, 1.0),
            ],
        },
        Case {
            name: "PNMF sum(W H)",
            input: op("W").mm(op("H")).sum(),
            expected: op("W").col_sums().mm(op("H").row_sums()),
            operands: vec![("W", 100_000, 10, 1.0), ("H", 10, 50_000, 1.0)],
        },
        Case {
            name: "MLR P .* X - P .* rowSums(P) .* X",
            input: op("P")
                .times(op("X"))
                .minus(op("P").times(op("P").row_sums()).times(op("X"))),
            expected: op("P").minus(op("P").pow(2)).times(op("X")),
            operands: vec![("P", 100_000, 1, 1.0), ("X", 100_000, 100, 1.0)],
        },
        Case {
            name: "MLR as SystemML writes it: P .* (1 - P) .* X",
            input: op("P").times(La::num(1).minus(op("P"))).times(op("X")),
            expected: op("P").times(La::num(1).minus(op("P"))).times(op("X")),
            operands: vec![("P", 100_000, 1, 1.0), ("X", 100_000, 100, 1.0)],
        },
        Case {
            name: "sum(X + eps), X sparse (see sum_of_a_broadcast_scalar)",
            input: op("X").plus(op("eps")).sum(),
            expected: op("X").plus(op("eps")).sum(),
            operands: vec![("X", 2000, 300, 1e-3), ("eps", 1, 1, 1.0)],
        },
        Case {
            name: "SumMatrixMult sum(A B)",
            input: op("A").mm(op("B")).sum(),
            expected: op("A").col_sums().t().times(op("B").row_sums()).sum(),
            operands: vec![("A", 2000, 300, 1.0), ("B", 300, 1000, 1.0)],
        },
        Case {
            name: "ColSumsMVMult colSums(X .* y)",
            input: op("X").times(op("y")).col_sums(),
            expected: op("y").t().mm(op("X")),
            operands: vec![("X", 2000, 300, 1.0), ("y", 2000, 1, 1.0)],
        },
        Case {
            name: "RowSumsMVMult rowSums(X .* y)",
            input: op("X").times(op("y")).row_sums(),
            expected: op("X").mm(op("y").t()),
            operands: vec![("X", 2000, 300, 1.0), ("y", 1, 300, 1.0)],
        },
        Case {
            name: "DotProductSum sum(v^2)",
            input: op("v").pow(2).sum(),
            expected: op("v").t().mm(op("v")),
            operands: vec![("v", 5000, 1, 1.0)],
        },
        Case {
            name: "pushdownSumOnAdd sum(A + B)",
            input: op("A").plus(op("B")).sum(),
            expected: op("A").sum().plus(op("B").sum()),
            operands: vec![("A", 2000, 300, 1.0), ("B", 2000, 300, 1e-3)],
        },
        Case {
            name: "pushdownSumBinaryMult sum(lambda .* X)",
            input: op("lambda").times(op("X")).sum(),
            expected: op("lambda").times(op("X").sum()),
            operands: vec![("lambda", 1, 1, 1.0), ("X", 2000, 300, 1.0)],
        },
        Case {
            name: "UnnecessaryAggregates sum(rowSums(X))",
            input: op("X").row_sums().sum(),
            expected: op("X").sum(),
            operands: vec![("X", 2000, 300, 1.0)],
        },
        Case {
            name: "UnaryAggReorgOperation sum(t(X))",
            input: op("X").t().sum(),
            expected: op("X").sum(),
            operands: vec![("X", 2000, 300, 1.0)],
        },
        Case {
            name: "pushdownUnaryAggTransposeOp colSums(t(X))",
            input: op("X").t().col_sums(),
            expected: op("X").row_sums().t(),
            operands: vec![("X", 2000, 300, 1.0)],
        },
        Case {
            name: "UnnecessaryMinus -(-X)",
            input: La::num(-1).times(La::num(-1).times(op("X"))),
            expected: op("X"),
            operands: vec![("X", 2000, 300, 1.0)],
        },
        Case {
            name: "BinaryToUnaryOperation X + X",
            input: op("X").plus(op("X")),
            expected: two().times(op("X")),
            operands: vec![("X", 2000, 300, 1.0)],
        },
        Case {
            name: "DistributiveBinaryOperation X - Y .* X",
            input: op("X").minus(op("Y").times(op("X"))),
            expected: op("X").times(La::num(1).minus(op("Y"))),
            operands: vec![("X", 2000, 300, 1.0), ("Y", 1, 1, 1.0)],
        },
        Case {
            name: "TransposeAggBinBinaryChains t(t(A) t(B) + C)",
            input: op("A").t().mm(op("B").t()).plus(op("C")).t(),
            expected: op("B").mm(op("A")).plus(op("C").t()),
            operands: vec![
                ("A", 300, 200, 1.0),
                ("B", 100, 300, 1.0),
                ("C", 200, 100, 1.0),
            ],
        },
        Case {
            name: "trace(A B) without the product",
            input: op("A").mm(op("B")).trace(),
            expected: op("A").times(op("B").t()).sum(),
            operands: vec![("A", 2000, 300, 1.0), ("B", 300, 2000, 1.0)],
        },
        Case {
            name: "diag(A B) without the product",
            input: op("A").mm(op("B")).diag(),
            expected: op("A").times(op("B").t()).row_sums(),
            operands: vec![("A", 2000, 300, 1.0), ("B", 300, 2000, 1.0)],
        },
        Case {
            name: "sum(X ./ Y) with sparse X",
            input: op("X").divide(op("Y")).sum(),
            expected: op("X").divide(op("Y")).sum(),
            operands: vec![("X", 2000, 300, 1e-2), ("Y", 2000, 300, 1.0)],
        },
        Case {
            name: "sum(exp(X) .* v) factors v out of the rows",
            input: op("X").apply(Func::Exp).times(op("v")).sum(),
            expected: op("X").apply(Func::Exp).row_sums().t().mm(op("v")),
            operands: vec![("X", 2000, 300, 1.0), ("v", 2000, 1, 1.0)],
        },
        Case {
            name: "sqrt keeps sparsity: sum(sqrt(abs(X)) .* (U V^T))",
            input: op("X")
                .apply(Func::Abs)
                .apply(Func::Sqrt)
                .times(op("U").mm(op("V").t()))
                .sum(),
            expected: op("U")
                .t()
                .mm(op("X").apply(Func::Abs).apply(Func::Sqrt))
                .mm(op("V")),
            operands: vec![
                ("X", 100_000, 50_000, 1e-4),
                ("U", 100_000, 1, 1.0),
                ("V", 50_000, 1, 1.0),
            ],
        },
    ]
    .into_iter()
    .chain(nonzero_driven())
    .collect()
}

/// Terms whose sparse factor is under functions that keep zero (`sqrt`, `abs`), or read
/// on its diagonal: their CSR operand's nonzeros drive them (see
/// `zero_keeping_functions_and_diagonals_of_a_sparse_operand_run_over_its_nonzeros`).
fn nonzero_driven() -> Vec<Case> {
    let x = || op("X").apply(Func::Abs).apply(Func::Sqrt);
    vec![
        Case {
            name: "sum(sqrt(abs(X))) with sparse X",
            input: x().sum(),
            expected: x().sum(),
            operands: vec![("X", 2000, 300, 1e-2)],
        },
        Case {
            name: "rowSums(abs(X) .* Y) with sparse X",
            input: op("X").apply(Func::Abs).times(op("Y")).row_sums(),
            expected: op("X").apply(Func::Abs).times(op("Y")).row_sums(),
            operands: vec![("X", 2000, 300, 1e-2), ("Y", 2000, 300, 1.0)],
        },
        Case {
            name: "trace(X) with sparse X",
            input: op("X").trace(),
            expected: op("X").trace(),
            operands: vec![("X", 300, 300, 1e-2)],
        },
        Case {
            name: "trace(sqrt(abs(X))) with sparse X",
            input: x().trace(),
            expected: x().trace(),
            operands: vec![("X", 300, 300, 5e-2)],
        },
    ]
}

/// The plans of [`nonzero_driven`] are CSR kernels alone, whose terms read X only at the
/// nonzero visited, never by a lookup along a row (`ps_csr_at`), which a term driven by
/// the dense box would need. (Their values against direct evaluation are checked with
/// the table's in `generated_c_agrees_with_direct_evaluation`.)
#[test]
fn zero_keeping_functions_and_diagonals_of_a_sparse_operand_run_over_its_nonzeros() {
    for c in nonzero_driven() {
        let ops = small(&c.operands);
        let o = optimise(&c.input, &shapes(&ops), Limits::default()).expect("optimise");
        let storage: BTreeMap<String, Storage> = ops
            .iter()
            .map(|&(n, r, _, d)| {
                let st = if d < 1.0 {
                    Storage::Csr
                } else {
                    Storage::Dense { rows: r }
                };
                (n.to_string(), st)
            })
            .collect();
        let w = c_function_in_workspace(
            "plan",
            &o.plan,
            &o.input.dims,
            &storage,
            (o.input.rows, o.input.cols),
            false,
        )
        .expect("emit");
        // Every term over X's nonzeros: no dense temporary of f(X) in between either.
        assert!(
            !w.kernels.is_empty()
                && w.kernels
                    .iter()
                    .all(|k| k.kernel.is_csr() && k.csr.as_deref() == Some("X")),
            "{}: {:?}\n{}",
            c.name,
            w.kernels,
            w.text
        );
        assert!(
            !w.text.contains("ps_csr_at(op_X"),
            "{}:\n{}",
            c.name,
            w.text
        );
    }
}

#[test]
fn spores_rewrites_reach_the_expected_form_or_better() {
    let mut failures = Vec::new();
    println!("| case | FLOPs as written | FLOPs chosen | expected form | stop |");
    println!("|---|---|---|---|---|");
    for c in cases() {
        let s = shapes(&c.operands);
        let o = optimise(&c.input, &s, Limits::default()).expect("optimise");
        let expected = cost(&c.expected, &s).expect("cost of the expected form");
        println!(
            "| {} | {:.3e} | {:.3e} | {:.3e} | {:?} |",
            c.name, o.before, o.after, expected, o.stop
        );
        println!("    plan: {}", show(&o.plan));
        if o.after > expected * (1.0 + 1e-9) {
            failures.push(format!("{}: {:.4e} > {:.4e}", c.name, o.after, expected));
        }
        assert!(o.after <= o.before, "{}", c.name);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn chosen_plans_agree_with_direct_evaluation() {
    for c in cases() {
        let ops = small(&c.operands);
        let s = shapes(&ops);
        for seed in 1..=3 {
            let v = values(&ops, seed);
            let want = eval_la(&c.input, &v).expect("input");
            let expected = eval_la(&c.expected, &v).expect("expected form");
            assert!(
                want.relative_difference(&expected) < 1e-12,
                "{}: the expected form is wrong",
                c.name
            );
            let o = optimise(&c.input, &s, Limits::default()).expect("optimise");
            let got =
                eval_plan(&o.plan, &o.input.dims, &v, o.input.rows, o.input.cols).expect("plan");
            let d = want.relative_difference(&got);
            assert!(
                d < 1e-12,
                "{} (seed {seed}): {d:e}\n{}",
                c.name,
                show(&o.plan)
            );
        }
    }
}

/// The headline example at the seed's sizes costs about nnz(X) plus a few million, not the
/// 5e11 of the dense outer product, and saturation finishes within its limits.
#[test]
fn headline_loss_avoids_the_dense_product() {
    let c = &cases()[0];
    let s = shapes(&c.operands);
    let nnz = 1e-4 * 1e6 * 5e5;
    let o = optimise(&c.input, &s, Limits::default()).expect("optimise");
    assert!(o.before > 5e11, "{:e}", o.before);
    assert!(
        o.after < 5.0 * nnz + 5e6,
        "{:e}: {}",
        o.after,
        show(&o.plan)
    );
    assert!(matches!(o.stop, Stop::Saturated | Stop::Limit(_)));
}

/// A C array literal.
fn c_array(ty: &str, name: &str, xs: &[String]) -> String {
    let body = if xs.is_empty() {
        "0".to_string()
    } else {
        xs.join(", ")
    };
    format!("static const {ty} {name}[] = {{{body}}};\n")
}

/// Every case's plan at small sizes as C (sparse operands in CSR), compiled, run, and its
/// output compared with direct evaluation of the input.
#[test]
fn generated_c_agrees_with_direct_evaluation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut gemms = 0;
    for (k, c) in cases().iter().enumerate() {
        let ops = small(&c.operands);
        let s = shapes(&ops);
        let v = values(&ops, 7);
        let want = eval_la(&c.input, &v).expect("input");
        let o = optimise(&c.input, &s, Limits::default()).expect("optimise");
        let storage: BTreeMap<String, Storage> = ops
            .iter()
            .map(|&(n, r, _, d)| {
                let st = if d < 1.0 && r > 1 {
                    Storage::Csr
                } else {
                    Storage::Dense { rows: r }
                };
                (n.to_string(), st)
            })
            .collect();
        // Twice: temporaries allocated, and in a workspace with dense products through
        // `ps_plan_gemm` (defined here as a plain triple loop).
        for workspace in [false, true] {
            let (f, work) = if workspace {
                let w = c_function_in_workspace(
                    "plan",
                    &o.plan,
                    &o.input.dims,
                    &storage,
                    (o.input.rows, o.input.cols),
                    true,
                )
                .expect("emit");
                gemms += usize::from(w.gemm);
                let hook = if w.gemm { GEMM_HOOK } else { "" };
                (format!("{hook}{}", w.text), Some(w.work))
            } else {
                let f = c_function(
                    "plan",
                    &o.plan,
                    &o.input.dims,
                    &storage,
                    o.input.rows,
                    o.input.cols,
                )
                .expect("emit");
                (f, None)
            };
            let mut src = String::from(PRELUDE);
            src += "#include <stdio.h>\n";
            src += &f;
            let mut args = Vec::new();
            for (n, st) in &storage {
                let m = &v[n];
                match st {
                    Storage::Dense { .. } => {
                        let xs: Vec<String> = m.data.iter().map(|x| format!("{x:e}")).collect();
                        src += &c_array("double", &format!("op_{n}"), &xs);
                        args.push(format!("op_{n}"));
                    }
                    Storage::Csr => {
                        let (mut rowptr, mut colind, mut val) =
                            (vec!["0".to_string()], vec![], vec![]);
                        for i in 0..m.rows {
                            for j in 0..m.cols {
                                if m.at(i, j) != 0.0 {
                                    colind.push(j.to_string());
                                    val.push(format!("{:e}", m.at(i, j)));
                                }
                            }
                            rowptr.push(colind.len().to_string());
                        }
                        src += &c_array("int64_t", &format!("{n}_rowptr"), &rowptr);
                        src += &c_array("int64_t", &format!("{n}_colind"), &colind);
                        src += &c_array("double", &format!("{n}_val"), &val);
                        args.extend([
                            format!("{n}_rowptr"),
                            format!("{n}_colind"),
                            format!("{n}_val"),
                        ]);
                    }
                }
            }
            let len = want.rows * want.cols;
            write!(
            src,
            "int main(void) {{\n  static double out[{len}];\n{}  if (plan({}, out{})) return 2;\n  for (int k = 0; k < {len}; k++) printf(\"%.17g\\n\", out[k]);\n  return 0;\n}}\n",
            work.map_or(String::new(), |w| format!("  static double work[{w}];\n  for (int k = 0; k < {w}; k++) work[k] = 7.25;\n")),
            args.join(", "),
            if work.is_some() { ", work" } else { "" }
        )
        .expect("format");
            let (cfile, exe) = (
                dir.path().join(format!("c{k}_{workspace}.c")),
                dir.path().join(format!("c{k}_{workspace}")),
            );
            std::fs::write(&cfile, &src).expect("write C");
            let cc = Command::new("cc")
                .args(["-O1", "-Wall", "-Werror", "-o"])
                .arg(&exe)
                .arg(&cfile)
                .arg("-lm")
                .output()
                .expect("run cc");
            assert!(
                cc.status.success(),
                "{}: {}\n{src}",
                c.name,
                String::from_utf8_lossy(&cc.stderr)
            );
            let run = Command::new(&exe).output().expect("run program");
            assert!(run.status.success(), "{}", c.name);
            let got: Vec<f64> = String::from_utf8_lossy(&run.stdout)
                .lines()
                .map(|l| l.parse().expect("a number"))
                .collect();
            let got = Dense {
                rows: want.rows,
                cols: want.cols,
                data: got,
            };
            let d = want.relative_difference(&got);
            assert!(
                d < 1e-12,
                "{} (workspace {workspace}): {d:e}\n{src}",
                c.name
            );
        }
    }
    // The table has plans with dense matrix products, so the hook was exercised.
    assert!(gemms > 0, "no plan called ps_plan_gemm");
}

/// `C += alpha A B` (column-major) for plans emitted with dense products as calls.
const GEMM_HOOK: &str = "static void ps_plan_gemm(int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda, const double *b, int64_t ldb, double *c, int64_t ldc)\n{\n  for (int64_t i = 0; i < m; i++)\n    for (int64_t j = 0; j < n; j++) {\n      double s = 0.0;\n      for (int64_t l = 0; l < k; l++) s += a[i + lda * l] * b[l + ldb * j];\n      c[i + ldc * j] += alpha * s;\n    }\n}\n";

/// `sum(X + eps)` is `sum(X) + eps |i| |j|`: the broadcast ones are summed out by size, so
/// the plan reads X's nonzeros and nothing dense.
#[test]
fn sum_of_a_broadcast_scalar() {
    let ops = [("X", 2000, 300, 1e-3), ("eps", 1, 1, 1.0)];
    let o = optimise(
        &op("X").plus(op("eps")).sum(),
        &shapes(&ops),
        Limits::default(),
    )
    .expect("optimise");
    assert!(o.before > 6e5, "{:e}", o.before);
    assert!(
        o.after < 2.0 * 600.0 + 10.0,
        "{:e}: {}",
        o.after,
        show(&o.plan)
    );
}
