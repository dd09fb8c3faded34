"""Errors of the GDL subsystem; every one carries the line and column it refers to."""

from __future__ import annotations

from ggp.core.errors import GGPError


class GDLError(GGPError):
    """A problem in a game description, located at ``line``/``col`` (1-based; 0 = unknown)."""

    def __init__(self, message: str, line: int = 0, col: int = 0, source: str = "") -> None:
        self.message = message
        self.line = line
        self.col = col
        self.source = source
        super().__init__(message)

    def __str__(self) -> str:
        where = f"{self.source}:" if self.source else ""
        return f"{where}{self.line}:{self.col}: {self.message}"


class GDLSyntaxError(GDLError):
    """The text is not well-formed KIF / infix GDL."""


class GDLValidationError(GDLError):
    """The description parses but breaks a GDL rule (arity, safety, stratification...).

    ``issues`` holds every error found (the exception's own line/col are the first one's).
    """

    def __init__(self, issues: list, source: str = "") -> None:
        self.issues = issues
        first = issues[0]
        super().__init__(first.message, first.line, first.col, source)

    def __str__(self) -> str:
        where = f"{self.source}:" if self.source else ""
        lines = [f"{where}{i.line}:{i.col}: {i.message}" for i in self.issues]
        return "\n".join(lines)
