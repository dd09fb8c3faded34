"""Static checks of a game description, each reported with its line and column.

Errors (the game cannot be played as written): unsafe variables,
recursion through negation, missing ``role`` /
``legal`` / ``goal`` / ``terminal``, misused keywords (wrong arity, ``true``/``does`` in a
head, ``init``/``legal``/``goal``/``terminal`` depending on ``does``, ...).
Warnings (playable, with the reading stated): relation or function names used with
different arities (told apart by arity), no ``init`` or ``next``, ``(f)`` with no
arguments, rules with empty bodies, a ``goal`` for ``random`` in a GDL-II game, an unsafe
head variable at a role position (ranges over the roles, see ``program.role_positions``), a
variable only in a negated literal ("for no value"), a relation used in a body but defined
by no rule or fact (never true: a goal that needs it is silently never reached).

``random`` is nature only in GDL-II games; in plain GDL it is an ordinary role name.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

from ggp.gdl.errors import GDLValidationError
from ggp.gdl.program import (
    atom_of,
    dependencies,
    expand_or,
    positive_vars,
    reachable,
    role_position_vars,
    role_positions,
    strata,
)
from ggp.gdl.terms import Description, Loc, Rule, Term, Var, arity_of, key_of, name_of, variables

# keyword -> arity it must have as a sentence
KEYWORD_ARITY = {"role": 1, "init": 1, "true": 1, "next": 1, "legal": 2, "does": 2, "goal": 2,
                 "terminal": 0, "sees": 2, "base": 1, "input": 2, "percept": 2}
_NOT_IN_HEAD = ("true", "does", "not", "or", "distinct")
_LOGICAL = ("not", "or", "distinct", "<=")


@dataclass(frozen=True)
class Issue:
    """One finding: ``severity`` is "error" or "warning"; line/col are 1-based."""

    severity: Literal["error", "warning"]
    message: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}: {self.severity}: {self.message}"


def is_gdl_ii(desc: Description) -> bool:
    """Whether the rules use GDL-II's ``sees`` or ``percept`` keywords."""
    return any(name_of(r.head) in ("sees", "percept") for r in desc.rules)


def validate(desc: Description, gdl_ii: bool | None = None) -> list[Issue]:
    """Every issue found, errors and warnings, in source order (parse warnings included)."""
    gdl_ii = is_gdl_ii(desc) if gdl_ii is None else gdl_ii
    issues = list(desc.warnings)
    issues += _check_keywords(desc.rules)
    issues += _check_arities(desc.rules)
    issues += _check_safety(desc.rules)
    issues += _check_dependencies(desc.rules)
    issues += _check_required(desc.rules, gdl_ii)
    issues += _check_undefined(desc.rules)
    return sorted(issues, key=lambda i: (i.line, i.col, i.severity))


def check(desc: Description, gdl_ii: bool | None = None) -> list[Issue]:
    """Raise :class:`GDLValidationError` listing the errors, if any; return the warnings."""
    issues = validate(desc, gdl_ii)
    errors = [i for i in issues if i.severity == "error"]
    if errors:
        raise GDLValidationError(errors, desc.source)
    return issues


def _err(message: str, loc: Loc) -> Issue:
    return Issue("error", message, loc.line, loc.col)


def _warn(message: str, loc: Loc) -> Issue:
    return Issue("warning", message, loc.line, loc.col)


def _literal_atoms(lit: Term):
    """The atoms inside a literal (through not / or), distinct excluded."""
    if isinstance(lit, tuple) and lit[0] == "not" and len(lit) == 2:
        yield from _literal_atoms(lit[1])
    elif isinstance(lit, tuple) and lit[0] == "or":
        for sub in lit[1:]:
            yield from _literal_atoms(sub)
    elif not (isinstance(lit, tuple) and lit[0] == "distinct" and len(lit) == 3):
        yield lit


def _terms_in(term: Term):
    """Every compound sub-term (arguments of sentences), depth first."""
    if isinstance(term, tuple):
        for arg in term[1:]:
            if isinstance(arg, tuple):
                yield arg
                yield from _terms_in(arg)


# ------------------------------------------------------------------ keywords
def _check_keywords(rules: list[Rule]) -> list[Issue]:
    issues = []
    for rule in rules:
        head = rule.head
        name = name_of(head)
        if not isinstance(head, (str, tuple)) or (isinstance(head, str) and head[:1].isdigit()):
            issues.append(_err(f"{head!r} cannot be a sentence", rule.loc))
        if name in _NOT_IN_HEAD:
            issues.append(_err(f"'{name}' cannot be the head of a rule or a fact", rule.loc))
        if name == "role":
            if rule.body:
                issues.append(_err("roles must be declared by facts, not derived by rules", rule.loc))
            elif isinstance(head, tuple) and len(head) == 2 and not isinstance(head[1], str):
                issues.append(_err("a role must be a constant", rule.loc))
        for lit_index, lit in enumerate((head,) + rule.body):
            loc = rule.loc if lit_index == 0 else rule.literal_loc(lit_index - 1)
            for atom in ([lit] if lit_index == 0 else _literal_atoms(lit)):
                n = name_of(atom)
                if n in KEYWORD_ARITY and arity_of(atom) != KEYWORD_ARITY[n]:
                    message = f"'{n}' takes {KEYWORD_ARITY[n]} argument(s), not {arity_of(atom)}"
                    if lit_index == 0:
                        issues.append(_err(message, loc))
                    else:  # in a body it is merely never true
                        issues.append(_warn(message + "; this literal is never true", loc))
                for sub in _terms_in(atom):
                    if sub[0] in _LOGICAL:
                        issues.append(_err(f"'{sub[0]}' is a logical keyword and cannot be "
                                           "used as a function", loc))
                if lit_index == 0 and n == "goal" and isinstance(atom, tuple) and len(atom) == 3:
                    value = atom[2]
                    if isinstance(value, str) and not (value.isdigit() and 0 <= int(value) <= 100):
                        issues.append(_err(f"goal value {value!r} is not an integer in 0..100", loc))
    return issues


# ------------------------------------------------------------------ arities
def _check_arities(rules: list[Rule]) -> list[Issue]:
    issues = []
    relations: dict[str, tuple[int, Loc]] = {}
    functions: dict[str, tuple[int, Loc]] = {}

    def see(table, kind, name, arity, loc):
        first = table.setdefault(name, (arity, loc))
        if first[0] != arity:
            issues.append(_warn(
                f"{kind} '{name}' is used with {arity} argument(s) here but with {first[0]} "
                f"at line {first[1].line}, column {first[1].col}", loc))

    for rule in rules:
        atoms = [(rule.head, rule.loc)]
        for i, lit in enumerate(rule.body):
            atoms += [(a, rule.literal_loc(i)) for a in _literal_atoms(lit)]
        for atom, loc in atoms:
            if isinstance(atom, Var):
                continue
            see(relations, "relation", name_of(atom), arity_of(atom), loc)
            for sub in _terms_in(atom):
                if sub[0] not in _LOGICAL:
                    see(functions, "function", sub[0], len(sub) - 1, loc)
    return issues


# ------------------------------------------------------------------ safety
def _check_safety(rules: list[Rule]) -> list[Issue]:
    """Safety is checked on the or-free rules: a variable that occurs in one disjunct only
    is bound by that disjunct."""
    issues = []
    flat_rules = [flat for rule in rules for flat in expand_or(rule)]
    positions = role_positions(flat_rules)
    for flat in flat_rules:
        issues += _rule_safety(flat, positions)
    return list(dict.fromkeys(issues))


def _rule_safety(rule: Rule, positions: set) -> list[Issue]:
    issues = []
    bound = positive_vars(rule.body)
    roles = role_position_vars(rule.head, positions)
    for var in dict.fromkeys(variables(rule.head)):
        if var in bound:
            continue
        if var in roles:
            issues.append(_warn(f"unsafe variable ?{var.name} in the head: it is taken to range "
                                "over the roles", rule.loc))
        else:
            issues.append(_err(f"unsafe variable ?{var.name}: it appears in the head but in no "
                               "positive body literal, so the rule's instances are not ground "
                               "(invalid GDL: the safety restriction); bind it in the body, "
                               f"e.g. with (role ?{var.name}) or a domain relation", rule.loc))
    bound |= roles
    for i, lit in enumerate(rule.body):
        a = atom_of(lit)
        if a is not None and a[1]:
            continue
        for var in dict.fromkeys(variables(lit)):
            if var in bound:
                continue
            if a is not None:  # a negated atom: read as "no value of the variable makes it true"
                issues.append(_warn(f"variable ?{var.name} occurs only in a negated literal: "
                                    "read as 'for no value'", rule.literal_loc(i)))
            else:
                issues.append(_err(f"unsafe variable ?{var.name}: it appears in 'distinct' but "
                                   "in no positive body literal", rule.literal_loc(i)))
    return issues


# ------------------------------------------------------------------ dependencies
def _check_dependencies(rules: list[Rule]) -> list[Issue]:
    issues = []
    flat = [r2 for r in rules for r2 in expand_or(r)]
    graph = dependencies(flat)
    first_loc = {}
    for rule in rules:
        first_loc.setdefault(key_of(rule.head), rule.loc)
    for comp in strata(graph):
        members = set(comp)
        for node in comp:
            for dep, negative in graph.get(node, {}).items():
                if negative and dep in members:
                    where = first_loc.get(node, Loc(0, 0))
                    cycle = node if dep == node else f"{node} and {dep}"
                    issues.append(_err(f"recursion through negation: {cycle} depend on each "
                                       f"other and '{dep}' is negated (the rules are not "
                                       "stratified)", where))
    for key, forbidden in (("init/1", ("true/1", "does/2", "next/1", "legal/2")),
                           ("legal/2", ("does/2",)), ("goal/2", ("does/2",)),
                           ("terminal/0", ("does/2",)), ("base/1", ("true/1", "does/2")),
                           ("input/2", ("true/1", "does/2"))):
        if key not in graph:
            continue
        deps = reachable(graph, {key}) - {key}
        bad = [f for f in forbidden if f in deps]
        if bad:
            issues.append(_err(f"'{key.split('/')[0]}' must not depend on "
                               f"{', '.join(b.split('/')[0] for b in bad)}", first_loc[key]))
    return issues


def _check_required(rules: list[Rule], gdl_ii: bool) -> list[Issue]:
    issues = []
    heads = {key_of(r.head) for r in rules}
    roles = [r.head[1] for r in rules if key_of(r.head) == "role/1" and not r.body]
    end = rules[-1].loc if rules else Loc(1, 1)
    if not roles:
        issues.append(_err("no roles: the game needs at least one (role ...) fact", end))
    for key, what in (("legal/2", "legal"), ("goal/2", "goal"), ("terminal/0", "terminal"),
                      ("init/1", "init"), ("next/1", "next")):
        if key in heads:
            continue
        typo = _misspelled(rules, key)
        if typo is not None:
            issues.append(_err(f"no '{what}' rules or facts, but '{name_of(typo.head)}' is "
                               f"defined here and used nowhere: a typo for '{what}'?",
                               typo.loc))
        elif what in ("init", "next"):
            issues.append(_warn(f"no '{what}' rules or facts", end))
        else:
            issues.append(_err(f"no '{what}' rules or facts: every game must define {what}", end))
    if len(set(roles)) != len(roles):
        issues.append(_err("a role is declared twice", end))
    if gdl_ii:
        for rule in rules:
            for i, lit in enumerate((rule.head,) + rule.body):
                for atom in _literal_atoms(lit):
                    if name_of(atom) in ("does", "legal") and isinstance(atom, tuple) \
                            and atom[1] == "random" and "random" not in roles:
                        loc = rule.loc if i == 0 else rule.literal_loc(i - 1)
                        issues.append(_err("'random' is used as a role but (role random) is "
                                           "not declared", loc))
            if name_of(rule.head) == "goal" and isinstance(rule.head, tuple) \
                    and rule.head[1] == "random":
                issues.append(_warn("goals of 'random' are ignored in GDL-II", rule.loc))
    return issues


def _misspelled(rules: list[Rule], keyword: str) -> Rule | None:
    """The first rule whose head relation, of the keyword's arity, is never used in a body
    and is spelled nearly like ``keyword`` (``int`` for ``init``): a likely typo."""
    name, arity = keyword.split("/")
    used = {key_of(atom) for r in rules for lit in r.body for atom in _literal_atoms(lit)
            if not isinstance(atom, Var) and isinstance(atom, (str, tuple))}
    for rule in rules:
        key = key_of(rule.head)
        head_name, head_arity = key.rsplit("/", 1)
        if head_arity == arity and key not in used and head_name not in KEYWORD_ARITY \
                and difflib.get_close_matches(head_name, [name], n=1, cutoff=0.6):
            return rule
    return None


# ------------------------------------------------------------------ undefined relations
_PROVIDED = ("true/1", "does/2")  # given by the state and the joint move, never by rules


def _check_undefined(rules: list[Rule]) -> list[Issue]:
    """A warning at the first use of each relation that no rule or fact defines."""
    defined = {key_of(r.head) for r in rules}
    issues, seen = [], set()
    for rule in rules:
        for i, lit in enumerate(rule.body):
            for atom in _literal_atoms(lit):
                if isinstance(atom, Var) or not isinstance(atom, (str, tuple)):
                    continue
                key = key_of(atom)
                if key in defined or key in _PROVIDED or key in seen:
                    continue
                if name_of(atom) in KEYWORD_ARITY and key != f"{name_of(atom)}/" \
                        f"{KEYWORD_ARITY[name_of(atom)]}":
                    continue  # a keyword with the wrong arity: reported by _check_keywords
                seen.add(key)
                issues.append(_warn(f"relation '{key}' is used but never defined (no rule or "
                                    "fact has it as head): it is never true", rule.literal_loc(i)))
    return issues
