//! QEPCAD B as an external oracle for the CAD tests and the seed benchmark: the driver
//! (`cad::qepcad`, re-exported here) plus what only the cross-check needs: the cells
//! listed by `d-all-cells-in-subtree` with their truth values and sample points as real
//! algebraic numbers, and an exact evaluation of a formula at such a sample that does not
//! go through the cad crate's sign routine where the sample allows it.

#![allow(dead_code)]

use cad::formula::Formula;
use cad::{sign_at, Algebraic, SignStats, UPoly};
use num_traits::{One, Signed, Zero};
use polys::{BigInt, BigRational, Int, Mono, Poly, Rat};

// The driver (input, subprocess, counts and times) lives in the library; re-exported so
// the tests and the seed benchmark keep their `qepcad::` paths.
// Each user takes a different subset.
#[allow(unused_imports)]
pub use cad::qepcad::{find, formula_text, leaf_count, run, run_growing, script, stat_ms};

/// A univariate polynomial over Q, coefficients from degree 0 up, no trailing zeros.
pub type QPoly = Vec<BigRational>;

/// Terms `(exponent of alpha, exponent of x, coefficient)` of a polynomial as QEPCAD
/// prints it.
type Terms = Vec<(u32, u32, BigRational)>;

/// A sample point as QEPCAD gives it.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Every coordinate as a real algebraic number.
    pub coords: Vec<Algebraic>,
    /// The primitive element: defining polynomial and closed isolating interval.
    pub alpha: Option<(QPoly, BigRational, BigRational)>,
    /// In the primitive representation, every coordinate as a polynomial in alpha.
    pub in_alpha: Option<Vec<QPoly>>,
}

impl Sample {
    pub fn is_rational(&self) -> bool {
        self.coords.iter().all(Algebraic::is_rational)
    }
}

/// A cell of QEPCAD's decomposition.
#[derive(Clone, Debug)]
pub struct QCell {
    /// QEPCAD's index, e.g. `(3,9,8,5)`.
    pub index: String,
    pub level: usize,
    pub children: usize,
    /// `None` for `?` (undecided, only at cells with children).
    pub truth: Option<bool>,
    /// The sample point, or why it could not be read.
    pub sample: Result<Sample, String>,
}

/// The cells printed by `d-cell`-style commands, in order.
pub fn cells(out: &str) -> Vec<QCell> {
    const HEAD: &str = "---------- Information about the cell (";
    let mut found = Vec::new();
    let mut rest = out;
    while let Some(at) = rest.find(HEAD) {
        rest = &rest[at + HEAD.len()..];
        let end = rest.find(HEAD).unwrap_or(rest.len());
        let block = &rest[..end];
        let index = format!("({})", block.split(')').next().unwrap_or(""));
        let field = |name: &str| {
            block
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let level: usize = field("Level ").and_then(|v| v.parse().ok()).unwrap_or(0);
        let children: usize = field("Number of children")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let truth = match field("Truth value").as_deref().map(|v| v.chars().next()) {
            Some(Some('T')) => Some(true),
            Some(Some('F')) => Some(false),
            _ => None,
        };
        let sample = if level == 0 {
            Err("the root cell has no sample".into())
        } else {
            parse_sample(block, level)
        };
        found.push(QCell {
            index,
            level,
            children,
            truth,
            sample,
        });
    }
    found
}

fn parse_sample(block: &str, level: usize) -> Result<Sample, String> {
    let alpha_line = block
        .lines()
        .find_map(|l| l.strip_prefix("alpha = "))
        .ok_or("no primitive element")?;
    let (m, lo, hi) = parse_root(alpha_line)?;
    let m = univariate_in_x(&m)?;
    let alpha = make_root(&m, &lo, &hi)?;
    let mut coords = Vec::with_capacity(level);
    let mut in_alpha = Some(Vec::with_capacity(level));
    for i in 1..=level {
        let prefix = format!("Coordinate {i} = ");
        let text = block
            .lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .ok_or_else(|| format!("no coordinate {i}"))?;
        if text.starts_with("the unique root of") {
            let (q, lo, hi) = parse_root(text)?;
            coords.push(root_over_alpha(&q, &alpha, &m, &lo, &hi)?);
            in_alpha = None;
        } else {
            let q = parse_terms(text, "alpha")?;
            if q.iter().any(|&(_, e, _)| e > 0) {
                return Err(format!("unexpected x in coordinate {i}: {text}"));
            }
            let q = dense(q.iter().map(|(a, _, c)| (*a, c.clone())));
            coords.push(value_in_alpha(&q, &alpha, &m)?);
            if let Some(v) = in_alpha.as_mut() {
                v.push(q);
            }
        }
    }
    let (mlo, mhi) = (lo, hi);
    Ok(Sample {
        coords,
        alpha: Some((m, mlo, mhi)),
        in_alpha,
    })
}

/// `the unique root of POLY between LO and HI` (also without the leading words).
fn parse_root(text: &str) -> Result<(Terms, BigRational, BigRational), String> {
    let text = text.trim().trim_start_matches("the unique root of").trim();
    let (poly, ends) = text
        .rsplit_once(" between ")
        .ok_or_else(|| format!("no interval in '{text}'"))?;
    let (lo, hi) = ends
        .split_once(" and ")
        .ok_or_else(|| format!("no interval in '{text}'"))?;
    Ok((
        parse_terms(poly, "x")?,
        rational(lo.trim())?,
        rational(hi.trim())?,
    ))
}

fn rational(s: &str) -> Result<BigRational, String> {
    let bad = || format!("not a rational: '{s}'");
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    let n: BigInt = n.parse().map_err(|_| bad())?;
    let d: BigInt = d.parse().map_err(|_| bad())?;
    if d.is_zero() {
        return Err(bad());
    }
    Ok(BigRational::new(n, d))
}

/// A polynomial in `alpha` and `main` as QEPCAD prints it: terms separated by ` + ` and
/// ` - `, each a product of rationals and powers written side by side.
fn parse_terms(text: &str, main: &str) -> Result<Terms, String> {
    let mut terms: Terms = Vec::new();
    let mut cur: Option<(u32, u32, BigRational)> = None;
    let mut negative = false;
    for tok in text.split_whitespace() {
        match tok {
            "+" | "-" => {
                if let Some(t) = cur.take() {
                    terms.push(t);
                }
                negative = tok == "-";
                continue;
            }
            _ => {}
        }
        let (neg_here, tok) = match tok.strip_prefix('-') {
            Some(t) => (true, t),
            None => (false, tok),
        };
        let t = cur.get_or_insert_with(|| {
            let one = BigRational::one();
            (0, 0, if negative { -one } else { one })
        });
        if neg_here {
            t.2 = -t.2.clone();
        }
        let (base, exp) = match tok.split_once('^') {
            Some((b, e)) => (
                b,
                e.parse::<u32>().map_err(|_| format!("bad power '{tok}'"))?,
            ),
            None => (tok, 1),
        };
        if base == "alpha" {
            t.0 += exp;
        } else if base == main {
            t.1 += exp;
        } else if tok.starts_with(|c: char| c.is_ascii_digit()) {
            t.2 = &t.2 * rational(tok)?;
        } else {
            return Err(format!("cannot read '{tok}' in '{text}'"));
        }
    }
    terms.extend(cur);
    if terms.is_empty() {
        return Err(format!("empty polynomial '{text}'"));
    }
    Ok(terms)
}

fn dense(terms: impl Iterator<Item = (u32, BigRational)>) -> QPoly {
    let mut p: QPoly = Vec::new();
    for (e, c) in terms {
        let e = e as usize;
        if p.len() <= e {
            p.resize(e + 1, BigRational::zero());
        }
        p[e] = &p[e] + c;
    }
    trim(&mut p);
    p
}

fn univariate_in_x(t: &Terms) -> Result<QPoly, String> {
    if t.iter().any(|&(a, _, _)| a > 0) {
        return Err("alpha in the primitive element's polynomial".into());
    }
    Ok(dense(t.iter().map(|(_, e, c)| (*e, c.clone()))))
}

fn trim(p: &mut QPoly) {
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
}

fn lcm_denominators<'a>(cs: impl Iterator<Item = &'a BigRational>) -> BigInt {
    cs.fold(BigInt::one(), |l, c| {
        num_integer::Integer::lcm(&l, c.denom())
    })
}

/// The integer polynomial in variables `x_0 = alpha`, `x_1` with the terms times the
/// lcm of their denominators (same roots).
fn integer_poly(t: &Terms) -> Poly {
    let l = lcm_denominators(t.iter().map(|(_, _, c)| c));
    Poly::from_terms(
        t.iter()
            .map(|(a, e, c)| {
                let v = (c * BigRational::from_integer(l.clone())).to_integer();
                (Mono::from_exps(&[*a, *e]), Int::from(v))
            })
            .collect(),
    )
}

fn to_upoly(p: &QPoly) -> UPoly {
    let l = lcm_denominators(p.iter());
    UPoly::new(
        p.iter()
            .map(|c| Int::from((c * BigRational::from_integer(l.clone())).to_integer()))
            .collect(),
    )
}

/// A rational of this oracle's arithmetic as cad's number.
fn algebraic(r: &BigRational) -> Algebraic {
    Algebraic::from(Rat::from_big(r))
}

/// The unique root of `m` in the closed interval `[lo, hi]`.
fn make_root(m: &QPoly, lo: &BigRational, hi: &BigRational) -> Result<Algebraic, String> {
    let u = to_upoly(m);
    let (lo, hi) = (Rat::from_big(lo), Rat::from_big(hi));
    if lo == hi || u.sign_at(&lo) == 0 {
        return Ok(Algebraic::from(lo));
    }
    if u.sign_at(&hi) == 0 {
        return Ok(Algebraic::from(hi));
    }
    Algebraic::from_root(&u, lo, hi).map_err(|e| format!("{e:?}"))
}

/// Picks, among candidate roots `cands` of a polynomial implied by `q(alpha, x) = 0`, the
/// ones in `[lo, hi]` (when given) at which `q` vanishes exactly.
fn pick(
    q: &Poly,
    alpha: &Algebraic,
    cands: Vec<Algebraic>,
    range: Option<(&BigRational, &BigRational)>,
) -> Result<Algebraic, String> {
    let stats = SignStats::new();
    let mut hits = Vec::new();
    for b in cands {
        if let Some((lo, hi)) = range {
            if b < algebraic(lo) || algebraic(hi) < b {
                continue;
            }
        }
        let s = sign_at(q, &[alpha.clone(), b.clone()], &stats).map_err(|e| format!("{e:?}"))?;
        if s == 0 {
            hits.push(b);
        }
    }
    match hits.len() {
        1 => Ok(hits.pop().expect("one element")),
        n => Err(format!("{n} candidate values for a coordinate")),
    }
}

/// `q(alpha)` as a real algebraic number: a root of `res_t(m(t), D y - N(t))`.
fn value_in_alpha(q: &QPoly, alpha: &Algebraic, m: &QPoly) -> Result<Algebraic, String> {
    if q.len() <= 1 {
        return Ok(algebraic(
            &q.first().cloned().unwrap_or_else(BigRational::zero),
        ));
    }
    if let Some(a) = alpha.to_rational() {
        return Ok(algebraic(&eval_q(q, &a.to_big())));
    }
    // y - q(t) with y the variable x_1.
    let mut terms: Terms = q
        .iter()
        .enumerate()
        .map(|(e, c)| (e as u32, 0, -c.clone()))
        .collect();
    terms.push((0, 1, BigRational::one()));
    let g = integer_poly(&terms);
    let mpoly = to_upoly(m).to_poly(0);
    let r = mpoly.resultant(&g, 0);
    let u = UPoly::from_poly(&r, 1).map_err(|e| format!("{e:?}"))?;
    let cands = Algebraic::roots_of(&u).map_err(|e| format!("{e:?}"))?;
    pick(&g, alpha, cands, None)
}

/// The unique root in `[lo, hi]` of `q(alpha, x)`.
fn root_over_alpha(
    q: &Terms,
    alpha: &Algebraic,
    m: &QPoly,
    lo: &BigRational,
    hi: &BigRational,
) -> Result<Algebraic, String> {
    let g = integer_poly(q);
    let r = if g.has_var(0) && !alpha.is_rational() {
        to_upoly(m).to_poly(0).resultant(&g, 0)
    } else if let Some(a) = alpha.to_rational() {
        g.subst_rational(0, &a.to_big())
    } else {
        g.clone()
    };
    let u = UPoly::from_poly(&r, 1).map_err(|e| format!("{e:?}"))?;
    let cands = Algebraic::roots_of(&u).map_err(|e| format!("{e:?}"))?;
    pick(&g, alpha, cands, Some((lo, hi)))
}

// Univariate arithmetic over Q for the independent evaluation below.

fn eval_q(p: &QPoly, x: &BigRational) -> BigRational {
    p.iter()
        .rev()
        .fold(BigRational::zero(), |acc, c| acc * x + c)
}

fn mul_q(a: &QPoly, b: &QPoly) -> QPoly {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![BigRational::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] = &out[i + j] + x * y;
        }
    }
    trim(&mut out);
    out
}

fn add_q(a: &QPoly, b: &QPoly) -> QPoly {
    let mut out = vec![BigRational::zero(); a.len().max(b.len())];
    for (i, x) in a.iter().enumerate() {
        out[i] = &out[i] + x;
    }
    for (i, y) in b.iter().enumerate() {
        out[i] = &out[i] + y;
    }
    trim(&mut out);
    out
}

fn rem_q(a: &QPoly, b: &QPoly) -> QPoly {
    let mut r = a.clone();
    let db = b.len() - 1;
    while r.len() > db {
        let k = r.len() - 1 - db;
        let f = r[r.len() - 1].clone() / &b[db];
        for (j, c) in b.iter().enumerate() {
            r[k + j] = &r[k + j] - &f * c;
        }
        r.pop();
        trim(&mut r);
    }
    r
}

fn gcd_q(a: &QPoly, b: &QPoly) -> QPoly {
    let (mut a, mut b) = (a.clone(), b.clone());
    while !b.is_empty() {
        let r = rem_q(&a, &b);
        a = b;
        b = r;
    }
    a
}

fn derivative_q(p: &QPoly) -> QPoly {
    let mut d: QPoly = p
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * BigRational::from_integer(BigInt::from(i)))
        .collect();
    trim(&mut d);
    d
}

fn sign_q(x: &BigRational) -> i32 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

/// Number of distinct roots of `p` (non-zero) in the closed interval `[lo, hi]`, by a
/// Sturm sequence.
fn roots_in(p: &QPoly, lo: &BigRational, hi: &BigRational) -> usize {
    if p.len() <= 1 {
        return 0;
    }
    let mut seq = vec![p.clone(), derivative_q(p)];
    loop {
        let n = seq.len();
        let r = rem_q(&seq[n - 2], &seq[n - 1]);
        if r.is_empty() {
            break;
        }
        seq.push(r.into_iter().map(|c| -c).collect());
    }
    let var = |x: &BigRational| {
        let mut last = 0;
        let mut v = 0;
        for s in seq
            .iter()
            .map(|q| sign_q(&eval_q(q, x)))
            .filter(|&s| s != 0)
        {
            if last != 0 && s != last {
                v += 1;
            }
            last = s;
        }
        v
    };
    // Sturm counts roots in (lo, hi]; a root at lo is added by hand.
    var(lo) - var(hi) + usize::from(eval_q(p, lo).is_zero())
}

/// The sign of `r` at the unique root of `m` in `[lo, hi]`, exactly: zero iff
/// `gcd(m, r)` has a root in the interval; otherwise bisect until `r` has none there.
fn sign_at_primitive(r: &QPoly, m: &QPoly, lo: &BigRational, hi: &BigRational) -> i32 {
    if r.is_empty() {
        return 0;
    }
    if lo == hi {
        return sign_q(&eval_q(r, lo));
    }
    if roots_in(&gcd_q(m, r), lo, hi) > 0 {
        return 0;
    }
    let (mut lo, mut hi) = (lo.clone(), hi.clone());
    let two = BigRational::from_integer(BigInt::from(2));
    loop {
        if roots_in(r, &lo, &hi) == 0 {
            return sign_q(&eval_q(r, &lo));
        }
        let mid = (&lo + &hi) / &two;
        if roots_in(m, &lo, &mid) > 0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
}

/// `p(q_1(t), .., q_n(t)) mod m(t)`.
fn compose_mod(p: &Poly, qs: &[QPoly], m: &QPoly) -> QPoly {
    let mut out: QPoly = Vec::new();
    for (mono, c) in p.terms() {
        let mut t: QPoly = vec![BigRational::from_integer(polys::Coeff::to_bigint(c))];
        for (v, &e) in mono.exps().iter().enumerate() {
            for _ in 0..e {
                t = rem_q(&mul_q(&t, &qs[v]), m);
            }
        }
        out = add_q(&out, &t);
    }
    out
}

/// How [`truth_at`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Every coordinate rational: exact rational evaluation.
    Rational,
    /// One primitive element: univariate arithmetic over Q and Sturm sequences.
    Primitive,
    /// Extended representation: the cad crate's exact sign routine.
    SignAt,
}

/// The exact truth of `f` at `coords` (which may extend the sample by further
/// coordinates `ext`, all integers), by the most independent route the sample allows.
pub fn truth_at(f: &Formula, s: &Sample, ext: &[Algebraic]) -> (bool, Route) {
    let mut coords = s.coords.clone();
    coords.extend(ext.iter().cloned());
    if let Some(r) = coords
        .iter()
        .map(|a| a.to_rational().map(Rat::to_big))
        .collect::<Option<Vec<BigRational>>>()
    {
        let mut sign = |p: &Poly| Some(sign_q(&p.eval_rational(&r)));
        return (
            f.eval_partial(&mut sign).expect("full point"),
            Route::Rational,
        );
    }
    if let (Some((m, lo, hi)), Some(qs)) = (&s.alpha, &s.in_alpha) {
        let mut qs = qs.clone();
        for e in ext {
            let c = e.to_rational().expect("extensions are integers").to_big();
            qs.push(vec![c]);
        }
        for q in qs.iter_mut() {
            trim(q);
        }
        let mut sign = |p: &Poly| Some(sign_at_primitive(&compose_mod(p, &qs, m), m, lo, hi));
        return (
            f.eval_partial(&mut sign).expect("full point"),
            Route::Primitive,
        );
    }
    let stats = SignStats::new();
    let mut sign = |p: &Poly| Some(sign_at(p, &coords, &stats).expect("exact sign"));
    (
        f.eval_partial(&mut sign).expect("full point"),
        Route::SignAt,
    )
}
