//! `polyscan poly ...`: polynomial algebra from the command line, for inspecting what the
//! CAD projection computes. Results print one per line in the parser's syntax.

use super::{Diagnostic, ExitCode};
use clap::Subcommand;
use polys::{factor, Poly, Vars};

#[derive(Subcommand, Debug)]
pub enum PolyCommand {
    /// Resultant of F and G with respect to VAR.
    ///
    /// Example: polyscan poly resultant "x^2 + y^2 - 4" "x*y - 1" y
    Resultant {
        #[arg(allow_hyphen_values = true)]
        f: String,
        #[arg(allow_hyphen_values = true)]
        g: String,
        #[arg(allow_hyphen_values = true)]
        var: String,
    },
    /// Discriminant of F with respect to VAR.
    ///
    /// Example: polyscan poly discriminant "x^2 + b*x + c" x
    Discriminant {
        #[arg(allow_hyphen_values = true)]
        f: String,
        #[arg(allow_hyphen_values = true)]
        var: String,
    },
    /// Principal subresultant coefficients psc_0 .. psc_(min(deg F, deg G) - 1) in VAR.
    Psc {
        #[arg(allow_hyphen_values = true)]
        f: String,
        #[arg(allow_hyphen_values = true)]
        g: String,
        #[arg(allow_hyphen_values = true)]
        var: String,
    },
    /// Factorisation over Z: the integer unit (if not 1), then each factor, with `^k` for
    /// multiplicity k > 1. Univariate factors are irreducible; multivariate factors are
    /// square-free and pairwise coprime.
    Factor {
        #[arg(allow_hyphen_values = true)]
        f: String,
    },
    /// Greatest common divisor of F and G (positive leading coefficient).
    Gcd {
        #[arg(allow_hyphen_values = true)]
        f: String,
        #[arg(allow_hyphen_values = true)]
        g: String,
    },
    /// Square-free decomposition: the integer unit (if not 1), then each square-free factor
    /// with `^k` for multiplicity k > 1.
    Sqfree {
        #[arg(allow_hyphen_values = true)]
        f: String,
    },
}

/// Parses argument `which` (1-based, for the message) into `vars`.
fn parse(src: &str, which: usize, vars: &mut Vars) -> Result<Poly, Diagnostic> {
    Poly::parse(src, vars)
        .map_err(|e| Diagnostic::at(format!("argument {which}"), src, e.column, e.message))
}

fn variable(name: &str, vars: &Vars) -> Result<usize, Diagnostic> {
    vars.index(name).ok_or_else(|| {
        Diagnostic::new(
            ExitCode::BadInput,
            format!(
                "'{name}' does not occur in the polynomials (they use: {})",
                if vars.is_empty() {
                    "no variables".to_string()
                } else {
                    vars.names().join(", ")
                }
            ),
        )
    })
}

fn power(f: &Poly, m: u32, vars: &Vars) -> String {
    if m == 1 {
        f.to_text(vars)
    } else {
        format!("({})^{m}", f.to_text(vars))
    }
}

/// Runs one `poly` subcommand, printing to stdout.
pub fn run(cmd: PolyCommand) -> Result<(), Diagnostic> {
    for line in evaluate(cmd)? {
        println!("{line}");
    }
    Ok(())
}

/// The output lines of a `poly` subcommand.
pub fn evaluate(cmd: PolyCommand) -> Result<Vec<String>, Diagnostic> {
    let mut vars = Vars::new();
    Ok(match cmd {
        PolyCommand::Resultant { f, g, var } => {
            let (f, g) = (parse(&f, 1, &mut vars)?, parse(&g, 2, &mut vars)?);
            let v = variable(&var, &vars)?;
            vec![f.resultant(&g, v).to_text(&vars)]
        }
        PolyCommand::Discriminant { f, var } => {
            let f = parse(&f, 1, &mut vars)?;
            let v = variable(&var, &vars)?;
            vec![f.discriminant(v).to_text(&vars)]
        }
        PolyCommand::Psc { f, g, var } => {
            let (f, g) = (parse(&f, 1, &mut vars)?, parse(&g, 2, &mut vars)?);
            let v = variable(&var, &vars)?;
            f.principal_subresultant_coeffs(&g, v)
                .iter()
                .map(|p| p.to_text(&vars))
                .collect()
        }
        PolyCommand::Factor { f } => {
            let f = parse(&f, 1, &mut vars)?;
            let fz = factor(&f);
            unit_and_factors(&fz.unit, &fz.factors, &vars)
        }
        PolyCommand::Gcd { f, g } => {
            let (f, g) = (parse(&f, 1, &mut vars)?, parse(&g, 2, &mut vars)?);
            vec![f.gcd(&g).to_text(&vars)]
        }
        PolyCommand::Sqfree { f } => {
            let f = parse(&f, 1, &mut vars)?;
            let (unit, fs) = f.square_free();
            unit_and_factors(&unit, &fs, &vars)
        }
    })
}

fn unit_and_factors(unit: &polys::Int, fs: &[(Poly, u32)], vars: &Vars) -> Vec<String> {
    let mut out = Vec::new();
    if fs.is_empty() || *unit != polys::Int::from(1) {
        out.push(unit.to_string());
    }
    out.extend(fs.iter().map(|(g, m)| power(g, *m, vars)));
    out
}
