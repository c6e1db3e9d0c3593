"""Merged names: "Ann B" and "ann" are one person when a user says so.

The store keeps merges as data, never as edits to a game's log: ``players.log`` beside the
games, one JSON object a line, appended (``{"merge": "ann b", "into": "ann", "ts": ...}`` or
``{"unmerge": "ann b", "ts": ...}``), so two users merging at once both keep their line and
the history stays readable. Names are stored as :func:`gametape.text.person` reads them.
"""

from __future__ import annotations

import time
from pathlib import Path

import msgspec

from gametape.errors import os_error
from gametape.events import sidelog
from gametape.events.postgres import PgStore
from gametape.messages import say
from gametape.text import person, shown_path

FILE = "players.log"


class Entry(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    ts: str
    merge: str | None = None
    into: str | None = None
    unmerge: str | None = None


_decode = msgspec.json.Decoder(Entry).decode


def read(root: Path | PgStore) -> tuple[dict[str, str], list[str]]:
    """Each merged name → the person it is, followed to the end (``a`` into ``b`` and ``b``
    into ``c``: ``a`` is ``c``); and what was wrong, if anything (a damaged line is skipped
    and named by file and line: a torn last line costs that merge, never a game). A
    PostgreSQL store keeps the same lines in its gametape_players table."""
    if not isinstance(root, Path):
        return _parse(root.players_log(), f"{root.name} (gametape_players)")
    path = root / FILE
    try:
        if not path.is_file() or path.is_symlink():
            return {}, (
                [f"{shown_path(path)} is not a file; no names are merged"]
                if path.exists() or path.is_symlink()
                else []
            )
        data = path.read_bytes()
    except OSError as exc:
        return {}, [str(os_error(exc, path, "read"))]
    return _parse(data, shown_path(path))


def _parse(data: bytes, where: str) -> tuple[dict[str, str], list[str]]:
    merged: dict[str, str] = {}
    problems: list[str] = []
    merge = say("core.a-merge", "a merge of names")
    for _, entry in sidelog.entries(data, _decode, where, merge, problems):
        if entry.merge is not None and entry.into is not None:
            merged[entry.merge] = entry.into
        elif entry.unmerge is not None:
            merged.pop(entry.unmerge, None)
    return {name: resolve(merged, name) for name in merged}, problems


def resolve(merged: dict[str, str], name: str) -> str:
    """The person ``name`` is, through any chain of merges (a cycle stops where it began)."""
    seen = {name}
    while name in merged and merged[name] not in seen:
        name = merged[name]
        seen.add(name)
    return name


def append(
    root: Path | PgStore,
    *,
    merge: str | None = None,
    into: str | None = None,
    unmerge: str | None = None,
) -> None:
    """Append one merge (or unmerge) to the store's players.log, as one write of one line."""
    entry = Entry(
        ts=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        merge=person(merge) if merge is not None else None,
        into=person(into) if into is not None else None,
        unmerge=person(unmerge) if unmerge is not None else None,
    )
    line = msgspec.json.encode(entry) + b"\n"
    if not isinstance(root, Path):
        root.add_players_line(line)
        return
    sidelog.append(root / FILE, line)
