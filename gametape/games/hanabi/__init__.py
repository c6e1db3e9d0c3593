"""Hanabi (Antoine Bauza, 2010), as ../shared/rules/hanabi.md specifies."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from gametape.engine.forms import FIXED, Blank, MoveForm, slot_sets
from gametape.engine.moves import number
from gametape.engine.ruleset import (
    ONLOOKER,
    R_UNSEEN,
    Declaration,
    Indexed,
    Notice,
    NotKnown,
    Option,
    Result,
    Ruleset,
    RuleViolation,
    viewer_name,
)
from gametape.events.base import Event
from gametape.games.hanabi import board as _board
from gametape.games.hanabi import knowledge as _knowledge
from gametape.games.hanabi import notation as _notation
from gametape.games.hanabi import quick as _quick
from gametape.games.hanabi import rules as _rules
from gametape.games.hanabi import view as _view
from gametape.games.hanabi.bots import BOTS
from gametape.games.hanabi.deck import Deck, deck_of
from gametape.games.hanabi.events import (
    DEFAULT_COPIES,
    DEFAULT_SUITS,
    HANABI_EVENTS,
    TUTORIAL_COPIES,
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiOptions,
    HanabiPlay,
    HanabiSee,
    HanabiSetup,
)
from gametape.games.hanabi.knowledge import KNOWLEDGE_LEVELS
from gametape.games.hanabi.state import HanabiState
from gametape.games.hanabi.tally import Tally
from gametape.games.hanabi.variants import UnknownVariant
from gametape.games.hanabi.view import HanabiView
from gametape.messages import say, seat_of

if TYPE_CHECKING:
    from gametape.interop.formats import Format


def _suits(text: str) -> tuple[str, ...]:
    """Suit names: 1-6 of them, each 1-20 letters, no two alike (ignoring case)."""
    suits = tuple(s.strip() for s in text.split(","))
    for suit in suits:
        if not 1 <= len(suit) <= 20 or not suit.isalpha():
            raise ValueError(f"{suit!r} is not a suit name (1-20 letters)")
    folded = [s.casefold() for s in suits]
    if len(set(folded)) != len(folded):
        raise ValueError(f"{text!r} names a suit twice")
    if not 1 <= len(suits) <= 6:
        raise ValueError(f"{len(suits)} suits; a game has 1-6")
    return suits


MOST_COPIES = 10  # copies of one rank of one suit (hanab.live's decks have at most 3)


def _copies(text: str) -> tuple[int, ...]:
    """Copies of ranks 1-5 per suit (``3,2,2,2,1``, each at most MOST_COPIES), or
    ``tutorial``."""
    if text == "tutorial":
        return TUTORIAL_COPIES
    counts = tuple(number(c.strip()) for c in text.split(","))
    bad = next((c for c, n in zip(text.split(","), counts, strict=True) if n is None), None)
    if bad is not None:
        raise ValueError(f"{bad.strip()!r} is not a whole number (up to 9 digits)")
    high = next((n for n in counts if n is not None and n > MOST_COPIES), None)
    if high is not None:  # a million copies took minutes and hundreds of MB to deal
        raise ValueError(f"{high:,} copies of a card; a rank has at most {MOST_COPIES}")
    return counts  # type: ignore[return-value]


def _options(options: Mapping[str, Any]) -> HanabiOptions:
    """The setup's options, each left out where it is its default (a log says only what was
    chosen: msgspec leaves out a default by identity, and a variant read from its name is an
    equal string, not the same one)."""
    defaults = HanabiOptions()
    chosen = {k: v for k, v in options.items() if v != getattr(defaults, k, None)}
    return HanabiOptions(**chosen)


def _deck_or_refuse(options: HanabiOptions) -> Deck:
    try:
        return deck_of(options)
    except UnknownVariant as exc:
        raise RuleViolation(exc.said, _rules.R_VARIANT) from None


def _variant(text: str) -> str:
    """A hanab.live variant by its exact name; a name hanab.live does not list is refused."""
    from gametape.games.hanabi.variants import variant

    try:
        return variant(text.strip()).name
    except UnknownVariant as exc:
        raise ValueError(str(exc)) from None


def _variant_names() -> list[tuple[str, str | None]]:
    """Every hanab.live variant (gametape plays them all: none lacks a rule)."""
    from gametape.games.hanabi.variants import catalogue

    return [(name, None) for name in catalogue()]


OPTIONS = (
    Option(
        "suits",
        _suits,
        DEFAULT_SUITS,
        help=say("hanabi.option-suits", "1-6 comma-separated suit names of 1-20 letters"),
    ),
    Option(
        "copies",
        _copies,
        DEFAULT_COPIES,
        help=say(
            "hanabi.option-copies",
            "copies of ranks 1-5 per suit (each 1-10), or `tutorial` for 1,2,2,2,1",
        ),
    ),
    Option(
        "starting_seat",
        int,
        0,
        help=say("hanabi.option-starting-seat", "the seat that acts first (0 to players - 1)"),
    ),
    Option(
        "end_at_max_score",
        bool,
        False,
        help=say(
            "hanabi.option-end-at-max-score",
            "end as soon as the best score still reachable is reached",
        ),
    ),
    Option(
        "end_when_nothing_playable",
        bool,
        False,
        help=say(
            "hanabi.option-end-when-nothing-playable",
            "end, as hanab.live does, once the deck is out and no card that could still be "
            "played is in a hand with a turn to come",
        ),
    ),
    Option(
        "variant",
        _variant,
        "No Variant",
        help=say(
            "hanabi.option-variant",
            'a hanab.live variant by name, e.g. "Rainbow (6 Suits)" (docs/variants.md)',
        ),
        catalogue=_variant_names,
    ),
    Option(
        "empty_clues",
        bool,
        False,
        help=say("hanabi.option-empty-clues", "a clue may touch no card (hanab.live's option)"),
    ),
    Option(
        "one_extra_card",
        bool,
        False,
        help=say("hanabi.option-one-extra-card", "each hand holds one card more"),
    ),
    Option(
        "one_less_card",
        bool,
        False,
        help=say("hanabi.option-one-less-card", "each hand holds one card less"),
    ),
)


class Hanabi(Ruleset[HanabiState]):
    """The ``hanabi`` ruleset."""

    declared = Declaration(
        name="hanabi",
        events=HANABI_EVENTS,
        players=(2, 6),  # 2-5 as published; 6 as hanab.live plays (hands of 3)
        options=OPTIONS,
        table=True,
        # a player is told "drew a card"; the others, its face
        describes_per_seat=True,
        cooperative=True,
        outcomes=("normal", "perfect", "strikeout"),
        landmark="strike",
        move_examples=(
            "play 2",
            "discard 5",
            "clue bob red",
            "clue bob 4",
            "table: p2 r3, d1 y4, c bob r 13, see bob r1 ? y2",
        ),
        event_columns={
            "clues": "INTEGER",
            "strikes": "INTEGER",
            "score": "INTEGER",
            "deck": "INTEGER",
            "card": "VARCHAR",
            "card_suit": "VARCHAR",
            "card_rank": "INTEGER",
            "success": "BOOLEAN",
            "target": "VARCHAR",
            "clue_kind": "VARCHAR",
            "clue": "VARCHAR",
            "pace": "INTEGER",
            "efficiency": "DOUBLE",
            "max_score": "INTEGER",
            "knowledge": "VARCHAR",
            "critical": "BOOLEAN",
            "touched": "VARCHAR",
        },
        player_columns={
            "plays": "INTEGER",
            "misplays": "INTEGER",
            "clues_given": "INTEGER",
            "discards": "INTEGER",
            "colour_clues": "INTEGER",
            "rank_clues": "INTEGER",
            **{f"plays_{level}": "INTEGER" for level in KNOWLEDGE_LEVELS},
            **{f"misplays_{level}": "INTEGER" for level in KNOWLEDGE_LEVELS},
            "critical_discards": "INTEGER",
        },
        reports=(
            (
                say("hanabi.report-misplays-by-rank", "misplays by rank"),
                """
            SELECT card_rank AS rank, count(*) AS misplays FROM hanabi.events
            WHERE type = 'hanabi.play' AND NOT success
            GROUP BY ALL ORDER BY misplays DESC, rank""",
            ),
            (
                say(
                    "hanabi.report-misplays-by-knowledge",
                    "misplays by what the player knew of the card",
                ),
                """
            SELECT knowledge, count(*) AS misplays FROM hanabi.events
            WHERE type = 'hanabi.play' AND NOT success
            GROUP BY ALL ORDER BY misplays DESC, knowledge""",
            ),
            (
                say("hanabi.report-scores-by-variant", "scores by variant"),
                """
            SELECT coalesce(options->>'variant', 'No Variant') AS variant,
                   player_count AS players, count(*) AS games, round(avg(score), 1) AS score,
                   count(*) FILTER (WHERE outcome = 'perfect') AS perfect
            FROM hanabi.games WHERE status = 'finished'
            GROUP BY ALL ORDER BY games DESC, variant, players""",
            ),
            (
                say("hanabi.report-efficiency-and-pace", "efficiency and pace by player count"),
                """
            WITH last AS (
                SELECT game_id, arg_max(efficiency, seq) AS efficiency, min(pace) AS min_pace,
                       count(*) FILTER (WHERE critical) AS critical_discards
                FROM hanabi.events WHERE NOT retracted GROUP BY game_id)
            SELECT g.player_count AS players, round(avg(l.efficiency), 2) AS efficiency,
                   round(avg(l.min_pace), 1) AS lowest_pace,
                   sum(l.critical_discards) AS critical_discards, count(*) AS games
            FROM hanabi.games g JOIN last l USING (game_id)
            WHERE g.status = 'finished' GROUP BY ALL ORDER BY ALL""",
            ),
        ),
    )
    # The rules, notation and views live in their modules; their functions are the hooks.
    facets = (_rules,)  # its @on handlers are the game's
    # its parts: each hook bound here, checked by mypy against the contract (Ruleset)
    start = staticmethod(_rules.start)
    to_act = staticmethod(_rules.to_act)
    legal_moves = staticmethod(_rules.legal_moves)
    is_over = staticmethod(_rules.is_over)
    hypothesis = staticmethod(_rules.hypothesis)
    apply_many = staticmethod(_quick.apply_many)

    def index_many(
        self, state: HanabiState, events: Sequence[Event]
    ) -> tuple[HanabiState, int, Indexed]:
        """The fast path telling a Tally each move it takes, which words it and reads its
        facts off the fast path's arrays (gametape.games.hanabi.tally)."""
        tally = Tally(state)
        after, taken = _quick.apply_many(state, events, tally)
        return after, taken, Indexed(tally.notation, tally.columns())

    parse_move = staticmethod(_notation.parse_move)
    notation = staticmethod(_notation.notation)
    describe = staticmethod(_notation.describe)
    kinds = staticmethod(_notation.kinds)
    view = staticmethod(_view.view)
    board = staticmethod(_board.board)
    bots = BOTS
    default_bot = "heuristic"

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> HanabiSetup:
        opts = _options(options)
        # a wrong count of copies deals the standard deck, and the setup's check names it
        dealt = opts if len(opts.copies) == 5 else replace(opts, copies=DEFAULT_COPIES)
        made = _deck_or_refuse(dealt)
        deck = [Face(s, r) for s, r in made.faces for _ in range(made.copies[made.index(s, r)])]
        rng.shuffle(deck)
        return HanabiSetup(players=tuple(players), options=opts, deck=tuple(deck))

    def table_setup(self, players: Sequence[str], options: Mapping[str, Any]) -> HanabiSetup:
        """The deck was shuffled at the table: every face is unknown until the game shows it
        (a play or discard names it, a clue names the slots it touched)."""
        opts = _options(options)
        size = sum(_deck_or_refuse(opts).copies)
        return HanabiSetup(players=tuple(players), options=opts, deck=(None,) * size, table=True)

    def move_forms(self, state: HanabiState, seat: int) -> list[MoveForm]:
        """At a table: play or discard a slot saying the card the table saw, clue a player a
        colour or rank saying the slots it touched, and the ``see`` of someone watching."""
        if state.outcome is not None or seat != state.current:
            return super().move_forms(state, seat)
        if not state.at_table:  # a dealt game's moves whole, plays and discards slot 1 first
            hand = state.hands[seat]

            def order(move: Event) -> tuple[int, int]:  # slot 1 is the newest card, last
                kinds = (HanabiPlay, HanabiDiscard, HanabiClue)
                kind = kinds.index(type(move)) if type(move) in kinds else len(kinds)
                slot = len(hand) - hand.index(move.card) if kind < 2 else 0  # type: ignore[attr-defined]
                return kind, slot

            moves = sorted(self.legal_moves(state, seat), key=order)
            return [MoveForm.literal(self.notation(state, m), m) for m in moves]
        names = state.setup.players
        deck = state.deck
        letters = deck.letters
        faces = tuple(f"{letter}{rank}" for letter in letters for rank in range(1, 6))
        face_values = tuple([s, rank] for s in range(len(letters)) for rank in range(1, 6))
        hand = state.hands[seat]
        slots = tuple(str(i) for i in range(1, len(hand) + 1))
        card = (
            FIXED,
            Blank(  # slot 1 is the newest card, the hand's last
                "slot", slots, say("hanabi.form-slot", "slot"), "card", tuple(reversed(hand))
            ),
            Blank("card", faces, say("hanabi.form-card", "card"), "face", face_values),
        )
        mine = {"player": seat}
        forms = [
            MoveForm(
                (("play", "p"), slots, faces),
                "play SLOT CARD",
                say("hanabi.note-play", "say the card the table saw: {example}", example="p2 r3"),
                blanks=card,
                kind="hanabi.play",
                fixed=mine,
            )
        ]
        if state.clues < state.max_clues:
            forms.append(
                MoveForm(
                    (("discard", "d"), slots, faces),
                    "discard SLOT CARD",
                    say(
                        "hanabi.note-play",
                        "say the card the table saw: {example}",
                        example="d1 y4",
                    ),
                    blanks=card,
                    kind="hanabi.discard",
                    fixed=mine,
                )
            )
        if state.clues >= deck.unit:
            ranks = tuple(deck.rank_word(r) for r in deck.ranks)
            named = (*(c.lower() for c in deck.colours), *ranks)
            told = (
                *({"suit": i} for i in range(len(deck.colours))),
                *({"rank": r} for r in deck.ranks),
            )
            values = (*named, *deck.colour_letters)
            for target in range(len(names)):
                if target != seat:
                    theirs = state.hands[target]
                    touched = tuple(str(i) for i in range(1, len(theirs) + 1))
                    forms.append(
                        MoveForm(
                            (
                                ("clue", "c"),
                                (names[target],),
                                values,
                                slot_sets(len(state.hands[target])),
                            ),
                            f"clue {names[target]} COLOUR|RANK SLOTS",
                            say(
                                "hanabi.note-clue",
                                "and the slots it touched: {example}",
                                example=f"c {names[target][:3].lower()} r 13",
                            ),
                            blanks=(
                                FIXED,
                                FIXED,
                                Blank(
                                    "value",
                                    named,
                                    say("hanabi.form-value", "colour|rank"),
                                    values=told,
                                ),
                                Blank(
                                    "slots",
                                    touched,
                                    say("hanabi.form-slots", "slots"),
                                    "touched",
                                    tuple(reversed(theirs)),
                                ),
                            ),
                            kind="hanabi.clue",
                            fixed={"player": seat, "target": target},
                        )
                    )
        seen = (*faces, "?")
        forms.append(
            MoveForm(
                (("see",), names, *(seen,) * len(state.hands[seat])),
                "see PLAYER CARD|? ...",
                say(
                    "hanabi.note-see",
                    "not a move: the faces someone watching saw in a hand, slot 1 first",
                ),
                own=False,  # nobody's move: a seat's page does not offer it
            )
        )
        return forms

    def shown(self, state: HanabiState, event: Event, seat: int) -> Event | None:
        """The deck as ``seat`` has seen it by ``state``: every card drawn but those in its
        own hand (the onlooker: in any hand); a card still in the deck is unseen. A clue, in
        the state after it: the cards it touched (everyone sees them)."""
        if isinstance(event, HanabiClue) and event.touched is None:
            return replace(self.redact(state, event, seat) or event, touched=state.touched)
        if not isinstance(event, HanabiSetup) or event.at_table:
            return None
        hidden = {o for h, hand in enumerate(state.hands) if seat in (h, ONLOOKER) for o in hand}
        if state.deck.hole and state.outcome is None:  # a card in the hole: not shown again
            hidden.update(o for o, by in state.hole if seat in (by, ONLOOKER))
        deck = event.deck
        return replace(
            event,
            deck=tuple(
                None if o >= state.next_card or o in hidden else face for o, face in enumerate(deck)
            ),
        )

    def redact(self, state: HanabiState, event: Event, seat: int) -> Event | None:
        """Faces a recorder noted in a hand are hidden from that hand's holder, and so from
        the onlooker, who sees only what the whole table sees. In Cow & Pig and Duck a clue's
        value is its giver's alone (``view.hide_value``); in Throw It in a Hole a card played
        at a table is named for the log alone."""
        if isinstance(event, HanabiSee) and seat in (event.target, ONLOOKER):
            return None
        if isinstance(event, HanabiClue) and state.deck.hidden_clues and seat != event.player:
            return _view.hide_value(state.deck, event)
        if (
            isinstance(event, HanabiPlay | HanabiDiscard)
            and state.deck.hole
            and event.face is not None
            and state.deck.lands_on_firework(event.face.suit, isinstance(event, HanabiPlay))
        ):
            return replace(event, face=None)  # a table's scribe named what went into the hole
        return event

    def sees(self, state: HanabiState, event: Event, seat: int) -> bool:
        """Throw It in a Hole: the end of the game shows what went into the hole."""
        return (
            state.deck.hole
            and state.outcome is not None
            and isinstance(event, HanabiPlay | HanabiDiscard)
            and any(o == event.card for o, _ in state.hole)
        )

    def check_known(self, view: HanabiView, event: Event) -> None:
        """In a game the tool dealt, the deck knows every face: a play or discard names its
        slot only, and a face named for a card its sender cannot see is refused whatever it
        is. Whether a clue touches a card is known only to those who see the hand."""
        if view.table or view.seat is None:
            return
        names = view.players
        if isinstance(event, HanabiPlay | HanabiDiscard) and event.face is not None:
            hand = view.hands[event.player]
            slot = next((i for i, c in enumerate(hand, 1) if c.order == event.card), None)
            if slot is not None and hand[slot - 1].face is None:
                verb = "play" if isinstance(event, HanabiPlay) else "discard"
                raise RuleViolation(
                    say(
                        "hanabi.unseen",
                        "{player}'s slot {slot} is not shown to {viewer}, and in a game the tool "
                        "dealt the deck says its face: write `{verb} {slot}`",
                        player=seat_of(names, event.player),
                        slot=slot,
                        viewer=viewer_name(names, view.seat),
                        verb=verb,
                    ),
                    R_UNSEEN,
                )
        if (
            isinstance(event, HanabiClue)
            and event.target != event.player
            and 0 <= event.target < len(view.hands)
            and any(c.face is None for c in view.hands[event.target])
        ):
            raise NotKnown(
                say(
                    "hanabi.clue-not-known",
                    "{target}'s cards are not shown to {viewer}, so which ones a clue touches "
                    "cannot be told",
                    target=seat_of(names, event.target),
                    viewer=viewer_name(names, view.seat),
                ),
                say(
                    "core.only-holder-enters",
                    "only {holder} can enter {holder}'s {what} ({holder}'s own page, or "
                    "`record --as {holder}`)",
                    holder=seat_of(names, event.player),
                    what=say("hanabi.clue", "clue"),
                ),
            )

    def result(self, state: HanabiState) -> Result | None:
        if state.outcome is None:
            return None
        n = state.n_players
        return Result(
            outcome=state.outcome,
            scores=(state.score,) * n,
            winners=(),
            details={
                "fireworks_sum": state.fireworks_sum,
                "strikes": state.strikes,
                "max_score": state.max_score,
            },
        )

    def notices(self, state: HanabiState) -> tuple[Notice, ...]:
        """The recorder's notes that facts made void or that are in dispute, at a table."""
        return state.notices

    def hindsight(self, state: HanabiState, final: HanabiState) -> HanabiState:
        """A table game's faces shown later (played, discarded, seen) filled in by order."""
        if None not in state.faces:
            return state
        seen = final.noted or (None,) * len(final.faces)
        faces = tuple(
            f if f is not None else final.faces[i] or seen[i] for i, f in enumerate(state.faces)
        )
        return state if faces == state.faces else replace(state, faces=faces)

    def learned_facts(
        self, before: HanabiState, event: Event, final: HanabiState
    ) -> dict[str, Any]:
        """A clue's ``touched`` cards, newest first, with every face the log knows by its end
        (at a table, faces shown after the clue; ``??`` for a face never shown)."""
        if not isinstance(event, HanabiClue):
            return {}
        touched = _rules.touched_by(before, event.target, event.suit, event.rank, event.touched)
        hand = before.hands[event.target]
        _, letters = _notation.canonical(before.deck)
        return {
            "touched": " ".join(
                _notation.card_name(final.faces[o], letters) for o in reversed(hand) if o in touched
            )
        }

    def event_facts(self, before: HanabiState, event: Event, after: HanabiState) -> dict[str, Any]:
        """Tokens, strikes, fireworks sum, deck, pace, efficiency and the best score still
        reachable after the move; the card played or discarded, what its holder knew of it
        then, whether a play succeeded and whether a discard was critical; a clue's receiver
        and kind (docs/analytics.md has the formulas)."""
        facts: dict[str, Any] = {
            "clues": int(after.clue_tokens),
            "strikes": after.strikes,
            "score": after.fireworks_sum,
            "deck": after.deck_left,
            "pace": _knowledge.pace(after),
            "efficiency": _knowledge.efficiency(after),
            "max_score": after.max_score,
        }
        if isinstance(event, HanabiPlay | HanabiDiscard):
            facts["knowledge"] = _knowledge.level_of(before, event.card)
            if isinstance(event, HanabiDiscard):
                facts["critical"] = _knowledge.critical(before, after)
        if isinstance(event, HanabiClue):
            facts["clue_kind"] = "colour" if event.suit is not None else "rank"
            facts["clue"] = before.deck.clue_word(event.suit, event.rank)
        card = getattr(event, "card", None)
        if card is not None:
            face = after.faces[card]
            suits, letters = _notation.canonical(before.deck)
            facts.update(
                card=_notation.card_name(face, letters),
                card_suit=suits[face.suit],
                card_rank=face.rank,
            )
            if isinstance(event, HanabiPlay):
                facts["success"] = after.strikes == before.strikes
        target = getattr(event, "target", None)
        if target is not None:
            facts["target"] = before.setup.players[target]
        return facts

    def player_facts(
        self, state: HanabiState, events: Mapping[str, Sequence[Any]]
    ) -> list[dict[str, Any]]:
        rows = [dict.fromkeys(self.player_columns, 0) for _ in state.setup.players]
        for seat, kind, success, level, clue_kind, critical in zip(
            events["actor"],
            events["type"],
            events["success"],
            events["knowledge"],
            events["clue_kind"],
            events["critical"],
            strict=True,
        ):
            if seat is None:
                continue
            if kind == "hanabi.play":
                outcome = "plays" if success else "misplays"
                rows[seat][outcome] += 1
                rows[seat][f"{outcome}_{level}"] += 1
            elif kind == "hanabi.clue":
                rows[seat]["clues_given"] += 1
                rows[seat][f"{clue_kind}_clues"] += 1
            elif kind == "hanabi.discard":
                rows[seat]["discards"] += 1
                rows[seat]["critical_discards"] += bool(critical)
        return rows

    def formats(self) -> Mapping[str, Format]:
        from gametape.games.hanabi.hanablive import HANABLIVE

        return {"hanablive": HANABLIVE}


HANABI = RULESET = Hanabi()

__all__ = ["HANABI", "RULESET", "Hanabi", "HanabiState", "HanabiView", "RuleViolation"]
