"""Files a front-end writes for a user (an exported page): whole, or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from gametape.errors import os_error


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
    A failure (a full disk, a name too long) is a MachineError naming ``target``."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=".gametape-", suffix=".part")
    except OSError as exc:
        raise os_error(exc, target, "cannot write") from None
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
            raise os_error(exc, target, "cannot write") from None
        raise
