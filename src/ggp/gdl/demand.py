"""Demand transformation (magic sets with one binding pattern per relation).

Bottom-up evaluation computes a relation completely, although its callers may only ever
look it up with some arguments already known. Rules like chess's "is this square attacked
if the piece on (u, v) is ignored" or amazons's "queen move ignoring (x, y)" carry extra
arguments that every caller binds, and computing them for every value is 64 times (or
4,096 times) the work the game needs.

For a state-dependent relation ``p`` whose argument positions ``A`` are bound at every
place it is used (by the head's demanded arguments, or by a positive literal written
before it; a ``does`` literal does not count), the transformation

* adds the literal ``(p$dem args@A)`` in front of every rule of ``p``, and
* for every use of ``p`` in a rule ``h :- l1, ..., ln`` (``p`` = ``li``), the rule
  ``(p$dem args@A of li) :- (h$dem ...) if h is demanded, l1, ..., l(i-1)``
  (the literals before ``li`` that can be evaluated safely there; ``does`` literals and
  unsafe negations are left out, which only makes the demand larger).

``p`` then holds exactly the facts of the original ``p`` whose ``A``-arguments are
demanded, and every use of ``p`` only looks up demanded ones, so the relations the
original heads define are unchanged (the magic-sets argument: each demand rule's body is
implied by the body of the rule using ``p``; a negated use is demanded too, so the
restricted ``p`` is complete where it is tested). Binding patterns are found as a greatest
fixpoint (a head's demanded arguments bind variables in its body). Relations the queries
ask with nothing bound (``legal``, ``next``, ``goal``, ``terminal``, ``sees``, ...),
relations that do not depend on the state (computed once anyway) and positions no use
binds are left alone. If the result is not stratified (demand through a negation inside
a recursion), the relations involved lose their demand until it is.
"""

from __future__ import annotations

from ggp.gdl.program import atom_of, dependencies, reachable, strata
from ggp.gdl.terms import Rule, key_of, variables

SUFFIX = "$dem"  # no parsed symbol contains "$"
_ROOTS = frozenset({"legal/2", "next/1", "terminal/0", "goal/2", "sees/2", "init/1",
                    "role/1", "base/1", "input/2", "percept/2", "true/1", "does/2"})


def demand_name(key: str) -> str:
    """The name of the demand relation of relation ``key`` (``name/arity``)."""
    return key.rsplit("/", 1)[0] + SUFFIX


def transform(rules: list[Rule], big: set = frozenset()
              ) -> tuple[list[Rule], dict[str, tuple[int, ...]]]:
    """The rules with demand added, and the bound positions of each demanded relation
    (empty when nothing is worth demanding: the rules come back unchanged).

    Static relations are computed once and completely, so they get no demand, except
    those in ``big``: too big to compute at load (the compiled reasoner finds them by
    their time, :data:`ggp.gdl.compiled.STATIC_SECONDS`) and the static relations that
    use them; they are then computed for the demanded arguments only (per state if the
    demand depends on it)."""
    graph = dependencies(rules)
    dynamic = {k for k in graph if reachable(graph, {k}) & {"true/1", "does/2"}}
    heads = {key_of(r.head) for r in rules}
    # with the big relations, the static relations using them: demand reaches a big
    # relation through its callers
    reach_big = {k for k in graph if reachable(graph, {k}) & set(big)} if big else set()
    candidates = {k for k in (dynamic | reach_big) & heads
                  if k not in _ROOTS and not k.endswith("/0")}
    if not candidates:
        return rules, {}
    reach = _Reach(graph)
    while candidates:
        bound_at = _binding_patterns(rules, candidates, reach)
        if not bound_at:
            break
        out = _rewrite(rules, bound_at, reach)
        bad = _unstratified(out)
        if not bad:
            return out, {k: tuple(sorted(v)) for k, v in bound_at.items()}
        # no demand for relations in a component with a negative cycle; the patterns of
        # the others are found again (a head that lost its demand binds less)
        keep = {k for k in bound_at
                if k not in bad and f"{demand_name(k)}/{len(bound_at[k])}" not in bad}
        if keep == set(bound_at):  # the cycle is not of our making
            break
        candidates = keep
    return rules, {}


def _binding_patterns(rules: list[Rule], candidates: set, reach: "_Reach") -> dict:
    """The positions of each candidate relation bound at all its uses: the greatest
    fixpoint, from all positions down (a head's demanded positions bind variables in its
    body). Relations with none are dropped."""
    bound_at = {k: frozenset(range(int(k.rsplit("/", 1)[1]))) for k in candidates}
    while True:
        seen: dict[str, frozenset] = {}
        for rule in rules:
            for _, key, positions, _ in _uses(rule, bound_at, reach):
                seen[key] = seen.get(key, positions) & positions
        new = {k: v for k in bound_at if (v := seen.get(k, frozenset()))}
        if new == bound_at:
            return bound_at
        bound_at = new


def _head_bound(rule: Rule, bound_at: dict) -> tuple[set, tuple | None]:
    """Variables the demand literal binds in ``rule``, and that literal (or None)."""
    key = key_of(rule.head)
    positions = bound_at.get(key)
    if not positions:
        return set(), None
    args = [rule.head[1 + i] for i in sorted(positions)]
    lit = (demand_name(key), *args)
    return set(variables(lit)), lit


def _uses(rule: Rule, bound_at: dict, reach: "_Reach"):
    """``(index, key, bound positions, atom)`` of each literal of ``rule`` using a
    candidate relation ``p``: a position is bound when its variables are bound by the
    head's demand or by a positive literal before the use that can go into ``p``'s demand
    rule (see :func:`_usable`)."""
    head_vars, _ = _head_bound(rule, bound_at)
    for i, lit in enumerate(rule.body):
        a = atom_of(lit)
        if a is None:
            continue
        atom, _ = a
        key = key_of(atom)
        if key not in bound_at or not isinstance(atom, tuple):
            continue
        bound = set(head_vars)
        for before in rule.body[:i]:
            b = atom_of(before)
            if b is not None and b[1] and _usable(b[0], key, reach):
                bound |= set(variables(before))
        positions = frozenset(j for j, arg in enumerate(atom[1:])
                              if set(variables(arg)) <= bound)
        yield i, key, positions, atom


def _usable(atom, key: str, reach: "_Reach") -> bool:
    """Whether a literal on ``atom`` may be evaluated in the demand rule of relation
    ``key``: not a ``does`` (the demand would then be recomputed per joint move), nor a
    relation that depends on ``key`` (its demand would depend on itself, maybe through
    a negation)."""
    k = key_of(atom)
    return k != "does/2" and key not in reach(k)


class _Reach:
    """The relations a relation depends on (of the original rules), remembered."""

    def __init__(self, graph: dict) -> None:
        self.graph = graph
        self.memo: dict = {}

    def __call__(self, key: str) -> set:
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = reachable(self.graph, {key})
        return found


def _rewrite(rules: list[Rule], bound_at: dict, reach: _Reach) -> list[Rule]:
    out: list[Rule] = []
    demand_rules: dict = {}
    for rule in rules:
        head_vars, head_lit = _head_bound(rule, bound_at)
        if head_lit is None:
            out.append(rule)
        else:
            out.append(Rule(rule.head, (head_lit,) + rule.body, rule.loc,
                            (rule.loc,) + tuple(rule.literal_loc(i)
                                                for i in range(len(rule.body)))))
        for i, key, _, atom in _uses(rule, bound_at, reach):
            positions = sorted(bound_at[key])
            head = (demand_name(key), *[atom[1 + j] for j in positions])
            body = _prefix(rule.body[:i], head_vars, key, reach)
            if head_lit is not None:
                body = (head_lit,) + body
            new = Rule(head, body, rule.literal_loc(i))
            demand_rules.setdefault((new.head, new.body), new)
    return out + list(demand_rules.values())


def _prefix(literals: tuple, bound: set, key: str, reach: _Reach) -> tuple:
    """The literals to evaluate before a use of ``key``: positive atoms that are
    :func:`_usable`; negations and ``distinct`` whose variables they bind and whose
    relation is usable too (the others are left out: the demand only grows)."""
    bound = set(bound)
    positive = []
    for lit in literals:
        a = atom_of(lit)
        if a is not None and a[1] and _usable(a[0], key, reach):
            positive.append(lit)
            bound |= set(variables(lit))
    out = []
    for lit in literals:
        a = atom_of(lit)
        if lit in positive:
            out.append(lit)
        elif (a is None or (not a[1] and _usable(a[0], key, reach))) and \
                set(variables(lit)) <= bound:
            out.append(lit)
    return tuple(out)


def _unstratified(rules: list[Rule]) -> set[str]:
    """Relations in a component of the dependency graph with a negative edge inside."""
    graph = dependencies(rules)
    bad: set[str] = set()
    for comp in strata(graph):
        members = set(comp)
        if any(neg and dep in members for k in comp for dep, neg in graph.get(k, {}).items()):
            bad |= members
    return bad
