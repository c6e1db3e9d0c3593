"""Ohanami, the published game (Steffen Benndorf, 2019), as
../shared/rules/ohanami-classic.md specifies: 120 cards of four kinds, three rounds of five
steps, up to three rows a player.

A step is two simultaneous moves: every seat chooses two cards face down (the rest of each
hand passes on), then every seat places its two shown cards. At a real table each round opens
with every seat entering the hand it was dealt.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import msgspec
from msgspec.structs import replace

from gametape.engine.moves import gather
from gametape.engine.ruleset import Result, RuleViolation, hand_not_shown, on
from gametape.events.base import Event, actor
from gametape.games.ohanami_classic.events import (
    ClassicOhanamiChoose,
    ClassicOhanamiDeal,
    ClassicOhanamiHand,
    ClassicOhanamiPlace,
    ClassicOhanamiSetup,
)

CARDS = range(1, 121)
ROUNDS = 3
STEPS = 5
HAND = 10
MAX_ROWS = 3
KINDS = ("blue", "green", "grey", "pink")
# Ruling O3: the published table for 1-15 pink cards.
PINK = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120)
ROW_LETTERS = "abc"

R_SETUP = "2-4 players"
R_DEAL = "each round deals 10 cards to every player from the cards still in the box"
R_HAND = "a hand is the 10 cards its holder was dealt, each a number 1-120 (ruling O7)"
R_ONCE = "each card 1-120 is in a game once (ruling O7)"
R_CHOOSE = "a player chooses two cards of their own hand"
R_PLACE = (
    "a shown card starts a new row (while the player has fewer than three), goes above a "
    "row's highest card or below its lowest, or is discarded (rulings O2, O5)"
)
R_PLACE_CARDS = "a player places the two cards they chose, each once (ruling O2)"


def kind(card: int) -> str:
    """Ruling O1, the one table of kinds: grey if a multiple of 7, else green if a multiple
    of 3, else blue if even, else pink (as two independent implementations have it, matching
    a review's counts 34/35/17/34; a third source's green 35 contradicts both)."""
    if card % 7 == 0:
        return "grey"
    if card % 3 == 0:
        return "green"
    return "blue" if card % 2 == 0 else "pink"


def pink_points(count: int, triangle: bool = False) -> int:
    """Ruling O3: the table for 0-15 pink cards; beyond 15, 120, or the triangle goes on."""
    if count < len(PINK):
        return PINK[count]
    return count * (count + 1) // 2 if triangle else PINK[-1]


Rows = tuple[tuple[int, ...], ...]


def score_parts(rows: Rows, round_: int, triangle: bool = False) -> dict[str, int]:
    """One player's points at the end of ``round_``, by kind, over every card in their rows:
    blue 3 each; from round 2 green 4 each; in round 3 grey 7 each and pink by the table."""
    counts = dict.fromkeys(KINDS, 0)
    for row in rows:
        for card in row:
            counts[kind(card)] += 1
    return {
        "blue": 3 * counts["blue"],
        "green": 4 * counts["green"] if round_ >= 2 else 0,
        "grey": 7 * counts["grey"] if round_ == 3 else 0,
        "pink": pink_points(counts["pink"], triangle) if round_ == 3 else 0,
    }


def score(rows: Rows, round_: int, triangle: bool = False) -> int:
    return sum(score_parts(rows, round_, triangle).values())


def row_name(row: int) -> str:
    """A row (1-based) as the board and the notation say it: A, B or C."""
    return ROW_LETTERS[row - 1].upper()


def placed(rows: Rows, card: int, row: int | None) -> Rows:
    """``rows`` with ``card`` placed in ``row`` (ruling O2: checked against the rows as they
    stand), or discarded (None). Raises RuleViolation."""
    if row is None:
        return rows
    if row == len(rows) + 1 and len(rows) < MAX_ROWS:
        return (*rows, (card,))
    if not 1 <= row <= len(rows):
        if row == len(rows) + 1:
            raise RuleViolation(
                f"there are three rows already, so {card} cannot start one", R_PLACE
            )
        raise RuleViolation(
            f"there is no row {row_name(row) if row <= MAX_ROWS else row}: "
            + (f"the rows are A-{row_name(len(rows))}" if rows else "no row is started yet")
            + (", and a new one starts as the next" if len(rows) < MAX_ROWS else ""),
            R_PLACE,
        )
    line = rows[row - 1]
    if card > line[-1]:
        line = (*line, card)
    elif card < line[0]:
        line = (card, *line)
    else:
        raise RuleViolation(
            f"{card} is between the ends of row {row_name(row)} ({line[0]} and {line[-1]})",
            R_PLACE,
        )
    return (*rows[: row - 1], line, *rows[row:])


class ClassicOhanamiState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position.

    ``phase``: ``deal`` (a round's deal is due), ``hand`` (at a table: hands being entered),
    ``choose``, ``place``, ``over``. ``hands[seat]`` is the hand a seat holds (None at a table
    until entered); ``held[seat]`` every hand it received this round, in order (the current one
    last); ``chosen[seat]`` this step's two cards (secret while choosing, shown while
    placing); ``rows[seat]`` its rows, each lowest card first. ``shown_at[card]`` is the event
    (counted from the setup) that showed a card (0: not shown); ``dealt`` are the cards dealt in
    a game the tool dealt. ``scores[r][seat]`` are round r + 1's points, ``parts[r][seat]``
    the same by kind (blue, green, grey, pink).
    """

    setup: ClassicOhanamiSetup
    phase: str = "deal"
    round: int = 0
    step: int = 0
    hands: tuple[tuple[int, ...] | None, ...] = ()
    held: tuple[tuple[tuple[int, ...], ...], ...] = ()
    chosen: tuple[tuple[int, int] | None, ...] = ()
    placed: tuple[bool, ...] = ()
    rows: tuple[Rows, ...] = ()
    discards: tuple[int, ...] = ()
    shown_at: tuple[int, ...] = ()
    dealt: frozenset[int] = frozenset()
    scores: tuple[tuple[int, ...], ...] = ()
    parts: tuple[tuple[tuple[int, int, int, int], ...], ...] = ()
    outcome: str | None = None
    applied: int = 0

    @property
    def n_players(self) -> int:
        return len(self.setup.players)

    @property
    def at_table(self) -> bool:
        return self.setup.at_table

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r[s] for r in self.scores) for s in range(self.n_players))


def start(setup: ClassicOhanamiSetup) -> ClassicOhanamiState:
    n = len(setup.players)
    if not 2 <= n <= 4:
        raise RuleViolation(f"{n} players", R_SETUP)
    return ClassicOhanamiState(
        setup=setup,
        hands=(None,) * n,
        held=((),) * n,
        chosen=(None,) * n,
        placed=(False,) * n,
        rows=((),) * n,
        shown_at=(0,) * (CARDS[-1] + 1),
    )


def box(state: ClassicOhanamiState) -> list[int]:
    """The cards a game the tool deals has not dealt yet, lowest first."""
    return [c for c in CARDS if c not in state.dealt]


def _open_round(state: ClassicOhanamiState, round_: int) -> ClassicOhanamiState:
    n = state.n_players
    return replace(
        state,
        round=round_,
        step=1,
        held=((),) * n,
        chosen=(None,) * n,
        placed=(False,) * n,
    )


@on(ClassicOhanamiDeal)
def _deal(state: ClassicOhanamiState, event: ClassicOhanamiDeal) -> ClassicOhanamiState:
    if state.phase != "deal":
        raise RuleViolation(f"a deal in the middle of round {state.round}", R_DEAL)
    if event.round != state.round + 1:
        raise RuleViolation(
            f"a deal for round {event.round} where round {state.round + 1} starts", R_DEAL
        )
    n = state.n_players
    applied = state.applied + 1
    after = _open_round(replace(state, applied=applied), event.round)
    if event.hands is None:
        if not state.at_table:
            raise RuleViolation(
                'a deal of unknown hands (null), but the setup does not say "table": true',
                R_DEAL,
            )
        return replace(after, phase="hand", hands=(None,) * n)
    if state.at_table:
        raise RuleViolation(
            'a deal of known hands in a game recorded at a table (setup "table": true): '
            "there each holder enters their hand",
            R_DEAL,
        )
    if len(event.hands) != n or any(len(h) != HAND for h in event.hands):
        raise RuleViolation(f"a deal of {[len(h) for h in event.hands]} cards", R_DEAL)
    cards = [c for h in event.hands for c in h]
    if len(set(cards)) != len(cards) or any(c not in CARDS or c in state.dealt for c in cards):
        raise RuleViolation(
            "a deal whose cards are not all different cards still in the box", R_DEAL
        )
    hands = tuple(tuple(sorted(h)) for h in event.hands)
    return replace(
        after,
        phase="choose",
        hands=hands,
        held=tuple((h,) for h in hands),
        dealt=state.dealt | frozenset(cards),
    )


def _shown_problem(state: ClassicOhanamiState, card: int) -> RuleViolation | None:
    at = state.shown_at[card]
    if not at:
        return None
    return RuleViolation(f"{card} was shown already (at seq {{0}})", R_ONCE, (at,))


@on(ClassicOhanamiHand)
def _hand(state: ClassicOhanamiState, event: ClassicOhanamiHand) -> ClassicOhanamiState:
    if state.phase != "hand":
        raise RuleViolation(
            "hands are entered at the start of a round, in a game recorded at a table", R_HAND
        )
    cards = event.cards
    if len(cards) != HAND:
        raise RuleViolation(f"a hand of {len(cards)} cards", R_HAND)
    bad = next((c for c in cards if c not in CARDS), None)
    if bad is not None:
        raise RuleViolation(f"there is no card {bad}: the cards are 1-120", R_HAND)
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        raise RuleViolation(f"{twice} is in the hand twice", R_ONCE)
    for card in cards:  # against what every seat saw; another hand is checked at the end
        problem = _shown_problem(state, card)
        if problem is not None:
            raise problem
    seat = event.player
    hand = tuple(sorted(cards))
    applied = state.applied + 1
    hands, complete = gather(state.hands, seat, hand)
    state = replace(state, hands=hands, applied=applied)
    if complete is None:
        return state
    _check_hands_apart(state, complete)
    return replace(state, phase="choose", held=tuple((h,) for h in complete))


def _check_hands_apart(state: ClassicOhanamiState, hands: list[tuple[int, ...]]) -> None:
    """When the last hand is in: no card in two hands (neither holder could have known)."""
    names = state.setup.players
    for a, b in combinations(range(len(hands)), 2):
        both = sorted(set(hands[a]) & set(hands[b]))
        if both:
            raise RuleViolation(
                f"{both[0]} is in {names[a]}'s hand and in {names[b]}'s: one of the two is "
                "entered wrong (take one back and enter it again)",
                R_ONCE,
            )


@on(ClassicOhanamiChoose)
def _choose(state: ClassicOhanamiState, event: ClassicOhanamiChoose) -> ClassicOhanamiState:
    if state.phase == "hand":  # a table's round: its hands are entered first
        raise RuleViolation("cards are chosen once every hand of the round is entered", R_CHOOSE)
    if state.phase != "choose":
        raise RuleViolation(
            f"cards are chosen at the start of a step, not in the {state.phase} phase", R_CHOOSE
        )
    seat = event.player
    name = state.setup.players[seat]
    hand = state.hands[seat] or ()
    a, b = event.cards
    if a == b:
        raise RuleViolation(f"{a} is chosen twice", R_CHOOSE)
    for card in event.cards:
        if card not in hand:
            raise RuleViolation(f"{card} is not in {name}'s hand", R_CHOOSE)
    applied = state.applied + 1
    chosen, complete = gather(state.chosen, seat, (min(a, b), max(a, b)))
    state = replace(state, chosen=chosen, applied=applied)
    if complete is None:
        return state
    return _reveal(state, complete)


def pass_step(round_: int) -> int:
    """Ruling O2b: +1 (to the left, the next seat) in rounds 1 and 3; -1 (right) in round 2."""
    return -1 if round_ == 2 else 1


def _reveal(state: ClassicOhanamiState, chosen: list[tuple[int, int]]) -> ClassicOhanamiState:
    """Every choice is in: the rest of each hand passes on, and the chosen cards show."""
    n = state.n_players
    kept = [tuple(c for c in (state.hands[s] or ()) if c not in chosen[s]) for s in range(n)]
    step = pass_step(state.round)
    hands = tuple(kept[(s - step) % n] for s in range(n))  # seat s receives from s - step
    held = state.held
    if any(hands):  # in the fifth step nothing is passed (O2b)
        held = tuple(held[s] + (hands[s],) for s in range(n))
    shown = list(state.shown_at)
    for pair in chosen:
        for card in pair:
            shown[card] = state.applied
    return replace(
        state,
        phase="place",
        hands=hands,
        held=held,
        shown_at=tuple(shown),
        placed=(False,) * n,
    )


def check_place(state: ClassicOhanamiState, event: ClassicOhanamiPlace) -> Rows:
    """The rows after ``event``; raises RuleViolation unless it is legal now."""
    if state.phase != "place":
        raise RuleViolation(
            f"cards are placed once everyone's two are shown, not in the {state.phase} phase",
            R_PLACE_CARDS,
        )
    seat = event.player
    chosen = state.chosen[seat]
    assert chosen is not None
    if sorted(event.cards) != list(chosen):
        raise RuleViolation(
            f"{state.setup.players[seat]} chose {chosen[0]} and {chosen[1]}, and places each once",
            R_PLACE_CARDS,
        )
    rows = state.rows[seat]
    for card, row in zip(event.cards, event.rows, strict=True):
        rows = placed(rows, card, row)
    return rows


@on(ClassicOhanamiPlace)
def _place(state: ClassicOhanamiState, event: ClassicOhanamiPlace) -> ClassicOhanamiState:
    rows = check_place(state, event)
    seat = event.player
    all_rows = state.rows[:seat] + (rows,) + state.rows[seat + 1 :]
    dropped = tuple(c for c, r in zip(event.cards, event.rows, strict=True) if r is None)
    done = state.placed[:seat] + (True,) + state.placed[seat + 1 :]
    state = replace(
        state,
        rows=all_rows,
        discards=tuple(sorted(state.discards + dropped)),  # the same whoever placed first
        placed=done,
        applied=state.applied + 1,
    )
    if not all(done):
        return state
    n = state.n_players
    state = replace(state, chosen=(None,) * n, placed=(False,) * n)
    if state.step < STEPS:
        return replace(state, phase="choose", step=state.step + 1)
    return _end_round(state)


def _end_round(state: ClassicOhanamiState) -> ClassicOhanamiState:
    parts = []
    for rows in state.rows:
        by_kind = score_parts(rows, state.round, state.setup.triangle)
        parts.append((by_kind["blue"], by_kind["green"], by_kind["grey"], by_kind["pink"]))
    points = tuple(sum(p) for p in parts)
    over = state.round == ROUNDS
    return replace(
        state,
        scores=state.scores + (points,),
        parts=state.parts + (tuple(parts),),
        phase="over" if over else "deal",
        outcome="finished" if over else None,
        step=0,
        hands=((),) * state.n_players,
    )


def to_act(state: ClassicOhanamiState) -> tuple[int, ...]:
    """Everyone at once: who has not entered their hand, chosen, or placed in this step."""
    if state.outcome is not None:
        return ()
    if state.phase == "hand":
        return tuple(s for s, h in enumerate(state.hands) if h is None)
    if state.phase == "choose":
        return tuple(s for s, c in enumerate(state.chosen) if c is None)
    if state.phase == "place":
        return tuple(s for s, p in enumerate(state.placed) if not p)
    return ()


def turn(state: ClassicOhanamiState) -> int:
    """The step being played, counted over the game (1-15): a step is the game's own turn
    (choosing, then placing; at a table a round's first step opens with the hands)."""
    return max((state.round - 1) * STEPS + state.step, 1)


def together(state: ClassicOhanamiState) -> bool:
    """Every phase of a step is one simultaneous step of every seat."""
    return state.outcome is None and state.phase in ("hand", "choose", "place")


def is_over(state: ClassicOhanamiState) -> bool:
    return state.outcome is not None


def redact(state: ClassicOhanamiState, event: Event, seat: int) -> Event | None:
    """A hand is its holder's; a choice is its chooser's until the last choice shows every
    one; a deal shows a seat its own hand alone; a placement is public."""
    if isinstance(event, ClassicOhanamiDeal):
        if event.hands is None:
            return event
        return replace(
            event, hands=tuple(h if s == seat else () for s, h in enumerate(event.hands))
        )
    if isinstance(event, ClassicOhanamiPlace) or actor(event) == seat:
        return event
    if isinstance(event, ClassicOhanamiChoose):
        return event if to_act(state) == (event.player,) else None
    return None


def kinds(before: ClassicOhanamiState, event: Event, after: ClassicOhanamiState) -> tuple[str, ...]:
    """``deal``; ``reveal`` for the choice that shows a step's cards; ``step`` for the
    placement that ends a step, plus ``round end``."""
    if isinstance(event, ClassicOhanamiDeal):
        return ("deal",)
    if len(after.scores) > len(before.scores):
        return ("step", "round end")
    if before.phase == "choose" and after.phase == "place":
        return ("reveal",)
    if before.phase == "place" and after.phase != "place":
        return ("step",)
    return ("hand",) if isinstance(event, ClassicOhanamiHand) else ("move",)


def choices(state: ClassicOhanamiState, seat: int) -> list[tuple[int, int]]:
    """Every pair ``seat`` may choose now."""
    if state.phase != "choose" or state.chosen[seat] is not None:
        return []
    return list(combinations(state.hands[seat] or (), 2))


def placements(state: ClassicOhanamiState, seat: int) -> list[ClassicOhanamiPlace]:
    """Every way ``seat`` may place its two shown cards now, each outcome once."""
    chosen = state.chosen[seat]
    if state.phase != "place" or state.placed[seat] or chosen is None:
        return []
    rows = state.rows[seat]
    found: dict[Any, ClassicOhanamiPlace] = {}
    for first, second in (chosen, chosen[::-1]):
        for r1 in _destinations(rows):
            try:
                after_first = placed(rows, first, r1)
            except RuleViolation:
                continue
            for r2 in _destinations(after_first):
                try:
                    after = placed(after_first, second, r2)
                except RuleViolation:
                    continue
                found.setdefault(
                    after,
                    ClassicOhanamiPlace(player=seat, cards=(first, second), rows=(r1, r2)),
                )
    return list(found.values())


def _destinations(rows: Rows) -> list[int | None]:
    return [*range(1, min(len(rows) + 1, MAX_ROWS) + 1), None]


def legal_moves(state: ClassicOhanamiState, seat: int) -> list[Event]:
    """Each pair to choose, or each way to place; none while hands are entered (a table's
    hand is whatever was dealt: the recorder names it)."""
    if seat not in to_act(state):
        return []
    if state.phase == "choose":
        return [ClassicOhanamiChoose(player=seat, cards=pair) for pair in choices(state, seat)]
    if state.phase == "place":
        return list(placements(state, seat))
    return []


def result(state: ClassicOhanamiState) -> Result | None:
    """The highest total wins; equal highest totals share the win (ruling O4)."""
    if state.outcome is None:
        return None
    return Result.highest_total(
        state.totals(), state.outcome, {"rounds": [list(r) for r in state.scores]}
    )


def check_known(view: Any, event: Event) -> None:
    """A choice names cards of its chooser's hand: only a page that shows that hand enters
    it. A hand is entered by its holder or by the host (a scribe who was shown it)."""
    if (
        isinstance(event, ClassicOhanamiChoose)
        and view.seat is not None  # a scribe: sees what the table entered
        and view.seat != event.player
        and view.gardens[event.player].hand is None
    ):
        raise hand_not_shown(view.players, event.player, "choice", view.seat)
    if (
        isinstance(event, ClassicOhanamiHand)
        and view.seat is not None
        and view.seat >= 0
        and view.seat != event.player
    ):
        raise hand_not_shown(view.players, event.player, "hand", view.seat)
