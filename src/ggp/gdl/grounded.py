"""The grounded reasoner: a grounded game compiled into straight-line Python over bitsets.

A state is a Python ``int``: bit ``i`` is set when the ``i``-th possible fluent of the
:class:`ggp.gdl.ground.GroundProgram` is true (fluents are numbered in KIF-text order). The
ground rules are turned into generated Python functions (our own code, ``compile()``-d at
load time) that evaluate the atoms they need in dependency order:

* a rule body becomes ``(s & P) == P and not s & N and v3 and not v7``: ``P``/``N`` are
  the masks of its positive/negated fluents, ``v3`` a view computed earlier as a local
  (or inlined when it is used once);
* ``legal_moves``, ``is_terminal`` and ``goals`` are one function each, built on first use;
* ``next_state`` is specialized per joint move: with the ``does`` atoms fixed, every rule
  that needs another move disappears and the rest are constant-folded, so the frame
  ("this cell keeps its mark") usually collapses to one ``s & COPY`` and only the fluents
  the move touches are tested one by one. Specialized functions are cached by joint move.

It is a :class:`ggp.gdl.engine.Reasoner` with ``int`` states
(:meth:`GroundedReasoner.encode` / :meth:`~GroundedReasoner.decode` convert from/to
frozensets of fluents). :func:`ggp.gdl.reasoner.make_reasoner` picks this engine when the
game grounds within the limits and races faster than the compiled reasoner, and otherwise
returns the compiled reasoner, its ``info.why_not_grounded`` saying why. Ground recursion
through state-dependent relations (a view that depends on itself, e.g. path connectivity
in Hex) is not compiled: such games fall back too.
"""

from __future__ import annotations

import time
from typing import Callable, cast

from ggp.core.errors import ModelError
from ggp.gdl.engine import EngineInfo, Reasoner
from ggp.gdl.ground import GroundProgram, NotGroundable
from ggp.gdl.terms import to_kif

_INLINE_CHARS = 300  # a view used once is inlined when its expression is this short
# specialized next-state functions kept per game: at most this many, of at most this much
# source in all (the code objects take about as much memory again)
_MAX_JOINT_FUNCTIONS = 20_000
_MAX_JOINT_CHARS = 40_000_000
_COLD_SAMPLES = 8  # first cold steps: taken whatever the costs, left out of their mean
_COLD_RECHECK = 50  # generated functions between two cold steps measured anyway


class GroundedReasoner:
    """GDL semantics over a :class:`GroundProgram` with ``int`` states (module docstring).

    ``legal_moves(s)`` -> ``{role: [moves sorted by str]}``, ``is_terminal(s)`` -> bool,
    ``goals(s)`` -> one int per role (largest derivable value, 0 if none),
    ``next_state(s, joint)`` and ``step(s, joint)`` -> ``(next, {role: [percepts]})``
    where ``joint`` maps every role to a legal move. Roles keep the ``(role ...)`` order.
    """

    def __init__(self, program: GroundProgram, cold_engine: Reasoner | None = None) -> None:
        self.info = EngineInfo("grounded")  # make_reasoner adds its race's speeds
        self.program = program
        self.roles = list(program.roles)
        self._fluents = program.fluents
        self._bit = {f: 1 << i for i, f in enumerate(program.fluents)}
        self._moves = {r: set(ms) for r, ms in program.moves.items()}
        self._rules = program.rules
        self._order = _topological_order(program.rules)
        self._index_rules()
        self._does_dep: set = set()  # atoms whose value depends on the joint move
        for atom in sorted(self._order, key=self._order.get):  # bodies before heads
            if any(_is_does(a) or a in self._does_dep
                   for pos, neg in self._rules.get(atom, ()) for a in pos + neg):
                self._does_dep.add(atom)
        self._uses: dict = {}  # references to each view in all ground rules
        for bodies in self._rules.values():
            for pos, neg in bodies:
                for a in pos + neg:
                    self._uses[a] = self._uses.get(a, 0) + 1
        self._state_values: dict = {}  # folded rules of atoms in _does_dep's complement
        self._state_texts: dict = {}
        self._state_cones: dict = {}
        heads = [a for a in program.rules if isinstance(a, tuple)]
        self._next_atoms = [a for a in heads if a[0] == "next" and len(a) == 2]
        self._sees_atoms = [a for a in heads if a[0] == "sees" and len(a) == 3]
        self._next_fns: dict = {}
        self._joint_chars = 0
        self._step_fns: dict = {}
        # cold joint moves (see _joint_function): steps through another engine until a
        # move's function is worth generating; costs are wall seconds, running means.
        # make_reasoner sets it once the engine has won its race (the race itself
        # generates every joint move): the compiled engine of the same rules
        self.cold_engine = cold_engine
        self.functions_generated = 0
        self._cold_uses: dict = {}
        self._cold_steps = 0
        self._cold_cost = 0.0
        self._generate_cost = 0.0
        self._generated_at_cold = 0  # functions_generated at the last cold step
        # the three state queries are generated on first use; each lazy builder replaces
        # itself with the generated function, so later calls go straight to it
        self.legal_moves = self._build("legal")
        self.is_terminal = self._build("terminal")
        self.goals = self._build("goals")
        self.goal_values()  # non-numeric goals are rejected at load time

    # ------------------------------------------------------------------ conversions
    def initial_state(self) -> int:
        return self.encode(self.program.init)

    def encode(self, fluents) -> int:
        """The bitset of a collection of ground fluents."""
        s = 0
        for f in fluents:
            b = self._bit.get(f)
            if b is None:
                raise ModelError(f"the fluent {to_kif(f)} can never be true in this game "
                                 "(it is not in the grounded state space)", function="encode")
            s |= b
        return s

    def decode(self, state: int) -> frozenset:
        """The ground fluents of a bitset state."""
        out, fluents = [], self._fluents
        while state:
            low = state & -state  # the lowest set bit
            out.append(fluents[low.bit_length() - 1])
            state ^= low
        return frozenset(out)

    def goal_values(self) -> dict[str, list[tuple[int, object]]]:
        """Each role's possible ``(value, goal atom)`` pairs, largest value first."""
        values: dict[str, list] = {r: [] for r in self.roles}
        for atom in self._rules:
            if isinstance(atom, tuple) and atom[0] == "goal" and len(atom) == 3 \
                    and atom[1] in values:
                try:
                    values[atom[1]].append((int(atom[2]), atom))
                except (TypeError, ValueError):
                    raise NotGroundable(f"goal value {to_kif(atom[2])} is not a number") from None
        return {r: sorted(v, key=lambda p: (-p[0], str(p[1]))) for r, v in values.items()}

    def check_step_code(self, max_chars: int) -> None:
        """Raise :class:`NotGroundable` when the next-state function specialized for the
        first joint move of the initial state has more than ``max_chars`` characters of
        source: every new joint move would cost as much to generate and compile (backgammon:
        ~600,000 characters, ~25 ms, a new joint move almost every step), which makes the
        engine far slower than the compiled one. The function stays cached."""
        state = self.initial_state()
        legal = self.legal_moves(state)
        if self.is_terminal(state) or not all(legal.values()):
            return
        before = self._joint_chars
        self.next_state(state, {role: moves[0] for role, moves in legal.items()})
        size = self._joint_chars - before
        if size > max_chars:
            raise NotGroundable(f"a next-state function specialized for one joint move has "
                                f"{size} characters of code (limit {max_chars})")

    # ------------------------------------------------------------------ moves
    def next_state(self, state: int, joint: dict) -> int:
        key = tuple([joint[r] for r in self.roles])
        fn = self._next_fns.get(key)
        if fn is None:
            fn = self._joint_function(self._next_fns, key, joint, sees=False)
            if fn is None:  # a cold joint move: there is a cold engine
                started = time.perf_counter()
                cold = cast(Reasoner, self.cold_engine)
                nxt = self.encode(cold.next_state(self.decode(state), joint))
                self._cold_step_took(time.perf_counter() - started)
                return nxt
        return fn(state)

    def step(self, state: int, joint: dict) -> tuple[int, dict[str, list]]:
        """Next state and each role's percepts (``sees``, sorted by str) in one call."""
        key = tuple([joint[r] for r in self.roles])
        fn = self._step_fns.get(key)
        if fn is None:
            fn = self._joint_function(self._step_fns, key, joint, sees=True)
            if fn is None:  # a cold joint move: there is a cold engine
                started = time.perf_counter()
                cold = cast(Reasoner, self.cold_engine)
                nxt, percepts = cold.step(self.decode(state), joint)
                nxt = self.encode(nxt)
                self._cold_step_took(time.perf_counter() - started)
                return nxt, percepts
        return fn(state)

    def _cold_step_took(self, seconds: float) -> None:
        # a running mean over the last ~100 cold steps (their cost changes as the cold
        # engine's caches fill and states grow or shrink), the first _COLD_SAMPLES left
        # out: they pay the compiled engine's start-up (5 ms against 0.03 ms after it on
        # BattleshipsFog). A mean, not a median: the cost that ski rental weighs is the
        # expected one, and cold steps have a long tail (a new state's first query)
        self._cold_steps += 1
        n = self._cold_steps - _COLD_SAMPLES
        if n > 0:
            self._cold_cost += (seconds - self._cold_cost) / min(n, 100)

    def _joint_function(self, cache: dict, key: tuple, joint: dict,
                        sees: bool) -> Callable | None:
        """The generated function for ``joint`` (stored in ``cache``), or None while the
        joint move is cold: with a ``cold_engine``, a joint move's function is generated
        only once its steps through that engine have cost as much as generating one
        (ski rental: never more than twice the better of the two choices made in
        hindsight), so moves met once or twice in a game never pay for generation."""
        for role, move in joint.items():
            if role in self._moves and move not in self._moves[role]:
                raise ModelError(f"{to_kif(move)} is never a legal move of {role}",
                                 function="next_state")
        if self.cold_engine is not None:
            uses = self._cold_uses
            if len(uses) > _MAX_JOINT_FUNCTIONS:
                uses.clear()
            n = uses[(key, sees)] = uses.get((key, sees), 0) + 1
            # the costs decide once the cold one has a few samples (the first cold steps
            # pay the compiled engine's own start-up), and every _COLD_RECHECK-th
            # generation a cold step is measured again: a cold cost left too high would
            # otherwise never be measured again and every new move would be generated
            if (self._cold_steps < _COLD_SAMPLES
                    or self.functions_generated - self._generated_at_cold >= _COLD_RECHECK
                    or n * self._cold_cost < self._generate_cost):
                self._generated_at_cold = self.functions_generated
                return None
        if len(cache) >= _MAX_JOINT_FUNCTIONS or self._joint_chars > _MAX_JOINT_CHARS:
            cache.clear()
            self._joint_chars = sum(len(f.source) for c in (self._next_fns, self._step_fns)
                                    for f in c.values())
        does = {("does", r, m) for r, m in zip(self.roles, key)}
        started = time.perf_counter()
        fn = cache[key] = self._generate("next", does, sees)
        cost = time.perf_counter() - started
        self.functions_generated += 1
        self._generate_cost += (cost - self._generate_cost) / self.functions_generated
        self._joint_chars += len(fn.source)
        return fn

    # ------------------------------------------------------------------ code generation
    def _build(self, what: str) -> Callable:
        def lazy(*args):
            fn = self._generate(what, set(), False)
            setattr(self, {"legal": "legal_moves", "terminal": "is_terminal",
                           "goals": "goals"}[what], fn)
            return fn(*args)
        return lazy

    def _index_rules(self) -> None:
        """Split each atom's rules into those without a positive ``does`` literal and those
        keyed by their first one, so specializing to a joint move skips the others fast."""
        self._free: dict = {}
        self._keyed: dict = {}
        for head, bodies in self._rules.items():
            free, keyed = [], {}
            for body in bodies:
                d = next((a for a in body[0] if _is_does(a)), None)
                if d is None:
                    free.append(body)
                else:
                    keyed.setdefault(d, []).append(body)
            self._free[head] = free
            self._keyed[head] = keyed

    def _state_cone(self, root) -> frozenset:
        """``root`` and the atoms it depends on, for an atom that depends on no move."""
        found = self._state_cones.get(root)
        if found is None:
            seen, stack = set(), [root]
            while stack:
                atom = stack.pop()
                if atom not in seen:
                    seen.add(atom)
                    stack.extend(_deps(self._rules, atom))
            found = self._state_cones[root] = frozenset(seen)
        return found

    def _relevant(self, atom, does: set) -> list:
        out = list(self._free.get(atom, ()))
        keyed = self._keyed.get(atom)
        if keyed:
            for d in does:
                out.extend(keyed.get(d, ()))
        return out

    def _targets(self, what: str, sees: bool) -> list:
        if what == "legal":
            return [("legal", r, m) for r in self.roles for m in self.program.moves[r]]
        if what == "terminal":
            return ["terminal"]
        if what == "goals":
            return [atom for pairs in self.goal_values().values() for _, atom in pairs]
        return self._next_atoms + (self._sees_atoms if sees else [])

    def _generate(self, what: str, does: set, sees: bool) -> Callable:
        """Generate, compile and return ``f(s)`` for one query ("legal", "terminal",
        "goals", or "next" under the joint move whose atoms are ``does``)."""
        targets = self._targets(what, sees)
        values, lines, expr = _Folder(self, does).fold(targets)
        code = _Code(lines)
        if what == "legal":
            lists = code.lists("L", expr, {r: [(("legal", r, m), m) for m in self.program.moves[r]]
                                           for r in self.roles})
            code.add(f"return {lists}")
        elif what == "terminal":
            code.add(f"return True if {expr('terminal')} else False")
        elif what == "goals":
            for i, pairs in enumerate(self.goal_values().values()):
                code.add(f"g{i} = 0")
                code.first_true(f"g{i}", [(expr(atom), v) for v, atom in pairs])
            code.add("return [" + ", ".join(f"g{i}" for i in range(len(self.roles))) + "]")
        else:
            self._next_code(code, targets, values, expr)
            if sees:
                percepts = {r: sorted(((a, a[2]) for a in targets if a[0] == "sees" and a[1] == r),
                                      key=lambda p: str(p[1])) for r in self.roles}
                code.add(f"return n, {code.lists('P', expr, percepts)}")
            else:
                code.add("return n")
        return code.compile(f"<gdl-grounded {what}>")

    def _next_code(self, code: "_Code", targets: list, values: dict, expr: Callable) -> None:
        """``n = (s & COPY) | CONSTANT`` for the frame and constant fluents, then one
        test per fluent whose rules are not just ``next(f) :- true(f)``."""
        copy, constant, conditional = 0, 0, []
        for atom in targets:
            if atom[0] != "next":
                continue
            bit = self._bit[atom[1]]
            rules = values.get(atom)
            if rules is True:
                constant |= bit
            elif rules:
                rest = []
                for r in rules:
                    if r == (bit, 0, (), ()):
                        copy |= bit
                    else:
                        rest.append(r)
                if rest:
                    conditional.append((bit, expr(atom, rest)))
        code.add(f"n = (s & {copy}) | {constant}" if copy else f"n = {constant}")
        for bit, cond in conditional:
            code.add(f"if {cond}: n |= {bit}")


class _Code:
    """The body of one generated function ``f(s)`` and the constants it refers to."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.consts: dict = {}

    def add(self, line: str) -> None:
        self.lines.append(line)

    def const(self, value) -> str:
        name = f"k{len(self.consts)}"
        self.consts[name] = value
        return name

    def lists(self, prefix: str, expr: Callable, items: dict) -> str:
        """Build one list per role of the values whose atom holds; returns the
        ``{role: list}`` expression. ``items`` maps roles to ``(atom, value)`` pairs."""
        for i, pairs in enumerate(items.values()):
            self.add(f"{prefix}{i} = []")
            for atom, value in pairs:
                cond = expr(atom)
                if cond == "False":
                    continue
                append = f"{prefix}{i}.append({self.const(value)})"
                self.add(append if cond == "True" else f"if {cond}: {append}")
        return "{" + ", ".join(f"{role!r}: {prefix}{i}" for i, role in enumerate(items)) + "}"

    def first_true(self, var: str, branches: list) -> None:
        """``var`` = the value of the first branch whose condition holds (else unchanged)."""
        keyword = "if"
        for cond, value in branches:
            if cond == "False":
                continue
            if cond == "True":
                self.add(f"else: {var} = {value}" if keyword == "elif" else f"{var} = {value}")
                return
            self.add(f"{keyword} {cond}: {var} = {value}")
            keyword = "elif"

    def compile(self, label: str) -> Callable:
        text = "def f(s):\n" + "".join(f"    {line}\n" for line in self.lines)
        namespace = dict(self.consts)
        exec(compile(text, label, "exec"), namespace)  # noqa: S102 - our own generated code
        fn = namespace["f"]
        fn.source = text  # kept for debugging and the docs
        return fn


def _is_does(atom) -> bool:
    return isinstance(atom, tuple) and atom[0] == "does"


def _is_true(atom) -> bool:
    return isinstance(atom, tuple) and atom[0] == "true" and len(atom) == 2


class _Folder:
    """Constant folding and expression building for one generated function.

    ``fold(targets)`` returns ``(values, lines, expr)``: ``values[atom]`` is True, False
    or its simplified rules ``(pos mask, neg mask, pos views, neg views)``; ``lines`` the
    assignments of the views kept as locals; ``expr(atom[, rules])`` the Python
    condition of an atom ("True"/"False" when constant).
    """

    def __init__(self, owner: GroundedReasoner, does: set) -> None:
        self.owner = owner
        self.does = does
        self.values: dict = {}
        self.names: dict = {}
        self.inline: dict = {}

    def fold(self, targets: list):
        owner = self.owner
        cone = self._cone(targets)
        cone.sort(key=lambda a: owner._order.get(a, 0))
        uses: dict = {}
        state_only = owner._state_values
        for atom in cone:
            # an atom that depends on no move folds the same way in every function
            if atom in owner._does_dep:
                v = self._simplify(atom)
            else:
                v = state_only.get(atom)
                if v is None:
                    v = state_only[atom] = self._simplify(atom)
            self.values[atom] = v
            if isinstance(v, list):
                for _, _, pos, neg in v:
                    for ref in pos + neg:
                        uses[ref] = uses.get(ref, 0) + 1
        lines = []
        texts = owner._state_texts
        for atom in cone:
            v = self.values[atom]
            if not uses.get(atom) or not isinstance(v, list):
                continue
            if len(v) == 1 and v[0][:2] == (0, 0) and not v[0][3] and len(v[0][2]) == 1 \
                    and v[0][2][0] in self.names:  # an alias of a local: share its name
                self.names[atom] = self.names[v[0][2][0]]
                continue
            if atom in owner._does_dep:
                text, once = self._expr(v), uses[atom] == 1
            else:  # same text everywhere: local names are stable (topological index)
                text = texts.get(atom)
                if text is None:
                    text = texts[atom] = self._expr(v)
                once = owner._uses.get(atom) == 1
            if once and len(text) <= _INLINE_CHARS:
                self.inline[atom] = text
            else:
                name = self.names[atom] = f"v{owner._order[atom]}"
                lines.append(f"{name} = {text}")
        return self.values, lines, self.expr

    def expr(self, atom, rules=None) -> str:
        if rules is None and atom in self.names:
            return self.names[atom]
        v = self.values.get(atom, False) if rules is None else rules
        if v is True:
            return "True"
        if v is False or not v:
            return "False"
        return self._expr(v)

    def _cone(self, targets: list) -> list:
        """Every atom the targets depend on under this joint move."""
        owner = self.owner
        seen, stack, state_roots = set(), list(targets), set()
        while stack:
            atom = stack.pop()
            if atom in seen:
                continue
            seen.add(atom)
            for pos, neg in owner._relevant(atom, self.does):
                for a in pos + neg:
                    if _is_true(a) or _is_does(a) or a in seen:
                        continue
                    if a in owner._does_dep:
                        stack.append(a)
                    else:
                        state_roots.add(a)
        for root in state_roots:
            seen.update(owner._state_cone(root))
        return list(seen)

    def _simplify(self, atom):
        out = []
        bit = self.owner._bit
        for pos, neg in self.owner._relevant(atom, self.does):
            pm = nm = 0
            pv, nv = [], []
            ok = True
            for a in pos:
                if _is_true(a):
                    pm |= bit[a[1]]
                elif _is_does(a):
                    ok = a in self.does
                else:
                    v = self.values.get(a, False)
                    if v is False:
                        ok = False
                    elif v is not True:
                        pv.append(a)
                if not ok:
                    break
            if not ok:
                continue
            for a in neg:
                if _is_true(a):
                    nm |= bit[a[1]]
                elif _is_does(a):
                    ok = a not in self.does
                else:
                    v = self.values.get(a, False)
                    if v is True:
                        ok = False
                    elif v is not False:
                        nv.append(a)
                if not ok:
                    break
            if not ok or pm & nm:
                continue
            if not (pm or nm or pv or nv):
                return True
            out.append((pm, nm, tuple(pv), tuple(nv)))
        return list(dict.fromkeys(out)) or False

    def _ref(self, atom) -> str:
        if atom in self.names:
            return self.names[atom]
        return f"({self.inline[atom]})"

    def _expr(self, rules: list) -> str:
        """OR of the rule conditions; single-fluent rules are merged into one mask."""
        any_of, terms, masks = 0, [], []
        for pm, nm, pv, nv in rules:
            if not nm and not pv and not nv:
                if pm & (pm - 1) == 0:
                    any_of |= pm
                else:
                    masks.append(pm)
                continue
            parts = []
            if pm:
                parts.append(f"s & {pm}" if pm & (pm - 1) == 0 else f"s & {pm} == {pm}")
            if nm:
                parts.append(f"not s & {nm}")
            parts += [self._ref(a) for a in pv]
            parts += [f"not {self._ref(a)}" for a in nv]
            terms.append(" and ".join(parts))
        terms[:0] = _contains_any(masks)
        if any_of:
            terms.insert(0, f"s & {any_of}")
        if len(terms) == 1:
            return terms[0]
        return " or ".join(f"({t})" for t in terms)


def _contains_any(masks: list[int]) -> list[str]:
    """OR-terms true when ``s`` contains all bits of one of the masks.

    Masks that share a bit are tested behind one test of that bit (the bit in most masks
    first), so a state lacking it skips them all: on a sparse board, "some line is
    complete" costs a few bit tests instead of one test per line. Every mask lands in one
    branch, so the code stays linear in the masks' size; nesting is at most the number of
    bits of a mask."""
    terms: list[str] = []
    masks = list(dict.fromkeys(masks))
    while masks:
        counts: dict = {}
        for m in masks:
            while m:
                low = m & -m
                counts[low] = counts.get(low, 0) + 1
                m ^= low
        bit, n = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))
        if n < 3 or len(masks) < 4:  # nothing worth sharing
            terms += [f"s & {m} == {m}" if m & (m - 1) else f"s & {m}" for m in masks]
            break
        rest = [m ^ bit for m in masks if m & bit]
        masks = [m for m in masks if not m & bit]
        if 0 in rest:
            terms.append(f"s & {bit}")
        else:
            terms.append(f"s & {bit} and ({' or '.join(_contains_any(rest))})")
    return terms


def _topological_order(rules: dict) -> dict:
    """Position of every derived atom in an order where bodies come before heads; raises
    NotGroundable on a cycle (recursion through state-dependent relations)."""
    order: dict = {}
    state: dict = {}  # 1 = on the stack, 2 = done
    for root in rules:
        if root in state:
            continue
        stack = [(root, iter(_deps(rules, root)))]
        state[root] = 1
        while stack:
            atom, it = stack[-1]
            for dep in it:
                s = state.get(dep)
                if s is None:
                    state[dep] = 1
                    stack.append((dep, iter(_deps(rules, dep))))
                    break
                if s == 1:
                    raise NotGroundable(f"ground recursion through state-dependent relations "
                                        f"({to_kif(dep)} depends on itself)")
            else:
                stack.pop()
                state[atom] = 2
                order[atom] = len(order)
    return order


def _deps(rules: dict, atom):
    for pos, neg in rules.get(atom, ()):
        for a in pos + neg:
            if not _is_true(a) and not _is_does(a):
                yield a
