//! Example file tests: every file under `examples/` names the commands that exercise it
//! in `# test:` header lines (`# test: verify --params n=0`), and the transcript of those
//! commands is kept beside it as `NAME.expected`, like isl's `codegen_test.sh` diffs each
//! input against its sibling `.c`. `POLYSCAN_BLESS=1 cargo test --test example_files`
//! rewrites the transcripts, so that a change of output shows up in review.
//!
//! A `# test:` line is the command line after `polyscan`, without the file: the file's
//! path (relative to the repository) is inserted after the subcommand. The transcript
//! holds, per command, `$ polyscan ARGS`, its standard output, its standard error and a
//! last line `exit N` when the exit code is not 0. Durations (`0.102 ms`, `1.5 s`) are
//! replaced by `<time>`: they are the only part of the output that changes between runs.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every file under `examples/`, sorted, relative to the repository root.
fn example_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.join("examples")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("examples/ is part of the repository") {
            let p = e.expect("a readable directory entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x != "expected") {
                out.push(p.strip_prefix(root).expect("under the root").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The `# test:` lines of a file's header.
fn test_lines(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.strip_prefix("# test:"))
        .map(|l| l.trim().to_string())
        .collect()
}

/// Splits a command line into words: spaces separate, double quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut started) = (false, false);
    for ch in line.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            c => {
                cur.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(cur);
    }
    out
}

/// `text` with every duration (a number followed by `ms`, `s`, `us` or `µs`) replaced by
/// `<time>`.
fn without_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        // A number starts here unless it continues a word (`a01`, `T2`, `x2`).
        let prev = rest[..start].chars().next_back();
        let in_word = prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        let len = rest[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len() - start);
        let after = &rest[start + len..];
        let unit = ["ms", "µs", "us", "s"].into_iter().find(|u| {
            after.strip_prefix(' ').unwrap_or(after).starts_with(u)
                && after
                    .strip_prefix(' ')
                    .unwrap_or(after)
                    .get(u.len()..)
                    .and_then(|t| t.chars().next())
                    .is_none_or(|c| !c.is_alphanumeric())
        });
        out.push_str(&rest[..start]);
        match unit {
            Some(u) if !in_word => {
                let skip = if after.starts_with(' ') { 1 } else { 0 } + u.len();
                out.push_str("<time>");
                rest = &after[skip..];
            }
            _ => {
                out.push_str(&rest[start..start + len]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The transcript of one file's commands.
fn transcript(root: &Path, file: &Path, lines: &[String]) -> String {
    let mut out = String::new();
    for line in lines {
        let mut args = words(line);
        let at = usize::from(!args.is_empty());
        args.insert(at, file.display().to_string());
        let o = Command::new(env!("CARGO_BIN_EXE_polyscan"))
            .args(&args)
            .current_dir(root)
            .output()
            .expect("the polyscan binary runs");
        out.push_str(&format!("$ polyscan {}\n", args.join(" ")));
        out.push_str(&without_times(&String::from_utf8_lossy(&o.stdout)));
        out.push_str(&without_times(&String::from_utf8_lossy(&o.stderr)));
        match o.status.code() {
            Some(0) => {}
            Some(c) => out.push_str(&format!("exit {c}\n")),
            None => out.push_str("killed by a signal\n"),
        }
    }
    out
}

#[test]
fn every_example_matches_its_transcript() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("POLYSCAN_BLESS").is_some();
    let files = example_files(&root);
    assert!(files.len() >= 50, "examples found: {}", files.len());
    // Two workers: most of the time goes to compiling C for `verify`.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let chunks: Vec<&[PathBuf]> = files.chunks(files.len().div_ceil(workers)).collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                let root = &root;
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for file in *chunk {
                        let src = std::fs::read_to_string(root.join(file)).expect("readable");
                        let lines = test_lines(&src);
                        if lines.is_empty() {
                            failures.push(format!("{}: no `# test:` line", file.display()));
                            continue;
                        }
                        let got = transcript(root, file, &lines);
                        let expected_path = root.join(file).with_extension("expected");
                        if bless {
                            std::fs::write(&expected_path, &got).expect("writable examples/");
                            continue;
                        }
                        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
                        if got != want {
                            failures.push(format!(
                                "{}: output differs from {} (POLYSCAN_BLESS=1 rewrites it)\n{}",
                                file.display(),
                                expected_path.display(),
                                first_difference(&want, &got)
                            ));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker does not panic"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The first line where two transcripts differ, with both versions.
fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    format!(
        "line {}:\n  expected: {}\n  got:      {}",
        i + 1,
        w.get(i).unwrap_or(&"<end>"),
        g.get(i).unwrap_or(&"<end>")
    )
}

#[test]
fn durations_are_masked_and_names_are_not() {
    assert_eq!(
        without_times("after 0.102 ms (1 states), 3s; T2 a01 2.5e8 FLOPs x1 s"),
        "after <time> (1 states), <time>; T2 a01 2.5e8 FLOPs x1 s"
    );
    assert_eq!(
        words(r#"gen --tile-shape "[[1, 1]]" -o x"#),
        ["gen", "--tile-shape", "[[1, 1]]", "-o", "x"]
    );
}
