"""A sandbox worker entry reporting what the child can see of the machine."""

import os


class _Peek:
    def whoami(self):
        visible = []
        for root in ("/tmp", "/var/tmp", "/dev/shm"):
            try:
                visible += [os.path.join(root, n) for n in os.listdir(root)]
            except OSError:
                pass
        return {"uid": os.getuid(), "pid": os.getpid(), "cwd": os.getcwd(),
                "tmp": sorted(os.listdir("/tmp")), "visible": visible,
                "shadow": os.path.exists("/etc/shadow"), "env": dict(os.environ)}


def make_handler(init):
    return _Peek()
