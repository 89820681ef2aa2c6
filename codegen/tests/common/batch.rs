//! The batch runner of the differential tester: many generated programs compiled into one
//! C file, run once, and every instance sequence compared with brute-force enumeration.

use super::*;

/// A C compiler, or `None` (the caller skips with a message).
pub fn c_compiler() -> Option<String> {
    let candidates = std::env::var("CC")
        .ok()
        .into_iter()
        .chain(["cc".to_string(), "gcc".to_string()]);
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Instance cap per run: a generated loop with a wrong bound must not flood the output.
const RUN_CAP: u64 = 2_000_000;
/// Time limit per run, in seconds (SIGALRM).
const RUN_SECONDS: u32 = 5;

/// The C program running every `(domain, parameter set)` of a batch: each scan function
/// is renamed `scan_<d>`, statement macros print `<stmt> <args>`, a line `@ d p` opens
/// each run, and a signal or the instance cap ends only the current run (`! ...`).
fn batch_program(batch: &[(&Domain, &String)]) -> Result<String, String> {
    let mut c = String::from(
        "#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <signal.h>\n#include <unistd.h>\n",
    );
    c.push_str(HELPERS);
    let _ = writeln!(
        c,
        "static sigjmp_buf ps_jb;\nstatic unsigned long long ps_count;\nstatic void ps_on_signal(int s) {{ siglongjmp(ps_jb, s); }}\n#define PS_COUNT() do {{ if (++ps_count > {RUN_CAP}ULL) siglongjmp(ps_jb, 1000); }} while (0)"
    );
    let prefix = format!("#include <stdint.h>\n\n{HELPERS}");
    for (d, (dom, f)) in batch.iter().enumerate() {
        let arity = dom.depth;
        let args: Vec<String> = (0..arity).map(|i| format!("a{i}")).collect();
        let fmt = " %lld".repeat(arity);
        let casts: String = args.iter().map(|a| format!(", (long long)({a})")).collect();
        for k in 0..dom.statements.len() {
            let _ = writeln!(
                c,
                "#define S{k}({}) do {{ PS_COUNT(); printf(\"{k}{fmt}\\n\"{casts}); }} while (0)",
                args.join(", ")
            );
        }
        let body = f
            .strip_prefix(&prefix)
            .ok_or("the C function does not start with the helpers")?;
        c.push_str(&body.replacen("\nvoid scan(", &format!("\nstatic void scan_{d}("), 1));
        for k in 0..dom.statements.len() {
            let _ = writeln!(c, "#undef S{k}");
        }
    }
    // SIGALRM ends a run that loops without calling a statement (e.g. in a helper).
    c.push_str("int main(void) {\n  signal(SIGFPE, ps_on_signal);\n  signal(SIGSEGV, ps_on_signal);\n  signal(SIGALRM, ps_on_signal);\n  int s;\n");
    for (d, (dom, _)) in batch.iter().enumerate() {
        for (p, params) in dom.param_sets.iter().enumerate() {
            let args: Vec<String> = params.iter().map(|v| format!("INT64_C({v})")).collect();
            let _ = writeln!(
                c,
                "  printf(\"@ {d} {p}\\n\"); ps_count = 0; alarm({RUN_SECONDS});\n  if ((s = sigsetjmp(ps_jb, 1)) == 0) scan_{d}({}); else printf(\"! %d\\n\", s);\n  alarm(0);",
                args.join(", ")
            );
        }
    }
    c.push_str("  fflush(stdout);\n  return 0;\n}\n");
    Ok(c)
}

/// Compiles and runs `src`; the output, or why there is none.
fn compile_and_run(cc: &str, src: &str, timeout: Duration) -> Result<String, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let file = dir.path().join("batch.c");
    std::fs::write(&file, src).map_err(|e| e.to_string())?;
    let exe = dir.path().join("batch");
    let out = Command::new(cc)
        .args(["-std=c99", "-O0", "-w", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "the C compiler rejected the code:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut child = Command::new(&exe)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    // Read on a thread so a full pipe cannot block the child while we wait for it.
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(_) => break,
            None if start.elapsed() > timeout => {
                // Our own child, by its handle.
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the program ran longer than {timeout:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    reader
        .join()
        .map_err(|_| "reader thread failed".to_string())
}

/// Per domain of the batch, per parameter set: the instances, or why the run stopped.
type RunResults = Vec<Vec<Result<Instances, String>>>;

fn parse_output(text: &str, batch: &[(&Domain, &String)]) -> RunResults {
    let mut res: RunResults = batch
        .iter()
        .map(|(d, _)| vec![Err("no output".to_string()); d.param_sets.len()])
        .collect();
    let mut cur: Option<(usize, usize)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("@ ") {
            let v: Vec<usize> = rest.split(' ').filter_map(|x| x.parse().ok()).collect();
            if let [d, p] = v[..] {
                res[d][p] = Ok(Vec::new());
                cur = Some((d, p));
            }
            continue;
        }
        let Some((d, p)) = cur else { continue };
        if let Some(sig) = line.strip_prefix("! ") {
            let why = if sig == "1000" {
                format!("more than {RUN_CAP} instances")
            } else if sig == "14" {
                format!("ran longer than {RUN_SECONDS} s")
            } else {
                format!("signal {sig}")
            };
            res[d][p] = Err(why);
            continue;
        }
        if let Ok(list) = &mut res[d][p] {
            let nums: Vec<i64> = line
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            if let Some((&s, args)) = nums.split_first() {
                list.push((s as usize, args.to_vec()));
            }
        }
    }
    res
}

/// The first difference between two instance sequences, for a person.
pub fn first_difference(expected: &Instances, got: &Instances) -> Option<String> {
    codegen::verify::first_difference_with(expected, got, &|i| format!("S{}{:?}", i.0, i.1))
}

/// Counts of a run over many domains, and the failures with their seeds.
#[derive(Default, Debug)]
pub struct Report {
    pub pass: usize,
    pub degree: usize,
    pub limit: usize,
    pub failures: Vec<(u64, String, String)>,
    /// Parameter sets compared.
    pub runs: usize,
}

impl Report {
    pub fn total(&self) -> usize {
        self.pass + self.degree + self.limit + self.failures.len()
    }

    pub fn summary(&self) -> String {
        format!(
            "{} domains: {} passed ({} parameter sets compared), {} with an unsupported root of degree >= 3, {} stopped at a resource limit, {} failed",
            self.total(),
            self.pass,
            self.runs,
            self.degree,
            self.limit,
            self.failures.len()
        )
    }
}

/// Generates every domain (on `threads` threads), compiles them in batches of `batch`
/// into one C program each, runs it and compares with brute force.
pub fn run_domains(domains: &[Domain], cc: &str, threads: usize, batch: usize) -> Report {
    let mut report = Report::default();
    for chunk in domains.chunks(batch) {
        let generated = generate_all(chunk, threads);
        let mut ok: Vec<(&Domain, &String)> = Vec::new();
        for (d, r) in chunk.iter().zip(&generated) {
            match r {
                Ok(g) => ok.push((d, g)),
                Err(Outcome::Degree) => report.degree += 1,
                Err(Outcome::Limit) => report.limit += 1,
                Err(Outcome::Fail(m)) => report.failures.push((d.seed, d.text.clone(), m.clone())),
                Err(Outcome::Pass) => unreachable!("generate_text never passes"),
            }
        }
        check_batch(&ok, cc, &mut report);
    }
    report
}

fn generate_all(chunk: &[Domain], threads: usize) -> Vec<Result<String, Outcome>> {
    let scratch = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            return chunk
                .iter()
                .map(|_| Err(Outcome::Fail(e.to_string())))
                .collect()
        }
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<String, Outcome>>>> =
        chunk.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(d) = chunk.get(k) else { break };
                let r = generate_in_child(d, scratch.path());
                *slots[k].lock().expect("no panics while holding the lock") = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("no panics while holding the lock")
                .expect("every slot is filled")
        })
        .collect()
}

/// Compiles and checks a batch; when the batch as a whole fails to compile or run, each
/// domain is retried alone so that the failure is pinned on the right seed.
fn check_batch(ok: &[(&Domain, &String)], cc: &str, report: &mut Report) {
    if ok.is_empty() {
        return;
    }
    let outcome =
        batch_program(ok).and_then(|src| compile_and_run(cc, &src, Duration::from_secs(120)));
    let text = match outcome {
        Ok(t) => t,
        Err(e) if ok.len() == 1 => {
            let (d, _) = ok[0];
            report.failures.push((d.seed, d.text.clone(), e));
            return;
        }
        Err(_) => {
            for one in ok {
                check_batch(std::slice::from_ref(one), cc, report);
            }
            return;
        }
    };
    let results = parse_output(&text, ok);
    for ((d, _), res) in ok.iter().zip(results) {
        let mut failure = None;
        for (params, got) in d.param_sets.iter().zip(res) {
            let show_params = || {
                let p: Vec<String> = d
                    .params
                    .iter()
                    .zip(params)
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect();
                p.join(" ")
            };
            match got {
                Err(e) => {
                    failure = Some(format!("with {}: the program stopped: {e}", show_params()));
                    break;
                }
                Ok(got) => {
                    report.runs += 1;
                    let expected = d.brute_force(params);
                    if let Some(diff) = first_difference(&expected, &got) {
                        failure = Some(format!("with {}: {diff}", show_params()));
                        break;
                    }
                }
            }
        }
        match failure {
            None => report.pass += 1,
            Some(m) => report.failures.push((d.seed, d.text.clone(), m)),
        }
    }
}
