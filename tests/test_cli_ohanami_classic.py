"""The published Ohanami through the CLI (#38): a whole four-player game recorded through
`record` from a pipe, dealt by the tool and at a table; then validate, stats, players, query
and the HTML replay on both."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.engine.game import Game
from gametape.events import read_log
from gametape.games.ohanami_classic import RULESET
from gametape.games.ohanami_classic.notation import short
from gametape.usecases.record import play
from tests.helpers import ohanami_classic_lines

runner = CliRunner()
PLAYERS = "ann,ben,cat,dan"


def gt(store: Path, *args: str, input: str | None = None):
    result = runner.invoke(app, ["--store", str(store), *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def _lines(store: Path, gid: str, seed: int) -> list[str]:
    """The moves of a game the greedy bot plays from each seat's view, in the short forms a
    recorder types, worked out on a copy of the game in memory (deals as `record` draws them)."""
    game = Game.from_events(read_log(store / f"{gid}.jsonl").events)
    bots = {s: RULESET.bots["greedy"]() for s in range(4)}
    rng = random.Random(seed)
    lines = []
    while not game.is_over:
        for seat in game.to_act():
            move = bots[seat].choose(game.view(seat), game.legal_moves(seat), rng)
            lines.append(short(game.state, move))
            play(game, lines[-1])
    return lines


def _table_lines(seed: int) -> list[str]:
    """A bot's game on a known deal, as a table records it."""
    from gametape.engine import simulate as sim

    played = sim.play(RULESET, ("ann", "ben", "cat", "dan"), "greedy", random.Random(seed))
    return ohanami_classic_lines(played)


def _checks_out(store: Path, gid: str) -> None:
    assert gt(store, "validate", gid).exit_code == 0
    stats = gt(store, "stats")
    assert stats.exit_code == 0, stats.output
    assert "points by kind and round" in stats.stdout
    assert "rows and discards" in stats.stdout
    players = gt(store, "players", "--json")
    assert players.exit_code == 0, players.output
    assert {p["name"] for p in json.loads(players.stdout)["players"]} >= {"ann", "dan"}
    facts = gt(
        store,
        "query",
        "SELECT seat, round_points, blue_points FROM ohanami_classic.player_facts "
        f"WHERE game_id = '{gid}' ORDER BY seat",
        "-f",
        "json",
    )
    assert facts.exit_code == 0, facts.output
    rows = [json.loads(line) for line in facts.stdout.splitlines()]
    assert len(rows) == 4 and all(len(r["round_points"]) == 3 for r in rows)
    page = store.parent / f"{gid}.html"
    exported = gt(store, "export", gid, "--format", "html", "-o", str(page))
    assert exported.exit_code == 0, exported.output
    html = page.read_text("utf-8")
    assert "Ohanami" in html and "row A" in html


def test_a_whole_four_player_game_recorded_through_record_from_a_pipe(tmp_path):
    store = tmp_path / "s"
    made = gt(store, "new", "ohanami-classic", "-p", PLAYERS, "--seed", "7", "--json")
    gid = json.loads(made.stdout)["game"]
    lines = _lines(store, gid, 7)
    assert sum(len(line) + 1 for line in lines) / len(lines) <= 8  # keys a move, Enter too
    recorded = gt(store, "record", gid, input="\n".join(lines) + "\n")
    assert recorded.exit_code == 0, recorded.output
    assert "game over" in recorded.stdout
    game = Game.from_events(read_log(store / f"{gid}.jsonl").events)
    assert game.is_over and len(game.events) == 1 + 3 + 4 * 15 * 2
    _checks_out(store, gid)


def test_a_whole_game_at_a_table_each_hand_entered_by_its_holder(tmp_path):
    store = tmp_path / "s"
    made = gt(store, "new", "ohanami-classic", "-p", PLAYERS, "--table", "--json")
    gid = json.loads(made.stdout)["game"]
    recorded = gt(store, "record", gid, input="\n".join(_table_lines(3)) + "\n")
    assert recorded.exit_code == 0, recorded.output
    game = Game.from_events(read_log(store / f"{gid}.jsonl").events)
    assert game.is_over and game.setup.at_table
    _checks_out(store, gid)


def test_an_illegal_move_is_refused_with_its_rule_and_nothing_is_written(tmp_path):
    store = tmp_path / "s"
    made = gt(store, "new", "ohanami-classic", "-p", "ann,ben", "--seed", "1", "--json")
    gid = json.loads(made.stdout)["game"]
    log = store / f"{gid}.jsonl"
    before = log.read_bytes()
    hand = Game.from_events(read_log(log).events).state.hands[1]
    for text, words in [
        (f"ann {hand[0]} {hand[1]}", "not in ann's hand"),  # ben's cards
        ("ann 1 2 3", "expected `choose"),
        ("[red]ann[/red] 1 2", "no player"),
    ]:
        result = gt(store, "move", gid, text)
        assert result.exit_code != 0
        assert words in result.output and "Traceback" not in result.output
        assert log.read_bytes() == before
    shown = gt(store, "move", gid, f"ann {hand[0]} {hand[1]}").output
    assert "rule: a player chooses two cards of their own hand" in shown


def test_question_mark_lists_the_moves_and_a_table_says_what_to_enter(tmp_path):
    store = tmp_path / "s"
    made = gt(store, "new", "ohanami-classic", "-p", "ann,ben", "--table", "--json")
    gid = json.loads(made.stdout)["game"]
    shown = gt(store, "move", gid, "?").stdout
    assert "hand ann CARD ×10" in shown and "hand ben CARD ×10" in shown
