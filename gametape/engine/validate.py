"""Validation: a log already read, checked line by line and folded through its rules.

The engine reads no files: ``gametape.usecases.check`` reads them and calls this."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from gametape.engine.fold import Fold, IllegalEvent, Many, start
from gametape.engine.registry import ruleset_for
from gametape.engine.ruleset import Result
from gametape.errors import Problem
from gametape.events.base import Event, Retract, Setup
from gametape.events.log import LogRead

Status = Literal["finished", "in_progress", "invalid"]


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
    players: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()  # the result's winners by name (``result.winners``: seats)
    started: str | None = None  # the setup's time, and the last valid event's (UTC, ISO 8601)
    last: str | None = None
    # what the rules list about a valid log besides: claims made void or in dispute, each
    # naming its events by seq (a game recorded at a table; DESIGN: claims and facts)
    notices: tuple[str, ...] = ()


Visit = Callable[[int, Any, Event, Any, int], None]


def validate(
    read: LogRead, visit: Visit | None = None, many: Many | None = None
) -> tuple[Report, Any]:
    """Check a read log: format problems from reading, then the rules. Returns (report, state).

    The state is the last valid one (None if not even the setup was valid). ``visit``, if
    given, is called as ``visit(seq, before, event, after, turn)`` for every valid event
    after the setup (``turn``: the turn it belongs to), so analytics reads facts without
    folding twice; ``many``, if given, stands for the game's fast path (``Fold.extend``).
    """
    file = str(read.path)
    events = read.events
    setup = events[0] if events and isinstance(events[0], Setup) else None
    game_id = setup.game if setup and setup.game else read.path.stem
    ruleset = ruleset_for(setup) if setup is not None else None
    f: Fold | None = None
    problem: Problem | None = None
    try:
        if events and ruleset is not None:  # an empty read is explained by its read error
            keep = visit is not None or Retract in map(type, events)  # C-level, stops at one
            f = start(ruleset, events, keep=keep)
            if visit is None:
                f.extend(events[1:], many)
            else:
                for seq, event, before, after in f.walk(events[1:]):
                    visit(seq, before, event, after, f.turn_of(seq))
    except IllegalEvent as exc:
        problem = Problem(
            kind="IllegalMove",
            message=exc.violation.message,
            file=file,
            line=(exc.seq or 0) + 1,
            seq=exc.seq,
            rule=exc.violation.rule,
        )
    if problem is None and setup is not None and setup.game != read.path.stem:
        problem = Problem(
            kind="WrongGame",
            message=f"the setup names the game "
            f"{setup.game[:40]!r}, but the log is {read.path.name} (a log's "
            "game id is its file name)",
            file=file,
            line=1,
            seq=0,
        )
    if problem is None and read.error is not None:
        e = read.error
        problem = Problem(
            kind=type(e).__name__,
            message=e.message,
            file=file,
            line=e.line,
            seq=e.seq,
            offset=e.offset,
        )
    if problem is None and events and ruleset is None:
        problem = Problem(
            kind="IllegalMove", message="the first event is not a setup", file=file, line=1, seq=0
        )
    if problem is None and not events:
        problem = Problem(kind="Empty", message="the log holds no events", file=file)
    count = len(f.events) if f is not None else 0
    state = f.state if f is not None else None
    said = Report(  # what every report says: what was read, and how far it got
        file=file,
        game=game_id,
        ruleset=ruleset.name if ruleset else None,
        players=setup.players if setup else (),
        status="invalid",
        events=count,
        started=read.records[0].ts if count else None,
        last=read.records[count - 1].ts if count else None,
    )
    if problem is not None:
        return msgspec.structs.replace(said, problem=problem), state
    assert ruleset is not None and f is not None
    over = f.is_over
    result = f.result() if over else None
    notices = ruleset.notices(f.state) if f.events else ()
    return msgspec.structs.replace(
        said,
        notices=tuple(n.text(f.live) for n in notices),
        status="finished" if over else "in_progress",
        turn=f.turn(),
        result=result,
        winners=tuple(setup.players[s] for s in result.winners) if result and setup else (),
    ), state
