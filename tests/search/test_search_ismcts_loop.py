"""The inlined ISMCTS loop against a plain reference implementation.

``ISMCTS._run`` writes the node lookup and the UCB choice inline for speed. The reference
below is the same algorithm written the obvious way (one function per step, as the module
doc describes it); on fixed seeds both must build trees with exactly the same statistics,
for both observers, trusted and untrusted models (``==`` lookups and JSON keys), and
every belief sampler kind. The model sampler's bound draw function is pinned against
``sample_with_model``.
"""

from __future__ import annotations

import json
import math
import random
import types

import pytest

from ggp.belief.replay import model_resampler, sample_with_model
from ggp.belief.sampler import Belief, BeliefSampler, make_sampler
from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel, from_functions
from ggp.core.protocol import CHANCE, TERMINAL, json_copy
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.core.ops import ops_for


def _key(obs) -> str:
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


def reference_search(model, sampler, evaluator, history, player, observer, sims, rng, c):
    """The statistics of the searching player's tree below the search root, as
    ``{path: {action: [visits, total, availability]}}``; a path is a tuple of
    ``(edge, observation JSON)`` steps from the root."""
    ops = ops_for(model)
    n = ops.num_players
    nodes: dict = {}  # (player, path from that player's top) -> statistics
    belief = sampler.belief(history, player, rng)
    root_obs = ops.observations(belief.sample(rng))[player]
    root = ((None, _key(root_obs)),) if observer == "single" else ()

    def choose(node, legal):
        stats = nodes.setdefault(node, {})
        untried, best, best_stats, best_score = [], None, None, -math.inf
        for a in legal:
            if a not in stats:
                untried.append(a)
                continue
            s = stats[a]
            s[2] += 1
            if not untried:
                score = s[1] / s[0] + c * math.sqrt(math.log(s[2]) / s[0])
                if score > best_score or (score == best_score and rng.random() < 0.5):
                    best, best_stats, best_score = a, s, score
        if untried:
            action = untried[0] if len(untried) == 1 else rng.choice(untried)
            stats[action] = [0, 0.0, 1]
            return action, stats[action], True
        return best, best_stats, False

    for _ in range(sims):
        state = belief.sample(rng)
        last: list = [None] * n  # single: (path of the previous node, action taken there)
        current: list = [()] * n  # multiple: each player's path in its own tree
        acc, path, leaf = [0.0] * n, [], None
        while True:
            mover = ops.current_player(state)
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                action, expanded = ops.sample_chance(state, rng), False
            else:
                if observer == "single":
                    obs = _key(ops.observations(state)[mover])
                    previous = last[mover]
                    node_path = ((None, obs),) if previous is None \
                        else previous[0] + ((previous[1], obs),)
                else:
                    node_path = current[mover]
                action, stats, expanded = choose((mover, node_path), ops.legal_actions(state))
                path.append((stats, mover, acc[mover]))
            state = ops.apply(state, action)
            for i, r in enumerate(ops.rewards(state)):
                acc[i] += r
            if expanded:
                if ops.current_player(state) != TERMINAL:
                    leaf = evaluator.evaluate(state, rng)
                break
            if observer == "single":
                if mover >= 0:
                    last[mover] = (node_path, action)
            else:
                seen = ops.observations(state)
                for q in range(n):
                    current[q] = current[q] + ((action if q == mover else None, _key(seen[q])),)
        for stats, mover, before in path:
            stats[0] += 1
            stats[1] += acc[mover] - before + (leaf[mover] if leaf else 0.0)
    return {node_path[len(root):]: stats for (p, node_path), stats in nodes.items()
            if p == player and node_path[:len(root)] == root and stats}


def tree_stats(node, prefix=(), out=None) -> dict:
    """An ISMCTS tree below ``node`` in the reference's format."""
    out = {} if out is None else out
    if node.stats:
        out[prefix] = {a: list(s) for a, s in node.stats.items()}
    for edge, children in node.children.items():
        if isinstance(children, list):  # trusted: edge -> [(observation, node)]
            steps = [((edge, _key(obs)), child) for obs, child in children]
        else:  # untrusted: (edge, observation JSON) -> node
            steps = [(edge, children)]
        for step, child in steps:
            tree_stats(child, prefix + (step,), out)
    return out


def decision_points(model, count, seed=3):
    rng, found = random.Random(seed), []
    while len(found) < count:
        state, mine = model.initial_state(), {p: [] for p in range(model.num_players)}
        while not model.is_terminal(state) and len(found) < count:
            p = model.current_player(state)
            if p < 0:
                state = model.apply(state, model.sample_chance(state, rng))
                continue
            obs = model.observation(state, p)
            found.append((mine[p] + [(obs, None)], p))
            action = rng.choice(model.legal_actions(state))
            mine[p] = mine[p] + [(obs, action)]
            state = model.apply(state, action)
    return found


CASES = [
    ("leduc_poker", "single", "model"),
    ("leduc_poker", "multiple", "model"),
    ("kuhn_poker", "single", "exact"),
    ("kuhn_poker", "multiple", "generic"),
    ("monty_hall", "single", "exact"),
    ("exploding_bomb(variant=ask)", "multiple", "exact"),
]


@pytest.mark.parametrize("game,observer,belief", CASES)
@pytest.mark.parametrize("trusted", [True, False])
def test_inlined_loop_matches_reference(game, observer, belief, trusted):
    base = make_game(game)
    model = base if trusted else WorldModel(base.namespace, name=base.name, trusted=False,
                                            metadata=base.metadata)
    for i, (history, player) in enumerate(decision_points(base, 3)):
        search = ISMCTS(model, make_sampler(model, belief), RandomRolloutEvaluator(model, 2),
                        observer=observer, simulations=150, rng=random.Random(i))
        ours = tree_stats(search.search(history, player))
        expected = reference_search(model, make_sampler(model, belief),
                                    RandomRolloutEvaluator(model, 2), history, player,
                                    observer, 150, random.Random(i), search.c)
        assert ours == expected
        assert sum(s[0] for s in ours[()].values()) == 150  # every simulation starts there


class _FreshCopies(BeliefSampler):
    """The model sampler's draws, each a fresh copy: a belief that is not ``pooled``."""

    def __init__(self, model):
        super().__init__(model)
        self.inner = make_sampler(model, "model")

    def belief(self, history, player, rng):
        draw = self.inner.belief(history, player, rng).sample
        return Belief(lambda r: json_copy(draw(r)))


@pytest.mark.parametrize("observer", ["single", "multiple"])
def test_unpooled_beliefs_search_the_same_trees(observer):
    """Without the pooled promise ISMCTS remembers nothing between simulations; the
    statistics are those of the reference all the same."""
    model = make_game("leduc_poker")
    for i, (history, player) in enumerate(decision_points(model, 3)):
        search = ISMCTS(model, _FreshCopies(model), RandomRolloutEvaluator(model, 2),
                        observer=observer, simulations=150, rng=random.Random(i))
        ours = tree_stats(search.search(history, player))
        expected = reference_search(model, _FreshCopies(model), RandomRolloutEvaluator(model, 2),
                                    history, player, observer, 150, random.Random(i), search.c)
        assert ours == expected


def test_pooled_beliefs_build_observations_once_per_history():
    base = make_game("leduc_poker")
    ns = base.namespace
    attrs = {k: getattr(ns, k) for k in dir(ns) if not k.startswith("__")}
    calls = []
    attrs["get_observations"] = lambda state: calls.append(1) or ns.get_observations(state)
    model = WorldModel(types.SimpleNamespace(**attrs), name=base.name, trusted=True,
                       metadata=base.metadata)
    history, player = decision_points(base, 1)[0]
    counts = []
    for sampler in (make_sampler(model, "model"), _FreshCopies(model)):
        calls.clear()
        ISMCTS(model, sampler, RandomRolloutEvaluator(model, 2), simulations=300,
               rng=random.Random(0)).search(history, player)
        counts.append(len(calls))
    pooled, unpooled = counts
    # every simulation reaches at least one decision of the searcher's, so the unpooled
    # search builds an observation there each time; the pooled one once per history
    assert unpooled >= 300 and pooled < unpooled / 4, counts


def test_model_resampler_draws_what_sample_with_model_draws():
    model = make_game("leduc_poker")
    history, player = decision_points(model, 6)[5]
    random.seed(7)
    expected = [sample_with_model(model, history, player) for _ in range(20)]
    random.seed(7)
    draw = model_resampler(model, history, player)
    assert [draw() for _ in range(20)] == expected


def test_model_resampler_turns_a_trusted_models_exception_into_a_belief_error():
    leduc = make_game("leduc_poker")
    ns = leduc.namespace
    attrs = {k: getattr(ns, k) for k in dir(ns) if not k.startswith("__")}
    calls = []

    def broken(history, player):
        calls.append(1)
        raise RuntimeError("no idea")

    attrs["resample_history"] = broken
    model = from_functions("broken_leduc", **attrs)
    history, player = decision_points(leduc, 2)[1]
    with pytest.raises(BeliefError, match="RuntimeError: no idea"):
        model_resampler(model, history, player, retries=4)()
    assert len(calls) == 4
