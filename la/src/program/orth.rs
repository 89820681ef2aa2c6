//! The orthogonal factorisation steps as code: LAPACK's DGEQRF, DORMQR, DSYEV and DGESVD
//! (`Blas`), or the C routines of `c/orth.c` (`Generated`, `Nests`: Householder QR and
//! Jacobi methods; there is no blocked kernel and no single-statement nest for them).
//! LAPACK's work arrays and every other scratch array come from the step's scratch (the C
//! API's workspace).

use std::fmt::Write as _;

use super::dim::Dim;
use super::emitter::Emitter;
use super::options::Backend;
use super::view::{View, V};
use crate::error::LaError;
use crate::lower::Orth;

/// LAPACK block size assumed for the work arrays (DGEQRF, DORMQR, DSYEV take `nb` times a
/// dimension as their optimal work size; less only makes them slower).
const NB: u64 = 64;

impl Emitter<'_> {
    /// A plain view of `rows` x `cols` at `ptr` with leading dimension `ld`.
    fn plain_view(ptr: &str, ld: &Dim, rows: &Dim, cols: &Dim) -> V {
        V {
            view: View::Base {
                ptr: ptr.to_string(),
                ld: ld.clone(),
            },
            rows: rows.clone(),
            cols: cols.clone(),
        }
    }

    /// LAPACK's work size: `NB` times `d`, at least 1.
    fn work_size(d: &Dim, times: u64) -> Dim {
        (d * &Dim::lit(times)).max(&Dim::lit(1))
    }

    /// The code of an orthogonal factorisation step with output `out`; how it is realised.
    pub(super) fn orth_step(
        &mut self,
        code: &mut String,
        frees: &mut Vec<String>,
        o: &Orth,
        out: usize,
    ) -> Result<String, LaError> {
        let blas = self.backend == Backend::Blas;
        match o {
            Orth::Geqrf { a, h, tau } => {
                let (m, n) = self.shapes[*h].clone();
                let (ph, pt, pr) = (self.ptr(*h), self.ptr(*tau), self.ptr(out));
                self.copy(code, &self.base(*h), &self.view(*a));
                let how = if blas {
                    let lw = Self::work_size(&n, NB);
                    let w = self.scratch_matrix(code, frees, &lw, &Dim::lit(1));
                    let _ = writeln!(
                        code,
                        "    {{ int ps_m = {m}, ps_n = {n}, ps_lw = {lw}, ps_info = 0;\n      dgeqrf_(&ps_m, &ps_n, {ph}, &ps_m, {pt}, {w}, &ps_lw, &ps_info);\n      if (ps_info != 0) ps_fail(\"dgeqrf\", ps_info); }}"
                    );
                    "LAPACK dgeqrf_"
                } else {
                    let _ = writeln!(code, "    ps_geqr2({m}, {n}, {ph}, {m}, {pt});");
                    "Householder QR ps_geqr2"
                };
                // R: the upper triangle of the top n rows.
                let _ = writeln!(
                    code,
                    "    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++)\n        {pr}[ps_r + ps_c * {n}] = ps_r <= ps_c ? {ph}[ps_r + ps_c * {m}] : 0.0;"
                );
                Ok(how.into())
            }
            Orth::Ormqr { h, tau, b, trans } => {
                let (m, n) = self.shapes[*h].clone();
                let vb = self.view(*b);
                let p = vb.cols.clone();
                let c = self.scratch_matrix(code, frees, &m, &p);
                // With Q^T, b is m x p; with Q, b (n x p) fills the top of a zeroed C.
                let rows = if *trans { &m } else { &n };
                self.copy(code, &Self::plain_view(&c, &m, rows, &p), &vb);
                let (ph, pt) = (self.ptr(*h), self.ptr(*tau));
                let how = if blas {
                    let lw = Self::work_size(&p, NB);
                    let w = self.scratch_matrix(code, frees, &lw, &Dim::lit(1));
                    let _ = writeln!(
                        code,
                        "    {{ int ps_m = {m}, ps_p = {p}, ps_k = {n}, ps_lw = {lw}, ps_info = 0;\n      dormqr_(\"L\", \"{}\", &ps_m, &ps_p, &ps_k, {ph}, &ps_m, {pt}, {c}, &ps_m, {w}, &ps_lw, &ps_info, 1, 1);\n      if (ps_info != 0) ps_fail(\"dormqr\", ps_info); }}",
                        if *trans { "T" } else { "N" }
                    );
                    "LAPACK dormqr_"
                } else {
                    let _ = writeln!(
                        code,
                        "    ps_orm2r({}, {m}, {p}, {n}, {ph}, {m}, {pt}, {c}, {m});",
                        i32::from(*trans)
                    );
                    "Householder reflectors ps_orm2r"
                };
                let out_rows = if *trans { &n } else { &m };
                self.copy(
                    code,
                    &self.base(out),
                    &Self::plain_view(&c, &m, out_rows, &p),
                );
                Ok(how.into())
            }
            Orth::Syev { a, w } => {
                let (n, _) = self.shapes[*w].clone();
                let one = Dim::lit(1);
                let (pz, pw) = (self.ptr(out), self.ptr(*w));
                if blas {
                    self.copy(code, &self.base(out), &self.view(*a));
                    let ev = self.scratch_matrix(code, frees, &n, &one);
                    let lw = Self::work_size(&n, NB + 2);
                    let work = self.scratch_matrix(code, frees, &lw, &one);
                    let _ = writeln!(
                        code,
                        "    {{ int ps_n = {n}, ps_lw = {lw}, ps_info = 0;\n      dsyev_(\"V\", \"L\", &ps_n, {pz}, &ps_n, {ev}, {work}, &ps_lw, &ps_info, 1, 1);\n      if (ps_info != 0) ps_fail(\"dsyev\", ps_info); }}\n    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++)\n        {pw}[ps_r + ps_c * {n}] = ps_r == ps_c ? {ev}[ps_r] : 0.0;"
                    );
                    Ok("LAPACK dsyev_".into())
                } else {
                    let x = self.scratch_matrix(code, frees, &n, &n);
                    self.copy(code, &Self::plain_view(&x, &n, &n, &n), &self.view(*a));
                    let _ = writeln!(
                        code,
                        "    ps_syev_jacobi({n}, {x}, {n}, {pz}, {n}, {pw}, {n});"
                    );
                    Ok("cyclic Jacobi ps_syev_jacobi".into())
                }
            }
            Orth::Gesvd { a, s, v } => {
                let (n, _) = self.shapes[*s].clone();
                let one = Dim::lit(1);
                let (pu, ps, pv) = (self.ptr(out), self.ptr(*s), self.ptr(*v));
                if blas {
                    let x = self.scratch_matrix(code, frees, &n, &n);
                    self.copy(code, &Self::plain_view(&x, &n, &n, &n), &self.view(*a));
                    let sv = self.scratch_matrix(code, frees, &n, &one);
                    let vt = self.scratch_matrix(code, frees, &n, &n);
                    let lw = Self::work_size(&n, NB + 5);
                    let work = self.scratch_matrix(code, frees, &lw, &one);
                    let _ = writeln!(
                        code,
                        "    {{ int ps_n = {n}, ps_lw = {lw}, ps_info = 0;\n      dgesvd_(\"A\", \"A\", &ps_n, &ps_n, {x}, &ps_n, {sv}, {pu}, &ps_n, {vt}, &ps_n, {work}, &ps_lw, &ps_info, 1, 1);\n      if (ps_info != 0) ps_fail(\"dgesvd\", ps_info); }}\n    for (int64_t ps_c = 0; ps_c < {n}; ps_c++)\n      for (int64_t ps_r = 0; ps_r < {n}; ps_r++) {{\n        {ps}[ps_r + ps_c * {n}] = ps_r == ps_c ? {sv}[ps_r] : 0.0;\n        {pv}[ps_r + ps_c * {n}] = {vt}[ps_c + ps_r * {n}];\n      }}"
                    );
                    Ok("LAPACK dgesvd_".into())
                } else {
                    self.copy(code, &self.base(out), &self.view(*a));
                    let _ = writeln!(
                        code,
                        "    if (ps_svd_jacobi({n}, {n}, {pu}, {n}, {ps}, {n}, {pv}, {n}) != 0) ps_fail(\"ps_svd_jacobi\", 1);"
                    );
                    Ok("one-sided Jacobi ps_svd_jacobi".into())
                }
            }
        }
    }
}
