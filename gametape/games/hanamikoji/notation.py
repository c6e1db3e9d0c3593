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
    artist_of,
    artist_words,
    card_name,
    perform_order,
)
from gametape.messages import Many, Message, count_of, many, say, seat_of, term

USAGE = say(
    "hanamikoji.usage",
    "expected `assign PLAYER perform=CARD hidden=CARD sacrifice=CARD vote=CARD` or "
    "`PLAYER PERFORM HIDDEN SACRIFICE VOTE` (short: `a r8 b5 g4 v7`, `?` if not seen)",
)


def parse_card(text: str) -> int:
    digits = text.lstrip("abcdefghijklmnopqrstuvwxyz")
    colour = text[: len(text) - len(digits)]
    card = number(digits)
    if card is None or not 1 <= card <= CARDS:
        raise NotationError(
            say(
                "hanamikoji.not-a-card",
                "{text!r} is not a card: cards are a colour and a number 1-14, e.g. red8",
                text=text,
            )
        )
    if colour and not ARTISTS[artist_of(card)].startswith(colour):
        a = artist_of(card)
        raise NotationError(
            say(
                "hanamikoji.wrong-colour",
                "{card} is {artist} performer ({letters}{first} and {letters}{second} are), "
                "not {colour}",
                card=card,
                artist=say(
                    "hanamikoji.an", "an {colour}", colour=term("hanamikoji.colour", ARTISTS[a])
                )
                if ARTISTS[a][0] in "aeiou"
                else say(
                    "hanamikoji.a", "a {colour}", colour=term("hanamikoji.colour", ARTISTS[a])
                ),
                letters=ARTISTS[a],
                first=a + 1,
                second=a + 8,
                colour=colour,
            )
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
        raise NotationError(
            say("hanamikoji.cannot-read", "cannot read {text!r}; {usage}", text=text, usage=USAGE)
        )
    player = seat_named(state.setup.players, words[0], seat)
    zones: dict[str, int | None] = {}
    if all("=" not in w for w in words[1:]) and len(words) != 5:
        raise NotationError(
            say(
                "hanamikoji.four-cards",
                "{count} named: an assignment is four cards, in the order perform hidden "
                "sacrifice vote (? for one not seen), e.g. a r8 ? ? v7",
                count=count_of(len(words) - 1, "card"),
            )
        )
    if len(words) == 5 and all("=" not in w for w in words[1:]):
        zones = dict(zip(ZONES, map(_card_or_unknown, words[1:]), strict=True))
    else:
        for word in words[1:]:
            zone, sep, card = word.partition("=")
            if not sep or zone not in ZONES:
                raise NotationError(
                    say(
                        "hanamikoji.not-a-zone",
                        "{word!r} is not ZONE=CARD with a zone of {zones}",
                        word=word,
                        zones=", ".join(ZONES),
                    )
                )
            if zone in zones:
                raise NotationError(
                    say("hanamikoji.zone-twice", "zone {zone} is named twice", zone=zone)
                )
            zones[zone] = _card_or_unknown(card)
    missing = [z for z in ZONES if z not in zones]
    if missing:
        raise NotationError(
            say(
                "hanamikoji.missing-zone",
                "missing zone {zones}: an assignment puts one card in each of perform, hidden, "
                "sacrifice and vote (? if not seen)",
                zones=", ".join(missing),
            )
        )
    if zones["perform"] is None or zones["vote"] is None:
        raise NotationError(
            say(
                "hanamikoji.name-shown",
                "the performed and voted cards are shown at the round's end: name them",
            )
        )
    return HanamikojiAssign(player=player, **zones)  # type: ignore[arg-type]


def assign_said(event: Event) -> str:
    """An assignment as its own player's page writes it, without the player's name."""
    assert isinstance(event, HanamikojiAssign)

    def shown(card: int | None) -> str:
        return "?" if card is None else card_name(card)

    return (
        f"assign perform={shown(event.perform)} hidden={shown(event.hidden)} "
        f"sacrifice={shown(event.sacrifice)} vote={shown(event.vote)}"
    )


def notation(state: HanamikojiState, event: Event) -> str:
    if not isinstance(event, HanamikojiAssign):
        raise NotationError(
            say("hanamikoji.not-a-move", "not a Hanamikoji move: {event}", event=repr(event))
        )
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
) -> Message:
    """What an assignment changed, as everyone sees it (an assignment is secret until the
    round resolves, so the line says only that it was made)."""
    assert isinstance(event, HanamikojiAssign)
    names = before.setup.players
    if after.round == before.round and after.outcome is None:
        return say(
            "hanamikoji.assigned-in-secret",
            "{player} assigned four cards in secret (round {round})",
            player=seat_of(names, event.player),
            round=before.round,
        )
    record = after.rounds[-1]
    parts: list[Message] = []
    for z in perform_order(*record.zones):
        who = seat_of(names, z.player)
        got = record.captured[z.player]
        if got is not None:
            parts.append(
                say(
                    "hanamikoji.captured",
                    "{player} captured {artist} with {card}",
                    player=who,
                    artist=artist_words(got),
                    card=card_name(z.perform),
                )
            )
        else:
            parts.append(
                say(
                    "hanamikoji.became-a-vote",
                    "{player}'s {card} became a vote",
                    player=who,
                    card=card_name(z.perform),
                )
            )
    parts.extend(
        say(
            "hanamikoji.voted",
            "{player} voted {card}",
            player=seat_of(names, z.player),
            card=card_name(z.vote),
        )
        for z in record.zones
    )
    text = say(
        "hanamikoji.round",
        "round {round}: {parts}",
        round=record.round,
        parts=Many((many(parts[:2], "; "), many(parts[2:])), "; "),
    )
    if after.outcome:
        return say(
            "hanamikoji.game-over",
            "{what} — game over: {first} {first_score}, {second} {second_score}",
            what=text,
            first=seat_of(names, 0),
            first_score=after.score(0),
            second=seat_of(names, 1),
            second_score=after.score(1),
        )
    return text


# The game's own words that its code names only as data, so that its catalogues list them
# (gametape.catalogues reads these calls): the artists' colours, the outcomes, the kinds of
# event a replay jumps between and the columns of its reports.
GLOSSARY = (
    term("hanamikoji.colour", "red"),
    term("hanamikoji.colour", "orange"),
    term("hanamikoji.colour", "yellow"),
    term("hanamikoji.colour", "green"),
    term("hanamikoji.colour", "blue"),
    term("hanamikoji.colour", "indigo"),
    term("hanamikoji.colour", "violet"),
    term("hanamikoji.outcome", "win"),
    term("hanamikoji.outcome", "draw"),
    term("hanamikoji.outcome", "terminated"),
    term("hanamikoji.kind", "assign"),
    term("hanamikoji.kind", "round"),
    term("hanamikoji.column", "ties_lost"),
    term("hanamikoji.column", "artists"),
    term("hanamikoji.column", "votes"),
    term("hanamikoji.column", "hidden"),
    term("hanamikoji.column", "ties lost"),
)
