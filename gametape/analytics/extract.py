"""One log file → its rows in the read model: one game, one row per player, one per event."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from gametape.analytics.schema import GAMES
from gametape.engine.game import notation
from gametape.engine.registry import ruleset_for
from gametape.engine.validate import validate
from gametape.errors import PluginError
from gametape.events import notes
from gametape.events.base import Abandon, Event, Retract, Setup, actor
from gametape.events.errors import LogError
from gametape.events.log import LogRead, Source, read_bytes, read_log
from gametape.events.store import notes_path
from gametape.plugins import fault
from gametape.text import person


@dataclass
class Rows:
    """The rows one log contributes to each table (the game's own facts apart)."""

    game: dict[str, Any]
    players: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    event_facts: list[dict[str, Any]] = field(default_factory=list)
    player_facts: list[dict[str, Any]] = field(default_factory=list)
    annotations: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # a note line skipped, and why


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


def _extract(path: Path | Source, data: bytes | None) -> Rows:
    game_id = path.stem
    try:
        read = read_log(path, data=data)
    except LogError as exc:  # not even readable: a row that says so
        read = LogRead(path=path, error=exc)
    setup = read.events[0] if read.events and isinstance(read.events[0], Setup) else None
    rules = ruleset_for(setup) if setup is not None else None
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
    event_facts = [f for f in event_facts if len(f) > 2]  # more than game_id and seq
    result = report.result
    players = setup.players if setup else ()
    options = getattr(setup, "options", None)
    game = {
        "game_id": game_id,
        "ruleset": name,
        "ruleset_version": rules.version if rules else None,
        "players": list(players),
        "player_count": len(players) or None,
        "options": _json.encode(options).decode() if options is not None else None,
        "meta": _json.encode(setup.meta).decode() if setup else None,
        "events": report.events,
        "turns": events[-1]["turn"] if events else 0,
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
        retracted = {e["seq"] for e in events if e["retracted"]}
        by_seq = {f["seq"]: f for f in event_facts}
        live = [
            {**by_seq.get(e["seq"], {}), **e}
            for e in events
            if e["seq"] not in retracted and e["type"] != "retract"
        ]
        facts = rules.player_facts(state, live)
        winners = set(result.winners) if result else set()
        for seat, player in enumerate(players):
            row = {
                "game_id": game_id,
                "ruleset": name,
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
