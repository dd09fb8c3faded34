"""``ggp sepot train|eval|h2h``: R-NaD + SePoT training and the exploitability experiments."""

from __future__ import annotations

import glob
import json
import os
import re

import typer

sepot_app = typer.Typer(help="R-NaD with a SePoT critic: training, exploitability, head-to-head.",
                        no_args_is_help=True)


def _step_of(path: str) -> int:
    """The step of a ``step_<n>.pt`` snapshot (-1 for other checkpoint names)."""
    match = re.search(r"step_(\d+)\.pt$", path)
    return int(match.group(1)) if match else -1


def _snapshots(run: str, every: int) -> list[str]:
    if os.path.isfile(run):
        return [run]
    found = glob.glob(os.path.join(run, "step_*.pt"))
    return [p for s, p in sorted((_step_of(p), p) for p in found) if s % every == 0]


@sepot_app.command()
def train(
    game: str = typer.Argument(..., help="leduc, goofspiel4, goofspiel5r, battleship3, kuhn, ..."),
    out: str = typer.Option(..., help="Run folder (checkpoints; resumes if it exists)."),
    steps: int = typer.Option(10_000, help="Total learner steps."),
    seed: int = typer.Option(0),
    batch_size: int = typer.Option(128),
    hidden: int = typer.Option(256, help="Width of both hidden layers (networks and critic)."),
    snapshot_every: int = typer.Option(500, help="Keep step_<n>.pt every this many steps."),
    critic: bool = typer.Option(True, help="Train the SePoT critic alongside."),
) -> None:
    """Train R-NaD (and the SePoT critic) on GAME; Ctrl-C and rerun to resume."""
    from ggp.sepot.rnad import RNaDConfig
    from ggp.sepot.train import train as run

    config = RNaDConfig(game=game, seed=seed, batch_size=batch_size, hidden=(hidden, hidden),
                        critic_hidden=(hidden, hidden), critic=critic)
    run(config, out, steps, snapshot_every=snapshot_every)


@sepot_app.command("eval")
def evaluate(
    run: str = typer.Argument(..., help="Run folder (evaluates its step_*.pt) or one checkpoint."),
    out: str = typer.Option("", help="CSV to write (default: RUN/exploitability.csv)."),
    depths: str = typer.Option("1,2", help="Depth limits of the search, comma-separated."),
    iterations: int = typer.Option(500, help="CFR+ iterations per resolve."),
    every: int = typer.Option(1000, help="Only snapshots whose step is a multiple of this."),
    max_histories: int = typer.Option(25_000, help="Search only below this public-state size."),
    oracle: bool = typer.Option(False, help="Also search with exact values instead of the critic."),
    variants: str = typer.Option(
        "critic", help="Search variants, comma-separated: critic (the paper's SePoT), exact "
        "(oracle values), previous (opponent CFVs from the previous search, played ranges), "
        "previous_network, critic_played."),
    network_only: bool = typer.Option(False, help="Only the network's exploitability (fast)."),
) -> None:
    """Exact exploitability of the network vs SePoT per snapshot; writes CSV + PNG."""
    from ggp.sepot.evaluate import evaluate_checkpoint
    from ggp.sepot.plots import plot_exploitability, plot_variants, write_rows

    paths = _snapshots(run, every)
    if not paths:
        raise typer.BadParameter(f"No checkpoints (step_*.pt) in {run!r}.")
    out = out or os.path.join(run if os.path.isdir(run) else os.path.dirname(run),
                              "exploitability.csv")
    dls = () if network_only else tuple(int(d) for d in depths.split(","))
    names = [v for v in variants.split(",") if v] + (["exact"] if oracle else [])
    chosen = tuple(dict.fromkeys(names))
    rows = _read_rows(out)
    done = {int(float(r["step"])) for r in rows}
    for path in paths:
        if _step_of(path) in done:
            continue
        row = evaluate_checkpoint(path, dls, iterations, max_histories, variants=chosen)
        rows.append(row)
        typer.echo(json.dumps(row))
        write_rows(out, rows)
    title = os.path.basename(run.rstrip("/"))
    from ggp.arena.plots import PLOTS_HINT, plots_available

    if not plots_available():
        typer.echo(f"wrote {out}; {PLOTS_HINT}")
    elif len(chosen) > 1:
        plot_variants(rows, out.replace(".csv", ".png"), title)
    else:
        plot_exploitability(rows, out.replace(".csv", ".png"), title)


def _read_rows(path: str) -> list[dict]:
    """Rows of an earlier run of ``eval`` (evaluation resumes: done steps are skipped)."""
    import csv

    if not os.path.exists(path):
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


@sepot_app.command()
def h2h(
    sepot_checkpoint: str = typer.Argument(..., help="Networks + critic used by SePoT."),
    rnad_checkpoint: str = typer.Argument(..., help="Policy network played directly."),
    games: int = typer.Option(200),
    depth: int = typer.Option(2),
    iterations: int = typer.Option(500),
    max_histories: int = typer.Option(25_000, help="Search only below this public-state size."),
    max_nodes: int = typer.Option(200_000, help="Search only below this subgame size."),
    cfv_source: str = typer.Option("critic", help="Gadget CFVs: critic or previous."),
    ranges: str = typer.Option("network", help="Resolver's ranges: network or played."),
    seed: int = typer.Option(0),
) -> None:
    """Head-to-head SePoT vs R-NaD (both seats); prints SePoT's mean return +- 95% CI."""
    from ggp.sepot.evaluate import head_to_head

    result = head_to_head(sepot_checkpoint, rnad_checkpoint, games, depth_limit=depth,
                          iterations=iterations, max_histories=max_histories,
                          max_nodes=max_nodes, cfv_source=cfv_source, ranges=ranges,
                          seed=seed)
    typer.echo(json.dumps(result))


def register(app: typer.Typer) -> None:
    app.add_typer(sepot_app, name="sepot")
