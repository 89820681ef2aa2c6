"""Call overhead of the Python binding: generating nonconvex2 (examples/seed/nonconvex2.pset)
with polyscan.generate, against the same library calls (parse, Pipeline with its defaults,
the C fragment) timed in Rust inside the same process, with no Python in between
(polyscan._native._library_generate_times). Rounds alternate between the two, so that both
see the same machine load. Prints the numbers; it is a benchmark, not a test.

    python python/benches/overhead.py [--rounds 9] [--calls 2000]
"""

import argparse
import statistics
import time
from pathlib import Path

import polyscan

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--calls", type=int, default=2000, help="calls per round and side")
    ap.add_argument("--file", default=str(ROOT / "examples" / "seed" / "nonconvex2.pset"))
    args = ap.parse_args()
    text = Path(args.file).read_text()

    expected = polyscan.generate(text)
    for _ in range(200):  # warm up both paths (allocator, caches)
        assert polyscan.generate(text) == expected
    polyscan._native._library_generate_times(text, 200)

    python, library = [], []
    for _ in range(args.rounds):
        times = []
        for _ in range(args.calls):
            start = time.perf_counter()
            polyscan.generate(text)
            times.append(time.perf_counter() - start)
        python.append(statistics.median(times))
        library.append(statistics.median(polyscan._native._library_generate_times(text, args.calls)))

    py_us = statistics.median(python) * 1e6
    lib_us = statistics.median(library) * 1e6
    print(f"input: {Path(args.file).name}, {args.rounds} rounds of {args.calls} calls each side")
    print(f"library call (Rust, in process): median {lib_us:8.1f} us  (rounds {min(library) * 1e6:.1f}..{max(library) * 1e6:.1f})")
    print(f"polyscan.generate (Python):      median {py_us:8.1f} us  (rounds {min(python) * 1e6:.1f}..{max(python) * 1e6:.1f})")
    print(f"ratio python / library: {py_us / lib_us:.3f} (limit 1.2); overhead {py_us - lib_us:.1f} us per call")


if __name__ == "__main__":
    main()
