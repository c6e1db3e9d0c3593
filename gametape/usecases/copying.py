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
from gametape.events.log import read_log
from gametape.events.postgres import PgStore
from gametape.events.store import GameStore

Outcome = Literal["copied", "copied invalid", "already there", "skipped", "refused"]


@dataclass
class Copied:
    """One game's copy: what happened, and why when it was not copied as it is."""

    game: str
    outcome: Outcome
    status: str
    reason: str = ""


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
            yield Copied(
                gid,
                "already there" if same else "refused",
                report.status,
                "" if same else "the destination holds a different log with this id",
            )
            continue
        if invalid and not invalid_too:
            yield Copied(gid, "skipped", "invalid", f"{why} (--with-invalid copies it)")
            continue
        if isinstance(target, PgStore) and not data.endswith(b"\n") and data:
            yield Copied(
                gid,
                "refused",
                report.status,
                "its last line is torn, and a row holds only whole lines: "
                "`gametape repair` it first",
            )
            continue
        target.put(gid, data)
        back = target.raw(target.path(gid))
        again = validate(read_log(target.path(gid), data=back))[0]
        if back != data or again.status != report.status:
            raise GametapeError(
                f"{gid}: the copy in {target.name} reads back differently from the source "
                f"({again.status}); the source is unchanged"
            )
        yield Copied(gid, "copied invalid" if invalid else "copied", report.status, why)
