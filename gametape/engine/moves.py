"""Small pieces several rulesets share: naming players in notation, gathering simultaneous
moves. Nothing here knows any one game."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TypeVar

from gametape.errors import NotationError
from gametape.messages import Many, Message, say, seat_of
from gametape.text import person

M = TypeVar("M")

# ASCII digits only (not ١ or １), no sign or 007, at most 9 digits: no move or option needs
# more, and a 5,000-digit "slot" is refused like any other word that is not a number.
_NUMBER = re.compile(r"(0|[1-9][0-9]{0,8})\Z")
# A move is a few words; a longer line is refused before it is read at all.
MAX_MOVE = 500
_WORD = re.compile(r"\s+|\"[^\"]*\"|'[^']*'|[^\s\"']+|[\"']")


MAX_NAME = 40
R_NAMES = say(
    "core.rule.names",
    "player names are 1-{most} printable characters, without spaces at either end and "
    'without a ", and differ from each other',
    most=MAX_NAME,
)


def names_problem(players: Sequence[str]) -> Message | None:
    """What is wrong with a game's player names, if anything (one rule for new games,
    imports and validation)."""
    return _names_problem(tuple(players))


@functools.lru_cache(maxsize=1024)
def _names_problem(players: tuple[str, ...]) -> Message | None:
    # kept for the tables a store holds again and again: every game validated or indexed
    # asks (a frozen Message, so the one answer serves each)
    for name in players:
        if not name or len(name) > MAX_NAME or not name.isprintable() or name != name.strip():
            shown = name if len(name) <= MAX_NAME else name[:MAX_NAME] + "…"
            return say(
                "core.name-not-allowed", "the player name {name!r} is not allowed", name=shown
            )
        if '"' in name:  # a move names a player, and a name with spaces is quoted with "
            return say(
                "core.name-quote",
                'the player name {name!r} has a ": a move could not name them',
                name=name,
            )
    people = [person(n) for n in players]  # "Ann" and "ＡＮＮ" are one person
    if len(set(people)) != len(people):
        first, second = next(
            (a, b)
            for i, a in enumerate(players)
            for b in players[i + 1 :]
            if person(a) == person(b)
        )
        if first == second:
            return say("core.names-same", "two players are called {name!r}", name=first)
        return say(
            "core.names-alike",
            "two players are called {first!r} and {second!r} (one name, ignoring case and width)",
            first=first,
            second=second,
        )
    return None


def number(text: str, what: str = "number") -> int | None:
    """``text`` as a whole number written the one documented way (up to 9 digits), else None."""
    return int(text) if _NUMBER.match(text) else None


def check_length(text: str) -> None:
    """Refuse a move longer than MAX_MOVE characters before anything reads it."""
    if len(text) > MAX_MOVE:
        raise NotationError(
            say(
                "core.move-too-long",
                "a move is at most {most} characters; this one has {length:,}",
                most=MAX_MOVE,
                length=len(text),
            )
        )


def split_words(text: str) -> list[str]:
    """The words of a move; quotes keep a name with spaces whole (``clue "Anna Maria" red``).
    One pass over the text (quotes as in a shell, without escapes)."""
    check_length(text)
    words: list[str] = []
    word: list[str] | None = None
    for match in _WORD.finditer(text):
        piece = match.group()
        if piece[0].isspace():
            if word is not None:
                words.append("".join(word))
            word = None
            continue
        if piece in ('"', "'"):
            raise NotationError(
                say(
                    "core.quote-not-closed",
                    "cannot read {text!r}: a {quote} is not closed",
                    text=text,
                    quote=piece,
                )
            )
        if piece[0] in "\"'":
            piece = piece[1:-1]
        word = [*word, piece] if word is not None else [piece]
    if word is not None:
        words.append("".join(word))
    return words


def seat_named(players: Sequence[str], name: str, seat: int | None = None) -> int:
    """The seat a move names: a full name or a unique prefix of one (ignoring case), or a
    seat number counted from 1. NotationError lists the players.

    ``seat``, when given, is who is moving (``--by``): a move naming someone else is refused.
    """
    key = name.casefold()
    folded = [p.casefold() for p in players]
    if key in folded:
        named = folded.index(key)
    elif (n := number(name)) is not None and 1 <= n <= len(players):
        named = n - 1
    else:
        starts = [i for i, p in enumerate(folded) if key and p.startswith(key)]
        if len(starts) > 1:
            raise NotationError(
                say(
                    "core.name-ambiguous",
                    "{name!r} could be {players}",
                    name=name,
                    players=Many(tuple(seat_of(players, i) for i in starts), "or"),
                )
            )
        if not starts:
            raise NotationError(
                say(
                    "core.no-such-player",
                    "no player {name!r}; the players are {players} (or seats 1-{seats})",
                    name=name,
                    players=Many(tuple(seat_of(players, i) for i in range(len(players)))),
                    seats=len(players),
                )
            )
        named = starts[0]
    if seat is not None and seat != named:
        raise NotationError(
            say(
                "core.by-names-other",
                "the move is {mover}'s but --by names {sender}",
                mover=seat_of(players, named),
                sender=seat_of(players, seat),
            )
        )
    return named


def gather(
    pending: tuple[M | None, ...], seat: int, move: M
) -> tuple[tuple[M | None, ...], list[M] | None]:
    """Record one seat's move in a simultaneous step: the pending moves, and once every seat
    has moved, every seat's move in seat order (else None)."""
    moves = list(pending)
    moves[seat] = move
    complete = [m for m in moves if m is not None]
    return tuple(moves), complete if len(complete) == len(moves) else None
