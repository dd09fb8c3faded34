"""Backgammon: rules unit tests and a differential test against OpenSpiel's backgammon."""

import random
import re

import pytest

from ggp.check import check_model
from ggp.core.model import from_functions
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.games import backgammon as bg
from ggp.load import load_model


@pytest.fixture(scope="module")
def game():
    return load_model("backgammon")


def empty_state(player, dice, **changes):
    """A position with no checkers on the board, for hand-built tests."""
    state = {**bg.INITIAL_STATE, "board": [[0] * 24, [0] * 24], "bar": [0, 0], "off": [0, 0],
             "dice": dice, "current_player": player, "last_mover": 1 - player}
    state.update(changes)
    return state


def put(state, player, point, count):
    state["board"][player][bg.index_of(player, point)] = count
    return state


def block(state, player, point, count=2):
    """Put ``count`` opposing checkers on ``player``'s own point ``point``."""
    return put(state, 1 - player, 25 - point, count)


def test_setup_and_opening_roll(game):
    state = game.initial_state()
    assert sum(state["board"][0]) == sum(state["board"][1]) == 15
    assert state["board"][0][0] == 2 and state["board"][1][23] == 2  # 24-points
    assert state["board"][0][18] == 5 and state["board"][1][5] == 5  # 6-points
    outcomes = game.chance_outcomes(state)
    assert len(outcomes) == 30 and all(p == pytest.approx(1 / 30) for _, p in outcomes)
    state = game.apply(state, "Player 1 starts with 6-1")
    assert game.current_player(state) == 1 and state["dice"] == [6, 1]
    assert "Move checker at 13 using higher roll; Move checker at 8 using lower roll" in \
        game.legal_actions(state)


def test_dice_probabilities_are_not_uniform(game):
    state = game.apply(game.initial_state(), "Player 0 starts with 3-1")
    state = game.apply(state, "Move checker at 8 using higher roll; "
                              "Move checker at 6 using lower roll")
    assert game.current_player(state) == CHANCE
    outcomes = dict(game.chance_outcomes(state))
    assert len(outcomes) == 21
    assert outcomes["Roll 4-4"] == pytest.approx(1 / 36)
    assert outcomes["Roll 6-1"] == pytest.approx(2 / 36)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_bar_checker_must_enter_first_and_blocked_points_refuse_it():
    model = load_model("backgammon")
    state = empty_state(0, [6, 1], bar=[1, 0])
    put(state, 0, 13, 14)
    block(state, 0, 19)  # entering with the 6 would land on player 0's 19-point
    legal = model.legal_actions(state)
    # The 6 cannot enter (blocked), so the checker enters with the 1 and then the 6 is free.
    assert all(a.startswith("Move checker at Bar using lower roll") for a in legal)
    assert "Move checker at Bar using lower roll; Move checker at 24 using higher roll" in legal
    assert "Move checker at Bar using lower roll; Move checker at 13 using higher roll" in legal


def test_entering_hits_a_blot():
    model = load_model("backgammon")
    state = empty_state(1, [3, 2], bar=[0, 1])
    put(state, 1, 6, 14)
    block(state, 1, 22, count=1)  # a blot where the 3 enters
    after = model.apply(state, "Move checker at Bar using higher roll; "
                               "Move checker at 22 using lower roll")
    assert after["bar"] == [1, 0]
    assert after["board"][1][bg.index_of(1, 20)] == 1


def test_no_entry_possible_means_pass():
    model = load_model("backgammon")
    state = empty_state(0, [4, 4], bar=[1, 0])
    put(state, 0, 13, 14)
    block(state, 0, 21)
    assert model.legal_actions(state) == ["Pass"]
    after = model.apply(state, "Pass")
    assert model.current_player(after) == CHANCE and after["dice"] == []


def test_bear_off_with_higher_roll_only_from_highest_point():
    model = load_model("backgammon")
    state = empty_state(0, [6, 5], off=[11, 0])
    put(state, 0, 4, 2)
    put(state, 0, 2, 2)
    legal = model.legal_actions(state)
    assert "Move checker at 4 using higher roll; Move checker at 4 using lower roll" in legal
    assert not any("at 2 using higher roll; Move checker at 4" in a for a in legal)
    # After both 4s are off, the 2-point checkers are the highest and may use the 6.
    state = empty_state(0, [6, 5], off=[13, 0])
    put(state, 0, 2, 2)
    after = model.apply(state, "Move checker at 2 using higher roll; "
                               "Move checker at 2 using lower roll")
    assert model.current_player(after) == TERMINAL and after["winner"] == 0
    assert model.rewards(after) == [1.0, -1.0]


def test_exact_bear_off_is_allowed_with_higher_checkers_present():
    model = load_model("backgammon")
    state = empty_state(1, [2, 1], off=[0, 12])
    put(state, 1, 5, 2)
    put(state, 1, 2, 1)
    legal = model.legal_actions(state)
    assert any(a.startswith("Move checker at 2 using higher roll") for a in legal)


def test_no_bear_off_while_a_checker_is_outside_home():
    model = load_model("backgammon")
    state = empty_state(0, [6, 1], off=[10, 0])
    put(state, 0, 1, 4)
    put(state, 0, 9, 1)
    legal = model.legal_actions(state)
    # The 9 must come home first; only then may a checker bear off with the other die.
    assert "Move checker at 9 using higher roll; Move checker at 1 using lower roll" in legal
    assert not any(a.startswith("Move checker at 1") for a in legal)


def test_must_use_the_larger_die_when_only_one_can_be_used():
    model = load_model("backgammon")
    state = empty_state(0, [6, 2], off=[0, 0])
    put(state, 0, 24, 1)
    put(state, 0, 1, 14)  # the 1-point checkers cannot move; no bearing off (24 is out)
    block(state, 0, 22)  # 24-2 is blocked; 24-6 = 18 is open but 18-2 = 16 is blocked
    block(state, 0, 16)
    assert model.legal_actions(state) == ["Move checker at 24 using higher roll"]


def test_doubles_are_played_in_two_stages():
    model = load_model("backgammon")
    state = model.apply(model.initial_state(), "Player 0 starts with 2-1")
    state = model.apply(state, "Move checker at 13 using higher roll; "
                               "Move checker at 24 using lower roll")
    state = model.apply(state, "Roll 3-3")
    assert model.current_player(state) == 1
    state = model.apply(state, "Move checker at 13 using higher roll; "
                               "Move checker at 10 using lower roll")
    assert model.current_player(state) == 1 and state["second_stage"] and state["dice"] == [3, 3]
    state = model.apply(state, "Move checker at 6 using higher roll; "
                               "Move checker at 6 using lower roll")
    assert model.current_player(state) == CHANCE and not state["second_stage"]
    assert state["turns"] == 2


def test_gammon_and_backgammon_scoring():
    for scoring, stake in (("winloss", 1.0), ("gammons", 2.0), ("full", 3.0)):
        model = load_model(f"backgammon(scoring={scoring})")
        state = empty_state(0, [2, 1], off=[14, 0])
        put(state, 0, 1, 1)
        block(state, 0, 5, count=15)  # all of player 1's checkers in player 0's home
        after = model.apply(state, "Move checker at 1 using higher roll")
        assert model.rewards(after) == [stake, -stake]
        assert model.metadata.max_utility == stake


def test_turn_limit_ends_in_a_draw():
    model = load_model("backgammon(max_turns=3)")
    state = model.initial_state()
    rng = random.Random(0)
    while not model.is_terminal(state):
        if model.current_player(state) == CHANCE:
            state = model.apply(state, model.sample_chance(state, rng))
        else:
            state = model.apply(state, rng.choice(model.legal_actions(state)))
    assert state["turns"] == 4 and state["winner"] is None
    assert model.rewards(state) == [0.0, 0.0]


def test_conformance(game):
    assert check_model(game, games=3, seed=2).ok


# ----------------------------------------------------------------- OpenSpiel
def ordered_dice(model):
    """``model`` with each non-double roll split into its two orders (1/36 each), the way
    OpenSpiel 2.0.2 rolls; everything else is delegated unchanged."""
    ns = model.namespace

    def outcomes(state):
        if state["last_mover"] is None:
            return ns.get_chance_outcomes(state)
        result = []
        for action, p in ns.get_chance_outcomes(state):
            high, low = action.split()[1].split("-")
            orders = {f"Roll {high}-{low}", f"Roll {low}-{high}"}
            result += [(a, p / len(orders)) for a in sorted(orders)]
        return result

    def legal(state):
        if state["current_player"] == CHANCE:
            return [a for a, _ in outcomes(state)]
        return ns.get_legal_actions(state)

    def apply(state, action):
        if action.startswith("Roll "):
            a, b = sorted(action.split()[1].split("-"), reverse=True)
            action = f"Roll {a}-{b}"
        return ns.apply_action(state, action)

    return from_functions(
        "backgammon-ordered-dice", INITIAL_STATE=ns.INITIAL_STATE, METADATA=ns.METADATA,
        get_current_player=ns.get_current_player, get_player_name=ns.get_player_name,
        get_legal_actions=legal, get_chance_outcomes=outcomes, apply_action=apply,
        get_rewards=ns.get_rewards, get_observations=ns.get_observations)


def openspiel_chance_names():
    """OpenSpiel's chance-outcome strings keyed by our names."""
    import pyspiel

    state = pyspiel.load_game("backgammon").new_initial_state()
    names = {}
    for action, _ in state.chance_outcomes():
        text = state.action_to_string(-1, action)
        who, a, b = re.search(r"(X|O) starts, \(roll: (\d)(\d)\)", text).groups()
        high, low = max(a, b), min(a, b)
        names[f"Player {'XO'.index(who)} starts with {high}-{low}"] = text
    state.apply_action(0)
    state.apply_action(state.legal_actions()[0])
    for action, _ in state.chance_outcomes():
        text = state.action_to_string(-1, action)
        a, b = re.search(r"\(roll: (\d)(\d)\)", text).groups()
        names[f"Roll {a}-{b}"] = text
    return names


def _readable(position):
    return {25: "Bar", -2: "Off", -1: "Pass"}.get(position, str(position))


def openspiel_move_string(state, action):
    """The string OpenSpiel 2.0.2 shows for the same play: "<id> - <moves>" or "Pass"."""
    player, dice = state["current_player"], state["dice"]
    play = bg.action_to_play(dice, action)
    if not play:
        return "Pass"
    opp = state["board"][1 - player]
    digits, moves = [], []
    for source, die in play:
        digits.append(24 if source == bg.BAR else bg.index_of(player, source))
        start = 25 if source == bg.BAR else source
        end = start - die
        hit = end > 0 and opp[bg.index_of(player, end)] == 1
        moves.append((start, -2 if end <= 0 else end, hit, False))
    if len(play) == 1:
        digits.append(25)
        moves.append((25 if player == 0 else 0, -1, False, True))
    high_first = play[0][1] == dice[0] and "higher" in action.split(";")[0]
    action_id = digits[1] * 26 + digits[0] + (0 if high_first else 676)
    (s0, e0, h0, _), (s1, e1, h1, pass1) = moves
    double_hit = h0 and h1 and e0 == e1
    star = lambda hit: "*" if hit else ""  # noqa: E731
    if s0 == s1 and e0 == e1:
        text = f"{_readable(s0)}/{_readable(e0)}{star(h0)}(2)"
    elif (s0 < s1 or (s0 == s1 and e0 < e1)) and not pass1:
        first, second = moves[1], moves[0]
        text = _pair(first, second, double_hit)
    else:
        text = _pair(moves[0], moves[1], double_hit)
    return f"{action_id} - {text}"


def _pair(first, second, double_hit):
    (s0, e0, h0, _), (s1, e1, h1, pass1) = first, second
    head = f"{_readable(s0)}/{_readable(e0)}{'*' if h0 else ''}"
    if e0 == s1:
        return f"{head}/{_readable(e1)}{'*' if h1 else ''}"
    tail = "" if pass1 else f"{_readable(s1)}/"
    return f"{head} {tail}{_readable(e1)}{'*' if h1 and not double_hit else ''}"


def make_action_map():
    chance = openspiel_chance_names()

    def action_map(state, action):
        if state["current_player"] == CHANCE:
            return chance[action]
        return openspiel_move_string(state, action)

    return action_map


@pytest.mark.parametrize("scoring,os_scoring,games,seed,stakes", [
    ("winloss", "winloss_scoring", 60, 1, {1.0}),
    ("gammons", "enable_gammons", 20, 4, {1.0, 2.0}),
    ("full", "full_scoring", 30, 2, {1.0, 2.0, 3.0}),
])
def test_matches_openspiel(scoring, os_scoring, games, seed, stakes):
    pytest.importorskip("pyspiel")
    from ggp.openspiel.differential import compare_with_openspiel

    model = ordered_dice(load_model(f"backgammon(scoring={scoring})"))
    report = compare_with_openspiel(model, f"backgammon(scoring_type={os_scoring})",
                                    games=games, seed=seed, action_map=make_action_map())
    assert report.games == games and report.steps > 100 * games
    assert {abs(r[0]) for r in report.returns} == stakes
    assert {r[0] > 0 for r in report.returns} == {True, False}


def test_matches_openspiel_turn_limit():
    pytest.importorskip("pyspiel")
    from ggp.openspiel.differential import compare_with_openspiel

    model = ordered_dice(load_model("backgammon(max_turns=7)"))
    report = compare_with_openspiel(model, "backgammon(max_player_turns=7)", games=60,
                                    seed=3, action_map=make_action_map())
    assert {tuple(r) for r in report.returns} == {(0.0, 0.0)}
