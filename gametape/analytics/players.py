"""Players as people: one name, however it was typed, and each person's record per game.

A player is the name written in a game's setup, read one documented way
(:func:`gametape.text.person`: NFKC, case folded, white space collapsed), which is also how
a game's names must differ. The read model keeps it beside the name as written
(``game_players.player``).
"""

from __future__ import annotations

from typing import Any

import duckdb

from gametape.analytics.schema import schema_of
from gametape.charts import bins
from gametape.engine.ruleset import TERMINATED
from gametape.text import look_alikes, person

# The games that count: finished ones; abandoned ones (ended early: outcome terminated) only
# when the first parameter asks, and branches ("what if" games) only when the second does.
COUNTED = (
    f"g.status = 'finished' AND (? OR g.outcome IS DISTINCT FROM '{TERMINATED}') "
    "AND (? OR g.parent_game IS NULL)"
)

# One row per person and game. A game's winners decide: the only winner wins; two or more
# winners, or none in a game that is not cooperative, is a draw. An abandoned game (counted
# when asked) is neither.
RECORDS = f"""
    WITH played AS (
        SELECT p.person AS player, p.name, p.ruleset, p.score, p.won, p.merged,
               g.recorded, g.game_id, len(g.winners) AS winners,
               p.ruleset IN (SELECT unnest(?)) AS cooperative,
               g.outcome IS NOT DISTINCT FROM '{TERMINATED}' AS abandoned
        FROM people p JOIN games g USING (game_id)
        WHERE {COUNTED} AND (? IS NULL OR p.person = ?)
    ), latest AS (
        SELECT player, ruleset, arg_max(rating, game_number) AS rating
        FROM ratings GROUP BY ALL
    ), records AS (
        SELECT player, coalesce(arg_max(name, recorded) FILTER (WHERE NOT merged),
                                arg_max(name, recorded)) AS name,
               ruleset, count(*) AS games,
               CASE WHEN any_value(cooperative) THEN NULL
                    ELSE count(*) FILTER (WHERE won AND winners = 1) END AS wins,
               CASE WHEN any_value(cooperative) THEN NULL ELSE count(*) FILTER (
                   WHERE NOT abandoned AND (winners > 1 AND won OR winners = 0)) END AS draws,
               CASE WHEN any_value(cooperative) THEN NULL
                    ELSE count(*) FILTER (WHERE NOT won AND winners > 0) END AS losses,
               count(*) FILTER (WHERE abandoned) AS abandoned,
               round(avg(score), 2) AS mean_score,
               strftime(max(recorded), '%Y-%m-%d') AS last_played,
               list(DISTINCT name ORDER BY name) AS written,
               CASE WHEN any_value(cooperative) THEN NULL ELSE string_agg(
                   CASE WHEN abandoned THEN NULL WHEN won AND winners = 1 THEN 'W'
                        WHEN winners > 1 AND won OR winners = 0 THEN 'D' ELSE 'L' END,
                   '' ORDER BY recorded, game_id) END AS results
        FROM played GROUP BY player, ruleset
    )
    SELECT r.player, r.name, r.ruleset, r.games, r.wins, r.draws, r.losses, r.abandoned,
           round(l.rating, 2) AS rating, r.mean_score, r.last_played, r.written, r.results
    FROM records r LEFT JOIN latest l USING (player, ruleset)
    ORDER BY r.player, r.ruleset"""

LEFT_OUT = f"""
    SELECT CASE WHEN g.parent_game IS NOT NULL THEN 'branch'
                WHEN g.status = 'finished' THEN 'abandoned' ELSE replace(g.status, '_', ' ')
           END AS why, count(DISTINCT game_id)
    FROM people p JOIN games g USING (game_id)
    WHERE NOT ({COUNTED}) AND (? IS NULL OR p.person = ?)
    GROUP BY ALL ORDER BY ALL"""
# Everyone's name as shown (the latest spelling not merged away), to find look-alikes.
SHOWN = """
    SELECT coalesce(arg_max(name, g.recorded) FILTER (WHERE NOT merged), arg_max(name, g.recorded))
    FROM people JOIN games g USING (game_id) GROUP BY person"""


def find(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """The person a name is, as records' ``player``: read as :func:`person` reads it, and a
    merged name as the person it was merged into."""
    key = person(name)
    found = con.execute("SELECT player FROM aliases WHERE alias = ?", [key]).fetchone()
    return found[0] if found else key


def records(
    con: duckdb.DuckDBPyConnection,
    cooperative: list[str],
    name: str | None = None,
    abandoned: bool = False,
    branches: bool = False,
) -> dict[str, Any]:
    """Each person's record per game, from finished games (and abandoned ones, if
    ``abandoned``): ``players``, the rows; ``left_out``, how many games were not counted and
    why (``{"in progress": 2}``); ``look_alike``, groups of people whose names look alike
    (gametape.text.look). ``name`` picks one person (:func:`find`)."""
    key = find(con, name) if name is not None else None
    counted = [abandoned, branches]
    result = con.execute(RECORDS, [cooperative, *counted, key, key])
    columns = [d[0] for d in result.description]
    rows = []
    for values in result.fetchall():
        row = dict(zip(columns, values, strict=True))
        row["streak"], row["best_streak"] = streaks(row.pop("results"))
        rows.append(row)
    left_out = dict(con.execute(LEFT_OUT, [*counted, key, key]).fetchall())
    alike = look_alikes(shown for (shown,) in con.execute(SHOWN).fetchall())
    if key is not None:
        alike = [group for group in alike if key in map(person, group)]
    return {"players": rows, "left_out": left_out, "look_alike": alike}


def streaks(results: str | None) -> tuple[str | None, int | None]:
    """From results in play order (``WWLDW``): the current streak (``W1``: the last game
    was a win, the one before not) and the longest run of wins."""
    if not results:
        return None, None
    last = results[-1]
    current = len(results) - len(results.rstrip(last))
    best = max((len(run) for run in results.split("L") for run in run.split("D")), default=0)
    return f"{last}{current}", best


# One person's games by player count, and their own facts summed (any game's player columns).
BY_COUNT = f"""
    SELECT p.ruleset, g.player_count AS players, count(*) AS games,
           round(avg(p.score), 2) AS mean_score
    FROM people p JOIN games g USING (game_id)
    WHERE {COUNTED} AND p.person = ?
    GROUP BY ALL ORDER BY ALL"""
# Their scores, for a histogram per game.
SCORES = f"""
    SELECT p.ruleset, map(list(score), list(games)) FROM (
        SELECT p.ruleset, p.score, count(*) AS games
        FROM people p JOIN games g USING (game_id)
        WHERE {COUNTED} AND p.person = ? AND p.score IS NOT NULL GROUP BY ALL
    ) p GROUP BY ALL ORDER BY ALL"""
NUMERIC = ("INTEGER", "BIGINT", "DOUBLE")
# The score of each finished game in play order, for the games that are not rated (Hanabi:
# the team's score, the trend a cooperative group follows).
TEAM_SCORES = f"""
    SELECT p.ruleset, list(p.score ORDER BY g.recorded, g.game_id)
    FROM people p JOIN games g USING (game_id)
    WHERE {COUNTED} AND p.person = ?
      AND p.ruleset NOT IN (SELECT unnest(?))
    GROUP BY ALL ORDER BY ALL"""


def one(
    con: duckdb.DuckDBPyConnection,
    player: str,
    columns: dict[str, dict[str, str]],
    abandoned: bool = False,
    branches: bool = False,
) -> dict[str, Any]:
    """One person (as records' ``player``) in more detail, over the games :func:`records`
    counts: their games by player count; for each game with columns of its own
    (``columns``: game → column → type) the sum of each numeric one over their games; their
    rating after each game (a cooperative game: the score); and their scores, binned
    (gametape.charts.bins) for a histogram."""
    counted = [abandoned, branches]
    result = con.execute(BY_COUNT, [*counted, player])
    names = [d[0] for d in result.description]
    by_count = [dict(zip(names, row, strict=True)) for row in result.fetchall()]
    facts = []
    for ruleset in sorted({r["ruleset"] for r in by_count}):
        numeric = [c for c, kind in columns.get(ruleset, {}).items() if kind in NUMERIC]
        if not numeric:
            continue
        sums = ", ".join(f'sum(p."{c}")' for c in numeric)
        row = con.execute(
            f"SELECT {sums} FROM {schema_of(ruleset)}.game_players p JOIN people USING "
            f"(game_id, seat) JOIN games g USING (game_id) WHERE {COUNTED} AND people.person = ?",
            [*counted, player],
        ).fetchone()
        facts.append({"ruleset": ruleset, **dict(zip(numeric, row or (), strict=True))})
    ratings = con.execute(
        "SELECT ruleset, list(rating ORDER BY game_number) FROM ratings WHERE player = ? "
        "GROUP BY ALL ORDER BY ALL",
        [player],
    ).fetchall()
    scores = con.execute(TEAM_SCORES, [*counted, player, [r for r, _ in ratings]]).fetchall()
    history = [
        {"ruleset": ruleset, "of": of, "values": [round(v, 2) for v in values]}
        for of, rows in (("rating", ratings), ("score", scores))
        for ruleset, values in rows
    ]
    histograms = [
        {"ruleset": ruleset, "bins": bins(counts)}
        for ruleset, counts in con.execute(SCORES, [*counted, player]).fetchall()
    ]
    return {
        "by_player_count": by_count,
        "facts": facts,
        "history": history,
        "histograms": histograms,
    }
