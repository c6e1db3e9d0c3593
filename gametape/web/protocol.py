"""uvicorn's HTTP/1.1, with a bound on the time a request's line and headers may take.

uvicorn bounds nothing before a request's headers are in: a client that sends them a byte a
second holds a connection (and its memory) for as long as it likes, and its keep-alive timer
is reset by every byte. Here each request's line and headers must arrive within
HEADER_SECONDS of the connection opening or of the last response; else the connection is
closed (no response can be sent before there is a request). The body is bounded in the app
(``gametape.web.http.BODY_SECONDS``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 5.0  # a request's line and headers are one or two packets on any network


class BoundedH11Protocol(H11Protocol):
    """H11Protocol that closes a connection whose request headers are too slow to come."""

    _deadline: asyncio.TimerHandle | None = None
    _waiting_since: Any = None  # the request cycle current when the wait began

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def handle_events(self) -> None:
        super().handle_events()
        if self._deadline is not None and self.cycle is not self._waiting_since:
            self._deadline.cancel()  # a request's headers are in: the app bounds the rest
            self._deadline = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()  # the next request on this connection has as long

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._waiting_since = self.cycle
        self._deadline = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is self._waiting_since and not self.transport.is_closing():
            self.transport.close()
