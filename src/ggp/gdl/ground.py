"""Grounding: a GDL game as a finite set of ground (variable-free) rules.

How it works:

1. **Possibly-true atoms.** A *relaxed* copy of the rules is evaluated to a fixpoint:
   ``true`` is replaced by "initially true or possibly next" (``$true``), ``does`` by
   "possibly legal" (``$does``), and negative literals on state-dependent relations are
   dropped. Dropping a negative literal only makes a rule fire more often, so every atom
   that holds in some reachable state (with some legal joint move) is in the result: it
   is an over-approximation. Static relations (``succ``, ``distinct``, ``index``, ...) do
   not depend on the state and are computed exactly. The evaluation reuses
   :class:`ggp.gdl.compiled.CompiledReasoner`, since every relation of the relaxed program
   is state-independent.
2. **Instances.** For every rule with a state-dependent head, an extra relaxed rule
   ``$iN(v1, ..., vk) :- body`` (``vi`` the variables bound by the positive literals)
   enumerates the variable bindings under which its body can hold. Each binding gives one
   ground rule whose body keeps only the state-dependent literals: static literals and
   ``distinct`` are decided at grounding time ("folded"), a negated atom that can never
   hold is dropped, and a negated pattern with variables that occur nowhere else becomes
   one negated atom per possible match.

The result, :class:`GroundProgram`, lists the possible fluents and moves and the ground
rules of every state-dependent atom. :class:`NotGroundable` says why a game could not be
grounded within :class:`GroundingLimits` (the caller falls back to the compiled reasoner).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field

from ggp.core.errors import ModelError, ModelLoadError
from ggp.gdl.compiled import CompiledReasoner, _Context
from ggp.gdl.naive import _unify
from ggp.gdl.program import atom_of, dependencies, normalize, reachable
from ggp.gdl.terms import Rule, Var, key_of, substitute, to_kif, variables

INPUTS = frozenset({"true/1", "does/2"})
TARGETS = ("legal/2", "next/1", "terminal/0", "goal/2", "sees/2")
_ROOTS = set(TARGETS) | {"init/1", "role/1"}
_TRUE, _DOES = "$true", "$does"  # '$' never occurs in a parsed symbol


@dataclass(frozen=True)
class GroundingLimits:
    """When to give up grounding (the game is then played by the compiled reasoner)."""

    seconds: float = 1.5          # CPU time of the relaxed fixpoint and instantiation
    max_atoms: int = 60_000       # possibly-true atoms of state-dependent relations
    max_rules: int = 150_000      # ground rules
    max_fluents: int = 5_000      # bits of the state encoding
    # growth of the process's resident memory while grounding: the relaxed fixpoint drops
    # negations, so a few hundred bytes of rules (a GDL START) can ask it for gigabytes
    # within its CPU budget
    max_memory_mb: int = 1024
    # source of one joint move's specialized next-state function (checked by
    # ggp.gdl.reasoner.make_reasoner; corpus games that play well stay under 50,000)
    max_step_chars: int = 200_000


class NotGroundable(ModelLoadError):
    """The game cannot be grounded; ``str(exc)`` is the reason, for users."""


@dataclass
class GroundProgram:
    """A grounded game.

    Atoms are ground terms as in :mod:`ggp.gdl.terms`: ``("true", fluent)``,
    ``("does", role, move)``, ``("legal", role, move)``, ``"terminal"``, views like
    ``("line", "x")``. ``rules[head]`` lists ``(positive atoms, negated atoms)`` bodies:
    the head holds when some body holds. ``true``/``does`` atoms have no rules (inputs);
    an atom with no rules is false.
    """

    roles: list[str]
    init: frozenset                 # the initial fluents
    fluents: list                   # every possibly-true fluent, sorted by KIF text
    moves: dict[str, list]          # role -> possibly-legal moves, sorted by str()
    rules: dict = field(default_factory=dict)
    num_rules: int = 0


_MEMO: "OrderedDict[tuple, GroundProgram | str]" = OrderedDict()
_MEMO_SIZE = 32
_LOCK = threading.Lock()


def ground(rules: list[Rule], limits: GroundingLimits = GroundingLimits()) -> GroundProgram:
    """Ground ``rules`` (a validated description) or raise :class:`NotGroundable`.

    Results (and reasons for failing) are remembered for the last few rule sets, since
    one process often loads the same game many times (tests, tournaments); a
    :class:`GroundProgram` is never modified after it is built."""
    key = (tuple(rules), limits)
    with _LOCK:  # players loading the same game in two threads ground it once
        found = _MEMO.get(key)
        if found is None:
            try:
                found = _ground(rules, limits)
            except NotGroundable as exc:
                found = str(exc)
            _MEMO[key] = found
            if len(_MEMO) > _MEMO_SIZE:
                _MEMO.popitem(last=False)
        _MEMO.move_to_end(key)
    if isinstance(found, str):
        raise NotGroundable(found)
    return found


def _ground(rules: list[Rule], limits: GroundingLimits) -> GroundProgram:
    deadline = _Deadline(limits.seconds, limits.max_memory_mb)
    flat = normalize(rules)
    roles = list(dict.fromkeys(r.head[1] for r in rules if key_of(r.head) == "role/1"
                               and not r.body))
    graph = dependencies(flat)
    dynamic = {k for k in graph if reachable(graph, {k}) & INPUTS} | INPUTS
    needed = reachable(graph, _ROOTS)
    used = [r for r in flat if key_of(r.head) in needed]
    instanced = [r for r in used if key_of(r.head) in dynamic]

    relaxed = [_relax(r, dynamic) for r in used]
    x, r_, m = Var("x"), Var("r"), Var("m")
    relaxed += [Rule((_TRUE, x), (("init", x),)), Rule((_TRUE, x), (("next", x),)),
                Rule((_DOES, r_, m), (("legal", r_, m),))]
    inst_vars = []
    for i, rule in enumerate(instanced):
        names = _bound_vars(rule.body)
        inst_vars.append(names)
        head = (f"$i{i}", *names) if names else f"$i{i}"
        relaxed.append(Rule(head, _relax(rule, dynamic).body, rule.loc))

    static = _evaluate(relaxed, deadline)
    possible = _possible_sets(static, dynamic)
    size = sum(len(v) for v in possible.values())
    if size > limits.max_atoms:
        raise NotGroundable(f"{size} possibly-true atoms (limit {limits.max_atoms})")
    fluents = sorted((a[1] for a in possible.get("true/1", ())), key=to_kif)
    if len(fluents) > limits.max_fluents:
        raise NotGroundable(f"{len(fluents)} possible fluents (limit {limits.max_fluents})")

    out: dict = defaultdict(list)
    count = 0
    for i, rule in enumerate(instanced):
        facts = static.get(f"$i{i}/{len(inst_vars[i])}", ())
        count += len(facts)
        if count > limits.max_rules:
            raise NotGroundable(f"more than {limits.max_rules} ground rules")
        make = _instantiator(rule, inst_vars[i], dynamic, possible)
        for values in facts:
            head, body = make(values)
            out[head].append(body)
        if deadline.passed():
            raise NotGroundable(f"grounding took longer than {limits.seconds} s of CPU time")
    # state-independent legal/goal/terminal/next/sees facts hold in every state
    for key in TARGETS:
        if key not in dynamic:
            name = key.split("/")[0]
            for args in static.get(key, ()):
                out[(name, *args) if args else name].append(((), ()))
                count += 1

    moves: dict[str, list] = {r: [] for r in roles}
    for _, role, move in possible.get("does/2", ()):
        if role in moves:
            moves[role].append(move)
    for ms in moves.values():
        ms.sort(key=str)
    init = frozenset(args[0] for args in static.get("init/1", ()))
    rules_out = {head: _dedupe(bodies) for head, bodies in out.items()}
    return GroundProgram(roles, init, fluents, moves, rules_out,
                         sum(len(b) for b in rules_out.values()))


# ---------------------------------------------------------------------- relaxation
def _relax(rule: Rule, dynamic: set) -> Rule:
    """The rule with ``true``/``does`` renamed and negated dynamic literals dropped."""
    body = []
    for lit in rule.body:
        a = atom_of(lit)
        if a is None:
            body.append(lit)  # distinct / not distinct: exact
            continue
        atom, positive = a
        key = key_of(atom)
        if not positive:
            if key not in dynamic:
                body.append(lit)
            continue
        if key == "true/1":
            atom = (_TRUE, atom[1])
        elif key == "does/2":
            atom = (_DOES, atom[1], atom[2])
        body.append(atom)
    return Rule(rule.head, tuple(body), rule.loc)


def _bound_vars(body) -> list:
    """Variables bound by the positive relational literals, in order of occurrence."""
    seen: dict = {}
    for lit in body:
        a = atom_of(lit)
        if a is not None and a[1]:
            for v in variables(lit):
                seen.setdefault(v, None)
    return list(seen)


class _Deadline:
    """A budget of CPU time of this thread (it does not shrink on a busy machine) and of
    the process's resident memory growth (``max_memory_mb``; None: unchecked).

    Reading the thread's CPU clock is a system call (microseconds, far more on a loaded
    machine), so it is read at most every 10 ms of wall time: wall time bounds CPU time,
    so the deadline is missed by at most 10 ms. The resident size is read as often (one
    read of ``/proc/self/statm``); running out of memory raises :class:`NotGroundable`."""

    def __init__(self, seconds: float, max_memory_mb: int | None = None) -> None:
        self.end = time.thread_time() + seconds
        self.next_look = time.perf_counter()
        start = _resident_mb()
        self.memory_end = (None if max_memory_mb is None or start is None
                           else start + max_memory_mb)
        self.max_memory_mb = max_memory_mb

    def passed(self) -> bool:
        now = time.perf_counter()
        if now < self.next_look:
            return False
        self.next_look = now + 0.01
        if self.memory_end is not None and (_resident_mb() or 0.0) > self.memory_end:
            raise NotGroundable(f"grounding needed more than {self.max_memory_mb} MB of "
                                "memory")
        return time.thread_time() > self.end


_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / (1024 * 1024) if hasattr(os, "sysconf") else 0.0


def _resident_mb() -> float | None:
    """This process's resident memory in MB (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE_MB
    except (OSError, ValueError, IndexError):
        return None


class _Budgeted(CompiledReasoner):
    """The compiled reasoner with a deadline (thread CPU time) checked before every rule
    evaluation: a fixpoint over a huge relaxed game must not run for minutes. Recursive
    strata are evaluated semi-naively: the relaxed game is one big recursive stratum
    (``$true`` depends on ``next``) that needs as many rounds as the longest chain of
    moves, and re-running every rule each round made grounding quadratic in that."""

    semi_naive = True
    demand = False  # grounding needs every relation complete

    def __init__(self, rules: list[Rule], deadline: "_Deadline") -> None:
        self.deadline = deadline
        super().__init__(rules)

    def _tick(self) -> None:
        """Inside a long rule evaluation (every few thousand loop iterations)."""
        if self.deadline.passed():
            raise NotGroundable("the possibly-true atoms were not found in time")

    def _compile(self, rule, same_stratum):
        fn = super()._compile(rule, same_stratum)
        deadline = self.deadline

        def guarded(rel, index):
            if deadline.passed():
                raise NotGroundable("the possibly-true atoms were not found in time")
            return fn(rel, index)

        return guarded


def _evaluate(relaxed: list[Rule], deadline: "_Deadline") -> dict:
    """Every relation of the relaxed program (all of them are state-independent)."""
    try:
        engine = _Budgeted(relaxed, deadline)
        ctx = _Context(engine._static, {})
        for i in range(len(engine._strata)):  # the $i relations are not queried otherwise
            if engine._strata[i][0] not in engine._static:
                engine._run_stratum(i, ctx)
    except ModelError as exc:  # e.g. an unbounded counter in the relaxed game
        raise NotGroundable(f"relaxed fixpoint failed: {exc}") from None
    return engine._static


def _possible_sets(static: dict, dynamic: set) -> dict:
    """Possibly-true atoms of each state-dependent relation, as full ground atoms."""
    possible: dict = {}
    for key in dynamic:
        name = key.rsplit("/", 1)[0]
        source = {"true/1": _TRUE + "/1", "does/2": _DOES + "/2"}.get(key, key)
        possible[key] = {(name, *args) if args else name for args in static.get(source, ())}
    return possible


def _instantiator(rule: Rule, names: list, dynamic: set, possible: dict):
    """A generated function from a binding (values of ``names``) to ``(head, (positive
    atoms, negated atoms))``: static literals and ``distinct`` were decided by the
    instance relation, positive atoms are possible by construction, negated atoms that
    can never hold are dropped, and a negated pattern with variables bound nowhere else
    stands for every possible atom it matches."""
    slot = {v: f"t[{j}]" for j, v in enumerate(names)}
    env: dict = {"_V": Var}
    pos, negs, wild = [], [], []
    for lit in rule.body:
        a = atom_of(lit)
        if a is None or key_of(a[0]) not in dynamic:
            continue
        atom, positive = a
        key = key_of(atom)
        if positive:
            pos.append(_term_code(atom, slot))
        elif all(v in slot for v in variables(atom)):
            env[f"S{len(env)}"] = possible[key]
            negs.append(f"({_term_code(atom, slot)}, S{len(env) - 1})")
        else:
            env[f"W{len(wild)}"] = _matcher(atom, possible[key])
            wild.append(f"W{len(wild)}({_binding_code(atom, slot)})")
    if not negs and not wild:  # the common case: no work per instance
        neg = "()"
    elif len(negs) == 1 and not wild:
        x, s_name = negs[0][1:-1].rsplit(", ", 1)
        neg = f"(({x},) if {x} in {s_name} else ())"
    else:
        neg = f"[x for x, S in ({''.join(n + ', ' for n in negs)}) if x in S]" if negs else "[]"
        # names like S0/W0 are only used for the sets and matchers in env
        neg += "".join(f" + {w}" for w in wild)
        neg = f"tuple(dict.fromkeys({neg}))"
    code = (f"def make(t):\n    return {_term_code(rule.head, slot)}, "
            f"(({''.join(p + ', ' for p in pos)}), {neg})\n")
    exec(compile(code, "<gdl-instance>", "exec"), env)  # noqa: S102 - our own code
    return env["make"]


def _term_code(term, slot: dict) -> str:
    if isinstance(term, Var):
        return slot[term]
    if isinstance(term, tuple):
        return "(" + "".join(_term_code(a, slot) + ", " if i else repr(a) + ", "
                             for i, a in enumerate(term)) + ")"
    return repr(term)


def _binding_code(atom, slot: dict) -> str:
    bound = [v for v in dict.fromkeys(variables(atom)) if v in slot]
    return "{" + ", ".join(f"{_var_code(v)}: {slot[v]}" for v in bound) + "}"


def _var_code(v: Var) -> str:
    return f"_V({v.name!r})"


def _matcher(pattern, candidates: set):
    """``binding -> [possible atoms matching the pattern under the binding]``."""
    def matches(binding: dict) -> list:
        g = substitute(pattern, binding)
        return [f for f in candidates if _unify(g, f, {}) is not None]
    return matches


def _dedupe(bodies: list) -> list:
    return list(dict.fromkeys(bodies))
