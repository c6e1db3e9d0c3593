"""The pages of a game's links: the front page that starts a game, a link's page (its
board, its moves, a field for notation), the page's live part and stream, its JSON, its
replay, the host's page of links, and the files the pages load.

Every handler is a named function of the request; what they share (the open tables, the
templates, the rate limits) is the app's ``Served``, which ``create_app`` is given."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Callable
from functools import cache
from importlib.resources import files
from typing import Any

import msgspec
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse

from gametape.errors import GametapeError
from gametape.i18n import LANGUAGES, RTL, page_translations
from gametape.messages import current, many, render, say
from gametape.pagewords import as_json, script_word
from gametape.usecases.browse import installed_games
from gametape.usecases.links import HOST, ROLE, SEAT, SPECTATOR, Access, Issued, LinkNotFound
from gametape.usecases.live import Versioned
from gametape.usecases.position import Choice, Picker, Position
from gametape.usecases.record import check_move_id, parse_options, split_options
from gametape.usecases.store import MARKS, PALETTE
from gametape.usecases.tables import NotationError, NotYours, Table, Tables, replay_page
from gametape.web.http import (
    KEEPALIVE,
    SEQ,
    Buckets,
    Gone,
    TooFast,
    TooLarge,
    TooSlow,
    body,
    form,
    move_body,
    origin,
    refused_json,
    sent_as_json,
    status_of,
    wants_json,
)

STATIC = {
    "seat.js": ("gametape.web", "static/seat.js", "text/javascript"),
    "seat.css": ("gametape.web", "static/seat.css", "text/css"),
    "replay.js": ("gametape.replay", "replay.js", "text/javascript"),
    "words.js": ("gametape.replay", "words.js", "text/javascript"),
    "replay.css": ("gametape.replay", "replay.css", "text/css"),
    "review.js": ("gametape.web", "static/review.js", "text/javascript"),
    "icon.svg": ("gametape.web", "static/icon.svg", "image/svg+xml"),
}
CAN = {
    SEAT: say(
        "web.can-seat",
        "sees what this player sees, and records this player's moves, secret ones too",
    ),
    HOST: say(
        "web.can-host",
        "sees what the whole table sees; records public moves for any seat, undo, abandon",
    ),
    SPECTATOR: say("web.can-spectator", "sees what the whole table sees; records nothing"),
}

NEW_GAME = say("web.home-title", "gametape · a new game")


class Served:
    """What the app's handlers share: the open tables (the use cases' state), a rate limit
    for moves, review acts and new games, and who is told of a game started from the web
    (``announce``)."""

    def __init__(
        self,
        tables: Tables,
        announce: Callable[[str, str, list[Issued]], None] | None = None,
        public_url: str | None = None,
    ) -> None:
        self.tables = tables
        self.announce = announce
        self.public_url = public_url
        self.moves = Buckets()
        self.reviews = Buckets(rate=20.0, burst=40)  # a leader stepping through, notes, moves
        self.starts = Buckets(rate=1.0, burst=60)  # new games from one address


def served(request: Request) -> Served:
    """The app's shared state, as ``create_app`` set it."""
    found: Served = request.app.state.served
    return found


@cache
def environment(lang: str = "en") -> Environment:
    """The page templates in ``lang`` (their words from its catalogue: ``jinja2.ext.i18n``),
    escaping everything they are given; made once per language (a template is compiled on
    its first use, then kept)."""
    env = Environment(
        loader=PackageLoader("gametape.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(page_translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters["colour"] = lambda c: f"c-{c}" if c in PALETTE else ""
    env.filters["mark"] = lambda m: m if m in MARKS else ""
    env.globals["move_id"] = form_move_id
    env.globals["kept"] = kept
    env.globals["button_rows"] = button_rows
    env.globals["gloss"] = gloss
    env.globals["page_words"] = lambda: Markup(as_json())  # the scripts' words (seat.js)
    env.globals["script_word"] = script_word
    # how many of a picker's words are lists (a screen reader hears "choose: choice 2 of 2")
    env.filters["selectcount"] = lambda words: sum(len(w) > 1 for w in words)
    env.filters["names"] = lambda names: render(many(list(names), "and"))
    env.filters["num"] = lambda n: current().digits(str(n))  # in the language's digits
    return env


def html(request: Request, name: str, code: int = 200, **context: Any) -> HTMLResponse:
    """The template ``name`` rendered with ``context``, in the request's language (its
    ``lang`` and ``dir`` on the page, and a switch to each other language)."""
    lang = language_of(request)
    switch = [(other, said, f"?lang={other}") for other, said in LANGUAGES.items() if other != lang]
    page = (
        environment(lang)
        .get_template(name)
        .render(lang=lang, dir="rtl" if lang in RTL else "ltr", languages=switch, **context)
    )
    return HTMLResponse(page, status_code=code)


def language_of(request: Request) -> str:
    """The request's language, as the Language middleware chose it."""
    lang: str = getattr(request.state, "lang", "en")
    return lang


def refused(exc: GametapeError, request: Request) -> Response:
    """A refusal, as JSON for a script (one that asks for JSON, or sends it) and as a page
    for a person."""
    if wants_json(request) or sent_as_json(request):
        return refused_json(exc)
    status = status_of(exc)
    return html(
        request, "error.html", status, title="gametape", message=exc.message, hint=exc.hint,
        status=status,
    )  # fmt: skip


async def opened(request: Request) -> tuple[Table, Access]:
    """The table and the access of the link the request names (LinkNotFound otherwise)."""
    game, token = request.path_params["game"], request.path_params["token"]
    return await run_in_threadpool(served(request).tables.open, game, token)


async def seen(request: Request) -> tuple[Access, Position]:
    """The link's access, and the game now as it sees it (LinkNotFound for a wrong link)."""
    table, access = await opened(request)
    return access, await run_in_threadpool(served(request).tables.position, table, access)


def base_of(request: Request) -> str:
    """The link's own address: ``/g/GAME/TOKEN``."""
    return f"/g/{request.path_params['game']}/{request.path_params['token']}"


async def following(
    tables: Tables, followed: Versioned, event: Callable[[], str]
) -> AsyncIterator[str]:
    """A page's live stream (server-sent events): ``event()`` at once and after each change
    of ``followed``, a comment every KEEPALIVE seconds, until the server closes."""
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
    request: Request, access: Access, position: Position, code: int = 200, **context: Any
) -> HTMLResponse:
    """A link's page: who it is for, the board, its moves, and ``context`` (a refusal)."""
    if access.role == SEAT:
        who = say(
            "web.you-are",
            "You are {player} (seat {seat}): your page only",
            player=position.label,
            seat=(access.seat or 0) + 1,
        )
    elif access.role == HOST:
        who = say("web.host-can", "Host: {can}", can=CAN[HOST])
    else:
        who = say("web.spectator-can", "Spectator: {can}", can=CAN[SPECTATOR])
    shown = examples(position)
    return html(
        request,
        "seat.html",
        code,
        title=render(
            say(
                "web.seat-title",
                "{ruleset} {game} · {whose}",
                ruleset=position.ruleset,
                game=position.game,
                whose=position.label if access.role == SEAT else ROLE[access.role],
            )
        ),
        **live_part(position, f"/g/{position.game}/{request.path_params['token']}"),
        who=render(who),
        example=shown[0] if shown else "",
        examples=shown,
        typed=context.pop("typed", ""),
        sent=context.pop("sent", None),
        links_page=access.role == HOST and access.derives,
        **context,
    )


def examples(position: Position) -> list[str]:
    """Moves to show as examples on a page: moves this link may make now, with this table's
    names (a few of its buttons, or its first picker filled in); none for a link offered no
    move (the host's: which moves are legal could tell what a hand holds)."""
    shown = [c.text for c in position.buttons[:3]]
    if not shown and position.pickers:
        filled: list[str] = []
        for words in position.pickers[0].words:  # each list's first choice not used yet
            fresh = [w for w in words if w not in filled and w != "?"]
            filled.append(fresh[0] if fresh else words[0])
        shown = [" ".join(filled)]
    return shown


def gloss(picker: Picker, at: int, word: str) -> str:
    """How ``word``, the ``at``-th word's choice in ``picker``, reads to a person (its
    game's gloss: "78 in row A" for ``78a``), else the word itself."""
    if at < len(picker.glosses):
        choices = picker.words[at]
        glossed = picker.glosses[at]
        if word in choices and glossed[choices.index(word)]:
            return glossed[choices.index(word)]
    return word


def live_part(position: Position, base: str) -> dict[str, Any]:
    """What the live part of a page (``live.html``: its moves, board and last moves) is
    drawn from, for the link at ``base``."""
    return {
        "p": position,
        "board": position.board,
        "groups": groups(position),
        "tappable": tappable(position),
        "base": base,
    }


def groups(position: Position) -> list[list[Any]]:
    """The board's zones, those of one group together, in order."""
    found: list[list[Any]] = []
    last: str | None = None
    for zone in position.board.zones:
        if found and zone.group and zone.group == last:
            found[-1].append(zone)
        else:
            found.append([zone])
        last = zone.group
    return found


def tappable(position: Position) -> frozenset[str]:
    """The cards of the board a picker lets this link choose, by the word a move names them
    by (the picker's choices, not its fixed words): each is a button that chooses it."""
    offered = {
        w for picker in position.pickers for words in picker.words if len(words) > 1 for w in words
    }
    return frozenset(
        c.word for zone in position.board.zones for c in zone.cards if c.word in offered
    )


def button_rows(position: Position) -> list[tuple[str, list[Choice]]]:
    """The buttons in rows: each run of one group (``trade blue``) a row under its name;
    buttons of no group together, as they come."""
    rows: list[tuple[str, list[Choice]]] = []
    for choice in position.buttons:
        if rows and rows[-1][0] == choice.group:
            rows[-1][1].append(choice)
        else:
            rows.append((choice.group, [choice]))
    return rows


def kept(picker: Picker, sent: list[str] | None) -> list[tuple[str, ...]]:
    """What a refused move's words picked in ``picker``, per word (its choice, or the slots
    of a set), so the page shown again keeps them; empty if ``sent`` was not this picker's."""
    if not sent:
        return []
    chosen: list[tuple[str, ...]] = []
    j = 0
    for i, words in enumerate(picker.words):
        if picker.sets and picker.sets[i]:
            start = j
            while j < len(sent) and sent[j] in words:
                j += 1
            chosen.append(tuple(sent[start:j]))
        elif j < len(sent) and sent[j] in words:
            chosen.append((sent[j],))
            j += 1
        else:
            return []
    return chosen if j == len(sent) else []


def form_move_id(base: str, seq: int) -> str:
    """The id a page's forms send with a move made at ``seq``: the same for every render of
    that position on that link, so a browser's retry of the same form records once; another
    link or another position gets another. A one-way hash: it shows nothing of the token."""
    return hashlib.sha256(f"{base}:{seq}".encode()).hexdigest()[:24]


# --- the routes -------------------------------------------------------------------------


async def home(request: Request) -> Response:
    """``GET /``: the form that starts a game."""
    return html(
        request, "home.html", title=render(NEW_GAME), rulesets=installed_games()[0],
        players="",
    )  # fmt: skip


def _from_here(request: Request, public_url: str | None) -> bool:
    """Whether a form was posted from this server's own pages: a browser says where the
    request comes from (``Sec-Fetch-Site``), else by its ``Origin``, which must be this
    server's. A client that says neither (curl, a script) is no other site's page."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    said = request.headers.get("origin")
    if said is None:
        return True
    ours = {f"{request.url.scheme}://{request.headers.get('host', '')}"}
    if public_url is not None:
        ours.add(origin(public_url))
    return said in ours


async def start(request: Request) -> Response:
    """``POST /new``: start a game; 303 to its host's page of links."""
    state = served(request)
    ruleset, players, table, options = "", [], False, ""
    try:
        if not _from_here(request, state.public_url):
            raise NotYours(  # another site's page posting here: not a new game of ours
                say(
                    "web.front-page-only", "a new game is started from this server's own front page"
                ),
                hint=say("web.front-page-open", "open {url}", url=f"{state.public_url}/"),
            )
        if not state.starts.take(f"new:{request.client.host if request.client else '-'}"):
            raise TooFast(say("web.too-many-games", "too many new games from here; wait a minute"))
        fields = form(await body(request))
        ruleset = fields.get("ruleset", [""])[0]
        players = [p.strip() for p in fields.get("players", [""])[0].split(",") if p.strip()]
        table = fields.get("table", [""])[0] == "1"
        options = fields.get("options", [""])[0]
        chosen = parse_options(split_options(options))
        gid, issued = await run_in_threadpool(
            lambda: state.tables.start(ruleset, players, table=table, options=chosen)
        )
    except GametapeError as exc:
        if isinstance(exc, TooLarge | TooFast | TooSlow):
            return refused(exc, request)
        return html(
            request, "home.html", status_of(exc), title=render(NEW_GAME),
            rulesets=installed_games()[0], error=exc.message, hint=exc.hint,
            players=", ".join(players), chosen=ruleset, table=table, options=options,
        )  # fmt: skip
    if state.announce is not None:
        state.announce(gid, ruleset, issued)
    host = next(link for link in issued if link.role == HOST)
    # Post, then redirect: a reload shows the same links and starts no second game.
    return RedirectResponse(host.path(gid) + "/links", status_code=303)


async def links(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/links``: the game's links, for its host's link alone (derived
    again from its token)."""
    try:
        table, access = await opened(request)
        token = request.path_params["token"]
        ruleset, issued = served(request).tables.host_links(table, access, token)
    except GametapeError as exc:
        return refused(exc, request)
    # links are built from the server's own address, never from the request's Host header
    root = served(request).public_url or str(request.base_url).rstrip("/")
    return html(
        request,
        "links.html",
        title=render(
            say("web.links-title", "{ruleset} {game}: links", ruleset=ruleset, game=access.game)
        ),
        ruleset=ruleset,
        game=access.game,
        host=issued[-2].path(access.game),
        links=[_shown(link, root + link.path(access.game)) for link in issued],
    )


async def seat(request: Request) -> Response:
    """``GET /g/GAME/TOKEN``: the link's page."""
    try:
        access, position = await seen(request)
    except GametapeError as exc:
        return refused(exc, request)
    done = None
    ok, back = request.query_params.get("ok", ""), request.query_params.get("back", "")
    if SEQ.fullmatch(ok) and SEQ.fullmatch(back):  # a retry of a move taken back since
        done = render(
            say(
                "web.recorded-then-back",
                "your move was recorded as seq {ok}, then taken back at seq {back}",
                ok=int(ok),
                back=int(back),
            )
        )
    elif SEQ.fullmatch(ok):
        done = render(say("web.recorded", "✓ recorded as seq {ok}", ok=int(ok)))
    return seat_page(request, access, position, done=done)


async def live(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/live``: the page's live part (its board and last moves)."""
    try:
        _, position = await seen(request)
    except GametapeError as exc:
        return refused(exc, request)
    base = f"/g/{position.game}/{request.path_params['token']}"
    return html(request, "live.html", **live_part(position, base))


async def state_json(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/state.json``: the position as the link sees it, as JSON."""
    try:
        _, position = await seen(request)
    except GametapeError as exc:
        return refused(exc, request)
    return Response(msgspec.json.encode(position), media_type="application/json")


async def events(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/events``: server-sent events saying only that the game moved."""
    try:
        table, _ = await opened(request)
    except GametapeError as exc:
        return refused(exc, request)

    def moved() -> str:
        return f"event: moved\ndata: {table.seq}\n\n"

    stream = following(served(request).tables, table, moved)
    return StreamingResponse(stream, media_type="text/event-stream")


async def replay(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/replay``: the game's replay as the link sees it."""
    try:
        table, access = await opened(request)
        page = await run_in_threadpool(replay_page, table, access, "/static")
    except GametapeError as exc:
        return refused(exc, request)
    return HTMLResponse(page)


async def move(request: Request) -> Response:
    """``POST /g/GAME/TOKEN/move``: record a move (fields ``seq``; ``move``, a button's move
    as a value, or ``text``, or the words ``w``; and ``id``); 303 back to the page, or the
    page again with why not."""
    tables, text, value = served(request).tables, "", ""
    words: list[str] | None = None
    try:
        table, access = await opened(request)
        if not served(request).moves.take(request.path_params["token"]):
            raise TooFast(
                say("web.too-fast", "moves come faster than a table plays; wait a moment")
            )
        if sent_as_json(request):  # a script's move, as a value: {"seq", "move", "id"}
            at, text, move_id = move_body(await body(request))
            seq = str(at) if at >= 0 else ""
        else:
            fields = form(await body(request))
            words = fields.get("w")
            value = fields.get("move", [""])[0]  # a button's move, as a value (its JSON)
            text = value or (" ".join(words) if words else fields.get("text", [""])[0])
            seq = fields.get("seq", [""])[0]
            move_id = fields.get("id", [""])[0]
        if not SEQ.fullmatch(seq):
            raise NotationError(say("web.no-seq", "the move came without the seq it was made at"))
        if not text or text.isspace():
            raise NotationError(say("web.empty-move", "the move is empty"))
        if move_id:
            check_move_id(move_id)
        done = await run_in_threadpool(tables.move, table, access, text, int(seq), None, move_id)
    except GametapeError as exc:
        script = wants_json(request) or sent_as_json(request)  # refused in JSON
        if isinstance(exc, LinkNotFound | TooLarge | Gone | TooSlow) or script:
            return refused(exc, request)
        position = await run_in_threadpool(tables.position, table, access)
        return seat_page(
            request, access, position, status_of(exc),
            error=exc.message, hint=exc.hint, status=status_of(exc),
            typed="" if value else text, sent=words,
        )  # fmt: skip
    said = {"first": done.first, "last": done.last, "seq": done.next_seq}
    if done.taken_back is not None:
        said["taken_back"] = done.taken_back
    if wants_json(request) or sent_as_json(request):
        return Response(msgspec.json.encode(said), media_type="application/json")
    back = f"&back={done.taken_back}" if done.taken_back is not None else ""
    return RedirectResponse(f"{base_of(request)}?ok={done.first}{back}", status_code=303)


async def manifest(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/manifest.webmanifest``: a phone adds the link's page to its home
    screen."""
    try:
        table, access = await opened(request)
    except GametapeError as exc:
        return refused(exc, request)
    ruleset, who = served(request).tables.named(table, access)
    base = base_of(request)
    said = {
        "name": f"{ruleset} {access.game} · {who}",
        "short_name": f"{ruleset} · {who}"[:30],
        "start_url": base,
        "scope": base,
        "display": "standalone",
        "background_color": "#1c1c22",
        "theme_color": "#1c1c22",
        "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    return Response(msgspec.json.encode(said), media_type="application/manifest+json")


async def worker(request: Request) -> Response:
    """``GET /sw.js``: the service worker, at the root so that it may serve every page."""
    data = files("gametape.web").joinpath("static/sw.js").read_bytes()
    return Response(data, media_type="text/javascript", headers={"cache-control": "no-cache"})


async def static(request: Request) -> Response:
    """``GET /static/NAME``: the pages' script and style (nothing comes from another site)."""
    found = STATIC.get(request.path_params["name"])
    if found is None:
        return refused(LinkNotFound(), request)
    package, name, kind = found
    data = files(package).joinpath(name).read_bytes()
    return Response(data, media_type=kind, headers={"cache-control": "max-age=3600"})


async def missing(request: Request, exc: Exception) -> Response:
    """Any address that is not a route, or a method a route does not take: as a wrong link."""
    return refused(LinkNotFound(), request)


def _shown(link: Issued, url: str) -> dict[str, Any]:
    """A link as the links page shows it: who it is for, what it can do, its QR code."""
    import segno
    from markupsafe import Markup, escape

    titles = {
        HOST: say("web.link-host", "the host"),
        SPECTATOR: say("web.link-spectators", "spectators"),
    }
    title = render(titles[link.role]) if link.role in titles else link.label
    try:
        # a viewBox and no size: the code fills the square the page gives it (with a fixed
        # size it sat in the square's top-left corner)
        code = segno.make(url, error="m")
        svg = code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=True)
    except segno.DataOverflowError:  # an address too long for a code: the link alone
        too_long = render(say("web.no-qr", "too long for a QR code"))
        svg = f"<p>({escape(too_long)})</p>"
    return {
        "title": title,
        "can": render(CAN[link.role]),
        "url": url,
        "qr": Markup(svg),
        "role": link.role,
    }
