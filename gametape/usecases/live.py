"""Something pages follow live: a version that grows with each change, and the functions
told of it (a page's live stream wakes up). A game held open and a review room are both."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Versioned:
    """``version`` grows at each ``changed``; each function ``listen`` was given is then
    called, from the thread that changed it. ``tell`` calls them without a change (the
    server closing: each stream ends)."""

    def __init__(self) -> None:
        self.version = 0
        self._listeners: set[Callable[[], None]] = set()
        self._listening = threading.Lock()

    def listen(self, tell: Callable[[], None]) -> None:
        with self._listening:
            self._listeners.add(tell)

    def unlisten(self, tell: Callable[[], None]) -> None:
        with self._listening:
            self._listeners.discard(tell)

    def changed(self) -> None:
        with self._listening:
            self.version += 1
        self.tell()

    def tell(self) -> None:
        with self._listening:
            told = list(self._listeners)
        for tell in told:
            tell()

    @property
    def followed(self) -> bool:
        """Whether a page is following it live now."""
        return bool(self._listeners)
