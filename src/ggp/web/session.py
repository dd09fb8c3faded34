"""One match between a person on the web page and agents.

The match is an ordinary :func:`ggp.arena.match.play_match` in a background thread. The
person's seat is a :class:`WebHuman` agent: like the terminal ``human`` agent it gets only
its own action-observation history and works out its legal moves from a state consistent
with that history; it then waits for the page's answer. :meth:`PlaySession.view` is the
only thing the page ever receives, and it is built from that seat's history alone: never
from the true state, other players' observations or chance outcomes.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from typing import Any

from ggp.agents import Agent
from ggp.agents.human import HumanAgent
from ggp.arena.match import play_match, seed_global_generators
from ggp.core.errors import GGPError
from ggp.core.protocol import Action, ObsActionHistory
from ggp.render import outcome_text, render
from ggp.web.games import OpenGame, make_seat_agent

_QUIT = object()
log = logging.getLogger("ggp.web")


class MatchAbandoned(GGPError):
    """The person left the match."""


class WebHuman(HumanAgent):
    """The person's seat: publishes the decision point to the session, waits for a move."""

    name = "human"

    def __init__(self, game: OpenGame, session: PlaySession) -> None:
        super().__init__(game.model)
        self.session = session
        self.moves: queue.Queue = queue.Queue()

    def act(self, history: ObsActionHistory) -> Action:
        legal = self.legal_moves(history)
        self.session._decide(history, legal)
        move = self.moves.get()
        if move is _QUIT:
            raise MatchAbandoned("the person left the match")
        return move


class _Watched(Agent):
    """An opponent whose thinking time the page shows."""

    def __init__(self, inner: Agent, seat: int, session: PlaySession) -> None:
        self.inner, self.seat, self.session = inner, seat, session
        self.name = inner.name

    def observe_true_state(self, state) -> None:
        self.inner.observe_true_state(state)  # a no-op but for cheating baselines

    def start(self, info) -> None:
        self.inner.start(info)
        self.name = self.inner.name

    def act(self, history: ObsActionHistory) -> Action:
        self.session._thinking(self.seat, time.monotonic())
        try:
            return self.inner.act(history)
        finally:
            self.session._thinking(None, 0.0)

    def end(self, history, returns) -> None:
        self.inner.end(history, returns)

    def close(self) -> None:
        self.inner.close()


class PlaySession:
    """A person in seat ``seat`` of ``game`` against ``opponents`` (one spec per other
    seat, in seat order). Starts playing at once in a background thread."""

    def __init__(self, game: OpenGame, seat: int, opponents: list[str], *, seed: int = 0,
                 sandbox: bool = False, move_seconds: float = 60.0) -> None:
        n = game.model.num_players
        if not 0 <= seat < n:
            raise GGPError(f"{game.label} has seats 0..{n - 1}; seat {seat} does not exist.")
        if len(opponents) != n - 1:
            raise GGPError(f"{game.label} has {n} players: pick {n - 1} opponent(s), "
                           f"not {len(opponents)}.")
        self.id = uuid.uuid4().hex[:12]
        self.game, self.seat, self.seed = game, seat, seed
        self._lock = threading.Lock()
        self.human = WebHuman(game, self)
        agents: list[Agent] = []
        specs = list(opponents)
        try:
            for s in range(n):
                if s == seat:
                    agents.append(self.human)
                else:
                    inner = make_seat_agent(specs.pop(0), game, sandbox=sandbox,
                                            move_seconds=move_seconds)
                    agents.append(_Watched(inner, s, self))
        except Exception:
            for agent in agents:
                agent.close()
            raise
        self.agents = agents
        # asked once, before the match thread shares a hosted model's worker pipe
        self.names = [self._ask_name(s) for s in range(n)]
        self.rules = self._ask_rules()
        self._history: ObsActionHistory = []
        self._legal: list[str] = []
        self._thinker: tuple[int | None, float] = (None, 0.0)
        self._status = "starting"
        self._returns: list[float] | None = None
        self._forfeit: dict[str, Any] | None = None
        self._final_obs: Any = None
        self._error = ""
        self._steps: list[dict[str, Any]] = []  # the true record: server side only
        self.thread = threading.Thread(target=self._run, name=f"ggp-web-{self.id}",
                                       daemon=True)
        self.thread.start()

    # ---------------------------------------------------------- called by the match
    def _decide(self, history: ObsActionHistory, legal: list[str]) -> None:
        with self._lock:
            self._history = [(obs, action) for obs, action in history]
            self._legal = list(legal)
            self._status = "your_turn"

    def _thinking(self, seat: int | None, since: float) -> None:
        with self._lock:
            self._thinker = (seat, since)
            if seat is not None:
                self._status = "thinking"

    def _run(self) -> None:
        model = self.game.model
        try:
            seed_global_generators(self.seed)
            result = play_match(model, self.agents, seed=self.seed,
                                on_step=self._steps.append)
            final = (model.apply(self._steps[-1]["state"], self._steps[-1]["action"])
                     if self._steps else model.initial_state())
            final_obs = model.observation(final, self.seat)
            with self._lock:
                self._returns = list(result.returns)
                if result.forfeit is not None:
                    f = result.forfeit
                    # another seat's failure detail may quote what it knew (a clairvoyant
                    # baseline knows the true state): only the reason reaches the page
                    detail = f.detail if f.player == self.seat else ""
                    self._forfeit = {"player": f.player, "reason": f.reason, "detail": detail}
                    if f.player != self.seat:
                        log.warning("match %s: seat %d forfeits (%s): %s", self.id, f.player,
                                    f.reason, f.detail)
                self._final_obs = final_obs
                self._status = "over"
        except Exception as exc:  # noqa: BLE001 - the server goes on
            # the message may quote a state (a model's failure): it goes to the log only
            log.error("match %s (%s) stopped: %s: %s", self.id, self.game.label,
                      type(exc).__name__, exc)
            with self._lock:
                self._error = (f"{type(exc).__name__} in the game or an agent (the details "
                               "are in the server's log: they may show hidden state)")
                self._status = "error"
        finally:
            for agent in self.agents:
                agent.close()

    # ---------------------------------------------------------- called by the page
    def move(self, action: str) -> None:
        """The person's move; refused unless it is their turn and the move is legal."""
        with self._lock:
            if self._status != "your_turn":
                raise GGPError("It is not your turn.")
            if action not in self._legal:
                raise GGPError(f"{action!r} is not a legal move here.")
            self._history[-1] = (self._history[-1][0], action)
            self._status = "waiting"
        self.human.moves.put(action)

    def quit(self) -> None:
        self.human.moves.put(_QUIT)

    @property
    def labels(self) -> list[str]:
        """``you`` and the agents' names (a sandboxed agent's name arrives at its start)."""
        return ["you" if s == self.seat else a.name for s, a in enumerate(self.agents)]

    def view(self) -> dict[str, Any]:
        """Everything the page shows: the person's own observations and moves, their legal
        moves, who is thinking for how long, and the returns at the end."""
        labels = self.labels
        with self._lock:
            history = list(self._history)
            status = self._status
            thinker, since = self._thinker
            final_obs = self._final_obs
            out: dict[str, Any] = {
                "id": self.id, "game": self.game.label, "seat": self.seat,
                "seat_name": self.names[self.seat],
                "players": [{"seat": s, "name": self.names[s], "agent": label}
                            for s, label in enumerate(labels)],
                "status": status, "returns": self._returns, "forfeit": self._forfeit,
                "error": self._error, "legal": self._legal if status == "your_turn" else [],
                "rules": self.rules,
                "outcome": (outcome_text(self._returns, self.seat)
                            if status == "over" and self._returns else ""),
            }
        current = final_obs if status == "over" else (history[-1][0] if history else None)
        out["observation"] = current
        out["view"] = None if current is None else render(current, self.game.render_as)
        past = history if status == "over" else history[:-1]
        out["history"] = [{"observation": obs, "action": action} for obs, action in past
                          if action is not None]
        if thinker is not None and status == "thinking":
            # agents in workers (sandboxed, CWM agents) are killed at their deadline
            limit = getattr(self.agents[thinker].inner, "move_seconds", None)
            out["thinking"] = {"seat": thinker, "agent": labels[thinker],
                               "seconds": round(time.monotonic() - since, 1),
                               "limit": limit if isinstance(limit, (int, float)) else None}
        return out

    def _ask_rules(self) -> str:
        """The game's rules text for the page's rules panel ("" when it has none)."""
        try:
            return str(getattr(self.game.model, "rules", "") or "")
        except Exception:  # noqa: BLE001 - a hosted model may fail; no panel then
            return ""

    def _ask_name(self, seat: int) -> str:
        try:
            return str(self.game.model.player_name(seat))
        except Exception:  # noqa: BLE001 - a hosted model may fail; the seat number will do
            return f"player {seat}"

    def close(self) -> None:
        self.quit()
        self.thread.join(timeout=5.0)
        self.game.close()
