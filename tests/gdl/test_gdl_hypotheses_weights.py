"""Belief tracking by importance sampling: Bayes weights, replayable records, step memo."""

import random
import time

import pytest
from gdl_corpus import path

from ggp.gdl.hypotheses import HypothesisTracker, _Proposal, _resample
from ggp.gdl.match import MatchGame, load_match_game

# nature hides a or b; then "other" picks a number, 1-40 under a, 1-80 under b, and the
# player sees the pick (a percept naming the move, as backgammon's (did ?role ?move)).
# Seeing (pick 1): P(a) = (1/2 * 1/40) / (1/2 * 1/40 + 1/2 * 1/80) = 2/3. (120 joint moves
# from the two states: more than exact enumeration takes, so they are sampled.)
_PICK = "\n".join([
    "(role player) (role other) (role random)",
    *[f"(num {i})" for i in range(1, 81)],
    *[f"(small {i})" for i in range(1, 41)],
    "(init (phase 0))",
    "(<= (legal random (hide a)) (true (phase 0)))",
    "(<= (legal random (hide b)) (true (phase 0)))",
    "(<= (legal random noop) (true (phase 1)))",
    "(<= (legal player noop) (true (phase 0)))",
    "(<= (legal player noop) (true (phase 1)))",
    "(<= (legal other noop) (true (phase 0)))",
    "(<= (legal other (pick ?n)) (true (phase 1)) (true (hidden a)) (small ?n))",
    "(<= (legal other (pick ?n)) (true (phase 1)) (true (hidden b)) (num ?n))",
    "(<= (next (hidden ?x)) (does random (hide ?x)))",
    "(<= (next (hidden ?x)) (true (hidden ?x)))",
    "(<= (next (phase 1)) (true (phase 0)))",
    "(<= (next (phase 2)) (true (phase 1)))",
    "(<= (sees player (did other ?m)) (does other ?m))",
    "(<= terminal (true (phase 2)))",
    "(goal player 0) (goal other 0) (goal random 0)",
])


def _hidden_a_share(seeds: range, size: int = 48) -> float:
    game = MatchGame(_PICK, gdl_ii=True, name="pick")
    hits = total = 0
    for seed in seeds:
        tracker = HypothesisTracker(game, "player", size=size, rng=random.Random(seed))
        tracker.observe("noop", ["(did other noop)"])
        tracker.observe("noop", ["(did other (pick 1))"])
        for hyp in tracker.ensure():
            hits += "(hidden a)" in _fluent_texts(game, hyp.state)
            total += 1
    return hits / total


def _fluent_texts(game: MatchGame, state) -> set:
    return {game.text(f) for f in game.fluents(state)}


def test_echoed_moves_keep_the_bayes_weights() -> None:
    """The proposal draws the echoed (pick 1) far more often than uniform draws would,
    yet the weights p/q restore the posterior: a 2/3, b 1/3."""
    share = _hidden_a_share(range(40))
    assert 0.6 < share < 0.73


def test_proposal_weights_average_one() -> None:
    """E_q[p/q] = 1: the weights of many draws from one parent average 1."""
    legal = {"player": ["noop"], "other": [f"(pick {i})" for i in range(1, 41)],
             "random": ["(roll 1)", "(roll 2)", "(roll 3)"]}
    rng = random.Random(3)
    proposal = _Proposal(legal, "player", "noop", [("other", "pick", "7"), ("roll", "2")],
                         {}, rng)
    assert proposal.possible and proposal.echoes
    draws = [proposal.draw(rng) for _ in range(40_000)]
    assert sum(w for _, w in draws) / len(draws) == pytest.approx(1.0, abs=0.03)
    echoed = sum(j["other"] == "(pick 7)" and j["random"] == "(roll 2)" for j, _ in draws)
    assert echoed / len(draws) > 0.1  # uniform draws: 1/120


def test_proposal_without_echo_is_uniform_with_unit_weights() -> None:
    legal = {"me": ["a"], "you": ["x", "y"]}
    proposal = _Proposal(legal, "me", "a", [("q",)], {}, random.Random(0))
    assert not proposal.echoes
    assert {proposal.draw(random.Random(i))[1] for i in range(20)} == {1.0}
    assert not _Proposal(legal, "me", "b", [], {}, random.Random(0)).possible


def test_systematic_resampling_keeps_equal_weights_once_each() -> None:
    items = [(i, 1.0) for i in range(10)]
    assert sorted(_resample(items, 10, random.Random(1))) == list(range(10))
    out = _resample([("a", 3.0), ("b", 1.0)], 8, random.Random(2))
    assert out.count("a") == 6 and out.count("b") == 2


def test_duplicate_parents_step_once() -> None:
    """Hypotheses with the same state and joint move cost one engine step."""
    game = MatchGame(_PICK, gdl_ii=True, name="pick")
    tracker = HypothesisTracker(game, "player", rng=random.Random(0))
    tracker.observe("noop", ["(did other noop)"])
    assert len(tracker.hypotheses) == 48
    assert len({h.state for h in tracker.hypotheses}) == 2
    calls = []
    step = game.step
    game.step = lambda state, joint: calls.append(1) or step(state, joint)
    try:
        b = [h for h in tracker.hypotheses if "(hidden b)" in _fluent_texts(game, h.state)]
        joint = {"player": "noop", "other": "(pick 3)", "random": "noop"}
        children = [tracker._child(h, joint, None) for h in b]
        assert len(calls) == 1 and len({c.state for c in children}) == 1
        tracker.hypotheses = b  # all one state: the whole step's draws
        tracker.observe("noop", ["(did other (pick 70))"])  # only under b
    finally:
        del game.step
    assert tracker.exact and len({h.state for h in tracker.hypotheses}) == 1
    assert len(calls) <= 1 + 80  # one per distinct joint move, not per draw


def test_few_joint_moves_are_enumerated_exactly() -> None:
    """Monty Hall: the host's moves from every distinct state are all stepped once and
    weighted exactly, so 48 hypotheses give switching 2/3 up to resampling's rounding."""
    game = load_match_game(path("montyhall.gdl"))
    shares = []
    for seed in range(20):
        tracker = HypothesisTracker(game, "candidate", rng=random.Random(seed))
        tracker.observe("(choose 1)", ["(does candidate (choose 1))"])
        tracker.observe("noop", ["(does candidate noop)", "(open_door 3)"])
        hyps = tracker.ensure()
        shares.append(sum("(car 2)" in _fluent_texts(game, h.state) for h in hyps) / len(hyps))
    assert all(abs(share - 2 / 3) < 0.05 for share in shares)


def _replays(game: MatchGame, role: str, record: list, hyp) -> bool:
    """Whether ``hyp``'s joint moves, replayed from the initial state, give ``role``
    exactly its record and end in ``hyp.state``."""
    state = game.initial()
    for k, (move, percepts) in enumerate(record):
        if hyp.records[role][k] != (move, percepts):
            return False
        joint = {r: hyp.records[r][k][0] for r in game.roles}
        if any(m not in game.legal(state)[r] for r, m in joint.items()):
            return False
        state, seen = game.step(state, joint)
        if tuple(seen[role]) != percepts or any(
                tuple(seen[r]) != hyp.records[r][k][1] for r in game.roles):
            return False
    return state == hyp.state


@pytest.mark.parametrize("name", ["montyhall.gdl", "kriegTTT_4x4.gdl",
                                  "blind_breakthrough_5x5.gdl"])
def test_every_hypothesis_replays_to_the_record(name) -> None:
    """Property: along random matches, every hypothesis of every role is reachable by
    legal joint moves that reproduce the role's whole record (moves and percepts)."""
    game = load_match_game(path(name))
    rng = random.Random(7)
    for _ in range(2):
        state = game.initial()
        trackers = {r: HypothesisTracker(game, r, rng=random.Random(rng.random()))
                    for r in game.roles if r != game.nature}
        for _ in range(12):
            if game.is_terminal(state):
                break
            legal = game.legal(state)
            joint = {r: rng.choice(ms) for r, ms in legal.items()}
            state, percepts = game.step(state, joint)
            for role, tracker in trackers.items():
                tracker.observe(joint[role], percepts[role])
                hypotheses = tracker.ensure()
                if tracker.exact:
                    assert all(_replays(game, role, tracker.record, h) for h in hypotheses)


# nature deals one of 400 cards face down, then shuffles a decoy (20 ways) four times, then
# the card is shown: every hypothesis that sampled another card dies at the last step
_FACE_DOWN = "\n".join([
    "(role player) (role random)",
    *[f"(digit {i})" for i in range(1, 21)],
    "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)",
    "(init (phase 0))",
    "(<= (legal random (deal ?x ?y)) (true (phase 0)) (digit ?x) (digit ?y))",
    ("(<= (legal random (shuffle ?x)) (true (phase ?n)) (distinct ?n 0) (distinct ?n 5)"
     " (digit ?x))"),
    "(<= (legal random noop) (true (phase 5)))",
    "(<= (legal player noop) (true (phase ?n)))",
    "(<= (next (secret ?x ?y)) (does random (deal ?x ?y)))",
    "(<= (next (secret ?x ?y)) (true (secret ?x ?y)))",
    "(<= (next (decoy ?x)) (does random (shuffle ?x)))",
    "(<= (next (phase ?m)) (true (phase ?n)) (succ ?n ?m))",
    "(<= (sees player (shown ?x ?y)) (true (phase 5)) (true (secret ?x ?y)))",
    "(<= terminal (true (phase 6)))",
    "(goal player 0) (goal random 0)",
])


def test_backtracking_jumps_to_the_deal_a_late_percept_shows() -> None:
    game = MatchGame(_FACE_DOWN, gdl_ii=True, name="face_down")
    for seed in range(2):
        tracker = HypothesisTracker(game, "player", rng=random.Random(seed))
        for _ in range(5):
            tracker.observe("noop", [])
        tracker.observe("noop", ["(shown 7 13)"])
        if tracker.exact:  # a sampled card was right after all (48 of 400)
            continue
        assert tracker._echoed_choice(5, ("(shown 7 13)",)) == 0
        hypotheses = tracker.ensure(time.monotonic() + 20)
        assert tracker.exact and 0 < len(hypotheses) <= tracker.size
        assert all("(secret 7 13)" in _fluent_texts(game, h.state) for h in hypotheses)
        assert all(_replays(game, "player", tracker.record, h) for h in hypotheses)


def test_a_terminal_hypothesis_has_no_successor() -> None:
    """The legal rules still hold after the end here; a step observed after it means the
    match had not ended, so no hypothesis continues from a terminal state."""
    game = MatchGame("(role p) (init (t 0)) (<= (legal p go) (true (t ?x)))"
                     " (<= (next (t 1)) (true (t ?x))) (<= terminal (true (t 1)))"
                     " (goal p 0) (<= (sees p tick) (does p go))", gdl_ii=True, name="end")
    tracker = HypothesisTracker(game, "p", rng=random.Random(0))
    tracker.observe("go", ["tick"])
    assert tracker.exact and game.is_terminal(tracker.hypotheses[0].state)
    tracker.observe("go", ["tick"])
    assert not tracker.exact
