"""The store and the types a front-end handles, in one place: a front-end imports these from
here, never from the engine or the event log directly."""

from __future__ import annotations

from gametape.engine.board import MARKS, PALETTE, Board, Card, Counter, Zone, mark_new
from gametape.engine.game import Game
from gametape.engine.ruleset import NotYourMove, RuleViolation
from gametape.engine.validate import Report
from gametape.events import Store, repair_torn
from gametape.events.log import LogRead, Source
from gametape.events.naming import is_url
from gametape.events.postgres import PgStore
from gametape.events.store import GameStore
from gametape.events.stores import default_store, open_store

__all__ = [
    "MARKS",
    "PALETTE",
    "Board",
    "Card",
    "Counter",
    "Game",
    "GameStore",
    "LogRead",
    "NotYourMove",
    "PgStore",
    "Report",
    "RuleViolation",
    "Source",
    "Store",
    "Zone",
    "default_store",
    "is_url",
    "mark_new",
    "open_store",
    "repair_torn",
]
