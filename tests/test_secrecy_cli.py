"""#34 at the terminal: `log --as`, `record --as`, `move ?` and `move --id` show and accept
only what their seat may know."""

from __future__ import annotations

import json

from tests.test_cli_ohanami import _legal_pick, _new, _view


def test_log_as_a_seat_hides_the_other_seats_secret_picks(run):
    gid = _new(run)
    alice = _legal_pick(_view(run, gid, "alice"), 0)
    assert run("move", gid, alice).exit_code == 0
    card = alice.split()[2]
    whole = run("log", gid).stdout
    assert card in whole
    as_bob = run("log", gid, "--as", "bob", "--json").stdout
    rows = [json.loads(line) for line in as_bob.splitlines()]
    pick = rows[-1]
    assert pick["move"] == "(hidden)" and card not in json.dumps(pick)
    assert pick["description"] == "alice picked a card in secret"
    own = [
        json.loads(line) for line in run("log", gid, "--as", "alice", "--json").stdout.splitlines()
    ]
    assert card in own[-1]["move"]


def test_record_as_a_seat_echoes_and_refuses_as_that_seat(run, monkeypatch):
    """bob's recorder: alice's pick typed there is refused in the same words whatever the
    card (bob cannot see her hand), bob's own pick is recorded and echoed as bob sees it."""
    gid = _new(run)
    alice = _legal_pick(_view(run, gid, "alice"), 0)
    bob = _legal_pick(_view(run, gid, "bob"), 1)
    other = f"pick alice {4 if '4' not in alice else 5} row=1"
    answers = []
    for text in (alice, other):
        done = run("record", gid, "--as", "bob", input=f"{text}\n")
        assert done.exit_code == 1
        answers.append(done.output.split("refused")[1].splitlines()[0])
    assert answers[0] == answers[1] and "alice's hand is not shown to bob" in answers[0]
    done = run("record", gid, "--as", "bob", input=f"{bob}\n")
    assert done.exit_code == 0 and "bob picked a card in secret" in done.output


def test_move_question_mark_lists_the_legal_moves(run):
    gid = _new(run)
    listed = run("move", gid, "?")
    assert listed.exit_code == 0
    assert "alice:" in listed.stdout and "pick alice" in listed.stdout


def test_a_move_sent_again_with_its_id_is_recorded_once(run):
    gid = _new(run)
    alice = _legal_pick(_view(run, gid, "alice"), 0)
    first = run("move", gid, alice, "--id", "script-0001", "--json")
    again = run("move", gid, alice, "--id", "script-0001", "--json")
    assert first.exit_code == again.exit_code == 0
    assert json.loads(first.stdout)["seq"] == json.loads(again.stdout)["seq"]
    assert len(run("log", gid, "--json").stdout.splitlines()) == 2  # the deal and one pick
    bad = run("move", gid, alice, "--id", "no spaces!")
    assert bad.exit_code == 2 and "move id" in bad.stderr


def test_record_keep_going_does_not_advise_recording_the_rest_again(run):
    """#37: after --keep-going the lines after a refused one are recorded; the old advice
    (run record again with the rest) would have recorded them twice."""
    made = run("new", "hanabi", "--players", "ann,ben", "--table", "--json")
    gid = json.loads(made.stdout)["game"]
    done = run("record", gid, "--keep-going", input="c ben 1 1\nnot a move\nc ann 2 2\n")
    assert done.exit_code == 1
    assert "again with the rest" not in done.output
    assert "every other line was recorded" in done.output
    assert len(run("log", gid, "--json").stdout.splitlines()) == 2  # both clues, once


def test_record_says_where_it_resumes_and_that_a_finished_game_is_over(run):
    """#36: resuming showed the board but not where; a finished game was left 'over' with
    advice to resume it."""
    gid = _new(run)
    alice = _legal_pick(_view(run, gid, "alice"), 0)
    assert run("move", gid, alice).exit_code == 0
    resumed = run("record", gid, input="")
    assert "resumed at seq 2" in resumed.output and "resume with" in resumed.output
    hanabi = run("simulate", "hanabi", "--games", "1", "--seed", "3", "--json")
    done = json.loads(hanabi.stdout)["games"][0]
    over = run("record", done, input="")
    assert "this game is over" in over.output and "left the game: it is over" in over.output
