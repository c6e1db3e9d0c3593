"""Ohanami (tutorial edition), as ../shared/rules/ohanami.md specifies."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gametape.engine.forms import FIXED, Blank, MoveForm
from gametape.engine.ruleset import Declaration, Ruleset
from gametape.events.base import Event
from gametape.games.ohanami import board as _board
from gametape.games.ohanami import notation as _notation
from gametape.games.ohanami import rules as _rules
from gametape.games.ohanami import view as _view
from gametape.games.ohanami.bots import BOTS
from gametape.games.ohanami.events import OHANAMI_EVENTS, OhanamiDeal, OhanamiPick, OhanamiSetup
from gametape.games.ohanami.rules import OhanamiState
from gametape.messages import say, seat_of


class Ohanami(Ruleset[OhanamiState]):
    """The ``ohanami`` ruleset: 2-4 players, simultaneous picks, three seasons."""

    declared = Declaration(
        name="ohanami",
        events=OHANAMI_EVENTS,
        players=(2, 4),
        table=True,
        outcomes=("win", "shared"),
        landmark="round end",
        move_examples=("pick bob 37 row=2", "pick bob 5 discard", "short: b 37 2, b 5 x"),
        event_columns={
            "round": "INTEGER",
            "card": "INTEGER",
            "row": "INTEGER",
            "row_length": "INTEGER",
        },
        player_columns={
            "cards_placed": "INTEGER",
            "discards": "INTEGER",
            "points_spring": "INTEGER",
            "points_summer": "INTEGER",
            "points_autumn": "INTEGER",
        },
        reports=(
            (
                say("ohanami.report-discards-by-season", "discards by season"),
                """
            SELECT CASE round WHEN 1 THEN 'spring' WHEN 2 THEN 'summer' ELSE 'autumn' END
                   AS season, count(*) AS discards FROM ohanami.events
            WHERE type = 'ohanami.pick' AND "row" IS NULL
            GROUP BY round ORDER BY round""",
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
    check_known = staticmethod(_rules.check_known)
    redact = staticmethod(_rules.redact)
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
    ) -> OhanamiSetup:
        return OhanamiSetup(players=tuple(players))

    def table_setup(self, players: Sequence[str], options: Mapping[str, Any]) -> OhanamiSetup:
        """Each round is shuffled and dealt at the table; a card is known once picked."""
        return OhanamiSetup(players=tuple(players), table=True)

    def chance(self, state: OhanamiState, rng: random.Random) -> Event | None:
        """The next round's deal: every card outside the rows, shuffled (ruling R3)."""
        if not state.needs_deal:
            return None
        if state.setup.at_table:  # shuffled at the table: the order is not known
            return OhanamiDeal(round=state.round + 1, deck=None)
        deck = list(state.deck + state.discards)
        rng.shuffle(deck)
        return OhanamiDeal(round=state.round + 1, deck=tuple(deck))

    def move_forms(self, state: OhanamiState, seat: int) -> list[MoveForm]:
        """At a table: the card the player picked and where it goes (the hand is unknown)."""
        name = state.setup.players[seat]
        if not state.at_table or not _rules.legal_to_pick(state, seat):
            moves = self.legal_moves(state, seat)
            if not moves:
                return super().move_forms(state, seat)
            forms = [  # on its own page a pick need not name its picker
                MoveForm.literal(self.notation(state, m), m, _notation.pick_said(m)) for m in moves
            ]
            # the short form Tab completes (``a 37 2``), from the cards the seat may pick
            picks = [m for m in moves if isinstance(m, OhanamiPick)]
            cards = tuple(dict.fromkeys(str(m.card) for m in picks))
            places = ("1", "2", "3", "x")
            return [*forms, MoveForm(((name, name[0].lower()), cards, places))]
        placed = {c for garden in state.rows for row in garden for c in row}
        cards = tuple(str(c) for c in _rules.CARDS if c not in placed)
        rows = ("row=1", "row=2", "row=3", "discard", "1", "2", "3", "x")
        return [
            MoveForm(
                (("pick",), (name,), cards, rows),
                f"pick {name} CARD row=1|2|3|discard",
                say(
                    "ohanami.note-pick",
                    "say the card {player} picked: {example} (x: discarded)",
                    player=seat_of(state.setup.players, seat),
                    example=f"{name[0].lower()} 37 2",
                ),
                blanks=(
                    FIXED,
                    FIXED,
                    Blank(
                        "card",
                        cards,
                        say("ohanami.form-card", "card"),
                        "card",
                        tuple(map(int, cards)),
                    ),
                    Blank("row", rows[:4], say("ohanami.form-row", "row"), "row", (1, 2, 3, None)),
                ),
                kind="ohanami.pick",
                fixed={"player": seat},
            ),
            MoveForm(((name, name[0].lower()), cards, rows)),  # the short form, completed only
        ]

    def event_facts(
        self, before: OhanamiState, event: Event, after: OhanamiState
    ) -> dict[str, Any]:
        """The round; for a pick, the card, its row (NULL: discarded) and the row's length
        once placed (the placement happens when the turn resolves)."""
        facts: dict[str, Any] = {
            "round": after.round if isinstance(event, OhanamiDeal) else before.round
        }
        if isinstance(event, OhanamiPick):
            facts["card"] = event.card
            if event.row is not None:
                facts["row"] = event.row
                placed = before.rows[event.player][event.row - 1]
                facts["row_length"] = len(placed) + 1
        return facts

    def player_facts(
        self, state: OhanamiState, events: Mapping[str, Sequence[Any]]
    ) -> list[dict[str, Any]]:
        rows = []
        moves = list(zip(events["actor"], events["type"], events["row"], strict=True))
        for seat in range(state.n_players):
            points = [r[seat] for r in state.scores] + [None] * (3 - len(state.scores))
            rows.append(
                {
                    "cards_placed": sum(len(r) for r in state.rows[seat]),
                    "discards": sum(
                        1
                        for who, kind, row in moves
                        if who == seat and kind == "ohanami.pick" and row is None
                    ),
                    "points_spring": points[0],
                    "points_summer": points[1],
                    "points_autumn": points[2],
                }
            )
        return rows


OHANAMI = RULESET = Ohanami()
