"""Ratings for the competitive games: openskill's Plackett-Luce model (it rates 2-4 players
and ties), applied game by game in the order the games were played (the time of each game's
last event, then its id). A player's rating is openskill's ordinal, mu - 3 sigma: what they
are at least, with 99.7% confidence; everyone starts at 0 (mu 25, sigma 25/3).

Only finished games count: not an abandoned one (it has no result), nor a branch (a "what
if" game never played); a cooperative game (Hanabi) has no ratings, since its players win or
lose together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import pyarrow as pa

from gametape.engine.ruleset import TERMINATED

# Every finished game of the competitive rulesets, in play order, with its seats in order
# (each seat as the person it is, merged names followed).
GAMES = f"""
    SELECT g.game_id, g.ruleset, g.recorded, list(p.person ORDER BY p.seat),
           list(p.score ORDER BY p.seat), list(p.won ORDER BY p.seat)
    FROM games g JOIN people p USING (game_id)
    WHERE g.status = 'finished' AND g.outcome IS DISTINCT FROM '{TERMINATED}'
      AND g.parent_game IS NULL AND g.ruleset IN (SELECT unnest(?))
    GROUP BY ALL ORDER BY g.recorded, g.game_id"""


def ranks(scores: Sequence[int], won: Sequence[bool]) -> list[float]:
    """Each seat's place (1 is first): the game's winners share first place; the others
    follow by score, equal scores sharing a place."""
    keys = [(w, s) for w, s in zip(won, scores, strict=True)]
    return [1.0 + sum(other > key for other in keys) for key in keys]


SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("ruleset", pa.string()),
        ("player", pa.string()),
        ("game_number", pa.int32()),  # the player's first, second, ... rated game of it
        ("played", pa.timestamp("us")),
        ("mu", pa.float64()),
        ("sigma", pa.float64()),
        ("rating", pa.float64()),  # mu - 3 sigma
    ]
)


def rate(rows: Sequence[tuple[Any, ...]]) -> pa.Table:
    """The rating of each player after each game, from GAMES' rows (in play order)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[tuple[str, str], Any] = {}
    played: dict[tuple[str, str], int] = {}
    out: dict[str, list[Any]] = {name: [] for name in SCHEMA.names}
    for game_id, ruleset, recorded, players, scores, won in rows:
        teams = [[current.get((ruleset, p)) or model.rating(name=p)] for p in players]
        after = model.rate(teams, ranks=ranks(scores, won))
        for player, (rating,) in zip(players, after, strict=True):
            key = (ruleset, player)
            current[key] = rating
            played[key] = played.get(key, 0) + 1
            values = (game_id, ruleset, player, played[key], recorded)
            for name, value in zip(
                SCHEMA.names,
                (*values, rating.mu, rating.sigma, rating.ordinal()),
                strict=True,
            ):
                out[name].append(value)
    return pa.table(out, schema=SCHEMA)


def recompute(con: duckdb.DuckDBPyConnection, competitive: list[str]) -> None:
    """Replace the ``ratings`` table with the ratings of every finished game, in play order."""
    table = rate(con.execute(GAMES, [competitive]).fetchall())
    con.execute("DELETE FROM ratings")
    con.register("new_ratings", table)
    con.execute("INSERT INTO ratings BY NAME SELECT * FROM new_ratings")
    con.unregister("new_ratings")
