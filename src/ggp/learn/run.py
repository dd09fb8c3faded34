"""``ggp ppo train``: PPO for one seat, K seeds, the best kept; resumable.

Layout of ``OUT``::

    OUT/seat<S>/encoding.json          schema + action index (fitted once, reused on resume)
    OUT/seat<S>/seed<k>/checkpoint.pt  the run of seed k (resumed when present)
    OUT/seat<S>/seed<k>/eval.json      its evaluation against random on the real game
    OUT/seat<S>/best.pt                the seed with the best win rate (then mean return)
    OUT/seat<S>/summary.json           every seed's evaluation and the choice

With ``self_play`` the seat is ignored: one network is trained for every seat
(:func:`ggp.learn.selfplay.train_self_play`) under ``OUT/self_play/`` (same layout), each
seed is evaluated in every seat (mean win rate decides), and the best is also copied to
``OUT/seat<S>/best.pt`` for every seat, so ``ppo:checkpoint=OUT`` plays any seat. With
``opponent`` (a ggp agent spec) the other seats are played by that agent instead of
random (in process only, not inside a sandboxed CWM).

The policy is trained in ``train_model`` (the real game, or a CWM hosted in the sandbox)
and evaluated on the real game. The encoding is fitted on random games of both (the
real-game games stand in for seed 000's recorded trajectories, which come from the real
game).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ggp.core.files import write_output
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.env.envs import Encoding, VectorSeatEnv, game_identity
from ggp.env.samples import Samples, random_play_samples
from ggp.env.worker import ENV_ENTRY, batch_host
from ggp.learn.ppo import (
    Policy,
    PPOConfig,
    Trainer,
    evaluate,
    load_checkpoint,
    midpoint,
)
from ggp.load import load_model
from ggp.sandbox.hosted import HostedModel


@dataclass
class TrainSpec:
    game: str
    out: str
    seat: int = 0
    steps: int = 200_000
    seeds: int = 1
    cwm: str | None = None
    network: str = "auto"
    fit_games: int = 500
    eval_games: int = 500
    unknown: str = "overflow"
    num_envs: int = 50
    horizon: int = 100
    checkpoint_every: int = 5
    encoder: str = "schema"        # or "llm": written by ``llm`` (seed 000's variant)
    llm: Any = None
    self_play: bool = False        # one network for every seat, against itself and a league
    opponent: str | None = None    # a ggp agent spec for the other seats (default random)


def _sandbox_samples(model: HostedModel, games: int, seed: int) -> Samples:
    found = model.call("samples", games=games, seed=seed)
    return Samples(found["observations"], set(found["actions"]),
                   {int(p): set(a) for p, a in found.get("seat_actions", {}).items()},
                   bool(found.get("open_actions", False)))


def _encoding(spec: TrainSpec, real: WorldModel, train: WorldModel, path: Path) -> Encoding:
    if path.is_file():
        return Encoding.from_dict(json.loads(path.read_text()))
    samples = random_play_samples(real, spec.fit_games, seed=0)
    if batch_host(train) is not None:
        samples.extend(_sandbox_samples(train, spec.fit_games, seed=1))
    elif train is not real:
        samples.extend(random_play_samples(train, spec.fit_games, seed=1))
    if spec.encoder == "llm":
        from ggp.env.encoding import ActionIndex
        from ggp.env.llm_encoder import request_llm_encoder

        if spec.llm is None:
            raise GGPError("--encoder llm needs a language model: pass --backend (and "
                           "--model), or set GGP_LLM_BACKEND")
        encoding = Encoding(request_llm_encoder(spec.llm, samples.observations,
                                                game=spec.game),
                            ActionIndex(samples.actions, unknown=spec.unknown))
        encoding.game = game_identity(real)
    elif spec.encoder == "schema":
        # the source's own encoder where it has one (OpenSpiel tensors, GDL facts)
        encoding = Encoding.fit(samples, unknown=spec.unknown, model=real)
    else:
        raise GGPError(f"--encoder must be schema or llm, not {spec.encoder!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_output(path, json.dumps(encoding.to_dict()))
    return encoding


def train_seeds(spec: TrainSpec, progress: Callable[[int, dict[str, Any]], None] | None = None,
                evaluated: Callable[[int, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Train ``spec.seeds`` runs of one seat and keep the best; see the module doc."""
    real = load_model(spec.game)
    if not 0 <= spec.seat < real.num_players:
        raise GGPError(f"{spec.game} has no seat {spec.seat} (players 0..{real.num_players - 1})")
    network = spec.network
    if network == "auto":
        network = "mlp" if real.metadata.perfect_information else "gru"
    train: WorldModel = real
    if spec.cwm:
        # an LLM-written CWM: in a sandboxed environment host, alive for the whole run
        train = HostedModel(spec.cwm, real.metadata, entry=ENV_ENTRY, call_seconds=30.0,
                            cpu_seconds=24 * 3600)
    if spec.self_play and spec.opponent:
        raise GGPError("--self-play and --opponent exclude each other")
    if (spec.self_play or spec.opponent) and spec.cwm:
        raise GGPError("--self-play and --opponent run in process; they cannot train "
                       "inside a sandboxed --cwm yet")
    if spec.self_play and network != "mlp":
        raise GGPError("self-play needs the feed-forward network (--network mlp)")
    root = Path(spec.out) / ("self_play" if spec.self_play else f"seat{spec.seat}")
    seats = list(range(real.num_players)) if spec.self_play else [spec.seat]
    try:
        encoding = _encoding(spec, real, train, root / "encoding.json")
        results = []
        for k in range(spec.seeds):
            run = root / f"seed{k}"
            config = PPOConfig(network=network, seed=k, num_envs=spec.num_envs,
                               horizon=spec.horizon)
            meta = {"game": spec.game, "seat": spec.seat, "cwm": spec.cwm}
            report = (lambda row, k=k: progress(k, row)) if progress else None
            if spec.self_play:
                from ggp.learn.selfplay import train_self_play

                trainer = train_self_play(train, encoding, config, spec.steps,
                                          run / "checkpoint.pt", progress=report)
            else:
                opponents = None
                if spec.opponent:
                    from ggp.env.factory import AgentOpponent

                    opponents = [AgentOpponent(train, spec.opponent, seed=1000 * k + i)
                                 for i in range(spec.num_envs)]
                env = VectorSeatEnv(train, encoding, spec.num_envs, spec.seat, seed=1000 + k,
                                    opponents=opponents)
                trainer = Trainer(env, encoding, config, checkpoint=run / "checkpoint.pt",
                                  meta={**meta, "opponent": spec.opponent},
                                  win_above=midpoint(real))
                if trainer.step < spec.steps:
                    trainer.train(spec.steps, checkpoint_every=spec.checkpoint_every,
                                  progress=report)
            eval_path = run / "eval.json"
            result = json.loads(eval_path.read_text()) if eval_path.is_file() else None
            if result is None or result.get("step") != trainer.step:
                by_seat = [evaluate(Policy(trainer.net, encoding), real, seat,
                                    spec.eval_games, seed=10_000 + k) for seat in seats]
                result = dict(by_seat[0])
                for key in ("win", "draw", "loss", "mean_return"):
                    result[key] = sum(r[key] for r in by_seat) / len(by_seat)
                if spec.self_play:
                    result["by_seat"] = by_seat
                result.update(step=trainer.step, seed=k)
                write_output(eval_path, json.dumps(result, indent=1))
            if evaluated:
                evaluated(k, result)
            results.append(result)
    finally:
        if batch_host(train) is not None:
            train.close()
        if "encoding" in locals() and hasattr(encoding.encoder, "close"):
            encoding.encoder.close()
    best = max(range(len(results)),
               key=lambda i: (results[i]["win"], results[i]["mean_return"]))
    shutil.copyfile(root / f"seed{best}" / "checkpoint.pt", root / "best.pt")
    if spec.self_play:  # the one network serves every seat: seat<S>/best.pt for the agent
        for seat in seats:
            (Path(spec.out) / f"seat{seat}").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / "best.pt", Path(spec.out) / f"seat{seat}" / "best.pt")
    summary = {"game": spec.game, "cwm": spec.cwm, "seat": spec.seat, "steps": spec.steps,
               "self_play": spec.self_play, "opponent": spec.opponent,
               "network": network, "seeds": results, "best_seed": best,
               "best": str(root / "best.pt"), "obs_size": encoding.encoder.size,
               "actions": len(encoding.index)}
    write_output(root / "summary.json", json.dumps(summary, indent=1))
    return summary


def evaluate_checkpoint(checkpoint: str, game: str | None, seat: int | None, games: int,
                        seed: int, greedy: bool) -> dict[str, Any]:
    """Evaluate a checkpoint against random on the real game (default: the one it was
    trained for, in the seat it was trained for)."""
    data = load_checkpoint(checkpoint)
    game = game or data.get("game")
    if not game:
        raise GGPError("the checkpoint names no game; pass --game")
    model = load_model(game)
    seat = data.get("seat", 0) if seat is None else seat
    result = evaluate(Policy.from_checkpoint(data), model, seat, games, seed, greedy)
    result.update(game=game, seat=seat, step=data.get("step"), checkpoint=checkpoint)
    return result


__all__ = ["TrainSpec", "evaluate_checkpoint", "train_seeds"]
