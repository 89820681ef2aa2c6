"""polyscan.generate prints what `polyscan gen` prints: for every example, with no flags
and with the generation flags of its `# test: gen` and `# test: verify` lines, in each
output language; where the command refuses (exit code 2 or 3), generate raises
InputError or LimitError. (tests/pipeline_cli.rs checks the library against the command
the same way; this checks the binding.)"""

import subprocess

import pytest

import polyscan
from conftest import EXAMPLES, example_id, flags_to_kwargs, header_args, polyscan_binary, split_params

EMITS = ["c", "c-function", "rust"]


def flag_sets(path):
    sets = [[]]
    for args in header_args(path, "gen") + [split_params(a)[0] for a in header_args(path, "verify")]:
        if args not in sets:
            sets.append(args)
    return sets


CASES = [
    (path, flags, emit)
    for path in EXAMPLES
    for flags in flag_sets(path)
    for emit in EMITS
]


def case_id(case):
    path, flags, emit = case
    return " ".join([example_id(path), *flags, "--emit", emit])


@pytest.fixture(scope="module")
def binary():
    return polyscan_binary()


def test_every_example_is_compared():
    assert len(EXAMPLES) >= 35
    assert len({c[0] for c in CASES}) == len(EXAMPLES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_generate_prints_what_gen_prints(binary, case):
    path, flags, emit = case
    cli = subprocess.run(
        [binary, "gen", str(path), *flags, "--emit", emit],
        capture_output=True,
        text=True,
        timeout=600,
    )
    kwargs = flags_to_kwargs(flags)
    text = path.read_text()
    if cli.returncode == 0:
        assert polyscan.generate(text, emit=emit, **kwargs) == cli.stdout
        # A Set gives the same text, through generate and through its code method.
        s = polyscan.Set(text)
        assert s.code(emit=emit, **kwargs) == cli.stdout
    elif cli.returncode == 2:
        with pytest.raises(polyscan.InputError):
            polyscan.generate(text, emit=emit, **kwargs)
    else:
        assert cli.returncode == 3, cli.stderr
        with pytest.raises(polyscan.LimitError):
            polyscan.generate(text, emit=emit, **kwargs)


def test_check_overflow_prints_what_gen_prints(binary):
    path = next(p for p in EXAMPLES if example_id(p) == "domains/hyperbolic.pset")
    for emit in EMITS:
        cli = subprocess.run(
            [binary, "gen", str(path), "--check-overflow", "--emit", emit],
            capture_output=True, text=True, check=True,
        )
        assert polyscan.generate(path.read_text(), emit=emit, check_overflow=True) == cli.stdout
