"""Typed errors. Each carries a message a user can act on without a traceback."""

from __future__ import annotations

from typing import Any


class GGPError(Exception):
    """Base class of every error ggp reports to a user."""


class ModelLoadError(GGPError):
    """A world model could not be loaded: unknown name, bad file, missing function."""


class ModelError(GGPError):
    """A world model function raised or returned something that breaks the protocol.

    ``function`` names the protocol function, ``state`` and ``action`` are the inputs
    that triggered it (when known), ``cause`` the original exception if any.
    """

    def __init__(
        self,
        message: str,
        *,
        function: str,
        state: Any = None,
        action: Any = None,
        cause: BaseException | None = None,
    ) -> None:
        self.function = function
        self.state = state
        self.action = action
        self.cause = cause
        super().__init__(message)

    def __str__(self) -> str:
        parts = [f"{self.function}: {self.args[0]}"]
        if self.state is not None:
            parts.append(f"  state:  {_short(self.state)}")
        if self.action is not None:
            parts.append(f"  action: {self.action!r}")
        return "\n".join(parts)


class IllegalActionError(GGPError):
    """An action that is not among the legal actions of a state."""


class BeliefError(GGPError):
    """No state consistent with a player's observations could be produced."""


def _short(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
