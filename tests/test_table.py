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
    assert "left the game: it is over" in printed  # a finished game is not to resume
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
    assert "ben: 4 kinds of move" in printed and "took back seq 1" in printed
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
    with pytest.raises(RuleViolation) as exc:  # ben's pick shows the turn: the clash shows
        rec.move("b 37 1")
    assert exc.value.seq == 3 and "37 was picked by ann and by ben" in exc.value.message
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


# --- reviewing a table game (#22) ------------------------------------------------------------


def _recorded(tmp_path: Path, name: str, seed: int) -> tuple[Store, str, Game]:
    """A whole game recorded at a table from a bot game's moves; and the bot game."""
    played = _bot_game(name, seed)
    store = Store(tmp_path / "s")
    gid, _ = new_game(store, name, list(played.players), table=True)
    rec = Recording(store, store.path(gid))
    for line in LINES[name](played):
        rec.move(line)
    return store, gid, played


def _recorded_hanabi(tmp_path: Path) -> tuple[Store, str, Game]:
    return _recorded(tmp_path, "hanabi", 11)


def test_the_spectators_review_of_a_table_game_shows_faces_learned_later(tmp_path):
    from gametape.replay import Cursor

    store, gid, played = _recorded_hanabi(tmp_path)
    cursor = Cursor.open(store.path(gid))
    assert cursor.learned_later
    final = cursor.states[-1]
    for seq in range(cursor.last + 1):
        frame = cursor.frame(seq)
        truth = played.fold.states[seq]
        for hand, real in zip(frame.view.hands, truth.hands, strict=True):
            assert [c.order for c in hand] == list(reversed(real))
            for card in hand:  # every face the log learned, shown from the start
                assert card.face == final.faces[card.order]
                if card.face is not None:
                    assert card.face == truth.faces[card.order]
        for seat in range(len(cursor.players)):  # a seat still sees only what it knew then
            assert cursor.frame(seq, seat).view == played.ruleset.view(cursor.states[seq], seat)
    # the clue's question: what ben held when ann clued him
    clue = next(s for s in range(1, cursor.last + 1) if "clue" in cursor.frame(s).kinds)
    touched = cursor.frame(clue).view.hands[cursor.events[clue].target]
    assert any(c.face is not None for c in touched)
    assert all(c.face is None for c in cursor.frame(clue, 0).view.hands[0])


def test_the_review_says_faces_learned_later_are_shown(tmp_path):
    store, gid, _ = _recorded_hanabi(tmp_path)
    page = _cli(store.root, "export", gid, "--format", "html").stdout
    assert '"learned_later":true' in page
    seat = _cli(store.root, "export", gid, "--format", "html", "--as", "ann").stdout
    assert '"learned_later":false' in seat
    replay = _cli(store.root, "replay", gid, "--at", "3")
    assert "faces learned later are shown" in replay.stderr
    dealt = Store(tmp_path / "d")
    gid2, _ = new_game(dealt, "hanabi", ["a", "b"], 3)
    assert '"learned_later":false' in _cli(dealt.root, "export", gid2, "--format", "html").stdout


def test_the_read_model_knows_what_a_table_clue_touched(tmp_path):
    from gametape.analytics import ReadModel
    from gametape.games.hanabi.notation import card_name
    from gametape.replay import Cursor

    store, gid, played = _recorded_hanabi(tmp_path)
    model = ReadModel(store.root)
    model.refresh()
    rows = model.query(
        "SELECT seq, touched FROM hanabi.events WHERE type = 'hanabi.clue' ORDER BY seq"
    )[1]
    assert rows
    recorded = Cursor.open(store.path(gid))
    learned = recorded.states[-1].faces  # what the table log knows by its end
    suits = played.state.deck.letters
    for seq, touched in rows:
        before, event = played.fold.states[seq - 1], played.events[seq]
        value = (lambda f: f.suit) if event.suit is not None else (lambda f: f.rank)
        wanted = event.suit if event.suit is not None else event.rank
        real = [o for o in reversed(before.hands[event.target]) if value(before.faces[o]) == wanted]
        assert touched == " ".join(card_name(learned[o], suits) for o in real), seq
    shown = " ".join(t for _, t in rows).split()
    assert any(t != "??" for t in shown)  # faces learned after the clue are there
    plays = model.query(
        "SELECT count(*) FROM hanabi.events WHERE type = 'hanabi.play' AND card_suit IS NULL"
    )[1]
    assert plays == [(0,)]


# --- `?` and Tab at a table (#22) -------------------------------------------------------------


@pytest.mark.parametrize("name", ["hanabi", "ohanami", "hanamikoji", "hanamikoji-classic"])
def test_question_mark_at_a_table_lists_the_forms_a_seat_can_make(tmp_path, name):
    store = tmp_path / "s"
    options = ["-o", "first=0"] if name.startswith("hanamikoji") else []
    gid = _cli(store, "new", name, "--players", "ann,ben", "--table", *options).stdout.strip()
    shown = _cli(store, "record", gid, input="?\n").stdout
    assert "0 legal moves" not in shown and "kind" in shown, shown
    wanted = {
        "hanabi": ["play SLOT CARD", "clue ben COLOUR|RANK SLOTS", "say the card the table saw"],
        "ohanami": ["pick ann CARD row=1|2|3|discard", "pick ben CARD"],
        "hanamikoji": ["assign ann PERFORM HIDDEN|? SACRIFICE|? VOTE"],
        "hanamikoji-classic": ["secret [CARD]", "gift CARD CARD CARD", "compete CARD CARD /"],
    }[name]
    for text in wanted:
        assert text in shown, (text, shown)
    assert "play 1\n" not in shown  # a bare play, refused at a table, is not offered


def _recorder(store: Store, gid: str):
    return Recorder(Recording(store, store.path(gid)), Console(file=io.StringIO()), None)


def test_tab_follows_the_move_being_typed_at_a_table(tmp_path):
    store = Store(tmp_path / "s")
    gid, _ = new_game(store, "hanabi", ["ann", "ben", "cat"], table=True)
    rec = _recorder(store, gid)
    assert rec.complete("clue b") == ["ben"]
    after = rec.complete("clue ben ")
    assert {"red", "r", "1", "5"} <= set(after) and "ben" not in after
    assert rec.complete("c ben r ")[:3] == ["1", "2", "3"] and "135" in rec.complete("c ben r ")
    assert rec.complete("p") and {"play", "p"} <= set(rec.complete("p"))
    assert {"r1", "w5"} <= set(rec.complete("play 2 "))
    assert set(rec.complete("u")) == {"undo"}
    dealt = new_game(store, "hanabi", ["ann", "ben"], 3)[0]
    assert "ben" in _recorder(store, dealt).complete("clue ")


@pytest.mark.parametrize("name", ["hanabi", "ohanami", "hanamikoji"])
def test_every_move_a_table_types_fits_a_form_offered_then(tmp_path, name):
    import re

    from gametape.engine.forms import next_words

    played = _bot_game(name, 5)
    store = Store(tmp_path / "s")
    gid, _ = new_game(store, name, list(played.players), table=True)
    rec = _recorder(store, gid)
    for line in LINES[name](played):
        typed = re.sub(r"^([pd])([0-9])\b", r"\1 \2", line)  # `p2 r3` is `p 2 r3`
        forms = [f for fs in rec.forms().values() for f in fs]
        words = typed.split()
        for i, word in enumerate(words):
            offered = next_words(forms, " ".join(words[:i]) + (" " if i else ""))
            assert any(o.casefold().startswith(word.casefold()) for o in offered), (line, i)
        assert rec.record(line), line


def test_a_hanabi_deck_of_unknown_faces_needs_the_table_field():
    from gametape.engine.fold import IllegalEvent
    from gametape.games.hanabi.events import HanabiSetup

    unknown = (None,) * 50
    with pytest.raises(IllegalEvent, match='does not say "table": true'):
        Game.from_events([HanabiSetup(game="g", players=("a", "b"), deck=unknown)])
    known = _bot_game("hanabi", 1).setup.deck  # type: ignore[attr-defined]
    with pytest.raises(IllegalEvent, match='says "table": true, but the deck names every face'):
        Game.from_events([HanabiSetup(game="g", players=("a", "b"), deck=known, table=True)])
    legacy = HanabiSetup(game="g", players=("a", "b"), deck=unknown, meta={"table": True})
    assert Game.from_events([legacy]).state.at_table


def test_the_review_of_a_hanamikoji_table_game_shows_each_rounds_cards_in_hand(tmp_path):
    from gametape.replay import Cursor

    store, gid, played = _recorded(tmp_path, "hanamikoji", 3)
    cursor = Cursor.open(store.path(gid))
    assert cursor.learned_later
    for seq in range(cursor.last):
        state = cursor.states[seq]
        frame = cursor.frame(seq)
        truth = played.fold.states[seq]
        for seat, side in enumerate(frame.view.seats):
            if state.pending[seat] is not None:
                continue
            shown = [c for c in side.hand if c]
            assert set(shown) <= set(truth.hands[seat])  # nothing shown it did not hold
            assigned = cursor.states[-1].rounds[state.round - 1].zones[seat]
            assert {c for c in (assigned.perform, assigned.vote)} <= set(shown)
        # a seat sees only what its log knew then: its hand as the log had it
        assert cursor.frame(seq, 0).view.seats[0].hand == state.hands[0]
