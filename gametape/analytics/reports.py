"""Ready-made reports over the read model (what `gametape stats` prints)."""

from __future__ import annotations

from typing import Any

import duckdb

# The most common kind of mistake, per ruleset: (title, SQL with one ? for the ruleset).
MISTAKES: dict[str, tuple[str, str]] = {
    "hanabi": ("misplays by rank", """
        SELECT card_rank AS rank, count(*) AS misplays FROM events
        WHERE ruleset = ? AND type = 'hanabi.play' AND NOT success
        GROUP BY ALL ORDER BY misplays DESC, rank"""),
    "hanamikoji": ("captures lost to ties", """
        SELECT name, sum(ties_lost) AS ties_lost, count(*) AS games FROM game_players
        WHERE ruleset = ? AND ties_lost IS NOT NULL
        GROUP BY ALL ORDER BY ties_lost DESC, name"""),
    "ohanami": ("discards by season", """
        SELECT CASE round WHEN 1 THEN 'spring' WHEN 2 THEN 'summer' ELSE 'autumn' END
               AS season, count(*) AS discards FROM events
        WHERE ruleset = ? AND type = 'ohanami.pick' AND "row" IS NULL
        GROUP BY round ORDER BY round"""),
}

QUERIES: dict[str, str] = {
    "scores": """
        SELECT player_count, score, count(*) AS games FROM games
        WHERE ruleset = ? AND status = 'finished' AND score IS NOT NULL
        GROUP BY ALL ORDER BY ALL""",
    "outcomes": """
        SELECT coalesce(outcome, status) AS outcome, count(*) AS games FROM games
        WHERE ruleset = ? GROUP BY ALL ORDER BY games DESC, outcome""",
    "lengths": """
        SELECT player_count, count(*) AS games, round(avg(events), 1) AS avg_events,
               round(avg(turns), 1) AS avg_turns FROM games
        WHERE ruleset = ? AND status = 'finished' GROUP BY ALL ORDER BY ALL""",
    "players": """
        SELECT name, count(*) AS games, count(*) FILTER (WHERE won) AS wins,
               round(avg(score), 2) AS avg_score FROM game_players
        WHERE ruleset = ? AND score IS NOT NULL
        GROUP BY ALL ORDER BY avg_score DESC, name""",
}


def _rows(con: duckdb.DuckDBPyConnection, sql: str, ruleset: str) -> list[dict[str, Any]]:
    result = con.execute(sql, [ruleset])
    names = [d[0] for d in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


def stats(con: duckdb.DuckDBPyConnection, ruleset: str) -> dict[str, Any]:
    """Every report for one ruleset, as plain data."""
    report: dict[str, Any] = {"ruleset": ruleset}
    for key, sql in QUERIES.items():
        report[key] = _rows(con, sql, ruleset)
    title, sql = MISTAKES[ruleset]
    report["mistakes"] = {"title": title, "rows": _rows(con, sql, ruleset)}
    return report


def rulesets_present(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r for (r,) in con.execute(
        "SELECT DISTINCT ruleset FROM games WHERE ruleset IS NOT NULL ORDER BY 1").fetchall()]
