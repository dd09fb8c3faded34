"""GDL games as world models: the corpus plays, tic-tac-toe agrees with the reference game,
GDL-II percepts, information sets and the sampler."""

import random

import pytest
from gdl_corpus import FILES, HEAVY, REJECTED, path
from test_gdl_parse import COIN_INFIX

from ggp.check import check_model
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json
from ggp.games import tic_tac_toe
from ggp.gdl.adapter import load_gdl_text
from ggp.gdl.infosets import fluent_sets, information_set
from ggp.load import load_model

PLAYABLE = [f for f in FILES if f.name not in REJECTED]


def random_playout(model, rng, check=None):
    state = model.initial_state()
    while not model.is_terminal(state):
        player = model.current_player(state)
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            action = rng.choice(model.legal_actions(state))
        if check:
            check(state, player, action)
        state = model.apply(state, action)
    return state


@pytest.mark.parametrize("p", PLAYABLE, ids=lambda p: p.name)
def test_corpus_game_plays_to_terminal_with_goals_in_range(p):
    model = load_model(str(p))
    rng = random.Random(3)
    for _ in range(1 if p.name in HEAVY else 2):
        state = random_playout(model, rng)
        returns = model.rewards(state)
        assert len(returns) == model.num_players
        assert all(0.0 <= r <= 100.0 for r in returns)
        canonical_json(state)


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_files_raise_a_located_error(name):
    from ggp.gdl.errors import GDLValidationError

    with pytest.raises(GDLValidationError) as info:
        load_model(str(path(name)))
    assert info.value.line > 0 and info.value.col > 0


def test_tictactoe_agrees_with_reference_game():
    model = load_model(str(path("ticTacToe.kif")))
    assert model.metadata.num_players == 2 and model.metadata.perfect_information
    rng = random.Random(11)
    outcomes = set()
    for _ in range(60):
        gdl, ref = model.initial_state(), dict(tic_tac_toe.INITIAL_STATE)
        while True:
            gp, rp = model.current_player(gdl), tic_tac_toe.get_current_player(ref)
            assert gp == rp
            if gp == TERMINAL:
                break
            legal = model.legal_actions(gdl)
            assert len(legal) == len(tic_tac_toe.get_legal_actions(ref))
            action = rng.choice(legal)  # "(mark m n)", 1-based
            m, n = (int(x) - 1 for x in action.strip("()").split()[1:])
            mark = "x" if gp == 0 else "o"
            gdl = model.apply(gdl, action)
            ref = tic_tac_toe.apply_action(ref, f"{mark}({m},{n})")
            # the adapter does not ask a role with a single legal move (the last cell)
            while tic_tac_toe.get_current_player(ref) != TERMINAL and len(
                    tic_tac_toe.get_legal_actions(ref)) == 1:
                ref = tic_tac_toe.apply_action(ref, tic_tac_toe.get_legal_actions(ref)[0])
        mapped = [{100.0: 1.0, 0.0: -1.0, 50.0: 0.0}[g] for g in model.rewards(gdl)]
        assert mapped == tic_tac_toe.get_rewards(ref)
        outcomes.add(tuple(mapped))
    assert len(outcomes) == 3  # wins, losses and draws were all met


def test_check_model_accepts_gdl_games():
    for name, games in (("ticTacToe.kif", 3), ("roshambo2.kif", 3), ("montyhall.gdl", 5)):
        report = check_model(load_model(str(path(name))), games=games)
        assert report.ok, (name, list(report.violations)[:2])


def test_metadata_and_random_role():
    monty = load_model(str(path("montyhall.gdl")))
    assert monty.metadata.num_players == 1 and monty.metadata.chance
    assert not monty.metadata.perfect_information
    assert (monty.metadata.min_utility, monty.metadata.max_utility) == (0.0, 100.0)
    beat = load_model(str(path("beatMania.kif")))  # GDL: 'random' is a player here
    assert beat.metadata.num_players == 2 and not beat.metadata.chance
    assert beat.player_name(0) == "random"
    guess = load_model(str(path("guessSix.gdl")))  # GDL-II without sees
    assert guess.metadata.num_players == 1 and guess.metadata.chance


def test_simultaneous_moves_are_sequentialized_and_hidden():
    model = load_model(str(path("roshambo2.kif")))
    assert model.metadata.simultaneous and not model.metadata.perfect_information
    s = model.initial_state()
    assert model.current_player(s) == 0
    s = model.apply(s, model.legal_actions(s)[0])
    assert model.current_player(s) == 1
    assert s["pending"] and model.observation(s, 1)["pending"] == {}
    assert model.observation(s, 0)["pending"] == s["pending"]


def test_single_move_roles_are_not_asked():
    model = load_model(str(path("ticTacToe.kif")))
    s = model.initial_state()
    assert "noop" not in model.legal_actions(s)
    s = model.apply(s, "(mark 1 1)")
    assert model.current_player(s) == 1 and len(model.legal_actions(s)) == 8
    assert model.observation(s, 0) == s  # perfect information: observation is the state


def test_actions_accept_other_spellings():
    model = load_model(str(path("ticTacToe.kif")))
    s = model.apply(model.initial_state(), "( MARK 2 3 )")
    assert "(cell 2 3 x)" in s["true"]


def monty_after(choice, hide):
    monty = load_model(str(path("montyhall.gdl")))
    s0 = monty.initial_state()
    s = monty.apply(monty.apply(s0, f"(choose {choice})"), f"(hide_car {hide})")
    if monty.current_player(s) == CHANCE:  # the host may open either of two doors
        s = monty.apply(s, monty.sample_chance(s, random.Random(0)))
    # a host with a single door to open is not asked: the step is applied at once
    opened = s["history"]["candidate"][-1][1][-1]
    return monty, s0, s, opened


def test_montyhall_percepts():
    monty, s0, s, opened = monty_after(1, 2)
    assert opened == "(open_door 3)"
    obs = monty.observation(s, 0)
    assert obs["history"] == [["(choose 1)", ["(does candidate (choose 1))"]],
                              ["noop", ["(does candidate noop)", "(open_door 3)"]]]
    assert "true" not in obs  # the car is hidden
    assert sorted(monty.legal_actions(s)) == ["noop", "switch"]
    end = monty.apply(s, "switch")
    assert monty.is_terminal(end) and monty.rewards(end) == [100.0]
    assert monty.observation(end, 0)["history"][-1] == [
        "switch", ["(car 2)", "(does candidate switch)"]]


def test_montyhall_host_choice_is_chance():
    monty, _, s, opened = monty_after(1, 1)
    assert opened in ("(open_door 2)", "(open_door 3)")
    assert monty.current_player(s) == 0


def test_montyhall_information_set_gives_two_thirds_for_switching():
    monty, s0, s, _ = monty_after(1, 2)
    history = [(monty.observation(s0, 0), "(choose 1)"), (monty.observation(s, 0), None)]
    belief = {tuple(st["true"]): p for st, p in information_set(monty, history, 0)}
    assert belief == pytest.approx({
        ("(car 1)", "(chosen 1)", "(closed 1)", "(closed 2)", "(step 3)"): 1 / 3,
        ("(car 2)", "(chosen 1)", "(closed 1)", "(closed 2)", "(step 3)"): 2 / 3})
    random.seed(5)
    drawn = [monty.resample_state(history, 0) for _ in range(300)]
    assert all(tuple(st["true"]) in belief and monty.observation(st, 0) == history[-1][0]
               for st in drawn)
    # the kept hypotheses weigh the doors as Bayes does (a 48-state sample: roughly)
    share = sum("(car 2)" in st["true"] for st in drawn) / len(drawn)
    assert 0.5 < share < 0.85


@pytest.mark.parametrize("name", ["kriegTTT_4x4.gdl", "blind_breakthrough_5x5.gdl"])
def test_resample_state_keeps_its_belief_across_decisions(name):
    """Along a match, every drawn state is consistent with the player's view, lies in the
    exact information set while that is small enough, and the player's belief is advanced
    (one tracker per player and match) instead of re-filtered from the initial state."""
    from ggp.core.errors import BeliefError

    model = load_model(str(path(name)))
    game = model.namespace
    rng = random.Random(2)
    random.seed(2)
    for match in range(2):
        state, histories, decisions = model.initial_state(), {0: [], 1: []}, 0
        while not model.is_terminal(state) and decisions < 8:
            p = model.current_player(state)
            if p == CHANCE:
                state = model.apply(state, model.sample_chance(state, rng))
                continue
            history = histories[p] + [(model.observation(state, p), None)]
            samples = [model.resample_state(history, p) for _ in range(20)]
            assert all(model.current_player(s) == p
                       and model.observation(s, p) == history[-1][0] for s in samples)
            try:
                exact = {tuple(s["true"]) for s, _ in information_set(model, history, p,
                                                                       max_states=3000)}
            except BeliefError:
                exact = None
            if exact is not None:
                assert tuple(state["true"]) in exact
                assert {tuple(s["true"]) for s in samples} <= exact
            belief = game._beliefs[game.players[p]]
            tracker = belief._tracker([(m, tuple(ps)) for m, ps in history[-1][0]["history"]])
            assert tracker is not None and len(tracker.record) == state["step"]
            action = rng.choice(model.legal_actions(state))
            histories[p].append((history[-1][0], action))
            state = model.apply(state, action)
            decisions += 1
        # a new match starts a new tracker; the old one is kept for a while
        assert len(game._beliefs[game.players[0]].trackers) == match + 1


def test_resample_state_fills_pending_moves_in_simultaneous_gdl():
    model = load_model(str(path("connectFourSimultaneous.kif")))
    s0 = model.initial_state()
    s1 = model.apply(s0, model.legal_actions(s0)[0])
    p = model.current_player(s1)
    assert p == 1 and len(s1["pending"]) == 1
    history = [(model.observation(s1, p), None)]
    random.seed(0)
    seen = {tuple(model.resample_state(history, p)["pending"].items()) for _ in range(60)}
    assert len(seen) > 1  # the other role's hidden choice is drawn, not copied
    assert all(len(pending) == 1 for pending in seen)


def test_infix_game_loads_and_plays():
    model = load_gdl_text(COIN_INFIX, name="coin")
    assert model.metadata.num_players == 2  # 'nature' is an ordinary role name
    assert model.metadata.extra["gdl_ii"]
    state = random_playout(model, random.Random(0))
    assert model.is_terminal(state)


BLIND = "src/ggp/gdl/games/blind_tictactoe.gdl"


def _blind_round(white, black, coin):
    from pathlib import Path

    model = load_model(str(Path(__file__).parents[2] / BLIND))
    s0 = model.initial_state()
    s = model.apply(model.apply(model.apply(s0, white), black), coin)
    return model, s0, s


def test_blind_tictactoe_information_sets_after_one_round():
    # white plays the centre and sees "ok": black marked any of the 8 other cells, or
    # also the centre and lost the coin toss (9 states)
    model, s0, s = _blind_round("(mark 2 2)", "(mark 1 1)", "(tiebreak x)")
    assert model.observation(s, 0)["history"] == [["(mark 2 2)", ["ok"]]]
    history = [(model.observation(s0, 0), "(mark 2 2)"), (model.observation(s, 0), None)]
    states = information_set(model, history, 0)
    assert len(states) == 9
    assert all("(cell 2 2 x)" in st["true"] for st, _ in states)
    # white sees nothing: black won the centre on the coin, a single state
    model, s0, s = _blind_round("(mark 2 2)", "(mark 2 2)", "(tiebreak o)")
    assert model.observation(s, 0)["history"] == [["(mark 2 2)", []]]
    history = [(model.observation(s0, 0), "(mark 2 2)"), (model.observation(s, 0), None)]
    (only, p), = information_set(model, history, 0)
    assert p == pytest.approx(1.0) and "(cell 2 2 o)" in only["true"]


def test_information_set_states_are_counted_by_fluent_sets():
    """White sees "ok" for the centre, then nothing for a corner: 16 complete states that
    differ in black's moves, but only 8 distinct positions (black's marks collide)."""
    model, s0, s1 = _blind_round("(mark 2 2)", "(mark 1 1)", "(tiebreak x)")
    s2 = model.apply(model.apply(s1, "(mark 1 1)"), "(mark 1 2)")  # black holds 1 1
    s2 = model.apply(s2, model.legal_actions(s2)[0])  # the coin, unused here
    view = [(model.observation(s0, 0), "(mark 2 2)"), (model.observation(s1, 0), "(mark 1 1)"),
            (model.observation(s2, 0), None)]
    assert [h[1] for h in view[-1][0]["history"]] == [["ok"], []]
    states = information_set(model, view, 0)
    positions = fluent_sets(states)
    assert len(positions) < len(states)
    assert sum(positions.values()) == pytest.approx(1.0)
    assert {tuple(s["true"]) for s, _ in states} == set(positions)
