"""Time per move of ggp's MCTS / ISMCTS against OpenSpiel's bots, in one run.

For each game, 1000 simulations, uct_c as OpenSpiel's default scale, random rollouts:

* ``ggp/ref``      ggp's planner on ggp's own reference world model (what agents use);
* ``ggp/native``   ggp's planner on OpenSpiel's C++ game, through a thin bench-only
                   adapter (so planner cost is compared like for like with OpenSpiel);
* ``os/py``        OpenSpiel's Python bot (``open_spiel.python.algorithms.mcts`` /
                   ``ismcts``) on the C++ game;
* ``os/c++``       OpenSpiel's C++ bot (``pyspiel.MCTSBot`` / ``pyspiel.ISMCTSBot``).

It prints milliseconds per move (median over positions and repeats) and the ratios
``os/py / ggp/native`` and ``os/py / ggp/ref`` (goal: >= 2) and ``ggp/native / os/c++``.

Run:  python bench/search_speed.py [--rollouts 1] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from ggp.belief.sampler import Belief, BeliefSampler, make_sampler
from ggp.core.model import WorldModel
from ggp.core.protocol import GameMetadata
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS

SIMS = 1000


class _S(dict):
    """A bench-only state: an empty dict (so the wrapper's JSON check passes) carrying the
    pyspiel state. Only trusted-mode planners, which never copy states, may use it."""

    __slots__ = ("ps",)

    def __init__(self, ps) -> None:
        super().__init__()
        self.ps = ps


class NativeGame:
    """OpenSpiel's C++ game as a trusted world-model namespace (actions are ids)."""

    def __init__(self, name: str) -> None:
        self.game = pyspiel.load_game(name)
        self.INITIAL_STATE = _S(self.game.new_initial_state())
        n = self.game.num_players()
        self.METADATA = GameMetadata(n, self.game.min_utility(), self.game.max_utility(), True)

    def get_current_player(self, s):
        return s.ps.current_player()

    def get_player_name(self, p):
        return str(p)

    def get_legal_actions(self, s):
        return s.ps.legal_actions()

    def apply_action(self, s, a):
        return _S(s.ps.child(a))

    def get_rewards(self, s):
        return s.ps.rewards()

    def get_chance_outcomes(self, s):
        return s.ps.chance_outcomes()

    def get_observations(self, s):
        return [s.ps.information_state_string(p) for p in range(self.game.num_players())]


class NativeResampler(BeliefSampler):
    """Determinizations from pyspiel's own ``resample_from_infostate``."""

    def __init__(self, model, root) -> None:
        super().__init__(model)
        self.root = root

    def belief(self, history, player, rng):
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        return Belief(lambda r: _S(self.root.resample_from_infostate(player, sampler)))


def _ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def positions(name: str, count: int, seed: int = 0):
    """Pyspiel states at the player's first decisions of a few random games."""
    rng = random.Random(seed)
    game = pyspiel.load_game(name)
    found = []
    while len(found) < count:
        s = game.new_initial_state()
        while s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(actions, probs)[0])
        for _ in range(len(found) % 3 * 2):  # 0, 2 or 4 plies in (perfect-info games)
            if s.is_terminal() or s.is_chance_node() or name in ("kuhn_poker", "leduc_poker"):
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal() and not s.is_chance_node():
            found.append(s)
    return found


def ggp_state_of(model: WorldModel, ps):
    """The reference model's state reached by the same action strings as ``ps``."""
    state = model.initial_state()
    replay = ps.get_game().new_initial_state()
    for a in ps.history():
        text = replay.action_to_string(replay.current_player(), a)
        state = model.apply(state, _ref_action(model, state, text))
        replay.apply_action(a)
    return state


def _ref_action(model, state, text):
    """OpenSpiel's chance texts for poker deals are card ids; ours name the card."""
    if text.startswith("Deal:"):  # kuhn_poker: J, Q, K = 0, 1, 2
        return "Deal " + "JQK"[int(text[5:])]
    if text.startswith("Chance outcome:"):  # leduc_poker: id = 2 * rank + suit
        card = int(text.split(":")[1])
        return "Deal " + "JQK"[card // 2] + "sh"[card % 2]
    return text


def bench_mcts(name: str, rollouts: int, repeats: int) -> dict[str, float]:
    native = WorldModel(NativeGame(name), name=name, trusted=True)
    ref = make_game(name)
    results: dict[str, list[float]] = {k: [] for k in ("ggp/ref", "ggp/native", "os/py", "os/c++")}
    for ps in positions(name, 3):
        rng = random.Random(0)
        # like for like with OpenSpiel's bots (solve=False): no solver, and no tree reuse,
        # which would hand every repeat the previous repeat's tree (a proven root ends a
        # search after one simulation: tic-tac-toe read 0.0 ms)
        ours_n = MCTS(native, RandomRolloutEvaluator(native, rollouts), uct_c=1.0, rng=rng,
                      solver=False, reuse=False)
        ours_r = MCTS(ref, RandomRolloutEvaluator(ref, rollouts), uct_c=1.0, rng=rng,
                      solver=False, reuse=False)
        ref_state = ref.initial_state()
        ps_replay = ps.get_game().new_initial_state()
        for a in ps.history():
            ref_state = ref.apply(ref_state, ps_replay.action_to_string(ps_replay.current_player(), a))
            ps_replay.apply_action(a)
        py_bot = os_mcts.MCTSBot(native.namespace.game, 2.0, SIMS,
                                 os_mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(0)),
                                 solve=False, random_state=np.random.RandomState(0))
        cpp_bot = pyspiel.MCTSBot(native.namespace.game,
                                  pyspiel.RandomRolloutEvaluator(rollouts, 0), 2.0, SIMS,
                                  1000, False, 0, False)
        results["ggp/native"].append(_ms(partial(ours_n.search, _S(ps)), repeats))
        results["ggp/ref"].append(_ms(partial(ours_r.search, ref_state), repeats))
        results["os/py"].append(_ms(partial(py_bot.step, ps), repeats))
        results["os/c++"].append(_ms(partial(cpp_bot.step, ps), repeats))
    return {k: statistics.median(v) for k, v in results.items()}


def bench_ismcts(name: str, rollouts: int, repeats: int) -> dict[str, float]:
    native = WorldModel(NativeGame(name), name=name, trusted=True)
    ref = make_game(name)
    results: dict[str, list[float]] = {k: [] for k in ("ggp/ref", "ggp/native", "os/py", "os/c++")}
    for ps in positions(name, 3):
        player = ps.current_player()
        rng = random.Random(0)
        ours_n = ISMCTS(native, NativeResampler(native, ps), RandomRolloutEvaluator(native, rollouts),
                        uct_c=1.0, rng=rng)
        history_n = [(ps.information_state_string(player), None)]
        ref_state = ggp_state_of(ref, ps)
        history_r = [(ref.observation(ref_state, player), None)]
        ours_r = ISMCTS(ref, make_sampler(ref, "model"), RandomRolloutEvaluator(ref, rollouts),
                        uct_c=1.0, rng=rng)
        py_bot = os_ismcts.ISMCTSBot(native.namespace.game,
                                     os_mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(0)),
                                     2.0, SIMS, random_state=np.random.RandomState(0))
        cpp_bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(rollouts, 0), 2.0, SIMS)
        results["ggp/native"].append(_ms(partial(ours_n.search, history_n, player), repeats))
        results["ggp/ref"].append(_ms(partial(ours_r.search, history_r, player), repeats))
        results["os/py"].append(_ms(partial(py_bot.step, ps), repeats))
        results["os/c++"].append(_ms(partial(cpp_bot.step, ps), repeats))
    return {k: statistics.median(v) for k, v in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", default="tic_tac_toe,connect_four,kuhn_poker,leduc_poker")
    args = parser.parse_args()
    print(f"{SIMS} simulations, {args.rollouts} rollout(s) per leaf; ms per move (median)")
    print(f"{'game':14} {'ggp/ref':>9} {'ggp/native':>11} {'os/py':>9} {'os/c++':>8} "
          f"{'py/native':>10} {'py/ref':>8} {'native/c++':>11}")
    for name in args.games.split(","):
        bench = bench_ismcts if name in ("kuhn_poker", "leduc_poker") else bench_mcts
        r = bench(name, args.rollouts, args.repeats)
        print(f"{name:14} {r['ggp/ref']:9.1f} {r['ggp/native']:11.1f} {r['os/py']:9.1f} "
              f"{r['os/c++']:8.2f} {r['os/py'] / r['ggp/native']:9.1f}x "
              f"{r['os/py'] / r['ggp/ref']:7.1f}x {r['ggp/native'] / r['os/c++']:10.1f}x",
              flush=True)


if __name__ == "__main__":
    main()
