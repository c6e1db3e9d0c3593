"""The store: a directory of logs, one ``<game id>.jsonl`` file per game."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import msgspec

from gametape.errors import os_error
from gametape.events import sidelog
from gametape.events.base import Event, Setup
from gametape.events.errors import GameNotFound, ambiguous, no_game
from gametape.events.log import (
    LogRead,
    Source,
    append_events,
    create_file,
    create_log,
    fsync_dir,
    read_bytes,
    read_log,
    syncfs,
)
from gametape.events.naming import (
    ID_REF,
    StoreMissing,
    new_game_id,
)
from gametape.messages import Message, say
from gametape.text import shown_path

SUFFIX = ".jsonl"


def notes_path(log: Path) -> Path:
    """Where a game's notes are kept beside its log file: ``GAME.notes``."""
    return log.with_name(log.name.removesuffix(SUFFIX) + ".notes")


def links_path(log: Path) -> Path:
    """Where a game's links (``gametape serve``) are kept beside its log: ``GAME.links``."""
    return log.with_name(log.name.removesuffix(SUFFIX) + ".links")


def _side(where: Callable[[Path], Path], log: Path | Source, what: Message) -> bytes:
    """A side log's bytes beside ``log`` (nothing if there is none yet)."""
    assert isinstance(log, Path), log
    side = where(log)
    if not (side.exists() or side.is_symlink()):
        return b""
    return read_bytes(side, what=what)


NO_DIRECTORY = say("core.no-such-directory", "no such directory")


class Store:
    """A directory of game logs.

    >>> store = Store(tmp_path)
    >>> gid = store.create(setup)
    """

    def __init__(self, root: Path | str) -> None:
        # Absolute and with symlinks resolved, so `.`, `./`, a relative path, a symlink and
        # the absolute path name the same files (log paths in the read model included).
        path = Path(root).expanduser()
        try:
            self.root = path.resolve()
        except (RuntimeError, OSError):  # a symlink loop: require() and create() say so
            self.root = path.absolute()
        self._unsynced: set[str] | None = None  # the files a batch wrote (by name: cheap to hash)

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    @property
    def name(self) -> str:
        """The store as a message names it."""
        return shown_path(self.root)

    def path(self, game_id: str) -> Path:
        return self.root / f"{game_id}{SUFFIX}"

    def _problem(self) -> Message | str | None:
        """Why the store's path is not a usable directory (NO_DIRECTORY: it is not there
        yet), or None."""
        try:
            st = os.stat(self.root)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return say("core.os-loop", "a symlink loop")
            if exc.errno == errno.ENOENT:
                return NO_DIRECTORY
            return exc.strerror or str(exc)
        return (
            None if stat.S_ISDIR(st.st_mode) else say("core.os-not-a-directory", "not a directory")
        )

    def require(self) -> Store:
        """This store, if its directory exists; StoreMissing (a usage error) if not."""
        problem = self._problem()
        if problem is not None:
            raise StoreMissing(
                say("core.no-store", "no store at {path} ({problem})", path=shown_path(self.root),
                    problem=problem),
                hint=say("core.no-store-hint", "check --store or $GAMETAPE_STORE; `gametape new` "
                         "makes one"),
            )  # fmt: skip
        return self

    def ensure(self) -> Store:
        """This store, its directory made if it does not exist yet (for commands that create
        games); StoreMissing if the path is a file, a device or a loop."""
        if self._problem() == NO_DIRECTORY:
            try:
                self.root.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreMissing(
                    say("core.cannot-make-store", "cannot make the store {path}: {why}",
                        path=shown_path(self.root), why=exc.strerror or str(exc)),
                    hint=say("core.check-store", "check --store or $GAMETAPE_STORE"),
                ) from None  # fmt: skip
        return self.require()

    def game_ids(self) -> list[str]:
        """Every game in the store, sorted by id (none if the store does not exist yet).

        Every entry named like a log counts, a directory or a FIFO too (validation reports it
        as an invalid game); a name that is not UTF-8 is listed with its bytes escaped.
        """
        if not self.root.is_dir():
            return []
        return sorted(
            name[: -len(SUFFIX)] for name in os.listdir(self.root) if name.endswith(SUFFIX)
        )

    def resolve(self, ref: str) -> Path:
        """A log path from a game id or a unique id prefix in the store, or from an explicit
        path to a ``.jsonl`` file. An id is letters, digits, ``-`` and ``_`` only: a path can
        never be smuggled in through an id."""
        as_path = Path(ref).expanduser()
        if ref.endswith(SUFFIX) and (as_path.exists() or as_path.is_symlink()):
            return as_path
        if not ID_REF.fullmatch(ref):
            shown = ref if len(ref) <= 60 else ref[:60] + "…"
            raise GameNotFound(say("core.not-a-game-ref", "{ref} is not a game id (up to 100 "
                                   "letters and digits), nor a path to an existing .jsonl file",
                                   ref=repr(shown)))  # fmt: skip
        self.require()
        exact = self.path(ref)
        if exact.exists() or exact.is_symlink():
            return exact
        matches = [g for g in self.game_ids() if g.startswith(ref)] if ref else []
        if len(matches) == 1:
            return self.path(matches[0])
        if len(matches) > 1:
            raise GameNotFound(ambiguous(ref, matches[:5]))
        raise GameNotFound(no_game(ref, str(self.root)))

    def create(self, setup: Setup, events: Sequence[Event] = ()) -> str:
        """Write a new game (setup plus any first events); return its new id."""
        if not self._unsynced:  # each time, but in a batch only before its first file
            self.ensure()  # (a bulk import's thousand games ask once)
        fsync = self._unsynced is None
        for attempt in itertools.count():
            gid = new_game_id(setup, attempt)
            path = self.path(gid)
            stamped = msgspec.structs.replace(setup, game=gid)
            try:
                create_log(path, [stamped, *events], fsync=fsync)
            except FileExistsError:
                continue
            except OSError as exc:
                raise os_error(exc, path, "write") from None
            if not fsync:
                self._unsynced.add(str(path))  # type: ignore[union-attr]
            return gid
        raise AssertionError("unreachable")

    def append(self, game_id: str, events: Sequence[Event], *, expected_seq: int) -> int:
        """Append events at ``expected_seq`` (see ``append_events``); return the last seq."""
        return self.append_to(self.resolve(game_id), events, expected_seq=expected_seq)

    def append_to(self, path: Path | Source, events: Sequence[Event], *, expected_seq: int) -> int:
        """Append to the log file ``path`` itself (the one that was read), never another."""
        assert isinstance(path, Path), path
        fsync = self._unsynced is None
        try:
            last = append_events(path, events, expected_seq, fsync=fsync)
        except OSError as exc:  # a full disk, a read-only store: said, and nothing was written
            raise os_error(exc, path, "write") from None
        if not fsync:
            self._unsynced.add(str(path))  # type: ignore[union-attr]
        return last

    def read(self, game_id: str, *, verify: bool = True) -> LogRead:
        return read_log(self.resolve(game_id), verify=verify)

    @contextlib.contextmanager
    def batch(self) -> Iterator[Store]:
        """Defer fsyncs inside the block to its end (for bulk writers): one syncfs of the
        store's filesystem where Linux offers it (a thousand small files: one call, not a
        thousand), else an fsync of each file written."""
        self._unsynced = set()
        try:
            yield self
        finally:
            pending, self._unsynced = self._unsynced, None
            if pending and syncfs(self.root):
                pending = set()  # the files and the directory entries are on disk
            for path in pending:
                fd = os.open(path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            if pending:
                fsync_dir(self.root)

    def setup_lines(self) -> dict[str, bytes]:
        """Each game's first line (its setup), read alone: what a scan of every game needs
        (an import's duplicates, a game's branches) without reading whole logs."""
        found = {}
        for gid in self.game_ids():
            try:
                with open(self.path(gid), "rb") as f:
                    found[gid] = f.readline().rstrip(b"\n")
            except OSError:  # a directory or worse named like a log: validate reports it
                continue
        return found

    def raw(self, path: Path | Source) -> bytes:
        """A log's bytes (``store copy``)."""
        return read_bytes(path) if isinstance(path, Path) else path.log_bytes()

    def put(self, game_id: str, data: bytes) -> None:
        """Store a log's bytes as they are (``store copy``); FileExistsError if the game is
        here already."""
        self.ensure()
        create_file(self.path(game_id), data)

    def wait(self, path: Path | Source, after_seq: int, timeout: float) -> bool:
        """Wait until the log has an event after ``after_seq``; whether one came within
        ``timeout`` seconds. A file gives no notice, so its size is looked at 20 times a
        second (an append only ever makes it longer)."""
        deadline = time.monotonic() + timeout
        size = -1
        while True:
            try:
                now_size = os.stat(path).st_size  # type: ignore[arg-type]
            except OSError:
                now_size = -1
            if now_size != size:
                size = now_size
                read = read_log(path, verify=False)
                if read.records and read.records[-1].seq > after_seq:
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def heads(self, logs: Sequence[Path | Source]) -> dict[str, int]:
        """Each log's last seq (its whole lines read, not checked)."""
        heads = {}
        for log in logs:
            records = read_log(log, verify=False).records
            if records:
                heads[log.stem] = records[-1].seq
        return heads

    def recent(self, count: int) -> list[Path | Source]:
        """The ``count`` logs changed last, the latest first."""
        paths = [self.path(g) for g in self.game_ids()]
        paths.sort(key=lambda p: p.stat().st_mtime_ns if p.is_file() else 0, reverse=True)
        return list(paths[:count])

    def notes(self, path: Path | Source) -> bytes:
        """The game's notes (gametape.events.notes): ``GAME.notes`` beside its log."""
        return _side(notes_path, path, say("core.the-notes", "the game's notes"))

    def add_note(self, path: Path | Source, line: bytes) -> None:
        """Append one line to the game's notes, as one write (two writers both keep theirs);
        a link or a special file in its place is refused."""
        assert isinstance(path, Path), path
        sidelog.append(notes_path(path), line)

    def links(self, path: Path | Source) -> bytes:
        """The game's links (gametape.usecases.links): ``GAME.links`` beside its log."""
        return _side(links_path, path, say("core.the-links", "the game's links"))

    def add_link(self, path: Path | Source, line: bytes) -> None:
        """Append one line to the game's links, as ``add_note`` does."""
        assert isinstance(path, Path), path
        sidelog.append(links_path(path), line)

    def close(self) -> None:
        """Nothing to let go of: a file store holds no connection."""


class LogStore(Protocol):
    """The log store both stores keep: list the games, find one, read its log, create one,
    append at an expected seq (StaleWrite for a writer that lost the race), and follow one
    (wait for it to grow)."""

    @property
    def name(self) -> str: ...
    def game_ids(self) -> list[str]: ...
    def resolve(self, ref: str) -> Path | Source: ...
    def read(self, game_id: str, *, verify: bool = True) -> LogRead: ...
    def create(self, setup: Setup, events: Sequence[Event] = ()) -> str: ...
    def append_to(
        self, log: Path | Source, events: Sequence[Event], *, expected_seq: int
    ) -> int: ...
    def wait(self, log: Path | Source, after_seq: int, timeout: float) -> bool: ...
    def close(self) -> None: ...


class SideLogs(Protocol):
    """What a game keeps beside its log, each an append-only log of its own: its notes and
    its links (``gametape serve``)."""

    def notes(self, log: Path | Source) -> bytes: ...
    def add_note(self, log: Path | Source, line: bytes) -> None: ...
    def links(self, log: Path | Source) -> bytes: ...
    def add_link(self, log: Path | Source, line: bytes) -> None: ...


class GameStore(LogStore, SideLogs, Protocol):
    """What every store offers (the file store, ``Store``, and ``PgStore``): the log store and
    the side logs, and what bulk work needs besides (a store made or required, a game's log
    by id, its raw bytes written or read whole, every setup line, many heads at once, the
    recent games, writes batched). A front-end and the use cases hold a store as this, never
    as one kind; ``stores.open_store`` makes one."""

    def require(self) -> GameStore: ...
    def ensure(self) -> GameStore: ...
    def path(self, game_id: str) -> Path | Source: ...
    def append(self, game_id: str, events: Sequence[Event], *, expected_seq: int) -> int: ...
    def raw(self, log: Path | Source) -> bytes: ...
    def setup_lines(self) -> dict[str, bytes]: ...
    def put(self, game_id: str, data: bytes) -> None: ...
    def batch(self) -> contextlib.AbstractContextManager[Any]: ...
    def heads(self, logs: Sequence[Path | Source]) -> dict[str, int]: ...
    def recent(self, count: int) -> list[Path | Source]: ...
