//! A term as a catalogue kernel (`crate::term`): the kernel its shape is, the loop order,
//! the domain's parameters bound to the term's extents (or, for the CSR kernels, to the
//! row's range inside a loop over rows), and `S(...)` defined as the term's product at the
//! point, around the fragment the [`crate::term::Scan`] gives.

use std::fmt::Write as _;

use egg::Symbol;

use super::{unsupported, Emitter, Factor};
use crate::error::SumProductError;
use crate::term::{TermCall, TermKernel};

/// Operations of one factor's entry: one per function applied.
fn applications(f: &Factor) -> u64 {
    match f {
        Factor::Apply(_, g) => 1 + applications(g),
        _ => 0,
    }
}

impl Emitter<'_> {
    /// `out[attrs] += prod factors` summed over `bound` as a catalogue kernel, when its
    /// shape is one (`adds`: whether the addition into `out` counts as an operation);
    /// whether it was one.
    pub(super) fn kernel_term(
        &mut self,
        out: &str,
        attrs: &[Symbol],
        bound: &[Symbol],
        factors: &[Factor],
        adds: bool,
    ) -> Result<bool, SumProductError> {
        let mut all: Vec<Symbol> = attrs.to_vec();
        for a in bound
            .iter()
            .copied()
            .chain(factors.iter().flat_map(|f| f.attrs()))
        {
            if !all.contains(&a) {
                all.push(a);
            }
        }
        let multiplied = factors
            .iter()
            .filter(|f| !matches!(f, Factor::Ones(_)))
            .count() as u64;
        let ops = multiplied.saturating_sub(1)
            + factors.iter().map(applications).sum::<u64>()
            + u64::from(adds);
        let driver = factors.iter().position(|f| f.csr_root().is_some());
        let Some(d) = driver else {
            let kernel = match (bound.is_empty(), all.len()) {
                (true, 0..=2) => TermKernel::EwMap,
                (false, 1..=3) => TermKernel::Reduce,
                _ => return Ok(false),
            };
            self.dense_kernel(kernel, out, attrs, &all, factors, ops)?;
            return Ok(true);
        };
        let Some(Factor::Csr(x, r, c)) = factors[d].csr_root() else {
            return Ok(false);
        };
        let (x, r, c) = (x.clone(), *r, *c);
        let extra: Vec<Symbol> = all.iter().copied().filter(|a| *a != r && *a != c).collect();
        if extra.len() > 1 || (r == c && !extra.is_empty()) {
            return Ok(false);
        }
        // A diagonal read (`trace(X)`, `diag(X)`) is the row's nonzeros whose column is the
        // row: a CSRREDUCE (or CSRMAP into the diagonal) whose point tests the column.
        let kernel = match extra.first() {
            Some(_) => TermKernel::CsrMm,
            None if attrs.contains(&r) && attrs.contains(&c) => TermKernel::CsrMap,
            None => TermKernel::CsrReduce,
        };
        self.csr_kernel(
            kernel,
            out,
            (&x, r, c),
            extra.first().copied(),
            factors,
            d,
            ops,
        )?;
        Ok(true)
    }

    /// EWMAP or REDUCE over the box of `all` (the result's attributes first), padded with
    /// extents of 1 to the domain's dimension.
    fn dense_kernel(
        &mut self,
        kernel: TermKernel,
        out: &str,
        attrs: &[Symbol],
        all: &[Symbol],
        factors: &[Factor],
        ops: u64,
    ) -> Result<(), SumProductError> {
        let dims = kernel.iterators().len();
        let slots: Vec<Option<Symbol>> = (0..dims).map(|q| all.get(q).copied()).collect();
        let extent = |s: &Option<Symbol>| s.map_or(1, |a| self.dims.get(&a).copied().unwrap_or(1));
        // Column-major arrays: the attribute that is the first (unit-stride) index of the
        // most arrays, the result's counted twice, runs innermost; padding outermost.
        let score = |s: &Option<Symbol>| -> i64 {
            let Some(a) = s else { return -1 };
            let mut n = i64::from(attrs.first() == Some(a)) * 2;
            for f in factors {
                if let Factor::Array(_, fa) = f {
                    n += i64::from(fa.first() == Some(a));
                }
            }
            n
        };
        let mut order: Vec<usize> = (0..dims).collect();
        order.sort_by_key(|&q| score(&slots[q]));
        let params: Vec<(String, String)> = kernel
            .params()
            .iter()
            .zip(&slots)
            .map(|(p, s)| (p.to_string(), extent(s).to_string()))
            .collect();
        let points = slots.iter().map(extent).product();
        let body = self.point(out, factors, None);
        let binds: Vec<(usize, String)> = slots
            .iter()
            .enumerate()
            .filter_map(|(q, s)| s.map(|a| (q, format!("a_{a}"))))
            .collect();
        let what = format!("{} {out}", kernel.name());
        let text = self.kernel_block(kernel, &order, &params, &binds, &body, &what, 1)?;
        self.body += &text;
        self.calls.push(TermCall {
            kernel,
            ops,
            points,
            csr: None,
        });
        Ok(())
    }

    /// CSRMAP, CSRREDUCE or CSRMM: a loop over the rows of CSR operand `x` (`r`, `c`: its
    /// row and column attributes), each row's range scanned with the dense index `extra`.
    #[allow(clippy::too_many_arguments)]
    fn csr_kernel(
        &mut self,
        kernel: TermKernel,
        out: &str,
        (x, r, c): (&str, Symbol, Symbol),
        extra: Option<Symbol>,
        factors: &[Factor],
        driver: usize,
        ops: u64,
    ) -> Result<(), SumProductError> {
        let rows = self.dims.get(&r).copied().unwrap_or(1);
        let n = extra.map_or(1, |e| self.dims.get(&e).copied().unwrap_or(1));
        let mut params = vec![
            ("lo".to_string(), format!("{x}_rowptr[a_{r}]")),
            ("hi".to_string(), format!("{x}_rowptr[a_{r} + 1]")),
        ];
        if extra.is_some() {
            params.push(("n".to_string(), n.to_string()));
        }
        // The nonzero innermost: the row's entries accumulate into one result entry.
        let order: Vec<usize> = if extra.is_some() { vec![1, 0] } else { vec![0] };
        let diagonal = r == c;
        let mut binds = vec![(
            0,
            if diagonal {
                format!("ps_col = {x}_colind")
            } else {
                format!("a_{c} = {x}_colind")
            },
        )];
        if let Some(e) = extra {
            binds.push((1, format!("a_{e}")));
        }
        let mut body = self.point(out, factors, Some((driver, format!("{x}_val"))));
        if diagonal {
            body = format!("if (ps_col == a_{r}) {{ {body} }}");
        }
        let what = format!("{} {out} over the nonzeros of {x}", kernel.name());
        let mut text = format!("  for (int64_t a_{r} = 0; a_{r} < {rows}; a_{r}++) {{\n");
        text += &self.kernel_block(kernel, &order, &params, &binds, &body, &what, 2)?;
        text += "  }\n";
        self.body += &text;
        self.calls.push(TermCall {
            kernel,
            ops,
            points: n,
            csr: Some(x.strip_prefix("op_").unwrap_or(x).to_string()),
        });
        Ok(())
    }

    /// `out += prod factors` at a point; the driving CSR factor (if any) read as
    /// `VAL[ps_s0]`, the nonzero's position.
    fn point(&self, out: &str, factors: &[Factor], driver: Option<(usize, String)>) -> String {
        let mut product = Vec::new();
        // The driving factor is the CSR operand or zero-keeping functions of it: its
        // entry, and any other factor's entry of the same operand, is the nonzero's.
        let drives = driver
            .as_ref()
            .and_then(|(d, val)| factors[*d].csr_root().map(|root| (root, val.as_str())));
        for f in factors {
            if !matches!(f, Factor::Ones(_)) {
                product.push(self.entry(f, drives));
            }
        }
        if product.is_empty() {
            product.push("1.0".into());
        }
        format!("{out} += {};", product.join(" * "))
    }

    /// A factor's entry at the point: where it is the driving CSR operand at the same
    /// indices (`X .* X`, `exp(X)` beside X) it is the nonzero being visited, read from
    /// `VAL[ps_s0]` instead of looked up along the row.
    fn entry(&self, f: &Factor, drives: Option<(&Factor, &str)>) -> String {
        match (f, drives) {
            (Factor::Csr(x, i, j), Some((Factor::Csr(y, r, c), val)))
                if x == y && i == r && j == c =>
            {
                format!("{val}[ps_s0]")
            }
            (Factor::Apply(crate::expr::Func::Recip, g), _) => {
                format!("(1.0 / {})", self.entry(g, drives))
            }
            (Factor::Apply(func, g), _) => format!("{}({})", func.name(), self.entry(g, drives)),
            _ => self.factor_c(f),
        }
    }

    /// The block binding the parameters and defining `S` around the scanned domain:
    /// `binds[q]` is `a_X` (the attribute at tuple position q is the iterator) or `a_X =
    /// ARRAY` (it is `ARRAY[iterator]`).
    #[allow(clippy::too_many_arguments)]
    fn kernel_block(
        &mut self,
        kernel: TermKernel,
        order: &[usize],
        params: &[(String, String)],
        binds: &[(usize, String)],
        body: &str,
        what: &str,
        depth: usize,
    ) -> Result<String, SumProductError> {
        let fragment = self
            .scan
            .scan(kernel, order)
            .map_err(|e| unsupported(&format!("the {} nest: {e}", kernel.name())))?;
        let ind = "  ".repeat(depth);
        let its = kernel.iterators();
        let mut text = format!("{ind}{{ /* {what} */\n");
        for p in &fragment.params {
            let v = params
                .iter()
                .find(|(n, _)| n == p)
                .map(|(_, v)| v)
                .ok_or_else(|| unsupported(&format!("{}: no parameter {p}", kernel.name())))?;
            let _ = writeln!(text, "{ind}  const int64_t {p} = {v};");
        }
        // `S`'s arguments follow the fragment's iterator order; each is bound to the
        // attribute of its catalogue tuple position.
        let mut args = Vec::new();
        let mut decls = String::new();
        for (k, it) in fragment.iterators.iter().enumerate() {
            let q = its
                .iter()
                .position(|n| n == it)
                .ok_or_else(|| unsupported(&format!("{}: iterator {it}", kernel.name())))?;
            let arg = if q == 0 && kernel.is_csr() {
                "ps_s0".to_string()
            } else {
                format!("ps_a{k}")
            };
            if let Some((_, b)) = binds.iter().find(|(p, _)| *p == q) {
                match b.split_once(" = ") {
                    Some((a, array)) => {
                        let _ = write!(decls, " const int64_t {a} = {array}[{arg}]; (void){a};");
                    }
                    None => {
                        let _ = write!(decls, " const int64_t {b} = ({arg}); (void){b};");
                    }
                }
            }
            args.push(arg);
        }
        let _ = writeln!(
            text,
            "#define S({}) do {{{decls} {body} }} while (0)",
            args.join(", ")
        );
        for line in fragment.text.lines() {
            let _ = writeln!(text, "{ind}  {line}");
        }
        text += "#undef S\n";
        let _ = writeln!(text, "{ind}}}");
        Ok(text)
    }
}
