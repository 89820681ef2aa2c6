//! Tiled domains polyscan has never seen: random affine and quadratic domains with random
//! shapes (any invertible integer matrix, not only unimodular ones) and random mixes of
//! parametric and fixed sizes, each verified by `polyscan verify` against the original
//! domain ordered by tile. Deterministic per seed; a failure prints the input and flags.
//! `POLYSCAN_TILE_COUNT=500 cargo test --release --test tiling_random` runs a longer sweep;
//! `POLYSCAN_TILE_SEED=7 POLYSCAN_TILE_COUNT=1` replays one case.

use std::process::Command;

/// splitmix64: small, deterministic, good enough to pick test cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

struct Case {
    text: String,
    flags: Vec<String>,
    params: Vec<String>,
}

fn det(m: &[Vec<i64>]) -> i64 {
    match m.len() {
        1 => m[0][0],
        2 => m[0][0] * m[1][1] - m[0][1] * m[1][0],
        _ => (0..m.len())
            .map(|c| {
                let minor: Vec<Vec<i64>> = m[1..]
                    .iter()
                    .map(|r| (0..m.len()).filter(|&j| j != c).map(|j| r[j]).collect())
                    .collect();
                let s = if c % 2 == 0 { 1 } else { -1 };
                s * m[0][c] * det(&minor)
            })
            .sum(),
    }
}

fn case(seed: u64) -> Case {
    let mut r = Rng(seed);
    let dims = r.range(2, 3) as usize;
    let names = ["x", "y", "z"];
    let mut cons: Vec<String> = Vec::new();
    // A box, partly parametric, keeps brute force finite.
    for name in &names[..dims] {
        let lo = r.range(-4, 1);
        if r.range(0, 1) == 0 {
            cons.push(format!("{lo} <= {name} <= n + {}", r.range(-1, 3)));
        } else {
            cons.push(format!("{lo} <= {name} <= {}", r.range(2, 7)));
        }
    }
    // Random affine cuts, sometimes a quadratic one (clamped tiling then).
    for _ in 0..r.range(0, 2) {
        let terms: Vec<String> = names[..dims]
            .iter()
            .map(|v| format!("{}{v}", r.range(-2, 2)))
            .collect();
        cons.push(format!("{} <= n + {}", terms.join(" + "), r.range(0, 6)));
    }
    if r.range(0, 3) == 0 {
        cons.push(format!(
            "x^2 + {}y^2 <= n + {}",
            r.range(1, 2),
            r.range(4, 12)
        ));
    }
    let text = format!(
        "[n] -> {{ S[{}] : {} }}",
        names[..dims].join(", "),
        cons.join(" and ")
    )
    .replace("+ -", "- ");
    // An invertible shape with small entries.
    let shape = loop {
        let m: Vec<Vec<i64>> = (0..dims)
            .map(|i| {
                (0..dims)
                    .map(|j| {
                        if i == j {
                            r.range(1, 2)
                        } else {
                            r.range(-1, 1)
                        }
                    })
                    .collect()
            })
            .collect();
        if det(&m) != 0 {
            break m;
        }
    };
    let shape_text = format!(
        "[{}]",
        shape
            .iter()
            .map(|row| format!(
                "[{}]",
                row.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    let size_names = ["w", "h", "d"];
    let mut sizes = Vec::new();
    let mut parametric = Vec::new();
    for s in &size_names[..dims] {
        if r.range(0, 2) == 0 {
            sizes.push(r.range(1, 4).to_string());
        } else {
            sizes.push(s.to_string());
            parametric.push(*s);
        }
    }
    let mut flags = vec![
        "--tile-shape".to_string(),
        shape_text,
        "--tile-sizes".to_string(),
        sizes.join(","),
    ];
    if r.range(0, 3) == 0 && !text.contains('^') {
        flags.extend(["--tile-order".to_string(), "interleaved".to_string()]);
    }
    let mut params = Vec::new();
    for _ in 0..4 {
        let mut set = vec![format!("n={}", r.range(-1, 7))];
        for p in &parametric {
            set.push(format!("{p}={}", r.range(1, 5)));
        }
        params.extend(["--params".to_string(), set.join(",")]);
    }
    Case {
        text,
        flags,
        params,
    }
}

#[test]
fn random_tilings_match_brute_force() {
    let count: u64 = std::env::var("POLYSCAN_TILE_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let start: u64 = std::env::var("POLYSCAN_TILE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut failures = Vec::new();
    for seed in start..start + count {
        let c = case(seed);
        let file = dir.path().join(format!("case{seed}.pset"));
        std::fs::write(&file, &c.text).expect("scratch file");
        let out = Command::new(env!("CARGO_BIN_EXE_polyscan"))
            .arg("verify")
            .arg(&file)
            .args(&c.flags)
            .args(&c.params)
            .args(["--timeout", "20"])
            .output()
            .expect("the polyscan binary runs");
        let code = out.status.code().unwrap_or(-1);
        if code != 0 {
            failures.push(format!(
                "seed {seed}: exit {code}\n  {}\n  flags {:?}\n  {}{}",
                c.text,
                c.flags,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} tiled domains failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
