"""Hanamikoji, the published game (Kota Nakayama, 2013), as
../shared/rules/hanamikoji-classic.md specifies: seven geishas, 21 item cards, four actions.

A plug-in like every game: this package, its docs and its tests are all it takes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from gametape.engine.forms import FIXED, Blank, MoveForm
from gametape.engine.ruleset import Declaration, Option, Ruleset
from gametape.events.base import Event, actor
from gametape.games.hanamikoji_classic import board as _board
from gametape.games.hanamikoji_classic import notation as _notation
from gametape.games.hanamikoji_classic import rules as _rules
from gametape.games.hanamikoji_classic import view as _view
from gametape.games.hanamikoji_classic.bots import BOTS
from gametape.games.hanamikoji_classic.events import (
    CLASSIC_EVENTS,
    GEISHAS,
    ClassicCompete,
    ClassicDeal,
    ClassicSecret,
    ClassicSetup,
    ClassicTrade,
)
from gametape.games.hanamikoji_classic.rules import ClassicState
from gametape.messages import say

OPTIONS = (
    Option(
        "first",
        int,
        None,
        choices=(0, 1),
        help=say(
            "hanamikoji-classic.option-first", "the seat that starts round 1 (default: drawn)"
        ),
    ),
)


class HanamikojiClassic(Ruleset[ClassicState]):
    """The ``hanamikoji-classic`` ruleset: two players, rounds until 11 points or 4 geishas."""

    declared = Declaration(
        name="hanamikoji-classic",
        events=CLASSIC_EVENTS,
        players=(2, 2),
        options=OPTIONS,
        table=True,
        outcomes=("win",),
        turn_word="round",
        landmark="scoring",
        move_examples=(
            "secret pink",
            "trade red blue",
            "gift red blue blue",
            "compete red blue / green pink",
            "choose blue",
            "short: s p, t rb, g rbb, c rb gp, x b; table: s, t, show ann pink",
        ),
        event_columns={
            "round": "INTEGER",
            "action": "VARCHAR",
            "action_order": "INTEGER",
            "cards": "VARCHAR[]",
        },
        player_columns={
            "points": "INTEGER",
            "geishas": "INTEGER",
            "rounds": "INTEGER",
            "first_action": "VARCHAR",
        },
        reports=(
            (
                say(
                    "hanamikoji-classic.report-first-action",
                    "first action of a round, and how often its player won the game",
                ),
                """
            SELECT e.action, count(*) AS times, count(*) FILTER (WHERE p.won) AS won
            FROM hanamikoji_classic.events e
            JOIN game_players p ON p.game_id = e.game_id AND p.seat = e.actor
            WHERE e.action_order = 1 AND e.action <> 'choose'
            GROUP BY ALL ORDER BY times DESC, e.action""",
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
    not_to_act = staticmethod(_rules.not_to_act)
    together = staticmethod(_rules.together)
    turn = staticmethod(_rules.turn)
    check_known = staticmethod(_rules.check_known)
    notices = staticmethod(_rules.notices)
    hindsight = staticmethod(_rules.hindsight)
    hypothesis = staticmethod(_rules.hypothesis)
    parse_move = staticmethod(_notation.parse_move)
    notation = staticmethod(_notation.notation)
    describe = staticmethod(_notation.describe)
    kinds = staticmethod(_notation.kinds)
    view = staticmethod(_view.view)
    board = staticmethod(_board.board)
    bots = BOTS  # type: ignore[assignment]
    default_bot = "greedy"

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> ClassicSetup:
        first = options.get("first")
        return ClassicSetup(
            players=tuple(players), first=rng.randrange(2) if first is None else first
        )

    def table_setup(self, players: Sequence[str], options: Mapping[str, Any]) -> ClassicSetup:
        """Shuffled and dealt at the table (ruling C4): hands, the removed card and
        trade-offs stay unknown; gift and competition cards are named when shown, secret
        cards at scoring (`show PLAYER CARD`)."""
        return ClassicSetup(players=tuple(players), first=options.get("first") or 0, table=True)

    def chance(self, state: ClassicState, rng: random.Random) -> Event | None:
        """Each round's shuffle of all 21 cards (unknown order at a real table)."""
        if state.phase != "deal" or state.outcome is not None:
            return None
        if state.at_table:
            return ClassicDeal(round=state.round + 1, deck=None)
        deck = list(_rules.DECK)
        rng.shuffle(deck)
        return ClassicDeal(round=state.round + 1, deck=tuple(deck))

    def shown(self, state: ClassicState, event: Event, seat: int) -> Event | None:
        """Of a round's shuffle, what ``seat`` has seen by ``state``: its own six cards and
        the pile's cards it drew (the pile is drawn in turn, its round's first player
        first); never the removed card. The other's cards show in its moves, as told."""
        if not isinstance(event, ClassicDeal) or event.deck is None or seat not in (0, 1):
            return None
        if event.round == state.round:
            first, drawn = state.first, len(event.deck) - 1 - 2 * _rules.HAND - len(state.pile)
        else:
            first, drawn = (
                state.history[event.round - 1].first,
                len(event.deck) - 1 - 2 * _rules.HAND,
            )
        own = range(1 + seat * _rules.HAND, 1 + (seat + 1) * _rules.HAND)
        draws = range(1 + 2 * _rules.HAND, 1 + 2 * _rules.HAND + drawn)
        mine = {*own, *(i for i in draws if (first + i - 1 - 2 * _rules.HAND) % 2 == seat)}
        return replace(event, deck=tuple(c if i in mine else -1 for i, c in enumerate(event.deck)))

    def redact(self, state: ClassicState, event: Event, seat: int) -> Event | None:
        """Secret and trade-off cards are seen by their player alone (the others see that the
        action was taken); no one sees a deal's order."""
        if isinstance(event, ClassicDeal):
            return replace(event, deck=None) if event.deck is not None else event
        if isinstance(event, ClassicSecret) and event.player != seat:
            return replace(event, card=None)
        if isinstance(event, ClassicTrade) and event.player != seat:
            return replace(event, cards=None)
        return event

    def move_forms(self, state: ClassicState, seat: int) -> list[MoveForm]:
        """At a table, on a turn: each action not used yet this round, with the cards the
        table saw (a secret or trade-off may stay unnamed: ``s``, ``t``)."""
        if not state.at_table or state.phase != "act" or seat not in _rules.to_act(state):
            return super().move_forms(state, seat)
        geishas = tuple((*GEISHAS, *(g[0] for g in GEISHAS)))
        named = (*geishas, "?")
        label = say("hanamikoji-classic.form-card", "card")
        each = tuple(range(len(GEISHAS)))

        def card(field: str) -> Blank:
            return Blank("card", GEISHAS, label, field, each)

        def maybe(field: str) -> Blank:  # "?": a card its player did not say
            return Blank("card", ("?", *GEISHAS), label, field, (None, *each))

        mine = {"player": seat}
        forms = {
            "secret": MoveForm(
                (("secret", "s"), named),
                "secret [CARD]",
                say("hanamikoji-classic.note-secret", "the card only if its player says: s v"),
                blanks=(FIXED, maybe("card")),
                kind="hanamikoji-classic.secret",
                fixed=mine,
            ),
            "trade": MoveForm(
                (("trade", "t"), named, named),
                "trade [CARD CARD]",
                say("hanamikoji-classic.note-trade", "the cards if said: t rb"),
                blanks=(FIXED, maybe("cards[]"), maybe("cards[]")),
                kind="hanamikoji-classic.trade",
                fixed=mine,
            ),
            "gift": MoveForm(
                (("gift", "g"), geishas, geishas, geishas),
                "gift CARD CARD CARD",
                say("hanamikoji-classic.note-gift", "the three cards shown: g r b b"),
                blanks=(FIXED, card("cards[]"), card("cards[]"), card("cards[]")),
                kind="hanamikoji-classic.gift",
                fixed=mine,
            ),
            "compete": MoveForm(
                (("compete", "c"), geishas, geishas, ("/",), geishas, geishas),
                "compete CARD CARD / CARD CARD",
                say("hanamikoji-classic.note-compete", "the two pairs shown: c r b / g p"),
                blanks=(
                    FIXED,
                    card("pairs.0[]"),
                    card("pairs.0[]"),
                    FIXED,
                    card("pairs.1[]"),
                    card("pairs.1[]"),
                ),
                kind="hanamikoji-classic.compete",
                fixed=mine,
            ),
        }
        return [form for action, form in forms.items() if action not in state.used[seat]]

    def event_facts(
        self, before: ClassicState, event: Event, after: ClassicState
    ) -> dict[str, Any]:
        """The round, the action, its place in its player's round (1-4; a choice has none)
        and the cards shown."""
        facts: dict[str, Any] = {"round": max(before.round, after.round)}
        if isinstance(event, ClassicDeal):
            return facts
        action = _rules.action_of(event)
        facts["action"] = action
        seat = actor(event)
        if seat is not None and action in _rules.ACTIONS:
            facts["action_order"] = len(before.used[seat]) + 1
        shown = getattr(event, "cards", None) or getattr(event, "take", None)
        if shown is None and isinstance(event, ClassicCompete):
            shown = (*event.pairs[0], *event.pairs[1])
        if shown and action != "trade":  # trade-off cards are never shown
            facts["cards"] = [GEISHAS[c] for c in shown]
        return facts

    def player_facts(
        self, state: ClassicState, events: Mapping[str, Sequence[Any]]
    ) -> list[dict[str, Any]]:
        rows = []
        moves = list(zip(events["actor"], events["action"], events["action_order"], strict=True))
        for seat in (0, 1):
            firsts = [action for who, action, order in moves if who == seat and order == 1]
            rows.append(
                {
                    "points": state.points(seat),
                    "geishas": state.geishas(seat),
                    "rounds": len(state.history),
                    "first_action": firsts[0] if firsts else None,
                }
            )
        return rows


RULESET = HanamikojiClassic()
