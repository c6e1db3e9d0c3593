"""Hanamikoji (tutorial edition), as ../shared/rules/hanamikoji.md specifies.

Both players assign four cards in secret; the round resolves when the second assignment
arrives. Draws, display refills, resolution and scores are derived here, never recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from gametape.engine.moves import gather
from gametape.engine.ruleset import TERMINATED, Result, RuleViolation, hand_not_shown, on
from gametape.events.base import Event, actor
from gametape.games.hanamikoji.events import ARTISTS, HanamikojiAssign, HanamikojiSetup
from gametape.messages import At, Message, many, say, seat_of, term

ROUNDS = 3
CARDS = 14
START_HAND = 2  # ruling R2
DISPLAY = 3

R_SETUP = say(
    "hanamikoji.rule.setup",
    "two players, each with a shuffled deck of the 14 performers (ruling R1)",
)
R_SEATS = say("hanamikoji.rule.seats", "the players are seats 0 and 1")
R_DIFFERENT = say(
    "hanamikoji.rule.different", "the four zones take four different cards of the hand"
)
R_IN_HAND = say("hanamikoji.rule.in-hand", "a player assigns cards from their own hand")
R_SHOWN = say(
    "hanamikoji.rule.shown", "the performed and voted cards are shown when the round resolves"
)
R_DECK_ONCE = say("hanamikoji.rule.deck-once", "each player's deck holds each performer once")
UNKNOWN = 0  # a card of a game dealt at the table that has not been shown


def artist_of(card: int) -> int:
    """The artist (0-6) a performer number (1-14) belongs to: k and k + 7 go to artist k."""
    return (card - 1) % 7


def card_name(card: int) -> str:
    return f"{ARTISTS[artist_of(card)]}{card}"


def artist_words(artist: int) -> Message:
    """A performer as said aloud: ``red (1)``."""
    return say(
        "hanamikoji.artist",
        "{colour} ({number})",
        colour=term("hanamikoji.colour", ARTISTS[artist]),
        number=artist + 1,
    )


class RoundRecord(msgspec.Struct, frozen=True, gc=False):
    """A resolved round: both assignments and which artist each performer captured."""

    round: int
    starting: int
    zones: tuple[HanamikojiAssign, ...]
    captured: tuple[int | None, ...]


class HanamikojiState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position; every per-player field is a pair indexed by seat.

    ``votes`` holds the cards counting as votes (vote-zone cards and performers that found
    their artist owned); ``captures`` the performers that captured an artist.
    """

    setup: HanamikojiSetup
    owners: tuple[int | None, ...]
    decks: tuple[tuple[int, ...], ...]
    displays: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    votes: tuple[tuple[int, ...], ...]
    hidden: tuple[tuple[int | None, ...], ...]
    sacrificed: tuple[tuple[int | None, ...], ...]
    captures: tuple[tuple[int, ...], ...]
    set_aside: tuple[tuple[int, ...], ...]
    round: int
    starting: int
    pending: tuple[HanamikojiAssign | None, ...]
    rounds: tuple[RoundRecord, ...] = ()
    outcome: str | None = None
    # At a real table: events applied so far, and per seat the event that showed each card.
    applied: int = 0
    used_at: tuple[tuple[int, ...], ...] = ()

    @property
    def at_table(self) -> bool:
        return bool(self.used_at)

    def score(self, seat: int) -> int:
        owned = sum(a + 1 for a, o in enumerate(self.owners) if o == seat)
        return owned + len(self.votes[seat]) - len(self.hidden[seat])

    def artists(self, seat: int) -> int:
        return sum(1 for o in self.owners if o == seat)


def start(setup: HanamikojiSetup) -> HanamikojiState:
    """Deal 2 to each hand and 3 to each display (R2), then prepare round 1."""
    if len(setup.players) != 2 or len(setup.decks) != 2:
        raise RuleViolation(
            say("hanamikoji.player-count", "{players} players", players=len(setup.players)), R_SETUP
        )
    at_table = setup.decks == ((UNKNOWN,) * CARDS,) * 2
    if at_table != setup.at_table:
        raise RuleViolation(
            say(
                "hanamikoji.table-decks",
                'decks of unknown cards (0) go with "table": true in the setup, and known decks '
                "without it (a game recorded at a real table knows no deck)",
            ),
            R_SETUP,
        )
    for deck in setup.decks:
        if sorted(deck) != list(range(1, CARDS + 1)) and not at_table:
            raise RuleViolation(
                say("hanamikoji.bad-deck", "a deck of [{cards}]", cards=many(deck)), R_SETUP
            )
    if setup.first not in (0, 1):
        raise RuleViolation(
            say("hanamikoji.starting-seat", "starting seat {first}", first=setup.first), R_SEATS
        )
    pairs = ((), ())
    state = HanamikojiState(
        setup=setup,
        owners=(None,) * len(ARTISTS),
        decks=tuple(d[START_HAND + DISPLAY :] for d in setup.decks),
        displays=tuple(d[START_HAND : START_HAND + DISPLAY] for d in setup.decks),
        hands=tuple(tuple(sorted(d[:START_HAND])) for d in setup.decks),
        votes=pairs,
        hidden=pairs,
        sacrificed=pairs,
        captures=pairs,
        set_aside=pairs,
        round=1,
        starting=setup.first,
        pending=(None, None),
        used_at=((0,) * (CARDS + 1),) * 2 if at_table else (),
    )
    return _prepare(state)


def _prepare(state: HanamikojiState) -> HanamikojiState:
    """Each player draws 1, takes their display into hand, and refills it from their deck."""
    hands, displays, decks = [], [], []
    for seat in (0, 1):
        deck = state.decks[seat]
        hands.append(tuple(sorted(state.hands[seat] + deck[:1] + state.displays[seat])))
        displays.append(deck[1 : 1 + DISPLAY])
        decks.append(deck[1 + DISPLAY :])
    return replace(state, hands=tuple(hands), displays=tuple(displays), decks=tuple(decks))


def check_assign(state: HanamikojiState, event: HanamikojiAssign) -> None:
    """Raise RuleViolation unless ``event`` is legal now."""
    seat = event.player  # the fold saw that this seat is to act (it has not assigned yet)
    cards = event.cards()
    known = [c for c in cards if c is not None]
    if len(set(known)) != len(known):
        twice = next(c for c in known if known.count(c) > 1)
        raise RuleViolation(
            say("hanamikoji.in-two-zones", "{card} is in two zones", card=card_name(twice)),
            R_DIFFERENT,
        )
    if len(known) < 4 and not state.at_table:
        raise RuleViolation(say("hanamikoji.zone-empty", "every zone takes a card"), R_DIFFERENT)
    hand = state.hands[seat]
    unknown = hand.count(UNKNOWN)
    for card in known:
        if card in hand:
            continue
        if not (state.at_table and 1 <= card <= CARDS):
            raise RuleViolation(
                say(
                    "hanamikoji.not-in-hand",
                    "{card} is not in {player}'s hand",
                    card=card_name(card) if 1 <= card <= CARDS else card,
                    player=seat_of(state.setup.players, seat),
                ),
                R_IN_HAND,
            )
        at = state.used_at[seat][card]
        if at:
            raise RuleViolation(
                say(
                    "hanamikoji.shown-already",
                    "{player}'s {card} was already shown at seq {at}",
                    player=seat_of(state.setup.players, seat),
                    card=card_name(card),
                    at=At(at),
                ),
                R_DECK_ONCE,
            )
        unknown -= 1
        if unknown < 0:
            raise RuleViolation(
                say(
                    "hanamikoji.not-in-hand",
                    "{card} is not in {player}'s hand",
                    card=card_name(card),
                    player=seat_of(state.setup.players, seat),
                ),
                R_IN_HAND,
            )


@on(HanamikojiAssign)
def _assign(state: HanamikojiState, event: HanamikojiAssign) -> HanamikojiState:
    check_assign(state, event)
    applied = state.applied + 1
    used_at = state.used_at
    if used_at:
        mine = list(used_at[event.player])
        for card in event.cards():
            if card is not None:
                mine[card] = applied
        used_at = tuple(tuple(mine) if s == event.player else used_at[s] for s in (0, 1))
    state = replace(state, applied=applied, used_at=used_at)
    pending, assigned = gather(state.pending, event.player, event)
    if assigned is None:
        return replace(state, pending=pending)
    return _resolve(state, assigned)


def _without(hand: tuple[int, ...], cards: tuple[int | None, ...]) -> tuple[int, ...]:
    """The hand after four cards left it; a card not known in it was an unknown one."""
    left = list(hand)
    for card in cards:
        left.remove(card if card in left else UNKNOWN)
    return tuple(left)


def perform_order(a: HanamikojiAssign, b: HanamikojiAssign) -> list[HanamikojiAssign]:
    """The performers resolve from the higher number to the lower."""
    return sorted((a, b), key=lambda z: -z.perform)


def _resolve(state: HanamikojiState, zones: list[HanamikojiAssign]) -> HanamikojiState:
    owners = list(state.owners)
    captured: list[int | None] = [None, None]
    votes = [list(v) for v in state.votes]
    captures = [list(c) for c in state.captures]
    if zones[0].perform == zones[1].perform:
        # the very same card on both sides: neither captures, both become votes
        for z in zones:
            votes[z.player].append(z.perform)
    else:
        for z in perform_order(*zones):
            artist = artist_of(z.perform)
            if owners[artist] is None:
                owners[artist] = z.player
                captured[z.player] = artist
                captures[z.player].append(z.perform)
            else:  # owned by anyone, also by the performer resolved just before
                votes[z.player].append(z.perform)
    for z in zones:
        votes[z.player].append(z.vote)
    hands = tuple(_without(state.hands[s], zones[s].cards()) for s in (0, 1))
    record = RoundRecord(
        round=state.round, starting=state.starting, zones=tuple(zones), captured=tuple(captured)
    )
    after = replace(
        state,
        owners=tuple(owners),
        hands=hands,
        votes=tuple(tuple(v) for v in votes),
        captures=tuple(tuple(c) for c in captures),
        hidden=tuple(state.hidden[s] + (zones[s].hidden,) for s in (0, 1)),
        sacrificed=tuple(state.sacrificed[s] + (zones[s].sacrifice,) for s in (0, 1)),
        pending=(None, None),
        rounds=state.rounds + (record,),
    )
    if state.round == ROUNDS:
        # ruling R3: the two leftovers of round 3 are set aside unscored
        return replace(after, set_aside=hands, hands=((), ()), outcome="finished")
    return _prepare(replace(after, round=state.round + 1, starting=1 - state.starting))


def hindsight(state: HanamikojiState, final: HanamikojiState) -> HanamikojiState:
    """At a table, the cards a player assigned in a round, shown in their hand from the start
    of that round (a hand does not change during a round, so they were held all of it). A
    card kept over from an earlier round is shown from the round it was played in: no event
    says when it was drawn."""
    if not state.at_table or state.outcome is not None:
        return state
    hands = list(state.hands)
    for seat in (0, 1):
        if state.pending[seat] is not None or UNKNOWN not in hands[seat]:
            continue
        if state.round <= len(final.rounds):
            assigned: HanamikojiAssign | None = final.rounds[state.round - 1].zones[seat]
        else:
            assigned = final.pending[seat] if final.round == state.round else None
        if assigned is None:
            continue
        hand = list(hands[seat])
        for card in assigned.cards():
            if card is not None and card not in hand and UNKNOWN in hand:
                hand.remove(UNKNOWN)
                hand.append(card)
        hands[seat] = tuple(sorted(hand))
    hands_ = tuple(hands)
    return state if hands_ == state.hands else replace(state, hands=hands_)


def to_act(state: HanamikojiState) -> tuple[int, ...]:
    """Both players assign at once: those who have not yet this round."""
    if state.outcome is not None:
        return ()
    return tuple(s for s in (0, 1) if state.pending[s] is None)


def is_over(state: HanamikojiState) -> bool:
    return state.outcome is not None


def together(state: HanamikojiState) -> bool:
    """Both players assign at once: a round is one simultaneous step."""
    return state.outcome is None


def redact(state: HanamikojiState, event: Event, seat: int) -> Event | None:
    """An assignment is secret: only its maker sees it, until the second one of the round
    resolves it and the table sees what each side performed, voted and sacrificed (never the
    hidden card, until the end of the game)."""
    if actor(event) == seat:
        return event
    if isinstance(event, HanamikojiAssign) and sum(p is None for p in state.pending) == 1:
        return event if state.round == ROUNDS else replace(event, hidden=None)  # the end shows all
    return None


def sees(state: HanamikojiState, event: Event, seat: int) -> bool:
    """The end of the game shows every assignment whole, hidden cards included."""
    return state.outcome is not None and isinstance(event, HanamikojiAssign)


def shown(state: HanamikojiState, event: Event, seat: int) -> Event | None:
    """Of the decks a dealt setup holds, what ``seat`` sees by ``state``: the cards it has
    drawn from its own deck, and of the other's the display dealt face up now (R2; a display
    seen before stays told). The other's other cards show in its assignments, as told."""
    if not isinstance(event, HanamikojiSetup) or state.at_table:
        return None
    decks = tuple(
        deck[: len(deck) - len(state.decks[s])] if s == seat else tuple(sorted(state.displays[s]))
        for s, deck in enumerate(event.decks)
    )
    return replace(event, decks=decks)


def kinds(before: HanamikojiState, event: Event, after: HanamikojiState) -> tuple[str, ...]:
    """``round`` for the assignment that resolved a round, else ``assign``."""
    return ("round",) if len(after.rounds) > len(before.rounds) else ("assign",)


def legal_moves_possible(state: HanamikojiState, seat: int) -> bool:
    """Whether ``seat`` assigns now: the game goes on and it has not assigned this round."""
    return state.outcome is None and seat in (0, 1) and state.pending[seat] is None


def legal_moves(state: HanamikojiState, seat: int) -> list[Event]:
    """Every ordered choice of four different hand cards for the four zones."""
    if not legal_moves_possible(state, seat):
        return []
    hand = tuple(c for c in state.hands[seat] if c != UNKNOWN)
    return [
        HanamikojiAssign(player=seat, perform=p, hidden=h, sacrifice=s, vote=v)
        for p in hand
        for h in hand
        if h != p
        for s in hand
        if s not in (p, h)
        for v in hand
        if v not in (p, h, s)
    ]


def decide(
    scores: tuple[int, int], artists: tuple[int, int], hidden: tuple[int, int]
) -> tuple[int | None, str]:
    """The winning seat (None: a draw) and what decided it.

    Higher score wins; ties go to more artists owned, then to fewer hidden cards, then a draw.
    (In a finished game both players hid exactly three cards, so the hidden level never
    decides one; it is kept because the rules state it.)
    """
    for decided_by, (a, b) in (
        ("score", scores),
        ("artists", artists),
        ("hidden", (-hidden[0], -hidden[1])),
    ):
        if a != b:
            return (0 if a > b else 1), decided_by
    return None, "draw"


def result(state: HanamikojiState) -> Result | None:
    """Score = artists' values + votes - hidden cards, with the three-step tie-break."""
    if state.outcome is None:
        return None
    scores = (state.score(0), state.score(1))
    artists = (state.artists(0), state.artists(1))
    hidden = (len(state.hidden[0]), len(state.hidden[1]))
    details = {
        "artists": list(artists),
        "hidden": list(hidden),
        "votes": [len(state.votes[0]), len(state.votes[1])],
    }
    if state.outcome == TERMINATED:
        return Result(outcome=TERMINATED, scores=scores, details=details)
    winner, decided_by = decide(scores, artists, hidden)
    return Result(
        outcome="draw" if winner is None else "win",
        scores=scores,
        winners=() if winner is None else (winner,),
        details={**details, "decided_by": decided_by},
    )


def check_known(view: Any, event: Event) -> None:
    """An assignment names cards of its player's hand: a page that does not show that hand
    (the host's) cannot enter it, whatever the cards."""
    if (
        isinstance(event, HanamikojiAssign)
        and view.seat is not None  # a scribe: sees what the table entered
        and view.seat != event.player
        and view.seats[event.player].hand is None
    ):
        raise hand_not_shown(
            view.players, event.player, say("hanamikoji.assignment", "assignment"), view.seat
        )


def hypothesis(events: Sequence[Event], seat: int) -> list[Event]:
    """The game as ``seat`` saw it, recorded as at a table: no deck's order, the other
    player's assignments as each round's resolution showed them (never the hidden card), the
    seat's own whole, and not the other's assignment of the round still open."""
    from gametape.engine.fold import walk_live
    from gametape.engine.registry import ruleset_for  # the game's own, looked up

    setup = events[0]
    assert isinstance(setup, HanamikojiSetup)
    rules = ruleset_for(setup)
    table = replace(setup, decks=((UNKNOWN,) * CARDS,) * len(setup.decks), table=True)
    seen: list[Event] = [table]
    open_: list[int] = []
    for event, before, after in walk_live(rules, events):
        if isinstance(event, HanamikojiAssign) and actor(event) != seat:
            event = replace(event, hidden=None)
        seen.append(event)
        if isinstance(event, HanamikojiAssign):
            open_.append(len(seen) - 1)
            if after.round != before.round or after.outcome is not None:
                open_ = []
    hidden = {i for i in open_ if actor(seen[i]) != seat}
    return [e for i, e in enumerate(seen) if i not in hidden]
