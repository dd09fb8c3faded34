"""Planner overhead: the share of a move's time spent outside the model's own functions.

What runs. For each game, ``--positions`` decision points are taken from seeded random
playouts (different deals and stages of the game) and searched with 1000 simulations and
random rollouts: MCTS on perfect-information games (connect_four, tic_tac_toe), ISMCTS
(single observer, ground-truth resampler) on the others (leduc_poker, kuhn_poker). One
*run* searches every position once and sums the times, so a figure covers many searches,
not one short one (``--positions`` 30 for imperfect-information games, where one
search can take 0.02 s; ``--perfect-positions`` 3 for the others). Each repeat does:

1. a timer calibration (below);
2. for every position, back to back in alternating order (so a drift in machine load
   hits both alike): a *plain* search, the model's functions unwrapped, and a *timed*
   search, every protocol function wrapped in a lean timer. Summed over the positions:
   the plain wall time ``T0``, the timed wall time ``T1``, the time inside the model's
   functions ``M`` and the number of calls ``C``.

Searches are seeded, so the plain and the timed search make exactly the same model calls.

Figures (shares: the median over repeats with the min..max spread; each repeat uses its
own calibration, weighted by the real calls' mix of arities):

* ``raw``   = 1 - M / T1: the timer's whole cost counts as planner time (an overstatement).
* ``net``   = (T0 - (M - C * e)) / T0: the planner's share of the measured plain run. The
  model's time is the timed run's ``M`` less the part of each timer the window records,
  ``e = in - direct`` (from the calibration below). The timer's cost outside the window
  never enters: it is the difference ``T1 - T0``, measured in situ (column ``w_situ``,
  per call). This is the headline figure.
* ``calib`` = (T1 - M - C * (wrap - in)) / (T1 - C * (wrap - direct)): the older method,
  taking the timer's whole cost from the calibration instead. Kept as a cross-check: in
  practice the calibration loop finds the timer cheaper (``w_loop``) than it is inside a
  search (``w_situ``: colder caches, more branches), so ``calib`` reads higher than ``net``.
* ``plan``  = the planner's time per model call, in microseconds.
* ``cpu``   = the lowest ratio of CPU time to wall time over the repeats' runs: near 100%
  the process had a core to itself; far below, other processes interfered and every
  figure is suspect.

Calibration: before each repeat, three times per arity (median taken), a no-op function
with the same arity as the real ones is called in a loop through the same timer
(``wrap``: wall time per call; ``in``: the part the timer records) and directly
(``direct``).

Limits. The timer (two ``perf_counter`` calls, 0.2-0.5 us in situ) is about as large as
one call of a small game's functions (Leduc's cost 1-3 us), so the result rests on ``T0``
and ``T1`` both being undisturbed: on a loaded machine (``cpu`` well below 100%) the
spread is wide and ``T1 - T0`` can even be negative. ``e`` comes from a loop, where it
may be smaller than in situ; if so, ``net`` is slightly high. Objects the model returns
(states, observation lists) are freed when the planner drops them, so freeing them is
charged to the planner. Garbage collection is left on and is charged to whichever side
runs when it triggers. (Replaying the recorded model calls without the planner was tried
and rejected: a replay touching states created long before ran slower than the search.)

Run:  python bench/search_overhead.py [--rollouts 10] [--repeats 5] [--positions 30]
          [--games connect_four,tic_tac_toe,leduc_poker,kuhn_poker]
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
import random
import statistics
import time
import types

from ggp.belief.sampler import make_sampler
from ggp.core.model import WorldModel
from ggp.core.protocol import OPTIONAL_FUNCTIONS, REQUIRED_FUNCTIONS
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS

clock = time.perf_counter
SIMS = 1000


class Meter:
    """Accumulated seconds and calls inside wrapped functions.

    The wrappers are as lean as possible and take exactly the real functions' positional
    arguments (no ``*args`` packing, no ``try``), so the timer costs little and the same
    on every call; the model's exceptions propagate unchanged (its time is then lost,
    but searches on reference games raise none)."""

    def __init__(self) -> None:
        self.time = [0.0]
        self.counts: dict[str, list[int]] = {}

    @property
    def seconds(self) -> float:
        return self.time[0]

    @property
    def calls(self) -> dict[str, int]:
        return {name: count[0] for name, count in self.counts.items()}

    def wrap(self, name: str, fn, arity: int):
        acc, count = self.time, self.counts.setdefault(name, [0])
        if arity == 1:
            def timed(s):
                start = clock()
                result = fn(s)
                acc[0] += clock() - start
                count[0] += 1
                return result
        else:
            def timed(s, a):
                start = clock()
                result = fn(s, a)
                acc[0] += clock() - start
                count[0] += 1
                return result
        return timed


def arity(fn) -> int:
    """1 or 2: the number of required positional parameters the wrapper must take."""
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                     p.POSITIONAL_OR_KEYWORD)]
    return 2 if len(params) >= 2 else 1


def copy_model(model: WorldModel, meter: Meter | None) -> WorldModel:
    """A trusted copy of ``model`` whose protocol functions are wrapped by ``meter``
    (unwrapped when ``meter`` is None: same structure, so plain and timed runs differ only
    by the timers)."""
    ns = model.namespace
    attrs = {k: getattr(ns, k) for k in dir(ns) if not k.startswith("__")}
    if meter is not None:
        for name in REQUIRED_FUNCTIONS + OPTIONAL_FUNCTIONS:
            if callable(attrs.get(name)):
                attrs[name] = meter.wrap(name, attrs[name], arity(attrs[name]))
    return WorldModel(types.SimpleNamespace(**attrs), name=model.name, trusted=True,
                      metadata=model.metadata)


def positions(model: WorldModel, count: int, seed: int = 1) -> list:
    """``count`` decision points (more than one legal action) from seeded random playouts:
    a state for perfect-information games, ``(obs_action_history, player)`` otherwise."""
    rng = random.Random(seed)
    perfect = model.metadata.perfect_information
    found: list = []
    while len(found) < count:
        state = model.initial_state()
        mine: dict[int, list] = {p: [] for p in range(model.num_players)}
        while not model.is_terminal(state) and len(found) < count:
            player = model.current_player(state)
            if player < 0:
                state = model.apply(state, model.sample_chance(state, rng))
                continue
            legal = model.legal_actions(state)
            obs = model.observation(state, player)
            if len(legal) > 1:
                found.append(state if perfect else (mine[player] + [(obs, None)], player))
            action = rng.choice(legal)
            mine[player] = mine[player] + [(obs, action)]
            state = model.apply(state, action)
    return found


def search_time(model: WorldModel, spot, seed: int, rollouts: int) -> float:
    """Seconds of one seeded search from ``spot`` (identical model calls every time)."""
    rng = random.Random(seed)
    evaluator = RandomRolloutEvaluator(model, rollouts)
    if model.metadata.perfect_information:
        search = MCTS(model, evaluator, simulations=SIMS, rng=rng)
        start = clock()
        search.search(spot)
        return clock() - start
    history, player = spot
    search = ISMCTS(model, make_sampler(model, "model"), evaluator, simulations=SIMS, rng=rng)
    start = clock()
    search.search(history, player)
    return clock() - start


def calibrate(arity: int, n: int = 50_000) -> tuple[float, float, float]:
    """Per-call seconds ``(wrap, in, direct)`` for a no-op function taking ``arity``
    positional arguments, called in a loop (see the module doc)."""
    noop = (lambda s: None) if arity == 1 else (lambda s, a: None)
    meter = Meter()
    wrapped = meter.wrap("noop", noop, arity)
    state, action = {"k": 1}, "a"
    if arity == 1:
        start = clock()
        for _ in range(n):
            wrapped(state)
        wrap = clock() - start
        start = clock()
        for _ in range(n):
            noop(state)
        direct = clock() - start
    else:
        start = clock()
        for _ in range(n):
            wrapped(state, action)
        wrap = clock() - start
        start = clock()
        for _ in range(n):
            noop(state, action)
        direct = clock() - start
    return wrap / n, meter.seconds / n, direct / n


def measure(game: str, n_positions: int, rollouts: int, repeats: int) -> dict:
    """Every figure of the module doc, one value per repeat."""
    base = make_game(game)
    spots = positions(base, n_positions)
    plain = copy_model(base, None)
    arities = {name: arity(getattr(base.namespace, name))
               for name in REQUIRED_FUNCTIONS + OPTIONAL_FUNCTIONS
               if callable(getattr(base.namespace, name, None))}
    out: dict[str, list[float]] = {k: [] for k in ("t0", "t1", "raw", "net", "calib",
                                                   "w_situ", "w_loop", "e", "cpu",
                                                   "per_call")}
    calls = 0
    for r in range(repeats):
        cals = {k: [calibrate(k) for _ in range(3)] for k in (1, 2)}
        cal = {k: [statistics.median(c[j] for c in v) for j in range(3)]
               for k, v in cals.items()}
        meter = Meter()
        timed = copy_model(base, meter)
        t0 = t1 = 0.0
        gc.collect()
        wall, cpu = clock(), time.process_time()
        for i, spot in enumerate(spots):
            # alternate the order so that a drift in machine load hits both runs alike
            if (i + r) % 2:
                t0 += search_time(plain, spot, i, rollouts)
                t1 += search_time(timed, spot, i, rollouts)
            else:
                t1 += search_time(timed, spot, i, rollouts)
                t0 += search_time(plain, spot, i, rollouts)
        out["cpu"].append((time.process_time() - cpu) / (clock() - wall))
        m, counts = meter.seconds, meter.calls
        calls = sum(counts.values())
        wrap, inside, direct = (sum(c * cal[arities[f]][j] for f, c in counts.items())
                                for j in range(3))
        out["t0"].append(t0)
        out["t1"].append(t1)
        out["raw"].append(1 - m / t1)
        out["net"].append((t0 - (m - (inside - direct))) / t0)
        out["calib"].append((t1 - m - (wrap - inside)) / (t1 - (wrap - direct)))
        out["w_situ"].append((t1 - t0) / calls)
        out["w_loop"].append((wrap - direct) / calls)
        out["e"].append((inside - direct) / calls)
        out["per_call"].append((t0 - (m - (inside - direct))) / calls)
    return {"searches": len(spots), "calls": calls, **out}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.1%} ({min(values):5.1%}..{max(values):5.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--positions", type=int, default=30,
                        help="searches per run, imperfect-information games")
    parser.add_argument("--perfect-positions", type=int, default=3,
                        help="searches per run, perfect-information games")
    parser.add_argument("--games", default="connect_four,tic_tac_toe,leduc_poker,kuhn_poker")
    args = parser.parse_args()
    print(f"{SIMS} simulations x {args.rollouts} rollouts per search, {args.repeats} "
          f"repeats; load average {os.getloadavg()[0]:.2f}")
    print("shares: median over repeats (min..max); times: median seconds per run; "
          "cpu: lowest CPU/wall ratio of a repeat;\nw_situ, w_loop, e: timer costs, plan: "
          "the planner's time, in us per model call")
    print(f"{'game':13} {'n':>3} {'plain s':>8} {'timed s':>8} {'calls':>8} {'cpu':>4} "
          f"{'w_situ':>6} {'w_loop':>6} {'e':>5} {'plan':>5}  {'raw':>21}  {'net':>21}  "
          f"{'calib':>21}")
    for game in args.games.split(","):
        perfect = make_game(game).metadata.perfect_information
        n = args.perfect_positions if perfect else args.positions
        r = measure(game, n, args.rollouts, args.repeats)
        med = {k: statistics.median(r[k])
               for k in ("t0", "t1", "w_situ", "w_loop", "e", "per_call")}
        print(f"{game:13} {r['searches']:3d} {med['t0']:8.3f} {med['t1']:8.3f} "
              f"{r['calls']:8d} {min(r['cpu']):4.0%} {med['w_situ'] * 1e6:6.3f} "
              f"{med['w_loop'] * 1e6:6.3f} {med['e'] * 1e6:5.3f} "
              f"{med['per_call'] * 1e6:5.2f}  {spread(r['raw'])}  {spread(r['net'])}  "
              f"{spread(r['calib'])}", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
