"""The fast reasoner: rules compiled into straight-line Python, evaluated bottom-up per state.

How it works:

1. The rules are normalized (``or`` expanded, see :func:`ggp.gdl.program.normalize`),
   given demand where callers always bind some arguments of a state-dependent relation
   (:mod:`ggp.gdl.demand`: such a relation is computed only for the argument values its
   uses ask for; ``demand=False`` turns it off, grounding does) and split into strongly
   connected components of the dependency graph (strata).
2. Relations that depend on neither ``true`` nor ``does`` are *static*: they are computed
   once, and so are the hash indexes the rules use on them.
3. Each rule becomes one generated Python function: nested ``for`` loops over hash-index
   buckets, one per positive literal, ordered greedily so that each literal is looked up
   with as many arguments bound as possible; negations and ``distinct`` are tests placed as
   soon as their variables are bound. Ground terms are tuples and strings, so a lookup is
   a dict access and a unification is a few tuple subscripts.
4. A query (legal, terminal, goals, next, sees) evaluates only the strata it depends on;
   results for a state are cached, so legal moves, terminal and goals share one pass and
   ``next`` only adds the strata that depend on ``does``. Recursive strata are iterated
   to a fixpoint.

Nothing is grounded up front, so games too large to ground (chess) work unchanged; the
cost per state is proportional to the work the rules describe for that state.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from typing import Callable, Iterable

from ggp.core.errors import ModelError
from ggp.gdl.demand import transform as demand_transform
from ggp.gdl.engine import EngineInfo
from ggp.gdl.program import atom_of, dependencies, normalize, reachable, strata
from ggp.gdl.terms import Rule, Var, key_of

GroundTerm = str | tuple
State = frozenset

_INPUTS = ("true/1", "does/2")
_EMPTY: tuple = ()
_NEW = "$new"  # suffix of the relations holding a semi-naive round's new facts
_MAX_ROUNDS = 2_000  # fixpoint rounds of one recursive stratum before giving up
# CPU seconds a static stratum may take at load before its relations are given demand
# (sudoku's "exactlyFirst" over 9^9 argument tuples, used only with bound arguments)
STATIC_SECONDS = 1.0
_TICK_EVERY = 20_000  # loop iterations of a static rule between two deadline checks
_QUERIES = frozenset({"legal/2", "next/1", "terminal/0", "goal/2", "sees/2", "init/1",
                      "role/1", "base/1", "input/2", "percept/2"})


class _StaticTooBig(Exception):
    """A static stratum ran past STATIC_SECONDS at load."""

    def __init__(self, relations) -> None:
        super().__init__()
        self.relations = relations


class CompiledReasoner:
    """GDL semantics over ground terms, with compiled rules. See the module docstring.

    States are frozensets of ground fluents (``("cell", "1", "1", "b")``); moves are
    ground terms. Roles keep the order of the ``(role ...)`` facts. A
    :class:`ggp.gdl.engine.Reasoner`; :func:`ggp.gdl.reasoner.make_reasoner` gives it an
    ``info`` saying why it was chosen over the grounded engine.
    """

    info = EngineInfo("compiled")
    semi_naive = True  # recursive strata: join only with the facts new in the last round
    demand = True  # evaluate only the demanded facts of relations (ggp.gdl.demand)

    def __init__(self, rules: list[Rule], cache_size: int = 512,
                 demand: bool | None = None) -> None:
        if demand is not None:
            self.demand = demand
        self.roles: list[str] = list(dict.fromkeys(
            r.head[1] for r in rules if key_of(r.head) == "role/1" and not r.body))
        self._role_index = {r: i for i, r in enumerate(self.roles)}
        self._cache_size = cache_size
        # static relations that were too big to compute completely at load: they get
        # demand too (computed per state for the arguments asked), when their uses allow
        big: set = set()
        while True:
            try:
                self._build(normalize(rules), big)
                return
            except _StaticTooBig as exc:
                # only a watched stratum raises, and it has relations not yet in big
                big |= set(exc.relations)

    def _build(self, rules: list[Rule], big: set) -> None:
        self.rules = rules
        self.demanded: dict = {}  # relation -> the argument positions its demand binds
        if self.demand:
            self.rules, self.demanded = demand_transform(rules, big)
        graph = dependencies(self.rules)
        self._graph = graph
        self._by_head: dict[str, list[Rule]] = defaultdict(list)
        for rule in self.rules:
            self._by_head[key_of(rule.head)].append(rule)
        dynamic = {k for k in graph if reachable(graph, {k}) & set(_INPUTS)}
        self._dynamic = dynamic | set(_INPUTS)
        needed = reachable(graph, {"legal/2", "next/1", "terminal/0", "goal/2", "sees/2",
                                   "init/1", "role/1"})
        self._strata = [c for c in strata(graph) if any(k in self._by_head for k in c)]
        self._stratum_of = {k: i for i, c in enumerate(self._strata) for k in c}
        self._cache: dict = {}
        self._does_strata = {i for i, c in enumerate(self._strata)
                             if "does/2" in reachable(graph, set(c))}
        self._index_specs: dict = {}
        self._builders: list[Callable] = []
        self._compiled: dict[int, tuple] = {}
        self._plans: dict[tuple, list[int]] = {}
        # static relations are computed once, in stratum order, so a rule can bake in the
        # (finished) relations and indexes of earlier strata as constants
        self._static: dict[str, set] = {}
        self._static_index_cache: dict = {}
        static_ctx = _Context(self._static, {})
        for i, comp in enumerate(self._strata):
            if not set(comp) & self._dynamic and set(comp) & needed:
                # a stratum over the budget is abandoned if demand could restrict it
                # (a relation that is not yet demand-driven and is a candidate)
                watch = self.demand and bool(set(comp) - big - set(self.demanded)
                                             - _QUERIES)
                self._static_deadline = (time.thread_time() + STATIC_SECONDS
                                         if watch else math.inf)
                try:
                    self._run_stratum(i, static_ctx)
                except _StaticTooBig:
                    raise _StaticTooBig(set(comp) - _QUERIES) from None
        self._static_deadline = math.inf

    def _tick(self) -> None:
        """Called every few thousand loop iterations of a static rule (at load)."""
        if time.thread_time() > self._static_deadline:
            raise _StaticTooBig(())

    # ------------------------------------------------------------------ queries
    def encode(self, fluents) -> State:
        """The state of a collection of ground fluents (the same interface as
        :class:`ggp.gdl.grounded.GroundedReasoner`, whose states are bitsets)."""
        return frozenset(fluents)

    def decode(self, state: State) -> State:
        return state

    def initial_state(self) -> State:
        return frozenset(args[0] for args in self._static.get("init/1", ()))

    def legal_moves(self, state: State) -> dict[str, list[GroundTerm]]:
        """Legal moves of every role (sorted by their KIF text for determinism)."""
        ctx = self._state_ctx(state)
        if ctx.legal is None:
            rel = self._query(ctx, ("legal/2",))["legal/2"]
            legal: dict[str, list] = {r: [] for r in self.roles}
            for role, move in rel:
                if role in legal:
                    legal[role].append(move)
            for moves in legal.values():
                _sort_by_str(moves)
            ctx.legal = legal
        return ctx.legal

    def is_terminal(self, state: State) -> bool:
        ctx = self._state_ctx(state)
        return bool(self._query(ctx, ("terminal/0",)).get("terminal/0"))

    def goals(self, state: State) -> list[int]:
        """Goal value of each role (the largest if several are derivable, 0 if none)."""
        ctx = self._state_ctx(state)
        values = {r: None for r in self.roles}
        for role, value in self._query(ctx, ("goal/2",)).get("goal/2", ()):
            if role not in values:
                continue
            try:
                v = int(value)
            except (TypeError, ValueError):
                raise ModelError(f"goal value {value!r} of role {role} is not a number",
                                 function="goals") from None
            values[role] = v if values[role] is None else max(values[role], v)
        return [0 if v is None else v for v in values.values()]

    def next_state(self, state: State, joint: dict[str, GroundTerm]) -> State:
        rel = self._move_query(state, joint, ("next/1",))
        return frozenset(args[0] for args in rel.get("next/1", ()))

    def step(self, state: State, joint: dict[str, GroundTerm]) -> tuple[State, dict[str, list]]:
        """Next state and each role's percepts (``sees``) for a joint move, in one pass."""
        rel = self._move_query(state, joint, ("next/1", "sees/2"))
        nxt = frozenset(args[0] for args in rel.get("next/1", ()))
        percepts: dict[str, list] = {r: [] for r in self.roles}
        for role, percept in rel.get("sees/2", ()):
            if role in percepts:
                percepts[role].append(percept)
        for p in percepts.values():
            _sort_by_str(p)
        return nxt, percepts

    # ------------------------------------------------------------------ evaluation
    def _state_ctx(self, state: State) -> "_Context":
        ctx = self._cache.get(state)
        if ctx is None:
            if len(self._cache) >= self._cache_size:
                self._cache.clear()
            rel = dict(self._static)
            rel["true/1"] = {(f,) for f in state}
            ctx = self._cache[state] = _Context(rel, {})
        return ctx

    def _move_query(self, state: State, joint: dict, targets: tuple) -> dict:
        ctx = self._state_ctx(state)
        plan = self._plan(targets)
        # first the strata that do not depend on does, kept in the state's cache
        for i in plan:
            if i not in ctx.done and i not in self._does_strata:
                self._run_stratum(i, ctx)
        rel = dict(ctx.rel)
        rel["does/2"] = {(role, move) for role, move in joint.items()}
        child = _Context(rel, dict(ctx.idx))
        child.done = set(ctx.done)
        for i in plan:
            if i not in child.done:
                self._run_stratum(i, child)
        return child.rel

    def _query(self, ctx: "_Context", targets: tuple) -> dict:
        for i in self._plan(targets):
            if i not in ctx.done:
                self._run_stratum(i, ctx)
        return ctx.rel

    def _plan(self, targets: tuple) -> list[int]:
        plan = self._plans.get(targets)
        if plan is None:
            deps = reachable(self._graph, set(targets))
            plan = sorted({self._stratum_of[k] for k in deps if k in self._stratum_of
                           and k in self._dynamic and k not in _INPUTS})
            self._plans[targets] = plan
        return plan

    def _run_stratum(self, i: int, ctx: "_Context") -> None:
        compiled = self._compiled.get(i)
        if compiled is None:
            comp = self._strata[i]
            recursive = len(comp) > 1 or any(k in self._graph.get(k, ()) for k in comp)
            # a static stratum is evaluated once, at load: semi-naively, as a deep
            # recursion (succ chains of 200 numbers: "greater") re-run every rule each
            # round costs rounds x facts
            semi = recursive and (self.semi_naive or not set(comp) & self._dynamic)
            if semi:
                funcs = self._semi_naive_funcs(comp)
            else:
                funcs = [(key_of(r.head), self._compile(r, set(comp)))
                         for k in comp for r in self._by_head[k]]
            compiled = self._compiled[i] = (comp, funcs, recursive, semi)
        comp, funcs, recursive, semi = compiled
        if semi:
            self._run_semi_naive(comp, funcs, ctx)
            return
        rel = ctx.rel
        if not recursive:
            target = rel[comp[0]] = set()
            for _, fn in funcs:
                target.update(fn(rel, ctx.index))
        else:
            for k in comp:
                rel[k] = set()
            changed, rounds = True, 0
            while changed:
                changed = False
                rounds += 1
                if rounds > _MAX_ROUNDS:
                    raise _no_fixpoint(comp)
                for k in comp:  # indexes on this component's relations go stale each round
                    ctx.forget(k)
                for k, fn in funcs:
                    target = rel[k]
                    before = len(target)
                    target.update(fn(rel, ctx.index))
                    changed = changed or len(target) != before

            for k in comp:
                ctx.forget(k)
        ctx.done.add(i)

    def _semi_naive_funcs(self, comp: list) -> tuple[list, list]:
        """The rules of a recursive stratum for semi-naive evaluation: ``(base, step)``.
        ``base`` are the rules with no positive literal of the stratum (they run once);
        ``step`` has one variant of a rule per such literal, the literal reading only the
        facts new in the previous round (relation ``name$new``)."""
        members = set(comp)
        same = members | {_delta_key(k) for k in comp}
        base, step = [], []
        for k in comp:
            for rule in self._by_head[k]:
                spots = [j for j, lit in enumerate(rule.body)
                         if (a := atom_of(lit)) and a[1] and key_of(a[0]) in members]
                if not spots:
                    base.append((k, self._compile(rule, same)))
                for j in spots:
                    body = list(rule.body)
                    body[j] = _delta_atom(body[j])
                    step.append((k, self._compile(Rule(rule.head, tuple(body), rule.loc), same)))
        return base, step

    def _run_semi_naive(self, comp: list, funcs: tuple, ctx: "_Context") -> None:
        """Fixpoint of a recursive stratum where each round joins only with the facts
        derived in the round before (the same least fixpoint as re-running every rule,
        without re-deriving old facts each round)."""
        base, step = funcs
        rel = ctx.rel
        new: dict = {k: set() for k in comp}
        for k, fn in base:
            new[k].update(fn(rel, ctx.index))
        for k in comp:
            rel[k] = set()
        rounds = 0
        while any(new.values()):
            rounds += 1
            if rounds > _MAX_ROUNDS:
                raise _no_fixpoint(comp)
            for k in comp:
                rel[k].update(new[k])
                rel[_delta_key(k)] = new[k]
                self._extend_indexes(ctx, k, new[k])
                ctx.forget(_delta_key(k))
            found: dict = {k: set() for k in comp}
            for k, fn in step:
                found[k].update(fn(rel, ctx.index))
            new = {k: found[k] - rel[k] for k in comp}
        for k in comp:
            rel.pop(_delta_key(k), None)
            ctx.forget(k)
            ctx.forget(_delta_key(k))
        ctx.done.add(self._stratum_of[comp[0]])

    def _extend_indexes(self, ctx: "_Context", key: str, facts: set) -> None:
        """Add ``facts`` (just added to relation ``key``) to the context's indexes on it,
        rather than rebuilding them from the whole relation every round."""
        for (k, spec), found in ctx.idx.items():
            if k != key:
                continue
            part = self._builders[spec](facts)
            if isinstance(found, list):
                found.extend(part)
            elif isinstance(found, dict):
                for bucket_key, bucket in part.items():
                    old = found.get(bucket_key)
                    if old is None:
                        found[bucket_key] = bucket
                    else:
                        old.extend(bucket)
            # else: the index is the relation itself, already extended

    # ------------------------------------------------------------------ compilation
    def _compile(self, rule: Rule, same_stratum: set) -> Callable:
        return _RuleCompiler(self, rule, same_stratum).build()

    def index_spec(self, key: str, pattern: tuple, bound: set) -> tuple[int, list]:
        """Register (once) an index over relation ``key`` for an argument pattern whose
        variables in ``bound`` are known; returns its id and the key expressions."""
        checks: list = []
        keys: list = []
        _walk_pattern(pattern, "f", bound, checks, keys)
        spec_key = (key, tuple(checks), tuple(p for p, _ in keys))
        spec = self._index_specs.get(spec_key)
        if spec is None:
            spec = len(self._builders)
            self._index_specs[spec_key] = spec
            self._builders.append(_make_builder(checks, [p for p, _ in keys]))
        return spec, [e for _, e in keys]


class _Context:
    """Relations and hash indexes computed so far for one state (or state + joint move)."""

    __slots__ = ("rel", "idx", "done", "legal", "index")

    def __init__(self, rel: dict, idx: dict) -> None:
        self.rel = rel
        self.idx = idx
        self.done: set = set()
        self.legal = None

        # a closure over the dicts, not a bound method stored on the instance: that
        # made every context a reference cycle, freed only by the cyclic collector
        # (millions of objects per match; collections of seconds in the GGP player)
        def index(key: str, spec: int, builder: Callable):
            found = idx.get((key, spec))
            if found is None:
                found = idx[(key, spec)] = builder(rel.get(key, _EMPTY))
            return found

        self.index = index

    def forget(self, key: str) -> None:
        for k in [k for k in self.idx if k[0] == key]:
            del self.idx[k]


def _walk_pattern(term, expr: str, bound: set, checks: list, keys: list) -> None:
    """Collect what matching ``term`` against the fact part at ``expr`` requires:
    ``checks`` are conditions on the fact alone (shape and constants), ``keys`` are
    ``(path_expr, variable)`` pairs for variables bound before the lookup."""
    if isinstance(term, _Pattern):
        for j, sub in enumerate(term):
            _walk_pattern(sub, f"{expr}[{j}]", bound, checks, keys)
    elif isinstance(term, Var):
        if term in bound:
            keys.append((expr, term))
    elif isinstance(term, tuple):
        checks.append(f"type({expr}) is tuple and len({expr}) == {len(term)} "
                      f"and {expr}[0] == {term[0]!r}")
        for j, sub in enumerate(term[1:], start=1):
            _walk_pattern(sub, f"{expr}[{j}]", bound, checks, keys)
    else:
        checks.append(f"{expr} == {term!r}")


def _make_builder(checks: list[str], key_paths: list[str]) -> Callable:
    """A function turning a set of argument tuples into ``{key: [facts]}`` (or a list when
    nothing is keyed) holding only facts that pass the shape checks."""
    cond = " and ".join(checks) if checks else "True"
    if not key_paths:
        if not checks:
            return lambda facts: facts
        src = f"def build(facts):\n    return [f for f in facts if {cond}]\n"
    else:
        key = key_paths[0] if len(key_paths) == 1 else "(" + ", ".join(key_paths) + ",)"
        src = ("def build(facts):\n    d = {}\n    for f in facts:\n"
               f"        if {cond}:\n"
               f"            k = {key}\n"
               "            b = d.get(k)\n"
               "            if b is None:\n                d[k] = [f]\n"
               "            else:\n                b.append(f)\n"
               "    return d\n")
    ns: dict = {}
    exec(compile(src, "<gdl-index>", "exec"), ns)  # noqa: S102 - our own generated code
    return ns["build"]


_STR_KEYS: dict = {}  # ground term -> str(term), shared by every reasoner (bounded)


def _sort_by_str(terms: list) -> None:
    """Sort ground terms in place by ``str`` (a deterministic order: the set order of
    strings varies between processes; the grounded engine uses the same one).

    ``str`` of a nested tuple is slow and a chance role can have thousands of legal moves
    in every state (a deal), so the keys are remembered per term (emptied past 200,000)."""
    keys = _STR_KEYS
    if len(keys) > 200_000:
        keys.clear()
    for t in terms:
        if t not in keys:
            keys[t] = str(t)
    terms.sort(key=keys.__getitem__)


class _RuleCompiler:
    """Generates the Python function for one rule (see the module docstring)."""

    def __init__(self, owner: CompiledReasoner, rule: Rule, same_stratum: set) -> None:
        self.owner = owner
        self.rule = rule
        self.same = same_stratum
        self.names: dict[Var, str] = {}
        self.consts: dict = {}
        self.lines: list[str] = []
        self.prelude: list[str] = []
        # static rules run once, at load: their loops count iterations and call the
        # owner's _tick now and then (a deadline)
        self.ticking = key_of(rule.head) not in owner._dynamic

    def var(self, v: Var) -> str:
        if v not in self.names:
            self.names[v] = f"v{len(self.names)}"
        return self.names[v]

    def const(self, value) -> str:
        name = f"c{len(self.consts)}"
        self.consts[name] = value
        return name

    def expr(self, term) -> str:
        """Python expression building a ground term (all variables bound)."""
        if isinstance(term, Var):
            return self.names[term]
        if isinstance(term, tuple):
            return "(" + ", ".join([repr(term[0])] + [self.expr(a) for a in term[1:]]) + ",)"
        return repr(term)

    def args_expr(self, atom) -> str:
        if not isinstance(atom, tuple):
            return "()"
        return "(" + "".join(self.expr(a) + ", " for a in atom[1:]) + ")"

    def is_static(self, key: str) -> bool:
        """Finished before this rule runs: neither state-dependent nor being computed."""
        return key not in self.owner._dynamic and key not in self.same

    def build(self) -> Callable:
        body = list(self.rule.body)
        bound: set = set()
        depth = 1
        emit = self.lines.append
        # relations that are never defined: a positive use can never succeed
        for lit in body:
            a = atom_of(lit)
            if a and a[1] and self._never(key_of(a[0])):
                return lambda rel, index: _EMPTY
        pending = list(body)
        while pending:
            lit = self._pick(pending, bound)
            pending.remove(lit)
            a = atom_of(lit)
            ind = "    " * depth
            if a is None:  # distinct, or a negated distinct (an equality test)
                left, right, equal = _comparison(lit)
                fails = "!=" if equal else "=="
                emit(f"{ind}if {self.expr(left)} {fails} {self.expr(right)}: "
                     + ("continue" if depth > 1 else "return out"))
                continue
            atom, positive = a
            key = key_of(atom)
            if not positive:
                test = self._exists(atom, key, bound)
                if test is not None:
                    emit(f"{ind}if {test}: " + ("continue" if depth > 1 else "return out"))
                continue
            depth = self._positive(atom, key, bound, depth)
        ind = "    " * depth
        emit(f"{ind}app({self.args_expr(self.rule.head)})")
        src = ["def rule(rel, index):", "    out = []", "    app = out.append"]
        if self.ticking:
            src.append("    n = 0")
        src += self.prelude + self.lines + ["    return out"]
        text = "\n".join(src) + "\n"
        ns = dict(self.consts)
        ns["_E"] = _EMPTY
        if self.ticking:
            ns["_tick"] = self.owner._tick
        exec(compile(text, f"<gdl-rule {self.rule.loc.line}:{self.rule.loc.col}>", "exec"), ns)  # noqa: S102
        fn = ns["rule"]
        fn.source = text  # kept for debugging and the docs
        return fn

    def _never(self, key: str) -> bool:
        if key in _INPUTS or key in self.owner._by_head or key in self.same:
            return False
        return True

    def _pick(self, pending: list, bound: set):
        """Next literal: ready tests first, then the cheapest positive literal."""
        for lit in pending:
            a = atom_of(lit)
            if a is None:
                if all(v in bound for v in _vars(lit)):
                    return lit
            elif not a[1]:
                later = set()
                for other in pending:
                    o = atom_of(other)
                    if other is not lit and o is not None and o[1]:
                        later.update(_vars(other))
                if all(v in bound or v not in later for v in _vars(lit)):
                    return lit
        best, best_cost = None, None
        for lit in pending:
            a = atom_of(lit)
            if a is None or not a[1]:
                continue
            cost = self._cost(a[0], bound)
            if best is None or cost < best_cost:
                best, best_cost = lit, cost
        if best is None:  # only distinct with unbound variables remain (rejected by validation)
            raise ModelError(f"rule at line {self.rule.loc.line} has an unsafe variable",
                             function="compile")
        return best

    def _cost(self, atom, bound: set) -> float:
        key = key_of(atom)
        if key == "does/2" or _NEW + "/" in key:
            size = 2.0  # a joint move; the facts new in a semi-naive round
        elif self.is_static(key):
            size = float(len(self.owner._static.get(key, ())))
        else:
            size = 60.0
        keys = 0
        new = set()
        for path_term in _leaves(atom):
            if isinstance(path_term, Var):
                if path_term in bound:
                    keys += 1
                else:
                    new.add(path_term)
            else:
                keys += 1
        if not new:
            return -1.0 + size * 1e-9
        return size / (8.0 ** keys)

    def _index_var(self, key: str, atom, bound: set) -> tuple[str, list]:
        """Emit (in the prelude) the index for ``atom`` and return its name and key exprs."""
        pattern = atom[1:] if isinstance(atom, tuple) else ()
        spec, key_terms = self.owner.index_spec(key, _as_tuple(pattern), bound)
        name = f"I{len(self.prelude)}"
        builder = self.owner._builders[spec]
        if self.is_static(key):
            found = self.owner._static_index_cache.get((key, spec))
            if found is None:
                found = self.owner._static_index_cache[(key, spec)] = builder(
                    self.owner._static.get(key, _EMPTY))
            self.prelude.append(f"    {name} = {self.const(found)}")
        else:
            self.prelude.append(f"    {name} = index({key!r}, {spec}, {self.const(builder)})")
        return name, [self.expr(t) for t in key_terms]

    def _positive(self, atom, key: str, bound: set, depth: int) -> int:
        ind = "    " * depth
        emit = self.lines.append
        pattern = _as_tuple(atom[1:] if isinstance(atom, tuple) else ())
        if all(v in bound for v in _vars(atom)):
            # a pure membership test
            rel_name = self._rel_name(key)
            emit(f"{ind}if {self.args_expr(atom)} not in {rel_name}: "
                 + ("continue" if depth > 1 else "return out"))
            return depth
        name, key_exprs = self._index_var(key, atom, bound)
        fact = f"f{depth}"
        if key_exprs:
            k = key_exprs[0] if len(key_exprs) == 1 else "(" + ", ".join(key_exprs) + ",)"
            emit(f"{ind}for {fact} in {name}.get({k}, _E):")
        else:
            emit(f"{ind}for {fact} in {name}:")
        depth += 1
        ind = "    " * depth
        if self.ticking:  # a static rule can run for minutes: let the owner stop it
            emit(f"{ind}n += 1")
            emit(f"{ind}if n >= {_TICK_EVERY}: n = 0; _tick()")
        local: dict = {}
        self._bind(pattern, fact, bound, local, ind)
        bound.update(local)
        return depth

    def _bind(self, term, expr: str, bound: set, local: dict, ind: str) -> None:
        """Emit assignments of the free variables of ``term`` from the fact part ``expr``
        (shapes, constants and bound variables were already checked by the index)."""
        if isinstance(term, _Pattern):
            for j, sub in enumerate(term):
                self._bind(sub, f"{expr}[{j}]", bound, local, ind)
        elif isinstance(term, Var):
            if term in bound:
                return
            if term in local:
                self.lines.append(f"{ind}if {expr} != {local[term]}: continue")
            else:
                local[term] = self.var(term)
                self.lines.append(f"{ind}{local[term]} = {expr}")
        elif isinstance(term, tuple):
            for j, sub in enumerate(term[1:], start=1):
                self._bind(sub, f"{expr}[{j}]", bound, local, ind)

    def _rel_name(self, key: str) -> str:
        if self.is_static(key):
            return self.const(self.owner._static.get(key, frozenset()))
        name = f"R{len(self.prelude)}"
        self.prelude.append(f"    {name} = rel.get({key!r}, _E)")
        return name

    def _exists(self, atom, key: str, bound: set) -> str | None:
        """A condition that is true when some fact matches ``atom`` (free variables are
        wildcards), or None when no fact can ever match."""
        if self._never(key):
            return None
        if all(v in bound for v in _vars(atom)):
            return f"{self.args_expr(atom)} in {self._rel_name(key)}"
        name, key_exprs = self._index_var(key, atom, bound)
        bucket = (f"{name}.get({key_exprs[0] if len(key_exprs) == 1 else '(' + ', '.join(key_exprs) + ',)'}, _E)"
                  if key_exprs else name)
        # repeated free variables must agree
        seen: dict = {}
        conds = []
        for path, v in _var_paths(_as_tuple(atom[1:]), "g"):
            if v in bound:
                continue
            if v in seen:
                conds.append(f"{path} == {seen[v]}")
            else:
                seen[v] = path
        if not conds:
            return f"{bucket}"
        return f"any({' and '.join(conds)} for g in {bucket})"


def _no_fixpoint(comp: list) -> ModelError:
    return ModelError(
        f"the recursive relations {', '.join(comp)} did not reach a fixpoint in "
        f"{_MAX_ROUNDS} rounds; their recursion is probably unbounded (GDL's "
        "recursion restriction)", function="reasoner")


def _delta_key(key: str) -> str:
    name, arity = key.rsplit("/", 1)
    return f"{name}{_NEW}/{arity}"


def _delta_atom(atom):
    """``atom`` reading relation ``name$new`` (a name no parsed symbol can have)."""
    if isinstance(atom, tuple):
        return (atom[0] + _NEW, *atom[1:])
    return atom + _NEW


def _comparison(lit) -> tuple:
    """``(left, right, must_be_equal)`` for ``distinct`` and ``not distinct`` literals."""
    if lit[0] == "not":
        left, right, equal = _comparison(lit[1])
        return left, right, not equal
    return lit[1], lit[2], False


class _Pattern(tuple):
    """Marks the top-level argument tuple of a literal (it has no functor slot)."""


def _as_tuple(args) -> "_Pattern":
    return _Pattern(args)


def _vars(term) -> list:
    if isinstance(term, Var):
        return [term]
    if isinstance(term, tuple):
        start = 0 if isinstance(term, _Pattern) else 1
        return [v for a in term[start:] for v in _vars(a)]
    return []


def _leaves(atom) -> Iterable:
    if isinstance(atom, tuple):
        for a in atom[1:]:
            if isinstance(a, tuple):
                yield a[0]
                yield from _leaves(a)
            else:
                yield a


def _var_paths(term, expr: str):
    if isinstance(term, Var):
        yield expr, term
    elif isinstance(term, tuple):
        start = 0 if isinstance(term, _Pattern) else 1
        for j, sub in enumerate(term[start:], start=start):
            yield from _var_paths(sub, f"{expr}[{j}]")
