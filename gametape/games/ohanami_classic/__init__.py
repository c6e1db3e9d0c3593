"""Ohanami, the published game (Steffen Benndorf, 2019), as
../shared/rules/ohanami-classic.md specifies: 120 cards of four kinds, three rounds of
drafting into up to three rows.

A plug-in like every game: this package, its docs and its tests are all it takes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from gametape.engine.forms import FIXED, Blank, MoveForm
from gametape.engine.ruleset import Declaration, Option, Ruleset
from gametape.events.base import Event
from gametape.games.ohanami_classic import board as _board
from gametape.games.ohanami_classic import notation as _notation
from gametape.games.ohanami_classic import rules as _rules
from gametape.games.ohanami_classic import view as _view
from gametape.games.ohanami_classic.bots import BOTS
from gametape.games.ohanami_classic.events import (
    CLASSIC_OHANAMI_EVENTS,
    ClassicOhanamiChoose,
    ClassicOhanamiDeal,
    ClassicOhanamiPlace,
    ClassicOhanamiSetup,
)
from gametape.games.ohanami_classic.rules import ClassicOhanamiState
from gametape.messages import say, seat_of

OPTIONS = (
    Option(
        "triangle",
        bool,
        False,
        help=say(
            "ohanami-classic.option-triangle",
            "more than 15 pink cards go on up the triangle (16: 136) instead of 120 (O3)",
        ),
    ),
)


class OhanamiClassic(Ruleset[ClassicOhanamiState]):
    """The ``ohanami-classic`` ruleset: 2-4 players, three rounds of five steps."""

    declared = Declaration(
        name="ohanami-classic",
        events=CLASSIC_OHANAMI_EVENTS,
        players=(2, 4),
        options=OPTIONS,
        table=True,
        outcomes=("win", "shared"),
        turn_word="step",
        landmark="round end",
        move_examples=(
            "choose ann 37 52",
            "place ann 37a 52n",
            "place ann 37x 52b",
            "short: a37 52, a37a52n; table: hand ann 3 8 12 …",
        ),
        event_columns={
            "round": "INTEGER",
            "step": "INTEGER",
            "cards": "INTEGER[]",
            "placed": "INTEGER",
            "discarded": "INTEGER",
            "new_rows": "INTEGER",
        },
        player_columns={
            "round_points": "INTEGER[]",
            "blue_points": "INTEGER[]",
            "green_points": "INTEGER[]",
            "grey_points": "INTEGER[]",
            "pink_points": "INTEGER[]",
            "rows": "INTEGER",
            "cards_in_rows": "INTEGER",
            "discards": "INTEGER",
        },
        reports=(
            (
                say(
                    "ohanami-classic.report-points-by-kind",
                    "points by kind and round (mean per player)",
                ),
                """
            SELECT r AS round,
                   round(avg(blue_points[r]), 1) AS blue, round(avg(green_points[r]), 1) AS green,
                   round(avg(grey_points[r]), 1) AS grey, round(avg(pink_points[r]), 1) AS pink,
                   round(avg(round_points[r]), 1) AS total
            FROM ohanami_classic.player_facts, range(1, 4) t(r)
            WHERE len(round_points) >= r
            GROUP BY r ORDER BY r""",
            ),
            (
                say(
                    "ohanami-classic.report-rows-and-discards",
                    "rows and discards (mean per player, finished games)",
                ),
                """
            SELECT round(avg("rows"), 2) AS "rows", round(avg(cards_in_rows), 1) AS cards_in_rows,
                   round(avg(discards), 1) AS discards
            FROM ohanami_classic.player_facts WHERE len(round_points) = 3""",
            ),
        ),
    )
    facets = (_rules,)  # its @on handlers are the game's
    # its parts: each hook bound here, checked by mypy against the contract (Ruleset)
    start = staticmethod(_rules.start)
    to_act = staticmethod(_rules.to_act)
    legal_moves = staticmethod(_rules.legal_moves)
    result = staticmethod(_rules.result)
    is_over = staticmethod(_rules.is_over)
    together = staticmethod(_rules.together)
    turn = staticmethod(_rules.turn)
    check_known = staticmethod(_rules.check_known)
    anytime = staticmethod(_rules.anytime)
    notices = staticmethod(_rules.notices)
    redact = staticmethod(_rules.redact)
    sees = staticmethod(_rules.sees)
    shown = staticmethod(_rules.shown)
    kinds = staticmethod(_rules.kinds)
    hypothesis = staticmethod(_rules.hypothesis)
    parse_move = staticmethod(_notation.parse_move)
    notation = staticmethod(_notation.notation)
    describe = staticmethod(_notation.describe)
    view = staticmethod(_view.view)
    board = staticmethod(_board.board)
    bots = BOTS
    default_bot = "greedy"

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> ClassicOhanamiSetup:
        return ClassicOhanamiSetup(players=tuple(players), triangle=bool(options.get("triangle")))

    def table_setup(
        self, players: Sequence[str], options: Mapping[str, Any]
    ) -> ClassicOhanamiSetup:
        """Shuffled and dealt at the table (ruling O7): each round, every holder enters the
        hand they were dealt; a choice is known when it shows."""
        return ClassicOhanamiSetup(
            players=tuple(players), triangle=bool(options.get("triangle")), table=True
        )

    def chance(self, state: ClassicOhanamiState, rng: random.Random) -> Event | None:
        """Each round's deal: 10 cards each from the box (unknown at a real table)."""
        if state.phase != "deal" or state.outcome is not None:
            return None
        if state.at_table:
            return ClassicOhanamiDeal(round=state.round + 1, hands=None)
        cards = _rules.box(state)
        rng.shuffle(cards)
        n, size = state.n_players, _rules.HAND
        hands = tuple(tuple(sorted(cards[s * size : (s + 1) * size])) for s in range(n))
        return ClassicOhanamiDeal(round=state.round + 1, hands=hands)

    def move_forms(self, state: ClassicOhanamiState, seat: int) -> list[MoveForm]:
        """Each legal move whole, and the short forms Tab completes (``a 37 52``, ``a 37a
        52n``). At a table: a choice of any two cards not shown yet where the hand is not
        known, and the seat's own dealt hand to enter, if it likes (ruling O7b)."""
        forms = super().move_forms(state, seat)
        who = (state.setup.players[seat].lower(), _notation.prefix(state, seat))
        unseen = tuple(str(c) for c in _rules.CARDS if not state.shown_at[c])
        if forms and state.phase == "choose":
            hand = tuple(str(c) for c in state.hands[seat] or ())
            said = [  # on its own page a choice need not name its chooser
                msgspec.structs.replace(form, said=_notation.choice_said(move))
                for form, move in zip(forms, self.legal_moves(state, seat), strict=True)
            ]
            forms = [*said, MoveForm((who, hand, hand))]
        elif forms and state.phase == "place":
            words = _notation.places(state, seat)
            said = [  # "place 37 in row A, then 52 in a new row" on a phone's button
                msgspec.structs.replace(
                    form,
                    said=_notation.said(state, move),
                    glosses=_notation.glosses(state, move),
                )
                for form, move in zip(forms, self.legal_moves(state, seat), strict=True)
            ]
            forms = [*said, MoveForm((who, words, words))]
        elif state.at_table and state.phase == "choose" and seat in _rules.to_act(state):
            forms = [
                MoveForm(
                    (("choose",), who, unseen, unseen),
                    f"choose {who[0]} CARD CARD",
                    say("ohanami-classic.note-choose", "the two cards chosen"),
                    blanks=(
                        FIXED,
                        FIXED,
                        *(
                            Blank(
                                "card",
                                unseen,
                                say("ohanami-classic.form-card", "card"),
                                "cards[]",
                                tuple(map(int, unseen)),
                            ),
                        )
                        * 2,
                    ),
                    kind="ohanami-classic.choose",
                    fixed={"player": seat},
                )
            ]
        table = state.at_table and state.phase in ("choose", "place") and state.entered
        if table and (state.entered[seat] is None or state.void[seat]):
            name = who[0]
            cards = tuple(  # with those shown from it already, for a hand entered late
                str(c) for c in _rules.CARDS if not state.shown_at[c] or c in state.from_hand[seat]
            )
            forms.append(
                MoveForm(
                    (("hand",), (name,), *(cards,) * _rules.HAND),
                    f"hand {name} CARD ×10",
                    say(
                        "ohanami-classic.note-hand",
                        "the {cards} cards {player} was dealt, if {player} enters them",
                        cards=_rules.HAND,
                        player=seat_of(state.setup.players, seat),
                    ),
                    blanks=(
                        FIXED,
                        FIXED,
                        *(
                            Blank(
                                "card",
                                cards,
                                say("ohanami-classic.form-card", "card"),
                                "cards[]",
                                tuple(map(int, cards)),
                            ),
                        )
                        * _rules.HAND,
                    ),
                    kind="ohanami-classic.hand",
                    fixed={"player": seat},
                )
            )
        return forms

    def event_facts(
        self, before: ClassicOhanamiState, event: Event, after: ClassicOhanamiState
    ) -> dict[str, Any]:
        """The round and step; a choice's two cards; a placement's cards, how many went into
        rows, how many were discarded and how many rows it started."""
        facts: dict[str, Any] = {
            "round": after.round if isinstance(event, ClassicOhanamiDeal) else before.round
        }
        if isinstance(event, ClassicOhanamiDeal):
            return facts
        facts["step"] = before.step
        if isinstance(event, ClassicOhanamiChoose):
            facts["cards"] = list(event.cards)
        elif isinstance(event, ClassicOhanamiPlace):
            facts["cards"] = list(event.cards)
            facts["placed"] = sum(r is not None for r in event.rows)
            facts["discarded"] = sum(r is None for r in event.rows)
            seat = event.player
            facts["new_rows"] = len(after.rows[seat]) - len(before.rows[seat])
        return facts

    def player_facts(
        self, state: ClassicOhanamiState, events: Mapping[str, Sequence[Any]]
    ) -> list[dict[str, Any]]:
        out = []
        moves = list(zip(events["actor"], events["type"], events["discarded"], strict=True))
        for seat in range(state.n_players):
            by_kind = [r[seat] for r in state.parts]
            out.append(
                {
                    "round_points": [r[seat] for r in state.scores],
                    "blue_points": [p[0] for p in by_kind],
                    "green_points": [p[1] for p in by_kind],
                    "grey_points": [p[2] for p in by_kind],
                    "pink_points": [p[3] for p in by_kind],
                    "rows": len(state.rows[seat]),
                    "cards_in_rows": sum(len(r) for r in state.rows[seat]),
                    "discards": sum(
                        discarded or 0
                        for who, kind, discarded in moves
                        if who == seat and kind == "ohanami-classic.place"
                    ),
                }
            )
        return out


RULESET = OhanamiClassic()
