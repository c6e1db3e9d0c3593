"""Importing hanab.live files into a store: validated, de-duplicated, summarised."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Literal

import msgspec

from gametape.events.base import Event, Setup
from gametape.events.codec import decode_line
from gametape.events.errors import LogError
from gametape.events.store import Store
from gametape.interop import hanablive as hl

Status = Literal["imported", "duplicate", "refused", "ignored"]


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """What happened to one file."""

    file: str
    status: Status
    game: str | None = None
    reason: str | None = None
    kind: str | None = None  # for refusals: variant, format or illegal
    outcome: str | None = None
    score: int | None = None
    fireworks_sum: int | None = None


def files_in(paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """(file, named by the user). Directories expand to their ``*.json`` files, recursively."""
    for path in paths:
        if path.is_dir():
            yield from ((p, False) for p in sorted(path.rglob("*.json")) if p.is_file())
        else:
            yield path, True


def known_sources(store: Store) -> tuple[set[int], set[str]]:
    """hanab.live ids and fingerprints of games already in the store (from setup lines)."""
    ids: set[int] = set()
    prints: set[str] = set()
    for gid in store.game_ids():
        try:
            with open(store.path(gid), "rb") as f:
                setup: Event = decode_line(f.readline().rstrip(b"\n")).event
        except (OSError, LogError):
            continue
        if isinstance(setup, Setup) and setup.meta.get("source") == "hanab.live":
            if isinstance(setup.meta.get("hanablive_id"), int):
                ids.add(setup.meta["hanablive_id"])  # type: ignore[arg-type]
            if isinstance(setup.meta.get("fingerprint"), str):
                prints.add(setup.meta["fingerprint"])  # type: ignore[arg-type]
    return ids, prints


def import_files(store: Store, paths: Iterable[Path],
                 progress: Callable[[Path], None] | None = None) -> list[ImportResult]:
    """Import every file; a refused or duplicate file never stops the others."""
    ids, prints = known_sources(store)
    results = []
    with store.batch():
        for path, named in files_in(paths):
            results.append(_import_one(store, path, ids, prints, named))
            if progress:
                progress(path)
    return results


def _import_one(store: Store, path: Path, ids: set[int], prints: set[str],
                named: bool = True) -> ImportResult:
    file = str(path)
    try:
        data = path.read_bytes()
        try:
            source = hl.parse(data)
        except hl.Refused:
            if not named and not _looks_like_a_game(data):
                return ImportResult(file=file, status="ignored", reason="not a hanab.live game")
            raise
        print_ = hl.fingerprint(source)
        if (source.id is not None and source.id in ids) or print_ in prints:
            why = (f"hanab.live game {source.id}" if source.id in ids
                   else "the same deck and actions")
            return ImportResult(file=file, status="duplicate", reason=f"already imported: {why}")
        game = hl.to_game(source, path.name)
    except hl.Refused as exc:
        return ImportResult(file=file, status="refused", kind=exc.kind, reason=exc.message)
    except OSError as exc:
        return ImportResult(file=file, status="refused", kind="format",
                            reason=exc.strerror or str(exc))
    gid = store.create(game.setup, game.events[1:])
    if source.id is not None:
        ids.add(source.id)
    prints.add(print_)
    result = game.result()
    return ImportResult(
        file=file, status="imported", game=gid,
        outcome=result.outcome if result else None,
        score=result.scores[0] if result else None,
        fireworks_sum=game.state.fireworks_sum,
        reason=None if result else "the file records no end: imported as in progress",
    )


def _looks_like_a_game(data: bytes) -> bool:
    """For files found in a directory: a JSON object with ``players`` and ``deck``."""
    try:
        obj = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return True  # let the import report what is wrong with it
    return isinstance(obj, dict) and "players" in obj and "deck" in obj
