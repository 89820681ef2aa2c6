"""Set.points against a brute-force enumeration written here (tests/setlang.py reads the
example files independently of polyscan): the same points in the same order, for every
example domain at several parameter values, and Set.count agrees."""

import pytest

import polyscan
import setlang
from conftest import EXAMPLES, example_id, header_args, split_params

# Half-widths of the brute-force box where the default (three times the largest
# parameter plus 6, at least 15) does not cover the domain.
BOX = {"seed/nonconvex.pset": 95}
# Domains that are unbounded for some parameter values: generation refuses them.
UNBOUNDED = {"domains/unbounded.pset"}


def parameter_values(path, params):
    """A few vectors for every example (0, 1, 5, -1, 3, mixed) plus its verify lines'."""
    k = len(params)
    if k == 0:
        return [{}]
    vectors = [(v,) * k for v in (0, 1, 5, -1, 3)]
    vectors += [tuple([2, 5, 1, 4][:k]), tuple([6, 2, 3, 0][:k])]
    out = [dict(zip(params, v)) for v in vectors]
    for args in header_args(path, "verify"):
        for values in split_params(args)[1]:
            mine = {n: v for n, v in values.items() if n in params}
            if len(mine) == k and mine not in out:
                out.append(mine)
    return out


# setlang reads no Presburger terms (exists, floor, mod): the affine Presburger examples are
# checked against isl (test_islpy), all of them by codegen/tests/presburger.rs and their
# `# test: verify` lines.
POINT_EXAMPLES = [p for p in EXAMPLES if not example_id(p).startswith("presburger/")]


@pytest.mark.parametrize("path", POINT_EXAMPLES, ids=example_id)
def test_points_are_the_brute_force_points_in_order(path):
    text = path.read_text()
    oracle = setlang.parse(text)
    s = polyscan.Set(text)
    assert s.params == oracle.params
    assert list(s.statements) == [st.name for st in oracle.statements]
    compared = 0
    for values in parameter_values(path, oracle.params):
        box = BOX.get(example_id(path), max([15] + [3 * abs(v) + 6 for v in values.values()]))
        expected = setlang.brute_force(oracle, values, box)
        if expected is None:
            continue  # outside the context: the code may do anything there
        if example_id(path) in UNBOUNDED:
            with pytest.raises(polyscan.InputError, match="unbounded"):
                s.points(**values)
            return
        got = s.points(**values)
        # Every point lies inside the box, so that the box saw every point polyscan ran.
        assert all(abs(c) < box for _, p in got for c in p), values
        assert got == expected, f"{example_id(path)} at {values}"
        assert s.count(**values) == len(expected)
        assert s.with_params(**values).points() == expected
        compared += 1
    assert compared >= 1


def test_points_hold_exact_integers_beyond_64_bits():
    s = polyscan.Set("{ S[i] : 9223372036854775806 <= i <= 9223372036854775809 }")
    big = 2**63
    assert s.points() == [("S", (big - 2,)), ("S", (big - 1,)), ("S", (big,)), ("S", (big + 1,))]


def test_parameters_are_checked():
    s = polyscan.Set("[n] -> { S[i] : 0 <= i < n }")
    with pytest.raises(polyscan.InputError, match="no value for parameter 'n'"):
        s.points()
    with pytest.raises(polyscan.InputError, match="'m' is not a parameter"):
        s.points(n=1, m=2)
    assert s.points(n=2) == [("S", (0,)), ("S", (1,))]
    # Values given to points() override the bound ones.
    assert s.with_params(n=5).count(n=2) == 2


def test_too_many_points_is_a_limit():
    s = polyscan.Set("[n] -> { S[i, j] : 0 <= i < n and 0 <= j < n }")
    with pytest.raises(polyscan.LimitError, match="more than 10000000 points"):
        s.points(n=4000)
    assert s.count(n=1000) == 1_000_000
