"""Importing other tools' files into a store: validated, de-duplicated, summarised."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

from gametape.errors import UsageError, unknown_format
from gametape.events.base import Setup
from gametape.events.codec import decode_line
from gametape.events.errors import LogError
from gametape.events.log import read_bytes
from gametape.events.store import GameStore
from gametape.interop.formats import Format, ImportRefused
from gametape.messages import many, render, say
from gametape.text import shown_path

Status = Literal["imported", "duplicate", "refused", "ignored"]


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """What happened to one file."""

    file: str
    status: Status
    game: str | None = None
    reason: str | None = None  # why it was skipped or refused, in a line
    kind: str | None = None  # for refusals: variant, format or illegal
    outcome: str | None = None
    score: int | None = None
    facts: dict[str, Any] = {}
    ruleset: str | None = None  # the game imported: whose words its outcome and facts are


def files_in(paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """(file, named by the user). Directories expand to every entry named ``*.json`` under
    them, recursively, without following links to directories (a link loop cannot trap the
    walk). A link, a FIFO or a dangling link is yielded too: its import is refused by name."""
    for path in paths:
        if os.path.isdir(path):  # False for a path that cannot be looked at: refused by name
            found = [
                Path(top, name)
                for top, _dirs, names in os.walk(path)
                for name in names
                if name.endswith(".json")
            ]
            yield from ((p, False) for p in sorted(found))
        else:
            yield path, True


def known_keys(store: GameStore, fmt: Format) -> set[str]:
    """Identities of the games already in the store (from their setup lines)."""
    keys: set[str] = set()
    for first in store.setup_lines().values():
        try:
            setup = decode_line(first).event
        except LogError:
            continue
        if isinstance(setup, Setup):
            keys |= fmt.setup_keys(setup)
    return keys


def import_files(
    store: GameStore,
    fmt: Format,
    paths: Iterable[Path],
    progress: Callable[[Path], None] | None = None,
    options: Mapping[str, str] | None = None,
) -> list[ImportResult]:
    """Import every file; a refused or duplicate file never stops the others."""
    options = options or {}
    unknown = set(options) - set(fmt.options_help)
    if unknown:
        raise UsageError(say("core.import-option", "unknown import option {option}; {format} "
                             "options: {options}", option=repr(sorted(unknown)[0]), format=fmt.name,
                             options=many(fmt.options_help)))  # fmt: skip
    keys = known_keys(store, fmt)
    results = []
    with store.batch():
        for path, named in files_in(paths):
            results.append(_import_one(store, fmt, path, keys, named, options))
            if progress:
                progress(path)
    return results


def _import_one(
    store: GameStore,
    fmt: Format,
    path: Path,
    keys: set[str],
    named: bool,
    options: Mapping[str, str],
) -> ImportResult:
    file = shown_path(path)
    try:
        data = read_bytes(path, THE_FILE)
        try:
            source = fmt.parse(data)
        except ImportRefused:
            if not named and not fmt.looks_like(data):
                said = say("core.import-not-a", "not a {format}", format=fmt.description)
                return ImportResult(file=file, status="ignored", reason=render(said))
            raise
        mine = fmt.keys(source)
        seen = sorted(mine & keys)
        if seen:
            said = say("core.import-already", "already imported: {key}", key=seen[0])
            return ImportResult(file=file, status="duplicate", reason=render(said))
        game = fmt.to_game(source, shown_path(path.name), options)
    except (ImportRefused, LogError) as exc:  # reason is the message of the one Problem
        problem = exc.problem()
        kind = exc.kind if isinstance(exc, ImportRefused) else "format"
        return ImportResult(file=file, status="refused", kind=kind, reason=problem.message)
    gid = store.create(game.setup, game.events[1:])
    keys |= mine
    result = game.result()
    return ImportResult(
        file=file,
        status="imported",
        game=gid,
        outcome=result.outcome if result else None,
        score=result.scores[0] if result else None,
        facts=fmt.facts(game),
        ruleset=game.ruleset.name,
        reason=None if result else render(NO_END),
    )


THE_FILE = say("core.the-file", "the file")
NO_END = say("core.import-no-end", "the file records no end: imported as in progress")


def find_format(name: str) -> Format:
    """The format called ``name`` among the installed games' formats (a usage error if none)."""
    from gametape.engine.registry import all_rulesets

    offered: dict[str, Format] = {
        n: f for rules in all_rulesets() for n, f in rules.formats().items()
    }
    if name not in offered:
        raise UsageError(unknown_format(name, sorted(offered)))
    return offered[name]
