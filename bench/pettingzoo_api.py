"""PettingZoo's ``api_test`` over many seeds on every kind of ggp game, with default settings.

Usage: nice -n 19 python bench/pettingzoo_api.py [--seeds N (100)] [--cycles 1000]
       [--only SUBSTRING ...] [--no-cwm]

Targets: every registered game, ``openspiel:leduc_poker`` and ``openspiel:goofspiel``
(needs the openspiel extra), the three GDL / GDL-II files shipped in ``ggp/gdl/games``
and two recorded real-model CWMs (``examples/recorded/leduc_poker`` and ``bargaining``,
run in the sandbox). Each target's environment is ``ggp.env.factory.env(model)`` with the
factory's defaults (the encoding fitted once per target on 200 random games, exactly what
``env(model)`` fits, then shared by its runs); each seed is one ``api_test`` run
(:func:`ggp.env.conformance.api_test_seed`), plus ``parallel_api_test`` on
``parallel_env(model)`` for simultaneous-move games. Prints a Markdown pass table (the
seconds include fitting the encoding; failures: the three commonest first lines) and
exits 1 if any run failed; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
GDL_FILES = ["connect_four.kif", "blind_tic_tac_toe.kif", "blind_tictactoe.gdl"]
CWMS = ["leduc_poker", "bargaining"]


def targets(with_cwm: bool) -> list[tuple[str, Callable[[contextlib.ExitStack], Any]]]:
    """``(label, open)`` pairs; ``open(stack)`` returns the world model (a sandboxed CWM
    registers its shutdown on ``stack``)."""
    import importlib.util

    from ggp.core.registry import registered_games
    from ggp.load import load_model

    out: list[tuple[str, Callable[[contextlib.ExitStack], Any]]] = [
        (name, lambda stack, name=name: load_model(name)) for name in registered_games()]
    if importlib.util.find_spec("pyspiel") is not None:
        for name in ["openspiel:leduc_poker", "openspiel:goofspiel"]:
            out.append((name, lambda stack, name=name: load_model(name)))
    for file in GDL_FILES:
        path = ROOT / "src" / "ggp" / "gdl" / "games" / file
        out.append((file, lambda stack, path=path: load_model(str(path))))
    if with_cwm:
        from ggp.env.worker import ENV_ENTRY
        from ggp.sandbox.hosted import HostedModel

        for game in CWMS:
            def open_cwm(stack: contextlib.ExitStack, game: str = game) -> Any:
                truth = load_model(game)
                return stack.enter_context(HostedModel(
                    ROOT / "examples" / "recorded" / game, truth.metadata, entry=ENV_ENTRY))
            out.append((f"CWM recorded/{game} (sandboxed)", open_cwm))
    return out


def run_target(label: str, model: Any, seeds: int, cycles: int) -> dict[str, Any]:
    """``seeds`` api_test runs (and parallel ones where the game is simultaneous)."""
    from ggp.env.conformance import api_test_seed, first_line, parallel_api_test_seed
    from ggp.env.envs import Encoding
    from ggp.env.factory import env, parallel_env

    start = time.perf_counter()
    encoding = Encoding.for_model(model, games=200)  # env(model)'s own default fit
    simultaneous = bool(model.metadata.simultaneous)
    row: dict[str, Any] = {"label": label, "inputs": encoding.encoder.size,
                           "actions": len(encoding.index), "aec": 0,
                           "parallel": 0 if simultaneous else None, "failures": Counter()}
    for seed in range(seeds):
        try:
            api_test_seed(lambda: env(model, encoding=encoding), seed, cycles)
            row["aec"] += 1
        except Exception as exc:  # noqa: BLE001 - a failing run is counted and the sweep goes on
            row["failures"][f"api_test: {first_line(exc)}"] += 1
        if simultaneous:
            try:
                parallel_api_test_seed(lambda: parallel_env(model, encoding=encoding),
                                       seed, cycles)
                row["parallel"] += 1
            except Exception as exc:  # noqa: BLE001 - counted, as above
                row["failures"][f"parallel_api_test: {first_line(exc)}"] += 1
        if (seed + 1) % 20 == 0 or seed + 1 == seeds:
            print(f"  {label}: {seed + 1}/{seeds} seeds, {row['aec']} passed, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    row["seconds"] = time.perf_counter() - start
    return row


def table(rows: list[dict[str, Any]], seeds: int) -> Iterator[str]:
    yield (f"| game | inputs | actions | api_test ({seeds} seeds) | parallel_api_test | "
           "seconds | failures |")
    yield "|---|---:|---:|---:|---:|---:|---|"
    for r in rows:
        par = "—" if r["parallel"] is None else f"{r['parallel']}/{seeds}"
        fails = "; ".join(f"{n}× {text}" for text, n in r["failures"].most_common(3))
        yield (f"| {r['label']} | {r['inputs']} | {r['actions']} | {r['aec']}/{seeds} | {par} "
               f"| {r['seconds']:.0f} | {fails} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--cycles", type=int, default=1000,
                        help="api_test's num_cycles (its default; one game ends a run)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="run only the targets whose label contains one of these")
    parser.add_argument("--no-cwm", action="store_true", help="skip the sandboxed CWMs")
    args = parser.parse_args()
    from ggp.env.conformance import first_line

    rows = []
    chosen = [(label, open_) for label, open_ in targets(not args.no_cwm)
              if not args.only or any(s in label for s in args.only)]
    for i, (label, open_) in enumerate(chosen):
        print(f"[{i + 1}/{len(chosen)}] {label}", file=sys.stderr, flush=True)
        with contextlib.ExitStack() as stack:
            try:
                row = run_target(label, open_(stack), args.seeds, args.cycles)
            except Exception as exc:  # noqa: BLE001 - the game did not even open: a row that says so
                row = {"label": label, "inputs": 0, "actions": 0, "aec": 0, "parallel": None,
                       "seconds": 0.0, "failures": Counter({f"setup: {first_line(exc)}": 1})}
        rows.append(row)
    for line in table(rows, args.seeds):
        print(line)
    failed = sum(bool(r["failures"]) for r in rows)
    print(f"\n{len(rows) - failed}/{len(rows)} games passed every seed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
