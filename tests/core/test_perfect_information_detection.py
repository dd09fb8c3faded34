"""Perfect information detected for models without METADATA (issue 18)."""

from __future__ import annotations

from ggp.core.model import load_model_source

DICE = '''
import random
INITIAL_STATE = {"total": [0, 0], "turn": 0, "roll": None, "last": [0, 0]}
def get_current_player(s):
    if s["turn"] >= 4: return -4
    return -1 if s["roll"] is None else s["turn"] % 2
def get_player_name(p): return str(p)
def get_legal_actions(s):
    p = get_current_player(s)
    if p == -4: return []
    return ["1", "2", "3"] if p == -1 else ["keep", "drop"]
def apply_action(s, a):
    s = {"total": list(s["total"]), "turn": s["turn"], "roll": s["roll"], "last": [0, 0]}
    if s["roll"] is None:
        s["roll"] = int(a); return s
    if a == "keep": s["total"][s["turn"] % 2] += s["roll"]
    s["roll"] = None; s["turn"] += 1
    return s
def get_rewards(s): return [0.0, 0.0]
def get_observations(s): return [s, s]
'''


def test_dice_game_without_metadata_is_perfect_information():
    assert load_model_source(DICE, name="dice").metadata.perfect_information


def test_hidden_roll_is_not_perfect_information():
    hidden = DICE.replace("return [s, s]", "return [s, {**s, 'roll': None}]")
    assert not load_model_source(hidden, name="hidden").metadata.perfect_information


def test_declaration_overrides_detection():
    source = DICE + "\nPERFECT_INFORMATION = False\n"
    assert not load_model_source(source, name="declared").metadata.perfect_information
