"""Agents and the registry that builds them from specs such as ``"mcts:sims=200"``.

A spec is a registered agent name followed by ``:key=value`` settings. Every module in
this package may register factories with :func:`register_agent`; a factory receives the
world model the agent should plan with and the settings as keyword arguments.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import typing
from functools import cache
from typing import Callable

from ggp.agents.base import Agent, MatchInfo
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.registry import parse_value

AgentFactory = Callable[..., Agent]
_FACTORIES: dict[str, AgentFactory] = {}

__all__ = ["Agent", "MatchInfo", "agent_names", "check_spec", "make_agent", "register_agent"]


class AgentSpecError(GGPError):
    """An agent spec names an unknown agent or a bad setting."""


def register_agent(name: str) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator registering ``factory(model, **settings) -> Agent`` under ``name``."""

    def decorate(factory: AgentFactory) -> AgentFactory:
        _FACTORIES[name] = factory
        return factory

    return decorate


@cache
def _load_agent_modules() -> None:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


def agent_names() -> list[str]:
    _load_agent_modules()
    return sorted(_FACTORIES)


def parse_agent_spec(spec: str) -> tuple[str, dict]:
    """``"mcts:sims=100:rollouts=1"`` -> ``("mcts", {"sims": 100, "rollouts": 1})``."""
    name, *items = spec.strip().split(":")
    settings = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise AgentSpecError(f"Agent setting {item!r} in {spec!r} needs the form key=value.")
        settings[key.strip()] = parse_value(value.strip())
    return name.strip(), settings


def make_agent(spec: str, model: WorldModel) -> Agent:
    """Build the agent described by ``spec``, planning with ``model``."""
    name, settings = check_spec(spec)
    try:
        return _FACTORIES[name](model, **settings)
    except ValueError as exc:  # a setting out of its range, e.g. rollouts=0
        raise AgentSpecError(f"Agent spec {spec!r}: {exc}.") from exc


def check_spec(spec: str) -> tuple[str, dict]:
    """Parse ``spec`` and check it names a registered agent with settings it takes, each
    of the right kind: whole numbers for ``int`` settings, finite numbers for ``float``
    ones, neither negative, ``true``/``false`` for ``bool`` ones. Raises
    :class:`AgentSpecError` with a one-line reason."""
    _load_agent_modules()
    name, settings = parse_agent_spec(spec)
    if name not in _FACTORIES:
        raise AgentSpecError(
            f"Unknown agent {name!r}. Known agents: {', '.join(agent_names())}."
        )
    factory = _FACTORIES[name]
    accepted = inspect.signature(factory).parameters
    unknown = [k for k in settings if k not in accepted]
    if unknown:
        options = [p for p in accepted if p != "model"]
        raise AgentSpecError(
            f"Agent {name!r} has no setting {', '.join(unknown)}; its settings are: "
            f"{', '.join(options) or 'none'}."
        )
    try:
        hints = typing.get_type_hints(factory)
    except Exception:  # noqa: BLE001 - unresolvable hints: judge by the defaults alone
        hints = {}
    for key, value in settings.items():
        default = accepted[key].default
        kind = hints.get(key, type(default) if default is not inspect.Parameter.empty
                         else None)
        problem = _setting_problem(kind, value)
        if problem:
            raise AgentSpecError(f"Agent {name!r}: setting {key}={value!r} {problem} "
                                 f"(in {spec!r}).")
    return name, settings


def _setting_problem(kind: object, value: object) -> str:
    if kind is bool:
        return "" if isinstance(value, bool) else "must be true or false"
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be a whole number"
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "must be a number"
        if not math.isfinite(value):
            return "must be a finite number"
    else:
        return ""
    return "must not be negative" if value < 0 else ""
