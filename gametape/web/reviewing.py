"""The review room's routes (gametape.usecases.rooms): a group steps through a game
together, one leading, on the page of each member's own link."""

from __future__ import annotations

from collections.abc import AsyncIterator

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse

from gametape.errors import GametapeError
from gametape.messages import say
from gametape.usecases.links import Access, LinkNotFound
from gametape.usecases.record import check_move_id
from gametape.usecases.rooms import MEMBER, Room
from gametape.usecases.tables import NotationError, Table
from gametape.web.http import SEQ, TooFast, body, form, refused_json
from gametape.web.pages import base_of, following, opened, refused, served

ACTS = ("step", "hand", "take", "branch", "move", "note")


async def in_room(request: Request, member: str | None) -> tuple[Table, Access, Room]:
    """The link's table, access and review room (entered as ``member``, if given)."""
    tables = served(request).tables
    table, access = await opened(request)
    if member is None:
        return table, access, await run_in_threadpool(tables.open_room, table, access)
    return table, access, await run_in_threadpool(tables.enter, table, access, member)


def member_of(request: Request, fields: dict[str, list[str]] | None = None) -> str:
    """The id a review page sends for itself (``member``), checked."""
    found = (fields or {}).get("member", [""])[0] or request.query_params.get("member", "")
    if not MEMBER.fullmatch(found):
        raise NotationError(say("web.no-member", "a review page sends its own id, `member`"))
    return found


async def review(request: Request) -> Response:
    """``GET /g/GAME/TOKEN/review``: the room's page, the replay of its line as this link
    sees it."""
    try:
        _, access, room = await in_room(request, None)
        base = base_of(request) + "/review"
        panel = {"state": base + "/state.json", "events": base + "/events", "post": base}
        page = await run_in_threadpool(served(request).tables.review_page, room, access, panel)
    except GametapeError as exc:
        return refused(exc, request)
    return HTMLResponse(page)


async def review_state(request: Request) -> Response:
    """``GET …/review/state.json``: the room as ``member`` sees it."""
    try:
        member = member_of(request)
        _, _, room = await in_room(request, member)
        snap = await run_in_threadpool(served(request).tables.snapshot, room, member)
    except GametapeError as exc:
        return refused(exc, request)
    return Response(msgspec.json.encode(snap), media_type="application/json")


async def review_events(request: Request) -> Response:
    """``GET …/review/events``: server-sent events each time the room changes; the stream
    open is the member's presence."""
    try:
        member = member_of(request)
        _, _, room = await in_room(request, member)
    except GametapeError as exc:
        return refused(exc, request)

    def said() -> str:
        return f"event: room\ndata: {room.version}\n\n"

    async def stream() -> AsyncIterator[str]:
        room.stream(member, True)  # the page's presence: its leader is here
        try:
            async for chunk in following(served(request).tables, room, said):
                yield chunk
        finally:
            room.stream(member, False)

    return StreamingResponse(stream(), media_type="text/event-stream")


async def review_act(request: Request) -> Response:
    """``POST …/review/ACT``: a page's act in the room: ``step`` (seq, game), ``hand``
    (to), ``take``, ``branch``, ``move`` (text) and ``note`` (seq, text, mark, card)."""
    act, tables = request.path_params["act"], served(request).tables
    try:
        if act not in ACTS:
            raise LinkNotFound()
        if not served(request).reviews.take(request.path_params["token"]):
            raise TooFast(say("web.review-too-fast", "the review moves faster than a group can "
                              "follow; wait a moment"))  # fmt: skip
        fields = form(await body(request))
        member = member_of(request, fields)
        _, access, room = await in_room(request, member)

        def field(name: str) -> str:
            return fields.get(name, [""])[0]

        def number(name: str) -> int:
            if not SEQ.fullmatch(field(name)):
                raise NotationError(say("web.not-a-number", "`{name}` is a number", name=name))
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
            if not text or text.isspace():
                raise NotationError(say("web.empty-move", "the move is empty"))
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
        return refused_json(exc)
    said = {"version": room.version, "game": room.game, "seq": room.seq}
    return Response(msgspec.json.encode(said), media_type="application/json")
