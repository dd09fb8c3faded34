"""The program a sandboxed child runs (started by :class:`ggp.sandbox.process.SandboxProcess`).

``argv``: ``[_, paths_json, entry, mode, reply_fd]``. It loads ``entry`` (a module name or
a ``.py`` file), then reads JSON requests from stdin, one per line, and writes one JSON
reply per request to ``reply_fd``: ``{"ok": value}`` or ``{"error": {"type", "message",
"traceback"}}``.

* ``mode == "call"``: the request is ``{"params": payload}`` and the answer is
  ``entry.main(payload)``; one request only.
* ``mode == "serve"``: the first request is ``{"params": init}`` and builds
  ``handler = entry.make_handler(init)`` (answered with ``{"ok": null}``); every later
  request ``{"method": name, "params": {...}}`` is answered with
  ``handler.name(**params)``. The child exits at the end of stdin.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any


def _load(entry: str):
    if entry.endswith(".py"):
        path = Path(entry)
        spec = importlib.util.spec_from_file_location(f"ggp_sandbox_entry_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(entry)


def _error(exc: BaseException) -> dict[str, Any]:
    frames = traceback.format_exception(type(exc), exc, exc.__traceback__)
    return {"type": type(exc).__name__, "message": str(exc)[:2000],
            "traceback": "".join(frames)[-4000:]}


def _answer(reply_stream, compute) -> None:
    try:
        reply = {"ok": compute()}
        text = json.dumps(reply)
    except MemoryError as exc:
        text = json.dumps({"error": {"type": "MemoryError", "message": str(exc)}})
    except BaseException as exc:  # noqa: BLE001 - everything the code does is reported
        if isinstance(exc, KeyboardInterrupt):
            raise
        text = json.dumps({"error": _error(exc)})
    reply_stream.write(text + "\n")
    reply_stream.flush()


def main() -> None:
    entry, mode, reply_fd = sys.argv[2], sys.argv[3], int(sys.argv[4])
    reply_stream = os.fdopen(reply_fd, "w", encoding="utf-8")
    state: dict[str, Any] = {}

    def load_and_init(params: Any) -> Any:
        module = _load(entry)
        if mode == "call":
            return module.main(params)
        state["handler"] = module.make_handler(params)
        return None

    for number, line in enumerate(sys.stdin):
        request = json.loads(line)
        if number == 0:
            _answer(reply_stream, lambda: load_and_init(request.get("params")))
            if mode == "call":
                return
            continue
        method = request.get("method", "")

        def call() -> Any:
            if method.startswith("_"):
                raise AttributeError(f"method {method!r} may not be called")
            return getattr(state["handler"], method)(**request.get("params", {}))

        _answer(reply_stream, call)


if __name__ == "__main__":
    main()
