"""Shared helpers of the Python tests: the repository's examples, their ``# test:``
header lines read into keyword arguments, and the ``polyscan`` binary."""

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(ROOT.glob("examples/**/*.pset"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# `polyscan gen` flags and the keyword arguments of polyscan.generate they map to.
_VALUE_FLAGS = {
    "--context": "context",
    "--order": "order",
    "--tile-sizes": "tile_sizes",
    "--tile-shape": "tile_shape",
    "--tile-order": "tile_order",
    "--emit": "emit",
    "--engine": "engine",
    "--timeout": "timeout",
    "--max-cells": "max_cells",
}
_BOOL_FLAGS = {
    "--separate": ("separate", True),
    "--convex": ("convex", True),
    "--no-separate": ("full_tiles", False),
    "--check-overflow": ("check_overflow", True),
}


def flags_to_kwargs(flags: List[str]) -> Dict[str, object]:
    """Generation flags of the command line as keyword arguments of ``generate``."""
    kw: Dict[str, object] = {}
    i = 0
    while i < len(flags):
        f = flags[i]
        if f in _BOOL_FLAGS:
            name, value = _BOOL_FLAGS[f]
            kw[name] = value
            i += 1
        elif f in _VALUE_FLAGS:
            value = flags[i + 1]
            name = _VALUE_FLAGS[f]
            if name == "timeout":
                kw[name] = float(value)
            elif name == "max_cells":
                kw[name] = int(value)
            else:
                kw[name] = value
            i += 2
        else:
            raise ValueError(f"flag {f} has no keyword argument in this test")
    return kw


def header_args(path: Path, command: str) -> List[List[str]]:
    """The arguments of the file's ``# test: COMMAND ...`` lines (after the command)."""
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("# test:"):
            words = shlex.split(line[len("# test:"):])
            if words and words[0] == command:
                out.append(words[1:])
    return out


def split_params(args: List[str]) -> Tuple[List[str], List[Dict[str, int]]]:
    """``verify`` arguments: the generation flags and the ``--params`` sets."""
    flags, sets = [], []
    i = 0
    while i < len(args):
        if args[i] == "--params":
            sets.append(
                {k: int(v) for k, v in (p.split("=") for p in args[i + 1].split(","))}
            )
            i += 2
        else:
            flags.append(args[i])
            i += 1
    return flags, sets


def example_id(path: Path) -> str:
    return str(path.relative_to(ROOT / "examples"))


def polyscan_binary() -> str:
    """The ``polyscan`` binary: $POLYSCAN_BIN, else a build under the target directory."""
    given = os.environ.get("POLYSCAN_BIN")
    if given:
        return given
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        candidate = target / profile / "polyscan"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("polyscan")
    if found:
        return found
    pytest.skip("no polyscan binary: cargo build --release --bin polyscan, or set POLYSCAN_BIN")
    raise AssertionError("unreachable")
