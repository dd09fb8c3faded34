"""Any OpenSpiel game as a ggp world model.

``openspiel_model("leduc_poker")`` (or ``load_model("openspiel:leduc_poker")``) wraps a
pyspiel game in the world-model protocol:

* a state is the JSON dict ``{"history": [action ids], "text": str(state),
  "rewards": [...]}``; the pyspiel state behind it is rebuilt from the history when needed
  and kept in a bounded cache, so walking a search tree rarely replays anything;
* actions are OpenSpiel's ``action_to_string`` texts (chance outcomes included, with their
  probabilities); when two legal actions share a text, both get their id appended
  (``"text [id]"``) so names stay unique;
* observations: in perfect-information games the state itself (the protocol convention);
  otherwise ``{"observation": observation_string, "information_state":
  information_state_string}`` with the keys the game provides, plus the game's own
  tensor as a list of floats under ``"information_state_tensor"`` (preferred: perfect
  recall) or ``"observation_tensor"`` when the game provides one (what
  :class:`ggp.env.tensors.OpenSpielEncoder` feeds a network);
* simultaneous-move games are played through ``pyspiel.convert_to_turn_based``: players
  choose one after the other and a later player does not see an earlier pending choice;
* the reward of a step is the change of ``returns()``, so games with intermediate rewards
  work too.

Games with sampled (implicit) chance cannot be replayed from their history and are refused.
"""

from __future__ import annotations

import difflib
from collections import OrderedDict
from typing import Any

from ggp.core.errors import ModelLoadError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, GameMetadata, Observation, State

PREFIX = "openspiel:"


class _Entry:
    """A cached pyspiel state with its acting player and (once asked) its legal actions."""

    __slots__ = ("os_state", "player", "_ids")

    def __init__(self, os_state: Any) -> None:
        self.os_state = os_state
        if os_state.is_terminal():
            self.player = TERMINAL
        elif os_state.is_chance_node():
            self.player = CHANCE
        else:
            self.player = os_state.current_player()
        self._ids: dict[str, int] | None = None

    def action_ids(self) -> dict[str, int]:
        """Legal actions as ``{unique name: id}``."""
        if self._ids is None:
            os_state = self.os_state
            if self.player == TERMINAL:
                ids = []
            elif self.player == CHANCE:
                ids = [a for a, _ in os_state.chance_outcomes()]
            else:
                ids = os_state.legal_actions()
            names = [os_state.action_to_string(self.player, a) for a in ids]
            if len(set(names)) < len(names):
                clash = {n for n in names if names.count(n) > 1}
                names = [f"{n} [{a}]" if n in clash else n for n, a in zip(names, ids)]
            self._ids = dict(zip(names, ids))
        return self._ids


class OpenSpielGame:
    """The protocol functions over one pyspiel game (the namespace a WorldModel wraps)."""

    def __init__(self, game_string: str, *, cache_size: int = 50_000) -> None:
        import pyspiel

        name = game_string.split("(", 1)[0].strip()
        if name.startswith("python_"):
            import open_spiel.python.games  # noqa: F401 - registers the python_* games
        known = pyspiel.registered_names()
        if name not in known:
            close = difflib.get_close_matches(name, known, n=3)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            raise ModelLoadError(
                f"OpenSpiel has no game {name!r}.{hint} pyspiel.registered_names() lists "
                "them; parameters go in parentheses, e.g. 'goofspiel(num_cards=4)'."
            )
        try:
            game = pyspiel.load_game(game_string)
        except pyspiel.SpielError as exc:
            raise ModelLoadError(f"OpenSpiel cannot load {game_string!r}: {exc}") from exc
        kind = game.get_type()
        if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            raise ModelLoadError(
                f"{game_string!r} samples its chance events internally, so its states cannot "
                "be rebuilt from their action history; it cannot be used as a world model."
            )
        simultaneous = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        if simultaneous:
            game = pyspiel.convert_to_turn_based(game)
        self.game = game
        self.game_string = game_string
        self._perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        turn_kind = game.get_type()
        self._obs = turn_kind.provides_observation_string
        self._info = turn_kind.provides_information_state_string
        # one tensor for RL (ggp.env): the information state's when there is one
        self.tensor_kind = ("information_state" if turn_kind.provides_information_state_tensor
                            else "observation" if turn_kind.provides_observation_tensor
                            else None)
        self._cache: OrderedDict[tuple[int, ...], _Entry] = OrderedDict()
        self._cache_size = cache_size
        n = game.num_players()
        self.METADATA = _metadata(game_string, kind, game, simultaneous)
        self.RULES = (
            f"{kind.long_name}, as implemented by OpenSpiel ({game_string}), for {n} players. "
            "Actions and observations are OpenSpiel's own strings."
            + (" Simultaneous moves are taken one player after the other; a player does not "
               "see the pending choices of those before it." if simultaneous else "")
        )
        root = game.new_initial_state()
        self.INITIAL_STATE = self._encode(root, [0.0] * n)
        self._remember(root)

    # ---------------------------------------------------------------- protocol
    def get_current_player(self, state: State) -> int:
        return self._entry(state).player

    @staticmethod
    def get_player_name(player_id: int) -> str:
        return {CHANCE: "chance", TERMINAL: "terminal"}.get(player_id, f"player {player_id}")

    def get_legal_actions(self, state: State) -> list[Action]:
        return list(self._entry(state).action_ids())

    def get_chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        entry = self._entry(state)
        names = {i: name for name, i in entry.action_ids().items()}
        return [(names[a], float(p)) for a, p in entry.os_state.chance_outcomes()]

    def apply_action(self, state: State, action: Action) -> State:
        entry = self._entry(state)
        ids = entry.action_ids()
        if action not in ids:
            raise ValueError(f"{action!r} is not legal here; legal: {sorted(ids)}")
        child = entry.os_state.clone()
        child.apply_action(ids[action])
        before, after = entry.os_state.returns(), child.returns()
        self._remember(child)
        return self._encode(child, [a - b for a, b in zip(after, before)])

    @staticmethod
    def get_rewards(state: State) -> list[float]:
        return list(state["rewards"])

    def get_observations(self, state: State) -> list[Observation]:
        n = self.game.num_players()
        if self._perfect:
            return [state] * n
        os_state = self.pyspiel_state(state)
        return [self._observation(os_state, p) for p in range(n)]

    # ---------------------------------------------------------------- helpers
    def pyspiel_state(self, state: State) -> Any:
        """The pyspiel state behind ``state`` (shared: clone it before changing it)."""
        return self._entry(state).os_state

    def _entry(self, state: State) -> _Entry:
        key = tuple(state["history"])
        entry = self._cache.get(key)
        if entry is not None:
            self._cache.move_to_end(key)
            return entry
        os_state = self.game.new_initial_state()
        for action_id in key:
            os_state.apply_action(action_id)
        return self._remember(os_state)

    def _remember(self, os_state: Any) -> _Entry:
        entry = _Entry(os_state)
        self._cache[tuple(os_state.history())] = entry
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return entry

    @staticmethod
    def _encode(os_state: Any, rewards: list[float]) -> State:
        return {"history": list(os_state.history()), "text": str(os_state),
                "rewards": [float(r) for r in rewards]}

    def _observation(self, os_state: Any, player: int) -> Observation:
        obs: Observation = {}
        if self._obs:
            obs["observation"] = os_state.observation_string(player)
        if self._info:
            obs["information_state"] = os_state.information_state_string(player)
        if self.tensor_kind is not None:
            try:
                tensor = getattr(os_state, self.tensor_kind + "_tensor")(player)
            except Exception:  # noqa: BLE001 - a game that has no tensor at this state:
                return obs     # the observation stays usable; only an RL encoder misses it
            obs[self.tensor_kind + "_tensor"] = [float(x) for x in tensor]
        return obs

    def tensor(self, state: State, player: int) -> list[float] | None:
        """The game's own tensor for ``player`` at ``state`` (information state's when
        the game has one, else observation's), or None when it has neither."""
        if self.tensor_kind is None:
            return None
        os_state = self.pyspiel_state(state)
        if player < 0:  # perfect-information views at chance/terminal: seat 0's
            player = 0
        return [float(x) for x in getattr(os_state, self.tensor_kind + "_tensor")(player)]


def _metadata(game_string: str, kind: Any, game: Any, simultaneous: bool) -> GameMetadata:
    import pyspiel

    zero_sum = kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    low, high = game.min_utility(), game.max_utility()
    # OpenSpiel does not say whether a game is win/loss/draw; two-player zero-sum games
    # with returns in [-1, 1] nearly always are.
    wld = zero_sum and game.num_players() == 2 and (low, high) == (-1.0, 1.0)
    return GameMetadata(
        num_players=game.num_players(),
        min_utility=low,
        max_utility=high,
        zero_sum=zero_sum,
        outcome="win_loss_draw" if wld else "payoff",
        perfect_information=kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION,
        chance=kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC,
        simultaneous=simultaneous,
        openspiel=game_string,
        source=f"OpenSpiel {kind.short_name}",
    )


def openspiel_model(game_string: str) -> WorldModel:
    """A (trusted) world model of the OpenSpiel game ``game_string``, e.g.
    ``"leduc_poker"`` or ``"goofspiel(num_cards=4,imp_info=True)"``.

    Raises :class:`ggp.core.errors.ModelLoadError` when OpenSpiel is missing or cannot
    load the game.
    """
    game_string = game_string.removeprefix(PREFIX)
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:
        raise ModelLoadError(
            "OpenSpiel games need the openspiel extra: pip install 'ggp[openspiel]'."
        ) from exc
    namespace = OpenSpielGame(game_string)
    return WorldModel(namespace, name=PREFIX + game_string, trusted=True)
