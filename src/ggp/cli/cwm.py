"""``ggp cwm``: play with synthesized code world models.

* ``ggp cwm experiment GAME`` — the paper's experiment for one game (synthesize K models,
  reject bad samples, optional value functions, arena, accuracy during play, summary);
* ``ggp cwm values RUN`` — value-function synthesis and selection for one run;
* ``ggp cwm priors RUN`` — policy-prior synthesis and selection for one run;
* ``ggp cwm select RUN --candidates A,B`` — choose the run's agent by a measured duel;
* ``ggp cwm reject RUN RUN ...`` — the bad-sample rejection tournament;
* ``ggp cwm accuracy RUN --arena DIR`` — a model's accuracy on the games of a tournament.

CWM agents for ``ggp arena`` are ``cwm_ismcts:run=DIR`` and ``cwm_mcts:run=DIR``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from ggp.cli.output import make_console

from ggp.cli.core import refuse_untrusted

console = make_console(width=None)
app = typer.Typer(help="Play with synthesized code world models (docs/cwm.md).",
                  no_args_is_help=True)

_BACKEND = typer.Option(None, help="LLM backend: openai | anthropic | google | ollama | vllm "
                        "| lmstudio | exchange (env GGP_LLM_BACKEND); without one, recorded "
                        "answers are replayed.")
_MODEL = typer.Option(None, help="Model name (env GGP_LLM_MODEL).")
_BASE_URL = typer.Option(None, help="Endpoint of an OpenAI-compatible server.")
_CONFIG = typer.Option(None, help="TOML file with an \\[llm] table.")
_EXCHANGE = typer.Option(None, help="Folder for the file-exchange backend (prompts out, "
                         "answers in; env GGP_LLM_EXCHANGE_DIR).")


def _llm(out: Path, backend: str | None, model: str | None, base_url: str | None,
         config: Path | None, exchange_dir: Path | None = None) -> Any:
    """A client of the LLM layer, or None (replay only) when nothing names a backend."""
    import os

    from ggp.llm import load_config, make_client

    if backend is None and config is None and not os.environ.get("GGP_LLM_BACKEND"):
        return None
    settings = load_config(config, backend=backend, model=model, base_url=base_url,
                           exchange_dir=str(exchange_dir) if exchange_dir else None)
    out.mkdir(parents=True, exist_ok=True)
    return make_client(settings, run_dir=out)


@app.command()
def experiment(
    game: str = typer.Argument(..., help="A registered game, or a .py model file of your "
                               "own (the ground truth; needs --trusted)."),
    out: Path | None = typer.Option(None, help="Directory (default runs/cwm/GAME)."),
    syntheses: int = typer.Option(5, help="Models synthesized (K)."),
    budget: int = typer.Option(500, help="LLM calls per synthesis."),
    deck: str = typer.Option("open", help="open | closed training games."),
    inference: str = typer.Option("auto", help="auto | history | state | none."),
    sims: int = typer.Option(1000, help="Simulations per move of the search agents."),
    rollouts: int = typer.Option(10, help="Random rollouts per leaf."),
    values: bool = typer.Option(False, help="Also synthesize and select value functions."),
    priors: bool = typer.Option(True, help="Synthesize and select a policy prior for each "
                                "kept model (asks the model; skipped in a replay without "
                                "one); the CWM agents then search with it."),
    matches: int = typer.Option(100, help="Arena matches per seat and opponent."),
    llm_agent: str = typer.Option("", help="LLM-as-policy opponent spec, e.g. "
                                  "'llm:model_name=gpt-4o-mini'."),
    workers: int | None = typer.Option(None, help="Parallel arena matches."),
    seed: int = typer.Option(0),
    replay: Path | None = typer.Option(
        None, help="A recorded synthesis run (e.g. examples/recorded/GAME): reproduced "
        "from its answers as the only synthesis, instead of new ones."),
    trusted: bool = typer.Option(
        False, help="A .py game may run in this process (arena, accuracy checks); its "
        "games for synthesis are recorded in a sandbox either way."),
    backend: str | None = _BACKEND, model: str | None = _MODEL,
    base_url: str | None = _BASE_URL, config: Path | None = _CONFIG,
    exchange_dir: Path | None = _EXCHANGE,
) -> None:
    """Synthesize, select and evaluate CWMs for GAME; rerun the same command to resume."""
    from ggp.cwm.experiment import ExperimentConfig, run_experiment

    if inference not in ("auto", "history", "state", "none"):
        raise typer.BadParameter("--inference must be auto, history, state or none.")
    if deck not in ("open", "closed"):
        raise typer.BadParameter("--deck must be open or closed.")
    out = out or Path("runs") / "cwm" / Path(game).stem
    settings = ExperimentConfig(game=game, syntheses=syntheses, budget=budget, deck=deck,
                                inference=inference, sims=sims, rollouts=rollouts,
                                values=values, priors=priors, matches=matches,
                                llm_agent=llm_agent, workers=workers, seed=seed,
                                replay=str(replay.resolve()) if replay else "",
                                trusted=trusted)
    refuse_untrusted([game], trusted, "cwm experiment")  # the same rule as play/arena
    llm = _llm(out, backend, model, base_url, config, exchange_dir)
    if llm is None and replay is None and not out.exists():
        # nothing to replay and no model: say how to set one up before writing anything
        from ggp.llm.base import LLMConfigError
        from ggp.llm.config import SETUP_HELP

        raise LLMConfigError(SETUP_HELP)
    summary = run_experiment(out, settings, llm, log=lambda m: console.print(f"[dim]{m}[/]"))
    console.print((out / "summary.md").read_text())
    if summary["scripted"]:
        console.print("[yellow]Scripted answers: not a model's work.[/]")


@app.command("values")
def values_command(
    run: Path = typer.Argument(..., help="A synthesis run directory."),
    game: str = typer.Option(..., help="The registered game (for its utility range)."),
    candidates: int = typer.Option(3), matches: int = typer.Option(10),
    sims: int = typer.Option(100), seed: int = typer.Option(0),
    backend: str | None = _BACKEND, model: str | None = _MODEL,
    base_url: str | None = _BASE_URL, config: Path | None = _CONFIG,
) -> None:
    """Synthesize value functions for RUN's model and select one (or rollouts)."""
    from ggp.core.registry import make_game
    from ggp.synth.value import synthesize_values

    record = synthesize_values(run, _llm(run, backend, model, base_url, config),
                               make_game(game).metadata, candidates=candidates,
                               matches=matches, sims=sims, seed=seed)
    console.print_json(json.dumps(record))


@app.command("priors")
def priors_command(
    run: Path = typer.Argument(..., help="A synthesis run directory."),
    game: str = typer.Option(..., help="The registered game (for its public metadata)."),
    candidates: int = typer.Option(3, help="Policy priors asked for."),
    matches: int = typer.Option(10, help="Duel matches per seat against no prior."),
    sims: int = typer.Option(100, help="Simulations per move of both duel agents."),
    rollouts: int = typer.Option(10, help="Rollouts per leaf when no value is used."),
    value: str = typer.Option("auto", help="Value setting of both duel agents: auto (the "
                              "run's value_function.py if any), none, or a file."),
    games: int = typer.Option(5, help="Random games whose decision points are checked."),
    call_seconds: float = typer.Option(1.0, help="Time limit of one policy_prior call."),
    seed: int = typer.Option(0),
    backend: str | None = _BACKEND, model: str | None = _MODEL,
    base_url: str | None = _BASE_URL, config: Path | None = _CONFIG,
    exchange_dir: Path | None = _EXCHANGE,
) -> None:
    """Synthesize policy priors for RUN's model, check them, duel them against no prior,
    and select one (policy_prior.py); rerun the same command to resume."""
    from ggp.core.registry import make_game
    from ggp.rundir import POLICY_PRIOR
    from ggp.synth.prior import synthesize_priors

    if candidates < 1 or matches < 1 or sims < 1 or games < 1 or call_seconds <= 0:
        raise typer.BadParameter("--candidates, --matches, --sims, --games and "
                                 "--call-seconds must be positive.")
    record = synthesize_priors(run, _llm(run, backend, model, base_url, config, exchange_dir),
                               make_game(game).metadata, candidates=candidates,
                               matches=matches, sims=sims, rollouts=rollouts,
                               value="" if value == "none" else value, games=games,
                               call_seconds=call_seconds, seed=seed,
                               log=lambda m: console.print(f"[dim]{m}[/]"))
    for entry in record["candidates"]:
        duel = entry.get("vs_no_prior")
        verdict = (f"margin {duel['margin']:+.3f} over {duel['matches']} matches, "
                   f"{duel['failures']} failed" if duel else
                   f"[red]refused[/]: {entry['check']['error'][:160]}")
        console.print(f"prior {entry['id']}: {verdict}")
    chosen = record["selected"]
    console.print(f"selected: {record['candidates'][chosen]['file']} -> "
                  f"{Path(run) / POLICY_PRIOR}" if chosen is not None else
                  "selected: none (the search keeps no prior)")


@app.command("select")
def select_command(
    run: Path = typer.Argument(..., help="A synthesis run directory."),
    game: str = typer.Option(..., help="The registered game (for its public metadata)."),
    candidates: str = typer.Option(..., help="Comma-separated agent specs without run=, "
                                   "sims= and time=, e.g. cwm_ismcts,cwm_ismcts:prior=none"),
    default: str | None = typer.Option(None, help="The agent kept unless a candidate beats "
                                       "it significantly (default: the first candidate)."),
    matches: int = typer.Option(4, help="Matches per seat of each duel (with duplicate: "
                                "pairs)."),
    move_time: float = typer.Option(0.5, help="Seconds per move of every candidate."),
    duplicate: str = typer.Option("auto", help="auto (when the game has chance) | on | off."),
    round_robin: bool = typer.Option(False, help="Every pair of candidates meets, not only "
                                     "each candidate and the default."),
    seed: int = typer.Option(0),
) -> None:
    """Duel candidate agents on RUN's model at equal move time and record the choice in
    RUN/agent_selection.json; rerun the same command to resume."""
    from ggp.core.registry import make_game
    from ggp.cwm.select import select_agent

    if duplicate not in ("auto", "on", "off"):
        raise typer.BadParameter("--duplicate must be auto, on or off.")
    specs = [c.strip() for c in candidates.split(",") if c.strip()]
    record = select_agent(run, make_game(game).metadata, specs, default=default,
                          matches=matches, move_time=move_time,
                          duplicate={"auto": None, "on": True, "off": False}[duplicate],
                          round_robin=round_robin, seed=seed, game=game,
                          log=lambda m: console.print(f"[dim]{m}[/]"))
    _print_selection(record)


def _print_selection(record: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title="Duels on the CWM (margin: the first agent's return minus the "
                  "second's, mean ± 95% CI)")
    for column in ("agent", "opponent", "n", "margin", "agent's return",
                   "failed (agent / opponent / host)"):
        table.add_column(column, overflow="fold")
    for d in record["duels"]:
        ci = f" ± {d['ci95']:.3f}" if d.get("ci95") is not None else ""
        blame = d.get("failed_by", {})
        table.add_row(d["agent"], d["opponent"], f"{d['units']} {d['unit']}",
                      f"{d['margin']:+.3f}{ci}", f"{d.get('agent_return', 0.0):+.3f}",
                      f"{blame.get('agent', 0)} / {blame.get('opponent', 0)} / "
                      f"{blame.get('host', 0)}")
    console.print(table)
    console.print(f"selected: {record['selected']}"
                  + (" (the default)" if record["selected_is_default"] else ""))
    console.print(f"why: {record['reason']}")


@app.command()
def reject(
    runs: list[Path] = typer.Argument(..., help="Synthesis run directories."),
    game: str = typer.Option(..., help="The registered game."),
    out: Path = typer.Option(Path("rejection.json")),
    planner: str = typer.Option("ismcts", help="ismcts | mcts"),
    settings: str = typer.Option("sims=100:rollouts=1"),
    matches: int = typer.Option(2, help="Matches per pair, host model and seat."),
    threshold: float = typer.Option(0.1, help="Fraction of the utility range."),
) -> None:
    """Play the rejection tournament (App. E) and print kept and rejected models."""
    from ggp.core.registry import make_game
    from ggp.synth.rejection import reject_bad_samples

    record = reject_bad_samples(runs, make_game(game).metadata, out, planner=planner,
                                settings=settings, matches=matches, threshold=threshold)
    for run, score in zip(record["config"]["runs"], record["scores"]):
        mark = "kept" if run in record["kept"] else "[red]rejected[/]"
        console.print(f"{score:+.3f}  {mark}  {run}")


@app.command()
def accuracy(
    run: Path = typer.Argument(..., help="A synthesis run directory or model file."),
    arena: Path = typer.Option(..., help="An arena results directory."),
    game: str = typer.Option(..., help="The registered game (ground truth)."),
    max_games: int = typer.Option(50),
) -> None:
    """Transition and inference accuracy of RUN's model on the games of ARENA."""
    from ggp.core.registry import make_game
    from ggp.cwm.accuracy import arena_accuracy

    console.print_json(json.dumps(arena_accuracy(run, arena, make_game(game),
                                                 max_games=max_games)))


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="cwm")
