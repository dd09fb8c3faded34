"""The infix ("Prolog-like") GDL syntax of the GDL-II book chapter (seed 003).

    head :- lit1 & lit2 & ~lit3        ; rules, body literals joined by '&'
    role(white)                        ; facts
    X, Piece, _x                       ; variables start with an upper-case letter or '_'
    distinct(X, Y), or(a, b), ~p       ; keyword literals (``not(p)`` is read as ``~p`` too)

Statements need no terminator (a trailing ``.`` is accepted, as in Prolog-style files);
``;`` and ``%`` start comments. Constants are read in lower case, so both syntaxes share
one representation; constants that are not plain identifiers are written ``'quoted'``.
"""

from __future__ import annotations

import re

from ggp.gdl.errors import GDLSyntaxError
from ggp.gdl.terms import Description, Loc, Rule, Term, Var, variables

_TOKEN = re.compile(
    r"(?P<ws>\s+)|(?P<comment>[;%][^\n]*)|(?P<rule>:-)|(?P<quoted>'[^'\s();]*')"
    r"|(?P<ident>[A-Za-z0-9_][A-Za-z0-9_\-+*/<>=!$@#]*)|(?P<punct>[(),&~.])"
)
_PLAIN = re.compile(r"[a-z0-9][a-z0-9_\-+*/<>=!$@#]*\Z")


def _tokenize(text: str, source: str) -> list[tuple[str, str, int, int]]:
    tokens = []
    line, line_start, pos = 1, 0, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise GDLSyntaxError(f"unexpected character {text[pos]!r}", line, pos - line_start + 1, source)
        kind = m.lastgroup
        tok = m.group()
        if kind not in ("ws", "comment"):
            tokens.append((kind, tok, line, pos - line_start + 1))
        if "\n" in tok:
            line += tok.count("\n")
            line_start = pos + tok.rindex("\n") + 1
        pos = m.end()
    return tokens


def parse_infix(text: str, source: str = "") -> Description:
    """Parse an infix game description into the shared :class:`Description`."""
    parser = _Parser(_tokenize(text, source), source)
    rules = []
    while not parser.done():
        rules.append(parser.statement())
    return Description(rules, source, [])


class _Parser:
    def __init__(self, tokens: list, source: str) -> None:
        self.tokens = tokens
        self.pos = 0
        self.source = source

    def done(self) -> bool:
        return self.pos >= len(self.tokens)

    def peek(self) -> tuple | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def fail(self, message: str, tok=None) -> GDLSyntaxError:
        tok = tok or self.peek() or (self.tokens[-1] if self.tokens else ("", "", 1, 1))
        found = f" (found {tok[1]!r})" if self.peek() is not None else " (found end of text)"
        return GDLSyntaxError(message + found, tok[2], tok[3], self.source)

    def next(self) -> tuple:
        tok = self.peek()
        if tok is None:
            raise self.fail("unexpected end of text")
        self.pos += 1
        return tok

    def accept(self, text: str) -> bool:
        tok = self.peek()
        if tok is not None and tok[1] == text and tok[0] in ("punct", "rule"):
            self.pos += 1
            return True
        return False

    def statement(self) -> Rule:
        start = self.peek()
        head = self.term()
        if isinstance(head, Var):
            raise self.fail("a variable cannot stand as a sentence", start)
        body, locs = [], []
        if self.accept(":-"):
            while True:
                tok = self.peek()
                if tok is None:
                    raise self.fail("a rule body needs a literal after ':-' or '&'")
                locs.append(Loc(tok[2], tok[3]))
                body.append(self.literal())
                if not self.accept("&"):
                    break
        self.accept(".")
        return Rule(head, tuple(body), Loc(start[2], start[3]), tuple(locs))

    def literal(self) -> Term:
        tok = self.peek()
        if self.accept("~"):
            return ("not", self.literal())
        lit = self.term()
        if isinstance(lit, Var):
            raise self.fail("a variable cannot stand as a literal", tok)
        if isinstance(lit, tuple) and lit[0] == "not" and len(lit) == 2:
            return ("not", lit[1])
        return lit

    def term(self) -> Term:
        tok = self.next()
        kind, text = tok[0], tok[1]
        if kind == "quoted":
            name = text[1:-1].lower()
            if not name:
                raise self.fail("empty quoted constant", tok)
        elif kind == "ident":
            if text[0].isupper() or text[0] == "_":
                if self.peek() is not None and self.peek()[1] == "(":
                    raise self.fail(f"a variable ({text}) cannot be a function or relation name", tok)
                return Var(text)
            name = text.lower()
        else:
            raise self.fail("expected a constant, variable or term", tok)
        if not self.accept("("):
            return name
        args = [self.literal_or_term()]
        while self.accept(","):
            args.append(self.literal_or_term())
        if not self.accept(")"):
            raise self.fail("expected ',' or ')'")
        return (name,) + tuple(args)

    def literal_or_term(self) -> Term:
        # arguments of or(...) and not(...) may be negated literals
        if self.peek() is not None and self.peek()[1] == "~":
            return self.literal()
        return self.term()


# ------------------------------------------------------------------ printing
def to_infix(term: Term, names: dict | None = None) -> str:
    """Infix text of a term or literal (``names`` maps variables to printed names)."""
    if isinstance(term, Var):
        return (names or {}).get(term) or _var_name(term.name)
    if isinstance(term, tuple):
        if term[0] == "not" and len(term) == 2:
            return "~" + to_infix(term[1], names)
        return _const(term[0]) + "(" + ",".join(to_infix(a, names) for a in term[1:]) + ")"
    return _const(term)


def rule_to_infix(rule: Rule) -> str:
    names = _rule_var_names(rule)
    head = to_infix(rule.head, names)
    if not rule.body:
        return head
    body = [to_infix(lit, names) for lit in rule.body]
    if len(head) + sum(len(b) + 3 for b in body) <= 90:
        return f"{head} :- " + " & ".join(body)
    return f"{head} :-\n    " + " &\n    ".join(body)


def description_to_infix(rules: list) -> str:
    return "\n".join(rule_to_infix(r) for r in rules) + "\n"


def _const(name: str) -> str:
    return name if _PLAIN.match(name) else "'" + name + "'"


def _var_name(name: str) -> str:
    clean = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "V"
    return clean[0].upper() + clean[1:] if clean[0].isalpha() else "V" + clean


def _rule_var_names(rule: Rule) -> dict:
    """Printable, distinct variable names for one rule."""
    seen = list(dict.fromkeys(list(variables(rule.head)) + [v for b in rule.body for v in variables(b)]))
    names: dict = {}
    for var in seen:
        base = _var_name(var.name)
        name, n = base, 1
        while name in names.values():
            n += 1
            name = f"{base}{n}"
        names[var] = name
    return names
