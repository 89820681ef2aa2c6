# Type stubs of the compiled module polyscan._native (python/src/*.rs); the docstrings
# with examples are the functions' own (help(polyscan.generate)).
from typing import Literal, Mapping, Optional, Sequence, Union, overload

__version__: str

# A set: input text, or a Set.
_SetLike = Union[str, "Set"]
# Iterator names: "j,i", "brown", or a sequence of names.
_Names = Union[str, Sequence[str]]
# Tile sizes: "w,h", or a sequence of names and positive integers.
_Sizes = Union[str, Sequence[Union[str, int]]]
# A tile shape matrix: "[[1,1],[0,1]]", or its integer rows.
_Shape = Union[str, Sequence[Sequence[int]]]
_Emit = Literal["c", "c-function", "c_function", "rust"]
_TileOrder = Literal["outside", "interleaved"]
_Engine = Literal["auto", "cad"]

class Error(Exception):
    """Base class of every error polyscan raises."""

class InputError(Error):
    """Bad input; ``str(e)`` shows the source line with a caret under the position."""

    message: str
    origin: str
    line: Optional[int]
    column: Optional[int]
    source_line: Optional[str]

class LimitError(Error):
    """A time, cell, point or size limit was reached."""

class ToolError(Error):
    """A missing or failing tool (no C compiler for verify)."""

class InternalError(Error):
    """A caught panic of the library: a bug of polyscan."""

class Set:
    """An integer set in polyscan's input language, as a value (str, ==, hash, pickle)."""

    def __init__(self, text: _SetLike, params: Optional[Mapping[str, int]] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def params(self) -> list[str]: ...
    @property
    def statements(self) -> dict[str, list[str]]: ...
    @property
    def param_values(self) -> dict[str, int]: ...
    def with_params(self, **params: int) -> "Set": ...
    def points(self, **params: int) -> list[tuple[str, tuple[int, ...]]]: ...
    def count(self, **params: int) -> int: ...
    def code(
        self,
        *,
        context: Optional[str] = None,
        order: Optional[_Names] = None,
        tile_sizes: Optional[_Sizes] = None,
        tile_shape: Optional[_Shape] = None,
        tile_order: _TileOrder = "outside",
        emit: _Emit = "c",
        separate: bool = False,
        timeout: Optional[float] = None,
        engine: _Engine = "auto",
        convex: bool = False,
        full_tiles: bool = True,
        max_cells: Optional[int] = None,
        check_overflow: bool = False,
    ) -> str: ...
    def _repr_svg_(self) -> Optional[str]: ...

def generate(
    text: _SetLike,
    context: Optional[str] = None,
    order: Optional[_Names] = None,
    tile_sizes: Optional[_Sizes] = None,
    tile_shape: Optional[_Shape] = None,
    tile_order: _TileOrder = "outside",
    emit: _Emit = "c",
    separate: bool = False,
    timeout: Optional[float] = None,
    *,
    engine: _Engine = "auto",
    convex: bool = False,
    full_tiles: bool = True,
    max_cells: Optional[int] = None,
    check_overflow: bool = False,
) -> str: ...
@overload
def verify(
    text: _SetLike,
    params: Union[None, Mapping[str, int], Sequence[Mapping[str, int]]] = None,
    *,
    context: Optional[str] = None,
    order: Optional[_Names] = None,
    tile_sizes: Optional[_Sizes] = None,
    tile_shape: Optional[_Shape] = None,
    tile_order: _TileOrder = "outside",
    separate: bool = False,
    timeout: Optional[float] = None,
    engine: _Engine = "auto",
    convex: bool = False,
    full_tiles: bool = True,
    max_cells: Optional[int] = None,
    check_overflow: bool = False,
    run_timeout: float = 60.0,
    details: Literal[False] = False,
) -> bool: ...
@overload
def verify(
    text: _SetLike,
    params: Union[None, Mapping[str, int], Sequence[Mapping[str, int]]] = None,
    *,
    context: Optional[str] = None,
    order: Optional[_Names] = None,
    tile_sizes: Optional[_Sizes] = None,
    tile_shape: Optional[_Shape] = None,
    tile_order: _TileOrder = "outside",
    separate: bool = False,
    timeout: Optional[float] = None,
    engine: _Engine = "auto",
    convex: bool = False,
    full_tiles: bool = True,
    max_cells: Optional[int] = None,
    check_overflow: bool = False,
    run_timeout: float = 60.0,
    details: Literal[True],
) -> list[dict[str, object]]: ...
@overload
def plot(
    text: _SetLike,
    params: Optional[Mapping[str, int]] = None,
    *,
    slice: Optional[Mapping[str, int]] = None,
    png: Literal[False] = False,
    title: Optional[str] = None,
    context: Optional[str] = None,
    order: Optional[_Names] = None,
    tile_sizes: Optional[_Sizes] = None,
    tile_shape: Optional[_Shape] = None,
    tile_order: _TileOrder = "outside",
    separate: bool = False,
    timeout: Optional[float] = None,
    engine: _Engine = "auto",
    convex: bool = False,
    full_tiles: bool = True,
    max_cells: Optional[int] = None,
) -> str: ...
@overload
def plot(
    text: _SetLike,
    params: Optional[Mapping[str, int]] = None,
    *,
    slice: Optional[Mapping[str, int]] = None,
    png: Literal[True],
    title: Optional[str] = None,
    context: Optional[str] = None,
    order: Optional[_Names] = None,
    tile_sizes: Optional[_Sizes] = None,
    tile_shape: Optional[_Shape] = None,
    tile_order: _TileOrder = "outside",
    separate: bool = False,
    timeout: Optional[float] = None,
    engine: _Engine = "auto",
    convex: bool = False,
    full_tiles: bool = True,
    max_cells: Optional[int] = None,
) -> bytes: ...
def la(
    text: str,
    time_limit: Optional[float] = None,
    *,
    timeout: Optional[float] = None,
    max_cells: Optional[int] = None,
) -> dict[str, object]: ...
def la_program(
    text: str,
    backend: Literal["generated", "blas", "nests"] = "generated",
    *,
    sizes: Optional[Mapping[str, int]] = None,
    scale: Optional[float] = None,
    seed: Optional[int] = None,
    tolerance: Optional[float] = None,
    repeat: Optional[int] = None,
    time_limit: Optional[float] = None,
    title: str = "problem",
) -> str: ...
def kernel(
    name: str,
    uplo: Optional[str] = None,
    trans: Optional[str] = None,
    side: Optional[str] = None,
    diag: Optional[str] = None,
    layout: Literal["col", "row"] = "col",
    openmp: bool = False,
    transb: Optional[str] = None,
) -> str: ...
def _library_generate_times(text: str, repeat: int) -> list[float]: ...
def _panic_for_test() -> None: ...
