//! Files on either side of a command: reading an input file (errors point into it with
//! a caret) and writing an output file atomically.

use super::{Diagnostic, ExitCode};
use codegen::input::{parse_problem, InputError, Problem};
use std::io::Write;
use std::path::Path;

/// Reads and parses an input file, mapping errors to diagnostics with a caret.
pub fn load(path: &Path) -> Result<(String, Problem), Diagnostic> {
    let src = std::fs::read_to_string(path).map_err(|e| {
        Diagnostic::new(
            ExitCode::BadInput,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let problem =
        parse_problem(&src).map_err(|e| input_diagnostic(&path.display().to_string(), &e))?;
    Ok((src, problem))
}

pub fn input_diagnostic(origin: &str, e: &InputError) -> Diagnostic {
    Diagnostic::at(
        format!("{origin}:{}", e.line),
        &e.source_line,
        e.column,
        e.message.clone(),
    )
}

/// Writes via a temporary file in the same directory and a rename: never half-written.
pub fn write_atomically(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), Diagnostic> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let fail = |e: std::io::Error| {
        Diagnostic::new(
            ExitCode::BadInput,
            format!("cannot write {}: {e}", path.display()),
        )
    };
    // A device, pipe or socket (`-o /dev/null`, `-o /dev/stdout`) is written to, never
    // replaced: renaming a file over /dev/null would turn it into a regular file for
    // every other program on the machine.
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.is_dir() {
            return Err(fail(std::io::Error::other("it is a directory")));
        }
        if !meta.is_file() {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(fail)?;
            return f.write_all(bytes.as_ref()).map_err(fail);
        }
    }
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    tmp.write_all(bytes.as_ref()).map_err(fail)?;
    keep_usual_permissions(tmp.as_file(), path).map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// tempfile creates files readable by the owner only; an output file should look like any
/// other, or keep the permissions of the file it replaces.
#[cfg(unix)]
fn keep_usual_permissions(file: &std::fs::File, path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let perms = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => std::fs::Permissions::from_mode(0o644),
    };
    file.set_permissions(perms)
}

#[cfg(not(unix))]
fn keep_usual_permissions(_: &std::fs::File, _: &Path) -> std::io::Result<()> {
    Ok(())
}
