"""The one error hierarchy. Every error a user or a file can cause is a ``GametapeError``.

Each error knows its exit code (1: the data is invalid or a move was refused; 2: the command
was used wrongly) and where it happened (file, line, seq, byte offset), formatted in one place.
Front-ends catch ``GametapeError`` and nothing else, so a real bug still shows its traceback.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, Literal

import msgspec

from gametape.messages import Message, many, render, say

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
        """``file:line, seq N, byte B`` with whatever parts are known, in the reader's
        language."""
        parts: list[Message | str] = []
        if self.file is not None:
            parts.append(self.file + (f":{self.line}" if self.line is not None else ""))
        elif self.line is not None:
            parts.append(say("core.where-line", "line {line}", line=self.line))
        if self.seq is not None:
            parts.append(say("core.where-seq", "seq {seq}", seq=self.seq))
        if self.offset is not None:
            parts.append(say("core.where-byte", "byte {offset}", offset=self.offset))
        return render(many(parts)) if parts else ""  # a path as typed, the rest as said

    def __str__(self) -> str:
        where = self.where()
        text = f"{where}: {self.message}" if where else self.message
        if self.rule:  # the rule: words already said
            rule = render(say("core.where-rule", "rule"))
            text += f" ({rule}: {self.rule})"
        return text


class GametapeError(Exception):
    """Base of every error gametape raises on purpose. ``str()`` is one line a person can act on.

    ``hint`` is an optional second line (what to do next).
    """

    exit_code: ClassVar[int] = EXIT_INVALID

    def __init__(
        self,
        message: str | Message,
        *,
        path: object = None,
        line: int | None = None,
        seq: int | None = None,
        offset: int | None = None,
        hint: str | Message | None = None,
    ) -> None:
        if isinstance(message, Message):  # said in the language of whoever is told
            message = render(message)
        super().__init__(message)
        self.message = message
        # a file's path; or where a log kept elsewhere is, as its store names it (a URL)
        self.path: Any = Path(path) if isinstance(path, str) and "://" not in path else path
        self.line = line
        self.seq = seq
        self.offset = offset
        self.hint = render(hint) if isinstance(hint, Message) else hint

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
            hint=say(
                "core.notation-hint",
                "nothing was recorded; `gametape games` shows how "
                "moves are written (docs/notation.md)",
            ),
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
    errno.ENOSPC: (
        say("core.os-full", "the disk is full"),
        say("core.os-full-hint", "free some space, then try again; nothing was half-written"),
    ),
    errno.EDQUOT: (
        say("core.os-quota", "the disk quota is used up"),
        say("core.os-quota-hint", "free some space, then try again"),
    ),
    errno.EACCES: (
        say("core.os-denied", "permission denied"),
        say("core.os-denied-hint", "this store or file is not writable for you: use --store "
            "with a directory you own"),
    ),
    errno.EPERM: (
        say("core.os-not-permitted", "not permitted"),
        say("core.os-not-permitted-hint", "use --store with a directory you own"),
    ),
    errno.EROFS: (
        say("core.os-read-only", "the file system is read-only"),
        say("core.os-read-only-hint", "use --store with a writable directory"),
    ),
    errno.ENAMETOOLONG: (
        say("core.os-name-too-long", "the name is too long for the file system"),
        say("core.os-name-too-long-hint", "use a shorter name"),
    ),
    errno.ELOOP: (
        say("core.os-loop", "a symlink loop"),
        say("core.os-loop-hint", "point --store (or the path) at a real directory"),
    ),
    errno.ENOTDIR: (
        say("core.os-not-a-directory", "not a directory"),
        say("core.os-check-path", "check the path"),
    ),
    errno.EISDIR: (
        say("core.os-is-a-directory", "is a directory"),
        say("core.os-name-a-file", "name a file"),
    ),
    errno.ENOENT: (
        say("core.os-no-such-file", "no such file or directory"),
        say("core.os-check-path", "check the path"),
    ),
}  # fmt: skip


def os_error(
    exc: OSError, path: object = None, doing: Literal["read", "write"] | None = None
) -> MachineError:
    """An OSError as one line naming the path and what to do (exit 2): ``what: path``, or
    with ``doing`` (``"write"``) ``cannot write path: what``."""
    from gametape.text import shown_path

    known = _WHAT_TO_DO.get(exc.errno or 0)
    what, hint = known if known else (exc.strerror or str(exc), None)
    path = exc.filename if path is None else path
    if isinstance(path, bytes):
        path = path.decode("utf-8", "backslashreplace")
    if path is None:
        made = MachineError(what, hint=hint)
    else:
        shown = shown_path(path)
        if len(shown) > 120:
            shown = shown[:60] + "…" + shown[-40:]
        if doing == "write":
            said = say("core.os-cannot-write", "cannot write {path}: {what}", path=shown, what=what)
        elif doing == "read":
            said = say("core.os-cannot-read", "cannot read {path}: {what}", path=shown, what=what)
        else:
            said = say("core.os-at", "{what}: {path}", what=what, path=shown)
        made = MachineError(said, hint=hint)
    made.full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return made


NOTHING_RECORDED = say("core.nothing-recorded", "nothing was recorded")  # a refused move's hint


def unknown_format(name: str, formats: Iterable[str]) -> Message:
    """No format ``name``: the ones there are."""
    return say(
        "core.unknown-format",
        "unknown format {format}; formats: {formats}",
        format=repr(name),
        formats=many(formats),
    )


def no_seq(seq: int, last: int) -> Message:
    """There is no ``seq`` in a game whose last is ``last``."""
    return say("core.no-seq", "no seq {seq}: this game has seqs 0 to {last}", seq=seq, last=last)


def _restore(cls: type[GametapeError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error
