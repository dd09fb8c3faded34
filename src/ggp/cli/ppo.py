"""``ggp ppo train|eval``: PPO inside a world model (seed 000 App. D); see docs/ppo.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ggp.core.errors import GGPError

ppo_app = typer.Typer(help="PPO inside a world model: train one seat, evaluate a checkpoint.",
                      no_args_is_help=True)


def _imports():
    try:
        import torch

        from ggp.learn import run
    except ImportError as exc:
        raise GGPError("ggp ppo needs torch, gymnasium and pettingzoo: "
                       "pip install 'ggp[torch,env]'.") from exc
    torch.set_num_threads(1)
    return run


@ppo_app.command()
def train(
    game: str = typer.Argument(..., help="The real game: a registered name, .kif or .py "
                               "model. Evaluation always plays it."),
    out: str = typer.Option(..., help="Run folder; rerun the same command to resume."),
    cwm: str = typer.Option("", help="Train inside this CWM (a synthesis run directory or a "
                            ".py file), run in the sandbox; default: train on GAME itself."),
    seat: str = typer.Option("0", help="Seat(s) to train, e.g. 0 or 0,1."),
    steps: int = typer.Option(200_000, help="Learner steps per seed."),
    seeds: int = typer.Option(1, help="Independent runs per seat; the best win rate "
                              "against random on GAME is kept as best.pt."),
    network: str = typer.Option("auto", help="mlp, gru or auto (mlp for perfect "
                                "information, gru otherwise)."),
    envs: int = typer.Option(50, help="Parallel games (Table 17: 50)."),
    horizon: int = typer.Option(100, help="Steps per game per update (Table 17: 100)."),
    fit_games: int = typer.Option(500, help="Random games to fit the observation schema "
                                  "and the action index on."),
    eval_games: int = typer.Option(500, help="Games against random to evaluate each seed."),
    unknown: str = typer.Option("overflow", help="Observations or actions outside the "
                                "schema: overflow (an 'other' slot per categorical leaf, "
                                "counted), ignore (encode as zeros / not selectable) or "
                                "error."),
    encoder: str = typer.Option("schema", help="schema (learned, no language model) or llm "
                                "(observation_to_tensor written by a language model, checked "
                                "in the sandbox to be a bijection on the examples)."),
    self_play: bool = typer.Option(False, "--self-play", help="One network for every seat, "
                                   "trained against itself and a league of its past copies "
                                   "(--seat is ignored; needs --network mlp or auto on a "
                                   "perfect-information game)."),
    opponent: Optional[str] = typer.Option(None, help="A ggp agent spec for the other seats "
                                           "(default: uniformly random), e.g. "
                                           "gt_mcts:sims=20."),
    backend: Optional[str] = typer.Option(None, help="LLM backend for --encoder llm."),
    model: Optional[str] = typer.Option(None, help="LLM model name for --encoder llm."),
    base_url: Optional[str] = typer.Option(None, help="Endpoint of an OpenAI-compatible "
                                           "server."),
) -> None:
    """Train PPO for one or more seats against a random opponent; progress shows the
    training win rate, the summary each seed's win rate on the real game."""
    run = _imports()
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from ggp.cli.output import console

    if unknown not in ("overflow", "ignore", "error"):
        raise GGPError("--unknown must be overflow, ignore or error")
    try:
        seats = [int(s) for s in seat.split(",") if s.strip()]
    except ValueError:
        raise GGPError(f"--seat takes seat numbers separated by commas, not {seat!r}") from None
    llm = None
    if encoder == "llm":
        from ggp.cli.cwm import _llm

        llm = _llm(Path(out), backend, model, base_url, None)
    if self_play:
        seats = seats[:1]  # one run trains every seat
    for s in seats:
        spec = run.TrainSpec(encoder=encoder, llm=llm,game=game, out=out, seat=s, steps=steps, seeds=seeds,
                             cwm=cwm or None, network=network, fit_games=fit_games,
                             eval_games=eval_games, unknown=unknown, num_envs=envs,
                             horizon=horizon, self_play=self_play, opponent=opponent)
        with Progress(TextColumn("{task.description}"), BarColumn(),
                      TextColumn("{task.completed:,.0f}/{task.total:,.0f} steps"),
                      TextColumn("{task.fields[info]}"), TimeRemainingColumn(),
                      console=console) as bar:
            tasks: dict[int, int] = {}

            def progress(k: int, row: dict) -> None:
                if k not in tasks:
                    tasks[k] = bar.add_task(f"seat {s} seed {k}", total=steps, info="")
                info = (f"win {row['win_rate']:.2f} return {row['mean_return']:+.2f}"
                        f" ({row['steps_per_s']:.0f} steps/s)")
                bar.update(tasks[k], completed=row["step"], info=info)
                if not console.is_terminal:  # logs get a line per 10 updates instead
                    tasks[-1 - k] = tasks.get(-1 - k, 0) + 1
                    if tasks[-1 - k] % 10 == 1 or row["step"] >= steps:
                        bar.console.print(f"seat {s} seed {k}: step {row['step']:,} {info}")

            def evaluated(k: int, result: dict) -> None:
                bar.console.print(
                    f"seat {s} seed {k}: against random on {game} over {result['games']} "
                    f"games: win {result['win']:.3f}, draw {result['draw']:.3f}, "
                    f"mean return {result['mean_return']:+.3f} ± {result['ci95']:.3f}")

            summary = run.train_seeds(spec, progress, evaluated)
        console.print(f"seat {s}: best seed {summary['best_seed']} -> {summary['best']}")


@ppo_app.command("eval")
def evaluate(
    checkpoint: str = typer.Argument(..., help="A checkpoint (best.pt or checkpoint.pt)."),
    game: str = typer.Option("", help="Game to play (default: the one it was trained for)."),
    seat: int = typer.Option(-1, help="Seat (default: the one it was trained for)."),
    games: int = typer.Option(500),
    seed: int = typer.Option(0),
    greedy: bool = typer.Option(False, help="Play the most likely action instead of sampling."),
) -> None:
    """Play a checkpoint against random opponents; prints one JSON line."""
    run = _imports()
    result = run.evaluate_checkpoint(checkpoint, game or None, None if seat < 0 else seat,
                                     games, seed, greedy)
    typer.echo(json.dumps(result))


def register(app: typer.Typer) -> None:
    app.add_typer(ppo_app, name="ppo")
