#!/usr/bin/env bash
# The Python package's tests (the last step of scripts/test, which installs the Debian
# packages first: python3-venv, and python3-dev for `cargo test`). `pip install
# ./python[test]` builds the wheel with maturin (fetched by pip from the package registry,
# like pytest, islpy, nbclient and ipykernel) and installs it into a virtual environment
# made afresh under the target directory, so that reruns start clean; the suite compares
# the package with brute force, islpy and the `polyscan` binary (built here in release
# mode), and runs the example notebook.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
cargo build --release --bin polyscan
venv="$target/python-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "./python[test]"
POLYSCAN_BIN="$target/release/polyscan" "$venv/bin/python" -m pytest -q python/tests
