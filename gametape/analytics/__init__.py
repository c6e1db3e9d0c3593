"""The DuckDB read model: built and refreshed from the logs, queried with SQL."""

from gametape.analytics.model import QueryError, ReadModel, RefreshSummary

__all__ = ["QueryError", "ReadModel", "RefreshSummary"]
