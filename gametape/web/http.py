"""The HTTP side of ``gametape serve``: bounded request bodies, form fields, a token bucket
per link, the security headers every response carries, and the status that says why a
request was refused."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gametape.errors import GametapeError, MachineError, UsageError
from gametape.i18n import accepted, choose, default
from gametape.languages import SPOKEN
from gametape.messages import say
from gametape.usecases.links import LinkNotFound
from gametape.usecases.rooms import NotTheLeader
from gametape.usecases.store import NotYourMove, RuleViolation
from gametape.usecases.tables import MovedOn, NotationError, NotYours, StaleWrite

SEQ = re.compile(r"[0-9]{1,9}")  # ASCII digits only: int() would also read "１" and " 1"
BODY_LIMIT = 8 * 1024  # a move or a new game is a few hundred bytes
BODY_SECONDS = 5.0  # a move's body is a few hundred bytes: this is ample on any network
MOVES_PER_SECOND = 5.0  # a link's steady rate; a burst of BURST is let through
BURST = 20.0
KEEPALIVE = 15.0
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; "
    "manifest-src 'self'; worker-src 'self'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"same-origin"),  # a link goes to this server alone; a form
    # posted here keeps its Origin (no-referrer made a browser send "Origin: null")
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


class TooLarge(GametapeError):
    """A request body over the limit."""


class TooSlow(GametapeError):
    """A request body that did not arrive in time (a connection held open a byte at a time)."""


class Gone(GametapeError):
    """A client that went away in the middle of its request (nobody reads the answer)."""


class TooFast(GametapeError):
    """A link sending moves faster than a table plays."""


def status_of(exc: GametapeError) -> int:
    """The HTTP status that says why a request was refused."""
    if isinstance(exc, MachineError):  # the store, not the move: said, with what to do
        return 507 if exc.full else 503
    for kind, status in (
        (LinkNotFound, 404),
        (NotTheLeader, 403),
        (MovedOn, 409),
        (StaleWrite, 409),
        (NotYours, 403),
        (NotYourMove, 403),
        (NotationError, 400),
        (RuleViolation, 422),
        (TooLarge, 413),
        (Gone, 400),
        (TooSlow, 408),
        (TooFast, 429),
        (MachineError, 503),
    ):
        if isinstance(exc, kind):
            return status
    if exc.exit_code == UsageError.exit_code:  # a bad game, player or option: as the CLI says
        return 400
    return 422  # the game's log itself is invalid: nothing can be recorded in it


class Buckets:
    """A token bucket per key (a link, a client's address): ``take`` says whether one more
    request is let through now."""

    def __init__(
        self,
        rate: float = MOVES_PER_SECOND,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._state: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        now = self.clock()
        with self._lock:
            level, then = self._state.get(key, (self.burst, now))
            level = min(self.burst, level + (now - then) * self.rate)
            if level < 1:
                self._state[key] = (level, now)
                return False
            self._state[key] = (level - 1, now)
            if len(self._state) > 10_000:  # forget the idle ones
                self._state = {k: v for k, v in self._state.items() if now - v[1] < 60}
            return True


class Language:
    """Each request's language, in which its messages and page are rendered: the link's
    ``?lang=`` (then remembered for that link: a cookie on its path), else the one the link
    remembered, else the browser's (``Accept-Language``), else the server's (``serve
    --lang``, or its environment's). A ``?lang=`` gametape does not speak is ignored."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        asked = request.query_params.get("lang", "")[:8]
        remembered = request.cookies.get("lang", "")[:8]
        header = request.headers.get("accept-language", "")[:500]
        if asked in SPOKEN:
            lang = asked
        elif remembered in SPOKEN:
            lang = remembered
        elif header:
            lang = accepted(header)
        else:
            lang = default()
        scope.setdefault("state", {})["lang"] = lang
        choose(lang, default=False, page=True)
        link = LINK.match(scope.get("path", ""))
        if asked not in SPOKEN or link is None:
            await self.app(scope, receive, send)
            return

        async def remember(message: Message) -> None:
            if message["type"] == "http.response.start":
                cookie = (
                    f"lang={asked}; Path={link.group(0)}; Max-Age=31536000; SameSite=Strict; "
                    "HttpOnly"
                )
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, remember)


# A link's path (/g/GAME/TOKEN), which remembers its language.
LINK = re.compile(r"/g/[A-Za-z0-9_-]{1,100}/[A-Za-z0-9_-]{16,64}(?=/|$)")


class SecurityHeaders:
    """Every response carries the CSP and the other headers above (static files too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


def origin(url: str) -> str:
    """The origin (scheme, host and port) of an address."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def body(request: Request) -> bytes:
    """The request's body, refused (413) past BODY_LIMIT before more of it is read."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > BODY_LIMIT:
        raise TooLarge(f"a request is at most {BODY_LIMIT:,} bytes; this one has {declared}")
    chunks, size = [], 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BODY_SECONDS
    stream = request.stream().__aiter__()
    try:
        while True:
            try:  # a body sent a byte at a time holds no connection past the deadline
                chunk = await asyncio.wait_for(anext(stream), max(0.0, deadline - loop.time()))
            except StopAsyncIteration:
                break
            size += len(chunk)
            if size > BODY_LIMIT:
                raise TooLarge(f"a request is at most {BODY_LIMIT:,} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # the phone went before its move was whole: nothing to record
        raise Gone("the connection closed before the move was sent whole") from None
    except TimeoutError:
        raise TooSlow(f"the request's body took over {BODY_SECONDS:.0f} s to arrive") from None
    return b"".join(chunks)


def form(body: bytes) -> dict[str, list[str]]:
    try:
        text = body.decode("utf-8")
        return parse_qs(text, keep_blank_values=True, max_num_fields=64, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise NotationError(
            say("web.bad-form", "the form is not UTF-8 text of at most 64 fields")
        ) from None


class MoveBody(msgspec.Struct, forbid_unknown_fields=True):
    """A move sent as JSON (``Content-Type: application/json``): the seq it was made at, the
    move as a value (its ``type`` and typed fields, as ``state.json`` offers it) or as words,
    and its id."""

    seq: int
    move: dict[str, Any] | str
    id: str = ""


def sent_as_json(request: Request) -> bool:
    """Whether a request's body is JSON (a script's move) rather than a form."""
    return request.headers.get("content-type", "").split(";")[0].strip() == "application/json"


def move_body(body: bytes) -> tuple[int, str, str]:
    """A JSON move's seq, its text (a value as its JSON, which every game reads), its id."""
    try:
        sent = msgspec.json.decode(body, type=MoveBody)
    except msgspec.DecodeError as exc:
        raise NotationError(
            say(
                "web.bad-move-body",
                'the move is not {{"seq": N, "move": VALUE, "id": ID}}: {why}',
                why=str(exc)[:200],
            )
        ) from None
    text = sent.move if isinstance(sent.move, str) else msgspec.json.encode(sent.move).decode()
    return sent.seq, text, sent.id


def wants_json(request: Request) -> bool:
    """Whether the client asked for JSON (a page's script) rather than a page."""
    return "application/json" in request.headers.get("accept", "")


def refused_json(exc: GametapeError) -> Response:
    """A refusal as JSON: what, the hint, the status; a refused move's message as data
    (``said``: its id, text and typed parameters, gametape.messages), for a script or a page
    that words it itself."""
    status = status_of(exc)
    body: dict[str, Any] = {"error": exc.message, "hint": exc.hint, "status": status}
    said = getattr(exc, "said", None)
    if said is not None:
        body["said"] = said
    return Response(msgspec.json.encode(body), status, media_type="application/json")
