"""LLM-as-policy: the language model picks every move itself (seed 000, App. F baseline).

The model is given the rules, a few example games and its own action-observation
history, and asked for its next move; it is not given the legal moves (like every agent
in the arena). Its reply must end with ``ACTION: <move>`` (see :mod:`ggp.llm.answers`).

When a reply has no readable move, or (with ``validate``) names a move that is illegal in
every state the agent's own model finds consistent with its history, the agent tells the
model so and asks again, up to ``rethinks`` times. After that it gives up: no readable
move raises :class:`LLMPolicyError` (the arena records an ``exception`` forfeit), an
illegal move is returned as it is (an ``illegal`` forfeit). It never substitutes a move of
its own. An error of the LLM layer itself (budget used up, endpoint unreachable after
retries) propagates, which the arena also records as an ``exception`` forfeit. Counts of
all of this are in :attr:`LLMPolicyAgent.stats`.

Registered as ``llm``; e.g. ``ggp play tic_tac_toe --players llm:model_name=gpt-4o-mini,random``
(endpoint, keys and other LLM settings come from the environment or ``config=FILE``).
``llm:backend=exchange:exchange_dir=DIR`` asks through the file-exchange backend (docs/llm.md).
``llm:backend=scripted`` is a fake for dry runs and tests, never a model: its answers are
random legal moves of a state the agent's own model finds consistent with its history
(:func:`legal_move_responder`), labelled scripted like every fake's.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ggp.agents import register_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.belief import sample_state
from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, ObsActionHistory
from ggp.llm import LLM, Completion, LLMError, ScriptedLLM, load_config, make_client
from ggp.llm.answers import match_legal, parse_action

MAX_EXAMPLE_CHARS = 6000
MAX_EXAMPLE_STEPS = 200


class LLMPolicyError(GGPError):
    """The model gave no readable move, even after being asked again."""


class LLMPolicyAgent(Agent):
    """Asks ``llm`` for every move (see module docs).

    * ``examples``: example games as text; None renders ``num_examples`` random games
      played on ``model`` (seeded by ``seed``);
    * ``rethinks``: how many times to ask again after an unreadable or illegal answer;
    * ``validate``: check moves against ``model`` (else any readable move is returned);
    * ``sampling``: keyword arguments for ``llm.complete`` (temperature, max_tokens, ...).
    """

    name = "llm"

    def __init__(
        self,
        model: WorldModel,
        llm: LLM,
        *,
        examples: list[str] | None = None,
        num_examples: int = 5,
        rethinks: int = 2,
        validate: bool = True,
        seed: int = 0,
        sampling: dict[str, Any] | None = None,
    ):
        self.model = model
        self.llm = llm
        self.rethinks = rethinks
        self.validate = validate
        self.sampling = dict(sampling or {})
        self.examples = (
            examples
            if examples is not None
            else [
                render_example(model, random.Random(seed * 7919 + i)) for i in range(num_examples)
            ]
        )
        self.stats: Counter[str] = Counter()
        #: ``seat -> LLM`` when each seat asks its own client (``seat_folders``), else None
        self.client_for_seat: Callable[[int], LLM] | None = None
        #: the history of the decision being asked (what a scripted fake may answer)
        self.history: ObsActionHistory = []

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        if self.client_for_seat is not None:
            self.llm = self.client_for_seat(info.seat)
        self.system_prompt = system_prompt(
            rules=info.rules or self.model.rules,
            game=info.game,
            player=_who(self.model, info.seat),
            examples=self.examples,
        )

    def act(self, history: ObsActionHistory) -> Action:
        self.stats["decisions"] += 1
        self.history = list(history)
        messages = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": turn_prompt(self.info.game, self.info.seat, history)},
        ]
        legal = self._legal_actions(history) if self.validate else None
        move = None
        for attempt in range(self.rethinks + 1):
            if attempt:
                self.stats["rethinks"] += 1
            answer = self._ask(messages)
            move = parse_action(answer.text)
            if move is None:
                self.stats["unparseable"] += 1
                feedback = UNPARSEABLE_FEEDBACK
            elif legal is None or (matched := match_legal(move, legal)) is not None:
                return move if legal is None else matched
            else:
                self.stats["illegal"] += 1
                feedback = ILLEGAL_FEEDBACK.format(move=move)
            messages += [
                {"role": "assistant", "content": answer.text},
                {"role": "user", "content": feedback},
            ]
        if move is None:
            self.stats["gave_up_unparseable"] += 1
            raise LLMPolicyError(
                f"No readable move in {self.rethinks + 1} answer(s) from the model; "
                f"the last answer was {answer.text[:200]!r}."
            )
        self.stats["gave_up_illegal"] += 1
        return move

    def _ask(self, messages: list[dict[str, str]]) -> Completion:
        self.stats["llm_calls"] += 1
        try:
            answer = self.llm.complete(list(messages), **self.sampling)
        except LLMError:
            # Budget used up, endpoint down, ...: the arena records an exception forfeit.
            self.stats["llm_errors"] += 1
            raise
        return answer

    def _legal_actions(self, history: ObsActionHistory) -> list[Action] | None:
        """Legal actions in a state consistent with ``history`` (None if none is found).

        In games with perfect recall of one's own options, every consistent state has the
        same legal actions, so one sample suffices.
        """
        try:
            state = sample_state(self.model, history, self.info.seat, self.rng)
        except BeliefError:
            return None
        return self.model.legal_actions(state)

    def close(self) -> None:
        close = getattr(self.llm, "close", None)
        if close is not None:
            close()


# --------------------------------------------------------------------------- prompts

UNPARSEABLE_FEEDBACK = (
    "I could not find your move in that reply. Please answer again and finish with one "
    "line of the form\nACTION: <move>"
)
ILLEGAL_FEEDBACK = (
    "{move!r} is not a legal move in the current position. Check the rules and your "
    "observation, pick a different move, and finish with one line of the form\nACTION: <move>"
)


def system_prompt(*, rules: str, game: str, player: str, examples: list[str]) -> str:
    """The standing instructions: rules, example games, answer format."""
    parts = [
        f"You are {player} in a game of {game}. Play to maximize your own total reward.",
        f"THE RULES\n{rules.strip() or '(no rules text was provided)'}",
    ]
    if examples:
        shown = "\n\n".join(f"Example game {i + 1}:\n{text}" for i, text in enumerate(examples))
        parts.append(
            "EXAMPLE GAMES\nThese recorded games show, step by step, the full state, who is to "
            "move and the move made. They show how states and moves are written; the moves "
            f"were chosen at random, so do not copy their strategy.\n\n{shown}"
        )
    parts.append(
        "HOW TO ANSWER\nAt each of your turns you will see what you have observed so far and "
        "the moves you made. Reason as much as you like, then end your reply with exactly one "
        "line of the form\nACTION: <move>\nwriting the move exactly as moves are written in "
        "the rules and the example games."
    )
    return "\n\n".join(parts)


def turn_prompt(game: str, seat: int, history: ObsActionHistory) -> str:
    """One decision: the player's action-observation history, the last entry is now."""
    lines = [f"Game: {game}. You are player {seat}. Your turns so far:"]
    for turn, (observation, action) in enumerate(history, start=1):
        if action is None:
            lines.append(f"Turn {turn} (now): you observe {_json(observation)}")
        else:
            lines.append(f"Turn {turn}: you observed {_json(observation)} and played {action}")
    lines.append("Choose your move for the current turn. End with the line ACTION: <move>")
    return "\n".join(lines)


def render_example(model: WorldModel, rng: random.Random) -> str:
    """A random game on ``model`` as text: one line per step, then the returns."""
    state = model.initial_state()
    returns = [0.0] * model.num_players
    lines = []
    for _ in range(MAX_EXAMPLE_STEPS):
        player = model.current_player(state)
        if player == TERMINAL:
            break
        action = (
            model.sample_chance(state, rng)
            if player == CHANCE
            else rng.choice(model.legal_actions(state))
        )
        lines.append(f"state {_json(state)}; {_who(model, player)} plays {action}")
        state = model.apply(state, action)
        returns = [total + r for total, r in zip(returns, model.rewards(state), strict=True)]
    else:
        lines.append("(stopped here: the game is longer)")
    lines.append(f"final state {_json(state)}; returns {returns}")
    text = "\n".join(lines)
    if len(text) > MAX_EXAMPLE_CHARS:
        text = text[:MAX_EXAMPLE_CHARS] + "\n(... the rest of this game is left out)"
    return text


def _who(model: WorldModel, player: int) -> str:
    """``"x (player 0)"``, or just ``"player 0"`` when that is the player's name."""
    name = model.player_name(player)
    return name if name == f"player {player}" else f"{name} (player {player})"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def legal_move_responder(agent: LLMPolicyAgent):
    """A scripted fake's answers for ``agent``: ``ACTION: <move>`` with a random legal move
    of a state its model finds consistent with the decision's history, drawn with the
    agent's match-seeded generator (an unreadable answer when it finds no such state).
    For dry runs and tests of the machinery around the policy; no model is involved."""

    def respond(messages) -> str:
        try:
            state = sample_state(agent.model, agent.history, agent.info.seat, agent.rng)
        except BeliefError:
            return "No state is consistent with this history (scripted)."
        move = agent.rng.choice(agent.model.legal_actions(state))
        return f"A random legal move (scripted).\nACTION: {move}"

    return respond


# --------------------------------------------------------------------------- registry


@register_agent("llm")
def make_llm_agent(
    model: WorldModel,
    model_name: str | None = None,
    backend: str | None = None,
    config: str | None = None,
    run_dir: str | None = None,
    cache: str | None = None,
    max_calls: int | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    examples: int = 5,
    rethinks: int = 2,
    validate: bool = True,
    seed: int = 0,
    exchange_dir: str | None = None,
    exchange_timeout_s: float | None = None,
    seat_folders: bool = False,
) -> LLMPolicyAgent:
    """``llm:model_name=NAME:backend=openai:rethinks=2:examples=5:...``.

    Settings not given here (base URL, API key variable, timeouts, ...) come from the
    config file ``config`` / ``GGP_LLM_CONFIG`` and the ``GGP_LLM_*`` environment
    variables. ``run_dir`` receives the call log (and the cache when ``cache`` is
    ``read-write`` or ``replay``). ``exchange_dir`` (and ``exchange_timeout_s``, default:
    wait forever) set the folder of the exchange backend. ``backend=scripted`` answers
    random legal moves without any model (:func:`legal_move_responder`).

    ``seat_folders=true`` (exchange backend) asks through ``exchange_dir/seatN`` for the
    seat N the agent plays, so one answerer can serve each seat: in duplicate matches
    (the same deals with the seats swapped) an answerer that remembers earlier prompts
    would otherwise have seen the other seat's cards of the same deal.
    """
    if backend == "scripted":
        # the responder needs the agent (its model and history): the LLM is set after it
        agent = LLMPolicyAgent(model, None, num_examples=examples, rethinks=rethinks,
                               validate=validate, seed=seed)
        agent.llm = ScriptedLLM(legal_move_responder(agent))
        return agent
    settings = load_config(
        config,
        model=model_name,
        backend=backend,
        cache_mode=cache,
        max_calls=max_calls,
        temperature=temperature,
        max_tokens=max_tokens,
        exchange_dir=exchange_dir,
        exchange_timeout_s=exchange_timeout_s,
    )
    if settings.backend != "exchange" and not settings.model:
        raise GGPError(
            "llm agent: no model chosen. Name one in the spec, e.g. "
            "'llm:backend=ollama:model_name=llama3.2' (backends: openai, anthropic, "
            "google, ollama, vllm, lmstudio, exchange with exchange_dir=DIR) or set "
            "GGP_LLM_BACKEND and GGP_LLM_MODEL (docs/llm.md); 'llm:backend=scripted' plays "
            "random legal moves without any model.")
    if not seat_folders:
        client = make_client(settings, run_dir=run_dir)
        return LLMPolicyAgent(
            model, client, num_examples=examples, rethinks=rethinks, validate=validate,
            seed=seed)
    if settings.backend != "exchange" or not settings.exchange_dir:
        raise GGPError("llm: seat_folders=true needs backend=exchange and exchange_dir.")
    agent = LLMPolicyAgent(model, None, num_examples=examples, rethinks=rethinks,
                           validate=validate, seed=seed)

    def client_for_seat(seat: int) -> LLM:
        # a new client per match, as without seat_folders (the arena builds an agent per
        # match): an identical request in a later match reuses the folder's answer
        agent.close()
        folder = str(Path(settings.exchange_dir) / f"seat{seat}")
        return make_client(dataclasses.replace(settings, exchange_dir=folder), run_dir=run_dir)

    agent.client_for_seat = client_for_seat
    return agent
