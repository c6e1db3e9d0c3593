"""Validation: a log read from disk, checked line by line and folded through its rules."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Literal

import msgspec

from gametape.engine.game import IllegalEvent, fold, iter_states
from gametape.engine.registry import ruleset_for
from gametape.engine.ruleset import Result
from gametape.events.base import Event, Setup
from gametape.events.log import LogRead, read_log

Status = Literal["finished", "in_progress", "invalid"]


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """What is wrong and where."""

    kind: str
    message: str
    file: str
    line: int | None = None
    seq: int | None = None
    offset: int | None = None
    rule: str | None = None

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        if self.seq is not None:
            where += f", seq {self.seq}"
        if self.offset is not None:
            where += f", byte {self.offset}"
        text = f"{where}: {self.message}"
        return text + (f" (rule: {self.rule})" if self.rule else "")


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """One game's validation: its status, how far it got, and the result or the problem."""

    file: str
    game: str | None
    ruleset: str | None
    status: Status
    events: int
    turn: int | None = None
    result: Result | None = None
    problem: Problem | None = None


Visit = Callable[[int, Any, Event, Any], None]


def validate(read: LogRead, visit: Visit | None = None) -> tuple[Report, Any]:
    """Check a read log: format problems from reading, then the rules. Returns (report, state).

    The state is the last valid one (None if not even the setup was valid). ``visit``, if
    given, is called as ``visit(seq, before, event, after)`` for every valid event after the
    setup (analytics reads facts this way without folding twice).
    """
    file = str(read.path)
    events = read.events
    setup = events[0] if events and isinstance(events[0], Setup) else None
    game_id = setup.game if setup and setup.game else read.path.stem
    base: dict[str, Any] = {"file": file, "game": game_id,
                            "ruleset": ruleset_for(setup).name if setup else None}
    state = None
    last_ok = -1
    problem: Problem | None = None
    try:
        if events and visit is None:  # an empty read is explained by its read error below
            state = fold(events)
            last_ok = len(events) - 1
        elif events:
            assert visit is not None
            before = None
            for seq, event, after in iter_states(events):
                if seq:
                    visit(seq, before, event, after)
                before = state = after
                last_ok = seq
    except IllegalEvent as exc:
        last_ok = exc.seq - 1
        if exc.seq > 0 and visit is None:
            state = fold(events[: exc.seq])
        problem = Problem(kind="IllegalMove", message=exc.violation.message, file=file,
                          line=exc.seq + 1, seq=exc.seq, rule=exc.violation.rule)
    if problem is None and read.error is not None:
        e = read.error
        problem = Problem(kind=type(e).__name__, message=e.message, file=file, line=e.line,
                          seq=e.seq, offset=e.offset)
    if problem is None and not events:
        problem = Problem(kind="Empty", message="the log holds no events", file=file)
    count = last_ok + 1
    if problem is not None:
        return Report(**base, status="invalid", events=count, problem=problem), state
    ruleset = ruleset_for(setup)  # type: ignore[arg-type]
    over = ruleset.is_over(state)
    return Report(**base, status="finished" if over else "in_progress", events=count,
                  turn=ruleset.turn(state), result=ruleset.result(state) if over else None), state


def validate_path(path: Path) -> Report:
    """Read and validate one log file."""
    return validate(read_log(path))[0]


def validate_paths(paths: Sequence[Path], jobs: int = 1) -> Iterator[Report]:
    """Validate many logs in order, on ``jobs`` processes (0: one per CPU)."""
    jobs = jobs or os.cpu_count() or 1
    chunk = 32
    if jobs <= 1 or len(paths) < 4 * chunk:
        yield from map(validate_path, paths)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(validate_path, paths, chunksize=chunk)
