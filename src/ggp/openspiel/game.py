"""Any ggp world model as a registered pyspiel (Python) game.

``register_world_model(model, "ggp_kuhn")`` registers the model with
``pyspiel.register_game`` and returns the loaded ``pyspiel.Game``, so OpenSpiel's
tree-walking algorithms (CFR, CFR+, best response, exploitability, policy evaluation)
run on it:

* **action ids**: OpenSpiel actions are integers. Player actions are numbered by sorting
  their names; chance outcomes have their own numbering (OpenSpiel keeps the two apart).
  Names come from exploring the whole reachable game tree (small games), or from the
  lists the caller passes (``actions=``, ``chance_actions=``, ``max_game_length=``).
* **information states**: ``information_state_string(p)`` is the canonical JSON of player
  ``p``'s obs-action history ending with its current observation, so two histories share an
  information state exactly when ``p`` observed and did the same (perfect recall).
  ``observation_string(p)`` is the canonical JSON of the current observation.
* **tensors** (so ``rl_environment``, DQN, NFSP and other learners run): the
  observation tensor is the ggp encoding of the current observation (the source's own
  encoder where it has one — OpenSpiel tensors, GDL facts — else the schema encoder
  with overflow slots, :mod:`ggp.env.encoding`); the information-state tensor encodes the
  same obs-action history as the information-state string with a schema fitted on random
  games' histories (longer histories than seen are cut and counted, never an error).
  Both are fitted once at registration (``tensor_games`` random games; 0 turns tensors
  off, and then asking for one raises instead of returning ``[]``).
* ``max_game_length`` counts player moves only (chance outcomes are not moves), as
  OpenSpiel's own games do.
* **speed**: every pyspiel state points at a node of a tree shared by the whole game; a
  node's children are computed once and kept (``memoize=True``), so after the first CFR
  iteration the model is not called again. Cloning a state copies two references.

Limits: tree-walking algorithms only. OpenSpiel's C++ bots (MCTS, ISMCTS) crash or fail
on Python games (``shared/research/openspiel.md`` §4); use ggp's own search for those.
Simultaneous moves are already sequential in ggp models, so the game is SEQUENTIAL.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, State, canonical_json


class GameTooLargeError(GGPError):
    """Exploring the game tree to name every action hit the node limit."""


class _Shared:
    """Base for objects that pyspiel's state clone (a deepcopy) must share, not copy."""

    def __deepcopy__(self, memo: dict) -> Any:
        return self


class _Node(_Shared):
    """One history of the game: the model state, what each player has seen and done, and
    (once visited) its legal actions and children."""

    __slots__ = ("state", "player", "legal", "chance", "returns", "histories", "children",
                 "_info")

    def __init__(self, state: State, player: int, returns: tuple[float, ...],
                 histories: tuple[tuple[tuple[Any, Action], ...], ...]) -> None:
        self.state = state
        self.player = player
        self.returns = returns
        self.histories = histories  # per player: ((observation, action), ...) so far
        self.legal: list[int] = []
        self.chance: list[tuple[int, float]] = []
        self.children: dict[int, _Node] = {}
        self._info: dict[int, str] = {}


class ActionIndex:
    """The two numberings: player actions and chance outcomes, by name and by id."""

    def __init__(self, actions: list[Action], chance_actions: list[Action]) -> None:
        self.actions = sorted(set(actions))
        self.chance_actions = sorted(set(chance_actions))
        self.action_id = {a: i for i, a in enumerate(self.actions)}
        self.chance_id = {a: i for i, a in enumerate(self.chance_actions)}

    def name(self, player: int, action_id: int) -> Action:
        return (self.chance_actions if player == CHANCE else self.actions)[action_id]

    def id(self, player: int, action: Action) -> int:
        table = self.chance_id if player == CHANCE else self.action_id
        if action not in table:
            kind = "chance outcome" if player == CHANCE else "action"
            raise GGPError(f"The {kind} {action!r} has no OpenSpiel id: it was not among the "
                           "names explored or passed to register_world_model.")
        return table[action]


class GameTree(_Shared):
    """The lazily built tree of one world model, shared by all its pyspiel states."""

    def __init__(self, model: WorldModel, index: ActionIndex, memoize: bool = True) -> None:
        self.model = model
        self.index = index
        self.memoize = memoize
        n = model.num_players
        self.root = self._node(model.initial_state(), (0.0,) * n, ((),) * n)

    def _node(self, state: State, returns: tuple[float, ...], histories: tuple) -> _Node:
        model = self.model
        player = model.current_player(state)
        node = _Node(state, player, returns, histories)
        if player == CHANCE:
            node.chance = sorted((self.index.id(CHANCE, a), p)
                                 for a, p in model.chance_outcomes(state))
        elif player != TERMINAL:
            node.legal = sorted(self.index.id(player, a) for a in model.legal_actions(state))
        return node

    def child(self, node: _Node, action_id: int) -> _Node:
        found = node.children.get(action_id)
        if found is not None:
            return found
        model, player = self.model, node.player
        action = self.index.name(player, action_id)
        state = model.apply(node.state, action)
        rewards = model.rewards(state)
        histories = node.histories
        if player >= 0:
            seen = model.observation(node.state, player)
            histories = tuple(h + ((seen, action),) if p == player else h
                              for p, h in enumerate(histories))
        child = self._node(state, tuple(r + x for r, x in zip(node.returns, rewards)),
                           histories)
        if self.memoize:
            node.children[action_id] = child
        return child

    def information_state(self, node: _Node, player: int) -> str:
        text = node._info.get(player)
        if text is None:
            now = self.model.observation(node.state, player)
            history = [[obs, action] for obs, action in node.histories[player]]
            text = canonical_json(history + [[now, None]])
            node._info[player] = text
        return text

    def observation(self, node: _Node, player: int) -> str:
        return canonical_json(self.model.observation(node.state, player))


def explore_actions(model: WorldModel, max_nodes: int = 2_000_000) -> dict[str, Any]:
    """Walk every reachable state once (states are merged by canonical JSON).

    Returns the sorted player action names and chance outcome names, the longest game
    (in player moves; chance outcomes not counted) and the lowest and highest return of
    each player.
    Raises :class:`GameTooLargeError` past ``max_nodes`` distinct states.
    """
    actions: set[Action] = set()
    chance: set[Action] = set()
    n = model.num_players
    memo: dict[str, tuple[int, list[float], list[float]]] = {}

    def visit(state: State) -> tuple[int, list[float], list[float]]:
        key = canonical_json(state)
        if key in memo:
            return memo[key]
        if len(memo) >= max_nodes:
            raise GameTooLargeError(
                f"{model.name} has more than {max_nodes} states; pass actions=, "
                "chance_actions= and max_game_length= to register_world_model instead.")
        player = model.current_player(state)
        depth, low, high = 0, [0.0] * n, [0.0] * n
        if player != TERMINAL:
            legal = model.legal_actions(state)
            (chance if player == CHANCE else actions).update(legal)
            low, high, depth = [float("inf")] * n, [float("-inf")] * n, 0
            for action in legal:
                child = model.apply(state, action)
                reward = model.rewards(child)
                d, lo, hi = visit(child)
                depth = max(depth, d + (player != CHANCE))
                low = [min(a, r + b) for a, r, b in zip(low, reward, lo)]
                high = [max(a, r + b) for a, r, b in zip(high, reward, hi)]
        memo[key] = (depth, low, high)
        return memo[key]

    try:
        depth, low, high = visit(model.initial_state())
    except RecursionError:
        raise GameTooLargeError(
            f"{model.name} is too deep to explore; pass actions=, chance_actions= and "
            "max_game_length= to register_world_model instead.") from None
    return {"actions": sorted(actions), "chance_actions": sorted(chance),
            "max_game_length": depth, "min_returns": low, "max_returns": high}


class WorldModelState(pyspiel.State):
    """A pyspiel state: a pointer into the shared :class:`GameTree`."""

    def __init__(self, game: Any, tree: GameTree) -> None:
        super().__init__(game)
        self._tree = tree
        self._node = tree.root

    def current_player(self) -> int:
        return self._node.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._node.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._node.chance)

    def _apply_action(self, action: int) -> None:
        self._node = self._tree.child(self._node, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._tree.index.name(player, action)

    def is_terminal(self) -> bool:
        return self._node.player == TERMINAL

    def returns(self) -> list[float]:
        return list(self._node.returns)

    def world_model_state(self) -> State:
        """The ggp state behind this pyspiel state."""
        return self._node.state

    def __str__(self) -> str:
        return canonical_json(self._node.state)


class Tensors:
    """The fitted encoders behind the observer's tensors (see the module doc)."""

    def __init__(self, model: WorldModel, games: int, seed: int = 0) -> None:
        from ggp.env.encoding import SchemaEncoder
        from ggp.env.samples import random_play_samples
        from ggp.env.tensors import native_encoder

        samples = random_play_samples(model, games, seed)
        self.observation = (native_encoder(model, samples.observations, samples.actions)
                            or SchemaEncoder.fit(samples.observations, unknown="overflow"))
        rng = random.Random(seed)
        histories = []
        n = model.num_players
        for _ in range(games):  # the histories GameTree.child builds, on random games
            state, seen = model.initial_state(), [[] for _ in range(n)]
            for _ in range(10_000):
                for p in range(n):
                    histories.append(seen[p] + [[model.observation(state, p), None]])
                player = model.current_player(state)
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    action = model.sample_chance(state, rng)
                else:
                    action = rng.choice(model.legal_actions(state))
                    seen[player] = seen[player] + [[model.observation(state, player), action]]
                state = model.apply(state, action)
        self.history = SchemaEncoder.fit(histories, unknown="overflow")

    def observation_tensor(self, tree: "GameTree", node: "_Node", player: int) -> np.ndarray:
        obs = tree.model.observation(node.state, player)
        return np.clip(self.observation.encode(obs), self.observation.low,
                       self.observation.high)

    def information_state_tensor(self, tree: "GameTree", node: "_Node",
                                 player: int) -> np.ndarray:
        now = tree.model.observation(node.state, player)
        history = [[obs, action] for obs, action in node.histories[player]] + [[now, None]]
        return np.clip(self.history.encode(history), self.history.low, self.history.high)


class _Observer:
    """pyspiel's observer interface: strings, and tensors when the game was registered
    with them (asking for a tensor otherwise raises)."""

    def __init__(self, tree: GameTree, perfect_recall: bool,
                 tensors: "Tensors | None") -> None:
        self.tree = tree
        self.perfect_recall = perfect_recall
        self.tensors = tensors
        size = 0
        if tensors is not None:
            encoder = tensors.history if perfect_recall else tensors.observation
            size = encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        if self.tensors is None:
            raise GGPError("this ggp game was registered without tensors "
                           "(register_world_model(..., tensor_games=0))")
        if self.perfect_recall:
            values = self.tensors.information_state_tensor(self.tree, state._node, player)
        else:
            values = self.tensors.observation_tensor(self.tree, state._node, player)
        self.tensor[:] = values

    def string_from(self, state: Any, player: int) -> str:
        if self.perfect_recall:
            return self.tree.information_state(state._node, player)
        return self.tree.observation(state._node, player)


def register_world_model(
    model: WorldModel,
    short_name: str,
    *,
    actions: list[Action] | None = None,
    chance_actions: list[Action] | None = None,
    max_game_length: int | None = None,
    memoize: bool = True,
    max_nodes: int = 2_000_000,
    tensor_games: int = 100,
) -> Any:
    """Register ``model`` as the pyspiel game ``short_name`` and return it loaded.

    Without ``actions`` the reachable tree is explored to name every action (fine for
    Kuhn, Leduc and other small games); for larger games pass ``actions`` (every player
    action name), ``chance_actions`` (every chance outcome name) and ``max_game_length``.
    Registering the same ``short_name`` again replaces the earlier game. Tensors are
    fitted on ``tensor_games`` random games (0: strings only; see the module doc).
    """
    meta = model.metadata
    low, high = meta.min_utility, meta.max_utility
    if actions is None:
        found = explore_actions(model, max_nodes=max_nodes)
        actions, chance_actions = found["actions"], found["chance_actions"]
        max_game_length = found["max_game_length"]
        low, high = min(found["min_returns"]), max(found["max_returns"])
    if max_game_length is None:
        raise GGPError("register_world_model: with actions= also pass max_game_length=.")
    index = ActionIndex(actions, chance_actions or [])
    tree = GameTree(model, index, memoize)
    tensors = Tensors(model, tensor_games) if tensor_games > 0 else None
    kind = pyspiel.GameType
    game_type = kind(
        short_name=short_name,
        long_name=f"ggp world model {model.name}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=(kind.ChanceMode.EXPLICIT_STOCHASTIC if index.chance_actions
                     else kind.ChanceMode.DETERMINISTIC),
        information=(kind.Information.PERFECT_INFORMATION if meta.perfect_information
                     else kind.Information.IMPERFECT_INFORMATION),
        utility=kind.Utility.ZERO_SUM if meta.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=model.num_players,
        min_num_players=model.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors is not None,
        provides_observation_string=True,
        provides_observation_tensor=tensors is not None,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=max(1, len(index.actions)),
        max_chance_outcomes=len(index.chance_actions),
        num_players=model.num_players,
        min_utility=float(low),
        max_utility=float(high),
        utility_sum=0.0 if meta.zero_sum else None,
        max_game_length=max(1, max_game_length),
    )

    class WorldModelGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> WorldModelState:
            return WorldModelState(self, tree)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(tree, bool(iig_obs_type and iig_obs_type.perfect_recall),
                             tensors)

    pyspiel.register_game(game_type, WorldModelGame)
    return pyspiel.load_game(short_name)
