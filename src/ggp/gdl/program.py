"""Rule normalization and the predicate dependency graph shared by validator and reasoners.

* :func:`expand_or` rewrites ``or`` into several rules (disjunctive normal form), so the
  reasoners only see conjunctions of atoms, negated atoms and ``distinct``.
* :func:`strata` orders relations into strongly connected components, dependencies first;
  a component whose rules depend on each other recursively is evaluated to a fixpoint.
"""

from __future__ import annotations

from itertools import product

from ggp.gdl.terms import Rule, Term, Var, key_of, variables


def expand_or(rule: Rule) -> list[Rule]:
    """The rule without ``or``: one rule per combination of disjuncts."""
    options = [_literal_options(lit) for lit in rule.body]
    out = []
    for combo in product(*options):
        body, locs = [], []
        for i, lits in enumerate(combo):
            for lit in lits:
                body.append(lit)
                locs.append(rule.literal_loc(i))
        out.append(Rule(rule.head, tuple(body), rule.loc, tuple(locs)))
    return out


_KEYWORD_ROLE_POSITIONS = {("legal/2", 0), ("goal/2", 0), ("sees/2", 0), ("input/2", 0),
                           ("percept/2", 0), ("does/2", 0)}


def role_positions(rules: list[Rule]) -> set[tuple[str, int]]:
    """Argument positions ``(name/arity, index)`` that hold roles: the role argument of
    ``legal``/``goal``/``sees``/``does``/..., and any position whose variable is passed on
    to such a position by a rule (``(<= (sees ?p x) (watcher ?p))`` makes ``watcher``'s
    first argument a role position)."""
    positions = set(_KEYWORD_ROLE_POSITIONS)
    changed = True
    while changed:
        changed = False
        for rule in rules:
            head_key = key_of(rule.head)
            if not isinstance(rule.head, tuple):
                continue
            role_vars = {a for i, a in enumerate(rule.head[1:])
                         if isinstance(a, Var) and (head_key, i) in positions}
            if not role_vars:
                continue
            for lit in rule.body:
                a = atom_of(lit) if not (isinstance(lit, tuple) and lit[0] == "or") else None
                if a is None or not a[1] or not isinstance(a[0], tuple):
                    continue
                k = key_of(a[0])
                for i, arg in enumerate(a[0][1:]):
                    if arg in role_vars and (k, i) not in positions:
                        positions.add((k, i))
                        changed = True
    return positions


def role_position_vars(head: Term, positions: set) -> set:
    """Variables of ``head`` at role positions."""
    if not isinstance(head, tuple):
        return set()
    k = key_of(head)
    return {a for i, a in enumerate(head[1:]) if isinstance(a, Var) and (k, i) in positions}


def positive_vars(body) -> set:
    """Variables bound by the positive relational literals of an or-free body."""
    out: set = set()
    for lit in body:
        a = atom_of(lit)
        if a is not None and a[1]:
            out.update(variables(lit))
    return out


def normalize(rules: list[Rule]) -> list[Rule]:
    """The rules the reasoners evaluate: ``or`` expanded, and an unsafe head variable at a
    role position (see :func:`role_positions`) made to range over the roles by prepending
    ``(role ?v)``, which is what provers that match non-ground heads effectively do."""
    flat_rules = [flat for rule in rules for flat in expand_or(rule)]
    positions = role_positions(flat_rules)
    out = []
    for flat in flat_rules:
        unsafe = role_position_vars(flat.head, positions) - positive_vars(flat.body)
        if unsafe:
            extra = tuple(("role", v) for v in sorted(unsafe, key=lambda v: v.name))
            flat = Rule(flat.head, extra + flat.body, flat.loc,
                        (flat.loc,) * len(extra) + tuple(flat.body_locs))
        out.append(flat)
    return out


def _literal_options(lit: Term) -> list[tuple]:
    """Alternatives for one literal, each a tuple of literals to conjoin."""
    if isinstance(lit, tuple) and lit[0] == "or":
        return [opt for sub in lit[1:] for opt in _literal_options(sub)]
    if isinstance(lit, tuple) and lit[0] == "not" and isinstance(lit[1], tuple) and lit[1][0] == "or":
        # not (a or b) == not a and not b
        conj = []
        for sub in lit[1][1:]:
            conj.append(("not", sub))
        return [tuple(x for c in conj for opt in _literal_options(c) for x in opt)]
    if isinstance(lit, tuple) and lit[0] == "not" and isinstance(lit[1], tuple) and lit[1][0] == "not":
        return _literal_options(lit[1][1])
    return [(lit,)]


def atom_of(lit: Term) -> tuple[Term, bool] | None:
    """``(atom, positive)`` for a relational literal, None for ``distinct``."""
    if isinstance(lit, tuple) and lit[0] == "not" and len(lit) == 2:
        inner = atom_of(lit[1])
        return None if inner is None else (inner[0], not inner[1])
    if isinstance(lit, tuple) and lit[0] == "distinct" and len(lit) == 3:
        return None
    return lit, True


def dependencies(rules: list[Rule]) -> dict[str, dict[str, bool]]:
    """For each head relation ``name/arity``: the relations its bodies use, mapped to
    True when some use is negative."""
    graph: dict[str, dict[str, bool]] = {}
    for rule in rules:
        deps = graph.setdefault(key_of(rule.head), {})
        for lit in rule.body:
            for atom, positive in _atoms(lit, True):
                k = key_of(atom)
                deps[k] = deps.get(k, False) or not positive
    return graph


def _atoms(lit: Term, positive: bool):
    if isinstance(lit, tuple) and lit[0] == "not" and len(lit) == 2:
        yield from _atoms(lit[1], not positive)
    elif isinstance(lit, tuple) and lit[0] == "or":
        for sub in lit[1:]:
            yield from _atoms(sub, positive)
    elif isinstance(lit, tuple) and lit[0] == "distinct" and len(lit) == 3:
        return
    else:
        yield lit, positive


def strata(graph: dict[str, dict[str, bool]]) -> list[list[str]]:
    """Strongly connected components of the dependency graph, dependencies first
    (Tarjan's algorithm, iterative so deep rule chains cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    nodes = set(graph) | {d for deps in graph.values() for d in deps}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                out.append(sorted(comp))
    return out


def reachable(graph: dict[str, dict[str, bool]], roots: set[str]) -> set[str]:
    """Every relation that ``roots`` depend on, the roots included."""
    seen, todo = set(), list(roots)
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        todo.extend(graph.get(node, ()))
    return seen
