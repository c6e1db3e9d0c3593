"""Ready-made reports over the read model (what `gametape stats` prints)."""

from __future__ import annotations

from typing import Any

import duckdb

from gametape.engine.registry import get_ruleset

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
               round(avg(turns), 1) AS "avg_{turns}" FROM games
        WHERE ruleset = ? AND status = 'finished' GROUP BY ALL ORDER BY ALL""",
    "players": """
        SELECT name, count(*) AS games, count(*) FILTER (WHERE won) AS wins,
               round(avg(score), 2) AS avg_score FROM game_players
        WHERE ruleset = ? AND score IS NOT NULL
        GROUP BY ALL ORDER BY avg_score DESC, name""",
}
# A cooperative game has no winners among its players: the team's score is every player's.
COOPERATIVE_PLAYERS = """
        SELECT name, count(*) AS games, round(avg(score), 2) AS avg_team_score,
               max(score) AS best_team_score FROM game_players
        WHERE ruleset = ? AND score IS NOT NULL
        GROUP BY ALL ORDER BY avg_team_score DESC, name"""


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    result = con.execute(sql, params)
    names = [d[0] for d in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


def stats(con: duckdb.DuckDBPyConnection, ruleset: str) -> dict[str, Any]:
    """Every report for one game, as plain data; the game's own report if it has one."""
    rules = get_ruleset(ruleset)
    report: dict[str, Any] = {"ruleset": ruleset}
    for key, sql in QUERIES.items():
        if key == "players" and rules.cooperative:
            sql = COOPERATIVE_PLAYERS
        report[key] = _rows(con, sql.replace("{turns}", rules.turn_word + "s"), [ruleset])
    # a title as data: its English text, and its message id (None: plain text) by which a
    # front-end says it in the reader's language
    own = [
        {
            "title": title if isinstance(title, str) else title.text,
            "id": None if isinstance(title, str) else title.id,
            "rows": _rows(con, sql, []),
        }
        for title, sql in rules.reports
    ]
    report["reports"] = own
    if own:
        report["mistakes"] = own[0]  # the game's most telling report (its common mistake)
    return report


def rulesets_present(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [
        r
        for (r,) in con.execute(
            "SELECT DISTINCT ruleset FROM games WHERE ruleset IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
