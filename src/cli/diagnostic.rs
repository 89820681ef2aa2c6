//! [`Diagnostic`]: an error as the user sees it: a message, optionally the offending source
//! line with a caret under the position, and the exit code it maps to.

use std::fmt;

/// Process exit codes shared by every subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// Success.
    Ok = 0,
    /// Generated code and brute force disagree.
    Difference = 1,
    /// The input is malformed or inconsistent.
    BadInput = 2,
    /// A time, cell or memory limit was hit, or an external tool is missing.
    Resource = 3,
}

/// A rendered error.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// What went wrong, one sentence.
    pub message: String,
    /// (what is shown as the source, e.g. `argument 1` or `file.ps:3`, the line, 1-based column)
    pub snippet: Option<(String, String, usize)>,
    /// The exit code it maps to.
    pub code: ExitCode,
}

impl Diagnostic {
    /// A diagnostic without a source line.
    pub fn new(code: ExitCode, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            snippet: None,
            code,
        }
    }

    /// Bad input at a 1-based column of a one-line source.
    pub fn at(
        origin: impl Into<String>,
        line: &str,
        column: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            snippet: Some((origin.into(), line.to_string(), column)),
            code: ExitCode::BadInput,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.snippet {
            None => write!(f, "error: {}", self.message),
            Some((origin, line, column)) => {
                writeln!(f, "error: {}", self.message)?;
                writeln!(f, "  --> {origin}, column {column}")?;
                writeln!(f, "   |")?;
                writeln!(f, "   | {line}")?;
                // Tabs keep their width so the caret lines up under the character.
                let pad: String = line
                    .chars()
                    .take(column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                write!(f, "   | {pad}^")
            }
        }
    }
}
