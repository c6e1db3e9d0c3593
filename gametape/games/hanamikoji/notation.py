"""Hanamikoji notation: ``assign alice perform=red8 hidden=blue5 sacrifice=green4 vote=violet7``.

A card is its artist's colour and its number (``red8``); the number alone (``8``) or the
colour's first letter (``r8``) work too. See docs/notation.md.
"""

from __future__ import annotations

from gametape.engine.moves import number, seat_named, split_words
from gametape.engine.ruleset import NotationError
from gametape.events.base import Event
from gametape.games.hanamikoji.events import ARTISTS, ZONES, HanamikojiAssign
from gametape.games.hanamikoji.rules import (
    CARDS,
    HanamikojiState,
    artist_name,
    artist_of,
    card_name,
    perform_order,
)
from gametape.text import article, plural

USAGE = (
    "expected `assign PLAYER perform=CARD hidden=CARD sacrifice=CARD vote=CARD` or "
    "`PLAYER PERFORM HIDDEN SACRIFICE VOTE` (short: `a r8 b5 g4 v7`, `?` if not seen)"
)


def parse_card(text: str) -> int:
    digits = text.lstrip("abcdefghijklmnopqrstuvwxyz")
    colour = text[: len(text) - len(digits)]
    card = number(digits)
    if card is None or not 1 <= card <= CARDS:
        raise NotationError(
            f"{text!r} is not a card: cards are a colour and a number 1-14, e.g. red8"
        )
    if colour and not ARTISTS[artist_of(card)].startswith(colour):
        a = artist_of(card)
        raise NotationError(
            f"{card} is {article(ARTISTS[a])} performer ({ARTISTS[a]}{a + 1} and "
            f"{ARTISTS[a]}{a + 8} are), not {colour}"
        )
    return card


def _card_or_unknown(text: str) -> int | None:
    return None if text in ("?", "-") else parse_card(text)


def parse_move(state: HanamikojiState, text: str, seat: int | None) -> Event:
    """``assign PLAYER perform=CARD hidden=CARD sacrifice=CARD vote=CARD``, or the cards alone
    in that order (``alice r8 b5 g4 v7``); ``?`` for a card the table did not see."""
    words = split_words(text.lower())
    if words and words[0] == "assign":
        words = words[1:]
    if len(words) < 2:
        raise NotationError(f"cannot read {text!r}; {USAGE}")
    player = seat_named(state.setup.players, words[0], seat)
    zones: dict[str, int | None] = {}
    if all("=" not in w for w in words[1:]) and len(words) != 5:
        raise NotationError(
            f"{plural(len(words) - 1, 'card')} named: an assignment is four cards, in the order "
            "perform hidden sacrifice vote (? for one not seen), e.g. a r8 ? ? v7"
        )
    if len(words) == 5 and all("=" not in w for w in words[1:]):
        zones = dict(zip(ZONES, map(_card_or_unknown, words[1:]), strict=True))
    else:
        for word in words[1:]:
            zone, sep, card = word.partition("=")
            if not sep or zone not in ZONES:
                raise NotationError(f"{word!r} is not ZONE=CARD with a zone of {', '.join(ZONES)}")
            if zone in zones:
                raise NotationError(f"zone {zone} is named twice")
            zones[zone] = _card_or_unknown(card)
    missing = [z for z in ZONES if z not in zones]
    if missing:
        raise NotationError(
            f"missing zone {', '.join(missing)}: an assignment puts one card in "
            "each of perform, hidden, sacrifice and vote (? if not seen)"
        )
    if zones["perform"] is None or zones["vote"] is None:
        raise NotationError("the performed and voted cards are shown at the round's end: name them")
    return HanamikojiAssign(player=player, **zones)  # type: ignore[arg-type]


def notation(state: HanamikojiState, event: Event) -> str:
    if not isinstance(event, HanamikojiAssign):
        raise NotationError(f"not a Hanamikoji move: {event!r}")
    name = state.setup.players[event.player].lower()
    name = f'"{name}"' if " " in name else name

    def shown(card: int | None) -> str:
        return "?" if card is None else card_name(card)

    return (
        f"assign {name} perform={shown(event.perform)} hidden={shown(event.hidden)} "
        f"sacrifice={shown(event.sacrifice)} vote={shown(event.vote)}"
    )


def describe(
    before: HanamikojiState, event: Event, after: HanamikojiState, seat: int | None = None
) -> str:
    """What an assignment changed, as everyone sees it (an assignment is secret until the
    round resolves, so the line says only that it was made)."""
    return _describe(before, event, after)


def _describe(before: HanamikojiState, event: Event, after: HanamikojiState) -> str:
    assert isinstance(event, HanamikojiAssign)
    names = before.setup.players
    who = names[event.player]
    if after.round == before.round and after.outcome is None:
        return f"{who} assigned four cards in secret (round {before.round})"
    record = after.rounds[-1]
    parts = []
    for z in perform_order(*record.zones):
        p = names[z.player]
        got = record.captured[z.player]
        if got is not None:
            parts.append(f"{p} captured {artist_name(got)} with {card_name(z.perform)}")
        else:
            parts.append(f"{p}'s {card_name(z.perform)} became a vote")
    votes = ", ".join(f"{names[z.player]} voted {card_name(z.vote)}" for z in record.zones)
    text = f"round {record.round}: {'; '.join(parts)}; {votes}"
    if after.outcome:
        s0, s1 = after.score(0), after.score(1)
        text += f" — game over: {names[0]} {s0}, {names[1]} {s1}"
    return text
