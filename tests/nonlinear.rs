//! The non-linear corpus `tests/nonlinear/`: polyscan's generated loops against hand-written
//! reference nests.
//!
//! Each corpus domain is `NAME.pset` with `# context:`, `# order:` and `# params:` header
//! lines and the reference `NAME.ref.c` (a fragment using `tests/nonlinear/ref_helpers.h`);
//! the seed examples `examples/seed/NAME.pset` have their reference and header lines in
//! `tests/nonlinear/seed/NAME.{ref.c,meta}`. This file owns two checks:
//!
//! * `generated_matches_reference`: per domain one C program runs the `gen --emit c`
//!   fragment and the reference for every `# params` line; the two instance sequences must
//!   be identical (order included). `polyscan verify` compares the generated code with
//!   brute force at the same parameters, so the reference is checked through it.
//! * `shape_against_reference`: `for` and `if` counts of the generated fragment against the
//!   reference, as a Markdown table (`-- --nocapture` shows it on success); asserts that
//!   polyscan is at most twice the reference per corpus domain and 1.25 times on geometric
//!   mean. The seed examples are listed but not asserted.
//!
//! `benches/nonlinear.sh` times the same pairs at the `# bench:` parameters.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Instances one fragment may emit at one parameter set before the program gives up: far
/// above every `# params` line, so hitting it means a runaway loop.
const MAX_INSTANCES: u64 = 2_000_000;
/// Wall time for one domain's program (all parameter sets, both fragments).
const RUN_LIMIT: Duration = Duration::from_secs(30);

struct Entry {
    name: String,
    pset: PathBuf,
    reference: PathBuf,
    context: Option<String>,
    order: Option<String>,
    /// One assignment per `# params` line, in the pset's parameter order.
    params: Vec<Vec<(String, i64)>>,
    /// A seed example: listed in the shape table, not asserted.
    seed: bool,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_dir() -> PathBuf {
    root().join("tests/nonlinear")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The value of every `# key: value` header line.
fn header<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let tag = format!("# {key}:");
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(tag.as_str()))
        .map(str::trim)
        .collect()
}

/// The pset without its comment lines.
fn body(pset: &str) -> String {
    pset.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parameter names: the `[a, b] ->` before the set, none without it.
fn param_names(pset: &str) -> Vec<String> {
    let b = body(pset);
    let brace = b.find('{').expect("a set in braces");
    match b[..brace].find("->") {
        Some(arrow) => {
            let list = &b[..arrow];
            let (open, close) = (list.find('[').unwrap(), list.rfind(']').unwrap());
            list[open + 1..close]
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        }
        None => Vec::new(),
    }
}

/// Statement names in file order: identifiers directly followed by `[` inside the set.
fn statement_names(pset: &str) -> Vec<String> {
    let b = body(pset);
    let set = &b[b.find('{').expect("a set in braces")..];
    let bytes = set.as_bytes();
    let mut names: Vec<String> = Vec::new();
    for (k, &c) in bytes.iter().enumerate() {
        if c != b'[' {
            continue;
        }
        let mut s = k;
        while s > 0 && (bytes[s - 1].is_ascii_alphanumeric() || bytes[s - 1] == b'_') {
            s -= 1;
        }
        let name = &set[s..k];
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// `n=3,m=4` against the pset's parameters; an empty line means no parameters.
fn parse_params(line: &str, names: &[String], what: &str) -> Vec<(String, i64)> {
    let mut got: Vec<(String, i64)> = Vec::new();
    for kv in line.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .unwrap_or_else(|| panic!("{what}: bad params `{line}`"));
        let v = v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{what}: bad value in `{line}`"));
        got.push((k.trim().to_string(), v));
    }
    names
        .iter()
        .map(|n| {
            let v = got.iter().find(|(k, _)| k == n).map(|p| p.1);
            (
                n.clone(),
                v.unwrap_or_else(|| panic!("{what}: `{line}` misses {n}")),
            )
        })
        .collect()
}

fn entry(name: String, pset: PathBuf, reference: PathBuf, meta: &str, seed: bool) -> Entry {
    let names = param_names(&read(&pset));
    let params: Vec<_> = header(meta, "params")
        .into_iter()
        .map(|l| parse_params(l, &names, &name))
        .collect();
    assert!(!params.is_empty(), "{name}: no `# params` line");
    Entry {
        context: header(meta, "context").first().map(|s| s.to_string()),
        order: header(meta, "order").first().map(|s| s.to_string()),
        name,
        pset,
        reference,
        params,
        seed,
    }
}

/// The corpus (sorted by name), then the seed examples.
fn entries() -> Vec<Entry> {
    let dir = corpus_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/nonlinear exists")
        .filter_map(|e| {
            let f = e.ok()?.file_name().into_string().ok()?;
            f.strip_suffix(".pset").map(str::to_string)
        })
        .collect();
    names.sort();
    let mut out: Vec<Entry> = names
        .into_iter()
        .map(|n| {
            let pset = dir.join(format!("{n}.pset"));
            let meta = read(&pset);
            entry(
                n.clone(),
                pset,
                dir.join(format!("{n}.ref.c")),
                &meta,
                false,
            )
        })
        .collect();
    assert!(out.len() >= 22, "the corpus has {} domains", out.len());
    for n in [
        "nonconvex",
        "nonconvex2",
        "sphere",
        "steinmetz",
        "two-statements",
    ] {
        let meta = read(&dir.join(format!("seed/{n}.meta")));
        let pset = root().join(format!("examples/seed/{n}.pset"));
        let reference = dir.join(format!("seed/{n}.ref.c"));
        out.push(entry(format!("seed/{n}"), pset, reference, &meta, true));
    }
    out
}

/// `polyscan gen --emit c` for the entry; panics with polyscan's message on failure.
fn generate(e: &Entry) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_polyscan"));
    cmd.arg("gen").arg(&e.pset).args(["--emit", "c"]);
    context_and_order(&mut cmd, e);
    let out = cmd.output().expect("polyscan runs");
    assert!(
        out.status.success(),
        "{}: polyscan gen failed: {}",
        e.name,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn context_and_order(cmd: &mut Command, e: &Entry) {
    if let Some(c) = &e.context {
        cmd.args(["--context", c]);
    }
    if let Some(o) = &e.order {
        cmd.args(["--order", o]);
    }
}

fn show_params(p: &[(String, i64)]) -> String {
    let s: Vec<String> = p.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if s.is_empty() {
        "no parameters".into()
    } else {
        s.join(",")
    }
}

/// One C program: `nl_gen(params)` and `nl_ref(params)` around the two fragments; `main`
/// prints `== gen K` / `== ref K` before each run at parameter set K, and every instance
/// as a line `STMT v1 v2 ...` (statement index in file order).
fn c_program(e: &Entry, generated: &str) -> String {
    let pset = read(&e.pset);
    let sig: Vec<String> = param_names(&pset)
        .iter()
        .map(|n| format!("int64_t {n}"))
        .collect();
    let sig = if sig.is_empty() {
        "void".to_string()
    } else {
        sig.join(", ")
    };
    let mut c = String::from("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n");
    c += codegen::emit_c::HELPERS;
    c += &format!(
        "\n#include \"{}\"\n",
        corpus_dir().join("ref_helpers.h").display()
    );
    c += &format!(
        "static unsigned long long nl_count;
static void nl_emit(int s, const int64_t *v, size_t k) {{
  if (++nl_count > {MAX_INSTANCES}ULL) {{ fprintf(stderr, \"more than {MAX_INSTANCES} instances\\n\"); exit(3); }}
  printf(\"%d\", s);
  for (size_t q = 0; q < k; q++) printf(\" %lld\", (long long)v[q]);
  putchar('\\n');
}}
"
    );
    // A variadic macro per statement: the fragments call S(i, j) with any expressions.
    for (k, s) in statement_names(&pset).iter().enumerate() {
        c += &format!(
            "#define {s}(...) nl_emit({k}, (const int64_t[]){{__VA_ARGS__}}, \
             sizeof((int64_t[]){{__VA_ARGS__}}) / sizeof(int64_t))\n"
        );
    }
    let reference = read(&e.reference);
    c += &format!("static void nl_gen({sig}) {{\nnl_count = 0;\n{generated}\n}}\n");
    c += &format!("static void nl_ref({sig}) {{\nnl_count = 0;\n{reference}\n}}\n");
    c += "int main(void) {\n";
    for (k, p) in e.params.iter().enumerate() {
        let args: Vec<String> = p.iter().map(|(_, v)| format!("INT64_C({v})")).collect();
        let args = args.join(", ");
        c += &format!("  puts(\"== gen {k}\"); nl_gen({args});\n");
        c += &format!("  puts(\"== ref {k}\"); nl_ref({args});\n");
    }
    c + "  return 0;\n}\n"
}

/// Compiles and runs `src`, killing the run after `RUN_LIMIT`; returns its stdout.
fn compile_and_run(name: &str, src: &str, dir: &Path) -> Result<String, String> {
    let stem = name.replace('/', "_");
    let (c_file, exe) = (dir.join(format!("{stem}.c")), dir.join(&stem));
    std::fs::write(&c_file, src).unwrap();
    let cc = Command::new("gcc")
        .args(["-O1", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .output()
        .expect("gcc runs");
    if !cc.status.success() {
        return Err(format!(
            "gcc failed on {}:\n{}",
            c_file.display(),
            String::from_utf8_lossy(&cc.stderr)
        ));
    }
    // Output to a file, not a pipe, so that the run never blocks on a full pipe while it
    // is polled for the time limit.
    let out_file = dir.join(format!("{stem}.out"));
    let mut child = Command::new(&exe)
        .stdout(std::fs::File::create(&out_file).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {RUN_LIMIT:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if !status.success() {
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        return Err(format!("the program failed ({status}): {err}"));
    }
    Ok(read(&out_file))
}

/// Instance lines per `== gen K` / `== ref K` section, in the order of the program.
fn sections(out: &str) -> Vec<(String, Vec<&str>)> {
    let mut secs: Vec<(String, Vec<&str>)> = Vec::new();
    for line in out.lines() {
        match line.strip_prefix("== ") {
            Some(tag) => secs.push((tag.to_string(), Vec::new())),
            None => secs
                .last_mut()
                .expect("a section header first")
                .1
                .push(line),
        }
    }
    secs
}

/// `1 3 4` (statement index, values) as `B(3, 4)`.
fn show_instance(line: Option<&&str>, stmts: &[String]) -> String {
    let Some(line) = line else {
        return "nothing (the sequence ended)".into();
    };
    let mut it = line.split(' ');
    let s: usize = it.next().unwrap().parse().unwrap();
    let vals: Vec<&str> = it.collect();
    format!("{}({})", stmts[s], vals.join(", "))
}

/// (a) generated against reference, (b) `polyscan verify` against brute force; an error
/// message per failure.
fn check(e: &Entry, dir: &Path) -> Vec<String> {
    let mut errors = Vec::new();
    let generated = generate(e);
    let stmts = statement_names(&read(&e.pset));
    match compile_and_run(&e.name, &c_program(e, &generated), dir) {
        Err(msg) => errors.push(format!("{}: {msg}", e.name)),
        Ok(out) => {
            let secs = sections(&out);
            assert_eq!(
                secs.len(),
                2 * e.params.len(),
                "{}: truncated output",
                e.name
            );
            for (k, p) in e.params.iter().enumerate() {
                let (gen, reference) = (&secs[2 * k].1, &secs[2 * k + 1].1);
                if let Some(q) =
                    (0..gen.len().max(reference.len())).find(|&q| gen.get(q) != reference.get(q))
                {
                    errors.push(format!(
                        "{} at {}: instance #{q} is {} in polyscan's code but {} in the \
                         reference ({} and {} instances in all)",
                        e.name,
                        show_params(p),
                        show_instance(gen.get(q), &stmts),
                        show_instance(reference.get(q), &stmts),
                        gen.len(),
                        reference.len()
                    ));
                }
            }
        }
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_polyscan"));
    cmd.arg("verify").arg(&e.pset);
    context_and_order(&mut cmd, e);
    for p in e.params.iter().filter(|p| !p.is_empty()) {
        cmd.args(["--params", &show_params(p)]);
    }
    let out = cmd.output().expect("polyscan runs");
    if !out.status.success() {
        errors.push(format!(
            "{}: polyscan verify differs from brute force (exit {:?}):\n{}{}",
            e.name,
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    errors
}

#[test]
fn generated_matches_reference() {
    let all = entries();
    let dir = tempfile::tempdir().unwrap();
    // Two workers: the machines this runs on have two cores, and each domain is a gcc run.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let errors = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(e) = all.get(k) else { break };
                let errs = check(e, dir.path());
                errors.lock().unwrap().extend(errs);
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Counts of the keywords `for` and `if` as tokens, outside comments.
fn loops_and_ifs(c: &str) -> (usize, usize) {
    let mut code = String::new();
    let mut rest = c;
    while let Some(k) = rest.find("/*") {
        code += &rest[..k];
        rest = rest[k..].find("*/").map_or("", |e| &rest[k + e + 2..]);
    }
    code += rest;
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let words = code.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'));
    words.fold((0, 0), |(f, i), w| match w {
        "for" => (f + 1, i),
        "if" => (f, i + 1),
        _ => (f, i),
    })
}

fn geomean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

#[test]
fn shape_against_reference() {
    println!("| domain | polyscan for+if | reference for+if | ratio |");
    println!("|---|---|---|---|");
    let (mut corpus, mut seed) = (Vec::new(), Vec::new());
    let mut too_big = Vec::new();
    for e in entries() {
        let (gf, gi) = loops_and_ifs(&generate(&e));
        let (rf, ri) = loops_and_ifs(&read(&e.reference));
        let ratio = (gf + gi) as f64 / (rf + ri) as f64;
        println!(
            "| {} | {gf}+{gi} = {} | {rf}+{ri} = {} | {ratio:.2} |",
            e.name,
            gf + gi,
            rf + ri
        );
        if e.seed {
            seed.push(ratio);
        } else {
            corpus.push(ratio);
            if ratio > 2.0 {
                too_big.push(format!("{} ({ratio:.2})", e.name));
            }
        }
    }
    let (gm, gm_seed) = (geomean(&corpus), geomean(&seed));
    println!("\ngeometric mean of the ratios, corpus: {gm:.3}");
    println!("geometric mean of the ratios, seed examples (not asserted): {gm_seed:.3}");
    assert!(
        too_big.is_empty(),
        "more than twice the reference's loops and ifs: {}",
        too_big.join(", ")
    );
    assert!(gm <= 1.25, "geometric mean {gm:.3} > 1.25");
}
