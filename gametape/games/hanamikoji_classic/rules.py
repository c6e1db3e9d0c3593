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

from gametape.engine.ruleset import TERMINATED, Result, RuleViolation, hand_not_shown, on
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

ACTIONS = ("secret", "trade", "gift", "compete")
HAND = 6
PILE = 8
TURNS = 8  # four each (ruling C2: 8 cards in the pile, 8 draws)
UNKNOWN = -1  # a card of a table game not shown yet
DECK = tuple(g for g, v in enumerate(VALUES) for _ in range(v))
POINTS_GOAL = 11
GEISHAS_GOAL = 4

R_SETUP = "two players; the first round's starting player is 0 or 1 (C1)"
R_DEAL = "each round deals all 21 item cards: one removed, 6 to each player, 8 in the pile"
R_TURN = "the players alternate turns, the round's first player first"
R_ONCE = "each action once per player per round"
R_HAND = "a player acts with cards from their own hand"
R_CHOICE = "the opponent chooses one offered card (gift) or one offered pair (competition)"
R_PENDING = "the opponent's choice comes before the next turn"
R_REVEAL = "at scoring each secret card is shown (at a real table, by a reveal)"
R_COUNT = "a geisha of value v has v item cards; no more are seen in one round (C4)"


class Offer(msgspec.Struct, frozen=True, gc=False):
    """A gift or competition waiting for the opponent's choice."""

    player: int
    action: str
    options: tuple[tuple[int, ...], ...]  # gift: three 1-card options; compete: two pairs


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
    # events applied, and per geisha the events that showed one of her cards this round
    applied: int = 0
    seen_at: tuple[tuple[int, ...], ...] = ((),) * 7

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


def start(setup: ClassicSetup) -> ClassicState:
    if len(setup.players) != 2 or setup.first not in (0, 1):
        raise RuleViolation(f"{len(setup.players)} players, first seat {setup.first}", R_SETUP)
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
    if state.phase != "deal":
        raise RuleViolation(f"a deal in the middle of round {state.round}", R_DEAL)
    if event.round != state.round + 1:
        raise RuleViolation(
            f"a deal for round {event.round}; round {state.round + 1} is next", R_DEAL
        )
    if event.deck is None:
        if not state.at_table:
            raise RuleViolation(
                'a deal of unknown order (deck null), but the setup does not say "table": true '
                "(a game recorded at a real table)",
                R_DEAL,
            )
        deck = (UNKNOWN,) * len(DECK)
    else:
        if state.at_table:
            raise RuleViolation(
                'a deal of known order in a game recorded at a table (setup "table": true): '
                "there the deck is null",
                R_DEAL,
            )
        if sorted(event.deck) != list(DECK):
            raise RuleViolation(
                f"the deal's deck is not the 21 item cards once each ({len(event.deck)} cards)",
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
            raise RuleViolation(f"there is no geisha {card}", R_HAND)
        if card in hand:
            hand.remove(card)
        elif UNKNOWN in hand:
            hand.remove(UNKNOWN)
        else:
            name, held = state.setup.players[seat], state.hands[seat].count(card)
            if not held:
                raise RuleViolation(f"{name} has no {GEISHAS[card]} card in hand", R_HAND)
            named = cards.count(card)
            raise RuleViolation(
                f"{name} holds {held} {GEISHAS[card]} card{'s' * (held != 1)}, and the move "
                f"names {named}",
                R_HAND,
            )
    return tuple(hand)


def _seen(state: ClassicState, cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Count cards shown this round; more than a geisha has is refused naming where (C4)."""
    if not state.at_table:
        return state.seen_at
    seen = list(state.seen_at)
    this = state.applied + 1  # this event, as the refs count events
    for card in cards:
        if len(seen[card]) >= VALUES[card]:
            refs = tuple(dict.fromkeys(r for r in seen[card] if r != this))  # one seq each
            where = ", ".join(f"seq {{{i}}}" for i in range(len(refs)))
            shows = sum(1 for r in seen[card] if r == this) + 1  # this move's own
            before = len(seen[card]) + 1 - shows
            if shows == 1:
                said = f"all seen already (at {where})"
            elif before:
                said = f"{before} seen already (at {where}) and {shows} in this move"
            else:
                said = f"and this move shows {shows}"
            raise RuleViolation(
                f"one {GEISHAS[card]} card too many this round: she has {VALUES[card]}, {said}",
                R_COUNT,
                refs,
            )
        seen[card] = (*seen[card], this)
    return tuple(seen)


Action = ClassicSecret | ClassicTrade | ClassicGift | ClassicCompete


def _act(state: ClassicState, event: Action) -> ClassicState:
    seat = event.player
    names = state.setup.players
    if state.phase == "choose":  # the seat is to act, but to choose from the offer
        raise RuleViolation(f"{names[seat]} has to choose first", R_PENDING)
    if state.phase != "act":
        raise not_to_act(state, seat)
    action = action_of(event)
    if action in state.used[seat]:
        raise RuleViolation(f"{names[seat]} has already used {action} this round", R_ONCE)
    used = tuple((*u, action) if s == seat else u for s, u in enumerate(state.used))
    hands = list(state.hands)
    if isinstance(event, ClassicSecret):
        card = event.card
        if card is None and not state.at_table:
            raise RuleViolation("the secret card must be named in a game dealt by the tool", R_HAND)
        if card is not None:
            hands[seat] = _take(state, seat, (card,))
        else:
            hands[seat] = _take_unknown(state, seat, 1)
        secret = tuple(
            (card if card is not None else UNKNOWN) if s == seat else c
            for s, c in enumerate(state.secret)
        )
        # C4: a card named when it is played is a seen card from this event on
        seen_at = _seen(state, (card,)) if card is not None else state.seen_at
        after = replace(state, used=used, hands=tuple(hands), secret=secret, seen_at=seen_at)
        return _next_turn(after)
    if isinstance(event, ClassicTrade):
        pair = event.cards
        if pair is None and not state.at_table:
            raise RuleViolation(
                "the traded cards must be named in a game dealt by the tool", R_HAND
            )
        hands[seat] = (
            _take(state, seat, pair) if pair is not None else _take_unknown(state, seat, 2)
        )
        traded = tuple(
            (pair or (UNKNOWN, UNKNOWN)) if s == seat else t for s, t in enumerate(state.traded)
        )
        seen_at = _seen(state, tuple(pair)) if pair is not None else state.seen_at
        return _next_turn(
            replace(state, used=used, hands=tuple(hands), traded=traded, seen_at=seen_at)
        )
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
    return replace(
        state,
        used=used,
        hands=tuple(hands),
        seen_at=seen_at,
        phase="choose",
        offer=Offer(seat, action, options),
    )


def _take_unknown(state: ClassicState, seat: int, n: int) -> tuple[int, ...]:
    hand = list(state.hands[seat])
    for _ in range(n):
        if UNKNOWN in hand:
            hand.remove(UNKNOWN)
        elif hand:
            hand.pop()
        else:
            raise RuleViolation(f"{state.setup.players[seat]}'s hand is empty", R_HAND)
    return tuple(hand)


def _choose(state: ClassicState, event: ClassicChoose) -> ClassicState:
    offer = state.offer
    if state.phase != "choose" or offer is None:
        raise RuleViolation("there is no gift or competition to choose from", R_CHOICE)
    chooser = event.player  # the fold saw it is the opponent of the offer's player
    take = tuple(sorted(event.take))
    matches = [i for i, o in enumerate(offer.options) if tuple(sorted(o)) == take]
    if not matches:
        shown = " or ".join("+".join(map(card_name, o)) for o in offer.options)
        chosen = "+".join(map(card_name, take)) or "choosing nothing"
        raise RuleViolation(f"{chosen} is not one of the options: {shown}", R_CHOICE)
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
    if UNKNOWN in state.secret:
        return replace(state, phase="reveal")
    return _score(state)


def _reveal(state: ClassicState, event: ClassicReveal) -> ClassicState:
    if state.phase != "reveal" or state.secret[event.player] != UNKNOWN:
        raise RuleViolation(
            f"{state.setup.players[event.player]} has no secret card to show now", R_REVEAL
        )
    if not 0 <= event.card < len(GEISHAS):
        raise RuleViolation(f"there is no geisha {event.card}", R_REVEAL)
    seen_at = _seen(state, (event.card,))
    secret = tuple(event.card if s == event.player else c for s, c in enumerate(state.secret))
    after = replace(state, secret=secret, seen_at=seen_at)
    return after if UNKNOWN in secret else _score(after)


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
    after = replace(
        state,
        sides=record.sides,
        markers=record.markers,
        history=(*state.history, record),
        phase="deal",
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
        return tuple(s for s in (0, 1) if state.secret[s] == UNKNOWN)
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
        return RuleViolation("the round's cards must be dealt before anyone acts", R_DEAL)
    if state.phase == "choose":
        assert state.offer is not None  # the choose phase is the phase of an offer
        chooser = 1 - state.offer.player
        return RuleViolation(f"{names[chooser]} chooses first, not {names[seat]}", R_PENDING)
    if state.phase == "reveal":
        return RuleViolation(
            "the round's eight turns are over: the secret cards are shown now (reveal)", R_REVEAL
        )
    return RuleViolation(f"it is {names[state.current]}'s turn, not {names[seat]}'s", R_TURN)


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
    host's, in a game the tool dealt) cannot enter it, whatever the cards."""
    named = (
        isinstance(event, ClassicGift | ClassicCompete)
        or (isinstance(event, ClassicSecret) and event.card is not None)
        or (isinstance(event, ClassicTrade) and event.cards is not None)
    )
    if not isinstance(event, Move) or not named or view.table or view.seat == event.player:
        return
    if view.sides[event.player].hand is None:
        raise hand_not_shown(view.players, event.player, "action", view.seat)


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
            waiting = next(s for s in (0, 1) if table.state.secret[s] == UNKNOWN)
            table.push(ClassicReveal(player=waiting, card=shown[waiting]))
    return list(table.events)
