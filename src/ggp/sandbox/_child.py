"""The program a sandboxed child runs (started by :class:`ggp.sandbox.process.SandboxProcess`).

It is run from its file (standard library only), not imported as part of ``ggp.sandbox``,
so that none of the parent-side modules (``subprocess``, ``ctypes``) is loaded in the
child before the guard below is installed. ``argv``: ``[_, "ggp.sandbox._child",
config_json]``; the config holds ``path`` (import paths), ``entry`` (a module name or a
``.py`` file), ``mode``, ``reply_fd``, ``restricted`` and ``network``.

It installs the guard, loads ``entry``, then reads JSON requests from stdin, one per line,
and writes one JSON reply per request to ``reply_fd``: ``{"id", "ok": value}`` or
``{"id", "error": {"type", "message", "traceback"}}``, where ``id`` echoes the request's
``id`` (a fresh random token per request: the parent refuses any other). Code running here
can write to ``reply_fd`` too; that is why the parent never takes a verdict from a reply,
only raw results it checks itself (docs/sandbox.md).

* ``mode == "call"``: the request is ``{"params": payload}`` and the answer is
  ``entry.main(payload)``; one request only.
* ``mode == "serve"``: the first request is ``{"params": init}`` and builds
  ``handler = entry.make_handler(init)`` (answered with ``{"ok": null}``); every later
  request ``{"method": name, "params": {...}}`` is answered with
  ``handler.name(**params)``. The child exits at the end of stdin.

A module ``entry`` (ggp's own worker code) is imported before the guard is installed; a
``.py`` entry after it.

The guard is an audit hook (PEP 578), defence in depth behind the operating system box
(bubblewrap) and the limits: it sees what Python code does, not what native code does,
and code with memory access can switch it off. Offline children (``network`` false) may
not connect, bind or send on sockets; restricted children may in addition not start
processes or signal others, load native code through ``ctypes``, change their environment
or limits, or write, rename or delete files outside their directory.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

_NETWORK_EVENTS = {"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"}
_RESTRICTED_EVENTS = _NETWORK_EVENTS | {
    "os.fork", "os.forkpty", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
    "subprocess.Popen", "os.kill", "os.killpg", "ctypes.dlopen", "ctypes.dlsym",
    "os.putenv", "os.unsetenv", "resource.setrlimit", "resource.prlimit",
}
# Modules that reach the same things without raising the events above.
_RESTRICTED_MODULES = {"_posixsubprocess", "_ctypes", "_socket", "multiprocessing"}
_PATH_EVENTS = {"os.remove", "os.rmdir", "os.rename", "shutil.rmtree", "os.chmod",
                "os.chown", "os.mkdir", "os.symlink", "os.link", "os.truncate"}


def install_guard(restricted: bool, network: bool) -> None:
    """Add the audit hook for this child (none for an unrestricted child with network)."""
    if network and not restricted:
        return
    refused = _RESTRICTED_EVENTS if restricted else _NETWORK_EVENTS
    home = os.path.realpath(os.getcwd()) + os.sep

    def inside(path: Any) -> bool:
        if isinstance(path, int):  # an open file descriptor
            return True
        try:
            return os.path.realpath(os.fsdecode(path)).startswith(home)
        except TypeError:
            return False

    def hook(event: str, args: tuple) -> None:
        if event in refused:
            raise PermissionError(f"the sandbox does not allow {event}")
        if not restricted:
            return
        if event == "import" and args and args[0] in _RESTRICTED_MODULES:
            raise PermissionError(f"the sandbox does not allow importing {args[0]}")
        if event == "open" and _writes(args[1], args[2]) and not inside(args[0]):
            raise PermissionError(f"the sandbox does not allow writing {args[0]!r}")
        if event in _PATH_EVENTS and args and not inside(args[0]):
            raise PermissionError(f"the sandbox does not allow {event} on {args[0]!r}")

    sys.addaudithook(hook)


def _writes(mode: Any, flags: Any) -> bool:
    """Whether an ``open`` audit event (mode string or None, flags int) opens for writing."""
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))


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


def _answer(reply_stream, compute, request_id: Any = None) -> None:
    try:
        reply = {"id": request_id, "ok": compute()}
        text = json.dumps(reply)
    except MemoryError as exc:
        text = json.dumps({"id": request_id,
                           "error": {"type": "MemoryError", "message": str(exc)}})
    except BaseException as exc:  # noqa: BLE001 - everything the code does is reported
        if isinstance(exc, KeyboardInterrupt):
            raise
        text = json.dumps({"id": request_id, "error": _error(exc)})
    reply_stream.write(text + "\n")
    reply_stream.flush()


def _call(handler: Any, request: dict[str, Any]) -> Any:
    method = request.get("method", "")
    if handler is None or not isinstance(method, str) or method.startswith("_"):
        raise AttributeError(f"method {method!r} may not be called")
    return getattr(handler, method)(**request.get("params", {}))


def main() -> None:
    config = json.loads(sys.argv[2])
    sys.path[:0] = config["path"]
    entry, mode = config["entry"], config["mode"]
    reply_stream = os.fdopen(config["reply_fd"], "w", encoding="utf-8")
    if not entry.endswith(".py"):
        # A module entry is ggp's own code (the untrusted code is what it loads later):
        # import it before the guard, which would refuse modules it needs (subprocess).
        with contextlib.suppress(Exception):
            importlib.import_module(entry)
    install_guard(config["restricted"], config["network"])
    handler = None

    def load_and_init(params: Any) -> Any:
        nonlocal handler
        module = _load(entry)
        if mode == "call":
            return module.main(params)
        handler = module.make_handler(params)
        return None

    for number, line in enumerate(sys.stdin):
        request = json.loads(line)
        request_id = request.pop("id", None)
        if number == 0:
            _answer(reply_stream, functools.partial(load_and_init, request.get("params")),
                    request_id)
            if mode == "call":
                return
        else:
            _answer(reply_stream, functools.partial(_call, handler, request), request_id)


if __name__ == "__main__":
    main()
