"""The one error hierarchy. Every error a user or a file can cause is a ``GametapeError``.

Each error knows its exit code (1: the data is invalid or a move was refused; 2: the command
was used wrongly) and where it happened (file, line, seq, byte offset), formatted in one place.
Front-ends catch ``GametapeError`` and nothing else, so a real bug still shows its traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from gametape.messages import Message, render

EXIT_INVALID = 1
EXIT_USAGE = 2


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """What went wrong and where: the one shape every report of a problem takes (a refused
    move, a damaged line, a replay that stops, an invalid game in ``validate --json``)."""

    kind: str
    message: str
    file: str | None = None
    line: int | None = None
    seq: int | None = None
    offset: int | None = None
    rule: str | None = None

    def where(self) -> str:
        """``file:line, seq N, byte B`` with whatever parts are known."""
        parts = []
        if self.file is not None:
            parts.append(self.file + (f":{self.line}" if self.line is not None else ""))
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.seq is not None:
            parts.append(f"seq {self.seq}")
        if self.offset is not None:
            parts.append(f"byte {self.offset}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        text = f"{where}: {self.message}" if where else self.message
        return text + (f" (rule: {self.rule})" if self.rule else "")


class GametapeError(Exception):
    """Base of every error gametape raises on purpose. ``str()`` is one line a person can act on.

    ``hint`` is an optional second line (what to do next).
    """

    exit_code: ClassVar[int] = EXIT_INVALID

    def __init__(
        self,
        message: str,
        *,
        path: object = None,
        line: int | None = None,
        seq: int | None = None,
        offset: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        # a file's path; or where a log kept elsewhere is, as its store names it (a URL)
        self.path: Any = Path(path) if isinstance(path, str) and "://" not in path else path
        self.line = line
        self.seq = seq
        self.offset = offset
        self.hint = hint

    @property
    def rule(self) -> str | None:
        """The rule the error quotes, if any (a refused move's)."""
        return None

    def problem(self) -> Problem:
        """This error in the one shape of a problem (see ``Problem``)."""
        return Problem(
            kind=type(self).__name__,
            message=self.message,
            file=str(self.path) if self.path is not None else None,
            line=self.line,
            seq=self.seq,
            offset=self.offset,
            rule=self.rule,
        )

    def where(self) -> str:
        """``file:line, seq N, byte B`` with whatever parts are known."""
        return self.problem().where()

    def __str__(self) -> str:
        return str(self.problem())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle whole (location and hint too), so an error raised in a worker process
        reaches the user as it would from the main one."""
        return (_restore, (type(self), self.args, self.__dict__))


class NotationError(GametapeError):
    """Text that is not a move in the game's notation; ``said`` says what is expected, as a
    message (``message`` is its English words)."""

    def __init__(self, said: Message) -> None:
        self.said = said
        super().__init__(
            render(said),
            hint="nothing was recorded; `gametape games` shows how "
            "moves are written (docs/notation.md)",
        )


class UsageError(GametapeError):
    """The command was used wrongly: a bad option, an unknown game, player or seq."""

    exit_code = EXIT_USAGE


class UnknownGame(UsageError):
    """No installed game (ruleset) of that name."""


class NotFound(UsageError):
    """No such game id in the store, player in the game, or position in the replay."""


class PluginError(UnknownGame):
    """A game plug-in that cannot be used: it failed to import, it shares its name with
    another, or it breaks the game contract (gametape.engine.contract). The message names the
    plug-in; every other game keeps working."""


class MachineError(UsageError):
    """The machine refused: a store or file that cannot be written, a full disk, a name too
    long for the file system. Nothing was half-written; the message says what to do.
    ``full``: the refusal was for want of space (a server answers 507 Insufficient
    Storage), not of a store that can be written (503)."""

    full = False


_WHAT_TO_DO = {
    errno.ENOSPC: ("the disk is full", "free some space, then try again; nothing was half-written"),
    errno.EDQUOT: ("the disk quota is used up", "free some space, then try again"),
    errno.EACCES: (
        "permission denied",
        "this store or file is not writable for you: use --store with a directory you own",
    ),
    errno.EPERM: ("not permitted", "use --store with a directory you own"),
    errno.EROFS: ("the file system is read-only", "use --store with a writable directory"),
    errno.ENAMETOOLONG: ("the name is too long for the file system", "use a shorter name"),
    errno.ELOOP: ("a symlink loop", "point --store (or the path) at a real directory"),
    errno.ENOTDIR: ("not a directory", "check the path"),
    errno.EISDIR: ("is a directory", "name a file"),
    errno.ENOENT: ("no such file or directory", "check the path"),
}


def os_error(exc: OSError, path: object = None, doing: str | None = None) -> MachineError:
    """An OSError as one line naming the path and what to do (exit 2): ``what: path``, or
    with ``doing`` (``"cannot write"``) ``cannot write path: what``."""
    from gametape.text import shown_path

    what, hint = _WHAT_TO_DO.get(exc.errno or 0, (exc.strerror or str(exc), None))
    path = exc.filename if path is None else path
    if isinstance(path, bytes):
        path = path.decode("utf-8", "backslashreplace")
    if path is None:
        made = MachineError(what, hint=hint)
    else:
        shown = shown_path(path)
        if len(shown) > 120:
            shown = shown[:60] + "…" + shown[-40:]
        made = MachineError(f"{doing} {shown}: {what}" if doing else f"{what}: {shown}", hint=hint)
    made.full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return made


def _restore(cls: type[GametapeError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error
