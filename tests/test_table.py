"""Recording games played at a real table: unknown deals, reveals, and the recorder.

Complete games are typed into `gametape record` as a person would, in the short notation,
from invented deals (a bot plays a shuffled game; a person at the table would say the same
moves). Each must validate, replay from every seat and index.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.cli.recorder import Recorder, prompt_reader
from gametape.engine import simulate as sim
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset
from gametape.engine.ruleset import RuleViolation
from gametape.events import Store, read_log
from gametape.usecases.record import Recording, new_game
from tests.helpers import TABLE_LINES as LINES

runner = CliRunner()


def _cli(store: Path, *args: str, **kw):
    result = runner.invoke(app, ["--store", str(store), *args], **kw)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def _bot_game(name: str, seed: int) -> Game:
    rules = get_ruleset(name)
    players = ["ann", "ben", "cat"][: max(rules.min_players, min(3, rules.max_players))]
    return sim.play(rules, players, rules.default_bot, random.Random(seed))


def _record_through_the_prompt(store: Store, gid: str, lines: list[str]) -> str:
    """Type ``lines`` into the prompt_toolkit recorder, then Ctrl-D; return what it printed."""
    shown = io.StringIO()
    console = Console(file=shown, width=100, force_terminal=False)
    with create_pipe_input() as pipe:
        for line in lines:
            pipe.send_text(line + "\r")
        pipe.send_text("\x04")  # Ctrl-D: leave
        read = prompt_reader(input=pipe, output=DummyOutput())
        Recorder(Recording(store, store.path(gid)), console, read).run()
    return shown.getvalue()


@pytest.mark.parametrize("name", ["hanabi", "ohanami", "hanamikoji"])
def test_a_whole_table_game_recorded_through_the_prompt(name, tmp_path):
    played = _bot_game(name, seed=11)
    store = Store(tmp_path / "store")
    gid, _ = new_game(store, name, played.players, table=True)
    lines = LINES[name](played)
    printed = _record_through_the_prompt(store, gid, lines)
    assert "refused" not in printed, printed[-2000:]
    assert printed.count("✓") == len(lines)
    assert "resume with: gametape record" in printed
    game = Game.from_events(read_log(store.path(gid)).events)
    assert game.is_over and game.result() == played.result()
    # it validates, replays from every seat and indexes
    assert _cli(store.root, "validate", gid).exit_code == 0
    for seat in [*played.players, None]:
        args = ["replay", gid, "--all", "--json"] + (["--as", seat] if seat else [])
        frames = _cli(store.root, *args)
        assert frames.exit_code == 0 and len(frames.stdout.splitlines()) == len(game.events)
    index = _cli(store.root, "index", "--json")
    assert json.loads(index.stdout)["invalid"] == 0
    sql = f"SELECT status FROM games WHERE game_id = '{gid}'"
    assert json.loads(_cli(store.root, "query", sql, "-f", "json").stdout) == {"status": "finished"}


def test_a_refused_move_explains_and_records_nothing_then_undo_and_resume(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = new_game(store, "hanabi", ["ann", "ben"], table=True)
    printed = _record_through_the_prompt(store, gid, ["c b r 13", "p1 y1", "?", "undo"])
    assert "refused (as seq 2)" in printed and "red clue at seq 1 touched it" in printed
    assert "ben: 10 legal moves" in printed and "took back seq 1" in printed
    log = read_log(store.path(gid))
    assert len(log.events) == 3 and log.error is None  # setup, clue, its retraction
    # resuming starts where the log ends
    printed = _record_through_the_prompt(store, gid, ["c b 1 2"])
    assert "turn 1 · ann" not in printed.split("✓")[-1] and "[seq 3]" in printed


# --- contradictions are refused naming both seqs, per game ------------------------------


def _game_at_table(store: Store, name: str, players: list[str]) -> Recording:
    gid, _ = new_game(store, name, players, table=True)
    return Recording(store, store.path(gid))


def test_hanabi_reveals_contradicting_a_clue_or_the_copies_name_both_seqs(tmp_path):
    rec = _game_at_table(Store(tmp_path), "hanabi", ["ann", "ben"])
    rec.move("c ben 1 1")  # seq 1: ben's slot 1 is a 1, the others are not
    with pytest.raises(RuleViolation) as exc:
        rec.move("p1 r2")  # seq 2 would say slot 1 is a red 2
    assert exc.value.seq == 2 and "the 1 clue at seq 1 touched it" in exc.value.message
    rec.move("p1 r1")  # seq 2: ben plays a red 1
    rec.move("p1 r1")  # seq 3: ann misplays the second red 1
    rec.move("c ann 1 1")  # seq 4
    rec.move("p1 r1")  # seq 5: ann misplays the third; the deck holds three
    with pytest.raises(RuleViolation) as exc:
        rec.move("see ann r1")  # a spectator says ann's newest card is a fourth red 1
    assert exc.value.seq == 6
    assert "holds 3 and 3 were already seen (at seq 2, seq 3, seq 5)" in exc.value.message


def test_ohanami_a_card_picked_twice_names_the_first_seq(tmp_path):
    rec = _game_at_table(Store(tmp_path), "ohanami", ["ann", "ben"])
    rec.move("a 37 2")  # seq 2 (seq 1 is the deal)
    with pytest.raises(RuleViolation) as exc:
        rec.move("b 37 1")
    assert exc.value.seq == 3 and "picked this round (at seq 2)" in exc.value.message
    rec.move("b 40 1")  # seq 3: the turn resolves, 37 is in ann's garden
    with pytest.raises(RuleViolation) as exc:
        rec.move("b 37 2")
    assert "already in ann's garden (placed at seq 2)" in exc.value.message


def test_hanamikoji_a_card_shown_twice_names_the_first_seq(tmp_path):
    rec = _game_at_table(Store(tmp_path), "hanamikoji", ["ann", "ben"])
    rec.move("a r8 ? ? v7")  # seq 1
    rec.move("b o2 ? ? g4")  # seq 2
    with pytest.raises(RuleViolation) as exc:
        rec.move("a v7 ? ? y3")
    assert exc.value.seq == 3 and "ann's violet7 was already shown at seq 1" in exc.value.message


def test_a_refusal_in_validation_names_both_seqs(tmp_path):
    from gametape.games.hanabi.events import HanabiPlay

    """A forged log whose reveal contradicts an earlier clue: validate names both."""
    from gametape.games.hanabi.events import Face

    store = Store(tmp_path)
    rec = _game_at_table(store, "hanabi", ["ann", "ben"])
    rec.move("c ben 1 1")
    card = rec.game.state.hands[1][-1]
    store.append_to(rec.path, [HanabiPlay(player=1, card=card, face=Face(0, 2))], expected_seq=2)
    result = _cli(store.root, "validate", rec.path.stem, "--json")
    problem = json.loads(result.stdout)["problem"]
    assert result.exit_code == 1 and problem["seq"] == 2 and "at seq 1" in problem["message"]


# --- durability: an accepted move survives SIGKILL ---------------------------------------


def test_sigkill_right_after_a_move_is_accepted_loses_nothing(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = new_game(store, "hanabi", ["ann", "ben"], table=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gametape.cli.app", "--store", str(store.root), "record", gid],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, COLUMNS="100"),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"c b r 13\n")
    proc.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 30
    while b"[seq 1]" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.read1(4096)  # type: ignore[attr-defined]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert b"[seq 1]" in seen
    log = read_log(store.path(gid))
    assert log.error is None and len(log.events) == 2


# --- chance is never re-rolled by undo ---------------------------------------------------


def test_taking_back_the_pick_that_ends_a_round_and_making_it_again_draws_the_same_deal(tmp_path):
    store = tmp_path / "store"
    gid = _cli(store, "new", "ohanami", "-p", "ann,ben", "--seed", "5").stdout.strip()
    while True:  # play greedy moves until a round's last pick deals the next round
        game = Game.from_events(read_log(store / f"{gid}.jsonl").events)
        seat = game.to_act()[0]
        move = game.legal_moves(seat)[0]
        text = game.ruleset.notation(game.state, move)
        before = len(game.events)
        assert _cli(store, "move", gid, text).exit_code == 0
        after = read_log(store / f"{gid}.jsonl").events
        if len(after) > before + 1:  # the pick was followed by a deal
            first_deal = after[-1]
            break
    assert _cli(store, "move", gid, "undo").exit_code == 0
    assert _cli(store, "move", gid, text).exit_code == 0
    again = read_log(store / f"{gid}.jsonl").events[-1]
    assert again == first_deal


# --- short notation ----------------------------------------------------------------------


def test_players_by_prefix_seat_number_and_names_with_spaces(tmp_path):
    store = tmp_path / "store"
    gid = _cli(store, "new", "hanabi", "-p", "Anna Maria,Bob,Bea", "--table").stdout.strip()
    assert _cli(store, "move", gid, "c bo r 1").exit_code == 0  # a unique prefix
    assert _cli(store, "move", gid, 'c "anna maria" 2 2').exit_code == 0  # quoted
    assert _cli(store, "move", gid, "c 1 g 3").exit_code == 0  # seat 1 is Anna Maria
    ambiguous = _cli(store, "move", gid, "c b r 1")
    assert ambiguous.exit_code == 1 and "could be Bob or Bea" in ambiguous.stderr
    notation = [
        json.loads(r)["move"] for r in _cli(store, "log", gid, "--json").stdout.splitlines()
    ]
    assert notation == ["clue Bob red 1", 'clue "Anna Maria" 2 2', 'clue "Anna Maria" green 3']
