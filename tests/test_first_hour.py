"""A newcomer's first hour (#22): one meaning of "turn" per game, `list` that says when and
who, team scores for a cooperative game, one seat lookup, messages in the table's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.cli.board import render

runner = CliRunner()


def gt(store: Path, *args: str, input: str | None = None):
    result = runner.invoke(app, ["--store", str(store), *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def new(store: Path, *args: str) -> str:
    result = gt(store, "new", *args)
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def test_the_published_hanamikoji_counts_rounds_everywhere(tmp_path):
    store = tmp_path / "s"
    gid = new(store, "hanamikoji-classic", "-p", "ann,ben", "--seed", "2")
    shown = gt(store, "record", gid, input="?\n").stdout
    assert "round 1 · " in shown and "turn 1 · " not in shown
    gt(store, "simulate", "hanamikoji-classic", "-n", "3")
    frame = gt(store, "replay", gid, "--at", "1").stdout
    assert frame.startswith("seq 1/") and ", round 1" in frame.splitlines()[0]
    log = gt(store, "log", gid).stdout
    assert " round " in log.splitlines()[1] and " turn " not in log.splitlines()[1]
    stats = json.loads(gt(store, "stats", "hanamikoji-classic", "--json").stdout)
    assert "avg_rounds" in stats["lengths"][0] and "avg_turns" not in stats["lengths"][0]
    hanabi = json.loads(gt(store, "stats", "hanamikoji-classic", "--json").stdout)
    assert hanabi["players"][0]["wins"] >= 0


def test_an_undo_frame_shows_the_turn_it_returns_to(tmp_path):
    store = tmp_path / "s"
    gid = new(store, "hanabi", "-p", "ann,ben,cat", "--seed", "1")
    for move in ("play 1", "play 1", "undo"):  # ann (turn 1), ben (turn 2), taken back
        assert gt(store, "move", gid, move).exit_code == 0, move
    frames = [json.loads(line) for line in gt(store, "replay", gid, "--json").stdout.splitlines()]
    assert [f["turn"] for f in frames] == [1, 1, 2, 2]  # the undo is turn 2 again, not 3
    assert json.loads(gt(store, "show", gid, "--json").stdout)["view"]["turn"] == 2
    row = [json.loads(line) for line in gt(store, "log", gid, "--json").stdout.splitlines()][-1]
    assert row["move"] == "undo" and row["turn"] == 2


def test_list_says_when_and_who_and_names_the_winners(tmp_path):
    store = tmp_path / "s"
    gt(store, "simulate", "ohanami", "-n", "1", "--players", "3")
    shown = gt(store, "--help").exit_code == 0 and runner.invoke(
        app, ["--store", str(store), "list"], env={"COLUMNS": "160"}
    )
    assert "last played" in shown.stdout and "players" in shown.stdout
    assert "alice, bob, cara" in shown.stdout and " won" in shown.stdout
    row = json.loads(gt(store, "list", "--json").stdout)
    assert row["players"] == ["alice", "bob", "cara"]
    assert row["winners"] and set(row["winners"]) <= set(row["players"])
    assert row["started"].endswith("Z") and row["last"] >= row["started"]


def test_a_cooperative_game_reports_team_scores_not_wins(tmp_path):
    store = tmp_path / "s"
    gt(store, "simulate", "hanabi", "-n", "3")
    stats = json.loads(gt(store, "stats", "hanabi", "--json").stdout)
    players = stats["players"]
    assert players and all("wins" not in p for p in players)
    assert all(p["avg_team_score"] is not None for p in players)
    competitive = tmp_path / "c"
    gt(competitive, "simulate", "ohanami", "-n", "2")
    assert "wins" in json.loads(gt(competitive, "stats", "ohanami", "--json").stdout)["players"][0]


@pytest.mark.parametrize("cmd", [["show"], ["replay", "--at", "0"], ["export", "-f", "html"]])
def test_a_player_named_by_a_prefix_works_for_every_seat_option(tmp_path, cmd):
    store = tmp_path / "s"
    gid = new(store, "hanabi", "-p", "alice,bob", "--seed", "1")
    result = gt(store, cmd[0], gid, *cmd[1:], "--as", "bo")
    assert result.exit_code == 0, result.output
    assert gt(store, cmd[0], gid, *cmd[1:], "--as", "2").exit_code == 0
    bad = gt(store, cmd[0], gid, *cmd[1:], "--as", "zed")
    assert bad.exit_code == 2 and "no player 'zed'" in bad.stderr


def test_new_at_a_table_points_to_record(tmp_path):
    result = gt(tmp_path / "s", "new", "hanabi", "-p", "ann,ben", "--table")
    assert "next: gametape record " in result.stderr
    dealt = gt(tmp_path / "s", "new", "hanabi", "-p", "ann,ben")
    assert "next: gametape show " in dealt.stderr


def test_messages_name_cards_as_the_table_does(tmp_path):
    store = tmp_path / "s"
    gid = new(store, "hanabi", "-p", "ann,ben,cat", "--table")
    out = gt(store, "record", gid, "--keep-going", input="c ben r 13\np1 y1\np1\n").stdout
    assert "ben's slot 1 is recorded as yellow 1, but the red clue at seq 1 touched it" in out
    assert "say which card it was: the face of ben's slot 1 is not known yet (e.g. p2 r3)" in out
    assert "card #" not in out and "observed" not in out and "derive" not in out
    koji = new(store, "hanamikoji", "-p", "ann,ben", "--table", "-o", "first=0")
    out = gt(store, "record", koji, "--keep-going", input="b o2 b5 ? g4 y3\nb o7 b5 ? g4\n").stdout
    assert "5 cards named: an assignment is four cards" in out
    assert "7 is a violet performer" in out
    orange = gt(store, "move", koji, "b r2 b5 ? g4")
    assert "2 is an orange performer" in orange.stderr
    shown = gt(store, "show", new(store, "hanamikoji", "-p", "a,b", "--seed", "1"), "--at", "0")
    assert "deck 5" in shown.stdout and "1 cards" not in shown.stdout


def test_counts_are_plural_only_when_more_than_one(tmp_path):
    import io
    import random

    from rich.console import Console

    from gametape.engine import simulate as sim
    from gametape.engine.registry import get_ruleset
    from gametape.messages import count_of
    from gametape.messages import render as render_said

    rules = get_ruleset("hanamikoji")
    played = sim.play(rules, ["a", "b"], "random", random.Random(1))
    state = next(s for s in played.fold.states if len(s.decks[0]) == 1)
    shown = io.StringIO()
    Console(file=shown, width=100).print(render(rules.board(rules.view(state, None), "t")))
    assert "deck 1 " in shown.getvalue() and "1 cards" not in shown.getvalue()
    said = [render_said(count_of(n, "card")) for n in (1, 2)]
    assert said == ["1 card", "2 cards"]
    store = tmp_path / "s"
    gt(store, "simulate", "hanabi", "-n", "1")
    one = gt(store, "query", "SELECT 1 AS n")
    assert one.stderr.strip().endswith("1 row")
