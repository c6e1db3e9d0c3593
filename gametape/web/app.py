"""The web application of ``gametape serve`` (Starlette): pages drawn on the server.

Routes (``GAME`` is a game's id, ``TOKEN`` a link's secret):

- ``GET /`` and ``POST /new``: start a game; the answer is its links, each with a QR code.
- ``GET /g/GAME/TOKEN``: the link's page: the board as its viewer sees it, and the moves it
  may make as buttons, pickers and a field for notation.
- ``POST /g/GAME/TOKEN/move``: record a move (fields ``seq``, and ``text`` or the words
  ``w``); 303 back to the page once it is on disk, or the page again with why not.
- ``GET /g/GAME/TOKEN/live``: the page's live part; ``/events``: server-sent events saying
  only that the game moved; ``/state.json``: the position as JSON; ``/replay``: the replay.
- ``GET /static/NAME``: the pages' script and style (nothing comes from another site).

Every refusal is a page with a status that says why: 400 a move that is not notation, 403 a
move that is not the link's to make, 404 a game or link that is not there (the same for a
wrong token), 409 the table moved on, 413 too large, 422 the rules refuse it, 429 too fast.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgspec
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gametape.errors import GametapeError, MachineError, UsageError
from gametape.text import and_list
from gametape.usecases.browse import installed_games
from gametape.usecases.links import HOST, SEAT, SPECTATOR, Access, Issued, LinkNotFound, derived
from gametape.usecases.live import Versioned
from gametape.usecases.record import check_move_id, parse_options, split_options
from gametape.usecases.position import Position
from gametape.usecases.rooms import MEMBER, NotTheLeader, Room
from gametape.usecases.rooms import label_of as rooms_label
from gametape.usecases.store import MARKS, PALETTE, GameStore, RuleViolation
from gametape.usecases.tables import (
    MovedOn,
    NotationError,
    NotYours,
    StaleWrite,
    Table,
    Tables,
    replay_page,
    watching,
)

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
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]
STATIC = {
    "seat.js": ("gametape.web", "static/seat.js", "text/javascript"),
    "seat.css": ("gametape.web", "static/seat.css", "text/css"),
    "replay.js": ("gametape.replay", "replay.js", "text/javascript"),
    "replay.css": ("gametape.replay", "replay.css", "text/css"),
    "review.js": ("gametape.web", "static/review.js", "text/javascript"),
    "icon.svg": ("gametape.web", "static/icon.svg", "image/svg+xml"),
}
CAN = {
    SEAT: "sees what this player sees, and records this player's moves, secret ones too",
    HOST: "sees what the whole table sees; records public moves for any seat, undo, abandon",
    SPECTATOR: "sees what the whole table sees; records nothing",
}


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

    def __init__(self, rate: float = MOVES_PER_SECOND, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self._state: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        now = time.monotonic()
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


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("gametape.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["colour"] = lambda c: f"c-{c}" if c in PALETTE else ""
    env.filters["mark"] = lambda m: m if m in MARKS else ""
    env.globals["move_id"] = form_move_id
    env.filters["names"] = lambda names: and_list(list(names))
    return env


def _origin(url: str) -> str:
    """The origin (scheme, host and port) of an address."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _examples(position: Position) -> list[str]:
    """Moves to show as examples on a page: moves this link may make now, with this table's
    names (a few of its buttons, or its first picker filled in); none for a link offered no
    move (the host's: which moves are legal could tell what a hand holds)."""
    shown = [c.text for c in position.buttons[:3]]
    if not shown and position.pickers:
        shown = [" ".join(words[0] for words in position.pickers[0].words)]
    return shown


def form_move_id(base: str, seq: int) -> str:
    """The id a page's forms send with a move made at ``seq``: the same for every render of
    that position on that link, so a browser's retry of the same form records once; another
    link or another position gets another. A one-way hash: it shows nothing of the token."""
    return hashlib.sha256(f"{base}:{seq}".encode()).hexdigest()[:24]


async def _body(request: Request) -> bytes:
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


def _form(body: bytes) -> dict[str, list[str]]:
    try:
        text = body.decode("utf-8")
        return parse_qs(text, keep_blank_values=True, max_num_fields=64, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise NotationError("the form is not UTF-8 text of at most 64 fields") from None


def create_app(
    store: GameStore,
    *,
    announce: Callable[[str, str, list[Issued]], None] | None = None,
    watch_every: float = 0.2,
    public_url: str | None = None,
    lead_timeout: float = 60.0,
) -> Starlette:
    """The application on ``store``. ``announce(game, ruleset, links)`` is told of each game
    started from the web (``gametape serve`` prints its links with QR codes)."""
    tables = Tables(store, lead_timeout=lead_timeout)
    env = _environment()
    moves = Buckets()
    reviews = Buckets(rate=20.0, burst=40)  # a leader stepping through, notes, moves
    starts = Buckets(rate=1.0, burst=60)  # new games from one address

    def html(name: str, code: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=code)

    def refused(exc: GametapeError, request: Request) -> Response:
        status = status_of(exc)
        if _wants_json(request):
            body = {"error": exc.message, "hint": exc.hint, "status": status}
            return Response(msgspec.json.encode(body), status, media_type="application/json")
        return html(
            "error.html", status, title="gametape", message=exc.message, hint=exc.hint,
            status=status,
        )  # fmt: skip

    async def opened(request: Request) -> tuple[Table, Access]:
        game, token = request.path_params["game"], request.path_params["token"]
        return await run_in_threadpool(tables.open, game, token)

    async def following(followed: Versioned, event: Callable[[], str]) -> Any:
        """A page's live stream (server-sent events): ``event()`` at once and after each
        change of ``followed``, a comment every KEEPALIVE seconds, until the server closes."""
        changed = asyncio.Event()
        loop = asyncio.get_running_loop()

        def wake() -> None:  # called from the thread that changed it
            loop.call_soon_threadsafe(changed.set)

        followed.listen(wake)
        try:
            version = followed.version
            yield "retry: 1000\n" + event()
            while True:
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                changed.clear()
                if tables.closing:
                    return
                if followed.version != version:
                    version = followed.version
                    yield event()
        finally:
            followed.unlisten(wake)

    def seat_page(
        request: Request,
        table: Table,
        access: Access,
        position: Position,
        code: int = 200,
        **context: Any,
    ) -> HTMLResponse:
        base = f"/g/{table.recording.game.setup.game}/{request.path_params['token']}"
        if access.role == SEAT:
            who = f"You are {position.label} (seat {(access.seat or 0) + 1}): your page only"
        elif access.role == HOST:
            who = "Host: " + CAN[HOST]
        else:
            who = "Spectator: " + CAN[SPECTATOR]
        examples = _examples(position)
        return html(
            "seat.html",
            code,
            title=f"{position.ruleset} {position.game} · {position.label}",
            p=position,
            board=position.board,
            groups=_groups(position),
            base=base,
            who=who,
            example=examples[0] if examples else "",
            examples=examples,
            typed=context.pop("typed", ""),
            links_page=access.role == HOST and access.derives,
            **context,
        )

    async def home(request: Request) -> Response:
        return html(
            "home.html", title="gametape · a new game", rulesets=installed_games()[0], players=""
        )

    async def start(request: Request) -> Response:
        ruleset, players, table, options = "", [], False, ""
        try:
            origin = request.headers.get("origin")
            ours = {f"{request.url.scheme}://{request.headers.get('host', '')}"}
            if public_url is not None:
                ours.add(_origin(public_url))
            if origin is not None and origin not in ours:
                raise NotYours(  # another site's page posting here: not a new game of ours
                    "a new game is started from this server's own front page",
                    hint=f"open {public_url}/",
                )
            if not starts.take(f"new:{request.client.host if request.client else '-'}"):
                raise TooFast("too many new games from here; wait a minute")
            form = _form(await _body(request))
            ruleset = form.get("ruleset", [""])[0]
            players = [p.strip() for p in form.get("players", [""])[0].split(",") if p.strip()]
            table = form.get("table", [""])[0] == "1"
            options = form.get("options", [""])[0]
            chosen = parse_options(split_options(options))
            gid, issued = await run_in_threadpool(
                lambda: tables.start(ruleset, players, table=table, options=chosen)
            )
        except GametapeError as exc:
            if isinstance(exc, TooLarge | TooFast | TooSlow):
                return refused(exc, request)
            return html(
                "home.html", status_of(exc), title="gametape · a new game",
                rulesets=installed_games()[0], error=exc.message, hint=exc.hint,
                players=", ".join(players), chosen=ruleset, table=table, options=options,
            )  # fmt: skip
        if announce is not None:
            announce(gid, ruleset, issued)
        host = next(link for link in issued if link.role == HOST)
        # Post, then redirect: a reload shows the same links and starts no second game.
        return RedirectResponse(host.path(gid) + "/links", status_code=303)

    async def links(request: Request) -> Response:
        """The game's links, for its host's link alone (derived again from its token)."""
        try:
            table, access = await opened(request)
            if access.role != HOST or not access.derives:
                raise LinkNotFound()  # the same answer as a link that is not there
        except GametapeError as exc:
            return refused(exc, request)
        game = table.game
        issued = derived(request.path_params["token"], game.players)
        # links are built from the server's own address, never from the request's Host header
        root = public_url or str(request.base_url).rstrip("/")
        return html(
            "links.html",
            title=f"{game.ruleset.name} {access.game}: links",
            ruleset=game.ruleset.name,
            game=access.game,
            host=issued[-2].path(access.game),
            links=[_shown(link, root + link.path(access.game)) for link in issued],
        )

    async def seat(request: Request) -> Response:
        try:
            table, access = await opened(request)
            position = await run_in_threadpool(tables.position, table, access)
        except GametapeError as exc:
            return refused(exc, request)
        done = None
        if SEQ.fullmatch(request.query_params.get("ok", "")):
            done = f"✓ recorded as seq {request.query_params['ok']}"
        return seat_page(request, table, access, position, done=done)

    async def live(request: Request) -> Response:
        try:
            table, access = await opened(request)
        except GametapeError as exc:
            return refused(exc, request)
        position = await run_in_threadpool(tables.position, table, access)
        base = f"/g/{position.game}/{request.path_params['token']}"
        return html(
            "live.html", p=position, board=position.board, groups=_groups(position), base=base
        )

    async def state(request: Request) -> Response:
        try:
            table, access = await opened(request)
        except GametapeError as exc:
            return refused(exc, request)
        data = msgspec.json.encode(await run_in_threadpool(tables.position, table, access))
        return Response(data, media_type="application/json")

    async def events(request: Request) -> Response:
        try:
            table, _ = await opened(request)
        except GametapeError as exc:
            return refused(exc, request)

        def moved() -> str:
            return f"event: moved\ndata: {len(table.game.events)}\n\n"

        return StreamingResponse(following(table, moved), media_type="text/event-stream")

    async def replay(request: Request) -> Response:
        try:
            table, access = await opened(request)
            page = await run_in_threadpool(replay_page, table, access, "/static")
        except GametapeError as exc:
            return refused(exc, request)
        return HTMLResponse(page)

    async def move(request: Request) -> Response:
        text = ""
        try:
            table, access = await opened(request)
            if not moves.take(request.path_params["token"]):
                raise TooFast("moves come faster than a table plays; wait a moment")
            form = _form(await _body(request))
            words = form.get("w")
            text = " ".join(words) if words else form.get("text", [""])[0]
            seq = form.get("seq", [""])[0]
            if not SEQ.fullmatch(seq):
                raise NotationError("the move came without the seq it was made at")
            if not text.strip():
                raise NotationError("the move is empty")
            move_id = form.get("id", [""])[0]
            if move_id:
                check_move_id(move_id)
            done = await run_in_threadpool(
                tables.move, table, access, text, int(seq), None, move_id
            )
        except GametapeError as exc:
            if isinstance(exc, LinkNotFound | TooLarge | Gone | TooSlow) or _wants_json(request):
                return refused(exc, request)
            position = await run_in_threadpool(tables.position, table, access)
            return seat_page(
                request, table, access, position, status_of(exc),
                error=exc.message, hint=exc.hint, status=status_of(exc), typed=text,
            )  # fmt: skip
        if _wants_json(request):
            body = {"first": done.first, "last": done.last, "seq": done.last + 1}
            return Response(msgspec.json.encode(body), media_type="application/json")
        base = f"/g/{request.path_params['game']}/{request.path_params['token']}"
        return RedirectResponse(f"{base}?ok={done.first}", status_code=303)

    # --- review rooms (gametape.usecases.rooms) -----------------------------------------

    async def in_room(request: Request, member: str | None) -> tuple[Table, Access, Room]:
        table, access = await opened(request)
        if member is None:
            return table, access, await run_in_threadpool(tables.open_room, table, access)
        return table, access, await run_in_threadpool(tables.enter, table, access, member)

    async def review(request: Request) -> Response:
        """The review room's page: the replay of the room's line as this link sees it."""
        try:
            _, access, room = await in_room(request, None)
            base = f"/g/{request.path_params['game']}/{request.path_params['token']}/review"
            panel = {"state": base + "/state.json", "events": base + "/events", "post": base}
            page = await run_in_threadpool(tables.review_page, room, access, panel)
        except GametapeError as exc:
            return refused(exc, request)
        return HTMLResponse(page)

    def _member(request: Request, form: dict[str, list[str]] | None = None) -> str:
        found = (form or {}).get("member", [""])[0] or request.query_params.get("member", "")
        if not MEMBER.fullmatch(found):
            raise NotationError("a review page sends its own id, `member`")
        return found

    async def review_state(request: Request) -> Response:
        try:
            member = _member(request)
            _, _, room = await in_room(request, member)
            snap = await run_in_threadpool(tables.snapshot, room, member)
        except GametapeError as exc:
            return refused(exc, request)
        return Response(msgspec.json.encode(snap), media_type="application/json")

    async def review_events(request: Request) -> Response:
        try:
            member = _member(request)
            _, _, room = await in_room(request, member)
        except GametapeError as exc:
            return refused(exc, request)

        def said() -> str:
            return f"event: room\ndata: {room.version}\n\n"

        async def stream() -> Any:
            room.stream(member, True)  # the page's presence: its leader is here
            try:
                async for chunk in following(room, said):
                    yield chunk
            finally:
                room.stream(member, False)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def review_act(request: Request) -> Response:
        """A page's act in the room: ``step`` (seq, game), ``hand`` (to), ``take``,
        ``branch``, ``move`` (text) and ``note`` (seq, text, mark)."""
        act = request.path_params["act"]
        try:
            if act not in ("step", "hand", "take", "branch", "move", "note"):
                raise LinkNotFound()
            if not reviews.take(request.path_params["token"]):
                raise TooFast("the review moves faster than a group can follow; wait a moment")
            form = _form(await _body(request))
            member = _member(request, form)
            _, access, room = await in_room(request, member)
            field = lambda name: form.get(name, [""])[0]  # noqa: E731

            def number(name: str) -> int:
                if not SEQ.fullmatch(field(name)):
                    raise NotationError(f"`{name}` is a number")
                return int(field(name))

            if act == "step":
                game = field("game") or room.game
                await run_in_threadpool(tables.review_step, room, member, game, number("seq"))
            elif act == "hand":
                await run_in_threadpool(room.hand, member, number("to"))
            elif act == "take":
                await run_in_threadpool(room.take, member)
            elif act == "branch":
                await run_in_threadpool(tables.review_branch, room, member)
            elif act == "move":
                text = field("text")
                if not text.strip():
                    raise NotationError("the move is empty")
                if field("id"):
                    check_move_id(field("id"))
                await run_in_threadpool(tables.review_move, room, access, member, text, field("id"))
            else:
                mark, card = field("mark") or None, field("card").strip() or None
                await run_in_threadpool(
                    tables.review_note, room, access, member, number("seq"), field("text"),
                    mark, card,
                )  # fmt: skip
        except GametapeError as exc:
            status = status_of(exc)
            body = {"error": exc.message, "hint": exc.hint, "status": status}
            return Response(msgspec.json.encode(body), status, media_type="application/json")
        return Response(
            msgspec.json.encode({"version": room.version, "game": room.game, "seq": room.seq}),
            media_type="application/json",
        )

    async def worker(request: Request) -> Response:
        """The service worker, at the root so that it may serve every page of the site."""
        data = files("gametape.web").joinpath("static/sw.js").read_bytes()
        return Response(data, media_type="text/javascript", headers={"cache-control": "no-cache"})

    async def manifest(request: Request) -> Response:
        """A link's web-app manifest: a phone adds the link's page to its home screen."""
        try:
            table, access = await opened(request)
        except GametapeError as exc:
            return refused(exc, request)
        game = table.game
        who = rooms_label(access, game.players)
        base = f"/g/{request.path_params['game']}/{request.path_params['token']}"
        body = {
            "name": f"{game.ruleset.name} {access.game} · {who}",
            "short_name": f"{game.ruleset.name} · {who}"[:30],
            "start_url": base,
            "scope": base,
            "display": "standalone",
            "background_color": "#1c1c22",
            "theme_color": "#1c1c22",
            "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
        }
        return Response(msgspec.json.encode(body), media_type="application/manifest+json")

    async def static(request: Request) -> Response:
        found = STATIC.get(request.path_params["name"])
        if found is None:
            return refused(LinkNotFound(), request)
        package, name, kind = found
        data = files(package).joinpath(name).read_bytes()
        return Response(data, media_type=kind, headers={"cache-control": "max-age=3600"})

    async def missing(request: Request, exc: Exception) -> Response:
        return refused(LinkNotFound(), request)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        with watching(tables, watch_every):
            yield

    routes = [
        Route("/", home),
        Route("/new", start, methods=["POST"]),
        Route("/g/{game}/{token}", seat),
        Route("/g/{game}/{token}/move", move, methods=["POST"]),
        Route("/g/{game}/{token}/live", live),
        Route("/g/{game}/{token}/events", events),
        Route("/g/{game}/{token}/state.json", state),
        Route("/g/{game}/{token}/replay", replay),
        Route("/g/{game}/{token}/links", links),
        Route("/g/{game}/{token}/review", review),
        Route("/g/{game}/{token}/review/state.json", review_state),
        Route("/g/{game}/{token}/review/events", review_events),
        Route("/g/{game}/{token}/review/{act}", review_act, methods=["POST"]),
        Route("/static/{name}", static),
        Route("/sw.js", worker),
        Route("/g/{game}/{token}/manifest.webmanifest", manifest),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: missing, 405: missing},
    )
    # No redirect to add a slash: Starlette builds its Location from the Host header, which
    # would put a link's token into an address the client chose.
    app.router.redirect_slashes = False
    app.state.tables = tables
    app.add_middleware(SecurityHeaders)
    return app


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def _groups(position: Position) -> list[list[Any]]:
    """The board's zones, those of one group together, in order."""
    groups: list[list[Any]] = []
    last: str | None = None
    for zone in position.board.zones:
        if groups and zone.group and zone.group == last:
            groups[-1].append(zone)
        else:
            groups.append([zone])
        last = zone.group
    return groups


def _shown(link: Issued, url: str) -> dict[str, Any]:
    """A link as the links page shows it: who it is for, what it can do, its QR code."""
    import segno
    from markupsafe import Markup

    title = {HOST: "the host", SPECTATOR: "spectators"}.get(link.role, link.label)
    try:
        svg = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff")
    except segno.DataOverflowError:  # an address too long for a code: the link alone
        svg = "<p>(too long for a QR code)</p>"
    return {"title": title, "can": CAN[link.role], "url": url, "qr": Markup(svg), "role": link.role}
