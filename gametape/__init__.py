"""gametape: record card games as append-only event logs; replay, validate and query them."""

__version__ = "0.1.0"
