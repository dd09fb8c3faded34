"""Backgammon (seed 000 App. H.1), move-for-move compatible with OpenSpiel's ``backgammon``.

The seed's notation is used: the board is two arrays of 24 counts, actions are up to two
checker moves written "Move checker at X using higher/lower roll", and doubles are played
in two stages of two moves. Legal plays follow OpenSpiel exactly (both orders of two
independent moves are distinct actions, as there). There is no doubling cube; gammons and
backgammons count only with ``scoring=gammons`` / ``scoring=full``. Dice rolls are
unordered ("Roll 6-1" has probability 2/36, "Roll 3-3" 1/36), where OpenSpiel 2.0.2 uses
36 ordered rolls of 1/36: the same distribution over positions.
"""

from __future__ import annotations

from types import SimpleNamespace

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

PARAMETERS = {"scoring": "winloss", "max_turns": 500}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"max_turns": (1, 10_000)}
SCORINGS = ("winloss", "gammons", "full")

CHECKERS = 15
BAR = "Bar"
PASS = "Pass"

_RULES = """\
Backgammon for two players, 0 and 1, each with 15 checkers, without the doubling cube.
Points and numbering. The board has 24 points. Each player numbers them from its own point
of view: its checkers travel from its 24-point down to its 1-point and then off the board.
Points 1-6 of a player are its home board; a player's point n is the opponent's point
25 - n. The state stores the board as "board": [counts of player 0, counts of player 1],
two arrays of 24 numbers indexed the same way for both players: index i is player 0's point
24 - i and player 1's point i + 1 (so player 0 moves towards higher indices, player 1
towards lower ones). "bar" and "off" give each player's checkers on the bar and borne off.
Setup. Each player starts with 2 checkers on its 24-point, 5 on its 13-point, 3 on its
8-point and 5 on its 6-point.
Opening roll (chance). Both players roll one die and the higher die starts, re-rolling ties;
the starter then plays both of these dice. This is one chance move "Player P starts with
H-L" (H > L; each of the 30 outcomes has probability 1/30).
Later turns. Before each later turn chance rolls two dice for the player whose turn it is:
"Roll H-L" with H >= L; a non-double has probability 2/36, a double 1/36. The dice are
"dice": [H, L] in the state (empty between turns). Turns alternate.
Moving. Each die moves one checker that many points towards home; the two dice may move the
same checker twice. A checker may land on an empty point, on its own checkers, or on a
point holding exactly one opposing checker (a blot): that checker is hit and goes to its
owner's bar. A point holding two or more opposing checkers is blocked.
Bar. A player with checkers on the bar must enter them all before moving any other checker.
Entering with die d puts the checker on the player's own point 25 - d (the opponent's point
d), which must not be blocked.
Bearing off. Only when all of a player's checkers are in its home board (none elsewhere,
none on the bar) may it bear off; this is judged before each checker move, so the first move
of a decision may bring the last checker home and the second bear one off. A die equal to the point number bears off a checker from
that point. A die larger than the point number bears off a checker only from the player's
highest occupied point. Checkers may also move inside the home board instead.
Using the dice. A player must use both dice if it can in some order. If it can use only one
of them, it must use the larger one if possible. If it can use neither, it passes.
Doubles. A double is played in two stages with the same dice: first the player makes two
checker moves; if it could use both, it gets a second decision with the same two dice and
moves up to two more (by the same rules). If it could use at most one in the first stage,
the turn ends.
Actions. A decision plays up to two checker moves in order, each written
"Move checker at X using higher roll" or "Move checker at X using lower roll", where X is
the checker's point in the mover's own numbering (1-24) or "Bar", and the roll is the
higher die H or the lower die L (on a double, the first move says "higher" and the second
"lower"). Two moves are joined by "; ", e.g.
"Move checker at 13 using higher roll; Move checker at 7 using lower roll" (the second move
may continue with the checker the first one moved). A decision with one possible move has
one part; with none it is "Pass". Both orders of two moves are different actions even when
they end in the same position.
End. The first player to bear off all 15 checkers wins: +1 for the winner, -1 for the loser
(scoring=winloss). With scoring=gammons the stake is 2 if the loser has borne off no
checker; with scoring=full it is 3 if, in addition, the loser still has a checker on the bar
or in the winner's home board. Turn limit: "turns" counts the turns played (a decision
starts a new turn unless it is the second stage of a double); when a decision without a
winner brings it above {max_turns}, the game ends at once (even before the second stage of a
double) in a draw, 0 each. Rewards come only at the end. Both players see the whole state,
which also holds "current_player", "second_stage" (true during the second half of a
double), "last_mover", "turns", "winner" and "rewards".
"""


def _metadata(scoring: str) -> GameMetadata:
    stake = 1.0 + SCORINGS.index(scoring)
    openspiel = {"winloss": "winloss_scoring", "gammons": "enable_gammons",
                 "full": "full_scoring"}[scoring]
    return GameMetadata(
        num_players=2,
        min_utility=-stake,
        max_utility=stake,
        zero_sum=True,
        outcome="win_loss_draw" if scoring == "winloss" else "payoff",
        perfect_information=True,
        chance=True,
        openspiel=f"backgammon(scoring_type={openspiel})",
        source="seed 000 App. H.1",
    )


RULES = _RULES.format(max_turns=500)
METADATA = _metadata("winloss")


def _initial_board() -> list[list[int]]:
    zero, one = [0] * 24, [0] * 24
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        zero[24 - point] = count
        one[point - 1] = count
    return [zero, one]


INITIAL_STATE = {
    "board": _initial_board(),
    "bar": [0, 0],
    "off": [0, 0],
    "dice": [],
    "current_player": CHANCE,
    "last_mover": None,
    "second_stage": False,
    "turns": 0,
    "winner": None,
    "rewards": [0.0, 0.0],
}


# ----------------------------------------------------------------- geometry
def index_of(player: int, point: int) -> int:
    """Board index of ``player``'s own point number (1..24)."""
    return 24 - point if player == 0 else point - 1


def _home_points(player):
    return [index_of(player, p) for p in range(1, 7)]


# ----------------------------------------------------------------- checker moves
def single_moves(state, player: int, dice: list[int]) -> list[tuple[int | str, int]]:
    """Every single checker move ``(from point or "Bar", die)`` with a die from ``dice``."""
    board, opp = state["board"][player], state["board"][1 - player]
    moves = []
    if state["bar"][player] > 0:
        for die in sorted(set(dice)):
            if opp[index_of(player, 25 - die)] <= 1:
                moves.append((BAR, die))
        return moves
    all_home = all(board[i] == 0 for i in range(24) if i not in _home_points(player))
    occupied = [p for p in range(1, 25) if board[index_of(player, p)] > 0]
    for point in occupied:
        for die in sorted(set(dice)):
            target = point - die
            if target >= 1:
                if opp[index_of(player, target)] <= 1:
                    moves.append((point, die))
            elif all_home and (target == 0 or point == max(occupied)):
                moves.append((point, die))
    return moves


def _move_checker(state, player, source, die):
    """A new state with one checker moved (hitting a blot), dice untouched."""
    board = [row[:] for row in state["board"]]
    bar, off = state["bar"][:], state["off"][:]
    if source == BAR:
        bar[player] -= 1
        target = 25 - die
    else:
        board[player][index_of(player, source)] -= 1
        target = source - die
    if target <= 0:
        off[player] += 1
    else:
        i = index_of(player, target)
        board[player][i] += 1
        if board[1 - player][i] == 1:
            board[1 - player][i] = 0
            bar[1 - player] += 1
    return {**state, "board": board, "bar": bar, "off": off}


def legal_plays(state) -> list[tuple[tuple[int | str, int], ...]]:
    """The legal plays of the player to move: tuples of up to two ``(source, die)``."""
    player, dice = state["current_player"], state["dice"]
    plays = set()
    for first in single_moves(state, player, dice):
        rest = list(dice)
        rest.remove(first[1])
        after = _move_checker(state, player, *first)
        seconds = single_moves(after, player, rest)
        plays.update((first, second) for second in seconds)
        if not seconds:
            plays.add((first,))
    if not plays:
        return [()]
    longest = max(len(p) for p in plays)
    plays = {p for p in plays if len(p) == longest}
    if longest == 1:
        top = max(p[0][1] for p in plays)
        plays = {p for p in plays if p[0][1] == top}
    return sorted(plays, key=str)


def play_to_action(dice: list[int], play) -> str:
    """The action string of a play (see RULES)."""
    if not play:
        return PASS
    parts, high_used = [], False
    for source, die in play:
        # On a double the first move uses the "higher" die and the second the "lower".
        kind = "higher" if die == dice[0] and not high_used else "lower"
        high_used = high_used or kind == "higher"
        parts.append(f"Move checker at {source} using {kind} roll")
    return "; ".join(parts)


def action_to_play(dice: list[int], action: str):
    """Inverse of :func:`play_to_action` (no legality check)."""
    if action == PASS:
        return ()
    play = []
    for part in action.split("; "):
        words = part.split()
        source = BAR if words[3] == BAR else int(words[3])
        play.append((source, dice[0] if words[5] == "higher" else dice[1]))
    return tuple(play)


# ----------------------------------------------------------------- chance
def _opening_outcomes():
    return [(f"Player {p} starts with {h}-{lo}", 1.0 / 30)
            for h in range(2, 7) for lo in range(1, h) for p in (0, 1)]


def _roll_outcomes():
    return [(f"Roll {h}-{lo}", (1.0 if h == lo else 2.0) / 36)
            for h in range(1, 7) for lo in range(1, h + 1)]


# ----------------------------------------------------------------- the game
def make(scoring: str = "winloss", max_turns: int = 500) -> SimpleNamespace:
    """Backgammon with a scoring rule (winloss / gammons / full) and a turn limit."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}; got {scoring!r}")
    if not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer; got {max_turns!r}")

    def get_current_player(state):
        return state["current_player"]

    def get_player_name(player_id):
        return player_name(player_id, ("player 0", "player 1"))

    def get_legal_actions(state):
        player = state["current_player"]
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in get_chance_outcomes(state)]
        return [play_to_action(state["dice"], play) for play in legal_plays(state)]

    def get_chance_outcomes(state):
        return _opening_outcomes() if state["last_mover"] is None else _roll_outcomes()

    def apply_action(state, action):
        if action not in get_legal_actions(state):
            raise ValueError(f"illegal action {action!r} in this state")
        if state["current_player"] == CHANCE:
            return _apply_roll(state, action)
        player, dice = state["current_player"], state["dice"]
        play = action_to_play(dice, action)
        new = {**state, "board": [row[:] for row in state["board"]], "bar": state["bar"][:],
               "off": state["off"][:], "dice": dice[:]}
        for source, die in play:
            new = _move_checker(new, player, source, die)
        new = {**new, "last_mover": player, "rewards": [0.0, 0.0]}
        if not state["second_stage"]:
            new["turns"] = state["turns"] + 1
        if new["off"][player] == CHECKERS:
            stake = _stake(new, 1 - player)
            new.update(current_player=TERMINAL, winner=player, dice=[], second_stage=False)
            new["rewards"] = [stake, -stake] if player == 0 else [-stake, stake]
        elif new["turns"] > max_turns:  # as in OpenSpiel, even before a double's 2nd stage
            new.update(current_player=TERMINAL, dice=[], second_stage=False)
        elif dice[0] == dice[1] and not state["second_stage"] and len(play) == 2:
            new["second_stage"] = True  # same player, same dice
        else:
            new.update(current_player=CHANCE, dice=[], second_stage=False)
        return new

    def _apply_roll(state, action):
        words = action.split()
        high, low = (int(x) for x in words[-1].split("-"))
        player = int(words[1]) if words[0] == "Player" else 1 - state["last_mover"]
        return {**state, "board": [row[:] for row in state["board"]], "bar": state["bar"][:],
                "off": state["off"][:], "dice": [high, low], "current_player": player,
                "rewards": [0.0, 0.0]}

    def _stake(state, loser):
        if scoring == "winloss" or state["off"][loser] > 0:
            return 1.0
        if scoring == "full":
            in_winner_home = any(state["board"][loser][i] for i in _home_points(1 - loser))
            if state["bar"][loser] > 0 or in_winner_home:
                return 3.0
        return 2.0

    def get_rewards(state):
        return list(state["rewards"])

    def get_observations(state):
        return [state, state]

    return SimpleNamespace(
        RULES=_RULES.format(max_turns=max_turns),
        METADATA=_metadata(scoring),
        INITIAL_STATE=INITIAL_STATE,
        get_current_player=get_current_player,
        get_player_name=get_player_name,
        get_legal_actions=get_legal_actions,
        get_chance_outcomes=get_chance_outcomes,
        apply_action=apply_action,
        get_rewards=get_rewards,
        get_observations=get_observations,
    )
