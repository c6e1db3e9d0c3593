"""Errors about logs on disk. Each one says where: file, line, seq, byte offset."""

from __future__ import annotations

from pathlib import Path


class LogError(Exception):
    """A problem with a log file. ``str()`` gives one line a person can act on."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        seq: int | None = None,
        offset: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = Path(path) if path is not None else None
        self.line = line
        self.seq = seq
        self.offset = offset

    def where(self) -> str:
        parts = []
        if self.path is not None:
            parts.append(str(self.path) + (f":{self.line}" if self.line is not None else ""))
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.seq is not None:
            parts.append(f"seq {self.seq}")
        if self.offset is not None:
            parts.append(f"byte {self.offset}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": type(self).__name__,
            "message": self.message,
            "file": str(self.path) if self.path else None,
            "line": self.line,
            "seq": self.seq,
            "offset": self.offset,
        }


class CorruptLine(LogError):
    """A line that is not JSON, or not a known event, or has fields of the wrong type."""


class SeqError(LogError):
    """A gap or a repeat in ``seq``."""


class ChainBroken(LogError):
    """The hash chain does not match: a line was edited, dropped, inserted or moved."""


class TornTail(LogError):
    """The file ends in an incomplete line (a crash mid-write)."""


class StaleWrite(LogError):
    """An append expected a ``seq`` the log has already passed: another writer was first."""


class GameNotFound(LogError):
    """No log with that game id in the store."""


class LockBusy(LogError):
    """Another process holds the game's write lock for too long."""


class FormatTooNew(LogError):
    """A line written by a newer gametape than this one."""
