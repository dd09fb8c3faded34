"""The world-model protocol, its runtime wrapper and the game registry."""

from ggp.core.errors import GGPError, IllegalActionError, ModelError, ModelLoadError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, canonical_json

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GGPError",
    "GameMetadata",
    "IllegalActionError",
    "ModelError",
    "ModelLoadError",
    "WorldModel",
    "canonical_json",
]
