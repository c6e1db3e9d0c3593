"""Move forms: the shapes of move a seat can make now, word by word.

A game dealt by the tool knows every legal move, and each is its own form (``play 2``). At a
real table the faces are not known, so a move is a form with blanks the table fills in
(``play SLOT CARD``). The recorder's ``?`` lists the forms and Tab completes from them: after
``clue b`` it offers ``ben``, after ``clue ben`` the colours and ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from gametape.engine.moves import split_words
from gametape.messages import Message


class Blank(msgspec.Struct, frozen=True):
    """What one word of a form stands for, for a page that draws a widget per word: its
    ``kind`` (empty: a fixed word; ``slots``: any set of slots, drawn as a checkbox per slot),
    the choices a page ``listed`` (a typist's one-letter short forms left out; ``?``, a card
    nobody said, first, so a list never starts at a face nobody named), and its ``label``
    (``slot``, ``card``)."""

    kind: str = ""
    listed: tuple[str, ...] = ()
    label: Message | None = None
    # the move's field it fills (``card``; ``cards[]`` appends, each blank of the field in
    # turn; ``pairs.0[]`` into a list in a list; empty: each value is fields to merge, as a
    # clue's colour or rank) and, per listed choice, its value there (a card's order for a
    # slot, None for ``?``); empty: the blank's words are sent, which the game reads
    field: str = ""
    values: tuple[Any, ...] = ()


FIXED = Blank()  # a word a form fixes (``play``, a named player)


class MoveForm(msgspec.Struct, frozen=True):
    """One shape of move. ``words``: per position, the words it takes (a literal has one).
    ``shown``: how ``?`` lists it (empty: a short variant, completed but not listed).
    ``note``: what the table must say for it, if anything (a message). ``said``: how a known
    move reads to a person, where its notation is terse (a message: "place 37 in row A") or
    names its own mover (its notation without the name; a phone's button; empty: its
    notation); ``glosses``: the same per word of a known move (``78a``: "78 in row A"; empty:
    the word), for a phone's list that offers the word among others.

    ``move``: a known move's value (the event; None for a form with blanks). ``blanks``: per
    word of a form with blanks, what it stands for (a page builds its widgets from them).
    ``own``: whether it makes the seat's own move (Hanabi's ``see``, a recorder's note of a
    hand, is nobody's: a seat's page does not offer it)."""

    words: tuple[tuple[str, ...], ...]
    shown: str = ""
    note: Message | None = None
    said: Message | str = ""
    glosses: tuple[Message | str, ...] = ()
    move: Any = None
    blanks: tuple[Blank, ...] = ()
    own: bool = True
    # a form with blanks that builds its move as a value: the kind (its event's tag) and the
    # fields it fixes (the player); the blanks fill the others
    kind: str = ""
    fixed: dict[str, Any] = msgspec.field(default_factory=dict)

    @classmethod
    def literal(cls, text: str, move: Any = None, said: Message | str = "") -> MoveForm:
        """A move known whole, written ``text`` (its value ``move``; ``said``: how it reads on
        its own seat's page, if not as written)."""
        return cls(tuple((w,) for w in split_words(text)), text, said=said, move=move)

    @property
    def is_literal(self) -> bool:
        return all(len(w) == 1 for w in self.words)

    def value(self, chosen: Sequence[Sequence[str]]) -> dict[str, Any] | None:
        """The move as a value for the words ``chosen`` per word (several for a set of
        slots), as a phone page builds it (seat.js does the same); None for a form that does
        not build one. A list of nothing but None (``trade ? ?``) is None."""
        if not self.kind:
            return None
        move: dict[str, Any] = {"type": self.kind, **self.fixed}
        for blank, words in zip(self.blanks, chosen, strict=True):
            if not blank.field and not blank.values:
                continue
            values = [blank.values[blank.listed.index(w)] for w in words]
            if blank.kind == "slots":
                values = sorted(set(values))
            if not blank.field:
                for value in values:
                    move.update(value)
                continue
            path = blank.field.removesuffix("[]").split(".")
            into: Any = move
            for step in path[:-1]:
                into = into.setdefault(step, [])
            last: Any = int(path[-1]) if path[-1].isdigit() else path[-1]
            if isinstance(into, list):
                while len(into) <= last:
                    into.append([])
                current = into[last]
            else:
                current = into.get(last, [])
            if blank.field.endswith("[]") or blank.kind == "slots":
                into[last] = [*current, *values]
            else:
                into[last] = values[0] if values else None
        return {k: None if _all_none(v) else v for k, v in move.items()}


def _all_none(value: Any) -> bool:
    """A list of nothing but None (a trade whose cards were not said)."""
    return isinstance(value, list) and bool(value) and all(v is None for v in value)


def _fits(word: str, choices: Sequence[str]) -> bool:
    """Whether a typed word stands for one of ``choices`` (a choice, or a prefix of one)."""
    key = word.casefold()
    return any(c.casefold().startswith(key) for c in choices)


def starting(choices: Iterable[str], typed: str) -> list[str]:
    """The ``choices`` a line typed so far may be the start of (one word, any case)."""
    key = typed.strip().casefold()
    return [] if " " in typed.strip() else [c for c in choices if c.casefold().startswith(key)]


def next_words(forms: Iterable[MoveForm], typed: str) -> list[str]:
    """The words that may come next after ``typed`` (its last word, unless ``typed`` ends in
    a space, is the one being completed), in the order the forms give them."""
    try:
        words = split_words(typed)
    except Exception:  # an open quote: nothing sensible to offer
        return []
    if typed and not typed[-1].isspace() and words:
        done, partial = words[:-1], words[-1]
    else:
        done, partial = words, ""
    offered: dict[str, None] = {}
    for form in forms:
        if len(form.words) <= len(done):
            continue
        if all(_fits(w, choices) for w, choices in zip(done, form.words, strict=False)):
            key = partial.casefold()
            offered.update(
                dict.fromkeys(c for c in form.words[len(done)] if c.casefold().startswith(key))
            )
    return list(offered)


def slot_sets(n: int) -> tuple[str, ...]:
    """Every non-empty set of slots 1..n written as digits in order (``1``, ``13``, ``245``).
    A game that offers a word of these also reads the set as its slots one word each
    (``1 3``): a phone page sends a set picked with checkboxes so."""
    sets = ["".join(str(i + 1) for i in range(n) if mask >> i & 1) for mask in range(1, 1 << n)]
    return tuple(sorted(sets, key=lambda s: (len(s), s)))
