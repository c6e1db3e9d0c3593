"""Ohanami (tutorial edition), as ../shared/rules/ohanami.md specifies.

Every player picks at once; a turn resolves (placements, passing, drawing) when every pick is
in. Each round's deck order is a chance event; passing, drawing and scores are derived.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from gametape.engine.moves import gather
from gametape.engine.ruleset import ONLOOKER, Result, RuleViolation, hand_not_shown, on
from gametape.events.base import Event, actor
from gametape.games.ohanami.events import OhanamiDeal, OhanamiPick, OhanamiSetup
from gametape.messages import At, say, seat_of

ROUNDS = 3
SEASONS = ("spring", "summer", "autumn")
COLOURS = ("blue", "green", "red")  # by n % 3 (ruling R1): 1 green, 2 red, 0 blue
SEASON_COLOUR = ("green", "red", "blue")  # the colour that scores in rounds 1, 2, 3
MARKERS = (1, 2, 3)  # ruling R2: rows begin with markers; cards 1-3 leave the game
CARDS = tuple(range(4, 73))
HAND = 3

R_SETUP = say("ohanami.rule.setup", "2-4 players")
R_SEATS = say("ohanami.rule.seats", "players are seats 0 to N-1")
R_DEAL = say(
    "ohanami.rule.deal", "each round's deck is every card not in a row, shuffled (ruling R3)"
)
R_IN_HAND = say("ohanami.rule.in-hand", "a player picks a card from their own hand")
R_ROW = say(
    "ohanami.rule.row", "a card goes at the end of a row whose last value is lower than the card"
)
R_R4 = say(
    "ohanami.rule.r4",
    "a card that fits a row must be placed; only a card that fits no row is discarded (R4)",
)
R_ONCE_A_ROUND = say(
    "ohanami.rule.once-a-round",
    "each card is in the game once: a card in a row, or picked earlier this round, cannot be "
    "picked",
)
UNKNOWN = 0  # a card whose number the recorder of a table game does not know yet


def colour(card: int) -> str:
    """Ruling R1: colour follows the number modulo 3."""
    return COLOURS[card % 3]


def row_bonus(length: int) -> int:
    """5 points for 7 or more cards, else 2 for 5 or more, else 0 (markers never count)."""
    return 5 if length >= 7 else 2 if length >= 5 else 0


def score_rows(rows: tuple[tuple[int, ...], ...], round_: int) -> int:
    """One player's points for a round: the season's colour in every row, plus length bonuses."""
    season = SEASON_COLOUR[round_ - 1]
    return sum(sum(1 for c in row if colour(c) == season) + row_bonus(len(row)) for row in rows)


def last_value(rows: tuple[tuple[int, ...], ...], row: int) -> int:
    """The last value of row ``row`` (0-based): its last card, or its marker."""
    return rows[row][-1] if rows[row] else MARKERS[row]


def fitting_rows(rows: tuple[tuple[int, ...], ...], card: int) -> list[int]:
    """The rows (1-based) whose last value is lower than ``card``."""
    return [r + 1 for r in range(len(MARKERS)) if last_value(rows, r) < card]


class OhanamiState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position. ``rows[seat]`` holds three rows of cards (markers implied).

    ``deck`` is this round's deck, top first (before round 1 is dealt: every card, unshuffled).
    ``discards`` are this round's discards; both return to the next round's shuffle.
    ``scores[r][seat]`` are the points of round r + 1.
    """

    setup: OhanamiSetup
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    discards: tuple[int, ...] = ()
    round: int = 0
    in_round: bool = False
    turn: int = 0
    turns: int = 0
    pending: tuple[OhanamiPick | None, ...] = ()
    scores: tuple[tuple[int, ...], ...] = ()
    outcome: str | None = None
    # At a real table (deals with no known order): events applied so far, the event at which
    # each card (by number) was last picked, and the event that dealt this round.
    applied: int = 0
    picked_at: tuple[int, ...] = ()
    round_began: int = 0

    @property
    def at_table(self) -> bool:
        return bool(self.picked_at)

    @property
    def n_players(self) -> int:
        return len(self.hands)

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r[s] for r in self.scores) for s in range(self.n_players))

    @property
    def needs_deal(self) -> bool:
        return self.outcome is None and not self.in_round and self.round < ROUNDS


def start(setup: OhanamiSetup) -> OhanamiState:
    n = len(setup.players)
    if not 2 <= n <= 4:
        raise RuleViolation(say("ohanami.player-count", "{n} players", n=n), R_SETUP)
    empty = ((), (), ())
    return OhanamiState(
        setup=setup, rows=(empty,) * n, hands=((),) * n, deck=CARDS, pending=(None,) * n
    )


@on(OhanamiDeal)
def _deal(state: OhanamiState, event: OhanamiDeal) -> OhanamiState:
    if not state.needs_deal:
        raise RuleViolation(
            say(
                "ohanami.deal-mid-round", "a deal in the middle of round {round}", round=state.round
            ),
            R_DEAL,
        )
    if event.round != state.round + 1:
        raise RuleViolation(
            say(
                "ohanami.deal-wrong-round",
                "a deal for round {round} where round {starting} starts",
                round=event.round,
                starting=state.round + 1,
            ),
            R_DEAL,
        )
    picked_at = state.picked_at
    if event.deck is None:  # shuffled at the table: every card outside the rows, order unknown
        if not state.setup.at_table:
            raise RuleViolation(
                say(
                    "ohanami.deal-unknown-not-table",
                    'a deal of unknown order (deck null), but the setup does not say "table": '
                    "true (a game recorded at a real table)",
                ),
                R_DEAL,
            )
        if state.round == 0:
            picked_at = (0,) * (CARDS[-1] + 1)
        elif not state.at_table:
            raise RuleViolation(
                say(
                    "ohanami.deal-unknown-known",
                    "a deal of unknown order in a game whose deals are known",
                ),
                R_DEAL,
            )
        placed = sum(len(r) for rows in state.rows for r in rows)
        deck = (UNKNOWN,) * (len(CARDS) - placed)
    else:
        if state.at_table or state.setup.at_table:
            raise RuleViolation(
                say(
                    "ohanami.deal-known-at-table",
                    'a deal of known order in a game recorded at a table (setup "table": true): '
                    "there the deck is null",
                ),
                R_DEAL,
            )
        expected = sorted(state.deck + state.discards)
        if sorted(event.deck) != expected:
            raise RuleViolation(
                say(
                    "ohanami.deal-wrong-cards",
                    "the round's deck has {cards} cards that are not exactly the {outside} "
                    "cards outside the rows",
                    cards=len(event.deck),
                    outside=len(expected),
                ),
                R_DEAL,
            )
        deck = event.deck
    n = state.n_players
    size = deal_size(len(deck), n)
    hands = tuple(tuple(sorted(deck[s * size : (s + 1) * size])) for s in range(n))
    applied = state.applied + 1
    after = replace(
        state,
        hands=hands,
        deck=deck[n * size :],
        discards=(),
        round=event.round,
        in_round=True,
        turn=1,
        pending=(None,) * n,
        applied=applied,
        picked_at=picked_at,
        round_began=applied,
    )
    return after if size else _end_round(after)


def deal_size(deck: int, players: int) -> int:
    """Cards dealt to each player: 3, or as many as every player can get equally.

    The rules deal 3 each and are silent on a shorter deck (gardens can hold most of the 69
    cards by autumn with 4 players). In the spirit of R5, every player gets the same number;
    the rest stay in the deck. A round dealing nothing is scored at once.
    """
    return min(HAND, deck // players)


def check_pick(state: OhanamiState, event: OhanamiPick) -> None:
    """Raise RuleViolation unless ``event`` is legal now."""
    seat, card, row = event.player, event.card, event.row  # the fold saw it is to act
    if state.at_table and card not in state.hands[seat]:
        _check_unseen(state, seat, card)
    elif card not in state.hands[seat]:
        raise _not_in_hand(state, seat, card)
    rows = state.rows[seat]
    fits = fitting_rows(rows, card)
    if row is None:
        if fits:
            raise RuleViolation(
                say(
                    "ohanami.must-place",
                    "{card} fits row {fit} (it ends at {last}), so it cannot be discarded",
                    card=card,
                    fit=fits[0],
                    last=last_value(rows, fits[0] - 1),
                ),
                R_R4,
            )
    elif not 1 <= row <= len(MARKERS):
        raise RuleViolation(
            say("ohanami.no-such-row", "there is no row {row}; the rows are 1, 2 and 3", row=row),
            R_ROW,
        )
    elif row not in fits:
        raise RuleViolation(
            say(
                "ohanami.row-too-high",
                "row {row} ends at {last}, which is not lower than {card}",
                row=row,
                last=last_value(rows, row - 1),
                card=card,
            ),
            R_ROW,
        )


def _not_in_hand(state: OhanamiState, seat: int, card: int) -> RuleViolation:
    return RuleViolation(
        say(
            "ohanami.not-in-hand",
            "{card} is not in {player}'s hand",
            card=card,
            player=seat_of(state.setup.players, seat),
        ),
        R_IN_HAND,
    )


def _check_unseen(state: OhanamiState, seat: int, card: int) -> None:
    """At a table, a picked card comes from the unknown part of the hand, so it must be a card
    of the game that is in no row and was not picked before this round."""
    if card not in CARDS:
        raise RuleViolation(
            say("ohanami.no-such-card", "there is no card {card}: the cards are 4-72", card=card),
            R_IN_HAND,
        )
    if UNKNOWN not in state.hands[seat]:
        raise _not_in_hand(state, seat, card)
    at = state.picked_at[card]
    if not at:
        return
    for s, rows in enumerate(state.rows):
        if any(card in r for r in rows):
            raise RuleViolation(
                say(
                    "ohanami.in-a-garden",
                    "{card} is already in {player}'s garden (placed at seq {at})",
                    card=card,
                    player=seat_of(state.setup.players, s),
                    at=At(at),
                ),
                R_ONCE_A_ROUND,
            )
    if any(p is not None and p.card == card for p in state.pending):
        return  # another player's pick of this turn, still secret: checked when it is shown
    if at > state.round_began:
        raise RuleViolation(
            say(
                "ohanami.picked-this-round",
                "{card} was already picked this round (at seq {at})",
                card=card,
                at=At(at),
            ),
            R_ONCE_A_ROUND,
        )


def _check_shown(state: OhanamiState, picks: list[OhanamiPick]) -> None:
    """At a table, when a turn's picks are shown: no card picked by two players (which
    neither could have known while the other's pick was secret)."""
    names = state.setup.players
    for i, pick in enumerate(picks):
        twice = next((p for p in picks[i + 1 :] if p.card == pick.card), None)
        if twice is not None:
            raise RuleViolation(
                say(
                    "ohanami.once-a-round-3",
                    "{card} was picked by {player} and by {player2} this turn: one of the two "
                    "picks is wrong (take one back and enter it again)",
                    card=pick.card,
                    player=seat_of(names, pick.player),
                    player2=seat_of(names, twice.player),
                ),
                R_ONCE_A_ROUND,
            )


@on(OhanamiPick)
def _pick(state: OhanamiState, event: OhanamiPick) -> OhanamiState:
    check_pick(state, event)
    applied = state.applied + 1
    picked_at = state.picked_at
    if picked_at:
        card = event.card
        picked_at = picked_at[:card] + (applied,) + picked_at[card + 1 :]
    pending, picks = gather(state.pending, event.player, event)
    state = replace(state, applied=applied, picked_at=picked_at)
    if picks is None:
        return replace(state, pending=pending)
    if state.at_table:
        _check_shown(state, picks)
    return _resolve(state, picks)


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The hand after ``card`` left it (an unknown card, if the card was not known there)."""
    gone = card if card in hand else UNKNOWN
    i = hand.index(gone)
    return hand[:i] + hand[i + 1 :]


def pass_direction(round_: int) -> int:
    """+1 (to the left, the next seat) in spring and summer; -1 (right) in autumn."""
    return -1 if round_ == ROUNDS else 1


def _resolve(state: OhanamiState, picks: list[OhanamiPick]) -> OhanamiState:
    n = state.n_players
    rows = list(state.rows)
    discards = state.discards
    kept = []
    for seat, pick in enumerate(picks):
        if pick.row is None:
            discards = discards + (pick.card,)
        else:
            r = pick.row - 1
            mine = rows[seat]
            rows[seat] = mine[:r] + (mine[r] + (pick.card,),) + mine[r + 1 :]
        kept.append(_without(state.hands[seat], pick.card))
    step = pass_direction(state.round)
    hands = [kept[(s - step) % n] for s in range(n)]  # seat s receives from s - step
    deck = state.deck
    if len(deck) >= n:  # ruling R5: draw only while every player can get a card
        hands = [tuple(sorted(hands[s] + (deck[s],))) for s in range(n)]
        deck = deck[n:]
    after = replace(
        state,
        rows=tuple(rows),
        hands=tuple(hands),
        deck=deck,
        discards=discards,
        pending=(None,) * n,
        turn=state.turn + 1,
        turns=state.turns + 1,
    )
    return after if any(hands) else _end_round(after)


def _end_round(state: OhanamiState) -> OhanamiState:
    """Score the round (every row, every player) and end it; after round 3, the game."""
    scores = state.scores + (tuple(score_rows(rows, state.round) for rows in state.rows),)
    return replace(
        state,
        scores=scores,
        in_round=False,
        turn=0,
        outcome="finished" if state.round == ROUNDS else None,
    )


def to_act(state: OhanamiState) -> tuple[int, ...]:
    """Everyone picks at once: those who have not picked this turn."""
    if state.outcome is not None or not state.in_round:
        return ()
    return tuple(s for s, p in enumerate(state.pending) if p is None)


def is_over(state: OhanamiState) -> bool:
    return state.outcome is not None


def together(state: OhanamiState) -> bool:
    """Every player picks at once: a turn is one simultaneous step."""
    return state.in_round and state.outcome is None


def redact(state: OhanamiState, event: Event, seat: int) -> Event | None:
    """A pick is secret to its maker until the turn resolves: the pick that completes the
    turn shows every pick of it. A deal shows what is dealt, never its order."""
    if isinstance(event, OhanamiDeal):
        return event if event.deck is None else replace(event, deck=())
    if actor(event) == seat:
        return event
    completes = sum(p is None for p in state.pending) == 1
    return event if completes else None


def shown(state: OhanamiState, event: Event, seat: int) -> Event | None:
    """Of a dealt deck, the cards ``seat`` sees now, in no order: those in its hand and in
    the rows (the onlooker: the rows). What it saw before stays told."""
    if not isinstance(event, OhanamiDeal) or event.deck is None:
        return None
    seen = {c for rows in state.rows for row in rows for c in row}
    if seat != ONLOOKER and state.hands:
        seen.update(state.hands[seat])
    return replace(event, deck=tuple(sorted(c for c in event.deck if c in seen)))


def kinds(before: OhanamiState, event: Event, after: OhanamiState) -> tuple[str, ...]:
    """``deal``; ``turn`` for the pick that resolved a turn, plus ``round end``."""
    if isinstance(event, OhanamiDeal):  # a deal of nothing scores its round at once
        return ("deal", "round end") if len(after.scores) > len(before.scores) else ("deal",)
    if len(after.scores) > len(before.scores):
        return ("turn", "round end")
    return ("turn",) if after.turns > before.turns else ("pick",)


def legal_to_pick(state: OhanamiState, seat: int) -> bool:
    """Whether ``seat`` picks now: a round is on and it has not picked this turn."""
    return (
        state.outcome is None
        and state.in_round
        and 0 <= seat < state.n_players
        and state.pending[seat] is None
    )


def legal_moves(state: OhanamiState, seat: int) -> list[Event]:
    """For each card in hand: every row it fits, or a discard when it fits none."""
    if not legal_to_pick(state, seat):
        return []
    moves: list[Event] = []
    for card in state.hands[seat]:
        if card == UNKNOWN:
            continue
        fits = fitting_rows(state.rows[seat], card)
        moves += [OhanamiPick(player=seat, card=card, row=r) for r in fits] or [
            OhanamiPick(player=seat, card=card)
        ]
    return moves


def result(state: OhanamiState) -> Result | None:
    """Highest total wins; equal highest totals share the win."""
    if state.outcome is None:
        return None
    return Result.highest_total(
        state.totals(), state.outcome, {"rounds": [list(r) for r in state.scores]}
    )


def check_known(view: Any, event: Event) -> None:
    """A pick names a card of its picker's hand: a page that does not show that hand (the
    host's) cannot enter it, whatever the card."""
    if (
        isinstance(event, OhanamiPick)
        and view.seat is not None  # a scribe: sees what the table entered
        and view.seat != event.player
        and view.gardens[event.player].hand is None
    ):
        raise hand_not_shown(view.players, event.player, say("ohanami.pick", "pick"), view.seat)


def hypothesis(events: Sequence[Event], seat: int) -> list[Event]:
    """The game as ``seat`` saw it, recorded as at a table: no deal's order, every pick of a
    turn that resolved (all shown then), the seat's own pending pick, and none of the other
    seats' picks of the turn still open (the seat did not see them)."""
    from gametape.engine.fold import walk_live
    from gametape.engine.registry import ruleset_for  # the game's own, looked up

    setup = events[0]
    assert isinstance(setup, OhanamiSetup)
    rules = ruleset_for(setup)
    seen: list[Event] = [replace(setup, table=True)]
    open_: list[int] = []  # where in ``seen`` the picks of the turn still open are
    for event, before, after in walk_live(rules, events):
        if isinstance(event, OhanamiDeal):
            seen.append(replace(event, deck=None))
            continue
        seen.append(event)
        if isinstance(event, OhanamiPick):
            open_.append(len(seen) - 1)
            if after.turns != before.turns or len(after.scores) != len(before.scores):
                open_ = []  # the turn resolved: every pick of it was shown
    hidden = {i for i in open_ if actor(seen[i]) != seat}
    return [e for i, e in enumerate(seen) if i not in hidden]
