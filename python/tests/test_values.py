"""Set as a value: str round-trips to an equal set, == and hash follow the canonical
text and the bound parameter values, pickling keeps both, and so does repr."""

import pickle
import subprocess
import sys

import pytest

import polyscan
from conftest import EXAMPLES, example_id


@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_str_pickle_and_hash_round_trip(path):
    s = polyscan.Set(path.read_text())
    again = polyscan.Set(str(s))
    assert again == s and hash(again) == hash(s)
    assert str(again) == str(s)  # the canonical text is a fixed point
    restored = pickle.loads(pickle.dumps(s))
    assert restored == s and hash(restored) == hash(s) and str(restored) == str(s)
    assert eval(repr(s), {"polyscan": polyscan}) == s
    bound = s.with_params(**{p: 2 for p in s.params})
    restored = pickle.loads(pickle.dumps(bound, protocol=pickle.HIGHEST_PROTOCOL))
    assert restored == bound and restored.param_values == bound.param_values
    assert eval(repr(bound), {"polyscan": polyscan}) == bound
    if s.params:
        assert bound != s


def test_equality_is_on_the_parsed_problem():
    a = polyscan.Set("[n] -> { S[i] : 0 <= i and i < n }")
    b = polyscan.Set("[n]->{S[i]:0<=i and i<n}  # the same, written differently")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != polyscan.Set("[n] -> { S[i] : 0 <= i and i <= n }")
    assert a != "[n] -> { S[i] : 0 <= i and i < n }"
    assert a.with_params(n=3) == polyscan.Set(str(a), params={"n": 3})
    assert a.with_params(n=3) != a.with_params(n=4)
    assert polyscan.Set(a) == a  # a set is accepted where text is


def test_hash_does_not_depend_on_the_process():
    code = (
        "import polyscan; "
        "print(hash(polyscan.Set('[n] -> { S[i, j] : 0 <= i < n and j = i }').with_params(n=2)))"
    )
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    }
    assert len(runs) == 1


def test_sets_are_usable_as_cache_keys():
    cache = {polyscan.Set("{ S[i] : 0 <= i <= 3 }"): "code"}
    assert cache[polyscan.Set("{S[i]: 0<=i<=3}")] == "code"


def test_bound_parameters_must_exist():
    with pytest.raises(polyscan.InputError, match="'m' is not a parameter"):
        polyscan.Set("[n] -> { S[i] : 0 <= i < n }").with_params(m=1)
    with pytest.raises(polyscan.InputError, match="the set has none"):
        polyscan.Set("{ S[i] : 0 <= i < 3 }", params={"n": 1})
