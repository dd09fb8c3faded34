"""Gin rummy: unit tests of the tricky rules, on hand-picked deals."""

import pytest

from ggp.core.errors import ModelLoadError
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.core.registry import make_game
from ggp.games.gin_rummy import Cards

DECK = Cards(13, 4, 10)


@pytest.fixture(scope="module")
def gin():
    return make_game("gin_rummy")


def dealt(model, hand0, hand1, upcard):
    """The state right after dealing these hands (10 cards each) and this upcard."""
    state = model.initial_state()
    for card in hand0.split() + hand1.split() + [upcard]:
        state = model.apply(state, f"Deal {card}")
    return state


def play(model, state, *actions):
    for action in actions:
        state = model.apply(state, action)
    return state


def in_deck_order(cards):
    return sorted(cards.split(), key=DECK.index.__getitem__)


# Player 0: runs 4s5s6s and 9cTcJc, set 7s7d7h, deadwood 2h.
HAND0 = "4s 5s 6s 9c Tc Jc 7d 7h 7s 2h"
HAND1 = "As 3s 8s Kc 2d 5d Td Qd 4h Jh"


def test_deal_order_and_first_upcard_passing(gin):
    state = dealt(gin, HAND0, HAND1, "Ks")
    assert state["hands"] == [in_deck_order(HAND0), in_deck_order(HAND1)]
    assert state["upcard"] == "Ks" and len(state["stock"]) == 31
    assert state["phase"] == "FirstUpcard" and gin.current_player(state) == 0
    assert set(gin.legal_actions(state)) == {"Draw upcard", "Pass"}
    state = play(gin, state, "Pass")
    assert gin.current_player(state) == 1
    assert set(gin.legal_actions(state)) == {"Draw upcard", "Pass"}
    state = play(gin, state, "Pass")
    assert gin.current_player(state) == 0 and gin.legal_actions(state) == ["Draw stock"]
    state = play(gin, state, "Draw stock")
    assert gin.current_player(state) == CHANCE and state["discard_pile"] == ["Ks"]
    assert state["upcard"] is None
    state = play(gin, state, "Deal 3c")
    assert state["phase"] == "Discard" and "3c" in state["hands"][0]
    # The stock card is private: player 1 sees that a card was drawn, not which.
    assert gin.observation(state, 1)["history"][-1] == {
        "player": 0, "action": "Draw stock", "card": None}
    assert gin.observation(state, 0)["history"][-1]["card"] == "3c"


def test_second_player_may_take_the_passed_upcard(gin):
    state = play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Pass", "Draw upcard")
    assert state["phase"] == "Discard" and gin.current_player(state) == 1
    assert "Ks" in state["hands"][1]
    assert gin.observation(state, 0)["opponent_known_cards"] == ["Ks"]
    state = play(gin, state, "As")
    assert state["upcard"] == "As" and gin.current_player(state) == 0
    assert set(gin.legal_actions(state)) == {"Draw upcard", "Draw stock"}
    assert gin.observation(state, 0)["opponent_known_cards"] == ["Ks"]


def test_knock_is_legal_only_with_deadwood_at_most_the_knock_card(gin):
    state = play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Draw upcard")
    # 11 cards: the highest deadwood card (Ks) is left out, 2h remains.
    assert state["deadwood"][0] == 2 and "Knock" in gin.legal_actions(state)
    state = play(gin, dealt(gin, HAND0.replace("2h", "Qh"), HAND1, "Ks"), "Draw upcard")
    assert state["deadwood"][0] == 10 and "Knock" in gin.legal_actions(state)
    # Without 7h the 7s joins the spade run: deadwood 7d 2c 2h = 11, one too many.
    state = play(gin, dealt(gin, HAND0.replace("7h", "2c"), HAND1, "Ks"), "Draw upcard")
    assert state["deadwood"][0] == 11 and "Knock" not in gin.legal_actions(state)


def test_eleven_card_deadwood_follows_openspiel_tie_break():
    hand = "2s 2c 7c 8c 9c 2d 7d 8d 9d 7h 9h".split()
    # Two arrangements meld 54 points; the sets 7c7d7h + 9c9d9h come first in meld order
    # and leave 8c 8d (8 after leaving out one), although discarding 9h would leave 7.
    assert DECK.deadwood(hand) == 8
    assert min(DECK.deadwood([c for c in hand if c != x]) for x in hand) == 7


def test_knock_discard_and_meld_declaration(gin):
    state = play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Draw upcard", "Knock")
    assert state["phase"] == "Knock" and gin.current_player(state) == 0
    # The discard must keep deadwood <= 10: not a card of a 3-card meld.
    assert set(gin.legal_actions(state)) == {"2h", "Ks"}
    state = play(gin, state, "Ks")
    assert state["discard_pile"] == ["Ks"] and state["upcard"] is None
    assert set(gin.legal_actions(state)) == {"4s5s6s", "9cTcJc", "7s7d7h"}
    state = play(gin, state, "4s5s6s", "9cTcJc")
    assert gin.legal_actions(state) == ["7s7d7h"]  # 23 points undeclared: no Pass yet
    state = play(gin, state, "7s7d7h")
    assert gin.legal_actions(state) == ["Pass"] and state["deadwood"][0] == 2
    # The knocker's hand is face up from the knock on.
    assert gin.observation(state, 1)["opponent_hand"] == ["2h"]
    assert gin.observation(state, 1)["melds"][0] == ["4s5s6s", "9cTcJc", "7s7d7h"]
    state = play(gin, state, "Pass")
    assert state["phase"] == "Layoff" and gin.current_player(state) == 1


def test_legal_melds_skip_arrangements_that_cannot_reach_the_knock_card():
    # 6s7s8s, 6c7c8c, 8d: laying the set 8s8c8d instead would leave 26 points.
    hand = "6s 7s 8s 6c 7c 8c 8d Ah 2h 3h".split()
    assert set(DECK.legal_melds(hand, 10)) == {"6s7s8s", "6c7c8c", "Ah2h3h"}
    assert "8s8c8d" in DECK.legal_melds(hand, 98)  # the defender may lay any meld


def test_layoff_targets_on_sets_and_runs():
    knocker = ["5h6h7h", "QsQcQd", "2s2c2d2h"]
    assert DECK.layoff_cards(knocker, []) == {"4h", "8h", "Qh"}
    # A card laid off next to the run opens the next one, but only one step further.
    assert DECK.layoff_cards(knocker, ["8h"]) == {"4h", "9h", "Qh"}
    assert DECK.layoff_cards(knocker, ["8h", "9h"]) == {"4h", "9h", "Qh"}
    assert DECK.layoff_cards(["JdQdKd", "As2s3s"], []) == {"Td", "4s"}  # K and A end runs


def test_knock_layoffs_defender_melds_and_score(gin):
    state = play(gin, dealt(gin, "7s 7c 7d 3h 4h 5h Ac 2d Kh Ks",
                            "7h 2h 6h Kd 9c 9s 9d 5c Qc Jc", "Th"),
                 "Pass", "Pass", "Draw stock", "Deal Kc")
    assert state["deadwood"][0] == 1 and "Knock" in gin.legal_actions(state)
    state = play(gin, state, "Knock")
    assert set(gin.legal_actions(state)) == {"Ac", "2d", "5h"}
    state = play(gin, state, "2d", "7s7c7d", "KsKcKh", "3h4h5h", "Pass")
    assert state["phase"] == "Layoff" and gin.current_player(state) == 1
    assert set(gin.legal_actions(state)) == {"Pass", "Kd", "2h", "6h", "7h"}
    state = play(gin, state, "6h", "2h", "Kd")
    assert set(gin.legal_actions(state)) == {"Pass", "7h"}  # Ah would fit, but 1 is not held
    state = play(gin, state, "7h", "Pass")
    assert set(gin.legal_actions(state)) == {"Pass", "9s9c9d"}  # now the defender's melds
    state = play(gin, state, "9s9c9d", "Pass")
    assert gin.current_player(state) == TERMINAL
    assert state["deadwood"] == [1, 25] and gin.rewards(state) == [24.0, -24.0]
    assert gin.observation(state, 0)["opponent_hand"] == ["5c", "Jc", "Qc"]


@pytest.mark.parametrize("lay_off,rewards", [(True, [-31.0, 31.0]), (False, [0.0, 0.0])])
def test_undercut_and_equal_deadwood(gin, lay_off, rewards):
    state = play(gin, dealt(gin, "7s 7c 7d 3h 4h 5h 8c 9c Tc 9s",
                            "As 2s 3s 4s Qd Qh Qc Ad 2c 6h", "Th"),
                 "Pass", "Pass", "Draw stock", "Deal Js", "Knock",
                 "Js", "7s7c7d", "3h4h5h", "8c9cTc", "Pass")
    assert state["deadwood"][0] == 9
    if lay_off:
        state = play(gin, state, "6h")
    state = play(gin, state, "Pass", "As2s3s4s", "QcQdQh", "Pass")
    # Undercut: 3 <= 9 gives the defender 6 + 25; equal deadwood (9, 9) scores nothing.
    assert gin.rewards(state) == rewards


def test_gin_bonus_and_no_layoffs_on_gin(gin):
    state = play(gin, dealt(gin, "7s 7c 7d 3h 4h 5h 8c 9c Tc 9s",
                            "As 2s 3s 4s Qd Qh Qc Ad 2c 6d", "Th"),
                 "Pass", "Pass", "Draw stock", "Deal 6h")
    assert state["deadwood"][0] == 0
    state = play(gin, state, "Knock", "9s", "7s7c7d", "3h4h5h6h", "8c9cTc", "Pass")
    assert state["finished_layoffs"]
    assert "Pass" in gin.legal_actions(state) and "QcQdQh" in gin.legal_actions(state)
    state = play(gin, state, "As2s3s4s", "QcQdQh", "Pass")
    assert gin.rewards(state) == [9.0 + 25.0, -34.0]


def draw_and_throw(model, state, count):
    """``count`` turns of drawing from the stock and discarding the drawn card."""
    for _ in range(count):
        state = play(model, state, "Draw stock")
        card = state["stock"][0]
        state = play(model, state, f"Deal {card}", card)
    return state


def test_wall_pass_ends_in_a_draw_and_knock_takes_the_upcard(gin):
    start = play(gin, dealt(gin, HAND1, HAND0, "Ks"), "Pass", "Pass")
    state = draw_and_throw(gin, start, 28)
    assert len(state["stock"]) == 3 and state["phase"] == "Draw"
    state = draw_and_throw(gin, state, 1)  # player 0 takes the third-to-last card
    assert len(state["stock"]) == 2 and state["phase"] == "Wall"
    assert gin.current_player(state) == 1
    upcard = state["upcard"]
    assert set(gin.legal_actions(state)) == {"Pass", "Knock"}  # player 1 holds deadwood 2
    over = play(gin, state, "Pass")
    assert gin.current_player(over) == TERMINAL and gin.rewards(over) == [0.0, 0.0]
    knocked = play(gin, state, "Knock")
    assert knocked["phase"] == "Knock" and upcard in knocked["hands"][1]
    assert len(knocked["hands"][1]) == 11 and knocked["upcard"] is None
    # Player 0 holds junk: at the wall it could only pass.
    junk = draw_and_throw(gin, play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Pass", "Pass"), 29)
    assert gin.legal_actions(junk) == ["Pass"]


def test_taking_and_throwing_back_twice_in_a_row_ends_the_game(gin):
    state = play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Draw upcard", "Ks")
    assert state["repeated_move"] and gin.current_player(state) == 1
    state = play(gin, state, "Draw upcard", "Ks")
    assert gin.current_player(state) == TERMINAL and gin.rewards(state) == [0.0, 0.0]
    # A different discard in between resets the count.
    state = play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Draw upcard", "Ks",
                 "Draw upcard", "As", "Draw upcard", "As")
    assert state["repeated_move"] and gin.current_player(state) == 1


def test_fifty_upcard_draws_end_the_game(gin):
    state = play(gin, dealt(gin, HAND0, HAND1, "Ks"), "Draw upcard", "2h")
    for _ in range(49):
        taken = state["upcard"]
        state = play(gin, state, "Draw upcard")
        player = gin.current_player(state)
        state = play(gin, state, next(c for c in state["hands"][player] if c != taken))
    assert state["upcard_draws"] == 49 and gin.current_player(state) in (0, 1)
    state = play(gin, state, "Draw upcard")
    assert gin.current_player(state) == TERMINAL and gin.rewards(state) == [0.0, 0.0]


@pytest.mark.parametrize("upcard,knock_card", [("7c", 7), ("Kd", 10), ("Ah", 0)])
def test_oklahoma_knock_card_is_the_upcard_value(upcard, knock_card):
    model = make_game("gin_rummy(oklahoma=true)")
    state = dealt(model, HAND0, HAND1, upcard)
    assert state["knock_card"] == knock_card
    assert model.observation(state, 1)["knock_card"] == knock_card


def test_small_variant_and_parameter_errors():
    model = make_game("gin_rummy(num_ranks=6,num_suits=3,hand_size=4,knock_card=6)")
    state = model.initial_state()
    assert len(model.legal_actions(state)) == 18 and "Deal 6h" not in model.legal_actions(state)
    assert "18 cards" in model.rules and model.metadata.openspiel.startswith("gin_rummy(")
    with pytest.raises(ModelLoadError):
        make_game("gin_rummy(hand_size=20)")
    with pytest.raises(ModelLoadError):
        make_game("gin_rummy(knock_card=11)")


def test_no_knock_without_a_legal_knock_discard():
    # Hands of 2: three cards in one meld have deadwood 0, but every discard breaks the
    # meld. OpenSpiel offers "Knock" here and then has no legal action; we do not.
    model = make_game("gin_rummy(hand_size=2,knock_card=0)")
    state = play(model, dealt(model, "As 2s", "Kd Qh", "3s"), "Draw upcard")
    assert state["deadwood"][0] == 0 and set(model.legal_actions(state)) == {"As", "2s", "3s"}
    model = make_game("gin_rummy(hand_size=3,knock_card=0)")
    state = play(model, dealt(model, "As 2s 3s", "Kd Qh 9c", "4s"), "Draw upcard")
    assert "Knock" in model.legal_actions(state)
    assert set(model.legal_actions(model.apply(state, "Knock"))) == {"As", "4s"}
