"""Every GDL engine against every other on random playouts (ggp-base's StateMachineVerifier).

One test, parametrized over each pair of engines and a handful of games: the repository's
own games (always present) and small GDL / GDL-II games of the shared corpus (skipped when
it is missing). :func:`ggp.gdl.reasoner.first_disagreement` compares states, legal moves,
next states, terminal, goals and percepts. A new engine joins by adding one entry to
``ENGINES``.
"""

import itertools
from pathlib import Path

import pytest

from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.description import parse_description
from ggp.gdl.engine import Reasoner
from ggp.gdl.ground import ground
from ggp.gdl.grounded import GroundedReasoner
from ggp.gdl.naive import NaiveReasoner
from ggp.gdl.reasoner import first_disagreement

from gdl_corpus import path

OWN = Path(__file__).resolve().parents[2] / "src" / "ggp" / "gdl" / "games"

# name -> build(rules); "grounded+cold" is the grounded engine as make_reasoner hands it
# out after winning its race: joint moves met rarely step through a compiled engine
ENGINES = {
    "naive": NaiveReasoner,
    "compiled": CompiledReasoner,
    "compiled-no-demand": lambda rules: CompiledReasoner(rules, demand=False),
    "grounded": lambda rules: GroundedReasoner(ground(rules)),
    "grounded+cold": lambda rules: GroundedReasoner(ground(rules),
                                                    cold_engine=CompiledReasoner(rules)),
}
# (file, states compared): GDL and GDL-II (with and without nature), KIF and infix,
# turn-taking and simultaneous, one and two players, static relations (nim1); the
# naive engine's walks are most of the time, so the dearer games walk fewer states
GAMES = [("own:blind_tictactoe.gdl", 20), ("own:connect_four.kif", 12),
         ("montyhall.gdl", 30), ("kriegTTT_4x4.gdl", 8), ("roshambo2.kif", 20),
         ("gt_prisoner.kif", 20), ("nim1.kif", 20), ("buttons.kif", 20)]


def rules_of(name: str) -> list:
    file = OWN / name[4:] if name.startswith("own:") else path(name)
    return parse_description(file.read_text(), name).rules


@pytest.mark.parametrize("game,steps", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("first,second", list(itertools.combinations(ENGINES, 2)),
                         ids=lambda name: name)
def test_engines_agree(first, second, game, steps):
    rules = rules_of(game)
    a, b = ENGINES[first](rules), ENGINES[second](rules)
    assert isinstance(a, Reasoner) and isinstance(b, Reasoner)
    assert a.roles and not a.is_terminal(a.initial_state())  # a game to walk through
    assert first_disagreement(a, b, steps, seed=5) is None


class _Reversed(CompiledReasoner):
    """Legal moves in the wrong order."""

    def legal_moves(self, state):
        return {r: ms[::-1] for r, ms in super().legal_moves(state).items()}


class _Deaf(CompiledReasoner):
    """No percepts."""

    def step(self, state, joint):
        nxt, percepts = super().step(state, joint)
        return nxt, {r: [] for r in percepts}


class _Forgetful(CompiledReasoner):
    """Loses one fluent in every next state."""

    def step(self, state, joint):
        nxt, percepts = super().step(state, joint)
        return frozenset(sorted(nxt, key=str)[1:]), percepts

    def next_state(self, state, joint):
        return self.step(state, joint)[0]


class _Inconsistent(CompiledReasoner):
    """``next_state`` answers differently from ``step``."""

    def next_state(self, state, joint):
        return frozenset()


@pytest.mark.parametrize("broken,says", [(_Reversed, "legal moves differ"),
                                         (_Deaf, "percepts differ"),
                                         (_Forgetful, "states differ"),
                                         (_Inconsistent, "the second engine (compiled): "
                                                         "next_state and step disagree")])
def test_a_disagreement_is_found_and_named(broken, says):
    rules = rules_of("own:blind_tictactoe.gdl")
    found = first_disagreement(CompiledReasoner(rules), broken(rules), 20, seed=5)
    assert found and found.startswith(says), found
