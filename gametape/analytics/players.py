"""Players as people: one name, however it was typed, and each person's record per game.

A player is the name written in a game's setup, read one documented way
(:func:`gametape.text.person`: NFKC, case folded, white space collapsed), which is also how
a game's names must differ. The read model keeps it beside the name as written
(``game_players.player``).
"""

from __future__ import annotations

from typing import Any

import duckdb

from gametape.text import person

# One row per person and game, from finished games only. A game's winners decide: the only
# winner wins; two or more winners, or none in a game that is not cooperative, is a draw.
RECORDS = """
    WITH played AS (
        SELECT coalesce(a.player, p.player) AS player, p.name, p.ruleset, p.score, p.won,
               g.recorded, len(g.winners) AS winners, a.player IS NOT NULL AS merged,
               p.ruleset IN (SELECT unnest(?)) AS cooperative
        FROM game_players p JOIN games g USING (game_id)
        LEFT JOIN aliases a ON a.alias = p.player
        WHERE g.status = 'finished' AND (? IS NULL OR coalesce(a.player, p.player) = ?)
    ), latest AS (
        SELECT player, ruleset, arg_max(rating, game_number) AS rating
        FROM ratings GROUP BY ALL
    ), records AS (
        SELECT player, coalesce(arg_max(name, recorded) FILTER (WHERE NOT merged),
                                arg_max(name, recorded)) AS name,
               ruleset, count(*) AS games,
               CASE WHEN any_value(cooperative) THEN NULL
                    ELSE count(*) FILTER (WHERE won AND winners = 1) END AS wins,
               CASE WHEN any_value(cooperative) THEN NULL
                    ELSE count(*) FILTER (WHERE winners > 1 AND won OR winners = 0) END AS draws,
               CASE WHEN any_value(cooperative) THEN NULL
                    ELSE count(*) FILTER (WHERE NOT won AND winners > 0) END AS losses,
               round(avg(score), 2) AS mean_score,
               strftime(max(recorded), '%Y-%m-%d') AS last_played,
               list(DISTINCT name ORDER BY name) AS written
        FROM played GROUP BY player, ruleset
    )
    SELECT r.player, r.name, r.ruleset, r.games, r.wins, r.draws, r.losses,
           round(l.rating, 2) AS rating, r.mean_score, r.last_played, r.written
    FROM records r LEFT JOIN latest l USING (player, ruleset)
    ORDER BY r.player, r.ruleset"""

LEFT_OUT = """
    SELECT count(DISTINCT game_id) FROM game_players p JOIN games g USING (game_id)
    LEFT JOIN aliases a ON a.alias = p.player
    WHERE g.status <> 'finished' AND (? IS NULL OR coalesce(a.player, p.player) = ?)"""


def records(
    con: duckdb.DuckDBPyConnection, cooperative: list[str], name: str | None = None
) -> tuple[list[dict[str, Any]], int]:
    """Each person's record per game (of finished games), and how many games that were not
    finished (in progress, abandoned, invalid) were left out. ``name`` picks one person,
    matched as :func:`person` reads it."""
    key = person(name) if name is not None else None
    if key is not None:  # a merged name finds the person it was merged into
        found = con.execute("SELECT player FROM aliases WHERE alias = ?", [key]).fetchone()
        key = found[0] if found else key
    result = con.execute(RECORDS, [cooperative, key, key])
    columns = [d[0] for d in result.description]
    rows = [dict(zip(columns, row, strict=True)) for row in result.fetchall()]
    (left_out,) = con.execute(LEFT_OUT, [key, key]).fetchone() or (0,)
    return rows, left_out
