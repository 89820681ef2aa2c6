//! Limits stop generation where it is: a run stopped by its time limit returns within
//! 1.5x the limit, says why, and leaves nothing running (the process uses no CPU after).

use codegen::input::parse_problem;
use codegen::{Engine, Pipeline, StopReason};
use std::time::{Duration, Instant};

/// A domain of the kind issue 23 describes (degree-3 terms mixing parameters and
/// iterators in three constraints): its CAD takes minutes.
const HARD: &str = "[n, m] -> { S[i, j, k] : -5 <= i <= 5 and -5 <= j <= 5 and -5 <= k <= 5 \
    and -3*j*i*n - 4*n*n - j*j*j + 4*j*i*k <= 4 and k*k*j - m*i*i + n*k*j*i >= 2 \
    and i*j*k*m + n*n*k - j*j*i <= 7 }";

/// CPU time of this process so far (user + system), from /proc; `None` elsewhere.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux configuration Rust supports.
    Some(Duration::from_millis(ticks * 10))
}

#[test]
fn a_time_limit_stops_generation_within_one_and_a_half_times_it() {
    let problem = parse_problem(HARD).expect("the domain parses");
    let limit = Duration::from_secs(2);
    let started = Instant::now();
    let result = Pipeline::new(problem)
        .engine(Engine::Cad)
        .time_limit(limit)
        .run();
    let took = started.elapsed();
    let err = result.expect_err("the decomposition takes minutes: the limit must stop it");
    assert_eq!(
        err.stop_reason(),
        Some(StopReason::TimeLimit(limit)),
        "{err}"
    );
    assert!(
        took <= limit.mul_f64(1.5),
        "stopped after {took:?}, more than 1.5 x {limit:?}"
    );
    // Nothing keeps computing: over half a second the process uses (almost) no CPU.
    if let Some(before) = cpu_time() {
        std::thread::sleep(Duration::from_millis(500));
        let used = cpu_time().expect("read before") - before;
        assert!(
            used < Duration::from_millis(100),
            "{used:?} of CPU after the stop"
        );
    }
}

#[test]
fn a_cell_limit_names_itself() {
    // A ball: the projection is quick, the lifting makes hundreds of cells.
    let problem = parse_problem("{ T[x, y, z] : x^2 + y^2 + z^2 <= 4 }").expect("parses");
    let err = Pipeline::new(problem)
        .engine(Engine::Cad)
        .max_cells(10)
        .run()
        .expect_err("a ball takes 43 cells");
    assert_eq!(err.stop_reason(), Some(StopReason::CellLimit(10)), "{err}");
}
