"""The DuckDB read model: built and refreshed from the logs, queried with SQL."""

from gametape.analytics.model import ModelBusy, QueryError, QueryLimits, ReadModel, RefreshSummary

__all__ = ["ModelBusy", "QueryError", "QueryLimits", "ReadModel", "RefreshSummary"]
