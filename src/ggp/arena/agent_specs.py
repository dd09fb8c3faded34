"""Agent specs in the arena: registered agents and agents loaded from a file.

A spec is either a registered agent (``"random"``, ``"mcts:sims=200"``, see
:func:`ggp.agents.make_agent`) or a path to a Python file followed by the same
``:key=value`` settings (``"my_agents/greedy.py:depth=2"``). Such a file defines
``make_agent(model, **settings) -> Agent``. File agents are untrusted code: the arena only
ever builds them inside a sandboxed worker (:mod:`ggp.arena.sandboxed`).
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

from ggp.agents import AgentSpecError, make_agent, parse_agent_spec
from ggp.agents.base import Agent
from ggp.core.model import WorldModel


def is_file_spec(spec: str) -> bool:
    """Whether ``spec`` names an agent file (its name part ends with ``.py``)."""
    return parse_agent_spec(spec)[0].endswith(".py")


def check_agent_spec(spec: str) -> None:
    """Raise :class:`AgentSpecError` early for a spec that cannot name an agent."""
    name, _ = parse_agent_spec(spec)
    if name.endswith(".py"):
        if not Path(name).is_file():
            raise AgentSpecError(f"Agent file {name!r} (from spec {spec!r}) does not exist.")
        return
    from ggp.agents import agent_names, check_spec

    if name not in agent_names():
        raise AgentSpecError(
            f"Unknown agent {name!r}. Known agents: {', '.join(agent_names())}, or a path "
            "to a .py file defining make_agent(model, **settings)."
        )
    check_spec(spec)


def build_agent(spec: str, model: WorldModel) -> Agent:
    """Build the agent ``spec`` names, planning with ``model``.

    Loading a file agent runs its code in this process: call this for file specs only
    inside a sandboxed worker.
    """
    name, settings = parse_agent_spec(spec)
    if not name.endswith(".py"):
        return make_agent(spec, model)
    path = Path(name)
    module_spec = importlib.util.spec_from_file_location(f"ggp_agent_{path.stem}", path)
    if module_spec is None or not path.is_file():
        raise AgentSpecError(f"Agent file {name!r} does not exist.")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    factory = getattr(module, "make_agent", None)
    if not callable(factory):
        raise AgentSpecError(f"Agent file {name!r} defines no make_agent(model, **settings).")
    accepted = inspect.signature(factory).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    unknown = [k for k in settings if k not in accepted and not takes_any]
    if unknown:
        raise AgentSpecError(f"Agent file {name!r} takes no setting {', '.join(unknown)}.")
    agent = factory(model, **settings)
    if not getattr(agent, "name", "") or agent.name == "agent":
        agent.name = path.stem
    return agent
