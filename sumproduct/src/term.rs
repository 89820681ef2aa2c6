//! The catalogue kernels of a plan's terms (issue 22): a term `out[attrs] += prod factors`
//! summed over its bound attributes is an element-wise map (EWMAP), a reduction (REDUCE),
//! or, when a CSR operand drives it, a map or reduction over its nonzeros (CSRMAP,
//! CSRREDUCE) or its product with a dense operand (CSRMM). Each kernel's iteration domain
//! is the catalogue's (`polyscan_kernels::catalogue`); a [`Scan`] turns it into a loop nest
//! calling `S(...)` at each point, and the emitter defines `S` as the term's product. This
//! crate alone scans with plain loops ([`Loops`]); `polyscan la` scans the catalogue
//! domains with codegen, so that the plans' terms are catalogue nests like the matrix
//! kernels'.
//!
//! The CSR kernels' domains are one row's: the loop over rows is outside the scanned set
//! and binds the parameters `lo = rowptr[i]` and `hi = rowptr[i + 1]`, which are constants
//! while the row is scanned. A domain over (row, nonzero, column) with lo and hi as
//! parameters would let the scanner treat them as constants of the whole nest (hoisting a
//! test on them out of the row loop, or ordering the nonzero loop outside it), which they
//! are not; a dense domain with the sparse loop substituted afterwards would scan a set
//! other than the one the code runs.

/// A catalogue kernel a term can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TermKernel {
    /// Element-wise map of dense operands: the box `[m, n] -> S[i, j]`.
    EwMap,
    /// Dense reduction: the box `[m, n, k] -> S[i, j, l]`, summed over the indices the
    /// result does not keep.
    Reduce,
    /// Map over one row's nonzeros of a CSR operand: `[lo, hi] -> S[p]`.
    CsrMap,
    /// Reduction over one row's nonzeros: `[lo, hi] -> S[p]`.
    CsrReduce,
    /// One row's nonzeros times a dense index: `[n, lo, hi] -> S[p, j]`.
    CsrMm,
}

impl TermKernel {
    /// The catalogue name.
    pub fn name(self) -> &'static str {
        match self {
            TermKernel::EwMap => "EWMAP",
            TermKernel::Reduce => "REDUCE",
            TermKernel::CsrMap => "CSRMAP",
            TermKernel::CsrReduce => "CSRREDUCE",
            TermKernel::CsrMm => "CSRMM",
        }
    }
    /// The iterators of the catalogue domain's tuple, in tuple order.
    pub fn iterators(self) -> &'static [&'static str] {
        match self {
            TermKernel::EwMap => &["i", "j"],
            TermKernel::Reduce => &["i", "j", "l"],
            TermKernel::CsrMap | TermKernel::CsrReduce => &["p"],
            TermKernel::CsrMm => &["p", "j"],
        }
    }
    /// The parameters of the catalogue domain, in its order.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            TermKernel::EwMap => &["m", "n"],
            TermKernel::Reduce => &["m", "n", "k"],
            TermKernel::CsrMap | TermKernel::CsrReduce => &["lo", "hi"],
            TermKernel::CsrMm => &["n", "lo", "hi"],
        }
    }
    /// Whether it runs over a CSR operand's rows.
    pub fn is_csr(self) -> bool {
        matches!(
            self,
            TermKernel::CsrMap | TermKernel::CsrReduce | TermKernel::CsrMm
        )
    }
}

/// A kernel's domain scanned: C statements calling `S(...)` with the iterators in
/// [`Fragment::iterators`] order, the parameters `int64_t` variables in scope.
#[derive(Debug, Clone)]
pub struct Fragment {
    /// The C statements.
    pub text: String,
    /// The iterators in the order `S` receives them (catalogue names).
    pub iterators: Vec<String>,
    /// The parameters the text reads (catalogue names).
    pub params: Vec<String>,
}

/// Scans a term kernel's domain in a loop order (`order[q]`: the tuple position of loop q,
/// outermost first).
pub trait Scan {
    /// The loop nest of `kernel`'s domain in `order`.
    fn scan(&mut self, kernel: TermKernel, order: &[usize]) -> Result<Fragment, String>;
}

/// Plain loops over each kernel's box or row range, as the catalogue domains state them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Loops;

impl Scan for Loops {
    fn scan(&mut self, kernel: TermKernel, order: &[usize]) -> Result<Fragment, String> {
        let its = kernel.iterators();
        let bounds: Vec<(&str, &str)> = match kernel {
            TermKernel::EwMap => vec![("0", "m"), ("0", "n")],
            TermKernel::Reduce => vec![("0", "m"), ("0", "n"), ("0", "k")],
            TermKernel::CsrMap | TermKernel::CsrReduce => vec![("lo", "hi")],
            TermKernel::CsrMm => vec![("lo", "hi"), ("0", "n")],
        };
        if order.len() != its.len() {
            return Err(format!("bad loop order {order:?} for {}", kernel.name()));
        }
        let mut text = String::new();
        for (depth, &q) in order.iter().enumerate() {
            let (lo, hi) = bounds.get(q).ok_or("loop order out of range")?;
            let it = its[q];
            text += &format!(
                "{}for (int64_t {it} = {lo}; {it} < {hi}; {it}++)\n",
                "  ".repeat(depth)
            );
        }
        let iterators: Vec<String> = order.iter().map(|&q| its[q].to_string()).collect();
        text += &format!("{}S({});\n", "  ".repeat(order.len()), iterators.join(", "));
        Ok(Fragment {
            text,
            iterators,
            params: kernel.params().iter().map(|p| p.to_string()).collect(),
        })
    }
}

/// One term of a plan emitted as a catalogue kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct TermCall {
    /// The kernel.
    pub kernel: TermKernel,
    /// Operations per point: multiplications, functions, and the addition when the term
    /// sums or adds to a term before it.
    pub ops: u64,
    /// Points per unit: the dense box's size, or for a CSR kernel the dense index's extent
    /// (1 for CSRMAP and CSRREDUCE) per nonzero.
    pub points: u64,
    /// The CSR operand driving the term, if any.
    pub csr: Option<String>,
}

impl TermCall {
    /// The kernel's FLOP formula at `nnz` nonzeros of its CSR operand (ignored for the dense
    /// kernels): `t m n` (EWMAP), `t m n k` (REDUCE), `t nnz` (CSRMAP, CSRREDUCE), `t nnz n`
    /// (CSRMM).
    pub fn flops(&self, nnz: f64) -> f64 {
        if self.kernel.is_csr() {
            nnz * self.points as f64 * self.ops as f64
        } else {
            self.points as f64 * self.ops as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_loops_scan_the_stated_bounds_in_order() {
        let f = Loops.scan(TermKernel::CsrMm, &[1, 0]).unwrap();
        assert_eq!(f.iterators, ["j", "p"]);
        assert!(f.text.starts_with(
            "for (int64_t j = 0; j < n; j++)\n  for (int64_t p = lo; p < hi; p++)\n    S(j, p);"
        ));
        assert!(Loops.scan(TermKernel::Reduce, &[0, 1]).is_err());
    }

    #[test]
    fn flop_formulas() {
        let c = TermCall {
            kernel: TermKernel::CsrMm,
            ops: 2,
            points: 10,
            csr: Some("X".into()),
        };
        assert_eq!(c.flops(50.0), 1000.0);
        let d = TermCall {
            kernel: TermKernel::Reduce,
            ops: 3,
            points: 24,
            csr: None,
        };
        assert_eq!(d.flops(7.0), 72.0);
    }
}
