"""Hanamikoji, the published game, as ../shared/rules/hanamikoji-classic.md specifies.

Rounds of eight turns: a turn draws the top card, then takes one of the four actions not yet
used this round. A gift or competition waits for the opponent's choice (their own move). After
the eighth turn the round is scored; the game ends when a player has 11 charm points or 4
geishas, points first. At a real table (deals of unknown order) a card is known when shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import msgspec
from msgspec.structs import replace

from gametape.engine.ruleset import (
    TERMINATED,
    Notice,
    Result,
    RuleViolation,
    hand_not_shown,
    on,
)
from gametape.events.base import Event, Move
from gametape.games.hanamikoji_classic.events import (
    GEISHAS,
    VALUES,
    ClassicChoose,
    ClassicCompete,
    ClassicDeal,
    ClassicGift,
    ClassicReveal,
    ClassicSecret,
    ClassicSetup,
    ClassicTrade,
)
from gametape.messages import At, Many, Message, Param, Term, many, say, seat_of, term

ACTIONS = ("secret", "trade", "gift", "compete")
HAND = 6
PILE = 8
TURNS = 8  # four each (ruling C2: 8 cards in the pile, 8 draws)
UNKNOWN = -1  # a card of a table game not shown yet
DECK = tuple(g for g, v in enumerate(VALUES) for _ in range(v))
POINTS_GOAL = 11
GEISHAS_GOAL = 4

R_SETUP = say(
    "hanamikoji-classic.rule.setup", "two players; the first round's starting player is 0 or 1 (C1)"
)
R_DEAL = say(
    "hanamikoji-classic.rule.deal",
    "each round deals all 21 item cards: one removed, 6 to each player, 8 in the pile",
)
R_TURN = say(
    "hanamikoji-classic.rule.turn", "the players alternate turns, the round's first player first"
)
R_ONCE = say("hanamikoji-classic.rule.once", "each action once per player per round")
R_HAND = say("hanamikoji-classic.rule.hand", "a player acts with cards from their own hand")
R_CHOICE = say(
    "hanamikoji-classic.rule.choice",
    "the opponent chooses one offered card (gift) or one offered pair (competition)",
)
R_PENDING = say(
    "hanamikoji-classic.rule.pending", "the opponent's choice comes before the next turn"
)
R_REVEAL = say(
    "hanamikoji-classic.rule.reveal",
    "at scoring each secret card is shown (at a real table, by a reveal)",
)
R_COUNT = say(
    "hanamikoji-classic.rule.count",
    "a geisha of value v has v item cards; no more are seen in one round (C4)",
)


class Offer(msgspec.Struct, frozen=True, gc=False):
    """A gift or competition waiting for the opponent's choice."""

    player: int
    action: str
    options: tuple[tuple[int, ...], ...]  # gift: three 1-card options; compete: two pairs


class Claim(msgspec.Struct, frozen=True, gc=False):
    """Cards a player named privately at a table this round, a secret card or a trade-off:
    their claim, which only they (and a scribe who entered it) see (ruling C4). ``at`` is the
    event that named them, counted as RuleViolation's refs are."""

    seat: int
    at: int
    action: str  # "secret" or "trade"
    cards: tuple[int, ...]


class RoundScore(msgspec.Struct, frozen=True, gc=False):
    """A scored round: the cards each side had per geisha, and the markers after it."""

    round: int
    first: int
    sides: tuple[tuple[int, ...], ...]
    markers: tuple[int | None, ...]
    secrets: tuple[int | None, ...] = ()  # the secret cards shown at scoring, per seat


class ClassicState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position. Per-player fields are pairs indexed by seat; cards are geisha indices.

    ``phase``: ``deal`` (a round is owed its shuffle), ``act``, ``choose`` (an offer waits),
    ``reveal`` (a table game's secret cards are to be shown), ``over``.
    """

    setup: ClassicSetup
    round: int = 0
    first: int = 0
    current: int = 0
    turn: int = 0
    phase: str = "deal"
    hands: tuple[tuple[int, ...], ...] = ((), ())
    pile: tuple[int, ...] = ()
    removed: int = UNKNOWN
    used: tuple[tuple[str, ...], ...] = ((), ())
    secret: tuple[int | None, ...] = (None, None)
    traded: tuple[tuple[int, ...], ...] = ((), ())
    sides: tuple[tuple[int, ...], ...] = ((0,) * 7, (0,) * 7)
    offer: Offer | None = None
    markers: tuple[int | None, ...] = (None,) * 7
    history: tuple[RoundScore, ...] = ()
    outcome: str | None = None
    winner: int | None = None
    decided_by: str | None = None
    # events applied, and per geisha the events that showed one of her cards this round:
    # the facts of a table game's card accounting (C4)
    applied: int = 0
    seen_at: tuple[tuple[int, ...], ...] = ((),) * 7
    # a table game's claims this round (none void), the disputes among them (each a set of
    # the claims' events), whose secret card was shown at this round's scoring, and every
    # notice of the game so far (claims made void, claims in dispute)
    claims: tuple[Claim, ...] = ()
    disputes: tuple[tuple[int, ...], ...] = ()
    shown: tuple[bool, ...] = (False, False)
    notices: tuple[Notice, ...] = ()

    @property
    def at_table(self) -> bool:
        return self.setup.at_table

    def points(self, seat: int) -> int:
        return sum(VALUES[g] for g, owner in enumerate(self.markers) if owner == seat)

    def geishas(self, seat: int) -> int:
        return sum(1 for owner in self.markers if owner == seat)


def action_of(event: Event) -> str:
    """``secret``, ``trade``, ``gift``, ``compete``, ``choose``, ``reveal`` or ``deal``."""
    return str(event.__struct_config__.tag).rsplit(".", 1)[-1]


def card_name(card: int) -> str:
    return "?" if card == UNKNOWN else GEISHAS[card]


def geisha(card: int) -> Term:
    """A geisha's card as said aloud: her colour (``?``: a card not known)."""
    return term("hanamikoji-classic.geisha", card_name(card))


def geishas(cards: Sequence[int]) -> Many:
    """Cards as said aloud: ``violet violet red``."""
    return Many(tuple(geisha(c) for c in cards), " ")


def start(setup: ClassicSetup) -> ClassicState:
    if len(setup.players) != 2 or setup.first not in (0, 1):
        raise RuleViolation(
            say(
                "hanamikoji-classic.players",
                "{players} players, first seat {first}",
                players=len(setup.players),
                first=setup.first,
            ),
            R_SETUP,
        )
    return ClassicState(setup=setup, first=setup.first, current=setup.first)


# Every event counts in ``applied`` (a table game's cards name the event that showed them).


@on(ClassicDeal)
def _dealt(state: ClassicState, event: ClassicDeal) -> ClassicState:
    return _counted(_deal(state, event))


@on(ClassicChoose)
def _chosen(state: ClassicState, event: ClassicChoose) -> ClassicState:
    return _counted(_choose(state, event))


@on(ClassicReveal)
def _revealed(state: ClassicState, event: ClassicReveal) -> ClassicState:
    return _counted(_reveal(state, event))


@on(ClassicSecret, ClassicTrade, ClassicGift, ClassicCompete)
def _acted(state: ClassicState, event: Action) -> ClassicState:
    return _counted(_act(state, event))


def _counted(after: ClassicState) -> ClassicState:
    return replace(after, applied=after.applied + 1)


def _deal(state: ClassicState, event: ClassicDeal) -> ClassicState:
    waiting = [s for s in (0, 1) if state.phase == "reveal" and not state.shown[s]]
    if waiting and all(state.secret[s] not in (None, UNKNOWN) for s in waiting):
        # a log recorded before ruling C4's revision: a named secret card was not shown at
        # scoring, and its naming scored (docs/format.md, "Versions and upgrades")
        state = _score(replace(state, shown=(True, True)))
        if state.phase == "over":
            raise RuleViolation(
                say("hanamikoji-classic.deal-after-end", "a deal after the game ended"), R_DEAL
            )
    if state.phase != "deal":
        raise RuleViolation(
            say(
                "hanamikoji-classic.deal-mid-round",
                "a deal in the middle of round {round}",
                round=state.round,
            ),
            R_DEAL,
        )
    if event.round != state.round + 1:
        raise RuleViolation(
            say(
                "hanamikoji-classic.deal-wrong-round",
                "a deal for round {round}; round {next} is next",
                round=event.round,
                next=state.round + 1,
            ),
            R_DEAL,
        )
    if event.deck is None:
        if not state.at_table:
            raise RuleViolation(
                say(
                    "hanamikoji-classic.deal-unknown-not-table",
                    'a deal of unknown order (deck null), but the setup does not say "table": '
                    "true (a game recorded at a real table)",
                ),
                R_DEAL,
            )
        deck = (UNKNOWN,) * len(DECK)
    else:
        if state.at_table:
            raise RuleViolation(
                say(
                    "hanamikoji-classic.deal-known-at-table",
                    'a deal of known order in a game recorded at a table (setup "table": true): '
                    "there the deck is null",
                ),
                R_DEAL,
            )
        if sorted(event.deck) != list(DECK):
            raise RuleViolation(
                say(
                    "hanamikoji-classic.deal-wrong-cards",
                    "the deal's deck is not the 21 item cards once each ({cards} cards)",
                    cards=len(event.deck),
                ),
                R_DEAL,
            )
        deck = event.deck
    first = state.setup.first if event.round == 1 else 1 - state.first  # ruling C1
    hands = (tuple(deck[1 : 1 + HAND]), tuple(deck[1 + HAND : 1 + 2 * HAND]))
    fresh = ClassicState(
        setup=state.setup,
        round=event.round,
        first=first,
        current=first,
        phase="act",
        hands=hands,
        pile=tuple(deck[1 + 2 * HAND :]),
        removed=deck[0],
        markers=state.markers,
        history=state.history,
        applied=state.applied,
        notices=state.notices,
    )
    return _draw(fresh)


def _draw(state: ClassicState) -> ClassicState:
    """The player to act draws the top card of the pile (ruling C2)."""
    seat = state.current
    hands = list(state.hands)
    hands[seat] = hands[seat] + state.pile[:1]
    return replace(state, hands=tuple(hands), pile=state.pile[1:])


def _take(state: ClassicState, seat: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The hand after ``cards`` left it; at a table, a card not known there was unknown."""
    hand = list(state.hands[seat])
    for card in cards:
        if not 0 <= card < len(GEISHAS):
            raise RuleViolation(
                say("hanamikoji-classic.no-such-geisha", "there is no geisha {card}", card=card),
                R_HAND,
            )
        if card in hand:
            hand.remove(card)
        elif UNKNOWN in hand:
            hand.remove(UNKNOWN)
        else:
            player, held = seat_of(state.setup.players, seat), state.hands[seat].count(card)
            if not held:
                raise RuleViolation(
                    say(
                        "hanamikoji-classic.none-in-hand",
                        "{player} has no {geisha} card in hand",
                        player=player,
                        geisha=geisha(card),
                    ),
                    R_HAND,
                )
            counted: dict[str, Param] = {
                "player": player,
                "geisha": geisha(card),
                "named": cards.count(card),
            }
            raise RuleViolation(
                say(
                    "hanamikoji-classic.holds-one",
                    "{player} holds 1 {geisha} card, and the move names {named}",
                    **counted,
                )
                if held == 1
                else say(
                    "hanamikoji-classic.holds",
                    "{player} holds {held} {geisha} cards, and the move names {named}",
                    held=held,
                    **counted,
                ),
                R_HAND,
            )
    return tuple(hand)


def _seen(state: ClassicState, cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Count cards shown this round (facts); more than a geisha has is refused naming where
    (C4). Claims never count here: whoever enters a shown card may not see them."""
    if not state.at_table:
        return state.seen_at
    _check_count(state, cards, ())
    this = state.applied + 1  # this event, as the refs count events
    seen = list(state.seen_at)
    for card in cards:
        seen[card] = (*seen[card], this)
    return tuple(seen)


def _check_count(
    state: ClassicState | Any, cards: tuple[int, ...], claims: Sequence[Claim], whose: str = ""
) -> None:
    """Refuse ``cards`` where, with the facts this round (``seen_at``) and ``claims`` (their
    own player's, named by ``whose``), they are more than a geisha has (C4). ``state`` may be
    a view: it reads ``seen_at`` and ``applied`` only."""
    this = state.applied + 1
    for card in dict.fromkeys(cards):
        facts = tuple(r for r in state.seen_at[card] if r != this)
        own = [c for c in claims if card in c.cards]
        named = sum(c.cards.count(card) for c in own)
        shows = cards.count(card)
        if len(state.seen_at[card]) + named + shows <= VALUES[card]:
            continue
        parts: list[Message] = []
        if facts and shows == 1 and not own:
            parts.append(
                say(
                    "hanamikoji-classic.all-seen", "all seen already (at {seqs})", seqs=_seqs(facts)
                )
            )
        elif facts:
            parts.append(
                say(
                    "hanamikoji-classic.seen",
                    "{count} seen already (at {seqs})",
                    count=len(state.seen_at[card]),
                    seqs=_seqs(facts),
                )
            )
        if own:
            parts.append(
                say(
                    "hanamikoji-classic.named-by",
                    "{count} named by {whose} (at {seqs})",
                    count=named,
                    whose=whose,
                    seqs=_seqs([c.at for c in own]),
                )
            )
        if not parts:
            said = say(
                "hanamikoji-classic.this-move-shows", "and this move shows {shows}", shows=shows
            )
        elif shows == 1 and not own:
            said = parts[0]
        else:
            said = say(
                "hanamikoji-classic.and-this-move",
                "{parts} and {shows} in this move",
                parts=Many(tuple(parts), "and"),
                shows=shows,
            )
        raise RuleViolation(
            say(
                "hanamikoji-classic.count",
                "one {geisha} card too many this round: she has {has}, {said}",
                geisha=geisha(card),
                has=VALUES[card],
                said=said,
            ),
            R_COUNT,
        )


def _seqs(events: Sequence[int]) -> Many:
    """``seq N`` for each of ``events`` (once each)."""
    return many(
        say("hanamikoji-classic.at-seq", "seq {at}", at=At(e)) for e in dict.fromkeys(events)
    )


def _claimed(state: ClassicState, seat: int, action: str, cards: tuple[int, ...]) -> ClassicState:
    """A private naming at a table: checked against the facts (anyone may know them), then
    kept as its player's claim (C4)."""
    _check_count(state, cards, ())
    claim = Claim(seat=seat, at=state.applied + 1, action=action, cards=cards)
    return _settled(replace(state, claims=(*state.claims, claim)))


WHAT = {
    "secret": say("hanamikoji-classic.what-secret", "secret card"),
    "trade": say("hanamikoji-classic.what-trade", "trade-off"),
    "gift": say("hanamikoji-classic.what-gift", "gift"),
    "compete": say("hanamikoji-classic.what-compete", "competition"),
    "reveal": say("hanamikoji-classic.what-reveal", "reveal"),
    "choose": say("hanamikoji-classic.what-choose", "choice"),
}


def _settled(state: ClassicState, shower: int | None = None, action: str = "") -> ClassicState:
    """After an event at a table: claims the facts now contradict are void, and claims that
    contradict each other are in dispute (C4); each new one is a notice. ``shower`` showed
    cards by ``action`` (a fact), if the event did."""
    if not state.at_table:
        return state
    this = state.applied + 1
    names = state.setup.players
    notices = list(state.notices)
    kept = []
    for claim in state.claims:
        over = next(
            (g for g in claim.cards if len(state.seen_at[g]) + claim.cards.count(g) > VALUES[g]),
            None,
        )
        if over is None:
            kept.append(claim)
            continue
        by = (
            say(
                "hanamikoji-classic.whose-action",
                "{player}'s {action}",
                player=seat_of(names, shower),
                action=WHAT[action],
            )
            if shower is not None
            else say("hanamikoji-classic.a-card", "a card")
        )
        shown: dict[str, Param] = {
            "what": WHAT[claim.action],
            "cards": geishas(claim.cards),
            "by": by,
            "geisha": geisha(over),
            "has": VALUES[over],
        }
        notices.append(
            _void(
                claim,
                say(
                    "hanamikoji-classic.void",
                    "{owner}'s {what} at seq {at} named {cards}, and {by} at seq {now} showed "
                    "{geisha}: she has {has}, so the naming is void",
                    owner=seat_of(names, claim.seat),
                    at=At(claim.at),
                    now=At(this),
                    **shown,
                ),
                say(
                    "hanamikoji-classic.void-told",
                    "your {what} named {cards}, and {by} showed {geisha}: she has {has}; your "
                    "naming no longer counts",
                    **shown,
                ),
                this,
            )
        )
    disputes = _disputes(state, kept)
    for group in disputes:
        if group in state.disputes:
            continue
        claims = [c for c in kept if c.at in group]
        seats = tuple(sorted({c.seat for c in claims}))
        over = next(
            g
            for g in range(len(GEISHAS))
            if len(state.seen_at[g]) + sum(c.cards.count(g) for c in claims) > VALUES[g]
        )
        whose = Many(
            tuple(
                say(
                    "hanamikoji-classic.whose-claim",
                    "{player}'s {what} at seq {at}",
                    player=seat_of(names, c.seat),
                    what=WHAT[c.action],
                    at=At(c.at),
                )
                for c in claims
            ),
            "and",
        )
        own = len(seats) == 1
        notices.append(
            Notice(
                at=this,
                message=say(
                    "hanamikoji-classic.dispute",
                    "{whose} together name more {geisha} cards than she has left: they are in "
                    "dispute",
                    whose=whose,
                    geisha=geisha(over),
                ),
                seats=seats if own else (),  # told only to the one who saw every claim of it
                told=say(
                    "hanamikoji-classic.dispute-told",
                    "your {what} together name more {geisha} cards than she has left: they are "
                    "in dispute",
                    what=Many(tuple(WHAT[c.action] for c in claims), "and"),
                    geisha=geisha(over),
                )
                if own
                else None,
            )
        )
    return replace(state, claims=tuple(kept), disputes=disputes, notices=tuple(notices))


def _void(claim: Claim, message: Message, told: Message, at: int) -> Notice:
    """The notice that ``claim`` is void from the event ``at`` on, told to its namer alone."""
    return Notice(at=at, message=message, seats=(claim.seat,), told=told)


def _disputes(state: ClassicState, claims: Sequence[Claim]) -> tuple[tuple[int, ...], ...]:
    """Sets of claims (by their events) that exceed a geisha's count with the facts together
    though none does alone: two players' claims two by two, or all of one player's."""
    found: list[tuple[int, ...]] = []

    def over(group: Sequence[Claim]) -> bool:
        return any(
            len(state.seen_at[g]) + sum(c.cards.count(g) for c in group) > VALUES[g]
            for g in range(len(GEISHAS))
        )

    for a, b in combinations(claims, 2):
        if a.seat != b.seat and over((a, b)):
            found.append((a.at, b.at))
    for seat in (0, 1):
        own = [c for c in claims if c.seat == seat]
        if len(own) > 1 and over(own):
            found.append(tuple(c.at for c in own))
    return tuple(found)


Action = ClassicSecret | ClassicTrade | ClassicGift | ClassicCompete


def _act(state: ClassicState, event: Action) -> ClassicState:
    seat = event.player
    names = state.setup.players
    if state.phase == "choose":  # the seat is to act, but to choose from the offer
        raise RuleViolation(
            say(
                "hanamikoji-classic.choose-first",
                "{player} has to choose first",
                player=seat_of(names, seat),
            ),
            R_PENDING,
        )
    if state.phase != "act":
        raise not_to_act(state, seat)
    action = action_of(event)
    if action in state.used[seat]:
        raise RuleViolation(
            say(
                "hanamikoji-classic.used-already",
                "{player} has already used {action} this round",
                player=seat_of(names, seat),
                action=term("hanamikoji-classic.action", action),
            ),
            R_ONCE,
        )
    used = tuple((*u, action) if s == seat else u for s, u in enumerate(state.used))
    hands = list(state.hands)
    if isinstance(event, ClassicSecret):
        card = event.card
        if card is None and not state.at_table:
            raise RuleViolation(
                say(
                    "hanamikoji-classic.name-the-secret",
                    "the secret card must be named in a game dealt by the tool",
                ),
                R_HAND,
            )
        if card is not None:
            hands[seat] = _take(state, seat, (card,))
        else:
            hands[seat] = _take_unknown(state, seat, 1)
        secret = tuple(
            (card if card is not None else UNKNOWN) if s == seat else c
            for s, c in enumerate(state.secret)
        )
        after = replace(state, used=used, hands=tuple(hands), secret=secret)
        if card is not None and state.at_table:  # C4: a private naming is its player's claim
            after = _claimed(after, seat, "secret", (card,))
        return _next_turn(after)
    if isinstance(event, ClassicTrade):
        pair = event.cards
        if pair is None and not state.at_table:
            raise RuleViolation(
                say(
                    "hanamikoji-classic.name-the-trade",
                    "the traded cards must be named in a game dealt by the tool",
                ),
                R_HAND,
            )
        hands[seat] = (
            _take(state, seat, pair) if pair is not None else _take_unknown(state, seat, 2)
        )
        traded = tuple(
            (pair or (UNKNOWN, UNKNOWN)) if s == seat else t for s, t in enumerate(state.traded)
        )
        after = replace(state, used=used, hands=tuple(hands), traded=traded)
        if pair is not None and state.at_table:
            after = _claimed(after, seat, "trade", tuple(pair))
        return _next_turn(after)
    cards: tuple[int, ...]
    if isinstance(event, ClassicGift):
        cards = tuple(event.cards)
        options: tuple[tuple[int, ...], ...] = tuple((c,) for c in cards)
    else:
        assert isinstance(event, ClassicCompete)
        cards = (*event.pairs[0], *event.pairs[1])
        options = (tuple(event.pairs[0]), tuple(event.pairs[1]))
    hands[seat] = _take(state, seat, cards)
    seen_at = _seen(state, cards)
    after = replace(
        state,
        used=used,
        hands=tuple(hands),
        seen_at=seen_at,
        phase="choose",
        offer=Offer(seat, action, options),
    )
    return _settled(after, seat, action)


def _take_unknown(state: ClassicState, seat: int, n: int) -> tuple[int, ...]:
    hand = list(state.hands[seat])
    for _ in range(n):
        if UNKNOWN in hand:
            hand.remove(UNKNOWN)
        elif hand:
            hand.pop()
        else:
            raise RuleViolation(
                say(
                    "hanamikoji-classic.hand-empty",
                    "{seat}'s hand is empty",
                    seat=seat_of(state.setup.players, seat),
                ),
                R_HAND,
            )
    return tuple(hand)


def _choose(state: ClassicState, event: ClassicChoose) -> ClassicState:
    offer = state.offer
    if state.phase != "choose" or offer is None:
        raise RuleViolation(
            say(
                "hanamikoji-classic.nothing-to-choose",
                "there is no gift or competition to choose from",
            ),
            R_CHOICE,
        )
    chooser = event.player  # the fold saw it is the opponent of the offer's player
    take = tuple(sorted(event.take))
    matches = [i for i, o in enumerate(offer.options) if tuple(sorted(o)) == take]
    if not matches:
        shown = Many(tuple(Many(tuple(map(geisha, o)), "+") for o in offer.options), "or")
        raise RuleViolation(
            say(
                "hanamikoji-classic.not-an-option",
                "{chosen} is not one of the options: {shown}",
                chosen=Many(tuple(map(geisha, take)), "+"),
                shown=shown,
            )
            if take
            else say(
                "hanamikoji-classic.choosing-nothing",
                "choosing nothing is not one of the options: {shown}",
                shown=shown,
            ),
            R_CHOICE,
        )
    rest = list(offer.options)
    del rest[matches[0]]
    sides = [list(s) for s in state.sides]
    for card in take:
        sides[chooser][card] += 1
    for option in rest:
        for card in option:
            sides[offer.player][card] += 1
    after = replace(state, sides=tuple(tuple(s) for s in sides), offer=None, phase="act")
    return _next_turn(after)


def _next_turn(state: ClassicState) -> ClassicState:
    turn = state.turn + 1
    if turn < TURNS:
        return _draw(replace(state, turn=turn, current=1 - state.current))
    state = replace(state, turn=turn)
    if state.at_table:  # every secret card is shown at scoring, named or not (C4)
        return replace(state, phase="reveal")
    return _score(state)


def _reveal(state: ClassicState, event: ClassicReveal) -> ClassicState:
    """A secret card shown at a table's scoring: a fact, refused by facts alone. It confirms
    its player's naming, or makes it void if it differs (C4)."""
    seat = event.player
    if state.phase != "reveal" or state.shown[seat]:
        raise RuleViolation(
            say(
                "hanamikoji-classic.no-secret-to-show",
                "{seat} has no secret card to show now",
                seat=seat_of(state.setup.players, seat),
            ),
            R_REVEAL,
        )
    if not 0 <= event.card < len(GEISHAS):
        raise RuleViolation(
            say("hanamikoji-classic.no-such-geisha", "there is no geisha {card}", card=event.card),
            R_REVEAL,
        )
    seen_at = _seen(state, (event.card,))
    this = state.applied + 1
    notices = list(state.notices)
    claims = []
    for claim in state.claims:
        if claim.seat != seat or claim.action != "secret":
            claims.append(claim)
        elif claim.cards != (event.card,):
            named = {"named": geisha(claim.cards[0]), "face": geisha(event.card)}
            notices.append(
                _void(
                    claim,
                    say(
                        "hanamikoji-classic.secret-void",
                        "{player}'s secret card was named {named} at seq {at} and shown as "
                        "{face} at seq {now}: the naming is void",
                        player=seat_of(state.setup.players, seat),
                        at=At(claim.at),
                        now=At(this),
                        **named,
                    ),
                    say(
                        "hanamikoji-classic.secret-void-told",
                        "your secret card was named {named} and shown as {face}; your naming no "
                        "longer counts",
                        **named,
                    ),
                    this,
                )
            )
    secret = tuple(event.card if s == seat else c for s, c in enumerate(state.secret))
    shown = tuple(True if s == seat else v for s, v in enumerate(state.shown))
    after = replace(
        state,
        secret=secret,
        seen_at=seen_at,
        shown=shown,
        claims=tuple(claims),
        notices=tuple(notices),
    )
    after = _settled(after, seat, "reveal")
    return _score(after) if all(shown) else after


def _score(state: ClassicState) -> ClassicState:
    """Secrets join their sides; each geisha goes to the side with more cards this round,
    and stays where she was on a tie (0-0 included). Then the goals, points first."""
    sides = [list(s) for s in state.sides]
    for seat, card in enumerate(state.secret):
        if card is not None:
            sides[seat][card] += 1
    markers = list(state.markers)
    for g in range(len(GEISHAS)):
        if sides[0][g] != sides[1][g]:
            markers[g] = 0 if sides[0][g] > sides[1][g] else 1
    record = RoundScore(
        round=state.round,
        first=state.first,
        sides=tuple(tuple(s) for s in sides),
        markers=tuple(markers),
        secrets=state.secret,
    )
    after = replace(  # the round's facts and claims are done with (C4)
        state,
        sides=record.sides,
        markers=record.markers,
        history=(*state.history, record),
        phase="deal",
        seen_at=((),) * len(GEISHAS),
        claims=(),
        disputes=(),
    )
    for goal, measure, target in (
        ("points", after.points, POINTS_GOAL),
        ("geishas", after.geishas, GEISHAS_GOAL),
    ):
        reached = [s for s in (0, 1) if measure(s) >= target]
        if reached:
            return replace(after, phase="over", outcome="win", winner=reached[0], decided_by=goal)
    return after


def to_act(state: ClassicState) -> tuple[int, ...]:
    if state.outcome is not None:
        return ()
    if state.phase == "act":
        return (state.current,)
    if state.phase == "choose":
        assert state.offer is not None  # the choose phase is the phase of an offer
        return (1 - state.offer.player,)
    if state.phase == "reveal":
        return tuple(s for s in (0, 1) if not state.shown[s])
    return ()


def legal_moves(state: ClassicState, seat: int) -> list[Event]:
    """Every distinct legal move (cards of one geisha are alike)."""
    if seat not in to_act(state):
        return []
    if state.phase == "choose":
        assert state.offer is not None
        options = dict.fromkeys(tuple(sorted(o)) for o in state.offer.options)
        return [ClassicChoose(player=seat, take=o) for o in options]
    if state.phase == "reveal":
        return [ClassicReveal(player=seat, card=g) for g in range(len(GEISHAS))]
    hand = sorted(c for c in state.hands[seat] if c != UNKNOWN)
    if len(hand) < len(state.hands[seat]):
        return []  # a table game: the hand is not known
    moves: list[Event] = []
    used = state.used[seat]
    if "secret" not in used:
        moves += [ClassicSecret(player=seat, card=c) for c in sorted(set(hand))]
    if "trade" not in used:
        moves += [ClassicTrade(player=seat, cards=p) for p in sorted(set(combinations(hand, 2)))]
    if "gift" not in used:
        moves += [ClassicGift(player=seat, cards=t) for t in sorted(set(combinations(hand, 3)))]
    if "compete" not in used:
        seen: set[tuple[tuple[int, int], ...]] = set()
        for four in sorted(set(combinations(hand, 4))):
            a, b, c, d = four
            for pairs in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                key = tuple(sorted(pairs))
                if key not in seen:
                    seen.add(key)
                    moves.append(ClassicCompete(player=seat, pairs=key))  # type: ignore[arg-type]
    return moves


def is_over(state: ClassicState) -> bool:
    return state.outcome is not None


def turn(state: ClassicState) -> int:
    """The round being played: rounds are the game's own (eight actions and a choice each)."""
    return max(state.round, 1)


def together(state: ClassicState) -> bool:
    """At a table's scoring both players show their secret cards at once."""
    return state.phase == "reveal"


def not_to_act(state: ClassicState, seat: int, players: Sequence[str] = ()) -> RuleViolation:
    """Why ``seat`` may not move now, by the round's phase."""
    names = state.setup.players
    if state.phase == "deal":
        return RuleViolation(
            say(
                "hanamikoji-classic.deal-first",
                "the round's cards must be dealt before anyone acts",
            ),
            R_DEAL,
        )
    if state.phase == "choose":
        assert state.offer is not None  # the choose phase is the phase of an offer
        chooser = 1 - state.offer.player
        return RuleViolation(
            say(
                "hanamikoji-classic.chooser-first",
                "{chooser} chooses first, not {seat}",
                chooser=seat_of(names, chooser),
                seat=seat_of(names, seat),
            ),
            R_PENDING,
        )
    if state.phase == "reveal":
        return RuleViolation(
            say(
                "hanamikoji-classic.reveal-turn",
                "the round's eight turns are over: the secret cards are shown now (reveal)",
            ),
            R_REVEAL,
        )
    return RuleViolation(
        say(
            "hanamikoji-classic.not-your-turn",
            "it is {current}'s turn, not {seat}'s",
            current=seat_of(names, state.current),
            seat=seat_of(names, seat),
        ),
        R_TURN,
    )


def hindsight(state: ClassicState, final: ClassicState) -> ClassicState:
    """At a table, a secret card set aside face down and shown at the round's scoring, from
    the moment it was set aside. Hands are not filled in: every turn begins with an unseen
    draw, so no event shows which cards a hand held before it played them."""
    if UNKNOWN not in state.secret or len(final.history) < state.round or not state.round:
        return state
    shown = final.history[state.round - 1].secrets
    if not shown:
        return state
    secret = tuple(
        shown[s] if c == UNKNOWN and shown[s] not in (None, UNKNOWN) else c
        for s, c in enumerate(state.secret)
    )
    return state if secret == state.secret else replace(state, secret=secret)


def result(state: ClassicState) -> Result | None:
    if state.outcome is None:
        return None
    scores = (state.points(0), state.points(1))
    details = {
        "geishas": [state.geishas(0), state.geishas(1)],
        "rounds": len(state.history),
        "decided_by": state.decided_by,
    }
    if state.outcome == TERMINATED or state.winner is None:  # ruling C3: no winner
        return Result(outcome=TERMINATED, scores=scores, details=details)
    return Result(outcome="win", scores=scores, winners=(state.winner,), details=details)


def cards_in_play(state: ClassicState) -> Counter[int]:
    """Every card of the round, wherever it is (for the accounting property)."""
    count: Counter[int] = Counter()
    count.update(c for h in state.hands for c in h)
    count.update(state.pile)
    count.update([state.removed])
    if state.phase not in ("deal", "over"):  # once scored, the secrets are in the sides
        count.update(c for c in state.secret if c is not None)
    count.update(c for t in state.traded for c in t)
    for side in state.sides:
        count.update({g: n for g, n in enumerate(side) if n})
    if state.offer is not None:
        count.update(c for o in state.offer.options for c in o)
    return count


def check_known(view: Any, event: Event) -> None:
    """An action names cards of its player's hand: a page that does not show that hand (the
    host's, in a game the tool dealt) cannot enter it, whatever the cards. At a table, a page
    that shows its player's claims (their own, a scribe's) counts them in the action's card
    accounting (C4): ann's gift of a violet after her own trade-off of two is refused to her,
    and never to a page that did not see her name them."""
    named = (
        isinstance(event, ClassicGift | ClassicCompete)
        or (isinstance(event, ClassicSecret) and event.card is not None)
        or (isinstance(event, ClassicTrade) and event.cards is not None)
    )
    if not isinstance(event, Move) or not named:
        return
    side = view.sides[event.player] if 0 <= event.player < len(view.sides) else None
    if view.table:
        if side is not None and side.claims:
            _check_count(view, _cards_of(event), side.claims, side.name)
        return
    if view.seat is None or view.seat == event.player:
        return
    if side is not None and side.hand is None:
        raise hand_not_shown(
            view.players, event.player, say("hanamikoji-classic.action", "action"), view.seat
        )


def _cards_of(event: Event) -> tuple[int, ...]:
    """The cards an action names (none for an unnamed secret or trade-off)."""
    if isinstance(event, ClassicCompete):
        return (*event.pairs[0], *event.pairs[1])
    if isinstance(event, ClassicSecret):
        return () if event.card is None else (event.card,)
    if isinstance(event, ClassicGift | ClassicTrade):
        return tuple(event.cards or ())
    return ()


def notices(state: ClassicState) -> tuple[Notice, ...]:
    """The claims facts made void and the claims in dispute, this game (C4)."""
    return state.notices


def hypothesis(events: Sequence[Event], seat: int) -> list[Event]:
    """The game as ``seat`` saw it, recorded as at a table: no deal's order, the other
    player's secret and trade-off cards unnamed, and at each scoring the secret cards shown
    (a reveal each, as a table records them)."""
    from gametape.engine.fold import Fold, walk_live
    from gametape.engine.registry import ruleset_for  # the game's own, looked up

    setup = events[0]
    assert isinstance(setup, ClassicSetup)
    rules = ruleset_for(setup)
    table = Fold(rules, replace(setup, table=True))
    for event, before, after in walk_live(rules, events):
        if isinstance(event, ClassicDeal):
            event = replace(event, deck=None)
        elif isinstance(event, ClassicSecret) and event.player != seat:
            event = replace(event, card=None)
        elif isinstance(event, ClassicTrade) and event.player != seat:
            event = replace(event, cards=None)
        table.push(event)
        scored = len(after.history) > len(before.history)
        while scored and table.state.phase == "reveal":  # the parent scored: secrets shown
            shown = after.history[-1].secrets
            waiting = to_act(table.state)[0]
            card = shown[waiting]
            assert card is not None  # a scored round of a dealt game named both
            table.push(ClassicReveal(player=waiting, card=card))
    return list(table.events)
