"""Hanamikoji (tutorial edition), as ../shared/rules/hanamikoji.md specifies."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gametape.engine.forms import FIXED, Blank, MoveForm
from gametape.engine.ruleset import Declaration, Option, Ruleset
from gametape.events.base import Event
from gametape.games.hanamikoji import board as _board
from gametape.games.hanamikoji import notation as _notation
from gametape.games.hanamikoji import rules as _rules
from gametape.games.hanamikoji import view as _view
from gametape.games.hanamikoji.bots import BOTS
from gametape.games.hanamikoji.events import ARTISTS, HANAMIKOJI_EVENTS, HanamikojiSetup
from gametape.games.hanamikoji.rules import HanamikojiState
from gametape.messages import say

OPTIONS = (
    Option(
        "first",
        int,
        None,
        choices=(0, 1),
        help=say("hanamikoji.option-first", "the seat that starts round 1 (default: drawn)"),
    ),
)


class Hanamikoji(Ruleset[HanamikojiState]):
    """The ``hanamikoji`` ruleset: two players, three rounds of simultaneous secret choices."""

    declared = Declaration(
        name="hanamikoji",
        events=HANAMIKOJI_EVENTS,
        players=(2, 2),
        options=OPTIONS,
        table=True,
        outcomes=("win", "draw"),
        turn_word="round",
        landmark="round",
        move_examples=(
            "assign alice perform=red8 hidden=blue5 sacrifice=green4 vote=violet7",
            "short: a r8 b5 g4 v7 (perform hidden sacrifice vote); table: a r8 ? ? v7",
        ),
        event_columns={
            "round": "INTEGER",
            "captured": "VARCHAR[]",
            "captured_by": "VARCHAR[]",
        },
        player_columns={
            "artists": "INTEGER",
            "votes": "INTEGER",
            "hidden": "INTEGER",
            "ties_lost": "INTEGER",
        },
        reports=(
            (
                say("hanamikoji.report-captures-lost-to-ties", "captures lost to ties"),
                """
            SELECT name, sum(ties_lost) AS ties_lost, count(*) AS games FROM hanamikoji.game_players
            WHERE ties_lost IS NOT NULL
            GROUP BY ALL ORDER BY ties_lost DESC, name""",
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
    hindsight = staticmethod(_rules.hindsight)
    redact = staticmethod(_rules.redact)
    shown = staticmethod(_rules.shown)
    sees = staticmethod(_rules.sees)
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
    ) -> HanamikojiSetup:
        decks = []
        for _ in players:
            deck = list(range(1, _rules.CARDS + 1))
            rng.shuffle(deck)
            decks.append(tuple(deck))
        first = rng.randrange(2)  # drawn even when the option says, so a seed deals alike
        if options.get("first") is not None:
            first = options["first"]
        return HanamikojiSetup(players=tuple(players), decks=tuple(decks), first=first)

    def move_forms(self, state: HanamikojiState, seat: int) -> list[MoveForm]:
        """At a table: the four cards a player assigned, as the table saw them (the performed
        and voted cards are shown when the round resolves; ``?`` for a card not seen)."""
        name = state.setup.players[seat]
        short = tuple(name[: n + 1].lower() for n in range(len(name)))
        if not state.at_table or not _rules.legal_moves_possible(state, seat):
            moves = self.legal_moves(state, seat)
            if not moves:
                return super().move_forms(state, seat)
            forms = [  # on its own page an assignment need not name its player
                MoveForm.literal(self.notation(state, m), m, _notation.assign_said(m))
                for m in moves
            ]
            # the short form Tab completes (``a r8 b5 g4 v7``), from the seat's own hand
            hand = tuple(_rules.card_name(c) for c in state.hands[seat])
            return [*forms, MoveForm(((name, *short), hand, hand, hand, hand))]
        known = tuple(range(1, _rules.CARDS + 1))
        cards = tuple(_rules.card_name(c) for c in known)
        unseen = (*cards, "?")
        return [
            MoveForm(
                (("assign",), (name,), cards, unseen, unseen, cards),
                f"assign {name} PERFORM HIDDEN|? SACRIFICE|? VOTE",
                say(
                    "hanamikoji.note-assign",
                    "the cards shown at the round's end: {example}",
                    example=f"{name[0].lower()} r8 ? ? v7",
                ),
                blanks=(
                    FIXED,
                    FIXED,
                    Blank(
                        "card", cards, say("hanamikoji.form-perform", "perform"), "perform", known
                    ),
                    Blank(
                        "card",
                        unseen[-1:] + cards,
                        say("hanamikoji.form-hidden", "hidden"),
                        "hidden",
                        (None, *known),
                    ),
                    Blank(
                        "card",
                        unseen[-1:] + cards,
                        say("hanamikoji.form-sacrifice", "sacrifice"),
                        "sacrifice",
                        (None, *known),
                    ),
                    Blank("card", cards, say("hanamikoji.form-vote", "vote"), "vote", known),
                ),
                kind="hanamikoji.assign",
                fixed={"player": seat},
            ),
            MoveForm(((name, *short), cards, unseen, unseen, cards)),
        ]

    def table_setup(self, players: Sequence[str], options: Mapping[str, Any]) -> HanamikojiSetup:
        """Both decks were shuffled at the table: cards are known when the table shows them
        (performed and voted cards at the round's end; hidden ones if the players show them)."""
        return HanamikojiSetup(
            players=tuple(players),
            decks=((0,) * _rules.CARDS,) * 2,
            first=options.get("first") or 0,
            table=True,
        )

    def event_facts(
        self, before: HanamikojiState, event: Event, after: HanamikojiState
    ) -> dict[str, Any]:
        """The round the event belongs to, the artists its resolution captured and, in the
        same order, who captured each."""
        captured: list[str] = []
        by: list[str] = []
        if len(after.rounds) > len(before.rounds):
            for seat, artist in enumerate(after.rounds[-1].captured):
                if artist is not None:
                    captured.append(ARTISTS[artist])
                    by.append(before.setup.players[seat])
        return {"round": before.round, "captured": captured, "captured_by": by}

    def player_facts(
        self, state: HanamikojiState, events: Mapping[str, Sequence[Any]]
    ) -> list[dict[str, Any]]:
        """``ties_lost``: rounds where the player performed an unowned artist and did not get
        it because the other player performed the same artist (higher, or the same card)."""
        lost = [0, 0]
        owners: list[int | None] = [None] * len(ARTISTS)
        for record in state.rounds:
            a, b = record.zones
            if _rules.artist_of(a.perform) == _rules.artist_of(b.perform):
                artist = _rules.artist_of(a.perform)
                if owners[artist] is None:
                    for z in (a, b):
                        if record.captured[z.player] is None:
                            lost[z.player] += 1
            for seat, won in enumerate(record.captured):
                if won is not None:
                    owners[won] = seat
        return [
            {
                "artists": state.artists(s),
                "votes": len(state.votes[s]),
                "hidden": len(state.hidden[s]),
                "ties_lost": lost[s],
            }
            for s in (0, 1)
        ]


HANAMIKOJI = RULESET = Hanamikoji()
