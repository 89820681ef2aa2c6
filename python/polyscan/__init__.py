"""polyscan: exact loop nests for integer sets bounded by polynomial constraints.

Sets are written in isl's set syntax with polynomial terms, e.g.
``[n] -> { S[i, j] : 1 <= i <= n and 1 <= j and i*j <= n }``. ``generate`` prints the C
loops that visit every integer point once, in lexicographic order, for every parameter
value (as ``polyscan gen``); ``Set`` is a set as a Python value (its points, count, code
and picture); ``verify`` compiles and checks the code; ``plot`` draws a 2-D set; ``la``
and ``la_program`` map linear-algebra formulas to kernel sequences and C programs;
``kernel`` prints a blocked BLAS kernel. Errors are ``InputError`` (with ``.line`` and
``.column``), ``LimitError`` and ``ToolError``, all subclasses of ``polyscan.Error``.

>>> import polyscan
>>> polyscan.Set("{ S[i] : 0 <= i <= 2 }").points()
[('S', (0,)), ('S', (1,)), ('S', (2,))]
"""

from ._native import (
    Error,
    InputError,
    InternalError,
    LimitError,
    Set,
    ToolError,
    __version__,
    generate,
    kernel,
    la,
    la_program,
    plot,
    verify,
)

__all__ = [
    "Error",
    "InputError",
    "InternalError",
    "LimitError",
    "Set",
    "ToolError",
    "__version__",
    "generate",
    "kernel",
    "la",
    "la_program",
    "plot",
    "verify",
]
