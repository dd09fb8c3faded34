"""A deliberately simple GDL interpreter: the baseline of the benchmarks and an
independent oracle for the compiled reasoner in the tests.

Same semantics as :class:`ggp.gdl.compiled.CompiledReasoner` (stratified bottom-up
evaluation of the normalized rules), but every query starts from scratch (only the
state-independent relations are computed once), rules are interpreted with substitution
dictionaries, and each literal scans its whole relation.
"""

from __future__ import annotations

from collections import defaultdict

from ggp.gdl.engine import EngineInfo
from ggp.gdl.program import atom_of, dependencies, normalize, reachable, strata
from ggp.gdl.terms import Rule, Var, key_of, substitute


class NaiveReasoner:
    """Interpreted stratified Datalog over ground atoms; a :class:`ggp.gdl.engine.Reasoner`
    with frozenset states, like the compiled one."""

    info = EngineInfo("naive")

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = normalize(rules)
        self.roles = list(dict.fromkeys(
            r.head[1] for r in rules if key_of(r.head) == "role/1" and not r.body))
        self._graph = dependencies(self.rules)
        self._strata = strata(self._graph)
        self._by_head = defaultdict(list)
        for rule in self.rules:
            # positive literals first (in source order), then the tests
            pos = [lit for lit in rule.body if atom_of(lit) and atom_of(lit)[1]]
            rest = [lit for lit in rule.body if lit not in pos]
            self._by_head[key_of(rule.head)].append((rule.head, pos + rest))
        # relations that depend on neither true nor does are computed once
        inputs = {"true/1", "does/2"}
        static = {k for k in self._graph if not reachable(self._graph, {k}) & inputs}
        self._static: dict = {}
        self._static_keys: set = set()
        self._static = dict(self._evaluate({}, static))
        self._static_keys = static

    def _evaluate(self, inputs: dict, targets: set) -> dict:
        facts: dict = defaultdict(set)
        facts.update(self._static)
        facts.update(inputs)
        needed = reachable(self._graph, targets)
        for comp in self._strata:
            if not set(comp) & needed or set(comp) & set(inputs) or set(comp) <= self._static_keys:
                continue
            changed = True
            while changed:
                changed = False
                for key in comp:
                    for head, body in self._by_head.get(key, ()):
                        for binding in self._solve(body, 0, {}, facts):
                            atom = substitute(head, binding)
                            if atom not in facts[key]:
                                facts[key].add(atom)
                                changed = True
        return facts

    def _solve(self, body: list, i: int, binding: dict, facts: dict):
        if i == len(body):
            yield binding
            return
        lit = body[i]
        a = atom_of(lit)
        if a is None:
            negated = lit[0] == "not"
            test = lit[1] if negated else lit
            differ = substitute(test[1], binding) != substitute(test[2], binding)
            if differ != negated:
                yield from self._solve(body, i + 1, binding, facts)
            return
        atom, positive = a
        pattern = substitute(atom, binding)
        matches = (b for f in facts.get(key_of(pattern), ()) if (b := _unify(pattern, f, binding)) is not None)
        if positive:
            for b in list(matches):
                yield from self._solve(body, i + 1, b, facts)
        elif next(matches, None) is None:
            yield from self._solve(body, i + 1, binding, facts)

    # ------------------------------------------------------------------ queries
    def _state_facts(self, state) -> dict:
        return {"true/1": {("true", f) for f in state}}

    def encode(self, fluents) -> frozenset:
        """The state of a collection of ground fluents (a frozenset, as in the compiled
        engine)."""
        return frozenset(fluents)

    def decode(self, state: frozenset) -> frozenset:
        """The fluents of a state: the state itself."""
        return state

    def initial_state(self) -> frozenset:
        return frozenset(a[1] for a in self._evaluate({}, {"init/1"})["init/1"])

    def legal_moves(self, state) -> dict:
        facts = self._evaluate(self._state_facts(state), {"legal/2"})
        legal = {r: [] for r in self.roles}
        for _, role, move in facts["legal/2"]:
            if role in legal:
                legal[role].append(move)
        return {r: sorted(m, key=str) for r, m in legal.items()}

    def is_terminal(self, state) -> bool:
        return bool(self._evaluate(self._state_facts(state), {"terminal/0"})["terminal/0"])

    def goals(self, state) -> list[int]:
        values: dict = {}
        for _, role, value in self._evaluate(self._state_facts(state), {"goal/2"})["goal/2"]:
            values[role] = max(values.get(role, 0), int(value))
        return [values.get(r, 0) for r in self.roles]

    def step(self, state, joint: dict):
        inputs = self._state_facts(state)
        inputs["does/2"] = {("does", r, m) for r, m in joint.items()}
        facts = self._evaluate(inputs, {"next/1", "sees/2"})
        percepts = {r: [] for r in self.roles}
        for _, role, p in facts["sees/2"]:
            if role in percepts:
                percepts[role].append(p)
        return (frozenset(a[1] for a in facts["next/1"]),
                {r: sorted(p, key=str) for r, p in percepts.items()})

    def next_state(self, state, joint: dict) -> frozenset:
        inputs = self._state_facts(state)
        inputs["does/2"] = {("does", r, m) for r, m in joint.items()}
        return frozenset(a[1] for a in self._evaluate(inputs, {"next/1"})["next/1"])


def _unify(pattern, fact, binding: dict):
    """Extend ``binding`` so that ``pattern`` equals the ground ``fact``, or None."""
    if isinstance(pattern, Var):
        bound = binding.get(pattern)
        if bound is None:
            new = dict(binding)
            new[pattern] = fact
            return new
        return binding if bound == fact else None
    if isinstance(pattern, tuple):
        if not isinstance(fact, tuple) or len(fact) != len(pattern) or fact[0] != pattern[0]:
            return None
        for p, f in zip(pattern[1:], fact[1:]):
            binding = _unify(p, f, binding)
            if binding is None:
                return None
        return binding
    return binding if pattern == fact else None
