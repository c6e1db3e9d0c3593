"""A replay as one self-contained web page (``gametape export GAME --format html``).

The page holds the frames a seat saw (``Cursor.frame``), and nothing else: secrecy is kept by
what is in the file, not by the page hiding it. Each frame's board is the game's board as
data (gametape.engine.board): its pieces repeat from frame to frame, so each distinct piece
(a header, a zone) is stored once and a frame lists its pieces. The page draws the cards as
styled boxes with text nodes only, so names and moves are never read as markup. The
spectator's page also holds each seat's frames (what ``--as`` shows), for its seat picker;
a page written ``--as`` a seat holds that seat's frames alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec
from jinja2 import Environment, FileSystemLoader, Template
from markupsafe import Markup

from gametape import results
from gametape.engine.board import Board, Card, Counter, Zone, mark_new
from gametape.errors import Problem, UsageError
from gametape.events.log import Source
from gametape.events.notes import Annotation
from gametape.i18n import page_translations
from gametape.languages import RTL
from gametape.messages import Term, current, render, say
from gametape.pagewords import as_json, in_script
from gametape.replay.cursor import Cursor

NAMED = 3  # at most this many cards a move brought are named in the move list
# A card's marks in the page, by one letter each (the page's script reads them back).
MARK_CODES = {
    "new": "n",
    "touched": "t",
    "clued": "c",
    "known": "k",
    "critical": "r",
    "selected": "s",
}


class PageFrame(msgspec.Struct, frozen=True, omit_defaults=True):
    """One frame in the page: seq, turn, actor, move, change, kinds, the board's pieces, the
    cards the move brought into a zone nobody holds (``n``: a card played, placed, shown),
    and the seq of the undo that took this move back (``u``), if any."""

    s: int
    t: int
    b: list[int]
    a: str | None = None
    m: str | None = None
    c: str | None = None
    k: tuple[str, ...] = ()
    n: str | None = None
    u: int | None = None


class PageView(msgspec.Struct, frozen=True):
    """Every frame as one seat saw it (``seat`` None: the spectator)."""

    seat: str | None
    frames: list[PageFrame]


class PageNote(msgspec.Struct, frozen=True, omit_defaults=True):
    """A note of the review on the event ``s``: its author, mark, text and card (``k``, the
    card's key on the board: the page draws the note on that card from ``s`` on)."""

    s: int
    a: str
    m: str | None = None
    t: str = ""
    k: str | None = None


class PageData(msgspec.Struct, frozen=True):
    game: str
    ruleset: str
    players: tuple[str, ...]
    seat: str | None  # the page's own seat (None: the spectator's page)
    landmark: str | None
    kinds: list[str]
    kind_words: dict[str, str]  # each kind in the reader's language
    parts: list[Any]
    views: list[PageView]
    result: str | None
    problem: str | None
    turn_word: str = "turn"
    example: str = ""  # how a move of this game is written (a review room's move field)
    learned_later: bool = False  # a table game's faces shown before the event that showed them
    notes: list[PageNote] = []  # the review's notes (the spectator's page only)
    parent: tuple[str, int] | None = None  # a branch: the game it was made from, and where
    branches: list[tuple[int, str, int]] = []  # (fork seq, game, its own moves), as PGN's lines


def result_text(cursor: Cursor) -> str | None:
    """``win: alice 57, cara 47, bob 39`` in the reader's language (None while the game
    goes on)."""
    result = cursor.ruleset.result(cursor.states[cursor.last])
    if result is None:
        return None
    return results.result_line(cursor.players, result, cursor.ruleset.name)


class Exported(msgspec.Struct, frozen=True):
    """One log's page, with where its replay stops (``problem``) if it stops early."""

    page: bytes
    last: int
    problem: Problem | None


def page_of_log(
    path: Path | Source,
    as_player: str | None = None,
    notes: Sequence[Annotation] = (),
    branches: Sequence[tuple[int, str, int]] = (),
) -> Exported:
    """The page of the log at ``path`` as ``as_player`` saw it, with the review's ``notes``
    and the game's ``branches`` (a worker process can run this: it takes and returns plain
    data)."""
    cursor = Cursor.open(path)
    seat = None if as_player is None else cursor.seat(as_player)
    forced = getattr(cursor.events[0], "meta", {}).get("branch_as")  # a seat's hypothesis
    if isinstance(forced, str) and forced in cursor.players:
        if seat not in (None, cursor.players.index(forced)):
            raise UsageError(
                f"this branch is {forced}'s hypothesis: it is shown only as {forced} saw it"
            )
        seat = cursor.players.index(forced)
    return Exported(page(cursor, seat, notes, branches).encode(), cursor.last, cursor.problem)


class _Parts:
    """Each distinct piece of a board (its header, a zone) once; a board is a list of ids."""

    def __init__(self, noted: frozenset[str] = frozenset()) -> None:
        self.noted = noted  # the keys of the cards a note is on: only these keep their key
        self.ids: dict[bytes, int] = {}
        self.parts: list[Any] = []
        self._encode = msgspec.json.Encoder().encode

    def add(self, piece: Any) -> int:
        key = self._encode(piece)
        if key not in self.ids:
            self.ids[key] = len(self.parts)
            self.parts.append(piece)
        return self.ids[key]

    def board(self, board: Board) -> list[int]:
        """A board as piece ids: its header, its notes, then each zone, each piece written
        compactly (see ``_zone``: the page reads it back)."""
        head = [board.title, board.status, [_counter(c) for c in board.counters]]
        zones = [
            self.add(_zone(z, [self.add(_card(c, c.key in self.noted)) for c in z.cards]))
            for z in board.zones
        ]
        return [self.add(head), self.add(list(board.notes)), *zones]


def _trim(items: list[Any]) -> list[Any]:
    """A compact piece without its trailing empty fields."""
    while items and items[-1] in ("", None, [], 0, False):
        items.pop()
    return items


def _card(card: Card, keyed: bool = False) -> list[Any]:
    """A card as ``[text, colour, note, marks, back, key]`` (marks by initial: n t c k r s;
    the key only for a card a note is on, so other cards stay one piece each)."""
    marks = "".join(MARK_CODES[m] for m in card.marks if m in MARK_CODES)
    key = card.key if keyed else ""
    return _trim([card.text, card.colour, card.note, marks, int(card.back), key])


def _counter(counter: Counter) -> list[Any]:
    return _trim([counter.label, counter.value, counter.of, counter.colour])


def _zone(zone: Zone, cards: list[int]) -> list[Any]:
    """A zone as ``[title, cards, counters, text, seat, acting, group]``, its cards as the
    ids of their pieces (a card repeats from frame to frame: it is stored once)."""
    return _trim(
        [
            zone.title,
            cards,
            [_counter(c) for c in zone.counters],
            zone.text,
            -1 if zone.seat is None else zone.seat,
            int(zone.acting),
            zone.group,
        ]
    )


def _brought(board: Board) -> str | None:
    """The cards the move put where nobody holds them (played, placed, shown), for the move
    list: ``r3``, or ``37``."""
    cards = [
        c.text
        for zone in board.zones
        if zone.seat is None
        for c in zone.cards
        if "new" in c.marks and c.text
    ]
    if not cards or len(cards) > NAMED:
        return None
    return " ".join(cards)


def _view(cursor: Cursor, seat: int | None, parts: _Parts) -> PageView:
    """Every frame as ``seat`` saw it, its board marked with what each move brought."""
    rules = cursor.ruleset
    game = str(getattr(cursor.events[0], "game", ""))
    frames = []
    before: Board | None = None
    for seq in range(cursor.last + 1):
        frame = cursor.frame(seq, seat)
        here = rules.board(frame.view, game)  # the page heads each frame with its seq
        board = mark_new(before, here)
        before = here
        frames.append(
            PageFrame(
                s=seq,
                t=frame.turn,
                b=parts.board(board),
                a=frame.actor,
                m=frame.move,
                c=frame.change,
                k=frame.kinds,
                n=_brought(board) if seq else None,
                u=frame.undone_by,
            )
        )
    return PageView(seat=_seen_as(cursor, seat), frames=frames)


def _parent(setup: Any) -> tuple[str, int] | None:
    """A branch's parent game and fork seq, from its setup (gametape.usecases.branches)."""
    meta = getattr(setup, "meta", {})
    of, at = meta.get("branch_of"), meta.get("branch_at")
    return (of, at) if isinstance(of, str) and isinstance(at, int) else None


def page(
    cursor: Cursor,
    seat: int | None = None,
    notes: Sequence[Annotation] = (),
    branches: Sequence[tuple[int, str, int]] = (),
    assets: str | None = None,
    room: Mapping[str, str] | None = None,
) -> str:
    """The whole replay, as ``seat`` saw it (None: the spectator, who sees everything, and
    whose page can also show each seat's view; ``ONLOOKER``: what the whole table saw). The
    review's ``notes`` are in the spectator's page only: a page written as a seat holds
    nothing that seat did not see, and a note may name a card it never saw.

    The page is one file, its style and script inside it; given ``assets`` (a URL path such
    as ``/static``) it links them from there instead, for a server whose Content-Security-
    Policy allows no inline script.

    ``room`` (with ``assets``): the page is a review room's (``gametape serve``): a room panel
    with these ``data-`` attributes (the room's addresses), driven by ``review.js``."""
    rules = cursor.ruleset
    game = str(getattr(cursor.events[0], "game", ""))
    shown = [
        PageNote(s=n.seq, a=n.author, m=n.mark, t=n.text, k=n.card)
        for a in (notes if seat is None else ())
        if a.retracted_by is None and (n := a.note).seq is not None and n.seq <= cursor.last
    ]
    parts = _Parts(frozenset(n.k for n in shown if n.k))
    seats: list[int | None] = [seat] if seat is not None else [None, *range(len(cursor.players))]
    views = [_view(cursor, s, parts) for s in seats]
    data = PageData(
        game=game,
        ruleset=rules.name,
        players=tuple(cursor.players),
        seat=_seen_as(cursor, seat),
        landmark=rules.landmark if rules.landmark in cursor.kinds() else None,
        kinds=cursor.kinds(),
        kind_words=cursor.kind_words(),
        parts=parts.parts,
        views=views,
        result=result_text(cursor),
        problem=str(cursor.problem) if cursor.problem else None,
        turn_word=render(Term("core.turn-word", rules.turn_word)),
        example=next(iter(rules.move_examples), ""),
        learned_later=seat is None and cursor.learned_later,
        notes=shown,
        parent=_parent(cursor.events[0]),
        branches=list(branches),
    )
    payload = in_script(data)  # the page's text can never close the script element
    title = f"{rules.name} {game}: {', '.join(cursor.players)}"
    if seat is not None:
        seen_as = render(say("web.page-as", "as {seat}", seat=_seen_as(cursor, seat) or ""))
        title += f" ({seen_as})"
    here = files("gametape.replay")
    if assets is None:
        style = f"<style>\n{here.joinpath('replay.css').read_text(encoding='utf-8')}</style>"
        script = "".join(
            f"<script>\n{here.joinpath(name).read_text(encoding='utf-8')}</script>\n"
            for name in ("words.js", "replay.js")
        )
    else:
        style = f'<link rel="stylesheet" href="{assets}/replay.css">'
        script = (
            f'<script src="{assets}/words.js"></script>\n<script src="{assets}/replay.js"></script>'
        )
    if room is not None and assets is not None:
        script += f'\n<script src="{assets}/review.js"></script>'
    lang = getattr(current(), "lang", "en")  # the language its words are rendered in
    return _template(lang).render(
        lang=lang,
        dir="rtl" if lang in RTL else "ltr",
        title=title,
        style=Markup(style),
        script=Markup(script),
        room=room if assets is not None else None,
        data=Markup(payload),
        words=Markup(as_json()),
    )


@cache
def _template(lang: str) -> Template:
    """The replay page's template in ``lang`` (its words from gametape's catalogue)."""
    env = Environment(
        loader=FileSystemLoader(str(Path(__file__).parent)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(page_translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env.get_template("replay.html")


def _seen_as(cursor: Cursor, seat: int | None) -> str | None:
    """Whose page this is: a player's name, ``the table`` (the onlooker), None (everyone)."""
    if seat is None:
        return None
    return render(say("core.the-table", "the table")) if seat < 0 else cursor.players[seat]
