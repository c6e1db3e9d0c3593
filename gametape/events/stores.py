"""The store a ``--store`` value names: the one place that chooses between the folder of
files (``store.Store``) and PostgreSQL (``postgres.PgStore``), which know nothing of each
other."""

from __future__ import annotations

from pathlib import Path

from gametape.events.naming import default_store, is_url
from gametape.events.postgres import PgStore
from gametape.events.store import GameStore, Store

__all__ = ["default_store", "open_store"]


def open_store(spec: Path | str) -> GameStore:
    """The store ``--store`` names: a ``postgresql://`` URL, or a directory."""
    return PgStore(spec) if is_url(spec) else Store(spec)  # type: ignore[arg-type]
