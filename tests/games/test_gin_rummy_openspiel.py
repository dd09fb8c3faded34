"""Gin rummy against OpenSpiel's gin_rummy: lock-step random games and the meld helpers.

Every step must agree on the player to move, the legal actions (through an explicit name
map), the chance probabilities, and at the end the returns. Uniformly random games almost
never knock, so a second walk uses a knock-seeking policy to reach knocks, lay-offs, gin,
undercuts and the wall.
"""

import math
import random
from collections import Counter

import pytest

from ggp.core.protocol import CHANCE, TERMINAL
from ggp.core.registry import make_game
from ggp.games.gin_rummy import Cards

pyspiel = pytest.importorskip("pyspiel")
from ggp.openspiel.differential import (  # noqa: E402
    Divergence,
    compare_with_openspiel,
    openspiel_action_strings,
)


def to_openspiel(state, action):
    """Our action name -> OpenSpiel's action string."""
    player = state["current_player"]
    if player == CHANCE:
        return "Chance outcome: " + action.removeprefix("Deal ")
    return f"Player: {player} Action: {action}"


def test_uniformly_random_games_agree():
    model = make_game("gin_rummy")
    report = compare_with_openspiel(model, "gin_rummy", games=150, seed=3,
                                    action_map=to_openspiel)
    assert report.games == 150 and report.steps > 150 * 60


def knock_seeking_policy(cards, knock_prob):
    """Discards the card that keeps deadwood lowest, takes the upcard when it helps, and
    knocks with probability ``knock_prob`` (always at the wall and with gin); otherwise
    random. It needs the full state, which the differential walk has."""
    def policy(state, legal, rng):
        player, phase = state["current_player"], state["phase"]
        hand = state["hands"][player]
        if "Knock" in legal and (phase == "Wall" or state["deadwood"][player] == 0
                                 or rng.random() < knock_prob):
            return "Knock"
        if phase == "Discard" and rng.random() < 0.85:
            return min((c for c in legal if c != "Knock"),
                       key=lambda c: (cards.deadwood([x for x in hand if x != c]), rng.random()))
        if "Draw upcard" in legal and rng.random() < 0.8:
            if cards.deadwood(hand + [state["upcard"]]) < cards.deadwood(hand):
                return "Draw upcard"
            return "Draw stock" if "Draw stock" in legal else "Pass"
        return rng.choice(legal)
    return policy


def walk(model, game_string, policy, games, seed):
    """Lock-step games under ``policy``; returns a Counter of how the games ended."""
    game = pyspiel.load_game(game_string)
    rng, endings = random.Random(seed), Counter()
    for _ in range(games):
        state, os_state, history = model.initial_state(), game.new_initial_state(), []
        returns = [0.0, 0.0]
        while True:
            player = model.current_player(state)
            os_player = (TERMINAL if os_state.is_terminal() else
                         CHANCE if os_state.is_chance_node() else os_state.current_player())
            if player != os_player:
                raise Divergence(f"player {player} vs {os_player} after {history}")
            if player == TERMINAL:
                break
            legal, theirs = model.legal_actions(state), openspiel_action_strings(os_state)
            if {to_openspiel(state, a) for a in legal} != set(theirs):
                raise Divergence(f"legal actions {sorted(legal)} vs {sorted(theirs)} "
                                 f"after {history}")
            if player == CHANCE:
                probs = dict(os_state.chance_outcomes())
                for action, p in model.chance_outcomes(state):
                    assert math.isclose(p, probs[theirs[to_openspiel(state, action)]])
                action = model.sample_chance(state, rng)
            else:
                action = policy(state, legal, rng)
            os_state.apply_action(theirs[to_openspiel(state, action)])
            state = model.apply(state, action)
            returns = [r + x for r, x in zip(returns, model.rewards(state))]
            history.append(action)
        if not all(math.isclose(a, b) for a, b in zip(returns, os_state.returns())):
            raise Divergence(f"returns {returns} vs {os_state.returns()} after {history}")
        endings.update(_endings(state, returns))
    return endings


def _endings(state, returns):
    if not any(state["knocked"]):
        if len(state["stock"]) == 2:
            return ["wall"]
        return ["50 upcard draws" if state["upcard_draws"] == 50 else "thrown back twice"]
    knocker = state["knocked"].index(True)
    kinds = ["knock"]
    if state["deadwood"][knocker] == 0:
        kinds.append("gin")
    if returns[knocker] < 0:
        kinds.append("undercut")
    if state["layoffs"]:
        kinds.append("layoff")
    if any(e["action"] == "Knock" and e.get("card") for e in state["history"]):
        kinds.append("wall knock")
    return kinds


@pytest.mark.parametrize("spec,games,knock_prob,expected", [
    ("gin_rummy", 150, 0.15, {"knock", "undercut", "layoff", "gin", "wall", "thrown back twice"}),
    ("gin_rummy(oklahoma=true)", 60, 0.3, {"knock", "gin", "layoff"}),
    ("gin_rummy(num_ranks=6,num_suits=3,hand_size=4,knock_card=6)", 200, 0.3,
     {"knock", "undercut", "gin", "layoff", "wall", "wall knock"}),
])
def test_knock_seeking_games_agree(spec, games, knock_prob, expected):
    model = make_game(spec)
    params = model.metadata.extra
    cards = Cards(params["num_ranks"], params["num_suits"], params["hand_size"])
    endings = walk(model, model.metadata.openspiel, knock_seeking_policy(cards, knock_prob),
                   games, seed=1)
    assert expected <= set(endings), endings


def meld_rich_hands(rng, count, size):
    """Random hands from a few consecutive ranks, so that they hold many overlapping
    sets and runs (and ties between arrangements)."""
    for _ in range(count):
        width = rng.randrange(3, 7)
        low = rng.randrange(0, 14 - width)
        pool = [s * 13 + r for s in range(4) for r in range(low, low + width)]
        yield rng.sample(pool, size)


def test_deadwood_melds_and_layoffs_match_openspiel_utils():
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    cards = Cards(13, 4, 10)
    rng = random.Random(0)
    name_of = {k: cards.meld_name(tuple(v)) for k, v in utils.int_to_meld.items()}
    assert len(set(name_of.values())) == 185  # 65 sets and 120 runs of 3 to 5 cards
    ties = 0
    for hand in meld_rich_hands(rng, 1500, 11):
        names = [cards.names[c] for c in hand]
        assert cards.deadwood(names) == utils.min_deadwood(hand), names
        assert cards.deadwood(names[:10]) == utils.min_deadwood(hand[:10]), names
        for knock_card in (0, 10, 98):
            ours = cards.legal_melds(names[:10], knock_card)
            assert ours == sorted(name_of[i] for i in utils.legal_melds(hand[:10], knock_card))
        assert cards.legal_discards(names, 10) == [
            c for c in names if cards.index[c] in utils.legal_discards(hand, 10)]
        best_discard = min(cards.deadwood([x for x in names if x != c]) for c in names)
        ties += cards.deadwood(names) != best_discard
    assert ties > 5  # hands where OpenSpiel's 11-card rule is not the best discard
    for _ in range(1500):
        melds = rng.sample(sorted(name_of), rng.randrange(1, 4))
        laid = rng.sample(range(52), rng.randrange(0, 4))
        theirs = utils.all_layoffs(melds, laid)
        ours = cards.layoff_cards([name_of[m] for m in melds], [cards.names[c] for c in laid])
        assert ours == {cards.names[c] for c in theirs}


def upcard_taker(state, legal, rng):
    """Always takes the upcard and throws back some other card (never knocks)."""
    if "Draw upcard" in legal:
        return "Draw upcard"
    if state["phase"] == "Discard":
        taken = state["history"][-1].get("card")
        return rng.choice([c for c in legal if c not in ("Knock", taken)])
    return rng.choice(legal)


def test_fifty_upcard_draws_agree():
    endings = walk(make_game("gin_rummy"), "gin_rummy", upcard_taker, games=20, seed=2)
    assert endings == Counter({"50 upcard draws": 20})
