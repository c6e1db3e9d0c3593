"""Messages: what the tool says about a game (a move described, a move refused, a claim in
dispute) as data, rendered into words for a reader.

A message is an id (``hanabi.discard-at-8``), its default English text with a ``{name}`` per
parameter, and typed parameters: a number, a seat, a game's own word (``Term``: a suit, a
card), a list, another message, or text a person typed (a move as written). The words are a
rendering: ``render`` gives the English text, the one place a reader's language comes in.
Front-ends and scripts take the message whole (``Message`` is a msgspec Struct: a refusal's
JSON carries it), so nobody reads parts back out of a sentence.

A message is made where it is said, gettext's way, so its id, text and parameters sit
together and a catalogue can be extracted from the code::

    raise RuleViolation(say("hanabi.discard-at-8", "{player} cannot discard with {tokens} "
                            "clue tokens", player=seat_of(players, s), tokens=8), R_DISCARD_8)
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from functools import lru_cache
from typing import Literal, TypeAlias

import msgspec

ID = re.compile(r"[a-z][a-z0-9-]*(\.[a-z0-9-]+)+")  # game.word or game.part.word


class Seat(msgspec.Struct, frozen=True, tag="seat"):
    """A player, by seat (counted from 0) and name: rendered as the name."""

    index: int
    name: str


class Term(msgspec.Struct, frozen=True, tag="term"):
    """One of a game's own words (a suit, a card, a season), by its kind and its English
    text (``hanabi.suit``, ``Dark Rainbow``): rendered as the word in the reader's language."""

    kind: str
    text: str


class At(msgspec.Struct, frozen=True, tag="at"):
    """An earlier event, as a ruleset counts them (the k-th applied since the setup); the
    fold names it by its seq (``locate``) before the message is shown."""

    event: int


class Count(msgspec.Struct, frozen=True, tag="count"):
    """A number of things, in the word its number takes (``1 card``, ``3 cards``)."""

    n: int
    one: str
    other: str


class Many(msgspec.Struct, frozen=True, tag="many"):
    """A list: ``and`` (``ann, ben and cat``), ``or``, or items joined by ``sep``."""

    items: tuple[Param, ...]
    sep: Literal["and", "or", ", ", "; ", " ", " · ", "+", ""] = ", "


class Message(msgspec.Struct, frozen=True, tag="message"):
    """Something said: an id, its English text and its typed parameters."""

    id: str
    text: str
    params: dict[str, Param] = {}

    def __str__(self) -> str:
        return render(self)


Param: TypeAlias = int | float | str | Seat | Term | At | Count | Many | Message


def say(id: str, text: str, /, **params: Param) -> Message:
    """The message ``id``: ``text`` with ``params`` for its ``{names}``. A name without a
    parameter, or a parameter without a name, is a bug in the caller (ValueError)."""
    named = names(text)
    if named != params.keys():
        raise ValueError(f"message {id}: {sorted(named)} named, {sorted(params)} given")
    return Message(id, text, params)


def term(kind: str, text: str) -> Term:
    """A game's own word (``term("hanabi.suit", "red")``)."""
    return Term(kind, text)


def seat_of(players: Sequence[str], index: int) -> Seat:
    """Seat ``index`` of ``players``."""
    return Seat(index, players[index])


def seats_of(players: Sequence[str], indices: Iterable[int], sep: str = "and") -> Many:
    """Seats as a list (``ann and ben``)."""
    return Many(tuple(seat_of(players, i) for i in indices), sep)  # type: ignore[arg-type]


def count_of(n: int, one: str, other: str = "") -> Count:
    """``n`` things: ``count_of(3, "card")`` reads ``3 cards`` (``other``: an irregular
    plural)."""
    return Count(n, one, other or one + "s")


def many(items: Iterable[Param], sep: str = ", ") -> Many:
    """Items as a list."""
    return Many(tuple(items), sep)  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def names(text: str) -> frozenset[str]:
    """The parameter names a message's text uses (each text read once: a board says many)."""
    return frozenset(
        field.split(".")[0] for _, field, _, _ in string.Formatter().parse(text) if field
    )


class Words:
    """How messages read in a language: each message's text, a game's own words, the words
    of a list and of a count, and text a person typed. English, the default, is the texts
    as the code says them; a language (the next issue) and the pseudo-language below give
    their own."""

    def text(self, id: str, text: str) -> str:
        return text

    def term(self, kind: str, text: str) -> str:
        return text

    def word(self, text: str) -> str:  # "and", "or", a count's "card"/"cards"
        return text

    def typed(self, text: str) -> str:  # a name, notation, a line a person typed
        return text

    def count(self, n: int, one: str, other: str) -> str:  # the noun of a count
        return one if n == 1 else other

    def digits(self, text: str) -> str:  # a number written, in the language's digits
        return text


ENGLISH = Words()
_current: ContextVar[Words] = ContextVar("words", default=ENGLISH)


def use(words: Words) -> None:
    """Render messages in ``words``' language from now on, in this context (a command; a
    request of the server, each in its own)."""
    _current.set(words)


def current() -> Words:
    """The words messages are rendered in now (English unless ``use`` chose others)."""
    return _current.get()


class Pseudo(Words):
    """A pseudo-language for tests: every word from a message is accented and padded (what
    a translation would make of it), and text a person typed is marked ⟦…⟧, so whatever is
    left in plain letters came from no catalogue."""

    lang = "qps"
    _ACCENTS = str.maketrans(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "àƀçďéƒĝĥîĵķĺṁñöƥʠŕšţûṽŵẋýžÀɃÇĎÉƑĜĤÎĴĶĹṀÑÖƤʠŔŠŢÛṼŴẊÝŽ",
    )

    def _pseudo(self, text: str) -> str:
        parts = []
        for literal, field, spec, conversion in string.Formatter().parse(text):
            parts.append(literal.replace("{", "{{").replace("}", "}}").translate(self._ACCENTS))
            if field is not None:
                parts.append(
                    "{"
                    + field
                    + (f"!{conversion}" if conversion else "")
                    + (f":{spec}" if spec else "")
                    + "}"
                )
        return "".join(parts) + _padding(text)

    def text(self, id: str, text: str) -> str:
        return self._pseudo(text)

    def template(self, text: str) -> str:
        """A page template's text (``%(name)s`` placeholders, ``%%`` a percent sign)."""
        parts = re.split(r"(%\(\w+\)[sd]|%%)", text)
        said = "".join(p if i % 2 else p.translate(self._ACCENTS) for i, p in enumerate(parts))
        return said + _padding(text)

    def term(self, kind: str, text: str) -> str:  # a {placeholder} in it is kept
        return re.sub(r"[^{}]+(?![^{]*})", lambda m: m.group().translate(self._ACCENTS), text)

    def word(self, text: str) -> str:
        return text.translate(self._ACCENTS)

    def typed(self, text: str) -> str:
        return f"⟦{text}⟧"

    def count(self, n: int, one: str, other: str) -> str:
        return (one if n == 1 else other).translate(self._ACCENTS)


def _padding(text: str) -> str:
    """40% of ``text``'s length, in words of at most six dots: a line may break in it, as
    in a translation's longer words."""
    dots = "·" * (len(text) * 2 // 5)
    return " ".join(dots[i : i + 6] for i in range(0, len(dots), 6))


def render(message: Message | Param, words: Words | None = None) -> str:
    """The words of a message (or one parameter), in ``words``' language (by default the
    one chosen for this context: ``use``)."""
    if words is None:
        words = _current.get()
    if isinstance(message, Message):
        if not message.params and words is ENGLISH:  # a label: its text as it is
            return message.text
        values = {k: _value(v, words) for k, v in message.params.items()}
        template = words.text(message.id, message.text)
        if type(words).digits is Words.digits:  # numbers as Python writes them
            return template.format_map(values)
        return _Numbers(words).vformat(template, (), values)
    value = _value(message, words)
    return words.digits(str(value)) if isinstance(value, int | float) else str(value)


class _Numbers(string.Formatter):
    """Formats a message whose numbers are written in its language's digits."""

    def __init__(self, words: Words) -> None:
        self.words = words

    def format_field(self, value: object, format_spec: str) -> str:
        said = format(value, format_spec)
        return self.words.digits(said) if isinstance(value, int | float) else said


def _value(param: Param, words: Words) -> int | float | str:
    if isinstance(param, int | float):
        return param
    if isinstance(param, str):
        return words.typed(param)
    if isinstance(param, Seat):
        return words.typed(param.name)
    if isinstance(param, Term):
        return words.term(param.kind, param.text)
    if isinstance(param, At):
        return param.event
    if isinstance(param, Count):
        return f"{words.digits(str(param.n))} {words.count(param.n, param.one, param.other)}"
    if isinstance(param, Many):
        items = [render(i, words) for i in param.items]
        if param.sep in ("and", "or") and len(items) > 1:
            comma = words.word(", ")
            return f"{comma.join(items[:-1])} {words.word(param.sep)} {items[-1]}"
        if param.sep in ("and", "or"):
            return "".join(items)
        return (words.word(param.sep) if param.sep in (", ", "; ") else param.sep).join(items)
    return render(param, words)


def text_of(said: Message | str | None) -> str:
    """Words that are a message, or notation already written (``pick 14 row=1``), as words."""
    if said is None:
        return ""
    return render(said) if isinstance(said, Message) else said


def locate(message: Message, seqs: Sequence[int]) -> Message:
    """``message`` with each earlier event (``At``) named by its seq: ``seqs[k - 1]`` is the
    k-th applied."""

    def placed(p: Param) -> Param:
        if isinstance(p, At):
            return seqs[p.event - 1] if 0 < p.event <= len(seqs) else p.event
        if isinstance(p, Many):
            return Many(tuple(placed(i) for i in p.items), p.sep)
        if isinstance(p, Message):
            return locate(p, seqs)
        return p

    return Message(message.id, message.text, {k: placed(v) for k, v in message.params.items()})
