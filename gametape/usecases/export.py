"""Exporting games: a replay page or another tool's file for each game, drawn in parallel.

The CLI writes what these return; a web server serves it. Nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gametape.errors import GametapeError, UsageError
from gametape.events.log import Source
from gametape.events.store import GameStore
from gametape.messages import many, say
from gametape.usecases.files import write_whole


@dataclass
class Exported:
    """One game's export: the file's bytes, its suffix, where its replay stops short (html
    only) and the format's warnings."""

    path: Path | Source
    content: bytes
    suffix: str
    cut: str | None = None
    warnings: list[str] = field(default_factory=list)


def check_request(fmt: str | None, as_player: str | None) -> str:
    """The format, if the request makes sense; a usage error saying what is missing."""
    if fmt is None:
        raise UsageError(say("core.export-format", "say the format: --format html, or another "
                             "tool's (`gametape games`)"))  # fmt: skip
    if as_player is not None and fmt != "html":
        raise UsageError(say("core.export-as", "--as is for --format html: a replay page as one "
                             "player saw it"))  # fmt: skip
    return fmt


def export_games(
    store: GameStore, refs: list[str], fmt: str, as_player: str | None = None
) -> Iterator[Exported]:
    """Each named game in ``fmt`` (``html``: a replay page, as ``as_player`` saw it), in
    order. Several pages are drawn on a process per CPU (drawing the boards is the slow
    part)."""
    paths = [store.resolve(ref) for ref in refs]
    if fmt != "html":
        from gametape.replay import Cursor

        for path in paths:
            cursor = Cursor.open(path)
            if "branch_as" in getattr(cursor.events[0], "meta", {}):
                raise UsageError(say("core.export-hypothesis", "{game} is one seat's hypothesis: "
                                     "it is exported only as a page of what that seat saw "
                                     "(--format html), never whole", game=path.stem))  # fmt: skip
            yield _in_format(path, cursor, fmt)
        return
    from gametape.usecases.branches import branch_tree
    from gametape.usecases.review import read_notes

    notes = [read_notes(store, p)[0] for p in paths] if as_player is None else [[]] * len(paths)
    tree = branch_tree(store)
    lines = [
        [(b["at"], b["game"], b["events"] - 1 - b["at"]) for b in tree.get(p.stem, [])]
        for p in paths
    ]
    for path, page in zip(paths, _pages(paths, as_player, notes, lines), strict=True):
        cut = f"replays only up to seq {page.last}: {page.problem}" if page.problem else None
        yield Exported(path, page.page, "html", cut)


def _pages(
    paths: list[Path | Source], as_player: str | None, notes: list[Any], lines: list[Any]
) -> Iterator[Any]:
    from gametape.replay.html import page_of_log

    jobs = min(len(paths), os.cpu_count() or 1)
    if jobs == 1:
        for path, said, branches in zip(paths, notes, lines, strict=True):
            yield page_of_log(path, as_player, said, branches)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(page_of_log, paths, [as_player] * len(paths), notes, lines)


def _in_format(path: Path | Source, cursor: Any, fmt: str) -> Exported:
    """A game in another tool's format, with the format's warnings."""
    rules = cursor.ruleset
    if cursor.problem:
        raise GametapeError(say("core.export-invalid", "the game is invalid at {problem}",
                                problem=str(cursor.problem)), path=cursor.path)  # fmt: skip
    formats = rules.formats()
    if fmt not in formats:
        known = many(["html", *formats])
        raise UsageError(say("core.export-unknown", "unknown format {format} for a {game} game; "
                             "formats: {formats}", format=repr(fmt), game=rules.name,
                             formats=known))  # fmt: skip
    data, warnings = formats[fmt].export(cursor.events)
    return Exported(path, data, formats[fmt].suffix, warnings=list(warnings))


def target(output: Path, exported: Exported, several: bool) -> Path:
    """Where an export goes: ``output`` itself, or ``output/GAME.SUFFIX`` when several games
    go into it or it is an existing directory."""
    into = several or output.is_dir()
    return output / f"{exported.path.stem}.{exported.suffix}" if into else output


def check_output(count: int, output: Path | None) -> None:
    """Several games go into a directory."""
    if count > 1 and output is None:
        raise UsageError(say("core.export-several", "several games go into a directory: add "
                             "-o DIR"))  # fmt: skip
    if count > 1 and output is not None and output.exists() and not output.is_dir():
        raise UsageError(say("core.export-not-a-directory", "{path} is not a directory; several "
                             "games go into a directory", path=str(output)))  # fmt: skip


def write(path: Path, content: bytes) -> None:
    """Write an export whole, or not at all."""
    write_whole(path, content)
