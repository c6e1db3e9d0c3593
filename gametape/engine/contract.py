"""The game contract, checked when a game is loaded (after boardgame.io's ProcessGameConfig).

A plug-in that breaks the contract is refused by name with every problem found, and every
other game keeps working. The rules here are what docs/writing-a-game.md promises.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from gametape.engine.ruleset import Declaration, Ruleset
from gametape.errors import PluginError
from gametape.events.base import Event, Move, Setup

NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # hanabi, hanamikoji-classic
TAG_WORD = re.compile(r"[a-z][a-z0-9_-]*")  # the part after "<game>."
COLUMN = re.compile(r"[a-z][a-z0-9_]*")
COLUMN_TYPES = ("VARCHAR", "INTEGER", "BIGINT", "BOOLEAN", "DOUBLE", "VARCHAR[]", "INTEGER[]")
REQUIRED = ("new_setup", "start", "to_act", "legal_moves", "result", "view")
SEAT_WORDS = ("player", "seat", "actor", "by")


def problems(rules: Any, name: str) -> list[str]:
    """Everything wrong with the plug-in object ``rules`` registered as the game ``name``."""
    if not isinstance(rules, Ruleset):
        return [f"it is a {type(rules).__name__}, not a gametape.engine.ruleset.Ruleset"]
    if not isinstance(getattr(rules, "declared", None), Declaration):
        return [
            "it declares no facts: a game's class says declared = "
            "gametape.engine.ruleset.Declaration(name=..., events=..., players=...)"
        ]
    found: list[str] = []
    game = rules.name
    if game != name:
        found.append(f"its name is {game!r}, but its entry point is {name!r}: they must agree")
    if not NAME.fullmatch(name) or len(name) > 40:
        found.append(f"{name!r} is not a game name (lower-case words joined by -, like hanabi)")
    for method in REQUIRED:
        open_view = method == "view" and rules.secrecy == "open"  # every seat sees the state
        if getattr(type(rules), method) is getattr(Ruleset, method) and not open_view:
            found.append(f"it does not define {method}(), which every game needs")
    lo, hi = rules.declared.players
    if not 1 <= lo <= hi:
        found.append(f"its players are {lo} to {hi}: the fewest is at least 1, the most no fewer")
    gives_table = type(rules).table_setup is not Ruleset.table_setup
    if rules.table != gives_table:
        found.append(
            "it declares table=True but gives no table_setup()"
            if rules.table
            else "it gives table_setup() but does not declare table=True"
        )
    events = tuple(getattr(rules, "events", ()))
    setups = [e for e in events if isinstance(e, type) and issubclass(e, Setup)]
    if type(rules).apply is Ruleset.apply:  # events routed by class: each has its handler
        for event in events:
            if isinstance(event, type) and event not in setups and event not in rules.handlers:
                found.append(
                    f"no handler for {event.__name__}: mark one with "
                    "@gametape.engine.ruleset.on, or define apply()"
                )
        for event in rules.handlers:
            if event not in events:
                found.append(f"a handler for {event.__name__}, which is not in its events")
    if len(setups) != 1:
        found.append(f"its events hold {len(setups)} Setup classes; a game has exactly one")
    for event in events:
        found += _event_problems(event, name)
    for kind, columns in (
        ("event_columns", rules.event_columns),
        ("player_columns", rules.player_columns),
    ):
        for column, typ in columns.items():
            if not COLUMN.fullmatch(column):
                found.append(f"{kind}: {column!r} is not a column name (a-z, 0-9, _)")
            if typ not in COLUMN_TYPES:
                found.append(
                    f"{kind}: {column!r} has the type {typ!r}; types: {', '.join(COLUMN_TYPES)}"
                )
    return found


def _event_problems(event: Any, game: str) -> list[str]:
    if not (isinstance(event, type) and issubclass(event, Event)):
        return [f"{event!r} in its events is not a gametape Event class"]
    tag = event.__struct_config__.tag
    found: list[str] = []
    if (
        not isinstance(tag, str)
        or not tag.startswith(game + ".")
        or not TAG_WORD.fullmatch(tag[len(game) + 1 :])
    ):
        found.append(f"{event.__name__}'s tag is {tag!r}; a game's tags are '{game}.<word>'")
    for old in event.upgrades:
        if not old.startswith(game + ".") or old == tag:
            found.append(
                f"{event.__name__} upgrades {old!r}: an older tag of this game's, not its own"
            )
    if issubclass(event, Setup) and tag != f"{game}.setup":
        found.append(f"{event.__name__} is the setup, so its tag must be '{game}.setup'")
    fields = {f.name for f in msgspec.structs.fields(event)}
    if not issubclass(event, Move | Setup) and fields & set(SEAT_WORDS):
        seat = sorted(fields & set(SEAT_WORDS))[0]
        found.append(
            f"{event.__name__} names a seat ({seat!r}) but is not a Move: a player's move "
            "derives from gametape.events.base.Move, whose 'player' field says who moved"
        )
    return found


def check(rules: Any, name: str) -> None:
    """Refuse the plug-in ``rules`` (PluginError, every problem named) unless it keeps the
    contract."""
    found = problems(rules, name)
    if found:
        raise PluginError(f"the game plug-in {name!r} cannot be used: " + "; ".join(found))
