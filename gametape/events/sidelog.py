"""Side logs: small append-only files of JSON lines kept beside the games (``players.log``,
``GAME.notes``), written and read the one way both need.

A line is appended to a file opened for appending, under the file's lock, then fsynced, so
two writers at once both keep theirs. They keep the game log's promises: a torn last line (a
crash, a full disk) is moved aside into ``FILE.torn`` by the next write, never glued to; a
write that fails leaves the file as it was (a short write is finished or cut off); a full disk
is "the disk is full". A link or a special file (a FIFO, a directory) in the file's place is
refused, never followed or waited on. Reading skips a line it cannot decode and says which
(``where:line``): a damaged line costs that entry only.
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
from gametape.events.log import locked, set_aside, write_all
from gametape.messages import Message, render, say

T = TypeVar("T")


def append(path: Path, line: bytes) -> None:
    """Append ``line`` (ending in a newline) to the side log at ``path``, made if missing;
    a machine that refuses is a MachineError naming the path, and the file is as it was."""
    try:
        # not following a link, and not waiting on a FIFO: a special file is refused
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = os.open(path, flags, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise IsADirectoryError(errno.EISDIR, "not a regular file")
            with locked(fd, path):
                size = _set_torn_aside(fd, path)
                try:
                    write_all(fd, line)
                    os.fsync(fd)
                except OSError:
                    os.ftruncate(fd, size)  # half a line is never left for the next to join
                    raise
        finally:
            os.close(fd)
    except OSError as exc:
        raise os_error(exc, path, "write") from None


def _set_torn_aside(fd: int, path: Path) -> int:
    """Move a torn last line (no newline) of the open side log into ``FILE.torn`` and cut it
    off; the file's size after."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    data = os.pread(fd, size, 0)
    cut = data.rfind(b"\n") + 1
    set_aside(path, data[cut:])
    os.ftruncate(fd, cut)
    os.fsync(fd)
    return cut


def entries(
    data: bytes, decode: Callable[[bytes], T], where: str, what: Message, problems: list[str]
) -> Iterator[tuple[int, T]]:
    """Each line of ``data`` decoded, with its number (1 is the first); a line that does not
    decode is skipped, and ``problems`` gets ``where:N: not WHAT (why); skipped``."""
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            yield number, decode(line)
        except msgspec.DecodeError as exc:
            skipped = say("core.side-line-skipped", "{where}:{line}: not {what} ({why}); skipped",
                          where=where, line=number, what=what, why=str(exc))  # fmt: skip
            problems.append(render(skipped))
