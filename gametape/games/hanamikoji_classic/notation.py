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
from gametape.games.hanamikoji_classic.rules import ClassicState, action_of, card_name

USAGE = (
    "expected `secret CARD`, `trade CARD CARD`, `gift CARD CARD CARD`, "
    "`compete CARD CARD / CARD CARD`, `choose CARD(S)` or `show PLAYER CARD` "
    "(short: `s p`, `t rb`, `g rbb`, `c rb gp`, `x b`)"
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
                    f"{word!r}: a geisha is one of {', '.join(GEISHAS)} (or its first letter)"
                )
            cards.append(LETTERS[letter])
    return cards


def _known(cards: list[int | None], what: str) -> list[int]:
    known = [c for c in cards if c is not None]
    if len(known) < len(cards):
        raise NotationError(f"the cards of a {what} are shown to both players: name them")
    return known


def parse_move(state: ClassicState, text: str, seat: int | None) -> Event:
    words = split_words(text.lower())
    if not words or words[0] not in VERBS:
        raise NotationError(f"cannot read {text!r}; {USAGE}")
    verb = VERBS[words[0]]
    if verb == "show":
        if len(words) != 3:
            raise NotationError(f"expected `show PLAYER CARD`; {USAGE}")
        player = seat_named(state.setup.players, words[1], seat)
        shown = _known(parse_cards(words[2:]), "shown secret")
        if len(shown) != 1:
            raise NotationError("show one card: the secret card")
        return ClassicReveal(player=player, card=shown[0])
    cards = parse_cards(words[1:])
    if verb == "choose":
        chooser = 1 - state.offer.player if state.offer is not None else (seat or 0)
        return ClassicChoose(
            player=chooser if seat is None else seat, take=tuple(_known(cards, "choice"))
        )
    actor = state.current if seat is None else seat
    if verb == "secret":
        if len(cards) > 1:
            raise NotationError("a secret is one card")
        return ClassicSecret(player=actor, card=cards[0] if cards else None)
    if verb == "trade":
        if len(cards) not in (0, 2) or (None in cards and cards != [None, None]):
            raise NotationError("a trade-off is two cards (or none named, at a table)")
        if not cards or None in cards:
            return ClassicTrade(player=actor, cards=None)
        first, second = _known(cards, "trade-off")
        return ClassicTrade(player=actor, cards=(first, second))
    if verb == "gift":
        known = _known(cards, "gift")
        if len(known) != 3:
            raise NotationError("a gift is three cards")
        return ClassicGift(player=actor, cards=(known[0], known[1], known[2]))
    known = _known(cards, "competition")
    if len(known) != 4:
        raise NotationError("a competition is two pairs: four cards, the first two a pair")
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
    raise NotationError(f"not a hanamikoji-classic move: {event!r}")


def describe(
    before: ClassicState, event: Event, after: ClassicState, seat: int | None = None
) -> str:
    names = before.setup.players
    who = names[event.player] if isinstance(event, Move) else ""
    if isinstance(event, ClassicDeal):
        text = f"round {event.round}: the cards are dealt; {names[after.first]} starts"
    elif isinstance(event, ClassicSecret):
        shown = seat is None or seat == event.player
        card = f" ({card_name(event.card)})" if shown and event.card is not None else ""
        text = f"{who} kept a card secret{card}"
    elif isinstance(event, ClassicTrade):
        shown = seat is None or seat == event.player
        cards = f" ({_names(event.cards)})" if shown and event.cards is not None else ""
        text = f"{who} traded off two cards{cards}"
    elif isinstance(event, ClassicGift):
        text = f"{who} offers {_names(event.cards)} as a gift"
    elif isinstance(event, ClassicCompete):
        text = f"{who} offers a competition: {_names(event.pairs[0])} or {_names(event.pairs[1])}"
    elif isinstance(event, ClassicChoose):
        text = f"{who} takes {_names(event.take)}"
    elif isinstance(event, ClassicReveal):
        text = f"{who} shows the secret card: {card_name(event.card)}"
    else:
        text = str(event)
    if len(after.history) > len(before.history):
        record = after.history[-1]
        won = [f"{names[s]} {after.points(s)} points, {after.geishas(s)} geishas" for s in (0, 1)]
        text += f" — round {record.round} scored: {'; '.join(won)}"
    if after.outcome and not before.outcome and after.winner is not None:
        text += f" — {names[after.winner]} wins by {after.decided_by}"
    return text


def kinds(before: ClassicState, event: Event, after: ClassicState) -> tuple[str, ...]:
    """The action (secret, trade, gift, compete, choose, reveal), ``round`` for a deal, and
    ``scoring`` for the event that scored a round."""
    kind = "round" if isinstance(event, ClassicDeal) else action_of(event)
    return (kind, "scoring") if len(after.history) > len(before.history) else (kind,)
