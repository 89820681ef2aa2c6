//! Residue classes in the loop AST: the at-most-once loops `ceil(f/m)..floor(f/m)` that
//! witnesses of divisions leave (they run exactly when `m` divides `f`), the modular
//! arithmetic the stride pass needs, and the congruence a loop variable must satisfy for
//! a list of nodes to run anything (`implied`), which lets one strided loop serve several
//! statements whose classes share a modulus (isl's `for (c0 = 2; c0 <= n; c0 += 2)` over
//! a statement on even and one on multiples of four).

use crate::ast::Node;
use crate::expr::Expr;
use polys::{Coeff, Int, Poly};
use std::collections::BTreeSet;

/// `ceil(f/m)` and `floor(f'/m)` of a loop's bounds: `(f, f', m)` with `m >= 2` constant.
pub(crate) fn divisions<'e>(lower: &'e Expr, upper: &'e Expr) -> Option<(&'e Poly, &'e Poly, i64)> {
    let (Expr::CeilDiv(lo, dl), Expr::FloorDiv(hi, du)) = (lower, upper) else {
        return None;
    };
    let (Expr::Poly(f), Expr::Poly(g)) = (&**lo, &**hi) else {
        return None;
    };
    let m = dl.constant_value()?.to_i64()?;
    (dl == du && m >= 2).then_some((f, g, m))
}

/// `(f, m)` of an at-most-once loop `ceil(f/m)..floor(f/m)`: it runs once exactly when `m`
/// divides `f`.
pub(crate) fn at_most_once<'e>(lower: &'e Expr, upper: &'e Expr) -> Option<(&'e Poly, i64)> {
    divisions(lower, upper).and_then(|(f, g, m)| (f == g).then_some((f, m)))
}

pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Both are at most `m`, a positive i64.
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// The inverse of `a` modulo `m >= 2` (`a` and `m` coprime), by the extended Euclid.
pub(crate) fn inverse_mod(a: i64, m: i64) -> Option<i64> {
    let (mut r0, mut r1) = (i128::from(a).rem_euclid(i128::from(m)), i128::from(m));
    let (mut s0, mut s1) = (1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return None;
    }
    i64::try_from(s0.rem_euclid(i128::from(m))).ok()
}

/// `p` with every coefficient replaced by its representative modulo `m` in `(-m/2, m/2]`:
/// the same residue class, printed small.
pub(crate) fn symmetric_mod(p: &Poly, m: i64) -> Poly {
    let mm = Int::from(m);
    let half = Int::from(m / 2);
    let terms = p
        .terms()
        .iter()
        .map(|(mono, c)| {
            let r = c.div_mod_floor(&mm).1;
            let r = if r > half { r.sub(&mm) } else { r };
            (mono.clone(), r)
        })
        .filter(|(_, c)| *c != 0.into())
        .collect();
    Poly::from_terms(terms)
}

/// The class of `x` in which `m` divides `a*x + g` (`g` free of `x`): `x ≡ r (mod m/d)`
/// with `d = gcd(a, m)`, `r = -(g/d) * (a/d)^-1`; `None` when `d` does not divide `g`
/// coefficientwise. For `a = ±1` the residue is `∓g` unreduced, as CLooG and isl print it.
pub(crate) fn class_of(a: i64, g: &Poly, m: i64) -> Option<(Poly, i64)> {
    let d = gcd(a, m);
    let step = m / d;
    let residue = match a {
        1 if d == 1 => g.neg(),
        -1 if d == 1 => g.clone(),
        _ => {
            let dd = Int::from(d);
            if g.terms()
                .iter()
                .any(|(_, c)| c.div_mod_floor(&dd).1 != 0.into())
            {
                return None;
            }
            let inverse = inverse_mod(a / d, step)?;
            symmetric_mod(&g.div_scalar_exact(&dd).scale(&(-inverse).into()), step)
        }
    };
    Some((residue, step))
}

/// What running any instance of a list of nodes requires of a loop variable `x` around
/// them: nothing runs at all, `x ≡ residue (mod step)`, or no congruence is known.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Implied {
    /// The nodes run no instance.
    Nothing,
    /// Every instance has `x ≡ residue (mod step)`, `residue` reading only variables
    /// bound outside `x`'s loop.
    Class { residue: Poly, step: i64 },
    /// Instances may run for any `x`.
    Any,
}

impl Implied {
    /// The weakest congruence both imply: the first residue modulo the gcd of both
    /// moduli and of every coefficient of the residues' difference.
    fn join(self, other: Implied) -> Implied {
        match (self, other) {
            (Implied::Nothing, o) | (o, Implied::Nothing) => o,
            (Implied::Any, _) | (_, Implied::Any) => Implied::Any,
            (
                Implied::Class { residue, step },
                Implied::Class {
                    residue: r2,
                    step: s2,
                },
            ) => {
                let mut g = gcd(step, s2);
                for (_, c) in residue.sub(&r2).terms() {
                    // A coefficient beyond i64 shares with `g` what its remainder does.
                    let r = c.div_mod_floor(&Int::from(g)).1;
                    g = gcd(g, r.to_i64().unwrap_or(1));
                }
                if g < 2 {
                    Implied::Any
                } else {
                    Implied::Class {
                        residue: symmetric_if_constant(residue, g),
                        step: g,
                    }
                }
            }
        }
    }
}

/// A constant residue reduced into `(-g/2, g/2]`; others as they are (printed unreduced).
fn symmetric_if_constant(r: Poly, g: i64) -> Poly {
    if r.constant_value().is_some() {
        symmetric_mod(&r, g)
    } else {
        r
    }
}

/// The congruence that every instance of `nodes` requires of `x` (see [`Implied`]): an
/// at-most-once loop `ceil(f/m)..floor(f/m)` with `f = a*x + g` requires `m | f`, read
/// through loops that pin their variable to one value (`for (y = p; y <= p; ...)`, or a
/// max of lower bounds and a min of upper bounds that share `p`: `y = p` whenever the
/// body runs). `g` must not read a variable of a loop inside `x`'s, or the class would
/// change from one iteration of that loop to the next.
pub(crate) fn implied(nodes: &[Node], x: usize) -> Implied {
    implied_in(nodes, x, &mut Scope::default())
}

/// [`implied`] in `scope`.
fn implied_in(nodes: &[Node], x: usize, scope: &mut Scope) -> Implied {
    let mut acc = Implied::Nothing;
    for n in nodes {
        let here = match n {
            Node::Stmt { .. } => Implied::Any,
            Node::Guard { body, .. } | Node::Test { body, .. } => implied_in(body, x, scope),
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => match scope.witness_class(n, x) {
                Some(c) => c,
                None => scope.below((*var, lower, upper, *step), x, |s| implied_in(body, x, s)),
            },
        };
        acc = acc.join(here);
        if acc == Implied::Any {
            break;
        }
    }
    acc
}

/// Pins and bound variables below the loops around a node, as the walks of this module
/// read witnesses through them (see [`implied`]).
#[derive(Default)]
struct Scope {
    /// Loops that pin their variable to one polynomial, innermost last.
    pins: Vec<(usize, Poly)>,
    /// Variables of the other loops inside `x`'s.
    bound: BTreeSet<usize>,
}

impl Scope {
    /// `f` of the body of loop `var` (bounds `lower`, `upper`, `step`) with the loop in scope.
    fn below<R>(
        &mut self,
        (var, lower, upper, step): (usize, &Expr, &Expr, i64),
        x: usize,
        f: impl FnOnce(&mut Scope) -> R,
    ) -> R {
        match pin(lower, upper, step, x) {
            Some(p) => {
                self.pins.push((var, p));
                let r = f(self);
                self.pins.pop();
                r
            }
            None => {
                let fresh = self.bound.insert(var);
                let r = f(self);
                if fresh {
                    self.bound.remove(&var);
                }
                r
            }
        }
    }

    /// The class of `x` that node `n` asks for when it is a witness loop of one.
    fn witness_class(&self, n: &Node, x: usize) -> Option<Implied> {
        let Node::Loop {
            lower,
            upper,
            step: 1,
            ..
        } = n
        else {
            return None;
        };
        let (f, m) = at_most_once(lower, upper)?;
        class_through(f, m, x, &self.pins, &self.bound)
    }
}

/// The class of `x` in which `m` divides `f` once the pinned variables have their values;
/// `None` when `f` is not `a*x + g` with `g` free of inner loop variables.
fn class_through(
    f: &Poly,
    m: i64,
    x: usize,
    pins: &[(usize, Poly)],
    bound: &BTreeSet<usize>,
) -> Option<Implied> {
    let mut f = f.clone();
    for (v, p) in pins.iter().rev() {
        f = f.subst(*v, p);
    }
    if f.degree(x) != 1 {
        return None;
    }
    let cs = f.coeffs(x);
    let a = cs[1].constant_value()?.to_i64()?;
    if cs[0].vars().iter().any(|v| bound.contains(v)) {
        return None;
    }
    let (residue, step) = class_of(a, &cs[0], m)?;
    Some(if step >= 2 {
        Implied::Class { residue, step }
    } else {
        Implied::Any
    })
}

/// The one value a loop's variable has whenever its body runs: a polynomial that is both
/// a lower and an upper bound (one reading `x` preferred, so that a class of it is one of
/// `x`).
pub(crate) fn pin(lower: &Expr, upper: &Expr, step: i64, x: usize) -> Option<Poly> {
    if step != 1 {
        return None;
    }
    let parts = |e: &Expr, max: bool| -> Vec<Poly> {
        match (e, max) {
            (Expr::Max(ps), true) | (Expr::Min(ps), false) => {
                ps.iter().filter_map(|p| p.as_poly().cloned()).collect()
            }
            (e, _) => e.as_poly().into_iter().cloned().collect(),
        }
    };
    let ups = parts(upper, false);
    let common: Vec<Poly> = parts(lower, true)
        .into_iter()
        .filter(|p| ups.contains(p))
        .collect();
    common
        .iter()
        .find(|p| p.degree(x) > 0)
        .or(common.first())
        .cloned()
}

/// The classes of `x` that the witnesses in `nodes` ask for (`(residue, step)` as in
/// [`Implied::Class`]), each once, read as [`implied`] reads them.
pub(crate) fn witness_classes(nodes: &[Node], x: usize) -> Vec<(Poly, i64)> {
    let mut out = Vec::new();
    classes_in(nodes, x, &mut Scope::default(), &mut out);
    out
}

fn classes_in(nodes: &[Node], x: usize, scope: &mut Scope, out: &mut Vec<(Poly, i64)>) {
    for n in nodes {
        match n {
            Node::Stmt { .. } => {}
            Node::Guard { body, .. } | Node::Test { body, .. } => classes_in(body, x, scope, out),
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                if let Some(Implied::Class { residue, step }) = scope.witness_class(n, x) {
                    if !out.contains(&(residue.clone(), step)) {
                        out.push((residue, step));
                    }
                }
                scope.below((*var, lower, upper, *step), x, |s| {
                    classes_in(body, x, s, out)
                });
            }
        }
    }
}

/// `nodes` where `x ≡ r (mod m)` (`r` a constant): the witnesses of `x` that ask for
/// another class go, and the loops and guards left without a body with them. The
/// instances that remain are those of `nodes` in that class.
pub(crate) fn in_class(nodes: &[Node], x: usize, r: i64, m: i64) -> Vec<Node> {
    in_class_below(nodes, x, r, m, &mut Scope::default())
}

fn in_class_below(nodes: &[Node], x: usize, r: i64, m: i64, scope: &mut Scope) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        let body = match n {
            Node::Stmt { .. } => {
                out.push(n.clone());
                continue;
            }
            Node::Guard { body, .. } | Node::Test { body, .. } => {
                in_class_below(body, x, r, m, scope)
            }
            Node::Loop {
                var,
                lower,
                upper,
                step,
                body,
            } => {
                if let Some(Implied::Class { residue, step: s }) = scope.witness_class(n, x) {
                    let g = Int::from(gcd(m, s));
                    let apart = residue
                        .constant_value()
                        .is_some_and(|c| !Int::from(r).sub(&c).div_mod_floor(&g).1.is_zero());
                    if apart {
                        continue;
                    }
                }
                scope.below((*var, lower, upper, *step), x, |s| {
                    in_class_below(body, x, r, m, s)
                })
            }
        };
        if !body.is_empty() {
            out.push(n.clone().map_body(|_| body));
        }
    }
    out
}
