"""Shared helpers for the GGP protocol tests: loopback servers that are always closed
(a plain module with a unique name, imported by the test files)."""

import contextlib
from pathlib import Path

import pytest

from ggp.ggpnet.choosers import RandomChooser
from ggp.ggpnet.player import GGPPlayer
from ggp.ggpnet.transport import GGPServer

GDL = Path("/work/shared/gdl")


def gdl_file(name: str) -> Path:
    for sub in ("perfect", "imperfect"):
        if (GDL / sub / name).is_file():
            return GDL / sub / name
    pytest.skip(f"GDL corpus file {name} not available")


@contextlib.contextmanager
def running(*handlers, **options):
    """One loopback server per handler (OS-chosen ports); all closed on exit."""
    servers = []
    try:
        for handler in handlers:
            servers.append(GGPServer(handler, "127.0.0.1", 0, **options))
        yield servers
    finally:
        for server in servers:
            server.close()


def quick_player(seed: int = 0, **kw) -> GGPPlayer:
    """Our player with a random chooser and a small margin (fast tests)."""
    kw.setdefault("margin", 0.2)
    return GGPPlayer(f"test{seed}", RandomChooser(seed), seed=seed, **kw)
