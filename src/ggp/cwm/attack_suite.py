"""The sandbox's attack suite: hostile code (:mod:`ggp.sandbox.attacks`) through every
path that runs code the user did not write, checked for containment.

An *entry point* runs a hostile world model (or agent) the way ggp would: the synthesis
test runner (unit and inference tests), the value-function and policy-prior checks,
``ggp check``'s sandboxed check, a match on a hosted model (the rejection tournament's and
experiment's way), a CWM agent in a match (the arena's way), a CWM's tree walked for CFR+
(``cwm_cfr``) and a file agent in the arena's sandboxed worker. :func:`run_attack` runs
one group of attacks through one entry point and :func:`contained` judges it: nothing
received by the host's listeners, no canary written outside, no secret, shadow line or
leak in any output, no process left behind. The process running this is the "ggp
process": if an attack killed it, nothing would report.

``ggp sandbox selftest`` (:func:`selftest`) and ``tests/sandbox`` use this module.
"""

from __future__ import annotations

import json
import logging
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ggp.sandbox.attacks import (
    ATTACKS,
    Bait,
    bait,
    hostile_agent,
    hostile_encoder,
    hostile_model,
    leftover_processes,
    tagged_boxes,
)
from ggp.sandbox.pool import POOL

#: Attacks that do not end the hostile process run together; each fatal one alone.
GROUPS: tuple[tuple[str, ...], ...] = (
    tuple(a.name for a in ATTACKS if not a.fatal),
    *((a.name,) for a in ATTACKS if a.fatal),
)

#: What an entry point adds to its outputs when the judge passed the hostile code: the
#: hostile model fails every check (its ``apply_action`` raises, and the tests expect
#: rewards no tic-tac-toe state has), so a pass can only be forged.
FORGED_PASS = "FORGED PASS: the judge passed hostile code"


def _unpassable_trajectories():
    """Tic-tac-toe games whose recorded rewards are impossible (7.5 each): no model of
    the game passes a test made from them, so a passing test is a forged verdict."""
    from dataclasses import replace

    from ggp.core.registry import make_game
    from ggp.synth.trajectories import collect

    games = collect(make_game("tic_tac_toe"), games=1, seed=0)
    for trajectory in games.trajectories:
        trajectory.steps = [replace(step, rewards=[7.5] * len(step.rewards))
                            for step in trajectory.steps]
    return games


def _synthesis(model: str, work: Path) -> list[str]:
    from ggp.synth.runner import run_tests
    from ggp.synth.unit_tests import generate_tests

    tests = generate_tests(_unpassable_trajectories(), random_play=0)[:3]
    report = run_tests(model, tests, test_seconds=3.0)
    forged = [FORGED_PASS] if any(r.passed for r in report.results) else []
    return [json.dumps(report.as_dict()), report.load_error or "",
            *report.sandbox_problems, *forged]


def _accuracy(model: str, work: Path) -> list[str]:
    from ggp.cwm.accuracy import tests_accuracy

    found = tests_accuracy(model, _unpassable_trajectories(), inference=False,
                           test_seconds=3.0)
    return [json.dumps(found), *([FORGED_PASS] if found["accuracy"] else [])]


def _value_check(model: str, work: Path) -> list[str]:
    from ggp.synth.value import check_candidate

    value = "def value_function(state, player):\n    return 0.0\n"
    found = check_candidate(model, value, games=1, seconds=10.0)
    return [json.dumps(found), *([FORGED_PASS] if found.get("ok") else [])]


def _prior_check(model: str, work: Path) -> list[str]:
    from ggp.core.registry import make_game
    from ggp.synth.prior import check_prior

    # the candidate runs the model's code as a prior may (apply_action sets off the
    # attacks that wait for a call); the legal actions are the parent's, never the box's
    prior = ("def policy_prior(state, player_id):\n"
             "    legal = get_legal_actions(state)\n"
             "    apply_action(state, legal[0])\n"
             "    return {a: 1.0 for a in legal}\n")
    truth = make_game("tic_tac_toe")
    state = truth.initial_state()
    cases = [{"state": state, "player": 0, "legal": truth.legal_actions(state)}]
    return [json.dumps(check_prior(model, prior, cases, call_seconds=10.0,
                                   start_seconds=20.0))]


def _check(model: str, work: Path) -> list[str]:
    from ggp.check import check_source
    from ggp.core.errors import ModelLoadError

    try:
        report = check_source(model, name="hostile", filename="hostile.py", games=2,
                              timeout=10.0)
    except ModelLoadError as exc:
        return [str(exc)]
    return [json.dumps([v.to_dict() for v in report.violations.values()]),
            *([FORGED_PASS] if report.ok else [])]


def _match(agents_for: Callable[[Path], tuple[object, list]], work: Path) -> list[str]:
    from ggp.arena.match import play_match

    game, agents = agents_for(work)
    try:
        result = play_match(game, agents, seed=0, max_steps=30, move_seconds=10.0)
    finally:
        for agent in agents:
            agent.close()
        if hasattr(game, "close"):
            game.close()
    return [json.dumps(result.to_dict())]


def _hosted(model: str, work: Path) -> list[str]:
    from ggp.agents import make_agent
    from ggp.core.errors import GGPError
    from ggp.core.registry import make_game
    from ggp.sandbox.hosted import HostedModel

    path = work / "hostile.py"
    path.write_text(model, encoding="utf-8")

    def agents_for(work: Path):
        game = HostedModel(path, make_game("tic_tac_toe").metadata, call_seconds=3.0,
                           memory_mb=512)
        return game, [make_agent("random", game), make_agent("random", game)]

    try:
        return _match(agents_for, work)
    except GGPError as exc:  # the hosted game failed: how a match on it ends (contained)
        return [str(exc)]


def _cwm_agent(model: str, work: Path) -> list[str]:
    from ggp.agents import make_agent
    from ggp.core.registry import make_game

    path = work / "hostile.py"
    path.write_text(model, encoding="utf-8")

    def agents_for(work: Path):
        game = make_game("tic_tac_toe")
        spec = f"cwm_mcts:run={path}:sims=4:rollouts=1:move_seconds=3:memory_mb=512"
        return game, [make_agent(spec, game), make_agent("random", game)]

    return _match(agents_for, work)


def _cwm_cfr(model: str, work: Path) -> list[str]:
    from ggp.agents import make_agent
    from ggp.core.registry import make_game

    path = work / "hostile.py"
    path.write_text(model, encoding="utf-8")

    def agents_for(work: Path):
        # the probe and the walk run the model in the box; tic-tac-toe is over the limit,
        # so the match ends in the agent's forfeit once the model has had its go
        game = make_game("tic_tac_toe")
        spec = f"cwm_cfr:run={path}:max_nodes=2000:seconds=10:memory_mb=512:cache=none"
        return game, [make_agent(spec, game), make_agent("random", game)]

    return _match(agents_for, work)


def _file_agent(agent: str, work: Path) -> list[str]:
    from dataclasses import replace

    from ggp.agents import make_agent
    from ggp.arena.sandboxed import AGENT_LIMITS, SandboxedAgent
    from ggp.core.registry import make_game

    path = work / "hostile_agent.py"
    path.write_text(agent, encoding="utf-8")

    def agents_for(work: Path):
        game = make_game("tic_tac_toe")
        limits = replace(AGENT_LIMITS, memory_mb=512, network=False)
        hostile = SandboxedAgent(str(path), "tic_tac_toe", move_seconds=3.0,
                                 start_seconds=10.0, limits=limits)
        return game, [hostile, make_agent("random", game)]

    return _match(agents_for, work)


def _model_file(model: str, work: Path) -> list[str]:
    from ggp.synth.model_file import ModelFileError, record_model_file

    path = work / "hostile.py"
    path.write_text(model, encoding="utf-8")
    try:
        found = record_model_file(path, games=1, seed=0, players=["random", "random"],
                                  deck="open", view_player=0, test_games=0, test_seed=1,
                                  test_players=None, timeout=20.0)
    except ModelFileError as exc:  # the recording failed: contained
        return [str(exc)]
    from ggp.synth.trajectories import save_trajectories

    save_trajectories(found["train"], work / "train.jsonl")  # the run's file, judged below
    return [found["rules"]]


def _env_model(model: str, work: Path) -> list[str]:
    from ggp.agents import make_agent
    from ggp.core.errors import GGPError
    from ggp.core.registry import make_game
    from ggp.env.worker import ENV_ENTRY
    from ggp.sandbox.hosted import HostedModel

    path = work / "hostile.py"
    path.write_text(model, encoding="utf-8")

    def agents_for(work: Path):
        game = HostedModel(path, make_game("tic_tac_toe").metadata, entry=ENV_ENTRY,
                           call_seconds=3.0, memory_mb=512, cpu_seconds=60)
        return game, [make_agent("random", game), make_agent("random", game)]

    try:
        return _match(agents_for, work)
    except GGPError as exc:  # the sandboxed model failed: contained
        return [str(exc)]


def _llm_encoder(encoder: str, work: Path) -> list[str]:
    from ggp.core.registry import make_game
    from ggp.env.encoding import EncodingError
    from ggp.env.llm_encoder import LLMEncoder, check_encoder
    from ggp.env.samples import random_play_samples

    observations = random_play_samples(make_game("tic_tac_toe"), games=1).observations[:4]
    _, reason = check_encoder(encoder, observations, timeout=20.0)
    outputs = [reason]
    live = LLMEncoder(encoder, size=1)  # the training path: a worker, one call per batch
    try:
        outputs.append(json.dumps(live.encode_batch(observations).tolist()))
    except EncodingError as exc:  # the encoder failed: contained
        outputs.append(str(exc))
    finally:
        live.close()
    return outputs


#: name -> (what it stands for, builds a model or an agent, runs it)
ENTRY_POINTS: dict[str, tuple[str, Callable, Callable[[str, Path], list[str]]]] = {
    "synthesis": ("synthesis unit and inference tests (ggp synth)", hostile_model,
                  _synthesis),
    "accuracy": ("held-out and online accuracy (ggp cwm experiment, ggp.cwm.accuracy)",
                 hostile_model, _accuracy),
    "value_check": ("value-function checks (ggp cwm values)", hostile_model, _value_check),
    "prior_check": ("policy-prior checks (ggp cwm priors)", hostile_model, _prior_check),
    "check": ("ggp check on a .py model", hostile_model, _check),
    "hosted": ("a match on a hosted model (rejection tournament, experiment)",
               hostile_model, _hosted),
    "cwm_agent": ("a CWM agent in a match (ggp arena -a cwm_mcts:run=...)", hostile_model,
                  _cwm_agent),
    "cwm_cfr": ("a CWM solved with CFR+ (ggp arena -a cwm_cfr:run=...)", hostile_model,
                _cwm_cfr),
    "file_agent": ("a file agent in the arena's sandboxed worker (ggp arena -a x.py)",
                   hostile_agent, _file_agent),
    "model_file": ("recording a user's .py game for synthesis (ggp synth x.py)",
                   hostile_model, _model_file),
    "env_model": ("a CWM behind the RL environments (ggp ppo train --cwm RUN)",
                  hostile_model, _env_model),
    "llm_encoder": ("an LLM-written observation encoder (ggp ppo train --encoder llm)",
                    hostile_encoder, _llm_encoder),
}


@dataclass
class Outcome:
    """One group of attacks through one entry point, and what got out."""

    entry: str
    attacks: tuple[str, ...]
    breaches: list[str] = field(default_factory=list)
    left_behind: list[int] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    forged: bool = False
    left_folders: list[str] = field(default_factory=list)
    clean_mb: float = 0.0
    start_mb: float = 0.0
    peak_mb: float = 0.0

    @property
    def memory_blown(self) -> bool:
        """The attack cost the ggp process more than its whole clean size: it grew past
        twice its clean peak (counted from its size when the attack started, since freed
        memory is not always given back to the system)."""
        return self.clean_mb > 0 and self.peak_mb - self.start_mb > self.clean_mb

    @property
    def contained(self) -> bool:
        return not (self.breaches or self.left_behind or self.error or self.forged
                    or self.left_folders or self.memory_blown)

    def problems(self) -> list[str]:
        """One line per way the run was not contained."""
        return [*self.breaches,
                *(f"process {pid} left behind" for pid in self.left_behind),
                *([f"escaped: {self.error}"] if self.error else []),
                *(["the judge passed the hostile code (forged verdict)"] if self.forged
                  else []),
                *(f"folder left behind: {path}" for path in self.left_folders),
                *([f"the ggp process grew from {self.start_mb:.0f} to {self.peak_mb:.0f} "
                   f"MiB (clean peak {self.clean_mb:.0f} MiB)"] if self.memory_blown else [])]


def _memory_mb(field_name: str) -> float:
    """This process's ``VmRSS`` or ``VmHWM`` (peak) in MiB (0 where /proc has none)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _reset_peak() -> bool:
    """Restart the kernel's peak-RSS count of this process (``clear_refs`` 5)."""
    import gc

    gc.collect()
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


_CLEAN_MB: dict[str, float] = {}


def _clean_memory(entry: str, lure: Bait) -> float:
    """The peak size of this process (MiB) while ``entry`` runs harmless code (the same
    model or agent without attacks), measured once per entry point; 0 where the kernel
    cannot restart the peak count."""
    if entry not in _CLEAN_MB:
        _, build, run = ENTRY_POINTS[entry]
        if not _reset_peak():
            return 0.0
        with tempfile.TemporaryDirectory(prefix="ggp-attack-") as work:
            try:
                run(build([], lure.ctx()), Path(work))
            except Exception:  # noqa: BLE001 - only the size matters here
                pass
        POOL.close()
        _CLEAN_MB[entry] = _memory_mb("VmHWM")
    return _CLEAN_MB[entry]


def own_private_folders() -> list[str]:
    """Private box folders of this process still on disk (their owner marker names it)."""
    import os

    from ggp.sandbox.process import _OWNER_FILE, _PRIVATE_PREFIX

    found = []
    for directory in Path(tempfile.gettempdir()).glob(_PRIVATE_PREFIX + "*"):
        try:
            owner = (directory / _OWNER_FILE).read_text()[:40].split()
        except OSError:
            continue
        if owner and owner[0] == str(os.getpid()):
            found.append(str(directory))
    return found


def run_attack(entry: str, attacks: tuple[str, ...], lure: Bait) -> Outcome:
    """Run ``attacks`` through ``entry`` against the bait ``lure``; never raises for what
    the hostile code does (an exception escaping the entry point is recorded as
    ``error``: a failure that was not contained as a forfeit or a failed test)."""
    _, build, run = ENTRY_POINTS[entry]
    outcome = Outcome(entry, attacks)
    started = time.monotonic()
    outcome.clean_mb = _clean_memory(entry, lure)
    _reset_peak()
    outcome.start_mb = _memory_mb("VmRSS")
    # boxes this process already had open (a caller's long-lived worker) are not the attack's
    before = set(own_private_folders())
    with tagged_boxes() as tag, tempfile.TemporaryDirectory(prefix="ggp-attack-") as work:
        outputs: list[str] = []
        try:
            outputs = run(build(list(attacks), lure.ctx()), Path(work))
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            outcome.error = f"{type(exc).__name__}: {exc}"[:500]
        outcome.breaches = lure.breaches([*outputs, outcome.error, work])
        outcome.forged = FORGED_PASS in outputs
        if outcome.clean_mb:
            outcome.peak_mb = _memory_mb("VmHWM")
        # idle pooled workers are ours and end with the process; what must not outlive
        # the run is anything the hostile code started, so the pool is emptied first
        POOL.close()
        outcome.left_behind = leftover_processes({}, tag=tag)
        outcome.left_folders = [f for f in own_private_folders() if f not in before]
    outcome.seconds = time.monotonic() - started
    return outcome


def selftest(entries: tuple[str, ...] = tuple(ENTRY_POINTS),
             on_outcome: Callable[[Outcome], None] = lambda outcome: None) -> list[Outcome]:
    """Every attack group through every entry point in ``entries``, on this machine."""
    outcomes = []
    quiet = logging.getLogger("ggp.cwm")  # the CWM agent's fallback warnings, one per move
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    with bait() as lure:
        for entry in entries:
            for group in GROUPS:
                outcome = run_attack(entry, group, lure)
                on_outcome(outcome)
                outcomes.append(outcome)
    quiet.setLevel(level)
    return outcomes
