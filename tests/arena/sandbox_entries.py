"""Entry modules for the sandbox tests (loaded by file path inside the sandbox)."""

import os
import sys
import time


def main(payload):
    """One-shot entry: ``payload["do"]`` says what to do."""
    do = payload["do"]
    if do == "echo":
        return payload["value"]
    if do == "env":
        return {"env": sorted(os.environ), "cwd": os.getcwd()}
    if do == "print_then_return":
        for i in range(100):
            print(f"line {i}")
        return "done"
    if do == "raise":
        raise KeyError("missing")
    if do == "sleep":
        time.sleep(100)
    if do == "spin":
        while True:
            pass
    if do == "allocate":
        hoard = []
        while True:
            hoard.append(bytearray(50_000_000))
    if do == "flood":
        while True:
            sys.stdout.write("x" * 100_000)
    if do == "exit":
        os._exit(5)
    if do == "fork_and_sleep":
        # the box's PID namespace, as the parent sees it, tells its processes apart
        print(os.readlink("/proc/self/ns/pid"), flush=True)
        pids = [os.fork() for _ in range(2)]
        print(f"pid {os.getpid()}", flush=True)
        time.sleep(100)
        return pids
    if do == "connect":
        return connect(payload)
    if do == "write_big_file":
        with open("big.bin", "wb") as fh:
            fh.write(b"0" * (payload["mb"] * 1024 * 1024))
        return "written"
    raise ValueError(do)


class Counter:
    """Worker handler: keeps state between calls."""

    def __init__(self, start):
        self.total = start

    def add(self, amount):
        self.total += amount
        return self.total

    def echo(self, value):
        return value

    def sleep(self, seconds):
        time.sleep(seconds)
        return seconds

    def fail(self):
        raise RuntimeError("handler failed")

    def stop_reading(self):
        """Keep the request pipe open but never read it again (the process lives on)."""
        import threading

        self.kept = os.dup(0)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        threading.Thread(target=time.sleep, args=(100,)).start()
        return "deaf"


def make_handler(init):
    return Counter(init["start"])


def connect(payload):
    """Try to open a TCP connection; returns the error text or "connected"."""
    import socket

    try:
        socket.create_connection(("127.0.0.1", payload["port"]), timeout=2).close()
        return "connected"
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"

