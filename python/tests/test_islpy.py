"""Affine examples against isl (islpy): the same points as isl's, in the order isl's own
schedule defines (the schedule map, else the coordinates, lexicographically; statements
in file order at one point). Domains isl cannot read (polynomial terms) are skipped."""

import re

import pytest

import polyscan
import setlang
from conftest import EXAMPLES, example_id
from test_points import parameter_values

isl = pytest.importorskip("islpy")


def sets_of(text):
    """The top-level sets of a file (comments removed): domain, then context/schedule."""
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    out, depth, start = [], 0, 0
    for m in re.finditer(r"[{}]", text):
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                out.append(text[start : m.end()].strip())
                start = m.end()
    return out


def isl_points(domain, schedule, statements, values):
    """isl's points of the domain at the parameter values, each with its sort key."""
    fixed = " and ".join(f"{n} = {v}" for n, v in values.items())
    if values:
        names = ", ".join(values)
        domain = domain.intersect_params(isl.Set(f"[{names}] -> {{ : {fixed} }}"))
    found = []
    if schedule is None:
        def visit(p):
            space = p.get_space()
            name = space.get_tuple_name(isl.dim_type.set)
            coords = tuple(
                p.get_coordinate_val(isl.dim_type.set, k).to_python()
                for k in range(space.dim(isl.dim_type.set))
            )
            found.append(((coords, statements.index(name)), (name, coords)))

        domain.foreach_point(visit)
    else:
        def visit_map(m):
            name = m.get_tuple_name(isl.dim_type.in_)
            n_in = m.dim(isl.dim_type.in_)

            def visit(p):
                n = p.get_space().dim(isl.dim_type.set)
                vals = [p.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(n)]
                coords, time = tuple(vals[:n_in]), tuple(vals[n_in:])
                found.append(((time, statements.index(name)), (name, coords)))

            m.wrap().foreach_point(visit)

        schedule.intersect_domain(domain).foreach_map(visit_map)
    return [p for _, p in sorted(found)]


def affine_examples():
    out = []
    for path in EXAMPLES:
        parts = sets_of(path.read_text())
        try:
            isl.UnionSet(parts[0])
        except isl.Error:
            continue  # polynomial terms: not isl's language
        out.append(path)
    return out


AFFINE = affine_examples()


def test_enough_affine_examples():
    assert len(AFFINE) >= 12, [example_id(p) for p in AFFINE]


@pytest.mark.parametrize("path", AFFINE, ids=example_id)
def test_same_points_in_the_same_order_as_isl(path):
    text = path.read_text()
    parts = sets_of(text)
    domain = isl.UnionSet(parts[0])
    schedule = None
    for extra in parts[1:]:
        if "->" in extra.split("{", 1)[1]:
            schedule = isl.UnionMap(extra)
        else:
            pytest.skip("a context set: isl's points would need it too")
    s = polyscan.Set(text)
    statements = list(s.statements)
    # setlang (the oracle of test_points) reads no Presburger terms; isl alone checks those.
    presburger = example_id(path).startswith("presburger/")
    oracle = None if presburger else setlang.parse(text)
    for values in parameter_values(path, s.params):
        if example_id(path) == "domains/unbounded.pset":
            with pytest.raises(polyscan.InputError):
                s.points(**values)
            return
        expected = isl_points(domain, schedule, statements, values)
        assert s.points(**values) == expected, f"{example_id(path)} at {values}"
        # The brute force of test_points agrees with isl too (a check of the oracle).
        if oracle is not None:
            box = max([15] + [3 * abs(v) + 6 for v in values.values()])
            assert setlang.brute_force(oracle, values, box) == expected
