"""Files a front-end writes for a user (an exported page): whole, or not at all."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

from gametape.errors import UsageError, os_error
from gametape.messages import say
from gametape.text import shown_path


def _umask() -> int:
    """The process's umask, read without changing it (Linux shows it in /proc)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def write_whole(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file in the same directory and a
    rename, so a full disk or a crash leaves the old file (or none), never a torn one.
    A failure (a full disk, a name too long) is a MachineError naming ``target``.

    What is at ``target`` is never replaced by something else: ``-`` is standard output; a
    FIFO or a device is written through, as a shell's ``>`` would; a symlink is followed,
    and the file it names is the one written; a directory or a socket is refused."""
    if str(target) == "-":
        _through(target, data, stdout=True)
        return
    try:
        found = os.stat(target)
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise os_error(exc, target, "write") from None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise UsageError(say("core.write-directory", "{path} is a directory: name a file to "
                             "write", path=shown_path(target)))  # fmt: skip
    if found is not None and stat.S_ISSOCK(found.st_mode):
        raise UsageError(say("core.write-socket", "{path} is a socket, not a file to write",
                             path=shown_path(target)))  # fmt: skip
    if found is not None and not stat.S_ISREG(found.st_mode):
        _through(target, data)  # a FIFO, a terminal, a device: written to, never replaced
        return
    if target.is_symlink():
        target = target.resolve()  # the file the link names is written; the link stays
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=".gametape-", suffix=".part")
    except OSError as exc:
        raise os_error(exc, target, "write") from None
    try:
        with os.fdopen(fd, "wb", buffering=0) as f:
            f.write(data)
            # mkstemp makes the file private; give it the mode any new file gets here
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise os_error(exc, target, "write") from None
        raise


def _through(target: Path, data: bytes, *, stdout: bool = False) -> None:
    """Write ``data`` straight to what is at ``target`` (or standard output)."""
    try:
        if stdout:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return
        fd = os.open(target, os.O_WRONLY | os.O_NOCTTY)
        with os.fdopen(fd, "wb", buffering=0) as f:
            view = memoryview(data)
            while view:
                view = view[f.write(view) or 0 :]
    except OSError as exc:
        raise os_error(exc, target, "write") from None
