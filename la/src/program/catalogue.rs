//! Catalogue nests: a kernel's catalogue domain scanned by codegen in a loop order for
//! column-major storage, and its body rewritten to accessor macros; the sum-product plans'
//! term kernels' domains scanned the same way (`CatalogueScan`).

use std::collections::HashMap;
use std::fmt::Write as _;

use polyscan_sumproduct::term::{Fragment, Scan, TermKernel};

use super::view::V;
use crate::error::LaError;
use crate::kernels::Kernel;
use polyscan_kernels::subscript;

/// The catalogue domain of `kernel` scanned by codegen: the C fragment (statement macro
/// `S(iterators)`, parameters in scope), iterator and parameter names.
#[derive(Debug, Clone)]
pub(super) struct Nest {
    pub(super) fragment: String,
    pub(super) iterators: Vec<String>,
    pub(super) params: Vec<String>,
}

pub(super) fn catalogue_nest(kernel: Kernel) -> Result<Nest, LaError> {
    scanned_nest(kernel, &loop_order(kernel))
}

/// The catalogue domain of `kernel` scanned by codegen with its tuple positions in `order`
/// (outermost first).
fn scanned_nest(kernel: Kernel, order: &[usize]) -> Result<Nest, LaError> {
    let spec = kernel
        .spec()
        .ok_or_else(|| LaError::Unsupported(format!("{kernel} has no catalogue entry")))?;
    let fail = |m: String| LaError::Unsupported(format!("{} nest: {m}", spec.name));
    let (text, iterators) =
        polyscan_kernels::nest::permute_domain(spec.domain, order).map_err(fail)?;
    let problem = codegen::input::parse_problem(&text).map_err(|e| fail(e.message))?;
    let opts = codegen::GenOptions {
        linear: true,
        ..codegen::GenOptions::default()
    };
    let stats = cad::LiftStats::default();
    let g = codegen::generate(&problem, &opts, &stats).map_err(|e| fail(e.to_string()))?;
    let emitter = g.emitter();
    let fragment = emitter
        .fragment(&g.nodes)
        .map_err(|e| fail(e.to_string()))?;
    Ok(Nest {
        fragment,
        iterators,
        params: problem.params.clone(),
    })
}

/// The catalogue kernel of a sum-product plan's term kernel.
pub(crate) fn term_kernel(k: TermKernel) -> Kernel {
    match k {
        TermKernel::EwMap => Kernel::EwMap,
        TermKernel::Reduce => Kernel::Reduce,
        TermKernel::CsrMap => Kernel::CsrMap,
        TermKernel::CsrReduce => Kernel::CsrReduce,
        TermKernel::CsrMm => Kernel::CsrMm,
    }
}

/// Scans the sum-product plans' term kernels (EWMAP, REDUCE, the CSR kernels) from their
/// catalogue domains with codegen, as the matrix kernels' nests are; each domain and loop
/// order once per program.
#[derive(Default)]
pub(crate) struct CatalogueScan {
    nests: HashMap<(TermKernel, Vec<usize>), Nest>,
}

impl Scan for CatalogueScan {
    fn scan(&mut self, kernel: TermKernel, order: &[usize]) -> Result<Fragment, String> {
        let key = (kernel, order.to_vec());
        if !self.nests.contains_key(&key) {
            let nest = scanned_nest(term_kernel(kernel), order).map_err(|e| e.to_string())?;
            self.nests.insert(key.clone(), nest);
        }
        let nest = &self.nests[&key];
        Ok(Fragment {
            text: nest.fragment.clone(),
            iterators: nest.iterators.clone(),
            params: nest.params.clone(),
        })
    }
}

/// Loop order (catalogue tuple positions, outermost first) for column-major storage: the
/// row index innermost where the dependences allow it. Every order here is legal for the
/// catalogue body: reductions (GEMM, SYMM, SYRK, TRMM, LAUUM, the matrix-vector kernels)
/// in any order; the solves and factorisations column by column, right-looking (TRSM,
/// TRSV, TRTRI: an unknown is divided by its diagonal, at the first point of its step,
/// before the rows below use it; POTRF left-looking per column; GETRF: multipliers of
/// step k at j = k before the updates j > k, and the pivot before both).
fn loop_order(kernel: Kernel) -> Vec<usize> {
    match kernel {
        Kernel::Gemm | Kernel::Symm | Kernel::Trmm | Kernel::Trsm => vec![1, 2, 0],
        Kernel::Syrk | Kernel::Syr2k | Kernel::Lauum => vec![1, 0, 2],
        Kernel::Potrf | Kernel::Getrf | Kernel::Trtri => vec![0, 2, 1],
        Kernel::Getri => vec![0, 1, 2],
        Kernel::Dot => vec![0],
        _ => vec![1, 0],
    }
}

/// The catalogue body with `X[e1][e2]` as `PS_X(e1, e2)`, `x[e]` as `PS_x(e)` and the
/// bare names of `scalars` replaced.
pub(super) fn rewrite_body(body: &str, scalars: &[(&str, String)]) -> String {
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts = c.is_ascii_alphabetic()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_'));
        if !starts {
            out.push(c);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
            j += 1;
        }
        let name: String = chars[i..j].iter().collect();
        // A number's exponent (1.0e5) is not a name.
        let in_number = i > 0 && (chars[i - 1].is_ascii_digit() || chars[i - 1] == '.');
        if in_number {
            out.push_str(&name);
            i = j;
            continue;
        }
        if let Some((e1, after1)) = subscript(&chars, j) {
            if let Some((e2, after2)) = subscript(&chars, after1) {
                let _ = write!(
                    out,
                    "PS_{name}({}, {})",
                    rewrite_body(&e1, scalars),
                    rewrite_body(&e2, scalars)
                );
                i = after2;
            } else {
                let _ = write!(out, "PS_{name}({})", rewrite_body(&e1, scalars));
                i = after1;
            }
            continue;
        }
        match scalars.iter().find(|(n, _)| *n == name) {
            Some((_, r)) => {
                let _ = write!(out, "({r})");
            }
            None => out.push_str(&name),
        }
        i = j;
    }
    out
}

/// How a catalogue array name is bound in a nest.
pub(super) enum Acc {
    Mat(V),
    Vec(V),
    /// An `int64_t` array.
    Ints(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sum-product emitter binds the term kernels' parameters and iterators by the
    /// catalogue's names: they must agree.
    #[test]
    fn term_kernels_match_their_catalogue_domains() {
        for k in [
            TermKernel::EwMap,
            TermKernel::Reduce,
            TermKernel::CsrMap,
            TermKernel::CsrReduce,
            TermKernel::CsrMm,
        ] {
            let spec = term_kernel(k).spec().unwrap();
            assert_eq!(spec.name, k.name());
            let tuple = format!("S[{}]", k.iterators().join(", "));
            assert!(spec.domain.contains(&tuple), "{}", spec.domain);
            let params = format!("[{}] ->", k.params().join(", "));
            assert!(spec.domain.starts_with(&params), "{}", spec.domain);
            let order: Vec<usize> = (0..k.iterators().len()).rev().collect();
            let f = CatalogueScan::default().scan(k, &order).unwrap();
            let reversed: Vec<&str> = k.iterators().iter().rev().copied().collect();
            assert_eq!(f.iterators, reversed);
            assert!(f.text.contains("S("), "{}", f.text);
        }
    }

    #[test]
    fn bodies_become_accessor_macros() {
        let b = rewrite_body(
            "X[i][j] = B[p[i]][j] + s * 1.0e5",
            &[("s", "ps_v[3][0]".to_string())],
        );
        assert_eq!(b, "PS_X(i, j) = PS_B(PS_p(i), j) + (ps_v[3][0]) * 1.0e5");
    }
}
