"""Planning on an untrusted code world model versus the same code trusted, and the truth.

For each game, the same search three ways, timed in one run:

* ``cwm``: the CWM agent (``cwm_ismcts`` / ``cwm_mcts``), planning inside its sandboxed
  worker on a model file, through the arena's agent interface (the pipe round trip and
  the JSON of the history included);
* ``trusted``: the same search on the same file loaded in this process as trusted code
  (no copies, no checks) — what the CWM agent would cost if the code were ours;
* ``gt``: GT-(IS)MCTS, the same search on the reference game with its ground-truth
  inference.

ISMCTS for leduc_poker, kuhn_poker and bargaining; MCTS for tic_tac_toe, connect_four and
backgammon. The model files are the real-model syntheses in ``examples/recorded/`` where
one exists (leduc_poker, bargaining, backgammon); kuhn_poker, tic_tac_toe and connect_four
have none, so their reference module's source file is loaded as a CWM file instead (the
``model`` column says which). Budgets differ per game (``sims`` and ``rollouts`` columns)
so the run ends in minutes: backgammon's and bargaining's models are slow.

Decision points come from seeded random matches of the reference game (positions with at
least two legal actions). Each round visits every position and times the three variants
back to back, in an order that rotates from position to position, so a change in machine
load hits all three alike; rounds go on past ``--rounds`` until every variant has run
``--min-seconds`` (games with short moves get more rounds). Workers are started before timing (a match's start is timed
separately: ``start`` is a fresh worker, ``reused`` one taken back from the pool of
:mod:`ggp.sandbox.pool`). Figures: ms per move, simulations per second, and the ratios
``cwm / trusted`` (the issue's goal: at most 1.3) and ``cwm / gt``.

Second figure: a rejection-tournament match (:func:`ggp.arena.hosted.play_hosted`, two
CWM agents on the recorded Leduc model hosted in a worker), with every worker started for
the match versus workers reused from the pool, interleaved.

`--model GAME=FILE` plans on another file for GAME (a compiled model, say) and labels it.

Run:  python bench/cwm_speed.py [--positions 6] [--rounds 2] [--min-seconds 20]
          [--games leduc_poker,...]
          [--scale 1.0]   (multiplies every game's simulation budget)
          [--hosted-matches 6] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from ggp.agents import make_agent
from ggp.agents.base import MatchInfo
from ggp.arena.match import play_match
from ggp.belief.sampler import make_sampler
from ggp.core.model import WorldModel, load_model_file
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "examples" / "recorded"
GAMES_DIR = ROOT / "src" / "ggp" / "games"

# game -> (planner, model file, label, simulations, rollouts)
GAMES = {
    "leduc_poker": ("ismcts", RECORDED / "leduc_poker" / "cwm.py", "recorded", 1000, 10),
    "kuhn_poker": ("ismcts", GAMES_DIR / "kuhn_poker.py", "reference source", 1000, 10),
    "bargaining": ("ismcts", RECORDED / "bargaining" / "cwm.py", "recorded", 200, 10),
    "tic_tac_toe": ("mcts", GAMES_DIR / "tic_tac_toe.py", "reference source", 1000, 10),
    "connect_four": ("mcts", GAMES_DIR / "connect_four.py", "reference source", 200, 10),
    "backgammon": ("mcts", RECORDED / "backgammon" / "cwm.py", "recorded", 40, 1),
}


def positions(game: WorldModel, count: int, seed: int) -> list[tuple[int, list]]:
    """``count`` decision points (seat, JSON-shaped history) of seeded random matches."""
    rng = random.Random(seed)
    found: list[tuple[int, list]] = []
    match = 0
    while len(found) < 4 * count:
        result = play_match(game, [make_agent("random", game) for _ in range(game.num_players)],
                            seed=seed * 1000 + match, record_states=True)
        match += 1
        for seat, history in enumerate(result.histories):
            for k, (obs, _) in enumerate(history):
                view = json.loads(json.dumps([[o, a] for o, a in history[:k]] + [[obs, None]]))
                found.append((seat, [(o, a) for o, a in view]))
    rng.shuffle(found)
    chosen = []
    for seat, view in found:
        if len(chosen) == count:
            break
        if _choices(game, seat, view) >= 2:
            chosen.append((seat, view))
    return chosen


def _choices(game: WorldModel, seat: int, view: list) -> int:
    """Legal actions at the decision point (of any state consistent with it)."""
    if game.metadata.perfect_information:
        return len(game.legal_actions(view[-1][0]))
    sampler = make_sampler(game, "auto")
    state = sampler.belief(view, seat, random.Random(0)).sample(random.Random(0))
    return len(game.legal_actions(state))


class Trusted:
    """The search on the model file loaded in this process as trusted code."""

    def __init__(self, planner: str, path: Path, truth: WorldModel, sims: int,
                 rollouts: int) -> None:
        loaded = load_model_file(path, trusted=True)
        model = WorldModel(loaded.namespace, name="cwm", trusted=True, metadata=truth.metadata)
        rng = random.Random(1)
        evaluator = RandomRolloutEvaluator(model, rollouts)
        self.sampler = make_sampler(model, "auto")
        self.rng = rng
        if planner == "ismcts":
            self.search = ISMCTS(model, self.sampler, evaluator, simulations=sims, rng=rng)
        else:
            self.search = MCTS(model, evaluator, simulations=sims, rng=rng)

    def act(self, seat: int, view: list) -> str:
        if isinstance(self.search, ISMCTS):
            return self.search.best_action(view, seat)
        return self.search.best_action(self.sampler.belief(view, seat, self.rng).sample(self.rng))


def bench_game(name: str, args: argparse.Namespace) -> dict:
    planner, path, label, sims, rollouts = GAMES[name]
    sims = max(1, int(sims * args.scale))
    truth = make_game(name)
    points = positions(truth, args.positions, args.seed)
    settings = f"sims={sims}:rollouts={rollouts}"
    cwm_agents, starts = {}, []
    for seat in range(truth.num_players):
        agent = make_agent(f"cwm_{planner}:run={path}:{settings}", truth)
        began = time.perf_counter()
        agent.start(MatchInfo(name, seat, truth.num_players, seed=seat))
        starts.append(time.perf_counter() - began)
        cwm_agents[seat] = agent
    gt_agents = {}
    for seat in range(truth.num_players):
        gt_agents[seat] = make_agent(f"gt_{planner}:{settings}", truth)
        gt_agents[seat].start(MatchInfo(name, seat, truth.num_players, seed=seat))
    trusted = Trusted(planner, path, truth, sims, rollouts)
    variants = {
        "cwm": lambda seat, view: cwm_agents[seat].act(view),
        "trusted": trusted.act,
        "gt": lambda seat, view: gt_agents[seat].act(view),
    }
    order = list(variants)
    total = dict.fromkeys(variants, 0.0)
    moves = 0
    rounds = 0
    # short moves (Kuhn: tens of ms) are at the mercy of load spikes: more rounds for them
    while rounds < args.rounds or (min(total.values()) < args.min_seconds and rounds < 50):
        rounds += 1
        for i, (seat, view) in enumerate(points):
            for k in order[i % 3:] + order[:i % 3]:
                began = time.perf_counter()
                variants[k](seat, view)
                total[k] += time.perf_counter() - began
            moves += 1
    reports = []
    for agent in cwm_agents.values():
        agent.end([], [0.0] * truth.num_players)
        reports.append(agent.report)
        agent.close()  # back to the pool
    # a match's start: a reused worker from the pool (the agents just closed)
    again = make_agent(f"cwm_{planner}:run={path}:{settings}", truth)
    began = time.perf_counter()
    again.start(MatchInfo(name, 0, truth.num_players, seed=7))
    reused = time.perf_counter() - began
    again.close()
    ms = {k: 1000 * v / moves for k, v in total.items()}
    return {"game": name, "planner": planner, "model": label, "sims": sims,
            "rollouts": rollouts, "moves": moves, "ms": ms,
            "sims_per_s": {k: sims * moves / v for k, v in total.items()},
            "cwm/trusted": total["cwm"] / total["trusted"], "cwm/gt": total["cwm"] / total["gt"],
            "start_s": min(starts), "reused_s": reused,
            "copies": [r.get("copies", "") for r in reports],
            "fallbacks": sum(r["stats"]["fallbacks"] for r in reports)}


def bench_hosted(matches: int, seed: int) -> dict:
    """Rejection-tournament matches (:func:`ggp.arena.hosted.play_hosted`): two CWM
    agents on the recorded Leduc model hosted in a worker, with every worker started for
    the match (the pool emptied first) and with workers reused from the pool; interleaved."""
    from ggp.arena.hosted import play_hosted
    from ggp.sandbox.pool import POOL

    run = RECORDED / "leduc_poker"
    metadata = make_game("leduc_poker").metadata
    spec = f"cwm_ismcts:run={run / 'cwm.py'}:sims=100:rollouts=1"
    total = {"fresh": 0.0, "pooled": 0.0}
    play_hosted(run, metadata, [spec, spec], seed)  # fills the pool
    for k in range(matches):
        for variant in (("fresh", "pooled") if k % 2 == 0 else ("pooled", "fresh")):
            if variant == "fresh":
                POOL.close()
            began = time.perf_counter()
            _, failure = play_hosted(run, metadata, [spec, spec], seed + k)
            total[variant] += time.perf_counter() - began
            assert not failure, failure
    POOL.close()
    return {"matches": matches, "fresh_s": total["fresh"] / matches,
            "pooled_s": total["pooled"] / matches, "ratio": total["fresh"] / total["pooled"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--min-seconds", type=float, default=20.0,
                        help="more rounds (up to 50) until every variant ran this long")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hosted-matches", type=int, default=6,
                        help="rejection-tournament matches per variant (0: skip)")
    parser.add_argument("--json", default="", help="also write the rows to this file")
    parser.add_argument("--model", action="append", default=[], metavar="GAME=FILE",
                        help="plan on FILE instead of the game's model (e.g. a `ggp synth "
                             "--faster` run's faster.py); repeatable")
    args = parser.parse_args()
    for spec in args.model:
        game, _, file = spec.partition("=")
        if game not in GAMES or not Path(file).is_file():
            parser.error(f"--model {spec}: give GAME=FILE with GAME one of "
                         f"{', '.join(GAMES)} and an existing file")
        planner, _, _, sims, rollouts = GAMES[game]
        GAMES[game] = (planner, Path(file).resolve(), f"{Path(file).name} (--model)", sims,
                       rollouts)
    rows = []
    print("| game | search | model | sims × rollouts | moves | ms/move cwm | trusted | gt "
          "| sims/s cwm | trusted | gt | cwm / trusted | cwm / gt | worker start s | reused s |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.games.split(","):
        row = bench_game(name, args)
        rows.append(row)
        ms, sps = row["ms"], row["sims_per_s"]
        print(f"| {name} | {row['planner']} | {row['model']} | {row['sims']} × "
              f"{row['rollouts']} | {row['moves']} | {ms['cwm']:.1f} | {ms['trusted']:.1f} | "
              f"{ms['gt']:.1f} | {sps['cwm']:,.0f} | {sps['trusted']:,.0f} | {sps['gt']:,.0f} | "
              f"{row['cwm/trusted']:.2f} | {row['cwm/gt']:.2f} | {row['start_s']:.2f} | "
              f"{row['reused_s']:.3f} |", flush=True)
        if any(row["copies"]) or row["fallbacks"]:
            print(f"  note: {name}: copies {row['copies']}, fallbacks {row['fallbacks']}")
    if args.hosted_matches:
        hosted = bench_hosted(args.hosted_matches, args.seed)
        print(f"\nRejection-tournament match, leduc_poker (recorded model hosted, two "
              f"cwm_ismcts sims=100:rollouts=1), {hosted['matches']} matches each: "
              f"fresh workers {hosted['fresh_s']:.2f} s/match, pooled workers "
              f"{hosted['pooled_s']:.2f} s/match, ratio {hosted['ratio']:.2f}")
        rows.append({"hosted": hosted})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
