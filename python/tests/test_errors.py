"""The bad inputs of docs/bad-inputs.md through the Python API: each row's exception
(InputError for exit code 2, LimitError for 3) with the row's position (line, column
and the origin: the input or the context) and message, or, for exit code 0, the text
the row names in the output. Nothing panics (an InternalError would fail the test)."""

import re

import pytest

import polyscan
from conftest import ROOT, flags_to_kwargs

DOC = ROOT / "docs" / "bad-inputs.md"

# Rows whose documented position disagrees with what polyscan reports (and with the
# command-line test, tests/bad_inputs.rs, which checks the reported one): the input as
# written in the table is read, and the reported position is asserted instead.
KNOWN_DOC_POSITIONS: dict[str, tuple[int, int]] = {}


def decode(cell):
    cell = cell.strip()
    if cell == "(empty)":
        return ""
    assert cell.startswith("`") and cell.endswith("`"), cell
    return cell[1:-1].replace("⏎ ", "\n").replace("⏎", "\n")


def rows(heading):
    """The table rows under a heading, as lists of cells."""
    text = DOC.read_text()
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            out.append(cells)
    return out


def position(message):
    m = re.search(r"(?:^|; )(?::(\d+), )?column (\d+)", message)
    if not m:
        return None
    return (int(m.group(1) or 1), int(m.group(2)))


def arguments(cell):
    cell = cell.strip().strip("`").strip()
    if not cell:
        return {}
    if cell.startswith("--context "):
        return {"context": cell[len("--context "):]}
    return flags_to_kwargs(cell.split())


GEN_ROWS = rows("## `polyscan gen FILE -o OUT`")
LA_ROWS = rows("## `polyscan la FILE`")


def test_the_tables_are_read():
    assert len(GEN_ROWS) >= 60 and len(LA_ROWS) >= 15


@pytest.mark.parametrize("row", GEN_ROWS, ids=[r[0].strip("`") for r in GEN_ROWS])
def test_gen_row(row):
    case, args, input_cell, code, message = row
    case = case.strip("`")
    text = decode(input_cell)
    kwargs = arguments(args)
    code = int(code)
    if code == 0:
        out = polyscan.generate(text, **kwargs)
        quoted = re.findall(r"`([^`]*)`", message)
        needle = quoted[0] if quoted else message.split(";")[0].strip()
        assert needle in out, out
        return
    if code == 3:
        with pytest.raises(polyscan.LimitError) as err:
            polyscan.generate(text, **kwargs)
        assert "limit" in str(err.value)
        return
    assert code == 2
    with pytest.raises(polyscan.InputError) as err:
        polyscan.generate(text, **kwargs)
    e = err.value
    first = message.split(";")[0].split(" (found by fuzzing")[0].strip()
    assert first in e.message, (first, e.message)
    where = KNOWN_DOC_POSITIONS.get(case, position(message))
    if where is not None:
        assert (e.line, e.column) == where, str(e)
        assert e.origin == ("context" if "context" in kwargs else "input")
        # The caret text: the source line, and the caret under the column.
        lines = str(e).splitlines()
        assert lines[0] == e.message
        assert lines[1] == f"  --> {e.origin}:{e.line}, column {e.column}"
        assert lines[3] == f"   | {e.source_line}"
        assert lines[4].index("^") == len("   | ") + e.column - 1


@pytest.mark.parametrize("row", LA_ROWS, ids=[r[0].strip("`") for r in LA_ROWS])
def test_la_row(row):
    case, input_cell, code, message = row
    text = decode(input_cell)
    assert int(code) == 2
    with pytest.raises(polyscan.InputError) as err:
        polyscan.la(text, time_limit=0)
    e = err.value
    first = message.split(";")[0].strip()
    assert first in e.message, (first, e.message)
    where = position(message)
    if where is not None:
        assert (e.line, e.column) == where, str(e)
        assert e.source_line == text.splitlines()[e.line - 1] if text else e.source_line == ""


def test_input_errors_are_value_errors_of_polyscan():
    assert issubclass(polyscan.InputError, polyscan.Error)
    assert issubclass(polyscan.LimitError, polyscan.Error)
    assert issubclass(polyscan.ToolError, polyscan.Error)
    with pytest.raises(polyscan.InputError) as err:
        polyscan.generate("{ S[i] : 0 <= i <= 3 }", emit="fortran")
    assert err.value.line is None and "emit" in str(err.value)
