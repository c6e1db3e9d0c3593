"""Hanabi's fast path for checking logs (gametape.games.hanabi.quick) against the rules it
shortcuts: on every event of real and generated games, the same state, turn and live moves;
on damaged games, the same first refused seq, message and rule."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametape.engine.fold import Fold, IllegalEvent, start
from gametape.engine.game import Game
from gametape.events.base import Abandon, Event
from gametape.games.hanabi import RULESET
from gametape.games.hanabi import hanablive as hl
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiPlay
from gametape.games.hanabi.quick import apply_many
from tests.conftest import HANABLIVE_EXAMPLES, SHARED
from tests.test_hanabi_variant_games import MECHANISMS

REAL = [
    p
    for root in (HANABLIVE_EXAMPLES, SHARED / "data" / "hanablive")
    if root.is_dir()
    for p in sorted(root.rglob("*.json"))
    if p.name != "manifest.json" and "variants" not in p.parts
]


def _reference(events: Sequence[Event]) -> tuple[Fold, IllegalEvent | None]:
    """Every event through ``Fold.push`` (the rules' own ``apply``), every state kept."""
    fold = start(RULESET, events)
    try:
        for _ in fold.walk(events[1:]):
            pass
    except IllegalEvent as exc:
        return fold, exc
    return fold, None


def _quick(events: Sequence[Event]) -> tuple[Fold, IllegalEvent | None]:
    """The fold as validation runs it: no states kept, so the fast path takes what it can."""
    fold = start(RULESET, events, keep=False)
    try:
        fold.extend(events[1:])
    except IllegalEvent as exc:
        return fold, exc
    return fold, None


def _same(events: Sequence[Event]) -> None:
    ref, ref_error = _reference(events)
    quick, quick_error = _quick(events)
    if ref_error is None or quick_error is None:
        assert ref_error is quick_error is None, (ref_error, quick_error)
    else:
        assert (quick_error.seq, quick_error.message, quick_error.rule) == (
            ref_error.seq,
            ref_error.message,
            ref_error.rule,
        )
    assert quick.state == ref.state
    assert (quick.events, quick.live, quick.ended) == (ref.events, ref.live, ref.ended)
    assert quick.turn() == ref.turn() and quick.frame == ref.frame


def _every_prefix(events: Sequence[Event]) -> None:
    """The fast path's state after each event is the reference's, and it takes them all."""
    ref, error = _reference(events)
    assert error is None
    for seq in range(1, len(events) + 1):
        quick, _ = _quick(events[:seq])
        assert quick.state == ref.states[seq - 1], seq
        assert quick.frame == ref.frames[seq - 1], seq


def _real_events(path: Path) -> list[Event]:
    source = hl.parse(path.read_bytes())
    return hl.to_game(source, play_on=True, reference=True).events


def _played(seed: int, players: int, variant: str, bot: str, **options: object) -> Game:
    rng = random.Random(seed)
    setup = RULESET.new_setup(
        [f"p{i}" for i in range(players)], rng, {"variant": variant, **options}
    )
    game = Game.new(setup)
    chooser = RULESET.bots[bot]()
    while not game.is_over:
        seat = game.state.current
        game.push(chooser.choose(game.view(seat), game.legal_moves(seat), rng))
    return game


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_games_fold_the_same_on_every_event(path):
    events = _real_events(path)
    _every_prefix(events)
    _same(events)


def generated(variant: str) -> list[Game]:
    """Three games of ``variant``: long and short, of 2, 5 and 3 players, with both of
    hanab.live's ends or the published rules'."""
    games = []
    for seed, (players, bot) in enumerate([(2, "heuristic"), (5, "random"), (3, "heuristic")]):
        as_hanablive = seed % 2 == 0
        games.append(
            _played(
                seed,
                players,
                variant,
                bot,
                end_at_max_score=as_hanablive,
                end_when_nothing_playable=as_hanablive,
            )
        )
    return games


@pytest.mark.parametrize("variant", ["No Variant", *MECHANISMS.values()])
def test_generated_games_of_every_mechanism_fold_the_same_on_every_event(variant):
    for game in generated(variant):
        _every_prefix(game.events)


def test_a_game_at_a_table_and_one_abandoned_fold_the_same():
    game = _played(7, 3, "No Variant", "heuristic")
    for seat in range(3):  # as each seat recorded it: faces seen, clues' touches, sees
        _same(RULESET.hypothesis(game.events, seat))
    for cut in (1, 10, 30):
        abandoned = [*game.events[:cut], Abandon(player=1, reason="stopped")]
        _same(abandoned)
        _same([*abandoned, game.events[cut]])  # nothing after an abandon


def _damaged(rng: random.Random, events: list[Event]) -> list[Event]:
    """The log with one event changed, dropped, repeated or added past the end."""
    at = rng.randrange(1, len(events))
    event = events[at]
    how = rng.randrange(6)
    if how == 0:
        return events[:at] + events[at + 1 :]
    if how == 1:
        return [*events[: at + 1], event, *events[at + 1 :]]
    if how == 2:
        return [*events, event]
    changes: dict[str, object] = {"player": rng.randrange(-1, 6)}
    if isinstance(event, HanabiPlay | HanabiDiscard):
        changes = rng.choice(
            [
                changes,
                {"card": rng.randrange(-2, len(events[0].deck) + 3)},
                {"face": Face(rng.randrange(-1, 7), rng.randrange(0, 7))},
                {"face": events[0].deck[event.card]},
            ]
        )
        if how == 5:  # a play made a discard, or a discard a play
            other = HanabiDiscard if isinstance(event, HanabiPlay) else HanabiPlay
            return [*events[:at], other(player=event.player, card=event.card), *events[at + 1 :]]
    elif isinstance(event, HanabiClue):
        changes = rng.choice(
            [
                changes,
                {"target": rng.randrange(-1, 6)},
                {"suit": rng.choice([None, *range(-1, 7)]), "rank": None},
                {"rank": rng.choice([None, *range(0, 7)]), "suit": None},
                {"suit": 0, "rank": 1},
                {"touched": tuple(rng.sample(range(50), rng.randrange(0, 4)))},
            ]
        )
    return [*events[:at], msgspec.structs.replace(event, **changes), *events[at + 1 :]]


@given(
    st.integers(0, 10**6),
    st.integers(2, 5),
    st.sampled_from(["No Variant", *MECHANISMS.values()]),
    st.sampled_from(["heuristic", "random"]),
)
def test_damaged_games_are_refused_at_the_same_seq_in_the_same_words(seed, players, variant, bot):
    game = _played(seed, players, variant, bot)
    rng = random.Random(seed)
    for _ in range(8):
        _same(_damaged(rng, list(game.events)))


def test_the_fast_path_reads_the_right_deal_when_games_are_started_in_between():
    """The fast path reuses the face indices of the deal ``rules.start`` checked last
    (``cards.LAST_DEAL``): a game started before another, or a deck equal to another's but
    its own, folds as the reference folds it."""
    one, two = (_played(seed, 3, "No Variant", "heuristic") for seed in (5, 6))
    first, second = RULESET.start(one.events[0]), RULESET.start(two.events[0])
    for game, state in ((one, first), (two, second), (one, first)):
        after, taken = apply_many(state, game.events[1:])
        assert (after, taken) == (game.state, len(game.events) - 1)
    again = msgspec.structs.replace(
        two.events[0], deck=tuple(Face(f.suit, f.rank) for f in two.events[0].deck)
    )
    RULESET.start(again)  # the same faces, another deck
    assert apply_many(first, one.events[1:]) == (one.state, len(one.events) - 1)
    assert apply_many(second, two.events[1:]) == (two.state, len(two.events) - 1)


def test_the_fast_path_takes_nothing_it_cannot_check():
    game = _played(3, 3, "No Variant", "heuristic")
    table = RULESET.hypothesis(game.events, 0)
    state = RULESET.start(table[0])
    assert apply_many(state, table[1:]) == (state, 0)  # faces enter the log as they are seen
    over = game.state
    assert apply_many(over, [game.events[1]]) == (over, 0)


def test_hanablive_files_import_as_the_action_by_action_fold_makes_them():
    for path in REAL:
        source = hl.parse(path.read_bytes())
        for play_on in (False, True):
            try:
                ref = hl.to_game(source, "f.json", play_on, reference=True)
            except hl.Refused as exc:
                with pytest.raises(hl.Refused) as again:
                    hl.to_game(source, "f.json", play_on)
                assert (again.value.kind, str(again.value)) == (exc.kind, str(exc))
                continue
            quick = hl.to_game(source, "f.json", play_on)
            assert quick.events == ref.events and quick.state == ref.state, path.name


def test_a_refused_hanablive_action_is_named_as_the_reference_names_it():
    data = json.loads((HANABLIVE_EXAMPLES / "example_game.json").read_text())
    rng = random.Random(5)
    for _ in range(40):
        broken = json.loads(json.dumps(data))
        action = rng.choice(broken["actions"])
        action[rng.choice(["type", "target", "value"])] = rng.randrange(-1, 8)
        source = hl.parse(json.dumps(broken).encode())
        outcomes = []
        for reference in (True, False):
            try:
                game = hl.to_game(source, "f.json", reference=reference)
                outcomes.append((game.events, game.state))
            except hl.Refused as exc:
                outcomes.append((exc.kind, str(exc)))
        assert outcomes[0] == outcomes[1]
