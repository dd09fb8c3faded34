"""The one representation of GDL shared by both syntaxes, the validator and the reasoners.

* A constant is a Python ``str`` (lower case: GDL symbols are case-insensitive).
* A variable is a :class:`Var`.
* A compound term ``f(a, b)`` is the tuple ``("f", a, b)``; atoms (sentences) are terms too,
  so ``(cell 1 1 b)`` is ``("cell", "1", "1", "b")`` and ``terminal`` is ``"terminal"``.
* Body literals are atoms or the keyword forms ``("not", lit)``, ``("distinct", a, b)``
  and ``("or", lit, lit, ...)``.
* A :class:`Rule` is a head and a body (empty for facts), with the source location of the
  head and of every body literal, so that messages can point at the right place.

Ground terms are plain tuples and strings: hashable, cheap to compare, and what the
reasoners store in their relations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

KEYWORDS = frozenset(
    {"role", "init", "true", "next", "legal", "does", "goal", "terminal", "distinct",
     "not", "or", "base", "input", "sees", "percept"}
)


class Var:
    """A logic variable, named without its ``?`` (KIF) or as written (infix)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Var) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("?var", self.name))

    def __repr__(self) -> str:
        return "?" + self.name


Term = Union[str, Var, tuple]


@dataclass(frozen=True)
class Loc:
    """A 1-based source position."""

    line: int
    col: int


NOWHERE = Loc(0, 0)


@dataclass(frozen=True)
class Rule:
    """``head :- body`` (a fact when ``body`` is empty)."""

    head: Term
    body: tuple = ()
    loc: Loc = NOWHERE
    body_locs: tuple = field(default=(), compare=False)

    def literal_loc(self, i: int) -> Loc:
        return self.body_locs[i] if i < len(self.body_locs) else self.loc


@dataclass
class Description:
    """A parsed game description: its rules in source order and warnings met while parsing."""

    rules: list
    source: str = ""
    warnings: list = field(default_factory=list)  # list of validate.Issue


def name_of(term: Term) -> str:
    """The functor of a compound term, the constant itself, or '' for a variable."""
    if isinstance(term, tuple):
        return term[0]
    return term if isinstance(term, str) else ""


def arity_of(term: Term) -> int:
    return len(term) - 1 if isinstance(term, tuple) else 0


def key_of(term: Term) -> str:
    """``name/arity``: how relations and functions are told apart."""
    return f"{name_of(term)}/{arity_of(term)}"


def variables(term: Term) -> Iterator[Var]:
    """Every variable occurrence in ``term`` (literals included), left to right."""
    if isinstance(term, Var):
        yield term
    elif isinstance(term, tuple):
        for arg in term[1:]:
            yield from variables(arg)


def is_ground(term: Term) -> bool:
    return next(variables(term), None) is None


def substitute(term: Term, binding: dict) -> Term:
    """``term`` with bound variables replaced by their values."""
    if isinstance(term, Var):
        return binding.get(term, term)
    if isinstance(term, tuple):
        return (term[0],) + tuple(substitute(a, binding) for a in term[1:])
    return term


# ------------------------------------------------------------------ KIF printing
def to_kif(term: Term) -> str:
    """KIF text of a term or literal: ``(cell 1 1 b)``, ``?x``, ``(not (true p))``."""
    if isinstance(term, Var):
        return "?" + term.name.lower()
    if isinstance(term, tuple):
        return "(" + " ".join(to_kif(t) for t in term) + ")"
    return term


def rule_to_kif(rule: Rule) -> str:
    rule = _kif_safe_names(rule)
    if not rule.body:
        return to_kif(rule.head)
    body = "\n    ".join(to_kif(lit) for lit in rule.body)
    return f"(<= {to_kif(rule.head)}\n    {body})"


def description_to_kif(rules: list) -> str:
    return "\n".join(rule_to_kif(r) for r in rules) + "\n"


def _kif_safe_names(rule: Rule) -> Rule:
    """Rename variables whose names collide once lower-cased (KIF is case-insensitive)."""
    names = {v.name for v in variables(rule.head)}
    for lit in rule.body:
        names.update(v.name for v in variables(lit))
    folded: dict[str, str] = {}
    renames: dict[Var, Var] = {}
    for name in sorted(names):
        low = "".join(c if c.isalnum() or c in "_-" else "_" for c in name.lower()) or "v"
        new = low
        n = 1
        while new in folded.values():
            n += 1
            new = f"{low}{n}"
        folded[name] = new
        if new != name:
            renames[Var(name)] = Var(new)
    if not renames:
        return rule
    return Rule(substitute(rule.head, renames), tuple(substitute(b, renames) for b in rule.body),
                rule.loc, rule.body_locs)
