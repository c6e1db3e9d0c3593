"""Errors about logs on disk. Each one says where: file, line, seq, byte offset."""

from __future__ import annotations

from collections.abc import Sequence

from gametape.errors import GametapeError, NotFound
from gametape.messages import Message, many, say


class LogError(GametapeError):
    """A problem with a log file. ``str()`` gives one line a person can act on."""


class CorruptLine(LogError):
    """A line that is not JSON, or not a known event, or has fields of the wrong type."""


class SeqError(LogError):
    """A gap or a repeat in ``seq``."""


class ChainBroken(LogError):
    """The hash chain does not match: a line was edited, dropped, inserted or moved."""


class TornTail(LogError):
    """The file ends in an incomplete line (a crash mid-write)."""


class StaleWrite(LogError):
    """An append expected a ``seq`` the log has already passed: another writer was first.
    ``by_store``: the store refused the append itself (not a check of the sender's seq)."""

    by_store = False


class GameNotFound(NotFound):
    """No log with that game id in the store (a usage error: exit 2)."""


def no_game(ref: str, store: str) -> Message:
    """No game ``ref`` in the store named ``store``."""
    return say("core.no-game", "no game {ref} in the store {store}", ref=repr(ref), store=store)


def ambiguous(ref: str, matches: Sequence[str]) -> Message:
    """``ref`` begins the ids ``matches``: more than one game."""
    return say("core.ambiguous", "game id {ref} is ambiguous: {games}", ref=repr(ref),
               games=many(matches))  # fmt: skip


class LockBusy(LogError):
    """Another process holds the game's write lock for too long."""


class FormatTooNew(LogError):
    """A line written by a newer gametape than this one."""
