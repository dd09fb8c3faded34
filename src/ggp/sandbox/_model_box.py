"""The box side of a judged model: it executes the model's calls and returns raw results.

A sandboxed worker entry (restricted, offline; see :mod:`ggp.sandbox.modelbox` for the
parent side). It never sees an expected value and never decides whether anything passed:
the parent sends the calls to make, this module makes them and answers with what each
returned (as JSON), raised or took too long, and the parent compares.

``make_handler({"loader", "seconds", "seed", "filename"})`` loads ``cwm.py`` from the
working directory (compiled under ``filename``, default ``cwm.py``) under a timer of
``seconds`` (``loader`` ``"cwm"``: executed as a plain module,
as synthesis does; ``"model"``: through :func:`ggp.core.model.load_model_source`, as
``ggp check`` does, so load errors read the same). Methods:

* ``load_error()`` — why the code did not load, or None.
* ``describe()`` — the callable names the code defines and its simple constants.
* ``run(steps, seconds, reset)`` — make the calls ``steps`` in order under one timer of
  ``seconds`` and answer ``{"results": [...], "output": tail of what was printed}``. A step
  is ``{"fn", "args", "kwargs", "keep", "optional", "watch", "quiet"}``: ``fn`` names a function of
  the code (or a constant such as ``INITIAL_STATE``, or ``"="``, which returns its
  argument); each argument is ``{"v": value}``, ``{"slot": name}`` (the raw result an
  earlier step kept under ``keep``) or ``{"pairs": list}`` (a list of tuples).
  ``"=playouts"`` (arguments: a list of seeds and a step limit) makes one seeded random
  playout per seed on the model and returns ``[steps, returns]`` for each (the parent
  times it and compares the answers with another model's: :mod:`ggp.synth.differential`);
  ``"=profile"`` (same arguments) makes them under ``cProfile`` and returns the table of
  the model's hottest functions.
  A result is ``{"ok": value, "type": name}``, ``{"error": text, "type": name}``,
  ``{"timeout": true}``, ``{"missing": true}`` or ``{"unjson": text, "type": name}``; with
  ``watch`` an ``ok`` result also carries ``"mutated": {index: value after the call}`` for
  the arguments the call changed; with ``quiet`` an ``ok`` result is ``{"ok": null}``
  (the value is only kept). Steps stop after the first that is not ``ok`` (an
``optional`` step that finds no such function does not stop them).

Everything here is trusted code running next to untrusted code: the model can replace
any of it, which is why nothing here is believed beyond "a claim of what the model's
functions returned" (docs/sandbox.md).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import signal
import traceback
import types
from typing import Any

_OUTPUT_LINES, _LINE_CHARS = 10, 500
#: The name the model's code is compiled under (``init["filename"]``).
_model_file = "cwm.py"


class CallTimeout(BaseException):
    """Raised by the timer (a BaseException so ``except Exception`` in a model misses it)."""


def _on_timer(signum, frame):
    raise CallTimeout()


def _error_text(exc: BaseException) -> str:
    """The exception with the model's own lines of the stack (its file is ``cwm.py``)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename == _model_file]
    lines = traceback.format_list(frames[-6:])
    return ("".join(lines) + "".join(traceback.format_exception_only(type(exc), exc)))[-3000:]


def _load_cwm() -> dict[str, Any]:
    with open("cwm.py", encoding="utf-8") as fh:
        source = fh.read()
    module = types.ModuleType("cwm")
    module.__file__ = "cwm.py"
    exec(compile(source, "cwm.py", "exec"), module.__dict__)  # noqa: S102 - this box runs the model
    return module.__dict__


def _load_model() -> dict[str, Any]:
    from ggp.core.model import load_model_source

    with open("cwm.py", encoding="utf-8") as fh:
        source = fh.read()
    return vars(load_model_source(source, name="cwm", filename=_model_file).namespace)


def _tail(text: str) -> str:
    return "\n".join(line[:_LINE_CHARS] for line in text.splitlines()[-_OUTPUT_LINES:])


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _ordered(values: list) -> list:
    """``values`` in an order that does not depend on the model: strings as they sort,
    anything else by its JSON."""
    if all(type(v) is str for v in values):
        return sorted(values)
    return sorted(values, key=_canonical)


def random_playouts(ns: Any, initial: Any, seeds: list, max_steps: int) -> list:
    """One random playout per seed from ``initial()`` through the model functions of the
    mapping ``ns``: ``[steps, returns]`` each.

    Moves are drawn by ``random.Random(seed)`` from the legal actions (chance outcomes by
    their probabilities) sorted by their JSON, so two models with the same behaviour give
    the same answers whatever order they list moves in. The box runs it on the model it
    hosts; the parent runs it on a trusted model (ggp's GDL reasoner,
    ``ggp.synth.differential.local_playouts``), so both make the same draws."""
    current, legal_of, apply = (ns["get_current_player"], ns["get_legal_actions"],
                                ns["apply_action"])
    rewards_of, chance_of = ns["get_rewards"], ns.get("get_chance_outcomes")
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = initial()
        returns = None
        steps = 0
        while steps < max_steps:
            player = current(state)
            if player == -4:
                break
            if player == -1 and callable(chance_of):
                outcomes = sorted(chance_of(state), key=lambda o: _canonical(o[0]))
                action = rng.choices([o[0] for o in outcomes],
                                     weights=[float(o[1]) for o in outcomes])[0]
            else:
                legal = _ordered(legal_of(state))
                action = legal[int(rng.random() * len(legal))]
            state = apply(state, action)
            rewards = [float(r) for r in rewards_of(state)]
            returns = rewards if returns is None else [a + b for a, b in
                                                       zip(returns, rewards)]
            steps += 1
        out.append([steps, returns or []])
    return out


class ModelBox:
    """The loaded model and the calls made on it (see the module docstring)."""

    def __init__(self, init: dict[str, Any]) -> None:
        global _model_file
        seconds = float(init.get("seconds", 10.0))
        if init.get("filename"):
            _model_file = str(init["filename"])
        self.namespace: dict[str, Any] = {}
        self.slots: dict[str, Any] = {}
        self._load_error: str | None = None
        signal.signal(signal.SIGALRM, _on_timer)
        loader = _load_model if init.get("loader") == "model" else _load_cwm
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            with contextlib.redirect_stdout(io.StringIO()):
                self.namespace = loader()
        except BaseException as exc:  # noqa: BLE001 - model code can raise anything
            self._load_error = self._load_error_text(exc, seconds)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if init.get("seed") is not None:  # the model's own randomness, once it is loaded
            random.seed(init["seed"])

    @staticmethod
    def _load_error_text(exc: BaseException, seconds: float) -> str:
        if isinstance(exc, CallTimeout):
            return f"Loading the code took more than {seconds:g} seconds."
        if type(exc).__name__ == "ModelLoadError":
            return str(exc)
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if f.filename == _model_file]
        return ("Loading the code failed:\n" + "".join(traceback.format_list(frames))
                + "".join(traceback.format_exception_only(type(exc), exc)))

    def load_error(self) -> str | None:
        return self._load_error

    def describe(self) -> dict[str, Any]:
        functions = sorted(k for k, v in self.namespace.items()
                           if callable(v) and not k.startswith("_") and isinstance(k, str))
        constants = {k: self.namespace[k] for k in ("RULES", "PERFECT_INFORMATION")
                     if isinstance(self.namespace.get(k), (str, bool))}
        metadata = self.namespace.get("METADATA")
        if callable(getattr(metadata, "to_dict", None)):
            with contextlib.suppress(Exception):
                constants["METADATA"] = json.loads(json.dumps(metadata.to_dict()))
        return {"functions": functions, "constants": constants}

    # ------------------------------------------------------------------ calls
    def _argument(self, arg: dict[str, Any]) -> Any:
        if "slot" in arg:
            return self.slots[arg["slot"]]
        if "pairs" in arg:
            return [tuple(entry) for entry in arg["pairs"]]
        return arg["v"]

    def _step(self, step: dict[str, Any]) -> dict[str, Any]:
        name = step["fn"]
        args = [self._argument(a) for a in step.get("args", [])]
        kwargs = {k: self._argument(a) for k, a in step.get("kwargs", {}).items()}
        # the box's own measurements run model code too: they are called like its functions
        builtin = {"=playouts": self._playouts, "=profile": self._profile}.get(name)
        if name == "=":
            value = args[0]
        elif builtin is None and name not in self.namespace:
            return {"missing": True}
        elif builtin is None and not callable(self.namespace[name]):
            value = copy.deepcopy(self.namespace[name])
        else:
            before = None
            if step.get("watch"):
                before = []
                for a in args:
                    try:
                        before.append(_canonical(a))
                    except (TypeError, ValueError, RecursionError):
                        before.append(None)
            try:
                value = (builtin or self.namespace[name])(*args, **kwargs)
            except CallTimeout:
                raise
            except BaseException as exc:  # noqa: BLE001 - model code can raise anything
                if isinstance(exc, KeyboardInterrupt):
                    raise
                return {"error": _error_text(exc), "type": type(exc).__name__}
            if before is not None:
                mutated = {}
                for index, (a, old) in enumerate(zip(args, before)):
                    with contextlib.suppress(TypeError, ValueError, RecursionError):
                        if old is not None and _canonical(a) != old:
                            mutated[str(index)] = json.loads(json.dumps(a))
                if mutated:
                    self._kept(step, value)
                    return self._result(value, mutated)
        self._kept(step, value)
        if step.get("quiet"):
            return {"ok": None, "type": type(value).__name__}
        return self._result(value, None)

    def _playouts(self, seeds: list, max_steps: int) -> list:
        """One random playout from the initial state per seed (:func:`random_playouts`):
        the parent times this call (a speed measurement) and compares the answers with
        another model's, so a model cannot claim playouts it did not make."""
        ns = self.namespace
        return random_playouts(ns, lambda: copy.deepcopy(ns["INITIAL_STATE"]), seeds,
                               max_steps)

    def _profile(self, seeds: list, max_steps: int, lines: int = 25) -> str:
        """The ``=playouts`` of ``seeds`` under ``cProfile``: the functions that took the
        most time of their own (the library calls a model makes included, e.g. deep
        copies), then the model's own functions by cumulative time, as ``pstats`` prints
        them (shown to a language model asked for a faster program)."""
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        try:
            self._playouts(seeds, max_steps)
        finally:
            profiler.disable()
        tables = []
        for order, pattern in (("tottime", None), ("cumulative", _model_file)):
            text = io.StringIO()
            stats = pstats.Stats(profiler, stream=text).sort_stats(order)
            if pattern:
                stats.print_stats(pattern.replace(".", "\\."), lines)
            else:
                stats.print_stats(lines)
            body = text.getvalue()
            tables.append(f"sorted by {order}:\n" + (body[body.find("   ncalls"):]
                                                     if "   ncalls" in body else body))
        return "\n".join(tables)

    def _kept(self, step: dict[str, Any], value: Any) -> None:
        if step.get("keep"):
            self.slots[step["keep"]] = value

    @staticmethod
    def _result(value: Any, mutated: dict[str, Any] | None) -> dict[str, Any]:
        kind = type(value).__name__
        try:
            plain = json.loads(json.dumps(value))
        except (TypeError, ValueError, RecursionError) as exc:
            return {"unjson": str(exc)[:500], "type": kind}
        result = {"ok": plain, "type": kind}
        if mutated:
            result["mutated"] = mutated
        return result

    def run(self, steps: list[dict[str, Any]], seconds: float,
            reset: bool = False) -> dict[str, Any]:
        if reset:
            self.slots.clear()
        results: list[dict[str, Any]] = []
        output = io.StringIO()
        signal.setitimer(signal.ITIMER_REAL, max(float(seconds), 0.001))
        try:
            with contextlib.redirect_stdout(output):
                for step in steps:
                    result = self._step(step)
                    results.append(result)
                    if "ok" not in result and not (step.get("optional")
                                                   and "missing" in result):
                        break
        except CallTimeout:
            results.append({"timeout": True})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return {"results": results, "output": _tail(output.getvalue())}


def make_handler(init: dict[str, Any]) -> ModelBox:
    """Worker entry point."""
    return ModelBox(init)
