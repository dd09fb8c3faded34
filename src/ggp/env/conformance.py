"""PettingZoo's conformance tests, run reproducibly over many seeds.

PettingZoo's ``api_test`` and ``parallel_api_test`` sample their actions from the
environment's action spaces and reset the environment with ``seed=0`` first and without a
seed afterwards. One *seed* here fixes a whole run: every agent's action space is seeded
from it (agent ``i`` gets ``seed * 1000 + i``), and the environment's chance generator
starts from the test's own ``reset(seed=0)`` and continues over its later resets (the
Gymnasium convention, :meth:`ggp.env.envs.GameAECEnv.reset`), so a run with the same seed
replays the same games and different seeds play different ones.

Used by ``bench/pettingzoo_api.py`` (every game source, 100 seeds) and
``tests/env/test_conformance.py`` (a few seeds on a subset).
"""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any, Callable


def seed_action_spaces(env: Any, seed: int) -> None:
    """Seed every possible agent's action space from ``seed`` (one generator each)."""
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed * 1000 + i)


def api_test_seed(make_env: Callable[[], Any], seed: int, num_cycles: int = 1000) -> None:
    """PettingZoo's ``api_test`` on a fresh ``make_env()`` with its actions drawn from
    ``seed``; raises what the test raises. The test's own warnings (a missing
    ``render``, observation dtype hints) are not failures and are silenced, as are its
    progress prints."""
    from pettingzoo.test import api_test

    env = make_env()
    seed_action_spaces(env, seed)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # and its "Starting API test" lines
        api_test(env, num_cycles=num_cycles)


def parallel_api_test_seed(make_env: Callable[[], Any], seed: int,
                           num_cycles: int = 1000) -> None:
    """PettingZoo's ``parallel_api_test`` on a fresh ``make_env()``, seeded as
    :func:`api_test_seed`."""
    from pettingzoo.test import parallel_api_test

    env = make_env()
    seed_action_spaces(env, seed)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        parallel_api_test(env, num_cycles=num_cycles)


def first_line(exc: BaseException) -> str:
    """A one-line description of a failure (type and first line of the message)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:200]


__all__ = ["api_test_seed", "first_line", "parallel_api_test_seed", "seed_action_spaces"]
