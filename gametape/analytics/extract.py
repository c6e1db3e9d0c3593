"""One log file → its rows in the read model: one game, one row per player, one per event."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from gametape.analytics.schema import EVENTS, GAMES
from gametape.engine.fold import SHARED
from gametape.engine.game import notation
from gametape.engine.registry import ruleset_for
from gametape.engine.ruleset import Indexed, Ruleset
from gametape.engine.validate import Report, validate
from gametape.errors import PluginError
from gametape.events import notes
from gametape.events.base import Abandon, Event, Retract, Setup, actor
from gametape.events.errors import LogError
from gametape.events.log import LogRead, Source, read_bytes, read_log
from gametape.events.store import notes_path
from gametape.plugins import fault
from gametape.text import person

Columns = dict[str, list[Any]]


@dataclass
class Rows:
    """The rows one log contributes to each table (the game's own facts apart); a game's
    many event rows as columns (name: values, all of one length)."""

    game: dict[str, Any]
    players: list[dict[str, Any]] = field(default_factory=list)
    events: Columns = field(default_factory=dict)  # schema.EVENTS
    event_facts: Columns = field(default_factory=dict)  # game_id, seq, the game's columns
    player_facts: list[dict[str, Any]] = field(default_factory=list)
    annotations: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # a note line skipped, and why

    @property
    def n_events(self) -> int:
        return len(self.events.get("seq", ()))


def columns(rows: list[dict[str, Any]], names: Iterable[str]) -> Columns:
    """Rows as columns (a name a row lacks is None there)."""
    return {name: [row.get(name) for row in rows] for name in names}


_json = msgspec.json.Encoder()


def _declared(rules: Any, facts: dict[str, Any], kind: str) -> dict[str, Any]:
    """``facts``, whose keys must be the game's declared columns: a key it did not declare
    (a typo) is an error naming it, never a silent NULL column."""
    columns = rules.event_columns if kind == "event" else rules.player_columns
    if not facts.keys() <= columns.keys():
        unknown = sorted(facts.keys() - columns.keys())
        raise PluginError(
            f"the game plug-in {rules.name!r} returned {kind} facts {unknown} that are not "
            f"among its {kind}_columns ({', '.join(columns) or 'none'})"
        )
    return facts


def extract(
    path: Path | Source, data: bytes | None = None, notes_data: bytes | None = None
) -> Rows:
    """Read (or take ``data`` as its bytes), validate and fold one log, collecting facts
    from the ruleset as it goes; and its notes (``notes_data``, else a file's GAME.notes).
    A game whose own code fails (a fact it did not declare, an exception in a hook) is a row
    marked invalid that says so: that game's problem, never the store's."""
    try:
        rows = _extract(path, data)
    except Exception as exc:
        said = str(exc) if isinstance(exc, PluginError) else fault(exc)
        if said is None:
            raise  # gametape's own bug
        rows = Rows(game=dict.fromkeys(GAMES) | _failed(path, said))
    if notes_data is None and isinstance(path, Path):
        try:
            notes_data = read_bytes(notes_path(path)) if notes_path(path).exists() else b""
        except LogError:
            notes_data = b""
    found, rows.problems = notes.read(notes_data or b"", f"{path} notes")  # as `notes` says
    rows.annotations = [
        {
            "game_id": rows.game["game_id"],
            "n": a.n,
            "seq": a.note.seq,
            "author": a.note.author,
            "ts": a.note.ts,
            "text": a.note.text,
            "mark": a.note.mark,
            "card": a.note.card,
            "retracted_by": a.retracted_by,
        }
        for a in found
    ]
    return rows


def _failed(path: Path | Source, problem: str) -> dict[str, Any]:
    """The games row of a log whose game's own code failed while it was read."""
    return {
        "game_id": path.stem,
        "events": 0,
        "turns": 0,
        "status": "invalid",
        "log_path": str(path),
        "error": problem,
    }


def _branch(setup: Setup | None) -> dict[str, Any]:
    """A branch's parent and fork (gametape.usecases.branches), from its setup."""
    meta = setup.meta if setup is not None else {}
    at = meta.get("branch_at")
    return {
        "parent_game": meta.get("branch_of"),
        "fork_seq": at if isinstance(at, int) else None,
    }


def _extract(path: Path | Source, data: bytes | None, bulk: bool = True) -> Rows:
    game_id = path.stem
    try:
        read = read_log(path, data=data)
    except LogError as exc:  # not even readable: a row that says so
        read = LogRead(path=path, error=exc)
    logged = read.events
    setup = logged[0] if logged and isinstance(logged[0], Setup) else None
    rules = ruleset_for(setup) if setup is not None else None
    runs: list[Indexed] = []
    if rules is not None and bulk and _in_one_pass(rules, logged):

        def many(state: Any, moves: Sequence[Event]) -> tuple[Any, int]:
            if runs:  # the walk indexes a log of two runs or more
                return state, 0
            assert rules is not None
            after, taken, indexed = rules.index_many(state, moves)
            runs.append(indexed)
            return after, taken

        report, state = validate(read, many=many)
    if len(runs) == 1 and len(runs[0].notation) == report.events - 1:  # every valid event
        assert rules is not None and setup is not None
        events, event_facts = _indexed(rules, game_id, setup, logged, read, runs[0])
    else:
        report, state, events, event_facts = _walked(rules, game_id, setup, read)
    result = report.result
    players = setup.players if setup else ()
    options = getattr(setup, "options", None)
    records = read.records
    n = len(events.get("seq", ()))
    game = {
        "game_id": game_id,
        "ruleset": rules.name if rules else None,
        "ruleset_version": rules.version if rules else None,
        "players": list(players),
        "player_count": len(players) or None,
        "options": _json.encode(options).decode() if options is not None else None,
        "meta": _json.encode(setup.meta).decode() if setup else None,
        "events": report.events,
        "turns": events["turn"][-1] if n else 0,
        "status": report.status,
        "outcome": result.outcome if result else None,
        "scores": list(result.scores) if result else None,
        "score": max(result.scores) if result and result.scores else None,
        "winners": [players[s] for s in result.winners] if result else None,
        "started": records[0].ts if records else None,
        "recorded": records[report.events - 1].ts if report.events else None,
        "log_path": str(path),
        "error": str(report.problem) if report.problem else None,
        "notices": list(report.notices) or None,
        **_branch(setup),
    }
    rows = Rows(game=game, events=events, event_facts=event_facts)
    if rules is not None and state is not None:
        live = _live(events, event_facts)
        facts = rules.player_facts(state, live)
        winners = set(result.winners) if result else set()
        for seat, player in enumerate(players):
            row = {
                "game_id": game_id,
                "ruleset": rules.name,
                "seat": seat,
                "name": player,
                "player": person(player),
                "score": result.scores[seat] if result else None,
                "won": (seat in winners) if result else None,
            }
            rows.players.append(row)
            if seat < len(facts) and facts[seat]:
                own = _declared(rules, facts[seat], "player")
                rows.player_facts.append({"game_id": game_id, "seat": seat, **own})
    return rows


def _in_one_pass(rules: Ruleset[Any], events: list[Event]) -> bool:
    """Whether the game may index ``events`` in one pass (``Ruleset.index_many``): it has
    one, counts no turns of its own and no simultaneous steps (a turn is a move), and the
    log holds moves alone (no abandon, no retraction)."""
    kind = type(rules)
    return (
        kind.index_many is not Ruleset.index_many
        and kind.together is Ruleset.together
        and kind.turn is Ruleset.turn
        and SHARED.isdisjoint(map(type, events))
    )


def _indexed(
    rules: Ruleset[Any],
    game_id: str,
    setup: Setup,
    logged: list[Event],
    read: LogRead,
    indexed: Indexed,
) -> tuple[Columns, Columns]:
    """The event rows and facts of a log (``logged``: its events) the game indexed in one
    pass: its moves, seq 1 on, each its own turn."""
    moves = logged[1 : len(indexed.notation) + 1]
    n = len(moves)
    for name, values in indexed.facts.items():
        if len(values) != n:
            raise PluginError(
                f"the game plug-in {rules.name!r} gave {len(values)} values of {name} for {n} moves"
            )
    seqs = list(range(1, n + 1))
    actors = [actor(e) for e in moves]
    names = setup.players
    events: Columns = {
        "game_id": [game_id] * n,
        "ruleset": [rules.name] * n,
        "seq": seqs,
        "turn": seqs,
        "ts": [r.ts for r in read.records[1 : n + 1]],
        "type": [e.__struct_config__.tag for e in moves],
        "actor": actors,
        "actor_name": [names[a] if a is not None else None for a in actors],
        "notation": indexed.notation,
        "retracts": [None] * n,
        "retracted": [False] * n,
    }
    facts = _declared(rules, indexed.facts, "event")
    return events, {"game_id": events["game_id"], "seq": seqs, **facts}


def _walked(
    rules: Ruleset[Any] | None, game_id: str, setup: Setup | None, read: LogRead
) -> tuple[Report, Any, Columns, Columns]:
    """Validate a log event by event, asking the game's per-event hooks of each: the report,
    the last state, and the event rows and facts as columns."""
    events: list[dict[str, Any]] = []
    event_facts: list[dict[str, Any]] = []
    records = read.records
    name = rules.name if rules else None

    def visit(seq: int, before: Any, event: Event, after: Any, turn: int) -> None:
        who = actor(event)
        assert rules is not None and setup is not None
        if type(event) is Retract:
            row: dict[str, Any] = {"retracts": event.seq, "retracted": False}
            events[event.seq - 1]["retracted"] = True  # rows are in seq order from seq 1
        else:
            row = {"retracted": False}
            if type(event) is not Abandon:  # a game's hooks see its own events only
                facts = _declared(rules, rules.event_facts(before, event, after), "event")
                facts.update(game_id=game_id, seq=seq)
                event_facts.append(facts)
                later.append((facts, before, event))
        row.update(
            game_id=game_id,
            ruleset=name,
            seq=seq,
            turn=turn,
            ts=records[seq].ts,
            type=event.__struct_config__.tag,
            actor=who,
            actor_name=setup.players[who] if who is not None else None,
            notation=notation(rules, before, event),
        )
        events.append(row)

    later: list[tuple[dict[str, Any], Any, Event]] = []
    report, state = validate(read, visit if rules else None)
    if rules is not None and state is not None:  # what later events made known
        for known, before, event in later:
            known.update(_declared(rules, rules.learned_facts(before, event, state), "event"))
    kept = [f for f in event_facts if len(f) > 2]  # more than game_id and seq
    fact_names = ("game_id", "seq", *(rules.event_columns if rules else ()))
    return report, state, columns(events, EVENTS), columns(kept, fact_names)


def _live(events: Columns, facts: Columns) -> Columns:
    """The rows of the events still in effect (no retraction, none retracted), each with
    its facts (NULL where it has none), as columns."""
    seqs = events.get("seq", [])
    if facts.get("seq") == seqs and not any(events["retracted"]):  # every move, in effect
        return facts | events
    keep = [i for i, r in enumerate(events["retracted"]) if not r and events["retracts"][i] is None]
    at = {seq: i for i, seq in enumerate(facts.get("seq", ()))}
    where = [at.get(seqs[i]) for i in keep]
    live = {name: [values[i] for i in keep] for name, values in events.items()}
    for name, values in facts.items():
        if name not in live:
            live[name] = [values[i] if i is not None else None for i in where]
    return live
