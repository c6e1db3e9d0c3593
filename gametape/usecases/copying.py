"""Copying every game between two stores (``gametape store copy SRC DST``), any kind to any.

A game's log moves as its bytes, never decoded and written again, so a copy is the same log
line for line: a copy from files to PostgreSQL and back gives byte-identical files. Each
game is validated before it is written (a game that does not validate is copied only when
asked) and read back from the destination after, where its bytes and chain must match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from gametape.engine.validate import validate
from gametape.errors import GametapeError
from gametape.events import sidelog
from gametape.events.log import read_log
from gametape.events.postgres import PgStore
from gametape.events.store import GameStore
from gametape.messages import count_of, render, say

Outcome = Literal["copied", "copied invalid", "already there", "skipped", "refused"]


@dataclass
class Copied:
    """One game's copy: what happened, and why when it was not copied as it is; ``notes``:
    how many of its notes (gametape.usecases.review) were copied with it. The store's
    merged names come last, as ``players.log``."""

    game: str
    outcome: Outcome
    status: str
    reason: str = ""
    notes: int = 0


PLAYERS = "players.log"  # the store's merged names (gametape.analytics.aliases)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _carry(have: bytes, want: bytes, add: Callable[[bytes], None]) -> int | None:
    """Append to a side log holding ``have`` the lines of ``want`` it lacks; the count
    appended, or None when ``have`` is not the start of ``want`` (the destination's own
    lines: nothing is appended, since a side log is only ever appended to)."""
    if not want.startswith(have):
        return None
    missing = _lines(want[len(have) :])
    for line in missing:
        add(line if line.endswith(b"\n") else line + b"\n")
    return len(missing)


def _players(store: GameStore) -> bytes:
    if isinstance(store, PgStore):
        return store.players_log()
    path = store.root / PLAYERS  # type: ignore[attr-defined]
    return path.read_bytes() if path.is_file() and not path.is_symlink() else b""


def _add_players(store: GameStore) -> Callable[[bytes], None]:
    if isinstance(store, PgStore):
        return store.add_players_line
    root = store.root  # type: ignore[attr-defined]
    return lambda line: sidelog.append(root / PLAYERS, line)


def _logs(store: GameStore, ids: list[str]) -> Iterator[tuple[str, bytes]]:
    if isinstance(store, PgStore):
        for games, logs, _ in store.chunks(ids):
            yield from ((game.stem, data) for game, data in zip(games, logs, strict=True))
        return
    for gid in ids:
        yield gid, store.raw(store.path(gid))


def copy_store(
    source: GameStore,
    target: GameStore,
    invalid_too: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Copied]:
    """Copy each game of ``source`` that ``target`` lacks; yield what happened to each."""
    source.require()
    target.ensure()
    ids = source.game_ids()
    there = set(target.game_ids())
    for done, (gid, data) in enumerate(_logs(source, ids), start=1):
        if progress:
            progress(done, len(ids))
        report = validate(read_log(source.path(gid), data=data))[0]
        invalid = report.status == "invalid"
        why = str(report.problem) if report.problem else ""
        if gid in there:
            same = target.raw(target.path(gid)) == data
            other = say("core.copy-other-log", "the destination holds a different log with this id")
            made = Copied(
                gid,
                "already there" if same else "refused",
                report.status,
                "" if same else render(other),
            )
            yield _with_notes(source, target, gid, made) if same else made
            continue
        if invalid and not invalid_too:
            skipped = say("core.copy-invalid", "{why} (--with-invalid copies it)", why=why)
            yield Copied(gid, "skipped", "invalid", render(skipped))
            continue
        if isinstance(target, PgStore) and not data.endswith(b"\n") and data:
            torn = say("core.copy-torn", "its last line is torn, and a row holds only whole lines: "
                       "`gametape repair` it first")  # fmt: skip
            yield Copied(gid, "refused", report.status, render(torn))
            continue
        unfit = _unfit_for_rows(data) if isinstance(target, PgStore) else None
        if unfit is not None:
            yield Copied(gid, "refused", report.status, unfit)
            continue
        try:
            target.put(gid, data)
        except FileExistsError:  # another copy (or a writer) made it meanwhile
            same = target.raw(target.path(gid)) == data
            reason = "" if same else render(say("core.copy-raced", "another writer made a game "
                                                "with this id meanwhile"))  # fmt: skip
            yield Copied(gid, "already there" if same else "refused", report.status, reason)
            continue
        back = target.raw(target.path(gid))
        again = validate(read_log(target.path(gid), data=back))[0]
        if back != data or again.status != report.status:
            raise GametapeError(
                say("core.copy-differs", "{game}: the copy in {store} reads back differently "
                    "from the source ({status}); the source is unchanged", game=gid,
                    store=target.name, status=again.status)
            )  # fmt: skip
        made = Copied(gid, "copied invalid" if invalid else "copied", report.status, why)
        yield _with_notes(source, target, gid, made)
    yield _copy_players(source, target)


def _unfit_for_rows(data: bytes) -> str | None:
    """Why a log cannot be rows of a PostgreSQL store (a row holds one line as JSON text):
    a byte that is not UTF-8, or a NUL, named by its line; None if it can."""
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return render(say("core.copy-not-utf8", "line {line} holds a byte that is not UTF-8 "
                              "text: a row holds text", line=number))  # fmt: skip
        if b"\x00" in line:
            return render(say("core.copy-nul", "line {line} holds a NUL byte: a row's text "
                              "cannot", line=number))  # fmt: skip
    return None


def _with_notes(source: GameStore, target: GameStore, gid: str, done: Copied) -> Copied:
    """``done`` with the game's notes copied after its log, and checked read back."""
    want = source.notes(source.path(gid))
    dst = target.path(gid)
    added = _carry(target.notes(dst), want, lambda line: target.add_note(dst, line))
    if added is None:
        other = say("core.copy-other-notes", "the destination holds other notes on this game")
        done.outcome, done.reason = "refused", render(other)
    elif target.notes(dst) != want:
        raise GametapeError(say("core.copy-notes-differ", "{game}: its notes read back "
                                "differently in {store}", game=gid, store=target.name))  # fmt: skip
    else:
        done.notes = added
    return done


def _copy_players(source: GameStore, target: GameStore) -> Copied:
    """The store's merged names (players.log), appended to the destination's."""
    want = _players(source)
    added = _carry(_players(target), want, _add_players(target))
    if added is None:
        own = say("core.copy-other-names", "the destination has merged names of its own")
        return Copied(PLAYERS, "refused", "", render(own))
    if _players(target) != want:
        raise GametapeError(say("core.copy-names-differ", "the merged names read back "
                                "differently in {store}", store=target.name))  # fmt: skip
    lines = render(count_of(added, "line"))
    return Copied(PLAYERS, "copied" if added else "already there", "", lines)
