//! Pseudo-remainders, the subresultant PRS, principal subresultant coefficients,
//! resultants and discriminants, all with respect to a chosen variable.
//!
//! Resultants use the subresultant algorithm (Collins, Brown-Traub; Cohen's "A Course in
//! Computational Algebraic Number Theory", Algorithm 3.3.7): every division in it is exact,
//! so coefficients grow only as much as the determinant formula says. Principal
//! subresultant coefficients come straight from their determinant definition, computed
//! fraction-free (Bareiss), which makes them an independent check on the PRS.

use crate::coeff::Coeff;
use crate::modres::{modular_discriminant, modular_resultant, Grid, ModFail};
use crate::mono::Mono;
use crate::poly::Poly;

/// Dense coefficient list in one variable, index = degree, no trailing zeros.
type Dense<C> = Vec<Poly<C>>;

fn trim<C: Coeff>(a: &mut Dense<C>) {
    while a.last().is_some_and(Poly::is_zero) {
        a.pop();
    }
}

/// Pseudo-remainder on dense lists: `lc(b)^(deg a - deg b + 1) * a mod b` (`a` itself when
/// `deg a < deg b`).
fn prem_dense<C: Coeff>(a: &Dense<C>, b: &Dense<C>) -> Dense<C> {
    prem_dense_until(a, b, &|| false).expect("never stopped")
}

/// [`prem_dense`], or `None` as soon as `stop()` says so (asked before every coefficient
/// product: one step of a CAD's resultant can take seconds).
fn prem_dense_until<C: Coeff>(
    a: &Dense<C>,
    b: &Dense<C>,
    stop: &dyn Fn() -> bool,
) -> Option<Dense<C>> {
    let mut a = a.clone();
    if b.is_empty() {
        return Some(a);
    }
    if a.len() < b.len() {
        return Some(a);
    }
    let db = b.len() - 1;
    let lcb = &b[db];
    let mut e = (a.len() - b.len() + 1) as u32;
    while !a.is_empty() && a.len() >= b.len() {
        let da = a.len() - 1;
        let lca = a[da].clone();
        // `stop` is asked per coefficient product too: with a CAD's resultants one product
        // of two coefficients can take a tenth of a second.
        for c in a.iter_mut().take(da) {
            if stop() {
                return None;
            }
            *c = c.mul(lcb);
        }
        for (j, bj) in b.iter().take(db).enumerate() {
            if stop() {
                return None;
            }
            let k = j + da - db;
            a[k] = a[k].sub(&lca.mul(bj));
        }
        a.pop();
        trim(&mut a);
        e -= 1;
    }
    if e > 0 {
        let f = lcb.pow(e);
        for c in a.iter_mut() {
            *c = c.mul(&f);
        }
    }
    Some(a)
}

/// `(a1, a0)` when `p = a1 var + a0` with integers `a1 != 0` and `a0`.
fn linear_integer<C: Coeff>(p: &Poly<C>, var: usize) -> Option<(C, C)> {
    let is_var = |m: &Mono| m.len() == var + 1 && m.exp(var) == 1 && m.total_degree() == 1;
    match p.terms() {
        [(m, a1)] if is_var(m) => Some((a1.clone(), C::zero())),
        [(m, a1), (one, a0)] if is_var(m) && one.is_one() => Some((a1.clone(), a0.clone())),
        _ => None,
    }
}

/// `Res(a1 var + a0, g) = sum_i g_i (-a0)^i a1^(k-i)` (`k = deg_var g`, `g_i` the
/// coefficients of `g` in `var`), term by term: the same sum as the Horner scheme of
/// [`Poly::resultant`], with integer powers.
fn res_linear_integer<C: Coeff>(a1: &C, a0: &C, g: &Poly<C>, var: usize) -> Poly<C> {
    let k = g.degree(var) as usize;
    let neg_a0 = a0.neg();
    let mut pa0 = Vec::with_capacity(k + 1);
    let mut pa1 = Vec::with_capacity(k + 1);
    pa0.push(C::one());
    pa1.push(C::one());
    for i in 1..=k {
        pa0.push(pa0[i - 1].mul(&neg_a0));
        pa1.push(pa1[i - 1].mul(a1));
    }
    Poly::from_terms(
        g.terms()
            .iter()
            .map(|(m, c)| {
                let e = m.exp(var) as usize;
                let mut rest = m.clone();
                rest.set(var, 0);
                (rest, c.mul(&pa0[e]).mul(&pa1[k - e]))
            })
            .collect(),
    )
}

fn exact<C: Coeff>(a: &Poly<C>, d: &Poly<C>) -> Poly<C> {
    // Invariant of the subresultant algorithm: these divisions are exact (Collins 1967).
    a.div_exact(d)
        .expect("subresultant PRS: a division the theory makes exact was not")
}

/// The subresultant PRS loop shared by resultant, gcd and the PRS listing: calls `step`
/// with each new remainder (after the exact division) and stops when it returns false,
/// the remainder is zero, or it is constant in the variable.
/// Returns the final (a, b, h, sign) state.
struct Prs<C: Coeff> {
    a: Dense<C>,
    b: Dense<C>,
    g: Poly<C>,
    h: Poly<C>,
    /// (-1)^(sum of deg a * deg b over steps with both odd), for the resultant.
    sign: i32,
}

impl<C: Coeff> Prs<C> {
    /// Requires deg a >= deg b >= 0 and b != 0.
    fn new(a: Dense<C>, b: Dense<C>) -> Self {
        Prs {
            a,
            b,
            g: Poly::one(),
            h: Poly::one(),
            sign: 1,
        }
    }

    /// One step; returns the new remainder (already divided), which may be zero, or
    /// `None` when `stop()` interrupted it (the state is then unchanged).
    fn step(&mut self, stop: &dyn Fn() -> bool) -> Option<&Dense<C>> {
        let (da, db) = (self.a.len() - 1, self.b.len() - 1);
        let delta = (da - db) as u32;
        let r = prem_dense_until(&self.a, &self.b, stop)?;
        if da % 2 == 1 && db % 2 == 1 {
            self.sign = -self.sign;
        }
        let divisor = self.g.mul(&self.h.pow(delta));
        let mut divided: Dense<C> = Vec::with_capacity(r.len());
        for c in &r {
            // Each exact division of a large coefficient can take as long as a step.
            if stop() {
                return None;
            }
            divided.push(exact(c, &divisor));
        }
        let r = divided;
        self.a = std::mem::replace(&mut self.b, r);
        self.g = self.a.last().cloned().unwrap_or_else(Poly::zero);
        self.h = match delta {
            0 => self.h.clone(),
            1 => self.g.clone(),
            _ => exact(&self.g.pow(delta), &self.h.pow(delta - 1)),
        };
        Some(&self.b)
    }
}

impl<C: Coeff> Poly<C> {
    /// Pseudo-remainder of `self` by `g` in `var`: `lc(g)^(deg self - deg g + 1) * self`
    /// reduced modulo `g`.
    pub fn prem(&self, g: &Poly<C>, var: usize) -> Poly<C> {
        Poly::from_coeffs(var, &prem_dense(&self.coeffs(var), &g.coeffs(var)))
    }

    /// The subresultant polynomial remainder sequence of `self` and `g` in `var`:
    /// `[f, g, S_2, ...]` with `deg f >= deg g` (the arguments are swapped if needed), ending
    /// at the last non-zero member. Each `S_i` equals, up to sign, the subresultant of index
    /// `deg S_(i-1) - 1`; the last one is an associate of `gcd(f, g)` times a factor free of
    /// `var`.
    pub fn subresultant_prs(&self, g: &Poly<C>, var: usize) -> Vec<Poly<C>> {
        let (mut a, mut b) = (self.coeffs(var), g.coeffs(var));
        if a.len() < b.len() {
            std::mem::swap(&mut a, &mut b);
        }
        let mut out = vec![Poly::from_coeffs(var, &a), Poly::from_coeffs(var, &b)];
        if b.is_empty() {
            out.pop();
            return out;
        }
        if b.len() == 1 {
            return out;
        }
        let mut prs = Prs::new(a, b);
        loop {
            let r = prs.step(&|| false).expect("never stopped");
            if r.is_empty() {
                return out;
            }
            out.push(Poly::from_coeffs(var, r));
            if r.len() == 1 {
                return out;
            }
        }
    }

    /// The last non-zero member of [`Poly::subresultant_prs`] (an associate of the gcd
    /// times a factor free of `var`), or `None` as soon as `stop()` says so (asked per
    /// coefficient product and division of each step).
    pub(crate) fn prs_last_until(
        &self,
        g: &Poly<C>,
        var: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Poly<C>> {
        let (mut a, mut b) = (self.coeffs(var), g.coeffs(var));
        if a.len() < b.len() {
            std::mem::swap(&mut a, &mut b);
        }
        if b.is_empty() {
            return Some(Poly::from_coeffs(var, &a));
        }
        if b.len() == 1 {
            return Some(Poly::from_coeffs(var, &b));
        }
        let mut prs = Prs::new(a, b);
        loop {
            let last = Poly::from_coeffs(var, &prs.b);
            let r = prs.step(stop)?;
            if r.is_empty() {
                return Some(last);
            }
            if r.len() == 1 {
                return Some(Poly::from_coeffs(var, r));
            }
        }
    }

    /// The resultant of `self` and `g` with respect to `var` (the determinant of their
    /// Sylvester matrix, `f` rows first). Zero exactly when the two share a factor of
    /// positive degree in `var`, or both leading coefficients vanish.
    pub fn resultant(&self, g: &Poly<C>, var: usize) -> Poly<C> {
        self.resultant_until(g, var, &|| false)
            .expect("never stopped")
    }

    /// [`Poly::resultant`], or `None` as soon as `stop()` says so (asked between primes
    /// and evaluation points, and inside the fallback's remainder sequence), so that a
    /// caller with a deadline is not held for the whole of a large resultant.
    ///
    /// Linear and quadratic shapes are expanded directly; everything else goes by the
    /// modular method ([`Poly::resultant_modular`]), and the subresultant PRS
    /// ([`Poly::resultant_prs`]) only beyond its limits.
    pub fn resultant_until(
        &self,
        g: &Poly<C>,
        var: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Poly<C>> {
        if let Some(r) = self.resultant_shortcut(g, var) {
            return Some(r);
        }
        match modular_resultant(self, g, var, Grid::DenseOnly, stop) {
            Ok(r) => Some(r),
            Err(ModFail::Stopped) => None,
            Err(ModFail::TooLarge) => self.resultant_prs_until(g, var, stop),
        }
    }

    /// The resultant by the subresultant PRS over Z alone (no modular method, no
    /// shortcuts beyond constants): the oracle of the modular method's tests.
    pub fn resultant_prs(&self, g: &Poly<C>, var: usize) -> Poly<C> {
        self.resultant_prs_until(g, var, &|| false)
            .expect("never stopped")
    }

    /// The resultant by the modular method alone ([`Poly::resultant_until`] tries it
    /// after its shortcuts): word primes, evaluation and interpolation in the other
    /// variables, Chinese remaindering up to a Hadamard-type bound. `None` when the
    /// problem is beyond its limits (more than 1000 primes or 2^22 evaluation points per
    /// prime).
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::from_names(["x", "y"]);
    /// let f = Poly::parse("x^2 + y^2 - 4", &mut v).unwrap();
    /// let g = Poly::parse("x*y^3 - 1", &mut v).unwrap();
    /// assert_eq!(f.resultant_modular(&g, 1), Some(f.resultant_prs(&g, 1)));
    /// ```
    pub fn resultant_modular(&self, g: &Poly<C>, var: usize) -> Option<Poly<C>> {
        if let Some(r) = constant_cases(self, g, var) {
            return Some(r);
        }
        modular_resultant(self, g, var, Grid::Any, &|| false).ok()
    }

    /// The direct expansions: zero and constant arguments, a factor of degree 1 in `var`,
    /// two quadratics; `None` for everything else.
    fn resultant_shortcut(&self, g: &Poly<C>, var: usize) -> Option<Poly<C>> {
        if self.is_zero() || g.is_zero() {
            return Some(Poly::zero());
        }
        // A bound like `y - 10` (integer coefficients, linear in var): the sum below
        // straight from the other polynomial's terms, without coefficient lists.
        if let Some((a1, a0)) = linear_integer(self, var) {
            return Some(res_linear_integer(&a1, &a0, g, var));
        }
        if let Some((a1, a0)) = linear_integer(g, var) {
            let r = res_linear_integer(&a1, &a0, self, var);
            // Res(f, g) = (-1)^(deg f * deg g) Res(g, f), deg g = 1.
            return Some(if self.degree(var) % 2 == 1 {
                r.neg()
            } else {
                r
            });
        }
        let (a, b) = (self.coeffs(var), g.coeffs(var));
        let (m, n) = (a.len() - 1, b.len() - 1);
        if n == 0 {
            return Some(b[0].pow(m as u32));
        }
        if m == 0 {
            return Some(a[0].pow(n as u32));
        }
        // A factor of degree 1 (bounds like `y - 10` meet every other constraint in CAD
        // projection): Res(a1 y + a0, g) = sum b_i (-a0)^i a1^(n-i), one Horner pass
        // instead of a remainder sequence; Res(g, f) = (-1)^(n m) Res(f, g).
        if m == 1 || n == 1 {
            let (f, g, swapped) = if m == 1 {
                (&a, &b, false)
            } else {
                (&b, &a, true)
            };
            let k = g.len() - 1;
            let neg_a0 = f[0].neg();
            // Homogeneous Horner: after the step for i, acc = sum_{j>=i} b_j (-a0)^(j-i) a1^(k-j).
            let mut acc = g[k].clone();
            let mut a1_pow = f[1].clone();
            for i in (0..k).rev() {
                acc = acc.mul(&neg_a0).add(&g[i].mul(&a1_pow));
                if i > 0 {
                    a1_pow = a1_pow.mul(&f[1]);
                }
            }
            return Some(if swapped && k % 2 == 1 {
                acc.neg()
            } else {
                acc
            });
        }
        if m == 2 && n == 2 {
            // Two quadratics (circles and parabolas meet in CAD projection): the Sylvester
            // determinant expands to (a2 b0 - a0 b2)^2 - (a2 b1 - a1 b2)(a1 b0 - a0 b1)
            // (the Bezout form), with no remainder sequence and no divisions.
            let cross = |i: usize, j: usize| a[i].mul(&b[j]).sub(&a[j].mul(&b[i]));
            let (c20, c21, c10) = (cross(2, 0), cross(2, 1), cross(1, 0));
            return Some(c20.mul(&c20).sub(&c21.mul(&c10)));
        }
        None
    }

    /// [`Poly::resultant_prs`], or `None` as soon as `stop()` says so (asked between the
    /// steps of the remainder sequence and inside them).
    pub fn resultant_prs_until(
        &self,
        g: &Poly<C>,
        var: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Poly<C>> {
        if let Some(r) = constant_cases(self, g, var) {
            return Some(r);
        }
        let (mut a, mut b) = (self.coeffs(var), g.coeffs(var));
        let (m, n) = (a.len() - 1, b.len() - 1);
        let mut sign = 1;
        if m < n {
            std::mem::swap(&mut a, &mut b);
            if m % 2 == 1 && n % 2 == 1 {
                sign = -1;
            }
        }
        let mut prs = Prs::new(a, b);
        loop {
            let r = prs.step(stop)?;
            if r.is_empty() {
                return Some(Poly::zero());
            }
            if r.len() == 1 {
                break;
            }
        }
        let da = (prs.a.len() - 1) as u32;
        let lb = &prs.b[0];
        let h = if da == 1 {
            lb.clone()
        } else {
            exact(&lb.pow(da), &prs.h.pow(da - 1))
        };
        Some(if sign * prs.sign < 0 { h.neg() } else { h })
    }

    /// The discriminant of `self` in `var`:
    /// `(-1)^(m(m-1)/2) * res(f, df/dvar) / lc(f)` with `m = deg f`; `1` when `m < 2`.
    ///
    /// ```
    /// use polys::{Poly, Vars};
    /// let mut v = Vars::from_names(["b", "c", "x"]);
    /// let f = Poly::parse("x^2 + b*x + c", &mut v).unwrap();
    /// assert_eq!(f.discriminant(2).to_text(&v), "-4*c + b^2");
    /// ```
    pub fn discriminant(&self, var: usize) -> Poly<C> {
        self.discriminant_until(var, &|| false)
            .expect("never stopped")
    }

    /// [`Poly::discriminant`], or `None` as soon as `stop()` says so (see
    /// [`Poly::resultant_until`]): quadratics by their formula, everything else by the
    /// modular method, the PRS only beyond its limits.
    pub fn discriminant_until(&self, var: usize, stop: &dyn Fn() -> bool) -> Option<Poly<C>> {
        let m = self.degree(var);
        if m < 2 {
            return Some(Poly::one());
        }
        if m == 2 {
            // f = a x^2 + b x + c: res(f, f') = a (4ac - b^2), so the formula gives b^2 - 4ac
            // (no remainder sequence, no division by a).
            let cs = self.coeffs(var);
            let (c, b, a) = (&cs[0], &cs[1], &cs[2]);
            return Some(b.mul(b).sub(&a.mul(c).scale(&C::from_i64(4))));
        }
        match modular_discriminant(self, var, Grid::DenseOnly, stop) {
            Ok(d) => Some(d),
            Err(ModFail::Stopped) => None,
            Err(ModFail::TooLarge) => self.discriminant_prs_until(var, stop),
        }
    }

    /// The discriminant by the modular method alone (see [`Poly::resultant_modular`]);
    /// `None` beyond its limits.
    pub fn discriminant_modular(&self, var: usize) -> Option<Poly<C>> {
        if self.degree(var) < 2 {
            return Some(Poly::one());
        }
        modular_discriminant(self, var, Grid::Any, &|| false).ok()
    }

    /// The discriminant from the subresultant PRS, `res(f, f')` divided exactly by
    /// `lc(f)`: the oracle of the modular method's tests.
    pub fn discriminant_prs(&self, var: usize) -> Poly<C> {
        self.discriminant_prs_until(var, &|| false)
            .expect("never stopped")
    }

    /// [`Poly::discriminant_prs`], or `None` as soon as `stop()` says so.
    pub fn discriminant_prs_until(&self, var: usize, stop: &dyn Fn() -> bool) -> Option<Poly<C>> {
        let m = self.degree(var);
        if m < 2 {
            return Some(Poly::one());
        }
        let r = self.resultant_prs_until(&self.derivative(var), var, stop)?;
        let d = exact(&r, &self.lc(var));
        Some(if (m * (m - 1) / 2) % 2 == 1 {
            d.neg()
        } else {
            d
        })
    }

    /// Principal subresultant coefficients `psc_j(self, g)` in `var` for
    /// `j = 0 .. min(deg self, deg g) - 1`; `psc_0` is the resultant.
    ///
    /// `psc_j` is the determinant of the square matrix built from the rows
    /// `x^(n-j-1) f, ..., f, x^(m-j-1) g, ..., g` and the columns of `x^(m+n-j-1) .. x^j`.
    pub fn principal_subresultant_coeffs(&self, g: &Poly<C>, var: usize) -> Vec<Poly<C>> {
        if self.is_zero() || g.is_zero() {
            return Vec::new();
        }
        let (a, b) = (self.coeffs(var), g.coeffs(var));
        let (m, n) = (a.len() - 1, b.len() - 1);
        (0..m.min(n))
            .map(|j| {
                let size = m + n - 2 * j;
                let mut rows: Vec<Vec<Poly<C>>> = Vec::with_capacity(size);
                // Column c stands for the power x^(m+n-j-1-c).
                let top = m + n - j - 1;
                for (shifts, p, dp) in [(n - j, &a, m), (m - j, &b, n)] {
                    for s in (0..shifts).rev() {
                        let row = (0..size)
                            .map(|c| {
                                let power = top - c;
                                power
                                    .checked_sub(s)
                                    .filter(|&k| k <= dp)
                                    .map_or_else(Poly::zero, |k| p[k].clone())
                            })
                            .collect();
                        rows.push(row);
                    }
                }
                bareiss_det(rows)
            })
            .collect()
    }
}

/// Determinant of a square matrix over Z[x] by fraction-free Gaussian elimination.
fn bareiss_det<C: Coeff>(mut m: Vec<Vec<Poly<C>>>) -> Poly<C> {
    let n = m.len();
    if n == 0 {
        return Poly::one();
    }
    let mut sign = false;
    let mut prev = Poly::one();
    for k in 0..n {
        let Some(p) = (k..n).find(|&i| !m[i][k].is_zero()) else {
            return Poly::zero();
        };
        if p != k {
            m.swap(p, k);
            sign = !sign;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let t = m[i][j].mul(&m[k][k]).sub(&m[i][k].mul(&m[k][j]));
                m[i][j] = exact(&t, &prev);
            }
            m[i][k] = Poly::zero();
        }
        prev = m[k][k].clone();
    }
    let d = m[n - 1][n - 1].clone();
    if sign {
        d.neg()
    } else {
        d
    }
}

/// Zero arguments and arguments of degree 0 in `var`: `Res(f, c) = c^deg f`.
fn constant_cases<C: Coeff>(f: &Poly<C>, g: &Poly<C>, var: usize) -> Option<Poly<C>> {
    if f.is_zero() || g.is_zero() {
        return Some(Poly::zero());
    }
    let (m, n) = (f.degree(var), g.degree(var));
    if n == 0 {
        return Some(g.pow(m));
    }
    if m == 0 {
        return Some(f.pow(n));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::{Poly, Vars};

    fn p(s: &str, v: &mut Vars) -> Poly {
        Poly::parse(s, v).unwrap()
    }

    #[test]
    fn resultant_matches_psc0_and_known_values() {
        let mut v = Vars::from_names(["x", "y"]);
        let f = p("x^2 + y^2 - 4", &mut v);
        let g = p("x*y - 1", &mut v);
        let r = f.resultant(&g, 1);
        assert_eq!(r.to_text(&v), "x^4 - 4*x^2 + 1");
        assert_eq!(f.principal_subresultant_coeffs(&g, 1)[0], r);
        // res(g, f) = (-1)^(1*2) res(f, g)
        assert_eq!(g.resultant(&f, 1), r);
        let h = p("(x - y)*(x + 2y)", &mut v);
        let k = p("(x - y)*(3x + y^2)", &mut v);
        assert!(h.resultant(&k, 1).is_zero());
        assert!(!h.principal_subresultant_coeffs(&k, 1)[1].is_zero());
    }

    #[test]
    fn odd_degree_swap_sign() {
        let mut v = Vars::from_names(["x"]);
        let f = p("x - 2", &mut v);
        let g = p("x^3 + 1", &mut v);
        // res(f, g) = g(2) = 9 and res(g, f) = (-1)^3 * 9.
        assert_eq!(f.resultant(&g, 0), Poly::from_i64(9));
        assert_eq!(g.resultant(&f, 0), Poly::from_i64(-9));
        assert_eq!(
            g.principal_subresultant_coeffs(&f, 0)[0],
            Poly::from_i64(-9)
        );
    }

    #[test]
    fn prem_identity() {
        let mut v = Vars::from_names(["x", "y"]);
        let f = p("x*y^3 + y + 7", &mut v);
        let g = p("2x*y - 1", &mut v);
        let r = f.prem(&g, 1);
        assert!(r.degree(1) < 1);
        // lc^3 f - r must be divisible by g
        let lhs = f.mul(&g.lc(1).pow(3)).sub(&r);
        assert!(lhs.div_exact(&g).is_some());
    }
}
