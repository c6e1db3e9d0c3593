"""Retraction: a mistake is corrected by appending an event, never by editing the log
(shared/DESIGN.md). The fold, the cursor, the CLI, analytics and export all understand it."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametape.analytics import ReadModel
from gametape.engine import simulate as sim
from gametape.engine.fold import IllegalEvent, live_seqs
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset, names
from gametape.engine.ruleset import RuleViolation
from gametape.events import Retract, Store, read_log
from gametape.games.hanabi import hanablive as hl
from gametape.replay import Cursor
from tests.helpers import fold, hanabi, moves

NAMES = names()


def _enc(x):
    return msgspec.json.encode(x)


def test_a_retraction_restores_the_state_before_the_move():
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, "clue bob 1")
    before = g.state
    moves(g, "play 1")  # bob plays y5: a strike
    assert g.state.strikes == 1
    g.push(Retract(seq=2, player=1, reason="meant slot 5"))
    assert g.state == before and len(g.events) == 4  # the log keeps both
    moves(g, "play 5")  # y1
    assert g.state.fireworks[1] == 1 and g.state.strikes == 0


def test_only_the_last_move_in_effect_can_be_taken_back():
    g = hanabi()  # alice r1 r1 r1 r2 r2, bob r3 r3 r4 r4 r5, cara y1 y1 y1 y2 y2
    moves(g, "clue bob 3", "clue cara 1")
    with pytest.raises(RuleViolation, match="seq 1 is not the last move in effect") as exc:
        g.push(Retract(seq=1))
    assert "last move still in effect" in exc.value.rule
    g.push(Retract(seq=2))
    g.push(Retract(seq=1))  # then the one before it
    assert g.state == fold(g.events[:1])
    with pytest.raises(RuleViolation, match="no move to take back"):
        g.push(Retract(seq=1))


def test_the_last_move_of_a_finished_game_can_be_taken_back():
    g = sim.play(get_ruleset("hanabi"), ["a", "b"], "random", random.Random(3))
    assert g.is_over
    last = len(g.events) - 1
    g.push(Retract(seq=last))
    assert not g.is_over and g.state == fold(g.events[:last])


def test_undo_also_takes_back_the_deals_recorded_after_the_move():
    g = sim.play(get_ruleset("ohanami"), ["a", "b"], "greedy", random.Random(1))
    # cut the game right after the first deal that followed a move (the summer deal)
    deal = next(s for s, e in enumerate(g.events) if type(e).__name__ == "OhanamiDeal" and s > 1)
    game = Game.from_events(g.events[: deal + 1])
    taken = game.undo(seat=0)
    assert [r.seq for r in taken] == [deal, deal - 1]
    for r in taken:
        game.push(r)
    assert _enc(game.state) == _enc(fold(g.events[: deal - 1]))
    assert live_seqs(game.events) == list(range(1, deal - 1))


@pytest.mark.parametrize("name", NAMES)
@given(seed=st.integers(0, 10**6), back=st.integers(1, 6))
def test_taking_back_k_moves_equals_the_game_without_them(name, seed, back):
    rules = get_ruleset(name)
    g = sim.play(
        rules, sim.default_players(sim.default_count(rules)), "random", random.Random(seed)
    )
    events = list(g.events)
    last = len(events) - 1
    back = min(back, last)
    events += [Retract(seq=last - i) for i in range(back)]
    assert _enc(fold(events)) == _enc(fold(g.events[: last - back + 1]))
    cursor = Cursor(events)
    assert _enc(cursor.states[-1]) == _enc(fold(g.events[: last - back + 1]))


def test_a_bad_retraction_in_a_log_is_reported_with_its_seq(tmp_path):
    store = Store(tmp_path)
    g = hanabi()
    moves(g, "clue bob 3", "clue cara 1")
    gid = store.create(g.setup, [*g.events[1:], Retract(seq=1)])
    with pytest.raises(IllegalEvent) as exc:
        fold(read_log(store.path(gid)).events)
    assert exc.value.seq == 3
    cursor = Cursor.open(store.path(gid))
    assert cursor.last == 2 and "seq 3" in str(cursor.problem)


def test_cli_undo_appends_a_retraction_and_nothing_is_edited(run):
    gid = json.loads(run("new", "hanabi", "--players", "a,b", "--seed", "1", "--json").stdout)[
        "game"
    ]
    path = run.root / f"{gid}.jsonl"
    rank = json.loads(run("show", gid, "--json").stdout)["view"]["hands"][1][0]["face"][1]
    assert run("move", gid, f"clue b {rank}").exit_code == 0
    before = path.read_bytes()
    result = run("move", gid, "undo")
    assert result.exit_code == 0 and "took back seq 1" in result.stdout
    after = path.read_bytes()
    assert after.startswith(before)  # appended, never rewritten
    assert read_log(path).events[-1] == Retract(seq=1)
    log = [json.loads(x) for x in run("log", gid, "--json").stdout.splitlines()]
    assert log[-1]["move"] == "undo" and "took back seq 1" in log[-1]["description"]
    show = json.loads(run("show", gid, "--json").stdout)["view"]
    assert show["clues"] == 8 and show["current"] == 0
    result = run("move", gid, "undo")
    assert result.exit_code == 1 and "no move to take back" in result.stderr


def test_analytics_marks_retracted_events_and_leaves_them_out_of_player_facts(tmp_path):
    store = Store(tmp_path)
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, "play 1")  # alice misplays r5; taken back
    g.push(Retract(seq=1))
    moves(g, "play 5")  # r1
    gid = store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    rows = model.query(
        f"SELECT seq, type, retracted, retracts FROM events WHERE game_id = '{gid}' ORDER BY seq"
    )[1]
    assert rows == [
        (1, "hanabi.play", True, None),
        (2, "retract", False, 1),
        (3, "hanabi.play", False, None),
    ]
    assert model.query(
        f"SELECT plays, misplays FROM hanabi.game_players WHERE game_id = '{gid}' AND seat = 0"
    )[1] == [(1, 0)]


def test_hanablive_export_holds_only_the_moves_in_effect():
    g = hanabi()
    moves(g, "clue bob 3")
    g.push(Retract(seq=1))
    moves(g, "clue cara 1")
    actions = hl.from_events(g.events)["actions"]
    assert actions == [{"type": 3, "target": 2, "value": 1}]


def test_a_move_taken_back_is_marked_everywhere_and_the_undo_names_it(run, tmp_path):
    """The score sheet, the replay and the HTML move list mark a move that was taken back and
    say which undo took it back; the undo says which move it took back."""
    from gametape.replay.html import page

    gid = run("new", "hanabi", "-p", "ann,ben,cat", "--seed", "1").stdout.strip()
    assert run("move", gid, "play 1").exit_code == 0
    assert run("move", gid, "play 2").exit_code == 0
    undo = run("move", gid, "undo")
    assert "took back seq 2 (ben: play 2)" in undo.stdout
    rows = [json.loads(r) for r in run("log", gid, "--json").stdout.splitlines()]
    assert rows[1]["undone_by"] == 3 and "undone_by" not in rows[0]
    assert rows[2]["description"] == "the table took back seq 2 (ben: play 2)"
    table = run("log", gid).stdout
    assert "↶" in table and "taken back at seq 3" in table  # the table wraps to the width
    frames = [json.loads(f) for f in run("replay", gid, "--json").stdout.splitlines()]
    assert [f["undone_by"] for f in frames] == [None, None, 3, None]
    assert "↶ taken back at seq 3" in run("replay", gid, "--at", "2").stdout
    cursor = Cursor.open(run.root / f"{gid}.jsonl")
    views = len(cursor.players) + 1  # the spectator's, and each seat's for the seat picker
    assert '"u":3' in page(cursor) and page(cursor).count('"u":') == views
    seat_frame = cursor.frame(3, 1)  # a seat sees the undo too, by seq
    assert seat_frame.change == "the table took back seq 2"
