//! C programs for element-wise problems (`polyscan la FILE --emit c` / `--run` when the file
//! has element-wise statements): random operands with their declared sparsity (sparse
//! matrices also in CSR, which the plans read), each statement's chosen plan timed (best of
//! `repeat`), then its formula evaluated directly, and the relative residual of every output
//! checked against the tolerance (exit 1 above it, as the kernel programs do).

use std::collections::{BTreeMap, BTreeSet};

use polyscan_sumproduct::emit::{c_function_scanned, Storage, PRELUDE};

use super::naive::naive_c;
use super::{shapes, Solved};
use crate::ast::Program;
use crate::error::LaError;

/// What the program does besides the plans.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Seed of the random operands.
    pub seed: u64,
    /// Runs of each plan; the best time is printed.
    pub repeat: u32,
    /// Largest relative residual accepted (`-DPS_TOL=...` overrides it).
    pub tolerance: f64,
}

/// The program's C source.
pub fn c_program(p: &Program, sols: &[Solved], o: &Options) -> Result<String, LaError> {
    let shapes = shapes(p);
    let outputs: BTreeSet<usize> = sols.iter().map(|s| s.lhs).collect();
    let fail = |e: polyscan_sumproduct::SumProductError| LaError::Unsupported(e.to_string());
    let mut src = String::from("/* Element-wise program emitted by polyscan la. */\n#include <stdio.h>\n#include <time.h>\n");
    src += PRELUDE;
    src += &format!(
        "#ifndef PS_TOL\n#define PS_TOL {:e}\n#endif\n\
         static void ps_oom(void) {{ fprintf(stderr, \"out of memory\\n\"); exit(3); }}\n\
         static uint64_t ps_state = {}ULL;\n\
         /* SplitMix64, uniform in [0, 1). */\n\
         static double ps_uniform(void) {{\n  uint64_t z = (ps_state += 0x9E3779B97F4A7C15ULL);\n  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;\n  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;\n  return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;\n}}\n\
         static double ps_now(void) {{\n  struct timespec t;\n  clock_gettime(CLOCK_MONOTONIC, &t);\n  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;\n}}\n",
        o.tolerance, o.seed
    );
    let is_csr = |k: usize| {
        let op = &p.operands[k];
        !outputs.contains(&k) && op.density.is_some_and(|d| d < 1.0) && op.rows > 1 && op.cols > 1
    };
    let mut calls = Vec::new();
    let mut scan = crate::program::CatalogueScan::default();
    let mut used: Vec<&str> = Vec::new();
    for (k, s) in sols.iter().enumerate() {
        let mut names = BTreeSet::new();
        super::names(&p.elementwise[k].rhs, &mut names);
        let mut storage = BTreeMap::new();
        let mut args = Vec::new();
        for n in &names {
            let Some(i) = p.operands.iter().position(|op| &op.name == n) else {
                return Err(LaError::Unsupported(format!("unknown operand `{n}`")));
            };
            if is_csr(i) {
                storage.insert(n.clone(), Storage::Csr);
                args.extend(["rowptr", "colind", "val"].map(|s| format!("op_{n}_{s}")));
            } else {
                storage.insert(
                    n.clone(),
                    Storage::Dense {
                        rows: p.operands[i].rows,
                    },
                );
                args.push(format!("op_{n}"));
            }
        }
        let plan = &s.optimised;
        let (text, terms) = c_function_scanned(
            &format!("ps_plan_{k}"),
            &plan.plan,
            &plan.input.dims,
            &storage,
            (plan.input.rows, plan.input.cols),
            &mut scan,
        )
        .map_err(fail)?;
        src += &text;
        for t in terms {
            if !used.contains(&t.kernel.name()) {
                used.push(t.kernel.name());
            }
        }
        calls.push(args);
    }
    src += "int main(void)\n{\n  int ps_bad = 0;\n";
    src += &format!("  printf(\"kernels: {}\\n\");\n", used.join(" "));
    // Operands: random inputs (zeros outside the declared density), zeroed outputs.
    for (k, op) in p.operands.iter().enumerate() {
        if op.kind == crate::ast::Kind::Constant {
            continue;
        }
        let n = &format!("op_{}", op.name);
        let size = (op.rows * op.cols).max(1);
        src += &format!(
            "  double *{n} = calloc({size}, sizeof(double));\n  if ({n} == NULL) ps_oom();\n"
        );
        if outputs.contains(&k) {
            continue;
        }
        let d = op.density.unwrap_or(1.0);
        src += &format!(
            "  for (int64_t k = 0; k < {size}; k++) {{\n    double v = 2.0 * ps_uniform() - 1.0;\n    {n}[k] = ({d:e} >= 1.0 || ps_uniform() < {d:e}) ? v : 0.0;\n  }}\n"
        );
        if is_csr(k) {
            let (r, c) = (op.rows, op.cols);
            src += &format!(
                "  int64_t *{n}_rowptr = calloc({}, sizeof(int64_t)), {n}_nnz = 0;\n  if ({n}_rowptr == NULL) ps_oom();\n  for (int64_t i = 0; i < {r}; i++) {{\n    for (int64_t j = 0; j < {c}; j++) {n}_nnz += {n}[i + {r} * j] != 0.0;\n    {n}_rowptr[i + 1] = {n}_nnz;\n  }}\n  int64_t *{n}_colind = malloc(sizeof(int64_t) * ({n}_nnz + 1));\n  double *{n}_val = malloc(sizeof(double) * ({n}_nnz + 1));\n  if ({n}_colind == NULL || {n}_val == NULL) ps_oom();\n  for (int64_t i = 0, p = 0; i < {r}; i++)\n    for (int64_t j = 0; j < {c}; j++)\n      if ({n}[i + {r} * j] != 0.0) {{ {n}_colind[p] = j; {n}_val[p] = {n}[i + {r} * j]; p++; }}\n  printf(\"operand {}: %lld nonzeros in CSR\\n\", (long long){n}_nnz);\n",
                r + 1,
                op.name
            );
        }
    }
    for (k, s) in sols.iter().enumerate() {
        let op = &p.operands[s.lhs];
        let name = &op.name;
        let n = &format!("op_{name}");
        let size = (op.rows * op.cols).max(1);
        let mut args = calls[k].clone();
        args.push(n.clone());
        src += &format!(
            "  {{\n    double best = 1e300;\n    for (int rep = 0; rep < {}; rep++) {{\n      double t0 = ps_now();\n      if (ps_plan_{k}({})) ps_oom();\n      double t = ps_now() - t0;\n      if (t < best) best = t;\n    }}\n    printf(\"time plan {name}: %.6f s (best of {})\\n\", best);\n    double *ps_ref = malloc(sizeof(double) * {size});\n    if (ps_ref == NULL) ps_oom();\n    double t0 = ps_now();\n",
            o.repeat.max(1),
            args.join(", "),
            o.repeat.max(1)
        );
        src += &naive_c(&p.elementwise[k].rhs, &shapes, "ps_ref")?;
        src += &format!(
            "    printf(\"time naive {name}: %.6f s\\n\", ps_now() - t0);\n    double num = 0.0, den = 0.0;\n    for (int64_t k = 0; k < {size}; k++) {{\n      num += ({n}[k] - ps_ref[k]) * ({n}[k] - ps_ref[k]);\n      den += ps_ref[k] * ps_ref[k];\n    }}\n    double res = den > 0.0 ? sqrt(num / den) : sqrt(num);\n    printf(\"residual {name}: %.3e\\n\", res);\n    if (!(res <= PS_TOL)) ps_bad = 1;\n    free(ps_ref);\n  }}\n"
        );
    }
    src += "  printf(\"result: %s (tolerance %.1e)\\n\", ps_bad ? \"FAILED\" : \"ok\", (double)PS_TOL);\n  return ps_bad;\n}\n";
    Ok(src)
}
