//! `polyscan la` never panics: every prefix of the example problems and many random
//! mutations of them give a solution or a typed error.

use std::time::Duration;

use polyscan_la::compile;
use polyscan_la::interp::Rng;
use polyscan_la::search::SearchOptions;

const ALPHABET: &[char] = &[
    'A', 'n', 'm', '=', '(', ')', ',', '<', '>', '+', '-', '*', ' ', '\n', '0', '1', '?', '#', '.',
    'x',
];

#[test]
fn prefixes_and_mutations_never_panic() {
    // A few rewritten forms each, so the rewrites see the mutated inputs too.
    let opts = SearchOptions {
        time_limit: Duration::from_secs(5),
        max_states: 30,
        ..SearchOptions::default()
    };
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/la");
    let mut rng = Rng::new(7);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples/la")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files {
        let src = std::fs::read_to_string(&path).expect("read");
        let chars: Vec<char> = src.chars().collect();
        for cut in (0..chars.len()).step_by(7) {
            let s: String = chars[..cut].iter().collect();
            let _ = compile(&s, opts);
        }
        for _ in 0..60 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(c.len());
                match rng.below(3) {
                    0 => c[i] = ALPHABET[rng.below(ALPHABET.len())],
                    1 => {
                        c.remove(i);
                    }
                    _ => c.insert(i, ALPHABET[rng.below(ALPHABET.len())]),
                }
            }
            let s: String = c.iter().collect();
            let _ = compile(&s, opts);
        }
    }
    // Deep but accepted trees, and rejected deeper ones: none may exhaust the stack.
    let head = "n = 3\nMatrix A(n, n) <FullRank>\nMatrix B(n, n) <>\nB = ";
    for body in [
        format!("A{}", " + A * A".repeat(390)),
        format!("A{}", " - inv(A)".repeat(390)),
        format!("{}A{}", "trans(".repeat(99), ")".repeat(99)),
        format!("{}A{}", "inv(-".repeat(49), ")".repeat(49)),
        format!("A{}", " + A".repeat(2000)),
        format!("{}A{}", "(".repeat(3000), ")".repeat(3000)),
    ] {
        let _ = compile(&format!("{head}{body}\n"), opts);
    }
    // Degenerate but valid problems.
    for s in [
        "n = 3\nIdentityMatrix I(n, n)\nMatrix X(n, n) <>\nX = I\n",
        "n = 3\nIdentityMatrix I(n, n)\nMatrix X(n, n) <>\nX = inv(I)\n",
        "n = 3\nMatrix A(n, n) <>\nMatrix X(n, n) <>\nX = inv(0 * A)\n",
        "n = 3\nMatrix A(n, n) <>\nMatrix X(n, n) <>\nX = A - A\n",
        "n = 3\nScalar k <>\nScalar s <>\ns = inv(k - k)\n",
        "n = 3\nScalar k <>\nScalar s <>\ns = k - 1\n",
        "n = 3\nScalar k <>\nScalar s <>\ns = 2 * k - k * 3 + 1\n",
        "n = 3\nColumnVector x(n) <>\nScalar s <>\ns = trans(x) * x - 1 + trans(x) * x * 2\n",
        "n = 3\nZeroMatrix Z(n, n)\nMatrix X(n, n) <>\nX = inv(Z)\n",
        "n = 3\nColumnVector x(n) <>\nScalar s <>\ns = trans(x) * x\n",
        "n = 3\nColumnVector x(n) <>\nMatrix A(n, n) <>\nMatrix X(n, n) <>\nX = trans(x) * x * A\n",
    ] {
        let _ = compile(s, opts);
    }
}
