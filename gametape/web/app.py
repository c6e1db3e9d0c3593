"""The web application of ``gametape serve`` (Starlette): pages drawn on the server.

Routes (``GAME`` is a game's id, ``TOKEN`` a link's secret):

- ``GET /`` and ``POST /new``: start a game; the answer is its links, each with a QR code.
- ``GET /g/GAME/TOKEN``: the link's page: the board as its viewer sees it, and the moves it
  may make as buttons, pickers and a field for notation.
- ``POST /g/GAME/TOKEN/move``: record a move (fields ``seq``, and ``text`` or the words
  ``w``); 303 back to the page once it is on disk, or the page again with why not.
- ``GET /g/GAME/TOKEN/live``: the page's live part; ``/events``: server-sent events saying
  only that the game moved; ``/state.json``: the position as JSON; ``/replay``: the replay.
- ``GET /g/GAME/TOKEN/review`` (and ``/review/state.json``, ``/review/events``, ``POST
  /review/ACT``): the review room.
- ``GET /static/NAME``: the pages' script and style (nothing comes from another site).

Every refusal is a page with a status that says why: 400 a move that is not notation, 403 a
move that is not the link's to make, 404 a game or link that is not there (the same for a
wrong token), 409 the table moved on, 413 too large, 422 the rules refuse it, 429 too fast.
The handlers are gametape.web.pages' and gametape.web.reviewing's; this module puts them at
their addresses over the tables it is given.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.routing import Route

from gametape.usecases.links import Issued
from gametape.usecases.tables import Tables, watching
from gametape.web import pages, reviewing
from gametape.web.http import Language, SecurityHeaders

ROUTES = [
    Route("/", pages.home),
    Route("/new", pages.start, methods=["POST"]),
    Route("/g/{game}/{token}", pages.seat),
    Route("/g/{game}/{token}/move", pages.move, methods=["POST"]),
    Route("/g/{game}/{token}/live", pages.live),
    Route("/g/{game}/{token}/events", pages.events),
    Route("/g/{game}/{token}/state.json", pages.state_json),
    Route("/g/{game}/{token}/replay", pages.replay),
    Route("/g/{game}/{token}/links", pages.links),
    Route("/g/{game}/{token}/manifest.webmanifest", pages.manifest),
    Route("/g/{game}/{token}/review", reviewing.review),
    Route("/g/{game}/{token}/review/state.json", reviewing.review_state),
    Route("/g/{game}/{token}/review/events", reviewing.review_events),
    Route("/g/{game}/{token}/review/{act}", reviewing.review_act, methods=["POST"]),
    Route("/static/{name}", pages.static),
    Route("/sw.js", pages.worker),
]


def create_app(
    tables: Tables,
    *,
    announce: Callable[[str, str, list[Issued]], None] | None = None,
    watch_every: float = 0.2,
    public_url: str | None = None,
) -> Starlette:
    """The application over ``tables`` (the games its links open, and the store they are
    in). ``announce(game, ruleset, links)`` is told of each game started from the web
    (``gametape serve`` prints its links with QR codes); moves recorded elsewhere are
    noticed every ``watch_every`` seconds."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        with watching(tables, watch_every):
            yield

    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        exception_handlers={404: pages.missing, 405: pages.missing},
    )
    # No redirect to add a slash: Starlette builds its Location from the Host header, which
    # would put a link's token into an address the client chose.
    app.router.redirect_slashes = False
    app.state.served = pages.Served(tables, announce=announce, public_url=public_url)
    app.add_middleware(Language)
    app.add_middleware(SecurityHeaders)
    return app
