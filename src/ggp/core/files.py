"""Writing result files without following links planted in the output folder.

An output folder (``--out``) may be shared, or written to by someone else between two runs:
a symbolic link named ``results.jsonl`` or ``report.md`` would make ggp write its results
(and text chosen by models or agents) wherever the link points. Every writer of result
files opens them through :func:`open_output` / :func:`write_output`, which

* open the last path component with ``O_NOFOLLOW`` (a symbolic link there is refused,
  never followed, never replaced);
* refuse a symbolic link for any folder between the output root and the file
  (``plots/`` in an arena folder, for example), checked with ``lstat``;
* refuse anything but a regular file (a planted FIFO would block the writer; a device
  would receive the data);
* for whole-file writes, write a fresh temporary file (``O_EXCL``, so an existing entry
  of that name is never reused) and rename it over the target.

A refusal is an :class:`UnsafeOutputError`, one line in the CLI. The output root itself
is the user's choice and may be a link; what is checked is what lies inside it.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path
from typing import IO, Any, Callable, Literal

from ggp.core.errors import GGPError

Mode = Literal["w", "a", "x", "wb", "ab", "xb", "r+b"]

_FLAGS = {
    "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL,
    "r": os.O_RDWR,  # r+b: read and rewrite an existing file in place
}


class UnsafeOutputError(GGPError):
    """An output path is (or runs through) a symbolic link, or is not a regular file."""


def _refuse(path: Path, why: str) -> UnsafeOutputError:
    return UnsafeOutputError(
        f"Refusing to write {path}: {why}. Someone may have planted it to redirect ggp's "
        "output; remove it or write to another folder.")


def check_folders(path: str | Path, root: str | Path | None = None) -> None:
    """Refuse when a folder between ``root`` (default: the file's own folder) and ``path``
    is a symbolic link. Folders that do not exist yet are fine (they will be made)."""
    path = Path(path)
    if root is None:
        return
    root = Path(root)
    try:
        inside = path.parent.relative_to(root)
    except ValueError:
        return
    current = root
    for part in inside.parts:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(info.st_mode):
            raise _refuse(path, f"the folder {current} is a symbolic link")


def refuse_link(path: str | Path) -> Path:
    """``path``, after refusing it when it is a symbolic link (for a result file that is
    read back before it is rewritten, as a resumed run's config)."""
    path = Path(path)
    if path.is_symlink():
        raise _refuse(path, "it is a symbolic link")
    return path


def make_folder(path: str | Path, root: str | Path | None = None) -> Path:
    """``mkdir -p`` of a folder inside an output root, refusing links on the way (the
    folder itself included)."""
    path = Path(path)
    check_folders(path / "x", root)
    path.mkdir(parents=True, exist_ok=True)
    if path.is_symlink():
        raise _refuse(path, "it is a symbolic link")
    return path


def open_output(path: str | Path, mode: Mode = "w", *, encoding: str = "utf-8",
                newline: str | None = None, root: str | Path | None = None) -> IO:
    """Open a result file for writing (``w``/``a``/``x``, ``b`` for bytes; ``r+b`` to
    rewrite one in place) without following a symbolic link at ``path`` (nor in the
    folders below ``root``)."""
    path = Path(path)
    check_folders(path, root)
    flags = _FLAGS[mode[0]] | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (exc.errno == errno.EEXIST and path.is_symlink()):
            raise _refuse(path, "it is a symbolic link") from None
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise _refuse(path, "it is not a regular file") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(path, "it is not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    python_mode = mode.replace("x", "w")
    if "b" in mode:
        return os.fdopen(fd, python_mode)
    return io.open(fd, python_mode, encoding=encoding, newline=newline)


def write_output(path: str | Path, data: str | bytes, *, encoding: str = "utf-8",
                 root: str | Path | None = None) -> Path:
    """Write a whole result file: a fresh temporary file beside it, renamed over ``path``.
    A symbolic link (or any non-regular file) already at ``path`` is refused."""
    binary = isinstance(data, bytes)
    return replace_output(path, lambda fh: fh.write(data), binary=binary, encoding=encoding,
                          root=root)


def replace_output(path: str | Path, write: Callable[[IO], Any], *, binary: bool = True,
                   encoding: str = "utf-8", root: str | Path | None = None) -> Path:
    """Like :func:`write_output`, for writers that take a file object (``torch.save``,
    ``fig.savefig``, ``csv.writer``): ``write(fh)`` fills the fresh temporary file, which
    then replaces ``path``; a killed run leaves the old file whole."""
    path = Path(path)
    check_folders(path, root)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise _refuse(path, "it is a symbolic link")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise _refuse(path, "it is not a regular file")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        os.unlink(temporary)  # left by a killed run of this pid number; never followed
    except FileNotFoundError:
        pass
    mode: Mode = "xb" if binary else "x"
    try:
        with open_output(temporary, mode, encoding=encoding,
                         newline=None if binary else "") as fh:
            write(fh)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return path


__all__ = ["UnsafeOutputError", "check_folders", "make_folder", "open_output",
           "refuse_link", "replace_output", "write_output"]
