"""A small, independent reader of polyscan's input files for the tests' brute force.

It knows just the syntax the examples use (isl sets with polynomial terms: ``^``,
implicit products such as ``2i``, chains ``0 <= j <= i < n``, lists ``0 <= i, j <= n``,
``and``/``or``/``not``, ``=``/``!=``, ``true``/``false``, a context set and a schedule
map) and turns each statement's domain into a Python predicate over a dict of values.
It shares no code with polyscan, so that a parsing or generation error there cannot hide
in the oracle.
"""

import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

Env = Dict[str, int]
Expr = Callable[[Env], int]
Pred = Callable[[Env], bool]

_TOKEN = re.compile(
    r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(<=|>=|!=|->|[<>=+\-*^()\[\]{},;:]))"
)
_KEYWORDS = {"and", "or", "not", "true", "false"}
_RELATIONS = {
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


class SyntaxErr(Exception):
    """The text is outside the syntax this reader knows."""


def tokens(text: str) -> List[str]:
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    out, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return out
        m = _TOKEN.match(text, pos)
        if not m:
            raise SyntaxErr(f"unexpected {text[pos]!r}")
        out.append(m.group(m.lastindex))
        pos = m.end()


class _Parser:
    def __init__(self, toks: List[str]):
        self.t = toks
        self.i = 0

    def peek(self, k: int = 0) -> Optional[str]:
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def take(self, want: Optional[str] = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise SyntaxErr(f"expected {want!r}, found {tok!r}")
        self.i += 1
        return tok

    # Expressions -------------------------------------------------------------------
    def expr(self) -> Expr:
        sign = 1
        if self.peek() == "-":
            self.take()
            sign = -1
        first = self.term()
        terms = [(lambda f, s: (lambda e: s * f(e)))(first, sign)]
        while self.peek() in ("+", "-"):
            s = 1 if self.take() == "+" else -1
            t = self.term()
            terms.append((lambda f, s: (lambda e: s * f(e)))(t, s))
        return lambda e: sum(t(e) for t in terms)

    def _starts_factor(self) -> bool:
        tok = self.peek()
        if tok is None:
            return False
        if tok == "(" or tok.isdigit():
            return True
        return bool(re.match(r"[A-Za-z_]", tok)) and tok not in _KEYWORDS

    def term(self) -> Expr:
        factors = [self.power()]
        while True:
            if self.peek() == "*":
                self.take()
                factors.append(self.power())
            elif self._starts_factor():
                factors.append(self.power())  # an implicit product: 2i, 3(x + 1)
            else:
                break

        def product(e: Env) -> int:
            v = 1
            for f in factors:
                v *= f(e)
            return v

        return product

    def power(self) -> Expr:
        base = self.primary()
        if self.peek() == "^":
            self.take()
            k = int(self.take())
            return lambda e: base(e) ** k
        return base

    def primary(self) -> Expr:
        tok = self.take()
        if tok.isdigit():
            v = int(tok)
            return lambda e: v
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return inner
        if tok == "-":
            inner = self.power()
            return lambda e: -inner(e)
        if re.match(r"[A-Za-z_]", tok) and tok not in _KEYWORDS:
            return lambda e: e[tok]
        raise SyntaxErr(f"unexpected {tok!r} in an expression")

    # Formulas ----------------------------------------------------------------------
    def formula(self) -> Pred:
        parts = [self.conjunction()]
        while self.peek() == "or":
            self.take()
            parts.append(self.conjunction())
        return lambda e: any(p(e) for p in parts)

    def conjunction(self) -> Pred:
        parts = [self.negation()]
        while self.peek() == "and":
            self.take()
            parts.append(self.negation())
        return lambda e: all(p(e) for p in parts)

    def negation(self) -> Pred:
        if self.peek() == "not":
            self.take()
            inner = self.negation()
            return lambda e: not inner(e)
        return self.atom()

    def atom(self) -> Pred:
        if self.peek() == "true":
            self.take()
            return lambda e: True
        if self.peek() == "false":
            self.take()
            return lambda e: False
        saved = self.i
        try:
            return self.chain()
        except SyntaxErr:
            if self.t[saved] != "(":
                raise
            self.i = saved
            self.take("(")
            inner = self.formula()
            self.take(")")
            return inner

    def expr_list(self) -> List[Expr]:
        out = [self.expr()]
        while self.peek() == ",":
            self.take()
            out.append(self.expr())
        return out

    def chain(self) -> Pred:
        lists = [self.expr_list()]
        rels = []
        while self.peek() in _RELATIONS:
            rels.append(_RELATIONS[self.take()])
            lists.append(self.expr_list())
        if not rels:
            raise SyntaxErr("expected a comparison")

        def holds(e: Env) -> bool:
            for rel, left, right in zip(rels, lists, lists[1:]):
                lv = [f(e) for f in left]
                rv = [f(e) for f in right]
                if not all(rel(a, b) for a in lv for b in rv):
                    return False
            return True

        return holds


@dataclass
class Statement:
    name: str
    iterators: List[str]
    domain: Pred
    time: Optional[List[Expr]] = None
    # The schedule's names for the iterators (a schedule may rename them).
    time_iterators: List[str] = field(default_factory=list)


@dataclass
class Problem:
    params: List[str]
    statements: List[Statement]
    context: List[Pred] = field(default_factory=list)
    has_schedule: bool = False


def parse(text: str) -> Problem:
    """Reads a problem file: the domain set, then optional context and schedule sets."""
    p = _Parser(tokens(text))
    params: List[str] = []
    statements: List[Statement] = []
    context: List[Pred] = []
    has_schedule = False
    first = True
    while p.peek() is not None:
        names: List[str] = []
        if p.peek() == "[":
            p.take("[")
            while p.peek() != "]":
                names.append(p.take())
                if p.peek() == ",":
                    p.take()
            p.take("]")
            p.take("->")
        p.take("{")
        while p.peek() != "}":
            if p.peek() == ":":
                p.take()
                context.append(p.formula())
            else:
                name = p.take()
                p.take("[")
                iters: List[str] = []
                while p.peek() != "]":
                    iters.append(p.take())
                    if p.peek() == ",":
                        p.take()
                p.take("]")
                if p.peek() == "->":
                    p.take()
                    p.take("[")
                    time = p.expr_list() if p.peek() != "]" else []
                    p.take("]")
                    st = next(s for s in statements if s.name == name)
                    st.time = time
                    st.time_iterators = iters
                    has_schedule = True
                elif first:
                    domain: Pred = lambda e: True
                    if p.peek() == ":":
                        p.take()
                        domain = p.formula()
                    statements.append(Statement(name, iters, domain))
                else:
                    raise SyntaxErr("a statement outside the domain set")
            if p.peek() == ";":
                p.take()
        p.take("}")
        if first:
            params = names
        first = False
    return Problem(params, statements, context, has_schedule)


def brute_force(
    problem: Problem, values: Dict[str, int], box: int
) -> Optional[List[Tuple[str, Tuple[int, ...]]]]:
    """Every point of every statement with coordinates in [-box, box], in execution order
    (time vector or coordinates lexicographically, statements in file order at one
    point); ``None`` when the parameter values violate the context."""
    env = dict(values)
    if not all(c(env) for c in problem.context):
        return None
    found = []
    for k, st in enumerate(problem.statements):
        for point in itertools.product(range(-box, box + 1), repeat=len(st.iterators)):
            env.update(zip(st.iterators, point))
            if st.domain(env):
                if st.time is None:
                    key = point
                else:
                    at = dict(env)
                    at.update(zip(st.time_iterators, point))
                    key = tuple(t(at) for t in st.time)
                found.append((key, k, st.name, point))
    found.sort(key=lambda f: (f[0], f[1]))
    return [(name, point) for _, _, name, point in found]
