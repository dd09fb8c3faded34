"""cwm_cfr: a CWM's tree walked in the sandbox, checked, solved with CFR+ in the parent.

No language model: the models are the reference Kuhn poker module file (as a .py model)
and deliberately broken or hostile variants of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import ggp.cwm.solve as solve
import ggp.games
from ggp.agents import make_agent
from ggp.agents.base import MatchInfo
from ggp.arena.match import play_match
from ggp.core.errors import GGPError
from ggp.core.protocol import information_state_key
from ggp.core.registry import make_game
from ggp.cwm.solve import CWMSolveError, SolveSettings, enumerate_tree, solve_cwm
from ggp.cwm.tree_worker import TreeHandler
from ggp.search.cfr import build_tree, nash_conv
from ggp.search.tabular import (
    MalformedTree,
    TabularCFRPlus,
    exploitability,
    game_tree,
)

KUHN = Path(ggp.games.__file__).parent / "kuhn_poker.py"


@pytest.fixture
def kuhn(tmp_path) -> Path:
    """A copy of the reference Kuhn module as a user's .py model (its cache goes there)."""
    path = tmp_path / "kuhn.py"
    shutil.copy(KUHN, path)
    return path


@pytest.fixture(autouse=True)
def _fresh_memory(monkeypatch):
    monkeypatch.setattr(solve, "_MEMORY", {})


def _variant(tmp_path: Path, name: str, *replacements: tuple[str, str],
             append: str = "") -> Path:
    text = KUHN.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.py"
    path.write_text(text + append, encoding="utf-8")
    return path


def _meta():
    return make_game("kuhn_poker").metadata


def _reference_exploitability(table) -> float:
    """Exploitability on the reference Kuhn game of a ``{(player, key): probs}`` table,
    by ggp.search.cfr's own best responses (independent of the tabular solver)."""
    root = build_tree(make_game("kuhn_poker"))
    policy, stack = {}, [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.infoset is None:
            continue
        player, *past, now = node.infoset
        history = [(json.loads(obs), action) for obs, action in past]
        history.append((json.loads(now), None))
        policy[node.infoset] = table[(player, information_state_key(history))]
    return nash_conv(root, policy) / 2


# ------------------------------------------------------------------ enumeration
def test_kuhn_tree_is_walked_in_the_box_with_the_arenas_information_keys(kuhn):
    tree = enumerate_tree(kuhn, _meta())
    assert (tree.num_nodes, len(tree.infosets), tree.depth) == (58, 12, 5)
    # every history an agent is handed in a real match is an information state of the tree
    model = make_game("kuhn_poker")
    keys = set(tree.infosets)
    for seed in range(6):
        result = play_match(model, [make_agent("random", model) for _ in range(2)], seed=seed)
        for seat, history in enumerate(result.histories):
            for i in range(len(history)):
                view = [(obs, a) for obs, a in history[:i]] + [(history[i][0], None)]
                assert (seat, information_state_key(view)) in keys
    # the game is zero-sum with Kuhn's value -1/18 for the first player at equilibrium
    solver = TabularCFRPlus(tree)
    solver.run(300)
    assert exploitability(tree, solver.average()) < 2e-3


def test_tabular_best_responses_agree_with_the_tree_walking_solver():
    handler = TreeHandler({"source": KUHN.read_text(), "filename": str(KUHN),
                           "metadata": _meta().to_dict()})
    tree = game_tree(handler.enumerate(1000, 50)["tree"])
    uniform = tree.uniform()
    expected = _reference_exploitability(tree.policy_table(uniform))
    assert exploitability(tree, uniform) == pytest.approx(expected, abs=1e-12)
    assert expected > 0.4  # uniform play is far from an equilibrium


# ------------------------------------------------------------------ the agent
def test_cwm_cfr_plays_kuhn_from_a_py_model_near_equilibrium(kuhn):
    model = make_game("kuhn_poker")
    spec = f"cwm_cfr:run={kuhn}:iterations=200:target=0.002"
    agent = make_agent(spec, model)
    agent.start(MatchInfo("kuhn_poker", 0, 2, seed=0))
    solution = agent.solution
    assert solution.source == "solved" and solution.iterations <= 200
    assert solution.exploitability <= 0.002
    assert _reference_exploitability(solution.table) <= 0.003
    # a match: the policy's actions, no fallback; the next agent reuses the solution
    agents = [make_agent(spec, model), make_agent("random", model)]
    result = play_match(model, agents, seed=3)
    assert result.forfeit is None
    assert agents[0].report["stats"]["fallbacks"] == 0
    assert agents[0].report["solution"]["source"] == "memory"


def test_solution_is_cached_on_disk_and_resumes(kuhn, monkeypatch):
    settings = SolveSettings(iterations=50, target=0.0, check=25)
    first = solve_cwm(kuhn, _meta(), settings)
    file = kuhn.with_name("kuhn.cfr_policy.json")
    assert file.is_file() and json.loads(file.read_text())["iteration"] == 50
    monkeypatch.setattr(solve, "_MEMORY", {})
    again = solve_cwm(kuhn, _meta(), settings)  # from the file: no walk, same policy
    assert again.source == "disk" and again.table.keys() == first.table.keys()
    for key, probs in first.table.items():
        assert again.table[key] == pytest.approx(probs, abs=1e-12)
    monkeypatch.setattr(solve, "_MEMORY", {})
    resumed = solve_cwm(kuhn, _meta(), SolveSettings(iterations=100, target=0.0, check=25))
    straight = solve_cwm(kuhn, _meta(), SolveSettings(iterations=100, target=0.0),
                         cache=None)
    assert resumed.source == "resumed" and resumed.iterations == 100
    for key, probs in straight.table.items():
        assert resumed.table[key] == pytest.approx(probs, abs=1e-12)
    # a changed model does not use the old file
    kuhn.write_text(kuhn.read_text() + "\n# edited\n")
    monkeypatch.setattr(solve, "_MEMORY", {})
    assert solve_cwm(kuhn, _meta(), settings).source == "solved"


def test_missing_information_state_falls_back_to_a_justified_action(kuhn, caplog):
    model = make_game("kuhn_poker")
    agent = make_agent(f"cwm_cfr:run={kuhn}:iterations=20:cache=none", model)
    agent.start(MatchInfo("kuhn_poker", 0, 2, seed=0))
    state = model.apply(model.apply(model.initial_state(), "Deal J"), "Deal Q")
    obs = model.observation(state, 0)
    assert agent.act([(obs, None)]) in ("Pass", "Bet")
    assert agent.stats["fallbacks"] == 0
    # a card the CWM never deals: no such information state in its tree
    unseen = {**obs, "my_card": "A"}
    with caplog.at_level("WARNING", logger="ggp.cwm"):
        action = agent.act([(unseen, None)])
    assert action in ("Pass", "Bet")  # what the CWM allows at the most similar history
    assert agent.stats["fallbacks"] == 1 and "not in the solved tree" in caplog.text
    assert agent.fallbacks[0]["from"] == "the CWM's actions at the most similar history"
    # the referee shows the legal actions: one of them
    agent.observe_legal_actions(["Bet"])
    assert agent.act([(unseen, None)]) == "Bet"
    assert agent.stats["fallbacks"] == 2
    # nothing to justify an action (a decision deeper than any in the CWM): a forfeit
    deep = [(obs, "Pass")] * 5 + [(unseen, None)]
    with pytest.raises(GGPError, match="no action of the CWM fits"):
        agent.act(deep)


# ------------------------------------------------------------------ hostile models
def _one_line_failure(path: Path, match: str, **settings) -> str:
    with pytest.raises(CWMSolveError, match=match) as caught:
        solve_cwm(path, _meta(), SolveSettings(**{"seconds": 60.0, **settings}), cache=None)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("cwm_cfr: ")
    return message


def test_wrong_chance_probabilities_fail_in_one_line(tmp_path):
    path = _variant(tmp_path, "wrong_probs",
                    ('(f"Deal {c}", 1.0 / len(remaining))',
                     '(f"Deal {c}", 0.9 / len(remaining))'))
    _one_line_failure(path, r"probabilities sum to 0\.9, not 1")


def test_a_huge_tree_is_refused_by_the_estimate_and_by_the_walk(tmp_path):
    huge = _variant(tmp_path, "huge", append='''

def get_legal_actions(state):
    if state["current_player"] in (-1, -4):
        return _legal(state)
    return ["Pass", "Bet"] + [f"Noise {i}" for i in range(100)]


def apply_action(state, action):
    return _apply(state, "Pass" if action.startswith("Noise") else action)
''')
    text = huge.read_text().replace("def get_legal_actions(state):",
                                    "def _legal(state):", 1)
    text = text.replace("def apply_action(state, action):", "def _apply(state, action):", 1)
    huge.write_text(text)
    message = _one_line_failure(huge, "use cwm_ismcts", max_nodes=5000)
    assert "estimated from 64 random paths" in message and "5,000" in message
    # a model that lies to the size probe is stopped by the walk's node limit
    liar = tmp_path / "liar.py"
    liar.write_text(text + '''
import sys as _sys
_sys.modules["ggp.cwm.tree_worker"].TreeHandler.probe = (
    lambda self, count, max_depth, seed=0: [[0]] * count)
''')
    _one_line_failure(liar, "more than 5,000 nodes, the limit", max_nodes=5000)


def _patched(tmp_path: Path, name: str, reply: str) -> Path:
    """Kuhn, plus code that replaces the worker's walk by one answering ``reply``."""
    return _variant(tmp_path, name, append=f'''
import sys as _sys
_sys.modules["ggp.cwm.tree_worker"].TreeHandler.enumerate = (
    lambda self, max_nodes, max_depth: {reply})
''')


@pytest.mark.parametrize("reply, match", [
    ('"garbage"', "the walk answered garbage"),
    ('{"complete": True, "tree": [1, 2]}', "not an object"),
    ('{"complete": True, "tree": {"players": 2, "infosets": [], '
     '"nodes": [[-1, -1, ["a"], [0], [1.0]]]}}', "children must come after their parent"),
    ('{"complete": True, "tree": {"players": 2, "infosets": [], '
     '"nodes": [[-4, -1, [], [], [float("nan"), 0.0]]]}}', "not plain JSON"),
    ('{"complete": True, "tree": {"players": 2, "infosets": [], '
     '"nodes": [[-1, -1, ["a"], [1], [1.0]]] * 6000}}', "more than the limit"),
])
def test_a_garbage_reply_from_the_box_fails_in_one_line(tmp_path, reply, match):
    _one_line_failure(_patched(tmp_path, "garbage", reply), match, max_nodes=5000)


def test_a_model_that_raises_fails_in_one_line(tmp_path):
    path = _variant(tmp_path, "raises", ("def get_observations(state):\n",
                                         "def get_observations(state):\n    1 / 0\n"))
    _one_line_failure(path, r"failed while its tree was walked \(exception\).*ZeroDivision")


@pytest.mark.parametrize("data, match", [
    ({"players": 2, "infosets": [[0, "k"]], "nodes": [
        [-1, -1, ["x", "y"], [1, 2], [0.5, 0.5]],
        [0, 0, ["a"], [3], []], [0, 0, ["b"], [4], []],
        [-4, -1, [], [], [1, -1]], [-4, -1, [], [], [1, -1]]]},
     "two different action lists"),
    ({"players": 2, "infosets": [], "nodes": [[-1, -1, ["x"], [1], [-0.5]],
                                              [-4, -1, [], [], [0, 0]]]},
     "finite number >= 0"),
    ({"players": 2, "infosets": [], "nodes": [[-1, -1, ["x", "x"], [1, 2], [0.5, 0.5]],
                                              [-4, -1, [], [], [0, 0]],
                                              [-4, -1, [], [], [0, 0]]]},
     "distinct strings"),
    ({"players": 2, "infosets": [[1, "k"]], "nodes": [[0, 0, ["a"], [1], []],
                                                      [-4, -1, [], [], [0, 0]]]},
     "player 0's information states"),
    ({"players": 2, "infosets": [], "nodes": [[-4, -1, [], [], [0]]]}, "2 finite returns"),
    ({"players": 2, "infosets": [], "nodes": [[-1, -1, ["x"], [1], [1.0]],
                                              [-4, -1, [], [], [0, 0]],
                                              [-4, -1, [], [], [0, 0]]]},
     "has no parent"),
])
def test_tree_validation_names_what_is_wrong(data, match):
    with pytest.raises(MalformedTree, match=match):
        game_tree(data)


def test_size_estimate_is_exact_on_a_uniform_tree_and_averages_paths():
    from ggp.cwm.solve import estimate_size

    # 3 children at the root, 2 under each, then leaves: 1 + 3 + 6 nodes
    assert estimate_size([[3, 2, 0], [3, 2, 0]]) == 10
    # a root with a leaf child and a child with 4 leaves (1 + 2 + 4 = 7 nodes): the paths
    # through each child, equally likely, average to the size
    assert estimate_size([[2, 0], [2, 4, 0]]) == (3 + 11) / 2 == 7


def test_between_the_limit_and_the_estimates_margin_the_walk_decides_exactly(kuhn):
    # Kuhn has 58 histories: its estimate (about 58) is under twice either limit
    assert enumerate_tree(kuhn, _meta(), SolveSettings(max_nodes=58)).num_nodes == 58
    with pytest.raises(CWMSolveError, match="more than 57 nodes, the limit"):
        enumerate_tree(kuhn, _meta(), SolveSettings(max_nodes=57))
