//! Reference fixtures computed by sympy (tests/data/gen_polys_fixtures.py): resultants,
//! discriminants, gcds, pseudo-remainders, principal subresultant coefficients and
//! factorisations of the shapes CAD meets. Every fixture runs; all mismatches are reported
//! together with their line numbers before a test fails.

use polys::{factor, BigInt, Int, Poly, Vars};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/polys_fixtures.txt"
);

/// One line of the data file.
struct Fixture {
    line: usize,
    kind: String,
    tag: String,
    names: Vec<String>,
    /// The fields after the variable list.
    args: Vec<String>,
}

impl Fixture {
    fn vars(&self) -> Vars {
        Vars::from_names(self.names.iter().cloned())
    }

    fn poly(&self, s: &str) -> Result<Poly, String> {
        let mut v = self.vars();
        Poly::parse(s, &mut v).map_err(|e| format!("cannot parse {}: {e}", short(s)))
    }

    fn var(&self, s: &str) -> Result<usize, String> {
        self.names
            .iter()
            .position(|n| n == s)
            .ok_or_else(|| format!("variable {s} not in the list {:?}", self.names))
    }

    fn arity(&self) -> usize {
        match self.kind.as_str() {
            "discriminant" => 3,
            "gcd" => 3,
            "resultant" | "prem" | "psc" => 4,
            "factor" => 3,
            _ => usize::MAX,
        }
    }

    fn text(&self, p: &Poly) -> String {
        short(&p.to_text(&self.vars()))
    }
}

fn short(s: &str) -> String {
    if s.len() <= 160 {
        s.to_string()
    } else {
        let cut = (0..=160)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}... ({} chars)", &s[..cut], s.len())
    }
}

fn load() -> Vec<Fixture> {
    let text = std::fs::read_to_string(DATA).unwrap_or_else(|e| panic!("reading {DATA}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        assert!(fields.len() >= 4, "line {}: too few fields", i + 1);
        out.push(Fixture {
            line: i + 1,
            kind: fields[0].to_string(),
            tag: fields[1].to_string(),
            names: fields[2].split(',').map(|s| s.trim().to_string()).collect(),
            args: fields[3..].iter().map(|s| s.to_string()).collect(),
        });
    }
    out
}

type Check = fn(&Fixture) -> Result<(), String>;

/// Runs `check` on every fixture of the given kinds (and the univariate / multivariate
/// filter); panics listing every mismatch.
fn run(kinds: &[&str], filter: fn(&Fixture) -> bool, check: Check) {
    let fixtures = load();
    let mut failures = Vec::new();
    let mut count = 0;
    let mut slowest = (Duration::ZERO, 0);
    for f in fixtures
        .iter()
        .filter(|f| kinds.contains(&f.kind.as_str()) && filter(f))
    {
        count += 1;
        let start = Instant::now();
        let result = if f.args.len() != f.arity() {
            Err(format!("expected {} fields after the variables", f.arity()))
        } else {
            catch_unwind(AssertUnwindSafe(|| check(f))).unwrap_or_else(|e| {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(format!("panicked: {msg}"))
            })
        };
        let took = start.elapsed();
        if took > slowest.0 {
            slowest = (took, f.line);
        }
        if let Err(msg) = result {
            failures.push(format!("  line {} [{} {}]: {msg}", f.line, f.kind, f.tag));
        }
    }
    eprintln!(
        "{kinds:?}: {count} fixtures, {} failed; slowest line {} ({:?})",
        failures.len(),
        slowest.1,
        slowest.0
    );
    assert!(count > 0, "no fixtures of kinds {kinds:?} in {DATA}");
    assert!(
        failures.is_empty(),
        "{} of {count} {kinds:?} fixtures failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn all(_: &Fixture) -> bool {
    true
}

fn expect_eq(f: &Fixture, what: &str, got: &Poly, want: &Poly) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{what}: expected {} got {}",
            f.text(want),
            f.text(got)
        ))
    }
}

/// The big-integer-only path must give the same value as the fast path.
fn expect_big_eq(f: &Fixture, what: &str, got: &Poly<BigInt>, want: &Poly) -> Result<(), String> {
    if *got == want.convert::<BigInt>() {
        Ok(())
    } else {
        Err(format!(
            "{what} (Poly<BigInt>): expected {} got {}",
            f.text(want),
            short(&got.to_text(&f.vars()))
        ))
    }
}

fn check_resultant(f: &Fixture) -> Result<(), String> {
    let (a, b) = (f.poly(&f.args[0])?, f.poly(&f.args[1])?);
    let v = f.var(&f.args[2])?;
    let want = f.poly(&f.args[3])?;
    expect_eq(f, "resultant", &a.resultant(&b, v), &want)?;
    let (ab, bb) = (a.convert::<BigInt>(), b.convert::<BigInt>());
    expect_big_eq(f, "resultant", &ab.resultant(&bb, v), &want)
}

fn check_discriminant(f: &Fixture) -> Result<(), String> {
    let a = f.poly(&f.args[0])?;
    let v = f.var(&f.args[1])?;
    let want = f.poly(&f.args[2])?;
    expect_eq(f, "discriminant", &a.discriminant(v), &want)?;
    expect_big_eq(
        f,
        "discriminant",
        &a.convert::<BigInt>().discriminant(v),
        &want,
    )
}

fn check_gcd(f: &Fixture) -> Result<(), String> {
    let (a, b) = (f.poly(&f.args[0])?, f.poly(&f.args[1])?);
    let want = f.poly(&f.args[2])?.normalize_sign();
    expect_eq(f, "gcd", &a.gcd(&b), &want)?;
    expect_big_eq(
        f,
        "gcd",
        &a.convert::<BigInt>().gcd(&b.convert::<BigInt>()),
        &want,
    )
}

fn check_prem(f: &Fixture) -> Result<(), String> {
    let (a, b) = (f.poly(&f.args[0])?, f.poly(&f.args[1])?);
    let v = f.var(&f.args[2])?;
    let want = f.poly(&f.args[3])?;
    expect_eq(f, "prem", &a.prem(&b, v), &want)
}

fn check_psc(f: &Fixture) -> Result<(), String> {
    let (a, b) = (f.poly(&f.args[0])?, f.poly(&f.args[1])?);
    let v = f.var(&f.args[2])?;
    let want = f.args[3]
        .split(" ; ")
        .map(|s| f.poly(s))
        .collect::<Result<Vec<_>, _>>()?;
    let got = a.principal_subresultant_coeffs(&b, v);
    if got.len() != want.len() {
        return Err(format!(
            "psc: expected {} coefficients got {}",
            want.len(),
            got.len()
        ));
    }
    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
        expect_eq(f, &format!("psc_{j}"), g, w)?;
    }
    Ok(())
}

/// The expected factor list `m: poly ; ...`, each factor with positive leading coefficient
/// in polys' term order.
fn expected_factors(f: &Fixture) -> Result<Vec<(Poly, u32)>, String> {
    f.args[2]
        .split(" ; ")
        .filter(|s| !s.trim().is_empty())
        .map(|item| {
            let (m, p) = item
                .split_once(':')
                .ok_or_else(|| format!("bad factor item {item}"))?;
            let m: u32 = m.trim().parse().map_err(|e| format!("{item}: {e}"))?;
            Ok((f.poly(p.trim())?.normalize_sign(), m))
        })
        .collect()
}

fn check_factor_common(f: &Fixture) -> Result<(Poly, polys::Factorization), String> {
    let a = f.poly(&f.args[0])?;
    let fz = factor(&a);
    if fz.expand() != a {
        return Err(format!(
            "factors do not multiply back: {} * {:?}",
            fz.unit,
            fz.factors
                .iter()
                .map(|(p, m)| format!("({})^{m}", f.text(p)))
                .collect::<Vec<_>>()
        ));
    }
    Ok((a, fz))
}

fn check_factor_univariate(f: &Fixture) -> Result<(), String> {
    let (_, fz) = check_factor_common(f)?;
    let unit: BigInt = f.args[1]
        .parse()
        .map_err(|e| format!("bad unit {}: {e}", f.args[1]))?;
    if fz.unit != Int::from(unit.clone()) {
        return Err(format!("unit: expected {unit} got {}", fz.unit));
    }
    let mut want: Vec<(String, u32)> = expected_factors(f)?
        .iter()
        .map(|(p, m)| (f.text(p), *m))
        .collect();
    let mut got: Vec<(String, u32)> = fz
        .factors
        .iter()
        .map(|(p, m)| (f.text(&p.clone().normalize_sign()), *m))
        .collect();
    want.sort();
    got.sort();
    if want != got {
        return Err(format!("factors: expected {want:?} got {got:?}"));
    }
    Ok(())
}

fn check_factor_multivariate(f: &Fixture) -> Result<(), String> {
    let (_, fz) = check_factor_common(f)?;
    for (p, m) in expected_factors(f)? {
        let hits: Vec<u32> = fz
            .factors
            .iter()
            .filter(|(g, _)| g.div_exact(&p).is_some())
            .map(|(_, k)| *k)
            .collect();
        if hits != [m] {
            return Err(format!(
                "irreducible factor ({})^{m} divides {} of our factors (multiplicities {hits:?}); ours: {:?}",
                f.text(&p),
                hits.len(),
                fz.factors
                    .iter()
                    .map(|(g, k)| format!("({})^{k}", f.text(g)))
                    .collect::<Vec<_>>()
            ));
        }
    }
    Ok(())
}

fn univariate(f: &Fixture) -> bool {
    f.names.len() == 1
}

fn multivariate(f: &Fixture) -> bool {
    f.names.len() > 1
}

#[test]
fn fixture_file_is_complete() {
    let fixtures = load();
    assert!(
        fixtures.len() >= 200,
        "only {} fixtures in {DATA}",
        fixtures.len()
    );
    for f in &fixtures {
        assert!(
            f.args.len() == f.arity(),
            "line {}: unknown kind {} or wrong number of fields",
            f.line,
            f.kind
        );
    }
}

#[test]
fn resultant_fixtures() {
    run(&["resultant"], all, check_resultant);
}

#[test]
fn discriminant_fixtures() {
    run(&["discriminant"], all, check_discriminant);
}

#[test]
fn gcd_fixtures() {
    run(&["gcd"], all, check_gcd);
}

#[test]
fn prem_fixtures() {
    run(&["prem"], all, check_prem);
}

#[test]
fn psc_fixtures() {
    run(&["psc"], all, check_psc);
}

/// Multivariate inputs: polys promises square-free, pairwise coprime factors.
#[test]
fn factor_fixtures_multivariate() {
    run(&["factor"], multivariate, check_factor_multivariate);
}

/// Univariate inputs: irreducible factors over Z, exactly as sympy finds them.
#[test]
fn factor_fixtures_univariate() {
    run(&["factor"], univariate, check_factor_univariate);
}
