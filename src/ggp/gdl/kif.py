"""KIF reader: the S-expression syntax GGP servers send.

Symbols are case-insensitive (read as lower case), ``?x`` is a variable, ``;`` starts a
comment that runs to the end of the line, and ``\\r\\n`` line ends are fine. Every
syntax problem raises :class:`GDLSyntaxError` with a line and column.
"""

from __future__ import annotations

import re

from ggp.gdl.errors import GDLSyntaxError
from ggp.gdl.terms import Description, Loc, Rule, Term, Var

_TOKEN = re.compile(r"\s+|;[^\n]*|\(|\)|[^\s();]+")
_BAD_CHARS = re.compile(r"[^\x21-\x7e]")


def tokenize(text: str, source: str = "") -> list[tuple[str, int, int]]:
    """Tokens ``(text, line, col)``: parentheses and symbols; whitespace and comments dropped."""
    tokens = []
    line, line_start = 1, 0
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # only reachable for characters the regex cannot start on
            raise GDLSyntaxError(f"unexpected character {text[pos]!r}", line, pos - line_start + 1, source)
        tok = m.group()
        if not tok[0].isspace() and tok[0] != ";":
            bad = _BAD_CHARS.search(tok)
            if bad:
                raise GDLSyntaxError(f"unexpected character {bad.group()!r} in {tok!r}", line,
                                     pos - line_start + 1 + bad.start(), source)
            tokens.append((tok, line, pos - line_start + 1))
        newlines = tok.count("\n")
        if newlines:
            line += newlines
            line_start = pos + tok.rindex("\n") + 1
        pos = m.end()
    return tokens


#: Deepest nesting of parentheses accepted: terms are processed recursively everywhere,
#: and real games nest a few dozen levels at most.
MAX_DEPTH = 100


def read_sexps(text: str, source: str = "") -> list:
    """Nested lists of ``(symbol, line, col)`` leaves, one per top-level expression.

    A list node is ``[line, col, children]`` so its location is known.
    """
    stack: list = [[0, 0, []]]
    for tok, line, col in tokenize(text, source):
        if tok == "(":
            if len(stack) > MAX_DEPTH:
                raise GDLSyntaxError(f"expressions nested more than {MAX_DEPTH} levels deep "
                                     "(no game needs that many)", line, col, source)
            stack.append([line, col, []])
        elif tok == ")":
            if len(stack) == 1:
                raise GDLSyntaxError("unexpected ')' with no matching '('", line, col, source)
            node = stack.pop()
            stack[-1][2].append(node)
        else:
            stack[-1][2].append((tok, line, col))
    if len(stack) > 1:
        line, col, _ = stack[-1]
        raise GDLSyntaxError("'(' is never closed", line, col, source)
    return stack[0][2]


def parse_kif(text: str, source: str = "") -> Description:
    """Parse a KIF game description (rules and facts) into a :class:`Description`."""
    reader = _Reader(source)
    rules = [reader.statement(node) for node in read_sexps(text, source)]
    return Description(rules, source, reader.warnings)


def parse_kif_term(text: str) -> Term:
    """Parse one KIF term, e.g. a move ``(mark 1 1)`` or a fluent, into the term representation."""
    nodes = read_sexps(text)
    if len(nodes) != 1:
        raise GDLSyntaxError(f"expected exactly one term, found {len(nodes)}", 1, 1)
    return _Reader("").term(nodes[0])


def _where(node) -> tuple[int, int]:
    """Line and column of a leaf ``(text, line, col)`` or a list node ``[line, col, children]``."""
    return (node[1], node[2]) if isinstance(node, tuple) else (node[0], node[1])


def _loc(node) -> Loc:
    return Loc(*_where(node))


class _Reader:
    """Turns S-expressions into terms and rules, checking the shape of keyword forms."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list = []

    def fail(self, message: str, node) -> GDLSyntaxError:
        return GDLSyntaxError(message, *_where(node), self.source)

    def statement(self, node) -> Rule:
        if isinstance(node, list) and node[2] and _is_symbol(node[2][0], "<="):
            children = node[2]
            if len(children) < 2:
                raise self.fail("'<=' needs a head", node)
            head = self.atom(children[1])
            body = tuple(self.literal(c) for c in children[2:])
            if not body:
                self._warn("rule with an empty body is a fact", node)
            return Rule(head, body, _loc(children[1]), tuple(_loc(c) for c in children[2:]))
        return Rule(self.atom(node), (), _loc(node))

    def atom(self, node) -> Term:
        term = self.term(node)
        if isinstance(term, Var):
            raise self.fail(f"a variable ({node[0]}) cannot stand as a sentence", node)
        return term

    def literal(self, node) -> Term:
        if isinstance(node, list) and node[2] and isinstance(node[2][0], tuple):
            head = node[2][0][0].lower()
            args = node[2][1:]
            if head == "not":
                if len(args) != 1:
                    raise self.fail(f"'not' takes exactly one literal, got {len(args)}", node)
                return ("not", self.literal(args[0]))
            if head == "or":
                if not args:
                    raise self.fail("'or' needs at least one literal", node)
                return ("or",) + tuple(self.literal(a) for a in args)
            if head == "distinct":
                if len(args) != 2:
                    raise self.fail(f"'distinct' takes exactly two terms, got {len(args)}", node)
                return ("distinct", self.term(args[0]), self.term(args[1]))
        return self.atom(node)

    def term(self, node) -> Term:
        if isinstance(node, tuple):
            sym = node[0].lower()
            if sym.startswith("?"):
                if len(sym) == 1:
                    raise self.fail("'?' must be followed by a variable name", node)
                return Var(sym[1:])
            if sym == "<=":
                raise self.fail("'<=' may only start a top-level rule", node)
            return sym
        children = node[2]
        if not children:
            raise self.fail("empty list '()' is not a term", node)
        functor = children[0]
        if isinstance(functor, list):
            raise self.fail("a term must start with a symbol, not a list", functor)
        name = functor[0].lower()
        if name.startswith("?"):
            raise self.fail(f"a variable ({name}) cannot be a function or relation name", functor)
        if name == "<=":
            raise self.fail("'<=' may only start a top-level rule", functor)
        if len(children) == 1:
            self._warn(f"'({name})' with no arguments is read as the constant {name}", node)
            return name
        return (name,) + tuple(self.term(c) for c in children[1:])

    def _warn(self, message: str, node) -> None:
        from ggp.gdl.validate import Issue  # the Issue type lives with the validator

        self.warnings.append(Issue("warning", message, *_where(node)))


def _is_symbol(node, text: str) -> bool:
    return isinstance(node, tuple) and node[0] == text
