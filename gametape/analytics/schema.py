"""The read model's tables: the shared ones, and each game's own schema.

Shared tables (``games``, ``game_players``, ``events``) hold what every game has. Each game
gets a DuckDB schema named after it (``-`` read as ``_``) holding its own columns, so games
never share a column or its type:

- ``<game>.event_facts`` and ``<game>.player_facts``: the game's columns, keyed by
  (game_id, seq) and (game_id, seat);
- views ``<game>.games``, ``<game>.game_players`` and ``<game>.events``: the shared rows of
  that game joined with its columns, which is what an analyst queries.

The schema version is a digest of all of this, so installing a game (or changing a column)
makes an old read model rebuild itself. Column names are documented in docs/analytics.md.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

import pyarrow as pa

from gametape.engine.registry import all_rulesets
from gametape.engine.ruleset import Ruleset

LAYOUT = 7  # bump when the shared layout changes; the digest covers the games' columns

GAMES = {
    "game_id": "VARCHAR",
    "ruleset": "VARCHAR",
    "ruleset_version": "INTEGER",
    "players": "VARCHAR[]",
    "player_count": "INTEGER",
    "options": "JSON",
    "meta": "JSON",
    "events": "INTEGER",
    "turns": "INTEGER",
    "status": "VARCHAR",
    "outcome": "VARCHAR",
    "scores": "INTEGER[]",
    "score": "INTEGER",
    "winners": "VARCHAR[]",
    "started": "TIMESTAMP",
    "recorded": "TIMESTAMP",
    "log_path": "VARCHAR",
    "error": "VARCHAR",
    "notices": "VARCHAR[]",  # a valid log's notices: claims at a table made void or disputed
    "parent_game": "VARCHAR",  # a branch ("what if"): the game it was made from, and where
    "fork_seq": "INTEGER",
}
GAME_PLAYERS = {
    "game_id": "VARCHAR",
    "ruleset": "VARCHAR",
    "seat": "INTEGER",
    "name": "VARCHAR",
    "player": "VARCHAR",  # the name as a person: gametape.text.person
    "score": "INTEGER",
    "won": "BOOLEAN",
}
EVENTS = {
    "game_id": "VARCHAR",
    "ruleset": "VARCHAR",
    "seq": "INTEGER",
    "turn": "INTEGER",
    "ts": "TIMESTAMP",
    "type": "VARCHAR",
    "actor": "INTEGER",
    "actor_name": "VARCHAR",
    "notation": "VARCHAR",
    "retracts": "INTEGER",
    "retracted": "BOOLEAN",
}
RATINGS = {  # gametape.analytics.ratings: each player's rating after each game
    "game_id": "VARCHAR",
    "ruleset": "VARCHAR",
    "player": "VARCHAR",
    "game_number": "INTEGER",
    "played": "TIMESTAMP",
    "mu": "DOUBLE",
    "sigma": "DOUBLE",
    "rating": "DOUBLE",
}
ANNOTATIONS = {  # gametape.events.notes: the review's notes, joinable to events on (game_id, seq)
    "game_id": "VARCHAR",
    "n": "INTEGER",
    "seq": "INTEGER",
    "author": "VARCHAR",
    "ts": "TIMESTAMP",
    "text": "VARCHAR",
    "mark": "VARCHAR",
    "card": "VARCHAR",
    "retracted_by": "INTEGER",
}
ALIASES = {"alias": "VARCHAR", "player": "VARCHAR"}  # gametape.analytics.aliases: merged names
FILES = {"path": "VARCHAR", "game_id": "VARCHAR", "size": "BIGINT", "mtime_ns": "BIGINT"}
SHARED = {
    "games": GAMES,
    "game_players": GAME_PLAYERS,
    "events": EVENTS,
    "ratings": RATINGS,
    "annotations": ANNOTATIONS,
    "aliases": ALIASES,
    "_files": FILES,
}
PUBLIC = ("games", "game_players", "events")
# Shared views. `people`: game_players with each seat as the person it is, merged names
# followed (`person`; `merged` when that came from players.log), which every query about
# players reads instead of joining the aliases itself. `players`: one row per person, which
# every seat of every game points into (people.person = players.player). Made in this order.
SHARED_VIEWS = {
    "people": "SELECT p.*, coalesce(a.player, p.player) AS person, "
    "a.player IS NOT NULL AS merged FROM game_players p "
    "LEFT JOIN aliases a ON a.alias = p.player",
    "players": "SELECT p.person AS player, coalesce(arg_max(p.name, g.recorded) FILTER "
    "(WHERE NOT p.merged), arg_max(p.name, g.recorded)) AS name, "
    "list(DISTINCT p.name ORDER BY p.name) AS names, count(DISTINCT p.game_id) AS games, "
    "min(g.started) AS first_played, max(g.recorded) AS last_played "
    "FROM people p JOIN games g USING (game_id) GROUP BY p.person",
}

_ARROW = {
    "VARCHAR": pa.string(),
    "JSON": pa.string(),
    "TIMESTAMP": pa.string(),
    "INTEGER": pa.int32(),
    "BIGINT": pa.int64(),
    "BOOLEAN": pa.bool_(),
    "DOUBLE": pa.float64(),
    "VARCHAR[]": pa.list_(pa.string()),
    "INTEGER[]": pa.list_(pa.int32()),
}


def schema_of(game: str) -> str:
    """The DuckDB schema holding a game's own tables and views."""
    return game.replace("-", "_")


def _facts(rules: Ruleset[Any]) -> dict[str, dict[str, str]]:
    s = schema_of(rules.name)
    tables = {
        f"{s}.event_facts": {"game_id": "VARCHAR", "seq": "INTEGER", **rules.event_columns},
        f"{s}.player_facts": {"game_id": "VARCHAR", "seat": "INTEGER", **rules.player_columns},
    }
    for table, shared in ((f"{s}.event_facts", EVENTS), (f"{s}.player_facts", GAME_PLAYERS)):
        for column, kind in tables[table].items():
            if column in shared and column not in ("game_id", "seq", "seat"):
                raise TypeError(f"{rules.name}: column {column!r} is a shared column")
            if kind not in _ARROW:
                raise TypeError(
                    f"{rules.name}: column {column!r} has the type {kind}; "
                    f"types: {', '.join(_ARROW)}"
                )
    return tables


@cache
def tables() -> dict[str, dict[str, str]]:
    """Every table: name (``schema.table`` for a game's) → column → DuckDB type."""
    out = dict(SHARED)
    for rules in all_rulesets():
        out.update(_facts(rules))
    return out


def views(game: str) -> dict[str, str]:
    """A game's views (qualified name → SELECT), joining the shared rows with its facts."""
    s = schema_of(game)
    quoted = game.replace("'", "''")
    return {
        f"{s}.games": f"SELECT * FROM main.games WHERE ruleset = '{quoted}'",
        f"{s}.game_players": f"SELECT * FROM main.game_players p LEFT JOIN {s}.player_facts "
        f"f USING (game_id, seat) WHERE p.ruleset = '{quoted}'",
        f"{s}.events": f"SELECT * FROM main.events e LEFT JOIN {s}.event_facts f "
        f"USING (game_id, seq) WHERE e.ruleset = '{quoted}'",
    }


@cache
def schemas() -> dict[str, str]:
    """Game name → its schema, for every installed game."""
    return {rules.name: schema_of(rules.name) for rules in all_rulesets()}


@cache
def version() -> str:
    """A digest of every table and view definition: a new game or column changes it."""
    text = repr(
        (
            LAYOUT,
            sorted((t, sorted(c.items())) for t, c in tables().items()),
            sorted((g, sorted(views(g).items())) for g in schemas()),
            sorted(SHARED_VIEWS.items()),
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema rows are loaded with (timestamps and JSON as text; DuckDB casts)."""
    return pa.schema([(name, _ARROW[kind]) for name, kind in tables()[table].items()])


def create_sql(table: str) -> str:
    cols = ", ".join(f'"{name}" {kind}' for name, kind in tables()[table].items())
    return f"CREATE TABLE IF NOT EXISTS {table} ({cols})"
