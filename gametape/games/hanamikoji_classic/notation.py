"""Notation for the published Hanamikoji: a verb and the geishas of the cards.

``secret pink``, ``trade red blue``, ``gift red blue blue``, ``compete red blue / green pink``,
``choose blue``, ``choose green pink``; at a real table ``secret`` and ``trade`` without cards
(unseen) and ``show ann pink`` for a secret card shown at scoring. A geisha is her colour or
its first letter; letters may run together (``g rbb``, ``c rb gp``).
"""

from __future__ import annotations

from gametape.engine.moves import seat_named, split_words
from gametape.engine.ruleset import NotationError
from gametape.events.base import Event, Move
from gametape.games.hanamikoji_classic.events import (
    GEISHAS,
    ClassicChoose,
    ClassicCompete,
    ClassicDeal,
    ClassicGift,
    ClassicReveal,
    ClassicSecret,
    ClassicTrade,
)
from gametape.games.hanamikoji_classic.rules import (
    WHAT,
    ClassicState,
    action_of,
    card_name,
    geisha,
    geishas,
)
from gametape.messages import Many, Message, many, say, seat_of, term

USAGE = say(
    "hanamikoji-classic.usage",
    "expected `secret CARD`, `trade CARD CARD`, `gift CARD CARD CARD`, "
    "`compete CARD CARD / CARD CARD`, `choose CARD(S)` or `show PLAYER CARD` "
    "(short: `s p`, `t rb`, `g rbb`, `c rb gp`, `x b`)",
)
VERBS = {
    "secret": "secret",
    "s": "secret",
    "trade": "trade",
    "t": "trade",
    "gift": "gift",
    "g": "gift",
    "compete": "compete",
    "competition": "compete",
    "c": "compete",
    "choose": "choose",
    "x": "choose",
    "show": "show",
    "reveal": "show",
}
LETTERS = {name[0]: g for g, name in enumerate(GEISHAS)}


def parse_cards(words: list[str]) -> list[int | None]:
    """Geishas from words: full colour names, letters, or letters run together; ? unknown."""
    cards: list[int | None] = []
    for word in words:
        if word in ("?", "/", "-"):
            if word == "?":
                cards.append(None)
            continue
        if word in GEISHAS:
            cards.append(GEISHAS.index(word))
            continue
        for letter in word:
            if letter not in LETTERS:
                raise NotationError(
                    say(
                        "hanamikoji-classic.not-a-geisha",
                        "{word!r}: a geisha is one of {geishas} (or its first letter)",
                        word=word,
                        geishas=", ".join(GEISHAS),
                    )
                )
            cards.append(LETTERS[letter])
    return cards


def _known(cards: list[int | None], what: str) -> list[int]:
    """The cards named, each known: a ``what`` (an action, ``WHAT``) shows its cards."""
    known = [c for c in cards if c is not None]
    if len(known) < len(cards):
        raise NotationError(
            say(
                "hanamikoji-classic.name-shown-cards",
                "the cards of a {what} are shown to both players: name them",
                what=WHAT[what],
            )
        )
    return known


def parse_move(state: ClassicState, text: str, seat: int | None) -> Event:
    words = split_words(text.lower())
    if not words or words[0] not in VERBS:
        raise NotationError(
            say(
                "hanamikoji-classic.cannot-read",
                "cannot read {text!r}; {usage}",
                text=text,
                usage=USAGE,
            )
        )
    verb = VERBS[words[0]]
    if verb == "show":
        if len(words) != 3:
            raise NotationError(
                say(
                    "hanamikoji-classic.show-usage",
                    "expected `show PLAYER CARD`; {usage}",
                    usage=USAGE,
                )
            )
        player = seat_named(state.setup.players, words[1], seat)
        shown = _known(parse_cards(words[2:]), "reveal")
        if len(shown) != 1:
            raise NotationError(
                say("hanamikoji-classic.show-one", "show one card: the secret card")
            )
        return ClassicReveal(player=player, card=shown[0])
    cards = parse_cards(words[1:])
    if verb == "choose":
        chooser = 1 - state.offer.player if state.offer is not None else (seat or 0)
        return ClassicChoose(
            player=chooser if seat is None else seat, take=tuple(_known(cards, "choose"))
        )
    actor = state.current if seat is None else seat
    if verb == "secret":
        if len(cards) > 1:
            raise NotationError(say("hanamikoji-classic.secret-one", "a secret is one card"))
        return ClassicSecret(player=actor, card=cards[0] if cards else None)
    if verb == "trade":
        if len(cards) not in (0, 2) or (None in cards and cards != [None, None]):
            raise NotationError(
                say(
                    "hanamikoji-classic.trade-two",
                    "a trade-off is two cards (or none named, at a table)",
                )
            )
        if not cards or None in cards:
            return ClassicTrade(player=actor, cards=None)
        first, second = _known(cards, "trade")
        return ClassicTrade(player=actor, cards=(first, second))
    if verb == "gift":
        known = _known(cards, "gift")
        if len(known) != 3:
            raise NotationError(say("hanamikoji-classic.gift-three", "a gift is three cards"))
        return ClassicGift(player=actor, cards=(known[0], known[1], known[2]))
    known = _known(cards, "compete")
    if len(known) != 4:
        raise NotationError(
            say(
                "hanamikoji-classic.compete-four",
                "a competition is two pairs: four cards, the first two a pair",
            )
        )
    return ClassicCompete(player=actor, pairs=((known[0], known[1]), (known[2], known[3])))


def _names(cards: tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


def notation(state: ClassicState, event: Event) -> str:
    if isinstance(event, ClassicDeal):
        return f"deal round {event.round}"
    if isinstance(event, ClassicSecret):
        return "secret" + (f" {card_name(event.card)}" if event.card is not None else "")
    if isinstance(event, ClassicTrade):
        return "trade" + (f" {_names(event.cards)}" if event.cards is not None else "")
    if isinstance(event, ClassicGift):
        return f"gift {_names(event.cards)}"
    if isinstance(event, ClassicCompete):
        return f"compete {_names(event.pairs[0])} / {_names(event.pairs[1])}"
    if isinstance(event, ClassicChoose):
        return f"choose {_names(event.take)}"
    if isinstance(event, ClassicReveal):
        name = state.setup.players[event.player]
        return f"show {chr(34) + name + chr(34) if ' ' in name else name} {card_name(event.card)}"
    raise NotationError(
        say(
            "hanamikoji-classic.not-a-move",
            "not a hanamikoji-classic move: {event}",
            event=repr(event),
        )
    )


def describe(
    before: ClassicState, event: Event, after: ClassicState, seat: int | None = None
) -> Message:
    names = before.setup.players
    text = _action(before, event, after, seat)
    if len(after.history) > len(before.history):
        record = after.history[-1]
        won = many(
            say(
                "hanamikoji-classic.won",
                "{player} {points} points, {geishas} geishas",
                player=seat_of(names, s),
                points=after.points(s),
                geishas=after.geishas(s),
            )
            for s in (0, 1)
        )
        text = say(
            "hanamikoji-classic.scored",
            "{what} — round {round} scored: {won}",
            what=text,
            round=record.round,
            won=Many(won.items, "; "),
        )
    if after.outcome and not before.outcome and after.winner is not None:
        text = say(
            "hanamikoji-classic.wins",
            "{what} — {player} wins by {goal}",
            what=text,
            player=seat_of(names, after.winner),
            goal=term("hanamikoji-classic.goal", str(after.decided_by)),
        )
    return text


def _action(before: ClassicState, event: Event, after: ClassicState, seat: int | None) -> Message:
    """What one event did, as ``seat`` is told it."""
    names = before.setup.players
    if isinstance(event, ClassicDeal):
        return say(
            "hanamikoji-classic.dealt",
            "round {round}: the cards are dealt; {player} starts",
            round=event.round,
            player=seat_of(names, after.first),
        )
    if not isinstance(event, Move):
        return say("core.move-written", "{move}", move=str(event))
    who = seat_of(names, event.player)
    shown = seat is None or seat == event.player
    if isinstance(event, ClassicSecret):
        if shown and event.card is not None:
            return say(
                "hanamikoji-classic.kept-named",
                "{player} kept a card secret ({card})",
                player=who,
                card=geisha(event.card),
            )
        return say("hanamikoji-classic.kept", "{player} kept a card secret", player=who)
    if isinstance(event, ClassicTrade):
        if shown and event.cards is not None:
            return say(
                "hanamikoji-classic.traded-named",
                "{player} traded off two cards ({cards})",
                player=who,
                cards=geishas(event.cards),
            )
        return say("hanamikoji-classic.traded", "{player} traded off two cards", player=who)
    if isinstance(event, ClassicGift):
        return say(
            "hanamikoji-classic.offers-gift",
            "{player} offers {cards} as a gift",
            player=who,
            cards=geishas(event.cards),
        )
    if isinstance(event, ClassicCompete):
        return say(
            "hanamikoji-classic.offers-competition",
            "{player} offers a competition: {first} or {second}",
            player=who,
            first=geishas(event.pairs[0]),
            second=geishas(event.pairs[1]),
        )
    if isinstance(event, ClassicChoose):
        return say(
            "hanamikoji-classic.takes",
            "{player} takes {cards}",
            player=who,
            cards=geishas(event.take),
        )
    if isinstance(event, ClassicReveal):
        return say(
            "hanamikoji-classic.shows-secret",
            "{player} shows the secret card: {card}",
            player=who,
            card=geisha(event.card),
        )
    return say("core.move-written", "{move}", move=str(event))


def kinds(before: ClassicState, event: Event, after: ClassicState) -> tuple[str, ...]:
    """The action (secret, trade, gift, compete, choose, reveal), ``round`` for a deal, and
    ``scoring`` for the event that scored a round."""
    kind = "round" if isinstance(event, ClassicDeal) else action_of(event)
    return (kind, "scoring") if len(after.history) > len(before.history) else (kind,)


# The game's own words that its code names only as data, so that its catalogues list them
# (gametape.catalogues reads these calls): the geishas, the actions, the goals, the kinds of
# event a replay jumps between and the columns of its reports.
GLOSSARY = (
    term("hanamikoji-classic.geisha", "violet"),
    term("hanamikoji-classic.geisha", "red"),
    term("hanamikoji-classic.geisha", "yellow"),
    term("hanamikoji-classic.geisha", "blue"),
    term("hanamikoji-classic.geisha", "orange"),
    term("hanamikoji-classic.geisha", "green"),
    term("hanamikoji-classic.geisha", "pink"),
    term("hanamikoji-classic.action", "secret"),
    term("hanamikoji-classic.action", "trade"),
    term("hanamikoji-classic.action", "gift"),
    term("hanamikoji-classic.action", "compete"),
    term("hanamikoji-classic.goal", "points"),
    term("hanamikoji-classic.goal", "geishas"),
    term("hanamikoji-classic.outcome", "win"),
    term("hanamikoji-classic.outcome", "terminated"),
    term("hanamikoji-classic.kind", "secret"),
    term("hanamikoji-classic.kind", "trade"),
    term("hanamikoji-classic.kind", "gift"),
    term("hanamikoji-classic.kind", "compete"),
    term("hanamikoji-classic.kind", "choose"),
    term("hanamikoji-classic.kind", "reveal"),
    term("hanamikoji-classic.kind", "round"),
    term("hanamikoji-classic.kind", "scoring"),
    term("hanamikoji-classic.column", "action"),
    term("hanamikoji-classic.column", "times"),
    term("hanamikoji-classic.column", "won"),
    term("hanamikoji-classic.column", "points"),
    term("hanamikoji-classic.column", "geishas"),
    term("hanamikoji-classic.column", "rounds"),
    term("hanamikoji-classic.column", "first action"),
)
