"""Model files for the cwm tests: the hand-written standalone models the synthesis tests
use as scripted answers (tests/synth/fixtures), copied into run directories, and
deliberately broken variants. None of them is a model's work."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from ggp.core import protocol

SYNTH_FIXTURES = Path(__file__).parents[1] / "synth" / "fixtures"


def source(game: str) -> str:
    return (SYNTH_FIXTURES / f"{game}_cwm.py").read_text(encoding="utf-8")


def mutate(text: str, *replacements: tuple[str, str]) -> str:
    for old, new in replacements:
        assert old in text, f"mutation target not found: {old!r}"
        text = text.replace(old, new, 1)
    return text


def run_dir(root: Path, name: str, code: str) -> Path:
    """A directory holding ``cwm.py`` like a synthesis run."""
    path = root / name
    path.mkdir(parents=True, exist_ok=True)
    (path / "cwm.py").write_text(code, encoding="utf-8")
    return path


# Leduc where a pair with the public card does not count (a subtle rules error).
LEDUC_NO_PAIRS = (("strength = [(card[0] == public,", "strength = [(False,"),)


def standalone(game: str) -> str:
    """A reference game module of src/ggp/games as a self-contained model file: its ggp
    imports replaced by local definitions; a game built by ``make()`` gets its default
    instance's functions at module level."""
    text = (Path(__file__).parents[2] / "src" / "ggp" / "games" / f"{game}.py").read_text()
    text = text.replace("from ggp.core.errors import BeliefError",
                        "class BeliefError(Exception):\n    pass")
    text = re.sub(r"^from ggp\.core\.protocol import (.+)$", _local_protocol, text, flags=re.M)
    assert "from ggp" not in text and "import ggp" not in text, game
    if "def make(" in text:
        text += "\n\n_GAME = make()\nglobals().update(vars(_GAME))\n"
    return text + "\n\ndel METADATA  # a model file carries code only\n"


def _local_protocol(imports: re.Match) -> str:
    """Local definitions of the names a game imports from ggp.core.protocol."""
    names = {name.strip() for name in imports.group(1).split(",")}
    lines = ["CHANCE, TERMINAL = -1, -4", "GameMetadata = dict"]
    if "player_name" in names:
        lines.append(inspect.getsource(protocol.player_name))
    assert names <= {"CHANCE", "TERMINAL", "GameMetadata", "player_name"}, names
    return "\n".join(lines)


# Appended to a model with resample_history: a resample_state that replays it.
RESAMPLE_STATE = '''

def resample_state(obs_action_history, player_id):
    """A state consistent with the player's view: replay a resampled history."""
    import copy
    state = copy.deepcopy(INITIAL_STATE)
    for action in resample_history(obs_action_history, player_id):
        state = apply_action(state, action)
    return state
'''
