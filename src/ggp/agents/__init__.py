"""Agents and the registry that builds them from specs such as ``"mcts:sims=200"``.

A spec is a registered agent name followed by ``:key=value`` settings. Every module in
this package may register factories with :func:`register_agent`. A factory receives the
world model the agent should plan with and either the settings as keyword arguments
(``make_cfr(model, iterations=1000, solver="auto")``) or, for the search agents, one
typed record of them (``make_mcts(model, settings: MCTSSettings)``, see
:mod:`ggp.agents.settings`). Either way the parameters' types describe the settings:
:func:`check_spec` converts each value to its type and checks it (whole numbers,
non-negative numbers, ``true``/``false``, one of a :data:`~typing.Literal`'s choices), so
a bad spec fails with one line when it is parsed, not when the agent is built.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import logging
import math
import pkgutil
import types
import typing
from functools import cache
from typing import Any, Callable, Literal, NamedTuple

from ggp.agents.base import Agent, MatchInfo
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.registry import parse_value

AgentFactory = Callable[..., Agent]
_FACTORIES: dict[str, AgentFactory] = {}

__all__ = ["Agent", "MatchInfo", "agent_names", "check_spec", "make_agent", "register_agent"]

log = logging.getLogger("ggp.agents")


class AgentSpecError(GGPError):
    """An agent spec names an unknown agent or a bad setting."""


def register_agent(name: str) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator registering ``factory(model, **settings) -> Agent`` (or
    ``factory(model, settings: Record) -> Agent`` with ``Record`` a dataclass) under
    ``name``."""

    def decorate(factory: AgentFactory) -> AgentFactory:
        _FACTORIES[name] = factory
        return factory

    return decorate


@cache
def _load_agent_modules() -> None:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


def agent_names() -> list[str]:
    """The registered agents' names, sorted."""
    _load_agent_modules()
    return sorted(_FACTORIES)


def _split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:sims=100"`` -> ``("mcts", {"sims": "100"})``: the settings as written."""
    name, *items = spec.strip().split(":")
    settings = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise AgentSpecError(f"Agent setting {item!r} in {spec!r} needs the form key=value.")
        settings[key.strip()] = value.strip()
    return name.strip(), settings


def parse_agent_spec(spec: str) -> tuple[str, dict]:
    """``"mcts:sims=100:rollouts=1"`` -> ``("mcts", {"sims": 100, "rollouts": 1})``: the
    values read without knowing the agent (see :func:`check_spec` for typed ones)."""
    name, raw = _split_spec(spec)
    return name, {key: parse_value(text) for key, text in raw.items()}


def make_agent(spec: str, model: WorldModel) -> Agent:
    """Build the agent described by ``spec``, planning with ``model``."""
    name, settings = check_spec(spec)
    schema = _schema(_FACTORIES[name])
    try:
        if schema.record is not None:
            return _FACTORIES[name](model, schema.record(**settings))
        return _FACTORIES[name](model, **settings)
    except ValueError as exc:  # a setting out of its range, e.g. rollouts=0
        raise AgentSpecError(f"Agent spec {spec!r}: {exc}.") from exc


class _Setting(NamedTuple):
    kind: Any  # the annotation (None: unknown)
    required: bool  # a factory parameter without a default


class _Schema(NamedTuple):
    record: type | None  # the settings dataclass, for factories that take one
    settings: dict[str, _Setting]
    renamed: dict[str, str]  # old setting name -> current one


@cache
def _schema(factory: AgentFactory) -> _Schema:
    """The settings ``factory`` takes: its keyword parameters, or the fields of the
    settings record its second parameter is annotated with."""
    try:
        hints = typing.get_type_hints(factory)
    except Exception:  # noqa: BLE001 - unresolvable hints: judge by the defaults alone
        hints = {}
    params = [p for p in inspect.signature(factory).parameters.values() if p.name != "model"]
    record = hints.get(params[0].name) if len(params) == 1 else None
    if isinstance(record, type) and dataclasses.is_dataclass(record):
        fields = typing.get_type_hints(record)
        settings = {f.name: _Setting(fields[f.name], False)
                    for f in dataclasses.fields(record) if f.init}
        return _Schema(record, settings, dict(getattr(record, "RENAMED", {})))
    settings = {}
    for p in params:
        required = p.default is inspect.Parameter.empty
        kind = hints.get(p.name, None if required or p.default is None else type(p.default))
        settings[p.name] = _Setting(kind, required)
    return _Schema(None, settings, {})


def check_spec(spec: str) -> tuple[str, dict]:
    """Parse ``spec`` and check it names a registered agent with settings it takes, each
    converted to its type and checked: whole numbers for ``int`` settings, finite
    numbers for ``float`` ones, neither negative, ``true``/``false`` for ``bool`` ones,
    one of the choices for ``Literal`` ones. Old names of renamed settings are accepted
    (a hint is logged once). Returns the agent's name and its typed settings under their
    current names; raises :class:`AgentSpecError` with a one-line reason."""
    _load_agent_modules()
    name, raw = _split_spec(spec)
    if name not in _FACTORIES:
        raise AgentSpecError(
            f"Unknown agent {name!r}. Known agents: {', '.join(agent_names())}."
        )
    schema = _schema(_FACTORIES[name])
    raw = _renamed(name, raw, schema.renamed, spec)
    unknown = [k for k in raw if k not in schema.settings]
    if unknown:
        raise AgentSpecError(
            f"Agent {name!r} has no setting {', '.join(unknown)}; its settings are: "
            f"{', '.join(schema.settings) or 'none'}."
        )
    missing = [k for k, setting in schema.settings.items() if setting.required and k not in raw]
    if missing:
        raise AgentSpecError(f"Agent {name!r} needs {', '.join(f'{k}=' for k in missing)} "
                             f"(in {spec!r}).")
    settings = {}
    for key, text in raw.items():
        value, problem = _convert(schema.settings[key].kind, text)
        if problem:
            raise AgentSpecError(f"Agent {name!r}: setting {key}={text} {problem} "
                                 f"(in {spec!r}).")
        settings[key] = value
    return name, settings


_HINTED: set[tuple[str, str]] = set()


def _renamed(name: str, raw: dict[str, str], renamed: dict[str, str],
             spec: str) -> dict[str, str]:
    """``raw`` with old setting names replaced by the current ones."""
    out = dict(raw)
    for old, new in renamed.items():
        if old not in out:
            continue
        if new in out:
            raise AgentSpecError(f"Agent {name!r}: give {new}= only ({old}= is its old "
                                 f"name; in {spec!r}).")
        out[new] = out.pop(old)
        if (name, old) not in _HINTED:  # once per process: a long tournament parses often
            _HINTED.add((name, old))
            log.warning("hint: agent %s's setting %s= is now called %s= (%s= still works "
                        "and means the same; keep it to resume a run that recorded it)",
                        name, old, new, old)
    return out


def _convert(kind: Any, text: str) -> tuple[Any, str]:
    """The value of setting text ``text`` for the type ``kind``, and what is wrong with
    it (empty when nothing is)."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):  # X | None
        inner = [k for k in typing.get_args(kind) if k is not type(None)]
        kind = inner[0] if len(inner) == 1 else None
    if typing.get_origin(kind) is Literal:
        choices = typing.get_args(kind)
        if text in choices:
            return text, ""
        return None, f"must be one of {', '.join(map(str, choices))}"
    if kind is str:
        return text, ""
    value = parse_value(text)
    if kind is bool:
        return value, "" if isinstance(value, bool) else "must be true or false"
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            return None, "must be a whole number"
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None, "must be a number"
        if not math.isfinite(value):
            return None, "must be a finite number"
        value = float(value)
    else:
        return value, ""
    return value, "must not be negative" if value < 0 else ""
