//! An element-wise formula evaluated directly in C, one operation at a time into dense
//! temporaries, as written (a matrix product as a triple loop, a power as repeated
//! products): the reference the emitted program checks each chosen plan against.

use polyscan_sumproduct::expr::Func;
use polyscan_sumproduct::{La, Shapes};

use crate::error::LaError;

struct Naive<'a> {
    shapes: &'a Shapes,
    code: String,
    temps: Vec<String>,
}

/// C statements computing `e` into the dense column-major array `out`; operand `X` is the
/// dense array `op_X`.
pub fn naive_c(e: &La, shapes: &Shapes, out: &str) -> Result<String, LaError> {
    let mut n = Naive {
        shapes,
        code: String::new(),
        temps: Vec::new(),
    };
    let (x, r, c) = n.go(e)?;
    n.code += &format!(
        "    for (int64_t k = 0; k < {}; k++) {out}[k] = {x}[k];\n",
        r * c
    );
    for t in &n.temps {
        n.code += &format!("    free({t});\n");
    }
    Ok(n.code)
}

impl Naive<'_> {
    fn temp(&mut self, rows: u64, cols: u64) -> String {
        let t = format!("ps_n{}", self.temps.len());
        self.code += &format!(
            "    double *{t} = malloc(sizeof(double) * {});\n    if ({t} == NULL) ps_oom();\n",
            (rows * cols).max(1)
        );
        self.temps.push(t.clone());
        t
    }

    /// A loop over the entries of a `rows x cols` result `t`, setting `t[i + rows*j]` to `v`.
    fn each(&mut self, t: &str, rows: u64, cols: u64, v: &str) {
        self.code += &format!(
            "    for (int64_t j = 0; j < {cols}; j++)\n      for (int64_t i = 0; i < {rows}; i++)\n        {t}[i + {rows} * j] = {v};\n"
        );
    }

    /// The array holding `e`'s value, and its shape.
    fn go(&mut self, e: &La) -> Result<(String, u64, u64), LaError> {
        Ok(match e {
            La::Operand(name) => {
                let o = self
                    .shapes
                    .get(name)
                    .ok_or_else(|| LaError::Unsupported(format!("unknown operand `{name}`")))?;
                (format!("op_{name}"), o.rows, o.cols)
            }
            La::Num(c) => {
                let t = self.temp(1, 1);
                self.code += &format!("    {t}[0] = {:e};\n", c.to_f64());
                (t, 1, 1)
            }
            La::MatMul(a, b) => {
                let ((x, m, k), (y, _, n)) = (self.go(a)?, self.go(b)?);
                let t = self.temp(m, n);
                self.code += &format!(
                    "    for (int64_t j = 0; j < {n}; j++)\n      for (int64_t i = 0; i < {m}; i++) {{\n        double s = 0.0;\n        for (int64_t l = 0; l < {k}; l++) s += {x}[i + {m} * l] * {y}[l + {k} * j];\n        {t}[i + {m} * j] = s;\n      }}\n"
                );
                (t, m, n)
            }
            La::Times(a, b) | La::Plus(a, b) => {
                let ((x, xr, xc), (y, yr, yc)) = (self.go(a)?, self.go(b)?);
                let (rows, cols) = (xr.max(yr), xc.max(yc));
                // A dimension of 1 is broadcast.
                let at = |v: &str, r: u64, c: u64| {
                    let i = if r == 1 {
                        "0".to_string()
                    } else {
                        "i".to_string()
                    };
                    let j = if c == 1 {
                        "0".to_string()
                    } else {
                        format!("{r} * j")
                    };
                    format!("{v}[{i} + {j}]")
                };
                let op = if matches!(e, La::Times(..)) { "*" } else { "+" };
                let t = self.temp(rows, cols);
                let v = format!("{} {op} {}", at(&x, xr, xc), at(&y, yr, yc));
                self.each(&t, rows, cols, &v);
                (t, rows, cols)
            }
            La::Power(a, k) => {
                let (x, r, c) = self.go(a)?;
                let t = self.temp(r, c);
                let v = vec![format!("{x}[i + {r} * j]"); (*k).max(1) as usize].join(" * ");
                self.each(&t, r, c, &v);
                (t, r, c)
            }
            La::Apply(f, a) => {
                let (x, r, c) = self.go(a)?;
                let t = self.temp(r, c);
                let arg = format!("{x}[i + {r} * j]");
                let v = match f {
                    Func::Recip => format!("1.0 / {arg}"),
                    f => format!("{}({arg})", f.name()),
                };
                self.each(&t, r, c, &v);
                (t, r, c)
            }
            La::Sum(a) => {
                let (x, r, c) = self.go(a)?;
                let t = self.temp(1, 1);
                self.code += &format!(
                    "    {t}[0] = 0.0;\n    for (int64_t k = 0; k < {}; k++) {t}[0] += {x}[k];\n",
                    r * c
                );
                (t, 1, 1)
            }
            La::RowSums(a) | La::ColSums(a) => {
                let (x, r, c) = self.go(a)?;
                let rows = matches!(e, La::RowSums(_));
                let (tr, tc) = if rows { (r, 1) } else { (1, c) };
                let t = self.temp(tr, tc);
                let slot = if rows { "i" } else { "j" };
                self.code += &format!(
                    "    for (int64_t k = 0; k < {}; k++) {t}[k] = 0.0;\n    for (int64_t j = 0; j < {c}; j++)\n      for (int64_t i = 0; i < {r}; i++) {t}[{slot}] += {x}[i + {r} * j];\n",
                    tr * tc
                );
                (t, tr, tc)
            }
            La::Trace(a) => {
                let (x, r, _) = self.go(a)?;
                let t = self.temp(1, 1);
                self.code += &format!(
                    "    {t}[0] = 0.0;\n    for (int64_t i = 0; i < {r}; i++) {t}[0] += {x}[i + {r} * i];\n"
                );
                (t, 1, 1)
            }
            La::Diag(a) => {
                let (x, r, _) = self.go(a)?;
                let t = self.temp(r, 1);
                self.code +=
                    &format!("    for (int64_t i = 0; i < {r}; i++) {t}[i] = {x}[i + {r} * i];\n");
                (t, r, 1)
            }
            La::Trans(a) => {
                let (x, r, c) = self.go(a)?;
                let t = self.temp(c, r);
                self.each(&t, c, r, &format!("{x}[j + {r} * i]"));
                (t, c, r)
            }
        })
    }
}
