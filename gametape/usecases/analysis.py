"""The store's history as tables: the DuckDB read model (gametape.analytics) with its
queries, reports and players, and one person's page. Front-ends import them from here: they
reach the layers below only through the use cases."""

from __future__ import annotations

from typing import Any

from gametape.analytics import ModelBusy, QueryError, QueryLimits, ReadModel, RefreshSummary

__all__ = [
    "ModelBusy",
    "QueryError",
    "QueryLimits",
    "ReadModel",
    "RefreshSummary",
    "player_page",
]


def player_page(found: dict[str, Any], counted: str) -> str:
    """The HTML page of the one person in ``found`` (``ReadModel.players(name)``'s answer);
    ``counted`` says in words which games were counted."""
    from gametape.analytics.player_page import page

    return page(found, counted)
