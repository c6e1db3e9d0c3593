"""Side logs: small append-only files of JSON lines kept beside the games (``players.log``,
``GAME.notes``), written and read the one way both need.

A line is appended by one write to a file opened for appending, then fsynced, so two
writers at once both keep theirs; a link or a special file (a FIFO, a directory) in the
file's place is refused, never followed or waited on. Reading skips a line it cannot decode
and says which (``where:line``): a damaged line costs that entry only.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import msgspec

from gametape.errors import os_error

T = TypeVar("T")


def append(path: Path, line: bytes) -> None:
    """Append ``line`` (ending in a newline) to the side log at ``path``, made if missing;
    a machine that refuses is a MachineError naming the path."""
    try:
        # not following a link, and not waiting on a FIFO: a special file is refused
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = os.open(path, flags, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise IsADirectoryError(errno.EISDIR, "not a regular file")
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise os_error(exc, path, "cannot write") from None


def entries(
    data: bytes, decode: Callable[[bytes], T], where: str, what: str, problems: list[str]
) -> Iterator[tuple[int, T]]:
    """Each line of ``data`` decoded, with its number (1 is the first); a line that does not
    decode is skipped, and ``problems`` gets ``where:N: not WHAT (why); skipped``."""
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            yield number, decode(line)
        except msgspec.DecodeError as exc:
            problems.append(f"{where}:{number}: not {what} ({exc}); skipped")
