"""Notes on a game: an append-only log of annotations beside the game's own log.

A game's log never changes after it ends; what a group says about it afterwards goes into its
notes: one JSON object a line, appended, each a note on one event (``seq``), with its author
and time, a text and/or a mark (PGN's move marks), and optionally the card it is about (a card
as the board names it, ``card 17``: what a player believed it was, as hanab.live's card notes).
A note is taken back by a later line that retracts it (``{"retract": 3}``: the third line), so
every word said stays in the history. The file store keeps them in ``GAME.notes``; a
PostgreSQL store in the table ``gametape_notes``.
"""

from __future__ import annotations

import datetime as _dt
import re

import msgspec

from gametape.errors import UsageError
from gametape.events import sidelog
from gametape.messages import Message, say
from gametape.text import has_control

SUFFIX = ".notes"
MARKS = ("!!", "!", "!?", "?!", "?", "??")  # PGN's move marks (NAGs 3, 1, 5, 6, 2, 4)
MARK_WORDS = {
    "!!": "brilliant",
    "!": "good",
    "!?": "interesting",
    "?!": "dubious",
    "?": "a mistake",
    "??": "a blunder",
}
MOST = 2000  # characters in a note's text


class Note(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True
):
    """One line of a game's notes: a note on the event ``seq``, or (``retract``) the taking
    back of an earlier note, by its number (1 is the first line)."""

    ts: str
    author: str
    seq: int | None = None
    text: str = ""
    mark: str | None = None
    card: str | None = None
    named: str = ""  # the card as its author named it (`alice 3`); ``card`` is which card
    retract: int | None = None

    @property
    def card_words(self) -> str:
        """The card as people read it: as its author named it, else its number."""
        return self.named or self.card or ""


class Annotation(msgspec.Struct, frozen=True, kw_only=True):
    """A note as read: its number (its line), and whether a later line took it back."""

    n: int
    note: Note
    retracted_by: int | None = None


_decode_line = msgspec.json.Decoder(Note).decode
_TS = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?Z")


def _decode(line: bytes) -> Note:
    """A note line; ValidationError (a DecodeError) for one whose ``ts`` is no UTC time as
    gametape writes it: such a line costs that note only, never the read model's load."""
    note = _decode_line(line)
    try:
        if not _TS.fullmatch(note.ts):
            raise ValueError
        _dt.datetime.fromisoformat(note.ts)  # a month 13, a 30th of February
    except ValueError:
        raise msgspec.ValidationError(f"ts {note.ts[:40]!r} is not a UTC time") from None
    return note


_encode = msgspec.json.Encoder().encode


def now() -> str:
    t = _dt.datetime.now(_dt.UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


A_NOTE = say("core.a-note", "a note")


def check_text(text: str, what: Message = A_NOTE) -> str:
    """A note's text (or author): printable, at most MOST characters; markup is kept as text."""
    if len(text) > MOST:
        raise UsageError(
            say(
                "core.note-too-long",
                "{what} is {length:,} characters; at most {most:,} are kept",
                what=what,
                length=len(text),
                most=MOST,
            )
        )
    if has_control(text):
        raise UsageError(say("core.note-control", "{what} holds control characters (a terminal "
                             "escape, a NUL); none are kept", what=what))  # fmt: skip
    return text


def line(note: Note) -> bytes:
    return _encode(note) + b"\n"


def read(data: bytes, where: str) -> tuple[list[Annotation], list[str]]:
    """Every note in order (a retracted one marked), and what was wrong: a line that cannot
    be read is skipped and named by where and line, and costs that note only."""
    notes: dict[int, Annotation] = {}
    problems: list[str] = []
    for n, note in sidelog.entries(data, _decode, where, A_NOTE, problems):
        if note.retract is not None:
            taken = notes.get(note.retract)
            if taken is not None and taken.retracted_by is None:
                notes[note.retract] = msgspec.structs.replace(taken, retracted_by=n)
            continue
        notes[n] = Annotation(n=n, note=note)
    return list(notes.values()), problems
