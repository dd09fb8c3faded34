"""The player's protocol state machine, called directly (no network), and its GDL-II belief."""

import gc
import random
import time

import pytest
from ggpnet_helpers import gdl_file, quick_player
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ggp.core.protocol import TERMINAL
from ggp.gdl.adapter import load_gdl_model
from ggp.gdl.infosets import information_set
from ggp.gdl.terms import to_kif
from ggp.gdl.match import load_match_game
from ggp.gdl.hypotheses import HypothesisTracker
from ggp.ggpnet.messages import rules_list, start_message
from ggp.ggpnet.player import _QuietGC


def start_text(path, match_id="m1", role=None, clocks=(2, 1)):
    game = load_match_game(path)
    return start_message(match_id, role or game.roles[0], rules_list(game.rules), *clocks), game


def test_session_info_start_busy_play_stop():
    player = quick_player()
    text, game = start_text(gdl_file("ticTacToe.kif"))
    assert player.handle("( INFO )")[1] == "((name test0) (status available) (species python))"
    assert player.handle(text) == (200, "ready")
    assert "(status busy)" in player.handle("(INFO)")[1]
    assert player.handle(text) == (200, "ready")  # a repeated START is harmless
    other, _ = start_text(gdl_file("ticTacToe.kif"), match_id="m2")
    assert player.handle(other) == (200, "busy")  # one match at a time
    assert player.handle("(PREVIEW ((role a)) 1)") == (200, "busy")
    assert player.handle("(PLAY zzz NIL)") == (200, "busy")  # unknown match (as ggp-base)
    status, move = player.handle("(PLAY m1 NIL)")
    assert status == 200 and move in game.legal(game.initial())["xplayer"]
    assert player.handle("(PLAY m1 NIL)")[0] == 409  # only once
    status, second = player.handle(f"(PLAY m1 ({move} noop))")
    assert status == 200 and second == "noop"  # oplayer's turn: xplayer's only move
    assert player.handle("(STOP m1 (noop (mark 2 2)))") == (200, "done")
    assert "(status available)" in player.handle("(INFO)")[1]
    assert player.handle(other) == (200, "ready")
    assert player.handle("(ABORT m2)") == (200, "aborted")
    assert player.matches_ended == 2


def test_gdl2_turns_must_come_in_order():
    player = quick_player()
    # generous clocks: under load (the suite runs in two processes) a 1 s play clock has
    # run out before the first move was chosen; the answers come at once all the same
    text, game = start_text(gdl_file("montyhall.gdl"), role="candidate", clocks=(10, 5))
    assert player.handle(text) == (200, "ready")
    assert player.handle("(PLAY m1 1 NIL NIL)")[0] == 409
    status, move = player.handle("(PLAY m1 0 NIL NIL)")
    assert status == 200 and move in game.legal(game.initial())["candidate"]
    assert player.handle("(PLAY m1 0 NIL NIL)")[0] == 409  # repeated turn
    assert player.handle("(PLAY m1 NIL)")[0] == 409  # forms cannot be mixed
    assert player.handle(f"(PLAY m1 2 {move} NIL)")[0] == 409  # skipped turn
    status, _ = player.handle(f"(PLAY m1 1 {move} NIL)")
    assert status == 200
    player.close()


# A GDL-II game where noop is never legal: a late answer must still be one of the moves.
_PICKS = """(role p) (role q) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal ?r (pick a)) (role ?r)) (<= (legal ?r (pick b)) (role ?r))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= (sees ?r (saw ?m)) (role ?r) (role ?o) (distinct ?r ?o) (does ?o ?m))
(<= terminal (true (step 3))) (<= (goal ?r 50) (role ?r))"""


def test_gdl2_answer_past_the_deadline_is_a_legal_move(monkeypatch):
    """When tracking a turn's percepts takes the whole play clock, the player answers a
    legal move of a likely successor state, not ``noop``."""
    player = quick_player()
    text = start_message("m1", "p", rules_list(_PICKS), 10, 1)
    assert player.handle(text) == (200, "ready")
    status, move = player.handle("(PLAY m1 0 NIL NIL)")
    assert status == 200 and move in ("(pick a)", "(pick b)")

    def stuck(self, *args, **kwargs):
        time.sleep(2.5)  # past the 1 s play clock

    monkeypatch.setattr(HypothesisTracker, "observe", stuck)
    status, late = player.handle(f"(PLAY m1 1 {move} ((saw (pick b))))")
    assert status == 200 and late in ("(pick a)", "(pick b)")
    player.close()


# A 10 s start clock: the reply comes as soon as preparation fails, but a 1 s clock could
# end first on a loaded machine (the player collects garbage before it parses).
@pytest.mark.parametrize("text, fragment", [
    ("(START m zz TTT 10 1)", "not a player"),  # TTT: the rules of tic-tac-toe
    ("(START m r ((role r) (<= (legal r a) (true ?x) (not (foo ?y)))) 10 1)", "cannot play"),
    ("(START m random ((role random) (role b) (sees b x)) 10 1)", "cannot play"),
])
def test_bad_rules_get_an_error_and_leave_the_player_free(text, fragment):
    text = text.replace("TTT", rules_list(gdl_file("ticTacToe.kif").read_text()))
    player = quick_player()
    status, body = player.handle(text)
    assert status == 400 and fragment in body
    assert "(status available)" in player.handle("(INFO)")[1]


_FUZZED = quick_player(margin=0.95)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(max_size=80),
    st.builds(lambda head, rest: f"({head} m1 {rest})",
              st.sampled_from(["PLAY", "STOP", "START", "ABORT", "INFO", "PREVIEW", "play"]),
              st.text(alphabet=st.sampled_from(list("() nil0123abc?;")), max_size=30)),
))
def test_no_message_crashes_the_player(text):
    """Arbitrary messages to a player in a match (restarted whenever one ends it)."""
    if "(status available)" in _FUZZED.handle("(INFO)")[1]:
        start, _ = start_text(gdl_file("nim1.kif"), clocks=(1, 1))
        assert _FUZZED.handle(start) == (200, "ready")
    status, body = _FUZZED.handle(text)
    assert status in (200, 400, 409) and isinstance(body, str)


@pytest.mark.parametrize("name, role, decisions", [
    ("montyhall.gdl", "candidate", 3), ("kriegTTT_4x4.gdl", "oplayer", 2)])
def test_hypotheses_lie_in_the_exact_information_set(name, role, decisions):
    """Every sampled state is one the player cannot rule out (exact enumeration), and the
    true state is among the ones it cannot rule out."""
    path = gdl_file(name)
    game, model = load_match_game(path), load_gdl_model(path)
    me = model.namespace.players.index(role)
    rng = random.Random(3)
    for _ in range(3):
        state, history, checked = model.initial_state(), [], 0
        while model.current_player(state) != TERMINAL and checked < decisions:
            if model.current_player(state) != me:
                state = model.apply(state, rng.choice(model.legal_actions(state)))
                continue
            history.append((model.observation(state, me), None))
            tracker = HypothesisTracker(game, role, rng=rng)
            for move, percepts in state["history"][role]:
                tracker.observe(move, percepts)
            sampled = {tuple(sorted(to_kif(f) for f in game.fluents(h.state)))
                       for h in tracker.ensure()}
            exact = {tuple(s["true"]) for s, _ in information_set(model, history, me)}
            assert sampled and sampled <= exact
            assert tuple(state["true"]) in exact
            action = rng.choice(model.legal_actions(state))
            history[-1] = (history[-1][0], action)
            state = model.apply(state, action)
            checked += 1


def test_hypotheses_weigh_monty_hall_like_bayes():
    """Candidate chose door 1, the host opened door 3: the car is behind door 2 twice as
    often as behind door 1 among the sampled states (uniformly random host)."""
    game = load_match_game(gdl_file("montyhall.gdl"))
    behind = {"(car 1)": 0, "(car 2)": 0}
    rng = random.Random(5)
    for _ in range(150):
        tracker = HypothesisTracker(game, "candidate", size=16, rng=rng)
        tracker.observe("(choose 1)", ["(does candidate (choose 1))"])
        tracker.observe("noop", ["(does candidate noop)", "(open_door 3)"])
        for hyp in tracker.ensure():
            for door in behind:
                behind[door] += door in {to_kif(f) for f in game.fluents(hyp.state)}
    share = behind["(car 2)"] / sum(behind.values())
    # 2/3 in expectation, a little less with 16 particles (Jensen); 2400 samples. Keeping
    # the first consistent successor of each particle instead gives exactly 1/2.
    assert 0.6 < share < 0.73


def test_full_collections_are_postponed_only_during_matches():
    _FUZZED.close()  # ends its match, if the fuzz test left one running
    before, default = _QuietGC._holders, gc.get_threshold()
    one, two = quick_player(1), quick_player(2)
    for player, match_id in ((one, "a"), (two, "b")):
        text, _ = start_text(gdl_file("nim1.kif"), match_id=match_id)
        assert player.handle(text) == (200, "ready")
    assert _QuietGC._holders == before + 2 and gc.get_threshold()[2] == 1_000_000
    assert one.handle("(ABORT a)") == (200, "aborted")
    assert _QuietGC._holders == before + 1 and gc.get_threshold()[2] == 1_000_000
    assert two.handle("(STOP b NIL)") == (200, "done")
    assert _QuietGC._holders == before
    # the thresholds come back after the collection that follows the last match, which
    # runs in a timer thread once the reply is out (later still on a loaded machine)
    deadline = time.monotonic() + 30
    while gc.get_threshold() != default and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gc.get_threshold() == default


def test_abort_stops_the_preparation_and_drops_what_it_built():
    # a START whose clock is over at once: the player answers while preparing, then the
    # ABORT makes the preparation give up and keep nothing (abandoned STARTs piled up
    # rule sets: 1-1.6 GB each on a 6.8 MB game)
    player = quick_player()
    text, _ = start_text(gdl_file("ticTacToe.kif"), clocks=(0, 1))
    with player._preparing:  # as if an earlier preparation were still running
        assert player.handle(text) == (200, "ready")
        match = player._match
        assert player.handle("(ABORT m1)") == (200, "aborted")
    assert match.ready.wait(60)
    with player._preparing:  # the preparation has let go, keeping nothing
        assert match.model is None and match.game is None
    again, game = start_text(gdl_file("ticTacToe.kif"), match_id="m2")
    assert player.handle(again) == (200, "ready")  # the player is free for the next match
    status, move = player.handle("(PLAY m2 NIL)")
    assert status == 200 and move in game.legal(game.initial())["xplayer"]


# A START whose rules ask for ten million facts of a static relation (470 bytes): the
# player builds the rules in a child under its memory budget first, and refuses them.
START_BOMB_RULES = """
(role a) (role b)
(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
(<= (big ?p ?q ?r ?s ?t ?u ?v) (d ?p) (d ?q) (d ?r) (d ?s) (d ?t) (d ?u) (d ?v))
(init (cell 0))
(<= (legal a (mark ?p)) (big ?p ?q ?r ?s ?t ?u ?v))
(<= (legal b noop))
(<= (next (cell ?p)) (does a (mark ?p)))
(<= terminal (true (cell 9)))
(<= (goal a 100) (true (cell 9)))
(<= (goal b 0) (true (cell 9)))
(<= (goal a 0) (not (true (cell 9))))
(<= (goal b 100) (not (true (cell 9))))
"""


def test_a_start_bomb_is_refused_within_the_budget_and_the_player_goes_on():
    import resource

    from ggp.budget import Budget

    player = quick_player(budget=Budget(memory_mb=300, seconds=60))
    bomb = f"(START bomb a ({START_BOMB_RULES}) 60 5)"
    assert len(bomb.encode()) < 600
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    status, reply = player.handle(bomb)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert status == 400 and "too large" in reply and "\n" not in reply
    assert grown_mb < 100  # the rules were never built in this process
    # the player is free for the next match, which it plays
    text, game = start_text(gdl_file("ticTacToe.kif"), match_id="after", clocks=(30, 5))
    assert player.handle(text) == (200, "ready")
    status, move = player.handle("(PLAY after NIL)")
    assert status == 200 and move in game.legal(game.initial())["xplayer"]
