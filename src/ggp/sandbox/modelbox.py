"""The parent side of a judged model: calls go into a box, raw results come back, and
every check is made here.

:class:`CallBox` runs untrusted model code in a restricted, offline worker whose entry is
:mod:`ggp.sandbox._model_box`. The box only makes the calls it is sent and answers with
what each returned; it never receives an expected value, so nothing it says can be a
verdict. A reply is checked to be a well-formed answer to the request sent (one result
per step made, each of a known shape, no more results than steps); anything else is a
:class:`~ggp.sandbox.SandboxFailure` of kind ``protocol`` and the worker is killed.

:class:`RemoteNamespace` turns a box into a protocol namespace for
:class:`~ggp.core.model.WorldModel`, so checks written against in-process models
(``ggp check``, the value-function check) run unchanged in the parent: a call returns the
box's raw result, a model exception is raised here as :class:`RemoteError` (named after
the model's exception type), a result that is not JSON comes back as :class:`NotJSON`, and
an argument the model changed is changed here the same way.
"""

from __future__ import annotations

import json
import re
import time
from importlib import resources
from typing import Any

from ggp.sandbox import Limits, SandboxFailure, Worker

#: The box's program (copied into each box as ``box.py``).
ENTRY = "ggp.sandbox._model_box"
_RESULT_KINDS = ("ok", "error", "timeout", "missing", "unjson")
_GRACE = 2.0


def _box_source() -> str:
    return resources.files("ggp.sandbox").joinpath("_model_box.py").read_text(
        encoding="utf-8")


def lit(value: Any) -> dict[str, Any]:
    """A literal argument."""
    return {"v": value}


def slot(name: str) -> dict[str, Any]:
    """The raw value an earlier step kept under ``name``."""
    return {"slot": name}


def pairs(value: list) -> dict[str, Any]:
    """A list of tuples (an observation-action history)."""
    return {"pairs": value}


def step(fn: str, *args: dict[str, Any], keep: str | None = None, optional: bool = False,
         watch: bool = False, quiet: bool = False, **kwargs: dict[str, Any]) -> dict[str, Any]:
    """One call for :meth:`CallBox.run`. ``quiet``: the call's value is kept (``keep``)
    but not sent back (its result is ``{"ok": None}``): replays move states of the
    model's own layout through a box without paying for their JSON."""
    out: dict[str, Any] = {"fn": fn, "args": list(args)}
    if kwargs:
        out["kwargs"] = kwargs
    if keep:
        out["keep"] = keep
    if optional:
        out["optional"] = True
    if watch:
        out["watch"] = True
    if quiet:
        out["quiet"] = True
    return out


def _malformed(what: str) -> SandboxFailure:
    return SandboxFailure("protocol", f"the box's answer is not an answer to the request "
                                      f"sent ({what})")


def check_results(answer: Any, steps: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                      str]:
    """The results and output of a ``run`` answer to ``steps``, or
    :class:`SandboxFailure` (``protocol``) when it is not shaped like one."""
    sent = len(steps)
    if not isinstance(answer, dict) or set(answer) != {"results", "output"}:
        raise _malformed("not a results object")
    results, output = answer["results"], answer["output"]
    if not isinstance(output, str) or len(output) > 20_000:
        raise _malformed("bad output")
    if not isinstance(results, list) or not 1 <= len(results) <= max(sent, 1):
        raise _malformed("wrong number of results")
    for index, result in enumerate(results):
        if not isinstance(result, dict):
            raise _malformed("a result is not an object")
        kinds = [k for k in _RESULT_KINDS if k in result]
        if len(kinds) != 1 or not set(result) <= {*_RESULT_KINDS, "type", "mutated"}:
            raise _malformed("a result of unknown shape")
        kind = kinds[0]
        goes_on = kind == "ok" or (kind == "missing" and steps[index].get("optional"))
        if not goes_on and index != len(results) - 1:
            raise _malformed("results after a failed step")
        if goes_on and index == len(results) - 1 and len(results) < sent:
            raise _malformed("fewer results than steps")
        if kind in ("error", "unjson") and not isinstance(result[kind], str):
            raise _malformed("an error that is not text")
        if not isinstance(result.get("type", ""), str) or \
                not isinstance(result.get("mutated", {}), dict):
            raise _malformed("bad result details")
    return results, output


class CallBox:
    """A restricted, offline worker holding untrusted model code (``cwm.py``).

    Args:
        code: the model's source.
        loader: ``"cwm"`` (executed as a module, as synthesis does) or ``"model"``
            (through :func:`ggp.core.model.load_model_source`, as ``ggp check`` does).
        limits: the worker's limits (always made restricted and offline).
        load_seconds: timer for loading the code.
        seed: seeds the box's ``random`` once the code is loaded (a model's own randomness).
        filename: the name the code is compiled under (shown in its tracebacks).
        deadline: a ``time.monotonic()`` after which every call fails with ``timeout``.

    :attr:`load_error` says why the code did not load (None when it did). Raises
    :class:`SandboxFailure` when the worker itself fails to start.
    """

    def __init__(self, code: str, *, loader: str = "cwm", limits: Limits,
                 load_seconds: float = 10.0, seed: int | None = None,
                 deadline: float | None = None, filename: str = "cwm.py") -> None:
        from dataclasses import replace

        self.deadline = deadline
        init = {"loader": loader, "seconds": load_seconds, "seed": seed,
                "filename": filename}
        # a file entry, loaded after the guard: a module entry would be imported through
        # ggp.sandbox and bring the parent's modules (subprocess) into the box
        files = {"box.py": _box_source(), "cwm.py": code}
        self.worker = Worker("box.py", init, files=files,
                             limits=replace(limits, restricted=True, network=False),
                             start_timeout=self._timeout(load_seconds + 10.0))
        error = self.worker.call("load_error", timeout=self._timeout(10.0))
        if error is not None and not isinstance(error, str):
            self.worker.close()
            raise _malformed("load error is not text")
        self.load_error: str | None = error

    def _timeout(self, wanted: float) -> float:
        if self.deadline is None:
            return wanted
        left = self.deadline - time.monotonic()
        if left <= 0:
            if hasattr(self, "worker"):
                self.worker.close()
            raise SandboxFailure("timeout", "no time left for the model's calls")
        return min(wanted, left)

    @property
    def alive(self) -> bool:
        return self.worker.alive

    def run(self, steps: list[dict[str, Any]], seconds: float,
            reset: bool = False) -> tuple[list[dict[str, Any]], str]:
        """Make ``steps`` in the box under a timer of ``seconds``; returns the checked
        results (one per step made) and the tail of what the model printed. Raises
        :class:`SandboxFailure` (the worker is then dead)."""
        answer = self.worker.call("run", {"steps": steps, "seconds": seconds, "reset": reset},
                                  timeout=self._timeout(seconds + _GRACE))
        try:
            return check_results(answer, steps)
        except SandboxFailure:
            self.worker.close()
            raise

    def describe(self) -> dict[str, Any]:
        """The function names and simple constants of the loaded code (checked)."""
        answer = self.worker.call("describe", timeout=self._timeout(10.0))
        ok = (isinstance(answer, dict) and isinstance(answer.get("functions"), list)
              and all(isinstance(f, str) for f in answer["functions"])
              and isinstance(answer.get("constants"), dict))
        if not ok:
            self.worker.close()
            raise _malformed("describe")
        return answer

    def close(self) -> None:
        self.worker.close()

    def __enter__(self) -> CallBox:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# --------------------------------------------------------------- remote namespace
class RemoteError(Exception):
    """A model function raised in the box; the subclass is named after its exception."""

    function = "model"


_ERROR_TYPES: dict[str, type[RemoteError]] = {}


def remote_error(type_name: str, message: str, function: str) -> RemoteError:
    """A :class:`RemoteError` whose class is named like the model's exception."""
    name = type_name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,60}", type_name) else "Error"
    cls = _ERROR_TYPES.get(name)
    if cls is None:
        cls = _ERROR_TYPES[name] = type(name, (RemoteError,), {})
    exc = cls(message)
    exc.function = function
    return exc


class NotJSON:
    """A value the model returned that could not travel as JSON."""

    def __init__(self, type_name: str, message: str) -> None:
        self.type_name, self.message = type_name, message

    def __repr__(self) -> str:
        return f"<{self.type_name} that is not JSON: {self.message}>"


class BoxDied(BaseException):
    """The box failed as a whole (timeout, memory, protocol...): nothing more can be
    asked. A BaseException so that checks catching a model's ``Exception`` let it through
    to whoever owns the box."""

    def __init__(self, failure: SandboxFailure) -> None:
        super().__init__(str(failure))
        self.failure = failure


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


class RemoteNamespace:
    """A protocol namespace whose functions run in a :class:`CallBox` (see the module
    docstring). ``call_seconds`` bounds each call."""

    def __init__(self, box: CallBox, call_seconds: float = 10.0) -> None:
        self._box, self._seconds = box, call_seconds
        try:
            description = box.describe()
            self._functions = set(description["functions"])
            for name, value in description["constants"].items():
                if name in ("RULES", "PERFECT_INFORMATION") and isinstance(value, (str, bool)):
                    setattr(self, name, value)
                elif name == "METADATA" and isinstance(value, dict):
                    self.METADATA = _metadata(value)
            if "INITIAL_STATE" not in description["functions"]:
                first = self._call("INITIAL_STATE", (), {})
                if not isinstance(first, _Missing):
                    self.INITIAL_STATE = first
        except SandboxFailure as failure:
            raise BoxDied(failure) from None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self.__dict__.get("_functions", ()):
            raise AttributeError(name)

        def remote(*args: Any, **kwargs: Any) -> Any:
            value = self._call(name, args, kwargs)
            if isinstance(value, _Missing):
                raise remote_error("NameError", f"name {name!r} is not defined", name)
            return value

        remote.__name__ = name
        return remote

    def _call(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        try:
            json.dumps([args, kwargs])
        except (TypeError, ValueError) as exc:  # e.g. a NotJSON the model gave earlier
            raise remote_error("TypeError", f"argument is not JSON: {exc}", name) from None
        try:
            results, _ = self._box.run(
                [step(name, *(lit(a) for a in args), watch=True,
                      **{k: lit(v) for k, v in kwargs.items()})], self._seconds)
        except SandboxFailure as failure:
            raise BoxDied(failure) from None
        result = results[0]
        if "missing" in result:
            return _Missing()
        if "timeout" in result:
            raise remote_error("TimeoutError", f"{name} took more than {self._seconds:g} s",
                               name)
        if "error" in result:
            kind, last = result.get("type", "Error"), _last_line(result["error"])
            message = (last[len(kind) + 2:] if last.startswith(kind + ": ")
                       else "" if last == kind else last)
            raise remote_error(kind, message[:1000], name)
        if "unjson" in result:
            return NotJSON(result.get("type", "object"), result["unjson"])
        for index, after in result.get("mutated", {}).items():
            if index.isdigit() and int(index) < len(args):
                _assign(args[int(index)], after)
        return result["ok"]


def _metadata(value: dict[str, Any]) -> Any:
    """The model's declared ``METADATA`` as a GameMetadata, or None if malformed."""
    from ggp.core.protocol import GameMetadata

    try:
        return GameMetadata(**value)
    except (TypeError, ValueError):
        return None


class _Missing:
    """The box has no such name."""


def _assign(target: Any, value: Any) -> None:
    """Make ``target`` equal ``value`` in place (a model mutated its argument in the
    box: the caller's copy changes the same way, so its mutation checks see it)."""
    if isinstance(target, dict) and isinstance(value, dict):
        target.clear()
        target.update(value)
    elif isinstance(target, list) and isinstance(value, list):
        target[:] = value


__all__ = ["BoxDied", "CallBox", "ENTRY", "NotJSON", "RemoteError", "RemoteNamespace",
           "check_results", "lit", "pairs", "remote_error", "slot", "step"]
