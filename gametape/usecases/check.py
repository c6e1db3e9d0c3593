"""Checking log files: read each one and validate it, on one process or several."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

import msgspec

from gametape.engine.validate import Report, validate
from gametape.errors import Problem, UsageError
from gametape.events.errors import LogError
from gametape.events.log import Source, read_log
from gametape.events.postgres import PgStore
from gametape.events.store import GameStore, Store
from gametape.messages import say
from gametape.text import shown_path


def validate_path(path: Path | Source, data: bytes | None = None) -> Report:
    """Read (or take ``data`` as its bytes) and validate one log; a file that cannot be
    read, or whose name is not UTF-8 (no game's is), is an invalid report."""
    try:  # the file's own name (its game id), not the store's folder, which may hold anything
        name = path.name if isinstance(path, Path) else ""
        if not (name.isascii() and name.isprintable()) and shown_path(name) != name:
            said = say("core.name-not-utf8", "the file name is not UTF-8 text: no game log is "
                       "named so")  # fmt: skip
            raise LogError(said, path=path)
        read = read_log(path, data=data)
    except LogError as exc:
        shown = shown_path(path) if isinstance(path, Path) else str(path)
        problem = Problem(kind=type(exc).__name__, message=exc.message, file=shown)
        return Report(
            file=shown,
            game=shown_path(path.stem) if isinstance(path, Path) else path.stem,
            ruleset=None,
            status="invalid",
            events=0,
            problem=problem,
        )
    report = validate(read)[0]
    if report.status == "invalid":
        return report
    tie = _branches().branch_problem(read)  # a branch is checked against its parent
    if tie is None:
        return report
    return msgspec.structs.replace(report, status="invalid", problem=tie, result=None)


@cache
def _branches() -> ModuleType:
    """gametape.usecases.branches, imported when first needed (it imports the recording use
    cases) and then at the cost of a call (an import statement costs 1 us a log)."""
    import gametape.usecases.branches as branches

    return branches


DEMO_MARK = ".gametape-demo"


def demo_store(root: Path) -> Store:
    """A fresh demo store at ``root`` (``gametape demo``): made anew, or refused when
    ``root`` holds anything that is not an earlier demo store."""
    if root.exists() and any(root.iterdir()) and not (root / DEMO_MARK).exists():
        raise UsageError(say("core.demo-not-empty", "{path} is not empty and not a demo store; "
                             "pick another with --store", path=str(root)))  # fmt: skip
    import shutil  # here: it imports every compressor, which no other command needs

    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    (root / DEMO_MARK).write_text("made by `gametape demo`; safe to delete\n")
    return Store(root)


def validate_store(store: GameStore, jobs: int = 1) -> Iterator[Report]:
    """Validate every game of a store, in the order of their ids: a file store's on
    ``jobs`` processes, a PostgreSQL store's logs read a few hundred at a query."""
    ids = store.game_ids()
    if not isinstance(store, PgStore):
        yield from validate_paths([store.path(g) for g in ids], jobs)
        return
    jobs = (jobs or os.cpu_count() or 1) if len(ids) >= 128 else 1
    batches = ((games, logs) for games, logs, _ in store.chunks(ids))
    from gametape.parallel import pipelined  # threads, for a PostgreSQL store only

    yield from pipelined(validate_path, batches, jobs)


def validate_paths(paths: Sequence[Path | Source], jobs: int = 1) -> Iterator[Report]:
    """Validate many logs in order, on ``jobs`` processes (0: one per CPU)."""
    jobs = jobs or os.cpu_count() or 1
    chunk = 32
    if jobs <= 1 or len(paths) < 4 * chunk:
        yield from map(validate_path, paths)
        return
    from concurrent.futures import ProcessPoolExecutor  # only here: 12 ms of every start-up

    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(validate_path, paths, chunksize=chunk)
