"""Ohanami, the published game (Steffen Benndorf, 2019), as
../shared/rules/ohanami-classic.md specifies: 120 cards of four kinds, three rounds of five
steps, up to three rows a player.

A step is two simultaneous moves: every seat chooses two cards face down (the rest of each
hand passes on), then every seat places its two shown cards. At a real table a hand is known
when its holder enters it, if they do: their claim, which the facts (the cards shown) may make
void (ruling O7b).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import msgspec
from msgspec.structs import replace

from gametape.engine.moves import gather
from gametape.engine.ruleset import ONLOOKER, Notice, Result, RuleViolation, hand_not_shown, on
from gametape.events.base import Event, actor
from gametape.games.ohanami_classic.events import (
    ClassicOhanamiChoose,
    ClassicOhanamiDeal,
    ClassicOhanamiHand,
    ClassicOhanamiPlace,
    ClassicOhanamiSetup,
)
from gametape.messages import (
    At,
    Param,
    many,
    say,
    seat_of,
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

R_SETUP = say("ohanami-classic.rule.setup", "2-4 players")
R_DEAL = say(
    "ohanami-classic.rule.deal",
    "each round deals 10 cards to every player from the cards still in the box",
)
R_HAND = say(
    "ohanami-classic.rule.hand",
    "a hand is the 10 cards its holder was dealt, each a number 1-120 (ruling O7)",
)
R_ONCE = say("ohanami-classic.rule.once", "each card 1-120 is in a game once (ruling O7)")
R_CHOOSE = say("ohanami-classic.rule.choose", "a player chooses two cards of their own hand")
R_PLACE = say(
    "ohanami-classic.rule.place",
    "a shown card starts a new row (while the player has fewer than three), goes above a row's "
    "highest card or below its lowest, or is discarded (rulings O2, O5)",
)
R_PLACE_CARDS = say(
    "ohanami-classic.rule.place-cards",
    "a player places the two cards they chose, each once (ruling O2)",
)


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
                say(
                    "ohanami-classic.place",
                    "there are three rows already, so {card} cannot start one",
                    card=card,
                ),
                R_PLACE,
            )
        named = row_name(row) if row <= MAX_ROWS else row
        if not rows:
            said = say(
                "ohanami-classic.no-row-yet",
                "there is no row {row}: no row is started yet, and a new one starts as the next",
                row=named,
            )
        elif len(rows) < MAX_ROWS:
            said = say(
                "ohanami-classic.no-such-row-yet",
                "there is no row {row}: the rows are A-{last}, and a new one starts as the next",
                row=named,
                last=row_name(len(rows)),
            )
        else:
            said = say(
                "ohanami-classic.no-such-row",
                "there is no row {row}: the rows are A-{last}",
                row=named,
                last=row_name(len(rows)),
            )
        raise RuleViolation(said, R_PLACE)
    line = rows[row - 1]
    if card > line[-1]:
        line = (*line, card)
    elif card < line[0]:
        line = (card, *line)
    else:
        raise RuleViolation(
            say(
                "ohanami-classic.place-2",
                "{card} is between the ends of row {row_name} ({line} and {line2})",
                card=card,
                row_name=row_name(row),
                line=line[0],
                line2=line[-1],
            ),
            R_PLACE,
        )
    return (*rows[: row - 1], line, *rows[row:])


class ClassicOhanamiState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position.

    ``phase``: ``deal`` (a round's deal is due), ``choose``, ``place``, ``over``.
    ``hands[seat]`` is the hand a seat holds (None at a table where it is not known: its
    holder's entry, ruling O7b, is what tells it); ``held[seat]`` every hand it received this
    round, in order (the current one last); ``chosen[seat]`` this step's two cards (secret
    while choosing, shown while placing); ``rows[seat]`` its rows, each lowest card first.
    ``shown_at[card]`` is the event (counted from the setup) that showed a card (0: not
    shown); ``dealt`` are the cards dealt in a game the tool dealt. ``scores[r][seat]`` are
    round r + 1's points, ``parts[r][seat]`` the same by kind (blue, green, grey, pink).
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
    # at a table (ruling O7b), per hand of this round by the seat it was dealt to: the cards
    # its holder entered (a claim: None until entered), the event that entered it, whether
    # the facts made it void, and the cards shown from it (facts), two a step in order; the
    # pairs of hands in dispute; and every notice of the game so far
    entered: tuple[tuple[int, ...] | None, ...] = ()
    entered_at: tuple[int, ...] = ()
    void: tuple[bool, ...] = ()
    from_hand: tuple[tuple[int, ...], ...] = ()
    disputes: tuple[tuple[int, int], ...] = ()
    notices: tuple[Notice, ...] = ()

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
        raise RuleViolation(say("ohanami-classic.setup", "{n} players", n=n), R_SETUP)
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
        raise RuleViolation(
            say("ohanami-classic.deal", "a deal in the middle of round {round}", round=state.round),
            R_DEAL,
        )
    if event.round != state.round + 1:
        raise RuleViolation(
            say(
                "ohanami-classic.deal-2",
                "a deal for round {round} where round {value} starts",
                round=event.round,
                value=state.round + 1,
            ),
            R_DEAL,
        )
    n = state.n_players
    applied = state.applied + 1
    after = _open_round(replace(state, applied=applied), event.round)
    if event.hands is None:
        if not state.at_table:
            raise RuleViolation(
                say(
                    "ohanami-classic.deal-6",
                    'a deal of unknown hands (null), but the setup does not say "table": true',
                ),
                R_DEAL,
            )
        return replace(
            after,
            phase="choose",
            hands=(None,) * n,
            entered=(None,) * n,
            entered_at=(0,) * n,
            void=(False,) * n,
            from_hand=((),) * n,
            disputes=(),
        )
    if state.at_table:
        raise RuleViolation(
            say(
                "ohanami-classic.deal-3",
                'a deal of known hands in a game recorded at a table (setup "table": true): there '
                "each holder enters their hand",
            ),
            R_DEAL,
        )
    if len(event.hands) != n or any(len(h) != HAND for h in event.hands):
        raise RuleViolation(
            say(
                "ohanami-classic.deal-4",
                "a deal of [{hands}] cards",
                hands=many(len(h) for h in event.hands),
            ),
            R_DEAL,
        )
    cards = [c for h in event.hands for c in h]
    if len(set(cards)) != len(cards) or any(c not in CARDS or c in state.dealt for c in cards):
        raise RuleViolation(
            say(
                "ohanami-classic.deal-5",
                "a deal whose cards are not all different cards still in the box",
            ),
            R_DEAL,
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
    return RuleViolation(
        say(
            "ohanami-classic.shown-already",
            "{card} was shown already (at seq {at})",
            card=card,
            at=At(at),
        ),
        R_ONCE,
    )


@on(ClassicOhanamiHand)
def _hand(state: ClassicOhanamiState, event: ClassicOhanamiHand) -> ClassicOhanamiState:
    """A hand entered at a table, at any time of its round: its holder's claim, checked
    against the facts (ruling O7b); a clash with another hand is a dispute, not a refusal."""
    if not state.at_table or state.phase not in ("choose", "place"):
        raise RuleViolation(
            say(
                "ohanami-classic.hand-when",
                "a hand is entered during its round, in a game recorded at a table",
            ),
            R_HAND,
        )
    cards = event.cards
    if len(cards) != HAND:
        raise RuleViolation(
            say("ohanami-classic.hand-size", "a hand of {cards} cards", cards=len(cards)), R_HAND
        )
    bad = next((c for c in cards if c not in CARDS), None)
    if bad is not None:
        raise RuleViolation(
            say(
                "ohanami-classic.no-such-card",
                "there is no card {card}: the cards are 1-120",
                card=bad,
            ),
            R_HAND,
        )
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        raise RuleViolation(
            say("ohanami-classic.twice-in-hand", "{card} is in the hand twice", card=twice), R_ONCE
        )
    seat = event.player
    holder = seat_of(state.setup.players, seat)
    if state.entered[seat] is not None and not state.void[seat]:
        raise RuleViolation(
            say(
                "ohanami-classic.hand-entered",
                "{holder}'s hand is entered already (at seq {at})",
                holder=holder,
                at=At(state.entered_at[seat]),
            ),
            R_HAND,
        )
    shown_from = state.from_hand[seat]
    for card in cards:  # against what every seat saw
        if card not in shown_from:
            problem = _shown_problem(state, card)
            if problem is not None:
                raise problem
    missing = next((c for c in shown_from if c not in cards), None)
    if missing is not None:
        raise RuleViolation(
            say(
                "ohanami-classic.hand-misses-shown",
                "{missing} was shown from {holder}'s hand (at seq {at}), and the hand does not "
                "name it",
                missing=missing,
                holder=holder,
                at=At(state.shown_at[missing]),
            ),
            R_HAND,
        )
    this = state.applied + 1
    state = replace(
        state,
        entered=_put(state.entered, seat, tuple(sorted(cards))),
        entered_at=_put(state.entered_at, seat, this),
        void=_put(state.void, seat, False),
        applied=this,
    )
    return _known(_settled(state))


def _put(values: tuple[Any, ...], at: int, value: Any) -> tuple[Any, ...]:
    return (*values[:at], value, *values[at + 1 :])


def _passes(state: ClassicOhanamiState) -> int:
    """How many times the hands have passed this round: after a step's reveal they have
    (its placing is done with the next hands in hand)."""
    return state.step - 1 + (1 if state.phase == "place" else 0)


def origin(state: ClassicOhanamiState, seat: int, passes: int | None = None) -> int:
    """The seat whose dealt hand ``seat`` holds after ``passes`` passes (default: now)."""
    done = _passes(state) if passes is None else passes
    return (seat - pass_step(state.round) * done) % state.n_players


def holders(state: ClassicOhanamiState, dealt_to: int) -> tuple[int, ...]:
    """Who has held the hand dealt to ``dealt_to`` this round so far: its claim is theirs to
    see (ruling O7b)."""
    n, step = state.n_players, pass_step(state.round)
    passes = min(_passes(state), STEPS - 1)  # the fifth step's reveal passes nothing
    return tuple(dict.fromkeys((dealt_to + step * k) % n for k in range(passes + 1)))


def _claim(state: ClassicOhanamiState, dealt_to: int) -> tuple[int, ...] | None:
    """The entered hand dealt to ``dealt_to``, unless void."""
    return None if state.void[dealt_to] else state.entered[dealt_to]


def _known(state: ClassicOhanamiState) -> ClassicOhanamiState:
    """At a table: the hand each seat holds, and those it held this round, where their
    claims tell them (the cards left of an entered hand)."""
    if not state.at_table or not state.entered:
        return state
    passes = _passes(state)
    hands: list[tuple[int, ...] | None] = []
    held: list[tuple[tuple[int, ...], ...]] = []
    for seat in range(state.n_players):
        known = []
        for done in range(min(passes, STEPS - 1) + 1):
            claim = _claim(state, origin(state, seat, done))
            gone = state.from_hand[origin(state, seat, done)][: 2 * done]
            known.append(None if claim is None else tuple(c for c in claim if c not in gone))
        now = known[-1] if passes < STEPS else ()
        hands.append(now)
        held.append(tuple(h for h in known if h is not None))
    return replace(state, hands=tuple(hands), held=tuple(held))


def _settled(state: ClassicOhanamiState) -> ClassicOhanamiState:
    """After an event at a table: an entered hand the facts contradict is void (a card shown
    from it that it does not name, or a card it names shown from another hand), and two
    entered hands that name one card are in dispute (ruling O7b); each new one a notice,
    told to those who saw the hands."""
    names = state.setup.players
    this = state.applied
    void = list(state.void)
    notices = list(state.notices)
    for dealt_to in range(state.n_players):
        claim = _claim(state, dealt_to)
        if claim is None:
            continue
        shown = state.from_hand[dealt_to]
        missing = next((c for c in shown if c not in claim), None)
        elsewhere = next((c for c in claim if state.shown_at[c] and c not in shown), None)
        if missing is None and elsewhere is None:
            continue
        void[dealt_to] = True
        holder = seat_of(names, dealt_to)
        why = (
            say(
                "ohanami-classic.shown-not-named",
                "{card} was shown from it and it does not name {card}",
                card=missing,
            )
            if missing is not None
            else say(
                "ohanami-classic.named-shown-elsewhere",
                "it names {card}, shown from another hand",
                card=elsewhere,  # type: ignore[arg-type]
            )
        )
        notices.append(
            Notice(
                at=this,
                message=say(
                    "ohanami-classic.hand-void",
                    "{holder}'s hand as entered at seq {at} is void from seq {now}: {why}",
                    holder=holder,
                    at=At(state.entered_at[dealt_to]),
                    now=At(this),
                    why=why,
                ),
                seats=holders(state, dealt_to),
                told=say(
                    "ohanami-classic.hand-void-told",
                    "{holder}'s hand as entered: {why}; the entered hand no longer counts",
                    holder=holder,
                    why=why,
                ),
            )
        )
    state = replace(state, void=tuple(void))
    disputes = []
    for a, b in combinations(range(state.n_players), 2):
        claim_a, claim_b = _claim(state, a), _claim(state, b)
        if claim_a is None or claim_b is None:
            continue
        both = sorted(set(claim_a) & set(claim_b))
        if not both:
            continue
        disputes.append((a, b))
        if (a, b) in state.disputes:
            continue
        seen_both = tuple(s for s in holders(state, a) if s in holders(state, b))
        pair: dict[str, Param] = {
            "first": seat_of(names, a),
            "second": seat_of(names, b),
            "card": both[0],
        }
        notices.append(
            Notice(
                at=this,
                message=say(
                    "ohanami-classic.hands-dispute",
                    "{first}'s hand (entered at seq {at}) and {second}'s (at seq {at2}) both "
                    "name {card}: they are in dispute",
                    at=At(state.entered_at[a]),
                    at2=At(state.entered_at[b]),
                    **pair,
                ),
                seats=seen_both,
                told=say(
                    "ohanami-classic.hands-dispute-told",
                    "{first}'s hand and {second}'s as entered both name {card}: they are in "
                    "dispute",
                    **pair,
                ),
            )
        )
    return replace(state, disputes=tuple(disputes), notices=tuple(notices))


@on(ClassicOhanamiChoose)
def _choose(state: ClassicOhanamiState, event: ClassicOhanamiChoose) -> ClassicOhanamiState:
    if state.phase != "choose":
        raise RuleViolation(
            say(
                "ohanami-classic.choose",
                "cards are chosen at the start of a step, not in the {phase} phase",
                phase=state.phase,
            ),
            R_CHOOSE,
        )
    seat = event.player
    name = state.setup.players[seat]
    a, b = event.cards
    if a == b:
        raise RuleViolation(say("ohanami-classic.choose-2", "{a} is chosen twice", a=a), R_CHOOSE)
    for card in event.cards:
        if state.at_table:  # the facts alone: an entered hand is checked by who sees it
            problem = _shown_problem(state, card) if card in CARDS else None
            if card not in CARDS:
                raise RuleViolation(
                    say(
                        "ohanami-classic.choose-3",
                        "there is no card {card}: the cards are 1-120",
                        card=card,
                    ),
                    R_CHOOSE,
                )
            if problem is not None:
                raise problem
        elif card not in (state.hands[seat] or ()):
            raise RuleViolation(
                say(
                    "ohanami-classic.choose-4",
                    "{card} is not in {name}'s hand",
                    card=card,
                    name=name,
                ),
                R_CHOOSE,
            )
    applied = state.applied + 1
    chosen, complete = gather(state.chosen, seat, (min(a, b), max(a, b)))
    state = replace(state, chosen=chosen, applied=applied)
    if complete is None:
        return state
    names = state.setup.players
    for x, y in combinations(range(len(complete)), 2):
        both = sorted(set(complete[x]) & set(complete[y]))
        if both:  # the step's end shows every choice: this one clashes with another
            raise RuleViolation(
                say(
                    "ohanami-classic.once-3",
                    "{both} is chosen by {x} and by {y}: one of the two is entered wrong (take "
                    "one back and enter it again)",
                    both=both[0],
                    x=seat_of(names, x),
                    y=seat_of(names, y),
                ),
                R_ONCE,
            )
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
    after = replace(
        state,
        phase="place",
        hands=hands,
        held=held,
        shown_at=tuple(shown),
        placed=(False,) * n,
    )
    if not state.at_table or not state.entered:
        return after
    from_hand = list(state.from_hand)
    for seat, pair in enumerate(chosen):
        dealt_to = origin(state, seat)
        from_hand[dealt_to] = (*from_hand[dealt_to], *pair)
    return _known(_settled(replace(after, from_hand=tuple(from_hand))))


def check_place(state: ClassicOhanamiState, event: ClassicOhanamiPlace) -> Rows:
    """The rows after ``event``; raises RuleViolation unless it is legal now."""
    if state.phase != "place":
        raise RuleViolation(
            say(
                "ohanami-classic.place-cards",
                "cards are placed once everyone's two are shown, not in the {phase} phase",
                phase=state.phase,
            ),
            R_PLACE_CARDS,
        )
    seat = event.player
    chosen = state.chosen[seat]
    assert chosen is not None
    if sorted(event.cards) != list(chosen):
        raise RuleViolation(
            say(
                "ohanami-classic.place-cards-2",
                "{seat} chose {chosen} and {chosen2}, and places each once",
                seat=seat_of(state.setup.players, seat),
                chosen=chosen[0],
                chosen2=chosen[1],
            ),
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
        return _known(replace(state, phase="choose", step=state.step + 1))
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
        entered=(),
    )


def to_act(state: ClassicOhanamiState) -> tuple[int, ...]:
    """Everyone at once: who has not entered their hand, chosen, or placed in this step."""
    if state.outcome is not None:
        return ()
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
    return state.outcome is None and state.phase in ("choose", "place")


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
    if isinstance(event, ClassicOhanamiChoose):  # the step's last choice shows every one
        return event if len(to_act(state)) == 1 else None
    if isinstance(event, ClassicOhanamiHand):  # the others see that it was entered
        return replace(event, cards=())
    return None


def sees(state: ClassicOhanamiState, event: Event, seat: int) -> bool:
    """A hand entered at a table is seen by everyone who holds it in its round, before the
    entry or after it (ruling O7b): the framework tells them the entry (``engine.told``)."""
    return (
        isinstance(event, ClassicOhanamiHand)
        and bool(state.entered)
        and state.entered[event.player] == tuple(sorted(event.cards))
        and seat in holders(state, event.player)
    )


def shown(state: ClassicOhanamiState, event: Event, seat: int) -> Event | None:
    """Of a dealt round, the hands ``seat`` has held by ``state`` (each hand, in no order:
    the cards taken from it before were shown); by a later round, every hand."""
    if not isinstance(event, ClassicOhanamiDeal) or event.hands is None:
        return None
    held: Sequence[int] = range(state.n_players) if event.round < state.round else ()
    if event.round == state.round and seat != ONLOOKER:
        held = [d for d in range(state.n_players) if seat in holders(state, d)]
    hands = tuple(tuple(sorted(h)) if d in held else () for d, h in enumerate(event.hands))
    return replace(event, hands=hands)


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
    it. A hand is entered by its holder or by the host (a scribe who was shown it). At a
    table, an entry is checked against the entered hands its sender sees (ruling O7b): a
    choice against the hand as entered, a hand against the others the sender has held."""
    names = view.players
    if isinstance(event, ClassicOhanamiChoose) and 0 <= event.player < len(view.gardens):
        hand = view.gardens[event.player].hand
        if view.seat is not None and view.seat != event.player and hand is None:
            raise hand_not_shown(
                names, event.player, say("ohanami-classic.choice", "choice"), view.seat
            )
        if view.table and hand is not None:
            for card in event.cards:
                if card not in hand:
                    raise RuleViolation(
                        say(
                            "ohanami-classic.choose-5",
                            "{card} is not in {player}'s hand as it was entered",
                            card=card,
                            player=seat_of(names, event.player),
                        ),
                        R_CHOOSE,
                    )
    if isinstance(event, ClassicOhanamiHand) and 0 <= event.player < len(view.gardens):
        if view.seat is not None and view.seat >= 0 and view.seat != event.player:
            raise hand_not_shown(
                names, event.player, say("ohanami-classic.hand", "hand"), view.seat
            )
        for seat, garden in enumerate(view.gardens):
            seen = [garden.hand] if garden.hand is not None and seat != event.player else []
            for other in [*seen, *garden.held]:
                both = sorted(set(other) & set(event.cards))
                if both and other in seen:
                    raise RuleViolation(
                        say(
                            "ohanami-classic.once-4",
                            "{both} is in {seat}'s hand and in {player}'s: one of the two is "
                            "entered wrong (take one back and enter it again)",
                            both=both[0],
                            seat=seat_of(names, seat),
                            player=seat_of(names, event.player),
                        ),
                        R_ONCE,
                    )
                if both and seat == view.seat:
                    raise RuleViolation(
                        say(
                            "ohanami-classic.once-5",
                            "{both} is in a hand {seat} held this round: one of the two is "
                            "entered wrong (take one back and enter it again)",
                            both=both[0],
                            seat=seat_of(names, seat),
                        ),
                        R_ONCE,
                    )


def anytime(state: ClassicOhanamiState, event: Event) -> bool:
    """At a table a hand is entered whenever its holder likes during its round (O7b)."""
    return isinstance(event, ClassicOhanamiHand) and state.at_table


def notices(state: ClassicOhanamiState) -> tuple[Notice, ...]:
    """Entered hands the facts made void, and entered hands in dispute (ruling O7b)."""
    return state.notices


def hypothesis(events: Sequence[Event], seat: int) -> list[Event]:
    """The game as ``seat`` saw it, recorded as at a table (ruling O7b makes that possible: a
    hand is entered only if its holder likes): no deal's hands, the seat's own hand entered
    as it was dealt or as it entered it, no other seat's hand, every choice of a step that
    was shown, the seat's own choice of the step still open and none of the others', and
    every placement."""
    from gametape.engine.fold import walk_live
    from gametape.engine.registry import ruleset_for  # the game's own, looked up

    setup = events[0]
    assert isinstance(setup, ClassicOhanamiSetup)
    rules = ruleset_for(setup)
    seen: list[Event] = [replace(setup, table=True)]
    open_: list[int] = []  # where in ``seen`` the choices of the step still open are
    for event, before, after in walk_live(rules, events):
        if isinstance(event, ClassicOhanamiDeal):
            seen.append(replace(event, hands=None))
            if event.hands is not None:  # dealt by the tool: the seat saw its own hand
                own = tuple(event.hands[seat])
                seen.append(ClassicOhanamiHand(player=seat, cards=own))
            continue
        if isinstance(event, ClassicOhanamiHand):
            if event.player == seat:
                seen.append(event)
            continue
        seen.append(event)
        if isinstance(event, ClassicOhanamiChoose):
            open_.append(len(seen) - 1)
            if after.phase != before.phase:
                open_ = []  # the step's choices were shown
    hidden = {i for i in open_ if actor(seen[i]) != seat}
    return [e for i, e in enumerate(seen) if i not in hidden]
