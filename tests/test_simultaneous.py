"""Simultaneous steps (#35): a game declares its shape, the framework counts turns and words
a second move in one step, independent moves commute at the recorder, and a move id makes a
retry safe, across a restart."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from gametape.engine.fold import Fold
from gametape.engine.game import Game
from gametape.engine.registry import all_rulesets
from gametape.engine.ruleset import RuleViolation
from gametape.events.base import Move
from gametape.events.errors import StaleWrite
from gametape.events.store import Store
from gametape.testing.secrecy import play_random
from gametape.usecases.record import IdTaken, Recording, record_move
from tests.plugins.toy_bids import Bid, Bids

BIDS = Bids()


def _bids(players=("ann", "ben", "cat"), cards: int = 4) -> Game:
    return Game(Fold(BIDS, BIDS.new_setup(players, random.Random(1), {"cards": cards})))


def test_a_game_that_declares_a_simultaneous_step_gets_its_turns_counted():
    game = _bids()
    assert game.turn == 1
    game.push(Bid(player=1, card=2))
    game.push(Bid(player=0, card=1))
    assert game.turn == 1  # one step: everyone bids once
    game.push(Bid(player=2, card=4))
    assert game.turn == 2 and game.fold.turn_of(3) == 1


def test_a_second_move_in_one_step_is_worded_by_the_framework():
    game = _bids()
    game.push(Bid(player=1, card=2))
    with pytest.raises(RuleViolation, match="ben has already moved this step") as exc:
        game.push(Bid(player=1, card=3))
    assert exc.value.rule == "in a simultaneous step each player moves once"


@pytest.mark.parametrize(
    "rules", [*all_rulesets(), BIDS], ids=lambda r: r.name if hasattr(r, "name") else r
)
def test_the_result_of_a_step_does_not_depend_on_the_order_its_moves_came_in(rules):
    """Every simultaneous step of random games, its moves applied in every order from its
    start: the same state after the step."""
    checked = 0
    for seed in range(3):
        names = ("ann", "ben", "cat", "dan")[: min(rules.max_players, 3)]
        events = play_random(rules, names, random.Random(seed))
        fold = Fold(rules, events[0])
        for event in events[1:]:
            fold.push(event)
        k = 1
        while k < len(events):
            start = k - 1
            if not (rules.together(fold.states[start]) and isinstance(events[k], Move)):
                k += 1
                continue
            step = []
            while k < len(events) and fold.frames[k].turn == fold.frames[start].turn:
                step.append(events[k])
                k += 1
            if k < len(events) and isinstance(events[k], Move):
                step.append(events[k])  # the move that ended the step
                k += 1
            if not 1 < len(step) <= 4:
                continue
            results = set()
            for order in permutations(step):
                state = fold.states[start]
                for move in order:
                    state = rules.apply(state, move)
                results.add(_canonical(rules, state, len(names)))
            assert len(results) == 1, (rules.name, start)
            checked += 1
    if any(rules.together(s) for s in fold.states):
        assert checked


def _canonical(rules, state, players: int) -> bytes:
    """Every seat's view and the whole one: what a state shows anyone."""
    import msgspec

    return b"".join(msgspec.json.encode(rules.view(state, s)) for s in (*range(players), None))


# --- at the recorder: independent moves commute, a true race is 409 ---------------------


@pytest.fixture
def ohanami_game(tmp_path):
    from gametape.usecases.record import new_game

    store = Store(tmp_path)
    gid, _ = new_game(store, "ohanami", ["ann", "ben", "cat"], seed=5)
    return store, gid


def _pick(rec: Recording, seat: int) -> str:
    game = rec.game
    move = game.legal_moves(seat)[0]
    return game.ruleset.notation(game.state, move)


def test_moves_sent_at_the_same_seq_in_a_simultaneous_step_all_count(ohanami_game):
    store, gid = ohanami_game
    rec = Recording(store, store.path(gid))
    seq = len(rec.game.events)
    texts = {seat: _pick(rec, seat) for seat in (0, 1, 2)}
    for seat in (2, 0, 1):  # all sent at ``seq``, arriving in this order
        rec.move(texts[seat], rec.game.players[seat], expected=seq)
    assert rec.game.turn == 2
    # the same step entered one seat after another gives the same game
    other = Game.from_events(rec.game.events[:seq])
    for seat in (0, 1, 2):
        other.push(other.parse(texts[seat], seat))
    assert other.view(None) == Game.from_events(rec.game.events[: seq + 3]).view(None)


def test_a_true_race_is_still_refused(ohanami_game):
    store, gid = ohanami_game
    rec = Recording(store, store.path(gid))
    seq = len(rec.game.events)
    first, again = rec.game.legal_moves(0)[:2]
    notate = rec.game.ruleset.notation
    rec.move(notate(rec.game.state, first), "ann", expected=seq)
    with pytest.raises(StaleWrite):  # ann twice in one step
        rec.move(notate(rec.game.state, again), "ann", expected=seq)
    rec.move("undo", None)  # the host takes ann's pick back: the position ben saw is gone
    with pytest.raises(StaleWrite):
        rec.move(_pick(rec, 1), "ben", expected=seq)
    with pytest.raises(StaleWrite):  # a move without a seat (the host's) never commutes
        rec.move(_pick(rec, 1), None, expected=seq - 1)


def test_hanabi_moves_depend_on_each_other(tmp_path):
    from gametape.usecases.record import new_game

    store = Store(tmp_path)
    gid, _ = new_game(store, "hanabi", ["ann", "ben"], seed=5)
    rec = Recording(store, store.path(gid))
    rec.move("discard 1" if rec.game.state.clues < 8 else "clue ben 1", "ann", expected=1)
    with pytest.raises(StaleWrite):
        rec.move("clue ann 1", "ben", expected=1)


# --- move ids -------------------------------------------------------------------------


def test_a_retried_move_records_once_and_gets_the_first_answer_even_after_a_restart(
    ohanami_game,
):
    store, gid = ohanami_game
    rec = Recording(store, store.path(gid))
    seq, text = len(rec.game.events), _pick(rec, 0)
    first = rec.move(text, "ann", expected=seq, move_id="phone-ann-0001")
    again = rec.move(text, "ann", expected=seq, move_id="phone-ann-0001")
    assert again.again and (again.first, again.description) == (first.first, first.description)
    assert len(rec.game.events) == seq + 1
    restarted = Recording(store, store.path(gid))  # a new server reads the id from the log
    third = restarted.move(text, "ann", expected=seq, move_id="phone-ann-0001")
    assert third.again and third.first == first.first
    assert len(store.read(gid).events) == seq + 1
    # the same id with another move, or from another seat, is refused, not recorded
    with pytest.raises(IdTaken):
        restarted.move(_pick(restarted, 1), "ben", expected=seq, move_id="phone-ann-0001")
    assert len(store.read(gid).events) == seq + 1


def test_a_retried_undo_takes_back_one_move(ohanami_game):
    store, gid = ohanami_game
    rec = Recording(store, store.path(gid))
    rec.move(_pick(rec, 0), "ann")
    size = len(rec.game.events)
    rec.move("undo", None, move_id="host-undo-0001")
    rec.move("undo", None, move_id="host-undo-0001")
    assert len(rec.game.events) == size + 1


def test_the_cli_path_keeps_the_id_too(ohanami_game):
    store, gid = ohanami_game
    text = _pick(Recording(store, store.path(gid)), 0)
    one = record_move(store, store.read(gid), text, "ann", move_id="script-0000001")
    two = record_move(store, store.read(gid), text, "ann", move_id="script-0000001")
    assert two.again and two.first == one.first
    assert store.read(gid).events[one.first].move_id == "script-0000001"


def test_a_retry_of_a_move_taken_back_since_is_told_so(ohanami_game):
    """#49: a phone that sent its move again after the host took it back was told only
    "recorded as seq N"; it is told that seq N was taken back, and nothing is recorded."""
    store, gid = ohanami_game
    rec = Recording(store, store.path(gid))
    seq, text = len(rec.game.events), _pick(rec, 0)
    first = rec.move(text, "ann", expected=seq, move_id="phone-ann-0002")
    assert first.taken_back is None
    rec.move("undo", None)
    size = len(rec.game.events)
    again = rec.move(text, "ann", expected=seq, move_id="phone-ann-0002")
    assert again.again and again.first == first.first and again.taken_back == size - 1
    assert again.again_said.endswith(f"as seq {first.first}, and taken back at seq {size - 1}")
    assert len(store.read(gid).events) == size
