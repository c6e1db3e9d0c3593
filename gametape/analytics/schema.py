"""The read model's tables: shared columns plus the columns each ruleset declares.

Column names are stable and documented in docs/analytics.md.
"""

from __future__ import annotations

import pyarrow as pa

from gametape.engine.registry import RULESETS

SCHEMA_VERSION = 2

GAMES = {
    "game_id": "VARCHAR", "ruleset": "VARCHAR", "ruleset_version": "INTEGER",
    "players": "VARCHAR[]", "player_count": "INTEGER", "options": "JSON", "meta": "JSON",
    "events": "INTEGER", "turns": "INTEGER", "status": "VARCHAR", "outcome": "VARCHAR",
    "scores": "INTEGER[]", "score": "INTEGER", "winners": "VARCHAR[]",
    "started": "TIMESTAMP", "recorded": "TIMESTAMP", "log_path": "VARCHAR", "error": "VARCHAR",
}
GAME_PLAYERS = {
    "game_id": "VARCHAR", "ruleset": "VARCHAR", "seat": "INTEGER", "name": "VARCHAR",
    "score": "INTEGER", "won": "BOOLEAN",
}
EVENTS = {
    "game_id": "VARCHAR", "ruleset": "VARCHAR", "seq": "INTEGER", "turn": "INTEGER",
    "ts": "TIMESTAMP", "type": "VARCHAR", "actor": "INTEGER", "actor_name": "VARCHAR",
    "notation": "VARCHAR", "retracts": "INTEGER", "retracted": "BOOLEAN",
}
FILES = {"path": "VARCHAR", "game_id": "VARCHAR", "size": "BIGINT", "mtime_ns": "BIGINT"}


def _with_ruleset_columns(base: dict[str, str], attr: str) -> dict[str, str]:
    columns = dict(base)
    for rules in RULESETS.values():
        for name, kind in getattr(rules, attr).items():
            if columns.setdefault(name, kind) != kind:
                raise TypeError(f"column {name!r} is {columns[name]} and {kind}")
    return columns


TABLES: dict[str, dict[str, str]] = {
    "games": GAMES,
    "game_players": _with_ruleset_columns(GAME_PLAYERS, "player_columns"),
    "events": _with_ruleset_columns(EVENTS, "event_columns"),
    "_files": FILES,
}

_ARROW = {
    "VARCHAR": pa.string(), "JSON": pa.string(), "TIMESTAMP": pa.string(),
    "INTEGER": pa.int32(), "BIGINT": pa.int64(), "BOOLEAN": pa.bool_(),
    "VARCHAR[]": pa.list_(pa.string()), "INTEGER[]": pa.list_(pa.int32()),
}


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema rows are loaded with (timestamps and JSON as text; DuckDB casts)."""
    return pa.schema([(name, _ARROW[kind]) for name, kind in TABLES[table].items()])


def create_sql(table: str) -> str:
    cols = ", ".join(f'"{name}" {kind}' for name, kind in TABLES[table].items())
    return f"CREATE TABLE IF NOT EXISTS {table} ({cols})"
